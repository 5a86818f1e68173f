"""The subject (faces, the person) for the window's pipeline, found off the GUI thread
(media/subject_worker.py), on the export's clock. A playing file's frames use the newest
result (a frame behind at most: the picture never waits), followed across skipped frames
(searched and masked again after them, as the export did in them).
After a cut (a seek, the loop point, a step back, a new still) nothing found before holds: the
picture before it stays on screen (subject_hold.py) until something is found for the new frames,
as the export finds it, instead of showing them framed without their face and then with it.
A playing file's frame after frames were skipped (playback behind on a slow machine) waits
likewise for its own subject: the newest result is then that of the frame painted before the
skip, the face where it was several frames back (trial W8: the vignette lagged the face).
A still's and a paused file's frame are painted again with their own subject once found, so
the window shows what `aquarelle render` makes."""

from __future__ import annotations

import numpy as np
from PyQt6.QtCore import QObject, QTimer, pyqtSignal

from ..engine.renderer import Renderer
from ..engine.subject import FRAMES_PER_S, Subject, SubjectTracker
from ..media.subject_worker import SubjectWorker

POLL_MS = 15


class SubjectFeed(QObject):
    """Hands frames to a SubjectWorker and the results to a pipeline (GUI thread)."""

    stillReady = pyqtSignal()  # a frame's subject arrived after it was painted (or held)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker: SubjectWorker | None = None
        self._seen: Subject | None = None
        self._pending = False  # the frame on screen waits for its own subject
        self._cut = False  # nothing found since a cut (a still is one)
        self._skip = False  # ... or the frame on screen came after frames skipped in playback
        self._index: int | None = None  # the file's frame index handed over last
        self._own = False  # ... and the frame on screen needs its own (a still, paused)
        self.holding = False  # the viewport keeps the picture before it meanwhile
        self._image: np.ndarray | None = None  # the frame handed over last
        # what `give` handed over last: the frame's own subject (found in it), and one
        # that paints by nothing (no face, no person: as another frame's paints)
        self.given_own = False
        self.given_bare = False
        self._first: int | None = None  # the source index its sequence started at
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def frame(self, image: np.ndarray, *, still: bool, cut: bool, wait: bool,
              index: int | None, t: float) -> None:
        """A new frame on screen: `cut` when it does not follow the last one (the subject is
        found afresh), `wait` when it is to be painted with its own subject (a paused file's
        frame; a still always is). A file's frame `index` (None for a camera's, which is
        followed in real time, `t` seconds) is followed as an export follows it: the k-th
        frame since the cut at k / FRAMES_PER_S s (SubjectSearch)."""
        if image is self._image and self._worker is not None:
            # the same frame for a new pipeline (a chain edit, a style switch): what was
            # found in it still holds; finding it again would paint it without for a while
            return
        self._image = image
        if self._worker is None:
            # (frames skipped by playback that fell behind are made up for: the detections
            # and masks an export made in them)
            self._worker = SubjectWorker(lambda: SubjectTracker(catch_up=True))
            self._worker.start()
        # a playing file's frame more than one on from the last: what was found before is
        # several frames behind it (a seek or the loop point is a cut instead)
        last, self._index = self._index, index
        self._skip = not (cut or still or wait) and index is not None and last is not None \
            and index > last + 1
        if cut or still:
            self._worker.reset()
            self._seen = None
            self._first = index
            self._cut = True
        if index is None or self._first is None:
            self._worker.submit(image, t)
        else:
            k = max(0, index - self._first)
            self._worker.submit(image, k / FRAMES_PER_S, k)
        self._own = still or wait or self._skip
        self._await(self._own or self._cut)

    def forget(self) -> None:
        """The frame handed over last is looked at afresh when it comes again (painted
        again as a seek to it paints it)."""
        self._image = None

    def settle(self) -> None:
        """The frame on screen is to be shown with its own subject (a file paused): painted
        again once that is found, if it was painted with another's."""
        if self._image is not None and self._worker is not None \
                and not self._worker.found_in(self._image):
            self._own = True
            self._await(True)

    def _await(self, pending: bool) -> None:
        self._pending = pending
        if pending and not self._timer.isActive():
            self._timer.start()  # (not restarted: frames faster than it would starve it)

    def give(self, pipeline: Renderer) -> None:
        """Set the newest subject on the pipeline before it renders (`given_own`,
        `given_bare` say what it was)."""
        pipeline.subject_feed = "given"
        worker, image = self._worker, self._image
        # asked first: a result that comes meanwhile is the frame's own, counted as not
        self.given_own = worker is not None and image is not None and worker.found_in(image)
        self._seen = self.latest
        pipeline.set_subject(self._seen)
        seen = self._seen
        self.given_bare = seen is not None and not seen.faces and seen.person is None

    @property
    def latest(self) -> Subject | None:
        return self._worker.latest() if self._worker is not None else None

    def _found(self) -> bool:
        """What the frame on screen waits for is found: its own subject, or (a file playing
        on after a cut) anything found since the cut."""
        worker = self._worker
        assert worker is not None and self._image is not None
        return worker.found_in(self._image) if self._own else worker.has_result()

    def _poll(self) -> None:
        worker = self._worker
        if worker is None or not self._pending or worker.error is not None \
                or self._image is None:
            self._pending = self._cut = self._skip = False
            self._timer.stop()
            if self.holding:
                self.stillReady.emit()
            return
        if self._found():
            self._pending = self._cut = self._skip = False
            self._timer.stop()
            if self.holding or worker.latest() is not self._seen:
                self.stillReady.emit()

    @property
    def waiting(self) -> bool:
        """The frame on screen waits for its subject."""
        return self._pending

    @property
    def waiting_fresh(self) -> bool:
        """... and nothing found before holds for it (since a cut, or a still, or after
        frames skipped while playing): worth holding the picture before it on screen until
        it is found, rather than painting it without (or with a face from frames back)."""
        return self._pending and (self._cut or self._skip)

    @property
    def waiting_after_skip(self) -> bool:
        """... a playing file's frame after frames skipped, for its own subject: the frames
        that come meanwhile wait behind it (each would be another skip, and one replaced
        by the next before its subject is found would never be painted)."""
        return self._pending and self._skip and not self._cut

    def stop(self) -> None:
        self._timer.stop()
        self._image = None
        self._index = None
        self._pending = self._cut = self._skip = False
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
