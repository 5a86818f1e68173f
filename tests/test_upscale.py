"""Super-resolution: the learned filters (training, numpy reference), the upscale style's
passes on the GPU against references, EASU and RCAS properties, factors, and exports."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
import reference as ref
import skimage.data

from aquarelle.engine.frame_info import reference_px
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


@pytest.mark.parametrize("method", ["learned", "easu", "bicubic"])
@pytest.mark.parametrize("factor, size", [(1.0, (40, 30)), (1.5, (60, 45)), (2.0, (80, 60)),
                                          (3.0, (120, 90)), (4.0, (160, 120))])
def test_factor_sets_the_output_size(pipeline, method, factor, size):
    p = pipeline({"method": method, "factor": factor}, style="upscale")
    img = np.full((30, 40, 3), (200, 120, 40), np.uint8)
    out = p.render_array(img)
    assert (out.shape[1], out.shape[0]) == size == p.output_size((40, 30))
    np.testing.assert_allclose(out.reshape(-1, 3).mean(0), (200, 120, 40), atol=1.5)


@pytest.mark.parametrize("size", [(128, 63), (128, 65)])
@pytest.mark.parametrize("method", ["learned", "easu", "bicubic", "bilinear"])
def test_the_engines_enlarger_reaches_a_size_its_factor_only_rounds_to(gl_ctx, method, size):
    # A draft of an odd-sized frame: 640x426 back to 1280x851 (factor 1.9977 rounds to 1278
    # wide): the upscale graph makes exactly that size itself, no resampling pass after it;
    # and the picture reaches every edge (no letterbox bars from the aspect's rounding).
    from aquarelle.engine.upscaler import Upscaler

    up = Upscaler(gl_ctx, method)
    try:
        ramp = np.tile(np.linspace(0, 255, 64, dtype=np.float32), (32, 1))
        img = np.dstack([ramp, ramp[:, ::-1], np.full_like(ramp, 90)]).astype(np.uint8)
        src = gl_ctx.texture((64, 32), 3, np.ascontiguousarray(img).tobytes())
        out = up.upscale(src, size)  # 65 rows: x2 exactly across, a row more down
        assert out.size == size
        assert up.graph is None or out is up.graph.output()
        got = np.frombuffer(out.read(), np.uint8).reshape(size[1], size[0], 4)[..., :3]
        ref = cv2.resize(img, size, interpolation=cv2.INTER_LINEAR)
        diff = np.abs(got.astype(int) - ref)
        assert diff.mean() < 2.0  # the ramp stretched, not shifted
        assert diff[:, [0, -1]].mean() < 4.0 and diff[[0, -1]].mean() < 4.0  # edge to edge
        src.release()
    finally:
        up.release()


def test_easu_keeps_edges_sharper_than_bilinear_without_overshoot(pipeline):
    img = np.zeros((32, 32, 3), np.uint8)
    img[:, 16:] = 200  # a vertical edge
    out = pipeline({"method": "easu"}, style="upscale").render_array(img)[..., 0].astype(float)
    bil = cv2.resize(img, (64, 64), interpolation=cv2.INTER_LINEAR)[..., 0].astype(float)
    assert out.min() >= 0 and out.max() <= 200  # clamped to the neighbours: no ringing
    assert np.abs(np.diff(out[32])).max() > np.abs(np.diff(bil[32])).max()


def _catmull_rom_clamped(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """numpy reference of upscale/bicubic.frag: Catmull-Rom at texel centres (edge texels
    repeated), kept within the range of the 2x2 nearest texels."""
    src = img.astype(np.float64)

    def taps(n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray]:
        pp = (np.arange(n_out) + 0.5) * n_in / n_out - 0.5
        fp = np.floor(pp)
        t = (pp - fp)[:, None]
        w = np.hstack([-0.5 * t ** 3 + t ** 2 - 0.5 * t, 1.5 * t ** 3 - 2.5 * t ** 2 + 1,
                       -1.5 * t ** 3 + 2 * t ** 2 + 0.5 * t, 0.5 * t ** 3 - 0.5 * t ** 2])
        idx = np.clip(fp[:, None].astype(int) + np.arange(-1, 3)[None, :], 0, n_in - 1)
        return w, idx

    (wx, ix), (wy, iy) = taps(src.shape[1], size[0]), taps(src.shape[0], size[1])
    patch = src[iy[:, None, :, None], ix[None, :, None, :]]  # (h, w, 4, 4, c)
    out = np.einsum("yj,xi,yxjic->yxc", wy, wx, patch)
    near = patch[:, :, 1:3, 1:3].reshape(size[1], size[0], 4, -1)
    return np.clip(out, near.min(axis=2), near.max(axis=2))


@pytest.mark.parametrize("factor", [2.0, 1.5])
def test_bicubic_matches_the_numpy_reference(pipeline, factor):
    rng = np.random.default_rng(3)
    img = cv2.GaussianBlur(rng.integers(0, 256, (30, 40, 3)).astype(np.uint8), (0, 0), 1.2)
    img[10:20, 20:] = 250  # an edge: the clamp at work
    out = pipeline({"method": "bicubic", "factor": factor}, style="upscale").render_array(img)
    ref = _catmull_rom_clamped(img, (out.shape[1], out.shape[0]))
    assert np.abs(out - ref).max() <= 1.0  # 8-bit rounding
    # sharper than bilinear at the edge, no overshoot beyond its neighbours
    bil = cv2.resize(img, (out.shape[1], out.shape[0]), interpolation=cv2.INTER_LINEAR)
    row = out.shape[0] // 2
    assert np.abs(np.diff(out[row, :, 0].astype(int))).max() > \
        np.abs(np.diff(bil[row, :, 0].astype(int))).max()


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

def _draft_photo() -> np.ndarray:
    """720 lines: a draft at half scale still paints features at their reference size (below
    360 lines they stop shrinking, and a draft would paint a different picture)."""
    img = skimage.data.astronaut()[:, 16:496]  # a face and a flag: borders of all kinds
    return cv2.resize(img, (1080, 720), interpolation=cv2.INTER_CUBIC)


def _psnr(a: np.ndarray, b: np.ndarray) -> float:
    return 10 * math.log10(255.0 ** 2 / np.mean((a.astype(float) - b.astype(float)) ** 2))


def test_draft_with_the_learned_upscaler_is_closer_to_full_scale_than_bilinear(pipeline):
    img = _draft_photo()
    scores = {}
    # the learned filters enlarge the tones a draft lays; hair along its flow is laid from
    # the strands, which a draft samples plainly: measured without them, then with them
    # (29.14 against 29.04 dB)
    for params in ({"hair_flow": 0.0}, {}):
        full = pipeline(params).render_array(img)
        for method in ("learned", "bilinear"):
            p = pipeline(params, scale=0.5)
            p.upscale_method = method  # bilinear: the abstraction and picture enlarged plainly
            scores[method, bool(params)] = _psnr(full, p.render_array(img))
    assert scores["learned", True] > scores["bilinear", True] + 0.3
    assert scores["learned", False] > scores["bilinear", False]


def _tone_errors(pipeline, img: np.ndarray, params: dict) -> dict[str, float]:
    """The mean L error of a draft's tones and a cheap draft's against the full render's
    averaged over each small texel (after the checks of their targets' sizes). Out of focus
    left out: its map, found on the draft's smaller picture, grades a little elsewhere (the
    first comparison below measured 0.78 with it, over its bound 0.75)."""
    params = {"out_of_focus": 0.0, **params}
    full = pipeline(params)
    full.render_array(img)
    draft = pipeline(params, scale=0.5)
    draft.render_array(img)
    cheap = pipeline(params, scale=0.5)
    cheap.draft_borders = False  # live adaptive quality: all of it at the work size
    cheap.render_array(img)
    # the subject map at the full render's size; the tones, the abstraction and the washes
    # laid from them small (the draft's saving)
    assert draft.read_target("saliency_t").shape == full.read_target("saliency_t").shape
    assert cheap.read_target("saliency_t").shape[0] == full.read_target("saliency_t").shape[0] // 2
    assert full.read_target("quantized").shape[:2] == (360, 540)
    for name in ("quantized", "abstract_t", "painted", "wet_t"):
        assert draft.read_target(name).shape[:2] == (180, 270)
    # the draft's tones are the full render's averaged over each small texel: at least as
    # close to those as the cheap draft's, quantized small (mean L error measured 0.66 and
    # 0.68; 0.69 and 0.92 when tone steps could be sharper than a texel, stair-stepped)
    ref = cv2.resize(full.read_target("quantized")[..., 0], (270, 180),
                     interpolation=cv2.INTER_AREA)
    err = {name: np.abs(p.read_target("quantized")[..., 0] - ref).mean()
           for name, p in (("draft", draft), ("cheap", cheap))}
    return err


def test_a_draft_lays_its_tones_as_the_full_render_does(pipeline):
    img = _draft_photo()
    # the figure's hair and clothes as they were (own detail, not along their flow): the
    # tones' comparison
    err = _tone_errors(pipeline, img, {"figure_shapes": 1.0, "hair_flow": 0.0})
    assert err["draft"] <= err["cheap"] and err["draft"] < 0.75, err
    # laid as shapes (the default), whose seeds a draft's smaller abstraction moves a little:
    # measured 1.11 (the cheap draft 1.09)
    err = _tone_errors(pipeline, img, {"hair_flow": 0.0})
    assert err["draft"] < 1.25, err
    # and drawn out along their flow: the draft's flow, found on a picture half the size,
    # steers the strands' long walks a little elsewhere: measured 1.29 (the cheap draft,
    # which lays neither shapes nor strands, 1.32)
    err = _tone_errors(pipeline, img, {})
    assert err["draft"] < 1.4, err


def test_the_draft_finish_enlarges_the_picture_in_its_own_pass(pipeline):
    import dataclasses

    img = _draft_photo()[:360, :540]
    one = pipeline(scale=0.5)
    one.stages[0]._finish.profile = True  # records which passes ran
    out = one.render_array(img)
    # the same draft enlarged first (the upscale style's bicubic pass), then finished at size:
    # the finish's `!resampling` pass then runs instead of its enlarging one
    two = pipeline(scale=0.5)
    two.stages[0].style = dataclasses.replace(two.style, draft_finish_enlarges=None)
    two.stages[0]._finish.profile = True
    ref = two.render_array(img)
    assert set(one.stages[0]._finish.pass_ns) == {"paper", "paper_finish_up"}
    assert set(two.stages[0]._finish.pass_ns) == {"paper", "paper_finish"}
    assert out.shape == ref.shape == img.shape
    # one 8-bit rounding fewer; otherwise the same picture
    assert np.abs(out.astype(int) - ref).max() <= 2
    assert _psnr(out, ref) > 50


@pytest.mark.parametrize("borders", [True, False])
def test_a_draft_of_a_small_frame_paints_the_same_picture_smaller(pipeline, borders):
    # 400 lines: the draft's 200 lines are below the size where a style's features stop
    # shrinking (a thumbnail's); a draft still sizes them in proportion to its frame, so
    # the picture is the full render's, softer: measured 31.4 dB, and 31.2 for the cheap
    # draft of live adaptive quality (borders at the work size too); 33.0 and 32.5 before the
    # darks were kept from the dilution (the same offsets cost more next to deeper darks);
    # a hard border a fraction of a pixel off costs more than a soft one; 26.4 with a
    # thumbnail's sizes.
    img = cv2.cvtColor(cv2.imread(str(assets_dir() / "demo" / "coffee.jpg")), cv2.COLOR_BGR2RGB)
    assert img.shape[0] == 400
    # (the paper margins off: a draft lays the paper's tooth at its own size, which shows on
    # their bare paper: 29.3 dB with them)
    full = pipeline({"margins": 0.0}).render_array(img)
    p = pipeline({"margins": 0.0}, scale=0.5)
    p.draft_borders = borders
    assert _psnr(full, p.render_array(img)) > (30.5 if borders else 30.0)


def _tones_reference(p, small: np.ndarray, full_size: tuple[int, int], work_width: int,
                     learned_l: bool) -> np.ndarray:
    """numpy twin of draft_tones.frag: each small texel's 2x2 sub-pixels (L from the learned
    x2 filters, anti-ringing clamped, or bilinear; a, b bilinear) quantized as tones.glsl
    does, then averaged."""
    v = p.params.values()
    h, w = small.shape[:2]
    centre = {n: cv2.resize(p.read_target(t), (w, h), interpolation=cv2.INTER_LINEAR)
              for n, t in (("coarse", "coarse"), ("wash", "wash"), ("sal", "focus_t"))}
    centre["sal"] = centre["sal"][..., 0]  # the focus (without a subject: the saliency)
    big = cv2.resize(small[..., :3], (2 * w, 2 * h), interpolation=cv2.INTER_LINEAR)
    big = big.astype(np.float64)
    if learned_l:
        lo_l = small[..., 0].astype(np.float64) / 100.0
        taps, _ = learned.windows(lo_l)
        near = taps[..., [14, 15, 20, 21]]  # the 2x2 nearest inputs: the anti-ringing range
        big[..., 0] = 100.0 * np.clip(upscale_luma(lo_l, shipped()), near.min(-1), near.max(-1))

    def up(a: np.ndarray) -> np.ndarray:  # a texel's value to its four sub-pixels
        return np.repeat(np.repeat(np.asarray(a, np.float64), 2, axis=0), 2, axis=1)

    subject = up(v["detail"] * centre["sal"])
    if subject.ndim == 3:
        subject = subject[..., 0]
    lab = up(centre["coarse"][..., :3]) * (1 - (0.4 + 0.6 * subject[..., None])) + \
        big * (0.4 + 0.6 * subject[..., None])
    pad = np.pad(small[..., 0].astype(np.float64), 1, mode="edge")
    g = np.hypot(pad[1:-1, 2:] - pad[1:-1, :-2], pad[2:, 1:-1] - pad[:-2, 1:-1]) * 0.5
    # the draft's work px per reference px: its frame's, in proportion
    px = reference_px(p.style, full_size) * work_width / full_size[0]
    slope = up(ref.TONE_SLOPE * g * 0.5 * px)  # per reference px (the target at half size)
    sharp = v["quantize_sharpness"] * (0.04 + 0.96 * ref.smoothstep(0.2, 1.5, slope))
    sharp = np.minimum(sharp, ref.step_limit(0.5 * (0.4 + 0.6 * subject) * up(g)))
    n = v["quantize_levels"]
    x = lab[..., 0] / 100.0 + v["tremor"] * 2.5 * (up(centre["wash"][..., 3]) - 0.5) / n
    qn = np.floor(x * n + 0.5) / n
    q = qn + (ref.smoothstep(-2.0, 2.0, sharp * 100.0 * (x - qn)) - 0.5) / n
    q = q + (lab[..., 0] / 100.0 - q) * 0.5 * subject
    thr = 1.0 - 0.25 * v["highlights"] * (1.0 - 0.6 * subject)
    soft = 0.5 / (sharp * 25.0)
    bare = ref.smoothstep(thr - soft, thr + soft, x) if v["highlights"] > 0 else 0.0 * x
    q = np.clip(q, 0.0, 1.0) * (1 - bare) + bare
    gain = ref.chroma_gain(lab, v["saturation"], v["skin_saturation"])
    tones = np.dstack([q * 100.0, lab[..., 1:3] * (gain * (1.0 - bare))[..., None]])
    tones = ref.palette_tone(tones, up(centre["coarse"][..., 0]), 0.0, v["palette"],
                             v["temperature"])
    return tones.reshape(h, 2, w, 2, 3).mean(axis=(1, 3))


@pytest.mark.parametrize("method, scale", [("learned", 0.5), ("bilinear", 0.5),
                                           ("learned", 0.75)])
def test_draft_tones_match_the_numpy_reference(pipeline, method, scale):
    img = _draft_photo()
    # a face's own tones: test_portrait; the shadow glaze over the tones: test_glaze
    # (the reference lays the tones' steps by the washes' slope alone: out of focus left out)
    p = pipeline({"subject_aware": False, "glaze": 0.0, "out_of_focus": 0.0}, scale=scale)
    p.upscale_method = method  # bilinear: the plain enlargement, for comparisons
    p.render_array(img)
    got = p.read_target("quantized")[..., :3]
    want = _tones_reference(p, p.read_target("abstract_t"), (img.shape[1], img.shape[0]),
                            round(img.shape[1] * scale), method == "learned")
    d = np.abs(got - want)
    # float16 output; a sub-pixel on a bucket boundary may take the neighbouring filter
    assert np.median(d) < 0.02 and np.percentile(d, 99.5) < 0.5, (np.median(d), d.max())


def test_layout_constants_match_the_shader():
    src = (Path(__file__).resolve().parents[1] / "shaders" / "upscale" /
           "learned.glsl").read_text()
    assert f"const int LEARNED_ANGLES = {learned.ANGLES};" in src
    assert learned.STRENGTHS == learned.COHERENCES == 3 and learned.WINDOW == 6
