"""A person's jewellery (jewels.frag, jewels.glsl) kept as a painter keeps it (trial F10,
finding 4): a pearl necklace and a pearl stud, a few px each, whose lights the half-size washes
smoothed into the skin and hair round them, are laid back with their highlights as paper."""
# ruff: noqa: F811 - pytest fixtures imported from another test module

from __future__ import annotations

import cv2
import numpy as np
from test_face_features import lightness, pipeline  # noqa: F401 - fixture

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

FACE = (265.0, 170.0, 375.0, 280.0)  # brows to chin: half sides 55
NECKLACE = (283, 288, 76, 26)  # x, y, w, h: the pearls' box
STUD = (247, 243, 18, 18)
FAR = (300, 330, 40, 30)  # the chest's skin below the necklace, away from any pearl


def _pearl(lum: np.ndarray, cx: float, cy: float, r: float, xx, yy) -> None:
    """A pearl of radius `r`: light (L* 93) in its upper half, shaded (L* 78) below."""
    d = np.hypot(xx - cx, yy - cy)
    lum[d <= r] = np.where(yy[d <= r] < cy + 0.3 * r, 93.0, 78.0)


def portrait(jewels: bool) -> tuple[np.ndarray, Subject]:
    """A 640x480 head and shoulders: a skin oval (L* 68) under dark hair (L* 16) before a wall
    (L* 55), its neck and chest skin; with `jewels` a necklace of 9 pearls (6 px across, 8 px
    apart, 1.4 half faces below the face's middle) and a pearl stud by the left ear."""
    yy, xx = np.mgrid[0:480, 0:640].astype(np.float32)
    lum = np.full((480, 640), 55.0, np.float32)
    lum[((xx - 320) / 80) ** 2 + ((yy - 210) / 100) ** 2 <= 1] = 16.0  # hair
    lum[(np.abs(xx - 320) <= 38) & (yy >= 240)] = 66.0  # neck
    lum[(yy >= 320) & (np.abs(xx - 320) <= 200)] = 66.0  # chest and shoulders
    lum[((xx - 320) / 58) ** 2 + ((yy - 215) / 72) ** 2 <= 1] = 68.0  # the face
    if jewels:
        for k in range(9):
            x = 288.0 + 8.0 * k
            _pearl(lum, x, 300.0 + 0.02 * (x - 320.0) ** 2, 3.0, xx, yy)
        _pearl(lum, 256.0, 252.0, 3.0, xx, yy)
    rgb = cv2.cvtColor(np.dstack([lum, np.full_like(lum, 10.0), np.full_like(lum, 14.0)]),
                       cv2.COLOR_LAB2RGB)
    rgb = np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)
    person = ((((xx - 320) / 82) ** 2 + ((yy - 210) / 102) ** 2 <= 1) | (lum == 66.0)
              | (lum >= 78.0)).astype(np.float32)
    face = Face(FACE, np.array([(298, 195), (342, 195), (320, 225), (320, 252), (266, 205),
                                (374, 205)], float), 0.9)
    return rgb, Subject((face,), cv2.resize(person, (160, 120), interpolation=cv2.INTER_AREA))


def _box(a: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x, y, w, h = box
    return a[y:y + h, x:x + w]


def _hp(lum: np.ndarray) -> float:
    """The fine detail of L* (its std less a Gaussian blur of sigma 3): trial F10's measure."""
    return float((lum - cv2.GaussianBlur(lum, (0, 0), 3)).std())


def _paint(pipeline, jewels: bool) -> tuple[np.ndarray, np.ndarray]:
    rgb, subject = portrait(jewels)
    p = pipeline({"vignette": 0.0}, seed=1)
    p.subject_feed = "given"
    p.set_subject(subject)
    return lightness(rgb), lightness(p.render_array(rgb))


def test_pearls_keep_their_lights_and_drawing(pipeline):
    """In the necklace's and the stud's boxes the painting keeps at least 0.8 of the photo's
    fine detail and its lightest 1 % within 6 L* of the photo's (the paper's white is a few
    L* under the photo's); the washes had laid the necklace as a pale band and the stud as the
    hair round it. Measured (hp painting/photo, L99 photo -> painting): necklace before
    0.45, 92.8 -> 80.9, now 0.93, 92.8 -> 91.5; stud before 0.19, 92.8 -> 43.0, now 0.87,
    92.8 -> 91.5."""
    photo, painting = _paint(pipeline, True)
    for box in (NECKLACE, STUD):
        a, b = _box(photo, box), _box(painting, box)
        assert _hp(b) >= 0.8 * _hp(a), (box, _hp(a), _hp(b))
        assert np.percentile(b, 99) >= np.percentile(a, 99) - 6.0, box


def test_skin_without_jewels_is_painted_as_before(pipeline):
    """The chest's skin below the necklace (no pearl within reach) is laid as it is in the same
    portrait without the jewellery: what is laid back is the jewel, not its surround."""
    _, with_jewels = _paint(pipeline, True)
    _, without = _paint(pipeline, False)
    assert np.abs(_box(with_jewels, FAR) - _box(without, FAR)).mean() <= 1.0
