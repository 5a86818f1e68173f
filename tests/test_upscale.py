"""Super-resolution: the learned filters (training, numpy reference), the upscale style's
passes on the GPU against references, EASU and RCAS properties, factors, and exports."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
import skimage.data

from aquarelle.resources import assets_dir
from aquarelle.upscale import learned
from aquarelle.upscale.learned import Filters, halve, luma, psnr_y, train, upscale_luma

FILTERS = assets_dir() / "upscale" / "filters_x2.npy"


def shipped() -> Filters:
    return Filters.from_texture(np.load(FILTERS))


def photo_luma(name: str, size: int = 128) -> np.ndarray:
    img = getattr(skimage.data, name)().astype(np.float64) / 255.0
    y = luma(img) if img.ndim == 3 else img
    return y[:size, :size]


# -- training --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny() -> Filters:
    """A tiny retraining: three photos, few samples (a couple of seconds)."""
    return train([photo_luma(n, 160) for n in ("astronaut", "camera", "brick")],
                 samples_per_image=6000, seed=1)


def test_a_tiny_training_beats_bicubic_on_a_held_out_photo(tiny):
    hr = photo_luma("chelsea", 200)
    lr = halve(hr)
    bicubic = cv2.resize(lr, (hr.shape[1], hr.shape[0]), interpolation=cv2.INTER_CUBIC)
    assert psnr_y(hr, upscale_luma(lr, tiny)) > psnr_y(hr, bicubic) + 0.1


def test_training_is_reproducible():
    imgs = [photo_luma("camera", 64)]
    a = train(imgs, samples_per_image=2000, seed=3)
    b = train(imgs, samples_per_image=2000, seed=3)
    np.testing.assert_array_equal(a.weights, b.weights)
    np.testing.assert_array_equal(a.thresholds, b.thresholds)


def test_weights_file_round_trips_and_is_small():
    tex = np.load(FILTERS)
    assert tex.dtype == np.float16 and FILTERS.stat().st_size < 64 * 1024
    f = Filters.from_texture(tex)
    np.testing.assert_array_equal(f.to_texture(), tex)
    with pytest.raises(ValueError):
        Filters.from_texture(tex[:-1])


def test_shipped_filters_beat_bicubic_on_held_out_photos():
    gains = []
    for name in ("chelsea", "immunohistochemistry"):
        hr = photo_luma(name, 256)
        lr = halve(hr)
        bicubic = cv2.resize(lr, (hr.shape[1], hr.shape[0]), interpolation=cv2.INTER_CUBIC)
        gains.append(psnr_y(hr, upscale_luma(lr, shipped())) - psnr_y(hr, bicubic))
    assert min(gains) > 0.2 and np.mean(gains) > 0.5


def test_filters_keep_flat_areas_flat():
    # Every filter's taps sum to about 1: a constant stays that constant.
    sums = shipped().weights.sum(-1)
    assert np.abs(sums - 1.0).max() < 0.02
    out = upscale_luma(np.full((8, 10), 0.4), shipped())
    np.testing.assert_allclose(out, 0.4, atol=0.01)


# -- the style on the GPU -----------------------------------------------------------------------

def test_learned_pass_matches_the_numpy_reference(pipeline):
    rgb = (skimage.data.chelsea()[60:124, 100:180]).copy()
    p = pipeline({"method": "learned", "factor": 2.0}, style="upscale")
    out = p.render_array(rgb)
    assert out.shape == (128, 160, 3)
    y_gpu = luma(out / 255.0)
    y_ref = np.clip(upscale_luma(luma(rgb / 255.0), shipped()), 0, 1)
    d = np.abs(y_gpu - y_ref)
    # 8-bit output; a pixel on a bucket boundary may pick the neighbouring filter in float32
    assert np.median(d) < 1.0 / 255 and np.percentile(d, 99.5) < 3.0 / 255


def test_learned_beats_bilinear_and_easu_on_the_gpu(pipeline):
    hr = skimage.data.chelsea()[:256, :384]
    lr = halve(hr)
    y = luma(hr / 255.0)
    scores = {}
    for method in ("learned", "easu"):
        out = pipeline({"method": method}, style="upscale").render_array(lr)
        scores[method] = psnr_y(y, luma(out / 255.0))
    bilinear = cv2.resize(lr, (hr.shape[1], hr.shape[0]), interpolation=cv2.INTER_LINEAR)
    assert scores["learned"] > scores["easu"] > psnr_y(y, luma(bilinear / 255.0))


@pytest.mark.parametrize("method", ["learned", "easu"])
@pytest.mark.parametrize("factor, size", [(1.0, (40, 30)), (1.5, (60, 45)), (2.0, (80, 60)),
                                          (3.0, (120, 90)), (4.0, (160, 120))])
def test_factor_sets_the_output_size(pipeline, method, factor, size):
    p = pipeline({"method": method, "factor": factor}, style="upscale")
    img = np.full((30, 40, 3), (200, 120, 40), np.uint8)
    out = p.render_array(img)
    assert (out.shape[1], out.shape[0]) == size == p.output_size((40, 30))
    np.testing.assert_allclose(out.reshape(-1, 3).mean(0), (200, 120, 40), atol=1.5)


def test_easu_keeps_edges_sharper_than_bilinear_without_overshoot(pipeline):
    img = np.zeros((32, 32, 3), np.uint8)
    img[:, 16:] = 200  # a vertical edge
    out = pipeline({"method": "easu"}, style="upscale").render_array(img)[..., 0].astype(float)
    bil = cv2.resize(img, (64, 64), interpolation=cv2.INTER_LINEAR)[..., 0].astype(float)
    assert out.min() >= 0 and out.max() <= 200  # clamped to the neighbours: no ringing
    assert np.abs(np.diff(out[32])).max() > np.abs(np.diff(bil[32])).max()


def test_rcas_sharpens_within_the_neighbours_range(pipeline):
    rng = np.random.default_rng(0)
    img = cv2.GaussianBlur(rng.integers(0, 255, (40, 40, 3)).astype(np.uint8), (0, 0), 2)
    soft = pipeline({"factor": 1.0}, style="upscale").render_array(img).astype(float)
    sharp = pipeline({"factor": 1.0, "sharpen": 1.0}, style="upscale").render_array(img)
    sharp = sharp.astype(float)
    lap = [np.abs(cv2.Laplacian(x, cv2.CV_64F)).mean() for x in (soft, sharp)]
    assert lap[1] > lap[0] * 1.1
    assert sharp.min() >= 0 and sharp.max() <= 255


def test_antiring_keeps_the_learned_result_inside_its_neighbours(pipeline):
    img = np.zeros((24, 24, 3), np.uint8)
    img[8:16, 8:16] = 255
    ringing = pipeline({"antiring": 0.0}, style="upscale").render_array(img).astype(int)
    clamped = pipeline({"antiring": 1.0}, style="upscale").render_array(img).astype(int)
    assert clamped.min() >= 0 and clamped.max() <= 255
    # next to the square, on the dark side, the clamp removes any undershoot-halo energy
    assert np.abs(clamped[2:6, 2:6]).sum() <= np.abs(ringing[2:6, 2:6]).sum()


# -- everywhere a picture is enlarged ---------------------------------------------------------

def test_draft_with_the_learned_upscaler_is_closer_to_full_scale_than_bilinear(pipeline):
    from conftest import rings, smooth_noise, to_u8

    img = to_u8(0.6 * smooth_noise(128, 192, seed=3, sigma=3.0)
                + 0.4 * rings(128, 192, period=20.0))
    full = pipeline().render_array(img).astype(float)
    learned_out = pipeline(scale=0.5).render_array(img).astype(float)
    half = pipeline(scale=0.5)
    half.render_array(img)
    small = half.read_target("result")[..., :3] * 255.0
    bilinear = cv2.resize(small, (192, 128), interpolation=cv2.INTER_LINEAR)

    def psnr(a: np.ndarray, b: np.ndarray) -> float:
        return 10 * math.log10(255.0 ** 2 / np.mean((a - b) ** 2))

    assert psnr(full, learned_out) > psnr(full, bilinear)


def test_layout_constants_match_the_shader():
    src = (Path(__file__).resolve().parents[1] / "shaders" / "upscale" /
           "learned_x2.frag").read_text()
    assert f"const int ANGLES = {learned.ANGLES};" in src
    assert learned.STRENGTHS == learned.COHERENCES == 3 and learned.WINDOW == 6
