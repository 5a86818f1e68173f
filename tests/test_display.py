"""The window's display of a picture: smaller than 1:1 it is the picture shrunk as INTER_AREA
shrinks it (an area average, not a sample per screen pixel); at 1:1 it is the picture."""

from __future__ import annotations

import cv2
import moderngl
import numpy as np
from skimage import data

from aquarelle.ui.display import DisplayRenderer
from aquarelle.ui.view_transform import Rect

W, H = 1600, 1200


def grainy_photo() -> np.ndarray:
    """A photo with fine, high-contrast detail: a painting's paper grain, one texel fine."""
    photo = cv2.resize(data.chelsea(), (W, H), interpolation=cv2.INTER_CUBIC).astype(np.int16)
    grain = np.random.default_rng(7).integers(-60, 61, (H, W, 1), dtype=np.int16)
    return np.clip(photo + grain, 0, 255).astype(np.uint8)


def drawn(ctx: moderngl.Context, img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`img` drawn over a whole view of `size` (RGB, top row first)."""
    display = DisplayRenderer(ctx)
    tex = ctx.texture((img.shape[1], img.shape[0]), 3, np.ascontiguousarray(img), alignment=1)
    fbo = ctx.simple_framebuffer(size, components=4)
    try:
        display.begin(fbo, size)
        display.draw(tex, Rect(0, 0, size[0], size[1]), size)
        pixels = np.frombuffer(fbo.read(components=3, alignment=1), np.uint8)
        # (framebuffer rows run bottom-up)
        return pixels.reshape(size[1], size[0], 3)[::-1]
    finally:
        for obj in (fbo, tex):
            obj.release()
        display.release()


def detail(img: np.ndarray) -> float:
    """Fine-detail energy: the mean absolute Laplacian."""
    return float(np.abs(cv2.Laplacian(img.astype(np.float32), cv2.CV_32F)).mean())


def test_a_picture_drawn_at_an_eighth_is_the_picture_shrunk_by_area(gl_ctx) -> None:
    """At 1/8 (a big photo at fit) the view was one linear sample per screen pixel: the grain
    aliased to speckle, mean 13.8 levels off INTER_AREA here with 3x its fine detail (3.6 and
    1.7x in a trial's 4000x3000 photo at 11%); now 0.5 (max 1) and 1.0x."""
    img = grainy_photo()
    size = (W // 8, H // 8)
    shown = drawn(gl_ctx, img, size)
    area = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
    diff = np.abs(shown.astype(np.int16) - area.astype(np.int16))
    assert diff.mean() < 1.0 and diff.max() <= 2, (diff.mean(), diff.max())
    assert detail(shown) < 1.05 * detail(area), (detail(shown), detail(area))


def test_a_picture_drawn_at_another_size_below_1_1_is_close_to_inter_area(gl_ctx) -> None:
    """At 0.3 (a footprint of 3.3 texels, not a whole number) too (it was 15.8 off)."""
    img = grainy_photo()
    size = (480, 360)
    shown = drawn(gl_ctx, img, size)
    area = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
    diff = np.abs(shown.astype(np.int16) - area.astype(np.int16))
    assert diff.mean() < 1.0 and diff.max() <= 2, (diff.mean(), diff.max())
    assert detail(shown) < 1.05 * detail(area), (detail(shown), detail(area))


def test_a_picture_drawn_at_1_1_is_the_picture(gl_ctx) -> None:
    img = np.ascontiguousarray(grainy_photo()[:300, :400])
    np.testing.assert_array_equal(drawn(gl_ctx, img, (400, 300)), img)


def test_averaged_only_below_1_1() -> None:
    from aquarelle.ui.display import averaged

    assert [averaged((f, f), False) for f in (0.25, 1.0, 1.5, 8.0)] == \
        [False, False, True, True]
    assert not averaged((8.0, 8.0), True)  # (pixelated: magnified)
