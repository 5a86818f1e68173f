"""The exposure key (engine/exposure.py): an underexposed frame with a face (a dim webcam's)
is brightened before painting, as a camera's exposure, so that it paints close to the same
frame well exposed; a well-exposed one is painted as before; along a video the gain falls at
once and rises slowly (a lamp switched on does not flash, noise does not pump it)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import skimage.data

from aquarelle.engine.exposure import KEY_L, MAX_GAIN, frame_exposure
from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject, SubjectTracker
from aquarelle.engine.tiles import TiledStill


def linear(s: np.ndarray) -> np.ndarray:
    return np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)


def srgb(v: np.ndarray) -> np.ndarray:
    v = np.clip(v, 0.0, 1.0)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def exposed(rgb: np.ndarray, k: float, noise: float = 1.5, seed: int = 0) -> np.ndarray:
    """`rgb` (uint8) exposed `k` times as long (linear light), with a webcam's mild noise."""
    rng = np.random.default_rng(seed)
    out = srgb(linear(rgb / 255.0) * k) * 255.0 + rng.normal(0.0, noise, rgb.shape)
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    """A well-exposed portrait (its lights at L* 95)."""
    return skimage.data.astronaut()


def lightness(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2Lab)[..., 0]


def test_the_frames_lights_give_the_gain(photo):
    """The gain brings the frame's lights (not its face's) to KEY_L: a well-exposed photo
    keeps 1, and so does a dark face in good light; a copy exposed 0.3x is keyed up by
    about its lost exposure up to the key (capped at MAX_GAIN), its lights to KEY_L."""
    assert frame_exposure(photo) == 1.0
    dark_face = photo.copy()
    dark_face[60:240, 150:330] = (dark_face[60:240, 150:330] * 0.3).astype(np.uint8)
    assert frame_exposure(dark_face) == 1.0  # the frame's lights are still bright
    dim = exposed(photo, 0.3)
    gain = frame_exposure(dim)
    assert 1.5 < gain < MAX_GAIN, gain
    lifted = srgb(linear(dim / 255.0) * gain)
    small = cv2.resize(lifted.astype(np.float32), (128, 128), interpolation=cv2.INTER_AREA)
    lights = np.percentile(cv2.cvtColor(small, cv2.COLOR_RGB2Lab)[..., 0], 99)
    assert abs(lights - KEY_L) < 3.0, lights
    assert frame_exposure(exposed(photo, 0.1)) == MAX_GAIN  # (a stop at most)
    assert frame_exposure(dim[..., 1]) == pytest.approx(gain, rel=0.05)  # grey
    assert frame_exposure(dim.astype(np.uint16) * 257) == pytest.approx(gain, rel=0.01)


def test_an_underexposed_face_paints_close_to_its_well_exposed_painting(pipeline, photo):
    """The astronaut exposed 0.3x (lights at L* 58, mild noise), its face found, painted
    with the defaults: its face paints lighter, closer to the well-exposed photo's painting
    (mean |dL*| on the face 15.1 against 24.9 before the key: the key brings the lights to
    L* 74, the photo's are at 95). The well-exposed photo paints as with the key off, byte
    for byte; a frame without a face is left as shot."""
    p = pipeline()
    well = p.render_array(photo)
    dim = exposed(photo, 0.3)
    p.reset_history()
    lifted = p.render_array(dim)
    assert p.last_subject is not None and p.last_subject.exposure > 1.5
    x0, y0, x1, y1 = (int(v) for v in p.last_subject.faces[0].box)
    face = np.s_[y0:y1, x0:x1]
    gap = float(np.abs(lightness(lifted)[face] - lightness(well)[face]).mean())
    assert gap < 18.0, gap
    off = pipeline({"exposure_key": False})
    assert np.array_equal(off.render_array(photo), well)
    off.reset_history()
    murky = off.render_array(dim)
    before = float(np.abs(lightness(murky)[face] - lightness(well)[face]).mean())
    assert before > gap + 7.0, (before, gap)
    # without a face (a dim landscape may be meant dark): the key leaves it
    p.reset_history()
    land = cv2.resize(exposed(skimage.data.coffee(), 0.3), (384, 256))
    off.reset_history()
    assert np.array_equal(p.render_array(land), off.render_array(land))


def test_along_a_video_the_gain_falls_at_once_and_rises_slowly(photo):
    """A steady dim shot keeps its gain without pumping (noise: under 1% from frame to
    frame); a lamp switched on (the frame well exposed at once) drops it to 1 in that
    frame (no flash); switched off, it rises over about a second (half way in 6 frames, 95%
    in 30), never past what the frame wants."""
    tracker = SubjectTracker(people=False)
    dim = [exposed(photo, 0.3, seed=i) for i in range(10)]
    gains = [tracker.update(dim[i], i / 30.0, i).exposure for i in range(10)]
    want = frame_exposure(dim[0])
    assert gains[0] == pytest.approx(want, rel=0.02)
    assert np.abs(np.diff(np.log(gains))).max() < 0.01, gains
    assert tracker.update(photo, 10 / 30.0, 10).exposure == 1.0  # the lamp on
    after = [tracker.update(dim[i % 10], (11 + i) / 30.0, 11 + i).exposure for i in range(30)]
    assert after[0] < 1.1 and (np.diff(after) >= 0.0).all(), after
    assert np.log(after[5]) < 0.5 * np.log(want) < np.log(after[6]), after
    assert 0.95 * want < after[-1] <= want * 1.02, after


def test_a_window_that_skips_frames_reaches_the_gain_an_export_does(photo):
    """A lamp switched off at frame 5: the window's tracker, which sees every other frame
    (catch_up: a slow machine's playback), has at each of its frames the gain of the
    export's, which saw them all (a rise over two frames at once is two rises)."""
    frames = [photo] * 5 + [exposed(photo, 0.3)] * 15
    export, window = SubjectTracker(people=False), SubjectTracker(people=False, catch_up=True)
    every = [export.update(f, i / 30.0, i).exposure for i, f in enumerate(frames)]
    skipping = {i: window.update(frames[i], i / 30.0, i).exposure
                for i in range(0, len(frames), 2)}
    assert every[4] == 1.0 and every[6] > every[5] > 1.0
    for i, gain in skipping.items():
        assert gain == pytest.approx(every[i], rel=1e-9), (i, gain, every[i])


def test_a_tiled_dim_still_is_keyed_as_the_whole(pipeline, photo):
    """A big still painted in tiles is keyed in every tile by the whole picture's gain: the
    tiled painting is the untiled one (within test_tiles' rounding), and lighter than with
    the key off."""
    big = cv2.resize(exposed(photo, 0.3), (1000, 1000), interpolation=cv2.INTER_LINEAR)
    face = Face((260.0, 80.0, 640.0, 460.0), np.zeros((6, 2)), 0.9)
    p = pipeline()
    p.subject_feed = "given"
    p.set_subject(Subject((face,), None, exposure=frame_exposure(big)))
    whole = p.render_array(big)
    tiles = TiledStill(p, (1000, 1000), max_tile_px=600_000)
    assert len(tiles.tiles) >= 2
    d = np.abs(tiles.render(big).astype(np.int16) - whole.astype(np.int16)).max(axis=2)
    assert (d > 2).sum() <= 40 and d.mean() < 0.02, (d.max(), (d > 2).sum(), d.mean())
    p.set_params({"exposure_key": False})
    p.reset_history()
    assert lightness(whole)[80:460, 260:640].mean() > \
        lightness(p.render_array(big))[80:460, 260:640].mean() + 5.0
