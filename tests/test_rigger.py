"""The rigger (rigger.frag, rigger.glsl): thin darks the washes lost drawn back, lights kept."""

from __future__ import annotations

import numpy as np

from aquarelle.engine.renderer import Renderer


def _scene() -> np.ndarray:
    """A flat sky-blue field crossed by a 2 px dark brown mast, with a few 1 px white stars."""
    rgb = np.empty((360, 480, 3), np.uint8)
    rgb[:] = (70, 110, 180)
    rgb[40:320, 239:241] = (60, 40, 25)
    for y, x in ((60, 80), (120, 400), (280, 120)):
        rgb[y, x] = (255, 255, 250)
    return rgb


def _paint(ctx, rgb: np.ndarray, rigger: str) -> np.ndarray:
    p = Renderer(ctx, "watercolor")
    p.set_params({"rigger": rigger, "margins": "0"})
    out = p.render_array(rgb).astype(np.float32)
    p.release()
    return out


def test_a_thin_mast_and_stars_are_drawn_back(gl_ctx) -> None:
    rgb = _scene()
    off, on = _paint(gl_ctx, rgb, "0"), _paint(gl_ctx, rgb, "1")
    luma = lambda a: a @ np.float32([0.2126, 0.7152, 0.0722])  # noqa: E731
    mast = (slice(60, 300), slice(239, 241))
    sky = (slice(60, 300), slice(200, 220))
    # the washes lost most of the mast; the rigger draws it back
    lost = luma(off[sky]).mean() - luma(off[mast]).mean()
    drawn = luma(on[sky]).mean() - luma(on[mast]).mean()
    assert drawn > lost + 15
    # thinner where the dry rigger skips the tooth, never black, and coloured (a pigment's
    # dark, not a grey)
    rows = luma(on[mast]).mean(1)
    assert rows.max() - rows.min() > 8
    assert luma(on[mast]).min() > 25
    assert (on[mast].max(-1) - on[mast].min(-1)).mean() > 8
    # the sky away from the mast and stars untouched
    far = (slice(150, 250), slice(300, 380))
    assert np.abs(on[far] - off[far]).max() <= 2
    # the stars kept near paper
    for y, x in ((60, 80), (120, 400), (280, 120)):
        assert luma(on[y, x]) > luma(off[y, x]) + 40
