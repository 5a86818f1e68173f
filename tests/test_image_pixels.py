"""A painting of a picture laid on paper, written with its alpha (media/image_pixels)."""

from __future__ import annotations

import numpy as np
import pytest

from aquarelle.media.image_pixels import off_paper, on_paper


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_what_is_written_laid_on_white_again_is_the_picture_on_paper(dtype) -> None:
    top = np.iinfo(dtype).max
    rng = np.random.default_rng(3)
    rgb = rng.integers(0, top + 1, (32, 48, 3)).astype(dtype)
    alpha = np.tile(np.linspace(0, top, 48).astype(dtype), (32, 1))
    flat = on_paper(rgb.copy(), alpha)
    written = off_paper(flat, alpha)
    a = alpha[..., None].astype(np.float64) / top
    seen = written * a + top * (1 - a)
    assert np.abs(seen - flat).max() <= 0.5 + 1e-6  # (rounding)
    # the colours under a half-transparency come back (to the rounding of their share)
    half = (alpha > top // 4)[..., None].repeat(3, 2)
    assert np.abs(written.astype(np.int64) - rgb)[half].max() <= 3 * (top // 255)
    np.testing.assert_array_equal(written[alpha == top], rgb[alpha == top])


def test_half_transparent_black_is_written_black() -> None:
    """Written as painted it was grey: 50% black showed 191 on white for the source's 127."""
    rgb = np.zeros((1, 3, 3), np.uint8)
    alpha = np.array([[64, 128, 255]], np.uint8)
    flat = on_paper(rgb.copy(), alpha)
    assert flat[0, :, 0].tolist() == [191, 127, 0]
    assert off_paper(flat, alpha)[0, :, 0].tolist() == [0, 0, 0]
