"""Adaptive quality for live sources: the processing scale that holds a frame rate.

The controller watches how long each frame takes (a smoothed figure) against the frame
budget 1/target_fps and moves the processing scale in steps: down as soon as frames are
clearly too slow for a while, up only when they are clearly fast for longer (hysteresis: a
step up must still fit the budget, judged from the cost's dependence on the scale), never
below the user's floor nor above the user's processing scale (the ceiling). Exports never
use it: they render every frame at the requested quality.
"""

from __future__ import annotations

from dataclasses import dataclass

STEP = 0.05  # scales are multiples of this: few distinct sizes, few reallocations
DOWN_AFTER = 4  # frames over the budget before a step down
UP_AFTER = 30  # frames well under the budget before a step up
SLOW = 1.05  # smoothed frame time above SLOW x budget counts as over
FAST = 0.75  # below FAST x budget (after the step up's expected cost) counts as well under
SMOOTHING = 0.2  # weight of the newest frame in the smoothed frame time


@dataclass
class AdaptiveScale:
    """Chooses the processing scale for a live source (see the module docstring)."""

    target_fps: float = 30.0
    floor: float = 0.3
    scale: float = 1.0
    enabled: bool = True
    ceiling: float = 1.0  # the user's processing scale: adaptation never goes above it

    def __post_init__(self) -> None:
        if not self.target_fps > 0:
            raise ValueError(f"target frame rate must be positive, got {self.target_fps}")
        self.ceiling = min(1.0, max(0.05, float(self.ceiling)))
        self.floor = min(self.ceiling, max(STEP, _snap(self.floor)))
        self.scale = min(self.ceiling, max(self.floor, _snap(self.scale)))
        self._avg: float | None = None
        self._over = 0
        self._under = 0
        self.changes = 0  # steps taken so far

    @property
    def budget(self) -> float:
        """Seconds a frame may take."""
        return 1.0 / self.target_fps

    def update(self, frame_seconds: float) -> float:
        """Record the time the last frame took (at the current scale); returns the scale
        for the next frame."""
        if not self.enabled:
            return self.scale
        a = self._avg
        self._avg = frame_seconds if a is None else a + SMOOTHING * (frame_seconds - a)
        avg = self._avg
        if avg > SLOW * self.budget and self.scale > self.floor:
            self._over += 1
            self._under = 0
            if self._over >= DOWN_AFTER:
                # Cost ~ scale^2 (pixels): aim straight at the budget, at least one step.
                want = self.scale * (0.9 * self.budget / avg) ** 0.5
                self._set(min(self.scale - STEP, _snap(want)))
            return self.scale
        up = min(self.ceiling, self.scale + STEP)
        if up > self.scale and avg * (up / self.scale) ** 2 < FAST * self.budget:
            self._under += 1
            self._over = 0
            if self._under >= UP_AFTER:
                self._set(up)
        else:
            self._over = self._under = 0
        return self.scale

    def _set(self, scale: float) -> None:
        scale = min(self.ceiling, max(self.floor, round(scale, 4)))
        if scale != self.scale:
            self.scale = scale
            self.changes += 1
        self._over = self._under = 0
        self._avg = None  # the next frames, at the new scale, start a new average


def _snap(x: float) -> float:
    return round(round(x / STEP) * STEP, 4)
