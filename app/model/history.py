"""Undo/redo of immutable snapshots, shared by the models. No Qt.

A model keeps its state in immutable values (tuples, frozen dataclasses) and
records the value it is about to replace; undo and redo hand back the value
to restore and remember the one it replaces.

Examples
--------
>>> h = History()
>>> h.record("a", "type b"); current = "b"
>>> current = h.undo(current); current, h.redo_label
('a', 'type b')
>>> h.redo(current)
'b'
"""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["History"]

T = TypeVar("T")


class History(Generic[T]):
    """Two stacks of ``(snapshot, label)``; a new record clears the redo stack."""

    def __init__(self) -> None:
        self._undo: list[tuple[T, str | None]] = []
        self._redo: list[tuple[T, str | None]] = []

    def record(self, previous: T, label: str | None = None) -> None:
        """Remember ``previous``, the value a new edit (``label``) replaces."""
        self._undo.append((previous, label))
        self._redo.clear()

    def undo(self, current: T) -> T | None:
        """The value to restore (None when there is nothing to undo)."""
        if not self._undo:
            return None
        previous, label = self._undo.pop()
        self._redo.append((current, label))
        return previous

    def redo(self, current: T) -> T | None:
        """The value to restore again (None when there is nothing to redo)."""
        if not self._redo:
            return None
        following, label = self._redo.pop()
        self._undo.append((current, label))
        return following

    def clear(self) -> None:
        self._undo.clear()
        self._redo.clear()

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_label(self) -> str | None:
        return self._undo[-1][1] if self._undo else None

    @property
    def redo_label(self) -> str | None:
        return self._redo[-1][1] if self._redo else None
