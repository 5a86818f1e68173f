"""Which decoded frames a walk over a time range yields, and the frames a steady stream
lost on the way: the video reader's bookkeeping, apart from PyAV."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..engine.motion import FrameMotion
from ..engine.subject_ahead import FrameSubject

# Time gaps between frames count as missing frames only in a steady stream: at least this
# share of its frame-to-frame steps are its usual one, and the others are whole multiples of
# it (frames that should have been there) but for at most ODD_SHARE of them (and one)
STEADY_SHARE = 0.8
ODD_SHARE = 0.05


@dataclass
class DecodedFrame:
    """One decoded video frame, upright RGB, with its source timestamp."""

    # (H, W, 3) RGB (uint8; uint16 when deep), rotated upright, resized; (H, W, 4) with an
    # opaque fourth channel from a reader made with `rgba`
    image: np.ndarray
    pts: int  # in `time_base` units, as in the source (made increasing if it was not)
    time_base: Fraction
    index: int  # 0-based among the frames yielded by this walk
    duration: int | None = None  # in `time_base` units, if the container knows it
    # found before the render, on an export's analysis thread (engine MotionAhead and
    # SubjectAhead); None: the renderer finds them itself
    motion: FrameMotion | None = None
    subject: FrameSubject | None = None
    # (H, W) the source's alpha as `image` is laid out, where a reader made with `alpha`
    # met transparent pixels (the image is then laid on white there); None: opaque
    alpha: np.ndarray | None = None

    @property
    def time(self) -> float:
        """Presentation time in seconds."""
        return float(self.pts * self.time_base)


def gap_frames(steps: Counter[int]) -> int | None:
    """Frames missing inside a walk from its frame-to-frame steps (time-base units): the
    whole extra frame times of the long steps of a steady stream. None for a variable frame
    rate, whose long steps are its timing, not lost frames; Matroska's declared rates
    cannot tell the two apart, so the steps themselves decide."""
    total = sum(steps.values())
    if not total:
        return 0
    usual = min(steps, key=lambda d: (-steps[d], d))  # the commonest step
    # within a quarter of it: the same step, rounded to the time base (33 or 34 ms)
    regular = {d: n for d, n in steps.items() if abs(d - usual) * 4 <= usual}
    kept = sum(regular.values())
    cadence = sum(d * n for d, n in regular.items()) / kept
    long = {d: round(d / cadence) for d in steps if d not in regular}
    whole = {d: k for d, k in long.items() if k >= 2 and abs(d - k * cadence) * 4 <= cadence}
    odd = sum(steps[d] for d in long if d not in whole)
    if kept < total * STEADY_SHARE or odd > max(1, int(total * ODD_SHARE)):
        return None
    # a step that is no whole number of frame times is timing, not frames lost
    return sum((k - 1) * steps[d] for d, k in whole.items())


# A --start this little after a frame's start names that frame: a time typed rounded
# (0.416667 for frame 5 at 5/12 s) took the next frame, or none after the last one (trial W5)
START_SLACK = 1e-3


def snapped_start(start: float, times: Iterable[float]) -> float:
    """`start` (seconds), or the latest of `times` (frames' starts, same clock) at most
    START_SLACK before it: the frame a rounded time names."""
    near = [t for t in times if start - START_SLACK <= t <= start]
    return max(near) if near else start


Kept = tuple[DecodedFrame, bool]  # a frame a walk yields, and whether it is translucent


class FrameRange:
    """The decoded frames a walk over [start, end) yields (source seconds; None: open), in
    order: those whose times fall in the range and, with `shown`, the one on screen at
    `start` (the last before it) where none starts there. With an `end`, each frame waits
    for the next: the last lasts until `end` where the source goes on past it (a step of a
    variable rate too), and never past it (its own duration cut there)."""

    def __init__(self, time_base: Fraction, start: float | None, end: float | None,
                 shown: bool = False, step: int = 1) -> None:
        self.start, self.end, self.shown = start, end, shown
        self.step = step  # a frame without a duration lasts this (time-base units)
        self.end_pts = None if end is None else \
            round(Fraction(end).limit_denominator(10**9) / time_base)
        self.time_base = time_base
        self.done = False  # a frame at or after `end` came: nothing more is taken
        self._before: Kept | None = None
        self._held: Kept | None = None

    def take(self, frame: DecodedFrame, translucent: bool) -> Iterator[Kept]:
        """The frames settled by one more decoded frame."""
        if self.done:
            return
        t = float(frame.pts * self.time_base)
        if self.end is not None and t >= self.end - 1e-9:
            yield from self._settle(cut=True)
            return
        if self.start is not None and t < self.start - 1e-9:
            if self.shown:
                self._before = (frame, translucent)
            return
        if self._before is not None:
            if self.start is not None and t > self.start + 1e-9:
                yield from self._pass(self._before)
            self._before = None
        yield from self._pass((frame, translucent))

    def finish(self) -> Iterator[Kept]:
        """The frames still waiting when the source has no more."""
        if not self.done:
            yield from self._settle(cut=False)

    def _pass(self, kept: Kept) -> Iterator[Kept]:
        if self.end is None:
            yield kept
            return
        if self._held is not None:
            yield self._held
        self._held = kept

    def _settle(self, cut: bool) -> Iterator[Kept]:
        self.done = True
        if self._before is not None:  # nothing starts in the range: is this one still up?
            frame = self._before[0]
            end = (frame.pts + (frame.duration or self.step)) * self.time_base
            if cut or self.start is None or end > self.start + 1e-9:
                yield from self._pass(self._before)
            self._before = None
        if self._held is not None:
            frame = self._held[0]
            if self.end_pts is not None:
                until = max(1, self.end_pts - frame.pts)
                if cut:  # shown until its successor, at or after the end
                    frame.duration = until
                elif frame.duration:
                    frame.duration = min(frame.duration, until)
            yield self._held
            self._held = None
