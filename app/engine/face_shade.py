"""How far a face lies in shadow, for the painting's shadow key: a face in a tree's shade or
backlit by a window (its lit parts a tenth to a fifth of the picture's lights) painted as
shot is a flat brown oval whose eyes and glasses are lost, where a painter lays it in a pale
first wash a little lighter than its surroundings and puts its few darks back. The key is a
gain in linear light on the face's head (prepare.frag), as the exposure key's on the frame.

It is told from skin tone by the face's LIGHTS against the PICTURE's: its brightest
parts (the 95th percentile of its luminance at 32 px: a dark skin's shine, eye whites,
teeth) over the frame's lights (exposure.frame_lights). A dark-skinned face in good light
keeps its shine and sits at 0.25-0.35 of the picture's lights on the trials' 69 faces (so
do pale faces in a white-lit room); faces in deep shade sit at 0.09-0.17. Only below SHADE
is a face keyed, graded up to FULL_SHADE, towards LIFT_TO, at most MAX_LIFT."""

from __future__ import annotations

import cv2
import numpy as np

from .exposure import linear_luminance
from .faces import Face

SIDE = 32  # px: the face's box is brought to this (area average) to measure it
LIGHTS = 95.0  # percentile of the face's luminance: its lit parts
MARGIN = 0.15  # of the box's width left out at each side (the background beside the cheeks)
# The face's lights over the picture's: keyed from SHADE down (none at or above it), fully
# from FULL_SHADE; brought up to LIFT_TO of the picture's lights, by at most MAX_LIFT.
SHADE = 0.22
FULL_SHADE = 0.16
LIFT_TO = 0.5
MAX_LIFT = 2.2


def face_lights(rgb: np.ndarray, face: Face) -> float | None:
    """The lights of `face` in `rgb` (uint8 RGB): the LIGHTS percentile of linear luminance
    inside its box (less MARGIN at the sides) at SIDE px; None where the box holds nothing."""
    h, w = rgb.shape[:2]
    x0, y0, x1, y1 = face.box
    m = MARGIN * (x1 - x0)
    xa, xb = int(np.clip(round(x0 + m), 0, w)), int(np.clip(round(x1 - m), 0, w))
    ya, yb = int(np.clip(round(y0), 0, h)), int(np.clip(round(y1), 0, h))
    if xb - xa < 2 or yb - ya < 2:
        return None
    crop = np.ascontiguousarray(rgb[ya:yb, xa:xb, :3])
    k = SIDE / max(crop.shape[:2])
    if k < 1.0:
        size = (max(1, round(crop.shape[1] * k)), max(1, round(crop.shape[0] * k)))
        crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
    return float(np.percentile(linear_luminance(crop), LIGHTS))


def shade_gain(face: float | None, picture: float) -> float:
    """The gain (1 .. MAX_LIFT, linear light) that keys a face whose lights are `face` in a
    picture whose lights are `picture` (both linear luminance); 1 for a face in the light."""
    if face is None or picture <= 0.0:
        return 1.0
    ratio = max(face, 1e-6) / picture
    t = float(np.clip((SHADE - ratio) / (SHADE - FULL_SHADE), 0.0, 1.0))
    weight = t * t * (3.0 - 2.0 * t)
    return 1.0 + weight * (float(np.clip(LIFT_TO / ratio, 1.0, MAX_LIFT)) - 1.0)
