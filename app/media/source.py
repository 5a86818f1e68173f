"""The one interface every frame source implements (file, webcam, still image, demo, test)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Frame:
    """One decoded frame."""

    image: np.ndarray  # (H, W, 3) uint8 RGB, upright (rotation metadata applied)
    index: int  # 0-based position in the source
    pts: float | None  # presentation time in seconds; None for stills and live sources


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

    def __init__(self) -> None:
        self.error: str | None = None
        self.dropped = 0
        self.finished = False

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
