"""Audio of an export: copy packets unchanged when the container takes the codec, else
transcode (AAC; Opus for WebM). Both keep the source timestamps, shifted by the trim start."""

from __future__ import annotations

import io
from fractions import Fraction
from functools import cache
from pathlib import Path

import av
import numpy as np

TRANSCODE_BITRATE = 160_000
OPUS_RATES = (48000, 24000, 16000, 12000, 8000)


def trim_audio_frame(frame: av.AudioFrame, start: float | None, end: float | None
                     ) -> av.AudioFrame | None:
    """The part of a decoded audio frame inside [start, end) seconds, sample-exact."""
    if (start is None and end is None) or frame.pts is None:
        return frame
    rate = frame.sample_rate
    tb = frame.time_base or Fraction(1, rate)
    n = frame.samples
    t0 = float(frame.pts * tb)
    t1 = t0 + n / rate
    if (end is not None and t0 >= end) or (start is not None and t1 <= start):
        return None
    a = 0 if start is None or t0 >= start else round((start - t0) * rate)
    b = n if end is None or t1 <= end else round((end - t0) * rate)
    if b <= a:
        return None
    if (a, b) == (0, n):
        return frame
    arr = frame.to_ndarray()
    if frame.format.is_planar:
        arr = arr[:, a:b]
    else:
        ch = frame.layout.nb_channels
        arr = arr[:, a * ch:b * ch]
    out = av.AudioFrame.from_ndarray(np.ascontiguousarray(arr), format=frame.format.name,
                                     layout=frame.layout.name)
    out.sample_rate = rate
    out.time_base = tb
    out.pts = frame.pts + round(Fraction(a, rate) / tb)
    return out


DEFAULT_LAYOUTS = {1: "mono", 2: "stereo", 3: "2.1", 4: "quad", 5: "5.0", 6: "5.1",
                   7: "6.1", 8: "7.1"}


def default_layout(channels: int) -> str:
    """FFmpeg's usual layout for a channel count ("2 channels" of unknown order: stereo)."""
    return DEFAULT_LAYOUTS.get(channels, "stereo")


# Audio codecs that players handle in each container. FFmpeg can mux more (Vorbis into MP4,
# for one), but most players then play the picture in silence: those are transcoded.
PLAYABLE = {
    "mp4": frozenset({"aac", "mp3", "alac", "ac3", "eac3", "opus", "flac"}),
    "mov": frozenset({"aac", "mp3", "alac", "ac3", "eac3", "pcm_s16le", "pcm_s24le",
                      "pcm_f32le"}),
    "webm": frozenset({"opus", "vorbis"}),
}


def can_copy(fmt: str, stream: av.audio.AudioStream, sample: av.Packet | None = None) -> bool:
    """Whether an output of container format `fmt` can hold this audio stream unchanged.

    FFmpeg's codec table answers first; then, in memory, a file with the stream is written
    (with `sample`, one of its packets), since some combinations pass the table but not the
    muxer (PCM of unknown channel order in MP4, for one, fails only when finishing the file).
    """
    name = stream.codec_context.name
    if name not in _supported(fmt) or name not in PLAYABLE.get(fmt, frozenset({name})):
        return False
    try:
        with av.open(io.BytesIO(), mode="w", format=fmt) as trial:
            out = trial.add_stream_from_template(stream)
            trial.start_encoding()
            if sample is not None:
                sample.stream = out
                trial.mux(sample)
        return True
    except Exception:  # any refusal means: transcode
        return False


def sample_packets(path: str | Path, streams: list[int]) -> dict[int, av.Packet]:
    """The first packet of each of the given streams (by index) of a file; best effort."""
    found: dict[int, av.Packet] = {}
    if not streams:
        return found
    try:
        with av.open(str(path)) as c:
            wanted = [s for s in c.streams if s.index in streams]
            for packet in c.demux(wanted):
                if packet.size and packet.dts is not None and not packet.is_corrupt:
                    found.setdefault(packet.stream.index, packet)
                if len(found) == len(wanted):
                    break
    except Exception:  # no samples: the table and header checks still apply
        pass
    return found


@cache
def _supported(fmt: str) -> frozenset[str]:
    try:
        with av.open(io.BytesIO(), mode="w", format=fmt) as probe:
            return frozenset(probe.supported_codecs)
    except Exception:
        return frozenset()


class AudioTrack:
    """One audio stream of the output, fed with packets (copy) or decoded frames (transcode).

    `offset` (seconds) is subtracted from every timestamp: the trim start, so that audio and
    video keep their relative timing.
    """

    def __init__(self, output: av.container.OutputContainer, source: av.audio.AudioStream,
                 offset: float = 0.0, *, transcode: bool | None = None) -> None:
        self.output = output
        self.offset = offset
        fmt = output.format.name.split(",")[0]
        self.transcode = (not can_copy(fmt, source)) if transcode is None else transcode
        self.packets = 0
        if not self.transcode:
            self.stream = output.add_stream_from_template(source)
            self.codec = source.codec_context.name
            return
        webm = output.format.name.split(",")[0] == "webm"
        self.codec = "libopus" if webm else "aac"
        rate = source.codec_context.sample_rate or 48000
        channels = source.codec_context.layout.nb_channels if source.codec_context.layout else 2
        if webm:
            rate = rate if rate in OPUS_RATES else 48000
            channels = min(channels, 2)
        layout = default_layout(channels)
        self.stream = output.add_stream(self.codec, rate=rate, layout=layout)
        self.stream.bit_rate = TRANSCODE_BITRATE

    def write(self, data: av.Packet | av.AudioFrame) -> None:
        """Mux a packet (copy) or encode a frame (transcode), shifted by `offset`."""
        if self.transcode:
            if not isinstance(data, av.AudioFrame):
                return
            if self.offset and data.pts is not None:
                tb = data.time_base or Fraction(1, data.sample_rate)
                data.pts -= round(Fraction(self.offset).limit_denominator(10**9) / tb)
            for packet in self.stream.encode(data):
                self._mux(packet)
            return
        if not isinstance(data, av.Packet):
            return
        if self.offset:
            shift = round(Fraction(self.offset).limit_denominator(10**9) / data.time_base)
            if data.pts is not None:
                data.pts -= shift
            if data.dts is not None:
                data.dts -= shift
        data.stream = self.stream
        self._mux(data)

    def flush(self) -> None:
        """Drain the encoder (transcode only)."""
        if self.transcode:
            for packet in self.stream.encode(None):
                self._mux(packet)

    def _mux(self, packet: av.Packet) -> None:
        self.output.mux(packet)
        self.packets += 1
