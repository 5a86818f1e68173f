"""Which side of a face the light comes from, for the painting's counterchange (a lit side
set against a darker ground, the shadow side against the paper): the lightness of the two
cheeks, sampled at points of the face mesh."""

from __future__ import annotations

import cv2
import numpy as np

from .faces import Face

# Face mesh points (MediaPipe's numbering) on the two cheeks, and the nose tip
MESH_CHEEKS = (50, 101, 118, 205, 187, 280, 330, 347, 425, 411)
MESH_NOSE_TIP = 1
GAIN = 4.0  # the cheeks' relative difference that counts as fully lit from one side


def face_light(rgb: np.ndarray, face: Face) -> float:
    """-1 (lit from the picture's left) .. 1 (from its right); 0 lit evenly or unknown (no
    mesh). The mean lightness of each cheek, from 3x3 patches at its mesh points."""
    if face.mesh is None:
        return 0.0
    h, w = rgb.shape[:2]
    pts = face.mesh[list(MESH_CHEEKS), :2]
    nose = face.mesh[MESH_NOSE_TIP, 0]
    sides: dict[bool, list[float]] = {False: [], True: []}
    for x, y in pts:  # only the patches are made grey: this runs on every frame
        xi, yi = int(np.clip(round(x), 1, w - 2)), int(np.clip(round(y), 1, h - 2))
        patch = np.ascontiguousarray(rgb[yi - 1:yi + 2, xi - 1:xi + 2])
        sides[bool(x > nose)].append(float(cv2.cvtColor(patch, cv2.COLOR_RGB2GRAY).mean()))
    if not sides[False] or not sides[True]:
        return 0.0
    left, right = float(np.mean(sides[False])), float(np.mean(sides[True]))
    return float(np.clip(GAIN * (right - left) / max(right + left, 1.0), -1.0, 1.0))
