"""A GIF as long as the range asked (trial V6, finding 2): with --start between two frames,
the GIF began at the first frame after it and lost the gap before it (--start 0.05 --end
0.55 of a 10 fps clip gave 450 ms, not 500); it now begins with the frame on screen at
--start, held from there (test_start_on_screen; it stretched the next frame back before)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_vfr_timing import gif_delays
from videoclips import make_clip

from aquarelle.cli.main import main


@pytest.mark.parametrize(("trim", "frames", "length"), [
    (["--start", "0.05", "--end", "0.55"], 6, 500),  # frame 0's last 50 ms, 0.1 ... 0.5
    (["--start", "0.05"], 10, 950),  # to the clip's end (1.0 s)
    (["--start", "0.1", "--end", "0.6"], 5, 500),  # on a frame: as before
    # a new rate: slots from --start, the first showing the frame on screen there
    (["--start", "0.25", "--end", "0.45", "--fps", "20"], 3, 200)])
def test_a_gifs_frames_last_as_long_as_the_range(tmp_path: Path, trim: list[str],
                                                 frames: int, length: int,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    src = make_clip(tmp_path / "ten.mp4", frames=10, fps=10, audio=False).path  # 1.0 s
    out = tmp_path / "out.gif"
    code = main(["render", str(src), "-o", str(out), "--style", "adjust", "-q", *trim])
    assert code == 0, capsys.readouterr().err
    got = gif_delays(out)  # (each frame's delay, ms, as a reader gets it)
    assert (len(got), sum(got)) == (frames, length), got
