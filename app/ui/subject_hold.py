"""Holding the picture on screen until a new frame's subject (faces, the person) is found:
painted without it, a frame would be framed as a scene, then again as a portrait."""

from __future__ import annotations

import time
from collections.abc import Callable

from PyQt6.QtCore import QTimer

from .frame_queue import SUBJECT_FOLLOW, FrameQueue
from .subject_feed import SubjectFeed

# After a cut (a seek, the loop point, a new still) the frames wait at most this long for their
# subject, the picture before them held on screen meanwhile (painted without it, a frame would
# be framed as a scene, then again as a portrait: a flash; with the face from before the cut,
# the face would be where it was). A paused file's step is painted with the frame before's
# subject at once, and again with its own. A playing file's frame after frames were skipped
# waits as long for its own (the newest result is the frame's before the skip, the face where
# it was frames back), the frames that come meanwhile behind it (SubjectHold.keeps).
SUBJECT_HOLD_S = 0.5


class SubjectHold:
    """Whether the view keeps the picture it shows while a frame's subject is found;
    `wake` is called once the longest wait is over (the view paints again)."""

    def __init__(self, subjects: SubjectFeed, wake: Callable[[], None]) -> None:
        self.subjects = subjects
        self.wake = wake
        self.since: float | None = None  # holding the picture for a frame's subject
        self.after_skip = False  # ... a playing file's frame after a skip (`keeps`)

    def holds(self) -> bool:
        """Whether to keep the picture on screen a moment longer, while the new frame's own
        subject is found (see SUBJECT_HOLD_S); then it is painted with it, or without once
        the wait is over. With nothing painted yet (a file or camera just opened) the view
        stays empty meanwhile: its first frame is not shown framed without its face."""
        self.after_skip = False
        if not self.subjects.waiting_fresh:
            self.since = None
            self.subjects.holding = False
            return False
        now = time.monotonic()
        if self.since is None:
            self.since = now
            QTimer.singleShot(int(SUBJECT_HOLD_S * 1000) + 10, self.wake)
        if now - self.since < SUBJECT_HOLD_S:
            self.subjects.holding = True
            self.after_skip = self.subjects.waiting_after_skip  # (see `keeps`)
            return True
        self.since = None
        self.subjects.holding = False
        return False

    def keeps(self, frames: FrameQueue, paused: bool) -> bool:
        """Whether the frame queued waits behind the one held for its subject: a playing
        file's frame after a skip, held until its own is found, is painted before the frames
        that follow it (replaced by each newer one, it would wait for a subject the worker
        is always a frame behind on, then be painted with a stale one); a seek, the loop
        point or a pause takes the queued frame at once."""
        frame = frames.pending
        return frame is not None and self.after_skip and frames.fresh \
            and not frames.superseded and not paused and frame.pts is not None \
            and frames.pts is not None and frames.shown_index is not None \
            and 0 < frame.index - frames.shown_index <= SUBJECT_FOLLOW
