"""A large face's skin is laid in graded washes (trial F4, finding 5): the composite's hard
dried edges (hard_edges.glsl) steepened every border of the washes that faced the light, and on
a face filling the frame the slow ramps of its shading (a cheek turning into shadow, a lit
forehead) dried into flat terraces with hard contours. On a face's skin a border is now dried
hard only where the photo itself breaks, where the photo draws the face sharply (a soft
photo's breaks are as slow as its shading: its dried edges are its drawing, and softened the
blind judges found those faces mushy); elsewhere the sheet is as before."""

from __future__ import annotations

import cv2
import numpy as np

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject

N = 640  # a 640-line picture: about the reference frame's scale (1 reference px ~ 0.9 px)
BOX = (N / 7.5, N / 7.5, N - N / 7.5, N - N / 7.5)  # a face filling the frame (an ellipse)
# the paper's and the pigment's textures off: the washes' own steps are measured
TEXTURES_OFF = {"turbulence": 0.0, "dispersion": 0.0, "stroke_strength": 0.0,
                "paper_grain": 0.0, "paper_tooth": 0.0, "dither": False, "granulation": 0.0,
                "margins": 0.0, "wobble": 0.0,
                # a soft ramp with no sharp detail reads as out of focus away from a face
                # (laid wet, graded): these tests ask what a face does to its borders
                "out_of_focus": 0.0}


def shading(width: float) -> np.ndarray:
    """A skin tone (a* 14, b* 18) lit from above: L* 75 at the top falling to 40 at the
    bottom over a sigmoid `width` px (its 10-90 % span 4.4 times that) across the middle."""
    y = np.mgrid[:N, :N][0].astype(np.float32)
    lab = np.zeros((N, N, 3), np.float32)
    lab[..., 0] = 75.0 - 35.0 / (1.0 + np.exp(np.clip(-(y - N / 2) / width, -50.0, 50.0)))
    lab[..., 1], lab[..., 2] = 14.0, 18.0
    rgb = cv2.cvtColor(lab, cv2.COLOR_LAB2RGB)
    return np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)


def largest_jump(p, img: np.ndarray, face: bool, sharpness: float = 1.0) -> float:
    """The painting's largest L* change per px (central differences down the picture) on the
    face's bare skin (its map's .z > 0.95, .y < 0.05), or on the same oval without a face;
    the face drawn in the photo as sharply as `sharpness` says (face_sharpness)."""
    p.subject_feed = "given"
    p.set_subject(Subject((Face(BOX, np.zeros((6, 2)), 0.9),), None, sharpness=sharpness)
                  if face else None)
    out = p.render_array(img)
    L = cv2.cvtColor(out, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float64) * 100.0 / 255.0
    jump = np.zeros_like(L)
    jump[1:-1] = np.abs(L[2:] - L[:-2]) / 2.0
    oval = np.zeros((N, N), np.uint8)
    cv2.ellipse(oval, (N // 2, N // 2), (N // 3, N // 3), 0.0, 0, 360, 1, -1)
    skin = oval == 1
    if face:
        focus = cv2.resize(p.read_target("focus_t"), (N, N))
        skin &= (focus[..., 2] > 0.95) & (focus[..., 1] < 0.05)
    assert skin.mean() > 0.25
    return float(jump[skin].max())


def test_a_large_faces_soft_shading_stays_graded(reused_pipeline):
    """A soft shadow's ramp (22 px, 35 L*) across a face's skin facing the light: no step
    steeper than 2.8 L* per px. Measured 1.8; before 3.9 (a hard terrace contour)."""
    jump = largest_jump(reused_pipeline(TEXTURES_OFF), shading(5.0), face=True)
    assert jump < 2.8, jump


def test_a_faces_real_break_stays_hard(reused_pipeline):
    """Where the photo itself breaks (the same 35 L* within 2 px: a jaw, a fold) the border is
    still dried hard on the face: 8+ L* per px (measured 10.6; 13.9 before)."""
    jump = largest_jump(reused_pipeline(TEXTURES_OFF), shading(0.4), face=True)
    assert jump > 8.0, jump


def test_a_soft_photos_face_keeps_its_dried_edges(reused_pipeline):
    """A face the photo draws softly (a webcam's, an enlarged small photo's) keeps the dried
    edge on its shading's border, as before (3.9 L* per px; graded, 1.8)."""
    jump = largest_jump(reused_pipeline(TEXTURES_OFF), shading(5.0), face=True, sharpness=0.0)
    assert jump > 3.4, jump


def test_a_faces_sharpness_is_its_photos_not_its_size():
    """face_sharpness: the astronaut's face sharp (0.72) at its size and at half of it (0.80);
    the same face enlarged 3x from a third of its size (a small photo's, a webcam's) soft: 0."""
    import skimage.data

    from aquarelle.engine.face_sharpness import face_sharpness

    photo = skimage.data.astronaut()
    face = Face((175.0, 60.0, 285.0, 200.0), np.zeros((6, 2)), 0.9)
    assert face_sharpness(photo, face) > 0.6
    half = cv2.resize(photo, (256, 256), interpolation=cv2.INTER_AREA)
    assert face_sharpness(half, Face(tuple(v / 2 for v in face.box), face.keypoints, 0.9)) \
        > 0.6
    soft = cv2.resize(cv2.resize(photo, (170, 170), interpolation=cv2.INTER_AREA), (512, 512),
                      interpolation=cv2.INTER_CUBIC)
    assert face_sharpness(soft, face) == 0.0
    tiny = Face((10.0, 10.0, 30.0, 30.0), np.zeros((6, 2)), 0.9)  # too small to tell
    assert face_sharpness(photo, tiny) == 0.0


def test_the_same_ramp_away_from_a_face_dries_as_before(reused_pipeline):
    """Without a face the soft ramp's border dries hard as it did (the look elsewhere is
    unchanged): 7.5+ L* per px (measured 8.8, as before)."""
    jump = largest_jump(reused_pipeline(TEXTURES_OFF), shading(5.0), face=False)
    assert jump > 7.5, jump
