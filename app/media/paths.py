"""What a path names, by its name alone (no PyAV, no file read): a video by its extension,
an image sequence's pattern (frames/%04d.png), an output that asks for frames (a pattern or
a .gif); and whether two paths name the same file (or one of a sequence's frames)."""

from __future__ import annotations

import re
from pathlib import Path

VIDEO_EXTENSIONS = {".mp4", ".m4v", ".mov", ".mkv", ".webm", ".avi", ".mpg", ".mpeg", ".ts",
                    ".mts", ".m2ts", ".wmv", ".flv", ".gif", ".3gp", ".ogv", ".y4m"}

SEQUENCE_FIELD = re.compile(r"%0?(\d*)d")


def is_video_path(path: str | Path) -> bool:
    """Whether the file name has a video extension (the content decides in the end)."""
    return Path(path).suffix.lower() in VIDEO_EXTENSIONS


def is_sequence(path: str | Path) -> bool:
    """An image-sequence pattern such as frames/%04d.png (printf-style frame number)."""
    from .image_formats import is_image_path

    return bool(SEQUENCE_FIELD.search(Path(path).name)) and is_image_path(path)


def wants_frames(output: Path) -> bool:
    """Whether `output` asks for frames rather than a video file."""
    return output.suffix.lower() == ".gif" or is_sequence(output)


def same_path(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name the same file."""
    a, b = Path(a), Path(b)
    try:
        return a.resolve() == b.resolve() or (b.exists() and a.exists() and a.samefile(b))
    except OSError:
        return False


def is_part_of(dst: str | Path, src: str | Path) -> bool:
    """Whether writing `dst` would change the input `src`: the same file, or one of the
    frames of the image sequence `src` names (seq/f%04d.png: seq/f0003.png)."""
    if same_path(src, dst):
        return True
    src, dst = Path(src), Path(dst)
    field = SEQUENCE_FIELD.search(src.name)
    if field is None or not is_sequence(src):
        return False
    digits = int(field.group(1) or 1)
    frame = re.compile(re.escape(src.name[:field.start()]) + rf"\d{{{digits},}}"
                       + re.escape(src.name[field.end():]) + "$")
    return frame.match(dst.name) is not None and same_path(src.parent, dst.parent)
