"""What an export keeps that a video engineer's trial found lost or misreported: a phone's
QuickTime metadata keys, MP3 audio copied where the container holds it, drop-frame
timecodes at a new rate, lossless PCM, a trimmed AAC copy's first sound, and chapters of a
source that ends early."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import make_clip, mux_frames, pattern, probe

from aquarelle.cli.main import main
from aquarelle.media.metadata import rescaled_timecode


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


@pytest.fixture(scope="module")
def drop_frame_mov(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 29.97 fps .mov whose drop-frame timecode reaches the minute after 2 frames."""
    path = tmp_path_factory.mktemp("df") / "ntsc.mov"
    tb = Fraction(1001, 30000)
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=Fraction(30000, 1001))
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.time_base = vs.codec_context.time_base = tb
        vs.metadata["timecode"] = "00:00:59;28"
        mux_frames(out, vs, (pattern(k, 64, 48) for k in range(60)), time_base=tb)
    with av.open(str(path)) as c:
        assert c.streams.video[0].metadata.get("timecode") == "00:00:59;28"
    return path


@pytest.mark.parametrize(("start", "held"), [("1.0", "00:01:01:00"), ("0.5", "00:01:00:12")])
def test_a_drop_frame_timecode_keeps_its_time_at_a_new_rate(
        drop_frame_mov: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], start: str,
        held: str) -> None:
    # 00:00:59;28 at 29.97 fps is 59.993 s; 1 s on, 60.993 s: frame 00:01:01:00 at 25 fps
    # (it was written 2 frames early, the two labels skipped at the minute left uncounted)
    out = tmp_path / "out.mov"
    code, err = render(capsys, str(drop_frame_mov), "-o", str(out), "--fps", "25",
                       "--start", start)
    assert code == 0, err
    with av.open(str(out)) as c:
        assert c.streams.video[0].metadata.get("timecode") == held
    assert (f"timecode 00:00:59;28 at 29.97 fps ({float(start):g} s on) written as {held} at "
            "25 fps: the frame nearest its time, not drop-frame") in err


def test_timecodes_go_through_the_clock() -> None:
    assert rescaled_timecode("00:00:59;28", 30, 25, Fraction(29970, 1000)) == \
        ("00:01:01:00", False)
    assert rescaled_timecode("00:00:59;28", 30, 30, Fraction(30)) == ("00:01:01;00", True)
    # a non-drop-frame label's time is its own reading
    assert rescaled_timecode("01:00:00:00", 25, 50, Fraction(25)) == ("01:00:01:00", True)


def pcm_samples(path: Path) -> np.ndarray:
    """The first audio track's decoded samples, interleaved."""
    with av.open(str(path)) as c:
        return np.concatenate([f.to_ndarray().reshape(-1) for f in c.decode(audio=0)])


@pytest.mark.parametrize("ext", ["mkv", "mp4"])
def test_24_bit_pcm_stays_lossless(tmp_path: Path, ext: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    # 24-bit PCM of a .mov copied into .mkv reads as "2 channels" (and MP4 players do not
    # play PCM): it became AAC, its samples lost for a layout's name
    src = make_clip(tmp_path / "in.mov", frames=6, audio=False).path
    pcm = tmp_path / "pcm.mov"
    rng = np.random.default_rng(1)
    samples = (rng.integers(-2 ** 23, 2 ** 23, (1, 2 * 9600)) * 256).astype(np.int32)
    with av.open(str(src)) as c, av.open(str(pcm), "w") as out:
        video = out.add_stream_from_template(c.streams.video[0])
        audio = out.add_stream("pcm_s24le", rate=48000, layout="stereo")
        for packet in c.demux(c.streams.video[0]):
            if packet.dts is not None:
                packet.stream = video
                out.mux(packet)
        frame = av.AudioFrame.from_ndarray(samples, format="s32", layout="stereo")
        frame.sample_rate, frame.pts = 48000, 0
        for packet in [*audio.encode(frame), *audio.encode(None)]:
            out.mux(packet)
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(pcm), "-o", str(out))
    assert code == 0, err
    assert "audio 1 pcm_s24le -> flac (lossless; " in err or \
        "audio 1 pcm_s24le stereo -> flac" in err, err
    with av.open(str(out)) as c:
        cc = c.streams.audio[0].codec_context
        assert (cc.name, cc.layout.name) == ("flac", "stereo")
    kept = pcm_samples(out)
    assert np.array_equal(kept, samples[0, :len(kept)]) and len(kept) >= 2 * 9600 - 2 * 1024


def first_sound(path: Path) -> float:
    """When the first audio track's first decoded samples play (s)."""
    with av.open(str(path)) as c:
        frame = next(c.decode(audio=0))
        return float(frame.pts * frame.time_base)


def test_a_cut_aac_copy_in_matroska_starts_within_a_packet(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The copy keeps the source's CodecDelay (1024 samples), which its decoder discarded
    # from the cut's first packet of sound: 0.033 s where the same cut into .mp4 starts at
    # 0.012
    src = make_clip(tmp_path / "in.mkv", frames=45).path
    with av.open(str(src)) as c:
        assert c.streams.audio[0].codec_context.delay == 1024
    starts = {}
    for ext in ("mkv", "mp4"):
        out = tmp_path / f"out.{ext}"
        code, err = render(capsys, str(src), "-o", str(out), "--start", "0.5")
        assert code == 0 and "audio 1 aac copied" in err, err
        starts[ext] = first_sound(out)
    assert starts["mkv"] == pytest.approx(starts["mp4"], abs=0.0015)
    assert starts["mkv"] < 0.0215  # within a packet of the cut
