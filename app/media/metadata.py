"""Tags and chapters an export carries over: the container's title, comment, dates...; each
stream's language, title and disposition; the chapters, shifted and cut to the trim.

Tags that describe the old file rather than its content (its muxer and encoder, durations,
bit-rate statistics, MP4 brands) are left for the new file's muxer to write afresh.
"""

from __future__ import annotations

import functools
import io
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import numpy as np

# lower-case tag names (or their part before "-", Matroska's "BPS-eng") not carried over;
# "alpha_mode" (a VP8/VP9 WebM's ALPHA_MODE) says the old stream coded an alpha channel, and
# FFmpeg's Matroska muxer would write it as the painted stream's AlphaMode, which has none
STALE_TAGS = frozenset({
    "encoder", "major_brand", "minor_version", "compatible_brands", "duration", "bps",
    "number_of_frames", "number_of_bytes", "vendor_id", "encoder_options", "alpha_mode",
})
# MP4 muxers' default handler names, which say nothing about the track
DEFAULT_HANDLERS = frozenset({"videohandler", "soundhandler", "subtitlehandler",
                              "core media video", "core media audio", "core media text"})
MP4_LIKE = ("mp4", "ipod", "mov")  # (ipod: a .m4v's muxer)
MP4_EXT = {"mp4": ".mp4", "ipod": ".m4v", "mov": ".mov"}
# what an MP4's track holds of its tags (the rest the muxers drop); a track's creation time
# and timecode are the file's and the timecode track's (kept, or said, with those)
MP4_TRACK_TAGS = frozenset({"language", "title", "handler_name", "creation_time", "timecode"})


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
    return index_label(stream.index, stream.metadata.get("language"))


def index_label(index: int, lang: str | None) -> str:
    """E.g. "3 (fra)": a stream's index and language `lang` (left out when unknown)."""
    return f"{index} ({lang})" if lang and lang != "und" else str(index)


def written_languages(path: Path) -> dict[int, str | None]:
    """The language each stream of a written file holds, by stream index (a .mov holds
    "fra" where its source said "fre"); empty when the file cannot be read."""
    try:
        with av.open(str(path)) as c:  # (QuickTime's "hr " read back without its space)
            return {s.index: (s.metadata.get("language") or "").strip() or None
                    for s in c.streams}
    except (av.error.FFmpegError, OSError):
        return {}


def copy_stream_tags(source: av.stream.Stream, target: av.stream.Stream, fmt: str
                     ) -> list[str]:
    """A stream's language and title (and other content tags) onto its copy. MP4 and MOV
    players show the handler name as the track's name, so a title becomes that too. Returns
    the warnings: a language that cannot be written (a .mov's table lacks it), tags an MP4's
    track cannot hold."""
    tags = {k: v for k, v in source.metadata.items() if _fresh(k, v)}
    # FFmpeg reads an MP4 track's title as "name" (its udta box), and some files name the
    # track by its handler only; the muxers write a track's title from "title" alone
    # (Matroska's TrackName, MP4's udta name), so it is given that key.
    lower = {k.lower(): k for k in tags}  # Matroska's own tags come upper-case ("NAME")
    name = tags.pop(lower["name"]) if "name" in lower else None
    title = tags.get("title") or name or tags.get(lower.get("handler_name", ""))
    if title:
        tags["title"] = title
    if fmt in MP4_LIKE and title and "handler_name" not in lower:
        tags["handler_name"] = title
    warnings = []
    lang = tags.get("language")
    if fmt == "mov" and lang and lang != "und":
        kept = mov_language(lang)
        if kept is None:
            del tags["language"]
            warnings.append(f"{source.type} stream {stream_label(source)}: a .mov cannot hold "
                            f"the language {lang} (QuickTime's table lacks it); .mp4 and .mkv "
                            "keep it")
        else:
            tags["language"] = kept
    left = sorted(k for k in tags if k.lower() not in MP4_TRACK_TAGS) \
        if fmt in MP4_LIKE else []
    if left:  # (said: trial V14 found a track's own tags dropped without a word)
        warnings.append(f"{source.type} stream {stream_label(source)}: its tags "
                        f"{', '.join(left)} left out: {MP4_EXT[fmt]} tracks hold a language "
                        "and a name only; .mkv keeps them")
    target.metadata.update(tags)  # (PyAV: the dict is the stream's; it cannot be replaced)
    return warnings


# ISO 639-2 names 20 languages twice, bibliographic and terminological ("fre" and "fra").
# A .mov writes languages through QuickTime's table, which knows one of the two for most of
# them and drops a tag it does not know: the other one is written instead.
ISO639_PAIRS = {"alb": "sqi", "arm": "hye", "baq": "eus", "bur": "mya", "chi": "zho",
                "cze": "ces", "dut": "nld", "fre": "fra", "geo": "kat", "ger": "deu",
                "gre": "ell", "ice": "isl", "mac": "mkd", "mao": "mri", "may": "msa",
                "per": "fas", "rum": "ron", "slo": "slk", "tib": "bod", "wel": "cym"}
_OTHER_CODE = {**ISO639_PAIRS, **{t: b for b, t in ISO639_PAIRS.items()}}
# ... and spells five languages its own way (FFmpeg's copy of QuickTime's table): Swedish and
# Croatian were dropped from a .mov "because QuickTime's table lacks" them (trial V14)
QUICKTIME_SPELLING = {"swe": "sve", "hrv": "hr ", "fao": "fo ", "srp": "sr ", "pan": "pa "}


def mov_language(code: str) -> str | None:
    """The language code a .mov keeps for `code` (itself, the other ISO 639-2 code of the
    same language, or QuickTime's own spelling of it), or None when it keeps none."""
    for c in (code, _OTHER_CODE.get(code), QUICKTIME_SPELLING.get(code)):
        if c is not None and _mov_keeps(c):
            return c
    return None


@functools.lru_cache(maxsize=64)
def _mov_keeps(code: str) -> bool:
    """Whether FFmpeg's .mov muxer writes `code` (a tiny file made in memory and read)."""
    buf = io.BytesIO()
    with av.open(buf, "w", format="mov") as out:
        s = out.add_stream("aac", rate=8000, layout="mono")
        s.metadata["language"] = code
        frame = av.AudioFrame.from_ndarray(np.zeros((1, 1024), np.float32), format="fltp",
                                           layout="mono")
        frame.sample_rate, frame.pts, frame.time_base = 8000, 0, Fraction(1, 8000)
        for packet in [*s.encode(frame), *s.encode(None)]:
            out.mux(packet)
    buf.seek(0)
    with av.open(buf, "r", format="mov") as back:
        return back.streams.audio[0].metadata.get("language") == code


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


# SMPTE timecodes as FFmpeg writes them: HH:MM:SS:FF, drop-frame HH:MM:SS;FF
TIMECODE = re.compile(r"(\d{1,2}):(\d\d):(\d\d)([:;.,])(\d{2,3})")


def timecode_key(tags: dict[str, str]) -> str | None:
    """The key of a timecode tag ("timecode", Matroska's "TIMECODE"), if the tags have one."""
    return next((k for k in tags if k.lower() == "timecode"), None)


def timecode_of(tags: dict[str, str]) -> str | None:
    """The timecode tag's value, if the tags have one."""
    key = timecode_key(tags)
    return None if key is None else tags[key]


def _drop(sep: str, rate: int) -> int:
    """Frame numbers a drop-frame count skips at most minutes' start (2 at 29.97 fps, 4 at
    59.94); 0 for a timecode that drops none (only multiples of 30 fps drop frames)."""
    return rate // 15 if sep in ";," and rate % 30 == 0 else 0


def _frame_number(timecode: str, rate: int) -> tuple[int, str, int] | None:
    """The frame a timecode names, counted from 00:00:00:00 at `rate` frames a timecode
    second (drop-frame labels skipped as a player skips them), its separator and the width
    of its frame field; None when it is no timecode."""
    m = TIMECODE.fullmatch(timecode.strip())
    if m is None or rate < 1:
        return None
    hours, minutes, seconds, sep, ff = m.groups()
    drop = _drop(sep, rate)
    total_minutes = int(hours) * 60 + int(minutes)
    number = ((total_minutes * 60 + int(seconds)) * rate + int(ff)
              - drop * (total_minutes - total_minutes // 10))
    return number, sep, len(ff)


def _label(number: int, rate: int, sep: str, width: int) -> str:
    """The timecode of frame `number` at `rate` (drop-frame where `sep` says so)."""
    drop = _drop(sep, rate)
    if drop:  # FFmpeg's av_timecode_adjust_ntsc_framenum2
        per_10 = rate * 600 - 9 * drop
        tens, rest = divmod(number, per_10)
        number += 9 * drop * tens + drop * max(0, (rest - drop) // (per_10 // 10))
    seconds_total, ff_out = divmod(number, rate)
    h, rest_s = divmod(seconds_total, 3600)
    return f"{h % 24:02d}:{rest_s // 60:02d}:{rest_s % 60:02d}{sep}{ff_out:0{width}d}"


def shifted_timecode(timecode: str, frames: int, rate: int) -> str | None:
    """`timecode` `frames` frames on at `rate` frames a timecode second (30 for 29.97 fps;
    drop-frame, its ";" kept, skips frame numbers 0 and 1 of most minutes as a player
    counts them); None when it is no timecode."""
    found = _frame_number(timecode, rate)
    if found is None:
        return None
    number, sep, width = found
    return _label(number + frames, rate, sep, width)


def _label_rate(rate: int, sep: str) -> Fraction:
    """Frames a second of a timecode's clock: a drop-frame count's are NTSC's (30000/1001
    for 30), whose labels keep to the clock by the numbers they skip."""
    return Fraction(rate * 1000, 1001) if _drop(sep, rate) else Fraction(rate)


def rescaled_timecode(timecode: str, rate: int, new_rate: int, frames: Fraction = Fraction(0)
                      ) -> tuple[str, bool] | None:
    """`timecode` (at `rate` frames a timecode second), moved on by `frames` of its own
    (a --start cut's, a fraction where the cut falls between them), at `new_rate`: the
    frame of the new rate nearest the same time, and whether it is that time exactly. The
    time goes through the clock (a drop-frame label's time is its frames at 29.97 fps,
    which count the labels it skips; 00:00:59;28 at 29.97 fps and 1 s on is 00:01:01:00 at
    25). A drop-frame ";" is kept only where the new rate drops frames (a multiple of 30),
    as FFmpeg's av_timecode takes it; None when it is no timecode."""
    found = _frame_number(timecode, rate)
    if found is None or new_rate < 1:
        return None
    number, sep, width = found
    new_sep = sep if sep not in ";," or new_rate % 30 == 0 else ":"
    seconds = (number + frames) / _label_rate(rate, sep)
    new_number = seconds * _label_rate(new_rate, new_sep)
    # nearest; a tie goes to the earlier frame, the one on screen at that time (round()'s
    # ties to even would move by the label's parity)
    nearest = math.ceil(new_number - Fraction(1, 2))
    return _label(nearest, new_rate, new_sep, width), new_number.denominator == 1
