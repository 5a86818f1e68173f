"""A clip whose sound outlasts its picture (credits over black cut off, a music video's
fade-out): the subtitles and chapters go on with the sound, as the sound is kept (trial V5:
cues and chapters after the last frame were cut or dropped unsaid in a whole, undamaged file)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import pytest
from videoclips import mux_frames, pattern, subtitle_cues, tone

from aquarelle.cli.main import main

MS = Fraction(1, 1000)


def long_sound_clip(path: Path) -> Path:
    """1 s of video (25 frames), 2 s of sound, cues at 0.2-0.6 and 1.3-1.8 s, chapters to
    the sound's end."""
    with av.open(str(path), "w", format="matroska") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        a = out.add_stream("aac", rate=48000, layout="stereo")
        subs = out.add_mux_stream("subrip", time_base=MS)
        out.set_chapters([
            {"id": 1, "start": 0, "end": 1200, "time_base": MS, "metadata": {"title": "Film"}},
            {"id": 2, "start": 1200, "end": 2000, "time_base": MS,
             "metadata": {"title": "Credits"}}])
        mux_frames(out, vs, (pattern(k, 64, 48) for k in range(25)), fmt="rgb24",
                   time_base=Fraction(1, 25))
        af = av.AudioFrame.from_ndarray(tone(2.0), format="fltp", layout="stereo")
        af.sample_rate, af.pts, af.time_base = 48000, 0, Fraction(1, 48000)
        for packet in [*a.encode(af), *a.encode(None)]:
            out.mux(packet)
        for start, length, text in ((200, 400, "early"), (1300, 500, "over the credits")):
            packet = av.Packet(text.encode())
            packet.stream, packet.time_base = subs, MS
            packet.pts = packet.dts = start
            packet.duration = length
            out.mux(packet)
    return path


@pytest.mark.parametrize("ext", [".mkv", ".mp4"])
def test_cues_and_chapters_go_on_with_the_sound(tmp_path, capsys, ext):
    src = long_sound_clip(tmp_path / "in.mkv")
    out = tmp_path / f"out{ext}"
    assert main(["render", str(src), "-o", str(out), "-q"]) == 0
    cues = [(round(s, 2), round(d, 2), text) for s, d, text in subtitle_cues(out)
            if text.strip(b"\0")]
    assert cues[0][:2] == (0.2, 0.4) and cues[-1][:2] == (1.3, 0.5), cues
    assert cues[-1][2].endswith(b"over the credits")
    with av.open(str(out)) as got:
        chapters = [t for c in got.chapters() for t in (float(c["start"] * c["time_base"]),
                                                        float(c["end"] * c["time_base"]))]
        assert chapters == pytest.approx([0.0, 1.2, 1.2, 2.0], abs=0.01)
        assert sum(1 for _ in got.decode(video=0)) == 25  # (the picture stays 1 s)
