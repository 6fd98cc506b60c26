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
        # Tight rows: on a 720-px screen the two editors and the readouts share
        # the panel's height with nothing to spare (Chinese lines are taller).
        grid.setContentsMargins(6, 2, 6, 2)
        grid.setVerticalSpacing(2)
        grid.setHorizontalSpacing(4)

        # --- components (w, x, y, z)
        self.components: list[QtWidgets.QLineEdit] = []
        self._components_label = self._label("w x y z", _(
            "Components, scalar first (w, x, y, z). Non-unit input is normalized; |q| "
            "shows what you typed."))
        for c in _COMPONENTS:
            edit = self._edit(_("{c} component of q{which}").format(c=c, which=which))
            edit.setObjectName(f"q{which}_{c}")
            edit.editingFinished.connect(self._components_edited)
            self.components.append(edit)
        self.negate_button = QtWidgets.QPushButton("−q")
        self.negate_button.setObjectName(f"q{which}_negate")
        self.negate_button.setToolTip(
            _("Negate q{which}: store −q{which}. Same rotation (the endpoint pose does not "
              "move), opposite hemisphere: watch the naive curves change.").format(which=which)
        )
        self.negate_button.setFixedWidth(34)
        self.negate_button.clicked.connect(lambda: self.state.negate(self.which))
        self.norm_label = QtWidgets.QLabel()
        # Wrapped, not widening the editor: "0.999849 → normalized" (the glTF triangle
        # preset) widened the side panel by 28 px and moved and resized every view
        # beside it, whose labels were all placed and drawn again.
        self.norm_label.setWordWrap(True)
        self.norm_label.setToolTip(_("Length of q as entered; QuatLab uses q / |q|."))

        # --- axis-angle
        self._axis_label = self._label(_("axis, °"), _("Rotation axis (x, y, z; normalized) "
                                                      "and angle in degrees"))
        self.axis = [self._edit(_("axis {c}").format(c=c)) for c in "xyz"]
        self.angle = self._edit(_("angle in degrees"))
        for e in self.axis + [self.angle]:
            e.editingFinished.connect(self._axis_angle_edited)
        self._grid, self._two_rows = grid, None
        self._place_rows((False, False, False))

        # --- Euler angles
        self._euler_label = self._label(_("Euler °"), _(
            "Euler angles in degrees; uppercase order = intrinsic (body axes), lowercase = "
            "extrinsic (fixed axes), as in scipy"))
        self.euler = [self._edit(_("Euler angle {i} (degrees)").format(i=i + 1))
                      for i in range(3)]
        for e in self.euler:
            e.editingFinished.connect(self._euler_edited)
        self.euler_order = QtWidgets.QComboBox()
        self.euler_order.addItems(EULER_ORDERS)
        self.euler_order.setCurrentText("XYZ")
        self.euler_order.setToolTip(_("Euler order (24): uppercase intrinsic, lowercase extrinsic"))
        self.euler_order.currentTextChanged.connect(lambda _: self.refresh())

        # --- paste
        self._paste_label = self._label(_("paste"), _(
            "Paste four numbers in the order chosen on the right, e.g. from glTF (x y z w) or "
            "a log (w x y z)"))
        self.paste = QtWidgets.QLineEdit()
        self.paste.setObjectName(f"q{which}_paste")
        self.paste.setPlaceholderText(_("e.g. 0, 0, 0.6, 0.8"))
        self.paste.returnPressed.connect(self._paste_edited)
        self.paste_order = QtWidgets.QComboBox()
        self.paste_order.addItems(ORDERS)
        self.paste_order.setToolTip(_("Component order of the pasted text"))
        self._paste_apply = apply = QtWidgets.QPushButton(_("Set"))
        apply.setFixedWidth(34)
        apply.setToolTip(_("Parse the pasted text in the chosen order (Enter)"))
        apply.clicked.connect(self._paste_edited)

        self.message = QtWidgets.QLabel()
        self.message.setObjectName(f"q{which}_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #B00020;")
        self.message.hide()
        self._two_rows = None  # now with every row made
        self._place_rows((False, False, False))
        for col in range(1, 5):
            grid.setColumnStretch(col, 1)

        state.events.connect("endpoints", self.refresh)
        self.refresh()

    # ------------------------------------------------------------------ layout
    def _place_rows(self, two_rows: tuple[bool, bool, bool]) -> None:
        """Lay the components, the axis-angle and the Euler angles out on one row each, or two.

        ``two_rows`` says, for each of the three, whether its fields take two
        rows of two (the Euler order box in the second): in a narrow side panel
        (1024-px screens) four fields on a row are too narrow for "-0.98481",
        and a number cut short reads as another number.
        """
        if two_rows == self._two_rows:
            return
        self._two_rows = two_rows
        grid = self._grid

        def four(row: int, label, fields, two: bool) -> int:
            grid.addWidget(label, row, 0)
            for i, e in enumerate(fields):
                r, c = (row + i // 2, 1 + 2 * (i % 2)) if two else (row, 1 + i)
                grid.addWidget(e, r, c, 1, 2 if two else 1)
            return row + (2 if two else 1)

        row = four(0, self._components_label, self.components, two_rows[0])
        grid.addWidget(self.negate_button, 0, 5)
        grid.addWidget(self.norm_label, row, 1, 1, 5)
        row = four(row + 1, self._axis_label, [*self.axis, self.angle], two_rows[1])
        if not hasattr(self, "euler"):
            return  # the rows below are placed once they are made
        row = four(row, self._euler_label, self.euler, two_rows[2])
        if two_rows[2]:
            grid.addWidget(self.euler_order, row - 1, 3, 1, 3)
        else:
            grid.addWidget(self.euler_order, row - 1, 4, 1, 2)
        row -= 1
        grid.addWidget(self._paste_label, row + 1, 0)
        grid.addWidget(self.paste, row + 1, 1, 1, 3)
        grid.addWidget(self.paste_order, row + 1, 4)
        grid.addWidget(self._paste_apply, row + 1, 5)
        grid.addWidget(self.message, row + 2, 0, 1, 6)

    def _beside_fields(self, button: int) -> int:
        """Width of a row of four fields that is not the fields': the margins, the label,
        the −q button (``button`` px wide) and the five gaps."""
        grid = self._grid
        m = grid.contentsMargins()
        label = max(w.sizeHint().width() for w in (
            self._components_label, self._axis_label, self._euler_label, self._paste_label))
        return m.left() + m.right() + label + button + 5 * grid.horizontalSpacing()

    def _field_width_on_one_row(self, width: int) -> float:
        """Width of each of four fields on one row of an editor ``width`` wide."""
        return (width - self._beside_fields(self.negate_button.width())) / 4

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 (Qt's name)
        """As wide as every form's four fields on one row with their numbers whole.

        The grid's own hint is that of the rows as they stand: laid out in two
        rows in a narrow place, the editor asked for the narrow width from
        then on, and a column of controls sized by it kept the two rows in a
        window with room for one. The engines tab opened on the milk truck's
        wheel (0.057433, -0.99835) at 1280x720 stood 310 px wide, in two rows,
        and pushed its plots off the page. Two rows are for a place narrower
        than this (:meth:`minimumSizeHint` is the grid's).
        """
        hint = super().sizeHint()
        text = max(self._text_width(e) for e in (
            *self.components, *self.axis, self.angle, *self.euler))
        one_row = self._beside_fields(self.negate_button.sizeHint().width()) + 4 * text
        return QtCore.QSize(max(hint.width(), one_row), hint.height())

    @staticmethod
    def _text_width(edit: QtWidgets.QLineEdit) -> int:
        """Width ``edit`` needs to show its whole text (frame and margins included)."""
        frame = edit.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_DefaultFrameWidth)
        margins = edit.textMargins()
        # Qt keeps 2 px of room on each side of a line edit's text.
        return (edit.fontMetrics().horizontalAdvance(edit.text()) + 2 * frame + 4
                + margins.left() + margins.right() + 1)

    def _fit_rows(self, width: int | None = None) -> None:
        room = self._field_width_on_one_row(self.width() if width is None else width)
        self._place_rows(tuple(
            max(self._text_width(e) for e in fields) > room
            for fields in (self.components, [*self.axis, self.angle], self.euler)))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_rows(event.size().width())

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange and hasattr(self, "euler"):
            self._fit_rows()  # zoom: the texts' widths change

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
            # The arrow stays with its word where the line breaks.
            + ("" if abs(n - 1) < 1e-9 else "  →\u00a0" + _("normalized"))
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
        if self._two_rows is not None:
            self._fit_rows()  # new numbers may need (or free) the second rows
        self.updateGeometry()  # the width one row needs (sizeHint) follows the numbers
        if not keep_message:
            self.message.hide()
