"""Overlapping cues into an MP4 (trial V6, finding 1): a mov_text track shows one sample at a
time, and the muxer ended each sample where the next began, so a SubRip cue overlapped by a
later one was cut short, unsaid (and one outlived by an earlier cue's end lost its tail).
Each overlapping span is now a sample of its own holding every cue on screen in it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import pytest
from videoclips import mux_frames, pattern

from aquarelle.cli.main import main

# (start ms, duration ms, text): the first outlasts the second's start, the third lies
# inside both, the second outlasts the first
CUES = [(200, 1300, "First cue"), (1000, 1000, "Second cue"), (1200, 300, "Third <i>one</i>")]


def srt_time(ms: int) -> str:
    return f"00:00:{ms // 1000:02d},{ms % 1000:03d}"


def overlapping_clip(folder: Path) -> Path:
    """A 2.4 s Matroska clip (25 fps, 64x48) with a SubRip track holding `CUES` (read from
    a .srt file)."""
    srt = folder / "over.srt"
    srt.write_text("".join(f"{n}\n{srt_time(ms)} --> {srt_time(ms + dur)}\n{text}\n\n"
                           for n, (ms, dur, text) in enumerate(CUES, 1)))
    path = folder / "over.mkv"
    with av.open(str(path), "w", format="matroska") as out, av.open(str(srt)) as cues:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        track = out.add_stream_from_template(cues.streams.subtitles[0])
        mux_frames(out, vs, (pattern(k, 64, 48) for k in range(60)),
                   time_base=Fraction(1, 25))
        for packet in cues.demux(cues.streams.subtitles[0]):
            if packet.size:
                packet.stream = track
                out.mux(packet)  # (the muxer puts them in time order)
    return path


def shown(path: Path) -> list[tuple[float, float, str]]:
    """What a player shows from the file's text track: each sample as FFmpeg's decoder
    reads it (start s, end s, its ASS event's text with lines split by newlines), empty
    samples left out."""
    with av.open(str(path)) as c:
        stream = c.streams.subtitles[0]
        out = []
        for p in c.demux(stream):
            if p.pts is None:
                continue
            for sub in stream.decode(p):
                # (an ASS event: ReadOrder, Layer, Style, Name, MarginL/R/V, Effect, Text)
                text = bytes(sub.ass).decode().split(",", 8)[8].replace("\\N", "\n")
                a = float(p.pts * p.time_base)
                out.append((round(a, 3), round(a + float(p.duration * p.time_base), 3), text))
    return [s for s in out if s[2]]


@pytest.mark.parametrize("start", [0.0, 1.1])
def test_each_overlapping_cue_is_on_screen_for_its_whole_time(tmp_path: Path, start: float,
                                                               capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    src = overlapping_clip(tmp_path)
    out = tmp_path / "over.mp4"
    code = main(["render", str(src), "-o", str(out), "--style", "adjust", "-q",
                 "--start", str(start)])
    assert code == 0, capsys.readouterr().err
    samples = shown(out)
    # one after the other, as a text track holds them
    assert all(a[1] <= b[0] for a, b in zip(samples, samples[1:], strict=False))
    faces = {"First cue": "First cue", "Second cue": "Second cue",
             "Third <i>one</i>": "Third {\\i1}one"}
    for ms, dur, text in CUES:
        a, b = round(max(ms / 1000 - start, 0.0), 3), round((ms + dur) / 1000 - start, 3)
        if b <= 0:
            continue
        covering = [s for s in samples if s[0] < b and s[1] > a]
        # the cue's span is covered, without a gap, by samples that all show its text
        assert covering and covering[0][0] == pytest.approx(a) \
            and covering[-1][1] == pytest.approx(b), (text, samples)
        assert all(x[1] == pytest.approx(y[0]) for x, y in zip(covering, covering[1:],
                                                               strict=False)), samples
        assert all(faces[text] in s[2].split("\n") for s in covering), (text, samples)
    if start == 0.0:
        # the span where all three show: the earlier cue's lines first; the italics only
        # the third's
        assert [s[2] for s in samples if s[0] == pytest.approx(1.2)] \
            == ["First cue\nSecond cue\nThird {\\i1}one"]
        assert len(samples) == 4  # 0.2-1.0, 1.0-1.2, 1.2-1.5, 1.5-2.0
