"""The shadow key (engine/face_shade.py, watercolor/face_lift.glsl): a face in deep shade
(its lights a tenth to a fifth of the picture's: a tree's shade, a backlit window) is laid
in a paler first wash, keyed up on its head before painting, so its eyes and features are
not lost in a flat brown oval (trial F10, finding 3); a face whose lights stand near the
picture's (a dark skin in good light keeps its shine) is painted as before, byte for byte."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import skimage.data

from aquarelle.engine.exposure import frame_lights
from aquarelle.engine.face_shade import MAX_LIFT, face_lights, shade_gain
from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject, SubjectTracker

BOX = (175.0, 76.0, 275.0, 176.0)  # the astronaut's face as the detector finds it


def linear(s: np.ndarray) -> np.ndarray:
    return np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)


def srgb(v: np.ndarray) -> np.ndarray:
    v = np.clip(v, 0.0, 1.0)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def shaded(rgb: np.ndarray, k: float) -> np.ndarray:
    """`rgb` with the astronaut's head `k` times as lit (linear light): in shade."""
    out = rgb / 255.0
    head = np.s_[40:205, 150:300]
    out[head] = srgb(linear(out[head]) * k)
    return np.round(out * 255.0).astype(np.uint8)


def lightness(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2Lab)[..., 0]


def detail(L: np.ndarray) -> float:
    """High-pass energy of L*: the face's drawing (the trial's measure)."""
    return float((L - cv2.GaussianBlur(L, (0, 0), 3)).std())


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    return skimage.data.astronaut()


def test_only_a_face_in_deep_shade_is_keyed(photo):
    """The face's lights against the picture's: the astronaut as shot, and darkened to a
    dark skin in good light (0.35x: its lights still over a quarter of the picture's), keep
    gain 1; in deep shade (0.12x) it is keyed up by most of what it lost, at most MAX_LIFT;
    the tracker gives each face its key."""
    face = Face(BOX, np.zeros((6, 2)), 0.9)
    for k in (1.0, 0.35):
        im = shaded(photo, k)
        assert shade_gain(face_lights(im, face), frame_lights(im)) == 1.0, k
    dark = shaded(photo, 0.12)
    gain = shade_gain(face_lights(dark, face), frame_lights(dark))
    assert 2.0 < gain <= MAX_LIFT, gain
    assert shade_gain(None, 0.5) == 1.0
    tracker = SubjectTracker(people=False)
    assert tracker.update(photo, 0.0, 0).shades == (1.0,)
    tracker.reset()
    subject = tracker.update(dark, 0.0, 0)
    if subject.faces:  # (found in the dark too)
        assert subject.shades[0] > 1.8, subject.shades


def test_a_face_in_deep_shade_keeps_its_drawing(pipeline, photo):
    """The astronaut's head in deep shade (0.12x), painted with its key (as found) and
    without (gain 1, as before): the face paints lighter (mean L* +8 or more) and keeps
    more of its drawing (high-pass energy of L* over the photo's: more than 1.3x the
    unkeyed painting's); beside the face and below its chin, and the picture's far corner,
    it is untouched; a key of 1 is byte for byte
    the painting without one, and the exposure key's switch turns it off."""
    dark = shaded(photo, 0.12)
    face = Face(BOX, np.zeros((6, 2)), 0.9)
    gain = shade_gain(face_lights(dark, face), frame_lights(dark))
    p = pipeline()
    p.subject_feed = "given"
    p.set_subject(Subject((face,), None, shades=(gain,)))
    keyed = p.render_array(dark)
    p.reset_history()
    p.set_subject(Subject((face,), None, shades=(1.0,)))
    flat = p.render_array(dark)
    p.reset_history()
    p.set_subject(Subject((face,), None))
    assert np.array_equal(p.render_array(dark), flat)
    inner = np.s_[90:170, 190:260]
    L_keyed, L_flat = lightness(keyed)[inner], lightness(flat)[inner]
    assert L_keyed.mean() > L_flat.mean() + 8.0, (L_keyed.mean(), L_flat.mean())
    shot = detail(lightness(dark)[inner])
    assert detail(L_keyed) / shot > 1.3 * detail(L_flat) / shot, \
        (detail(L_keyed), detail(L_flat), shot)
    corner = np.s_[380:, 380:]
    assert np.abs(keyed[corner].astype(int) - flat[corner].astype(int)).mean() < 0.5
    # and only the face's skin is keyed: the hair and background beside the head and the
    # collar below the chin (shaded too) paint as they were shot
    for beside in (np.s_[100:150, 150:160], np.s_[196:205, 200:250]):
        moved = np.abs(lightness(keyed)[beside] - lightness(flat)[beside]).mean()
        assert moved < 1.5, (beside, moved)
    off = pipeline({"exposure_key": False})
    off.subject_feed = "given"
    off.set_subject(Subject((face,), None, shades=(gain,)))
    assert np.array_equal(off.render_array(dark), flat)
