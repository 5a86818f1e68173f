"""Damaged audio packets (a bad download, a flaky card): a stream copy wrote the AAC packets
the decoder rejects as they are without a word, and a transcode left them out unsaid, where
the lost video frames are counted and said. Each is said once a stream now."""

from __future__ import annotations

from pathlib import Path

import av
import pytest
from videoclips import make_clip

from aquarelle.cli.main import main

BAD = (10, 20, 30)  # the audio packets damaged, by their place in the stream


def audio_packets(path: Path) -> list[bytes]:
    with av.open(str(path)) as c:
        return [bytes(p) for p in c.demux(c.streams.audio[0]) if p.size]


def rejected(path: Path) -> int:
    """The audio packets FFmpeg's decoder rejects."""
    with av.open(str(path)) as c:
        stream, n = c.streams.audio[0], 0
        for packet in c.demux(stream):
            try:
                stream.decode(packet)
            except av.error.FFmpegError:
                n += 1
    return n


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 1 s MP4 (30 fps, AAC stereo) whose audio packets `BAD` have their bytes garbled."""
    folder = tmp_path_factory.mktemp("damaged")
    clean = make_clip(folder / "clean.mp4", frames=30, fps=30).path
    path = folder / "x.mp4"
    with av.open(str(clean)) as src, av.open(str(path), "w") as out:
        streams = {s.index: out.add_stream_from_template(s) for s in src.streams}
        n = 0
        for packet in src.demux():
            if packet.dts is None:
                continue
            if packet.stream.type == "audio":
                if n in BAD:
                    bad = av.Packet(bytes(b ^ 0xA5 for b in bytes(packet)))
                    bad.pts, bad.dts = packet.pts, packet.dts
                    bad.duration, bad.time_base = packet.duration, packet.time_base
                    bad.stream = streams[packet.stream.index]
                    out.mux(bad)
                    n += 1
                    continue
                n += 1
            packet.stream = streams[packet.stream.index]
            out.mux(packet)
    assert rejected(path) == len(BAD) and rejected(clean) == 0
    return path


def render(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["render", *args, "-q", "--style", "adjust"])
    return code, [line for line in capsys.readouterr().err.splitlines() if "warning" in line]


def test_damaged_aac_packets_copied_are_said_once(damaged: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.mp4"
    code, warnings = render(capsys, str(damaged), "-o", str(out))
    assert code == 0, warnings
    assert audio_packets(out) == audio_packets(damaged)  # every packet, as it was
    assert rejected(out) == len(BAD)
    assert warnings == [f"aquarelle: warning: {damaged}: audio stream 1 (aac): 3 damaged "
                        "packet(s) could not be decoded and were copied as they are (a player "
                        "skips them: a gap or a click)"], warnings


def test_damaged_aac_packets_transcoded_are_said_missing(
        damaged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.webm"  # (Opus: the AAC is decoded and encoded again)
    code, warnings = render(capsys, str(damaged), "-o", str(out))
    assert code == 0, warnings
    assert rejected(out) == 0
    assert warnings == [f"aquarelle: warning: {damaged}: audio stream 1 (aac): 3 damaged "
                        "packet(s) could not be decoded and are missing from the output (a gap "
                        "in its sound)"], warnings


def test_an_undamaged_copy_says_nothing(damaged: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    clean = damaged.parent / "clean.mp4"
    code, warnings = render(capsys, str(clean), "-o", str(tmp_path / "out.mkv"))
    assert code == 0 and warnings == [], warnings
