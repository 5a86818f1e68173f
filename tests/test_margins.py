"""Paper margins (margins.frag): without a face the painting stops short of the sheet's
borders in a ragged margin of bare paper; it stands on the frame, not on the picture."""

from __future__ import annotations

import numpy as np
import pytest
import skimage.data

PAPER = np.array([0xF7, 0xF2, 0xE6])


def bare(picture: np.ndarray) -> np.ndarray:
    """Where a painting shows bare paper (within 12 levels of the paper colour: its tooth)."""
    return np.abs(picture.astype(int) - PAPER).max(axis=2) <= 12


def band(mask: np.ndarray, k: float) -> np.ndarray:
    """The outer band (k of the short side) of a mask, as a boolean mask of its shape."""
    h, w = mask.shape
    b = max(1, round(k * min(w, h)))
    out = np.ones_like(mask, bool)
    out[b:h - b, b:w - b] = False
    return out


@pytest.fixture(scope="module")
def coffee() -> np.ndarray:
    return skimage.data.coffee()


def test_a_picture_without_a_face_sits_on_the_paper_in_a_ragged_margin(pipeline, coffee):
    out = pipeline().render_array(coffee)
    paper = bare(out)
    outer, inner = band(paper, 0.03), ~band(paper, 0.25)
    assert paper[outer].mean() > 0.6  # the borders left bare (measured 0.97)
    assert paper[inner].mean() < 0.05  # the middle painted, as without margins
    # ragged: the margin's width along the top and bottom borders varies
    cols = [np.argmax(~paper[:, x]) for x in range(0, coffee.shape[1], 8)]
    assert np.std(cols) > 3.0
    plain = bare(pipeline({"margins": 0.0}).render_array(coffee))
    assert plain[outer].mean() < 0.2  # painted to the borders


def test_the_margin_stands_on_the_frame_while_the_picture_pans(pipeline, coffee):
    """Two frames of a pan: the picture moves under a margin that does not (it depends on
    nothing but the frame's size and the seed: an export in chunks draws it alike)."""
    p = pipeline()
    h, w = 300, 400
    edges = []
    for x in (60, 72):
        p.render_array(np.ascontiguousarray(coffee[40:40 + h, x:x + w]))
        edges.append(p.read_target("margins")[..., 0].copy())
    np.testing.assert_array_equal(edges[0], edges[1])
    assert (edges[0] < 0.5).mean() > 0.1  # a margin there is
    p.seed = 7
    p.render_array(np.ascontiguousarray(coffee[40:40 + h, 60:60 + w]))
    assert np.abs(p.read_target("margins")[..., 0] - edges[0]).max() > 0.2  # another seed
