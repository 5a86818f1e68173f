"""Undo/redo of the look: the style or chain, its parameter values, the seed, the processing
scale, a video's lines and the preset they started from (no Qt)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.renderer import VIDEO_LINES

MERGE_S = 1.0  # steps of one control (wheel, arrow keys) closer than this are one undo step
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


@dataclass(frozen=True)
class Gesture:
    """Changes that make one undo step: those with the same `key` in a row (one slider drag
    from press to release has a key of its own); `burst`: steps (wheel, arrow keys) that
    continue it only while each comes within MERGE_S of the one before."""

    key: str
    burst: bool = False


class UndoHistory:
    """Two stacks of looks, each with the words of the step it undoes or redoes ("Seed
    change": the Edit menu's "Undo Seed change"). `record(before, gesture, what)` is called
    before every change; a change is a step of its own, unless it continues the gesture of
    the step before."""

    def __init__(self, limit: int = LIMIT, merge_s: float = MERGE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._undo: list[tuple[Look, str]] = []
        self._redo: list[tuple[Look, str]] = []
        self._limit = limit
        self._merge_s = merge_s
        self.clock = clock  # a burst's time (tests drive it)
        self._last: tuple[Gesture, float] | None = None
        # told after each step made, undone or redone (the Edit menu's Undo and Redo)
        self.on_change: Callable[[], None] | None = None

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def record(self, before: Look, gesture: Gesture | None = None, what: str = "") -> None:
        """A change is made to the look `before`: a new step, or (the same `gesture` as the
        last step's, a burst's within MERGE_S) part of the last. None: a discrete action
        (a button, a preset, a typed value), always a step of its own. `what`: the step in
        a few words ("Seed change")."""
        now = self.clock()
        last, self._last = self._last, (gesture, now) if gesture is not None else None
        if gesture is not None and last is not None and last[0] == gesture and self._undo \
                and (not gesture.burst or now - last[1] < self._merge_s):
            return  # the same gesture: its step keeps the look from before it began
        self._undo.append((before, what))
        del self._undo[:-self._limit]
        self._redo.clear()
        self._changed()

    def undo(self, current: Look) -> Look | None:
        """The look before the last change (None: nothing to undo)."""
        if not self._undo:
            return None
        look, what = self._undo.pop()
        self._redo.append((current, what))
        self._last = None
        self._changed()
        return look

    def redo(self, current: Look) -> Look | None:
        """The look an undo went back from (None: nothing to redo)."""
        if not self._redo:
            return None
        look, what = self._redo.pop()
        self._undo.append((current, what))
        self._last = None
        self._changed()
        return look

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_text(self) -> str:
        """The words of the step undo takes back ("" where none, or none were given)."""
        return self._undo[-1][1] if self._undo else ""

    @property
    def redo_text(self) -> str:
        """The words of the step redo makes again ("" where none, or none were given)."""
        return self._redo[-1][1] if self._redo else ""
