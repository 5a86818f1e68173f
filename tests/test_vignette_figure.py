"""With bare paper round the figure, the figure is the person: a piece of the background the
person segmenter is unsure of (a wall, a door frame at p 0.2) stays paper, while a hole it
is as unsure of inside the figure is painted (subject_map: the unsure probability is taken
where a person is expected only, b1bcf5d took it everywhere)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

PICTURE = (320, 240)  # w, h
MODEL = (256, 256)  # the segmenter's grid (w, h) over the picture
UNSURE = 0.2  # person_mask.REGION: what the segmenter gives a wall beside a person


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest): parameters only change."""
    return reused_pipeline


def regions() -> dict[str, np.ndarray]:
    """Picture-px masks (h, w) of a head and shoulders (the person), a hole in its chest
    and two pieces of background clear of it (beside its head, beside its body)."""
    y, x = np.mgrid[0:PICTURE[1], 0:PICTURE[0]].astype(np.float32)
    head = ((x - 160) / 35) ** 2 + ((y - 75) / 45) ** 2 < 1.0
    body = (y > 115) & (np.abs(x - 160) < 80)
    hole = (x - 160) ** 2 + (y - 185) ** 2 < 18 ** 2
    return {"person": (head | body) & ~hole, "hole": hole,
            "beside_head": (x > 15) & (x < 60) & (y > 15) & (y < 90),
            "beside_body": (x < 45) & (y > 140)}


def subject(masks: dict[str, np.ndarray]) -> Subject:
    """The subject: a face on the head, the person probability 1 on the person and UNSURE
    on the hole and the background's pieces, 0 elsewhere, on the segmenter's grid."""
    p = masks["person"].astype(np.float32)
    p[masks["hole"] | masks["beside_head"] | masks["beside_body"]] = UNSURE
    p = cv2.resize(p, MODEL, interpolation=cv2.INTER_NEAREST)
    keypoints = np.array([[145, 65], [175, 65], [160, 80], [160, 95], [130, 70], [190, 70]],
                         np.float64)
    return Subject((Face((128.0, 35.0, 192.0, 110.0), keypoints, 0.9),), p)


def test_a_background_piece_stays_paper_and_a_hole_in_the_figure_is_painted(pipeline):
    """On a still in bare paper, the vignette's painted side (before the composite) covers
    the figure's hole whole and leaves the pieces of background paper (before: each was
    figure 0.5, painted where the vignette's noise rose: 13% and 2% of their px; the hole, as
unsure, was paper)."""
    masks = regions()
    rng = np.random.default_rng(5)
    picture = np.clip(rng.normal(128, 20, (PICTURE[1], PICTURE[0], 3)), 0, 255).astype(np.uint8)
    p = pipeline({"background": "bare paper"})
    p.subject_feed = "given"
    p.set_subject(subject(masks))
    p.keep_history = False  # a still
    p.render_array(picture)
    v = cv2.resize(p.read_target("vignette")[..., 0], PICTURE, interpolation=cv2.INTER_LINEAR)
    painted = v > 0.5
    inner = {k: cv2.erode(m.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
             for k, m in masks.items()}
    inner["person"][170:] = False  # (the figure thins into the paper at the frame's bottom)
    shares = {k: float(painted[m].mean()) for k, m in inner.items()}
    assert shares["person"] > 0.99, shares
    assert shares["hole"] > 0.99, shares
    assert shares["beside_head"] < 0.01, shares
    assert shares["beside_body"] < 0.01, shares
