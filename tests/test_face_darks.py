"""A face's darkest darks are kept near the photo's (a portrait painter's trial F8, finding
10): the sheet's darks are eased above a watercolour's darkest masstone (L* 12-14), and a
low-key face's shadow side and accents, at L* 2-8 in the photo, were lifted with it: the
side-lit face lost its drama, its value range 83-88% of the photo's. On a face the darks
now go deeper (darks.glsl FACE_DARKEST); off it, and on a picture without a face, as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

SIZE = 480
SKIN = (62.0, 12.0, 16.0)  # the lit side's L*, a*, b*
SHADOW = 4.0  # the shadow side's L* (a side-lit, low-key face)
BLACK = 4.0  # a black coat's L*, below the face


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest)."""
    return reused_pipeline


def side_lit_head() -> tuple[np.ndarray, Face, dict[str, np.ndarray]]:
    """A head (an oval 200 px wide) lit from the left, its right half in deep shadow, on a
    mid-grey backdrop over a black coat; its face, and masks of the lit cheek, the shadow
    side and the coat (each well inside its region)."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    oval = ((xx - 240) / 100) ** 2 + ((yy - 220) / 130) ** 2
    lab = np.dstack([np.full((SIZE, SIZE), 50.0, np.float32),
                     np.full((SIZE, SIZE), -2.0, np.float32),
                     np.full((SIZE, SIZE), -6.0, np.float32)])
    coat = (yy >= 400) & (np.abs(xx - 240) < 220)
    lab[coat] = (BLACK, 0.0, -1.0)
    lab[oval <= 1] = SKIN
    lab[(oval <= 1) & (xx >= 250)] = (SHADOW, 2.0, 3.0)
    rgb = np.clip(cv2.cvtColor(lab, cv2.COLOR_LAB2RGB) * 255 + 0.5, 0, 255).astype(np.uint8)
    face = Face((140.0, 90.0, 340.0, 350.0),
                np.array([(200, 190), (280, 190), (240, 240), (240, 290), (140, 200),
                          (340, 200)], float), 0.9)
    masks = {"lit": (oval <= 0.35) & (xx < 215),  # (the coat: a painting without a face's)
             "shadow": (oval <= 0.35) & (xx > 275),
             "coat": coat & (yy >= 440) & (np.abs(xx - 240) < 180)}
    return rgb, face, masks


def painted(pipeline, with_face: bool) -> dict[str, float]:
    """The painting's median L* in each mask of the side-lit head."""
    rgb, face, masks = side_lit_head()
    p = pipeline({"tremor": 0.0})
    if with_face:
        p.subject_feed = "given"
        p.set_subject(Subject((face,), None))
    out = p.render_array(rgb)
    lum = cv2.cvtColor(out, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float32) * (100 / 255)
    return {k: float(np.median(lum[m])) for k, m in masks.items()}


def test_a_side_lit_face_keeps_its_shadow_side_dark(pipeline):
    """The face's shadow side (L* 4) is painted within 6.5 L* of the photo's (it was eased
    to 12.5), its lit skin as before, so the face keeps over 92% of its value range."""
    got = painted(pipeline, with_face=True)
    assert got["shadow"] < SHADOW + 6.5, got
    assert abs(got["lit"] - SKIN[0]) < 6.0, got
    assert got["lit"] - got["shadow"] > 0.92 * (SKIN[0] - SHADOW), got


def test_darks_without_a_face_keep_the_masstone(pipeline):
    """The same picture without a face is eased above the sheet's darkest masstone as before
    (L* 11 up: no flat near-black fills), its black coat too."""
    without = painted(pipeline, with_face=False)
    assert without["coat"] > 11.0 and without["shadow"] > 11.0, without
