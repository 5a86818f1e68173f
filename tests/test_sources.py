"""Frame sources: video files (paced and unpaced), webcams (with a fake capture), stills,
the synthetic source, the demo clip, and the factory. No sleeps: waits are on events."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import av
import cv2
import numpy as np
import pytest
from videoclips import avif_photo, decode_video, make_clip, numbered_frames, pattern

from aquarelle.media import webcam
from aquarelle.media.errors import MediaError
from aquarelle.media.file_source import VideoFileSource
from aquarelle.media.sources import (
    StillImageSource,
    SyntheticSource,
    demo_path,
    demo_source,
    open_source,
    synthetic_pattern,
)
from aquarelle.media.video_reader import VideoReader
from aquarelle.media.webcam import CameraSource, list_cameras
from aquarelle.resources import assets_dir

WAIT = 10.0  # generous upper bound for event waits; they normally return in milliseconds


@pytest.fixture
def clip(tmp_path):
    return make_clip(tmp_path / "in.mp4", size=(64, 48), frames=9, audio=False)


@pytest.fixture
def thread_errors(monkeypatch):
    """Exceptions that escaped any thread (there must be none)."""
    seen: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda a: seen.append(a.exc_value))
    return seen


def read_all(src, limit: int = 100) -> list:
    frames = []
    while len(frames) < limit and (f := src.read(timeout=WAIT)) is not None:
        frames.append(f)
    return frames


# -- video files ----------------------------------------------------------------------------

def test_unpaced_file_delivers_every_frame_in_order(clip, thread_errors):
    expected, times, _ = decode_video(clip.path)
    with VideoFileSource(clip.path, paced=False) as src:
        assert src.size == (64, 48) and src.fps == 30 and src.frame_count == 9
        assert src.duration == pytest.approx(0.3, abs=0.01) and src.seekable and not src.live
        frames = read_all(src)
        assert src.read(timeout=WAIT) is None and src.finished and src.error is None
    assert [f.index for f in frames] == list(range(9))
    assert [f.pts for f in frames] == pytest.approx([float(t) for t in times])
    assert all(np.array_equal(f.image, e) for f, e in zip(frames, expected, strict=True))
    assert not thread_errors


@pytest.mark.parametrize("loop", [False, True])
def test_a_sequence_with_a_gap_plays_up_to_it_and_says_so(tmp_path, thread_errors, loop):
    seq = numbered_frames(tmp_path, [*range(1, 11), *range(12, 21)])
    src = open_source(str(seq), paced=False, loop=loop)  # (was: "no such file")
    assert isinstance(src, VideoFileSource)
    with src:
        assert src.warning == ("f_%04d.png stops at f_0010.png: f_0011.png is missing, and "
                               "the 9 frames after the gap are not read")
        assert src.duration == pytest.approx(0.4) and src.frame_count == 10
        frames = read_all(src, limit=25)
        # the missing file ends the sequence, not with an error (the window's "Playback
        # stopped"): a loop goes on from the first frame
        assert src.error is None
    assert [f.index for f in frames] == [k % 10 for k in range(25 if loop else 10)]
    assert all(np.array_equal(f.image, pattern(k % 10 + 1, 64, 48))
               for k, f in enumerate(frames))
    assert not thread_errors


def test_rotated_file_is_upright(tmp_path):
    clip = make_clip(tmp_path / "r.mp4", size=(48, 64), frames=2, rotation=-90, audio=False)
    with VideoFileSource(clip.path, paced=False) as src:
        assert src.size == (48, 64)
        frame = src.read(timeout=WAIT)
    top = frame.image[:3].astype(int)
    assert (top[..., 0] - top[..., 1]).mean() > 60


def test_seek_and_loop(clip):
    expected, _, _ = decode_video(clip.path)
    with VideoFileSource(clip.path, paced=False, loop=True) as src:
        first = [src.read(timeout=WAIT) for _ in range(3)]
        src.seek(0.2)
        after = src.read(timeout=WAIT)
        rest = [src.read(timeout=WAIT) for _ in range(4)]  # 7, 8, then looped 0, 1
    assert [f.index for f in first] == [0, 1, 2]
    assert after.index == 6 and after.pts == pytest.approx(0.2)
    assert np.array_equal(after.image, expected[6])
    assert [f.index for f in rest] == [7, 8, 0, 1]
    assert np.array_equal(rest[2].image, expected[0])


def test_paced_playback_runs_in_real_time_and_drops_unread_frames(clip):
    src = VideoFileSource(clip.path, paced=True)
    t0 = time.monotonic()
    src.start()
    assert src.ended.wait(WAIT)
    elapsed = time.monotonic() - t0
    src.stop()
    # 9 frames at 30 fps: the last one is due 8/30 s after the first.
    assert elapsed >= 8 / 30 - 0.02
    newest = src.latest()
    assert newest is not None and src.latest() is None
    assert src.dropped == 8  # nobody took the others
    with pytest.raises(NotImplementedError):
        src.read()


def test_paused_source_steps_frame_by_frame(clip):
    src = VideoFileSource(clip.path, paced=True)
    src.pause()
    src.start()
    try:
        assert not src.wait_frame(0.3) and src.latest() is None  # paused: nothing comes
        indexes = []
        for n in (1, 1, 2, -2):
            src.step(n)
            assert src.wait_frame(WAIT)
            indexes.append(src.latest().index)
        assert indexes == [0, 1, 3, 1]
        assert src.position == pytest.approx(1 / 30) and src.paused
        src.resume()
        assert src.ended.wait(WAIT) and src.finished
    finally:
        src.stop()


def test_steps_back_through_a_clip_timed_in_milliseconds(tmp_path):
    # a Matroska's timestamps are rounded to milliseconds: frame 14 of 30 fps sits at
    # 0.467 s, a hair before 15's 0.500 less one period, and stepping back found 15 again
    from fractions import Fraction

    ms = make_clip(tmp_path / "ms.mkv", size=(64, 48), frames=20, audio=False,
                   pts=[round(1000 * k / 30) for k in range(20)], time_base=Fraction(1, 1000))
    src = VideoFileSource(ms.path, paced=True)
    src.pause()
    src.start()
    try:
        src.seek(0.533)  # frame 16's time in the file
        assert src.wait_frame(WAIT) and src.latest().index == 16
        seen = []
        for _ in range(4):
            src.step(-1)
            assert src.wait_frame(WAIT)
            seen.append(src.latest().index)
        assert seen == [15, 14, 13, 12]
    finally:
        src.stop()


def test_a_step_right_after_a_seek_moves_on_from_the_seek_target(clip):
    # The GUI's "seek to 0, then step" when the step arrives before the seek's frame: the
    # step must not be spent on the seek's own frame.
    src = VideoFileSource(clip.path, paced=True)
    src.pause()
    src.start()
    try:
        src.seek(5 / 30)
        src.step(1)  # before the worker delivered the seek's frame
        seen = []
        while src.wait_frame(0.5):
            seen.append(src.latest().index)
        assert seen[-1] == 6 and src.position == pytest.approx(6 / 30)
    finally:
        src.stop()


def test_file_failing_midway_sets_error_without_raising(clip, monkeypatch, thread_errors):
    real = VideoReader._convert

    def failing(self, f):
        if self.decoded == 3:
            raise RuntimeError("read error (simulated)")
        return real(self, f)

    monkeypatch.setattr(VideoReader, "_convert", failing)
    with VideoFileSource(clip.path, paced=False) as src:
        frames = read_all(src)
        assert src.ended.wait(WAIT)
    assert [f.index for f in frames] == [0, 1, 2]
    assert src.finished and "simulated" in src.error
    assert not thread_errors


def test_truncated_file_plays_what_decodes(tmp_path):
    clip = make_clip(tmp_path / "long.mp4", frames=20, faststart=True, audio=False)
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(clip.path.read_bytes()[: clip.path.stat().st_size * 6 // 10])
    with VideoFileSource(cut, paced=False) as src:
        n = len(read_all(src))
    assert 0 < n < 20 and src.lost == 20 - n
    # ... and says so, once; a seek past what decodes shows the last frame that does
    # (the words the export and `aquarelle render` give for it)
    assert src.warning == f"cut.mp4: {20 - n} of 20 frames could not be decoded (truncated: " \
                          "the file ends before its frames do); the rest plays"
    src = VideoFileSource(cut, paced=True)
    src.pause()
    src.start()
    try:
        src.seek(18 / 30)
        assert src.wait_frame(WAIT)
        assert src.latest().index == n - 1
    finally:
        src.stop()


def test_a_seek_past_the_end_shows_the_last_frame(clip):
    src = VideoFileSource(clip.path, paced=True)
    src.pause()
    src.start()
    try:
        src.seek(10.0)
        assert src.wait_frame(WAIT)
        assert src.latest().index == len(clip.frames) - 1 and src.warning is None
    finally:
        src.stop()


@pytest.mark.parametrize("content", [None, b"", b"not a video at all"])
def test_bad_files_raise_on_open(tmp_path, content):
    path = tmp_path / "bad.mp4"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(MediaError):
        VideoFileSource(path)


# -- webcams ------------------------------------------------------------------------------

class FakeCapture:
    """cv2.VideoCapture stand-in: `frames` BGR images, then read failures (unplugged)."""

    def __init__(self, frames: list[np.ndarray], opened: bool = True) -> None:
        self.frames = list(frames)
        self.opened = opened
        self.props: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        return 30.0 if prop == cv2.CAP_PROP_FPS else 0.0

    def read(self):
        if self.frames:
            return True, self.frames.pop(0)
        return False, None

    def release(self) -> None:
        self.released = True


def test_camera_keeps_only_the_newest_frame_and_reports_unplugging(thread_errors):
    bgr = [np.full((8, 10, 3), (k, 0, 200), np.uint8) for k in range(10)]
    cap = FakeCapture(bgr)
    cam = CameraSource(0, capture_factory=lambda dev: cap)
    cam.start()
    assert cam.ended.wait(WAIT)
    cam.stop()
    assert cap.props[cv2.CAP_PROP_BUFFERSIZE] == 1 and cap.released
    frame = cam.latest()
    assert frame.index == 9 and frame.pts is None
    assert tuple(frame.image[0, 0]) == (200, 0, 9)  # BGR -> RGB
    assert cam.dropped == 9 and cam.size == (10, 8) and cam.fps == 30
    assert "stopped delivering frames" in cam.error and cam.live
    assert not thread_errors


def test_camera_that_cannot_open_sets_error(thread_errors):
    cam = CameraSource("/dev/video99", capture_factory=lambda dev: FakeCapture([], False))
    cam.start()
    assert cam.ended.wait(WAIT) and cam.ready.is_set()
    cam.stop()
    assert cam.error.startswith("cannot open camera /dev/video99") and cam.latest() is None
    assert not thread_errors


def test_camera_factory_exception_sets_error(thread_errors):
    def boom(dev):
        raise OSError("device busy")

    cam = CameraSource(1, capture_factory=boom)
    cam.start()
    assert cam.ended.wait(WAIT)
    assert "device busy" in cam.error and not thread_errors


def test_list_cameras_reads_names_without_opening_devices(tmp_path, monkeypatch):
    dev, sys_root = tmp_path / "dev", tmp_path / "sys"
    dev.mkdir()
    for n, name, index in [(0, "Fake Cam", "0"), (1, "Fake Cam", "1"), (10, None, None),
                           (2, "USB Capture", "0")]:
        (dev / f"video{n}").touch()
        if name:
            (sys_root / f"video{n}").mkdir(parents=True)
            (sys_root / f"video{n}" / "name").write_text(name + "\n")
            (sys_root / f"video{n}" / "index").write_text(index + "\n")
    (dev / "videox").touch()
    monkeypatch.setattr(webcam, "current_lists_cameras_from_devices", lambda: True)
    cams = list_cameras(dev, sys_root)
    assert [(c.index, c.name) for c in cams] == [(0, "Fake Cam"), (2, "USB Capture"),
                                                 (10, "video10")]
    assert cams[0].path == str(dev / "video0") and cams[0].id == "0"
    t = time.monotonic()
    assert isinstance(list_cameras(), list)  # the real machine: cheap, maybe empty
    assert time.monotonic() - t < 1.0


# -- stills, synthetic, demo, factory -------------------------------------------------------

def test_still_image_source(tmp_path):
    img = np.zeros((20, 30, 3), np.uint8)
    img[:, :, 1] = 99
    path = tmp_path / "still.png"
    cv2.imwrite(str(path), img)
    src = StillImageSource(path)
    assert src.size == (30, 20) and src.still and src.frame_count == 1
    assert src.latest() is None  # not started
    src.start()
    assert src.wait_frame(0)
    frame = src.latest()
    assert frame.image[0, 0, 1] == 99 and frame.pts is None and src.latest() is None
    assert src.finished
    src.seek(0)
    assert src.read() is not None


def test_synthetic_unpaced_in_order_and_seekable():
    with SyntheticSource((32, 24), fps=10, frame_count=6) as src:
        frames = read_all(src)
        assert src.ended.is_set() and src.read(timeout=WAIT) is None
        src.seek(0.3)
        again = src.read(timeout=WAIT)
    assert [f.index for f in frames] == list(range(6))
    assert [f.pts for f in frames] == pytest.approx([k / 10 for k in range(6)])
    assert np.array_equal(frames[4].image, synthetic_pattern(4, 32, 24))
    assert again.index == 3


def test_synthetic_live_drops_stale_frames():
    src = SyntheticSource((16, 12), fps=None, frame_count=50, live=True)
    src.start()
    assert src.ended.wait(WAIT)
    src.stop()
    newest = src.latest()
    assert newest.index == 49 and src.dropped == 49 and src.latest() is None
    assert src.live and not src.seekable


def test_demo_clip_and_assets():
    path = demo_path()
    assert path.is_file() and path.stat().st_size < 1_000_000
    frames_seen = []
    with demo_source(paced=False, loop=False) as src:
        assert src.size == (640, 360) and src.fps == 30 and src.frame_count == 180
        assert src.duration == pytest.approx(6.0, abs=0.05)
        frames_seen.append(src.read(timeout=WAIT))
    assert frames_seen[0].image.shape == (360, 640, 3)
    with av.open(str(path)) as c:
        assert c.streams.audio and c.streams.audio[0].codec_context.name == "aac"
    demo = assets_dir() / "demo"
    assert (demo / "coffee.jpg").stat().st_size > 10_000 and (demo / "LICENSE.txt").is_file()
    total = sum(p.stat().st_size for p in Path(assets_dir()).rglob("*") if p.is_file())
    assert total < 5 * 1024 * 1024


def test_open_source_factory(tmp_path, clip):
    cv2.imwrite(str(tmp_path / "p.png"), np.zeros((4, 4, 3), np.uint8))
    assert isinstance(open_source(str(tmp_path / "p.png")), StillImageSource)
    video = open_source(str(clip.path), paced=False)
    assert isinstance(video, VideoFileSource) and not video.paced
    video.stop()
    assert isinstance(open_source("synthetic"), SyntheticSource)
    cam = open_source("camera:3")
    assert isinstance(cam, CameraSource) and cam.device == 3
    demo = open_source("demo")
    assert demo.loop and demo.paced
    demo.stop()
    with pytest.raises(MediaError, match="no such file"):
        open_source(str(tmp_path / "missing.mp4"))


def test_a_picture_is_a_still_whatever_its_name_and_a_one_frame_photo_too(tmp_path):
    # a JPEG named .mp4 played as a looping one-frame video (its history piling up: the
    # trial saw a ghosted portrait 9-36 levels off the CLI, worse as it ran); an AVIF photo
    # (one frame to FFmpeg) likewise
    img = np.zeros((48, 64, 3), np.uint8)
    img[:, :32] = (40, 120, 200)
    misnamed = tmp_path / "photo.mp4"
    ok, data = cv2.imencode(".jpg", img)
    assert ok
    misnamed.write_bytes(data.tobytes())
    avif = avif_photo(tmp_path / "photo.avif", img)
    for path in (misnamed, avif):
        src = open_source(str(path))
        assert isinstance(src, StillImageSource) and src.path == path and src.size == (64, 48)
    clip = make_clip(tmp_path / "two.mp4", size=(64, 48), frames=2, audio=False)
    assert isinstance(open_source(str(clip.path)), VideoFileSource)
    # ... and the window's export of the still paints it (it read the file with OpenCV)
    from aquarelle.media.still_export import export_still

    assert export_still(avif, tmp_path / "out.png", "watercolor", {}) == (64, 48)
    assert cv2.imread(str(tmp_path / "out.png")).shape == (48, 64, 3)
