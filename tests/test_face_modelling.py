"""A soft, front-lit face keeps its modelling (trial F9, finding 7): the face's form
(tones.glsl face_tone) drew the abstraction halfway to the wide blur everywhere, so a webcam
face's gentle shading (the shadow side of a nose, the plane under a cheekbone: a few L*) kept
0.82-0.86 of the photo's and the face read as a flat beige mask. Gentle modelling is now kept
whole, softly (no terrace where the share falls); a strong light's contour is still drawn
towards the wide blur."""

from __future__ import annotations

import cv2
import numpy as np
from test_skin_gradation import BOX, TEXTURES_OFF, N

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

SKIN = (72.0, 14.0, 18.0)  # CIELAB: a light face's skin
X0 = N // 2 - 40  # the shadow's middle (px), left of the face's middle


def modelled_face(depth: float) -> np.ndarray:
    """Face skin (SKIN) filling the frame, with a soft vertical shadow `depth` L* deep (a
    nose's shadow side: a Gaussian of 14 px across) from a third to two thirds of the height."""
    yy, xx = np.mgrid[:N, :N].astype(np.float32)
    lab = np.zeros((N, N, 3), np.float32)
    band = (yy > N / 3) & (yy < 2 * N / 3)
    lab[..., 0] = SKIN[0] - depth * np.exp(-0.5 * ((xx - X0) / 14.0) ** 2) * band
    lab[..., 1], lab[..., 2] = SKIN[1], SKIN[2]
    rgb = cv2.cvtColor(lab, cv2.COLOR_LAB2RGB)
    return np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)


def profile(p, img: np.ndarray) -> np.ndarray:
    """The painting's L* across the shadow (rows of its middle fifth averaged), a face given."""
    p.subject_feed = "given"
    p.set_subject(Subject((Face(BOX, np.zeros((6, 2)), 0.9),), None, sharpness=1.0))
    out = p.render_array(img)
    L = cv2.cvtColor(out, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float64) * 100.0 / 255.0
    return L[int(0.4 * N):int(0.6 * N)].mean(axis=0)


def depth_of(lum: np.ndarray) -> float:
    """How much darker the shadow's middle is than the skin 50-70 px to its right."""
    return float(lum[X0 + 50:X0 + 70].mean() - lum[X0 - 2:X0 + 3].mean())


def test_a_soft_faces_gentle_modelling_is_kept(reused_pipeline):
    """A 6 L* shadow on the face is laid at more than 0.75 of its depth (measured 0.80; before
    0.65), graded: the profile falls into it and rises out of it without a step (no L* change
    over 2 px larger than a fifth of the depth)."""
    img = modelled_face(6.0)
    lum = profile(reused_pipeline(TEXTURES_OFF), img)
    photo = depth_of(cv2.cvtColor(img, cv2.COLOR_RGB2LAB)[N // 2, :, 0].astype(np.float64)
                     * 100.0 / 255.0)
    ratio = depth_of(lum) / photo
    assert ratio > 0.75, (ratio, photo)
    steps = np.abs(lum[X0 - 60 + 2:X0 + 60] - lum[X0 - 60:X0 + 58])
    assert steps.max() < 0.2 * photo, steps.max()


def test_a_strong_shadow_is_drawn_towards_the_wide_wash_as_before(reused_pipeline):
    """A 30 L* shadow (a strong light's contour) is still drawn towards the face's wide wash
    (FORM), not laid whole: under 0.9 of the photo's depth (measured 0.85; before 0.75)."""
    img = modelled_face(30.0)
    lum = profile(reused_pipeline(TEXTURES_OFF), img)
    ratio = depth_of(lum) / 30.0
    assert ratio < 0.9, ratio
