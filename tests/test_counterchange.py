"""Counterchange (issue 28's vignette): with the face lit from one side, the background wash
round the figure lies behind its lit side, and the shadow side meets the bare paper below the
head (round the head the wash lies on every side: vignette.frag head_wash)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import reference as ref
import skimage.data

from aquarelle.engine.face_light import face_light
from aquarelle.engine.faces import FaceDetector


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest): no test here changes more of
    a pipeline than its parameters and switches."""
    return reused_pipeline


@pytest.fixture(scope="module")
def portrait() -> np.ndarray:
    """The astronaut, lit from the picture's left (her right cheek is the lighter)."""
    return cv2.resize(skimage.data.astronaut(), (384, 384), interpolation=cv2.INTER_AREA)


def test_the_light_is_read_from_the_cheeks(portrait):
    face = FaceDetector().detect(portrait)[0]
    light = face_light(portrait, face)
    mirrored = portrait[:, ::-1].copy()
    flipped = face_light(mirrored, FaceDetector().detect(mirrored)[0])
    assert light < -0.2 and flipped > 0.2 and abs(light + flipped) < 0.15, (light, flipped)
    assert face_light(portrait, face.__class__(face.box, face.keypoints, face.score)) == 0.0


def wash_sides(p, img: np.ndarray) -> tuple[float, float]:
    """The share of the picture's left and right halves (of the main face's centre) painted
    as background round the figure (inside the vignette, outside the figure)."""
    p.render_array(img)
    v = p.read_target("vignette")
    painted = ref.smoothstep(0.25, 0.75, v[..., 0])
    fig = cv2.resize(p.read_target("figure_t")[..., 0], painted.shape[1::-1])
    around = painted * (fig < 0.3)
    h, w = around.shape
    x0, _, x1, _ = max(p.last_subject.faces, key=lambda f: f.size).box
    cx = int(0.5 * (x0 + x1) * w / img.shape[1])
    return float(around[:, :cx].mean()), float(around[:, cx:].mean())


def test_the_wash_lies_behind_the_lit_side(pipeline, portrait):
    left, right = wash_sides(pipeline(), portrait)
    # lit from the left: measured 0.117 / 0.053; since the wash lies round the head on its
    # shadow side too (trial F10, finding 1: it stopped against the hair there, a cut-out
    # island stuck to one side of the head), 0.114 / 0.084
    assert left > 1.25 * right, (left, right)
    # mirrored, lit from the right, the wash swings to the right (the paper's noise, which
    # lopsides it too, is not mirrored): its share on the right 0.31 -> 0.51 (with the
    # figure's neighbourhood 0.08 of the short side, before the wash was made broader, 0.18
    # -> 0.55: a broader wash reaches round the head on both sides of the face's centre;
    # with the figure taken as the person where one is expected only, 966835e, 0.32 -> 0.50:
    # the swing is the same, the paper's lopsiding puts the mirrored share at about a half;
    # with the wash round the head on its shadow side too, 0.43 -> 0.49: the swing is the
    # body's alone)
    left2, right2 = wash_sides(pipeline(), portrait[:, ::-1].copy())
    assert right2 / (left2 + right2) > max(0.45, right / (left + right) + 0.05), \
        (left, right, left2, right2)


def test_a_draft_lays_the_wash_where_the_full_render_does(pipeline, portrait):
    """A draft paints the picture shrunk: the face's place and size reach its passes in its
    own px, so the wash turns at the face there too."""
    full = wash_sides(pipeline(), portrait)
    draft = wash_sides(pipeline(scale=0.5), portrait)
    assert draft[0] > 1.25 * draft[1], (full, draft)  # measured 0.110 / 0.081
    assert abs(draft[1] - full[1]) < 0.02, (full, draft)
