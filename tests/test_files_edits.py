"""An MP4 whose edit list hides a pre-roll (trial V3, finding 2): frames 0..4 and 0.2 s of
sound before the first shown frame, as a stream-copy cut writes it. A player shows 45 of its
50 frames; a render said 5 were missing, and its .mkv played the hidden sound first.
An encoder's priming that an edit list hides is kept in .mkv: the decoder needs it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import pattern, preroll_clip

from aquarelle.cli.main import main
from aquarelle.media.video_reader import VideoReader

RATE = 48000


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


def clicks_clip(path: Path, priming: int) -> Path:
    """20 frames at 30 fps and AAC clicks (1 ms) at 0 and at frame 12 (0.4 s), behind an
    edit list hiding `priming` samples: FFmpeg's encoder's 1024 or Apple's 2112 (silence
    from -1088)."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=30)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        a = out.add_stream("aac", rate=RATE, layout="stereo")
        for k in range(20):
            frame = av.VideoFrame.from_ndarray(pattern(k, 64, 48), format="rgb24")
            frame.pts, frame.time_base = k, Fraction(1, 30)
            for packet in vs.encode(frame):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
        lead = priming - 1024  # (silence before 0, after the encoder's own 1024)
        sound = np.zeros((2, lead + RATE * 2 // 3), np.float32)
        for t in (0, RATE * 2 // 5):
            sound[:, lead + t:lead + t + RATE // 1000] = 0.8
        f = av.AudioFrame.from_ndarray(sound, format="fltp", layout="stereo")
        f.sample_rate, f.pts, f.time_base = RATE, -lead, Fraction(1, RATE)
        for packet in [*a.encode(f), *a.encode(None)]:
            out.mux(packet)
    return path


def clicks(path: Path) -> list[float]:
    """When the clicks of the first audio track begin (s, from the first frame's time), as a
    player times them: each decoded frame's samples from its timestamp on."""
    with av.open(str(path)) as c:
        v0 = next(c.decode(video=0)).time
    found: list[float] = []
    with av.open(str(path)) as c:
        for frame in c.decode(audio=0):
            for i in np.flatnonzero(np.abs(frame.to_ndarray()[0]) > 0.4):
                t = frame.time + i / frame.sample_rate - v0
                if not found or t > found[-1] + 0.05:
                    found.append(t)
    return found


@pytest.mark.parametrize("priming", [1024, 2112])
def test_an_mp4s_aac_priming_is_kept_in_matroska(tmp_path: Path, priming: int,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # The .mkv left out the priming packet(s) the source's edit list hides, and the decoder
    # then made the first 1024 samples without the packet before: the click at 0 was lost
    # (clicks [0.400] where the source has [0.000, 0.400])
    src = clicks_clip(tmp_path / "in.mp4", priming)
    with av.open(str(src)) as c:
        head = [p for p in c.demux(audio=0) if p.size][:3]
    assert [p.is_discard for p in head] == [True, priming > 1024, False]
    assert clicks(src) == pytest.approx([0.0, 0.4], abs=1e-6)
    for ext in ("mkv", "mp4"):
        out = tmp_path / f"out.{ext}"
        code = main(["render", str(src), "-o", str(out), "--style", "adjust"])
        err = capsys.readouterr().err
        assert code == 0 and "audio 1 aac copied" in err, err
        assert clicks(out) == pytest.approx([0.0, 0.4], abs=0.001), ext
    start, _ = sound(tmp_path / "out.mkv")  # (the priming: silence before the picture)
    assert start == pytest.approx(-priming / RATE, abs=0.0005)
