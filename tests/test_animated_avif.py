"""An animated AVIF (an image sequence: brand 'avis') is painted as the animation it is, as
an animated WebP is: FFmpeg gives its still picture first, which was painted alone (one
frame, the sequence's tracks called 'video stream N left out', its transparency unsaid)."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image

from aquarelle.cli.main import main
from aquarelle.media.animation import animation_of, ffmpeg_decodes
from aquarelle.media.sources import open_source
from aquarelle.media.video_reader import VideoReader

FRAMES = 6


def animated_avif(path: Path, alpha: bool = True) -> Path:
    pictures = []
    for k in range(FRAMES):
        rgba = np.zeros((64, 96, 4), np.uint8)
        rgba[..., 0], rgba[..., 1] = 40 * k, 120
        rgba[..., 3] = 0 if alpha else 255
        rgba[10:50, 10 + 8 * k:40 + 8 * k] = (250, 240, 30, 255)  # a square moving right
        pictures.append(Image.fromarray(rgba if alpha else rgba[..., :3]))
    pictures[0].save(path, save_all=True, append_images=pictures[1:], duration=100, loop=0)
    return path


def test_it_is_known_as_an_animation(tmp_path):
    anim = animation_of(animated_avif(tmp_path / "a.avif"))
    assert anim is not None and anim.name == "an animated AVIF (6 frames)"
    still = tmp_path / "still.avif"
    Image.new("RGB", (32, 32), (200, 30, 30)).save(still)
    assert animation_of(still) is None
    assert ffmpeg_decodes(tmp_path / "a.avif")


def test_its_frames_are_read_in_order(tmp_path):
    with VideoReader(animated_avif(tmp_path / "a.avif")) as reader:
        frames = [f.image for f in reader.frames()]
    assert len(frames) == FRAMES
    # the square moves 8 px a frame: its left edge found where the yellow starts
    lefts = [int(np.flatnonzero((f[30, :, 0] > 230) & (f[30, :, 2] < 100))[0]) for f in frames]
    assert lefts == pytest.approx([10 + 8 * k for k in range(FRAMES)], abs=1)


def test_it_renders_to_a_video_with_every_frame_and_its_alpha_said(tmp_path, capsys):
    src = animated_avif(tmp_path / "a.avif")
    out = tmp_path / "a.mp4"
    assert main(["render", str(src), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "left out: only the main video" not in err
    assert "a.avif has an alpha channel, which a.mp4 cannot keep (videos are written opaque): " \
        "its transparent parts are laid on white paper" in err
    with av.open(str(out)) as got:
        assert sum(1 for _ in got.decode(video=0)) == FRAMES
    opaque = animated_avif(tmp_path / "b.avif", alpha=False)
    assert main(["render", str(opaque), "-o", str(tmp_path / "b.mp4")]) == 0
    assert "alpha" not in capsys.readouterr().err


def test_a_still_output_is_refused_naming_the_animation(tmp_path, capsys):
    src = animated_avif(tmp_path / "a.avif")
    out = tmp_path / "a.png"
    assert main(["render", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"aquarelle render: error: {src} is an animated AVIF (6 frames), "
                          "which cannot be written as .png: use -o ")
    assert not out.exists()


def test_the_window_plays_it(tmp_path):
    source = open_source(str(animated_avif(tmp_path / "a.avif")))
    try:
        assert not getattr(source, "still", False)
    finally:
        source.stop()


def test_its_alpha_track_lays_it_on_paper_and_a_gif_keeps_it(tmp_path, capsys):
    """FFmpeg gives an animated AVIF's alpha as a track of its own: read beside the colour
    track, the transparent ground is painted as paper (its hidden colour was painted) and a
    GIF or PNG frames keep the transparency (trial V5 verification)."""
    src = animated_avif(tmp_path / "a.avif")
    assert main(["render", str(src), "-o", str(tmp_path / "a.mp4"), "--style", "adjust",
                 "-q"]) == 0
    with av.open(str(tmp_path / "a.mp4")) as got:
        first = next(got.decode(video=0)).to_ndarray(format="rgb24").astype(int)
    assert first[2:8, 60:90].min() > 235  # paper, not the hidden (0, 120, 0)
    assert "a.avif has an alpha channel" in capsys.readouterr().err  # (a video has none)
    assert main(["render", str(src), "-o", str(tmp_path / "a.gif"), "-q"]) == 0
    assert "alpha" not in capsys.readouterr().err
    with Image.open(tmp_path / "a.gif") as im:
        assert im.n_frames == FRAMES
        im.seek(2)
        clear = np.asarray(im.convert("RGBA"))[:, :, 3]
    assert clear[2:8, 60:90].max() == 0 and clear[20:40, 30:40].min() == 255
