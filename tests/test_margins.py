"""Paper margins (margins.frag): without a face the painting stops short of the sheet's
borders in a ragged margin of bare paper; it stands on the frame, not on the picture."""

from __future__ import annotations

import numpy as np
import pytest
import skimage.data

PAPER = np.array([0xF7, 0xF2, 0xE6])


@pytest.fixture
def pipeline(reused_pipeline):
    """The module's pipelines reused as fresh ones (conftest): no test here changes more of
    a pipeline than its parameters and switches."""
    return reused_pipeline


def bare(picture: np.ndarray) -> np.ndarray:
    """Where a painting shows bare paper (within 12 levels of the paper colour: its tooth)."""
    return np.abs(picture.astype(int) - PAPER).max(axis=2) <= 12


def band(mask: np.ndarray, k: float) -> np.ndarray:
    """The outer band (k of the short side) of a mask, as a boolean mask of its shape."""
    h, w = mask.shape
    b = max(1, round(k * min(w, h)))
    out = np.ones_like(mask, bool)
    out[b:h - b, b:w - b] = False
    return out


@pytest.fixture(scope="module")
def coffee() -> np.ndarray:
    return skimage.data.coffee()


def test_a_picture_without_a_face_sits_on_the_paper_in_a_ragged_margin(pipeline, coffee):
    out = pipeline().render_array(coffee)
    paper = bare(out)
    outer, inner = band(paper, 0.03), ~band(paper, 0.25)
    assert paper[outer].mean() > 0.6  # the borders left bare (measured 0.97)
    assert paper[inner].mean() < 0.05  # the middle painted, as without margins
    # ragged: the margin's width along the top and bottom borders varies
    cols = [np.argmax(~paper[:, x]) for x in range(0, coffee.shape[1], 8)]
    assert np.std(cols) > 3.0
    plain = bare(pipeline({"margins": 0.0}).render_array(coffee))
    assert plain[outer].mean() < 0.2  # painted to the borders


def test_the_margin_stands_on_the_frame_while_the_picture_pans(pipeline, coffee):
    """Two frames of a pan: the picture moves under a margin that does not (it depends on
    nothing but the frame's size and the seed: an export in chunks draws it alike)."""
    p = pipeline()
    h, w = 300, 400
    edges = []
    for x in (60, 72):
        p.render_array(np.ascontiguousarray(coffee[40:40 + h, x:x + w]))
        edges.append(p.read_target("margins")[..., 0].copy())
    np.testing.assert_array_equal(edges[0], edges[1])
    assert (edges[0] < 0.5).mean() > 0.1  # a margin there is
    p.seed = 7
    p.render_array(np.ascontiguousarray(coffee[40:40 + h, 60:60 + w]))
    assert np.abs(p.read_target("margins")[..., 0] - edges[0]).max() > 0.2  # another seed


def _with_face(p, box: tuple[float, float, float, float]):
    """The renderer painting round one given face (no person mask)."""
    from aquarelle.engine.faces import Face
    from aquarelle.engine.subject import Subject
    p.subject_feed = "given"
    p.set_subject(Subject((Face(box, np.zeros((6, 2)), 0.9),), None))
    return p


def test_a_small_figure_in_a_scene_is_painted_as_a_scene_in_its_margins(pipeline, coffee):
    """A face a small part of the picture (a distant walker, a face on a poster) is not a
    portrait's subject: the scene is painted, framed by the paper margins, not reduced to
    the face on bare paper (a photo of a printed T-shirt came out 99% bare paper)."""
    h, w = coffee.shape[:2]  # 400 x 600: a 30 px face covers well under 1% of it
    small = _with_face(pipeline(), (300.0, 120.0, 330.0, 150.0))
    out = small.render_array(coffee)
    paper = bare(out)
    assert paper[~band(paper, 0.25)].mean() < 0.05  # the middle painted, not bare paper
    assert paper[band(paper, 0.03)].mean() > 0.6  # framed by the margins
    # a portrait's face (a third of the short side, with its figure) keeps its vignette
    big = _with_face(pipeline(), (230.0, 80.0, 370.0, 220.0))
    big_paper = bare(big.render_array(coffee))
    assert big.read_target("margins")[..., 0].min() >= 0.74  # no margins round a portrait
    assert big_paper[~band(big_paper, 0.25)].mean() > paper[~band(paper, 0.25)].mean() + 0.1


def test_portrait_share_rises_with_the_figures_share_or_its_face():
    from aquarelle.engine.subject_map import (
        GROUP,
        PORTRAIT_FACE,
        PORTRAIT_FIGURE,
        SCENE_FACE,
        portrait_share,
    )
    m = np.zeros((100, 100, 4), np.float32)
    assert portrait_share(m, 0.0, GROUP) == 0.0
    m[:10, :40, 2] = 1.0  # 4%: a small group in a corner, a distant walker
    assert portrait_share(m, 0.08, GROUP) == 0.0
    m[:50, :50, 2] = 1.0  # 25%: a portrait, a group
    assert portrait_share(m, 0.08, GROUP) == 1.0
    assert portrait_share(m, 0.2, 1) == 1.0
    # ... but one or two people with faces under a tenth of the short side are whole
    # figures in a scene (trial F10's p19)
    assert portrait_share(m, 0.08, 2) == 0.0
    assert 0.3 < portrait_share(m, sum(SCENE_FACE) / 2, 1) < 0.7
    m[:] = 0.0
    assert portrait_share(m, 0.3, 1) == 1.0  # a close face whose person the mask missed
    assert 0.3 < portrait_share(m, sum(PORTRAIT_FACE) / 2, 1) < 0.7
    m[:10, :round(1000 * sum(PORTRAIT_FIGURE) / 2), 2] = 1.0  # half way between
    assert 0.3 < portrait_share(m, 0.0, GROUP) < 0.7


def test_a_full_length_figure_small_in_a_wide_scene_is_painted_with_the_scene(pipeline,
                                                                               coffee):
    """One person standing in a wide view (a face 0.075 of the short side, the person mask
    on a figure down to the frame's bottom, about a tenth of the picture) is a figure in a
    scene: the scene is painted in its margins. As a portrait, its vignette cut a blob out
    round the figure and left the rest, people the models missed with it, bare paper
    (trial F10's p19: 79% of two women's box)."""
    from aquarelle.engine.faces import Face
    from aquarelle.engine.subject import Subject
    h, w = coffee.shape[:2]  # 400 x 600
    person = np.zeros((144, 256), np.float32)  # the wide segmenter's grid
    person[round(100 / h * 144):, round(255 / w * 256):round(335 / w * 256)] = 1.0
    p = pipeline()
    p.subject_feed = "given"
    p.set_subject(Subject((Face((280.0, 100.0, 310.0, 130.0), np.zeros((6, 2)), 0.9),),
                          person))
    paper = bare(p.render_array(coffee))
    middle = ~band(paper, 0.25)
    middle[:, 200:400] = False  # away from the figure
    assert paper[middle].mean() < 0.05  # the scene painted round the figure (was 0.96)
    assert paper[band(paper, 0.03)].mean() > 0.6  # framed by the margins


def test_a_draft_lays_the_margins_of_the_full_picture(pipeline, coffee):
    """The margins' shape is the picture's at any processing scale (live adaptive quality
    moves the scale: the margin must not jump to another shape)."""
    full = pipeline()
    full.render_array(coffee)
    a = full.read_target("margins")[..., 0]
    draft = pipeline(scale=0.5)
    draft.render_array(coffee)
    b = draft.read_target("margins")[..., 0]
    import cv2
    b = cv2.resize(b, (a.shape[1], a.shape[0]), interpolation=cv2.INTER_LINEAR)
    bare_a, bare_b = a < 0.5, b < 0.5
    # the same bare regions but for their outlines' resampling (another shape: about half)
    assert (bare_a != bare_b).mean() < 0.02


def test_a_face_coming_into_a_video_cross_fades_the_scene_into_the_portrait(pipeline, coffee):
    """A face found in a video fades in over a few frames: the scene framed by its margins
    dissolves into the portrait's vignette as a whole. Its vignette weakened instead (the
    threshold lowered), the edge had met its noise and scattered islands of wash over
    bare paper."""
    from aquarelle.engine.faces import Face
    from aquarelle.engine.subject import Subject
    p = pipeline()
    p.subject_feed = "given"
    face = Subject((Face((200.0, 60.0, 360.0, 220.0), np.zeros((6, 2)), 0.9),), None)
    outs = []
    for i in range(12):  # a slow pan: the frames follow each other (motion is found)
        p.set_subject(face if i >= 3 else None)
        outs.append(p.render_array(np.ascontiguousarray(coffee[20:380, 10 + 2 * i:570 + 2 * i])))
    far = np.zeros(outs[0].shape[:2], bool)
    far[60:300, 20:120] = True  # well inside the margins, far from the face
    scene, mid, portrait = (bare(outs[k])[far].mean() for k in (2, 6, 11))
    assert scene < 0.05 and portrait > 0.9  # painted as a scene, then bare round the face
    assert mid < 0.05  # half way: the whole far field half dissolved, no bare holes
    lightness = [outs[k][far].astype(float).mean() for k in (2, 4, 6, 8, 11)]
    assert lightness == sorted(lightness)  # ... fading towards the paper frame by frame


def test_a_films_letterbox_bars_are_left_bare_and_the_margin_runs_round_its_picture(
        pipeline, coffee):
    """A letterboxed frame (a film in a wider frame): the black bars were painted as dark
    ragged bands inside the margin; they are the frame, not the picture, and stay bare."""
    h, w = coffee.shape[:2]
    bar = 60
    film = np.zeros((h + 2 * bar, w, 3), np.uint8)
    film[bar:bar + h] = coffee
    out = bare(pipeline().render_array(film))
    assert out[:bar].mean() > 0.97 and out[-bar:].mean() > 0.97  # (before: 0.56 at the top)
    # the margin as round a picture of the film's own size: its middle painted, its edges bare
    inner = out[bar:bar + h]
    assert inner[~band(inner, 0.25)].mean() < 0.05
    assert inner[band(inner, 0.03)].mean() > 0.6
