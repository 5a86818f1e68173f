"""Adaptive quality for live sources: the processing scale that holds a frame rate.

A frame's cost is modelled as t(s) = a + b s^2 at processing scale s: a part that does not
shrink with the scale (upload, the composite and paper at the source's size, readback)
and one that does (the passes at the work size). The controller keeps the smoothed frame
time at the last few scales it used, fits a and b to them (or, knowing one scale only,
assumes all the cost shrinks, which steps down cautiously), and scales the model to the
latest measurement so it follows a machine that speeds up or slows down.

- Down: when frames are over the budget 1/target_fps for a few frames in a row, to the
  largest scale the model puts under 90% of the budget (at least one step).
- Up: one step, when the model puts it under 90% of the budget for a second in a row.
  Over 105% measured to go down, under 90% predicted to go up: that gap is the hysteresis.
- Never below the user's floor nor above the user's processing scale (the ceiling), nor
  below MIN_LINES painted lines (`floor_for`).

Exports never use it: they render every frame at the requested quality.
"""

from __future__ import annotations

from dataclasses import dataclass

STEP = 0.05  # scales are multiples of this: few distinct sizes, few reallocations
DOWN_AFTER = 4  # frames over the budget before a step down
UP_AFTER = 30  # frames with room before a step up
SLOW = 1.05  # smoothed frame time above SLOW x budget counts as over
AIM = 0.9  # a step down aims at this fraction of the budget
ROOM = 0.9  # a step up needs the model's time below this fraction of the budget
SMOOTHING = 0.2  # weight of the newest frame in the smoothed frame time
MEMORY = 4  # scales remembered for the model
# The fewest lines a picture is painted at: a 320x240 clip at the 0.3 floor was painted at 72
# lines, its faces a few texels, a mush on screen (trial W5); a small source plays slower
# instead (frames skipped), each one painted as it is exported.
MIN_LINES = 180


def floor_for(min_scale: float, height: int) -> float:
    """The lowest processing scale for a source `height` lines tall: the user's, raised so
    that at least MIN_LINES are painted (1.0 for a source that small)."""
    if height <= 0:
        return min_scale
    return min(1.0, max(min_scale, MIN_LINES / height))


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
        self.ceiling = min(1.0, max(STEP, float(self.ceiling)))
        self.floor = min(self.ceiling, max(STEP, _snap(self.floor)))
        self.scale = min(self.ceiling, max(self.floor, _snap(self.scale)))
        self._avg: float | None = None
        self._seen: list[tuple[float, float]] = []  # (scale, smoothed seconds), newest last
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
        avg = self._avg = frame_seconds if a is None else a + SMOOTHING * (frame_seconds - a)
        self._remember(self.scale, avg)
        budget = self.budget
        if avg > SLOW * budget and self.scale > self.floor:
            self._under = 0
            self._over += 1
            if self._over >= DOWN_AFTER:
                self._set(self._largest_under(AIM * budget, self.scale - STEP))
            return self.scale
        self._over = 0
        up = _snap(min(self.ceiling, self.scale + STEP))
        if up > self.scale and self.predict(up) < ROOM * budget:
            self._under += 1
            if self._under >= UP_AFTER:
                self._set(up)
        else:
            self._under = 0
        return self.scale

    def jump(self, scale: float) -> None:
        """Go to `scale` at once (a frame far over the budget before any step: a file
        just opened on a slow machine, where stepping down took 4 frames of over a
        second); the average starts afresh there."""
        self._set(scale)

    def predict(self, scale: float) -> float:
        """The model's frame time at `scale` (seconds), matched to the latest measurement."""
        now = self._avg
        if now is None:
            return 0.0
        a, b = self._fit()
        here = a + b * self.scale ** 2
        model = a + b * scale ** 2
        return model * (now / here) if here > 0 else now * (scale / self.scale) ** 2

    def _fit(self) -> tuple[float, float]:
        """a, b of t = a + b s^2 from the remembered scales (least squares, both >= 0)."""
        pts = [(s * s, t) for s, t in self._seen]
        if len(pts) < 2 or max(x for x, _ in pts) - min(x for x, _ in pts) < 0.05:
            x, t = (self.scale ** 2, self._avg or 0.0)
            return 0.0, t / x  # one scale known: assume all the cost shrinks with it
        n = len(pts)
        mx = sum(x for x, _ in pts) / n
        my = sum(t for _, t in pts) / n
        b = sum((x - mx) * (t - my) for x, t in pts) / sum((x - mx) ** 2 for x, _ in pts)
        b = max(0.0, b)
        a = max(0.0, my - b * mx)
        return a, b

    def _largest_under(self, limit: float, start: float) -> float:
        s = _snap(start)
        while s > self.floor and self.predict(s) > limit:
            s = _snap(s - STEP)
        return max(self.floor, s)

    def _remember(self, scale: float, avg: float) -> None:
        self._seen = [(s, t) for s, t in self._seen if s != scale][-(MEMORY - 1):]
        self._seen.append((scale, avg))

    def _set(self, scale: float) -> None:
        scale = min(self.ceiling, max(self.floor, _snap(scale)))
        if scale != self.scale:
            self.scale = scale
            self.changes += 1
        self._over = self._under = 0
        self._avg = None  # the next frames, at the new scale, start a new average


def _snap(x: float) -> float:
    return round(round(x / STEP) * STEP, 4)
