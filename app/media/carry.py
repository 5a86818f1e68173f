"""What an export carries besides the painted picture and its sound, as `ffmpeg -map 0` would:
subtitles, attachments, container and stream tags, chapters; and one warning for each thing
the output cannot hold (a stream left out, bits of depth lost)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from .metadata import container_tags, shifted_chapters, stream_label
from .subtitles import codec_name, plan_subtitles
from .video_reader import VideoReader
from .video_writer import VideoWriter, bits_of, deep_format


class CarryOptions(Protocol):
    """The export options this module reads."""

    start: float
    end: float | None
    metadata: bool


@dataclass
class Carried:
    """The streams kept (for the summary) and the warnings for the ones left out."""

    kept: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def carry_streams(reader: VideoReader, writer: VideoWriter, dst: Path, opts: CarryOptions,
                  offset: float) -> Carried:
    """Add the source's other streams and tags to the writer (before its first frame);
    `offset` is the source time the output starts at."""
    out = Carried()
    ext = dst.suffix.lower() or writer.fmt
    plans, left_out = plan_subtitles(reader.subtitle_streams, writer.fmt, ext)
    for plan in plans:
        writer.add_subtitles(plan, offset)
        out.kept.append(plan.describe())
    out.warnings.extend(left_out)
    streams = reader.container.streams
    for s in streams.attachments:
        name = s.metadata.get("filename", f"stream {s.index}")
        if writer.fmt == "matroska":
            writer.add_attachment(s)
            out.kept.append(f"attachment {name} copied")
        else:
            out.warnings.append(f"attachment {name} left out: only .mkv files hold "
                                "attachments")
    others = [s for s in streams.video if s.index != reader.video.index] + list(streams.data)
    for s in others:
        out.warnings.append(f"{s.type} stream {stream_label(s)} ({codec_name(s)}) left out: "
                            "only the main video is painted")
    if opts.metadata:
        end = None if opts.end is None else reader.start_time + opts.end
        writer.set_tags(container_tags(reader.container.metadata),
                        shifted_chapters(reader.container.chapters(), offset, end),
                        reader.video)
    else:  # --no-metadata: no stream's language or title either
        for track in [*writer.audio, *writer.subtitles]:
            track.stream.metadata.clear()
    return out


def depth_warnings(reader: VideoReader, writer: VideoWriter, dst: Path) -> list[str]:
    """What the output loses of the source's bit depth, and how HDR was handled."""
    warnings = []
    bits = bits_of(writer.pix_fmt)
    name = writer.codec.name
    if reader.bit_depth > bits:
        if bits == 8:
            why = (f"this FFmpeg's {name} encoder is 8-bit only" if writer.codec.deep_pix_fmt
                   else f"{name} is written 8-bit")
            keep = [c for c in ("h265", "prores") if c != name]
            warnings.append(f"{reader.path.name} is {reader.bit_depth}-bit; {why}: use "
                            f"--codec {' or '.join(keep)} to keep 10 bits")
        else:
            warnings.append(f"{reader.path.name} is {reader.bit_depth}-bit; {name} keeps "
                            f"{bits} bits")
    hdr = reader.colour.hdr
    if hdr:
        warnings.append(f"{reader.path.name} is HDR ({hdr}, BT.2020): its tags are carried and "
                        "the painting works on its coded values (no tone mapping)"
                        + ("" if bits > 8 or deep_format(writer.codec) is None else
                           "; at 8 bits it bands: use --codec h265"))
    return warnings
