"""Surround audio into WebM: transcoded to Opus with its channels and layout kept where Opus
has the layout (a side pair as a back pair), else downmixed with a warning. Each source
channel holds its own tone, so the decoded output shows which channel went where."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import pattern

from aquarelle.media.export import ExportOptions, export_video

# one tone per source channel, in the source's order (LFE third or fourth: kept low)
TONES = {"5.1": [400, 650, 900, 60, 1300, 1700], "5.1(side)": [400, 650, 900, 60, 1300, 1700],
         "quad": [400, 650, 900, 1300], "2.1": [400, 650, 60],
         "7.1": [400, 650, 900, 60, 1300, 1700, 2100, 2500], "stereo": [400, 650]}
FPS, FRAMES = 30, 15


def surround_clip(path: Path, codec: str, layout: str, rate: int = 48000) -> Path:
    """A 64x48 clip of FRAMES frames and a track of `codec` in `layout`, a tone a channel."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=FPS)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        a = out.add_stream(codec, rate=rate, layout=layout)
        a.bit_rate = 640_000
        for k in range(FRAMES):
            frame = av.VideoFrame.from_ndarray(pattern(k, 64, 48), format="rgb24")
            frame.pts = k
            for packet in vs.encode(frame):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
        t = np.arange(rate * FRAMES // FPS) / rate
        tones = np.stack([0.2 * np.sin(2 * np.pi * f * t) for f in TONES[layout]])
        # packed samples: PyAV cannot fill 8 planar channels
        af = av.AudioFrame.from_ndarray(tones.T.reshape(1, -1).astype(np.float32).copy(),
                                        format="flt", layout=layout)
        af.sample_rate, af.pts, af.time_base = rate, 0, Fraction(1, rate)
        for packet in a.encode(af):
            out.mux(packet)
        for packet in a.encode(None):
            out.mux(packet)
    return path


def channel_tones(path: Path) -> tuple[str, list[float], list[float]]:
    """The audio layout of a file, and each channel's loudest frequency (Hz) and RMS."""
    with av.open(str(path)) as c:
        s = c.streams.audio[0]
        n = s.codec_context.channels
        to_packed = av.AudioResampler(format="flt")  # PyAV misreads 8 planar channels
        data = np.concatenate([g.to_ndarray().reshape(-1, n) for f in c.decode(s)
                               for g in to_packed.resample(f)]).T
        layout = s.codec_context.layout.name
    middle = data[:, 2400:-2400]  # away from the encoder's ramps
    window = np.hanning(middle.shape[1])
    freqs = np.fft.rfftfreq(middle.shape[1], 1 / 48000)
    peaks = [float(freqs[np.abs(np.fft.rfft(ch * window)).argmax()]) for ch in middle]
    return layout, peaks, [float(np.sqrt(np.mean(ch ** 2))) for ch in middle]


def render(src: Path, dst: Path, ctx, **opts):
    return export_video(src, dst, "watercolor", {"temporal": False}, ExportOptions(**opts),
                        ctx=ctx)


@pytest.mark.parametrize(("codec", "layout", "kept", "said"), [
    # AC3 decodes it as 5.1(side): the sides become Opus's backs
    ("ac3", "5.1", "5.1", "audio 1 ac3 5.1(side) -> libopus 5.1 (WebM cannot hold ac3)"),
    ("flac", "5.1", "5.1", "audio 1 flac -> libopus (WebM cannot hold flac)"),
    # quad(side) when decoded
    ("ac3", "quad", "quad", "audio 1 ac3 quad(side) -> libopus quad (WebM cannot hold ac3)"),
    # Matroska PCM: 4 channels of unknown order
    ("pcm_s16le", "quad", "quad", "audio 1 pcm_s16le 4 channels -> libopus quad (WebM cannot hold "
     "pcm_s16le)"),
])
def test_surround_keeps_its_channels_in_webm(tmp_path, gl_ctx, codec, layout, kept, said):
    src = surround_clip(tmp_path / "in.mkv", codec, layout)
    r = render(src, tmp_path / "out.webm", gl_ctx)
    assert r.audio == [said]
    assert not [w for w in r.warnings if "audio" in w]
    out_layout, peaks, rms = channel_tones(tmp_path / "out.webm")
    assert out_layout == kept
    # each channel is its source channel's tone (within a bin of a third of a second)
    assert peaks == pytest.approx(TONES[layout], abs=4)
    assert min(rms) > 0.1  # 0.2 peak sines: about 0.14


def test_a_layout_opus_lacks_is_downmixed_with_a_warning(tmp_path, gl_ctx):
    src = surround_clip(tmp_path / "in.mkv", "ac3", "2.1")
    r = render(src, tmp_path / "out.webm", gl_ctx)
    assert r.audio == ["audio 1 ac3 2.1 -> libopus stereo (WebM cannot hold ac3; downmixed)"]
    assert ("audio stream 1: Opus (WebM) cannot hold 2.1; downmixed to stereo, its LFE left "
            "out") in r.warnings
    out_layout, peaks, rms = channel_tones(tmp_path / "out.webm")
    assert out_layout == "stereo" and peaks == pytest.approx([400, 650], abs=4)
    assert min(rms) > 0.1
    # as said: the LFE's 60 Hz tone is in neither channel
    assert max(tone_level(tmp_path / "out.webm", 60)) < 0.01


def test_a_rate_opus_lacks_is_said_to_be_resampled(tmp_path, gl_ctx):
    """WebM's Opus takes 48, 24, 16, 12 or 8 kHz: a 44.1 kHz track became 48 kHz unsaid."""
    src = surround_clip(tmp_path / "in.mkv", "aac", "stereo", rate=44100)
    r = render(src, tmp_path / "out.webm", gl_ctx)
    assert r.audio == ["audio 1 aac -> libopus (WebM cannot hold aac; resampled 44.1 -> 48 "
                       "kHz)"]
    with av.open(str(tmp_path / "out.webm")) as got:
        assert got.streams.audio[0].codec_context.sample_rate == 48000
    kept = surround_clip(tmp_path / "in16.mkv", "aac", "stereo", rate=16000)
    r = render(kept, tmp_path / "out16.webm", gl_ctx)
    assert r.audio == ["audio 1 aac -> libopus (WebM cannot hold aac)"]


def tone_level(path: Path, hz: float) -> list[float]:
    """Each channel's amplitude at `hz` (a 0.2 peak sine reads about 0.2)."""
    with av.open(str(path)) as c:
        s = c.streams.audio[0]
        data = np.concatenate([f.to_ndarray() for f in c.decode(s)], axis=1)
    middle = data[:, 2400:-2400]
    freqs = np.fft.rfftfreq(middle.shape[1], 1 / 48000)
    spectrum = np.abs(np.fft.rfft(middle * np.hanning(middle.shape[1]), axis=1))
    band = np.abs(freqs - hz) < 10
    return [float(v) for v in spectrum[:, band].max(axis=1) * 4 / middle.shape[1]]


def test_trimmed_7_1_keeps_its_eight_channels(tmp_path, gl_ctx):
    # AAC decodes to 8 planar channels: cutting the first frame at --start crashed PyAV
    src = surround_clip(tmp_path / "in.mkv", "aac", "7.1")
    r = render(src, tmp_path / "out.webm", gl_ctx, start=0.1)
    assert r.audio == ["audio 1 aac -> libopus (WebM cannot hold aac)"]
    out_layout, peaks, rms = channel_tones(tmp_path / "out.webm")
    assert out_layout == "7.1" and peaks == pytest.approx(TONES["7.1"], abs=6)
    assert min(rms) > 0.1


def audio_kbps(path: Path, seconds: float) -> float:
    """The audio stream's rate in kb/s from its packets' bytes."""
    with av.open(str(path)) as c:
        s = c.streams.audio[0]
        return sum(p.size for p in c.demux(s)) * 8 / seconds / 1000


@pytest.mark.parametrize(("layout", "kbps"), [("5.1", 480), ("quad", 320)])
def test_surround_is_transcoded_at_a_rate_for_its_channels(tmp_path, gl_ctx, layout, kbps):
    # at stereo's 160 kb/s a 5.1 track had 27 kb/s a channel (float samples: FLAC cannot
    # keep them, so AAC)
    src = surround_clip(tmp_path / "in.mkv", "pcm_f32le", layout)
    r = render(src, tmp_path / "out.mp4", gl_ctx)
    assert f"-> aac {layout} (" in r.audio[0]
    assert kbps * 0.85 < audio_kbps(tmp_path / "out.mp4", FRAMES / FPS) < kbps * 1.25


def test_a_copy_that_would_lose_its_layout_is_transcoded_with_a_warning(tmp_path, gl_ctx):
    # FLAC's 2.1 copied into MP4 reads back as 3.0: the LFE's tone would play from the centre
    src = surround_clip(tmp_path / "in.mkv", "flac", "2.1")
    r = render(src, tmp_path / "out.mp4", gl_ctx)
    assert r.audio == ["audio 1 flac -> aac (a copy would read as 3.0)"]
    assert ("audio stream 1: flac 2.1 copied into .mp4 would read as 3.0; transcoded to aac "
            "2.1") in r.warnings
    out_layout, peaks, _ = channel_tones(tmp_path / "out.mp4")
    assert out_layout == "2.1" and peaks == pytest.approx(TONES["2.1"], abs=4)


def test_a_side_pair_read_back_as_a_back_pair_is_still_copied(tmp_path, gl_ctx):
    src = surround_clip(tmp_path / "in.mkv", "flac", "5.1")
    r = render(src, tmp_path / "out.mp4", gl_ctx)
    assert r.audio == ["audio 1 flac copied"]
    assert not [w for w in r.warnings if "transcoded" in w]
    _, peaks, _ = channel_tones(tmp_path / "out.mp4")
    assert peaks == pytest.approx(TONES["5.1"], abs=4)
