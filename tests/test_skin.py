"""Skin keeps its colour: the pigment saturation (1.45 by default) is held at the skin
saturation (1.15) on vivid skin tones, pale to dark; dull skin keeps the boost, and nothing
else changes. (The cases share one pipeline: conftest's `reused_pipeline`.)"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

SKIN = [(233, 190, 160), (198, 134, 96), (141, 85, 54), (96, 58, 40)]  # pale to dark, sRGB
DULL_SKIN = (160, 145, 135)  # grey-lit skin: chroma about 8
OTHER = [(80, 140, 210), (60, 150, 70), (230, 110, 20), (200, 40, 50)]  # sky, leaf, orange, red


def chroma(rgb: np.ndarray) -> float:
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    return float(np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)[16:-16, 16:-16].mean())


@pytest.mark.parametrize("colour", SKIN)
def test_skin_tones_keep_their_chroma(reused_pipeline, colour) -> None:
    patch = np.full((64, 64, 3), colour, np.uint8)
    old = reused_pipeline({"skin_saturation": 1.45}).render_array(patch)  # as before: no cap
    new = reused_pipeline().render_array(patch)
    assert chroma(new) < 0.9 * chroma(old)
    assert chroma(new) < 1.15 * chroma(patch)  # near the photo's, not pushed to orange


def test_dull_skin_keeps_the_pigment_saturation(reused_pipeline) -> None:
    patch = np.full((64, 64, 3), DULL_SKIN, np.uint8)
    old = reused_pipeline({"skin_saturation": 1.45}).render_array(patch)
    new = reused_pipeline().render_array(patch)
    assert np.abs(new.astype(int) - old.astype(int)).max() <= 1


@pytest.mark.parametrize("colour", OTHER)
def test_other_colours_keep_the_pigment_saturation(reused_pipeline, colour) -> None:
    patch = np.full((64, 64, 3), colour, np.uint8)
    old = reused_pipeline({"skin_saturation": 1.45}).render_array(patch)
    new = reused_pipeline().render_array(patch)
    assert np.abs(new.astype(int) - old.astype(int)).max() <= 1
