"""The vignette keeps what people are doing together (trial F11, finding 3): two children
on a fence talking through a tin-can telephone were cut out as two islands on bare paper,
the string and the fence between them gone; a seated group's front row lost its legs and
feet. Two people near each other are now one shape with the ground between them, and a
group's busts reach down to a seated front row's feet."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject
from aquarelle.engine.subject_map import subject_map

PICTURE = (960, 540)  # w, h
MODEL = (256, 256)  # the segmenter's grid (w, h) over the picture
PAPER = np.array([0xF7, 0xF2, 0xE6])
FENCE = (430, 450)  # the fence's rail between them, rows (picture px)


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest): parameters only change."""
    return reused_pipeline


def face(x: float, y: float, s: float) -> Face:
    """A face of size `s` whose box's top left is (x, y)."""
    k = np.array([[x + 0.3 * s, y + 0.35 * s], [x + 0.7 * s, y + 0.35 * s],
                  [x + 0.5 * s, y + 0.55 * s], [x + 0.5 * s, y + 0.8 * s],
                  [x, y + 0.4 * s], [x + s, y + 0.4 * s]], np.float64)
    return Face((x, y, x + s, y + s), k, 0.9)


def two_people() -> tuple[Subject, np.ndarray]:
    """Two seated people 300 px apart (faces 70 px) on a fence, and their photo: a green
    field, a brown rail between them, a string from head to head."""
    mask = np.zeros((PICTURE[1], PICTURE[0]), np.float32)
    for cx in (250, 710):
        cv2.ellipse(mask, (cx, 150), (45, 58), 0, 0, 360, 1.0, -1)  # head
        cv2.rectangle(mask, (cx - 80, 200), (cx + 80, 500), 1.0, -1)  # body, legs
    p = cv2.GaussianBlur(cv2.resize(mask, MODEL, interpolation=cv2.INTER_AREA), (0, 0), 1.5)
    faces = (face(215, 110, 70), face(675, 110, 70))
    img = np.empty((PICTURE[1], PICTURE[0], 3), np.uint8)
    img[:] = (110, 170, 60)  # the field
    img[FENCE[0]:FENCE[1]] = (150, 120, 90)  # the rail
    img[140:144] = (235, 235, 230)  # the string
    img[mask > 0] = (200, 150, 120)
    return Subject(faces, p, light=0.0), img


def test_two_people_near_each_other_are_joined_in_the_map():
    """Between them the map's .a is over 1 (the ground joining them); above and below the
    pair, and beside it, not."""
    subject, _ = two_people()
    m = subject_map(subject, PICTURE)
    step = PICTURE[1] / m.shape[0]

    def near(x: float, y: float) -> float:
        return float(m[round(y / step), round(x / step), 3])

    assert near(480, FENCE[0]) > 1.5 and near(480, 142) > 1.5  # the fence, the string
    assert near(480, 20) <= 1.0 and near(20, 300) <= 1.0 and near(940, 300) <= 1.0
    assert m[..., 3].max() <= 2.0


def test_people_far_apart_keep_their_own_shapes():
    """Two people further apart than JOIN_GAP (0.6 of the short side) are not joined."""
    subject, _ = two_people()
    wide = (2400, 540)
    mask = np.zeros((wide[1], wide[0]), np.float32)
    for cx in (210, 2190):
        cv2.rectangle(mask, (cx - 80, 100), (cx + 80, 540), 1.0, -1)
    p = cv2.resize(mask, MODEL, interpolation=cv2.INTER_AREA)
    m = subject_map(Subject((face(175, 110, 70), face(2155, 110, 70)), p, light=0.0), wide)
    assert m[..., 3].max() <= 1.0


def test_the_fence_between_two_people_is_painted(pipeline):
    """Painted (the default look), the rail and the string between them keep paint (before:
    about 80% and all of them bare paper)."""
    subject, img = two_people()
    p = pipeline({}, seed=0)
    p.subject_feed = "given"
    p.set_subject(subject)
    p.keep_history = False  # a still
    out = p.render_array(img)
    bare = np.abs(out.astype(int) - PAPER).max(axis=2) <= 12
    assert bare[FENCE[0]:FENCE[1], 360:600].mean() < 0.2
    assert bare[130:155, 360:600].mean() < 0.2
    assert bare[:40].mean() > 0.8  # the sky above them still paper


def test_a_seated_front_rows_legs_are_in_the_figure():
    """A group's figure reaches 4 face sizes below the front row's chins (its knees and
    shins), fading out before the frame's bottom far below."""
    faces = tuple(face(x, 100.0, 40.0) for x in (100, 220, 340, 460))
    m = subject_map(Subject(faces, None), (640, 900))
    step = 900 / m.shape[0]

    def at(x: float, y: float) -> float:
        return float(m[round(y / step), round(x / step), 2])

    chin = 140.0
    assert at(240, chin + 4 * 40) > 0.8  # the knees (before: 0.5)
    assert at(240, chin + 9 * 40) < 0.2  # not the floor far below
