"""An MP4 whose edit list hides a pre-roll (trial V3, finding 2): frames 0..4 and 0.2 s of
sound before the first shown frame, as a stream-copy cut writes it. A player shows 45 of its
50 frames; a render said 5 were missing, and its .mkv played the hidden sound first."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import pytest
from videoclips import pattern, tone

from aquarelle.cli.main import main
from aquarelle.media.video_reader import VideoReader

RATE = 48000


def preroll_clip(path: Path) -> Path:
    """50 frames at 25 fps with times k - 5 (the first 5 before 0, hidden by the edit list
    the MP4 muxer writes), and AAC from -0.2 s to 1.8 s."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.codec_context.options = {"bf": "0"}
        a = out.add_stream("aac", rate=RATE, layout="stereo")
        for k in range(50):
            frame = av.VideoFrame.from_ndarray(pattern(k, 64, 48), format="rgb24")
            frame.pts, frame.time_base = k - 5, Fraction(1, 25)
            for packet in vs.encode(frame):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
        sound = tone(2.0)
        for i in range(0, sound.shape[1], 1024):
            f = av.AudioFrame.from_ndarray(sound[:, i:i + 1024].copy(), format="fltp",
                                           layout="stereo")
            f.sample_rate, f.pts, f.time_base = RATE, i - RATE // 5, Fraction(1, RATE)
            for packet in a.encode(f):
                out.mux(packet)
        for packet in a.encode(None):
            out.mux(packet)
    return path


@pytest.fixture(scope="module")
def preroll(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return preroll_clip(tmp_path_factory.mktemp("preroll") / "cut.mp4")


def sound(path: Path) -> tuple[float, float]:
    """When the first audio track's decoded sound begins, and how long it lasts (s)."""
    with av.open(str(path)) as c:
        frames = list(c.decode(audio=0))
    return (float(frames[0].pts * frames[0].time_base),
            sum(f.samples for f in frames) / frames[0].sample_rate)


def test_the_clip_shows_45_of_its_50_frames(preroll: Path) -> None:
    with av.open(str(preroll)) as c:
        assert c.streams.video[0].frames == 50
        times = [float(f.pts * f.time_base) for f in c.decode(video=0)]
    assert len(times) == 45 and times[0] == 0.0
    start, length = sound(preroll)
    assert start == 0.0 and length == pytest.approx(1.805, abs=0.001)
    with VideoReader(preroll) as reader:
        assert reader.frame_count == 45 and reader.expected_frames() == 45


@pytest.mark.parametrize("ext", ["mkv", "mp4"])
def test_a_hidden_preroll_is_neither_missing_nor_heard(preroll: Path, tmp_path: Path,
                                                      ext: str,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    out = tmp_path / f"out.{ext}"
    code = main(["render", str(preroll), "-o", str(out), "--style", "adjust"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "45 frames" in err and "could not be decoded" not in err and "warning" not in err
    with av.open(str(out)) as c:
        times = [float(f.pts * f.time_base) for f in c.decode(video=0)]
    assert len(times) == 45 and times[0] == 0.0
    start, length = sound(out)
    # the shown sound, within the one packet (21 ms) that spans the video's start
    assert -0.0215 < start <= 0.0 and length == pytest.approx(1.805, abs=0.0215)
