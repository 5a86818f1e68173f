"""A transport stream with two programs (channels), as a broadcast recording holds them
(trial V3, finding 3): the second channel's sound was copied beside the first one's
picture, unmentioned. Only the painted video's program is kept; the other's streams are
named as left out."""

from __future__ import annotations

import struct
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import pattern, tone

from aquarelle.cli.main import main


def channel(path: Path, service: int, pmt: int, first_pid: int, lang: str, freq: float
            ) -> Path:
    """One program's TS: 25 frames of the pattern (frame k + 100 * (service - 1)) and a
    tone of `freq` Hz in language `lang`."""
    options = {"mpegts_service_id": str(service), "mpegts_pmt_start_pid": str(pmt),
               "mpegts_start_pid": str(first_pid)}
    with av.open(str(path), "w", format="mpegts", options=options) as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        a = out.add_stream("aac", rate=48000, layout="stereo")
        a.metadata["language"] = lang
        for k in range(25):
            f = av.VideoFrame.from_ndarray(pattern(k + 100 * (service - 1), 64, 48),
                                           format="rgb24")
            f.pts, f.time_base = k, Fraction(1, 25)
            for p in vs.encode(f):
                out.mux(p)
        for p in vs.encode(None):
            out.mux(p)
        af = av.AudioFrame.from_ndarray(tone(1.0, freq=freq), format="fltp", layout="stereo")
        af.sample_rate, af.pts, af.time_base = 48000, 0, Fraction(1, 48000)
        for p in [*a.encode(af), *a.encode(None)]:
            out.mux(p)
    return path


def _pat(counter: int) -> bytes:
    """A PAT packet naming program 1 (PMT 0x1000) and program 2 (PMT 0x1100)."""
    section = struct.pack(">HBBB", 1, 0xC1, 0, 0) + struct.pack(">HHHH", 1, 0xF000, 2, 0xF100)
    body = bytes([0]) + struct.pack(">H", 0xB000 | (len(section) + 4)) + section
    # MPEG-2's CRC-32 (not zlib's reflected one)
    crc = 0xFFFFFFFF
    for byte in body:
        crc ^= byte << 24
        for _ in range(8):
            crc = (crc << 1 ^ 0x04C11DB7 if crc & 0x80000000 else crc << 1) & 0xFFFFFFFF
    packet = bytes([0x47, 0x40, 0x00, 0x10 | counter & 15, 0]) + body + struct.pack(">I", crc)
    return packet + b"\xff" * (188 - len(packet))


def two_programs(folder: Path) -> Path:
    """Program 1 (PIDs 0x100 video, 0x101 AAC eng, 440 Hz) and program 2 (0x200 video of
    other pictures, 0x201 AAC fra, 660 Hz), packets interleaved, one PAT naming both."""
    a = channel(folder / "p1.ts", 1, 0x1000, 0x100, "eng", 440.0).read_bytes()
    b = channel(folder / "p2.ts", 2, 0x1100, 0x200, "fra", 660.0).read_bytes()

    def pid(p: bytes) -> int:
        return (p[1] & 0x1F) << 8 | p[2]

    first = [a[i:i + 188] for i in range(0, len(a), 188)]
    second = [p for i in range(0, len(b), 188) if pid(p := b[i:i + 188]) not in (0, 0x11)]
    first = [_pat(n) if pid(p) == 0 else p for n, p in enumerate(first)]  # naming both
    # program 1's tables (SDT, PAT, PMT) first: its streams come first
    out, rest = first[:3], first[3:]
    for i, packet in enumerate(rest):
        out += [packet, *second[len(second) * i // len(rest):len(second) * (i + 1)
                                // len(rest)]]
    path = folder / "two.ts"
    path.write_bytes(b"".join(out))
    return path


def loudest_frequency(path: Path) -> float:
    """The first audio track's strongest frequency (Hz)."""
    with av.open(str(path)) as c:
        samples = np.concatenate([f.to_ndarray()[0] for f in c.decode(audio=0)])
    spectrum = np.abs(np.fft.rfft(samples))
    return float(np.fft.rfftfreq(len(samples), 1 / 48000)[int(np.argmax(spectrum))])


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_programs(tmp_path_factory.mktemp("ts"))


def test_the_tables_name_each_streams_program(two: Path, tmp_path: Path) -> None:
    from aquarelle.media.programs import ts_programs

    assert ts_programs(two) == {0x100: {1}, 0x101: {1}, 0x200: {2}, 0x201: {2}}
    with av.open(str(two)) as c:
        assert [(s.type, s.id) for s in c.streams] == [
            ("video", 0x100), ("audio", 0x101), ("video", 0x200), ("audio", 0x201)]
    assert ts_programs(channel(tmp_path / "one.ts", 1, 0x1000, 0x100, "eng", 440.0)) == \
        {0x100: {1}, 0x101: {1}}
    assert ts_programs(tmp_path / "missing.ts") == {}


@pytest.mark.parametrize("ext", ["mkv", "mp4"])
def test_only_the_painted_videos_program_is_kept(two: Path, tmp_path: Path, ext: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"out.{ext}"
    code = main(["render", str(two), "-o", str(out), "--style", "adjust"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "audio stream 3 (fra) (aac) left out: another program (channel)" in err
    assert "video stream 2 (h264) left out: another program (channel)" in err
    assert "audio 1 (eng) aac copied" in err and "audio 3" not in err.split("->")[-1]
    with av.open(str(out)) as c:
        assert [s.type for s in c.streams] == ["video", "audio"]
        assert c.streams.audio[0].metadata.get("language") == "eng"
    assert loudest_frequency(out) == pytest.approx(440.0, abs=2.0)


def test_a_single_program_is_kept_whole(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    src = channel(tmp_path / "one.ts", 1, 0x1000, 0x100, "eng", 440.0)
    out = tmp_path / "out.mkv"
    code = main(["render", str(src), "-o", str(out), "--style", "adjust"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "warning" not in err and "audio 1 (eng) aac copied" in err
    with av.open(str(out)) as c:
        assert [s.type for s in c.streams] == ["video", "audio"]
