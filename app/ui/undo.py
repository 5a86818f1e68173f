"""Undo/redo of the look: the style or chain, its parameter values, the seed, the processing
scale, a video's lines and the preset they started from (no Qt)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.renderer import VIDEO_LINES

MERGE_S = 1.0  # changes of one control closer than this are one step (a slider drag)
LIMIT = 200


@dataclass(frozen=True)
class Look:
    """Everything undo restores: the style (or chain `a+b`), its JSON-friendly values, the
    seed, the preset shown, the processing scale and a video's lines."""

    values: dict[str, Any]
    seed: int
    preset: str | None  # the preset the values started from (None: none)
    modified: bool  # edited since that preset was chosen
    style: str = ""  # the style or chain the values are of
    scale: float = 1.0  # the processing scale
    video_lines: int = VIDEO_LINES  # a video's frames painted at most these lines (0: all)


class UndoHistory:
    """Two stacks of looks. `record(before, key)` is called before every change; changes of
    the same control (key) in quick succession merge into one step."""

    def __init__(self, limit: int = LIMIT, merge_s: float = MERGE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._undo: list[Look] = []
        self._redo: list[Look] = []
        self._limit = limit
        self._merge_s = merge_s
        self._clock = clock
        self._last: tuple[str, float] | None = None
        # told after each step made, undone or redone (the Edit menu's Undo and Redo)
        self.on_change: Callable[[], None] | None = None

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def record(self, before: Look, key: str) -> None:
        now = self._clock()
        if self._last is not None and self._last[0] == key and self._undo \
                and now - self._last[1] < self._merge_s:
            self._last = (key, now)  # the same drag: keep the look from before it began
            return
        self._undo.append(before)
        del self._undo[:-self._limit]
        self._redo.clear()
        self._last = (key, now)
        self._changed()

    def undo(self, current: Look) -> Look | None:
        """The look before the last change (None: nothing to undo)."""
        if not self._undo:
            return None
        self._redo.append(current)
        self._last = None
        look = self._undo.pop()
        self._changed()
        return look

    def redo(self, current: Look) -> Look | None:
        """The look an undo went back from (None: nothing to redo)."""
        if not self._redo:
            return None
        self._undo.append(current)
        self._last = None
        look = self._redo.pop()
        self._changed()
        return look

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)
