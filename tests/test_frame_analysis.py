"""A video's faces found ahead of the render, beside its motion (media/frame_analysis.py):
off the GL thread, and the same pictures as faces found in the render."""

from __future__ import annotations

import threading
from pathlib import Path

import av
import cv2
import numpy as np
import pytest
import skimage.data
from videoclips import decode_video

from aquarelle.engine import subject as subject_module
from aquarelle.engine.renderer import Renderer
from aquarelle.engine.subject_ahead import SubjectAhead
from aquarelle.media.export import export_video
from aquarelle.media.frame_analysis import FrameAnalysis
from aquarelle.media.render_stage import RenderStage


def portrait_pan(n: int = 6, size: int = 192) -> list[np.ndarray]:
    """The astronaut (a face about a third of the frame), panned 3 px a frame, the third
    frame repeated (a frozen frame keeps what was found in it)."""
    big = cv2.resize(skimage.data.astronaut(), (size + 3 * n, size + 3 * n),
                     interpolation=cv2.INTER_AREA)
    frames = [np.ascontiguousarray(big[:size, 3 * k:3 * k + size]) for k in range(n)]
    frames[3] = frames[2].copy()
    return frames


def lossless_clip(path: Path, frames: list[np.ndarray]) -> Path:
    with av.open(str(path), "w") as out:
        s = out.add_stream("ffv1", rate=24)
        s.width, s.height, s.pix_fmt = frames[0].shape[1], frames[0].shape[0], "bgr0"
        for f in frames:
            for p in s.encode(av.VideoFrame.from_ndarray(f, format="rgb24")):
                out.mux(p)
        for p in s.encode():
            out.mux(p)
    return path


@pytest.fixture
def found_on(monkeypatch) -> list[tuple[str, int]]:
    """(thread name, faces found) of every subject search."""
    calls: list[tuple[str, int]] = []
    update = subject_module.SubjectTracker.update

    def recording(self, rgb, t, index=None):
        s = update(self, rgb, t, index)
        calls.append((threading.current_thread().name, len(s.faces)))
        return s

    monkeypatch.setattr(subject_module.SubjectTracker, "update", recording)
    return calls


def test_faces_found_ahead_paint_what_faces_found_in_the_render_paint(gl_ctx, found_on):
    frames = portrait_pan()
    with Renderer(gl_ctx) as inline, Renderer(gl_ctx) as given:
        ahead = SubjectAhead(given.frame_index)
        assert given.wants_subject
        for frame in frames:
            subject = ahead.estimate(frame)
            a = inline.render_array(frame)
            before = len(found_on)
            b = given.read(given.render(frame, subject=subject))
            assert len(found_on) == before  # the render searched nothing itself
            assert np.array_equal(a, b)
    assert all(n == 1 for _, n in found_on)  # her face, in every frame searched
    assert len(found_on) == 2 * (len(frames) - 1)  # the frozen frame is not searched again


def test_an_export_finds_faces_beside_the_motion_and_paints_as_before(gl_ctx, tmp_path,
                                                                       found_on, monkeypatch):
    painted: list[list[np.ndarray]] = []
    wrap = RenderStage._wrap

    def keep(self, frame, data):  # the pictures handed to the encoder, in order
        r = wrap(self, frame, data)
        painted[-1].append(np.array(r.image, copy=True))
        return r

    monkeypatch.setattr(RenderStage, "_wrap", keep)
    clip = lossless_clip(tmp_path / "in.mkv", portrait_pan())
    painted.append([])
    result = export_video(clip, tmp_path / "ahead.mp4", ctx=gl_ctx)
    assert {t for t, _ in found_on} == {"aquarelle-subject_0"}
    assert sum(n for _, n in found_on) == 5
    assert result.stage_seconds["subject"] > 0 and result.stage_seconds["motion"] > 0

    found_on.clear()  # the same export, faces found in the render (GL) thread
    monkeypatch.setattr(FrameAnalysis, "needed", property(lambda self: False))
    painted.append([])
    export_video(clip, tmp_path / "inline.mp4", ctx=gl_ctx)
    assert {t for t, _ in found_on} == {threading.main_thread().name}
    # (the pictures, not the files: multithreaded x264 may round differently from one run
    # to the next, test_video_export)
    assert len(painted[0]) == len(painted[1]) == 6
    for a, b in zip(*painted, strict=True):
        assert np.array_equal(a, b)
    assert len(decode_video(tmp_path / "ahead.mp4")[0]) == 6


def test_a_style_without_a_subject_finds_none_ahead(gl_ctx):
    with Renderer(gl_ctx, "denoise") as r, FrameAnalysis(r) as analysis:
        assert analysis.subjects is None and analysis.motion.widths  # a temporal denoise
    with Renderer(gl_ctx) as r:
        r.set_params({"subject_aware": False, "temporal": False})
        assert not r.wants_subject
        with FrameAnalysis(r) as analysis:
            assert analysis.subjects is None and not analysis.needed
