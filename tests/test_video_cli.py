"""`aquarelle render` on videos: bad input, truncated files, batches, progress, Ctrl+C."""

from __future__ import annotations

import io
import itertools
import os
import random
import re
from fractions import Fraction
from pathlib import Path

import cv2
import numpy as np
import pytest
from videoclips import decode_video, make_clip, numbered_frames

from aquarelle.cli import render_options
from aquarelle.cli.main import main
from aquarelle.media.export import ExportProgress
from aquarelle.media.progress import ProgressPrinter


@pytest.fixture(autouse=True)
def _shared_context_current_again(gl_ctx):
    """Each CLI run makes and releases its own GL context; afterwards make the session's
    shared context current again for the tests that use it without `with`."""
    yield
    gl_ctx.__enter__()


@pytest.fixture
def clip(tmp_path):
    return make_clip(tmp_path / "in.mp4", size=(64, 48), frames=6)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["render", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean_error(code: int, err: str, *, contains: str) -> None:
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("aquarelle render: error: "), err
    assert contains in lines[0], err
    assert "Traceback" not in err


def nothing_written(folder: Path, *names: str) -> None:
    for name in names:
        assert not (folder / name).exists()
    assert not [p.name for p in folder.iterdir() if ".part" in p.name]


def test_render_a_video(tmp_path, capsys, clip):
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "out.mp4", "--crf", "20")
    assert code == 0, err
    assert "in.mp4 -> " in err and "6 frames" in err and "aac copied" in err
    frames, times, facts = decode_video(tmp_path / "out.mp4")
    assert len(frames) == 6 and times == clip.times and facts["audio"][0][0] == "aac"
    assert (os.stat(tmp_path / "out.mp4").st_mode & 0o777) != 0o600  # not mkstemp's mode


def test_quiet_prints_nothing(tmp_path, capsys, clip):
    code, out, err = run_cli(capsys, clip.path, "-o", tmp_path / "out.mkv", "-q")
    assert code == 0 and out == "" and err == ""
    assert len(decode_video(tmp_path / "out.mkv")[0]) == 6


def test_options_size_start_end_codec_no_audio(tmp_path, capsys, clip):
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "out.webm", "--size", "32x-1",
                           "--start", "0:00.05", "--end", "0.15", "--no-audio", "-q")
    assert code == 0, err
    frames, times, facts = decode_video(tmp_path / "out.webm")
    assert facts["codec"] == "vp9" and facts["audio"] == []
    # frames at 0.033 (on screen at --start), 0.067, 0.1, 0.133
    assert frames[0].shape == (24, 32, 3) and len(frames) == 4


def test_output_folder_for_a_single_video(tmp_path, capsys, clip):
    out = tmp_path / "renders"
    out.mkdir()
    code, _, err = run_cli(capsys, clip.path, "-o", out, "--codec", "prores", "-q")
    assert code == 0, err
    assert decode_video(out / "in.mov")[2]["codec"] == "prores"


def _bad_inputs(tmp_path: Path, clip) -> dict[str, tuple[Path, str]]:
    text = tmp_path / "notes.mp4"
    text.write_text("this is not a video\n" * 20)
    empty = tmp_path / "empty.mp4"
    empty.write_bytes(b"")
    data = clip.path.read_bytes()
    corrupt = tmp_path / "corrupt.mp4"
    corrupt.write_bytes(data[:64] + os.urandom(len(data) - 64))
    stub = tmp_path / "stub.mp4"  # truncated so early that no frame is left
    stub.write_bytes(data[: len(data) // 20])
    fast = make_clip(tmp_path / "fast.mp4", frames=6, faststart=True).path.read_bytes()
    headless = tmp_path / "headless.mp4"  # index intact, media data cut off
    headless.write_bytes(fast[: len(fast) // 20])
    audio_only = make_clip(tmp_path / "a.mkv", frames=3).path  # re-muxed below, audio only
    import av

    no_video = tmp_path / "sound.mka"
    with av.open(str(audio_only)) as i, av.open(str(no_video), "w") as o:
        s = o.add_stream_from_template(i.streams.audio[0])
        for p in i.demux(i.streams.audio[0]):
            if p.dts is not None:
                p.stream = s
                o.mux(p)
    return {
        "missing": (tmp_path / "nope.mp4", "no such file"),
        "empty": (empty, "is empty"),
        "text named .mp4": (text, "not a readable video"),
        "corrupt": (corrupt, "not a readable video"),
        "truncated to nothing": (stub, "not a readable video"),
        "index without data": (headless, "no decodable video frames"),
        "no video stream": (no_video, "has no video stream"),
    }


def test_bad_inputs_give_one_line_errors_and_write_nothing(tmp_path, capsys, clip):
    out = tmp_path / "out"
    out.mkdir()
    for case, (path, message) in _bad_inputs(tmp_path, clip).items():
        code, _, err = run_cli(capsys, path, "-o", out / "x.mp4")
        assert_clean_error(code, err, contains=message)
        nothing_written(out, "x.mp4")
        assert case


def test_a_file_named_as_no_media_is_not_called_a_video(tmp_path):
    # (the window opens what is dropped on it through open_input: notes.txt was "not a
    # readable video")
    from aquarelle.media.errors import MediaError
    from aquarelle.media.video_reader import open_input

    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list")
    with pytest.raises(MediaError) as err:
        open_input(notes)
    # (in the words a drop of it says: it was "not a readable image or video file (Invalid
    # data found when processing input)" where the drop said "not a picture or a video")
    from aquarelle.ui.drops import why_not
    assert str(err.value) == f"{notes}: {why_not(notes)}"
    assert str(err.value).endswith("not a picture or a video (FFmpeg decodes no picture in it)")
    named = tmp_path / "notes.mp4"
    named.write_text("shopping list")
    with pytest.raises(MediaError, match="not a readable video "):
        open_input(named)


def test_a_bad_input_to_a_picture_is_its_own_problem_not_the_outputs(tmp_path, capsys, clip):
    """Trial W10's follow-up: a cut MP4 and a notes file rendered to .png were "a video,
    which cannot be written as .png" (FFmpeg reads a text file of some size as a video of
    its characters: a notes.txt was also painted as one to .mp4); a text file named .mp4
    was said in FFmpeg's words ("Invalid data found when processing input")."""
    whole = clip.path.read_bytes()
    cut = tmp_path / "cut.mp4"  # its index (at the end) gone
    cut.write_bytes(whole[:len(whole) // 2])
    notes = tmp_path / "notes.txt"
    notes.write_text("this is a text file, not a video\n" * 40)
    named = tmp_path / "notes.mp4"
    named.write_text("this is a text file, not a video\n" * 40)
    cases = [(cut, "x.png", "not a readable video (truncated: the file ends before its "
                            "boxes do)"),
             (notes, "x.png", "not a picture or a video (a text file)"),
             (notes, "x.mp4", "not a picture or a video (a text file)"),
             (named, "x.png", "not a readable video (damaged, or not the format its name "
                              "says)")]
    out = tmp_path / "out"
    out.mkdir()
    for path, name, message in cases:
        code, _, err = run_cli(capsys, path, "-o", out / name)
        assert_clean_error(code, err, contains=f"{path}: {message}")
        nothing_written(out, name)


@pytest.mark.parametrize(("args", "message"), [
    (["--codec", "theora"], "unknown codec 'theora'"),
    (["--codec", "prores"], "cannot go into .mp4"),
    (["--crf", "99"], "--crf for h264 must be between 0 and 51"),
    (["--size", "big"], "--size expects"),
    (["--start", "1:xx"], "--start expects"),
    (["--start", "0.2", "--end", "0.1"], "must be after --start"),
    (["--start", "5"], "no video frame starts at or after --start 5 s (the video lasts"),
    (["--video-lines", "50"], "--video-lines must be 0 (paint every line) or 120 to 4320"),
    (["--video-lines", "4321"], "--video-lines must be 0 (paint every line) or 120 to 4320"),
])
def test_bad_options(tmp_path, capsys, clip, args, message):
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "x.mp4", *args)
    assert_clean_error(code, err, contains=message)
    nothing_written(tmp_path, "x.mp4")


def test_bad_destinations(tmp_path, capsys, clip):
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "missing" / "x.mp4")
    assert_clean_error(code, err, contains="output folder does not exist")
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "x.avi")
    assert_clean_error(code, err, contains="unsupported video output format .avi")
    code, _, err = run_cli(capsys, clip.path, "-o", clip.path)
    assert_clean_error(code, err, contains="is the input")
    assert decode_video(clip.path)[1] == clip.times  # the input is untouched
    # A folder nobody may write to (root may write anywhere but /proc).
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    target = locked if os.geteuid() != 0 else Path("/proc/1")
    try:
        code, _, err = run_cli(capsys, clip.path, "-o", target / "x.mp4")
    finally:
        locked.chmod(0o700)
    assert_clean_error(code, err, contains="cannot write")
    assert not (target / "x.mp4").exists()


def _sequence_state(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("out", ["seq/f_%04d.png", "link/f_%04d.png", "seq/f_%4d.png"],
                         ids=["same", "linked-folder", "other-spelling"])
def test_a_sequence_written_over_its_own_frames_is_the_input(tmp_path, capsys, out):
    src = numbered_frames(tmp_path / "seq", range(1, 6))
    (tmp_path / "link").symlink_to(tmp_path / "seq")
    before = _sequence_state(tmp_path / "seq")
    code, _, err = run_cli(capsys, src, "-o", tmp_path / out, "-q")
    assert_clean_error(code, err, contains="is the input: it would write over")
    assert "f_0001.png, a frame of" in err
    assert _sequence_state(tmp_path / "seq") == before  # nothing touched, nothing added


def test_a_sequence_whose_frames_another_pattern_names_is_refused(tmp_path, capsys):
    folder = tmp_path / "seq"
    folder.mkdir()
    for n in range(1, 4):  # f_1.png...: %d, which f_%01d.png writes over
        cv2.imwrite(str(folder / f"f_{n}.png"), np.full((48, 64, 3), 40 * n, np.uint8))
    before = _sequence_state(folder)
    code, _, err = run_cli(capsys, folder / "f_%d.png", "-o", folder / "f_%01d.png", "-q")
    assert_clean_error(code, err, contains="is the input")
    assert _sequence_state(folder) == before
    # a pattern naming none of its files is written beside them
    code, _, err = run_cli(capsys, folder / "f_%d.png", "-o", folder / "g_%03d.png", "-q")
    assert code == 0, err
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith("g_")) == [
        "g_001.png", "g_002.png", "g_003.png"]
    assert all(before[k] == (folder / k).read_bytes() for k in before)


def test_truncated_tail_renders_what_decodes_with_a_warning(tmp_path, capsys):
    clip = make_clip(tmp_path / "long.mkv", size=(64, 48), frames=20)
    data = clip.path.read_bytes()
    cut = tmp_path / "cut.mkv"
    cut.write_bytes(data[: int(len(data) * 0.6)])
    code, _, err = run_cli(capsys, cut, "-o", tmp_path / "out.mp4")
    assert code == 0, err
    frames, times, _ = decode_video(tmp_path / "out.mp4")
    assert 0 < len(frames) < 20
    lost = 20 - len(frames)
    assert f"aquarelle: warning: {cut}: {lost} frame(s) could not be decoded" in err
    assert times == decode_video(clip.path)[1][: len(frames)]


def test_a_variable_frame_rate_mkv_is_not_said_to_miss_frames(tmp_path, capsys):
    # Steps of 10 to 70 ms: Matroska declares 30 fps all the same, and timed at that rate
    # the long steps read as dozens of missing frames
    rng = random.Random(3)
    pts = list(itertools.accumulate((rng.randrange(10, 71) for _ in range(89)), initial=0))
    clip = make_clip(tmp_path / "vfr.mkv", size=(64, 48), pts=pts,
                     time_base=Fraction(1, 1000), audio=False)
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "out.mp4")
    assert code == 0, err
    assert "could not be decoded" not in err and "warning" not in err, err
    assert "(90 frames," in err
    frames, times, _ = decode_video(tmp_path / "out.mp4")
    assert len(frames) == 90 and times == clip.times


def test_frames_lost_from_a_variable_rate_mkv_are_said_to_be_guessed(tmp_path, capsys):
    """A cut-short VFR file's lost frames are guessed from the time left at the mean rate:
    said as "about N" (trial V5: '3 frame(s)' stated as a fact where 4 were lost)."""
    rng = random.Random(5)
    pts = list(itertools.accumulate((rng.randrange(10, 71) for _ in range(59)), initial=0))
    clip = make_clip(tmp_path / "vfr.mkv", size=(64, 48), pts=pts,
                     time_base=Fraction(1, 1000), audio=False)
    data = clip.path.read_bytes()
    cut = tmp_path / "cut.mkv"
    cut.write_bytes(data[: int(len(data) * 0.6)])
    code, _, err = run_cli(capsys, cut, "-o", tmp_path / "out.mp4")
    assert code == 0, err
    assert re.search(rf"aquarelle: warning: {re.escape(str(cut))}: about \d+ frame\(s\) could "
                     "not be decoded", err), err


def test_frames_missing_from_a_steady_mkv_are_counted(tmp_path, capsys):
    # 30 fps with frames 10-14 gone (a damaged stretch the demuxer skipped)
    pts = [i * 33 for i in range(45) if not 10 <= i < 15]
    clip = make_clip(tmp_path / "gap.mkv", size=(64, 48), pts=pts,
                     time_base=Fraction(1, 1000), audio=False)
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "out.mp4")
    assert code == 0, err
    assert f"aquarelle: warning: {clip.path}: 5 frame(s) could not be decoded" in err


def test_ctrl_c_leaves_no_output(tmp_path, capsys, clip, monkeypatch):
    calls = []

    def interrupt(self, p):
        calls.append(p)
        if len(calls) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(ProgressPrinter, "__call__", interrupt)
    code, _, err = run_cli(capsys, clip.path, "-o", tmp_path / "out.mp4")
    assert code == 130 and "cancelled" in err
    nothing_written(tmp_path, "out.mp4")


def test_batch_renders_a_folder_and_continues_past_failures(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    make_clip(src / "a.mp4", frames=4)
    make_clip(src / "b.webm", frames=4, codec="libvpx-vp9")
    make_clip(src / "b.mp4", frames=3, audio=False)  # same stem as b.webm
    cv2.imwrite(str(src / "photo.png"), np.full((24, 32, 3), 120, np.uint8))
    (src / "broken.mp4").write_text("garbage")
    (src / "notes.txt").write_text("ignored: not media")
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, src, "-o", out)
    assert code == 2
    assert "batch: 4 of 5 rendered" in err and "1 failed" in err and "broken.mp4" in err
    assert err.count("aquarelle render: error: ") == 1
    names = sorted(p.name for p in out.iterdir())
    assert names == ["a.mp4", "b.mp4", "b_webm.mp4", "photo.png"]
    assert len(decode_video(out / "a.mp4")[0]) == 4
    assert len(decode_video(out / "b_webm.mp4")[0]) == 4


def test_batch_of_explicit_files_all_good(tmp_path, capsys):
    a = make_clip(tmp_path / "one.mp4", frames=3).path
    b = make_clip(tmp_path / "two.mkv", frames=3).path
    code, _, err = run_cli(capsys, a, b, "-o", tmp_path / "out", "-q")
    assert code == 0, err and err == ""
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["one.mp4", "two.mkv"]


def test_a_file_given_twice_is_rendered_once_and_said(tmp_path, capsys, monkeypatch):
    """A folder and a file in it, the same file twice, or spelt otherwise (./, .., a
    symlink): each file rendered once, not again as x_png.png, with a one-line note."""
    src = tmp_path / "batch"
    src.mkdir()
    cv2.imwrite(str(src / "hopper.png"), np.full((24, 32, 3), 120, np.uint8))
    cv2.imwrite(str(src / "one.png"), np.full((8, 8, 3), 60, np.uint8))
    code, _, err = run_cli(capsys, src, src / "hopper.png", "-o", tmp_path / "dup_out")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "dup_out").iterdir()) == ["hopper.png",
                                                                        "one.png"]
    assert cv2.imread(str(tmp_path / "dup_out" / "hopper.png")).shape == (24, 32, 3)
    notes = [line for line in err.splitlines() if "duplicate" in line]
    assert notes == [f"aquarelle: note: skipped 1 duplicate input, each file is rendered "
                     f"once: {src / 'hopper.png'} (given twice)"]
    assert "batch: 2 of 2 rendered" in err and err.count(" -> ") == 2

    (src / "link.png").symlink_to("hopper.png")
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "batch/hopper.png", "./batch/hopper.png",
                           "batch/../batch/link.png", "-o", "nm2/")
    assert code == 0, err
    assert [p.name for p in (tmp_path / "nm2").iterdir()] == ["hopper.png"]
    assert "skipped 2 duplicate inputs" in err and "batch/link.png (the same file as " \
        "batch/hopper.png)" in err and "batch: 1 of 1 rendered" in err


def test_batch_into_the_input_folder_is_refused(tmp_path, capsys):
    make_clip(tmp_path / "a.mp4", frames=2)
    code, _, err = run_cli(capsys, tmp_path, "-o", tmp_path)
    assert_clean_error(code, err, contains="is the input folder")


def test_help_documents_odd_sizes_and_video_options(capsys):
    with pytest.raises(SystemExit) as e:
        main(["render", "--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    for text in ("--crf", "--codec", "--size", "--start", "--end", "--no-audio",
                 "padded", "641x361 is written as 642x362"):
        assert text in out


def test_progress_on_a_terminal_is_one_updating_line():
    buf = io.StringIO()
    printer = ProgressPrinter("clip.mp4", buf, tty=True, tty_interval=0)
    for done in range(0, 11, 2):
        printer(ExportProgress(done, 10, elapsed=done / 5))
    printer.finish("done")
    text = buf.getvalue()
    assert text.count("\n") == 1 and text.endswith("done\n")
    assert "\rclip.mp4: 4/10 frames (40%), 5.0 fps, ETA 0:01" in text
    # at 100% the encoder may still be finishing the file: no "ETA 0:00" standing still
    assert "\rclip.mp4: 10/10 frames (100%), 5.0 fps, finishing" in text


def test_progress_elsewhere_is_plain_periodic_lines():
    buf = io.StringIO()
    printer = ProgressPrinter("clip.mp4", buf, tty=False, interval=0)
    printer(ExportProgress(3, None, elapsed=1.0))
    printer(ExportProgress(6, 12, elapsed=2.0))
    assert buf.getvalue().splitlines() == [
        "clip.mp4: 3 frames, 3.0 fps", "clip.mp4: 6/12 frames (50%), 3.0 fps, ETA 0:02"]
    assert "\r" not in buf.getvalue()
    quiet = io.StringIO()
    printer = ProgressPrinter("x", quiet, quiet=True, interval=0)
    printer(ExportProgress(1, 2, elapsed=1.0))
    printer.finish("done")
    assert quiet.getvalue() == ""


def test_time_and_size_parsing():
    assert render_options.parse_time("12.5", "--start") == 12.5
    assert render_options.parse_time("1:02.5", "--start") == 62.5
    assert render_options.parse_time("1:00:02", "--start") == 3602
    assert render_options.parse_size("1280x-1") == (1280, -1)
    assert render_options.parse_size("-1X720") == (-1, 720)


def _timecoded_mov(path: Path) -> Path:
    """A 25 fps .mov, 1.2 s, whose timecode is 01:02:03:04 (a tmcd track)."""
    import av
    from videoclips import mux_frames, pattern

    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.metadata["timecode"] = "01:02:03:04"
        mux_frames(out, vs, (pattern(k, 64, 48) for k in range(30)), time_base=Fraction(1, 25))
    return path


@pytest.mark.parametrize(("fps", "held"), [
    # the new rate's first frame is at the cut: 0.66 s into second 3 is frame 33 at 50 fps
    # (counted from the first source frame after the cut, 0.52 s on, it was said 34)
    ("50", "01:02:03:33"),
    ("25", None)])  # 12.5 frames on: the nearest frame, said
def test_a_timecode_with_fps_and_start_names_the_cut(tmp_path, capsys, fps, held):
    import av

    src = _timecoded_mov(tmp_path / "tc.mov")
    code, _, err = run_cli(capsys, src, "-o", tmp_path / "out.mov", "--fps", fps,
                           "--start", "0.5", "--style", "adjust")
    assert code == 0, err
    with av.open(str(tmp_path / "out.mov")) as c:
        got = [s.metadata.get("timecode") for s in c.streams if s.type != "audio"]
    said = [line for line in err.splitlines() if "timecode" in line and "warning" in line]
    if held is not None:
        assert got == [held, held] and not said, err
    else:  # 01:02:03:04 + 12.5 frames: 16.5, said as the nearest frame
        assert got == ["01:02:03:16"] * 2
        assert said == ["aquarelle: warning: timecode 01:02:03:04 at 25 fps (0.5 s on) "
                        "written as 01:02:03:16 at 25 fps: the frame nearest its time"], err


@pytest.mark.parametrize(("pix_fmt", "codec", "said"), [
    ("yuv444p", "h264", "in.mp4 has 4:4:4 colour; h264 is written 4:2:0, its colour at half "
                        "the width and height"),
    ("yuv444p", "prores", "in.mp4 has 4:4:4 colour; prores is written 4:2:2, its colour at "
                          "half the width"),
    ("yuv422p", "h264", "in.mp4 has 4:2:2 colour; h264 is written 4:2:0, its colour at half "
                        "the height"),
    ("yuv420p", "h264", None)])
def test_colour_resolution_lost_is_said_in_one_line(tmp_path, capsys, pix_fmt, codec, said):
    src = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=2, pix_fmt=pix_fmt,
                    audio=False).path
    out = tmp_path / ("out.mov" if codec == "prores" else "out.mp4")
    code, _, err = run_cli(capsys, src, "-o", out, "--codec", codec, "--style", "adjust")
    assert code == 0, err
    lines = [line for line in err.splitlines() if " colour; " in line]
    assert lines == ([] if said is None else [f"aquarelle: warning: {said}"]), err
    # the cluster's join says what it loses through the same depth_warnings
    from aquarelle.media.carry import depth_warnings
    from aquarelle.media.video_reader import VideoReader
    from aquarelle.media.video_writer import CODECS

    with VideoReader(src) as reader:
        fmt = "yuv422p10le" if codec == "prores" else "yuv420p"
        chroma = [w for w in depth_warnings(reader, fmt, CODECS[codec]) if " colour; " in w]
    assert chroma == ([] if said is None else [said])


def test_a_video_wider_than_frames_are_painted_is_refused_before_any_work(tmp_path, capsys):
    """It failed at its first frame with "frame 16385x64 exceeds the GPU's texture limit
    16384" and no word of what does it (trial V4): refused at once, --size named."""
    import av

    src = tmp_path / "wide.mkv"
    with av.open(str(src), "w") as out:
        stream = out.add_stream("ffv1", rate=25)
        stream.width, stream.height, stream.pix_fmt = 16386, 8, "gray"
        for k in range(2):
            frame = av.VideoFrame.from_ndarray(np.full((8, 16386), 40 * k, np.uint8),
                                               format="gray")
            frame.pts = k
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    code, _, err = run_cli(capsys, src, "-o", tmp_path / "out.mp4")
    assert code == 2 and err.strip() == (
        "aquarelle render: error: wide.mkv is 16386x8: a video's frames are painted at most "
        "16384 px a side; render it smaller, e.g. --size 8192x-1")
    assert not list(tmp_path.glob("out*")) and not list(tmp_path.glob(".out*"))


def test_an_end_past_the_video_is_said(tmp_path, capsys, clip):
    # (trial V14: --start past the end is an error, an --end past it was taken without a word)
    out = tmp_path / "x.mp4"
    code, _, err = run_cli(capsys, clip.path, "-o", out, "--end", "30", "--style", "adjust")
    assert code == 0, err
    assert "--end 30 s is past the end of the video (0.20 s): exported to its " \
        "end" in err, err
    assert len(decode_video(out)[0]) == 6
    code, _, err = run_cli(capsys, clip.path, "-o", out, "--end", "0.1", "-y")
    assert code == 0 and "past the end" not in err
