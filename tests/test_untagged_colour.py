"""Untagged video is read with the matrix players guess (BT.709 for HD, BT.601 for SD), in
the reader, the window's file source and an export, whose output is tagged with the matrix
it was encoded with: the export looks as a player shows the input."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest

from aquarelle.cli.main import main
from aquarelle.media.file_source import VideoFileSource
from aquarelle.media.video_reader import VideoReader

COLOURS = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 200, 40), (40, 180, 200)]
PATCH = 256  # pixels a patch is wide: 5 patches make 1280, an HD width (BT.709)
SIZES = {"hd": (1280, 16), "sd": (320, 16)}
MATRIX = {"hd": "itu709", "sd": "itu601"}  # what a player reads each untagged size with
# levels off the drawn colours: swscale's 8-bit rounding (the wrong matrix is 15 to 28 off)
READ_TOL, EXPORT_TOL = 4, 6


def _patches(width: int, height: int) -> np.ndarray:
    img = np.zeros((height, width, 3), np.uint8)
    step = width // len(COLOURS)
    for i, c in enumerate(COLOURS):
        img[:, i * step:(i + 1) * step] = c
    return img


def _untagged(path: Path, kind: str, frames: int = 3) -> Path:
    """Flat patches encoded losslessly with the matrix a player guesses, and left untagged."""
    w, h = SIZES[kind]
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = w, h, "yuv420p"
        vs.codec_context.options = {"qp": "0"}
        for k in range(frames):
            f = av.VideoFrame.from_ndarray(_patches(w, h), format="rgb24")
            f = f.reformat(format="yuv420p", dst_colorspace=MATRIX[kind], dst_color_range=1)
            f.colorspace = 2  # unspecified: the stream says nothing of its matrix
            f.pts = k
            for packet in vs.encode(f):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
    with av.open(str(path)) as c:  # the clip really is untagged
        assert c.streams.video[0].codec_context.colorspace == 2
    return path


def _centres(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    step = w // len(COLOURS)
    return np.array([img[h // 2, i * step + step // 2, :3] for i in range(len(COLOURS))],
                    np.int16)


@pytest.fixture(scope="module")
def clips(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("untagged")
    return {kind: _untagged(folder / f"{kind}.mp4", kind) for kind in SIZES}


def test_the_guess_is_players():
    from aquarelle.media.video_reader import guessed_matrix

    assert guessed_matrix(1280, 720) == guessed_matrix(1280, 16) == 1
    assert guessed_matrix(960, 720) == guessed_matrix(720, 1280) == 1  # (portrait HD too)
    assert guessed_matrix(720, 576) == guessed_matrix(640, 360) == 6


@pytest.mark.parametrize("kind", SIZES)
def test_the_reader_reads_untagged_video_as_players_do(clips, kind):
    with VideoReader(clips[kind]) as reader:
        image = next(reader.frames()).image
        assert reader.colour.matrix == (1 if kind == "hd" else 6)
    assert np.abs(_centres(image) - np.array(COLOURS)).max() <= READ_TOL


def test_the_windows_file_source_reads_it_the_same(clips):
    src = VideoFileSource(clips["hd"], paced=False)
    try:
        src.start()
        frame = src.read(timeout=10)
    finally:
        src.stop()
    assert frame is not None
    assert np.abs(_centres(frame.image) - np.array(COLOURS)).max() <= READ_TOL


def _shown(path: Path) -> np.ndarray:
    """The first frame as a player shows it: with the matrix the file is tagged with."""
    with av.open(str(path)) as c:
        f = next(c.decode(video=0))
        tag = f.colorspace
        assert tag == 1, tag  # an export is tagged BT.709, the matrix it encodes with
        return f.to_ndarray(format="rgb24", src_colorspace="itu709")


@pytest.mark.parametrize("kind", SIZES)
def test_an_export_of_untagged_video_looks_as_a_player_shows_the_input(
        clips, kind, tmp_path, capsys, gl_ctx):
    out = tmp_path / "out.mp4"
    try:
        code = main(["render", str(clips[kind]), "-o", str(out), "--style", "adjust", "-q"])
    finally:
        gl_ctx.__enter__()  # the CLI made and released its own context
    assert code == 0, capsys.readouterr().err
    assert np.abs(_centres(_shown(out)) - np.array(COLOURS)).max() <= EXPORT_TOL
