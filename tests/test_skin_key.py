"""A high key keeps a complexion (a portrait painter's trial F3, finding 2): soft_wash lifts
the middle tones, where dark skin sits, and every complexion came out the same pale beige
(skin L* 42 -> 63, 35 -> 63, while 82 -> 84). A painter working high-key thins every wash,
but the darkest skin stays the darkest large shape and skins keep their order: the key lifts
a person's skin less, the rest of the picture as much as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from aquarelle.engine.faces import Face
from aquarelle.engine.presets import list_presets
from aquarelle.engine.subject import Subject

SIZE = 480
HUE = (12.0, 16.0)  # a skin's a*, b* (hue 53 degrees, chroma 20)
BACKDROP = 50.0  # the background's L* (a grey blue)


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest)."""
    return reused_pipeline


def soft_wash(tmp_path) -> dict:
    return next(p for p in list_presets("watercolor", tmp_path)
                if p.name == "soft_wash").values


def head(skin: float) -> tuple[np.ndarray, Face, np.ndarray, np.ndarray]:
    """A head of flat skin of L* `skin` (an oval 200 px wide) on a grey-blue backdrop, its
    face, and masks of the skin well inside the oval and of the backdrop well away from it."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    oval = ((xx - 240) / 100) ** 2 + ((yy - 230) / 130) ** 2
    inside = oval <= 1
    lab = np.dstack([np.full((SIZE, SIZE), BACKDROP, np.float32),
                     np.full((SIZE, SIZE), -4.0, np.float32),
                     np.full((SIZE, SIZE), -14.0, np.float32)])
    lab[inside] = (skin, *HUE)
    rgb = np.clip(cv2.cvtColor(lab, cv2.COLOR_LAB2RGB) * 255 + 0.5, 0, 255).astype(np.uint8)
    face = Face((140.0, 100.0, 340.0, 360.0),
                np.array([(200, 200), (280, 200), (240, 250), (240, 300), (140, 210),
                          (340, 210)], float), 0.9)
    cheeks = oval <= 0.35
    away = (oval >= 3.0) & (yy < 400)
    return rgb, face, cheeks, away


def painted_lightness(pipeline, values: dict, skin: float) -> tuple[float, float]:
    """The painted skin's and backdrop's median L* for a head of skin L* `skin`."""
    rgb, face, cheeks, away = head(skin)
    p = pipeline(values)
    p.subject_feed = "given"
    p.set_subject(Subject((face,), None))
    out = p.render_array(rgb)
    lum = cv2.cvtColor(out, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float32) * (100 / 255)
    return float(np.median(lum[cheeks])), float(np.median(lum[away]))


def test_a_high_key_keeps_dark_skin_dark_and_the_complexions_order(pipeline, tmp_path):
    """In soft_wash (key 0.7) dark skin (L* 38) is painted within 10 L* of the photo's (it
    was lifted by 20), pale skin (L* 82) stays as light as the look lays it, the two keep
    their order and most of their difference, and the backdrop round them is still lifted by
    the key (high key elsewhere)."""
    values = {**soft_wash(tmp_path), "tremor": 0.0}
    dark, dark_backdrop = painted_lightness(pipeline, values, 38.0)
    pale, _ = painted_lightness(pipeline, values, 82.0)
    assert dark - 38.0 < 10.0, (dark, pale)
    assert pale > 82.0 - 3.0, (dark, pale)
    assert pale - dark > 0.75 * (82.0 - 38.0), (dark, pale)
    assert dark_backdrop > BACKDROP + 10.0, dark_backdrop
    assert dark < dark_backdrop  # the dark face stays darker than the lifted mid-grey round it


def pale_wash(tmp_path) -> dict:
    return next(p for p in list_presets("watercolor", tmp_path)
                if p.name == "pale_wash").values


def test_a_pale_dilution_keeps_dark_skin_dark(pipeline, tmp_path):
    """pale_wash thins every wash (dilution 0.65, weak darks): dark skin (L* 38) was lifted
    by 30 to the same pale beige as every complexion. It is now thinned at most as soft_wash
    thins it: within 10 L* of the photo's, pale skin (L* 82) as light as before, the two in
    their order with most of their difference, and the backdrop still lifted far (pale)."""
    values = {**pale_wash(tmp_path), "tremor": 0.0}
    dark, dark_backdrop = painted_lightness(pipeline, values, 38.0)
    pale, _ = painted_lightness(pipeline, values, 82.0)
    assert dark - 38.0 < 10.0, (dark, pale)
    assert pale > 82.0 + 2.0, (dark, pale)
    assert pale - dark > 0.75 * (82.0 - 38.0), (dark, pale)
    assert dark_backdrop > BACKDROP + 20.0, dark_backdrop
    assert dark < dark_backdrop
