"""A face's own skin colour: what the painting counts as the person's skin beyond the face
(a hand, an arm, the forehead up to the hairline; watercolor/tones.glsl figure_skin), whatever
its colour (an orange-lit face, a grey photo), and hair of a near colour not: the median CIELAB
colour of 3x3 patches at the cheeks' points of the face mesh."""

from __future__ import annotations

import cv2
import numpy as np

from .face_light import cheek_patches
from .faces import Face

Lab = tuple[float, float, float]


def face_skin(rgb: np.ndarray, face: Face) -> Lab | None:
    """The skin colour of `face` in `rgb` (uint8, sRGB) as CIELAB (L* 0..100; D65); None
    without a mesh (its cheeks unknown)."""
    patches = cheek_patches(rgb, face)
    if not patches:
        return None
    means = [patch.reshape(-1, 3).mean(axis=0) for _, patch in patches]
    srgb = (np.array(means, np.float32) / 255.0)[None]
    lab = cv2.cvtColor(srgb, cv2.COLOR_RGB2LAB)[0]
    L, a, b = np.median(lab, axis=0)
    return float(L), float(a), float(b)
