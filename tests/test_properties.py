"""Properties of the whole pipeline on synthetic images: flow orientation, flow-aligned
smoothing, edge-preserving abstraction, where wet edges and outlines appear, flat-region fill.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import reference as ref
from conftest import EFFECTS_OFF, rings, step_edge, stripes, to_u8


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest): no test here changes more of
    a pipeline than its parameters."""
    return reused_pipeline


@pytest.fixture
def unit_pipeline(reused_unit_pipeline):
    """`unit_pipeline` on the module's reused pipelines (conftest)."""
    return reused_unit_pipeline


def unit_tangents(tfm: np.ndarray) -> np.ndarray:
    t = tfm[..., :2].astype(np.float64)
    return t / np.linalg.norm(t, axis=-1, keepdims=True)


def work_px_grid(texture: np.ndarray, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """(y, x) in work pixels (pixel centres at integers) of each texel of a target that may be
    smaller than the h x w work frame."""
    th, tw = texture.shape[:2]
    y, x = np.mgrid[0:th, 0:tw].astype(np.float64)
    return (y + 0.5) * h / th - 0.5, (x + 0.5) * w / tw - 0.5


def angle_deg(t: np.ndarray, true_t: np.ndarray) -> np.ndarray:
    """Angle between orientations (sign ignored), degrees."""
    cos = np.abs((t * true_t).sum(-1))
    return np.degrees(np.arccos(np.clip(cos, 0.0, 1.0)))


@pytest.mark.parametrize("center", [None, (40.3, 51.6)])
def test_tangent_follows_concentric_rings(pipeline, center):
    h = w = 96
    img = rings(h, w, period=12.0, center=center)
    cx, cy = center if center is not None else ((w - 1) / 2.0, (h - 1) / 2.0)
    p = pipeline()
    p.render_array(img)
    tfm = p.read_target("tfm")
    assert np.isfinite(tfm).all()
    y, x = work_px_grid(tfm, h, w)
    r = np.hypot(x - cx, y - cy)
    radial = np.dstack([x - cx, y - cy]) / np.maximum(r, 1e-9)[..., None]
    true_t = np.dstack([-radial[..., 1], radial[..., 0]])  # along the rings
    ang = angle_deg(unit_tangents(tfm), true_t)
    region = (r > 10) & (x >= 8) & (x < w - 8) & (y >= 8) & (y < h - 8)
    assert region.sum() > 1000
    assert ang[region].max() < 3.0, f"tangent off by up to {ang[region].max():.2f} deg"
    # Strong rings: anisotropic everywhere in the region.
    assert np.median(tfm[..., 2][region]) > 0.5


def test_tangent_is_not_fooled_by_the_border(pipeline):
    # Straight stripes right up to the border: replicated borders must not bend the flow.
    p = pipeline()
    p.render_array(stripes(40, 56, period=7.0, angle_deg=0.0))
    ang = angle_deg(unit_tangents(p.read_target("tfm")), np.array([0.0, 1.0]))
    assert ang.max() < 1.0


@pytest.mark.parametrize("angle, along, across", [
    (0.0, (3, 0), (0, 3)),     # vertical stripes: flow along y (rows)
    (90.0, (0, 3), (3, 0)),    # horizontal stripes: flow along x
    (45.0, (-2, 2), (2, 2)),   # diagonal stripes: flow along (1, -1)
])
def test_stroke_texture_is_elongated_along_the_flow(pipeline, angle, along, across):
    p = pipeline({"stroke_strength": 0.5})  # strokes are skipped while unused
    p.render_array(stripes(96, 96, period=8.0, angle_deg=angle))
    strokes = p.read_target("strokes")[..., 0]
    noise = p.read_target("noise")[..., 0]
    c_along = ref.autocorrelation(strokes, *along)
    c_across = ref.autocorrelation(strokes, *across)
    assert c_along > 0.4, c_along
    assert abs(c_across) < 0.2, c_across
    # the raw noise itself has no direction
    assert abs(ref.autocorrelation(noise, *along)) < 0.2
    # renormalized LIC keeps a usable contrast around 0.5
    assert abs(strokes.mean() - 0.5) < 0.05 and strokes.std() > 0.08


def test_colour_lic_smooths_along_the_flow_only(unit_pipeline):
    # Vertical stripes plus fine noise: LIC removes the noise along y, keeps the stripes.
    rng = np.random.default_rng(2)
    img = stripes(64, 64, period=12.0, angle_deg=0.0)
    img = np.clip(img + rng.normal(0.0, 0.04, img.shape[:2])[..., None], 0, 1)
    p = unit_pipeline({"abstraction_iterations": 0, "lic_sigma": 4.0})
    p.render_array(img.astype(np.float32))
    before = p.read_target("abstract_rgb")[..., 0]
    after = p.read_target("smooth")[..., 0]
    # variation along the flow (down each column) drops a lot
    assert np.diff(after, axis=0).std() < 0.35 * np.diff(before, axis=0).std()
    # the stripe profile across the flow is preserved
    np.testing.assert_allclose(after[8:-8].mean(0), before[8:-8].mean(0), atol=0.02)
    assert np.ptp(after[8:-8].mean(0)) > 0.6


def noisy_step(h: int = 48, w: int = 64, sigma: float = 0.03, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = step_edge(h, w, lo=0.3, hi=0.7)[..., 0] + rng.normal(0.0, sigma, (h, w))
    return np.repeat(np.clip(img, 0, 1)[..., None], 3, axis=2).astype(np.float32)


def test_bilateral_keeps_the_edge_and_removes_noise(unit_pipeline):
    img = noisy_step()
    x0 = 16  # the washes are abstracted at half size: the step is at 32 / 2
    p0 = unit_pipeline({"abstraction_iterations": 0})
    p0.render_array(img)
    before = p0.read_target("abstract_rgb")[..., 0]
    p4 = unit_pipeline({"abstraction_iterations": 4})
    p4.render_array(img)
    after = p4.read_target("abstract_rgb")[..., 0]
    flat_l, flat_r = np.s_[2:-2, 2:x0 - 3], np.s_[2:-2, x0 + 3:-2]
    for flat in (flat_l, flat_r):
        assert after[flat].std() < 0.25 * before[flat].std()
    # The edge stays a one-pixel step: the columns next to it keep their side's value.
    lo_side, hi_side = after[2:-2, x0 - 1], after[2:-2, x0]
    assert np.abs(lo_side - 0.3).max() < 0.05
    assert np.abs(hi_side - 0.7).max() < 0.05
    # ... which a plain Gaussian of the same spatial sigma (4 px = 2 half-size px) would not do
    blurred = ref.gaussian_blur(before, 2.0)
    assert np.abs(blurred[2:-2, x0 - 1] - 0.3).min() > 0.05


def test_more_iterations_flatten_more(unit_pipeline):
    img = noisy_step(seed=1)
    stds = []
    for n in (0, 1, 3):
        p = unit_pipeline({"abstraction_iterations": n})
        p.render_array(img)
        stds.append(p.read_target("abstract_rgb")[2:-2, 2:13, 0].std())
    assert stds[0] > stds[1] > stds[2]


def test_edge_darkening_only_near_edges(unit_pipeline):
    img = to_u8(step_edge(40, 64, lo=0.25, hi=0.75))
    x0 = 32
    prm = {"edge_width": 2.0}  # sigma 1 half-size px: reaches 3 of them, 6 px
    p_off = unit_pipeline({**prm, "edge_darkening": 0.0})
    p_on = unit_pipeline({**prm, "edge_darkening": 3.0})
    off = p_off.render_array(img).astype(int)
    on = p_on.render_array(img).astype(int)
    diff = off - on  # positive: darker with edge darkening
    near = np.abs(np.arange(64) - x0 + 0.5) < 4
    assert diff[:, near].max() >= 15, "no darkening at the edge"
    assert diff.min() >= -1, "edge darkening made something lighter"
    far = np.abs(np.arange(64) - x0 + 0.5) > 9
    assert np.abs(diff[:, far]).max() <= 1, "darkening away from the edge"
    # both sides of the edge get pigment
    assert diff[:, x0 - 2:x0].max() >= 5 and diff[:, x0:x0 + 2].max() >= 5


def light_step() -> np.ndarray:
    """A light image with one vertical edge (L ~ 85 | 97): above the XDoG threshold."""
    return to_u8(step_edge(40, 64, lo=0.8, hi=0.97))


OUTLINES = {"outline_strength": 1.0, "outline_eps": 79.5, "outline_phi": 0.5,
            "outline_p": 21.7}


def test_outlines_off_draw_nothing(pipeline):
    img = light_step()
    off_a = pipeline({"outline_strength": 0.0})
    off_b = pipeline({"outline_strength": 0.0, "outline_eps": 100.0, "outline_phi": 2.0,
                      "outline_p": 100.0, "outline_sigma": 4.0})
    a = off_a.render_array(img)
    b = off_b.render_array(img)
    assert (off_a.read_target("edges") == 1.0).all()
    np.testing.assert_array_equal(a, b)  # line settings are irrelevant while lines are off


def test_outlines_on_draw_dark_lines_along_edges(pipeline):
    img = light_step()
    x0 = 32
    prm = dict(EFFECTS_OFF, **OUTLINES)
    on = pipeline(prm)
    res_on = on.render_array(img).astype(int)
    off = pipeline(dict(prm, outline_strength=0.0))
    res_off = off.render_array(img).astype(int)
    edges = on.read_target("edges")[..., 0]
    cols = np.arange(64)
    near = np.abs(cols - x0 + 0.5) < 4
    far = np.abs(cols - x0 + 0.5) > 8
    assert edges[4:-4][:, near].min(axis=1).max() < 0.3, "no ink at the edge"
    assert (edges[:, far] > 0.99).all(), "ink away from the edge"
    # a dark line in every row along the edge, nothing changed elsewhere
    darkening = (res_off - res_on).max(axis=2)
    assert (darkening[4:-4][:, near].max(axis=1) > 60).all()
    assert np.abs(res_off - res_on)[:, far].max() <= 1


def test_outline_strength_scales_the_ink(pipeline):
    img = light_step()
    dark = []
    for s in (0.25, 0.5, 1.0):
        p = pipeline(dict(EFFECTS_OFF, **dict(OUTLINES, outline_strength=s)))
        dark.append(255 - int(p.render_array(img).min()))
    assert dark[0] < dark[1] < dark[2]


def test_flat_regions_get_a_direction_from_their_surroundings(pipeline):
    # Diagonal stripes in one corner, a large flat area elsewhere.
    h = w = 64
    img = np.full((h, w, 3), 0.5, np.float32)
    img[:16, :16] = stripes(16, 16, period=6.0, angle_deg=30.0)
    p = pipeline()
    p.render_array(img)
    valid = p.read_target("tensor_raw")[..., 3]
    flat = valid == 0
    assert flat.mean() > 0.8  # most pixels have no structure of their own
    tfm = p.read_target("tfm")
    assert np.isfinite(tfm).all()
    np.testing.assert_allclose(np.linalg.norm(tfm[..., :2], axis=-1), 1.0, atol=2e-3)
    # Next to the structure, the filled flow continues the stripes' orientation.
    a = np.radians(30.0)
    stripe_t = np.array([-np.sin(a), np.cos(a)])
    ang = angle_deg(unit_tangents(tfm), stripe_t)
    near = np.zeros_like(flat)
    near[:12, :12] = True  # 24 work px: the flow map is at half size
    assert np.median(ang[flat & near]) < 5.0
    assert ang[flat & near].max() < 12.0


def test_flat_fill_reaches_far_from_any_structure(pipeline):
    # One small textured patch in the corner of a large flat frame: pull-push must carry its
    # orientation all the way across (no default vertical flow far away).
    h, w = 96, 320
    img = np.full((h, w, 3), 0.5, np.float32)
    img[:12, :12] = stripes(12, 12, period=6.0, angle_deg=30.0)
    p = pipeline()
    p.render_array(img)
    a = np.radians(30.0)
    stripe_t = np.array([-np.sin(a), np.cos(a)])
    ang = angle_deg(unit_tangents(p.read_target("tfm")), stripe_t)
    assert np.median(ang[:, ang.shape[1] // 2:]) < 10.0


def test_blooms_pale_inside_a_dark_front_in_wet_washes_only(unit_pipeline):
    """Blooms (blooms.glsl): where a wash is wet, some patches get paler inside and darker
    along their front, the front hugging the pale patch; a dry wash has none."""
    flat = np.zeros((160, 240, 3), np.uint8)
    flat[:] = (150, 120, 90)
    prm = dict(EFFECTS_OFF, bleeding=1.0)
    plain = unit_pipeline(dict(prm, blooms=0.0)).render_array(flat).astype(int)
    bloomed = unit_pipeline(dict(prm, blooms=1.0)).render_array(flat).astype(int)
    lum = np.array([0.2126, 0.7152, 0.0722])
    change = (bloomed - plain) @ lum
    pale, dark = change > 4, change < -4
    assert 0.01 < pale.mean() < 0.5 and dark.mean() > 0.001
    near_pale = cv2.dilate(pale.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    assert (dark & near_pale).sum() > 0.8 * dark.sum()  # the rim is the pale patch's front
    dry = dict(EFFECTS_OFF, bleeding=0.0)
    np.testing.assert_array_equal(unit_pipeline(dict(dry, blooms=1.0)).render_array(flat),
                                  unit_pipeline(dict(dry, blooms=0.0)).render_array(flat))


def test_pencil_draws_grey_broken_outlines_not_fills(unit_pipeline):
    """The pencil underdrawing (pencil.glsl): on a dark disc on light paper-white ground it
    darkens a thin, broken ring round the disc's outline, greyly (no hue), under half opacity,
    and leaves the disc's inside (the XDoG's fill) and the far ground alone."""
    yy, xx = np.mgrid[:160, :160]
    r = np.hypot(yy - 80, xx - 80)
    img = np.where((r < 45)[..., None], 60, 230).astype(np.uint8).repeat(3, axis=2)
    prm = dict(EFFECTS_OFF, outline_sigma=0.8, outline_eps=50.0, outline_phi=0.2,
               outline_p=40.0, quantize_levels=0)
    plain = unit_pipeline(dict(prm, pencil=0.0)).render_array(img).astype(float)
    drawn = unit_pipeline(dict(prm, pencil=1.0)).render_array(img).astype(float)
    ratio = drawn.mean(axis=2) / np.maximum(plain.mean(axis=2), 1.0)
    line = ratio < 0.93
    assert line.any()
    assert 38 < np.median(r[line]) < 55  # on the outline
    assert (np.abs(r[line] - 45) < 10).mean() > 0.9
    assert ratio.min() > 0.55  # under half opacity
    ring = (np.abs(r - 45) < 10)
    assert line[ring].mean() < 0.6  # broken by gaps
    d = drawn[line] / np.maximum(plain[line], 1.0)
    assert np.ptp(d, axis=1).max() < 0.08  # graphite grey: every channel alike
    assert np.array_equal(drawn[r < 25], plain[r < 25])  # not the fill
    assert np.array_equal(drawn[r > 70], plain[r > 70])


def test_coarse_pigments_granulate_fine_ones_hardly(unit_pipeline):
    """Granulation by pigment (granulation.glsl): an ultramarine wash settles into the
    paper's valleys (texture across the sheet), a bright yellow one barely."""
    def texture(rgb: tuple[int, int, int]) -> float:
        img = np.zeros((96, 128, 3), np.uint8)
        img[:] = rgb
        prm = dict(EFFECTS_OFF, granulation=2.0)
        out = unit_pipeline(prm).render_array(img).astype(float)
        flat = unit_pipeline(dict(prm, granulation=0.0)).render_array(img).astype(float)
        return float(np.std((out - flat).mean(axis=2)))
    blue, yellow = texture((60, 80, 170)), texture((235, 200, 60))
    assert blue > 0.5 and yellow < 0.45 * blue, (blue, yellow)


def test_a_tint_redraws_every_colour_in_one_pigment_and_keeps_the_lights(pipeline):
    """tint.glsl: at 1 every colour becomes the tint pigment's (burnt umber: a sepia study) at
    its own lightness; the paper stays paper; half of it goes half way."""
    rng = np.random.default_rng(4)
    img = cv2.resize(rng.integers(0, 256, (6, 8, 3)).astype(np.uint8), (128, 96),
                     interpolation=cv2.INTER_NEAREST)
    img[:12] = 255  # a band left as paper
    prm = dict(EFFECTS_OFF, highlights=0.3)
    plain = pipeline(prm).render_array(img)
    sepia = pipeline(dict(prm, tint=1.0, tint_color="#7a4a2e")).render_array(img)
    half = pipeline(dict(prm, tint=0.5, tint_color="#7a4a2e")).render_array(img)
    lab = ref.srgb_to_lab(sepia / 255.0)
    umber = ref.srgb_to_lab(np.array([[[0x7a, 0x4a, 0x2e]]]) / 255.0)[0, 0]
    hue = np.degrees(np.arctan2(lab[..., 2], lab[..., 1]))
    tinted = np.hypot(lab[..., 1], lab[..., 2]) > 5
    assert tinted.mean() > 0.5
    off = np.abs(hue[tinted] - np.degrees(np.arctan2(umber[2], umber[1])))
    assert np.percentile(off, 95) < 12  # one hue: the umber's
    luma = np.array([0.2126, 0.7152, 0.0722])
    assert np.abs((sepia - plain.astype(float)) @ luma).mean() < 3  # its lightness kept
    paper = plain.min(axis=2) >= 247
    assert paper.mean() > 0.05
    # the paper kept (a faint tint on it is pigment too: a few levels of umber)
    assert np.abs(sepia[paper].astype(int) - plain[paper]).max() <= 6
    between = np.abs(half.astype(float) - (plain / 2.0 + sepia / 2.0)).mean()
    assert between < 2.5


def test_a_dry_brush_skips_the_paper_where_strokes_end_not_all_over(pipeline):
    """Dry brush (composite.frag): bare paper shows near a wash's border, on the paper's
    raised tooth, and hardly inside a flat wash (it was even specks over every tone)."""
    img = np.zeros((96, 128, 3), np.uint8)
    img[:, :64] = (150, 90, 60)
    img[:, 64:] = (70, 110, 160)
    prm = dict(EFFECTS_OFF, dry_brush=0.8, paper_tooth=0.0)
    dry = pipeline(prm).render_array(img).astype(float)
    wet = pipeline(dict(prm, dry_brush=0.0)).render_array(img).astype(float)
    bare = (dry - wet).mean(axis=2) > 20  # lifted to the paper
    near = bare[:, 56:72].mean()
    inside = np.concatenate([bare[:, 8:40], bare[:, 88:120]], axis=1).mean()
    assert near > 0.05 and inside < 0.2 * near, (near, inside)
