"""The subject (faces, the person) for the window's pipeline, found off the GUI thread
(media/subject_worker.py): video frames use the newest result (a frame behind at most, the
picture never waits); a still, and a video frame that does not follow the last (a seek, a
step back, the loop point: nothing found yet is its), is painted again once its own result
arrives, so the window shows what `aquarelle render` makes, paused too."""

from __future__ import annotations

import numpy as np
from PyQt6.QtCore import QObject, QTimer, pyqtSignal

from ..engine.renderer import Renderer
from ..engine.subject import Subject
from ..media.subject_worker import SubjectWorker

POLL_MS = 15


class SubjectFeed(QObject):
    """Hands frames to a SubjectWorker and the results to a pipeline (GUI thread)."""

    stillReady = pyqtSignal()  # a still's (or a jumped frame's) subject arrived: paint again

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker: SubjectWorker | None = None
        self._seen: Subject | None = None
        self._still_pending = False
        self._image: np.ndarray | None = None  # the frame handed over last
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def frame(self, image: np.ndarray, *, still: bool, jumped: bool, t: float) -> None:
        """A new frame on screen (`jumped`: it does not follow the last one)."""
        if image is self._image and self._worker is not None:
            # the same frame for a new pipeline (a chain edit, a style switch): what was
            # found in it still holds; finding it again would paint it without for a while
            return
        self._image = image
        if self._worker is None:
            self._worker = SubjectWorker()
            self._worker.start()
        if jumped or still:
            self._worker.reset()
            self._seen = None
        self._still_pending = still or jumped
        self._worker.submit(image, t)
        if self._still_pending:
            self._timer.start()

    def give(self, pipeline: Renderer) -> None:
        """Set the newest subject on the pipeline before it renders."""
        pipeline.subject_feed = "given"
        self._seen = self.latest
        pipeline.set_subject(self._seen)

    @property
    def latest(self) -> Subject | None:
        return self._worker.latest() if self._worker is not None else None

    def _poll(self) -> None:
        if self._worker is None or not self._still_pending or self._worker.error is not None:
            self._timer.stop()
            return
        latest = self._worker.latest()
        if latest is not None:
            self._still_pending = False
            self._timer.stop()
            if latest is not self._seen:
                self.stillReady.emit()

    @property
    def waiting(self) -> bool:
        """A still's (or a jumped frame's) subject is still being found."""
        return self._still_pending

    def stop(self) -> None:
        self._timer.stop()
        self._image = None
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
