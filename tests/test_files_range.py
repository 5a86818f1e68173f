"""A full-range source (0-255 samples, JPEG or "pc" range: phone and screen recordings, MJPEG,
a JPEG sequence) is written full range where the encoder keeps it (x264, x265, libvpx-vp9),
tagged so and its 256 levels kept; on the GPU's packing path too, in a folder's batch and
in a window recording. ProRes and a GPU's encoder write it limited and say so; a limited
source stays limited. The old code wrote every output limited: a 0..255 ramp came back in
208-218 levels."""

from __future__ import annotations

from pathlib import Path

import av
import cv2
import numpy as np
import pytest
from hw_paths import packed_as_on_a_gpu
from videoclips import numbered_frames, ramp, ramp_clip

from aquarelle.cli.main import main
from aquarelle.media import export
from aquarelle.media.export import ExportOptions, ExportResult, encoder_for, export_video
from aquarelle.media.hw_encoders import EncoderChoice
from aquarelle.media.video_reader import Colour, VideoReader
from aquarelle.media.video_writer import CODECS, range_warning

JPEG, MPEG = 2, 1  # FFmpeg's AVColorRange: what ffprobe says as "pc" and "tv"
LIMITED_LEVELS = 220  # the most grey levels limited range holds (16-235)


@pytest.fixture(autouse=True)
def _shared_context_current_again(gl_ctx):
    """A CLI run makes and releases its own GL context: the module's is made current again."""
    with gl_ctx:
        yield


@pytest.fixture(scope="module")
def clips(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("ramps")
    return {"full": ramp_clip(d / "full.mp4"), "limited": ramp_clip(d / "limited.mp4",
                                                                    full=False)}


def decoded(path: Path) -> tuple[int, np.ndarray]:
    """The video stream's range tag (as ffprobe reads it) and the ramp's middle row as a
    player shows its first frame (grey: its green)."""
    with av.open(str(path)) as c:
        stream = c.streams.video[0]
        tag = int(stream.codec_context.color_range)
        frame = next(c.decode(stream))
        return tag, frame.to_ndarray(format="rgb24")[16, :, 1].astype(int)


def assert_ramp_kept(row: np.ndarray) -> None:
    assert np.abs(row - ramp()[0, :, 1]).max() <= 2
    assert len(set(row.tolist())) > LIMITED_LEVELS + 10  # 241-254 measured; 208-218 limited


def paint(src: Path, dst: Path, gl_ctx, **opts) -> ExportResult:
    # `adjust` at its defaults leaves the picture as it is (a ramp within 2 levels)
    return export_video(src, dst, "adjust", None, ExportOptions(decoder="software", **opts),
                        ctx=gl_ctx)


def test_the_reader_says_which_sources_are_full_range(clips, tmp_path):
    numbered_frames(tmp_path / "png", range(1, 3))
    for n in (1, 2):  # a JPEG sequence: yuvj420p, full range
        cv2.imwrite(str(tmp_path / f"j_{n:04d}.jpg"), ramp())
    cases = {clips["full"]: True, clips["limited"]: False,
             tmp_path / "png" / "f_%04d.png": False,  # RGB: FFmpeg says "pc", no YUV range
             tmp_path / "j_%04d.jpg": True}
    for path, full in cases.items():
        with VideoReader(path) as reader:
            assert reader.colour.full_range is full, path  # before decoding, and after
            next(reader.frames())
            assert reader.colour.full_range is full, path


@pytest.mark.parametrize(("codec", "name"), [("h264", "out.mp4"), ("h264", "out.mov"),
                                             ("h265", "out.mkv"), ("vp9", "out.webm")])
def test_a_full_range_source_is_written_full_range(clips, tmp_path, gl_ctx, codec, name):
    result = paint(clips["full"], tmp_path / name, gl_ctx, codec=codec)
    tag, row = decoded(tmp_path / name)
    assert tag == JPEG
    assert_ramp_kept(row)
    assert not [w for w in result.warnings if "range" in w]


def test_a_limited_source_stays_limited(clips, tmp_path, gl_ctx):
    result = paint(clips["limited"], tmp_path / "out.mp4", gl_ctx)
    tag, row = decoded(tmp_path / "out.mp4")
    assert tag == MPEG and np.abs(row - ramp()[0, :, 1]).max() <= 3
    assert "full range" not in result.encoder and not result.warnings


def test_prores_writes_it_limited_and_says_so(clips, tmp_path, gl_ctx):
    result = paint(clips["full"], tmp_path / "out.mov", gl_ctx, codec="prores")
    tag, row = decoded(tmp_path / "out.mov")
    assert tag == MPEG and np.abs(row - ramp()[0, :, 1]).max() <= 3  # the picture is right
    assert result.warnings == ["full.mp4 is full range (0-255); written limited range "
                               "(16-235), levels squeezed into fewer steps (prores holds "
                               "limited range only: use --codec h264 or h265 or vp9 to "
                               "keep it)"]


def test_packed_on_the_gpu_it_is_full_range_too(clips, tmp_path, gl_ctx, monkeypatch):
    formats = packed_as_on_a_gpu(monkeypatch)
    paint(clips["full"], tmp_path / "out.mp4", gl_ctx)
    assert [f.full for f in formats] == [True] * 3
    tag, row = decoded(tmp_path / "out.mp4")
    assert tag == JPEG
    assert_ramp_kept(row)


def test_auto_takes_the_software_encoder_for_full_range(monkeypatch):
    # no GPU's encoder is known to keep full range: "auto" takes the one that does
    gpu = EncoderChoice("h264_nvenc", True)
    monkeypatch.setattr(export, "choose", lambda *a, **k: gpu)
    spec = CODECS["h264"]
    assert encoder_for(spec, "auto", False, full_range=True) == \
        EncoderChoice("libx264", False, "full range")
    assert encoder_for(spec, "auto", False) == gpu
    assert encoder_for(spec, "hardware", False, full_range=True) == gpu  # asked for: said
    assert range_warning("a.mp4", Colour(full_range=True), spec, "h264_nvenc") == (
        "a.mp4 is full range (0-255); written limited range (16-235), levels squeezed into "
        "fewer steps (h264_nvenc writes limited range: use --encoder software to keep it)")
    assert range_warning("a.mp4", Colour(full_range=True), spec, "libx264") is None
    assert range_warning("a.mp4", Colour(), CODECS["prores"], "prores_ks") is None


def test_a_folder_keeps_each_sources_range(clips, tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    for kind, path in clips.items():
        (folder / f"{kind}.mp4").write_bytes(path.read_bytes())
    code = main(["render", str(folder), "-o", f"{tmp_path / 'out'}/", "--style", "adjust",
                 "--codec", "h265"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert decoded(tmp_path / "out" / "full.mp4")[0] == JPEG
    assert decoded(tmp_path / "out" / "limited.mp4")[0] == MPEG
    assert "by libx265 (software: full range)" in err and "warning" not in err
    code = main(["render", str(clips["full"]), "-o", str(tmp_path / "p.mov"), "--style",
                 "adjust", "--codec", "prores", "-q"])
    err = capsys.readouterr().err
    assert code == 0 and "warning: full.mp4 is full range (0-255); written limited" in err


def test_a_window_recording_of_a_full_range_file_keeps_its_range(clips, tmp_path, gl_ctx):
    from aquarelle.engine.yuv_pack import YuvPacker, packed_array
    from aquarelle.media.file_source import VideoFileSource
    from aquarelle.ui.recorder import Recorder

    for kind, full in (("full", True), ("limited", False)):
        src = VideoFileSource(clips[kind], paced=False)
        try:
            assert src.full_range is full  # what the window's Record passes on
        finally:
            src.stop()
    img = ramp()
    h, w = img.shape[:2]
    rec = Recorder(tmp_path / "rgb.mp4", fps=10, full_range=True)
    for k in range(3):
        rec.push(img, k / 10)
    # frames packed on the GPU in the recording's format
    fmt = Recorder(tmp_path / "gpu.mp4", fps=10, full_range=True)
    assert fmt.packed_format.full
    tex = gl_ctx.texture((w, h), 4, np.dstack([img, np.full((h, w), 255, np.uint8)]).tobytes())
    packer = YuvPacker(gl_ctx)
    try:
        packed = packed_array(packer.pack(tex, fmt.packed_format).read(alignment=1), (w, h))
    finally:
        packer.release()
        tex.release()
    for k in range(3):
        fmt.push(packed, k / 10)
    for r in (rec, fmt):
        out = r.stop()
        assert out is not None, r.error
        tag, row = decoded(out)
        assert tag == JPEG
        assert_ramp_kept(row)
