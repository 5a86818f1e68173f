"""What the window's paints cost on this machine, and the scales that keep within a time.

The viewport tells it what each paint painted (its work scale, whether a draft) and how long
the paint took; it answers the scale a frame can be painted at within a time: the drafts'
while a slider is dragged, a playing file's first adaptive scale, a camera's start.
"""

from __future__ import annotations

import math

from ..media.adaptive import AIM, STEP, AdaptiveScale

# While values come fast (a slider dragged, or stepped in a burst: ParamPanel.adjusting) a
# still or a paused frame is painted as adaptive quality's draft, at the scale its measured
# cost puts within this (a 640x480 photo took 205 ms a value on llvmpipe, a paused 1080p
# frame 370-870 ms: the slider followed at 2-5 Hz); the full picture once they stop. Values
# that come during a paint are merged into the next one (Qt merges the updates): the
# latest wins.
DRAFT_BUDGET_S = 0.05
DRAFT_FLOOR = 0.3
# A playing file's paint at its full scale that took over this many frame budgets before
# adaptive quality took a step sends it at once to the scale the paint's cost affords (a
# 1080p video on llvmpipe painted its first frames at 1.2-2 s each until the fourth).
FAR_OVER = 3.0
# What a big paint will cost is told from paints of at least this many pixels: a small
# one's cost is mostly what every paint costs whatever its size (a 200x136 photo's put a
# 1 MP one at 6 s)
LARGE_PX = 250_000


class PaintCost:
    """Seconds a paint costs per pixel painted, from the latest whole paints, and the
    drafts' scale while values come fast."""

    def __init__(self, draft_budget_s: float = DRAFT_BUDGET_S) -> None:
        self.draft_budget_s = draft_budget_s
        # seconds per pixel painted (at its work scale); None until one is measured (the
        # first paint of a new pipeline compiles its shaders: not measured)
        self.per_px: float | None = None
        self._compiling = True  # the next paint is a new pipeline's first
        self.large_per_px: float | None = None  # ... of paints of LARGE_PX or more
        self._painting: tuple[float, bool] | None = None  # what the paint under way paints
        self._draft: float | None = None  # the drafts' scale this time (1.0: none needed)
        self._drafts = 0  # ... and how many were painted at it

    def new_pipeline(self) -> None:
        """A new pipeline: its first paint compiles, and is not what a paint costs."""
        self._compiling = True

    def new_drafts(self) -> None:
        """Values start or stop coming fast: the drafts' scale is chosen afresh."""
        self._draft = None
        self._drafts = 0

    def seconds(self, size: tuple[int, int], work: float = 1.0) -> float | None:
        """What a whole paint of a `size` frame at work scale `work` costs, as paints of
        LARGE_PX or more measured so far went; None before one was measured."""
        cost = self.large_per_px
        return None if cost is None else cost * size[0] * size[1] * work * work

    def affordable_scale(self, size: tuple[int, int], seconds: float) -> float | None:
        """The largest processing scale (a multiple of adaptive quality's step) at which a
        frame of `size` took at most `seconds` to paint, as paints measured so far went;
        None before one was measured."""
        cost = self.per_px
        if cost is None or cost <= 0:
            return None
        scale = math.sqrt(seconds / (cost * size[0] * size[1]))
        return max(STEP, math.floor(scale / STEP + 1e-6) * STEP) if scale < 1.0 else 1.0

    def draft_scale(self, size: tuple[int, int], whole: float) -> float | None:
        """The scale to paint a draft of a `size` frame at while values come fast, given
        its whole paint's work scale (None: whole, it keeps up or nothing is measured)."""
        if self._draft is None:
            fits = self.affordable_scale(size, self.draft_budget_s)
            if fits is None:
                return None  # nothing measured yet: this paint is
            self._draft = min(1.0, max(DRAFT_FLOOR, fits))
        return self._draft if self._draft < whole else None

    def painting(self, work: float, draft: bool) -> None:
        """The paint under way paints at work scale `work`, as a draft or whole."""
        self._painting = (work, draft)

    def painted(self, seconds: float, size: tuple[int, int] | None,
                adaptive: AdaptiveScale | None, adjusting: bool) -> None:
        """The paint of a `size` frame took `seconds`: per pixel for whole paints (a playing
        file's first far over its budget sends `adaptive` to what it affords); a draft that
        did not keep up lowers the drafts' scale."""
        painted, self._painting = self._painting, None
        if painted is None or size is None:
            return  # (nothing painted by the pipeline here: a big still's painting came)
        work, draft = painted
        if self._compiling:
            self._compiling = False
            return
        if not draft:
            pixels = size[0] * size[1] * work * work
            cost = seconds / max(1.0, pixels)
            old = self.per_px
            self.per_px = cost if old is None else old + 0.5 * (cost - old)
            if pixels >= LARGE_PX:
                old = self.large_per_px
                self.large_per_px = cost if old is None else old + 0.5 * (cost - old)
            if adaptive is not None and adaptive.changes == 0 \
                    and seconds > FAR_OVER * adaptive.budget:
                fits = self.affordable_scale(size, AIM * adaptive.budget)
                if fits is not None and fits < adaptive.scale:
                    adaptive.jump(fits)
        elif adjusting and adaptive is None and self._draft is not None:
            # (a draft's first paint at its scale makes its textures: not what one costs)
            self._drafts += 1
            if self._drafts > 1 and seconds > 2 * self.draft_budget_s \
                    and self._draft > DRAFT_FLOOR:
                lower = self._draft * math.sqrt(self.draft_budget_s / seconds)
                self._draft = max(DRAFT_FLOOR, math.floor(lower / STEP) * STEP)
                self._drafts = 0
