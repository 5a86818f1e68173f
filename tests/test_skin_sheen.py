"""Shine on a person's skin beyond the face (trial F8, finding 8): a hand by the face, an arm,
laid as the figure's clothes (70 % its shape, the wash's six crisp tones, the lights above
L* ~86 reserved as bare paper) had the sheen on its fingers cut out as paper-white plateaus
with hard rims. Such skin is now laid as the face's (tones.glsl figure_skin): graded flesh
washes, the sheen kept at the photo's value and melting into the wash round it."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import reference as ref
from test_hair_washes import lightness
from test_hairline import TEXTURES_OFF
from test_strands import a_face, given

N = 720
SHEEN = (360.0, 490.0, 76.0)  # its centre (x, y) and radius (sigma), px
SKIN = (70.0, 14.0, 18.0)  # CIELAB


def sheened_skin() -> np.ndarray:
    """uint8 RGB: a smooth skin tone (L* 70, a* 14, b* 18) lit by a broad sheen up to L* 95
    (no step anywhere: at most 0.2 L* per px)."""
    y = np.arange(N, dtype=np.float32)[:, None]
    x = np.arange(N, dtype=np.float32)[None, :]
    cx, cy, s = SHEEN
    lab = np.zeros((N, N, 3), np.float32)
    lab[..., 0] = SKIN[0] + 25.0 * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2.0 * s * s))
    lab[..., 1], lab[..., 2] = SKIN[1], SKIN[2]
    return (np.clip(ref.lab_to_srgb(lab), 0.0, 1.0) * 255.0).round().astype(np.uint8)


def steepness(lum: np.ndarray) -> np.ndarray:
    """|grad L*| per px after a sigma-1 blur (the paper's and pigment's textures are off)."""
    b = cv2.GaussianBlur(lum.astype(np.float32), (0, 0), 1.0)
    gy, gx = np.gradient(b)
    return np.hypot(gx, gy)


def test_a_sheen_on_skin_beyond_the_face_melts_into_its_wash(pipeline):
    img = sheened_skin()
    # a face (a fifth of the picture) at the top: below its chin the figure beyond it, here
    # all skin (a hand, an arm) with a broad sheen on it
    # (a smooth sheen has no sharp detail: read as out of focus it would be laid wet in wet)
    # the face's own skin as the tracker measures it at its cheeks (engine/face_skin.py: this
    # face has no mesh)
    face = dataclasses.replace(a_face(N, N), skin=SKIN)
    p = given(pipeline({**TEXTURES_OFF, "out_of_focus": 0.0}), face)
    lum, src = lightness(p.render_array(img)), lightness(img)
    # round the sheen, out to where it has faded into the skin's tone
    cx, cy, s = SHEEN
    y, x = np.mgrid[:N, :N]
    ring = np.hypot(x - cx, y - cy) < 3.0 * s
    assert steepness(src)[ring].max() < 0.75
    steep = steepness(lum)[ring].max()
    # old: the sheen's top reserved as bare paper, a pale plateau with a rim 2.3 L* per px
    # steep (the photo's: 0.2); now graded into the wash round it, 0.7 (finding 8's bound:
    # <= 2 on the trial's photos, whose steps were sharper)
    assert steep < 1.2, steep
    # the sheen is kept, not washed over: its top as light as the photo's, within a few L*
    top = lum[int(cy) - 5:int(cy) + 6, int(cx) - 5:int(cx) + 6].mean()
    assert top > src[int(cy), int(cx)] - 6.0, top
