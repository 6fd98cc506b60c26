"""One self-contained HTML page of a check (``--html FILE``): the summary and a dope sheet per file.

Everything is in the page: inline CSS, SVG drawn here from the report's
lines, no script, no font, image or link that would reach the network, so
it opens from a mail attachment or an air-gapped file share
(docs/report.md, "HTML"). The page holds the counts, a table per format,
the findings by kind, the files and joints with the most findings, and for
every file with findings a "dope sheet" strip: a row per track with
findings, time across, a mark per finding coloured by its family (a
segment's mark spans its two keys; a key's is a tick), with the finding in
its tooltip. Texts of the page are in the language in use; the report's own
texts (messages, errors) are shown as the report has them. No Qt.
"""

from __future__ import annotations

import math
from collections import Counter
from html import escape
from pathlib import Path

from quatlab.app.i18n import N_, _, current_language, ngettext
from quatlab.app.io.tracks import track_label

__all__ = ["html_page", "FAMILIES", "FAMILY_STYLE", "strip_svg", "time_to_x", "STRIP"]

#: The family of each finding kind: what colour its marks take. A kind not listed
#: here is drawn in the "other" colour (tests/test_check_html.py lists every kind).
FAMILIES = {
    "sign_flip": "sign", "half_turn": "sign", "frame_sign_flip": "sign",
    "zero": "key", "non_finite": "key", "non_unit": "key",
    "time_order": "time",
    "euler_wrap": "euler", "euler_flip": "euler", "gimbal_lock": "euler", "euler_range": "euler",
    "more": "more",
}

#: Family: (colour, legend). Okabe-Ito hues, told apart with the common colour-vision
#: deficiencies (as the plots' colours: rendering/style.py).
FAMILY_STYLE = {
    "sign": ("#D55E00", N_("hemisphere: sign flips and half turns")),
    "key": ("#CC79A7", N_("bad keys: zero, not finite, not unit")),
    "time": ("#E69F00", N_("time order")),
    "euler": ("#0072B2", N_("Euler channels: wraps, flips, gimbal lock")),
    "more": ("#999999", N_("more findings, counted")),
    "other": ("#000000", N_("other")),
}

#: Geometry of a strip, in SVG pixels.
STRIP = {"width": 960, "label": 250, "right": 20, "row": 18, "axis": 26, "mark": 10}
#: Rows a strip shows and strips a page shows; the rest are counted.
MAX_ROWS = 80
MAX_FILES = 500

_CSS = """
body{font-family:system-ui,"Noto Sans CJK SC","DejaVu Sans",sans-serif;margin:24px;color:#222;
background:#fff;max-width:1000px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}
h3{font-size:14px;margin:18px 0 4px;font-weight:600;word-break:break-all}
.muted{color:#666;font-size:13px}table{border-collapse:collapse;font-size:13px;margin:6px 0}
th,td{padding:3px 10px;text-align:right;border-bottom:1px solid #eee}
th:first-child,td:first-child{text-align:left}th{background:#f6f6f6}
.cards{display:flex;gap:10px;flex-wrap:wrap;margin:12px 0}
.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:90px}
.card b{display:block;font-size:22px}.sw{display:inline-block;width:12px;height:12px;
border-radius:2px;margin-right:6px;vertical-align:-1px}
.legend span{margin-right:18px;font-size:13px}
svg{display:block;margin:4px 0 10px}svg text{font-size:11px;fill:#333}
.err{color:#a00;font-size:13px;word-break:break-all}
"""


def _family(kind: str) -> str:
    return FAMILIES.get(kind, "other")


def time_to_x(t: float, start: float, end: float) -> float:
    """The x of time ``t`` on a strip whose axis runs from ``start`` to ``end`` seconds.

    >>> time_to_x(0.5, 0.0, 1.0) == STRIP["label"] + (STRIP["width"] - STRIP["label"]
    ...                                                 - STRIP["right"]) / 2
    True
    """
    left = STRIP["label"]
    span = STRIP["width"] - STRIP["label"] - STRIP["right"]
    return left + (t - start) / (end - start) * span


def _span(tracks: list[dict]) -> tuple[float, float]:
    """The time axis of a file's strip: its tracks' first to last key (finding times if unknown)."""
    times = [v for t in tracks for v in (t.get("start"), t.get("end")) if v is not None]
    times += [v for t in tracks for f in t["findings"] for v in f.get("times", ()) if v is not None]
    if not times:
        return 0.0, 1.0
    start, end = min(times), max(times)
    return (start, end) if end > start else (start, start + 1.0)


def _ticks(start: float, end: float) -> list[float]:
    raw = (end - start) / 5
    step = 10 ** math.floor(math.log10(raw))
    step *= next(m for m in (1, 2, 5, 10) if raw <= m * step)
    first = math.ceil(start / step) * step
    return [first + i * step for i in range(int((end - first) / step + 1e-9) + 1)]


def _track_name(track: dict) -> str:
    return track_label(track.get("animation"), track.get("animation_index"), track.get("node"),
                       track.get("node_index"))


def _tip(finding: dict) -> str:
    keys = "-".join(map(str, finding["keys"]))
    times = "-".join("?" if t is None else f"{t:g}" for t in finding.get("times", ()))
    head = _("{kind}, keys {keys}, t = {times} s").format(kind=finding["kind"], keys=keys,
                                                         times=times)
    message = finding.get("message")
    return head + ("\n" + _(message) if message else "")


def strip_svg(tracks: list[dict]) -> str:
    """The dope sheet of one file's ``details``: rows of its tracks with findings (module docs)."""
    rows = [t for t in tracks if t["findings"]]
    shown = rows[:MAX_ROWS]
    start, end = _span(rows)
    g = STRIP
    height = g["axis"] + g["row"] * len(shown) + 6
    top = g["axis"]
    out = [f'<svg width="{g["width"]}" height="{height}" viewBox="0 0 {g["width"]} {height}" '
           f'role="img">']
    right = g["width"] - g["right"]
    for tick in _ticks(start, end):
        x = time_to_x(tick, start, end)
        out.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{height - 4}" '
                   f'stroke="#e4e4e4"/><text x="{x:.1f}" y="{top - 8}" text-anchor="middle">'
                   f'{tick:g} s</text>')
    for i, track in enumerate(shown):
        y = top + i * g["row"]
        if i % 2:
            out.append(f'<rect x="0" y="{y}" width="{right}" height="{g["row"]}" '
                       f'fill="#f7f7f7"/>')
        name = _track_name(track)
        short = name if len(name) <= 40 else name[:39] + "…"
        out.append(f'<text x="4" y="{y + 13}"><title>{escape(name)}</title>'
                   f'{escape(short)}</text>')
        # A lane per family in the row, so that a sign flip and an Euler wrap at the
        # same frame (BVH has both) are both seen.
        lanes = [fam for fam in FAMILY_STYLE if any(_family(f["kind"]) == fam
                                                    for f in track["findings"])]
        lane = g["mark"] / len(lanes)
        for f in track["findings"]:
            times = [t for t in f.get("times", ()) if t is not None] or [start]
            x0, x1 = time_to_x(min(times), start, end), time_to_x(max(times), start, end)
            width = max(3.0, x1 - x0)
            family = _family(f["kind"])
            mark_y = y + (g["row"] - g["mark"]) / 2 + lanes.index(family) * lane
            out.append(f'<rect class="mark" data-kind="{escape(f["kind"])}" '
                       f'x="{(x0 + x1 - width) / 2:.2f}" y="{mark_y:.2f}" '
                       f'width="{width:.2f}" height="{lane:.2f}" fill="{FAMILY_STYLE[family][0]}" '
                       f'fill-opacity="0.9"><title>{escape(_tip(f))}</title></rect>')
    out.append(f'<line x1="{g["label"]}" y1="{top - 4}" x2="{g["label"]}" y2="{height - 4}" '
               f'stroke="#999"/></svg>')
    if len(rows) > MAX_ROWS:
        out.append('<p class="muted">' + escape(_("and {n} more tracks with findings").format(
            n=len(rows) - MAX_ROWS)) + "</p>")
    return "".join(out)


def _h2(text: str) -> str:
    return f"<h2>{escape(text)}</h2>"


def _table(head: list[str], rows: list[list]) -> str:
    cells = "".join(f"<th>{escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _summary(results: list[dict], skipped: list[dict]) -> str:
    from quatlab.app.io.reports.ranking import top_files, top_joints

    status = Counter(r["status"] for r in results)
    cards = [(_("files"), len(results)), (_("clean"), status["ok"]),
             (_("flagged"), status["findings"]), (_("unreadable"), status["unreadable"]),
             (_("skipped"), len(skipped)), (_("findings"), sum(r["findings"] for r in results))]
    out = ['<div class="cards">' + "".join(
        f'<div class="card"><b>{n}</b>{escape(label)}</div>' for label, n in cards) + "</div>"]
    per: dict[str, Counter] = {}
    for r in results:
        c = per.setdefault(Path(r["file"]).suffix.lower().lstrip(".") or "?", Counter())
        c.update(files=1, **{r["status"]: 1}, count=r["findings"])
    out.append(_table([_("format"), _("files"), _("clean"), _("flagged"), _("unreadable"),
                       _("findings")],
                      [[escape(fmt), c["files"], c["ok"], c["findings"], c["unreadable"],
                        c["count"]] for fmt, c in sorted(per.items())]))
    kinds = Counter()
    for r in results:
        kinds.update(r.get("kinds") or {})
    if kinds:
        out.append(_h2(_("Findings by kind")))
        out.append(_table([_("kind"), _("findings")], [
            [f'<span class="sw" style="background:{FAMILY_STYLE[_family(k)][0]}"></span>'
             f"{escape(k)}", n] for k, n in kinds.most_common()]))
    files, joints = top_files(results), top_joints(results)
    anchors = {r["file"]: f"f{i}" for i, r in enumerate(results)}
    if files:
        out.append(_h2(_("Files with the most findings")))
        out.append(_table([_("file"), _("findings")], [
            [f'<a href="#{anchors[r["file"]]}">{escape(r["file"])}</a>', r["findings"]]
            for r in files]))
    if joints:
        out.append(_h2(_("Joints with the most findings")))
        out.append(_table([_("joint"), _("findings"), _("files")],
                          [[escape(r["joint"]), r["findings"], r["files"]] for r in joints]))
    return "".join(out)


def _legend() -> str:
    return '<p class="legend">' + "".join(
        f'<span><span class="sw" style="background:{colour}"></span>{escape(_(label))}</span>'
        for family, (colour, label) in FAMILY_STYLE.items() if family != "other") + "</p>"


def html_page(entries: list[dict], *, title: str) -> str:
    """The page (module docs) of a folder report's lines (files and skipped entries).

    The files' ``details`` should list their tracks with findings; the
    findings' messages, when present, become the marks' tooltips.
    """
    results = [e for e in entries if e.get("status") != "skipped"]
    skipped = [e for e in entries if e.get("status") == "skipped"]
    lang = current_language().replace("_", "-")
    out = [f'<!DOCTYPE html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
           f'<meta name="viewport" content="width=device-width, initial-scale=1">'
           f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
           "<h1>" + escape(_("Rotation keyframe check")) + "</h1>",
           f'<p class="muted">{escape(title)}</p>', _summary(results, skipped)]
    flagged = [(i, r) for i, r in enumerate(results) if r["status"] == "findings"]
    if flagged:
        out.append(_h2(_("Dope sheet of the findings, per file")))
        out.append('<p class="muted">' + escape(_(
            "A row per track with findings, time across; hover a mark for the finding.")) + "</p>")
        out.append(_legend())
        for i, r in flagged[:MAX_FILES]:
            n_tracks = sum(1 for t in r.get("details") or () if t["findings"])
            out.append(f'<h3 id="f{i}">{escape(r["file"])}</h3><p class="muted">' + escape(
                ngettext("{findings} finding in {tracks} of {all} tracks",
                         "{findings} findings in {tracks} of {all} tracks", r["findings"]).format(
                    findings=r["findings"], tracks=n_tracks, all=r["tracks"])) + "</p>")
            out.append(strip_svg(r.get("details") or []))
        if len(flagged) > MAX_FILES:
            out.append('<p class="muted">' + escape(_(
                "and {n} more files with findings (see the JSON report)").format(
                    n=len(flagged) - MAX_FILES)) + "</p>")
    bad = [(i, r) for i, r in enumerate(results) if r["status"] == "unreadable"]
    if bad:
        out.append(_h2(_("Files that could not be read")))
        out += [f'<p id="f{i}" class="err">{escape(r.get("error") or r["file"])}</p>'
                for i, r in bad]
    if skipped:
        out.append(_h2(_("Skipped")))
        out.append(_table([_("entry"), _("why")], [
            [escape(e["file"]), escape(e.get("reason", ""))] for e in skipped]))
    out.append("</body></html>\n")
    return "".join(out)
