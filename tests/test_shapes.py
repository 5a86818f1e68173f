"""Washes from shapes (issue 29, item 2): SLIC-like superpixels on a grid of the reference
frame, merged by colour, each one graded wash (shaders/watercolor/shape_*.frag)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import EFFECTS_OFF
from test_tiles import _diff, photo

from aquarelle.engine.tiles import TiledStill

SHAPES = {**EFFECTS_OFF, "shapes": 1.0, "subject_aware": False, "detail": 0.0}


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest): no test here changes more of
    a pipeline than its parameters and switches."""
    return reused_pipeline


def _lab_of(rgb_l: np.ndarray) -> np.ndarray:
    """An sRGB grey picture of CIE L* values (H, W) (a, b = 0)."""
    y = np.where(rgb_l > 8.0, ((rgb_l + 16.0) / 116.0) ** 3, rgb_l / 903.3)
    srgb = np.where(y <= 0.0031308, 12.92 * y, 1.055 * y ** (1 / 2.4) - 0.055)
    return np.repeat((np.clip(srgb, 0, 1) * 255 + 0.5).astype(np.uint8)[..., None], 3, axis=2)


def test_the_shape_grid_follows_the_reference_frame(pipeline):
    """As many shapes on a 640 px frame as on a 1920 px one: the grid is of the reference
    frame's pixels, not the picture's."""
    sizes = []
    for w, h in ((640, 360), (1920, 1080)):
        p = pipeline(SHAPES)
        p.render_array(photo(w, h, seed=3))
        sizes.append((p.read_target("shape_lab").shape, p.read_target("shape_seeds").shape))
    assert sizes[0] == sizes[1]
    (gh, gw, _), (ch, cw, _) = sizes[0]
    assert (gw, gh) == (160, 90) and (cw, ch) == (20, 11)  # 220 shapes before merging


def test_two_regions_with_texture_become_two_flat_washes(pipeline):
    """A textured left half and a textured right half of other colour: the shapes lay each
    as one wash (their texture gone), the border where the halves meet."""
    rng = np.random.default_rng(5)
    h, w = 288, 512
    lum = np.where(np.arange(w)[None, :] < w // 2, 35.0, 70.0) + rng.normal(0, 6, (h, w))
    p = pipeline(SHAPES)
    p.render_array(_lab_of(lum))
    shapes = p.read_target("shapes_t")[..., 0]  # half size
    left, right = shapes[8:-8, 8:w // 4 - 8], shapes[8:-8, w // 4 + 8:-8]
    assert abs(left.mean() - 35.0) < 3 and abs(right.mean() - 70.0) < 3
    assert left.std() < 0.1 * 6.0 and right.std() < 0.1 * 6.0  # the photo's texture: 6 L*
    # the border: within two texels of the halves' at every row
    step = np.argmax(shapes[:, w // 4 - 10:w // 4 + 10] > 52.5, axis=1) + w // 4 - 10
    assert np.abs(step - w // 4).max() <= 2


def test_a_ramp_is_one_graded_wash_not_bands(pipeline):
    """A smooth ramp of light is laid as graded washes that follow it (each shape's slope),
    not as flat bands."""
    h, w = 288, 512
    lum = np.repeat(np.linspace(20.0, 80.0, w)[None, :], h, axis=0)
    p = pipeline(SHAPES)
    p.render_array(_lab_of(lum))
    shapes = p.read_target("shapes_t")[16:-16, 16:-16, 0]
    want = p.read_target("abstract_t")[16:-16, 16:-16, 0]
    err = np.abs(shapes - want)
    assert err.mean() < 1.0 and err.max() < 3.0  # a flat shape per cell: up to 3.75 off
    assert (np.diff(shapes.mean(axis=0)) > -0.05).all()  # no steps back: no bands


@pytest.mark.parametrize("size", [(701, 501)])
def test_shapes_are_the_same_in_tiles(pipeline, size):
    """The seeds are made once for the whole picture and read whole by the tiles' passes
    (input "whole"): tiled and untiled paint the same shapes."""
    picture = photo(*size, seed=2)
    p = pipeline({"shapes": 1.0})
    whole = p.render_array(picture)
    tiles = TiledStill(p, size, max_tile_px=200_000)
    assert "shape_lab" in tiles.plan.bridges
    assert tiles.plan.whole_reads == {"shape_lab", "shape_seeds", "shape_washes",
                                      "shape_planes", "beard_own"}  # (and a face's beard)
    d = _diff(tiles.render(picture), whole)
    assert d.max() <= 32 and (d > 2).sum() <= 20 and d.mean() < 0.01
