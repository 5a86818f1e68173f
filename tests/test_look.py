"""The passes that make washes read as painted: saliency, wash tones, where washes meet
(bleeding, gaps, overlaps), and the reference-pixel scaling. References where the math is
simple, properties on synthetic images where it is noise-driven."""

from __future__ import annotations

import numpy as np
import pytest
import reference as ref
from conftest import UNIT_STYLE, two_washes

from aquarelle.engine.frame_info import reference_px

WASH = 0.5  # washes live at half the work size


@pytest.fixture
def pipeline(reused_unit_pipeline):
    """The module's pipelines reused as fresh ones (conftest); the two tests that compare
    fresh pipelines or change one's programs take `fresh_unit_pipeline`."""
    return reused_unit_pipeline


def painted(p, img):
    p.render_array(img)
    return p.read_target("painted").astype(np.float64)


# -- where washes meet ------------------------------------------------------------------------

def test_no_meeting_effects_leave_the_washes_as_they_are(pipeline):
    p = pipeline({"lic_sigma": 0.0})
    out = painted(p, two_washes())
    np.testing.assert_array_equal(out[..., :3], p.read_target("smooth")[..., :3])
    assert (out[..., 3] == 0.0).all()  # no wetness


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gaps_are_slivers_of_bare_paper_at_the_border(pipeline, seed):
    img = two_washes(h=256)
    base = painted(pipeline({"lic_sigma": 0.0}), img)[..., :3]
    p = pipeline({"lic_sigma": 0.0, "gaps": 1.0}, seed=seed)
    out = painted(p, img)[..., :3]
    changed = np.abs(out - base).max(-1) > 1e-3
    cols = np.nonzero(changed.any(axis=0))[0]
    assert cols.size and cols.min() >= 16 - 3 and cols.max() <= 15 + 3  # only at the border
    assert (out[changed] >= base[changed] - 1e-3).all()  # gaps only lighten ...
    assert out.max(-1)[changed].max() > 0.97 and out.min(-1)[changed].max() > 0.9  # to paper
    frac = changed[:, 14:18].any(axis=1).mean()
    assert 0.05 < frac < 0.9  # along parts of the border, not all of it


def test_overlaps_layer_both_washes_along_the_border(pipeline):
    img = two_washes(h=256)
    base = painted(pipeline({"lic_sigma": 0.0}), img)[..., :3]
    p = pipeline({"lic_sigma": 0.0, "overlaps": 1.0}, seed=3)
    out = painted(p, img)[..., :3]
    changed = np.abs(out - base).max(-1) > 1e-3
    cols = np.nonzero(changed.any(axis=0))[0]
    assert cols.size and cols.min() >= 16 - 3 and cols.max() <= 15 + 3
    assert (out[changed] <= base[changed] + 1e-3).all()  # overlaps only darken
    left, right = base[0, 2], base[0, -3]
    darkest = out[changed].sum(-1).min()
    assert darkest < min(left.sum(), right.sum()) - 0.1  # darker than either wash
    assert (out[changed].sum(-1) >= (left * right).sum() - 0.05).all()  # at most both layers


def test_bleeding_feathers_wet_borders_and_leaves_the_rest(pipeline):
    img = two_washes(h=96, w=128)
    base = painted(pipeline({"lic_sigma": 0.0}), img)
    p = pipeline({"lic_sigma": 0.0, "bleeding": 1.0, "bleed_width": 12.0, "turbulence_scale": 40.0})
    out = painted(p, img)
    wet = out[..., 3]
    assert wet.min() >= 0.0 and wet.max() <= 1.0 and wet.max() > 0.5
    diff = np.abs(out[..., :3] - base[..., :3]).max(-1)
    # blended across the border where wet, up to the bleeding distance (+ feather) away
    assert diff[:, 30:34].max() > 0.1
    reach = int((12.0 * 2.45 + 12.0 * 0.5) * WASH) + 2
    assert diff[:, : 32 - reach].max() < 2e-3 and diff[:, 32 + reach:].max() < 2e-3
    assert (diff[wet == 0] < 2e-3).all()  # dry paper: no bleeding


# -- wash tones -------------------------------------------------------------------------------

def ramp(h: int = 16, w: int = 200) -> np.ndarray:
    r = np.repeat(np.linspace(0, 1, w)[None, :, None], 3, axis=2)
    return np.repeat(r, h, axis=0).astype(np.float32)


def test_highlights_are_reserved_as_bare_paper(pipeline):
    prm = {"abstraction_iterations": 0, "quantize_levels": 6, "quantize_sharpness": 10.0}
    p0 = pipeline(prm)
    p0.render_array(ramp())
    p1 = pipeline({**prm, "highlights": 1.0})
    p1.render_array(ramp())
    lab = p0.read_target("abstract")[4, :, 0]
    q0, q1 = p0.read_target("quantized")[4], p1.read_target("quantized")[4]
    above = lab > 75.0 + 2.0  # threshold 1 - 0.25 * highlights
    below = lab < 75.0 - 2.0
    assert above.any() and below.any()
    np.testing.assert_allclose(q1[above, 0], 100.0, atol=0.05)
    np.testing.assert_allclose(q1[above, 1:3], 0.0, atol=0.05)
    np.testing.assert_array_equal(q1[below], q0[below])


def test_saturation_scales_chroma(pipeline):
    img = ref_colour = np.tile(np.array([[[180, 90, 40]]], np.uint8), (8, 8, 1))
    prm = {"abstraction_iterations": 0, "quantize_levels": 6}
    a = pipeline(prm)
    a.render_array(img)
    b = pipeline({**prm, "saturation": 1.5})
    b.render_array(ref_colour)
    qa, qb = a.read_target("quantized"), b.read_target("quantized")
    np.testing.assert_allclose(qb[..., 0], qa[..., 0], atol=1e-3)
    # the boost as tones.glsl gives it: full below chroma 30, fading on vivid colours
    gain = ref.chroma_gain(qa[..., :3].astype(np.float64), 1.5,
                           b.params.values()["skin_saturation"])[..., None]
    assert (gain < 1.5).all() and (gain > 1.0).all()  # this orange (chroma ~50) is vivid
    np.testing.assert_allclose(qb[..., 1:3], gain * qa[..., 1:3], rtol=2e-3, atol=0.02)
    # a mild colour gets the whole boost
    mild = np.tile(np.array([[[100, 120, 150]]], np.uint8), (8, 8, 1))  # a muted blue
    a.render_array(mild)
    b.render_array(mild)
    qa, qb = a.read_target("quantized"), b.read_target("quantized")
    np.testing.assert_allclose(qb[..., 1:3], 1.5 * qa[..., 1:3], rtol=2e-3, atol=0.02)


def test_tremor_moves_tone_borders_smoothly_and_by_the_seed(pipeline):
    prm = {"abstraction_iterations": 0, "quantize_levels": 4, "quantize_sharpness": 10.0}
    img = ramp(h=64)
    still = pipeline(prm)
    still.render_array(img)
    q0 = still.read_target("quantized")[..., 0]
    outs = []
    for seed in (1, 2):
        p = pipeline({**prm, "tremor": 1.0}, seed=seed)
        p.render_array(img)
        outs.append(p.read_target("quantized")[..., 0])
    moved = np.abs(outs[0] - q0) > 1.0
    assert moved.any()
    assert np.abs(outs[0] - outs[1]).max() > 1.0  # seeded
    # the borders wander: where a row first crosses a tone differs from row to row
    assert len({int(np.argmax(row > 30.0)) for row in outs[0]}) > 2
    assert np.abs(np.diff(outs[0], axis=0)).mean() < 0.2 * np.abs(np.diff(outs[0], axis=1)).max()


def test_gradient_adaptive_sharpness_keeps_graded_washes(pipeline):
    # A shallow ramp (a sky) stays graded; a steep one gets steps.
    prm = {"abstraction_iterations": 0, "quantize_levels": 4, "quantize_sharpness": 10.0}
    gentle = np.repeat(np.linspace(0.3, 0.42, 400)[None, :, None], 3, axis=2)
    gentle = np.repeat(gentle, 8, axis=0).astype(np.float32)
    p = pipeline(prm)
    p.render_array(gentle)
    lab = p.read_target("abstract")[2, :, 0].astype(np.float64)
    q = p.read_target("quantized")[2, :, 0].astype(np.float64)
    px = WASH * reference_px(p.style, (400, 8))
    expected = ref.soft_quantize(lab, 4, ref.adaptive_sharpness(lab[None], 10.0, px)[0])
    np.testing.assert_allclose(q, expected, atol=0.05)
    assert np.abs(np.diff(q)).max() < 1.0  # no step anywhere: graded


# -- saliency ---------------------------------------------------------------------------------

def saliency(p, img):
    p.render_array(img)
    s = p.read_target("saliency_t")[..., 0]
    return s, s.shape


def upscale(s, shape):
    import cv2

    return cv2.resize(s, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


def test_saliency_block_means_match_reference(pipeline):
    img = (np.random.default_rng(4).random((128, 192, 3)) * 255).astype(np.uint8)
    p = pipeline({"abstraction_iterations": 0})  # `abstract` as the saliency saw it
    p.render_array(img)
    lab = p.read_target("abstract")[..., :3].astype(np.float64)  # 64x96
    small = p.read_target("sal_lab")[..., :3]  # 1/16 of the work size: 8x12
    h, w = small.shape[:2]
    expected = lab.reshape(h, 8, w, 8, 3).mean(axis=(1, 3))
    assert (np.abs(small - expected) <= 0.02 + 2e-3 * np.abs(expected)).all()  # float16


def test_a_coloured_object_is_salient_and_a_flat_frame_keeps_its_centre(pipeline):
    h, w = 256, 384
    img = np.full((h, w, 3), 128, np.uint8)
    y, x = np.mgrid[0:h, 0:w]
    disc = (x - 130) ** 2 + (y - 110) ** 2 < 45 ** 2
    img[disc] = (220, 40, 40)
    s, _ = saliency(pipeline(), img)
    s = upscale(s, (h, w))
    assert s[disc].mean() > 0.7 and s[~disc].mean() < 0.4
    assert s[disc].mean() > 2.5 * s[(x - 330) ** 2 + (y - 200) ** 2 < 30 ** 2].mean()
    flat, _ = saliency(pipeline(), np.full((h, w, 3), 128, np.uint8))
    flat = upscale(flat, (h, w))
    assert flat[h // 2, w // 2] > flat[5, 5] + 0.1  # the centre prior alone


def test_skin_tones_count_as_subject(pipeline):
    from skimage.color import lab2rgb

    h, w = 256, 384
    # Low contrast on purpose: a beige wall, a face-coloured disc and a grey one, both about
    # 10 Lab units from the wall (contrast alone would rank them alike).
    grey = lab2rgb(np.array([[[70.0, 5.0, 8.0]]]))[0, 0]
    skin = lab2rgb(np.array([[[70.0, 10.0, 17.0]]]))[0, 0]  # hue ~60 deg, chroma ~20
    other = lab2rgb(np.array([[[70.0, 0.0, -1.0]]]))[0, 0]
    img = np.tile(grey, (h, w, 1))
    y, x = np.mgrid[0:h, 0:w]
    a = (x - 110) ** 2 + (y - 128) ** 2 < 35 ** 2
    b = (x - 274) ** 2 + (y - 128) ** 2 < 35 ** 2  # mirror position: same centre prior
    img[a], img[b] = skin, other
    strong = (x - 192) ** 2 + (y - 40) ** 2 < 30 ** 2  # what contrast alone would pick
    img[strong] = lab2rgb(np.array([[[50.0, 70.0, 50.0]]]))[0, 0]
    s, _ = saliency(pipeline(), (img * 255).round().astype(np.uint8))
    s = upscale(s, (h, w))
    assert s[a].mean() > s[b].mean() + 0.2


def test_detail_keeps_the_subject_sharper(pipeline):
    # A salient red disc with fine stripes: with detail the stripes survive the abstraction.
    h, w = 256, 384
    y, x = np.mgrid[0:h, 0:w]
    img = np.full((h, w, 3), 128, np.uint8)
    disc = (x - 192) ** 2 + (y - 128) ** 2 < 60 ** 2
    stripes = ((x // 4) % 2 == 0) & disc
    img[disc] = (220, 60, 50)
    img[stripes] = (200, 80, 60)
    prm = {"abstraction_iterations": 3, "sigma_r": 12.0, "sigma_d": 6.0}
    flat = pipeline({**prm, "detail": 0.0})
    flat.render_array(img)
    keep = pipeline({**prm, "detail": 1.0})
    keep.render_array(img)
    a0 = flat.read_target("abstract")[..., 0]
    a1 = keep.read_target("abstract")[..., 0]
    inner = (disc & ((x - 192) ** 2 + (y - 128) ** 2 < 40 ** 2))[::2, ::2]
    assert a1[inner].std() > 1.3 * a0[inner].std()


# -- reference pixels -------------------------------------------------------------------------

def test_reference_px_is_the_shorter_side_over_720():
    from aquarelle.engine import load_style

    style = load_style("watercolor")
    assert style.reference_lines == 720
    assert reference_px(style, (1280, 720)) == 1.0
    assert reference_px(style, (640, 360)) == 0.5
    assert reference_px(style, (160, 120)) == 0.5  # features stop shrinking
    assert reference_px(style, (3000, 4000)) == pytest.approx(3000 / 720)
    assert reference_px(UNIT_STYLE, (640, 360)) == 1.0


def test_wash_sizes_scale_with_the_frame(gl_ctx, pipeline):
    # The real style: the wet-edge blur of a 360-line frame is half as wide in pixels.
    from conftest import WASH_OFF

    from aquarelle.engine import Renderer

    img = two_washes(h=360, w=480)
    with Renderer(gl_ctx, "watercolor") as p:
        p.inspect = True
        p.set_params({**WASH_OFF, "edge_width": 6.0, "lic_sigma": 0.0,
                      "abstraction_iterations": 0})
        p.render_array(img)
        smooth = p.read_target("smooth")[..., :3].astype(np.float64)
        blurred = p.read_target("blurred")[..., :3]
    expected = ref.gaussian_blur(smooth, 6.0 * (360 / 720) * WASH)
    assert np.abs(blurred - expected).max() < 2e-3


@pytest.mark.parametrize("values", [{}, {"dispersion": 0.6, "stroke_strength": 0.8,
                                         "outline_strength": 0.5, "gaps": 0.0}])
@pytest.mark.parametrize("picture", ["astronaut", "coffee"])
def test_specialized_passes_paint_the_generic_picture(fresh_unit_pipeline, values, picture):
    # Terms at 0 and the temporal switches are compiled into the watercolor's shaders (a CPU
    # renderer runs both sides of every branch); the picture must not change, frame after
    # frame (the history switch flips after the first), with a face found and without one.
    import skimage.data

    img = np.ascontiguousarray(getattr(skimage.data, picture)()[::4, ::4])
    fast, plain = fresh_unit_pipeline(values), fresh_unit_pipeline(values)
    plain.stages[0].graph._specialized = lambda c, values: c  # always the generic programs
    for shift in (0, 2, 4):
        frame = np.ascontiguousarray(np.roll(img, shift, axis=1))
        a, b = fast.render_array(frame), plain.render_array(frame)
        assert np.abs(a.astype(int) - b).max() <= 1
    assert fast.stages[0].graph._variants and not plain.stages[0].graph._variants


def test_a_pipeline_reused_across_values_paints_what_fresh_ones_do(fresh_unit_pipeline):
    # Uniforms are written only when their value changed (a program keeps what was written):
    # going back and forth between values must still paint each value's picture.
    import skimage.data

    img = np.ascontiguousarray(skimage.data.astronaut()[::4, ::4])
    reused = fresh_unit_pipeline({"temporal": False})
    for dilution, wobble in ((0.2, 1.0), (0.6, 3.0), (0.2, 1.0)):
        reused.set_params({"dilution": dilution, "wobble": wobble})
        fresh = fresh_unit_pipeline({"temporal": False, "dilution": dilution, "wobble": wobble})
        np.testing.assert_array_equal(reused.render_array(img), fresh.render_array(img))


def test_tone_steps_are_as_crisp_at_any_resolution(pipeline):
    # The gradient-adaptive sharpness reads the tone change per reference pixel: the same
    # ramp at 360 and at 720 lines gets the same tones (the larger frame's, halved).
    prm = {"abstraction_iterations": 0, "quantize_levels": 4, "quantize_sharpness": 10.0,
           "tremor": 0.0, "highlights": 0.0, "detail": 0.0}
    rows = []
    for n in (360, 720):
        ramp = np.repeat(np.linspace(0.15, 0.85, n)[None, :, None], 3, axis=2)
        p = pipeline(prm, style="watercolor")  # sizes in reference px of 720 lines
        p.render_array(np.repeat(ramp, n, axis=0).astype(np.float32))
        rows.append(p.read_target("quantized")[n // 4, :, 0].astype(np.float64))
    small, large = rows
    large = large.reshape(-1, 2).mean(axis=1)
    inner = slice(8, -8)  # the blur's borders differ by a pixel
    assert np.abs(small[inner] - large[inner]).max() < 2.0, np.abs(small - large).max()
    assert np.ptp(np.diff(small)) > 1.0  # steps, not a plain ramp


# -- a painter's palette ------------------------------------------------------------------

def _hue(ab: np.ndarray) -> np.ndarray:
    return np.degrees(np.arctan2(ab[..., 1], ab[..., 0])) % 360


def test_a_limited_palette_draws_hues_to_pigments_and_keeps_greys(pipeline):
    """A green between sap green (120 degrees) and viridian (175) moves towards sap green,
    its chroma kept; a grey stays grey (palette.glsl)."""
    import cv2

    lab = np.zeros((32, 64, 3), np.float32)
    lab[..., 0] = 60.0
    lab[:, :32, 1:] = 30.0 * np.array([np.cos(np.radians(140)), np.sin(np.radians(140))])
    img = cv2.cvtColor(lab, cv2.COLOR_LAB2RGB)
    img = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    tones = {}
    for k in (0.0, 1.0):
        p = pipeline({"palette": k, "temperature": 0.0, "quantize_levels": 8})
        p.render_array(img)
        q = p.read_target("quantized")  # half the picture's size
        tones[k] = q[4:12, 2:14, 1:3].astype(np.float64)
        assert np.abs(q[4:12, 20:30, 1:3]).max() < 1.0  # the grey
    h0, h1 = _hue(tones[0.0]).mean(), _hue(tones[1.0]).mean()
    assert 130 < h0 < 150 and abs(h1 - 120) < 3, (h0, h1)
    c0, c1 = (np.linalg.norm(tones[k], axis=-1).mean() for k in (0.0, 1.0))
    assert abs(c1 - c0) < 0.02 * c0


def test_shadows_are_cooler_and_lights_warmer_than_around_them(pipeline):
    """A dark patch in a mid-grey field gets bluer (b* down), a light one yellower (b* up)."""
    img = np.full((96, 96, 3), 128, np.uint8)
    img[20:44, 20:44] = 60
    img[52:76, 52:76] = 200
    b = {}
    for t in (0.0, 1.0):
        p = pipeline({"palette": 0.0, "temperature": t, "quantize_levels": 8,
                      "wash_size": 12.0})
        p.render_array(img)
        q = p.read_target("quantized")
        b[t] = (float(q[14:18, 14:18, 2].mean()), float(q[30:34, 30:34, 2].mean()))
    # measured -1.9 and +1.4 b* (the patches' tones against the wide wash round them)
    assert b[1.0][0] < b[0.0][0] - 1.0  # the shadow's (half-size target coordinates)
    assert b[1.0][1] > b[0.0][1] + 0.7  # the light's


def test_bare_paper_takes_no_colour_from_the_temperature(pipeline):
    """Highlights left bare stay the paper's white however warm the lights are made."""
    img = np.full((48, 64, 3), 255, np.uint8)
    img[12:36, 16:48] = 150  # a wash, so the white is lighter than its surroundings
    p = pipeline({"temperature": 1.0, "palette": 1.0, "quantize_levels": 8,
                  "wash_size": 12.0, "highlights": 1.0})
    p.render_array(img)
    q = p.read_target("quantized")
    bare = q[..., 0] > 99.9
    assert bare.mean() > 0.2 and np.abs(q[bare][:, 1:3]).max() < 0.05
    assert np.isfinite(q).all()
