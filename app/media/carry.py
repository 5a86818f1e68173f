"""What an export carries besides the painted picture and its sound, as `ffmpeg -map 0` would:
subtitles, attachments, container and stream tags, chapters; and one warning for each thing
the output cannot hold (a stream left out, bits of depth lost). Used by the single-machine
export and by the cluster's join alike, on the output container before its first packet."""

from __future__ import annotations

import functools
import io
import math
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import numpy as np

from .hdr import writes_hdr10
from .metadata import (
    MP4_LIKE,
    TIMECODE,
    container_tags,
    copy_stream_tags,
    rescaled_timecode,
    shifted_chapters,
    shifted_timecode,
    stream_label,
    timecode_key,
    timecode_of,
    written_languages,
)
from .subtitles import SubtitleTrack, codec_name, plan_subtitles
from .video_reader import VideoReader, avif_parts, bits_of, cover_pictures
from .video_writer import CODECS, CONTAINERS, CodecSpec, deep_format, range_warning


@dataclass
class Carried:
    """The subtitle tracks made, the other streams kept (for the summary) and the warnings
    for the ones left out."""

    subtitles: list[SubtitleTrack] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # the chapters to write (output seconds), set on `output` by flush, once the video's
    # end is known: a source cut short ends before its chapters do
    chapters: list[dict[str, Any]] = field(default_factory=list)
    output: av.container.OutputContainer | None = None

    def streams(self, written: Path) -> list[str]:
        """The summary's words for the streams kept, each subtitle track with the language
        the `written` file holds for it (a .mov holds "fra" for "fre": see metadata.py)."""
        langs = written_languages(written)
        return [*(t.plan.describe(langs.get(t.index)) for t in self.subtitles), *self.kept]

    def write_subtitle(self, stream: int, packet: av.Packet) -> None:
        """Pass a packet of source subtitle stream number `stream` on."""
        if 0 <= stream < len(self.subtitles):
            self.subtitles[stream].write(packet)

    def advance(self, until: Fraction) -> None:
        """Mux the subtitle packets that end by `until`, seconds of the output the video
        written reaches (a frame's start: it only grows); later ones wait for `flush`."""
        for track in self.subtitles:
            track.release(until)

    def flush(self, end: Fraction | None = None) -> None:
        """Write what the subtitle tracks hold back and the chapters, both cut at `end`
        (seconds of the output: where its video ends, as a source cut short ends before its
        cues and chapters do; None: as planned); call it once the source's packets are in,
        before the output is closed (Matroska and MP4 write chapters set then; set before
        the header, Matroska's would be written there, uncut)."""
        for track in self.subtitles:
            track.flush(end)
        if self.chapters and self.output is not None:
            cut = self.chapters if end is None else shifted_chapters(self.chapters, 0.0,
                                                                     float(end))
            if cut:
                self.output.set_chapters(cut)


# why a transport stream's other channel is not in the output
ANOTHER_PROGRAM = "another program (channel)"


def carry_streams(reader: VideoReader, out: av.container.OutputContainer, video: av.stream.Stream,
                  audio: list[tuple[av.stream.Stream, av.stream.Stream]], ext: str, *,
                  offset: float = 0.0, end: float | None = None, metadata: bool = True,
                  fps: float | None = None) -> Carried:
    """Add the source's other streams and its tags to `out` (the painted `video` stream and
    the `audio` (source, output) pairs already in it). `ext` names the output's kind in
    messages; the output holds source times [offset, end) at frame rate `fps` (None: the
    source's); `metadata` False (--no-metadata) leaves every tag and chapter and the cover
    picture out."""
    fmt = out.format.name.split(",")[0]
    carried = Carried()
    plans, left_out = plan_subtitles(reader.subtitle_streams, fmt, ext)
    for plan in plans:
        carried.subtitles.append(SubtitleTrack(out, plan, offset, end))
    carried.warnings.extend(left_out)
    carried.warnings.extend(f"{s.type} stream {stream_label(s)} ({codec_name(s)}) left out: "
                            f"{ANOTHER_PROGRAM}" for s in reader.left_out_program)
    streams = reader.container.streams
    for s in streams.attachments:
        name = s.metadata.get("filename", f"stream {s.index}")
        if fmt == "matroska":
            out.add_stream_from_template(s)
            carried.kept.append(f"attachment {name} copied")
        else:
            carried.warnings.append(f"attachment {name} left out: only .mkv files hold "
                                    "attachments")
    covers = [s for s in cover_pictures(reader.container) if s.index != reader.video.index]
    if metadata:
        cover_packets = [p for s in covers
                         if (p := _carry_cover(reader, out, s, fmt, ext, carried))]
    else:  # a cover picture is the file's own, as its tags are
        cover_packets = []
        carried.warnings.extend(f"cover picture {stream_label(s)} ({codec_name(s)}) left out: "
                                "--no-metadata leaves it out" for s in covers)
    # (an animated AVIF's still items and alpha track are the animation's own parts: its
    # alpha is said by alpha_left_out)
    parts = {s.index for s in avif_parts(reader.container, reader.video)}
    others = [s for s in streams.video if s.index != reader.video.index
              and s.index not in {c.index for c in covers} | parts]
    # An MP4's chapter titles come as a text track the demuxer discards: the chapters
    # themselves are carried below, and the muxer writes that track afresh.
    chapter_track = av.stream.Discard.all if reader.container.chapters() else None
    others += [s for s in streams.data if s.discard != chapter_track]
    # A timecode track (a .mov's tmcd) is no stream to copy: the muxer writes one afresh
    # from the timecode tag carried below.
    timecode_tracks = [s for s in others if s.type == "data" and timecode_of(s.metadata)]
    for s in others:
        if s not in timecode_tracks:
            # a second video is not painted; a data stream (a drone's KLV) is not copied,
            # and only .mov files take one at all
            why = (ANOTHER_PROGRAM if s.index in reader.other_program else
                   "only the main video is painted" if s.type == "video" else
                   "data streams are not copied" if fmt == "mov" else
                   f"{ext} files cannot carry it")
            carried.warnings.append(f"{s.type} stream {stream_label(s)} ({codec_name(s)}) "
                                    f"left out: {why}")
    tagged = [(reader.video, video), *audio,
              *((t.plan.source, t.stream) for t in carried.subtitles)]
    timecode = None
    if metadata:
        tags = container_tags(reader.container.metadata)
        out.metadata.update(tags)
        if metadata_keys(fmt, tuple(sorted(tags.items()))):
            # a phone's place, make and model (Apple's com.apple.quicktime.* keys) and any
            # other tag outside iTunes' list are kept as QuickTime metadata keys, as phones
            # write them (the muxer then writes every file tag so, the title among them)
            flags = out.container_options.get("movflags", "")
            out.container_options["movflags"] = f"{flags}+use_metadata_tags"
        carried.warnings.extend(tag_warnings(tags, fmt, ext))
        carried.chapters = shifted_chapters(reader.container.chapters(), offset, end)
        carried.output = out
        for source, target in tagged:
            carried.warnings.extend(copy_stream_tags(source, target, fmt))
        timecode = _carry_timecode(reader, out, video, fmt, offset, timecode_tracks, fps,
                                   carried.warnings)
        if timecode:
            carried.kept.append(f"timecode {timecode} kept")
    else:  # --no-metadata: no stream's language or title either
        for _, target in tagged:
            target.metadata.clear()
    if timecode is None:
        why = f"{ext} files cannot hold it" if metadata else "--no-metadata leaves it out"
        carried.warnings.extend(f"{s.type} stream {stream_label(s)} (timecode "
                                f"{timecode_of(s.metadata)}) left out: {why}"
                                for s in timecode_tracks)
    for source, target in tagged:  # the painted video's too (Matroska's FlagDefault...)
        target.disposition = av.stream.Disposition(track_flags(source))
    carried.warnings.extend(disposition_warnings([s for s, _ in tagged], fmt, ext))
    for packet in cover_packets:  # the first packet writes the header: tags come before
        out.mux(packet)
    return carried


def _carry_timecode(reader: VideoReader, out: av.container.OutputContainer,
                    video: av.stream.Stream, fmt: str, offset: float,
                    tracks: list[av.stream.Stream], out_fps: float | None,
                    warnings: list[str]) -> str | None:
    """Set the output's timecode: the source video's or container's tag (a timecode track's
    when neither has one), moved on by the frames a --start cut (a timecode names the first
    frame) and counted at the output rate `out_fps` (a warning in `warnings` where its frame
    field or drop-frame flag could not stay exact). Returns the timecode the output holds,
    None for none."""
    if tracks and not timecode_of(video.metadata) and not timecode_of(out.metadata):
        video.metadata["timecode"] = timecode_of(tracks[0].metadata) or ""
    fps = reader.fps
    skipped = max(0.0, offset - reader.start_time)
    rate = round(fps or 0)
    new_rate = round(out_fps) if out_fps else rate
    held = []
    for tags in (video.metadata, out.metadata):
        key = timecode_key(tags)
        if key is None:
            continue
        if out_fps:
            # the new rate's frames start at the cut itself: the frame of the new rate at the
            # source's timecode moved on by the source's frames from its start to the cut
            frames = Fraction(skipped).limit_denominator(10**6) * Fraction(
                fps or 0).limit_denominator(1001)
            label, exact = rescaled_timecode(tags[key], rate, new_rate, frames) \
                or (tags[key], True)
            why = [*([] if exact else ["the frame nearest its time"]),
                   *([] if label[8] == tags[key][8] else
                     ["not drop-frame (only multiples of 30 fps drop frames)"])]
            moved = f" ({skipped:g} s on)" if skipped else ""
            note = (f"timecode {tags[key]} at {fps:g} fps{moved} written as {label} at "
                    f"{float(out_fps):g} fps: {', '.join(why)}")
            if why and note not in warnings:
                warnings.append(note)
            tags[key] = label
        else:
            # the first frame the walk keeps: the first at or after the cut
            frames = math.ceil(round(skipped * fps, 6)) if fps and skipped > 0 else 0
            tags[key] = shifted_timecode(tags[key], frames, rate) or tags[key]
        held.append(tags[key])
    if not held or fmt not in MP4_LIKE:  # Matroska keeps each as a tag
        return held[0] if held else None
    # a .mov or .mp4 writes one timecode track, from the container's tag where there is one,
    # and none from a tag that is no timecode
    return held[-1] if TIMECODE.fullmatch(held[-1].strip()) else None


_D = av.stream.Disposition
# FFmpeg's dispositions that say what a track is for, by the words a warning names them with;
# the others say how a stream is coded or stored (a cover picture, thumbnails, a dependent or
# multilayer stream) and are not the painted or copied track's to keep
TRACK_FLAGS = {_D.default: "default", _D.dub: "dub", _D.original: "original",
               _D.comment: "commentary", _D.lyrics: "lyrics", _D.karaoke: "karaoke",
               _D.forced: "forced", _D.hearing_impaired: "hearing-impaired",
               _D.visual_impaired: "visual-impaired", _D.clean_effects: "clean-effects",
               _D.non_diegetic: "non-diegetic", _D.captions: "captions",
               _D.descriptions: "descriptions", _D.metadata: "metadata",
               _D.still_image: "still-image"}
TRACK_MASK = functools.reduce(lambda a, b: a | int(b), TRACK_FLAGS, 0)
# The outputs a warning suggests for flags its own format drops (the two that hold the most)
KEEPERS = (("mp4", ".mp4"), ("matroska", ".mkv"))
# Flags an MP4 holds as one 'kind' box, which FFmpeg reads back as both: 'caption' as
# hearing-impaired and captions, 'description' as visual-impaired and descriptions. Where an
# output keeps one of a pair (Matroska's FlagHearingImpaired) the kind is kept.
SAME_KIND = ((int(_D.hearing_impaired), int(_D.captions)),
             (int(_D.visual_impaired), int(_D.descriptions)))


def lost_flags(wanted: int, kept: int) -> int:
    """The flags of `wanted` an output that keeps `kept` of them loses: a flag of a
    SAME_KIND pair is not lost where the other, which the source has too, is kept."""
    lost = wanted & ~kept
    for a, b in SAME_KIND:
        if wanted & a and wanted & b and kept & (a | b):
            lost &= ~(a | b)
    return lost


def track_flags(stream: av.stream.Stream) -> int:
    """The flags of a stream that an output track keeps (TRACK_FLAGS), as an int."""
    return int(stream.disposition) & TRACK_MASK


def tag_warnings(tags: dict[str, str], fmt: str, ext: str) -> list[str]:
    """One line naming the file tags a `fmt` file cannot hold (see kept_tags), and the kind
    of file that keeps them all."""
    items = tuple(sorted(tags.items()))
    lost = sorted(set(tags) - kept_tags(fmt, items), key=str.lower)
    if not lost:
        return []
    it = "them" if len(lost) > 1 else "it"
    keep = [e for f, e in KEEPERS if f != fmt and kept_tags(f, items) == frozenset(tags)]
    advice = f"; write {' or '.join(keep)} to keep {it}" if keep else ""
    return [f"tag{'s' if len(lost) > 1 else ''} {', '.join(lost)} left out: {ext} files "
            f"cannot hold {it}{advice}"]


def disposition_warnings(sources: list[av.stream.Stream], fmt: str, ext: str) -> list[str]:
    """What the output's muxer does to the kept tracks' flags (the painted video's among
    them): one line a track naming each flag it cannot hold (a WebM keeps default and forced
    only, a MOV default only: see kept_flags); and in an MP4 or MOV, with none of a kind marked
    default, its muxer marks the first one (shown unasked: a forced subtitle track meant for
    foreign lines only)."""
    out = []
    if fmt in MP4_LIKE:
        default = av.stream.Disposition.default
        for kind in ("audio", "subtitle"):
            tracks = [s for s in sources if s.type == kind]
            if tracks and not any(s.disposition & default for s in tracks):
                out.append(f"{kind} {stream_label(tracks[0])} marked default: {ext} files "
                           f"mark the first {kind} track so when the source marks none")
    for s in sources:
        wanted = track_flags(s)
        lost = wanted and lost_flags(wanted, kept_flags(fmt, s.type, wanted))
        if not lost:
            continue
        names = [word for flag, word in TRACK_FLAGS.items() if lost & flag]
        one = len(names) == 1
        what = names[0] if one else f"{', '.join(names[:-1])} and {names[-1]}"
        it = "it" if one else "them"
        keep = [e for f, e in KEEPERS
                if f != fmt and not lost & lost_flags(wanted, kept_flags(f, s.type, wanted))]
        advice = f"; write {' or '.join(keep)} to keep {it}" if keep else ""
        out.append(f"{s.type} {stream_label(s)} loses its {what} flag{'' if one else 's'}: "
                   f"{ext} files cannot hold {it}{advice}")
    return out


# Per output format and track kind: the encoder (or, for subtitles, the codec and one packet's
# bytes) of the trial track kept_flags writes
_TRIAL_AUDIO = {"webm": "libopus"}
_TRIAL_VIDEO = {"webm": "libvpx"}
_TRIAL_TEXT = {"matroska": ("subrip", b"hi"), "webm": ("webvtt", b"hi"),
               **dict.fromkeys(("mp4", "ipod", "mov"), ("mov_text", b"\0\2hi"))}


@functools.lru_cache(maxsize=256)
def kept_flags(fmt: str, kind: str, flags: int) -> int:
    """Which of `flags` (dispositions) a `fmt` file keeps on a track of `kind`: a tiny file
    with one such track is written in memory and read back, since each muxer has its own
    rules (Matroska writes FlagDefault, FlagForced, FlagCommentary, FlagOriginal,
    FlagHearingImpaired and FlagVisualImpaired, WebM the first two only, MP4 'kind' boxes,
    MOV only the enabled flag for default). All of them where no such file can be made."""
    back = _written_back(fmt, kind, flags, ())
    return flags if back is None else back[0] & flags


@functools.lru_cache(maxsize=64)
def kept_tags(fmt: str, tags: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """Which of the file tags `tags` (name, value) a `fmt` file keeps (under its own
    spelling: Matroska's DATE is an MP4's date), found as kept_flags finds flags: MP4 and
    MOV write the tags iTunes knows (title, date, comment, copyright...) in iTunes' list,
    and where that drops some (a phone's com.apple.quicktime.location.ISO6709,
    DATE_RECORDED, a tag of one's own) every tag as a QuickTime metadata key
    (metadata_keys); a creation_time that is no time is dropped. All of them where no such
    file can be made."""
    names = frozenset(k for k, _ in tags)
    back = _written_back(fmt, "video", 0, tags, keys=metadata_keys(fmt, tags))
    if back is None:
        return names
    written = {k.lower() for k in back[1]}
    return frozenset(k for k in names if k.lower() in written)


@functools.lru_cache(maxsize=64)
def metadata_keys(fmt: str, tags: tuple[tuple[str, str], ...]) -> bool:
    """Whether a `fmt` file keeps more of the file tags `tags` written as QuickTime
    metadata keys (an MP4's or MOV's mdta list: FFmpeg's movflags use_metadata_tags) than in
    iTunes' list, which holds only the tags it names."""
    if fmt not in MP4_LIKE or not tags:
        return False
    listed, keyed = (_written_back(fmt, "video", 0, tags, keys=k) for k in (False, True))
    if listed is None or keyed is None:
        return False
    return len({k.lower() for k in keyed[1]} - {k.lower() for k in listed[1]}) > 0


def _written_back(fmt: str, kind: str, flags: int, tags: tuple[tuple[str, str], ...],
                  keys: bool = False) -> tuple[int, dict[str, str]] | None:
    """A tiny `fmt` file with one track of `kind` flagged `flags` and the file tags `tags`
    (as QuickTime metadata keys where `keys`), written in memory and read back: (the
    track's flags, the file's tags); None where no such file can be made."""
    buf = io.BytesIO()
    options = {"movflags": "+use_metadata_tags"} if keys else {}
    try:
        with av.open(buf, "w", format=fmt, container_options=options) as out:
            out.metadata.update(dict(tags))
            if kind == "subtitle":
                codec, data = _TRIAL_TEXT[fmt]
                s = out.add_mux_stream(codec, time_base=Fraction(1, 1000))
                s.disposition = av.stream.Disposition(flags)
                packet = av.Packet(data)
                packet.stream, packet.time_base = s, Fraction(1, 1000)
                packet.pts, packet.dts, packet.duration = 0, 0, 500
                packets = [packet]
            elif kind == "audio":
                s = out.add_stream(_TRIAL_AUDIO.get(fmt, "aac"), rate=48000, layout="mono")
                s.disposition = av.stream.Disposition(flags)
                frame = av.AudioFrame.from_ndarray(np.zeros((1, 960), np.float32),
                                                   format="fltp", layout="mono")
                frame.sample_rate, frame.pts = 48000, 0
                packets = [*s.encode(frame), *s.encode(None)]
            elif kind == "video":
                s = out.add_stream(_TRIAL_VIDEO.get(fmt, "mpeg4"), rate=25)
                s.width, s.height, s.pix_fmt = 16, 16, "yuv420p"
                s.disposition = av.stream.Disposition(flags)
                frame = av.VideoFrame(16, 16, "yuv420p")
                frame.pts = 0
                packets = [*s.encode(frame), *s.encode(None)]
            else:
                return None
            for packet in packets:
                out.mux(packet)
        buf.seek(0)
        with av.open(buf) as back:
            return int(back.streams[0].disposition), dict(back.metadata)
    except Exception:  # (KeyError: no trial for this format) no telling: no warning
        return None


# The pictures a Matroska file holds as cover art (an attachment of this MIME type)
COVER_TYPES = {"mjpeg": ("image/jpeg", "jpg"), "png": ("image/png", "png")}


def _carry_cover(reader: VideoReader, out: av.container.OutputContainer,
                 source: av.stream.Stream, fmt: str, ext: str, carried: Carried
                 ) -> av.Packet | None:
    """Copy a cover picture (an attached picture stream): MP4 holds it as a picture stream
    (its packet returned, to mux once every stream is added), Matroska as an image
    attachment; elsewhere it is named in a warning."""
    codec = codec_name(source)
    what = f"cover picture {stream_label(source)} ({codec})"
    if fmt not in ("mp4", "matroska") or (fmt == "matroska" and codec not in COVER_TYPES):
        carried.warnings.append(f"{what} left out: {ext} files cannot hold it; write .mp4 "
                                "or .mkv to keep it")
        return None
    data = _picture_data(reader.path, source.index)
    if data is None:
        carried.warnings.append(f"{what} left out: it could not be read")
        return None
    carried.kept.append(f"{what} copied")
    if fmt == "matroska":
        mime, suffix = COVER_TYPES[codec]
        out.add_attachment(source.metadata.get("filename") or f"cover.{suffix}", mime, data)
        return None
    target = out.add_stream_from_template(source)
    target.disposition = source.disposition
    packet = av.Packet(data)
    packet.stream = target
    packet.is_keyframe = True
    return packet


def _picture_data(path: Path, index: int) -> bytes | None:
    """The bytes of an attached picture stream (its one packet), read apart from the walk."""
    try:
        with av.open(str(path)) as c:
            for packet in c.demux(c.streams[index]):
                if packet.size:
                    return bytes(packet)
    except (av.error.FFmpegError, OSError, IndexError):
        pass
    return None


# chroma samples a pixel, across and down, by the words that name them
CHROMA_NAMES = {(1, 1): "4:4:4", (Fraction(1, 2), 1): "4:2:2",
                (Fraction(1, 2), Fraction(1, 2)): "4:2:0", (1, Fraction(1, 2)): "4:4:0",
                (Fraction(1, 4), 1): "4:1:1", (Fraction(1, 4), Fraction(1, 4)): "4:1:0"}


def chroma_of(pix_fmt: str | None) -> tuple[Fraction, Fraction] | None:
    """The colour resolution of a pixel format: chroma samples a pixel across and down (1, 1
    for RGB, a palette or 4:4:4); None without colour (grey) or where unknown."""
    try:
        fmt = av.VideoFormat(pix_fmt or "")
    except (ValueError, TypeError):
        return None
    if fmt.is_rgb or fmt.name.startswith("pal"):
        return Fraction(1), Fraction(1)
    if sum(not c.is_alpha for c in fmt.components) < 3:  # (is_chroma is a shift, not a flag)
        return None
    return Fraction(fmt.chroma_width(1024), 1024), Fraction(fmt.chroma_height(1024), 1024)


# What Aquarelle writes where the encoder could keep more (libx265 takes 12-bit and 4:4:4,
# Rext): the profile players decode, by --codec
CHOSEN_PROFILE = {("h265", 8): "4:2:0 (Main)", ("h265", 10): "4:2:0 (Main 10)"}


def chroma_warning(reader: VideoReader, pix_fmt: str, codec: CodecSpec) -> str | None:
    """A line where the output (`pix_fmt` of `codec`) keeps less of the colour resolution
    than a YUV source has (4:4:4 or 4:2:2 written 4:2:0); None where it keeps it. Pictures
    (RGB, a palette: an APNG, a GIF, an image sequence) are not named: every video from
    them is subsampled, as their users expect."""
    fmt_name = reader.video.codec_context.pix_fmt
    source, out = chroma_of(fmt_name), chroma_of(pix_fmt)
    if source is None or out is None or (out[0] >= source[0] and out[1] >= source[1]):
        return None
    fmt = av.VideoFormat(fmt_name)
    if fmt.is_rgb or fmt.name.startswith("pal"):
        return None
    shares = [(axis, a / b) for axis, a, b in (("width", out[0], source[0]),
                                               ("height", out[1], source[1])) if a < b]
    word = {Fraction(1, 2): "half", Fraction(1, 4): "a quarter of"}
    if len({share for _, share in shares}) == 1:
        less = f"{word.get(shares[0][1], 'part of')} the {' and '.join(a for a, _ in shares)}"
    else:
        less = " and ".join(f"{word.get(share, 'part of')} the {a}" for a, share in shares)
    written = CHROMA_NAMES.get(out, pix_fmt)
    if (profile := CHOSEN_PROFILE.get((codec.name, bits_of(pix_fmt)))) and out == (0.5, 0.5):
        written = f"{profile} for players"  # a choice, not a limit (depth: its own line)
    return (f"{reader.path.name} has {CHROMA_NAMES.get(source, fmt.name)} colour; "
            f"{codec.name} is written {written}, its colour at {less}")


def elsewhere(codecs: list[str], fmt: str | None) -> str:
    """" in a .mkv, .mov or .mp4" where no codec of `codecs` goes into a `fmt` file (a
    .m4v holds H.264 only), naming the files the first one goes into; else ""."""
    if fmt is None or any(fmt in CODECS[c].containers for c in codecs):
        return ""
    files = sorted(e for e, f in CONTAINERS.items() if f in CODECS[codecs[0]].containers)
    return f" in a {', '.join(files[:-1])} or {files[-1]}" if len(files) > 1 else \
        f" in a {files[0]}"


def depth_warnings(reader: VideoReader, pix_fmt: str, codec: CodecSpec,
                   encoder: str | None = None, fmt: str | None = None) -> list[str]:
    """What the output (`pix_fmt` of `codec`, by `encoder`: the codec's own unless named;
    in container `fmt`, if known) loses of the source's colour resolution, range and bit
    depth, and how HDR was handled."""
    chroma = chroma_warning(reader, pix_fmt, codec)
    warnings = [] if chroma is None else [chroma]
    squeezed = range_warning(reader.path.name, reader.colour, codec, encoder or codec.encoder)
    if squeezed is not None:
        warnings.append(squeezed)
    bits = bits_of(pix_fmt)
    name = codec.name
    if reader.bit_depth > bits:
        if bits == 8:
            why = (f"this FFmpeg's {name} encoder is 8-bit only" if codec.deep_pix_fmt
                   else f"{name} is written 8-bit")
            keep = [c for c in ("h265", "prores") if c != name]
            warnings.append(f"{reader.path.name} is {reader.bit_depth}-bit; {why}: use "
                            f"--codec {' or '.join(keep)}{elsewhere(keep, fmt)} to keep "
                            "10 bits")
        elif (name, bits) in CHOSEN_PROFILE:  # (the encoder takes more: 12 bits, 4:4:4)
            warnings.append(f"{reader.path.name} is {reader.bit_depth}-bit; {name} is "
                            f"written {bits}-bit {CHOSEN_PROFILE[name, bits]} for players")
        else:
            warnings.append(f"{reader.path.name} is {reader.bit_depth}-bit; {name} keeps "
                            f"{bits} bits")
    colour = reader.colour
    if colour.hdr:
        carried = "its tags are carried and"
        if colour.hdr10:
            what, encoder = colour.hdr10.describe(), encoder or codec.encoder
            how = "--encoder software" if codec.name == "h265" else \
                f"--codec h265{elsewhere(['h265'], fmt)}"
            tags = "its tags," if " and " in what else "its tags and"
            carried = (f"{tags} {what} are carried and" if writes_hdr10(encoder) else
                       f"its tags are carried, its {what} left out ({encoder} cannot write "
                       f"them: use {how} to keep them);")
        warnings.append(f"{reader.path.name} is HDR ({colour.hdr}, BT.2020): {carried} the "
                        "painting works on its coded values (no tone mapping)"
                        + ("" if bits > 8 or deep_format(codec) is None else
                           f"; at 8 bits it bands: use --codec h265{elsewhere(['h265'], fmt)}"))
    return warnings
