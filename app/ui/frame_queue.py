"""The viewport's frames: the newest one queued (only it is ever painted), the one taken to
paint (on screen), and how it follows the one painted before it: a jump starts the painting's
history afresh, a cut finds the subject afresh, a skip is recorded (no Qt, no GL)."""

from __future__ import annotations

import numpy as np

from ..engine.motion import FrameMotion
from ..media.source import Frame
from .painting_record import PaintingRecord

# A file's frame more than this many frames after the last one shown (or before it) is a
# jump: a seek, the loop point, a step back, or playback that fell behind and skipped.
# History is never carried across one; a frame or two dropped is followed by the motion
# estimate. A live source's dropped frames are left to the motion estimate's own gate (the
# warp residual), since a camera's scene moves on continuously.
MAX_FOLLOW = 2
# ... the subject is followed across a longer skip (a face does not leave while playback on
# a slow machine skips frames; found afresh, it is missing from the first frames painted)
SUBJECT_FOLLOW = 30


class FrameQueue:
    """The frame queued, the frame on screen and its place among the frames before it."""

    def __init__(self) -> None:
        self.pending: Frame | None = None
        self.image: np.ndarray | None = None  # the frame on screen
        self.alpha: np.ndarray | None = None  # ... a still's transparency
        self.pts: float | None = None  # ... its media time (None: a still's, a camera's)
        self.captured: float | None = None  # ... its capture time (a live source's)
        self.motion: FrameMotion | None = None  # ... estimated ahead (MotionFeed)
        self.fresh = False  # `image` has not been given to the current pipeline yet
        self.superseded = False  # ... and never is: a seek or a new source came after it
        self.jumped = False  # the frame on screen does not follow the one before it
        self.cut = False  # ... by more than the subject is followed across
        self.skipped = False  # ... follows it across frames never painted (playback behind)
        self.repaint = False  # the frame on screen is painted again as a seek to it paints it
        self.shown_index: int | None = None  # the source's index of the frame on screen
        self.painted_index: int | None = None  # the source's index of the frame painted last
        self.painted_pts: float | None = None  # ... and its time (None: a still's, a camera's)
        # the picture drawn is the source before's (or from before a seek), held until a
        # frame of the new one is shown; `new_shown` says when that ended
        self.holding_previous = False
        self.held_size: tuple[int, int] | None = None  # ... the size of its frame
        self.new_shown = False

    @property
    def frame_size(self) -> tuple[int, int] | None:
        """(width, height) of the frame on screen (a picture held across a cut keeps its
        own: the last file's was drawn squeezed into the next one's shape)."""
        if self.holding_previous and self.held_size is not None:
            return self.held_size
        img = self.current_image
        return None if img is None else (img.shape[1], img.shape[0])

    @property
    def current_image(self) -> np.ndarray | None:
        """The source frame on screen (uint8 RGB), if any: the one queued, else the one
        taken."""
        return self.pending.image if self.pending is not None else self.image

    @property
    def moving(self) -> bool:
        """Whether the frame taken is a video's or a camera's (not a still image)."""
        return self.pts is not None or self.captured is not None

    def clear(self) -> None:
        """Forget every frame (the source closed)."""
        self.pending = None
        self.superseded = False
        self.image = self.alpha = None
        self.shown_index = self.painted_index = None
        self.holding_previous = False

    def new_source(self) -> None:
        """A new source or a seek: the frame queued is never painted, and the picture on
        screen is held until the next one's first frame is shown."""
        self.pending = None
        self.superseded = self.image is not None and self.fresh  # (held for its subject)
        self.shown_index = None  # whatever comes next starts afresh
        self.painted_index = None
        if not self.holding_previous:
            self.held_size = self.frame_size  # (the picture drawn: its size, before it goes)
        self.holding_previous = self.image is not None

    def take(self, paused: bool, record: PaintingRecord) -> bool:
        """Take the frame queued to paint (`paused`: a file is paused; `record`: the frames
        painted since the last cut); returns whether one was."""
        frame, self.pending = self.pending, None
        if frame is None:
            return False
        self.superseded = False
        img = frame.image[:, :, :3]  # a 16-bit still stays 16-bit (a deep pipeline paints it)
        self.image = np.ascontiguousarray(img if img.dtype == np.uint16 else
                                          img.astype(np.uint8, copy=False))
        self.alpha = frame.alpha
        # history follows the frame painted last (a frame held for its subject and replaced
        # before it was painted is not it); the subject, every frame handed over
        seen, self.shown_index = self.shown_index, frame.index
        last = self.painted_index
        step = frame.index - last if last is not None else 0
        self.jumped = step <= 0 or (frame.pts is not None and step > MAX_FOLLOW)
        self.skipped = not self.jumped and step > 1
        step = frame.index - seen if seen is not None else 0
        self.cut = step <= 0 or (frame.pts is not None and step > SUBJECT_FOLLOW)
        if paused and frame.pts is not None and (
                self.jumped or self.skipped or not record.follows_export()):
            # a paused file's frame that does not follow the one painted (steps pressed
            # faster than painted, the file hands over only the last) or a step from a frame
            # painted otherwise than an export paints it (while it played): painted as a
            # seek to it paints it, with its own subject (not the frame before's, on a
            # history started afresh: a ghost no export paints)
            self.jumped = self.cut = True
            self.skipped = False
        self.repaint = False
        self.pts = frame.pts
        self.captured = frame.captured
        self.motion = frame.motion
        self.fresh = True
        return True

    def shown_new(self) -> None:
        """The frame taken last (not a picture held from before a cut) is drawn."""
        if self.holding_previous and self.shown_index is not None:
            self.holding_previous = False
            self.new_shown = True

    def painted(self) -> None:
        """The frame taken was painted anew (and is drawn)."""
        self.painted_index, self.painted_pts = self.shown_index, self.pts
        self.shown_new()

    def as_seek(self) -> bool:
        """Paint the file's frame on screen again as a seek to it paints it (its history
        and subject afresh); returns whether there is one to."""
        if self.image is None or self.pts is None:
            return False
        self.fresh = self.jumped = self.cut = self.repaint = True
        self.skipped = False
        return True
