"""Counterchange round a portrait (trial F2, finding 1): the dark room kept round the figure
is laid as a light wash only where the figure's edge next to it is as dark as the room (dark
hair would merge with it into one slab); next to a light edge the photo's dark room is kept,
dark against light (room_lift.glsl)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import skimage.data

PAPER = np.array([0xF7, 0xF2, 0xE6])
SIZE = 384


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest): parameters only change."""
    return reused_pipeline


def lightness(picture: np.ndarray) -> np.ndarray:
    """CIELAB L* (0..100) of an RGB uint8 picture."""
    return cv2.cvtColor(picture, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float64) * 100 / 255


def figure(p) -> np.ndarray:
    """The last frame's figure (figure_t .x) at the picture's size."""
    return cv2.resize(p.read_target("figure_t")[..., 0], (SIZE, SIZE))


@pytest.fixture(scope="module")
def astronaut() -> np.ndarray:
    """The astronaut (public domain, scikit-image), 384 px: a head and shoulders."""
    return cv2.resize(skimage.data.astronaut(), (SIZE, SIZE), interpolation=cv2.INTER_AREA)


def dark_room(pipeline, astronaut: np.ndarray) -> np.ndarray:
    """The astronaut with dark hair (L* about 20; her face and orange suit as they are) in a
    dark brown room (L* about 15, with a little texture)."""
    p = pipeline()
    p.render_array(astronaut)
    fig = figure(p)
    yy, xx = np.mgrid[:SIZE, :SIZE]
    face = ((xx - 163) / 36.0) ** 2 + ((yy - 82) / 44.0) ** 2 <= 1.0
    hair = (fig >= 0.5) & (yy < 125) & ~face
    head = np.where(hair[..., None], astronaut * 0.3, astronaut)
    rng = np.random.default_rng(3)
    room = np.clip(np.array([48, 36, 30]) + rng.normal(0, 6, (SIZE, SIZE))[..., None], 0, 255)
    return np.where((fig < 0.5)[..., None], room, head).astype(np.uint8)


def test_the_room_is_lifted_only_against_a_dark_edge(pipeline, astronaut):
    """The painted room 3-12 px outside the figure: where the nearest part of the figure is
    the dark hair, lighter than the painted hair by over 18 L* (measured 28.6: room 53.6, hair
    25.0; before 1.2: a slab as dark as the hair); where it is her face or suit (L* 55), kept
    dark, below L* 32 (measured 26.9, as before)."""
    picture = dark_room(pipeline, astronaut)
    p = pipeline()
    out = p.render_array(picture)
    assert p.last_subject is not None
    inside = figure(p) >= 0.5
    # each room pixel's distance to the figure and the photo's value at its nearest part
    dist, label = cv2.distanceTransformWithLabels(
        (~inside).astype(np.uint8), cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
    local = cv2.blur(lightness(picture), (5, 5))
    value = np.zeros(label.max() + 1)
    value[label[inside]] = local[inside]
    edge = value[label]
    bare = np.abs(out.astype(int) - PAPER).max(axis=2) <= 12
    band = ~inside & (dist >= 3) & (dist <= 12) & ~bare
    lum = lightness(out)
    depth = cv2.distanceTransform(inside.astype(np.uint8), cv2.DIST_L2, 5)
    hair = inside & (depth <= 8) & (local < 35)
    by_hair = band & (edge < 35)
    by_light = band & (edge > 50)
    assert by_hair.sum() > 1000 and by_light.sum() > 100, (by_hair.sum(), by_light.sum())
    gap = lum[by_hair].mean() - lum[hair].mean()
    assert gap > 18.0, (lum[by_hair].mean(), lum[hair].mean())
    assert lum[by_light].mean() < 32.0, lum[by_light].mean()


def test_bare_paper_has_no_room_to_lift(pipeline, astronaut):
    """With the background bare paper the vignette asks for no wash (.z 1 everywhere)."""
    p = pipeline({"background": "bare paper"})
    p.render_array(dark_room(pipeline, astronaut))
    assert p.read_target("vignette")[..., 2].min() == 1.0
