"""The `stereo` style: layouts and their sizes, the anaglyph's colours, depth from motion on
a synthetic parallax clip, depth from the picture before a painting in a chain."""

from __future__ import annotations

import numpy as np
import pytest
import skimage.data

from aquarelle.eval.parallax_clip import ParallaxClip

DUBOIS_L = np.array([[0.456100, 0.500484, 0.176381],
                     [-0.0400822, -0.0378246, -0.0157589],
                     [-0.0152161, -0.0205971, -0.00546856]])
DUBOIS_R = np.array([[-0.0434706, -0.0879388, -0.00155529],
                     [0.378476, 0.73364, -0.0184503],
                     [-0.0721527, -0.112961, 1.2264]])


def _photo() -> np.ndarray:
    return np.ascontiguousarray(skimage.data.astronaut()[::4, ::4])  # 128x128


def _lin(srgb: np.ndarray) -> np.ndarray:
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def _srgb(lin: np.ndarray) -> np.ndarray:
    return np.where(lin <= 0.0031308, lin * 12.92, 1.055 * np.power(lin, 1 / 2.4) - 0.055)


@pytest.mark.parametrize("layout, mono_size, sbs_size", [
    ("anaglyph", (128, 128), (64, 128)), ("sbs", (256, 128), (128, 128)),
    ("sbs_half", (128, 128), (64, 128)), ("tb", (128, 256), (64, 256)),
    ("depth", (128, 128), (64, 128))])
def test_layouts_and_their_sizes(pipeline, layout, mono_size, sbs_size):
    img = _photo()
    p = pipeline({"output": layout}, style="stereo")
    out = p.render_array(img)
    assert (out.shape[1], out.shape[0]) == mono_size == p.output_size((128, 128))
    pair = pipeline({"output": layout, "input": "sbs"}, style="stereo")
    assert pair.output_size((128, 128)) == sbs_size
    assert pair.render_array(img).shape[:2] == sbs_size[::-1]


def test_side_by_side_and_top_bottom_hold_the_two_views(pipeline):
    img = _photo()
    p = pipeline({"output": "sbs"}, style="stereo")
    out = p.render_array(img)
    left = (p.read_target("left_view")[..., :3] * 255).round().astype(np.uint8)
    right = (p.read_target("right_view")[..., :3] * 255).round().astype(np.uint8)
    assert np.array_equal(out[:, :128], left) and np.array_equal(out[:, 128:], right)
    assert not np.array_equal(left, right)  # the views differ: there is depth
    tb = pipeline({"output": "tb"}, style="stereo").render_array(img)
    assert np.array_equal(tb[:128], left) and np.array_equal(tb[128:], right)


def test_anaglyph_is_dubois_red_cyan(pipeline):
    img = _photo()
    p = pipeline({"output": "anaglyph"}, style="stereo")
    out = p.render_array(img).astype(float)
    left = p.read_target("left_view")[..., :3].astype(float)
    right = p.read_target("right_view")[..., :3].astype(float)
    mixed = np.clip(_lin(left) @ DUBOIS_L.T + _lin(right) @ DUBOIS_R.T, 0, 1)
    expected = _srgb(mixed) * 255
    assert np.abs(out - expected).max() <= 2.0  # float sRGB curve vs 8-bit rounding


def test_no_depth_strength_gives_two_equal_views(pipeline):
    img = _photo()
    p = pipeline({"output": "sbs", "depth_strength": 0.0}, style="stereo")
    out = p.render_array(img).astype(int)
    assert np.abs(out[:, :128] - out[:, 128:]).max() == 0
    assert np.abs(out[:, :128] - img).max() <= 1


def test_convergence_and_popout_limit_bound_the_disparity(pipeline):
    img = _photo()
    p = pipeline({"output": "depth", "depth_strength": 4.0, "convergence": 0.5,
                  "popout_limit": 0.5}, style="stereo")
    p.render_array(img)
    d = p.read_target("disparity")[..., 0]
    z = p.read_target("depth")[..., 0]
    assert d.max() <= 128 * 0.005 + 1e-3  # pop-out limited to 0.5% of the width
    assert d.min() >= 128 * 0.04 * (0.0 - 0.5) - 1e-3
    behind = z < 0.5
    assert np.all(d[behind] < 1e-3)  # farther than convergence: behind the screen


def test_a_still_gets_depth_from_cues_alone_and_the_same_every_time(pipeline):
    img = _photo()
    p = pipeline({"output": "depth"}, style="stereo")
    a = p.render_array(img)
    p.reset_history()
    assert np.array_equal(p.render_array(img), a)
    z = p.read_target("depth")[..., 0]
    assert z[96:].mean() > z[:32].mean()  # the lower part of a photo is nearer


def test_depth_from_motion_orders_the_layers_of_a_parallax_clip(pipeline):
    clip = ParallaxClip(160, 90, speed=4.0)
    p = pipeline({"output": "depth"}, style="stereo")
    for t in range(30):
        img, near = clip.frame(t)
        depth = p.render_array(img)[..., 0].astype(float)
    levels = sorted(set(np.round(near.ravel(), 3)))
    means = [depth[np.isclose(near, v, atol=1e-3)].mean() for v in levels]
    assert means[0] + 20 < means[1] and means[1] + 20 < means[2], means
    p.reset_history()  # a cut: the cues alone again
    still = pipeline({"output": "depth"}, style="stereo").render_array(img)
    assert np.array_equal(p.render_array(img), still)


def test_in_a_chain_depth_comes_from_the_picture_not_the_painting(pipeline):
    img = _photo()
    chain = pipeline({"stereo.output": "depth"}, style="watercolor+stereo")
    alone = pipeline({"output": "depth"}, style="stereo")
    assert np.array_equal(chain.render_array(img), alone.render_array(img))
    # while the views are made from the painting
    chain.set_params({"stereo.output": "sbs"})
    painted = pipeline(style="watercolor").render_array(img)
    left = chain.render_array(img)[:, :128].astype(int)
    assert np.abs(left - painted).mean() < np.abs(left - img.astype(int)).mean()


def test_the_app_shows_a_pair_in_its_own_proportions():
    from aquarelle.ui.view_transform import shaped_like

    assert shaped_like((640, 360), (1280, 720)) == (640, 360)  # an upscale: same shape
    assert shaped_like((640, 360), (1280, 360)) == (1280, 360)  # side by side
    assert shaped_like((640, 360), (640, 720)) == (640, 720)  # top-bottom


def test_a_portraits_person_stands_in_front_and_its_face_nearest(pipeline):
    """The picture's cues alone put the astronaut's face (0.31) little nearer than the wall
    behind (0.17) and farther than the chest (0.74): its outlines and the ground-plane ramp
    said more (trial X, finding 7). With the subject found, the person stands in front of
    the wall and the face is nearest."""
    import cv2

    img = cv2.resize(skimage.data.astronaut(), (384, 384), interpolation=cv2.INTER_AREA)

    def nearness(on: bool) -> tuple[float, float, float]:
        p = pipeline({"output": "depth", "subject_depth": on}, style="stereo")
        p.render_array(img)
        d = cv2.resize(p.read_target("depth")[..., 0], (384, 384))
        return d[60:140, 150:210].mean(), d[10:80, 10:80].mean(), d[300:380, 100:300].mean()

    face, wall, chest = nearness(True)
    assert face > chest > wall + 0.4 and face > 0.75
    face, wall, chest = nearness(False)  # (the cues alone, as before)
    assert face < chest and face < wall + 0.2


def test_without_a_face_the_subject_changes_no_depth(pipeline):
    """Subject in front paints nothing anew where no face is found: the coffee cup's depth
    is the cues' to the last level (the pass copied the cues sampled between texels: 1
    level apart on 1-3% of the pixels, the stop-59 verifier)."""
    img = np.ascontiguousarray(skimage.data.coffee())
    on = pipeline({"output": "depth"}, style="stereo").render_array(img)
    off = pipeline({"output": "depth", "subject_depth": False}, style="stereo").render_array(img)
    assert np.array_equal(on, off)


def test_the_targets_a_mono_still_leaves_undrawn_are_known(pipeline):
    """A stereo pair's matching does not run on one picture: its targets are cleared, not
    drawn (the window says such a debug view is empty: it showed black without a word)."""
    p = pipeline({"output": "anaglyph"}, style="stereo")
    p.render_array(_photo())
    assert p.target_drawn("depth") and p.target_drawn("cues_blur")
    assert not p.target_drawn("disparity") and not p.target_drawn("disparity_raw")
    pair = pipeline({"output": "anaglyph", "input": "sbs"}, style="stereo")
    pair.render_array(_photo())
    assert pair.target_drawn("disparity") and not pair.target_drawn("cues_blur")
