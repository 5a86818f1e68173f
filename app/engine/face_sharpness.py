"""How sharp a face is drawn in the picture, for how the painting dries the borders of its
skin: a sharp photo's slow shading is laid in graded washes (its real breaks stand out from
it), a soft one's (a webcam's, an enlarged small photo's) keeps its dried edges, which give
it its only drawing. Measured on the face's box brought to a standard size, so a face's size
does not count: the fine detail (above a 1 px blur) against the coarse (between 1 and 3 px
blurs)."""

from __future__ import annotations

import cv2
import numpy as np

from .faces import Face

SIDE = 128  # px: the face's box is brought to this size
# The fine-over-coarse detail at which a face counts as soft (0) .. sharp (1). On 26
# portraits: enlarged and webcam faces 0.29-0.41, sharp photos' 0.47-0.74
SOFT_SHARP = (0.40, 0.48)


def face_sharpness(rgb: np.ndarray, face: Face) -> float:
    """0 (a soft face) .. 1 (a sharp one); 0 for a face too small to tell (under 24 px)."""
    h, w = rgb.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in face.box)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 24 or y1 - y0 < 24:
        return 0.0
    grey = cv2.cvtColor(np.ascontiguousarray(rgb[y0:y1, x0:x1]), cv2.COLOR_RGB2GRAY)
    grey = grey.astype(np.float32) / (257.0 if grey.dtype == np.uint16 else 1.0)
    c = cv2.resize(grey, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    b1 = cv2.GaussianBlur(c, (0, 0), 1.0)
    b3 = cv2.GaussianBlur(c, (0, 0), 3.0)
    fine, coarse = float(np.abs(c - b1).mean()), float(np.abs(b1 - b3).mean())
    ratio = fine / max(coarse, 1e-3)
    lo, hi = SOFT_SHARP
    return float(np.clip((ratio - lo) / (hi - lo), 0.0, 1.0))
