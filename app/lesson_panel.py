"""The layout every issue-5 lesson view shares: controls, 3D chains, a parameter slider, plots.

The lesson views (track, Euler, blend, integration) each have a small Qt-free
model; this module is only the widgets they have in common, so the views
differ in what they compute and show, not in how they are laid out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PyQt6 import QtCore, QtWidgets

__all__ = ["ParamSlider", "LessonPanel", "legend_html"]

#: Slider resolution over the parameter range.
STEPS = 1000


def legend_html(entries: Sequence[tuple[str, str]]) -> str:
    """A one-line colour legend for the 3D chains: ``[(colour, text), ...]``."""
    return "&nbsp; ".join(f"<span style='color:{c}'>■ {t}</span>" for c, t in entries)


class ParamSlider(QtWidgets.QWidget):
    """A slider with a spin box over ``[lo, hi]`` that reports values to ``on_change``.

    Unlike the two-key lesson's Scrubber it is not bound to a model class:
    each lesson passes its own setter, and pushes the model's value back
    with :meth:`set_value` (which does not call ``on_change``).
    """

    def __init__(self, name: str, on_change: Callable[[float], None], parent=None,
                 *, tooltip: str = "", decimals: int = 3) -> None:
        super().__init__(parent)
        self._on_change = on_change
        self._decimals = decimals
        self._lo, self._hi = 0.0, 1.0
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(4, 2, 4, 2)
        self.label = QtWidgets.QLabel(name)
        row.addWidget(self.label)
        self.slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setObjectName("param_slider")
        self.slider.setRange(0, STEPS)
        self.slider.setPageStep(STEPS // 10)
        self.slider.setToolTip(tooltip)
        self.slider.valueChanged.connect(
            lambda v: self._emit(self._lo + (self._hi - self._lo) * v / STEPS))
        row.addWidget(self.slider, 1)
        self.spin = QtWidgets.QDoubleSpinBox()
        self.spin.setObjectName("param_spin")
        self.spin.setDecimals(decimals)
        self.spin.setToolTip(tooltip)
        self.spin.valueChanged.connect(self._emit)
        row.addWidget(self.spin)
        self.set_range(0.0, 1.0)

    def _emit(self, value: float) -> None:
        self._on_change(min(self._hi, max(self._lo, float(value))))

    def set_range(self, lo: float, hi: float, unit: str = "") -> None:
        self._lo, self._hi = float(lo), float(hi)
        self.spin.blockSignals(True)
        self.spin.setRange(self._lo, self._hi)
        # A whole-number parameter (a step index) moves one at a time.
        self.spin.setSingleStep((self._hi - self._lo) / 100 if self._decimals else 1)
        self.spin.setSuffix(f" {unit}" if unit else "")
        self.spin.blockSignals(False)

    def set_value(self, value: float) -> None:
        """Show ``value`` without reporting it back (the model already has it)."""
        span = self._hi - self._lo
        for w, v in ((self.slider, round((value - self._lo) / span * STEPS)), (self.spin, value)):
            w.blockSignals(True)
            w.setValue(v)
            w.blockSignals(False)


class LessonPanel(QtWidgets.QWidget):
    """Preset combo and options on top, the chains and slider, the plots, an explanation.

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
        Called with the slider's value.
    """

    def __init__(self, presets: Sequence[tuple[str, str, str]], on_preset: Callable[[str], None],
                 param_name: str, on_param: Callable[[float], None], parent=None,
                 *, param_tooltip: str = "", param_decimals: int = 3) -> None:
        super().__init__(parent)
        from quatlab.rendering.plots import CurvePlots
        from quatlab.rendering.scene import ChainScene

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)

        self.toolbar = QtWidgets.QHBoxLayout()
        self.toolbar.setContentsMargins(6, 2, 6, 0)
        self.toolbar.addWidget(QtWidgets.QLabel("Preset"))
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
        reset = QtWidgets.QPushButton("Reset camera")
        self.toolbar.addWidget(reset)
        layout.addLayout(self.toolbar)
        self._rows = 1  # toolbar rows so far: option rows go below them

        self.explanation = QtWidgets.QLabel()
        self.explanation.setObjectName("lesson_explanation")
        self.explanation.setWordWrap(True)
        self.explanation.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.explanation.setContentsMargins(8, 2, 8, 2)
        layout.addWidget(self.explanation)

        self.scene = ChainScene(self)
        # Layout properties go on the container: the scene is a native window.
        self.scene.widget.setObjectName("scene")
        self.scene.widget.setMinimumSize(320, 220)
        reset.clicked.connect(self.scene.reset_camera)
        self.slider = ParamSlider(param_name, on_param, self, tooltip=param_tooltip,
                                  decimals=param_decimals)
        self.plots = CurvePlots(self)
        self.plots.setObjectName("plots")
        self.plots.setMinimumHeight(200)
        # The plot's click/drag scrubs the same parameter as the slider.
        self.plots.cursorMoved.connect(on_param)

        top = QtWidgets.QWidget()
        tl = QtWidgets.QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.scene.widget, 1)
        tl.addWidget(self.slider)
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.plots)
        split.setStretchFactor(0, 5)
        split.setStretchFactor(1, 4)
        # Stretch factors only share out space beyond the size hints, and the
        # plots' hint is tall: without initial sizes the 3D view got a third
        # of the height at 1400 x 900. These are proportions until shown.
        split.setSizes([500, 400])
        split.setChildrenCollapsible(False)
        layout.addWidget(split, 1)

    def _preset_changed(self, index: int) -> None:
        self._index_just_changed = True
        # Qt emits activated right after this, in the same event, when the
        # change came from the user; the flag is for that activated only.
        QtCore.QTimer.singleShot(0, self._forget_change)
        self._on_preset(self.preset_box.itemData(index))

    def _forget_change(self) -> None:
        self._index_just_changed = False

    def _preset_activated(self, index: int) -> None:
        # Choosing the preset already shown reloads it, undoing option
        # changes: the natural way back to the preset. A new choice was
        # loaded by currentIndexChanged already.
        if not self._index_just_changed:
            self._on_preset(self.preset_box.itemData(index))
        self._index_just_changed = False

    def show_preset(self, key: str) -> None:
        """Select ``key`` in the combo without reporting it (the model chose it)."""
        self.preset_box.blockSignals(True)
        self.preset_box.setCurrentIndex(self.preset_box.findData(key))
        self.preset_box.blockSignals(False)

    def add_option_row(self) -> QtWidgets.QHBoxLayout:
        """A new row of controls under the toolbar (and under earlier option rows).

        For lessons with more options than fit beside the preset combo.
        """
        row = QtWidgets.QHBoxLayout()
        row.setContentsMargins(6, 0, 6, 0)
        self.layout().insertLayout(self._rows, row)
        self._rows += 1
        return row

    def set_axes(self, x_name: str, x_unit: str | None, x_range: tuple[float, float],
                 y_labels: dict[str, str] | None = None,
                 y_range: str | tuple[float, float] = "default") -> None:
        """x axis of both plots and the slider's range; ``y_labels`` retitles the y axes.

        The plots' y titles default to path angle and angular speed; lessons
        plotting other quantities (|q| drift) retitle them, with ``y_range``
        (see :meth:`CurvePlots.set_y_axis`) for the retitled plots.
        """
        self.plots.set_x_axis(x_name, x_unit, x_range)
        self.slider.set_range(*x_range, unit=x_unit or "")
        for plot, text in (y_labels or {}).items():
            self.plots.set_y_axis(plot, text, y_range)
