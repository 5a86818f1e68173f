"""A face's neck (trial F8, finding 3): past the face map's oval the neck and the shadow under
the chin were the figure's, laid as clothes: a few crisp tones with hard dried borders and
pooled rims, a seam at the jaw between a soft face and a terraced neck. The neck is now
found (engine/neck.py: skin below the jaw like the face's complexion, as smooth as its
cheeks, joined to its oval) and laid as the face's skin (the subject map's face channel);
hair beside it, clothes and skin not joined to the face are not."""

from __future__ import annotations

import cv2
import numpy as np
import reference as ref
import skimage.data
from test_hair_washes import lightness
from test_hairline import TEXTURES_OFF
from test_strands import given

from aquarelle.engine.faces import MESH_OVAL, Face
from aquarelle.engine.neck import MESH_SKIN, neck_skin
from aquarelle.engine.subject import Subject, SubjectTracker
from aquarelle.engine.subject_map import subject_map

W, H = 400, 480
CENTRE, AXES = (200.0, 175.0), (95.0, 115.0)  # the face's oval: its chin at row 290
NECK = (150, 250)  # its columns, from under the chin down to the collar
COLLAR = 400
HAIR = ((122, 150), (250, 278))  # strands hanging either side of the neck
HAND = (slice(425, 465), slice(170, 230))  # skin on the shirt, apart from the face


def portrait(seed: int = 3) -> np.ndarray:
    """uint8 RGB: a face (L* 72, a* 14, b* 18) on a light grey ground, its neck below it in
    the face's hue, in the chin's shadow (L* 34) lightening to 64 down to the collar; light
    brown hair hanging beside the neck in 2 px strands of the skin's hue (hair the colour
    test alone takes for skin); a navy shirt from COLLAR down, and on it a patch of skin
    apart from the face (a hand)."""
    rng = np.random.default_rng(seed)
    y = np.arange(H, dtype=np.float32)[:, None]
    x = np.arange(W, dtype=np.float32)[None, :]
    lab = np.zeros((H, W, 3), np.float32)
    lab[...] = (86.0, 0.0, 1.0)
    oval = ((x - CENTRE[0]) / AXES[0]) ** 2 + ((y - CENTRE[1]) / AXES[1]) ** 2 <= 1.0
    chin = CENTRE[1] + AXES[1]
    neck = (x >= NECK[0]) & (x < NECK[1]) & (y >= CENTRE[1]) & (y < COLLAR)
    across = (x - CENTRE[0]) / (0.5 * (NECK[1] - NECK[0]))  # -1 .. 1 over the neck
    shade = np.broadcast_to(34.0 + 30.0 * np.clip((y - chin) / 60.0, 0.0, 1.0)
                            - 12.0 * across ** 2, (H, W))  # a cylinder's shading
    lab[neck] = np.stack([shade[neck], np.full(neck.sum(), 13.0), np.full(neck.sum(), 17.0)],
                         axis=-1)
    lab[oval] = (72.0, 14.0, 18.0)
    lab[COLLAR:] = (25.0, 5.0, -25.0)
    lab[HAND] = (64.0, 13.0, 17.0)
    for x0, x1 in HAIR:
        for c in range(x0, x1, 4):
            lab[int(CENTRE[1]):COLLAR, c:c + 2] = (58.0, 11.0, 19.0)
            lab[int(CENTRE[1]):COLLAR, c + 2:c + 4] = (40.0, 9.0, 15.0)
    grain = cv2.GaussianBlur(rng.normal(0.0, 4.0, (H, W)).astype(np.float32), (0, 0), 1.5)
    lab[..., 0] += np.where(neck | oval, grain, 0.0)  # skin's grain (about 1.5 L*)
    rgb = np.clip(ref.lab_to_srgb(lab) * 255.0 + rng.normal(0.0, 0.8, lab.shape), 0.0, 255.0)
    return cv2.GaussianBlur(rgb, (0, 0), 0.7).round().astype(np.uint8)


def a_meshed_face() -> Face:
    """The portrait's face with a mesh: its oval (chin, jaw, ears on it) and its cheeks and
    forehead inside."""
    mesh = np.zeros((468, 3), np.float32)
    mesh[:, :2] = CENTRE
    for i, k in enumerate(MESH_OVAL):  # clockwise from the forehead's top
        a = 2.0 * np.pi * i / len(MESH_OVAL)
        mesh[k, :2] = CENTRE[0] + AXES[0] * np.sin(a), CENTRE[1] - AXES[1] * np.cos(a)
    for i, k in enumerate(MESH_SKIN):  # spread over the face's inner half
        a = 2.0 * np.pi * i / len(MESH_SKIN)
        mesh[k, :2] = CENTRE[0] + 0.5 * AXES[0] * np.sin(a), CENTRE[1] + 0.4 * AXES[1] * np.cos(a)
    box = (CENTRE[0] - AXES[0], CENTRE[1] - AXES[1], CENTRE[0] + AXES[0], CENTRE[1] + AXES[1])
    return Face(box, np.zeros((6, 2), np.float32), 0.9, mesh=mesh, presence=1.0)


PERSON = np.ones((256, 256), np.float32)


def on_picture(grid: np.ndarray) -> np.ndarray:
    return cv2.resize(grid, (W, H), interpolation=cv2.INTER_LINEAR)


def test_the_neck_is_found_below_the_jaw_not_the_hair_beside_it_nor_other_skin():
    img = portrait()
    neck = on_picture(neck_skin(img, [a_meshed_face()], PERSON))
    chin = int(CENTRE[1] + AXES[1])
    core = neck[chin + 6:COLLAR - 6, NECK[0] + 8:NECK[1] - 8]
    # the neck whole, its shadow under the chin too (L* 34 under a face of 72)
    assert core.min() > 0.8, core.min()
    assert neck[chin + 6:chin + 30, NECK[0] + 8:NECK[1] - 8].mean() > 0.9
    # the strands beside it, in the skin's hue, are hair: their texture; only the neck's
    # border softened onto their nearest strands
    for x0, x1 in HAIR:
        hair = neck[chin + 6:COLLAR - 6, x0 + 6:x1 - 6]
        assert hair.mean() < 0.15, (x0, hair.mean())
    # the shirt, and the skin on it that does not join the face
    assert neck[COLLAR + 8:, :].max() < 0.2, neck[COLLAR + 8:, :].max()
    assert neck[HAND].max() < 0.05, neck[HAND].max()


def test_a_face_without_a_mesh_or_a_person_has_no_neck():
    img = portrait()
    face = a_meshed_face()
    boxed = Face(face.box, face.keypoints, face.score)
    assert not neck_skin(img, [boxed], PERSON).any()
    assert not neck_skin(img, [face], np.zeros_like(PERSON)).any()


def test_the_subject_maps_face_takes_the_neck():
    img = portrait()
    face = a_meshed_face()
    neck = neck_skin(img, [face], PERSON)
    plain = subject_map(Subject((face,), PERSON), (W, H))
    necked = subject_map(Subject((face,), PERSON, neck=neck), (W, H))
    assert np.array_equal(plain[..., 1:], necked[..., 1:])  # features, figure, near: as before
    chin = int((CENTRE[1] + AXES[1]) / 4)  # map texels (4 px)
    rows, cols = slice(chin + 6, COLLAR // 4 - 2), slice(NECK[0] // 4 + 2, NECK[1] // 4 - 2)
    assert plain[rows, cols, 0].max() < 0.5 and necked[rows, cols, 0].min() > 0.8


def slopes(lum: np.ndarray) -> np.ndarray:
    """The lightness's change (L* a px) after a 1 px blur."""
    b = cv2.GaussianBlur(lum.astype(np.float32), (0, 0), 1.0)
    return np.hypot(cv2.Sobel(b, cv2.CV_32F, 1, 0, ksize=3) / 8,
                    cv2.Sobel(b, cv2.CV_32F, 0, 1, ksize=3) / 8)


def test_the_neck_is_laid_in_the_faces_graded_washes_not_terraced(pipeline):
    img = portrait()
    face = a_meshed_face()
    subject = Subject((face,), PERSON, neck=neck_skin(img, [face], PERSON))
    lum = lightness(given(pipeline(TEXTURES_OFF), subject).render_array(img))
    chin = int(CENTRE[1] + AXES[1])
    neck = (slice(chin + 4, COLLAR - 10), slice(NECK[0] + 10, NECK[1] - 10))
    laid, photo = slopes(lum)[neck], slopes(lightness(img))[neck]
    # laid as the figure (Subject((face,), PERSON): no neck), the neck's shading was cut
    # into flat terraces (half the photo's change: median 0.25 L* a px where the photo's
    # changes by 0.46) with borders steeper than any of the photo's (2.6 L* a px, the
    # photo's steepest 1.3); as the face, 0.40 and 0.96
    assert np.median(laid) > 0.7 * np.median(photo), (np.median(laid), np.median(photo))
    assert laid.max() < 1.2 * photo.max(), (laid.max(), photo.max())


def test_the_tracker_finds_the_necks_with_the_person_mask():
    photo = skimage.data.astronaut()  # a portrait, her neck above the suit's collar
    subject = SubjectTracker().update(photo, 0.0)
    assert subject.faces and subject.person is not None and subject.neck is not None
    assert subject.neck.shape == subject.person.shape and subject.neck.max() > 0.9
    assert SubjectTracker(people=False).update(photo, 0.0).neck is None
