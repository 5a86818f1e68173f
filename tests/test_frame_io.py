"""Frame I/O on the GPU: frames timed from a ring of timer queries read frames later (no wait
on the GPU), uploads through a ring of pixel buffers, and a decoder's 4-byte pixels uploaded
as they come."""

from __future__ import annotations

import pytest
from conftest import smooth_noise, to_u8

from aquarelle.engine.context import cpu_renderer
from aquarelle.engine.frame_timer import DEPTH, FrameTimer, frame_cost
from aquarelle.engine.renderer import Renderer


def test_a_frame_is_timed_when_the_ring_comes_round(gl_ctx) -> None:
    frame = to_u8(smooth_noise(90, 160, seed=3))
    timer = FrameTimer(gl_ctx)
    with Renderer(gl_ctx, "watercolor") as p:
        seen = []
        for _ in range(DEPTH + 1):
            with timer.frame():
                p.render(frame)
            seen.append(timer.seconds)
    assert seen[:DEPTH - 1] == [None] * (DEPTH - 1)  # nothing read before it came round
    assert all(s is not None and 0.0 < s < 60.0 for s in seen[DEPTH - 1:])
    timer.reset()
    assert timer.seconds is None


def test_a_frame_costs_the_slower_side_on_a_gpu_and_both_on_the_cpu() -> None:
    assert frame_cost(0.004, None, cpu_renderer=False) == 0.004
    assert frame_cost(0.004, 0.010, cpu_renderer=False) == 0.010
    assert frame_cost(0.004, 0.010, cpu_renderer=True) == pytest.approx(0.014)


@pytest.mark.parametrize(("order", "deep"), [("rgb", False), ("bgr", False), ("rgb", True)])
def test_uploads_through_the_buffer_ring_paint_the_same(gl_ctx, order, deep) -> None:
    # On a GPU frames go up through a ring of pixel buffers; here (llvmpipe) directly:
    # forced on, the ring gives the same pictures, frame after frame and across a new size.
    import numpy as np

    frames = [to_u8(smooth_noise(60, 80, seed=k)) for k in range(3)]
    frames.append(to_u8(smooth_noise(50, 72, seed=9)))
    if deep:
        frames = [f.astype(np.uint16) * 257 for f in frames]
    with Renderer(gl_ctx, "watercolor", deep=deep) as ring, \
            Renderer(gl_ctx, "watercolor", deep=deep) as direct:
        assert ring.upload_ring == (not cpu_renderer(gl_ctx))  # the renderer's choice
        direct.upload_ring = False  # straight into the texture
        ring.upload_ring = True
        for f in frames:
            assert np.array_equal(ring.render_array(f, order), direct.render_array(f, order))


@pytest.mark.parametrize(("order", "deep", "ring"),
                         [("rgb", False, False), ("bgr", False, False), ("rgb", True, False),
                          ("rgb", False, True)])
def test_a_frame_with_a_fourth_channel_paints_as_its_rgb(gl_ctx, order, deep, ring) -> None:
    # A decoder's RGBA goes up as it comes (3-byte pixels are repacked on upload); the fourth
    # channel is read as 1, opaque or not: the same pictures, frame after frame.
    import numpy as np

    frames = [to_u8(smooth_noise(60, 80, seed=k)) for k in range(3)]
    if deep:
        frames = [f.astype(np.uint16) * 257 for f in frames]
    top = 65535 if deep else 255
    with Renderer(gl_ctx, "watercolor", deep=deep) as four, \
            Renderer(gl_ctx, "watercolor", deep=deep) as three:
        four.upload_ring = three.upload_ring = ring
        for k, f in enumerate(frames):
            alpha = np.full(f.shape[:2] + (1,), top if k < 2 else 0, f.dtype)
            assert np.array_equal(four.render_array(np.concatenate([f, alpha], axis=2), order),
                                  three.render_array(f, order))
        assert four.input_texture.components == 4  # uploaded as it came, not repacked


def test_motion_sees_an_rgba_frame_as_its_rgb() -> None:
    import numpy as np

    from aquarelle.engine.motion import MotionEstimator

    frames = [to_u8(smooth_noise(120, 160, seed=k)) for k in range(2)]
    rgba = [np.concatenate([f, np.full(f.shape[:2] + (1,), 255, np.uint8)], axis=2)
            for f in frames]
    a, b = MotionEstimator(64), MotionEstimator(64)
    for f, g in zip(frames, rgba, strict=True):
        ma, mb = a.update(f), b.update(g)
    assert ma is not None and mb is not None
    assert np.array_equal(ma.flow_uv, mb.flow_uv)


def test_an_export_hands_the_renderer_rgba_frames(gl_ctx, tmp_path, monkeypatch) -> None:
    from videoclips import make_clip

    from aquarelle.media.export import export_video
    from aquarelle.media.render_stage import RenderStage

    shapes = []
    push = RenderStage._push
    monkeypatch.setattr(RenderStage, "_push",
                        lambda self, frame: shapes.append(frame.image.shape) or push(self, frame))
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=3, audio=False)
    assert export_video(clip.path, tmp_path / "out.mp4", ctx=gl_ctx).frames == 3
    assert shapes == [(48, 64, 4)] * 3


@pytest.mark.parametrize("width", [306, 322, 326, 336])
def test_an_exports_frames_are_the_rgb_decoders_at_any_width(tmp_path, width) -> None:
    # FFmpeg's 8-bit YUV -> RGBA converter left a row's last 2-8 pixels unwritten (black,
    # alpha 0) unless the width was a multiple of 16: a 322 px clip's export (RGBA decode)
    # had garbage in its last columns, a stereo pair in each view's (a new user's trial)
    import numpy as np
    from videoclips import make_clip

    from aquarelle.media.video_reader import VideoReader

    clip = make_clip(tmp_path / "in.mp4", size=(width, 32), frames=2, audio=False)
    with VideoReader(clip.path) as rgb, VideoReader(clip.path, rgba=True) as rgba:
        for a, b in zip(rgb.frames(0, None), rgba.frames(0, None), strict=True):
            assert b.image.shape[2] == (4 if width % 16 == 0 else 3)
            assert np.array_equal(a.image, b.image[:, :, :3])


@pytest.mark.parametrize("packed", [False, True])
def test_frames_read_back_through_the_ring_come_one_frame_late_and_the_same(gl_ctx,
                                                                            packed) -> None:
    # The virtual camera's path on a GPU: each fit is read back a frame later, through
    # pixel buffers; the frames and what goes with them are the direct readback's, in order
    # (packed: the I420 bytes of a device that takes them, less 4:2:0's loss).
    import cv2
    import numpy as np

    from aquarelle.engine.fit import FrameFitter
    from aquarelle.engine.yuv_pack import YuvFormat

    frames = [to_u8(smooth_noise(48, 64, seed=k)) for k in range(4)]
    fmt = YuvFormat("yuv420p", "bt601") if packed else None
    with Renderer(gl_ctx, "watercolor") as p:
        fitter = FrameFitter(gl_ctx)
        try:
            direct, queued = [], []
            for k, f in enumerate(frames):
                tex = p.render(f)
                direct.append(fitter.fit(tex, (40, 30), "pad"))
                ready = fitter.fit_queued(tex, (40, 30), "pad", meta=k, packed=fmt)
                assert (ready is None) == (k == 0)
                if ready is not None:
                    queued.append(ready)
            queued += fitter.drain_queued()
        finally:
            fitter.release()
    assert [k for _, k in queued] == [0, 1, 2, 3]
    for (image, k) in queued:
        if not packed:
            assert np.array_equal(image, direct[k])
            continue
        assert image.shape == (45, 40)
        shown = cv2.cvtColor(image, cv2.COLOR_YUV2RGB_I420).astype(int)  # BT.601, as libyuv
        assert np.abs(shown - direct[k]).mean() < 2.5


def test_a_profiled_frame_is_timed_by_its_passes(gl_ctx) -> None:
    # GL's time queries do not nest: while the passes are timed (the pass-times panel), the
    # frame's time is their sum, and the per-pass table stays whole.
    from aquarelle.engine.frame_timer import timed_render

    frame = to_u8(smooth_noise(96, 160, seed=3))  # on the style's grid: no padding pass
    timer = FrameTimer(gl_ctx)
    with Renderer(gl_ctx, "watercolor") as p:
        for _ in range(2):
            timed_render(timer, p, frame)  # the ring running
        # (a framebuffer made after another was released while bound leaves an error: a
        # rebinding of the dead one, as moderngl restores the binding; cleared here)
        assert gl_ctx.error in ("GL_NO_ERROR", "GL_INVALID_OPERATION")
        p.profile = True
        for _ in range(2):
            timed_render(timer, p, frame)
            assert gl_ctx.error == "GL_NO_ERROR"
            times = p.pass_times_ms()
            assert "composite" in times and timer.seconds == pytest.approx(
                sum(times.values()) / 1e3)
        p.profile = False
        for _ in range(DEPTH):
            timed_render(timer, p, frame)
        assert gl_ctx.error == "GL_NO_ERROR" and 0.0 < timer.seconds < 60.0


def test_the_pass_table_holds_this_frames_steps_only(gl_ctx) -> None:
    # The steps around the passes (upload, resize, the draft finish's passes) are in the
    # table, so that it sums to the frame (a 4K video frame's table had summed to 15 of 28
    # GPU ms on an H100), and only this frame's: a frame given as a texture after an
    # upload that no render followed, or a full frame after a draft, lists none of theirs.
    frame = to_u8(smooth_noise(96, 160, seed=3))
    with Renderer(gl_ctx, "adjust+watercolor") as p:
        p.profile = True
        p.scale = 0.5
        p.render_array(frame)
        times = p.pass_times_ms()
        assert {"watercolor.finish.paper", "upload", "adjust.adjust"} <= times.keys()
        p.scale = 1.0
        p.set_params({"adjust.bypass": True})
        p.render_array(frame)
        times = p.pass_times_ms()
        assert "upload" in times and "adjust.adjust" not in times  # (a style bypassed)
        assert not any(k.startswith("watercolor.finish.") for k in times)
        p.set_params({"adjust.bypass": False})
        p.render(p.input_texture)  # nothing uploaded in this frame
        assert "upload" not in p.pass_times_ms()
        assert gl_ctx.error == "GL_NO_ERROR"


def test_x264_encodes_frames_at_once_within_a_cap(monkeypatch) -> None:
    # slice threads made x264 wait for each frame's slowest slice (the export's slowest
    # stage on 16 cores); frame threads hold frames each, so their count is capped
    from aquarelle.media import video_writer

    for cores, threads in ((1, 2), (2, 3), (4, 6), (16, video_writer.MAX_FRAME_THREADS),
                           (None, 2)):
        monkeypatch.setattr(video_writer.os, "cpu_count", lambda c=cores: c)
        assert video_writer.frame_threads() == threads


def test_a_released_fitter_leaves_no_dead_framebuffer_bound(gl_ctx) -> None:
    # moderngl rebinds the bound framebuffer after each read: a fitter released while its
    # framebuffer was bound (a live session's end) made the next session's first read bind a
    # dead name, and its next texture failed ("cannot create texture")
    import numpy as np

    from aquarelle.engine.fit import FrameFitter

    gl_ctx.error  # noqa: B018 - clears what an earlier test left
    src = gl_ctx.texture((16, 12), 4, np.zeros((12, 16, 4), np.uint8).tobytes())
    fitter = FrameFitter(gl_ctx)
    fitter.fit(src, (8, 6))
    fitter.release()
    other = gl_ctx.texture((4, 4), 4)
    fbo = gl_ctx.framebuffer(color_attachments=[other])
    fbo.read()
    assert gl_ctx.error == "GL_NO_ERROR"
    for obj in (fbo, other, src):
        obj.release()
