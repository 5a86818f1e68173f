"""A sure detection the face mesh model misses from the detector's box gets a second look
(engine/faces.py, SECOND_LOOK): a face half under a hand, its detector box slid towards the
hand (trial F9: an old man on the phone, 0.77 sure, painted as the crowd's blotches; a man
looking down in a soft video frame, 0.86), is confirmed with a mesh on the face; a weak
detection gets no second look."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import skimage.data

from aquarelle.engine.faces import MESH_MOUTH, MESH_RIGHT_EYE, FaceDetector


@pytest.fixture(scope="module")
def detector() -> FaceDetector:
    return FaceDetector()


@pytest.fixture(scope="module")
def behind_a_hand(detector) -> tuple[np.ndarray, np.ndarray, np.ndarray, object]:
    """The astronaut with a skin-coloured hand over the image-left part of her face, and a
    detector box a tenth of the face to the left and up from hers (where a detector put
    the box of a face half under a hand), with its keypoints."""
    astronaut = skimage.data.astronaut()
    (clear,) = detector.detect(astronaut)
    x0, y0, x1, y1 = clear.box
    s = clear.size
    picture = astronaut.copy()
    cv2.rectangle(picture, (int(x0 - 0.2 * s), int(y0 - 0.1 * s)),
                  (int(x1 - 0.45 * s), int(y1 + 0.2 * s)), (205, 160, 135), -1)
    off = np.array([-0.1, -0.1]) * s
    box = np.array(clear.box) + np.tile(off, 2)
    return picture, box, clear.keypoints + off, clear


def test_a_sure_face_under_a_hand_is_confirmed_with_its_mesh_on_the_face(detector,
                                                                       behind_a_hand) -> None:
    picture, box, keypoints, clear = behind_a_hand
    # the mesh model's crop round the detector's box alone says no face (0.21): the face
    # was dropped and painted as the background
    (face,) = detector._confirmed(picture, [(box, keypoints, 0.9)])
    assert face.mesh is not None and face.presence >= 0.5
    assert face.box == tuple(map(float, box))  # the detector's box and keypoints kept
    for points in (MESH_RIGHT_EYE, MESH_MOUTH):  # the eye by the hand, the mouth
        found = face.mesh[list(points), :2].mean(axis=0)
        truth = clear.mesh[list(points), :2].mean(axis=0)
        assert np.linalg.norm(found - truth) < 0.2 * clear.size, points


def test_a_weak_detection_gets_no_second_look(detector, behind_a_hand) -> None:
    # a cat's face, a galaxy, a logo score under 0.75: the mesh model, asked at more crops,
    # would call more of them faces
    picture, box, keypoints, _ = behind_a_hand
    assert detector._confirmed(picture, [(box, keypoints, 0.7)]) == []
