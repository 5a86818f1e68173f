"""The shadow glaze (issue 29, items 2 and 3): one transparent glaze over the dried first
layer, its hard border following the form across the first layer's washes, the first layer
lighter beneath it, the two mixed as transparent layers (glaze.glsl)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import reference as ref

GLAZE_LEVEL = 48.0  # L* of the glaze's border (keyed lightness 0.48, the style's key 0)
GLAZE_TREMOR = 8.0  # L*: how far its noise moves it either way, at most half of it


@pytest.fixture
def unit_pipeline(reused_unit_pipeline):
    """`unit_pipeline` on the module's reused pipelines (conftest)."""
    return reused_unit_pipeline


def lab_image(lab: np.ndarray) -> np.ndarray:
    """uint8 sRGB of a float Lab image."""
    rgb = cv2.cvtColor(np.asarray(lab, np.float32), cv2.COLOR_LAB2RGB)
    return np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)


def flat(h: int, w: int, lab: tuple[float, float, float]) -> np.ndarray:
    return lab_image(np.broadcast_to(np.array(lab, np.float32), (h, w, 3)))


def tones(p, img: np.ndarray) -> np.ndarray:
    p.render_array(img)
    return p.read_target("quantized")[..., :3].astype(np.float64)


def ramp(h: int = 48, w: int = 384) -> np.ndarray:
    lab = np.zeros((h, w, 3), np.float32)
    lab[..., 0] = np.linspace(20.0, 80.0, w)
    return lab_image(lab)


def test_the_glaze_crosses_the_first_layers_graded_wash_with_a_hard_border(unit_pipeline):
    """On a slow ramp the first layer is graded (no step); the glaze lays one hard step where
    the form crosses its level: 4+ L* within two texels, none in the first layer there."""
    img = ramp()
    params = {"quantize_levels": 6}
    q0 = tones(unit_pipeline({**params, "glaze": 0.0}), img)[..., 0]
    p = unit_pipeline({**params, "glaze": 1.0})
    q1 = tones(p, img)[..., 0]
    src = p.read_target("abstract_t")[..., 0]
    for row in range(2, q1.shape[0] - 2, 3):
        jump = q1[row, 2:] - q1[row, :-2]  # over two texels
        x = int(np.argmax(jump)) + 1
        assert jump[x - 1] > 4.0, (row, jump[x - 1])
        assert abs(src[row, x] - GLAZE_LEVEL) <= GLAZE_TREMOR / 2 + 1.0, (row, src[row, x])
        first = q0[row, 2:] - q0[row, :-2]
        assert np.abs(first[x - 4:x + 3]).max() < 1.2, row  # graded: no step of its own
        lighter = q1[row, x + 3:] - q1[row, x + 2:-1]
        assert lighter.min() > -1.0  # a step down into the glaze, not a rim


def test_beneath_the_glaze_the_first_layer_lies_lighter_and_the_glaze_multiplies(
        unit_pipeline):
    """A flat dark patch (all glaze): its tone is the first layer's tone of the patch made
    lighter by the glaze's transmittance, with the glaze's colour multiplied over it."""
    lab = (34.0, 12.0, -20.0)
    p = unit_pipeline({"quantize_levels": 6, "glaze": 1.0})
    q1 = tones(p, flat(32, 48, lab))
    local = p.read_target("abstract_t")[8:24, 12:36, 1:3].astype(np.float64).mean((0, 1))
    lifted = float(ref.glaze_lifted(np.array([lab]), np.array([1.0]), local[None], 0.0,
                                    1.0)[0])
    assert lifted > lab[0] + 6.0  # a full glaze takes about a third of the light
    q0 = tones(unit_pipeline({"quantize_levels": 6, "glaze": 0.0}),
               flat(32, 48, (lifted, lab[1], lab[2])))
    first = q0[4:12, 6:18].mean((0, 1))
    expected = ref.glazed(first, np.array(1.0), local, 0.0, 1.0)
    got = q1[4:12, 6:18].mean((0, 1))
    np.testing.assert_allclose(got, expected, atol=1.2)


@pytest.mark.parametrize(("lab", "what"), [((36.0, 0.0, 0.0), "grey"),
                                           ((32.0, 38.0, 22.0), "red")])
def test_a_glaze_keeps_the_value_cools_a_grey_and_deepens_a_colour(unit_pipeline, lab, what):
    """The values stay the photo's (the lift makes up for the glaze); a grey's shadow turns
    ultramarine-cool, a red's stays red (its own pigment, not mud)."""
    img = flat(32, 48, lab)
    q0 = tones(unit_pipeline({"quantize_levels": 6, "glaze": 0.0}), img)[4:12, 6:18]
    q1 = tones(unit_pipeline({"quantize_levels": 6, "glaze": 1.0}), img)[4:12, 6:18]
    m0, m1 = q0.mean((0, 1)), q1.mean((0, 1))
    assert abs(m1[0] - m0[0]) < 2.0, (m0, m1)
    if what == "grey":
        assert m1[2] < m0[2] - 2.0, (m0, m1)  # b* towards blue
    else:
        hue = np.degrees(np.arctan2(m1[2], m1[1]) - np.arctan2(m0[2], m0[1]))
        assert abs(hue) < 15.0 and np.hypot(*m1[1:]) > 0.85 * np.hypot(*m0[1:]), (m0, m1)
