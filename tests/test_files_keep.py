"""What an export keeps that a video engineer's trial found lost or misreported: a phone's
QuickTime metadata keys, MP3 audio copied where the container holds it, drop-frame
timecodes at a new rate, lossless PCM, a trimmed AAC copy's first sound, and chapters of a
source that ends early."""

from __future__ import annotations

from pathlib import Path

import av
import pytest
from videoclips import make_clip, probe

from aquarelle.cli.main import main


def render(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["render", *args, "--style", "adjust"])
    return code, capsys.readouterr().err


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if "warning" in line]


PHONE_TAGS = {"com.apple.quicktime.location.ISO6709": "+48.8584+002.2945+035.000/",
              "com.apple.quicktime.make": "Apple", "com.apple.quicktime.model": "iPhone 15",
              "com.apple.quicktime.software": "17.1",
              "com.apple.quicktime.creationdate": "2024-05-01T12:00:00+0200"}


@pytest.fixture(scope="module")
def phone_mov(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A .mov as an iPhone writes it: its place, make, model, software and date as QuickTime
    metadata keys (mdta)."""
    folder = tmp_path_factory.mktemp("phone")
    src = make_clip(folder / "plain.mov", frames=3).path
    path = folder / "IMG_0001.mov"
    with av.open(str(src)) as c, av.open(str(path), "w", container_options={
            "movflags": "use_metadata_tags"}) as out:
        out.metadata.update(PHONE_TAGS)
        streams = {s.index: out.add_stream_from_template(s) for s in c.streams}
        for packet in c.demux():
            if packet.dts is not None:
                packet.stream = streams[packet.stream.index]
                out.mux(packet)
    with av.open(str(path)) as c:  # what FFmpeg makes of it, which the test relies on
        assert PHONE_TAGS.items() <= dict(c.metadata).items()
    return path


@pytest.mark.parametrize("ext", ["mov", "mp4", "mkv"])
def test_a_phones_place_and_date_are_kept(phone_mov: Path, tmp_path: Path, ext: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # The .mov and .mp4 dropped them with "... .mov files cannot hold them": both hold them
    # as QuickTime metadata keys, as the phone's own file does.
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(phone_mov), "-o", str(out))
    assert code == 0 and not warnings(err), err
    assert {k.lower(): v for k, v in PHONE_TAGS.items()}.items() <= probe(out)["tags"].items()


@pytest.mark.parametrize("ext", ["mp4", "mov"])
def test_mp3_is_copied_where_the_container_holds_it(tmp_path: Path, ext: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    # MP3 was re-encoded to AAC with no reason given: the check compared the decoder's
    # name, "mp3float", with "mp3"
    src = make_clip(tmp_path / "in.mkv", frames=6, audio_codec="libmp3lame",
                    audio_rate=44100).path
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(src), "-o", str(out))
    assert code == 0 and "audio 1 mp3 copied" in err, err
    with av.open(str(out)) as c:
        assert c.streams.audio[0].codec_context.codec.canonical_name == "mp3"


def test_a_transcode_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = make_clip(tmp_path / "in.mkv", frames=6, audio_codec="vorbis").path
    code, err = render(capsys, str(src), "-o", str(tmp_path / "out.mp4"))
    assert code == 0 and "audio 1 vorbis -> aac (MP4 players do not play vorbis)" in err, err
