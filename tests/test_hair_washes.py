"""Hair in portraits (trial F4, finding 4): a combed head's slow ramp of grey hair is laid as
one or two graded washes along its flow, not as flat terraces with hard borders (1), and grey
or white hair beside a warm face keeps its own colour, not the flesh's (2). Only round the
face (its head above the chin line: the judges of round 1, which laid the whole figure so,
found its clothes and hands blurred and airbrushed): clothes below the chin keep the crisp
layered washes with their hard edges (3)."""

from __future__ import annotations

import cv2
import numpy as np
import reference as ref
from test_strands import a_face, given

from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject


def combed_head(h: int, w: int, seed: int = 3, centre: float = 0.6) -> np.ndarray:
    """uint8 grey hair, strands running down, its tone a slow ramp from a dark top (L* ~30)
    to a light bottom (~85) round `centre` (of the height), as a combed head from its shadow
    side to its lit crown."""
    rng = np.random.default_rng(seed)
    n = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), sigmaX=1.2,
                         sigmaY=14.0)
    n = (n - n.mean()) / n.std()
    # the ramp over a fifth of the picture (L* ~2.5 per reference px), the head's turn
    ramp = np.clip((np.arange(h, dtype=np.float32)[:, None] / h - centre + 0.1) / 0.2, 0.0, 1.0)
    lum = np.clip(0.07 + 0.62 * ramp + 0.025 * n, 0.0, 1.0)  # linear light: L* ~32 .. ~86
    srgb = ref.linear_to_srgb(np.repeat(lum[..., None], 3, -1))
    return (np.clip(srgb, 0, 1) * 255).round().astype(np.uint8)


def hard_share(lum: np.ndarray) -> float:
    """The share of the tones' change down the ramp carried by its steepest tenth of steps:
    a graded wash spreads it (a tenth), terraces concentrate it on their borders."""
    d = np.abs(np.diff(cv2.GaussianBlur(lum, (0, 0), 1.5, sigmaY=0.0), axis=0))
    flat = np.sort(d.ravel())[::-1]
    return float(flat[:len(flat) // 10].sum() / max(flat.sum(), 1e-6))


def a_low_face(w: int, h: int, k: float = 0.4) -> Subject:
    """A face (k of the short side) low in the middle of a w x h picture (its box from
    0.55 of the height down) whose person fills it: above it, its head's hair."""
    s = k * min(w, h)
    box = (w / 2 - s / 2, 0.55 * h, w / 2 + s / 2, 0.55 * h + s)
    return Subject((Face(box, np.zeros((6, 2)), 0.9),), np.ones((144, 256), np.float32))


def lightness(rgb: np.ndarray) -> np.ndarray:
    return ref.srgb_to_lab(rgb[..., :3].astype(np.float32) / 255.0)[..., 0]


def test_a_combed_heads_ramp_is_laid_in_graded_washes_not_terraces(pipeline):
    h, w = 360, 360
    img = combed_head(h, w, centre=0.33)  # the ramp over rows 0.23-0.43 of the height
    # a large face low in the picture: above it its head, the figure beyond its face (laid
    # along the strands)
    p = given(pipeline(), a_low_face(w, h))
    lum, src = lightness(p.render_array(img)), lightness(img)
    rows = slice(int(0.15 * h), int(0.5 * h))  # the hair above the face, to its forehead
    cols = slice(int(0.3 * w), int(0.7 * w))
    laid, photo = hard_share(lum[rows, cols]), hard_share(src[rows, cols])
    # old: the six crisp wash tones, their borders dried hard, carried 0.40 of the ramp's
    # change in a tenth of its steps, well more than the photo's strands (0.28); now 0.29
    assert laid < 1.1 * photo, (laid, photo)
    # ... and the ramp itself is kept: dark above, light below
    top, bottom = lum[int(0.17 * h):int(0.24 * h), cols], lum[int(0.33 * h):int(0.42 * h), cols]
    assert bottom.mean() - top.mean() > 15.0, (top.mean(), bottom.mean())


def test_clothes_below_the_chin_keep_their_crisp_layered_washes(pipeline):
    h, w = 360, 360
    img = combed_head(h, w)  # the ramp over rows 0.5-0.7 of the height
    # a face (a fifth of the picture) at the top: below its chin all is the figure beyond it,
    # its clothes (laid along their folds, in the wash's crisp tones)
    p = given(pipeline(), a_face(w, h))
    # (this slow ramp has no sharp detail: read as out of focus it would be laid wet in wet,
    # out_of_focus's graded washes, whatever the hair's treatment)
    p.params.update({"out_of_focus": 0.0})
    lum, src = lightness(p.render_array(img)), lightness(img)
    rows = slice(int(0.45 * h), int(0.92 * h))  # below the face, inside the vignette
    cols = slice(int(0.3 * w), int(0.7 * w))
    laid, photo = hard_share(lum[rows, cols]), hard_share(src[rows, cols])
    # their hard-edged layers (a shirt's folds, its whites) carry 0.39 of the ramp's change in
    # a tenth of its steps, more than the photo (0.35), as before round 1; round 1 laid them
    # as graded as hair (0.28: "a blurred photo", "airbrushed")
    assert laid > photo, (laid, photo)


def grey_beside_face(h: int, w: int) -> tuple[np.ndarray, Subject, np.ndarray]:
    """uint8 white-grey hair (L* ~78, chroma ~2) round a warm face (an ellipse of flesh in
    the face's box), its Subject (the person fills the picture), and the hair's mask where
    the face map fades past the oval (the hair beside the face)."""
    s = 0.45 * min(w, h)
    cx, cy = w / 2, 0.45 * h
    box = (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) + 0.5
    # the face map's ellipse (subject_map.BOX_AXES) of the box
    r = np.hypot((xx - cx) / (0.55 * s), (yy - cy) / (0.65 * s))
    img = np.empty((h, w, 3), np.float32)
    img[:] = (0.75, 0.75, 0.73)
    img[r < 1.0] = (0.88, 0.6, 0.47)  # flesh
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    # past the oval, where its fade lies, above the chin line (the hair beside a face)
    beside = (r > 1.04) & (r < 1.15) & (yy < cy + 0.2 * s)
    subject = Subject((Face(box, np.zeros((6, 2)), 0.9),), np.ones((144, 256), np.float32))
    return (img * 255).round().astype(np.uint8), subject, beside


def test_grey_hair_beside_a_warm_face_keeps_its_own_colour(pipeline):
    h, w = 320, 320
    img, subject, beside = grey_beside_face(h, w)
    p = given(pipeline(), subject)
    p.render_array(img)
    laid = p.read_target("quantized")[..., :3]  # the wash tones, Lab, half size
    small = cv2.resize(beside.astype(np.uint8), laid.shape[1::-1],
                       interpolation=cv2.INTER_NEAREST).astype(bool)
    assert small.sum() > 200
    photo = ref.srgb_to_lab(img.astype(np.float32) / 255.0)
    hair_c = float(np.hypot(photo[..., 1], photo[..., 2])[beside].mean())
    laid_c = np.hypot(laid[..., 1], laid[..., 2])[small]
    # old: the face's form took half the flesh's colour and the saturation boosted it:
    # chroma 6.2 beside the face against the hair's 2.7 (salmon); now 3.2
    assert laid_c.mean() < hair_c + 2.0, (laid_c.mean(), hair_c)
    # the face's own flesh keeps its colour
    centre = laid[laid.shape[0] * 2 // 5:laid.shape[0] // 2, laid.shape[1] * 2 // 5:
                  laid.shape[1] * 3 // 5]
    assert np.hypot(centre[..., 1], centre[..., 2]).mean() > 20.0
