"""The subject (faces, the person) for the window's pipeline, found off the GUI thread
(media/subject_worker.py): a playing video's frames use the newest result (a frame behind at
most, the picture never waits); a still, a paused file's frame and a frame that does not
follow the last (a seek, a step back, the loop point) wait for their own result, the picture
on screen held meanwhile (viewport.py), and are painted again once it arrives, so the window
shows what `aquarelle render` makes."""

from __future__ import annotations

import numpy as np
from PyQt6.QtCore import QObject, QTimer, pyqtSignal

from ..engine.renderer import Renderer
from ..engine.subject import FRAMES_PER_S, Subject
from ..media.subject_worker import SubjectWorker

POLL_MS = 15


class SubjectFeed(QObject):
    """Hands frames to a SubjectWorker and the results to a pipeline (GUI thread)."""

    stillReady = pyqtSignal()  # a frame's own subject arrived after it was painted: again

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker: SubjectWorker | None = None
        self._seen: Subject | None = None
        self._pending = False  # the frame on screen waits for its own subject
        self._fresh = False  # ... and nothing found before it holds (a still, a cut)
        self.holding = False  # the viewport keeps the picture before it meanwhile
        # what was found before a cut: painted until the cut frame's own subject is found,
        # where the picture cannot wait (a file playing on): a face does not leave at a
        # seek or the loop point, and painted without it the frame is framed as a scene
        self._before_cut: Subject | None = None
        self._image: np.ndarray | None = None  # the frame handed over last
        self._first: int | None = None  # the source index its sequence started at
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def frame(self, image: np.ndarray, *, still: bool, cut: bool, wait: bool,
              index: int | None, t: float) -> None:
        """A new frame on screen: `cut` when it does not follow the last one (the subject is
        found afresh), `wait` when it is to be painted with its own subject (a paused file's
        frame; stills and cuts always are). A file's frame `index` (None for a camera's,
        which is followed in real time, `t` seconds) is followed as an export follows it:
        the k-th frame since the cut at k / FRAMES_PER_S s (SubjectSearch)."""
        if image is self._image and self._worker is not None:
            # the same frame for a new pipeline (a chain edit, a style switch): what was
            # found in it still holds; finding it again would paint it without for a while
            return
        self._image = image
        if self._worker is None:
            self._worker = SubjectWorker()
            self._worker.start()
        if cut or still:
            latest = self._worker.latest()
            self._before_cut = None if still else (
                latest if latest is not None else self._before_cut)
            self._worker.reset()
            self._seen = None
            self._first = index
        if index is None or self._first is None:
            self._worker.submit(image, t)
        else:
            k = max(0, index - self._first)
            self._worker.submit(image, k / FRAMES_PER_S, k)
        self._fresh = still or cut
        self._await(still or cut or wait)

    def settle(self) -> None:
        """The frame on screen is to be shown with its own subject (a file paused): painted
        again once that is found, if it was painted with another's."""
        if self._image is not None and self._worker is not None \
                and not self._worker.found_in(self._image):
            self._fresh = False
            self._await(True)

    def _await(self, pending: bool) -> None:
        self._pending = pending
        if pending:
            self._timer.start()

    def give(self, pipeline: Renderer) -> None:
        """Set the newest subject on the pipeline before it renders."""
        pipeline.subject_feed = "given"
        latest = self.latest
        if latest is not None:
            self._before_cut = None
        self._seen = latest if latest is not None else self._before_cut
        pipeline.set_subject(self._seen)

    @property
    def latest(self) -> Subject | None:
        return self._worker.latest() if self._worker is not None else None

    def _poll(self) -> None:
        worker = self._worker
        if worker is None or not self._pending or worker.error is not None:
            self._pending = False
            self._timer.stop()
            if self.holding:
                self.stillReady.emit()
            return
        if self._image is not None and worker.found_in(self._image):
            self._pending = False
            self._timer.stop()
            if self.holding or worker.latest() is not self._seen:
                self.stillReady.emit()

    @property
    def waiting(self) -> bool:
        """The frame on screen waits for its own subject."""
        return self._pending

    @property
    def waiting_fresh(self) -> bool:
        """... where nothing found before holds for it (a still, a seek): worth holding the
        picture before it on screen until it is found, rather than painting it without."""
        return self._pending and self._fresh

    def stop(self) -> None:
        self._timer.stop()
        self._image = None
        self._pending = False
        self._before_cut = None
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
