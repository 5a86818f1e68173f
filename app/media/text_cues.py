"""A video's subtitles as text to show over the picture: its text subtitle tracks (SubRip,
ASS/SSA, mov_text, WebVTT) and a subtitle file beside it with its name (film.srt beside
film.mp4), each read into cues: when each line shows, and what it says.

Picture subtitles (DVD, Blu-ray) are not shown (exports keep them as they are).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path

import av
import av.error

from .subtitles import TEXT_CODECS

SIDECAR_SUFFIXES = (".srt", ".vtt", ".ass", ".ssa")
OPEN_END = 5.0  # s a cue with no end stays on screen (the next cue ends it sooner)
_ASS_TAG = re.compile(r"\{[^}]*\}")  # {\i1}, {\pos(10,20)}: styling, not words
_HTML_TAG = re.compile(r"</?[a-zA-Z][^>]*>")  # SubRip's and WebVTT's <i>, <font ...>


@dataclass(frozen=True)
class TextTrack:
    """One subtitle track a video can show, as a menu names it."""

    key: str  # "stream:3" (the file's stream 3) or "file:/path/film.srt"
    label: str  # "Subtitles 1: English (eng)", "film.srt (beside the video)"
    default: bool  # the one shown unless another (or none) is chosen


@dataclass(frozen=True)
class TextCue:
    """A subtitle line on screen from `start` to `end` (seconds from the video's first
    frame)."""

    start: float
    end: float
    text: str


def text_tracks(video: str | Path) -> list[TextTrack]:
    """The text subtitle tracks of `video` (none for anything unreadable), then the subtitle
    files beside it with its name. Shown by default: a track marked default or forced, else
    a file beside it (one put there to be seen)."""
    path = Path(video)
    tracks: list[TextTrack] = []
    try:
        with av.open(str(path)) as c:
            subs = list(c.streams.subtitles)
            for number, s in enumerate(subs, 1):
                if s.codec_context.name not in TEXT_CODECS:
                    continue
                flags = av.stream.Disposition.default | av.stream.Disposition.forced
                tracks.append(TextTrack(f"stream:{s.index}", _describe(s, number),
                                        bool(s.disposition & flags)))
    except (av.error.FFmpegError, OSError, ValueError):
        return []
    shown = any(t.default for t in tracks)
    for suffix in SIDECAR_SUFFIXES:
        side = path.with_suffix(suffix)
        if side.is_file() and side != path:
            tracks.append(TextTrack(f"file:{side}", f"{side.name} (beside the video)",
                                    not shown))
            shown = True
    return tracks


def _describe(stream: av.subtitles.stream.SubtitleStream, number: int) -> str:
    lang = stream.metadata.get("language")
    lang = f" ({lang})" if lang and lang != "und" else ""
    title = stream.metadata.get("title")
    return f"Subtitles {number}: {title}{lang}" if title else f"Subtitles {number}{lang}"


def read_cues(video: str | Path, key: str, origin: float = 0.0) -> list[TextCue]:
    """The cues of track `key` (TextTrack.key) of `video`, in time order, timed from the
    video's first frame (`origin`: its source time). Raises OSError/FFmpegError/ValueError
    for a file that does not read."""
    kind, _, ref = key.partition(":")
    if kind == "file":
        with av.open(ref) as c:
            if not c.streams.subtitles:
                raise ValueError(f"{Path(ref).name} holds no subtitles")
            return _cues(c, c.streams.subtitles[0], 0.0)
    with av.open(str(video)) as c:
        stream = next((s for s in c.streams.subtitles if s.index == int(ref)), None)
        if stream is None:
            raise ValueError(f"{Path(video).name} has no subtitle stream {ref}")
        return _cues(c, stream, origin)


def _cues(container: av.container.InputContainer,
          stream: av.subtitles.stream.SubtitleStream, origin: float) -> list[TextCue]:
    cues: list[TextCue] = []
    for packet in container.demux(stream):
        if packet.pts is None or packet.time_base is None:
            continue
        start = float(packet.pts * packet.time_base) - origin
        end = start + (float(packet.duration * packet.time_base) if packet.duration
                       else OPEN_END)
        lines = [plain(sub.dialogue.decode("utf-8", "replace"))
                 for sub in stream.codec_context.decode(packet)
                 if getattr(sub, "dialogue", None)]
        text = "\n".join(line for line in lines if line)
        if text:
            cues.append(TextCue(start, end, text))
    cues.sort(key=lambda cue: cue.start)
    return cues


def plain(dialogue: str) -> str:
    """A cue's words as shown: ASS override tags and HTML-like tags left out, ASS's hard
    line breaks (\\N, \\n) as new lines and hard spaces (\\h) as spaces."""
    text = _ASS_TAG.sub("", dialogue)
    text = text.replace("\\N", "\n").replace("\\n", "\n").replace("\\h", " ")
    text = _HTML_TAG.sub("", text)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def cue_text(cues: list[TextCue], starts: list[float], t: float) -> str:
    """What is on screen at `t` (seconds from the first frame): the cues begun by then and
    not yet ended, one under the other; "" for none. `starts`: the cues' start times."""
    shown = [cue.text for cue in cues[:bisect.bisect_right(starts, t)] if cue.end > t]
    return "\n".join(shown)
