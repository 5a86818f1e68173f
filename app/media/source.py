"""The one interface every frame source implements (file, webcam, still image, demo, test)."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..engine.motion import FrameMotion


@dataclass(frozen=True)
class Frame:
    """One decoded frame."""

    image: np.ndarray  # (H, W, 3) uint8 RGB, upright (rotation metadata applied)
    index: int  # 0-based position in the source
    pts: float | None  # presentation time in seconds; None for stills and live sources
    captured: float | None = None  # time.monotonic() at capture (live sources: latency)
    # the motion from the frame taken before it, estimated ahead on another thread
    # (media/motion_feed.py); None: the render estimates it itself
    motion: FrameMotion | None = None
    # a still's transparency (its picture laid on paper, as painted), the image's size;
    # None: opaque
    alpha: np.ndarray | None = None


class FrameSource(ABC):
    """A producer of frames that runs its decoding/capture off the caller's thread.

    Live sources (cameras) and paced file playback keep only the newest frame: `latest()`
    returns it and stale frames are dropped and counted in `dropped`. Unpaced file sources
    (export) deliver every frame in order through `read()`. A failure never raises in the
    worker thread: it sets `error` (a one-line message) and ends the source.
    """

    name: str = "source"
    live: bool = False
    seekable: bool = False
    paced: bool = True  # latest-only delivery at the source's own rate (False: every frame)
    still: bool = False  # a single still image
    pixel_aspect: Fraction = Fraction(1)  # width / height of its pixels as shown (DV's 12/11)
    full_range: bool = False  # YUV samples over 0-255 (JPEG range): a recording keeps it
    # The most frames a second a paced file or a live synthetic source delivers, set before
    # `start()` (None: its own rate); frames above it are skipped, not counted as dropped.
    # A camera is asked for its rate when it opens instead.
    max_fps: float | None = None

    def __init__(self) -> None:
        self.error: str | None = None
        # something the viewer should know that does not stop the source (a damaged file
        # plays what decodes); the consumer takes it (and clears it)
        self.warning: str | None = None
        self.dropped = 0
        self.finished = False
        self.ended = threading.Event()  # set once the source finished or failed
        self._paused = False

    # -- optional controls (file sources implement them; the defaults do nothing) ----------
    @property
    def paused(self) -> bool:
        """Whether delivery is paused."""
        return self._paused

    def pause(self) -> None:
        """Stop delivering new frames until `resume()` (no-op where it makes no sense)."""
        self._paused = True

    def resume(self) -> None:
        """Continue after `pause()`."""
        self._paused = False

    @property
    def position(self) -> float | None:
        """Time in seconds of the newest frame delivered, if the source has a timeline."""
        return None

    @property
    def duration(self) -> float | None:
        """Length in seconds, if known."""
        return None

    @property
    def waitable(self) -> bool:
        """Whether `wait_frame` blocks until a frame comes (the source has a frame slot)."""
        return isinstance(getattr(self, "_slot", None), LatestSlot)

    def wait_frame(self, timeout: float | None = None) -> bool:
        """Block until `latest()` has a frame (True), the source ends, or `timeout` passes.

        Sources without a frame slot return at once with False.
        """
        slot = getattr(self, "_slot", None)
        if isinstance(slot, LatestSlot):
            return slot.wait(timeout, self.ended)
        return False

    def _fail(self, message: str) -> None:
        """Worker threads: record a failure (one line) and end the source; never raises."""
        if self.error is None:
            self.error = message
        self._finish()

    def _finish(self) -> None:
        """Worker threads: the source delivered its last frame."""
        self.finished = True
        self.ended.set()
        slot = getattr(self, "_slot", None)
        if isinstance(slot, LatestSlot):
            slot.wake()

    @property
    @abstractmethod
    def size(self) -> tuple[int, int]:
        """(width, height) of the frames, upright."""

    @property
    def fps(self) -> float | None:
        """Nominal frame rate, if known."""
        return None

    @property
    def frame_count(self) -> int | None:
        """Number of frames, if known."""
        return None

    @abstractmethod
    def start(self) -> None:
        """Begin producing frames (starts the worker thread)."""

    @abstractmethod
    def stop(self) -> None:
        """Stop producing and release the device or file; idempotent."""

    @abstractmethod
    def latest(self) -> Frame | None:
        """The newest frame not returned before, or None if there is none (non-blocking)."""

    def read(self, timeout: float | None = None) -> Frame | None:
        """The next frame in order, blocking up to `timeout`; None at the end (or on error)."""
        raise NotImplementedError(f"{type(self).__name__} delivers only the latest frame")

    def seek(self, seconds: float) -> None:
        """Jump to a time (seekable sources only)."""
        raise NotImplementedError(f"{type(self).__name__} cannot seek")

    def __enter__(self) -> FrameSource:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class ThreadedSource(FrameSource):
    """A source whose frames come from one worker thread running `_run` until `_stop` is set.

    Holds the facts subclasses fill in (`_size`, `_fps`, `_count`) and the thread's start
    and stop, so each source only writes its loop.
    """

    def __init__(self) -> None:
        super().__init__()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._size: tuple[int, int] = (0, 0)
        self._fps: float | None = None
        self._count: int | None = None

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    @property
    def fps(self) -> float | None:
        return self._fps

    @property
    def frame_count(self) -> int | None:
        return self._count

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"aquarelle-{self.name}",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._join()

    def _join(self, timeout: float = 5.0) -> None:
        """Wait for the worker (unless called from it)."""
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @abstractmethod
    def _run(self) -> None:
        """The worker: produce frames until `_stop` is set; report failures with `_fail`."""


class LatestSlot:
    """A one-frame mailbox for live and paced sources: a new frame replaces an unread one."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._frame: Frame | None = None

    def put(self, frame: Frame) -> bool:
        """Store the newest frame; True if it replaced (dropped) one never taken."""
        with self._cond:
            dropped = self._frame is not None
            self._frame = frame
            self._cond.notify_all()
        return dropped

    def take(self) -> Frame | None:
        """The stored frame (once), or None."""
        with self._cond:
            frame, self._frame = self._frame, None
        return frame

    def wait(self, timeout: float | None = None, ended: threading.Event | None = None) -> bool:
        """Block until a frame is stored (True) or `timeout` passes or `ended` is set."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._frame is not None or (ended is not None and ended.is_set()),
                timeout) and self._frame is not None

    def wake(self) -> None:
        """Wake waiters (the source ended)."""
        with self._cond:
            self._cond.notify_all()

    def clear(self) -> None:
        """Forget an unread frame (after a seek)."""
        with self._cond:
            self._frame = None
