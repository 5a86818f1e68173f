"""Hair along its flow (issue 28): a found figure's hair and clothes are laid from the
abstraction smoothed along the tangent flow (strands.frag), so their tones become long
shapes that follow the strands, not blobs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import reference as ref
from test_passes import assert_close_f16, flow_axis, straight_flow_image

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

STRAND_SIGMA = 22.0  # reference px (strands.frag)
STRAND_STEPS = 12.0
STRAND_PER_FACE = 0.1  # of the faces' median size at most


def a_face(w: int, h: int, k: float = 0.2) -> Subject:
    """A face (k of the short side) at the top middle of a w x h picture whose person fills
    it: the rest of the figure (hair, clothes) is most of the picture."""
    s = k * min(w, h)
    box = (w / 2 - s / 2, 0.08 * h, w / 2 + s / 2, 0.08 * h + s)
    kp = np.zeros((6, 2))
    return Subject((Face(box, kp, 0.9),), np.ones((144, 256), np.float32))


def beyond_face(focus: np.ndarray) -> np.ndarray:
    """figure_rest.glsl: the figure beyond its face and features, from the focus map."""
    return (focus[..., 3] * (1 - ref.smoothstep(0.1, 0.5, focus[..., 2]))
            * (1 - ref.smoothstep(0.1, 0.4, focus[..., 1])))


def given(p, subject: Subject):
    p.subject_feed = "given"
    p.set_subject(subject)
    return p


@pytest.mark.parametrize("vertical", [True, False])
def test_strands_are_the_abstraction_smoothed_along_the_flow(unit_pipeline, vertical):
    img = straight_flow_image(160, 192, vertical=vertical)
    h, w = img.shape[:2]
    t, _ = flow_axis(vertical)
    subject = a_face(w, h, 0.55)
    p = given(unit_pipeline({"flat_threshold": 0.0}), subject)
    p.render_array(img)
    src = p.read_target("abstract_t")[..., :3]
    strands = p.read_target("strands")[..., :3]
    # the unit style's reference is the work frame (u_px 1): sigma 22 work px at most, and
    # at most a tenth of the face (8.8 px here), walked in at most STRAND_STEPS steps each way
    sigma = min(STRAND_SIGMA, STRAND_PER_FACE * subject.face_size)
    step = max(2.0, 2.0 * sigma / (STRAND_STEPS + 0.5))
    expected = ref.lic_straight(src, t, sigma, (w, h), strands.shape[:2], step=step)
    # walked on the figure beyond the face only (the focus map, sampled at each texel)
    fh, fw = strands.shape[:2]
    x, y = ref.pixel_centres(fh, fw)
    focus = p.read_target("focus_t")
    f = ref.bilinear(focus, x * focus.shape[1] / fw, y * focus.shape[0] / fh)
    walked = beyond_face(f) > 0.0
    assert 0.3 < walked.mean() < 0.99
    assert np.abs(strands - src)[walked].max() > 0.5  # it smoothed (Lab units)
    assert_close_f16(strands[walked], expected[walked], floor=2e-3, what="strands")
    assert_close_f16(strands[~walked], src[~walked], what="not walked: the abstraction")


def test_without_a_face_or_with_hair_flow_off_no_strands_are_laid(unit_pipeline):
    img = straight_flow_image()
    h, w = img.shape[:2]
    off = given(unit_pipeline({"hair_flow": 0.0}), a_face(w, h))
    off.render_array(img)
    np.testing.assert_array_equal(off.read_target("strands"), off.read_target("abstract_t"))
    alone = unit_pipeline()
    alone.render_array(img)  # a flat pattern: no face found
    assert alone.last_subject is None
    np.testing.assert_array_equal(alone.read_target("strands"),
                                  alone.read_target("abstract_t"))


def strand_texture(h: int, w: int, seed: int = 4,
                   base: tuple[float, float, float] = (0.45, 0.28, 0.16)) -> np.ndarray:
    """uint8 'hair': warm brown noise (about `base`, sRGB 0..1) stretched 12x along y
    (strands running down)."""
    rng = np.random.default_rng(seed)
    n = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), sigmaX=1.5,
                         sigmaY=18.0)
    n = (n - n.min()) / (n.max() - n.min())
    img = np.array(base, np.float32) * (0.45 + 1.1 * n[..., None])
    return (np.clip(img, 0, 1) * 255).astype(np.uint8)


def anisotropy(lum: np.ndarray) -> float:
    """Mean |dL/dx| over mean |dL/dy|: how much more the tones change across vertical
    strands than along them."""
    gx = np.abs(np.diff(lum, axis=1)).mean()
    gy = np.abs(np.diff(lum, axis=0)).mean()
    return float(gx / max(gy, 1e-6))


def test_hair_is_laid_in_long_shapes_along_its_strands(pipeline):
    img = strand_texture(360, 360)
    subject = a_face(360, 360)
    tones = {}
    for k in (0.0, 1.0):
        p = given(pipeline({"hair_flow": k}), subject)
        p.render_array(img)
        q = p.read_target("quantized")[..., 0]  # L* of the laid tones
        hh = q.shape[0]
        tones[k] = q[hh // 2:]  # below the face: hair only
    # laid as shapes the tones break into blobs across the strands too (3.7 here); along
    # the flow they become long shapes that change across the strands (6.0)
    assert anisotropy(tones[1.0]) > 1.4 * anisotropy(tones[0.0]), \
        (anisotropy(tones[0.0]), anisotropy(tones[1.0]))


def test_strands_are_walked_in_full_renders_and_drafts_not_live_cheap_ones(pipeline):
    """Like the figure's shapes: a style's own draft lays them, live adaptive quality's cheap
    draft (everything at the work size) does not (its tones take no strands either)."""
    from aquarelle.engine.frame_plan import RUN

    img = strand_texture(360, 360)
    runs = {}
    for name, scale, borders in (("full", 1.0, True), ("draft", 0.5, True),
                                 ("cheap", 0.5, False)):
        p = given(pipeline(scale=scale), a_face(360, 360))
        p.draft_borders = borders
        p.render_array(img)
        runs[name] = any(op.name == "strands" and op.action == RUN
                         for op in p.stages[0].graph._last.ops)
    assert runs == {"full": True, "draft": True, "cheap": False}
