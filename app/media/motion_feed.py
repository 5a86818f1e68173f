"""A live or playing source's frames with their motion estimated on a thread of their own,
before the render thread takes them (issue 30): the render only uploads the flow.

The feed takes the source's newest frame as soon as it comes and estimates its motion from
the frame taken last (the one the render painted last); a newer frame that comes before the
render takes this one replaces it, estimated from the same past. So what the render gets is
what its own `MotionTracker` would have found for the frames it paints, bit for bit.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable

from ..engine.motion import FrameMotion, MotionEstimator, Past
from .source import Frame, FrameSource

WAIT_S = 0.1  # how long the worker waits for a frame before it looks at `stop` again


class MotionFeed:
    """Takes `source`'s frames (the only one who does) and hands them on with their motion
    at the flow widths `widths()` names (read on every frame: a style's change follows).
    The source must be `waitable` (a frame slot the feed's thread waits on)."""

    def __init__(self, source: FrameSource, widths: Callable[[], Iterable[int]]) -> None:
        if not source.waitable:
            raise ValueError(f"{source.name}: a motion feed needs a source it can wait on")
        self.source = source
        self._widths = widths
        self._estimators: dict[int, MotionEstimator] = {}  # the worker's own
        self._cond = threading.Condition()
        self._base: dict[int, Past] = {}  # the last taken frame, as each width saw it
        self._version = 0  # moves when a frame is taken (a new base) or the feed cleared
        self._cleared = 0  # moves when the feed is cleared (a seek)
        self._ready: tuple[Frame, dict[int, Past]] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="aquarelle-motion",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5.0)

    def take(self) -> Frame | None:
        """The newest frame with its motion (once), or None; it becomes the past the next
        frame's motion is estimated from."""
        with self._cond:
            ready, self._ready = self._ready, None
            if ready is None:
                return None
            frame, self._base = ready
            self._version += 1
            return frame

    def wait(self, timeout: float | None = None, *, newer_than: int | None = None) -> bool:
        """Block until a frame is ready (True), `timeout` passes or the source ended;
        `newer_than`: a frame of a higher index."""
        def ready() -> bool:
            r = self._ready
            return r is not None and (newer_than is None or r[0].index > newer_than)

        with self._cond:
            return self._cond.wait_for(lambda: ready() or self.source.ended.is_set(),
                                       timeout) and ready()

    def clear(self) -> None:
        """Forget the frame not yet taken and the past (after a seek: it was before it)."""
        with self._cond:
            self._ready = None
            self._base = {}
            self._version += 1
            self._cleared += 1

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.source.wait_frame(WAIT_S):
                if self.source.ended.is_set():
                    with self._cond:
                        self._cond.notify_all()
                    self._stop.wait(WAIT_S)
                continue
            cleared = self._cleared
            try:
                frame = self.source.latest()
            except Exception as e:  # the source's failure, said where its frames go
                self.source.error = self.source.error or f"{type(e).__name__}: {e}"
                return
            if frame is not None:
                self._estimate(frame, cleared)

    def _estimate(self, frame: Frame, cleared: int) -> None:
        widths = sorted(set(self._widths()))
        while True:
            with self._cond:
                base, version = self._base, self._version
            by_width, pasts = {}, {}
            for w in widths:
                est = self._estimators.get(w)
                if est is None:
                    est = self._estimators[w] = MotionEstimator(w)
                found, pasts[w] = est.compare(base.get(w), frame.image)
                if w in base:  # else the render's tracker knows the past, not this feed
                    by_width[w] = found
            motion = FrameMotion((frame.image.shape[1], frame.image.shape[0]), by_width,
                                 pasts)
            with self._cond:
                if cleared != self._cleared:
                    return  # taken from the source before a seek
                if version != self._version:
                    continue  # a frame was taken meanwhile: estimate from it instead
                self._ready = (dataclasses.replace(frame, motion=motion), pasts)
                self._cond.notify_all()
                return
