"""A face's openings as a portrait painter lays them (a painter's trial, finding 9): teeth
and catchlights left as paper, or the lightest cool wash, and the mouth's inside its deepest
dark (accents.glsl). On the old accents teeth came out yellower and darker, the cavity
lifted and the catchlights at half their contrast; a lone glint on a spectacle frame or at a
mouth's corner still must not become a white fleck."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

SIZE = 720  # one reference frame: source px are reference px
MOUTH = (360.0, 470.0)
EYES = [(300.0, 360.0), (420.0, 360.0)]


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest)."""
    return reused_pipeline


def lab_picture(lum: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """An RGB uint8 picture of CIELAB planes."""
    lab = np.dstack([lum, a, b]).astype(np.float32)
    return np.clip(cv2.cvtColor(lab, cv2.COLOR_LAB2RGB) * 255 + 0.5, 0, 255).astype(np.uint8)


def to_lab(rgb: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    return lab * np.float32([100 / 255, 1, 1]) - np.float32([0, 128, 128])


def inner(mask: np.ndarray, k: int) -> np.ndarray:
    """`mask` eroded by a k x k square: its pixels away from its rim."""
    return cv2.erode(mask.astype(np.uint8), np.ones((k, k), np.uint8)) > 0


def smiling_face() -> tuple[np.ndarray, Face, dict[str, np.ndarray], list[tuple[int, int]]]:
    """A 320 px face (skin L* 62) with an open smile (lips L* 48, white teeth L* 92 b* +3
    above a cavity of L* 18), eyes with a dark iris and a 3 px catchlight, spectacle frames,
    and a 2 px glint on each frame and at the mouth's corner."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    lum = np.full((SIZE, SIZE), 62.0, np.float32)
    a, b = np.full_like(lum, 14.0), np.full_like(lum, 20.0)
    mx, my = MOUTH
    lips = ((xx - mx) / 62) ** 2 + ((yy - my) / 26) ** 2 <= 1
    opening = ((xx - mx) / 50) ** 2 + ((yy - my) / 15) ** 2 <= 1
    teeth = opening & (yy < my + 1) & (np.abs(xx - mx) < 40)
    cavity = opening & ~teeth
    for mask, value in ((lips, (48, 30, 14)), (cavity, (18, 12, 8)), (teeth, (92, 0, 3))):
        lum[mask], a[mask], b[mask] = value
    irises = []
    glints = [(int(mx - 60), int(my))]
    for ex, ey in EYES:
        white = ((xx - ex) / 22) ** 2 + ((yy - ey) / 9) ** 2 <= 1
        iris = np.hypot(xx - ex, yy - ey) <= 8
        catch = (np.abs(xx - ex - 3) <= 1) & (np.abs(yy - ey + 3) <= 1)
        frame = np.abs(np.hypot((xx - ex) / 40, (yy - ey) / 24) - 1) <= 0.03
        for mask, value in ((white, (85, 0, 4)), (iris, (22, 6, 10)), (catch, (97, 0, 0)),
                            (frame, (20, 2, 4))):
            lum[mask], a[mask], b[mask] = value
        irises.append(iris)
        glints.append((int(ex + 40 * np.cos(0.6)), int(ey - 24 * np.sin(0.6))))
    for gx, gy in glints:
        lum[gy:gy + 2, gx:gx + 2], a[gy:gy + 2, gx:gx + 2], b[gy:gy + 2, gx:gx + 2] = 97, 0, 0
    face = Face((200.0, 240.0, 520.0, 560.0),
                np.array([*EYES, (360, 420), MOUTH, (200, 360), (520, 360)], float), 0.9)
    masks = {"teeth": inner(teeth, 5), "cavity": inner(cavity, 3),
             "lips": inner(lips & ~opening, 3), "iris0": irises[0], "iris1": irises[1]}
    return lab_picture(lum, a, b), face, masks, glints


_PAINTED: dict[str, tuple] = {}


@pytest.fixture
def painted(pipeline) -> tuple[np.ndarray, np.ndarray, dict, list]:
    """The smiling face's photo and its painting in the default look (CIELAB), painted once
    for the module."""
    if "default" not in _PAINTED:
        picture, face, masks, glints = smiling_face()
        p = pipeline({}, seed=1)
        p.subject_feed = "given"
        p.set_subject(Subject((face,), None))
        _PAINTED["default"] = (to_lab(picture), to_lab(p.render_array(picture)), masks, glints)
    return _PAINTED["default"]


def test_teeth_are_laid_as_the_photos_light_no_yellower(painted):
    """White teeth are reserved as the photo's light, in its neutral hue: on the old accents
    the skin's washes showed through them (measured: photo L* 92.2 b* +3.0, painted L* 83.5
    b* +11.4; now 90.8, +3.4)."""
    photo, paint, masks, _ = painted
    t = masks["teeth"]
    assert paint[t][:, 2].mean() <= photo[t][:, 2].mean() + 2.0, paint[t].mean(axis=0)
    assert abs(paint[t][:, 0].mean() - photo[t][:, 0].mean()) <= 3.0, paint[t].mean(axis=0)


def test_the_mouths_inside_is_as_dark_against_the_lips_as_the_photos(painted):
    """The cavity is the face's deepest dark: against the lips at least as dark as in the
    photo (measured: lips minus cavity L* 30.2 in the photo, 26.7 on the old accents with the
    cavity lifted from 18 to 25; 33.2 now)."""
    photo, paint, masks, _ = painted
    cav, lips = masks["cavity"], masks["lips"]
    want = np.median(photo[lips][:, 0]) - photo[cav][:, 0].mean()
    got = np.median(paint[lips][:, 0]) - paint[cav][:, 0].mean()
    assert got >= want - 1.0, (want, got)


def test_catchlights_keep_their_contrast(painted):
    """A catchlight is reserved paper against the iris's dark: at least 80% of the photo's
    contrast (max minus median L* of the iris; measured 74.9 in the photo, 43 and 34 on the
    old accents, 78 and 76 now)."""
    photo, paint, masks, _ = painted
    for iris in (masks["iris0"], masks["iris1"]):
        want = photo[iris][:, 0].max() - np.median(photo[iris][:, 0])
        got = paint[iris][:, 0].max() - np.median(paint[iris][:, 0])
        assert got >= 0.8 * want, (want, got)


def test_a_lone_glint_is_no_white_fleck(painted):
    """A 2 px glint on a spectacle frame or at a mouth's corner is no catchlight and no tooth:
    it stays within a few L* of the skin beside it (66-67 against 62, as on the old accents),
    not paper (97 in the photo)."""
    _, paint, _, glints = painted
    skin = np.median(paint[250:300, 250:300, 0])
    for gx, gy in glints:
        assert paint[gy - 1:gy + 3, gx - 1:gx + 3, 0].max() <= skin + 10.0, (gx, gy, skin)
