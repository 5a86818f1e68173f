"""Audio of an export: copy packets unchanged when the container takes the codec, else
transcode (FLAC for lossless audio in Matroska and MP4; else AAC, or Opus for WebM, surround
kept where Opus has the layout). Both keep the source timestamps, shifted by the trim
start."""

from __future__ import annotations

import io
from fractions import Fraction
from functools import cache
from pathlib import Path

import av

from .metadata import index_label, stream_label


def codec_name(stream: av.stream.Stream) -> str:
    """An audio stream's codec ("mp3", "aac", "opus": the codec's name, which containers'
    tables use, not its decoder's "mp3float", "aac_fixed" or "libopus")."""
    cc = stream.codec_context
    return cc.codec.canonical_name if cc is not None else "unknown"


# A transcoded track's bit rate a channel, mono taken as two: 160 kb/s stereo, 480 kb/s 5.1,
# 640 kb/s 7.1 (a surround track at stereo's rate was starved: 27 kb/s a channel).
BITRATE_PER_CHANNEL = 80_000
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
    # cut in FFmpeg's FIFO, not numpy: PyAV reads past the planes of 8 planar channels
    fifo = av.AudioFifo()
    pts, frame.pts = frame.pts, None  # (the FIFO wants timestamps from 0)
    fifo.write(frame)
    frame.pts = pts
    if a:
        fifo.read(a)
    out = fifo.read(b - a)
    out.sample_rate = rate
    out.time_base = tb
    out.pts = frame.pts + round(Fraction(a, rate) / tb)
    return out


DEFAULT_LAYOUTS = {1: "mono", 2: "stereo", 3: "2.1", 4: "quad", 5: "5.0", 6: "5.1",
                   7: "6.1", 8: "7.1"}


def default_layout(channels: int) -> str:
    """FFmpeg's usual layout for a channel count ("2 channels" of unknown order: stereo)."""
    return DEFAULT_LAYOUTS.get(channels, "stereo")


# The layouts FFmpeg's AAC encoder writes so that they read back named alike (others are
# written as a bare channel count, their order lost).
AAC_LAYOUTS = ("mono", "stereo", "2.1", "3.0", "3.0(back)", "4.0", "quad", "5.0", "5.1", "7.1")


def aac_layout(layout: av.AudioLayout) -> str:
    """The AAC layout for a source layout: its own where AAC keeps it (a 3.0's centre stays a
    centre, not 2.1's LFE), else FFmpeg's usual one for its channel count."""
    return layout.name if layout.name in AAC_LAYOUTS else default_layout(layout.nb_channels)


# The layouts Opus holds (up to 8 channels in Vorbis order, channel mapping family 1):
# libopus refuses any other, 2.1, 4.0 and 5.1(side) among them.
OPUS_LAYOUTS = ("mono", "stereo", "3.0", "quad", "5.0", "5.1", "6.1", "7.1")
# A side pair where a layout has no back pair is one to Opus, as to FFmpeg's resampler
# (which moves it there unchanged): AC3 decodes 5.1 as 5.1(side) and quad as quad(side).
SIDE_AS_BACK = {"SL": "BL", "SR": "BR"}


def opus_layout(layout: av.AudioLayout) -> str:
    """The Opus layout for a source layout: its own channels (a side pair as a back pair),
    else the largest Opus layout made of its channels (a downmix; stereo if none is).
    Channels of unknown order are taken in Opus's order, all of them up to 8."""
    names = [c.name for c in layout.channels]
    n = len(names)
    if "NONE" in names:
        return OPUS_LAYOUTS[n - 1] if n <= len(OPUS_LAYOUTS) else "stereo"
    own = set(names)
    moved = own if own & {"BL", "BR"} else {SIDE_AS_BACK.get(c, c) for c in names}
    fits = [name for name in OPUS_LAYOUTS
            if (wanted := {c.name for c in av.AudioLayout(name).channels}) <= own
            or wanted <= moved]
    return fits[-1] if fits else "stereo"


# Audio codecs that players handle in each container. FFmpeg can mux more (Vorbis into MP4,
# for one), but most players then play the picture in silence: those are transcoded.
PLAYABLE = {
    "mp4": frozenset({"aac", "mp3", "alac", "ac3", "eac3", "opus", "flac"}),
    "mov": frozenset({"aac", "mp3", "alac", "ac3", "eac3", "pcm_s16le", "pcm_s24le",
                      "pcm_f32le"}),
    "ipod": frozenset({"aac", "alac", "ac3"}),  # (all its muxer takes)
    "webm": frozenset({"opus", "vorbis"}),
}


def can_copy(fmt: str, stream: av.audio.AudioStream, sample: av.Packet | None = None) -> bool:
    """Whether an output of container format `fmt` can hold this audio stream unchanged."""
    return _copy_refusal(fmt, stream, sample) is None


def audio_copies(fmt: str, path: str | Path, streams: list[av.audio.AudioStream]
                 ) -> tuple[frozenset[int], list[str]]:
    """Which of a file's audio `streams` (by position) an output of format `fmt` transcodes,
    and a warning for each one transcoded lossily to keep its channel layout."""
    samples = sample_packets(path, [s.index for s in streams])
    transcode, warnings = set(), []
    for i, s in enumerate(streams):
        why = _copy_refusal(fmt, s, samples.get(s.index))
        if why is None:
            continue
        transcode.add(i)
        codec, out = transcode_target(fmt, s)
        layout = s.codec_context.layout
        if why.startswith("layout ") and codec != "flac":  # (FLAC loses nothing: no warning)
            warnings.append(f"audio stream {stream_label(s)}: {codec_name(s)} "
                            f"{layout.name} copied into .{fmt} would read as {why[7:]}; "
                            f"transcoded to {codec} {out}")
        elif codec == "flac" and (reads := flac_reads_as(fmt, out)) != layout.name \
                and not layout.name.endswith("channels"):
            warnings.append(f"audio stream {stream_label(s)}: {codec_name(s)} {layout.name} "
                            f"written as FLAC in .{fmt} reads back as {reads} (FLAC in MP4 "
                            f"holds a channel count, not a layout; .mkv keeps {layout.name})")
    return frozenset(transcode), warnings


def transcode_target(fmt: str, source: av.audio.AudioStream) -> tuple[str, str]:
    """The codec and channel layout a transcoded track of `source` gets in an output of
    format `fmt`: FLAC for lossless audio where the output plays it and FLAC keeps the
    layout (the samples and layout kept), Opus in WebM (its layouts), else AAC (the
    source's layout where AAC keeps it); stereo where none is known."""
    layout = source.codec_context.layout
    if fmt == "webm":
        codec = "libopus"
    elif flac_format(source) and fmt in ("matroska", "mp4") and flac_layout(layout):
        return "flac", flac_layout(layout) or ""
    else:
        codec = "aac"
    if layout is None or not layout.nb_channels:
        return codec, default_layout(2)
    return codec, opus_layout(layout) if codec == "libopus" else aac_layout(layout)


# The layouts FLAC holds (its channel assignments), which read back named alike
FLAC_LAYOUTS = ("mono", "stereo", "3.0", "quad", "5.0", "5.1", "6.1", "7.1")


# The layout a FLAC track in MP4 reads back as, by its channel count: FLAC's own for the
# count (MP4's 'dfLa' box holds its STREAMINFO alone; Matroska's also the channel mask)
FLAC_IN_MP4 = ("mono", "stereo", "3.0", "quad", "5.0(side)", "5.1(side)", "6.1", "7.1")


def flac_reads_as(fmt: str, layout: str) -> str:
    """The layout a FLAC track written with `layout` reads back as from a `fmt` file."""
    channels = av.AudioLayout(layout).nb_channels
    return FLAC_IN_MP4[channels - 1] if fmt == "mp4" and channels <= 8 else layout


def flac_layout(layout: av.AudioLayout | None) -> str | None:
    """The FLAC layout keeping a source layout: its own, or for channels of unknown order
    (Matroska's PCM) FFmpeg's usual one for their count; None where FLAC has none (2.1)."""
    if layout is None or not layout.nb_channels:
        return None
    if layout.name.endswith("channels"):
        name = default_layout(layout.nb_channels)
        return name if name in FLAC_LAYOUTS and layout.nb_channels <= 8 else None
    return layout.name if layout.name in FLAC_LAYOUTS else None


def flac_format(source: av.audio.AudioStream) -> str | None:
    """The sample format that keeps a lossless source's samples in FLAC: s16 for up to 16
    bits, s32 (which FFmpeg's FLAC encoder writes as 24 bits) for 24; None for lossy, float
    or 32-bit audio, which FLAC cannot hold unchanged."""
    cc = source.codec_context
    if cc is None or not cc.codec.lossless or cc.format is None:
        return None
    fmt = cc.format.name.rstrip("p")
    if fmt in ("u8", "s16"):
        return "s16"
    name = codec_name(source)
    if fmt == "s32" and not (name.startswith("pcm_") and "32" in name):
        return "s32"
    return None


def _copy_refusal(fmt: str, stream: av.audio.AudioStream, sample: av.Packet | None
                  ) -> str | None:
    """None where an output of format `fmt` holds the stream unchanged, else why not:
    "codec", "muxer", or "layout NAME" (a copy would read back as NAME).

    FFmpeg's codec table answers first; then, in memory, a file with the stream is written
    (with `sample`, one of its packets), since some combinations pass the table but not the
    muxer (PCM of unknown channel order in MP4, for one, fails only when finishing the file),
    and read back: a copy must keep its channels' layout.
    """
    name = codec_name(stream)  # (the decoder's name, "mp3float", is no container's)
    if name not in _supported(fmt) or name not in PLAYABLE.get(fmt, frozenset({name})):
        return "codec"
    buf = io.BytesIO()
    try:
        with av.open(buf, mode="w", format=fmt) as trial:
            out = trial.add_stream_from_template(stream)
            trial.start_encoding()
            if sample is not None:
                sample.stream = out
                trial.mux(sample)
    except Exception:  # any refusal means: transcode
        return "muxer"
    if sample is None:
        return None
    try:
        buf.seek(0)
        with av.open(buf) as back:
            got = back.streams.audio[0].codec_context.layout
    except Exception:
        return None  # (unreadable from one packet: the muxer took it)
    return None if _same_layout(stream.codec_context.layout, got) else f"layout {got.name}"


# The containers by the names a reason gives them
FORMAT_NAMES = {"mp4": "MP4", "ipod": "M4V", "mov": "MOV", "matroska": "Matroska",
                "webm": "WebM"}


def transcode_reason(fmt: str, stream: av.audio.AudioStream) -> str:
    """Why an output of format `fmt` transcodes this audio stream, for the summary: "MOV
    cannot hold opus", "MP4 players do not play vorbis", "a copy would read as 2
    channels"..."""
    codec = codec_name(stream)
    name = FORMAT_NAMES.get(fmt, fmt)
    why = _copy_refusal(fmt, stream, None)
    if why is None:  # the table and header take it: the layout, read back from a packet
        sample = sample_packets(stream.container.name, [stream.index]).get(stream.index)
        why = _copy_refusal(fmt, stream, sample) if sample is not None else None
    if why == "codec" and codec in _supported(fmt):
        if fmt == "webm":
            return f"WebM holds {' and '.join(sorted(PLAYABLE[fmt]))} only"
        return f"{name} players do not play {codec}"
    if why == "codec":
        return f"{name} cannot hold {codec}"
    if why == "muxer":
        return f"{name}'s muxer refuses a copy of {codec}"
    if why is not None and why.startswith("layout "):
        return f"a copy would read as {why[7:]}"
    return ""


def _same_layout(source: av.AudioLayout | None, copy: av.AudioLayout | None) -> bool:
    """Whether a copy's layout is its source's: a named source layout must come back named
    alike (FLAC's 2.1 in MP4 reads as 3.0: its LFE would play from the centre speaker)."""
    if source is None or not source.nb_channels or source.name.endswith("channels"):
        return True  # no order known to keep
    if copy is None:
        return False
    # a side pair read back as a back pair (FLAC's 5.1 is 5.1(side)) is the same speakers
    return ([SIDE_AS_BACK.get(c.name, c.name) for c in copy.channels]
            == [SIDE_AS_BACK.get(c.name, c.name) for c in source.channels])


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


def _has_lfe(layout: av.AudioLayout) -> bool:
    """Whether a layout has a low-frequency channel (LFE, or 22.2's LFE2)."""
    return any(c.name.startswith("LFE") for c in layout.channels)


# The longest priming an MP4 edit list hides that a Matroska copy keeps (samples): Apple's
# AAC encoder's 2112 (FFmpeg's is 1024); more hidden sound is a stream-copy cut's pre-roll
PRIMING = 2112


def is_priming(hidden: list[av.Packet], shown: av.Packet | None, rate: int) -> bool:
    """Whether the packets an MP4 edit list hides at a stream's start (`hidden`, in order)
    are an encoder's priming: no longer than PRIMING samples at `rate` Hz, and ending where
    the first one shown (`shown`; None: not come yet) begins."""
    first, last = hidden[0], hidden[-1]
    if not rate or first.pts is None or last.pts is None or not last.duration:
        return False
    end = last.pts + last.duration
    if shown is not None and shown.pts != end:
        return False
    return (end - first.pts) * first.time_base <= Fraction(PRIMING, rate)


def output_end(video_end: Fraction | None, tracks: list[AudioTrack]) -> Fraction | None:
    """Where an output ends: its video's end, or its sound's where that goes on longer (a
    clip whose audio outlasts its picture: its cues and chapters go on with the sound)."""
    ends = [e for e in (video_end, *(t.end for t in tracks)) if e is not None]
    return max(ends) if ends else None


def transcode_bitrate(channels: int) -> int:
    """The bit rate (b/s) a transcoded track of `channels` channels is encoded at."""
    return BITRATE_PER_CHANNEL * max(2, channels)


class AudioTrack:
    """One audio stream of the output, fed with packets (copy) or decoded frames (transcode).

    `offset` (seconds) is subtracted from every timestamp: the trim start, so that audio and
    video keep their relative timing.
    """

    def __init__(self, output: av.container.OutputContainer, source: av.audio.AudioStream,
                 offset: float = 0.0, *, transcode: bool | None = None) -> None:
        self.output = output
        self.offset = offset
        self.index = source.index  # the source stream's, for the summary
        fmt = output.format.name.split(",")[0]
        self.transcode = (not can_copy(fmt, source)) if transcode is None else transcode
        self.packets = 0
        self.end: Fraction | None = None  # where the sound written ends (output seconds)
        self.downmix: tuple[str, str] | None = None  # (source, output) layout names
        self.source_codec = codec_name(source)
        self.layouts: tuple[str, str] | None = None  # (source, output), where they differ
        self.rates: tuple[int, int] | None = None  # (source, output) Hz, where resampled
        self.warning: str | None = None
        self.reason = ""  # why it is transcoded, for the summary
        # samples a Matroska decoder discards from the copy's first packet: the source's
        # CodecDelay, which the copy keeps (see _primed)
        self._delay = 0
        self._matroska = fmt in ("matroska", "webm")
        # Matroska: the packets an MP4 edit list hides at the source's start, held until the
        # first shown one tells whether they are an encoder's priming (see write); None once
        # a packet was shown
        self._hidden: list[av.Packet] | None = [] if self._matroska else None
        if not self.transcode:
            self.stream = output.add_stream_from_template(source)
            self.codec = self.source_codec
            cc = source.codec_context
            if fmt in ("matroska", "webm") and cc.delay and cc.sample_rate:
                self._delay, self._rate = int(cc.delay), cc.sample_rate
            return
        self.reason = transcode_reason(fmt, source)
        webm = output.format.name.split(",")[0] == "webm"
        rate = source.codec_context.sample_rate or 48000
        src_layout = source.codec_context.layout
        channels = src_layout.nb_channels if src_layout else 2
        self.codec, layout = transcode_target(fmt, source)
        if webm:
            if rate not in OPUS_RATES:  # (libopus takes five rates)
                self.rates = (rate, 48000)
                rate = 48000
            if src_layout and channels and av.AudioLayout(layout).nb_channels < channels:
                self.downmix = (src_layout.name, layout)
        self.stream = output.add_stream(self.codec, rate=rate, layout=layout)
        if self.codec == "flac":
            self.stream.format = flac_format(source)
        else:
            self.stream.bit_rate = transcode_bitrate(
                self.stream.codec_context.layout.nb_channels)
        if src_layout and src_layout.name != layout:
            self.layouts = (src_layout.name, layout)
        if webm and self.stream.codec_context.layout.nb_channels > 2:
            # family 1 named, not left to the default (which picks it too): only then does
            # libopus use its surround masking and narrow the LFE's band
            self.stream.codec_context.options = {"mapping_family": "1"}
        if self.downmix:
            # FFmpeg's default downmix (lfe_mix_level 0) mixes no LFE into the other channels
            lfe = (_has_lfe(src_layout) and not _has_lfe(av.AudioLayout(layout)))
            self.warning = (f"audio stream {stream_label(source)}: Opus (WebM) cannot hold "
                            f"{self.downmix[0]}; downmixed to {self.downmix[1]}"
                            f"{', its LFE left out' if lfe else ''}")

    def describe(self) -> str:
        """E.g. "audio 1 (eng) aac copied", "audio 2 vorbis -> aac (MP4 players do not play
        vorbis)", "audio 3 (deu) ac3 2.1 -> libopus stereo (WebM cannot hold ac3;
        downmixed)": the source stream's index and codec, why it is transcoded, and the
        language its copy was given (a .mov's "fra" for "fre", none with --no-metadata: see
        carry.py), as a subtitle track's is named."""
        lang = self.stream.metadata.get("language")
        what = f"audio {index_label(self.index, lang)} {self.source_codec}"
        if not self.transcode:
            return f"{what} copied"
        resampled = "" if self.rates is None else \
            f"resampled {self.rates[0] / 1000:g} -> {self.rates[1] / 1000:g} kHz"
        why = "; ".join(w for w in ("lossless" if self.codec == "flac" else "", self.reason,
                                    "downmixed" if self.downmix else "", resampled) if w)
        why = f" ({why})" if why else ""
        if self.layouts is None:
            return f"{what} -> {self.codec}{why}"
        return f"{what} {self.layouts[0]} -> {self.codec} {self.layouts[1]}{why}"

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
        if self._matroska and data.is_discard:
            # sound an MP4's edit list hides (a stream-copy cut's pre-roll before the first
            # shown frame): an MP4 output's muxer hides it again in its own edit list, from
            # the negative times; Matroska has none, and would play it before the picture
            if self._hidden is not None:
                self._hidden.append(data)
                if not is_priming(self._hidden, None, self.stream.codec_context.sample_rate):
                    self._hidden = None  # (longer than a priming: none of it is kept)
            return
        hidden, self._hidden = self._hidden, None
        if hidden and is_priming(hidden, data, self.stream.codec_context.sample_rate):
            # but an encoder's priming is kept: silence before the sound, which the decoder
            # needs for the first shown packet (without it AAC's first 1024 samples came out
            # faded: a click at 0 was lost, one 10 ms in came at half its height)
            for packet in hidden:
                self._copy(packet)
        self._copy(data)

    def _copy(self, data: av.Packet) -> None:
        """Mux a copied packet, shifted by `offset` (and after the primer `_primed` makes)."""
        if self.offset:
            shift = round(Fraction(self.offset).limit_denominator(10**9) / data.time_base)
            if data.pts is not None:
                data.pts -= shift
            if data.dts is not None:
                data.dts -= shift
        data.stream = self.stream
        if self._delay:
            primer = self._primed(data, self._delay)
            self._delay = 0
            if primer is not None:
                self._mux(primer)
        self._mux(data)

    def _primed(self, first: av.Packet, delay: int) -> av.Packet | None:
        """The packet to go before a Matroska copy's `first` packet: a copy of it, one packet
        earlier, where `first` is sound (a cut's; not the source's own priming packet, which
        starts before 0) and exactly `delay` samples long (AAC's 1024), so that the samples
        the decoder discards (the source's CodecDelay, kept) are the copy's, not the
        sound's; None where no packet is to go before it."""
        tb = first.time_base
        if first.pts is None or not first.duration or first.pts < 0:
            return None
        # (Opus: 312 of 960; Matroska's milliseconds leave AAC's 21.3 ms packets 21 long)
        if abs(first.duration * tb - Fraction(delay, self._rate)) > tb:
            return None
        primer = av.Packet(bytes(first))
        primer.stream, primer.time_base = self.stream, tb
        primer.pts, primer.duration = first.pts - first.duration, first.duration
        primer.dts = None if first.dts is None else first.dts - first.duration
        return primer

    def flush(self) -> None:
        """Drain the encoder (transcode only)."""
        if self.transcode:
            for packet in self.stream.encode(None):
                self._mux(packet)

    def _mux(self, packet: av.Packet) -> None:
        if packet.pts is not None and packet.time_base:
            stop = (packet.pts + (packet.duration or 0)) * packet.time_base
            self.end = stop if self.end is None or stop > self.end else self.end
        self.output.mux(packet)
        self.packets += 1
