"""The `edges` style's Canny mode against cv2.Canny, and the `adjust` style's tone curve
against a numpy reference of the same monotone cubic.

Canny on the GPU computes what cv2.Canny(grey, low, high, L2gradient=True) computes, in
whole numbers (grey levels, Sobel derivatives, squared magnitudes: all exact in float), so
on these images the two agree on every pixel; the assertions leave room for 0.1% of the
pixels (another OpenCV's grey rounding, a driver's float) and ask for precision and recall
of the edge pixels, within one pixel, of at least 99.5%. Hysteresis runs as repeated passes
(each extends the strong edges by 4 px along any chain), enough at the default count for
these images; with fewer passes long weak chains stay unjoined, which is checked too.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from conftest import rings, to_u8
from test_filters import adjust_reference, noisy, photo_like

H, W = 64, 96  # small: Mesa llvmpipe runs these on the CPU


# -- images -------------------------------------------------------------------------------

def shapes(h: int = H, w: int = W) -> np.ndarray:
    """uint8 RGB: flat shapes of several colours and contrasts (some edges weak)."""
    img = np.full((h, w, 3), 60, np.uint8)
    cv2.rectangle(img, (8, 8), (38, 28), (200, 170, 60), -1)
    cv2.rectangle(img, (12, 36), (34, 56), (78, 70, 64), -1)  # low contrast: weak edges
    cv2.circle(img, (64, 30), 17, (90, 200, 230), -1)
    cv2.circle(img, (64, 30), 7, (105, 185, 215), -1)  # faint ring inside the disc
    cv2.line(img, (44, 58), (92, 48), (240, 240, 240), 2)
    cv2.ellipse(img, (78, 50), (10, 6), 30, 0, 360, (50, 80, 40), -1)
    return img


def hysteresis_image(h: int = H, w: int = W) -> np.ndarray:
    """uint8 grey: a vertical step edge at x = 30 whose height falls from 60 to 15 levels
    down the picture (a strong edge running into a weak one), and a separate block 15
    levels above the background (only weak edges, joined to nothing strong)."""
    a = np.full((h, w), 100.0)
    rows = np.arange(4, 56)
    a[4:56, 30:56] += np.interp(rows, [4, 14, 30, 55], [60, 60, 15, 15])[:, None]
    a[20:50, 70:88] += 15
    return np.repeat(np.round(a)[:, :, None], 3, axis=2).astype(np.uint8)


IMAGES = {
    "shapes": shapes,
    "rings": lambda: to_u8(rings(H, W, 11.0)),
    "photo": lambda: noisy(photo_like(H, W, seed=3), 8.0, seed=3),
}


# -- Canny ----------------------------------------------------------------------------------

def canny_reference(img: np.ndarray, low: float, high: float) -> np.ndarray:
    grey = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    return cv2.Canny(grey, low, high, L2gradient=True) > 0


def within_one_pixel(a: np.ndarray, b: np.ndarray) -> float:
    """The fraction of a's edge pixels that have one of b's within 1 px (3x3)."""
    if not a.any():
        return 1.0
    near = cv2.dilate(b.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    return float((a & near).sum() / a.sum())


def render_canny(pipeline, img: np.ndarray, **values) -> np.ndarray:
    out = pipeline({"mode": "canny", **values}, style="edges").render_array(img)
    assert (out[..., 0] == out[..., 1]).all() and (out[..., 1] == out[..., 2]).all()
    assert set(np.unique(out)) <= {0, 255}  # thin binary lines
    return out[..., 0]


@pytest.mark.parametrize("name", list(IMAGES))
@pytest.mark.parametrize("low, high", [(50, 150), (20, 60), (100, 200)])
def test_canny_matches_opencv(pipeline, name, low, high):
    img = IMAGES[name]()
    ours = render_canny(pipeline, img, canny_low=low, canny_high=high) == 255  # white lines
    ref = canny_reference(img, low, high)
    assert ref.sum() > 100, "the image must have edges to compare"
    agree = float((ours == ref).mean())
    precision, recall = within_one_pixel(ours, ref), within_one_pixel(ref, ours)
    # measured: identical (agreement 1.0) on every case here
    assert agree >= 0.999, f"{(ours != ref).sum()} pixels differ"
    assert precision >= 0.995 and recall >= 0.995, (precision, recall)


def test_canny_thresholds_are_swapped_like_opencvs(pipeline):
    img = IMAGES["photo"]()
    ours = render_canny(pipeline, img, canny_low=150, canny_high=50) == 255
    assert (ours == canny_reference(img, 50, 150)).mean() >= 0.999


def test_canny_invert_draws_dark_lines_on_white(pipeline):
    img = shapes()
    white = render_canny(pipeline, img)
    dark = render_canny(pipeline, img, invert=True)
    np.testing.assert_array_equal(dark, 255 - white)
    assert 0 < (white == 255).mean() < 0.2  # lines, not areas


def test_hysteresis_keeps_weak_edges_joined_to_strong_ones_only(pipeline):
    img = hysteresis_image()
    values = {"canny_low": 40, "canny_high": 150}
    # the step's Sobel magnitude is 4x its height: 240 (strong) falling to 60 (weak)
    full = render_canny(pipeline, img, **values) == 255
    p = pipeline({"mode": "canny", "canny_iterations": 0, **values}, style="edges")
    strong_only = p.render_array(img)[..., 0] == 255
    states = p.read_target("canny")[..., 0]  # before hysteresis: 0, 0.5 weak, 1 strong
    # the step's line: column 29 where its height is constant (NMS keeps the left one of two
    # equal maxima, as OpenCV), 30 where it falls (that column's gradient is the larger)
    step = states[:, 29:31].max(axis=1)
    weak_rows = np.arange(31, 54)  # step height 15 < 150 / 4
    strong_rows = np.arange(6, 20)  # step height above 150 / 4 = 37.5 levels
    # GPUs may round 0.5 to unorm8 toward zero (NVIDIA: 127/255): one level either way.
    assert np.allclose(step[weak_rows], 128 / 255, rtol=0, atol=1 / 255 + 1e-6)
    assert (step[strong_rows] == 1.0).all()
    # the isolated block's outline is a weak edge everywhere...
    block = np.zeros_like(full)
    block[18:52, 68:90] = True
    assert (states[block] > 0.25).sum() > 60 and not (states[block] > 0.75).any()
    # ...hysteresis drops it, and joins the weak part of the step to its strong part
    assert not full[block].any()
    assert full[:, 29:31].any(axis=1)[4:55].all()  # one unbroken line down the step
    assert not strong_only[weak_rows, 29:31].any()
    assert (full == canny_reference(img, 40, 150)).all()


def test_fewer_hysteresis_passes_join_less(pipeline):
    img = IMAGES["photo"]()
    ref = canny_reference(img, 100, 200)
    found = [(render_canny(pipeline, img, canny_low=100, canny_high=200,
                           canny_iterations=n) == 255) for n in (0, 2, 24)]
    counts = [int(f.sum()) for f in found]
    assert counts[0] < counts[1] < counts[2] == int(ref.sum()), (counts, int(ref.sum()))
    for f in found:  # never an edge that OpenCV's does not have: only missing joins
        assert not (f & ~ref).any()


def hysteresis_pass(states: np.ndarray, reach: int = 4) -> np.ndarray:
    """One pass of canny_hysteresis.frag, as it is defined: a weak pixel becomes strong when,
    inside the (2 reach + 1)^2 window around it, a chain of edges (8-connected) joins it to a
    strong one (every pixel decided from the states before the pass). Returns the states."""
    strong, edge = states > 0.75, states > 0.25
    out = np.where(strong, 1.0, np.where(edge, 0.5, 0.0))
    h, w = states.shape
    for y, x in zip(*np.nonzero(edge & ~strong), strict=True):
        y0, x0 = max(0, y - reach), max(0, x - reach)
        win = (slice(y0, min(h, y + reach + 1)), slice(x0, min(w, x + reach + 1)))
        _, labels = cv2.connectedComponents(edge[win].astype(np.uint8), connectivity=8)
        if strong[win][labels == labels[y - y0, x - x0]].any():
            out[y, x] = 1.0
    return out


def test_each_hysteresis_pass_joins_chains_within_its_window(pipeline):
    img = IMAGES["photo"]()
    values = {"mode": "canny", "canny_low": 100, "canny_high": 200}

    def states(n: int) -> np.ndarray:
        p = pipeline({**values, "canny_iterations": n}, style="edges")
        p.render_array(img)
        return np.round(p.read_target("canny")[..., 0] * 2) / 2  # r8: 0, 128, 255

    before = expected = states(0)
    for n in (1, 2, 3):
        expected = hysteresis_pass(expected)
        np.testing.assert_array_equal(states(n), expected)
    assert (expected == 1.0).sum() > (before == 1.0).sum()  # the passes did join chains


def test_sobel_stays_the_default(pipeline):
    img = photo_like(H, W)
    default = pipeline({"gain": 1.5}, style="edges").render_array(img)
    sobel = pipeline({"gain": 1.5, "mode": "sobel", "canny_low": 10.0},
                     style="edges").render_array(img)
    np.testing.assert_array_equal(default, sobel)
    assert len(np.unique(default)) > 20  # a magnitude, not a binary map


def test_switching_modes_in_one_pipeline(pipeline):
    img = shapes()
    p = pipeline(style="edges")
    sobel = p.render_array(img)
    p.set_params({"mode": "canny"})
    canny = p.render_array(img)[..., 0] == 255
    assert (canny == canny_reference(img, 50, 150)).mean() >= 0.999
    p.set_params({"mode": "sobel"})
    np.testing.assert_array_equal(p.render_array(img), sobel)


# -- tone curve -----------------------------------------------------------------------------

def tone_curve(x: np.ndarray, a: float, b: float, c: float) -> np.ndarray:
    """Fritsch-Carlson monotone cubic through (0,0), (.25,a), (.5,b), (.75,c), (1,1), as
    shaders/filters/curves.glsl computes it (float64)."""
    y = np.array([0.0, a, b, c, 1.0])
    h = 0.25
    d = np.diff(y) / h
    m = np.empty(5)
    m[0], m[4] = d[0], d[3]
    for k in (1, 2, 3):
        m[k] = 0.5 * (d[k - 1] + d[k]) if d[k - 1] * d[k] > 0 else 0.0
    for k in range(4):
        if d[k] == 0:
            m[k] = m[k + 1] = 0.0
            continue
        alpha, beta = m[k] / d[k], m[k + 1] / d[k]
        if alpha * alpha + beta * beta > 9:
            tau = 3 / np.hypot(alpha, beta)
            m[k], m[k + 1] = tau * alpha * d[k], tau * beta * d[k]
    x = np.clip(x, 0, 1)
    k = np.minimum((x / h).astype(int), 3)
    t = x / h - k
    return ((2 * t**3 - 3 * t**2 + 1) * y[k] + (t**3 - 2 * t**2 + t) * h * m[k]
            + (-2 * t**3 + 3 * t**2) * y[k + 1] + (t**3 - t**2) * h * m[k + 1])


CURVES = [(0.35, 0.6, 0.85), (0.15, 0.5, 0.85), (0.05, 0.1, 0.95), (0.4, 0.4, 0.6),
          (0.6, 0.3, 0.8), (0.0, 1.0, 1.0)]


def curve_values(points: tuple[float, float, float]) -> dict[str, float]:
    return dict(zip(("curve_shadows", "curve_midtones", "curve_highlights"), points,
                    strict=True))


def ramp() -> np.ndarray:
    """uint8 RGB, every level in each channel: R rises along x, G falls, B along y."""
    v = np.arange(256, dtype=np.uint8).reshape(16, 16)
    return np.stack([v, 255 - v, v.T], axis=2)


@pytest.mark.parametrize("points", CURVES)
def test_tone_curve_reference_interpolates_without_overshoot(points):
    a, b, c = points
    xs = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_allclose(tone_curve(xs, a, b, c), [0, a, b, c, 1], atol=1e-12)
    x = np.linspace(0, 1, 4001)
    y = tone_curve(x, a, b, c)
    knots = np.array([0, a, b, c, 1.0])
    for k in range(4):  # each piece stays within its two points' levels
        piece = y[(x >= xs[k]) & (x <= xs[k + 1])]
        lo, hi = sorted(knots[k:k + 2])
        assert piece.min() >= lo - 1e-9 and piece.max() <= hi + 1e-9
    if np.all(np.diff(knots) >= 0):
        assert np.all(np.diff(y) >= -1e-12)  # rising points: a rising curve


def test_tone_curve_identity_is_the_identity():
    x = np.linspace(0, 1, 1001)
    np.testing.assert_allclose(tone_curve(x, 0.25, 0.5, 0.75), x, atol=1e-12)


@pytest.mark.parametrize("points", CURVES)
def test_curves_match_the_reference(pipeline, points):
    img = np.concatenate([ramp(), photo_like(16, 16)], axis=1)
    out = pipeline(curve_values(points), style="adjust").render_array(img).astype(float)
    expected = tone_curve(img / 255.0, *points) * 255.0
    # the same curve in float32 on the GPU: at most one level of 8-bit rounding apart
    np.testing.assert_allclose(out, expected, atol=1.01)


@pytest.mark.parametrize("values", [
    {"contrast": 0.3, "saturation": 0.4}, {"exposure": -0.5, "hue": 40.0},
    {"brightness": -0.1, "vibrance": 0.5, "temperature": 0.3},
])
def test_curves_come_after_the_other_adjustments(pipeline, values):
    img = photo_like(H, W)
    points = (0.18, 0.55, 0.82)
    out = pipeline({**values, **curve_values(points)},
                   style="adjust").render_array(img).astype(float)
    expected = tone_curve(adjust_reference(img, **values) / 255.0, *points) * 255.0
    np.testing.assert_allclose(out, expected, atol=1.01)


def test_identity_curve_changes_nothing(pipeline):
    img = np.concatenate([ramp(), photo_like(16, 16)], axis=1)
    out = pipeline(curve_values((0.25, 0.5, 0.75)), style="adjust").render_array(img)
    np.testing.assert_array_equal(out, img)


def test_midtones_point_brightens_and_keeps_black_and_white(pipeline):
    img = ramp()
    out = pipeline({"curve_midtones": 0.7}, style="adjust").render_array(img).astype(int)
    r = out[..., 0].ravel()  # the red channel holds every level once, in order
    assert r[0] == 0 and r[255] == 255
    assert np.all(np.diff(r) >= 0)  # monotone
    assert abs(r[128] - 0.7 * 255) <= 2
    # brighter between the 25% and 75% points, clearly so in the middle of them
    assert (r[64:192] >= np.arange(64, 192)).all() and (r[80:176] > np.arange(80, 176)).all()
