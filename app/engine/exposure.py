"""How far a frame is underexposed, for the painting's exposure key: a dim webcam frame (its
lights at L* 50-67, where a well-exposed photo's are at 75-100) painted as shot is all muddy
dark washes with little paper light, where a painter keys such a subject higher. The key is
a gain in linear light, as a camera's exposure, that brings the frame's lights (the 99th
percentile of its luminance, on a small thumbnail: one specular or lamp does not count) up
to KEY_L, at most MAX_GAIN; a frame whose lights are there already keeps its own (gain 1).

It is the FRAME's exposure, not the face's: a dark-skinned face in good light (the frame's
lights bright) is not lifted, nor a dark bar whose lamps and faces' highlights are lit. It
is applied only where a face is found (style_stage.py): a night scene or a dark landscape
without a person may be meant dark.

Along a video (`keyed`), the gain falls at once to what a frame wants (a lamp switched on:
the lights are never pushed past their key, no flash) and rises slowly (a lamp switched
off: the painting darkens, then is keyed up over about a second, as a camera's automatic
exposure): a frame's noise or a face's motion does not pump it."""

from __future__ import annotations

import math

import cv2
import numpy as np

THUMB = 128  # px: the frame's long side is brought to this (area average) to measure it
LIGHTS = 99.0  # percentile of the thumbnail's luminance: the frame's lights
# L*: the lights of a frame are keyed up to at least this. Measured on that thumbnail, the
# well-exposed portraits' lights are at L* 75-100 (a dark-skinned face in good light 76, a
# far webcam face 75, a dark bar 77), the dim webcams' at 49-67.
KEY_L = 74.0
MAX_GAIN = 2.0  # the most a frame is brightened (one stop): the noise it lifts stays mild
RISE = 0.1  # of the way (in log gain) a video's gain rises towards a frame's, a frame


def _luminance_y(l_star: float) -> float:
    f = (l_star + 16.0) / 116.0
    return f ** 3


KEY_Y = _luminance_y(KEY_L)
_LINEAR8 = np.where(np.arange(256) <= 10, np.arange(256) / 255.0 / 12.92,
                    ((np.arange(256) / 255.0 + 0.055) / 1.055) ** 2.4).astype(np.float32)
_LUMA = np.array([0.2126, 0.7152, 0.0722], np.float32)  # linear RGB -> luminance Y


def linear_luminance(px: np.ndarray) -> np.ndarray:
    """The linear-light luminance Y of the pixels `px` (RGB or grey; uint8, uint16 or float
    in [0, 1]; any shape with channels last), flattened."""
    px = px.reshape(-1, 1, px.shape[-1] if px.ndim == 3 else 1)
    if px.dtype == np.uint8:
        lin = cv2.LUT(px, _LINEAR8).reshape(-1, px.shape[-1])
    else:
        s = np.clip(px.reshape(-1, px.shape[-1]).astype(np.float32)
                    / (65535.0 if px.dtype == np.uint16 else 1.0), 0.0, 1.0)
        lin = np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)
    return lin[:, :3] @ _LUMA if lin.shape[1] >= 3 else lin[:, 0]


def frame_lights(rgb: np.ndarray) -> float:
    """The lights of the frame `rgb` (RGB or grey; uint8, uint16 or float in [0, 1]): the
    LIGHTS percentile of its luminance (linear light) on a THUMB px thumbnail."""
    h, w = rgb.shape[:2]
    px = rgb.reshape(h, w, -1)[..., :3]
    k = THUMB / max(h, w)
    if k < 1.0:
        # a frame over 4x the thumbnail sampled down to 4x first, then area averaged (1080p:
        # 1.5 ms against 4 ms for the area average of the whole frame on a CPU core)
        px = np.ascontiguousarray(px)
        size = (max(1, round(w * k)), max(1, round(h * k)))
        if k < 0.25:
            px = cv2.resize(px, (4 * size[0], 4 * size[1]), interpolation=cv2.INTER_NEAREST)
        px = cv2.resize(px, size, interpolation=cv2.INTER_AREA).reshape(size[1], size[0], -1)
    y = linear_luminance(px)
    i = int(LIGHTS / 100.0 * (y.size - 1))
    return float(np.partition(y, i)[i])


def frame_exposure(rgb: np.ndarray, lights: float | None = None) -> float:
    """The gain (1 .. MAX_GAIN, linear light) that keys the lights of the frame `rgb` (RGB
    or grey; uint8, uint16 or float in [0, 1]) up to KEY_L; 1 for a frame exposed well
    enough. `lights`: its frame_lights, where already measured."""
    lights = frame_lights(rgb) if lights is None else lights
    return float(np.clip(KEY_Y / max(lights, 1e-6), 1.0, MAX_GAIN))


def keyed(last: float | None, now: float, rise: float = RISE) -> float:
    """A video's gain after a frame that wants `now`: at once if it wants less (or it is the
    first), else `rise` of the way up (in log gain, a camera's stops) from `last`."""
    if last is None or now <= last:
        return now
    return last * math.exp(rise * math.log(now / last))
