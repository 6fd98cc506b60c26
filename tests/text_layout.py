"""Reading laid-out text in tests: rich text line by line, and axis tick labels."""

from __future__ import annotations

from PyQt6 import QtGui

#: Characters a line may neither end nor start with: they sit inside a formula.
OPERATORS = set("=<>≤≥+−×·")
#: Characters a line may not start with: a unit belongs to the number before it.
UNITS = set("°%")
#: Punctuation a line may not start with (in Chinese typesetting neither: 避头点).
CLOSING = set(",.;:)，。：；）、")
#: Superscripts a line may not start with: "|q|²", "Rᵀ" are one symbol.
SUPERSCRIPTS = set("⁰¹²³⁴⁵⁶⁷⁸⁹ᵀ")
#: Opening brackets a line may not end with (full-width ones too: 避尾点).
OPENING = set("(（[［")


def as_read(text: str) -> str:
    """``text`` as a reader reads it: no-break spaces as spaces, word joiners dropped."""
    return text.replace("\u00a0", " ").replace("\u2060", "")


def laid_out_lines(doc: QtGui.QTextDocument) -> list[str]:
    """The document's laid-out lines, as read: no-break spaces as spaces, joiners dropped."""
    out = []
    block = doc.begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            out.append(text[line.textStart(): line.textStart() + line.textLength()])
        block = block.next()
    return [s.replace("\u00a0", " ").replace("\u2060", "").replace("\u2028", "") for s in out]


def line_spans(doc: QtGui.QTextDocument) -> list[tuple[float, float]]:
    """The top and bottom of every laid-out line of ``doc``, from its Qt layout."""
    spans = []
    block = doc.begin()
    while block.isValid():
        layout = block.layout()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            top = layout.position().y() + line.y()
            spans.append((top, top + line.height()))
        block = block.next()
    return spans


def whole_lines_above(doc: QtGui.QTextDocument, height: float) -> list[str]:
    """The laid-out lines of ``doc`` (as :func:`laid_out_lines` reads them) whose
    bottom lies within ``height`` of its top: those a view that tall shows whole."""
    return [s for s, (_top, bottom) in zip(laid_out_lines(doc), line_spans(doc), strict=True)
            if bottom <= height]


def formula_breaks(lines: list[str]) -> list[str]:
    """Line ends that cut a formula: at an operator or an opening bracket, before a unit,
    an operator, a superscript or a closing mark.

    >>> formula_breaks(["dot(q0, q1) = −0.98 <", "0: q1 lies"])
    ["'dot(q0, q1) = −0.98 <' | '0: q1 lies'"]
    >>> formula_breaks(["the dot", "−0.98, naive 20.0 °/t", "on"])
    []
    >>> formula_breaks(["scale by |q|", "² = 1.361 （", "= 20.0°）"])
    ["'scale by |q|' | '² = 1.361 （'", "'² = 1.361 （' | '= 20.0°）'"]
    """
    bad = []
    for a, b in zip(lines, lines[1:], strict=False):
        end, start = a.rstrip(), b.lstrip()
        # A line may start with a negative number ("dot" | "−0.9948"): a sign, not an operator.
        signed = start[:1] == "−" and start[1:2].isdigit()
        if (end and end[-1] in OPERATORS | OPENING) \
                or (start and start[0] in OPERATORS | UNITS | SUPERSCRIPTS and not signed) \
                or (start and start[0] in CLOSING) \
                or (end.endswith("°/") and start.startswith("t")):
            bad.append(f"{end[-25:]!r} | {start[:25]!r}")
    return bad


def tick_text_rects(axis) -> list:
    """Where the axis draws its tick labels, in scene coordinates (its own draw specs)."""
    img = QtGui.QImage(8, 8, QtGui.QImage.Format.Format_ARGB32)
    painter = QtGui.QPainter(img)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(axis.mapRectToScene(rect), text) for rect, _flags, text in specs[2]]
