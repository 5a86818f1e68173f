"""A person's skin beyond the face is laid as the face's (trial F11, finding 4; trial F10,
finding 7): a forearm's shadow side, 20-30 L* darker than the face's cheeks, was outside
own_skin's shadow depth (SKIN_SHADE, which tells light-brown hair from a cheek): laid as
clothes, in the wash's six crisp tones with hard dried edges and a one-texel shadow glaze,
a lit arm became 4-5 flat bands like a contour map. Away from the head it now counts as
skin down to BODY_SHADE below the face: graded tones, a soft glaze, dried edges only where
the photo breaks. Clothes of another colour keep their crisp washes (their folds)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
from test_skin_gradation import TEXTURES_OFF
from test_strands import a_face, given

N = 480
FACE = (60.0, 19.0, 21.0)  # CIELAB: the face's cheeks (trial F11's p12)
ARM = slice(250, 470)  # rows of the arm, below the head
WIDTH = 8.0  # px: the sigmoid of its turn into shadow (the photo's slope at most 1 L* a px)


def a_limb(ab: tuple[float, float]) -> np.ndarray:
    """The face's colour above, and below the head a limb lit from above: L* 62 on its lit
    side turning smoothly (a sigmoid WIDTH px wide) to 30 on its shadow side, of chromaticity
    `ab` (a* b* at the face's lightness, in proportion below it, as shaded skin)."""
    lab = np.zeros((N, N, 3), np.float32)
    lab[...] = FACE
    y = np.arange(ARM.start, ARM.stop, dtype=np.float32)
    L = 30.0 + 32.0 / (1.0 + np.exp((y - (ARM.start + ARM.stop) / 2.0) / WIDTH))
    lab[ARM, :, 0] = L[:, None]
    lab[ARM, :, 1] = ab[0] * (L / FACE[0])[:, None]
    lab[ARM, :, 2] = ab[1] * (L / FACE[0])[:, None]
    rgb = cv2.cvtColor(lab, cv2.COLOR_LAB2RGB)
    return np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)


def largest_step(p, img: np.ndarray) -> float:
    """The painting's largest L* change per px down the limb (central differences, its
    middle, away from its borders)."""
    subject = dataclasses.replace(a_face(N, N), skin=FACE)
    out = given(p, subject).render_array(img)
    L = cv2.cvtColor(out, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float64) * 100.0 / 255.0
    jump = np.abs(L[2:] - L[:-2])[ARM.start + 10 - 1:ARM.stop - 10 - 1, 60:N - 60] / 2.0
    return float(jump.max())


def test_a_limbs_shading_is_one_graded_wash(reused_pipeline):
    """Skin of the face's colour turning 32 L* into shadow (the photo's slope at most 1 L* a
    px): no step over 3.5 L* per px (measured 2.7; before 5.1, a hard dried band)."""
    top = largest_step(reused_pipeline(TEXTURES_OFF), a_limb(FACE[1:]))
    assert top < 3.5, top


def test_clothes_of_another_colour_keep_their_crisp_washes(reused_pipeline):
    """The same shading in a blue shirt is no skin: its washes' step stays dried hard
    (9.0 L* per px, as before)."""
    top = largest_step(reused_pipeline(TEXTURES_OFF), a_limb((-5.0, -30.0)))
    assert top > 6.0, top
