"""Motion estimated ahead, off the render thread: the same motion, the same pictures."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from conftest import smooth_noise, to_u8
from videoclips import make_clip

from aquarelle.engine import motion as motion_module
from aquarelle.engine.context import make_current
from aquarelle.engine.motion import MotionAhead
from aquarelle.engine.renderer import Renderer
from aquarelle.media.export import export_video


def pan(n: int = 5, h: int = 72, w: int = 96) -> list[np.ndarray]:
    big = to_u8(smooth_noise(h, w + 3 * n, seed=7, sigma=3.0))
    return [np.ascontiguousarray(big[:, 3 * k:3 * k + w]) for k in range(n)]


@pytest.mark.parametrize("style", ["watercolor", "denoise+watercolor+motion_blur"])
def test_motion_ahead_paints_what_motion_found_in_the_render_paints(gl_ctx, style,
                                                                    monkeypatch):
    calls = []
    update = motion_module.MotionEstimator.update
    monkeypatch.setattr(motion_module.MotionEstimator, "update",
                        lambda self, frame: calls.append(1) or update(self, frame))
    with Renderer(gl_ctx, style) as inline, Renderer(gl_ctx, style) as given:
        ahead = MotionAhead(given.motion_widths())
        assert ahead.widths  # the temporal features are on by default
        for frame in pan():
            motion = ahead.estimate(frame)
            a = inline.render_array(frame)
            before = len(calls)
            b = given.read(given.render(frame, motion=motion))
            assert len(calls) == before  # the render estimated nothing itself
            assert np.array_equal(a, b)


def test_an_export_finds_motion_on_its_analysis_thread(tmp_path, monkeypatch):
    threads: list[str] = []
    update = motion_module.MotionEstimator.update

    def recording(self, frame):
        threads.append(threading.current_thread().name)
        return update(self, frame)

    monkeypatch.setattr(motion_module.MotionEstimator, "update", recording)
    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=6, audio=False)
    result = export_video(clip.path, tmp_path / "out.mp4")
    assert result.frames == 6
    assert threads and set(threads) == {"aquarelle-analyse"}
    assert result.stage_seconds["motion"] > 0


@pytest.mark.parametrize("style", ["watercolor", "denoise+watercolor+motion_blur"])
def test_a_frame_painted_again_after_a_jump_leaves_the_next_one_as_it_was(gl_ctx, style):
    # The app paints a frame it jumped to again once its subject is found: the next frames
    # still follow it (their motion found from it), as in an export starting there. (The
    # engine forgot every past frame at such a repaint, and the next frame was painted as a
    # cut: stepping on from a seek differed from the export by 4.8 levels on average.)
    make_current(gl_ctx)  # an export above made and dropped its own context on this thread
    frames = pan(5)
    with Renderer(gl_ctx, style) as once, Renderer(gl_ctx, style) as twice:
        for k, frame in enumerate(frames):
            if k == 1:  # a seek lands here
                once.reset_history()
                twice.reset_history()
            a = once.render_array(frame)
            b = twice.read(twice.render(frame))
            if k == 1:
                again = twice.read(twice.render(twice.input_texture))  # the same frame
                assert np.array_equal(again, b)
            assert np.array_equal(a, b), k
