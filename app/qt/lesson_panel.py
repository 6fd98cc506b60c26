"""The layout every further lesson view shares: controls, 3D chains, a parameter scrubber, plots.

The lesson views (track, Euler, blend, integration) each have a small Qt-free
model; this module is only the widgets they have in common, so the views
differ in what they compute and show, not in how they are laid out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.model.explain import glue_formulas
from quatlab.app.qt.scrubber import Scrubber, ValueParameter, model_parameter
from quatlab.rendering.flow_layout import FlowRow
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


def legend_html(entries: Sequence[tuple[str, str]]) -> str:
    """A one-line colour legend for the 3D chains: ``[(colour, text), ...]``.

    Only the swatch takes the colour; the name stays in the text colour:
    orange names on the light window measured 1.96:1, a pale blue 2.0:1.
    """
    return "&nbsp; ".join(f"{swatch(c)}&nbsp;{t}" for c, t in entries)


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

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(glue_formulas(text))


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
        self.toolbar.addStretch(1)
        self.legend = QtWidgets.QLabel()
        self.toolbar.addWidget(self.legend)
        reset = QtWidgets.QPushButton(_("Reset camera"))
        self.toolbar.addWidget(reset)
        layout.addLayout(self.toolbar)
        self._rows = 1  # toolbar rows so far: option rows go below them

        self.explanation = ExplanationLabel()
        self.explanation.setObjectName("lesson_explanation")
        self.explanation.setWordWrap(True)
        self.explanation.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.explanation.setContentsMargins(8, 2, 8, 2)
        layout.addWidget(self.explanation)

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
        # The plot's click/drag scrubs the same parameter as the slider.
        self.plots.cursorMoved.connect(on_param)

        # The scene in a row of its own, so a lesson can put a column of
        # controls beside it (add_scene_side) rather than above it.
        self._scene_row = QtWidgets.QWidget()
        row = QtWidgets.QHBoxLayout(self._scene_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        row.addWidget(self.scene.widget, 1)
        #: The 3D view and the plots: what ``quatlab record --region view`` records.
        self.stage = scene_over_plots(self._scene_row, self.slider, self.plots)
        layout.addWidget(self.stage, 1)

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

    def add_scene_side(self) -> QtWidgets.QVBoxLayout:
        """A column of controls left of the 3D view, as tall as it.

        For lessons with more rows of controls than fit above the view on a
        short window: each row there takes its height from the view, which
        is already the widest thing on the page.
        """
        side = QtWidgets.QWidget()
        side.setObjectName("scene_side")
        column = QtWidgets.QVBoxLayout(side)
        column.setContentsMargins(6, 2, 2, 2)
        column.setSpacing(2)
        self._scene_row.layout().insertWidget(0, side)
        return column

    def set_axes(self, x_name: str, x_unit: str | None, x_range: tuple[float, float],
                 y_labels: dict[str, str] | None = None,
                 y_range: str | tuple[float, float] = "default") -> None:
        """x axis of both plots and the slider's range; ``y_labels`` retitles the y axes.

        The plots' y titles default to path angle and angular speed; lessons
        plotting other quantities (|q| drift) retitle them, with ``y_range``
        (see :meth:`CurvePlots.set_y_axis`) for the retitled plots.
        """
        self.plots.set_x_axis(x_name, x_unit, x_range)
        # The scrubber reads its range from the model; only the unit is new here.
        self.slider.param.suffix = x_unit or ""
        self.slider.refresh()
        for plot, text in (y_labels or {}).items():
            self.plots.set_y_axis(plot, text, y_range)


def scene_over_plots(scene: QtWidgets.QWidget, scrubber: QtWidgets.QWidget,
                     plots: QtWidgets.QWidget) -> QtWidgets.QSplitter:
    """The lessons' shared layout: the 3D view over its scrubber, the plots below.

    Stretch factors only share out space beyond the size hints, and the
    plots' hint is tall: without initial sizes the 3D view got a third of the
    height at 1400 x 900. The sizes are proportions until the widget is shown.
    """
    top = QtWidgets.QWidget()
    tl = QtWidgets.QVBoxLayout(top)
    tl.setContentsMargins(0, 0, 0, 0)
    tl.addWidget(scene, 1)
    tl.addWidget(scrubber)
    split = _SceneSplit(QtCore.Qt.Orientation.Vertical)
    split.addWidget(top)
    split.addWidget(plots)
    split.setStretchFactor(0, 5)
    split.setStretchFactor(1, 4)
    split.setSizes([500, 400])
    split.setChildrenCollapsible(False)
    return split


class _SceneSplit(QtWidgets.QSplitter):
    """The scene over the plots: 5 : 4, but the plots keep room for their axis titles.

    On a short window (720 px) 4/9 of the height leaves the plots too short
    for a long y title; below SHORT px they get up to PLOTS_ROOM px, from the
    scene, until the user drags the handle.
    """

    #: Height the plots' y titles need.
    PLOTS_ROOM = 280
    #: Splitter heights below which the plots are given PLOTS_ROOM.
    SHORT = 600

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self._dragged = False
        self.splitterMoved.connect(self._on_moved)

    def _on_moved(self, *_args) -> None:
        self._dragged = True

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(ev)
        total = sum(self.sizes())
        if self._dragged or self.count() != 2:
            return
        # 5 : 4 of the whole height, set here rather than left to the stretch
        # factors: those share out only the change of each resize, so the
        # split depended on the sizes the window went through on its way (a
        # 4-px shorter page once took 31 px from the scene).
        plots = total * 4 // 9
        if total < self.SHORT:
            top_least = self.widget(0).minimumSizeHint().height()
            plots = max(plots, min(self.PLOTS_ROOM, total - top_least))
        plots = max(plots, self.widget(1).minimumSizeHint().height())
        if abs(plots - self.sizes()[1]) > 1 and total - plots >= 0:
            self.blockSignals(True)
            self.setSizes([total - plots, plots])
            self.blockSignals(False)
