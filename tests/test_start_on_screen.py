"""A --start between two frames begins with the frame on screen there, held from --start
(as an editor's cut begins), not the next one: --start 0.25 of a 10 fps clip began an MP4
with frame 3 at 0.05 s after a 50 ms empty edit (no picture, black in QuickTime), a GIF with
frame 3 stretched back over frame 2's 50 ms. The sound stays in step with the picture: its
first sample is the source's at --start."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest
from test_vfr_timing import gif_delays
from videoclips import mux_frames, mux_sound, tone

from aquarelle.cli.main import main

FPS, FRAMES, RATE = 10, 10, 48000


def grey_clip(path: Path) -> Path:
    """Frame k a flat grey of 20 k (read back within a few levels), and a second of a tone
    in PCM (transcoded, trimmed to the sample, losslessly into an .mp4's FLAC)."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=FPS)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.codec_context.options = {"crf": "1"}
        a = out.add_stream("pcm_s16le", rate=RATE, layout="mono")
        mux_frames(out, vs, (np.full((48, 64, 3), 20 * k, np.uint8) for k in range(FRAMES)))
        # 20 ms packets: copied ones start within 20 ms
        mux_sound(out, a, tone(1.0, RATE, 1), RATE, "mono", chunk=960)
    return path


def shown(path: Path) -> list[tuple[float, int]]:
    """Each frame's time and the source frame it was painted from."""
    with av.open(str(path)) as c:
        return [(round(float(f.pts * f.time_base), 4),
                 round(float(f.to_ndarray(format="rgb24")[24, 32].mean()) / 20))
                for f in c.decode(video=0)]


def samples(path: Path) -> tuple[float, np.ndarray]:
    """The first audio sample's time, and the samples (16-bit steps)."""
    with av.open(str(path)) as c:
        frames = list(c.decode(audio=0))
    return (float(frames[0].pts * frames[0].time_base),
            np.concatenate([f.to_ndarray().reshape(-1) for f in frames]).astype(np.float64)
            * (32768 if frames[0].format.name.startswith("flt") else 1))


@pytest.mark.parametrize("ext", [".mp4", ".mkv"])
def test_a_video_begins_with_the_frame_on_screen_at_start(tmp_path: Path, ext: str,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    src = grey_clip(tmp_path / "grey.mkv")
    out = tmp_path / f"out{ext}"
    code = main(["render", str(src), "-o", str(out), "--style", "adjust", "-q",
                 "--start", "0.25", "--end", "0.65"])
    assert code == 0, capsys.readouterr().err
    # frame 2 (0.2-0.3 s) from 0 for its last 50 ms, then 3..6, 6 cut at --end
    assert shown(out) == [(0.0, 2), (0.05, 3), (0.15, 4), (0.25, 5), (0.35, 6)]
    with av.open(str(out)) as c:
        video = c.streams.video[0]
        assert float(video.start_time * video.time_base) == 0.0  # no empty edit before it
        if ext == ".mp4":
            assert float(video.duration * video.time_base) == pytest.approx(0.4, abs=1e-3)
    # transcoded (.mp4's FLAC) from --start's sample; copied (.mkv's PCM) from the first
    # packet that starts after it (20 ms packets: 0.26 s), at its own time
    first, got = samples(out)
    assert first == (0.0 if ext == ".mp4" else pytest.approx(0.01))
    _, source = samples(src)
    start = round((0.25 + first) * RATE)
    assert np.abs(got[:RATE // 5] - source[start:start + RATE // 5]).max() <= 1


def test_a_gif_begins_with_the_frame_on_screen_at_start(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    src = grey_clip(tmp_path / "grey.mkv")
    out = tmp_path / "out.gif"
    code = main(["render", str(src), "-o", str(out), "--style", "adjust", "-q",
                 "--start", "0.25", "--end", "0.65"])
    assert code == 0, capsys.readouterr().err
    assert [k for _, k in shown(out)] == [2, 3, 4, 5, 6]
    assert gif_delays(out) == [50, 100, 100, 100, 50]


def test_a_range_inside_one_frame_holds_it_as_long_as_asked(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    src = grey_clip(tmp_path / "grey.mkv")
    for ext in (".gif", ".mp4"):
        out = tmp_path / f"in{ext}"
        code = main(["render", str(src), "-o", str(out), "--style", "adjust", "-q",
                     "--start", "0.22", "--end", "0.27", "--no-audio"])
        assert code == 0, capsys.readouterr().err
        assert [k for _, k in shown(out)] == [2]
        if ext == ".gif":
            assert gif_delays(out) == [50]
        else:
            with av.open(str(out)) as c:
                video = c.streams.video[0]
                assert float(video.duration * video.time_base) == pytest.approx(0.05, abs=1e-3)
