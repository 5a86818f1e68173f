"""Subtitle streams of an export: copied where the container takes their codec, text ones
converted to the container's own text format (MP4/MOV: mov_text, WebM: WebVTT, Matroska:
SubRip), the rest named in a warning. Timestamps follow the picture's trim."""

from __future__ import annotations

import functools
import io
import math
import re
import struct
from collections import deque
from dataclasses import dataclass
from fractions import Fraction

import av

from .metadata import index_label, stream_label

# Subtitle codecs whose packets are text (FFmpeg names; "text" is plain text)
TEXT_CODECS = frozenset({"subrip", "srt", "ass", "ssa", "mov_text", "webvtt", "text"})
STYLED_CODECS = frozenset({"ass", "ssa"})  # text with a style sheet the others cannot hold
# The text format each container holds natively
TEXT_FORMAT = {"mp4": "mov_text", "ipod": "mov_text", "mov": "mov_text", "webm": "webvtt",
               "matroska": "subrip"}
_ASS_OVERRIDE = re.compile(r"\{[^}]*\}")
_ASS_FACE = re.compile(r"\\([ibu])([01])")  # {\i1}...{\i0} inside an override block
_MARKUP = re.compile(r"</?[a-zA-Z][^>]*>")
# mov_text's face style flags (3GPP TS 26.245 StyleRecord)
FACE_FLAGS = {"b": 1, "i": 2, "u": 4}
_FACE_TAG = re.compile(r"<(/?)([ibu])>", re.IGNORECASE)


@dataclass(frozen=True)
class SubtitlePlan:
    """What happens to one subtitle stream: copied (`convert_to` None) or converted."""

    source: av.subtitles.stream.SubtitleStream
    convert_to: str | None = None

    @property
    def codec(self) -> str:
        """The source stream's codec name."""
        return codec_name(self.source)

    def describe(self, language: str | None) -> str:
        """E.g. "subtitle 3 (fra) subrip copied" or "... subrip -> mov_text": the source
        stream's index and `language`, the one its copy holds."""
        how = "copied" if self.convert_to is None else f"-> {self.convert_to}"
        return f"subtitle {index_label(self.source.index, language)} {self.codec} {how}"


def codec_name(stream: av.stream.Stream) -> str:
    """A stream's codec name (a data stream's too: klv), or "unknown" when FFmpeg has no
    name for it."""
    cc = stream.codec_context
    if cc is not None:
        return cc.name
    name = getattr(stream, "name", None)
    return name if name and name != "none" else "unknown"


def plan_subtitles(streams: list[av.subtitles.stream.SubtitleStream], fmt: str, ext: str
                   ) -> tuple[list[SubtitlePlan], list[str]]:
    """How each subtitle stream goes into a `fmt` output, and a warning for each that
    cannot (bitmap subtitles outside Matroska, say)."""
    plans: list[SubtitlePlan] = []
    warnings: list[str] = []
    for s in streams:
        name = codec_name(s)
        if _can_copy(fmt, s):
            plans.append(SubtitlePlan(s))
        elif name in TEXT_CODECS and fmt in TEXT_FORMAT:
            plans.append(SubtitlePlan(s, TEXT_FORMAT[fmt]))
            if name in STYLED_CODECS:  # (said: trial V14 found it dropped without a word)
                warnings.append(f"subtitle stream {stream_label(s)} ({name}) becomes "
                                f"{TEXT_FORMAT[fmt]}: its style sheet (fonts, colours, "
                                f"positions) is not kept, italic, bold and underline are; "
                                f"write .mkv to keep it")
        else:
            kind = "text" if name in TEXT_CODECS else "picture"
            warnings.append(f"subtitle stream {stream_label(s)} ({name}, {kind} subtitles) "
                            f"left out: {ext} files cannot hold it; write .mkv to keep it")
    return plans, warnings


def _can_copy(fmt: str, stream: av.stream.Stream) -> bool:
    if stream.codec_context is None:
        return False
    try:
        with av.open(io.BytesIO(), mode="w", format=fmt) as trial:
            trial.add_stream_from_template(stream)
        return True
    except Exception:  # any refusal means: convert or leave out
        return False


def cue_text(codec: str, payload: bytes) -> str:
    """The plain text of one subtitle packet (lines joined by newlines)."""
    if codec == "mov_text":
        n = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 0
        return _tagged(payload[2:2 + n].decode("utf-8", "replace"),
                       _style_runs(payload[2 + n:]))
    text = payload.decode("utf-8", "replace")
    if codec in ("ass", "ssa"):
        # Matroska's ASS packets: ReadOrder, Layer, Style, Name, MarginL/R/V, Effect, Text
        fields = text.split(",", 8)
        text = fields[8] if len(fields) == 9 else text
        # italic, bold and underline kept as the tags SubRip and WebVTT cues use
        text = _ASS_OVERRIDE.sub(
            lambda m: "".join(f"<{'' if on == '1' else '/'}{face}>"
                              for face, on in _ASS_FACE.findall(m.group(0))), text)
        text = text.replace("\\N", "\n").replace("\\n", "\n")
        text = text.replace("\\h", " ")
    return text


def cue_payload(codec: str, text: str | list[str], style: tuple[int, int] | None = None
                ) -> bytes:
    """One packet of `codec` (mov_text, webvtt or subrip) holding `text`; for mov_text, its
    italic, bold and underlined runs as style records in the track's default font `style`
    (size, RGBA colour: `default_style`; None: markup left out). A list of texts (cues on
    screen together, for mov_text) is one below the other, each one's markup its own."""
    if isinstance(text, list) and codec != "mov_text":
        text = "\n".join(text)
    if codec == "mov_text":
        plain, runs = _stacked_faces(text if isinstance(text, list) else [text])
        data = plain.encode("utf-8")[:65535]
        box = _style_box(runs, style) if style is not None else b""
        return struct.pack(">H", len(data)) + data + box
    return text.encode("utf-8")


def _faces(text: str) -> tuple[str, list[tuple[int, int, int]]]:
    """A cue's text without markup, and its italic/bold/underlined runs: (first character,
    end character, face style flags), as mov_text's style records count them."""
    plain: list[str] = []
    runs: list[tuple[int, int, int]] = []
    flags, at, pos = 0, 0, 0
    for m in [*_FACE_TAG.finditer(text), None]:
        chunk = _MARKUP.sub("", text[pos:m.start() if m else len(text)])
        plain.append(chunk)
        if flags and chunk:
            runs.append((at, at + len(chunk), flags))
        at += len(chunk)
        if m is not None:
            bit = FACE_FLAGS[m.group(2).lower()]
            flags = flags & ~bit if m.group(1) else flags | bit
            pos = m.end()
    return "".join(plain), runs


def _stacked_faces(texts: list[str]) -> tuple[str, list[tuple[int, int, int]]]:
    """`_faces` of texts shown one below the other (joined by newlines), a face begun in
    one and never closed ending with it."""
    plain: list[str] = []
    runs: list[tuple[int, int, int]] = []
    at = 0
    for text in texts:
        p, r = _faces(text)
        plain.append(p)
        runs += [(a + at, b + at, flags) for a, b, flags in r]
        at += len(p) + 1
    return "\n".join(plain), runs


def _style_box(runs: list[tuple[int, int, int]], style: tuple[int, int]) -> bytes:
    """mov_text's 'styl' box for the runs (none: no box), in the font of `style`."""
    runs = [r for r in runs if r[1] <= 0xFFFF][:0xFFFF]
    if not runs:
        return b""
    size, colour = style
    records = b"".join(struct.pack(">HHHBBI", a, b, 1, flags, size, colour)
                       for a, b, flags in runs)
    return struct.pack(">I4sH", 10 + len(records), b"styl", len(runs)) + records


def default_style(sample_description: bytes | None) -> tuple[int, int]:
    """The default font size and RGBA colour of a mov_text track's sample description
    (FFmpeg's encoder writes the default ASS style's: 16, white)."""
    d = sample_description or b""
    if len(d) >= 30:
        return d[25], struct.unpack(">I", d[26:30])[0]
    return 16, 0xFFFFFFFF


@functools.cache
def default_ass_header() -> bytes:
    """FFmpeg's default ASS header (a SubRip decoder's), for the mov_text encoder."""
    dec = av.CodecContext.create("subrip", "r")
    dec.open()
    return bytes(dec.subtitle_header)


def _style_runs(boxes: bytes) -> list[tuple[int, int, int]]:
    """The italic/bold/underlined runs of a mov_text sample's 'styl' box (after its text)."""
    runs: list[tuple[int, int, int]] = []
    at = 0
    while at + 8 <= len(boxes):
        size, kind = struct.unpack(">I4s", boxes[at:at + 8])
        if size < 8 or at + size > len(boxes):
            break
        if kind == b"styl" and size >= 10:
            count = struct.unpack(">H", boxes[at + 8:at + 10])[0]
            for k in range(count):
                rec = boxes[at + 10 + 12 * k:at + 22 + 12 * k]
                if len(rec) < 12:
                    break
                a, b, _, flags, _, _ = struct.unpack(">HHHBBI", rec)
                if flags & 7 and b > a:
                    runs.append((a, b, flags & 7))
        at += size
    return runs


def _tagged(plain: str, runs: list[tuple[int, int, int]]) -> str:
    """`plain` with each run's faces as <i>, <b>, <u> tags (SubRip's and WebVTT's)."""
    if not runs:
        return plain
    opens: dict[int, list[str]] = {}
    closes: dict[int, list[str]] = {}
    for a, b, flags in runs:
        faces = [face for face, bit in FACE_FLAGS.items() if flags & bit]
        opens.setdefault(a, []).extend(f"<{f}>" for f in faces)
        closes.setdefault(b, []).extend(f"</{f}>" for f in reversed(faces))
    out = []
    for k in range(len(plain) + 1):
        out += closes.get(k, []) + opens.get(k, [])
        if k < len(plain):
            out.append(plain[k])
    return "".join(out)


class SubtitleTrack:
    """One subtitle stream of the output, fed with the source's packets (its tags and
    disposition are media/carry.py's).

    The output holds source times [`offset`, `end`) seconds: `offset` is subtracted from
    every timestamp; a cue that began before it but lasts into the range is kept,
    shortened, as is one that lasts past `end`; one that begins at or after `end` is
    dropped. A picture cue without a duration (PGS: shown until the next packet) still on
    screen at `offset` is kept from 0, unless it is a clear; `flush` writes it where no
    packet follows in the range.

    Packets wait until the video written reaches their end (`release`): a source cut
    short ends its picture before its cues, and `flush(end)` drops the cues that begin at
    or after the video's end and cuts the one that spans it.

    A mov_text track (MP4/MOV) shows one sample at a time: text cues converted into it that
    overlap (SubRip and ASS cues may) are split where each begins and ends, each span one
    sample holding the text of every cue on screen in it, the earlier cue's lines first, so
    that each cue's text shows for its whole time (the muxer would end a sample where the
    next begins).
    """

    def __init__(self, output: av.container.OutputContainer, plan: SubtitlePlan,
                 offset: float = 0.0, end: float | None = None) -> None:
        self.output = output
        self.plan = plan
        self.offset = offset
        self.end = end
        src = plan.source
        if plan.convert_to is None:
            self.stream = output.add_stream_from_template(src)
        elif plan.convert_to == "mov_text":
            # through FFmpeg's encoder, opened on its default ASS style, which writes the
            # track's sample description (its default style and font table: without them
            # QuickTime and Apple's players find no usable text track); packets are ours
            self.stream = output.add_stream("mov_text")
            self.stream.codec_context.subtitle_header = default_ass_header()
            self.stream.time_base = src.time_base or Fraction(1, 1000)
        else:
            self.stream = output.add_mux_stream(plan.convert_to,
                                                time_base=src.time_base or Fraction(1, 1000))
        if (plan.convert_to or plan.codec) == "mov_text":
            self.stream.time_base = mov_text_time_base(output, self.stream.time_base)
        self.index = self.stream.index  # (the stream is not to be read once `output` closes)
        self._held: av.Packet | None = None  # the last picture cue begun before the range
        self._written = False  # a packet of the range taken (muxed or waiting)
        # packets not muxed yet (packet, time base, pts, duration), in order
        self._waiting: deque[tuple[av.Packet, Fraction, int, int]] = deque()
        # mov_text cues not yet made into samples: [start, end, text] in `_cue_tb` ticks, in
        # the order they came; the samples are made up to `_settled`
        self._cues: list[tuple[int, int, str]] = []
        self._cue_tb: Fraction | None = None
        self._settled = 0

    def write(self, packet: av.Packet) -> None:
        """Mux one source packet (converted if the plan says), shifted by `offset` and cut
        to the range."""
        if packet.pts is None:
            return
        tb = packet.time_base
        pts, duration = packet.pts, packet.duration or 0
        shift = _ticks(self.offset, tb)
        pts -= shift
        if pts < 0 and not duration and self.plan.convert_to is None \
                and self.plan.codec not in TEXT_CODECS:
            self._held = packet  # on screen at the start unless a later one replaces it
            return
        if pts > 0:
            self._put_held()
        self._held = None
        if pts < 0:
            if pts + duration <= 0:
                return  # ended before the range
            pts, duration = 0, pts + duration
        if self.end is not None:
            last = _ticks(self.end, tb) - shift
            if pts >= last:
                return  # begins after the range
            # A packet without a duration (a PGS picture cue, say) shows until the next
            # one, dropped here if it falls after the end: cutting it would take a made-up
            # clearing packet; it does not lengthen the file.
            duration = min(duration, last - pts)
        if self.plan.convert_to is None:
            if not self._written and clears(self.plan.codec, bytes(packet)):
                return  # nothing on screen to clear
            out = packet
        else:
            text = cue_text(self.plan.codec, bytes(packet))
            if self.plan.convert_to == "mov_text":
                self._stack(text, tb, pts, duration)
                return
            out = av.Packet(cue_payload(self.plan.convert_to, text))
        self._put(out, tb, pts, duration)

    def _stack(self, text: str, tb: Fraction, pts: int, duration: int) -> None:
        """Take a cue for the mov_text track: its samples are made once no later cue can
        change them (`_settle`)."""
        if self._cue_tb is None:
            self._cue_tb = tb
        elif tb != self._cue_tb:
            pts, duration = round(pts * tb / self._cue_tb), round(duration * tb / self._cue_tb)
        tb = self._cue_tb
        if not duration:  # (no end: shown until the next sample, as the muxer writes it)
            self._settle(pts)
            self._put(self._sample([text]), tb, max(pts, self._settled), 0)
            return
        # a cue coming after samples past its start were made (out of order) shows from there
        start, end = max(pts, self._settled), pts + duration
        if end > start:
            self._cues.append((start, end, text))
        self._written = True
        self._settle(pts)

    def _settle(self, until: int | None) -> None:
        """Make the samples of the cues taken up to `until` (ticks; None: all of them), a
        sample for each span between two cue edges (a start or an end) where a cue is on
        screen; spans past the last edge by `until` wait, a cue to come could split them."""
        edges = sorted({t for c in self._cues for t in c[:2]
                        if t > self._settled and (until is None or t <= until)})
        tb = self._cue_tb
        at = self._settled
        for edge in edges:
            shown = [text for start, end, text in self._cues if start <= at < end]
            if shown and tb is not None:
                self._put(self._sample(shown), tb, at, edge - at)
            at = edge
        self._settled = at
        self._cues = [c for c in self._cues if c[1] > at]

    def _sample(self, texts: list[str]) -> av.Packet:
        """A mov_text sample showing `texts`, one below the other."""
        return av.Packet(cue_payload("mov_text", texts,
                                     default_style(self.stream.codec_context.extradata)))

    def release(self, until: Fraction) -> None:
        """Mux the waiting packets that end by `until` (seconds of the output: how far the
        video written reaches, which only grows); the others wait for `flush`."""
        if self._cue_tb is not None:
            self._settle(math.floor(until / self._cue_tb))
        while self._waiting:
            out, tb, pts, duration = self._waiting[0]
            if (pts + duration) * tb > until:
                return
            self._waiting.popleft()
            self._mux(out, tb, pts, duration)

    def flush(self, end: Fraction | None = None) -> None:
        """Write what waits: the picture cue on screen at the start of the range (begun
        before it), at 0, if no packet in the range has come; then the cues, those that
        begin at or after `end` (seconds of the output: where its video ends; None: no
        end) dropped, one that lasts past it cut there. Call it once the source's packets
        are in."""
        self._put_held()
        self._settle(None)
        while self._waiting:
            out, tb, pts, duration = self._waiting.popleft()
            if end is not None:
                last = _ticks(end, tb)
                if pts >= last:
                    continue
                duration = min(duration, last - pts)
            self._mux(out, tb, pts, duration)

    def _put_held(self) -> None:
        held, self._held = self._held, None
        if held is not None and not self._written and not clears(self.plan.codec, bytes(held)):
            self._put(held, held.time_base, 0, 0)

    def _put(self, out: av.Packet, tb: Fraction, pts: int, duration: int) -> None:
        self._waiting.append((out, tb, pts, duration))
        self._written = True

    def _mux(self, out: av.Packet, tb: Fraction, pts: int, duration: int) -> None:
        out.stream = self.stream
        out.time_base = tb
        out.pts = out.dts = pts
        out.duration = duration
        self.output.mux(out)


def clears(codec: str, payload: bytes) -> bool:
    """Whether a picture subtitle packet clears the screen: a PGS display set whose
    composition (PCS segment) holds no object. (Other codecs' packets count as shown.)"""
    if codec not in ("pgssub", "hdmv_pgs_subtitle"):  # the decoder's name, the codec's
        return False
    at = 0
    while at + 3 <= len(payload):
        kind, size = payload[at], int.from_bytes(payload[at + 1:at + 3], "big")
        if kind == 0x16 and size >= 11:  # PCS: ..., number of composition objects
            return payload[at + 13] == 0
        at += 3 + size
    return False


def mov_text_time_base(output: av.container.OutputContainer, time_base: Fraction | None
                       ) -> Fraction:
    """A time base for a mov_text track of an MP4/MOV `output`: `time_base` (1/1000 if
    None), or one that splits its ticks evenly, at least as fine as the muxer makes each
    track already in `output`.

    FFmpeg's muxer ends a cue with an empty sample once a packet of any track has a dts
    past the cue's end, comparing the numbers whatever their time bases: a video's
    (1/12800) or a sound's (1/48000) set it off right after a millisecond cue, and a copied
    track (which holds its own empty samples between cues) gained a zero-length one before
    each sample.
    """
    tb = time_base or Fraction(1, 1000)
    finest = tb.denominator
    for s in output.streams:
        if s.type == "audio":
            finest = max(finest, s.sample_rate or 0)  # an audio track counts in samples
        elif s.time_base is not None:
            den = s.time_base.denominator
            while s.type == "video" and den < 10000:  # as FFmpeg's mov muxer does
                den *= 2
            finest = max(finest, den)
    steps = -(-finest // tb.denominator)  # a whole number of new ticks to an old one
    return tb if steps == 1 and tb.numerator == 1 else Fraction(1, tb.denominator * steps)


def _ticks(seconds: float, tb: Fraction) -> int:
    """`seconds` in units of the time base `tb`, rounded."""
    return round(Fraction(seconds).limit_denominator(10**9) / tb)
