"""Audio packets the decoder rejects (damaged in the file), counted as an export copies or
transcodes them and said once a stream, as its lost video frames are: a copied one is
written as it is (a player skips it: a gap or a click), a transcoded one is missing."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import av
import av.error

from .metadata import stream_label


def _decoder(stream: av.audio.AudioStream) -> av.CodecContext | None:
    """A decoder of its own for a copied stream's packets (the stream's context is left
    as the copy reads it); None where none opens."""
    cc = stream.codec_context
    try:
        ctx = av.CodecContext.create(cc.codec.name, "r")
        ctx.sample_rate = cc.sample_rate
        ctx.layout = cc.layout
        if cc.extradata:
            ctx.extradata = cc.extradata
        ctx.open()
    except (av.error.FFmpegError, ValueError, TypeError, AttributeError):
        return None
    return ctx


class DamagedAudio:
    """The damaged packets of each audio stream of a walk, by stream index."""

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()
        self._decoders: dict[int, av.CodecContext | None] = {}
        # streams a copied packet of decoded: a decoder that decodes none was not set up
        # as the file needs (a codec wanting more than its extradata), not damage
        self._decoded: set[int] = set()

    def check(self, stream: av.audio.AudioStream, packet: av.Packet) -> None:
        """Decode a packet to be copied apart, counting it where the decoder rejects it."""
        if stream.index not in self._decoders:
            self._decoders[stream.index] = _decoder(stream)
        ctx = self._decoders[stream.index]
        if ctx is None or not packet.size:
            return
        try:
            ctx.decode(packet)
        except (av.error.FFmpegError, ValueError):
            self.counts[stream.index] += 1
        else:
            self._decoded.add(stream.index)

    def rejected(self, stream: av.audio.AudioStream) -> None:
        """Count a packet the transcode's decoder rejected (it is left out)."""
        self.counts[stream.index] += 1
        self._decoded.add(stream.index)

    def said(self, path: Path, streams: list[tuple[av.audio.AudioStream, bool]]) -> list[str]:
        """A warning for each of `streams` (each with whether it was transcoded) with
        damaged packets."""
        lines = []
        for stream, transcoded in streams:
            n = self.counts[stream.index]
            if not n or stream.index not in self._decoded:
                continue
            fate = ("are missing from the output (a gap in its sound)" if transcoded else
                    "were copied as they are (a player skips them: a gap or a click)")
            codec = stream.codec_context.codec.canonical_name
            lines.append(f"{path}: audio stream {stream_label(stream)} ({codec}): {n} damaged "
                         f"packet(s) could not be decoded and {fate}")
        return lines
