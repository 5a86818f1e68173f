"""Tags and chapters an export carries over: the container's title, comment, dates...; each
stream's language, title and disposition; the chapters, shifted and cut to the trim.

Tags that describe the old file rather than its content (its muxer and encoder, durations,
bit-rate statistics, MP4 brands) are left for the new file's muxer to write afresh.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import av

# lower-case tag names (or their part before "-", Matroska's "BPS-eng") not carried over
STALE_TAGS = frozenset({
    "encoder", "major_brand", "minor_version", "compatible_brands", "duration", "bps",
    "number_of_frames", "number_of_bytes", "vendor_id", "encoder_options",
})
# MP4 muxers' default handler names, which say nothing about the track
DEFAULT_HANDLERS = frozenset({"videohandler", "soundhandler", "subtitlehandler",
                              "core media video", "core media audio", "core media text"})
MP4_LIKE = ("mp4", "mov")


def _fresh(key: str, value: str) -> bool:
    k = key.lower()
    if k.startswith("_statistics") or k.split("-")[0] in STALE_TAGS:
        return False
    return not (k == "handler_name" and value.strip().lower() in DEFAULT_HANDLERS)


def container_tags(source: dict[str, str]) -> dict[str, str]:
    """The container tags worth carrying (title, artist, comment, creation time...)."""
    return {k: v for k, v in source.items() if _fresh(k, v)}


def stream_label(stream: av.stream.Stream) -> str:
    """E.g. "3 (fra)": the stream's index and language, for messages."""
    lang = stream.metadata.get("language")
    return f"{stream.index} ({lang})" if lang and lang != "und" else str(stream.index)


def copy_stream_tags(source: av.stream.Stream, target: av.stream.Stream, fmt: str) -> None:
    """A stream's language and title (and other content tags) onto its copy. MP4 and MOV
    players show the handler name as the track's name, so a title becomes that too."""
    tags = {k: v for k, v in source.metadata.items() if _fresh(k, v)}
    title = tags.get("title") or tags.get("name")
    if fmt in MP4_LIKE and title and "handler_name" not in tags:
        tags["handler_name"] = title
    target.metadata.update(tags)  # (PyAV: the dict is the stream's; it cannot be replaced)


def shifted_chapters(chapters: list[dict[str, Any]], start: float, end: float | None
                     ) -> list[dict[str, Any]]:
    """Chapters cut to [start, end) seconds and moved to begin at 0; empty ones dropped."""
    out = []
    for ch in chapters:
        tb = ch.get("time_base") or Fraction(1, 1000)
        a = max(float(ch["start"] * tb), start)
        b = float(ch["end"] * tb)
        if end is not None:
            b = min(b, end)
        if b <= a:
            continue
        out.append({"id": len(out) + 1, "start": round((a - start) / tb),
                    "end": round((b - start) / tb), "time_base": tb,
                    "metadata": dict(ch.get("metadata") or {})})
    return out
