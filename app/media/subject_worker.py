"""The subject models off the render thread: a worker that looks at the newest frame it is
handed (older ones are skipped) and keeps the newest result, which the render thread reads
without waiting: the subject may be a frame behind the picture, the picture is never held."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from ..engine.frame_arrays import rgb8
from ..engine.subject import Subject, SubjectTracker
from .source import Frame, LatestSlot


class SubjectWorker:
    """A SubjectTracker in its own thread (its models are made there)."""

    def __init__(self, make_tracker: Callable[[], SubjectTracker] = SubjectTracker) -> None:
        self._make = make_tracker
        self._slot = LatestSlot()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._latest: Subject | None = None
        self._latest_of: np.ndarray | None = None  # the frame the newest result is of
        self._reset = False
        self.done = 0  # frames looked at
        self.skipped = 0  # frames replaced by a newer one before they were looked at
        self.error: str | None = None
        self.updated = threading.Event()  # set at each new result (tests, waiting callers)
        self._thread = threading.Thread(target=self._run, name="aquarelle-subject",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """End the worker (and wait for it, up to `timeout` seconds)."""
        self._stop.set()
        self._slot.wake()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def submit(self, rgb: np.ndarray, t: float, index: int | None = None) -> None:
        """Hand over a frame (uint8 RGB, not changed afterwards) shown at `t` seconds, the
        `index`-th of its sequence if known (SubjectTracker.update)."""
        if self._slot.put(Frame(rgb, -1 if index is None else index, t)):
            self.skipped += 1

    def reset(self) -> None:
        """A cut or a seek: the next frame starts the subject afresh."""
        with self._lock:
            self._reset = True
            self._latest = None
            self._latest_of = None

    def latest(self) -> Subject | None:
        """The newest result, at once (None before the first)."""
        with self._lock:
            return self._latest

    def has_result(self) -> bool:
        """Whether anything was found since the start or the last reset."""
        with self._lock:
            return self._latest_of is not None

    def found_in(self, image: np.ndarray) -> bool:
        """Whether the newest result is that of `image` (the very array submitted)."""
        with self._lock:
            return self._latest_of is image

    def _run(self) -> None:
        try:
            tracker = self._make()
            while not self._stop.is_set():
                if not self._slot.wait(0.5, self._stop):
                    continue
                frame = self._slot.take()
                if frame is None:
                    continue
                with self._lock:
                    if self._reset:
                        tracker.reset()
                        self._reset = False
                # as the export hands it to the models (a 16-bit still's found no face)
                subject = tracker.update(rgb8(frame.image), frame.pts or 0.0,
                                         None if frame.index < 0 else frame.index)
                with self._lock:
                    if not self._reset:
                        self._latest = subject
                        self._latest_of = frame.image
                self.done += 1
                self.updated.set()
        except Exception as e:  # never raise in the worker: say so, keep the app running
            self.error = f"the subject models stopped: {type(e).__name__}: {e}"
