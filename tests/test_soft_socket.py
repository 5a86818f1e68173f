"""A face's soft shadows round its features laid wet in wet (trial F10, finding 8): an eye
socket's shadow that the photo grades smoothly is no hard-edged dark blot wider than the eye;
the eye's own drawing (a crisp lid and iris) keeps its edge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_face_features import SIZE, lab_picture, lightness

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

EYES = ((290.0, 330.0), (430.0, 330.0))
FACE = Face((200.0, 180.0, 520.0, 540.0),
            np.array([*EYES, (360, 400), (360, 460), (200, 340), (520, 340)], float), 0.9)
SOCKET = 36.0  # L* the soft socket's shadow lies under the skin at its deepest
EDGE = 0.08  # its edge's softness, of its radii (a logistic's scale: ~20 px wide)


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest)."""
    return reused_pipeline


def face_picture() -> np.ndarray:
    """Skin of L* 74; round the left eye a soft socket shadow (80 x 48 px, its edge graded
    over ~20 px), at the right eye a crisp dark almond (the lids and the iris)."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    (lx, ly), (rx, ry) = EYES
    r = np.hypot((xx - lx) / 40.0, (yy - ly) / 24.0)  # the socket: 80 x 48 px
    lum = 74.0 - SOCKET / (1.0 + np.exp(np.minimum((r - 1.0) / EDGE, 60.0)))
    lum[((xx - rx) / 24.0) ** 2 + ((yy - ry) / 8.0) ** 2 <= 1.0] = 28.0
    return lab_picture(lum, 12.0, 16.0)


def steepest(lum: np.ndarray, cx: float, cy: float) -> float:
    """The 99th percentile of |grad L*| (per px, sigma 1) within 70 x 45 px of (cx, cy)."""
    b = cv2.GaussianBlur(lum, (0, 0), 1.0)
    g = np.hypot(*np.gradient(b))
    y, x = int(cy), int(cx)
    return float(np.percentile(g[y - 45:y + 45, x - 70:x + 70], 99))


def dried(pipeline, picture: np.ndarray, sharp: float) -> np.ndarray:
    """|L*| the composite's dried edges move the painting by (hard_edges 1 against 0)."""
    out = []
    for hard in (1.0, 0.0):
        p = pipeline({"tremor": 0.0, "hard_edges": hard})
        p.subject_feed = "given"
        p.set_subject(Subject((FACE,), None, sharpness=sharp))
        out.append(lightness(p.render_array(picture)))
    return np.abs(out[0] - out[1])


def box_mean(a: np.ndarray, cx: float, cy: float) -> float:
    y, x = int(cy), int(cx)
    return float(a[y - 45:y + 45, x - 70:x + 70].mean())


def test_a_soft_socket_shadow_dries_no_hard_border_and_the_eye_stays_crisp(pipeline):
    """On a soft photo (a webcam's, an enlarged frame: its face's skin keeps its dried edges)
    a socket's shadow graded over ~20 px is laid graded: the composite's dried edges move it
    by at most 3 L* (99th percentile round the eye; old 4.3: its border dried all round, the
    dark blot of trial F10's p02; now 2.0), while the crisp eye beside it keeps its rim
    (|grad L*| 13.7 a px, old 14.6; the photo's socket slopes 4.1 at most)."""
    picture = face_picture()
    (lx, ly), (rx, ry) = EYES
    d = dried(pipeline, picture, 0.0)
    y, x = int(ly), int(lx)
    assert np.percentile(d[y - 45:y + 45, x - 70:x + 70], 99) < 3.0
    p = pipeline({"tremor": 0.0})
    p.subject_feed = "given"
    p.set_subject(Subject((FACE,), None, sharpness=0.0))
    painted = lightness(p.render_array(picture))
    fy = cv2.resize(p.read_target("focus_t")[..., 1], (SIZE, SIZE))
    assert fy[int(ly), int(lx)] > 0.5 and fy[int(ry), int(rx)] > 0.5  # both in the features
    assert steepest(painted, rx, ry) > 10.0
