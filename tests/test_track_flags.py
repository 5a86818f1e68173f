"""Track flags (FFmpeg's dispositions) through an export: every flag the output's muxer
writes is kept, the painted video's default flag among them, and each one it cannot hold is
named in a warning, one line a track; the summary names each audio track by its stream and
language, as it names subtitle tracks; a VP8/VP9 source's ALPHA_MODE tag stays behind."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import make_rich_clip, mux_frames, mux_sound, probe

from aquarelle.cli.main import main

D = av.stream.Disposition
DEFAULT, FORCED, COMMENT, HEARING = (int(D.default), int(D.forced), int(D.comment),
                                     int(D.hearing_impaired))
# The source's flags: video, audio 1 (eng), audio 2 (fra), subtitle 3 (fra)
SOURCE_FLAGS = [DEFAULT, DEFAULT, FORCED | COMMENT, FORCED | HEARING]
FLAGS = DEFAULT | FORCED | COMMENT | HEARING  # (an MP4 reads hearing-impaired as captions too)


@pytest.fixture(scope="module")
def flagged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rich clip (8-bit, 4 frames), its tracks' flags set to SOURCE_FLAGS."""
    folder = tmp_path_factory.mktemp("flags")
    rich = make_rich_clip(folder / "rich.mkv", frames=4, codec="libx264", pix_fmt="yuv420p")
    path = folder / "flagged.mkv"
    with av.open(str(rich)) as src, av.open(str(path), "w", format="matroska") as out:
        copies = {}
        for s, flags in zip(src.streams, SOURCE_FLAGS, strict=True):
            copy = out.add_stream_from_template(s)
            copy.metadata.update({k: v for k, v in s.metadata.items() if k != "DURATION"})
            copy.disposition = D(flags)
            copies[s.index] = copy
        for packet in src.demux():
            if packet.size:  # (Matroska gives a frame's first packets no dts)
                packet.stream = copies[packet.stream.index]
                out.mux(packet)
    assert [s["disposition"] for s in probe(path)["streams"]] == SOURCE_FLAGS
    return path


def render(*args: str | Path) -> tuple[int, str]:
    """The CLI's exit code and what it printed on stderr (warnings and the summary)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["render", *map(str, args), "--style", "adjust"])
    return code, err.getvalue()


def flags_lines(err: str) -> list[str]:
    return sorted(line.removeprefix("aquarelle: warning: ") for line in err.splitlines()
                  if "loses its" in line)


@pytest.mark.parametrize(("ext", "kept", "said"), [
    # Matroska holds them all: the painted video keeps its default flag (it came out 0)
    ("mkv", SOURCE_FLAGS, []),
    # WebM: default and forced only; the commentary flag was dropped unsaid
    ("webm", [DEFAULT, DEFAULT, FORCED, FORCED],
     ["audio 2 (fra) loses its commentary flag: .webm files cannot hold it; write .mp4 or "
      ".mkv to keep it",
      "subtitle 3 (fra) loses its hearing-impaired flag: .webm files cannot hold it; write "
      ".mp4 or .mkv to keep it"]),
    # MOV: default only (a subtitle track marked so as the first one); only forced was named
    ("mov", [DEFAULT, DEFAULT, 0, DEFAULT],
     ["audio 2 (fra) loses its commentary and forced flags: .mov files cannot hold them; "
      "write .mp4 or .mkv to keep them",
      "subtitle 3 (fra) loses its forced and hearing-impaired flags: .mov files cannot hold "
      "them; write .mp4 or .mkv to keep them"]),
    # MP4 holds them as 'kind' boxes (and marks the one subtitle track default)
    ("mp4", [DEFAULT, DEFAULT, FORCED | COMMENT, DEFAULT | FORCED | HEARING], []),
])
def test_flags_are_kept_or_named(flagged: Path, tmp_path: Path, ext: str, kept: list[int],
                                 said: list[str]) -> None:
    out = tmp_path / f"out.{ext}"
    code, err = render(flagged, "-o", out, "-q")
    assert code == 0, err
    streams = [s for s in probe(out)["streams"] if s["type"] != "data"]  # (MP4's chapters)
    assert [s["type"] for s in streams][:4] == ["video", "audio", "audio", "subtitle"]
    assert [s["disposition"] & FLAGS for s in streams[:4]] == kept
    assert flags_lines(err) == said


def test_the_summary_names_each_audio_track_and_its_language(flagged: Path,
                                                             tmp_path: Path) -> None:
    code, err = render(flagged, "-o", tmp_path / "out.mkv")
    assert code == 0, err
    assert ("audio 1 (eng) aac copied, audio 2 (fra) opus copied, subtitle 3 (fra) srt "
            "copied") in err
    code, err = render(flagged, "-o", tmp_path / "out.webm")
    assert code == 0, err
    assert ("audio 1 (eng) aac -> libopus (WebM cannot hold aac), audio 2 (fra) opus copied, "
            "subtitle 3 (fra)") in err
    assert ", audio audio" not in err
    # --no-metadata writes no language: none is named
    code, err = render(flagged, "-o", tmp_path / "bare.mkv", "--no-metadata")
    assert code == 0, err
    assert "audio 1 aac copied, audio 2 opus copied, subtitle 3 srt copied" in err


def test_alpha_mode_tag_stays_with_the_source(tmp_path: Path) -> None:
    # FFmpeg's Matroska muxer writes a stream's alpha_mode tag as its AlphaMode element: the
    # painted video, which stores no alpha, would claim one
    src = tmp_path / "alpha.webm"
    with av.open(str(src), "w", format="webm") as out:
        vs = out.add_stream("libvpx-vp9", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.metadata["alpha_mode"] = "1"
        vs.metadata["title"] = "Overlay"
        for k in range(3):
            frame = av.VideoFrame.from_ndarray(np.full((48, 64, 3), 40 * k, np.uint8),
                                               format="rgb24")
            frame.pts = k
            for packet in vs.encode(frame):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
    (source,) = probe(src)["streams"]
    assert {k.lower(): v for k, v in source["tags"].items()}["alpha_mode"] == "1"
    for ext in ("webm", "mkv"):
        code, err = render(src, "-o", tmp_path / f"out.{ext}", "-q")
        assert code == 0, err
        (video,) = probe(tmp_path / f"out.{ext}")["streams"]
        tags = {k.lower(): v for k, v in video["tags"].items()}
        assert "alpha_mode" not in tags and tags["title"] == "Overlay"


def test_an_mp4s_caption_kind_is_kept_as_matroskas_hearing_impaired_flag(
        tmp_path: Path) -> None:
    # An MP4 holds hearing-impaired as a 'caption' kind box, which FFmpeg reads back as
    # hearing-impaired and captions: a .mkv, keeping it as FlagHearingImpaired, was said to
    # lose the captions flag (and only .mp4 named as keeping it)
    src = tmp_path / "hearing.mp4"
    with av.open(str(src), "w", format="mp4") as out:
        vs = out.add_stream("libx264", rate=10)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        audio = out.add_stream("aac", rate=48000, layout="stereo")
        audio.metadata["language"] = "eng"
        audio.disposition = D.default | D.hearing_impaired
        mux_frames(out, vs, (np.full((48, 64, 3), 40 * k, np.uint8) for k in range(3)))
        mux_sound(out, audio, np.zeros((2, 14400), np.float32), 48000, "stereo", chunk=14400)
    read = probe(src)["streams"][1]["disposition"]
    assert read == DEFAULT | HEARING | int(D.captions)  # (one kind box, read as two flags)
    code, err = render(src, "-o", tmp_path / "out.mkv", "-q")
    assert code == 0 and flags_lines(err) == [], err
    assert probe(tmp_path / "out.mkv")["streams"][1]["disposition"] == DEFAULT | HEARING
    code, err = render(src, "-o", tmp_path / "out.webm", "-q")
    assert code == 0, err
    assert flags_lines(err) == ["audio 1 (eng) loses its hearing-impaired and captions flags: "
                                ".webm files cannot hold them; write .mp4 or .mkv to keep them"]
