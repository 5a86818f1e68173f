"""Subtitles on screen where a cut starts (trial V3, finding 1): a Matroska source cut past a
keyframe kept only the cues read from that keyframe on, and a cue begun before it (still on
screen at --start) was dropped silently, in a local render and in the cluster's join."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import av
import pytest
from videoclips import pattern

from aquarelle.cli.main import main
from aquarelle.cluster.join import side_items
from aquarelle.media.subtitle_cues import SubtitleItem
from aquarelle.media.subtitles import cue_text
from aquarelle.media.video_reader import VideoReader

# (start ms, duration ms, text) of each of the two SubRip tracks
CUES = [[(100, 500, "Hello there"), (900, 600, "Bonjour"), (1600, 300, "Last cue")],
        [(200, 400, "FORCED one"), (1200, 500, "FORCED two")]]


def cued_clip(path: Path) -> Path:
    """A 2 s Matroska clip (25 fps, a keyframe every 12 frames: 0, 0.48, 0.96... s) with the
    two SubRip tracks of `CUES`, each cue muxed where its time comes. Its keyframes start
    Matroska clusters (over 4 KiB each): a seek lands after the cues begun before them."""
    with av.open(str(path), "w", format="matroska") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.codec_context.options = {"g": "12", "keyint_min": "12", "sc_threshold": "0",
                                    "crf": "0"}
        tracks = [out.add_mux_stream("subrip", time_base=Fraction(1, 1000)) for _ in CUES]
        tracks[1].disposition = av.stream.Disposition.forced
        queue = sorted((ms, dur, text, s) for s, cues in zip(tracks, CUES, strict=True)
                       for ms, dur, text in cues)
        for k in range(50):
            while queue and queue[0][0] <= k * 40:
                ms, dur, text, stream = queue.pop(0)
                p = av.Packet(text.encode())
                p.stream, p.time_base = stream, Fraction(1, 1000)
                p.pts = p.dts = ms
                p.duration = dur
                out.mux(p)
            frame = av.VideoFrame.from_ndarray(pattern(k, 64, 48), format="rgb24")
            frame.pts, frame.time_base = k, Fraction(1, 25)
            for packet in vs.encode(frame):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
    return path


@pytest.fixture(scope="module")
def cued(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cued_clip(tmp_path_factory.mktemp("cued") / "cued.mkv")


def expected(start: float, end: float | None) -> list[list[tuple[float, float, str]]]:
    """Each track's cues (start s, duration s, text) in a cut [start, end)."""
    tracks = []
    for cues in CUES:
        kept = []
        for ms, dur, text in cues:
            a, b = ms / 1000 - start, (ms + dur) / 1000 - start
            if end is not None:
                b = min(b, end - start)
            if b > 0 and (end is None or a < end - start):
                kept.append((round(max(a, 0), 3), round(b - max(a, 0), 3), text))
        tracks.append(kept)
    return tracks


def cues_of(path: Path) -> list[list[tuple[float, float, str]]]:
    """Each subtitle track's shown cues (start s, duration s, text) in a file."""
    with av.open(str(path)) as c:
        subs = list(c.streams.subtitles)
        tracks: list[list[tuple[float, float, str]]] = [[] for _ in subs]
        for p in c.demux(subs):
            if p.pts is not None and p.size:
                k = subs.index(p.stream)
                tracks[k].append((round(float(p.pts * p.time_base), 3),
                                  round(float(p.duration * p.time_base), 3),
                                  cue_text(subs[k].codec_context.name, bytes(p))))
    return [[c for c in t if c[2]] for t in tracks]  # (mov_text's empty clearing samples)


def test_the_clip_has_keyframes_after_the_cues_begin(cued: Path) -> None:
    with av.open(str(cued)) as c:
        keys = [round(float(p.pts * p.time_base), 2) for p in c.demux(video=0)
                if p.is_keyframe and p.pts is not None]
    assert keys[:3] == [0.0, 0.48, 0.96]
    assert cues_of(cued) == expected(0.0, None)


@pytest.mark.parametrize("ext", ["mkv", "mp4"])
@pytest.mark.parametrize("start, end", [(0.5, None), (0.55, 1.55), (1.0, 1.7)])
def test_a_cut_keeps_the_cues_on_screen_at_its_start(cued: Path, tmp_path: Path, ext: str,
                                                    start: float, end: float | None,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    out = tmp_path / f"cut.{ext}"
    trim = ["--start", str(start)] + (["--end", str(end)] if end is not None else [])
    code = main(["render", str(cued), "-o", str(out), "--style", "adjust", "-q", *trim])
    err = capsys.readouterr().err
    assert code == 0, err
    assert cues_of(out) == expected(start, end)
    with av.open(str(out)) as c:
        frames = list(c.decode(video=0))
    # 25 fps: from the frame on screen at --start
    assert len(frames) == math.ceil((end or 2.0) * 25) - math.floor(start * 25)


def test_the_joins_side_items_hold_the_cues_on_screen_at_the_chunks_start(cued: Path
                                                                         ) -> None:
    # (the cluster's join takes the source's sound and cues through side_items)
    reader = VideoReader(cued, subtitles=True)
    try:
        items = [i for i in side_items(reader, 0.55, 1.55) if isinstance(i, SubtitleItem)]
    finally:
        reader.container.close()
    got = [(i.stream, round(float(i.packet.pts * i.packet.time_base), 3)) for i in items]
    assert sorted(got) == [(0, 0.1), (0, 0.9), (1, 0.2), (1, 1.2)]


def test_the_cues_before_a_start_are_those_still_on_screen_there(cued: Path) -> None:
    reader = VideoReader(cued, subtitles=True)
    try:
        before = reader.cues_before(1.0, None)
    finally:
        reader.container.close()
    assert [(i.stream, bytes(i.packet)) for i in before] == [(0, b"Bonjour")]
    assert float(before[0].packet.pts * before[0].packet.time_base) == pytest.approx(0.9)


# (start ms, duration ms, text): a sign held 45 s, begun 43 s before the cut at 45 s
LONG_CUES = [(1000, 500, "Opening"), (2000, 45000, "Held sign"), (44000, 2000, "Short")]


class _Stream:
    """A file written forward only (a pipe): Matroska gets no index of its cues."""

    def __init__(self, path: Path) -> None:
        self.file = path.open("wb")

    def write(self, data: bytes) -> int:
        return self.file.write(data)


def long_cued_clip(path: Path, *, indexed: bool) -> Path:
    """A 48 s Matroska clip (5 fps, 64x48, a keyframe every 2 s) with a SubRip track of
    `LONG_CUES`, each muxed where its time comes; with its cues indexed (as FFmpeg and
    mkvmerge write them) or not (written forward only)."""
    sink = path if indexed else _Stream(path)
    with av.open(str(sink) if indexed else sink, "w", format="matroska") as out:
        vs = out.add_stream("libx264", rate=5)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.codec_context.options = {"g": "10", "keyint_min": "10", "sc_threshold": "0"}
        track = out.add_mux_stream("subrip", time_base=Fraction(1, 1000))
        queue = list(LONG_CUES)
        for k in range(240):
            while queue and queue[0][0] <= k * 200:
                ms, dur, text = queue.pop(0)
                p = av.Packet(text.encode())
                p.stream, p.time_base = track, Fraction(1, 1000)
                p.pts = p.dts = ms
                p.duration = dur
                out.mux(p)
            frame = av.VideoFrame.from_ndarray(pattern(k % 50, 64, 48), format="rgb24")
            frame.pts, frame.time_base = k, Fraction(1, 5)
            for packet in vs.encode(frame):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
    if not indexed:
        sink.file.close()
    with av.open(str(path)) as c:  # (a seek loads an index of the cues where there is one)
        c.seek(0, stream=c.streams.video[0])
        times = [e.timestamp for e in c.streams.subtitles[0].index_entries]
        assert (44000 in times) == indexed
    return path


@pytest.mark.parametrize("indexed", [True, False])
@pytest.mark.parametrize("ext", ["mkv", "mp4"])
def test_a_cue_begun_long_before_the_start_is_kept(tmp_path: Path, ext: str, indexed: bool,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A cue begun more than CUE_LOOKBACK (30 s) before --start and on screen there was
    missed: only the cues begun in the 30 s before were read."""
    src = long_cued_clip(tmp_path / "long.mkv", indexed=indexed)
    out = tmp_path / f"cut.{ext}"
    code = main(["render", str(src), "-o", str(out), "--style", "adjust", "-q",
                 "--start", "45", "--end", "46.6"])
    assert code == 0, capsys.readouterr().err
    held, short = (0.0, 1.6, "Held sign"), (0.0, 1.0, "Short")
    if ext == "mp4":  # (a mov_text track shows one sample at a time: both, then the sign)
        assert cues_of(out) == [[(0.0, 1.0, "Held sign\nShort"), (1.0, 0.6, "Held sign")]]
    else:
        assert cues_of(out) == [[held, short]]
