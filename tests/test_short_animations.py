"""An animated AVIF cut short (a download that stopped) is called truncated, as a still is
(test_short_files): it was "no decodable video frames", its lost frames "could not be
decoded" without a reason, and one cut in its header was painted as a picture ("unsupported
output format .mp4, for an image") (trial V6, finding 3). The frames that decode are
painted, as a cut-short video's are."""

from __future__ import annotations

import struct
from pathlib import Path

import av
import numpy as np
import pytest
from test_animated_avif import FRAMES, animated_avif
from test_sources import WAIT, read_all

from aquarelle.cli.main import main
from aquarelle.media.errors import MediaError
from aquarelle.media.short_file import ends_early
from aquarelle.media.sources import open_source

SAID = "(truncated: the file ends before its frames do)"


def boxes(data: bytes) -> dict[str, tuple[int, int]]:
    """The top-level boxes of an ISO file: name -> (offset, size)."""
    out, at = {}, 0
    while at + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        out[kind.decode()] = (at, size)
        at += size
    return out


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return animated_avif(tmp_path_factory.mktemp("avif") / "whole.avif", alpha=False)


def cut(whole: Path, at: int, folder: Path) -> Path:
    path = folder / "cut.avif"
    path.write_bytes(whole.read_bytes()[:at])
    return path


def test_the_frames_that_decode_are_painted_and_the_rest_said_truncated(
        whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = whole.read_bytes()
    src = cut(whole, len(data) * 93 // 100, tmp_path)  # in its last frames' data
    assert ends_early(np.fromfile(src, np.uint8)) and not ends_early(np.fromfile(whole, np.uint8))
    for ext in ("mp4", "gif"):
        out = tmp_path / f"out.{ext}"
        assert main(["render", str(src), "-o", str(out), "--style", "adjust"]) == 0
        err = capsys.readouterr().err
        with av.open(str(out)) as c:
            painted = sum(1 for _ in c.decode(video=0))
        assert 0 < painted < FRAMES
        assert f"{FRAMES - painted} frame(s) could not be decoded" in err, err
        assert SAID in err, err


@pytest.mark.parametrize("where", ["in its frames' header", "before its frames' data"])
def test_a_cut_that_leaves_no_frame_is_said_truncated(whole: Path, tmp_path: Path, where: str,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    data = whole.read_bytes()
    at = {"in its frames' header": boxes(data)["meta"][0] + 20,  # FFmpeg cannot open it
          "before its frames' data": boxes(data)["mdat"][0] + 12}[where]
    src = cut(whole, at, tmp_path)
    # (a picture output of the second is refused as of an animation, naming .mp4 and .gif)
    for ext in ("mp4", "gif", "png") if at < boxes(data)["moov"][0] else ("mp4", "gif"):
        out = tmp_path / f"out.{ext}"
        assert main(["render", str(src), "-o", str(out), "--style", "adjust"]) != 0
        err = capsys.readouterr().err
        assert SAID in err and err.count("\n") == 1 and not out.exists(), (ext, err)


@pytest.mark.parametrize("where", ["in its frames' header", "before its frames' data",
                                   "in its last frames' data"])
def test_the_window_says_a_cut_short_animation_in_the_words_of_render(
        whole: Path, tmp_path: Path, where: str) -> None:
    """The window's source (what it plays, or the one line its dialog says) calls the file
    truncated as `aquarelle render` does: not 'a picture' cut short."""
    data = whole.read_bytes()
    at = {"in its frames' header": boxes(data)["meta"][0] + 20,
          "before its frames' data": boxes(data)["mdat"][0] + 12,
          "in its last frames' data": len(data) * 93 // 100}[where]
    src = cut(whole, at, tmp_path)
    if where != "in its last frames' data":
        with pytest.raises(MediaError) as e:
            open_source(str(src), paced=False)
        assert SAID in str(e.value) and "picture" not in str(e.value), str(e.value)
        return
    with open_source(str(src), paced=False) as played:
        frames = read_all(played)
        assert played.ended.wait(WAIT)
    assert 0 < len(frames) < FRAMES
    assert played.warning is not None and SAID in played.warning, played.warning
