"""Vertical axis titles that fit their plot: shortened by rule when the plot is too short.

A left axis title runs up the side of its plot, and pyqtgraph centres it
there whatever its length: a title longer than the plot is tall was cut at
both ends ("angular speed (deg per unit t" on a 720-px screen). A
:class:`TitleFitAxis` shows the longest of :func:`title_forms` whose advance
fits the axis height, measured on every resize and restyle (zoom, theme,
language), and puts the whole title in the tooltip when it shows less
(docs/curves.md, "Axis titles"). ``labelText`` keeps the whole title. A
title with a unit keeps it while any form with it fits: the owner's short
title, or the words elided ("rotation fr… (°)").
"""

from __future__ import annotations

import re

import pyqtgraph as pg
from PyQt6 import QtGui

from quatlab.rendering.tick_fit import FittedTicks

__all__ = ["title_forms", "title_unit", "TitleFitAxis"]

#: A group in parentheses, ASCII or full width (the zh_CN titles use "（度）").
_PARENS = re.compile(r"\s*[(（]([^()（）]*)[)）]")
#: Unit words and their short forms, in the order they are replaced.
_UNIT_SHORT = ((re.compile(r"\s+per\s+unit\s+"), " / "), (re.compile(r"单位\s*"), ""),
               (re.compile(r"\s*/\s*"), "/"), (re.compile(r"\bdeg\b|度"), "°"))
ELLIPSIS = "…"
#: What makes a group in parentheses a unit (title_unit): degrees, a rate, seconds, radians.
_UNIT_MARK = re.compile(r"°|\bdeg\b|度|/|\b(?:s|rad)\b")


def _short_units(match: re.Match) -> str:
    inner = match.group(1)
    for pattern, short in _UNIT_SHORT:
        inner = pattern.sub(short, inner)
    full_width = match.group(0).lstrip().startswith("（")
    return f"（{inner}）" if full_width else f" ({inner})"


def title_forms(text: str) -> list[str]:
    """``text`` and its shorter forms, longest first, each different from the one before.

    1. the title as given;
    2. runs of spaces squeezed to one;
    3. units in parentheses written short: "deg" -> "°", "deg per unit t" -> "°/t";
    4. the words in parentheses dropped.

    :class:`TitleFitAxis` tries 1-3 on one line, then 2-3 on two lines; for a
    title with a unit (:func:`title_unit`) the short title and the elided words
    with the unit; then 4 on one, two and three lines, and elides the last
    when none fits.
    """
    forms = [text]
    squeezed = re.sub(r"\s{2,}", " ", text).strip()
    for form in (squeezed, _PARENS.sub(_short_units, squeezed),
                 _PARENS.sub("", squeezed).strip()):
        if form and form != forms[-1]:
            forms.append(form)
    return forms


def title_unit(text: str) -> str | None:
    """The unit of a title: its last group in parentheses that holds one (degrees, a
    rate, seconds, radians), written short, "（°）" or " (°/t)"; None if it has none.

    A group that is a note, "(log)", is no unit: the title may drop it.

    >>> title_unit("angular speed (deg per unit t)")
    ' (°/t)'
    >>> title_unit("| |q| − 1 |   (log)") is None
    True
    """
    match = _unit_match(_PARENS.sub(_short_units, text))
    return None if match is None else match.group(0)


def _unit_match(text: str) -> re.Match | None:
    units = [m for m in _PARENS.finditer(text) if _UNIT_MARK.search(m.group(1))]
    return units[-1] if units else None


def _kept_forms(text: str, forms: list[str]) -> list[str]:
    """The forms of ``text`` that keep its words in parentheses (all, if it has none)."""
    return forms[:-1] if _PARENS.search(text) else forms


def _terms(text: str) -> list[str]:
    """``text`` without its parentheses, split where it has runs of spaces, if it has them:
    they set its terms apart ("| |q| − 1 |   and   ‖RᵀR − I‖"); else into words."""
    bare = _PARENS.sub("", text).strip()
    return re.split(r"\s{2,}", bare) if re.search(r"\s{2,}", bare) else bare.split()


class TitleFitAxis(FittedTicks, pg.AxisItem):
    """A left or right axis whose title is shortened to fit the axis height.

    See the module docstring; top and bottom axes show their title unchanged.
    """

    def __init__(self, *args, **kwargs) -> None:
        self._shown: str | None = None  # the HTML the label holds
        self._last: str | None = None  # what labelString last returned
        self._lines = 1  # of the title shown
        self._short: str | None = None  # a shorter title of the owner's, tried before eliding
        self._short_first = False  # the short title on one line before the title on two
        self._peers: list[TitleFitAxis] = []  # axes stacked with this one (set_peers)
        self._natural = 0.0  # the width this axis needs on its own
        super().__init__(*args, **kwargs)

    def set_peers(self, peers) -> None:
        """Axes of plots stacked with this one: each takes the widest one's width, so the
        plots' data areas, and their t cursors, line up. Stacked beside the 3D view
        the Chinese SQUAD plots' t = 0 stood at x 717 and 749, and the two cursor
        lines at one t 16 px apart."""
        self._peers = [p for p in peers if p is not self]
        self._updateWidth()

    def set_short_title(self, text: str | None, *, before_two_lines: bool = False) -> None:
        """A shorter title to show (its own forms, on one or two lines) where no form of
        the title fits, before it is elided: "unwrapped turn (deg)" cut to "unw…"
        on the Keyframes tab at 150 % says less than "turn (°)". The full title
        is the tooltip then. ``before_two_lines``: the short title on one line
        is tried before the title on two, which widens the axis by a line (a
        narrow plot's data area, as the stored keys' beside the 3D view)."""
        if (text or None, before_two_lines) == (self._short, self._short_first):
            return  # laid out again for nothing (a lesson sets its titles on every change)
        self._short = text or None
        self._short_first = before_two_lines
        self._updateLabel()

    def shown_title(self) -> str:
        """The title as drawn and read: without its HTML span, the word joiners that
        hold a formula together read as nothing and its no-break spaces as spaces."""
        return self.label.toPlainText().replace("\u2060", "").replace("\u00a0", " ").strip()

    def _advance(self, html: str) -> float:
        doc = QtGui.QTextDocument()
        doc.setDocumentMargin(0.0)
        doc.setDefaultFont(self.label.font())
        doc.setHtml(html)
        return doc.idealWidth()

    def labelString(self) -> str:  # noqa: N802 (pyqtgraph's name)
        html = super().labelString()
        full = self.labelText
        room = self.size().height()
        if self.orientation not in ("left", "right") or not full or room <= 0.0:
            self._set_tip(None)
            if self._lines != 1:
                self._lines = 1
                self._updateWidth()
            self._last = html
            return html
        # pyqtgraph writes "<title> <units>": without units a space ends the title,
        # which took 8.6 px of an 83-px plot's room in presentation mode at 150 %
        # ("angle" / "(°)" did not fit, "an…" / "(°)" did) and set lines off centre.
        html = html.replace(f"{full} </span>", f"{full}</span>", 1)
        shown, lines = self._choose(html, full, room)
        self._set_tip(None if shown == html else full)
        self._last = shown
        if lines != self._lines or shown != self._shown:
            self._lines = lines
            self._updateWidth()
        return shown

    def _choose(self, html: str, full: str, room: float) -> tuple[str, int]:
        """The first form of the title that fits ``room`` (see the module docstring), and
        its number of lines."""
        forms = title_forms(full)
        whole = _kept_forms(full, forms)  # every word (all forms when there are no parens)
        short = title_forms(self._short) if self._short is not None else []
        short_whole = _kept_forms(self._short, short) if short else []

        def one(candidates: list[str]) -> str | None:
            return self._first_fit(html, full, candidates, room)

        def two(candidates: list[str]) -> str | None:
            return next((t for form in candidates
                         if (t := self._two_lines(html, full, form, room)) is not None), None)

        steps = [(lambda: one(whole), 1)]
        if self._short_first:
            steps.append((lambda: one(short_whole), 1))
        # On two lines, the axis one line wider (see _updateWidth).
        steps.append((lambda: two(whole[1:] or whole), 2))
        if title_unit(full) is not None:
            # Before any form without it: a number axis without its unit ("angle
            # from the first key" at 1024x768 and 150 %) says less than a shorter
            # title with it, or the words elided and the unit kept.
            with_unit = short_whole if title_unit(self._short or "") is not None else []
            base = self._short if with_unit else full
            steps += [(lambda: one(with_unit), 1), (lambda: two(with_unit[1:] or with_unit), 2),
                      (lambda: self._elided_with_unit(html, full, base, room, 1), 1),
                      (lambda: self._elided_with_unit(html, full, base, room, 2), 2)]
        bare = forms[len(whole):]
        steps += [(lambda: one(bare), 1), (lambda: two(bare), 2)]
        if bare and self.fixedWidth is None:
            # Not on an axis given a fixed width to leave its plot room: each
            # line widens the axis, and a third took 52 px from the Keyframes
            # tab's error plot at 1024x768 and 150 % (docs/curves.md).
            steps.append((lambda: self._three_lines(html, full, _terms(full), room), 3))
        # As the title's: whole forms on one line, then two, then without the unit.
        steps += [(lambda: one(short_whole), 1), (lambda: two(short_whole[1:] or short_whole), 2),
                  (lambda: one(short[len(short_whole):]), 1)]
        for step, lines in steps:
            shown = step()
            if shown is not None:
                return shown, lines
        # The shortest form elided, keeping at least its first letter.
        last = forms[-1]
        for n in range(len(last) - 1, 1, -1):
            shown = html.replace(full, last[:n].rstrip() + ELLIPSIS, 1)
            if self._advance(shown) <= room:
                return shown, 1
        return html.replace(full, last[:1] + ELLIPSIS, 1), 1

    def _elided_with_unit(self, html: str, full: str, text: str, room: float,
                          lines: int) -> str | None:
        """``text``'s words elided and its unit kept, "rotation fr… (°)" on one line or
        the unit on a second; None if not even a letter and the unit fit."""
        form = _PARENS.sub(_short_units, re.sub(r"\s{2,}", " ", text).strip())
        match = _unit_match(form)
        if match is None:
            return None
        words, unit = form[:match.start()].rstrip(), match.group(0)
        for n in range(len(words) - 1, 0, -1):
            head = words[:n].rstrip() + ELLIPSIS
            if lines == 1:
                candidate = html.replace(full, head + unit, 1)
            else:
                candidate = ("<div align='center'>"
                             + html.replace(full, f"{head}<br>{unit.strip()}", 1) + "</div>")
                # Each line as wide as the room at most (the lines run up the axis).
                if max(self._advance(html.replace(full, head, 1)),
                       self._advance(html.replace(full, unit.strip(), 1))) <= room:
                    return candidate
                continue
            if self._advance(candidate) <= room:
                return candidate
        return None

    def _first_fit(self, html: str, full: str, forms: list[str], room: float) -> str | None:
        for form in forms:
            candidate = html.replace(full, form, 1)
            if self._advance(candidate) <= room:
                return candidate
        return None

    def _two_lines(self, html: str, full: str, form: str, room: float) -> str | None:
        """``form`` broken where its longer line is shortest (at a space, or before a
        parenthesis; anywhere in text without spaces), centred; None if that does not fit."""
        cuts = [(i, i + 1) for i, c in enumerate(form) if c == " "]
        cuts += [(i, i) for i, c in enumerate(form) if c in "(（" and i > 0]
        if not cuts:
            cuts = [(i, i) for i in range(1, len(form))]
        best, best_len = None, None
        for a, b in cuts:
            longest = max(self._advance(html.replace(full, form[:a], 1)),
                          self._advance(html.replace(full, form[b:], 1)))
            if best_len is None or longest < best_len:
                best, best_len = (form[:a].rstrip(), form[b:].lstrip()), longest
        if best is None or best_len > room:
            return None
        return "<div align='center'>" + html.replace(full, "<br>".join(best), 1) + "</div>"

    def _three_lines(self, html: str, full: str, words: list[str], room: float) -> str | None:
        """``words`` filled into lines up to ``room``; None beyond three lines."""
        lines: list[str] = []
        for word in words:
            joined = f"{lines[-1]} {word}" if lines else word
            if lines and self._advance(html.replace(full, joined, 1)) <= room:
                lines[-1] = joined
            elif self._advance(html.replace(full, word, 1)) <= room:
                lines.append(word)
            else:
                return None
        if len(lines) > 3:
            return None
        return "<div align='center'>" + html.replace(full, "<br>".join(lines), 1) + "</div>"

    def _updateWidth(self) -> None:  # noqa: N802 (pyqtgraph's name)
        super()._updateWidth()
        w = self.maximumWidth()
        if self._lines > 1 and self.fixedWidth is not None:
            w += (self._lines - 1) * self._line_height()
        if self.orientation != "left" or self._last is None or not self.isVisible():
            self._set_natural(w)
            return
        # pyqtgraph sizes the axis for 0.8 of the title's height, which the
        # nudge and the document margin cover only up to ~45 px: the title as
        # shown, measured in its own font (a Chinese line is 22 px, its CJK
        # fallback taller than the Latin 18), must end before the widest tick
        # label, drawn right-aligned at the axis' right edge. Two lines "… 与" /
        # "‖RᵀR − I‖（对数）" ran 1.4 px into "0.0001"; in English they cleared it by 0.2.
        w = max(w, self._title_right() + self._gap() + self._tick_space())
        self._set_natural(w)

    def _set_natural(self, w: float) -> None:
        """Take width ``w`` as this axis' own need, and the widest of its peers' (set_peers)."""
        changed = w != self._natural
        self._natural = w
        self._apply_width()
        if changed:
            for peer in self._peers:
                peer._apply_width()

    def _apply_width(self) -> None:
        w = max([self._natural] + [p._natural for p in self._peers if p.isVisible()])
        if w != self.maximumWidth() or w != self.minimumWidth():
            self.setMaximumWidth(w)
            self.setMinimumWidth(w)

    def _title_right(self) -> float:
        """Where the shown title's text ends, from the axis' left edge."""
        doc = QtGui.QTextDocument()
        margin = self.label.document().documentMargin()
        doc.setDocumentMargin(margin)
        doc.setDefaultFont(self.label.font())
        doc.setHtml(self._last)
        # pyqtgraph puts a left title 5 px left of the axis (AxisItem.resizeEvent's nudge).
        return -5.0 + doc.size().height() - margin

    def _tick_space(self) -> float:
        """The widest tick label and its offset from the axis line (AxisItem's own sizes)."""
        if not self.style["showValues"]:
            return 0.0
        return (self.textWidth + self.style["tickTextOffset"][0]
                + max(0, self.style["tickLength"]))

    def _gap(self) -> float:
        """Room between the title and the tick labels: half a character of the title's font."""
        return 0.5 * QtGui.QFontMetricsF(self.label.font()).averageCharWidth()

    def _line_height(self) -> float:
        doc = QtGui.QTextDocument()
        doc.setDocumentMargin(0.0)
        doc.setDefaultFont(self.label.font())
        doc.setHtml(super().labelString())
        return float(round(doc.size().height()))

    def _set_tip(self, tip: str | None) -> None:
        self.label.setToolTip(tip or "")
        self.setToolTip(tip or "")

    def _updateLabel(self) -> None:  # noqa: N802 (pyqtgraph's name)
        super()._updateLabel()
        self._shown = self._last
        super().resizeEvent()  # place it again: the shown title's length may have changed

    def resizeEvent(self, ev=None) -> None:  # noqa: N802 (Qt's name)
        if self.label is not None and (self.labelText or self.labelUnits):
            html = self.labelString()
            if html != self._shown:
                self.label.setHtml(html)
                self._shown = html
        super().resizeEvent(ev)
