"""The layout every further lesson view shares: controls, 3D chains, a parameter scrubber, plots.

The lesson views (track, Euler, blend, integration) each have a small Qt-free
model; this module is only the widgets they have in common, so the views
differ in what they compute and show, not in how they are laid out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PyQt6 import QtCore, QtGui, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.model.explain import glue_formulas
from quatlab.app.qt.details_fit import line_bottoms
from quatlab.app.qt.flow_legend import RowLegend
from quatlab.app.qt.scrubber import Scrubber, ValueParameter, model_parameter
from quatlab.rendering.flow_layout import FlowRow
from quatlab.rendering.plot_arrange import PLOT_LEAST_HEIGHT_LINES, PLOT_LEAST_WIDTH_LINES
from quatlab.rendering.style import FOREGROUND

__all__ = ["ParamSlider", "LessonPanel", "ExplanationLabel", "legend_html", "swatch"]


def swatch(colour: str, mark: str = "■") -> str:
    """A legend mark in ``colour`` outlined in the text colour, as rich text.

    Pale marks (the gimbal's yellow, 1.16:1 on the light window) did not
    read as a mark at all; the 1-px outline in the text colour (the light
    palette's, which a theme switch rewrites into its own) gives every colour
    an edge well over 3:1 on the window.
    """
    return (f"<span style='color:{colour}; -qt-stroke-color:{FOREGROUND}; "
            f"-qt-stroke-width:1px'>{mark}</span>")


#: The lessons' legend mark for a chain: a disc, as its joints are drawn. A filled
#: square beside the toolbar's real checkboxes read as one more checkbox.
CHAIN_MARK = "●"


def chain_entry(colour: str, text: str) -> str:
    """One chain's legend entry: its mark in ``colour``, its name in the text colour.

    Only the swatch takes the colour: orange names on the light window
    measured 1.96:1, a pale blue 2.0:1.
    """
    return f"{swatch(colour, CHAIN_MARK)}&nbsp;{text}"


def legend_html(entries: Sequence[tuple[str, str]]) -> str:
    """A one-line colour legend for the 3D chains: ``[(colour, text), ...]``."""
    return "&nbsp; ".join(chain_entry(c, t) for c, t in entries)


class ParamSlider(Scrubber):
    """A slider with a spin box over [0, 1] reporting to ``on_change``, without playback.

    For values a view pushes back itself with ``set_value`` (which does not
    call ``on_change``), such as the blend lesson's pose weights.
    """

    def __init__(self, name: str, on_change: Callable[[float], None], parent=None,
                 *, tooltip: str = "", decimals: int = 3) -> None:
        param = ValueParameter(on_change, name=name, decimals=decimals, tooltip=tooltip)
        super().__init__(param, parent, prefix="param", playback=False)


class ExplanationLabel(QtWidgets.QLabel):
    """A lesson's explanation: rich text whose formulas hold together when it wraps.

    Every text set goes through :func:`~quatlab.app.model.explain.glue_formulas`,
    so each lesson's model writes plain sentences (translated as they are)
    and no view has to remember the glue: "|q|²", "‖RᵀR − I‖" or
    "（= 20.0°）" never break across lines.
    """

    #: Called after each new text (the area around it sizes itself by the first).
    on_text: Callable[[], None] | None = None

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(glue_formulas(text))
        if self.on_text is not None:
            self.on_text()


class ExplanationArea(QtWidgets.QScrollArea):
    """A lesson's explanation in a frameless area that scrolls when the text is longer
    than the room it is given, and whose height does not follow the slider.

    Over the stage (``top``) its height is set once per preset (and width): the
    first text's, a line more, up to TOP_SHARE of the window's height, and
    never lower than that of a preset shown before at this width; a longer
    text at another t scrolls in it. A height that followed each text
    resized the 3D view, and re-framed it, as t moved (the blend tab's zoom
    changed between t = 0 and 0.5). Beside the 3D view (``column``) it takes
    the view's height and scrolls.
    """

    #: Most of the window's height the explanation takes over the stage.
    TOP_SHARE = 0.22

    def __init__(self, label: QtWidgets.QLabel) -> None:
        super().__init__()
        self.setObjectName("explanation_area")
        self.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(label)
        label.setAutoFillBackground(False)
        self.viewport().setAutoFillBackground(False)
        self._reserved: int | None = None  # the height over the stage, for this preset
        self._tallest = 0  # the tallest reserved at this width and font, over the presets
        self._top = True
        self._lines: int | None = None  # most lines over the stage, if fewer than TOP_SHARE
        label.installEventFilter(self)
        if isinstance(label, ExplanationLabel):
            label.on_text = self._fit

    def set_top(self, top: bool, lines: int | None = None) -> None:
        """Over the stage (a height of its own, at most ``lines`` lines if given) or in a
        column (the height it is given)."""
        self._top = bool(top)
        self._lines = lines
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred if top
                           else QtWidgets.QSizePolicy.Policy.Ignored,
                           QtWidgets.QSizePolicy.Policy.Fixed if top
                           else QtWidgets.QSizePolicy.Policy.Ignored)
        if not top:
            # Never squeezed out of sight: three whole lines at least, the rest
            # scrolls (the engines at 1280x720 showed two: see _lines_high).
            self.setMinimumHeight(self._lines_high(3))
            self.setMaximumHeight(16777215)
        self._reserved = None
        self._tallest = 0
        self._fit()

    def top_height(self, width: int) -> int:
        """The height it takes over the stage at ``width`` (what :meth:`_fit` sets there)."""
        if self._top and width == self.width():
            if self._reserved is not None:
                return self._reserved
            return max(self._tallest, self._wanted(width))
        return self._wanted(width)

    def _wanted(self, width: int) -> int:
        """Its text's height at ``width``, a line more, up to the cap."""
        label = self.widget()
        text = label.heightForWidth(max(width, 1))
        if text < 0:
            text = label.sizeHint().height()
        line = label.fontMetrics().height()
        cap = max(int(self.TOP_SHARE * self.window().height()), 2 * line)
        if self._lines is not None:
            # Lines of the font: Chinese lines are taller and two show, the third
            # scrolls; three of them left the engines' plots below their least
            # height at 1024x768 and 150 %.
            cap = min(cap, self._lines_high(self._lines))
        return min(text + line, cap)

    def _lines_high(self, lines: int) -> int:
        """The area's height for ``lines`` lines of the label's font, with the label's
        margins and the frame: without the margins the last line was cut off
        (:meth:`_whole_lines`) and one fewer showed."""
        label = self.widget()
        margins = label.contentsMargins()
        return (lines * label.fontMetrics().height() + margins.top() + margins.bottom()
                + 2 * self.frameWidth())

    def forget_height(self) -> None:
        """A new preset: the height is set again by its first text (never lower, at this
        width, than a preset's before)."""
        self._reserved = None

    def _fit(self) -> None:
        if not self._top or self._reserved is not None:
            return
        # Never lower than a preset shown before at this width: a preset change
        # that shrank the text resized the 3D view and the plots, which then
        # painted twice and re-framed (a second pass of about 30 ms in the
        # blend, engines and Euler lessons, docs/architecture.md); switching
        # back and forth in a lecture now keeps one layout.
        self._tallest = max(self._tallest, self._wanted(max(self.width(), 1)))
        self._reserved = self._tallest
        self.setFixedHeight(self._reserved)

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        if ev.oldSize().width() != ev.size().width():
            self._reserved = None  # the text wraps anew
            self._tallest = 0
            self._fit()
        self._whole_lines()

    def _whole_lines(self) -> None:
        """A text longer than the area stops below a whole line, the few pixels short of
        the next left blank: at 1024x768 and 150 % the Euler, integration, wrap
        and engines lessons cut a line in half ("the angles jump, the rotation"
        with its lower half gone), which read as a rendering fault."""
        label = self.widget()
        room = self.height() - 2 * self.frameWidth()
        cut = 0
        if label.heightForWidth(max(label.width(), 1)) > room > 0:
            doc = QtGui.QTextDocument()
            doc.setDefaultFont(label.font())
            doc.setDocumentMargin(0.0)  # as the label lays out its rich text
            doc.setHtml(label.text())
            doc.setTextWidth(label.contentsRect().width())
            top = label.contentsMargins().top()
            fits = [top + b for b in line_bottoms(doc) if top + b <= room]
            if fits:
                cut = room - min(math.ceil(fits[-1]), room)
        if cut != self.viewportMargins().bottom():
            self.setViewportMargins(0, 0, 0, cut)

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 - Qt API
        if obj is self.widget():
            if ev.type() == QtCore.QEvent.Type.FontChange:
                self._reserved = None
                self._tallest = 0
            if ev.type() in (QtCore.QEvent.Type.LayoutRequest, QtCore.QEvent.Type.FontChange):
                self._fit()
                self._whole_lines()
        return False


class LessonPanel(QtWidgets.QWidget):
    """Preset combo and options on top, the chains and scrubber, the plots, an explanation.

    Subclasses set ``self.model`` before calling this: the scrubber (play,
    once/loop/ping-pong, speed) is bound to the model's ``param``,
    ``set_param``, ``param_range`` and ``"param"`` event.

    Parameters
    ----------
    presets : sequence of (key, label, tooltip)
        The lesson's presets, offered in the combo.
    on_preset : callable(key)
        Called with the chosen preset's key, also when the user chooses the
        preset already shown (to reload it).
    param_name : str
        Name next to the slider ("time", "sweep", "step", ...).
    on_param : callable(float)
        Called with the value the plots are clicked or dragged at.
    param_decimals : int
        Spin box decimals; 0 makes the parameter whole-step (playback too).
    """

    def __init__(self, presets: Sequence[tuple[str, str, str]], on_preset: Callable[[str], None],
                 param_name: str, on_param: Callable[[float], None], parent=None,
                 *, param_tooltip: str = "", param_decimals: int = 3) -> None:
        super().__init__(parent)
        from quatlab.rendering.chain_scene import ChainScene
        from quatlab.rendering.curve_plots import CurvePlots

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)

        # Rows wrap on a narrow window rather than widening it.
        self.toolbar = FlowRow()
        self.toolbar.setContentsMargins(6, 2, 6, 0)
        self.toolbar.addWidget(QtWidgets.QLabel(_("Preset")))
        self.preset_box = QtWidgets.QComboBox()
        self.preset_box.setObjectName("lesson_preset")
        for key, label, tip in presets:
            self.preset_box.addItem(label, key)
            self.preset_box.setItemData(self.preset_box.count() - 1, tip,
                                        QtCore.Qt.ItemDataRole.ToolTipRole)
        self._on_preset = on_preset
        self._index_just_changed = False
        self.preset_box.currentIndexChanged.connect(self._preset_changed)
        self.preset_box.activated.connect(self._preset_activated)
        self.toolbar.addWidget(self.preset_box)
        # Folds the lesson's column of controls away (add_scene_side): shown once
        # the lesson has one.
        self.fold_button = QtWidgets.QToolButton()
        self.fold_button.setObjectName("controls_fold")
        self.fold_button.setCheckable(True)
        self.fold_button.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.fold_button.hide()
        self.fold_button.clicked.connect(self._fold_clicked)
        self.toolbar.addWidget(self.fold_button)
        self._user_fold: bool | None = None  # the user's choice, over the automatic one
        self.toolbar.addStretch(1)
        reset = QtWidgets.QPushButton(_("Reset camera"))
        self.toolbar.addWidget(reset)
        # The chains' colours, set by the lesson (set_legend).
        self.legend = RowLegend(self.toolbar, before=reset)
        layout.addLayout(self.toolbar)
        self._rows = 1  # toolbar rows so far: option rows go below them

        self.explanation = ExplanationLabel()
        self.explanation.setObjectName("lesson_explanation")
        self.explanation.setWordWrap(True)
        self.explanation.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.explanation.setContentsMargins(8, 2, 8, 2)
        self.explanation.setAlignment(QtCore.Qt.AlignmentFlag.AlignLeft
                                      | QtCore.Qt.AlignmentFlag.AlignTop)
        self.explanation_area = ExplanationArea(self.explanation)
        layout.addWidget(self.explanation_area)

        self.scene = ChainScene(self)
        # Layout properties go on the container: the scene is a native window.
        self.scene.widget.setObjectName("scene")
        self.scene.widget.setMinimumSize(320, 180)
        reset.clicked.connect(self.scene.reset_camera)
        # The scrubber is bound to the model itself (subclasses set
        # ``self.model`` first): it follows "param" and plays the parameter.
        self.slider = Scrubber(model_parameter(self.model, param_name, decimals=param_decimals,
                                               tooltip=param_tooltip), self, prefix="param")
        self.plots = CurvePlots(self)
        self.plots.setObjectName("plots")
        self.plots.setMinimumHeight(180)
        # A 1° turn fills its plot; the gauge keeps the whole turn in view.
        self.plots.set_fit_angles(True)
        # The plot's click/drag scrubs the same parameter as the slider.
        self.plots.cursorMoved.connect(on_param)

        # The scene in a row of its own, so a lesson can put a column of
        # controls beside it (add_scene_side) rather than above it.
        self._scene_row = QtWidgets.QWidget()
        row = QtWidgets.QHBoxLayout(self._scene_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        row.addWidget(self.scene.widget, 3)
        # A strip over the stage for the lesson's column of controls while the
        # plots stand beside the view (see arrange_side).
        self._strip = QtWidgets.QWidget()
        self._strip.setObjectName("side_strip")
        strip = QtWidgets.QHBoxLayout(self._strip)
        strip.setContentsMargins(6, 0, 6, 0)
        strip.setSpacing(12)
        self._strip.hide()
        layout.addWidget(self._strip)
        self._side: QtWidgets.QWidget | None = None
        #: The 3D view and the plots: what ``quatlab record --region view`` records.
        self.stage = scene_over_plots(self._scene_row, self.slider, self.plots)
        layout.addWidget(self.stage, 1)
        self._arranged()

    def _preset_changed(self, index: int) -> None:
        self._index_just_changed = True
        # Qt emits activated right after this, in the same event, when the
        # change came from the user; the flag is for that activated only.
        # Scheduled after the load: a load that waits for a worker thread runs
        # the event loop, which would forget the flag before that activated.
        try:
            self._on_preset(self.preset_box.itemData(index))
        finally:
            QtCore.QTimer.singleShot(0, self._forget_change)

    def _forget_change(self) -> None:
        self._index_just_changed = False

    def _preset_activated(self, index: int) -> None:
        # Choosing the preset already shown reloads it, undoing option
        # changes: the natural way back to the preset. A new choice was
        # loaded by currentIndexChanged already.
        if not self._index_just_changed:
            self._on_preset(self.preset_box.itemData(index))
        self._index_just_changed = False

    def show_case(self, preset: str | None = None, t: float | None = None) -> None:
        """Load ``preset`` (None: keep the one shown) and put the slider at the fraction
        ``t`` of its range (None: where it is), as ``quatlab screenshot`` asks.

        Raises ValueError, in the language shown, for a preset this lesson
        does not have or a ``t`` outside [0, 1].
        """
        keys = [self.preset_box.itemData(i) for i in range(self.preset_box.count())]
        if preset is not None and preset not in keys:
            raise ValueError(_("unknown preset {preset!r} for this view; choose one of: "
                               "{presets}").format(preset=preset, presets=", ".join(keys)))
        if t is not None and not 0.0 <= t <= 1.0:
            raise ValueError(_("--t must lie in [0, 1], got {t!r}").format(t=t))
        if preset is not None:
            self._on_preset(preset)
        if t is not None:
            lo, hi = self.slider.param.range
            value = lo + t * (hi - lo)
            self.slider.param.set(round(value) if self.slider.param.decimals == 0 else value)

    def show_preset(self, key: str) -> None:
        """Select ``key`` in the combo without reporting it (the model chose it).

        A new preset also re-frames the 3D view on its bodies (even after the
        student moved the camera: it is another picture), once the view has
        drawn them: the views call this first and set their chains after.
        """
        self.preset_box.blockSignals(True)
        self.preset_box.setCurrentIndex(self.preset_box.findData(key))
        self.preset_box.blockSignals(False)
        if key != getattr(self, "_framed_preset", None):
            self.explanation_area.forget_height()
        if key != getattr(self, "_framed_preset", key):
            if not hasattr(self, "_frame_timer"):
                # Owned by the panel, so it cannot fire after the scene is gone.
                self._frame_timer = QtCore.QTimer(self)
                self._frame_timer.setSingleShot(True)
                self._frame_timer.timeout.connect(self.scene.reset_camera)
            self._frame_timer.start(0)
        self._framed_preset = key

    def add_option_row(self) -> FlowRow:
        """A new row of controls under the toolbar (and under earlier option rows).

        For lessons with more options than fit beside the preset combo.
        """
        row = FlowRow()
        row.setContentsMargins(6, 0, 6, 0)
        self.layout().insertLayout(self._rows, row)
        self._rows += 1
        return row

    def set_legend(self, entries: Sequence[tuple[str, str]]) -> None:
        """The chains' colour legend in the toolbar: ``[(colour, text), ...]``.

        One unbreakable label per entry (:class:`~quatlab.app.qt.flow_legend.RowLegend`):
        one label for all six engines was wider than a 1024-px window at 150 %
        and scrolled the whole lesson sideways.
        """
        self.legend.set_entries([chain_entry(c, t) for c, t in entries])

    def add_scene_side(self, title: str) -> QtWidgets.QVBoxLayout:
        """A column of controls left of the 3D view, as tall as it; ``title`` names it
        on the button that folds it away.

        For lessons with more rows of controls than fit above the view on a
        short window: each row there takes its height from the view, which
        is already the widest thing on the page. On a short page
        (:meth:`folded`) the column starts folded, so the picture and the
        plots keep their room; the toolbar's button shows it.
        """
        side = QtWidgets.QWidget(self)  # the panel's, folded or not
        side.hide()  # until arranged
        side.setObjectName("scene_side")
        column = QtWidgets.QVBoxLayout(side)
        column.setContentsMargins(6, 2, 2, 2)
        column.setSpacing(2)
        self._side = side
        self._placement = None
        self.fold_button.setText(title)
        self.fold_button.setToolTip(_(
            "Show or hide {controls}. On a short window they start hidden, so the 3D view "
            "and the plots keep their room").format(controls=title))
        self.fold_button.show()
        return column

    #: Whether the column of controls stretches across the strip over the stage.
    STRIP_FILL = True

    #: A page shorter than this many text lines folds the column of controls:
    #: 1024x768 at 150 % (31 lines) does, 1280x720 at 100 % (43) does not.
    FOLD_BELOW_LINES = 36
    #: Lines of explanation over the stage on such a page.
    SHORT_PAGE_LINES = 3
    #: Whether the lesson's picture is much wider than tall (chains in a row): on a
    #: short page it takes the page's width and the explanation goes over it. A
    #: picture about as tall as wide (a gimbal, a ring) is bound by the height,
    #: which that would take from it.
    WIDE_SCENE = False

    def folded(self) -> bool:
        """Whether the column of controls is folded away: the user's choice, else on a
        page shorter than FOLD_BELOW_LINES lines of the present font.

        The page is the scroll area's viewport the panel lies in (the panel
        itself grows with what it shows, so its own height would keep a
        column that scrolled the page shown).
        """
        if self._side is None:
            return False
        if self._user_fold is not None:
            return self._user_fold
        return self._short_page()

    def _short_page(self) -> bool:
        """Whether the page is shorter than FOLD_BELOW_LINES lines of the present font."""
        parent = self.parentWidget()
        page = (parent.height() if parent is not None
                and isinstance(parent.parentWidget(), QtWidgets.QAbstractScrollArea)
                else self.height())
        return 1 < page < self.FOLD_BELOW_LINES * self.fontMetrics().height()

    def _fold_clicked(self, checked: bool) -> None:
        # The button is checked while the column shows.
        self._user_fold = not checked
        self._arranged()

    def _arranged(self) -> None:
        """Arrange the stage, the column of controls and the explanation for the size.

        With the plots beside the 3D view (a wide window: :meth:`_beside`),
        the column of controls lies in the strip over the stage and the
        explanation over it: a third column would leave the view a sliver
        (a quarter of the width at 1280 px), and :meth:`arrange_side` lets the
        lesson lay its controls out across rather than down. With the plots
        below the view, the column stands left of the view, which is wider
        than tall anyway, and the explanation under it (or, without a column,
        right of the view, where at 1024 px and 150 % its lines no longer
        push the picture out of the page); a column wider than the view
        leaves room for (the SQUAD keys at 150 % on a 1024-px screen) goes in
        the strip all the same.

        Decided from the panel's size and font alone, never from the stage's
        present shape, which the arrangement itself changes: the same window
        always gets the same arrangement.
        """
        folded = self.folded()
        short = self._short_page()
        # On a short page (1024x768 at 150 %) the plots below left the 3D view
        # 610x250 px, the Euler gimbal 50 px across; beside it, squeezed and
        # stacked (:meth:`_SceneSplit.room_beside`), they leave it about
        # 610x445 and are themselves about as large as before. A wide picture
        # (the engines' row of chains) keeps the page's width instead.
        beside = self._beside() or (short and not self.WIDE_SCENE)
        side = None if folded else self._side
        strip = beside or (side is not None and self.side_width()
                           + self.scene.widget.minimumWidth() + 12 > self.width() > 1)
        # A wide picture on a short page (1024x768 at 150 %) has its text over the
        # stage too, a few lines that scroll: beside the view the text took 400 of
        # the 1024 px, and the engines' six chains were 40 px tall.
        explanation = ("top" if strip or (side is None and self.WIDE_SCENE and short)
                       else "side" if side is not None else "row")
        # The page's shortness too: it caps the lines over the stage.
        placement = (beside, strip, explanation, folded, short)
        if placement == getattr(self, "_placement", None):
            return
        self._placement = placement
        self.stage.set_beside(beside)
        self.fold_button.setChecked(not folded)
        self.fold_button.setArrowType(QtCore.Qt.ArrowType.RightArrow if folded
                                      else QtCore.Qt.ArrowType.DownArrow)
        if side is not None:
            if strip:
                # A lesson whose controls lay out across (the blend's poses) fills the
                # strip; one with a column of forms keeps its width, or its fields
                # stood a window's width from their labels (the engines at 1400 px).
                self._strip.layout().insertWidget(
                    0, side, 0, QtCore.Qt.AlignmentFlag(0) if self.STRIP_FILL
                    else QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignTop)
            else:
                self._scene_row.layout().insertWidget(0, side)
            side.show()
        elif self._side is not None:
            self._side.hide()
        area = self.explanation_area
        if explanation == "top":
            # Under the option rows (added after it was made), over the strip;
            # taken out first, or its own place shifts the strip's index.
            self.layout().removeWidget(area)
            self.layout().insertWidget(self.layout().indexOf(self._strip), area)
        elif explanation == "side":
            column = side.layout()
            last = column.itemAt(column.count() - 1) if column.count() else None
            at = column.count() - 1 if last is not None and last.spacerItem() else column.count()
            column.insertWidget(at, area, 1)  # before the closing stretch
        else:
            self._scene_row.layout().addWidget(area, 2)
        # Over the stage of a short page: three lines, the rest scrolls.
        area.set_top(explanation == "top", self.SHORT_PAGE_LINES if short else None)
        self.arrange_side(strip)
        layout = self._strip.layout()
        self._strip.setVisible(any(
            layout.itemAt(i).widget() is not None and not layout.itemAt(i).widget().isHidden()
            for i in range(layout.count())))

    def _beside(self) -> bool:
        """Whether the plots go beside the 3D view at the panel's present size.

        The stage's height with the plots beside is the panel's less the
        toolbar and option rows, the explanation over it and the strip
        (:meth:`strip_height`); beside when that stage is wide for its height
        (``_SceneSplit.BESIDE_ASPECT``) and its plots column holds two stacked
        plots of readable size at the present zoom
        (:mod:`quatlab.rendering.plot_arrange`).
        """
        w, h = self.width(), self.height()
        if w <= 1 or h <= 1:
            return False
        layout = self.layout()
        rows = sum(layout.itemAt(i).layout().heightForWidth(w) + layout.spacing()
                   for i in range(self._rows))
        strip = 0 if self.folded() else self.strip_height(w)
        stage = h - rows - self.explanation_area.top_height(w) - strip - 2 * layout.spacing()
        return self.stage.room_beside(w, stage)

    def strip_height(self, width: int) -> int:
        """Height the strip over the stage takes with the plots beside the view (a hook):
        the column of controls as it stands."""
        return self._side.sizeHint().height() if self._side is not None else 0

    def side_width(self) -> int:
        """Least width of the column of controls standing beside the view (a hook; a
        lesson that lays its controls across in the strip gives the column's own)."""
        return self._side.minimumSizeHint().width() if self._side is not None else 0

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        # After the resize, not inside it: moving widgets between layouts
        # while the page lays this one out left the stage 0 px tall.
        QtCore.QTimer.singleShot(0, self._arranged)

    def arrange_side(self, in_strip: bool) -> None:
        """Lay the lesson's own controls out for where they stand (a hook).

        ``in_strip``: the column of controls (:meth:`add_scene_side`) lies in
        the strip over the stage, where controls read better across than
        down; else beside the 3D view.
        """

    def add_to_strip(self, widget: QtWidgets.QWidget, stretch: int = 0) -> None:
        """Put ``widget`` in the strip over the stage, after the column of controls."""
        self._strip.layout().addWidget(widget, stretch)

    def set_axes(self, x_name: str, x_unit: str | None, x_range: tuple[float, float],
                 y_labels: dict[str, str] | None = None,
                 y_range: str | tuple[float, float] = "default",
                 y_short: dict[str, str] | None = None) -> None:
        """x axis of both plots and the slider's range; ``y_labels`` retitles the y axes.

        The plots' y titles default to path angle and angular speed; lessons
        plotting other quantities (|q| drift) retitle them, with ``y_range``
        and ``y_short``, the shorter titles with their units (see
        :meth:`CurvePlots.set_y_axis`) for the retitled plots.
        """
        self.plots.set_x_axis(x_name, x_unit, x_range)
        # The scrubber reads its range from the model; only the unit is new here.
        self.slider.param.suffix = x_unit or ""
        self.slider.refresh()
        for plot, text in (y_labels or {}).items():
            self.plots.set_y_axis(plot, text, y_range, short=(y_short or {}).get(plot))


def scene_over_plots(scene: QtWidgets.QWidget, scrubber: QtWidgets.QWidget,
                     plots: QtWidgets.QWidget) -> QtWidgets.QSplitter:
    """The lessons' shared layout: the 3D view over its scrubber, the plots beside or below.

    Beside it (a column, the two plots stacked) when the room is wide, below
    it when it is not: see :class:`_SceneSplit`. Stretch factors only share
    out space beyond the size hints, and the plots' hint is tall: without
    initial sizes the 3D view got a third of the height at 1400 x 900. The
    sizes are proportions until the widget is shown.
    """
    top = QtWidgets.QWidget()
    top.setObjectName("scene_column")
    tl = QtWidgets.QVBoxLayout(top)
    tl.setContentsMargins(0, 0, 0, 0)
    tl.addWidget(scene, 1)
    tl.addWidget(scrubber)
    split = _SceneSplit(QtCore.Qt.Orientation.Vertical)
    split.setObjectName("stage")
    split.addWidget(top)
    split.addWidget(plots)
    split.setStretchFactor(0, 5)
    split.setStretchFactor(1, 4)
    split.setSizes([500, 400])
    split.setChildrenCollapsible(False)
    set_auto_arrange = getattr(plots, "set_auto_arrange", None)
    if set_auto_arrange is not None:
        set_auto_arrange(True)
    return split


class _SceneSplit(QtWidgets.QSplitter):
    """The scene and the plots: side by side on a wide stage, one over the other otherwise.

    Wide (at least BESIDE_ASPECT times as wide as tall: 1280x720 and wider
    windows) the plots stand in a column right of the 3D view and take
    BESIDE_SHARE of the width, so the view gets the height it lacked under a
    row of plots (22-30 % of a 1280x720 window before, about 40 % now).
    Below, the split is 5 : 4, but on a short window (720 px) 4/9 of the
    height leaves the plots too short for a long y title; below SHORT px
    they get up to PLOTS_ROOM px, from the scene. Either holds until the
    user drags the handle (for that arrangement).
    """

    #: Height the plots' y titles need.
    PLOTS_ROOM = 280
    #: Splitter heights below which the plots are given PLOTS_ROOM.
    SHORT = 600
    #: Plots beside the view when the stage is at least this much wider than tall.
    BESIDE_ASPECT = 1.45
    #: Share of the width the plots take beside the view.
    BESIDE_SHARE = 0.33
    #: Share they take when the owner put them beside a stage too short for two plots
    #: of full height (a short page): stacked there, each needs the width of a plot
    #: below the view (about 400 px at 1024 px and 150 %).
    SQUEEZED_SHARE = 0.4

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self._dragged = False
        self._forced: bool | None = None
        self.splitterMoved.connect(self._on_moved)

    def set_beside(self, beside: bool | None) -> None:
        """Plots beside (True) or below (False) the view, as the owner decided; None: by
        the stage's own shape (:meth:`room_beside` of its size)."""
        self._forced = beside
        self._arrange()

    def _on_moved(self, *_args) -> None:
        self._dragged = True

    @property
    def beside(self) -> bool:
        """Whether the plots stand beside the view (else below it)."""
        return self.orientation() == QtCore.Qt.Orientation.Horizontal

    def room_beside(self, width: int, height: int) -> bool:
        """Whether a stage of ``width`` x ``height`` holds the plots beside the view.

        Wide for its height, and the column (BESIDE_SHARE of the width) and
        the height hold two plots of readable size at the present zoom
        (:mod:`quatlab.rendering.plot_arrange`): at 1024 px and 150 % they do
        not, and the plots go below.
        """
        line = self.fontMetrics().height()
        # The column also holds the plots' checkbox legend: three rows of it.
        return (width >= self.BESIDE_ASPECT * height
                and self.BESIDE_SHARE * width >= PLOT_LEAST_WIDTH_LINES * line
                and height >= (2 * PLOT_LEAST_HEIGHT_LINES + 5) * line)

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        self._arrange()

    def _arrange(self) -> None:
        if self.count() != 2 or self.width() <= 1 or self.height() <= 1:
            return
        beside = (self.room_beside(self.width(), self.height()) if self._forced is None
                  else self._forced)
        if beside != self.beside:
            self.setOrientation(QtCore.Qt.Orientation.Horizontal if beside
                                else QtCore.Qt.Orientation.Vertical)
            self._dragged = False  # a drag was for the other arrangement
        if self._dragged:
            return
        total = sum(self.sizes())
        scene, plots = self.widget(0), self.widget(1)
        if beside:
            share = (self.BESIDE_SHARE if self.room_beside(self.width(), self.height())
                     else self.SQUEEZED_SHARE)
            size = max(int(total * share), plots.minimumSizeHint().width())
            size = min(size, total - scene.minimumSizeHint().width())
        else:
            # 5 : 4 of the whole height, set here rather than left to the stretch
            # factors: those share out only the change of each resize, so the
            # split depended on the sizes the window went through on its way (a
            # 4-px shorter page once took 31 px from the scene).
            size = total * 4 // 9
            if total < self.SHORT:
                top_least = scene.minimumSizeHint().height()
                size = max(size, min(self.PLOTS_ROOM, total - top_least))
            size = max(size, plots.minimumSizeHint().height())
        if abs(size - self.sizes()[1]) > 1 and total - size >= 0:
            self.blockSignals(True)
            self.setSizes([total - size, size])
            self.blockSignals(False)
