""".m4v is Apple's MP4, written by FFmpeg's "ipod" muxer (the M4V brand its players look
for), which holds H.264 and AAC, ALAC or AC-3 only. A .m4v was written by the "mp4" muxer
(brand isom) with an Opus source's sound copied, which Apple's players do not play; its
sound is now AAC, the summary saying why, as for a .mov."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import make_clip, make_rich_clip

from aquarelle.cli.main import main
from aquarelle.ui.recorder import Recorder


def render(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str]:
    code = main(["render", *map(str, args), "--style", "adjust"])
    return code, capsys.readouterr().err


def brand(path: Path) -> bytes:
    """The major brand of an ISO file's ftyp box."""
    head = path.read_bytes()[:12]
    assert head[4:8] == b"ftyp"
    return head[8:12]


def test_a_m4v_is_apples_and_its_opus_sound_is_aac(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    src = make_clip(tmp_path / "opus.mkv", frames=6, fps=10, audio_codec="libopus").path
    out = tmp_path / "out.m4v"
    code, err = render(capsys, src, "-o", out)
    assert code == 0, err
    assert brand(out) == b"M4V "
    with av.open(str(out)) as c:
        assert [(s.type, s.codec_context.name) for s in c.streams] == [("video", "h264"),
                                                                       ("audio", "aac")]
        assert sum(f.samples for f in c.decode(audio=0)) >= 0.6 * 48000 - 1024
    assert "audio 1 opus -> aac (M4V cannot hold opus)" in err, err
    # sound it holds is copied; an .mp4 still copies Opus
    aac = make_clip(tmp_path / "aac.mp4", frames=6, fps=10).path
    code, err = render(capsys, aac, "-o", tmp_path / "aac.m4v")
    assert code == 0 and "audio 1 aac copied" in err, err
    code, err = render(capsys, src, "-o", tmp_path / "opus.mp4")
    assert code == 0 and "audio 1 opus copied" in err, err
    assert brand(tmp_path / "opus.mp4") == b"isom"


def test_a_m4v_refuses_the_codecs_it_cannot_hold_and_says_where_they_go(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = make_clip(tmp_path / "in.mp4", frames=3, audio=False).path
    code, err = render(capsys, src, "-o", tmp_path / "out.m4v", "--codec", "h265")
    assert code == 2 and "codec h265 cannot go into .m4v files; use .mkv, .mov, .mp4" in err
    assert not (tmp_path / "out.m4v").exists()
    # a 10-bit source is written as H.264 (8-bit) and the advice names the files that keep it
    rich = make_rich_clip(tmp_path / "deep.mkv", frames=4)
    code, err = render(capsys, rich, "-o", tmp_path / "deep.m4v", "-q")
    assert code == 0, err
    assert ("deep.mkv is 10-bit; h264 is written 8-bit: use --codec h265 or prores in a "
            ".mkv, .mov or .mp4 to keep 10 bits") in err, err
    assert "subtitle 3 (fra) srt -> mov_text" not in err  # (-q: the summary is not said)
    with av.open(str(tmp_path / "deep.m4v")) as c:
        assert [s.codec_context.name for s in c.streams.audio] == ["aac", "aac"]
        assert [s.codec_context.name for s in c.streams.subtitles] == ["mov_text"]


def test_a_m4v_recording_is_apples(tmp_path: Path) -> None:
    clip = make_clip(tmp_path / "src.mp4", size=(32, 24), frames=5, fps=10, audio=True)
    rec = Recorder(tmp_path / "rec.m4v", fps=10, audio_source=clip.path)
    for k in range(5):
        rec.push(np.zeros((24, 32, 3), np.uint8), k / 10)
    out = rec.stop()
    assert out == tmp_path / "rec.m4v" and rec.sound_error is None
    assert brand(out) == b"M4V "
    with av.open(str(out)) as c:
        assert [s.codec_context.name for s in c.streams] == ["h264", "aac"]
