"""The blur kinds (Gaussian, box, lens), motion blur (directional and along the optical
flow) and relief styles against numpy / OpenCV references of the same formulas; every
tolerance is stated where the GPU's float, fp16 or 8-bit rounding differs."""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np
import pytest
import reference as ref
from conftest import to_u8
from test_filters import photo_like

from aquarelle.engine.motion import CUT_THRESHOLD


def err(out: np.ndarray, expected: np.ndarray) -> np.ndarray:
    return np.abs(out.astype(np.float64) - expected)


def assert_close(out: np.ndarray, expected: np.ndarray, max_err: float, exact: float) -> None:
    """`out` (uint8) within `max_err` levels of the float reference everywhere, and equal to
    the reference rounded to 8 bits at a fraction `exact` of the values at least. (Rounding
    alone is up to 0.5 level off, 0.25 on average.)"""
    e = err(out, expected)
    same = float(np.mean(out == np.round(expected)))
    assert e.max() <= max_err, f"max error {e.max():.3f} > {max_err} ({(e > max_err).sum()} values)"
    assert same >= exact, f"only {same:.4f} of the values equal the rounded reference"


def luma_709(img_u8: np.ndarray) -> np.ndarray:
    """common/color.glsl's luma(): Rec. 709 weights on sRGB values in [0, 1]."""
    return img_u8.astype(np.float64) / 255.0 @ np.array([0.2126, 0.7152, 0.0722])


# -- blur: kinds ----------------------------------------------------------------------------

def test_blur_defaults_to_the_gaussian(pipeline):
    img = photo_like()
    p = pipeline(style="blur")
    assert p.params["mode"] == 0 and p.params["sigma"] == 3.0
    expected = ref.gaussian_blur(img.astype(float), 3.0)
    # as test_filters.test_blur_is_a_gaussian: one level of 8-bit rounding
    np.testing.assert_allclose(p.render_array(img).astype(float), expected, atol=1.01)


@pytest.mark.parametrize("radius", [1, 3, 7])
def test_box_blur_matches_opencv(pipeline, radius):
    img = photo_like()
    out = pipeline({"mode": "box", "box_radius": radius}, style="blur").render_array(img)
    k = 2 * radius + 1
    expected = cv2.blur(img.astype(np.float64), (k, k), borderType=cv2.BORDER_REPLICATE)
    # Both replicate the border, so the whole picture is compared (not only its inside).
    # The horizontal pass is kept in fp16 (up to 0.13 level) before the 8-bit rounding
    # (0.5): within 0.75 level of the float reference (measured 0.6), and at least 90% of
    # the values equal to it rounded (measured 95%).
    assert_close(out, expected, max_err=0.75, exact=0.90)


def test_box_radius_zero_leaves_the_picture(pipeline):
    img = photo_like()
    out = pipeline({"mode": "box", "box_radius": 0}, style="blur").render_array(img)
    np.testing.assert_array_equal(out, img)  # exact: an 8-bit value survives fp16


def disc_kernel(radius: float) -> np.ndarray:
    """lens_blur.frag's disc: a tap at distance d weighs clamp(R + 0.5 - d, 0, 1)."""
    n = max(0, math.ceil(radius + 0.5) - 1)
    y, x = np.mgrid[-n:n + 1, -n:n + 1].astype(np.float64)
    k = np.clip(radius + 0.5 - np.hypot(x, y), 0.0, 1.0)
    k[n, n] = 1.0  # the centre: min(R + 0.5, 1); below R = 0.5 the only tap
    return k


def lens_reference(img: np.ndarray, radius: float, boost: float, threshold: float
                   ) -> np.ndarray:
    """Disc convolution in linear light, each pixel weighted by w = 1 + boost * t^2 with
    t = clamp((Y - threshold) / (1 - threshold), 0, 1) (Y: Rec. 709 linear luminance), the
    weighted mean back to sRGB; replicated borders. Returns 8-bit units (float)."""
    lin = ref.srgb_to_linear(img.astype(np.float64) / 255.0)
    y = lin @ np.array([0.2126, 0.7152, 0.0722])
    t = np.clip((y - threshold) / max(1.0 - threshold, 1e-4), 0.0, 1.0)
    w = 1.0 + boost * t * t
    k = disc_kernel(radius)
    num = cv2.filter2D(lin * w[..., None], -1, k, borderType=cv2.BORDER_REPLICATE)
    den = cv2.filter2D(w, -1, k, borderType=cv2.BORDER_REPLICATE)
    return ref.linear_to_srgb(num / den[..., None]) * 255.0


def with_highlights(img: np.ndarray, seed: int = 3, count: int = 12) -> np.ndarray:
    """A picture with a few small near-white spots (street lights, sparkles)."""
    out = img.copy()
    rng = np.random.default_rng(seed)
    for _ in range(count):
        y, x = rng.integers(2, img.shape[0] - 3), rng.integers(2, img.shape[1] - 3)
        out[y - 1:y + 2, x - 1:x + 1] = rng.integers(235, 256, 3)
    return out


@pytest.mark.parametrize("radius, boost, threshold", [
    (0.0, 0.0, 0.6), (2.0, 0.0, 0.6), (4.5, 4.0, 0.6), (7.3, 12.0, 0.3), (12.0, 20.0, 0.8)])
def test_lens_blur_matches_a_disc_convolution(pipeline, radius, boost, threshold):
    img = with_highlights(photo_like())
    out = pipeline({"mode": "lens", "lens_radius": radius, "highlight_boost": boost,
                    "highlight_threshold": threshold}, style="blur").render_array(img)
    expected = lens_reference(img, radius, boost, threshold)
    # The same formula; the weighted linear light is kept in fp16 (relative error 2^-11,
    # under 0.1 level after the sRGB encoding) before the 8-bit rounding (0.5): within
    # 0.75 level of the float reference (measured 0.54), at least 95% of the values equal
    # to it rounded (measured 98%).
    # GPUs may round the fp16 store toward zero and approximate pow(): NVIDIA 94.8% equal.
    assert_close(out, expected, max_err=0.75, exact=0.94)


def test_lens_highlights_spread_into_bright_discs(pipeline):
    """Bokeh: a small light on a dark background becomes a disc of the lens's radius, and
    the boost makes it brighter than a plain disc average; a flat area keeps its colour."""
    img = np.full((64, 112, 3), 30, np.uint8)
    img[31:33, 31:33] = 255
    img[:, 80:] = 200  # a flat bright-ish band
    radius = 8.0

    def lens(boost: float) -> np.ndarray:
        p = pipeline({"mode": "lens", "lens_radius": radius, "highlight_boost": boost,
                      "highlight_threshold": 0.5}, style="blur")
        return p.render_array(img).astype(float)[..., 0]

    plain, boosted = lens(0.0), lens(20.0)
    y, x = np.mgrid[0:64, 0:112]
    r = np.hypot(x - 31.5, y - 31.5)
    inside, outside = r < radius - 1.5, (r > radius + 1.5) & (x < 70)
    assert np.abs(boosted[outside] - 30).max() <= 1  # nothing beyond the disc
    assert boosted[inside].min() > plain[inside].max() + 50  # the boost brightens the disc
    assert np.ptp(boosted[inside]) < 0.1 * (boosted[inside].mean() - 30)  # a flat disc
    # the band beyond the disc's reach from its border keeps its colour, boosted or not
    assert np.abs(boosted[:, 90:] - 200).max() <= 1


def test_blur_kinds_switch_on_one_pipeline(pipeline):
    """The kinds are alternative passes writing the same targets: switching back and forth
    on one pipeline gives what a fresh pipeline of each kind gives, bit for bit."""
    img = photo_like()
    kinds = [{"mode": "gaussian", "sigma": 2.0}, {"mode": "box", "box_radius": 2},
             {"mode": "lens", "lens_radius": 3.0}]
    fresh = [pipeline(v, style="blur").render_array(img) for v in kinds]
    p = pipeline(style="blur")
    for i in (0, 1, 2, 1, 0, 2, 0):
        p.set_params(kinds[i])
        np.testing.assert_array_equal(p.render_array(img), fresh[i])
    assert not np.array_equal(fresh[0], fresh[1]) and not np.array_equal(fresh[1], fresh[2])


# -- motion blur: directional ---------------------------------------------------------------

def line_kernel(length: float, angle_deg: float) -> np.ndarray:
    """filters/line_blur.glsl as a cv2.filter2D kernel: taps one px apart along
    (cos a, -sin a) (rows grow downwards), tap k weighted by its unit cell's overlap
    clamp(len/2 + 0.5 - |k|, 0, 1), each tap a bilinear lookup splatted onto its 4 texels."""
    a = math.radians(angle_deg)
    d = np.array([math.cos(a), -math.sin(a)])
    reach = 0.5 * length + 0.5
    n = max(0, math.ceil(reach) - 1)
    half = n + 2
    k = np.zeros((2 * half + 1, 2 * half + 1))
    for t in range(-n, n + 1):
        w = 1.0 if t == 0 else float(np.clip(reach - abs(t), 0.0, 1.0))
        ox, oy = t * d
        x0, y0 = math.floor(ox), math.floor(oy)
        fx, fy = ox - x0, oy - y0
        for dy, wy in ((0, 1 - fy), (1, fy)):
            for dx, wx in ((0, 1 - fx), (1, fx)):
                k[half + y0 + dy, half + x0 + dx] += w * wx * wy
    return k / k.sum()


def directional_reference(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    return cv2.filter2D(img.astype(np.float64), -1, line_kernel(length, angle),
                        borderType=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("length, angle", [(5.0, 0.0), (9.5, 0.0), (12.0, 90.0),
                                           (10.0, 30.0), (15.0, 135.0), (24.0, 71.0)])
def test_directional_blur_matches_a_line_kernel(pipeline, length, angle):
    img = photo_like(64, 96)
    out = pipeline({"length": length, "angle": angle}, style="motion_blur").render_array(img)
    expected = directional_reference(img, length, angle)
    # Clamp-to-edge bilinear taps are replicated borders, so all of it is compared. The
    # texture unit's bilinear weights are fixed point (8 bits on llvmpipe and GPUs: up to
    # half a level between very different texels) on top of the 8-bit rounding (0.5):
    # within 1.25 levels of the float reference (measured 0.85), at least 80% of the values
    # equal to it rounded (measured 86%; 99% or all of them where the taps fall on texel
    # centres), and on average no further than rounding and a little (0.35; rounding
    # alone: 0.25).
    assert_close(out, expected, max_err=1.25, exact=0.80)
    assert err(out, expected).mean() < 0.35


def test_horizontal_motion_blur_is_a_box_along_the_rows(pipeline):
    img = photo_like(64, 96)
    out = pipeline({"length": 7.0, "angle": 0.0}, style="motion_blur").render_array(img)
    expected = cv2.blur(img.astype(np.float64), (7, 1), borderType=cv2.BORDER_REPLICATE)
    # taps on texel centres, exact weights: the 8-bit rounding only (0.5 level, + float
    # sums), 99% equal to the rounded reference
    assert_close(out, expected, max_err=0.51, exact=0.99)


def test_motion_blur_angle_follows_the_picture(pipeline):
    """45 degrees counter-clockwise as seen (rows grow downwards) smears a dot along the
    rising diagonal: up-right and down-left, not up-left."""
    img = np.zeros((41, 41, 3), np.uint8)
    img[20, 20] = 255
    out = pipeline({"length": 15.0, "angle": 45.0}, style="motion_blur").render_array(img)
    lit = out[..., 0].astype(int)
    assert lit[15, 25] > 5 and lit[25, 15] > 5  # up-right and down-left of the dot
    assert lit[15, 15] == 0 and lit[25, 25] == 0
    assert lit[20, 26] == 0 and lit[26, 20] == 0  # not horizontal or vertical


@pytest.mark.parametrize("length", [0.0, 1.0])
def test_motion_blur_length_one_or_less_leaves_the_picture(pipeline, length):
    img = photo_like()
    out = pipeline({"length": length, "angle": 30.0}, style="motion_blur").render_array(img)
    np.testing.assert_array_equal(out, img)


# -- motion blur: along the optical flow ----------------------------------------------------

def panning_frames(h: int, w: int, step: int, count: int, seed: int = 0) -> list[np.ndarray]:
    """Frames of a picture f(x) + g(y) (smooth 1-D noises) whose content moves `step` px to
    the right each frame: the vertical structure g is the same along every row, so a purely
    horizontal blur keeps it exactly. Consecutive frames differ well below the engine's cut
    threshold (a cut would mean no motion)."""
    rng = np.random.default_rng(seed)
    wide = w + step * count

    def noise_1d(n: int) -> np.ndarray:
        a = cv2.GaussianBlur(rng.random((1, n)), (0, 0), 2.0)[0]
        return (a - a.min()) / np.ptp(a)

    f, g = noise_1d(wide), noise_1d(h)
    canvas = to_u8(np.repeat((0.2 + 0.3 * f[None, :] + 0.4 * g[:, None])[..., None], 3, 2))
    frames = [np.ascontiguousarray(canvas[:, step * (count - 1 - k): step * (count - 1 - k) + w])
              for k in range(count)]
    for a, b in itertools.pairwise(frames):
        assert np.abs(a.astype(float) - b).mean() / 255.0 < 0.75 * CUT_THRESHOLD
    return frames


def gradient_energy(img: np.ndarray, margin: int = 8) -> tuple[float, float]:
    """Mean squared horizontal and vertical differences, inside a margin (the flow is
    unreliable where content enters the frame)."""
    a = img.astype(np.float64).mean(axis=-1)[margin:-margin, margin:-margin]
    return float(np.mean(np.diff(a, axis=1) ** 2)), float(np.mean(np.diff(a, axis=0) ** 2))


def test_flow_blur_leaves_a_still_image(pipeline):
    img = photo_like(64, 96)
    p = pipeline({"follow_motion": True}, style="motion_blur")
    # a single render: no previous frame, the flow is zero: exactly the picture
    np.testing.assert_array_equal(p.render_array(img), img)
    # the same frame again (a still video): no motion, the picture again
    for _ in range(2):
        np.testing.assert_array_equal(p.render_array(img), img)


@pytest.mark.parametrize("transpose", [False, True])
def test_flow_blur_smears_along_a_pan_only(pipeline, transpose):
    """A horizontal pan (or, transposed, a vertical one) blurs along the motion: the
    gradient energy along it drops, the one across it stays."""
    step = 6
    frames = panning_frames(64, 96, step, 4)
    if transpose:
        frames = [np.ascontiguousarray(f.transpose(1, 0, 2)) for f in frames]
    p = pipeline({"follow_motion": True, "shutter": 1.0}, style="motion_blur")
    outs = [p.render_array(f) for f in frames]
    np.testing.assert_array_equal(outs[0], frames[0])  # the first frame: no motion yet
    along, across = (0, 1) if not transpose else (1, 0)
    for frame, out in zip(frames[1:], outs[1:], strict=True):
        e_in, e_out = gradient_energy(frame), gradient_energy(out)
        # along: measured 0.42-0.44 of the input's (the 6 px streak on this noise); no blur
        # or a blur across the motion would keep it at 1
        assert e_out[along] < 0.6 * e_in[along]
        # across the motion: kept (measured 1.000: the flow's stray component across the
        # pan is a few hundredths of a px)
        assert e_out[across] > 0.95 * e_in[across]
        # neighbouring columns (rows, transposed) mix: the picture changes about as much as
        # a streak of the step's length along the pan changes it (measured 1.0-1.04 times)
        smear = directional_reference(frame, float(step), 0.0 if not transpose else 90.0)
        assert err(out, frame).mean() > 0.75 * err(frame, smear).mean()


def test_flow_blur_of_a_pan_is_the_directional_blur_of_its_step(pipeline):
    """For a uniform pan of `step` px per frame and shutter 1, the flow-following blur is
    the directional blur of length `step` along the pan (DIS finds the step to within a
    few tenths of a px inside the frame)."""
    step = 6
    frames = panning_frames(64, 96, step, 3, seed=1)
    p = pipeline({"follow_motion": True, "shutter": 1.0}, style="motion_blur")
    out = [p.render_array(f) for f in frames][-1]
    q = pipeline({"length": float(step), "angle": 0.0}, style="motion_blur")
    expected = q.render_array(frames[-1]).astype(np.float64)
    inside = err(out, expected)[8:-8, 8:-8]
    # measured: mean 0.14, max 1 level; margin for the flow's sub-pixel error
    assert inside.mean() < 0.5
    assert np.percentile(inside, 99) <= 2.0


def test_flow_blur_shutter_scales_the_streak(pipeline):
    step = 6
    frames = panning_frames(64, 96, step, 3, seed=2)
    drops = []
    for shutter in (0.0, 0.5, 2.0):
        p = pipeline({"follow_motion": True, "shutter": shutter}, style="motion_blur")
        out = [p.render_array(f) for f in frames][-1]
        drops.append(gradient_energy(out)[0] / gradient_energy(frames[-1])[0])
        if shutter == 0.0:
            np.testing.assert_array_equal(out, frames[-1])  # no exposure time: no smear
    # horizontal gradient energy kept: measured 1.0, 0.81, 0.12
    assert drops[0] - drops[1] > 0.1 and drops[1] - drops[2] > 0.3


# -- relief ---------------------------------------------------------------------------------

def relief_reference(img: np.ndarray, depth: float, azimuth: float, elevation: float,
                     ambient: float, emboss: float) -> np.ndarray:
    """The relief formula: height = luma (Rec. 709 on sRGB values), gradients Sobel / 8
    (replicated borders), normal normalize(-depth gx, -depth gy, 1) with y along the rows,
    light (cos el cos az, -cos el sin az, sin el); gain = (ambient + (1 - ambient)
    max(n.l, 0)) / (ambient + (1 - ambient) sin el) applied in linear light to
    mix(colour, mid grey, emboss). Returns 8-bit units (float)."""
    y = luma_709(img)
    gx = cv2.Sobel(y, cv2.CV_64F, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE) / 8.0
    gy = cv2.Sobel(y, cv2.CV_64F, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE) / 8.0
    n = np.dstack([-depth * gx, -depth * gy, np.ones_like(y)])
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    az, el = math.radians(azimuth), math.radians(elevation)
    light = np.array([math.cos(el) * math.cos(az), -math.cos(el) * math.sin(az), math.sin(el)])
    lit = ambient + (1.0 - ambient) * np.maximum(n @ light, 0.0)
    gain = lit / max(ambient + (1.0 - ambient) * math.sin(el), 1e-3)
    lin = ref.srgb_to_linear(img.astype(np.float64) / 255.0)
    base = lin * (1.0 - emboss) + ref.srgb_to_linear(np.array(0.5)) * emboss
    return ref.linear_to_srgb(base * gain[..., None]) * 255.0


RELIEF_DEFAULTS = {"depth": 12.0, "azimuth": 135.0, "elevation": 45.0, "ambient": 0.3,
                   "emboss": 0.25}


@pytest.mark.parametrize("values", [
    {}, {"depth": 30.0, "elevation": 20.0}, {"azimuth": -60.0, "ambient": 0.0},
    {"emboss": 1.0, "depth": 8.0}, {"emboss": 0.6, "azimuth": 10.0, "elevation": 80.0},
    {"ambient": 1.0},
])
def test_relief_matches_the_reference(pipeline, values):
    img = photo_like(48, 64, seed=4)
    p = pipeline(values, style="relief")
    if not values:
        assert dict(p.params.values()) == RELIEF_DEFAULTS  # the reference's defaults
    out = p.render_array(img)
    expected = relief_reference(img, **{**RELIEF_DEFAULTS, **values})
    # The same formula in float32 against float64: llvmpipe gives exactly the rounded
    # reference; a GPU's approximate pow / normalize may tip a value near a rounding
    # boundary: within one level of the float reference, 98% equal to it rounded.
    # GPUs approximate pow / normalize by a few ulp: NVIDIA tips up to 3.6% (96.4% equal).
    assert_close(out, expected, max_err=1.01, exact=0.95)


def test_flat_relief_without_emboss_leaves_the_picture(pipeline):
    img = photo_like()
    out = pipeline({"depth": 0.0, "emboss": 0.0}, style="relief").render_array(img)
    np.testing.assert_array_equal(out, img)  # gain 1: the sRGB round trip only


@pytest.mark.parametrize("azimuth, lit_side", [(90.0, "top"), (-90.0, "bottom"),
                                               (0.0, "right"), (180.0, "left")])
def test_relief_light_comes_from_the_azimuth(pipeline, azimuth, lit_side):
    """A bright (raised) square: the slope facing the light, as the picture is seen
    (row 0 at the top), is brighter than the opposite one."""
    img = np.full((40, 40, 3), 60, np.uint8)
    img[12:28, 12:28] = 200
    out = pipeline({"azimuth": azimuth, "emboss": 1.0, "depth": 8.0},
                   style="relief").render_array(img)
    g = out[..., 0].astype(int)
    edges = {"top": g[11:13, 16:24].mean(), "bottom": g[27:29, 16:24].mean(),
             "left": g[16:24, 11:13].mean(), "right": g[16:24, 27:29].mean()}
    opposite = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}[lit_side]
    assert edges[lit_side] > edges[opposite] + 40
    flat = g[2:8, 2:8]
    assert np.abs(flat - 127.5).max() <= 1  # emboss: a flat area is mid grey (sRGB 0.5)


def test_relief_defaults_keep_a_photo_recognisable(pipeline):
    """Defaults on a photo: shading visible, colours and overall brightness kept."""
    img = photo_like(64, 96, seed=5)
    out = pipeline(style="relief").render_array(img).astype(float)
    f = img.astype(float)
    # measured: mean brightness 5.7 levels apart, 15.5 levels of change per value on
    # average, correlation 0.82 with the original's brightness
    assert abs(out.mean() - f.mean()) < 12.0  # flat areas keep their brightness
    assert err(out, f).mean() > 5.0  # the shading is visible
    assert np.corrcoef(out.mean(-1).ravel(), f.mean(-1).ravel())[0, 1] > 0.6
