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


def cheek_patches(rgb: np.ndarray, face: Face) -> list[tuple[float, np.ndarray]]:
    """The 3x3 patches of `rgb` at the face mesh's cheek points (MESH_CHEEKS), each with its
    point's x; none without a mesh. Only the patches are read: this runs on every frame."""
    if face.mesh is None:
        return []
    h, w = rgb.shape[:2]
    patches = []
    for x, y in face.mesh[list(MESH_CHEEKS), :2]:
        xi, yi = int(np.clip(round(x), 1, w - 2)), int(np.clip(round(y), 1, h - 2))
        patches.append((float(x), np.ascontiguousarray(rgb[yi - 1:yi + 2, xi - 1:xi + 2])))
    return patches


def face_light(rgb: np.ndarray, face: Face) -> float:
    """-1 (lit from the picture's left) .. 1 (from its right); 0 lit evenly or unknown (no
    mesh). The mean lightness of each cheek, from 3x3 patches at its mesh points."""
    patches = cheek_patches(rgb, face)
    if face.mesh is None or not patches:
        return 0.0
    nose = face.mesh[MESH_NOSE_TIP, 0]
    sides: dict[bool, list[float]] = {False: [], True: []}
    for x, patch in patches:
        sides[bool(x > nose)].append(float(cv2.cvtColor(patch, cv2.COLOR_RGB2GRAY).mean()))
    if not sides[False] or not sides[True]:
        return 0.0
    left, right = float(np.mean(sides[False])), float(np.mean(sides[True]))
    return float(np.clip(GAIN * (right - left) / max(right + left, 1.0), -1.0, 1.0))
