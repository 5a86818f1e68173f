"""The painted figure's outline follows the photo's own edge, not the person mask's coarse,
faceted one (figure_edges.frag): with bare paper round a person whose mask is a polygon of a
few long sides, cut a few px off the photo's contour on the grid of the segmenter, the
vignette's edge lay on the polygon (trial F4: a polygon helmet round curls, blocky arms)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

PICTURE = (320, 240)  # w, h
MODEL = (256, 256)  # the segmenter's grid (w, h) over the picture


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest): parameters only change."""
    return reused_pipeline


def person() -> np.ndarray:
    """Picture-px mask (h, w) of a head, shoulders and an arm held out and down: round, and
    slanted, sides."""
    y, x = np.mgrid[0:PICTURE[1], 0:PICTURE[0]].astype(np.float32)
    head = ((x - 150) / 34) ** 2 + ((y - 72) / 42) ** 2 < 1.0
    body = ((x - 150) / 85) ** 2 + ((y - 250) / 125) ** 2 < 1.0
    arm = np.abs((y - 150) - 0.45 * (x - 210)) < 16
    arm &= (x > 190) & (x < 300)
    return head | body | arm


def coarse(mask: np.ndarray) -> np.ndarray:
    """The person probability the segmenter gives, on its grid: the mask's outline taken as a
    polygon of long straight sides (at most 9 px off it), slightly soft."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    poly = np.zeros(mask.shape, np.uint8)
    for c in contours:
        cv2.fillPoly(poly, [cv2.approxPolyDP(c, 9.0, True)], 1)
    p = cv2.resize(poly.astype(np.float32), MODEL, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(p, (0, 0), 1.0)


def photo(mask: np.ndarray) -> np.ndarray:
    """A warm, mottled figure on a cool, mottled wall, its edge sharp."""
    rng = np.random.default_rng(3)
    wall = np.array([70, 90, 120], np.float32)
    figure = np.array([200, 150, 110], np.float32)
    img = np.where(mask[..., None], figure, wall)
    img += rng.normal(0, 5, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_the_painted_outline_lies_on_the_photos_edge_not_the_masks_polygon(pipeline):
    """On a still in bare paper: the vignette's edge (its painted side at the picture's size)
    lies within 2 px of the photo's contour on most of its length, away from the face (kept
    whole) and the frame's borders. Before (the mask's polygon, thresholded with the
    vignette's noise): 73% of it, 1.9 px off on average; now 89%, 1.4 px."""
    mask = person()
    p = pipeline({"background": "bare paper"})
    p.subject_feed = "given"
    keypoints = np.array([[136, 62], [164, 62], [150, 78], [150, 92], [120, 68], [180, 68]],
                         np.float64)
    p.set_subject(Subject((Face((118.0, 32.0, 182.0, 112.0), keypoints, 0.9),),
                          coarse(mask)))
    p.keep_history = False  # a still
    p.render_array(photo(mask))
    v = cv2.resize(p.read_target("vignette")[..., 0], PICTURE, interpolation=cv2.INTER_LINEAR)
    painted = (v > 0.5).astype(np.uint8)
    outline = cv2.morphologyEx(painted, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0
    outline &= painted > 0
    outline[:8] = outline[-40:] = False  # the frame's borders (the figure thins at the bottom)
    outline[:, :8] = outline[:, -8:] = False
    outline[20:125, 105:195] = False  # round the face
    contour = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_GRADIENT,
                               np.ones((3, 3), np.uint8)) == 0
    off = cv2.distanceTransform(contour.astype(np.uint8), cv2.DIST_L2, 3)[outline]
    assert outline.sum() > 200
    near = float((off <= 2.0).mean())
    assert near > 0.8, (near, float(off.mean()))
