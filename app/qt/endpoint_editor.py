"""Qt editor for one endpoint: components, axis-angle, Euler angles, paste, −q.

The editor takes the :class:`~quatlab.app.model.state.LessonState` and subscribes to
it; every form writes through the model, which validates. A refused entry shows
a red message naming what is wrong, and the fields return to the last valid
value. Editing any form updates the others through the model's event.
"""

from __future__ import annotations

import numpy as np
from PyQt6 import QtCore, QtWidgets

from quatlab.app.i18n import _
from quatlab.app.io.parse import ORDERS, parse_number, parse_quaternion
from quatlab.app.model.number_text import compact_number
from quatlab.app.model.state import LessonState
from quatlab.math.quaternion import (
    EULER_ORDERS,
    from_axis_angle,
    from_euler,
    to_axis_angle,
    to_euler,
)

__all__ = ["EndpointEditor"]

_COMPONENTS = ("w", "x", "y", "z")


#: Characters of an exponent form ("4.5e-11") a component field shows whole.
EXPONENT_CHARS = 7


def _fmt(x: float, digits: int = 6) -> str:
    text = f"{x:.{digits}g}"
    return "0" if text in ("-0", "0") else text


class EndpointEditor(QtWidgets.QGroupBox):
    """Edits endpoint ``which`` (0 or 1) of ``state`` in every form at once."""

    def __init__(self, state: LessonState, which: int, parent=None) -> None:
        super().__init__((_("q0  (start, t = 0)") if which == 0 else _("q1  (end, t = 1)")),
                         parent)
        self.state = state
        self.which = which
        self.setObjectName(f"endpoint{which}")
        grid = QtWidgets.QGridLayout(self)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setVerticalSpacing(3)
        grid.setHorizontalSpacing(4)

        # --- components (w, x, y, z)
        self.components: list[QtWidgets.QLineEdit] = []
        grid.addWidget(self._label("w x y z", _("Components, scalar first (w, x, y, z). "
                                                 "Non-unit input is normalized; |q| shows what "
                                                 "you typed.")),
                       0, 0)
        for i, c in enumerate(_COMPONENTS):
            edit = self._edit(_("{c} component of q{which}").format(c=c, which=which))
            edit.setObjectName(f"q{which}_{c}")
            edit.editingFinished.connect(self._components_edited)
            self.components.append(edit)
            grid.addWidget(edit, 0, 1 + i)
        self.negate_button = QtWidgets.QPushButton("−q")
        self.negate_button.setObjectName(f"q{which}_negate")
        self.negate_button.setToolTip(
            _("Negate q{which}: store −q{which}. Same rotation (the endpoint pose does not "
              "move), opposite hemisphere: watch the naive curves change.").format(which=which)
        )
        self.negate_button.setFixedWidth(34)
        self.negate_button.clicked.connect(lambda: self.state.negate(self.which))
        grid.addWidget(self.negate_button, 0, 5)
        self.norm_label = QtWidgets.QLabel()
        self.norm_label.setToolTip(_("Length of q as entered; QuatLab uses q / |q|."))
        grid.addWidget(self.norm_label, 1, 1, 1, 5)

        # --- axis-angle
        grid.addWidget(self._label(_("axis, °"), _("Rotation axis (x, y, z; normalized) and "
                                                 "angle in degrees")), 2, 0)
        self.axis = [self._edit(_("axis {c}").format(c=c)) for c in "xyz"]
        self.angle = self._edit(_("angle in degrees"))
        for i, e in enumerate(self.axis + [self.angle]):
            e.editingFinished.connect(self._axis_angle_edited)
            grid.addWidget(e, 2, 1 + i)

        # --- Euler angles
        grid.addWidget(self._label(_("Euler °"), _("Euler angles in degrees; uppercase order = "
                                                 "intrinsic (body axes), lowercase = extrinsic "
                                                 "(fixed axes), as in scipy")), 3, 0)
        self.euler = [self._edit(_("Euler angle {i} (degrees)").format(i=i + 1))
                      for i in range(3)]
        for i, e in enumerate(self.euler):
            e.editingFinished.connect(self._euler_edited)
            grid.addWidget(e, 3, 1 + i)
        self.euler_order = QtWidgets.QComboBox()
        self.euler_order.addItems(EULER_ORDERS)
        self.euler_order.setCurrentText("XYZ")
        self.euler_order.setToolTip(_("Euler order (24): uppercase intrinsic, lowercase extrinsic"))
        self.euler_order.currentTextChanged.connect(lambda _: self.refresh())
        grid.addWidget(self.euler_order, 3, 4, 1, 2)

        # --- paste
        grid.addWidget(self._label(_("paste"), _("Paste four numbers in the order chosen on "
                                               "the right, e.g. from glTF (x y z w) or a log "
                                               "(w x y z)")), 4, 0)
        self.paste = QtWidgets.QLineEdit()
        self.paste.setObjectName(f"q{which}_paste")
        self.paste.setPlaceholderText(_("e.g. 0, 0, 0.7071, 0.7071"))
        self.paste.returnPressed.connect(self._paste_edited)
        grid.addWidget(self.paste, 4, 1, 1, 3)
        self.paste_order = QtWidgets.QComboBox()
        self.paste_order.addItems(ORDERS)
        self.paste_order.setToolTip(_("Component order of the pasted text"))
        grid.addWidget(self.paste_order, 4, 4)
        apply = QtWidgets.QPushButton(_("Set"))
        apply.setFixedWidth(34)
        apply.setToolTip(_("Parse the pasted text in the chosen order (Enter)"))
        apply.clicked.connect(self._paste_edited)
        grid.addWidget(apply, 4, 5)

        self.message = QtWidgets.QLabel()
        self.message.setObjectName(f"q{which}_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #B00020;")
        self.message.hide()
        grid.addWidget(self.message, 5, 0, 1, 6)
        for col in range(1, 5):
            grid.setColumnStretch(col, 1)

        state.events.connect("endpoints", self.refresh)
        self.refresh()

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _label(text: str, tip: str) -> QtWidgets.QLabel:
        label = QtWidgets.QLabel(text)
        label.setToolTip(tip)
        return label

    @staticmethod
    def _edit(tip: str) -> QtWidgets.QLineEdit:
        edit = QtWidgets.QLineEdit()
        edit.setToolTip(tip)
        edit.setMinimumWidth(36)
        edit.setMaximumWidth(90)
        edit.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight)
        return edit

    def _commit(self, make) -> None:
        """Run ``make()`` -> quaternion and store it; show the error and revert on failure."""
        try:
            q = make()
            if not np.array_equal(q, self.state.entered(self.which)):
                self.state.set_endpoint(self.which, q)
        except ValueError as exc:
            self.show_error(str(exc))
            self.refresh(keep_message=True)
            return
        self.message.hide()

    def show_error(self, text: str) -> None:
        self.message.setText(_("q{which} not changed: {error}").format(which=self.which,
                                                                              error=text))
        self.message.show()

    # ------------------------------------------------------------------ edits
    def _components_edited(self) -> None:
        # Fields the user did not touch keep their exact value: the text shows
        # 5 digits, and re-parsing it would round the stored quaternion.
        exact = self.state.entered(self.which)
        self._commit(lambda: np.array(
            [parse_number(e.text(), _("component {c}").format(c=c)) if e.isModified() else v
             for e, c, v in zip(self.components, _COMPONENTS, exact, strict=True)]))

    @staticmethod
    def _untouched(edits) -> bool:
        """True when Enter or focus-out reached a form none of whose fields changed."""
        return not any(e.isModified() for e in edits)

    def _axis_angle_edited(self) -> None:
        if self._untouched(self.axis + [self.angle]):
            return

        def make():
            axis = np.array([parse_number(e.text(), _("axis {c}").format(c=c))
                             for e, c in zip(self.axis, "xyz", strict=True)])
            angle = parse_number(self.angle.text(), _("angle"))
            if not np.any(axis):
                raise ValueError(_("the axis (0, 0, 0) has no direction"))
            q = from_axis_angle(axis, np.radians(angle))
            # Keep the stored hemisphere: a re-typed axis-angle must not flip the sign.
            return -q if q @ self.state.endpoint(self.which) < 0 else q
        self._commit(make)

    def _euler_edited(self) -> None:
        if self._untouched(self.euler):
            return

        def make():
            angles = np.radians([parse_number(e.text(), _("Euler angle {i}").format(i=i + 1))
                                 for i, e in enumerate(self.euler)])
            q = from_euler(angles, self.euler_order.currentText())
            return -q if q @ self.state.endpoint(self.which) < 0 else q
        self._commit(make)

    def _paste_edited(self) -> None:
        self._commit(lambda: parse_quaternion(self.paste.text(), self.paste_order.currentText()))

    # ------------------------------------------------------------------ model -> widget
    def refresh(self, keep_message: bool = False) -> None:
        q = self.state.endpoint(self.which)
        n = self.state.entered_norm(self.which)
        for e, v in zip(self.components, self.state.entered(self.which), strict=True):
            # A clipped "4.4897e-11" would read as 0.449: exponent forms are
            # shortened to what the narrowest side panel shows whole.
            text = _fmt(v, 5)
            if "e" in text:
                text = compact_number(v, 5, width=EXPONENT_CHARS)
            e.setText(text)
        self.norm_label.setText(
            _("|q| as entered = {norm}").format(norm=f"{n:.6g}")
            + ("" if abs(n - 1) < 1e-9 else "  → " + _("normalized"))
        )
        axis, angle = to_axis_angle(q)
        for e, v in zip(self.axis, axis, strict=True):
            e.setText(_fmt(v, 4))
        self.angle.setText(_fmt(np.degrees(angle), 6))
        for e, v in zip(self.euler, np.degrees(to_euler(q, self.euler_order.currentText())),
                        strict=True):
            e.setText(_fmt(v, 6))
        for e in (*self.components, *self.axis, self.angle, *self.euler):
            e.setCursorPosition(0)  # a narrow field shows the sign, not the tail
        if not keep_message:
            self.message.hide()
