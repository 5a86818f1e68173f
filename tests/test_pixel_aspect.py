"""Non-square pixels (DV, DVD, HDV): an export keeps the source's sample aspect ratio where the
file can hold it, makes the pixels square where it cannot (VP9 in WebM), and a --size is the
displayed size in square pixels; pictures say they keep the stored pixels."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import pytest
from videoclips import mux_frames, pattern

from aquarelle.cli.main import main
from aquarelle.cluster.driver import ClusterOptions, Driver, FileJob, LocalBackend
from aquarelle.engine.chain_spec import load_chain, param_set
from aquarelle.media.export import ExportOptions, export_video, pixel_shape, resolve_size
from aquarelle.media.video_reader import VideoReader

PAL_DV = Fraction(12, 11)


def sar_clip(path: Path, sar: Fraction | None = PAL_DV, *, size: tuple[int, int] = (64, 48),
             frames: int = 5, pix_fmt: str = "yuv420p", rotation: int = 0) -> Path:
    """A tiny H.264 clip whose stored pixels are `sar` wide (None: no aspect ratio set)."""
    w, h = size
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = w, h, pix_fmt
        if sar is not None:
            vs.codec_context.sample_aspect_ratio = sar
        if rotation:
            vs.set_display_rotation(rotation)
        mux_frames(out, vs, (pattern(k, w, h) for k in range(frames)))
    return path


def facts(path: Path) -> tuple[tuple[int, int], Fraction | None, int]:
    """The stored size, the sample aspect ratio a player reads, and the frames decoded."""
    with av.open(str(path)) as c:
        vs = c.streams.video[0]
        frames = sum(1 for _ in c.decode(vs))
        return (vs.codec_context.width, vs.codec_context.height), vs.sample_aspect_ratio, frames


@pytest.mark.parametrize("ext", [".mp4", ".mkv", ".mov"])
def test_an_export_keeps_the_sources_pixel_shape(tmp_path, ext, capsys):
    src = sar_clip(tmp_path / "sar.mp4")
    assert facts(src) == ((64, 48), PAL_DV, 5)  # the premise
    out = tmp_path / f"out{ext}"
    assert main(["render", str(src), "-o", str(out)]) == 0
    assert facts(out) == ((64, 48), PAL_DV, 5)
    err = capsys.readouterr().err
    assert "warning" not in err and "64x48 SAR 12:11 h264" in err


def test_webm_cannot_hold_it_so_the_pixels_are_made_square(tmp_path, capsys):
    """VP9 carries no aspect ratio and PyAV cannot set Matroska's: the frames are widened to
    the shape they are shown at (352x288 at 12:11 is shown 384x288), and it says so."""
    src = sar_clip(tmp_path / "sar.mp4")
    out = tmp_path / "out.webm"
    assert main(["render", str(src), "-o", str(out)]) == 0
    size, sar, frames = facts(out)
    assert size == (70, 48) and sar in (None, 1) and frames == 5
    err = capsys.readouterr().err
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "SAR 12:11" in warnings[0] and "70x48" in warnings[0]


def test_a_square_pixel_source_stays_untagged(tmp_path, gl_ctx):
    src = sar_clip(tmp_path / "square.mp4", None)
    for ext in (".mp4", ".mkv", ".webm"):
        result = export_video(src, tmp_path / f"out{ext}", options=ExportOptions(),
                              ctx=gl_ctx)
        size, sar, frames = facts(result.output)
        assert size == (64, 48) and sar in (None, 1) and frames == 5, ext
        assert result.sar == 1 and not result.warnings


def test_a_size_is_the_displayed_one_in_square_pixels(tmp_path, gl_ctx):
    src = sar_clip(tmp_path / "sar.mp4")
    # -1 follows the shape shown (64x48 at 12:11 is shown 69.8x48), not the stored one
    result = export_video(src, tmp_path / "wide.mkv", options=ExportOptions(size=(140, -1)),
                          ctx=gl_ctx)
    assert facts(result.output)[:2] == ((140, 96), None) and not result.warnings
    result = export_video(src, tmp_path / "named.mp4", options=ExportOptions(size=(80, 48)),
                          ctx=gl_ctx)
    assert facts(result.output)[:2] == ((80, 48), None)


@pytest.mark.parametrize(("style", "sets", "size"), [
    ("upscale", [], (128, 96)),  # both sides twice
    ("watercolor+stereo", ["--set", "output=sbs"], (128, 48)),  # each view the frame's shape
])
def test_what_enlarges_the_picture_keeps_its_pixel_shape(tmp_path, style, sets, size):
    src = sar_clip(tmp_path / "sar.mp4")
    out = tmp_path / "out.mp4"
    assert main(["render", str(src), "-o", str(out), "--style", style, *sets, "-q"]) == 0
    assert facts(out) == (size, PAL_DV, 5)


def test_padding_an_odd_size_keeps_the_pixel_shape(tmp_path, gl_ctx):
    src = sar_clip(tmp_path / "odd.mp4", size=(63, 47), pix_fmt="yuv444p")
    result = export_video(src, tmp_path / "out.mp4", options=ExportOptions(), ctx=gl_ctx)
    assert facts(result.output) == ((64, 48), PAL_DV, 5)


def test_a_rotated_source_turns_its_pixels_too(tmp_path):
    """Stored 48x64 at 12:11, shown turned a quarter: upright pixels are 11:12."""
    src = sar_clip(tmp_path / "turned.mp4", size=(48, 64), rotation=90)
    with VideoReader(src) as reader:
        first = next(reader.frames())
        assert first.image.shape[:2] == (48, 64)
        assert reader.sample_aspect == Fraction(11, 12)


def test_a_damaged_aspect_ratio_reads_as_square(tmp_path):
    with VideoReader(sar_clip(tmp_path / "sliver.mp4", Fraction(1, 50))) as reader:
        assert reader.sample_aspect == 1


def test_sizes_follow_the_shape_shown():
    assert resolve_size((-1, 288), (352, 288), PAL_DV) == (384, 288)
    assert resolve_size((384, -1), (352, 288), PAL_DV) == (384, 288)
    assert resolve_size((-1, 480), (720, 480), Fraction(10, 11)) == (654, 480)
    assert pixel_shape(None, (352, 288), PAL_DV) == ((352, 288), PAL_DV)
    assert pixel_shape(None, (352, 288), PAL_DV, keeps=False) == ((384, 288), 1)
    assert pixel_shape((-1, -1), (352, 288), PAL_DV) == ((352, 288), PAL_DV)
    assert pixel_shape((640, 360), (352, 288), PAL_DV) == ((640, 360), 1)
    assert pixel_shape(None, (353, 288), Fraction(1), keeps=False) == ((353, 288), 1)


@pytest.mark.parametrize("ext", ["out.gif", "frames/%02d.png"])
def test_pictures_say_they_keep_the_stored_pixels(tmp_path, capsys, ext):
    src = sar_clip(tmp_path / "sar.mp4", frames=2)
    out = tmp_path / ext
    out.parent.mkdir(exist_ok=True)
    assert main(["render", str(src), "-o", str(out)]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "SAR 12:11" in warnings[0] and "--size 70x48" in warnings[0]
    out2 = tmp_path / ("sized.gif" if ext == "out.gif" else "sized/%02d.png")
    out2.parent.mkdir(exist_ok=True)
    assert main(["render", str(src), "-o", str(out2), "--size", "70x-1"]) == 0
    assert "warning" not in capsys.readouterr().err
    first = out2 if ext == "out.gif" else out2.parent / "01.png"
    with av.open(str(first)) as c:
        assert (c.streams.video[0].width, c.streams.video[0].height) == (70, 48)


@pytest.mark.parametrize(("ext", "fmt", "codec", "size", "sar"), [
    (".mp4", "mp4", "h264", (64, 48), PAL_DV),
    (".webm", "webm", "vp9", (70, 48), None),
])
def test_chunks_joined_keep_the_pixel_shape(tmp_path, gl_ctx, ext, fmt, codec, size, sar):
    src = sar_clip(tmp_path / "sar.mp4", frames=30)
    spec = load_chain("watercolor")
    driver = Driver(LocalBackend(gl_ctx), "watercolor", spec, param_set(spec).values(),
                    ClusterOptions(chunk_seconds=0.5))
    (out,) = driver.run([FileJob(src, tmp_path / f"out{ext}", fmt, codec, ExportOptions())])
    assert out.error is None and out.chunks >= 2
    got_size, got_sar, frames = facts(tmp_path / f"out{ext}")
    assert got_size == size and frames == 30
    assert got_sar == sar or (sar is None and got_sar == 1)
    squared = [w for w in out.result.warnings if "cannot hold" in w]
    assert len(squared) == (0 if sar else 1)


def test_a_recording_of_a_dv_clip_keeps_its_pixel_shape(tmp_path):
    """The window's recording (with the file's sound, muxed in afterwards) says 12:11."""
    from videoclips import make_clip

    from aquarelle.ui.recorder import Recorder

    sound = make_clip(tmp_path / "sound.mp4", size=(32, 24), frames=4, fps=10).path
    rec = Recorder(tmp_path / "rec.mp4", fps=10, audio_source=sound, sar=PAL_DV)
    for k in range(4):
        rec.push(pattern(k, 32, 24), k / 10)
    out = rec.stop()
    assert out is not None and rec.sound_error is None
    assert facts(out) == ((32, 24), PAL_DV, 4)
