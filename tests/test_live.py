"""Live use without a window: the virtual camera sink (fake backend), adaptive quality,
fitting to the output size on the GPU, the live session and `aquarelle live`."""

from __future__ import annotations

import re
import sys
import threading
from itertools import pairwise
from typing import Any

import numpy as np
import pytest

from aquarelle.cli.main import main
from aquarelle.engine.fit import FrameFitter, fit_scale
from aquarelle.media.adaptive import AdaptiveScale
from aquarelle.media.live import LiveOptions, LiveSession
from aquarelle.media.sources import SyntheticSource
from aquarelle.media.virtual_camera import (
    VirtualCameraError,
    VirtualCameraSink,
    open_pyvirtualcam,
    pace,
    setup_hint,
)
from aquarelle.platforms import virtual_camera_setup


class FakeBackend:
    """Records what a virtual camera would receive; `arrived` fires after `want` frames."""

    device = "/dev/video-fake"

    def __init__(self, want: int = 0) -> None:
        self.frames: list[np.ndarray] = []
        self.closed = False
        self.want = want
        self.arrived = threading.Event()
        self.fail_after: int | None = None

    def send(self, frame: np.ndarray) -> None:
        if self.fail_after is not None and len(self.frames) >= self.fail_after:
            raise OSError("device gone")
        self.frames.append(frame.copy())
        if self.want and len(self.frames) >= self.want:
            self.arrived.set()

    def close(self) -> None:
        self.closed = True


def sink_with(backend: FakeBackend, size: tuple[int, int] = (8, 6), fps: float = 30.0,
              **kw: Any) -> tuple[VirtualCameraSink, list[tuple[int, int, float]]]:
    opened: list[tuple[int, int, float]] = []

    def factory(w: int, h: int, rate: float) -> FakeBackend:
        opened.append((w, h, rate))
        return backend

    return VirtualCameraSink(size, fps, backend_factory=factory, **kw), opened


def solid(value: int, size: tuple[int, int] = (8, 6)) -> np.ndarray:
    return np.full((size[1], size[0], 3), value, np.uint8)


# -- the sink ---------------------------------------------------------------------------

def test_sink_opens_the_backend_at_its_size_and_rate_and_starts_black():
    backend = FakeBackend()
    sink, opened = sink_with(backend, (8, 6), 24.0)
    sink.start(run_thread=False)
    assert opened == [(8, 6, 24.0)]
    assert sink.tick()
    assert backend.frames[0].shape == (6, 8, 3) and backend.frames[0].dtype == np.uint8
    assert not backend.frames[0].any()  # nothing submitted yet: black, not garbage
    sink.stop()
    assert backend.closed


def test_sink_sends_the_newest_frame_and_repeats_it_when_the_source_stalls():
    backend = FakeBackend()
    clock = [100.0]
    sink, _ = sink_with(backend, clock=lambda: clock[0])
    sink.start(run_thread=False)
    sink.submit(solid(10), t_capture=99.95)
    sink.submit(solid(20), t_capture=99.96)  # replaces 10 before a send: stale, dropped
    sink.tick()
    sink.tick()  # the source stalled: 20 again
    sink.submit(solid(30), t_capture=99.99)
    sink.tick()
    assert [int(f[0, 0, 0]) for f in backend.frames] == [20, 20, 30]
    assert (sink.sent, sink.fresh, sink.repeated, sink.replaced) == (3, 2, 1, 1)
    # latency: capture to send, for the fresh frames only
    assert sink.latency.count == 2
    assert sink.latency.median() == pytest.approx((0.04 + 0.01) / 2)


def test_sink_refuses_frames_of_another_size_or_type():
    sink, _ = sink_with(FakeBackend())
    with pytest.raises(ValueError, match="8x6 RGB uint8"):
        sink.submit(solid(1, (9, 6)))
    with pytest.raises(ValueError):
        sink.submit(solid(1).astype(np.float32))


def test_pacing_keeps_an_absolute_schedule_and_never_bursts():
    period = 0.1
    t, wait = pace(0.0, 0.02, period)  # a send that took 20 ms
    assert t == pytest.approx(0.1) and wait == pytest.approx(0.08)
    t, wait = pace(t, 0.15, period)  # late by 50 ms: the next one still at 0.2
    assert t == pytest.approx(0.2) and wait == pytest.approx(0.05)
    t, wait = pace(t, 0.75, period)  # a long hiccup: start over, no burst of catch-up sends
    assert t == pytest.approx(0.85) and wait == pytest.approx(0.1)


def test_sink_thread_delivers_frames_in_order_at_the_sink_size():
    backend = FakeBackend(want=12)
    sink, _ = sink_with(backend, fps=500.0)
    sink.start()
    try:
        for v in range(1, 200):
            sink.submit(solid(v))
            if backend.arrived.is_set():
                break
        assert backend.arrived.wait(5.0)
    finally:
        sink.stop()
    values = [int(f[0, 0, 0]) for f in backend.frames]
    assert values == sorted(values)  # never an older frame after a newer one
    assert all(f.shape == (6, 8, 3) for f in backend.frames)
    assert sink.sent == len(backend.frames) and not sink.running


def test_a_backend_that_fails_while_running_stops_the_sink_with_a_message():
    backend = FakeBackend()
    backend.fail_after = 1
    sink, _ = sink_with(backend)
    sink.start(run_thread=False)
    assert sink.tick()
    assert not sink.tick()
    assert sink.error == "virtual camera stopped: device gone"


def test_missing_backend_says_what_to_run(monkeypatch):
    class NoDevice:
        class PixelFormat:
            RGB = "RGB"

        @staticmethod
        def Camera(**kw: Any) -> Any:  # noqa: N802 - pyvirtualcam's name
            raise RuntimeError("'v4l2loopback' backend: No v4l2 loopback device found at "
                               "/dev/video[0-99]. Did you run 'modprobe v4l2loopback'?")

    monkeypatch.setitem(sys.modules, "pyvirtualcam", NoDevice)
    # pyvirtualcam's own words, where the device files cannot tell more (see test_cli_truthful)
    monkeypatch.setattr("aquarelle.media.virtual_camera.device_problem", lambda: None)
    with pytest.raises(VirtualCameraError) as e:
        open_pyvirtualcam(640, 360, 30.0)
    msg = str(e.value)
    assert "\n" not in msg and "No v4l2 loopback device" in msg
    assert setup_hint() in msg
    assert "modprobe v4l2loopback" in virtual_camera_setup("linux")
    assert "OBS" in virtual_camera_setup("win32") and "OBS" in virtual_camera_setup("darwin")


def test_missing_pyvirtualcam_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyvirtualcam", None)
    with pytest.raises(VirtualCameraError, match="pip install pyvirtualcam"):
        open_pyvirtualcam(640, 360, 30.0)


# -- adaptive quality -------------------------------------------------------------------

def run_model(a: AdaptiveScale, frames: int, fixed: float, per_pixel: float,
              noise: float = 0.0, seed: int = 0) -> list[float]:
    """Feed frame times of a cost model fixed + per_pixel * scale^2 (+ noise)."""
    rng = np.random.default_rng(seed)
    scales = []
    for _ in range(frames):
        t = fixed + per_pixel * a.scale ** 2
        a.update(t * (1.0 + noise * rng.standard_normal()))
        scales.append(a.scale)
    return scales


def test_adaptive_scale_settles_where_frames_fit_the_budget():
    a = AdaptiveScale(target_fps=30.0, floor=0.2)
    scales = run_model(a, 600, fixed=0.008, per_pixel=0.120)
    s = scales[-1]
    assert 0.008 + 0.120 * s * s <= 1.05 / 30.0  # fits the budget
    assert 0.008 + 0.120 * (s + 0.1) ** 2 > 1.0 / 30.0  # and is not needlessly low
    assert a.changes <= 4


def test_adaptive_scale_does_not_oscillate_on_noisy_frame_times():
    a = AdaptiveScale(target_fps=30.0, floor=0.2)
    scales = run_model(a, 3000, fixed=0.008, per_pixel=0.120, noise=0.1, seed=3)
    tail = scales[600:]
    assert len(set(tail)) <= 3  # neighbouring steps at most, not a see-saw
    assert sum(1 for x, y in zip(tail, tail[1:], strict=False) if x != y) <= 4


def test_adaptive_scale_respects_floor_ceiling_and_switch():
    slow = AdaptiveScale(target_fps=30.0, floor=0.5)
    run_model(slow, 300, fixed=0.2, per_pixel=0.5)  # hopeless: never below the floor
    assert slow.scale == 0.5
    fast = AdaptiveScale(target_fps=30.0, floor=0.3, scale=0.3, ceiling=0.8)
    run_model(fast, 2000, fixed=0.001, per_pixel=0.001)  # plenty of time: up to the ceiling
    assert fast.scale == 0.8
    off = AdaptiveScale(target_fps=30.0, floor=0.3, enabled=False)
    run_model(off, 300, fixed=0.2, per_pixel=0.5)
    assert off.scale == 1.0 and off.changes == 0


def test_adaptive_scale_recovers_when_the_machine_gets_faster():
    a = AdaptiveScale(target_fps=30.0, floor=0.2)
    run_model(a, 300, fixed=0.008, per_pixel=0.300)
    low = a.scale
    run_model(a, 2000, fixed=0.004, per_pixel=0.015)
    assert a.scale > low and a.scale == 1.0


# -- fitting on the GPU -------------------------------------------------------------------

@pytest.mark.parametrize("src, dst, mode, expected", [
    ((200, 100), (100, 100), "pad", (1.0, 2.0)),
    ((200, 100), (100, 100), "crop", (0.5, 1.0)),
    ((64, 36), (128, 72), "pad", (1.0, 1.0)),
    ((100, 100), (200, 100), "pad", (2.0, 1.0)),
])
def test_fit_scale(src, dst, mode, expected):
    assert fit_scale(src, dst, mode) == pytest.approx(expected)


def test_fitter_letterboxes_crops_and_mirrors(gl_ctx):
    img = np.zeros((20, 40, 3), np.uint8)
    img[:, :20] = (200, 0, 0)  # left half red
    img[:, 20:] = (0, 0, 200)  # right half blue
    tex = gl_ctx.texture((40, 20), 3, img.tobytes(), alignment=1)
    fitter = FrameFitter(gl_ctx)
    try:
        same = fitter.fit(tex, (40, 20))
        np.testing.assert_array_equal(same, img)
        pad = fitter.fit(tex, (40, 40), "pad")
        assert pad.shape == (40, 40, 3)
        assert not pad[:9].any() and not pad[31:].any()  # bars above and below
        assert (pad[12:28, 2] == (200, 0, 0)).all()
        crop = fitter.fit(tex, (20, 20), "crop")  # the middle: half red, half blue
        np.testing.assert_array_equal(crop[10, 2], (200, 0, 0))
        np.testing.assert_array_equal(crop[10, 17], (0, 0, 200))
        mirrored = fitter.fit(tex, (40, 20), mirror=True)
        np.testing.assert_array_equal(mirrored, img[:, ::-1])
    finally:
        fitter.release()
        tex.release()


# -- the live session ---------------------------------------------------------------------

@pytest.mark.parametrize("gpu", [False, True])  # a GPU's readback ring and motion feed
def test_live_session_paints_a_synthetic_camera_into_the_virtual_camera(pipeline, gpu,
                                                                        monkeypatch):
    import threading

    from aquarelle.engine import motion

    painting = []  # motion estimated on the painting thread
    update = motion.MotionEstimator.update
    monkeypatch.setattr(motion.MotionEstimator, "update", lambda self, frame: painting.append(
        threading.current_thread() is threading.main_thread()) or update(self, frame))
    backend = FakeBackend()
    source = SyntheticSource((64, 48), fps=30.0, live=True)
    opened: list[tuple[tuple[int, int], float]] = []

    def make_sink(size: tuple[int, int], fps: float) -> VirtualCameraSink:
        opened.append((size, fps))
        return VirtualCameraSink(size, fps, backend_factory=lambda w, h, r: backend)

    session = LiveSession(source, pipeline(), LiveOptions(size=(96, 48), fit="pad"),
                          sink_factory=make_sink)
    session.queued = session.motion_ahead = gpu
    stats = session.run(max_frames=8, seconds=30.0)
    # ahead: only the first frame, which the feed had no past for, is estimated in the paint
    assert sum(painting) == (1 if gpu else 8)
    assert opened == [((96, 48), 30.0)]  # the output size asked for; the camera's rate
    assert stats.rendered == 8
    assert backend.closed and source.finished is False  # stopped by us, not ended
    assert backend.frames and all(f.shape == (48, 96, 3) for f in backend.frames)
    painted = backend.frames[-1]
    assert not painted[:, :10].any() and not painted[:, -10:].any()  # 64x48 in 96x48: bars
    assert painted[:, 20:76].mean() > 20
    assert stats.latency_median is not None and stats.latency_median >= 0.0
    assert all(0.3 <= s <= 1.0 for s in stats.scales)


def test_live_session_reports_a_source_that_fails():
    class Broken(SyntheticSource):
        def _run(self) -> None:
            self._fail("camera 7: cannot open")

    from aquarelle.engine.errors import AquarelleError

    session = LiveSession(Broken((32, 24), live=True), None, LiveOptions())  # type: ignore
    with pytest.raises(AquarelleError, match="camera 7: cannot open"):
        session.run(seconds=5.0)


# -- aquarelle live ---------------------------------------------------------------------

def test_cli_live_runs_a_synthetic_source(capsys):
    assert main(["live", "--input", "synthetic", "--size", "96x64", "--max-frames", "5"]) == 0
    err = capsys.readouterr().err
    assert "aquarelle: live: 5 frames" in err and "fps" in err


def test_cli_live_holds_a_still_for_its_seconds(tmp_path, capsys):
    # a still is shown as a camera would show it, for --seconds (it quit after one frame)
    import cv2

    still = tmp_path / "still.png"
    cv2.imwrite(str(still), np.full((48, 64, 3), 120, np.uint8))
    assert main(["live", "--input", str(still), "--seconds", "0.6"]) == 0
    err = capsys.readouterr().err
    assert "aquarelle: live: 1 frame in 0.6 s" in err or "aquarelle: live: 1 frame in 0.7 s" \
        in err, err
    assert "no latency (a still)" in err  # said, not left out


def test_a_still_held_waits_instead_of_spinning(pipeline):
    # A still's source has ended once its frame is taken, so waiting for the next returns at
    # once: the session's loop spun a core for as long as it held the still (400 000 turns
    # a second), until --seconds or Ctrl+C.
    from aquarelle.media.sources import StillImageSource

    source = StillImageSource(np.full((48, 64, 3), 120, np.uint8))
    waits = 0
    wait_frame = source.wait_frame

    def counted(timeout: float | None = None) -> bool:
        nonlocal waits
        waits += 1
        return wait_frame(timeout)

    source.wait_frame = counted  # type: ignore[method-assign]
    stats = LiveSession(source, pipeline(style="adjust"), LiveOptions()).run(seconds=0.6)
    assert stats.rendered == 1 and stats.still
    assert stats.seconds >= 0.6  # held for its seconds
    assert waits <= 10, waits  # about one a quarter second (the first wait found the frame)


def _summary(err: str) -> tuple[int, float, str]:
    """(frames painted, seconds, the rest) of `aquarelle live`'s closing line."""
    m = re.search(r"aquarelle: live: (\d+) frames? in ([\d.]+) s: (.*)", err)
    assert m, err
    return int(m.group(1)), float(m.group(2)), m.group(3)


def test_cli_live_fps_caps_a_synthetic_source(capsys):
    # --fps only set the virtual camera's rate: the 30 fps test picture was painted at 30
    assert main(["live", "--input", "synthetic", "--fps", "5", "--seconds", "1"]) == 0
    frames, seconds, _ = _summary(capsys.readouterr().err)
    # (a starved machine may paint its first frame late in the second: one frame, not two)
    assert 1 <= frames <= 5 * seconds + 1


def test_a_paced_file_keeps_to_its_max_fps(tmp_path):
    from videoclips import make_clip

    from aquarelle.media.file_source import VideoFileSource

    clip = make_clip(tmp_path / "thirty.mp4", frames=30, fps=30, audio=False)
    src = VideoFileSource(clip.path, paced=True)
    src.max_fps = 10.0
    shown: list[float] = []
    src.start()
    try:
        while True:
            assert src.wait_frame(10.0) or src.ended.is_set()
            frame = src.latest()
            if frame is not None:
                shown.append(frame.pts)
            elif src.ended.is_set():
                break
    finally:
        src.stop()
    # every third frame (skipped ones are not "dropped": they were never due); a frame
    # decoded too late on a busy machine is dropped instead of shown
    assert len(shown) + src.dropped == 10
    assert all(round(t * 30) % 3 == 0 for t in shown), shown
    assert src.error is None


@pytest.mark.parametrize("frames, max_fps", [(6, None), (5, 10.0)])
def test_a_looped_file_keeps_its_pace_across_the_loop(tmp_path, frames, max_fps):
    # a loop restart showed the next loop's first frame at once, not a frame period after
    # the last one, so short looped files played too fast and ignored --fps
    from videoclips import make_clip

    from aquarelle.media.file_source import VideoFileSource

    clip = make_clip(tmp_path / "short.mp4", frames=frames, fps=30, audio=False)
    src = VideoFileSource(clip.path, paced=True, loop=True)
    src.max_fps = max_fps
    src.stamp_due = True  # `captured`: when a frame came due, on the source's own schedule
    period = 1.0 / (max_fps or 30.0)
    stride = round(30 * period)  # file frames per frame shown
    shown: list[tuple[int, float]] = []
    src.start()
    try:
        while len(shown) < 3 * frames:  # three loops' worth at least
            assert src.wait_frame(10.0)
            frame = src.latest()
            if frame is not None:
                shown.append((frame.index, frame.captured))
    finally:
        src.stop()
    assert src.error is None
    # every frame comes a whole number of periods after the one before (more than one where
    # the consumer missed one or decoding fell behind), and is the file's frame due then
    for (i0, t0), (i1, t1) in pairwise(shown):
        k = round((t1 - t0) / period)
        assert k >= 1 and t1 - t0 == pytest.approx(k * period, abs=1e-4), shown
        assert i1 == (i0 + k * stride) % frames, shown
    assert sum(i1 < i0 for (i0, _), (i1, _) in pairwise(shown)) >= 2  # looped


def test_cli_live_fps_caps_a_looped_short_file(tmp_path, capsys):
    # a 0.2 s file looped at --fps 5 painted 7.5 frames a second
    from videoclips import make_clip

    clip = make_clip(tmp_path / "short.mp4", frames=6, fps=30, audio=False)
    assert main(["live", "--input", str(clip.path), "--fps", "5", "--seconds", "1.5"]) == 0
    frames, seconds, _ = _summary(capsys.readouterr().err)
    # (a starved machine may paint its first frame late in the second: one frame, not two)
    assert 1 <= frames <= 5 * seconds + 1


@pytest.mark.parametrize("fps, target", [(60.0, 30.0), (5.0, 5.0), (None, 30.0)])
def test_adaptive_quality_holds_the_rate_the_source_delivers(pipeline, fps, target):
    # an --fps above the source's own drove the scale to its floor: frames that never come
    # counted against each painted one's budget
    source = SyntheticSource((64, 48), fps=30.0, live=True)
    session = LiveSession(source, pipeline(), LiveOptions(fps=fps))
    session.run(max_frames=1, seconds=30.0)
    assert session.adaptive is not None and session.adaptive.target_fps == target
    assert session.fps == (fps or 30.0)  # the output (virtual camera) keeps --fps
    assert source.max_fps == (fps or 30.0)


def test_cli_live_reports_a_files_latency(tmp_path, capsys):
    # a file's frames carried no capture time, so its summary had no latency at all
    from videoclips import make_clip

    clip = make_clip(tmp_path / "clip.mp4", frames=15, fps=30, audio=False)
    assert main(["live", "--input", str(clip.path), "--max-frames", "4"]) == 0
    frames, _, rest = _summary(capsys.readouterr().err)
    assert frames == 4
    assert re.search(r"latency \d+ ms \(p95 \d+\)", rest), rest
    assert re.search(r", skipped \d+", rest) and "dropped" not in rest  # a file's word


@pytest.mark.parametrize("args, message", [
    (["--fps", "0"], "--fps must be between 1 and 240 for a live picture, got 0"),
    # 1000 was taken: a test picture played at 1000 fps, 2 painted a second at scale 0.3
    (["--fps", "1000", "--max-frames", "3"],
     "--fps must be between 1 and 240 for a live picture, got 1000"),
    (["--fps", "nan", "--max-frames", "3"], "--fps must be between 1 and 240"),
    (["--min-scale", "5"], "--min-scale must be between"),
    (["--size", "12"], "--size expects WIDTHxHEIGHT"),
    (["--camera-size", "640x480"], "--camera-size applies to cameras"),
])
def test_cli_live_bad_options_are_one_line_errors(capsys, args, message):
    assert main(["live", "--input", "synthetic", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_cli_live_without_a_virtual_camera_device_exits_2_with_the_setup_line(
        capsys, monkeypatch):
    monkeypatch.setattr("aquarelle.media.virtual_camera.open_pyvirtualcam",
                        _raise_no_device)
    monkeypatch.setattr("aquarelle.media.virtual_camera.device_problem", lambda: None)
    code = main(["live", "--input", "synthetic", "--virtual-camera", "--max-frames", "3"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err[-1].startswith("aquarelle live: error: no virtual camera")
    assert setup_hint() in err[-1]


def _raise_no_device(w: int, h: int, fps: float) -> Any:
    raise VirtualCameraError(f"no virtual camera (no device): {setup_hint()}")


# -- what a camera offers (V4L2) ------------------------------------------------------------

def test_camera_modes_are_read_from_v4l2_enumeration():
    from aquarelle.media import camera_modes as cm

    mjpg, yuyv = 0x47504A4D, 0x56595559
    formats = [mjpg, yuyv]
    sizes = {mjpg: [(1280, 720), (640, 480)], yuyv: [(640, 480), (320, 240)]}
    rates = {(1280, 720): [(1, 30)], (640, 480): [(1, 30), (1, 15)], (320, 240): [(1, 60)]}

    def ioctl(fd: int, request: int, buf: bytearray) -> int:
        if request == cm.VIDIOC_ENUM_FMT:
            f = list(cm._FMTDESC.unpack(bytes(buf)))
            if f[0] >= len(formats):
                raise OSError(22, "Invalid argument")
            f[4] = formats[f[0]]
            buf[:] = cm._FMTDESC.pack(*f)
        elif request == cm.VIDIOC_ENUM_FRAMESIZES:
            f = list(cm._FRMSIZE.unpack(bytes(buf)))
            options = sizes[f[1]]
            if f[0] >= len(options):
                raise OSError(22, "Invalid argument")
            f[2], f[3], f[4] = cm._FRMSIZE_DISCRETE, *options[f[0]]
            buf[:] = cm._FRMSIZE.pack(*f)
        elif request == cm.VIDIOC_ENUM_FRAMEINTERVALS:
            f = list(cm._FRMIVAL.unpack(bytes(buf)))
            options = rates[(f[2], f[3])]
            if f[0] >= len(options):
                raise OSError(22, "Invalid argument")
            f[4], f[5], f[6] = cm._FRMIVAL_DISCRETE, *options[f[0]]
            buf[:] = cm._FRMIVAL.pack(*f)
        else:
            raise OSError(25, "Inappropriate ioctl")
        return 0

    modes = cm.camera_modes("/dev/video0", ioctl=ioctl, opener=lambda path: -1)
    assert [(m.width, m.height, m.rates) for m in modes] == [
        (1280, 720, (30.0,)), (640, 480, (30.0, 15.0)), (320, 240, (60.0,))]
    assert modes[0].label == "1280\u00d7720"
    assert cm.camera_modes("/dev/nothing-here", opener=_no_device) == []


def _no_device(path: str) -> int:
    raise FileNotFoundError(path)


# -- draft: the whole graph at the work size (live adaptive quality) ----------------------

def test_draft_renders_at_the_work_size_and_upsamples(pipeline):
    from conftest import rings, smooth_noise, to_u8

    img = to_u8(0.5 * smooth_noise(128, 192, seed=7, sigma=4.0)
                + 0.5 * rings(128, 192, period=24.0))
    # (the paper margins off: a draft's finish lays their edge and paper at its own size, which
    # on so small a picture is much of it: 15.9 levels apart with them)
    full = pipeline({"margins": 0.0}, scale=0.5)
    full.draft = False  # the washes at the work size, the finish at the source's
    draft = pipeline({"margins": 0.0}, scale=0.5)  # draft: the default below scale 1
    a = full.render_array(img)
    b = draft.render_array(img)
    assert b.shape == img.shape  # the source's size, as always
    assert draft.read_target("result").shape[:2] == (64, 96)  # the finish ran at 96x64
    assert full.read_target("result").shape[:2] == (128, 192)
    # the same picture at the same scale, only the finish is softer
    assert np.abs(a.astype(float) - b.astype(float)).mean() < 12
    # at scale 1 draft changes nothing
    one = pipeline()
    one.draft = True
    np.testing.assert_array_equal(one.render_array(img), pipeline().render_array(img))
