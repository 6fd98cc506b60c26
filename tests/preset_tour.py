"""Every preset of every tab that has presets, chosen as a user chooses it, and how long it blocks.

Shared by ``tests/test_preset_blocks.py`` (a guard against a pathological
block) and ``benchmarks/bench_preset_blocks.py`` (the figures).

* The two-key lesson ("main") and the S3 tab, which shows the same lesson
  state, take the Presets menu's shortcuts (Alt+1, Alt+2, ...), the keys a
  lecturer presses; an entry without a shortcut is triggered as a click on
  it would.
* The lessons with their own models pick the entry in their preset combo
  box, as choosing it from the list does (``currentIndexChanged``, then
  ``activated``).

:func:`tour` orders the presets so that consecutive ones are every ordered
pair exactly once: n (n - 1) changes, each one timed, none only to set up
the next.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from PyQt6 import QtCore, QtGui, QtTest, QtWidgets

from quatlab.app.model import presets

#: Tabs whose presets are the two-key lesson's (the Presets menu).
MENU_TABS = ("main", "s3")


@dataclass
class Route:
    """How to reach each preset of one tab: ``choose(key)`` does what the user does."""

    tab: str
    keys: list[str]
    choose: Callable[[str], None]


def _menu_route(win, tab: str) -> Route:
    def choose(key: str) -> None:
        action = win.findChild(QtGui.QAction, f"preset_{key}")
        shortcut = action.shortcut()
        if shortcut.isEmpty():
            action.trigger()
        else:
            QtTest.QTest.keySequence(win, shortcut)
    return Route(tab, presets.names(), choose)


def _combo_route(win, tab: str) -> Route:
    box = win.views[tab].preset_box

    def choose(key: str) -> None:
        i = box.findData(key)
        box.setCurrentIndex(i)
        box.activated.emit(i)
    return Route(tab, [box.itemData(i) for i in range(box.count())], choose)


def routes(win) -> list[Route]:
    """One route per tab with presets, in tab order."""
    found = []
    for tab, view in win.views.items():
        if tab in MENU_TABS:
            found.append(_menu_route(win, tab))
        elif isinstance(getattr(view, "preset_box", None), QtWidgets.QComboBox):
            found.append(_combo_route(win, tab))
    return found


def tour(n: int, start: int = 0) -> list[int]:
    """Indices from ``start`` in which every ordered pair (i, j), i != j, follows once.

    An Euler circuit of the complete directed graph (Hierholzer's walk).

    >>> path = tour(3)
    >>> len(path), sorted(zip(path, path[1:]))
    (7, [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)])
    """
    left = {i: [j for j in range(n) if j != i] for i in range(n)}
    stack, path = [start], []
    while stack:
        if left[stack[-1]]:
            stack.append(left[stack[-1]].pop())
        else:
            path.append(stack.pop())
    return path[::-1]


class Block(NamedTuple):
    """One change: the longest gap between heartbeats, and the GUI thread's CPU time (ms).

    The gap is what a user feels; it also counts the time the thread waited
    for a core on a loaded machine. The CPU time is the work the thread did
    (its own, not the GL driver's threads or the X server's), which the
    machine's load hardly changes.
    """

    longest: float
    cpu: float


def measure(action: Callable[[], None], settle_ms: int = 30) -> Block:
    """Heartbeats (every 2 ms) while ``action`` runs and for ``settle_ms`` after it returns.

    The event loop runs ``action`` at once and goes on ``settle_ms`` after
    it returns, so the work it posts (the plots' deferred paint, the GL
    frame) lands in the same measurement.
    """
    beats: list[float] = []
    heart = QtCore.QTimer()
    heart.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
    heart.timeout.connect(lambda: beats.append(time.perf_counter()))
    loop = QtCore.QEventLoop()

    def run() -> None:
        beats.append(time.perf_counter())
        action()
        QtCore.QTimer.singleShot(settle_ms, loop.quit)
    heart.start(2)
    QtCore.QTimer.singleShot(0, run)
    cpu = time.thread_time()
    loop.exec()
    cpu = time.thread_time() - cpu
    heart.stop()
    beats.append(time.perf_counter())
    return Block(1e3 * float(np.max(np.diff(beats))), 1e3 * cpu)


def walk(win, route: Route, settle_ms: int = 30) -> dict[tuple[str, str], Block]:
    """Every ordered pair of ``route``'s presets in turn: ``{(from, to): Block}``."""
    win.show_view(route.tab)
    route.choose(route.keys[0])
    measure(lambda: None, 4 * settle_ms)
    order = tour(len(route.keys))
    blocks = {}
    for a, b in zip(order[:-1], order[1:], strict=True):
        key = route.keys[b]
        blocks[(route.keys[a], key)] = measure(lambda k=key: route.choose(k), settle_ms)
    return blocks
