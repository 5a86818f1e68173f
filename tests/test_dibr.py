"""Depth-image-based rendering (shaders/stereo/dibr.frag) and the one-tap shift baseline
(shaders/stereo/naive_shift.frag) on small synthetic scenes: planes shift exactly, a near
square occludes a far textured background without smears, holes are filled from the
background, u_shift = 0 is the identity, symmetric views move opposite ways."""

from __future__ import annotations

import math

import moderngl
import numpy as np
import pytest

from aquarelle.engine.frame_info import FrameInfo
from aquarelle.engine.graph import PassGraph
from aquarelle.eval.view_synthesis import view_style

DIBR = "stereo/dibr.frag"
NAIVE = "stereo/naive_shift.frag"
SQUARE = (255, 0, 255)  # the near square's colour: the background never comes near it


def synth(ctx: moderngl.Context, shader: str, image: np.ndarray, disparity: np.ndarray,
          shift: float, max_shift: float | None = None) -> np.ndarray:
    """The new view (h, w, 3) uint8 of an (h, w, 3) uint8 picture and its float disparity
    (same size or smaller)."""
    h, w = image.shape[:2]
    if max_shift is None:
        max_shift = math.ceil(abs(shift) * float(np.abs(disparity).max()))
    rgba = np.dstack([image, np.full((h, w), 255, np.uint8)])
    src = ctx.texture((w, h), 4, np.ascontiguousarray(rgba).tobytes(), alignment=1)
    dh, dw = disparity.shape
    disp = ctx.texture((dw, dh), 1, np.ascontiguousarray(disparity, np.float32).tobytes(),
                       dtype="f4", alignment=4)
    graph = PassGraph(ctx, view_style(shader))
    try:
        graph.run(FrameInfo(source=src, work_size=(w, h), seed=0, frame=0, scale=1.0,
                            externals={"disparity": disp}),
                  {"shift": float(shift), "max_shift": float(max_shift)})
        out = graph.output()
        return np.frombuffer(out.read(alignment=1), np.uint8).reshape(h, w, 4)[:, :, :3].copy()
    finally:
        graph.release()
        src.release()
        disp.release()


def texture(h: int, w: int, seed: int = 0, top: int = 200) -> np.ndarray:
    """Random colour texture, every channel in 0..top (far from SQUARE)."""
    return np.random.default_rng(seed).integers(0, top + 1, (h, w, 3), dtype=np.uint8)


def diff(a: np.ndarray, b: np.ndarray) -> int:
    return int(np.abs(a.astype(int) - b.astype(int)).max())


def is_square(img: np.ndarray) -> np.ndarray:
    return (img[..., 0] > 220) & (img[..., 1] < 35) & (img[..., 2] > 220)


def square_scene(h: int = 32, w: int = 64, near: float = 10.0, far: float = 2.0,
                 box: tuple[int, int, int, int] = (8, 24, 24, 40)):
    """A near flat square (rows y0..y1, columns x0..x1) over a far textured background."""
    y0, y1, x0, x1 = box
    img = texture(h, w, seed=3)
    img[y0:y1, x0:x1] = SQUARE
    disp = np.full((h, w), far, np.float32)
    disp[y0:y1, x0:x1] = near
    return img, disp


# -- a fronto-parallel plane ---------------------------------------------------------------
@pytest.mark.parametrize("d, shift", [(5.0, 1.0), (6.0, -0.5), (2.5, 1.0), (3.0, 0.5)])
def test_plane_shifts_exactly(gl_ctx, d, shift):
    """Constant disparity: the view is the picture moved by shift * d (linear interpolation
    at a half pixel); interior within 1 level, for dibr and the naive shift alike."""
    h, w = 12, 48
    img = texture(h, w, seed=1, top=255)
    disp = np.full((h, w), d, np.float32)
    s = shift * d  # output x reads source x + s
    lo, hi = math.floor(s), math.ceil(s)
    frac = s - lo
    xs = np.arange(w)
    inner = (xs + lo >= 0) & (xs + hi <= w - 1)
    ref = ((1 - frac) * img[:, np.clip(xs + lo, 0, w - 1)].astype(float)
           + frac * img[:, np.clip(xs + hi, 0, w - 1)].astype(float))
    ref = np.round(ref)
    for shader in (DIBR, NAIVE):
        out = synth(gl_ctx, shader, img, disp, shift)
        assert diff(out[:, inner], ref[:, inner]) <= 1, shader


def test_plane_with_smaller_disparity_map(gl_ctx):
    """A disparity map at half size is read at normalized coordinates: the same shift."""
    h, w = 12, 48
    img = texture(h, w, seed=2, top=255)
    out = synth(gl_ctx, DIBR, img, np.full((h // 2, w // 2), 4.0, np.float32), 1.0)
    assert diff(out[:, : w - 4], img[:, 4:]) <= 1


# -- occlusion and disocclusion --------------------------------------------------------------
def test_near_square_over_far_background(gl_ctx):
    """The square moves by its disparity, the background by its own; the band the square
    uncovers holds background texture colours (each one a background pixel of that row, so
    neither the square's colour nor a blend of both); the square's colour appears nowhere
    outside its new place."""
    h, w, near, far = 32, 64, 10, 2
    y0, y1, x0, x1 = 8, 24, 24, 40
    img, disp = square_scene(h, w, near, far, (y0, y1, x0, x1))
    out = synth(gl_ctx, DIBR, img, disp, 1.0)

    new = np.zeros((h, w), bool)
    new[y0:y1, x0 - near: x1 - near] = True
    assert (out[new] == SQUARE).all()  # the square, moved by 10, exactly
    assert not is_square(out[~new]).any()  # and its colour nowhere else

    # The background outside the square's rows: moved by 2 (the last 2 columns are the
    # border the view moved in from).
    rows = np.r_[0:y0, y1:h]
    assert diff(out[rows, : w - far], img[rows, far:]) <= 1
    # In the square's rows: left of the square and right of the uncovered band.
    assert diff(out[y0:y1, : x0 - near], img[y0:y1, far: x0 - near + far]) <= 1
    band = slice(x1 - near, x1 - far)  # [30, 38): seen by the new view only
    assert diff(out[y0:y1, x1 - far: w - far], img[y0:y1, x1:]) <= 1

    for y in range(y0, y1):
        row_bg = np.concatenate([img[y, :x0], img[y, x1:]]).astype(int)  # (n, 3)
        for x in range(band.start, band.stop):
            nearest = np.abs(row_bg - out[y, x].astype(int)).max(axis=1).min()
            assert nearest <= 1, (y, x, out[y, x])


def test_occluder_is_interpolated_over_what_it_hides(gl_ctx):
    """A textured near square at a half-pixel disparity over a far background that also
    crosses those output pixels: the nearer crossing wins, colour interpolated at the
    crossing (the mean of the two source pixels it falls between), within 1 level."""
    h, w, near, far = 24, 64, 7.5, 1.5
    img = texture(h, w, seed=7, top=255)
    disp = np.full((h, w), far, np.float32)
    disp[6:18, 24:40] = near
    out = synth(gl_ctx, DIBR, img, disp, 1.0)
    xs = np.arange(17, 32)  # reads source x + 7.5: between x + 7 and x + 8, both square
    ref = np.round((img[6:18, xs + 7].astype(float) + img[6:18, xs + 8]) / 2)
    assert diff(out[6:18, xs], ref) <= 1


def test_disocclusion_fill_uses_the_far_side(gl_ctx):
    """Holes take the farther surface's colours: a near square in front of a far flat
    background of one colour fills its uncovered band with that colour, for either
    direction of shift (the band is right of the square for +1, left of it for -1)."""
    h, w = 24, 56
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (40, 120, 60)
    img[6:18, 20:32] = SQUARE
    disp = np.full((h, w), 1.0, np.float32)
    disp[6:18, 20:32] = 9.0
    for shift, band in ((1.0, slice(23, 31)), (-1.0, slice(21, 29))):
        out = synth(gl_ctx, DIBR, img, disp, shift)
        assert (out[6:18, band] == (40, 120, 60)).all(), shift
        square = is_square(out)
        assert square.sum() == 12 * 12, shift


def test_thin_near_wire_survives(gl_ctx):
    """A one-pixel-wide near structure (no continuous neighbour) still lands, and hides
    what is behind it."""
    h, w = 8, 48
    img = texture(h, w, seed=4)
    img[:, 30] = SQUARE
    disp = np.full((h, w), 1.0, np.float32)
    disp[:, 30] = 7.0
    out = synth(gl_ctx, DIBR, img, disp, 1.0)
    assert (out[:, 23] == SQUARE).all()
    assert is_square(out).sum() == h


# -- identity and symmetric pairs ------------------------------------------------------------
def test_zero_shift_is_identity(gl_ctx):
    h, w = 16, 40
    img = texture(h, w, seed=5, top=255)
    disp = np.random.default_rng(6).choice([0.0, 3.5, 12.0], (h, w)).astype(np.float32)
    out = synth(gl_ctx, DIBR, img, disp, 0.0, max_shift=12.0)
    assert diff(out, img) == 0


def test_symmetric_views_move_opposite_ways(gl_ctx):
    """u_shift = +0.5 / -0.5: the square moves 5 px left / right, the background 1 px."""
    h, w, near, far = 32, 64, 10, 2
    y0, y1, x0, x1 = 8, 24, 24, 40
    img, disp = square_scene(h, w, near, far, (y0, y1, x0, x1))
    cols = {}
    for shift in (0.5, -0.5):
        out = synth(gl_ctx, DIBR, img, disp, shift)
        square = is_square(out)
        assert square.sum() == (y1 - y0) * (x1 - x0), shift
        cols[shift] = np.nonzero(square.any(axis=0))[0]
        step = round(shift * far)  # output x reads source x + step
        rows = np.r_[0:y0, y1:h]
        a, b = max(0, -step), w - max(0, step)
        assert diff(out[rows, a:b], img[rows, a + step: b + step]) <= 1, shift
    assert (cols[0.5][0], cols[0.5][-1]) == (x0 - 5, x1 - 1 - 5)
    assert (cols[-0.5][0], cols[-0.5][-1]) == (x0 + 5, x1 - 1 + 5)


def test_naive_shift_loses_what_dibr_moves(gl_ctx):
    """The baseline reads the disparity at the output position: where the square should
    land it still sees the background's disparity, so half of the moved square is missing
    (background shows through); dibr moves all of it."""
    img, disp = square_scene()
    new = np.zeros(disp.shape, bool)
    new[8:24, 14:30] = True
    naive = is_square(synth(gl_ctx, NAIVE, img, disp, 1.0))
    assert naive[new].mean() < 0.75
    assert is_square(synth(gl_ctx, DIBR, img, disp, 1.0))[new].all()
