"""Temporal coherence: flow-following textures, history resets, first frame unchanged."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import skimage.data

from aquarelle.eval.flicker import warping_errors

W, H = 128, 96


@pytest.fixture
def pipeline(reused_pipeline):
    """conftest's pooled Renderers, handed out as fresh ones (a fresh one compiles its
    programs); `fresh_pipeline` where a test compares with a Renderer never used before."""
    return reused_pipeline


def _pan(n: int, step: tuple[float, float] = (2.0, 1.0)) -> list[np.ndarray]:
    big = cv2.resize(skimage.data.astronaut(), (420, 420), interpolation=cv2.INTER_AREA)
    out = []
    for t in range(n):
        m = np.float32([[1, 0, -(80 + step[0] * t)], [0, 1, -(60 + step[1] * t)]])
        out.append(cv2.warpAffine(big, m, (W, H), flags=cv2.INTER_LINEAR))
    return out


def test_first_frame_equals_per_frame_and_still(pipeline) -> None:
    frame = _pan(1)[0]
    still = pipeline({"temporal": False}).render_array(frame)
    coherent = pipeline({"temporal": True}).render_array(frame)
    np.testing.assert_array_equal(coherent, still)


def test_coherent_output_follows_a_pan(pipeline) -> None:
    frames = _pan(8)
    per_frame = pipeline({"temporal": False})
    coherent = pipeline({"temporal": True})
    a = [per_frame.render_array(f) for f in frames]
    b = [coherent.render_array(f) for f in frames]
    res = warping_errors(frames, per_frame=a, coherent=b)
    assert res.e_warp("coherent") < 0.5 * res.e_warp("per_frame"), res.errors
    # The temporal state really changed the output after the first frame.
    assert not np.array_equal(a[3], b[3])


def test_reset_history_renders_like_a_fresh_pipeline(pipeline, fresh_pipeline) -> None:
    frames = _pan(4)
    p = pipeline()
    for f in frames[:3]:
        p.render_array(f)
    p.reset_history()
    np.testing.assert_array_equal(p.render_array(frames[3]),
                                  fresh_pipeline().render_array(frames[3]))


def test_scene_cut_drops_history(pipeline, fresh_pipeline) -> None:
    frames = _pan(3)
    other = cv2.resize(skimage.data.coffee(), (W, H), interpolation=cv2.INTER_AREA)
    p = pipeline()
    for f in frames:
        p.render_array(f)
    np.testing.assert_array_equal(p.render_array(other), fresh_pipeline().render_array(other))


def test_parameter_change_does_not_lag(pipeline) -> None:
    frames = _pan(3)
    p = pipeline()
    p.render_array(frames[0])
    p.render_array(frames[1])
    assert not np.array_equal(p.read_target("tensor_t"), p.read_target("tensor_s"))
    p.set_params({"sigma_c": 5.0})
    p.render_array(frames[2])
    # Nothing made with the old values is blended into the frame after the change.
    np.testing.assert_array_equal(p.read_target("tensor_t"), p.read_target("tensor_s"))
    np.testing.assert_array_equal(p.read_target("wet_t"), p.read_target("wet"))


def test_temporal_sequences_are_deterministic(fresh_pipeline) -> None:
    frames = _pan(5)
    p1, p2 = fresh_pipeline(), fresh_pipeline()
    a = [p1.render_array(f) for f in frames]
    b = [p2.render_array(f) for f in frames]
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_static_scene_stays_still(pipeline) -> None:
    frame = _pan(1)[0]
    p = pipeline()
    outs = [p.render_array(frame).astype(int) for _ in range(4)]
    # From the first frame to the first one with history: only rounding (canvas coordinates
    # are interpolated instead of computed); after that, nothing moves at all.
    assert np.abs(outs[1] - outs[0]).mean() < 0.5
    np.testing.assert_array_equal(outs[2], outs[1])
    np.testing.assert_array_equal(outs[3], outs[2])


def test_no_allocation_per_frame(pipeline) -> None:
    frames = _pan(6)
    p = pipeline()
    for f in frames[:3]:  # first frame, first frame with history, first with a history slot
        p.render_array(f)
    before = p.stages[0].graph.pool.allocations
    for f in frames[3:]:
        p.render_array(f)
    assert p.stages[0].graph.pool.allocations == before


def test_global_similarity_ignores_a_moving_object() -> None:
    from aquarelle.engine.motion import global_similarity

    # Camera zooms in by 2% about (40, 30) and pans by (3, -1) px; a block moves on its own.
    w, h = 80, 60
    ys, xs = np.mgrid[:h, :w].astype(np.float32) + 0.5
    s, cx, cy = 1 / 1.02, 40.0, 30.0
    prev_x, prev_y = cx + (xs - cx) * s - 3.0, cy + (ys - cy) * s + 1.0
    flow = np.dstack([prev_x - xs, prev_y - ys]).astype(np.float32)
    flow[10:30, 10:30] = (6.0, 4.0)  # an object going its own way
    m = global_similarity(flow, (w, h), (2 * w, 2 * h))  # source is twice the flow's size
    expected = np.array([[s, 0, 2 * (cx * (1 - s) - 3.0)], [0, s, 2 * (cy * (1 - s) + 1.0)]])
    np.testing.assert_allclose(m[:2], expected, atol=2e-3)


@pytest.mark.parametrize("steps, moves", [([0.005, -0.005], False), ([0.005], True)])
def test_the_sheet_ignores_flow_noise_but_not_a_slow_pan(fresh_pipeline, steps, moves) -> None:
    # A still camera's flow noise (thousandths of a pixel back and forth) does not move the
    # paper sheet (its pass then reuses its picture); a slow pan of the same size per frame
    # still moves it, in steps, without losing any of the motion.
    from aquarelle.engine.motion import STILL_PX, Motion

    p = fresh_pipeline()
    frame = np.ascontiguousarray(np.random.default_rng(0).integers(0, 255, (H, W, 3), np.uint8))
    p.render_array(frame)  # the first frame: a fresh sheet
    first = p.read_target("paper")
    px = W / 32  # frame px per px of a 32-wide motion estimate
    moved = []
    for i in range(20):
        step = np.eye(3)
        step[0, 2] = steps[i % len(steps)] * px
        p.tracker.motion = lambda max_width, m=step: Motion(
            np.zeros((H * 32 // W, 32, 2), np.float32), np.ones((H * 32 // W, 32), np.float32),
            m)
        p.render_array(frame)
        moved.append(p.stages[0]._canvas_shown[0, 2])
    true = p.canvas[0, 2]
    np.testing.assert_allclose(true, sum(steps[i % len(steps)] for i in range(20)) * px)
    if moves:
        assert 0 <= true - moved[-1] <= STILL_PX * px  # behind by at most a step
        assert len(set(moved)) > 2  # in steps
        assert not np.array_equal(p.read_target("paper"), first)
    else:
        assert set(moved) == {0.0}
        np.testing.assert_array_equal(p.read_target("paper"), first)


def test_paper_keeps_its_grain_size_under_zoom(pipeline) -> None:
    # Zooming in 8x over a flat frame: the sheet is seen at a finer octave, so the paper's
    # grain on screen stays about as fine as at the start (no blown-up texture).
    p = pipeline()
    frame = np.full((H, W, 3), 128, np.uint8)
    p.render_array(frame)
    first = p.read_target("paper")[..., 0]
    p.stages[0]._canvas = np.diag([1 / 8, 1 / 8, 1.0])  # as accumulated by eight-fold zoom

    def grain(h: np.ndarray) -> float:
        return float(np.abs(np.diff(h, axis=1)).mean())

    next_frame = frame.copy()
    next_frame[0, 0] = 129  # a new frame with history, so the canvas is used
    p.render_array(next_frame)
    zoomed = p.read_target("paper")[..., 0]
    assert 0.6 < grain(zoomed) / grain(first) < 1.6


def test_the_paper_draws_a_second_sheet_only_while_the_zoom_cross_fades(pipeline) -> None:
    # The paper's one or two sheets are compiled in (a CPU renderer runs both sides of a
    # branch: the 4K still's paper took 150 ms for 88 of work); the two sheets where
    # paper.frag cross-fades the octaves, one elsewhere
    from aquarelle.engine.style_stage import PAPER_FADE_MARGIN, paper_sheets

    for level in np.linspace(0.0, 3.0, 601, dtype=np.float32):
        zoom = float(np.exp2(-level))
        lv = np.float32(-np.log2(np.float32(max(zoom, 1e-6))))
        f = (lv - np.floor(lv) - np.float32(PAPER_FADE_MARGIN)) / np.float32(
            1.0 - 2.0 * PAPER_FADE_MARGIN)
        if 0.0 < f < 1.0:
            assert paper_sheets(zoom) == 2, level  # never one where the shader fades
        elif min(abs(f), abs(f - 1.0)) > 1e-3:
            assert paper_sheets(zoom) == 1, level
    p = pipeline()
    frame = np.full((H, W, 3), 128, np.uint8)
    p.render_array(frame)
    graph = p.stages[0].graph
    # (the seed compiled in too: the paper's noise keys fold into constants)
    assert ("paper", (("u_paper_sheets", 1), ("u_seed", 0))) in graph._variants
    p.stages[0]._canvas = np.diag([2 ** -0.5, 2 ** -0.5, 1.0])  # half way to the next octave
    next_frame = frame.copy()
    next_frame[0, 0] = 129
    p.render_array(next_frame)
    assert ("paper", (("u_paper_sheets", 2), ("u_seed", 0))) in graph._variants


def test_a_jump_the_flow_cannot_follow_drops_history(pipeline, fresh_pipeline) -> None:
    # A mirrored frame differs from the last by less than a scene cut (mean grey difference
    # under CUT_THRESHOLD), yet no flow explains it (a seek within a shot, skipped frames):
    # the warp residual gates the history, and the frame is painted as a fresh one.
    from aquarelle.engine.motion import CUT_THRESHOLD, MotionEstimator, _small_grey

    cat = cv2.resize(skimage.data.chelsea(), (W, H), interpolation=cv2.INTER_AREA)
    frames = [*_pan(2), cat]
    jump = np.ascontiguousarray(cat[:, ::-1])
    grey = _small_grey(cat, 320), _small_grey(jump, 320)
    assert np.mean(cv2.absdiff(*grey)) / 255 < CUT_THRESHOLD
    est = MotionEstimator(320)
    est.update(frames[-1])
    assert est.update(jump) is None
    est.update(frames[0])
    m = est.update(frames[1])  # a pan is followed, and trusted nearly everywhere
    assert m is not None and m.confidence.shape == m.flow_uv.shape[:2]
    assert float(np.mean(m.confidence)) > 0.95
    p = pipeline()
    for f in frames:
        p.render_array(f)
    np.testing.assert_array_equal(p.render_array(jump), fresh_pipeline().render_array(jump))


def test_steadiness_spans_a_boil_to_rock_steady(pipeline) -> None:
    """The steadiness control: E_warp falls as it rises (BENCHMARKS: 10-12x from 0 to 1 on
    30-frame clips at 384x256; here, 8 frames at 128x96, the hold has less time to build)."""
    frames = _pan(8)
    outs = {}
    for s in (0.0, 0.5, 1.0):
        p = pipeline({"steadiness": s})
        outs[f"s{s}"] = [p.render_array(f) for f in frames]
    res = warping_errors(frames, **outs)
    boil, default, steady = (res.e_warp(f"s{s}") for s in (0.0, 0.5, 1.0))
    assert boil > 1.2 * default > 1.4 * steady, res.errors
    assert boil > 2.5 * steady, res.errors
    # the first frame has no history: the same at every steadiness
    np.testing.assert_array_equal(outs["s0.0"][0], outs["s1.0"][0])
    np.testing.assert_array_equal(outs["s0.5"][0], outs["s1.0"][0])


def test_the_boil_is_on_twos(pipeline) -> None:
    """A boil renews the textures on every second frame: on a still scene, even frames jump
    and odd ones barely move (only the temporal blends settling after the jump)."""
    frame = _pan(1)[0]
    p = pipeline({"steadiness": 0.0})
    outs = [p.render_array(frame).astype(int) for _ in range(7)]
    change = [float(np.abs(outs[k] - outs[k - 1]).mean()) for k in range(1, 7)]
    jumps, rests = change[1::2], change[2::2]  # frames 2, 4, 6 and 3, 5
    assert min(jumps) > 0.5, change
    assert max(rests) < 0.25 * min(jumps), change


def test_a_frame_painted_again_is_painted_as_the_first_time(pipeline) -> None:
    """The window paints a paused video's frame again once its own subject is found (it was
    painted with the frame before's): with the history, paper sheet, noise and subject fade
    it read the first time, so that it is the export's frame. It used to read its own first
    painting as the history: up to 68 levels off."""
    from aquarelle.engine.subject import SubjectTracker

    frames = _pan(5)
    tracker = SubjectTracker()
    subjects = [tracker.update(f, i / 25) for i, f in enumerate(frames)]
    assert any(s is not None for s in subjects)  # the astronaut's face: a subject to fade in
    once, twice = pipeline(), pipeline()
    for p in (once, twice):
        p.subject_feed = "given"
    repainted = []
    for i, f in enumerate(frames):
        once.set_subject(subjects[i])
        expected = once.render_array(f)
        twice.set_subject(subjects[i - 1] if i else None)
        first = twice.read(twice.render(f))
        twice.set_subject(subjects[i])
        again = twice.read(twice.render(twice.input_texture))
        np.testing.assert_array_equal(again, expected, err_msg=f"frame {i}")
        repainted.append(not np.array_equal(first, expected))
    assert any(repainted)  # a frame's own subject changed its picture: the repaint mattered
