"""Files tell the truth (trial V2): an image sequence is not written over itself, a music
file's cover picture is no video, a broken middle's frames that go back in time are left out,
NTSC rates keep exact steps, and the smaller warnings say what is so."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import tone

from aquarelle.cli.main import main


@pytest.fixture(autouse=True)
def _shared_context_current_again(gl_ctx):
    """Each CLI run makes and releases its own GL context: the session's is made current
    again for the tests that use it."""
    yield
    gl_ctx.__enter__()


def render(capsys, *argv: object) -> tuple[int, str]:
    code = main(["render", *map(str, argv)])
    return code, capsys.readouterr().err


def song(path: Path, fmt: str, codec: str) -> Path:
    """Two seconds of sound with a 64x64 cover picture (an attached picture, as music
    files carry their album art)."""
    with av.open(str(path), "w", format=fmt) as out:
        out.metadata["title"] = "Song"
        audio = out.add_stream(codec, rate=44100, layout="stereo")
        cover = out.add_stream("mjpeg")
        cover.width, cover.height, cover.pix_fmt = 64, 64, "yuvj420p"
        cover.disposition = av.stream.Disposition.attached_pic
        picture = av.VideoFrame.from_ndarray(np.full((64, 64, 3), 90, np.uint8), "rgb24")
        picture.pts = 0
        for packet in [*cover.encode(picture), *cover.encode(None)]:
            out.mux(packet)
        samples = tone(2.0, 44100)
        size = 1152
        for i in range(0, samples.shape[1] - size + 1, size):
            frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples[:, i:i + size]),
                                               format="fltp", layout="stereo")
            frame.sample_rate, frame.pts = 44100, i
            for packet in audio.encode(frame):
                out.mux(packet)
        for packet in audio.encode(None):
            out.mux(packet)
    return path


@pytest.fixture(params=[("song.mp3", "mp3", "libmp3lame"), ("song.m4a", "mp4", "aac")],
                ids=["mp3", "m4a"])
def music(request, tmp_path) -> Path:
    name, fmt, codec = request.param
    return song(tmp_path / name, fmt, codec)


def test_a_music_files_cover_picture_is_no_video(tmp_path, capsys, music):
    with av.open(str(music)) as c:  # (what the trial's files hold)
        assert [s.type for s in c.streams] == ["audio", "video"]
    for out in ("x.mp4", "x.mkv", "frames/%04d.png"):
        (tmp_path / "frames").mkdir(exist_ok=True)
        code, err = render(capsys, music, "-o", tmp_path / out, "-q")
        assert code == 2, err
        assert err.strip() == (f"aquarelle render: error: {music} has no video stream, only "
                               "a cover picture"), err
    assert not list((tmp_path / "frames").iterdir())
    assert not (tmp_path / "x.mp4").exists() and not (tmp_path / "x.mkv").exists()


def test_a_batch_names_a_music_file_it_does_not_render(tmp_path, capsys, music):
    from videoclips import make_clip

    clip = make_clip(tmp_path / "clip.mp4", frames=3).path
    code, err = render(capsys, clip, music, "-o", tmp_path / "out", "-q")
    assert code == 2, err
    assert f"{music} has no video stream, only a cover picture" in err
    assert "1 of 2 rendered" in err and f"1 failed: {music}" in err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["clip.mp4"]


def late_frames_clip(path: Path) -> list[np.ndarray]:
    """An MJPEG clip whose decoder hands frames 5 and 6 after frame 4 with their own, earlier
    times (0, 0.04, 0.08, 0.12, 0.24, 0.16, 0.2, 0.28 s: as a damaged stretch of H.264 gave
    in the trial); returns the pictures drawn, in that order."""
    from videoclips import pattern

    drawn = [pattern(k, 64, 48) for k in range(8)]
    pts = [0, 2, 4, 6, 12, 8, 10, 14]  # in 1/50 s
    dts = [0, 2, 4, 6, 7, 8, 10, 14]  # (increasing, as a muxer takes them)
    with av.open(str(path), "w") as out:
        stream = out.add_stream("mjpeg", rate=25)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuvj420p"
        stream.time_base = Fraction(1, 50)
        packets = []
        for k, picture in enumerate(drawn):
            frame = av.VideoFrame.from_ndarray(picture, format="rgb24")
            frame.pts, frame.time_base = k, Fraction(1, 25)
            packets += stream.encode(frame)
        packets += stream.encode(None)
        for packet, p, d in zip(packets, pts, dts, strict=True):
            packet.pts, packet.dts, packet.duration = p, d, 2
            packet.time_base = Fraction(1, 50)
            out.mux(packet)
    with av.open(str(path)) as c:  # (the decoder gives those times, in that order)
        assert [float(f.time) for f in c.decode(video=0)] == pytest.approx(
            [t / 50 for t in pts], abs=1e-3)
    return drawn


@pytest.mark.parametrize("src_ext", [".mkv", ".mp4"])
@pytest.mark.parametrize("out", ["out.mkv", "out.mp4"])
def test_frames_whose_times_go_back_are_left_out_and_counted(tmp_path, capsys, src_ext, out):
    from test_vfr_timing import nearest
    from videoclips import decode_video

    src = tmp_path / f"late{src_ext}"
    drawn = late_frames_clip(src)
    code, err = render(capsys, src, "-o", tmp_path / out, "--style", "adjust")
    assert code == 0, err
    pictures, times, _ = decode_video(tmp_path / out)
    assert [float(t) for t in times] == pytest.approx([0, 0.04, 0.08, 0.12, 0.24, 0.28],
                                                      abs=1e-3)
    assert [nearest(p, drawn) for p in pictures] == [0, 1, 2, 3, 4, 7]
    assert (f"{src}: 2 frame(s) could not be decoded and are missing from the output (2 of "
            "them came late from the decoder, with times before frames already shown, and "
            "were left out rather than shown out of order)") in err


def test_frames_whose_times_go_back_are_no_pictures_of_a_sequence(tmp_path, capsys):
    from test_vfr_timing import nearest

    drawn = late_frames_clip(tmp_path / "late.mkv")
    (tmp_path / "frames").mkdir()
    code, err = render(capsys, tmp_path / "late.mkv", "-o", tmp_path / "frames/%02d.png",
                       "--style", "adjust", "-q")
    assert code == 0, err
    import cv2

    written = sorted((tmp_path / "frames").iterdir())
    assert [nearest(cv2.imread(str(p))[:, :, ::-1], drawn) for p in written] == [
        0, 1, 2, 3, 4, 7]
    assert "2 frame(s) could not be decoded (2 of them came late from the decoder" in err


@pytest.mark.parametrize("rate", ["30000/1001", "24000/1001"])
@pytest.mark.parametrize("ext", [".mp4", ".mov"])
def test_an_ntsc_rate_steps_alike_from_a_clock_that_cannot_hold_it(tmp_path, capsys, rate,
                                                                  ext):
    from videoclips import make_clip

    # 25 fps in 1/12800 (FFmpeg's usual MP4 clock), which holds no step of 1001/30000 s
    src = make_clip(tmp_path / "in.mp4", frames=25, fps=25, time_base=Fraction(1, 12800),
                    audio=False).path
    out = tmp_path / f"out{ext}"
    code, err = render(capsys, src, "-o", out, "--fps", rate, "--style", "adjust", "-q")
    assert code == 0, err
    fps = Fraction(rate)
    with av.open(str(out)) as c:
        stream = c.streams.video[0]
        pts = [f.pts for f in c.decode(stream)]
        assert stream.time_base == Fraction(1, fps.numerator)
    steps = {b - a for a, b in zip(pts, pts[1:], strict=False)}
    assert steps == {1001}  # (they were 427 and 428 by turns at 29.97)
    assert len(pts) == math.ceil(fps)  # slots before the source's end, 1 s


def test_a_new_rates_clock_holds_the_source_and_the_rate_where_one_can():
    from aquarelle.media.export import rate_time_base

    assert rate_time_base(Fraction(1, 1000), 24) == Fraction(1, 3000)
    assert rate_time_base(Fraction(1, 90000), Fraction(30000, 1001)) == Fraction(1, 90000)
    assert rate_time_base(Fraction(1, 12800), Fraction(30000, 1001)) == Fraction(1, 30000)
    assert rate_time_base(Fraction(1, 12800), Fraction(24000, 1001)) == Fraction(1, 24000)
    assert rate_time_base(Fraction(1, 12800), 30000 / 1001) == Fraction(1, 30000)


@pytest.mark.parametrize("out", ["x.mp4", "frames/%04d.png", "x.gif"])
def test_a_start_past_the_last_frame_names_no_end_that_was_not_given(tmp_path, capsys, out):
    from videoclips import make_clip

    # last frame: 0.96 s, until 1.00 (--start 0.99 begins with it, on screen there)
    src = make_clip(tmp_path / "in.mp4", frames=25, fps=25, audio=False).path
    (tmp_path / "frames").mkdir()
    code, err = render(capsys, src, "-o", tmp_path / out, "--start", "1.01", "-q")
    assert code == 2, err
    assert err.strip() == (f"aquarelle render: error: {src}: no video frame starts at or after "
                           "--start 1.01 s (the video lasts 1.00 s)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frames", "in.mp4"]
    assert not list((tmp_path / "frames").iterdir())
    code, err = render(capsys, src, "-o", tmp_path / out, "--start", "1.01", "--end", "2")
    assert code == 2 and "no video frames between the --start and --end times" in err, err


def test_frames_of_a_variable_rate_say_their_timing_is_lost(tmp_path, capsys):
    from test_vfr_timing import vfr_clip
    from videoclips import make_clip

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    src = vfr_clip(tmp_path / "vfr.mkv")
    code, err = render(capsys, src, "-o", tmp_path / "a/%03d.png", "--style", "adjust", "-q")
    assert code == 0, err
    assert ("vfr.mkv has a variable frame rate, whose timing an image sequence cannot hold"
            in err), err
    steady = make_clip(tmp_path / "steady.mkv", frames=6, audio=False).path
    code, err = render(capsys, steady, "-o", tmp_path / "b/%03d.png", "--style", "adjust",
                       "-q")
    assert code == 0 and "variable frame rate" not in err, err
    code, err = render(capsys, src, "-o", tmp_path / "b/%03d.png", "--fps", "10", "-y",
                       "--style", "adjust", "-q")
    assert code == 0 and "variable frame rate" not in err, err
