"""The subject over time: One Euro smoothing, faces tracked across frames without jitter,
the worker that runs the models off the render thread."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import skimage.data

from aquarelle.engine.faces import Face
from aquarelle.engine.one_euro import OneEuroFilter
from aquarelle.engine.subject import SubjectTracker
from aquarelle.media.subject_worker import SubjectWorker

FPS = 30.0


def test_one_euro_stills_a_still_point_and_follows_a_moving_one() -> None:
    rng = np.random.default_rng(1)
    f = OneEuroFilter()
    noisy = 100 + rng.normal(0, 2.0, 120)
    out = np.array([f(np.array([x]), k / FPS)[0] for k, x in enumerate(noisy)])
    assert out[30:].std() < 0.3 * noisy[30:].std()
    f.reset()
    ramp = 300.0 * np.arange(60) / FPS  # 300 px/s
    out = np.array([f(np.array([x]), k / FPS)[0] for k, x in enumerate(ramp)])
    assert abs(out[-1] - ramp[-1]) < 15  # the cutoff rose with the speed: little lag


def moving_face_frames(n: int = 24) -> list[np.ndarray]:
    """A 640x360 frame with the astronaut's face (150 px) moving 3 px a frame, with noise."""
    face = cv2.resize(skimage.data.astronaut()[40:240, 130:330], (150, 150),
                      interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(2)
    frames = []
    for k in range(n):
        frame = np.full((360, 640, 3), 190, np.uint8)
        x = 150 + 3 * k
        frame[100:250, x:x + 150] = face
        noise = rng.normal(0, 6.0, frame.shape)
        frames.append(np.clip(frame + noise, 0, 255).astype(np.uint8))
    return frames


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    return moving_face_frames()


def jitter(track: np.ndarray) -> float:
    """Mean size of the second differences of a path (0 for steady motion)."""
    return float(np.linalg.norm(np.diff(track, 2, axis=0), axis=1).mean())


def test_tracked_faces_do_not_jitter(frames) -> None:
    tracker = SubjectTracker(people=False)
    raw, smooth = [], []
    for k, frame in enumerate(frames):
        subject = tracker.update(frame, k / FPS)
        assert len(subject.faces) == 1
        smooth.append(subject.faces[0].mesh[:, :2].mean(axis=0))
        raw.append(tracker.detector.detect(frame)[0].mesh[:, :2].mean(axis=0))
    raw_j, smooth_j = jitter(np.array(raw)), jitter(np.array(smooth))
    assert smooth_j < 0.6 * raw_j, (raw_j, smooth_j)
    lag = np.abs(np.array(smooth)[5:] - np.array(raw)[5:]).mean()
    assert lag < 4.0, lag  # follows the face (3 px a frame) about a frame behind at most
    tracker.reset()
    assert tracker.update(frames[0], 0.0).faces  # a reset starts afresh


def test_the_worker_keeps_the_newest_result_and_never_blocks(frames) -> None:
    worker = SubjectWorker(lambda: SubjectTracker(segment_every=2))
    assert worker.latest() is None  # nothing yet, at once
    worker.start()
    try:
        for k, frame in enumerate(frames[:6]):
            worker.updated.clear()
            worker.submit(frame, k / FPS)
            assert worker.updated.wait(20), worker.error
        subject = worker.latest()
        assert subject is not None and len(subject.faces) == 1
        assert subject.person is not None and subject.person.shape == (144, 256)
        assert subject.time == pytest.approx(5 / FPS)
        worker.reset()
        assert worker.latest() is None
    finally:
        worker.stop()
    assert worker.error is None and worker.done == 6


def test_meshes_follow_and_a_new_face_is_found_at_the_next_detection(frames) -> None:
    tracker = SubjectTracker(people=False, detect_every=4)
    calls = {"detect": 0}
    detect = tracker.detector.detect

    def counted(rgb, **kw):
        calls["detect"] += 1
        return detect(rgb, **kw)

    tracker.detector.detect = counted  # type: ignore[method-assign]
    for k in range(4):
        assert len(tracker.update(frames[k], k / FPS).faces) == 1
    assert calls["detect"] == 1  # frames 1-3: the mesh followed the face
    second = frames[4].copy()
    second[200:350, 480:630] = frames[0][100:250, 150:300]  # another face comes in
    assert len(tracker.update(second, 4 / FPS).faces) == 2  # frame 4: a full detection
    assert calls["detect"] == 2


def test_a_groups_faces_are_followed_up_to_a_budget() -> None:
    """Between detections only the MAX_FOLLOWED largest faces are followed by their mesh
    (about 3 ms each); a group's others keep their place instead of costing a frame."""
    from aquarelle.engine.subject import MAX_FOLLOWED

    faces = [Face((10.0 + 30 * i, 10.0, 10.0 + 30 * i + 8 + i, 30.0), np.zeros((6, 2)), 0.9)
             for i in range(12)]

    class Group:
        follows = 0

        def detect(self, rgb, thorough=False):
            return list(faces)

        def follow(self, rgb, face):
            Group.follows += 1
            return face

    tracker = SubjectTracker(people=False, detector=Group())  # type: ignore[arg-type]
    frame = np.zeros((64, 400, 3), np.uint8)
    assert len(tracker.update(frame, 0.0).faces) == 12  # the first frame: a detection
    Group.follows = 0
    assert len(tracker.update(frame, 1 / 30).faces) == 12  # then followed
    assert Group.follows == MAX_FOLLOWED


def test_a_tracker_started_mid_sequence_detects_on_the_sequences_frames() -> None:
    """A cluster's chunk starts its tracker some frames into a video: with the frames'
    index, its full detections and person masks fall on the frames a single run's do
    (counted from its own start they fell elsewhere for the whole chunk: the faces, the
    person mask and the vignette round them differed from a single machine's export)."""
    face = Face((10.0, 10.0, 40.0, 40.0), np.zeros((6, 2)), 0.9)

    class Faces:
        def __init__(self) -> None:
            self.detected: list[int] = []
            self.frame = 0

        def detect(self, rgb, thorough=False):
            self.detected.append(self.frame)
            return [face]

        def follow(self, rgb, f):
            return f

    class Masks:
        def __init__(self) -> None:
            self.masked: list[int] = []
            self.frame = 0

        def mask(self, rgb):
            self.masked.append(self.frame)
            return np.zeros((4, 4), np.float32)

    frame = np.zeros((64, 64, 3), np.uint8)
    runs = {}
    for start in (0, 7):
        faces, masks = Faces(), Masks()
        tracker = SubjectTracker(detector=faces, segmenter=masks, detect_every=4,  # type: ignore[arg-type]
                                 segment_every=2)
        for k in range(start, 20):
            faces.frame = masks.frame = k
            tracker.update(frame, k / FPS, k)
        runs[start] = (faces.detected, masks.masked)
    assert runs[0] == ([0, 4, 8, 12, 16], list(range(0, 20, 2)))
    # its first frame is searched (nothing to follow yet), then the sequence's beat
    assert runs[7] == ([7, 8, 12, 16], [7, 8, 10, 12, 14, 16, 18])
