"""A one-time hint when a file plays slower than it should, naming the settings that help
in the state it is shown in. Adaptive quality lowers the scale itself, down to its floor
(Live > Lowest scale, or the Processing scale where that is lower): while it is on, a lower
Processing scale is named only where it is that floor."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.chain_spec import AnyStyle, specs_of
from ..engine.renderer import MIN_VIDEO_LINES
from ..engine.style_stage import MIN_SCALE
from ..media.adaptive import STEP
from ..media.source import FrameSource
from . import playback
from .live_controller import FLOORS

WINDOW_S = 3.0  # seconds of playback looked at
SKIPPED_SHARE = 0.5  # more than this share of the file's frames skipped in them: too slow
LOWEST_FLOOR = min(float(f) for f in FLOORS)  # Live > Lowest scale's lowest choice
# Styles that paint in several times a filter's time (`aquarelle live` on a 640x360 clip,
# llvmpipe: 15-30 ms a frame at a reduced scale, where Edges, Relief, Adjust, Sharpen, Blur
# and Enhance take 4-19 ms at full scale)
HEAVY_STYLES = ("watercolor", "denoise", "stereo")


@dataclass(frozen=True)
class PaintedHow:
    """How the playing file is painted now: what the hint's advice depends on."""

    scale: float = 1.0  # Style > Processing scale
    adaptive: bool = False  # Live > Adaptive quality is on
    adapted: float | None = None  # the scale adaptive quality paints at now (None: unknown)
    lowest: float = 0.3  # Live > Lowest scale
    lines: int | None = None  # the lines (short side) each frame is painted at
    heavy: tuple[str, ...] = ()  # the labels of the heavy styles painted (HEAVY_STYLES)
    cpu: bool = False  # painted by a CPU renderer (llvmpipe)

    @property
    def floor(self) -> float:
        """Adaptive quality's lowest scale: Lowest scale, or a Processing scale below it."""
        return min(self.lowest, self.scale)


@dataclass
class SlowPlaybackHint:
    """Watches a playing file's skipped frames; says once per session what would help."""

    shown: bool = False
    _seen: list[tuple[float, int]] = field(default_factory=list)  # (clock, skipped so far)

    def reset(self) -> None:
        """A new source, a seek or a pause: start watching afresh."""
        self._seen.clear()

    def check(self, source: FrameSource | None, playing: bool, now: float, scale: float,
              adaptive: bool, how: PaintedHow | None = None) -> str | None:
        """The hint to show now, if any (then never again this session). `how` tells more
        of the painting than `scale` and `adaptive` (the defaults: nothing more known)."""
        if self.shown or source is None or source.live or not playing or not source.fps:
            self.reset()
            return None
        self._seen.append((now, source.dropped))
        while self._seen and now - self._seen[0][0] > WINDOW_S:
            self._seen.pop(0)
        t0, skipped0 = self._seen[0]
        if now - t0 < 0.8 * WINDOW_S:
            return None
        # the frames due a second: the file's rate at its pace, fewer played slower
        due = getattr(source, "delivered_fps", None) or source.fps
        share = (source.dropped - skipped0) / ((now - t0) * due)
        if share <= SKIPPED_SHARE:
            return None
        how = how or PaintedHow(scale=scale, adaptive=adaptive)
        if how.adaptive and how.adapted is not None and how.adapted > how.floor + STEP / 2:
            return None  # adaptive quality is still lowering the scale: it may yet keep up
        self.shown = True
        shown_fps = (1.0 - min(1.0, share)) * due
        rate = playback.rate(source)
        head = (f"This machine paints about {shown_fps:.0f} of the video's {due:.0f} frames "
                "a second" + ("" if rate == 1.0 else f" at {rate:g}\u00d7 speed"))
        tail = "Exports are not affected: they paint every frame."
        if not how.adaptive:
            helps = ["turn on Live \u203a Adaptive quality (Ctrl+Shift+A)"]
            if how.scale > 0.5:
                helps.insert(0, "lower Style \u203a Processing scale (0.5 paints about 2.5x "
                                "faster)")
            return f"{head}: {' or '.join(helps)}. {tail}"
        if how.scale > how.lowest:
            at = (f"even at adaptive quality's lowest scale ({how.floor:.2f}): a lower "
                  "Processing scale would not help")
        else:  # adaptive quality goes no lower than the Processing scale set
            at = f"even at Processing scale {how.scale:.2f}"
        return f"{head}, {at}. {_at_the_floor(how)}. {tail}"


def _at_the_floor(how: PaintedHow) -> str:
    """What makes painting faster where adaptive quality paints at its lowest scale."""
    helps = []
    if how.scale <= how.lowest and how.scale > MIN_SCALE + STEP / 2:
        helps.append(f"a lower Style \u203a Processing scale (down to {MIN_SCALE})")
    elif how.scale > how.lowest and how.lowest > LOWEST_FLOOR + STEP / 2:
        helps.append(f"a lower Live \u203a Lowest scale (down to {LOWEST_FLOOR:.0%})")
    if how.lines is not None and how.lines > MIN_VIDEO_LINES:
        helps.append(f"fewer lines in Style \u203a Video painted at (below the {how.lines} "
                     "lines painted now; exports too follow it)")
    if how.heavy:
        helps.append(f"a lighter style than {' and '.join(how.heavy)} (Edges or Adjust, say)")
    if how.cpu:
        helps.append("a GPU (this window paints on the CPU)")
    if not helps:
        return ("This machine cannot keep up at any setting: pause or step (. and ,) to see "
                "each frame painted")
    return "What helps: " + ", ".join(helps[:-1]) + (" or " if len(helps) > 1 else "") + \
        helps[-1]


def heavy_styles(style: AnyStyle) -> tuple[str, ...]:
    """The labels of `style`'s heavy styles (HEAVY_STYLES), in order."""
    return tuple(s.label for s in specs_of(style) if s.name in HEAVY_STYLES)
