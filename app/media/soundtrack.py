"""Putting a file's sound under a recorded video: remux the video, transcode the audio.

A live recording of a file source is made of *segments*: stretches where the file played
continuously. Each segment's audio (source times src_start..src_end) is placed at its start
in the recording (out_start), so loops and seeks during the recording keep sound in sync.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av

from .audio import default_layout, trim_audio_frame


@dataclass
class Segment:
    """Source media time src_start..src_end, placed at out_start in the recording."""

    out_start: float
    src_start: float
    src_end: float


def has_audio(path: str | Path) -> bool:
    """Whether a media file has an audio stream (False for anything unreadable)."""
    try:
        with av.open(str(path)) as c:
            return bool(c.streams.audio)
    except (av.FFmpegError, OSError, ValueError):
        return False


def mux_with_audio(video: Path, audio_source: Path, segments: list[Segment], out: Path,
                   fmt: str = "mp4") -> None:
    """Write `out` (MP4, or a .m4v's `fmt` "ipod"): the video stream of `video` copied, plus
    the first audio stream of `audio_source` for each segment, transcoded to AAC."""
    with av.open(str(audio_source)) as ain, av.open(str(video)) as vin, \
            av.open(str(out), "w", format=fmt) as o:
        a_in = ain.streams.audio[0]
        v_in = vin.streams.video[0]
        v_out = o.add_stream_from_template(v_in)
        rate = a_in.codec_context.sample_rate or 48000
        channels = a_in.codec_context.layout.nb_channels if a_in.codec_context.layout else 2
        layout = default_layout(min(channels, 2))
        a_out = o.add_stream("aac", rate=rate, layout=layout)
        for packet in vin.demux(v_in):
            if packet.dts is None:
                continue
            packet.stream = v_out
            o.mux(packet)
        resampler = av.AudioResampler(format="fltp", layout=layout, rate=rate)
        tb = Fraction(1, rate)
        next_sample = 0
        for seg in segments:
            next_sample = max(next_sample, round(seg.out_start * rate))
            ain.seek(max(0, int((seg.src_start - 1.0) * av.time_base)))
            for frame in ain.decode(a_in):
                if frame.pts is not None and float(frame.pts * frame.time_base) >= seg.src_end:
                    break
                part = trim_audio_frame(frame, seg.src_start, seg.src_end)
                if part is None:
                    continue
                for chunk in resampler.resample(part):
                    chunk.pts = next_sample
                    chunk.time_base = tb
                    next_sample += chunk.samples
                    for packet in a_out.encode(chunk):
                        o.mux(packet)
        for packet in a_out.encode(None):
            o.mux(packet)
