"""`--start` names the frame shown at that time, also typed rounded: 0.416667 for frame 5 of
a 12 fps clip (at 5/12 s) painted frame 6 first, and 1.916667 for its last frame was refused
as past every frame (trial W5). A time less than a millisecond after a frame's start is that
frame's (frame_range.START_SLACK)."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import mux_frames

from aquarelle.cli.main import main
from aquarelle.media.frame_range import snapped_start
from aquarelle.media.video_reader import VideoReader

FPS, FRAMES = 12, 24


def numbered_clip(path: Path) -> Path:
    """Frame k a flat grey of 10 k (read back within a few levels)."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=FPS)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.codec_context.options = {"crf": "1"}
        mux_frames(out, vs, (np.full((48, 64, 3), 10 * k, np.uint8) for k in range(FRAMES)))
    return path


def first_frames(path: Path) -> list[int]:
    """The frame numbers a painted-with-adjust output's frames were made of."""
    with av.open(str(path)) as got:
        return [round(float(f.to_ndarray(format="rgb24")[24, 32].mean()) / 10)
                for f in got.decode(video=0)]


def test_a_time_just_after_a_frame_names_it():
    times = [k / FPS for k in range(FRAMES)]
    assert snapped_start(0.416667, times) == pytest.approx(5 / FPS)
    assert snapped_start(0.417, times) == pytest.approx(5 / FPS)
    assert snapped_start(0.4, times) == 0.4  # (17 ms after frame 4: a time of its own)
    assert snapped_start(0.416, times) == 0.416  # (before frame 5: it starts at or after)


def test_the_reader_snaps_a_rounded_start(tmp_path):
    with VideoReader(numbered_clip(tmp_path / "in.mp4")) as reader:
        assert reader.snapped_start(0.416667) == pytest.approx(5 / FPS)
        assert reader.snapped_start(0.3) == 0.3
        assert [f.index for f in reader.frames(reader.snapped_start(1.916667))] == [0]


@pytest.mark.parametrize("out", ["out.mp4", "f_%02d.png"])
def test_a_rounded_start_paints_the_frame_it_names(tmp_path, out, capsys):
    src = numbered_clip(tmp_path / "in.mp4")
    dst = tmp_path / out
    assert main(["render", str(src), "-o", str(dst), "--style", "adjust", "--start",
                 "0.416667", "--end", "0.75", "-q"]) == 0
    if out.endswith(".mp4"):
        assert first_frames(dst) == [5, 6, 7, 8]
    else:
        import cv2
        got = [round(float(cv2.imread(str(p))[24, 32].mean()) / 10)
               for p in sorted(tmp_path.glob("f_*.png"))]
        assert got == [5, 6, 7, 8]
    last = tmp_path / ("last.mp4" if out.endswith(".mp4") else "last_%02d.png")
    assert main(["render", str(src), "-o", str(last), "--style", "adjust", "--start",
                 "1.916667", "-q"]) == 0, capsys.readouterr().err
