"""Out of focus, wet (watercolor/defocus*.frag, defocus.glsl): where the photo is out of focus
a painter lays soft wet-in-wet washes and keeps the hard edges for the subject in focus
(trial F6: a blurred crowd was painted in hard-edged patches, harder than the face)."""

from __future__ import annotations

import cv2
import numpy as np

# the washes' borders alone: the paper's texture, its margins and the subject's treatment off
PLAIN = {"paper_tooth": 0.0, "paper_grain": 0.0, "granulation": 0.0, "dither": False,
         "margins": 0.0, "subject_aware": False, "turbulence": 0.0}
SHARP = 3.0  # L* per px: a sharp edge (the trial's measure)


def shapes(h: int, w: int, seed: int = 5) -> np.ndarray:
    """float32 RGB 0..1: rectangles and discs of many tones on a mid ground, sharp-edged."""
    rng = np.random.default_rng(seed)
    img = np.full((h, w, 3), 0.55, np.float32)
    for _ in range(28):
        colour = tuple(float(v) for v in rng.uniform(0.1, 0.95, 3))
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        r = int(rng.integers(h // 16, h // 6))
        if rng.random() < 0.5:
            cv2.circle(img, (x, y), r, colour, -1, cv2.LINE_AA)
        else:
            cv2.rectangle(img, (x - r, y - r // 2), (x + r, y + r // 2), colour, -1)
    return img


def half_blurred(h: int = 360, half: int = 320) -> tuple[np.ndarray, np.ndarray]:
    """uint8: the same shapes twice side by side, the left sharp, the right out of focus;
    and where the shapes' borders are (within 8 px), on either half."""
    content = shapes(h, half)
    blurred = cv2.GaussianBlur(content, (0, 0), 6.0)
    picture = (np.clip(np.hstack([content, blurred]), 0, 1) * 255 + 0.5).astype(np.uint8)
    borders = (lightness_gradient(picture[:, :half]) > SHARP).astype(np.uint8)
    near = cv2.dilate(borders, np.ones((17, 17), np.uint8)) > 0
    return picture, np.hstack([near, near])


def lightness_gradient(rgb: np.ndarray) -> np.ndarray:
    """|grad L*| per px (central differences; 0 on the picture's edge)."""
    lab = cv2.cvtColor(rgb.astype(np.float32) / 255, cv2.COLOR_RGB2LAB)[..., 0]
    g = np.zeros_like(lab)
    g[1:-1, 1:-1] = np.hypot(lab[1:-1, 2:] - lab[1:-1, :-2], lab[2:, 1:-1] - lab[:-2, 1:-1]) / 2
    return g


def test_hard_edges_are_on_the_sharp_half_only(pipeline):
    """Along the same shapes' borders, the painting's sharp edges (the trial's measure: over
    3 L* per px) are where the photo is sharp, hardly any where it is blurred (before: a
    blurred border was dried as hard as a sharp one)."""
    picture, near = half_blurred()
    out = pipeline(PLAIN).render_array(picture)
    m = 24  # clear of the seam and the picture's borders
    sharp_side = np.zeros(near.shape, bool)
    sharp_side[m:-m, m:320 - m] = True
    blurred_side = np.zeros(near.shape, bool)
    blurred_side[m:-m, 320 + m:-m] = True
    sharp_side &= near
    blurred_side &= near

    def share(rgb, where):
        return float((lightness_gradient(rgb)[where] > SHARP).mean())

    # the photo: sharp borders on the left, none on the right
    assert share(picture, blurred_side) < 0.1 * share(picture, sharp_side)
    sharp_half, blurred_half = share(out, sharp_side), share(out, blurred_side)
    # the painting: hard edges where the photo is sharp, hardly any where it is blurred
    assert sharp_half > 0.05, (sharp_half, blurred_half)
    assert blurred_half < 0.2 * sharp_half, (sharp_half, blurred_half)
    # off: the blurred borders dry hard as in focus (as they all did before)
    off = pipeline(dict(PLAIN, out_of_focus=0.0)).render_array(picture)
    assert share(off, blurred_side) > 0.5 * sharp_half
    # and the sharp half is painted as it was
    keep = (slice(m, -m), slice(m, 320 - m - 16))
    assert np.abs(off[keep].astype(int) - out[keep].astype(int)).mean() < 0.5
