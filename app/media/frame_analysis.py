"""A video frame's motion and subject, found before its render on an export's analysis
thread, so that the render (GL) thread only uploads, paints and reads back. The subject
models run beside the optical flow on a thread of their own: a frame's analysis takes the
longer of the two. Frames are analysed in order, so the export paints what finding both in
the render would paint."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..engine.motion import MotionAhead
from ..engine.renderer import Renderer
from ..engine.subject_ahead import FrameSubject, SubjectAhead
from .frame_range import DecodedFrame


class FrameAnalysis:
    """The motion and subject a renderer's frames need, found ahead (`__call__`, one frame
    after the other); made before the renderer's first frame of the run."""

    def __init__(self, renderer: Renderer) -> None:
        self.motion = MotionAhead(renderer.motion_widths())
        self.subjects = SubjectAhead(renderer.frame_index) if renderer.wants_subject else None
        self.busy = {"motion": 0.0, "subject": 0.0}  # seconds each was at work
        self._beside = ThreadPoolExecutor(1, thread_name_prefix="aquarelle-subject") \
            if self.subjects is not None and self.motion.widths else None

    @property
    def needed(self) -> bool:
        """Whether the frames need anything found ahead at all."""
        return bool(self.motion.widths) or self.subjects is not None

    def __call__(self, frame: DecodedFrame) -> DecodedFrame:
        """Find `frame`'s motion and subject (set on it); returns it."""
        image = frame.image
        beside = self._beside.submit(self._subject, image) if self._beside else None
        if self.motion.widths:
            t = time.perf_counter()
            frame.motion = self.motion.estimate(image)
            self.busy["motion"] += time.perf_counter() - t
        if beside is not None:
            frame.subject = beside.result()
        elif self.subjects is not None:
            frame.subject = self._subject(image)
        return frame

    def _subject(self, image: np.ndarray) -> FrameSubject:
        assert self.subjects is not None
        t = time.perf_counter()
        found = self.subjects.estimate(image)
        self.busy["subject"] += time.perf_counter() - t
        return found

    def close(self) -> None:
        """End the subject's thread and let its models go."""
        if self._beside is not None:
            self._beside.shutdown(wait=True, cancel_futures=True)
            self._beside = None
        if self.subjects is not None:
            self.subjects.release()

    def __enter__(self) -> FrameAnalysis:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
