"""The window's subject tracker across frames a playing file skips (playback behind on a
slow machine): what an export found in the frames skipped is found at the frame after.

The trial (W4, finding 3): a portrait moving over a pattern, played on the slow machine
(about one frame in nine painted), kept the vignette open on the side the figure came from,
the raw pattern showing there: the person mask was refreshed on even frames only, and the
frames the window's worker looked at (21, 31, 41, 49) were odd, so the figure of frame 12
was painted until frame 58; the face was followed by its mesh across strides it cannot
follow (lagging 40 px, then lost and found again without its smoothing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from skimage import data

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import SubjectTracker

FPS = 30.0


class _Faces:
    """A detector that finds one face, and counts its full detections."""

    def __init__(self) -> None:
        self.detected: list[int] = []
        self.frame = 0

    def detect(self, rgb: np.ndarray, **kw: Any) -> list[Face]:
        self.detected.append(self.frame)
        x = 10.0 + self.frame
        return [Face((x, 10.0, x + 20.0, 30.0), np.zeros((6, 2)), 0.9)]

    def follow(self, rgb: np.ndarray, face: Face) -> Face:
        return face


class _Masks:
    """A person segmenter that counts its masks."""

    def __init__(self) -> None:
        self.masked: list[int] = []
        self.frame = 0

    def mask(self, rgb: np.ndarray) -> np.ndarray:
        self.masked.append(self.frame)
        return np.zeros((4, 4), np.float32)


@pytest.mark.parametrize("catch_up", [False, True])
def test_a_tracker_that_catches_up_makes_up_for_skipped_frames(catch_up: bool) -> None:
    """The window's tracker (catch_up) sees every few frames of a playing file: the person
    mask and the full detections an export made in the frames skipped are made at the frame
    after, and a face more than 2 frames on is searched afresh; the export's tracker, which
    sees every frame (or skips a repeated picture), keeps its beat."""
    faces, masks = _Faces(), _Masks()
    tracker = SubjectTracker(detector=faces, segmenter=masks, detect_every=4,  # type: ignore[arg-type]
                             segment_every=2, catch_up=catch_up)
    frame = np.zeros((64, 64, 3), np.uint8)
    for k in [0, 1, 2, 3, 5, 7, 9, 10, 13, 17, 21, 23, 24]:
        faces.frame = masks.frame = k
        tracker.update(frame, k / FPS, k)
    if catch_up:
        assert faces.detected == [0, 5, 9, 13, 17, 21, 24]
        assert masks.masked == [0, 2, 5, 7, 9, 10, 13, 17, 21, 23, 24]
    else:
        assert faces.detected == [0, 24]
        assert masks.masked == [0, 2, 10, 24]


def figure_frame(i: int) -> np.ndarray:
    """Frame i: the astronaut moving right 2 px a frame over moving stripes (the trial's
    clip, smaller)."""
    h, w = 240, 320
    yy, xx = np.mgrid[0:h, 0:w]
    frame = np.zeros((h, w, 3), np.uint8)
    frame[..., 0] = ((xx + 3 * i) % 80 < 40) * 150 + 60
    frame[..., 1] = ((yy + xx // 2 + 2 * i) % 60 < 30) * 100 + 80
    frame[..., 2] = 120
    face = cv2.resize(data.astronaut(), (200, 200), interpolation=cv2.INTER_AREA)
    frame[20:220, 2 + 2 * i:202 + 2 * i] = face
    return frame


def test_the_figure_played_across_skips_is_where_the_frame_has_it(tmp_path: Path) -> None:
    """Frames 1, 12, 21, ... 49 as the window's worker sees them while the file plays behind:
    each frame's person mask and face are as found in that frame (as `--start` finds them,
    within the face's smoothing), not held from a frame 20-40 frames back."""
    seen = [0, 1, 12, 21, 31, 41, 49]
    frames = {k: figure_frame(k) for k in seen}
    played = SubjectTracker(catch_up=True)
    for k in seen:
        subject = played.update(frames[k], k / FPS, k)
    fresh = SubjectTracker().update(frames[49], 0.0, 0)  # what `--start` finds in frame 49
    assert subject.person is not None and fresh.person is not None
    assert subject.faces and fresh.faces
    left = slice(0, subject.person.shape[1] // 3)  # where the figure came from
    assert abs(float(subject.person[:, left].mean()) - float(fresh.person[:, left].mean())) \
        < 0.02
    assert abs(subject.faces[0].box[0] - fresh.faces[0].box[0]) < 12  # (smoothed: a lag)
