"""On bare paper the figure ends in its own colour: the washes are smoothed across the photo's
outline, so their last pixels inside the vignette's cut carried the background's colour, a
1-3 px rim of a blue wall round a head on white paper (trial F6: img24, a third of the
pixels by its outline). composite.frag inside_colour takes the washes there from inside."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

PICTURE = (320, 240)  # w, h
MODEL = (256, 256)  # the segmenter's grid (w, h) over the picture
WALL = np.array([20, 80, 210], np.float32)  # a saturated blue backdrop
SKIN = np.array([205, 150, 115], np.float32)


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest): parameters only change."""
    return reused_pipeline


def person() -> np.ndarray:
    """Picture-px mask (h, w) of a head and shoulders (the face's box inside the head, as
    a detector's is: the hair beyond it)."""
    y, x = np.mgrid[0:PICTURE[1], 0:PICTURE[0]].astype(np.float32)
    head = ((x - 160) / 36) ** 2 + ((y - 80) / 44) ** 2 < 1.0
    body = ((x - 160) / 95) ** 2 + ((y - 260) / 120) ** 2 < 1.0
    return head | body


def photo(mask: np.ndarray) -> np.ndarray:
    """A warm, mottled figure on a saturated blue wall, its edge a little soft (a lens's)."""
    rng = np.random.default_rng(5)
    img = np.where(mask[..., None], SKIN, WALL)
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    img += rng.normal(0, 4, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def lab(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB)


def wall_hued(picture: np.ndarray) -> np.ndarray:
    """Pixels carrying the wall's hue (within 25 degrees, with some of its chroma)."""
    wall = lab(WALL[None, None])[0, 0]
    hue = np.degrees(np.arctan2(wall[2], wall[1]))
    c = lab(picture)
    h = np.degrees(np.arctan2(c[..., 2], c[..., 1]))
    chroma = np.hypot(c[..., 1], c[..., 2])
    return (np.abs((h - hue + 180.0) % 360.0 - 180.0) < 25.0) & (chroma > 12.0)


def test_the_figure_ends_in_its_own_colour_not_the_walls(pipeline):
    """A still on bare paper: within 3 px either side of where the painting meets the paper
    (the face kept whole, away from the frame's borders) hardly a pixel carries the wall's
    blue. Before: 20% of them (a blue line round the head and shoulders); now 0.6%."""
    mask = person()
    p = pipeline({"background": "bare paper"})
    p.subject_feed = "given"
    keypoints = np.array([[150, 78], [170, 78], [160, 92], [160, 104], [140, 82], [180, 82]],
                         np.float64)
    prob = cv2.GaussianBlur(cv2.resize(mask.astype(np.float32), MODEL,
                                       interpolation=cv2.INTER_AREA), (0, 0), 1.5)
    p.set_subject(Subject((Face((140.0, 60.0, 180.0, 114.0), keypoints, 0.9),), prob))
    p.keep_history = False  # a still
    out = p.render_array(photo(mask))[..., :3]
    out = cv2.resize(out, PICTURE, interpolation=cv2.INTER_AREA)
    c = lab(out)
    sheet = c[4:40, 4:40].reshape(-1, 3).mean(axis=0)  # the paper, at a corner
    paper = (np.linalg.norm(c - sheet, axis=2) < 6.0).astype(np.uint8)
    paper = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    kernel = np.ones((7, 7), np.uint8)
    near = (cv2.dilate(paper, kernel) > 0) & (cv2.dilate(1 - paper, kernel) > 0)
    near[:8] = near[-40:] = False  # the frame's borders (the figure thins at the bottom)
    near[:, :8] = near[:, -8:] = False
    assert near.sum() > 600
    assert paper[near].mean() > 0.2 and paper[near].mean() < 0.8  # an outline, both sides
    blue = float(wall_hued(out)[near].mean())
    assert blue < 0.02, blue
