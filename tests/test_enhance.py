"""The `enhance` style: GPU histograms (scatter passes with additive blending) against
cv2.equalizeHist and cv2.createCLAHE, colour kept through YCrCb, grey-world white balance,
statistics eased over video frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import skimage.data
from conftest import smooth_noise, to_u8

RAW = {"amount": 1.0, "white_balance": 0.0, "smoothing": 0.0, "gamma": 1.0}


def _grey(scale: float = 0.4, size: int = 128) -> np.ndarray:
    g = cv2.cvtColor(skimage.data.astronaut(), cv2.COLOR_RGB2GRAY)
    g = cv2.resize(g, (size, size), interpolation=cv2.INTER_AREA)
    return (g * scale).astype(np.uint8)  # underexposed: a narrow histogram


def _rgb(g: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.repeat(g[..., None], 3, axis=2))


def test_global_equalization_matches_opencv_exactly(pipeline):
    g = _grey()
    p = pipeline({**RAW, "equalize": "global"}, style="enhance")
    out = p.render_array(_rgb(g))
    assert np.array_equal(out[..., 0], cv2.equalizeHist(g))
    assert np.array_equal(out[..., 0], out[..., 1])


@pytest.mark.parametrize("clip, tiles", [(2.0, 8), (4.0, 4), (1.5, 2)])
def test_clahe_matches_opencv(pipeline, clip, tiles):
    g = _grey()
    p = pipeline({**RAW, "equalize": "clahe", "clip_limit": clip, "tiles": tiles},
                 style="enhance")
    out = p.render_array(_rgb(g))[..., 0].astype(int)
    ref = cv2.createCLAHE(clipLimit=clip, tileGridSize=(tiles, tiles)).apply(g).astype(int)
    # the same tables; the bilinear blend between tiles rounds once in float32 on both
    # sides, but not in the same order: at most one level apart, on under 2% of pixels
    diff = np.abs(out - ref)
    assert diff.max() <= 1
    # GPUs approximate the division and round the 8-bit store less exactly: NVIDIA 3.8%.
    assert (diff > 0).mean() < 0.05


def test_colour_equalized_through_ycrcb_like_opencv(pipeline):
    img = cv2.resize(skimage.data.astronaut(), (128, 128), interpolation=cv2.INTER_AREA)
    img = (img * 0.45).astype(np.uint8)
    p = pipeline({**RAW, "equalize": "global"}, style="enhance")
    out = p.render_array(img).astype(int)
    ycc = cv2.cvtColor(img, cv2.COLOR_RGB2YCrCb)
    ycc[..., 0] = cv2.equalizeHist(ycc[..., 0])
    ref = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB).astype(int)
    # OpenCV rounds Cr/Cb to 8 bits before converting back; the shader keeps them in float
    diff = np.abs(out - ref)
    assert diff.max() <= 3
    assert diff.mean() < 0.6


def test_large_pictures_are_sampled_and_still_equalized(pipeline):
    """Above 512x512 the histogram counts every k-th pixel: the tables barely move."""
    g = cv2.resize(_grey(), (1280, 720), interpolation=cv2.INTER_CUBIC)
    p = pipeline({**RAW, "equalize": "global"}, style="enhance")
    out = p.render_array(_rgb(g))[..., 0].astype(int)
    ref = cv2.equalizeHist(g).astype(int)
    assert np.abs(out - ref).mean() < 1.0
    assert np.abs(out - ref).max() <= 4


def _spread(a: np.ndarray) -> float:
    """How far the mean colour (linear light) is from grey, relative to its level."""
    m = ((a / 255.0) ** 2.2).reshape(-1, 3).mean(axis=0)
    return float((m.max() - m.min()) / m.mean())


def test_white_balance_neutralizes_a_colour_cast(pipeline):
    grey = 0.25 + 0.5 * smooth_noise(96, 96, seed=3, sigma=3.0)[..., :1]  # a neutral scene
    cast = to_u8(np.clip(grey * np.array([1.2, 1.0, 0.8]), 0, 1))  # under warm light
    p = pipeline({**RAW, "equalize": "none", "white_balance": 1.0}, style="enhance")
    out = p.render_array(cast).astype(float)
    assert _spread(cast.astype(float)) > 0.5
    assert _spread(out) < 0.03  # neutral, up to 8-bit rounding and the sRGB curve
    half = pipeline({**RAW, "equalize": "none", "white_balance": 0.5}, style="enhance")
    assert 0.03 < _spread(half.render_array(cast).astype(float)) < _spread(cast.astype(float))
    # a strong cast on a colourful photo: gains are limited to 0.5..2, still closer to grey
    img = cv2.resize(skimage.data.astronaut(), (96, 96), interpolation=cv2.INTER_AREA)
    photo = np.clip(img.astype(float) * [1.25, 1.0, 0.7], 0, 255).astype(np.uint8)
    assert _spread(p.render_array(photo).astype(float)) < 0.8 * _spread(photo.astype(float))


def test_defaults_rescue_an_underexposed_picture(pipeline):
    img = cv2.resize(skimage.data.astronaut(), (128, 128), interpolation=cv2.INTER_AREA)
    dark = (img * 0.3).astype(np.uint8)
    out = pipeline(style="enhance").render_array(dark).astype(float)
    y_dark, y_out, y_ref = (cv2.cvtColor(a.astype(np.uint8), cv2.COLOR_RGB2GRAY).astype(float)
                            for a in (dark, out, img))
    assert y_out.mean() > 1.8 * y_dark.mean()
    assert y_out.std() > 1.8 * y_dark.std()
    # the picture is still the picture: structure kept
    assert np.corrcoef(y_out.ravel(), y_ref.ravel())[0, 1] > 0.85


def test_video_statistics_are_eased_and_reset_at_a_cut(pipeline):
    g = _grey()
    bright = np.clip(g.astype(int) * 2, 0, 255).astype(np.uint8)
    p = pipeline({**RAW, "equalize": "global", "smoothing": 0.9}, style="enhance")
    first = p.render_array(_rgb(g))
    eased = p.render_array(_rgb(g))  # same frame: the same tables
    assert np.array_equal(first, eased)
    # a sudden change is followed gradually (the previous tables kept at 90%)
    jump = p.render_array(_rgb(bright))[..., 0].astype(float)
    direct = cv2.equalizeHist(bright).astype(float)
    assert np.abs(jump - direct).mean() > 5.0
    p.reset_history()  # a cut: no easing
    assert np.array_equal(p.render_array(_rgb(bright))[..., 0], cv2.equalizeHist(bright))
