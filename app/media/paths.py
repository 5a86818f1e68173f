"""What a path names, by its name alone (no PyAV, no file read): a video by its extension,
an image sequence's pattern (frames/%04d.png), an output that asks for frames (a pattern or
a .gif); whether two paths name the same file (or one of a sequence's frames), and which
of an input's files an output would write over (these last look at the files there)."""

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


def sequence_files(pattern: str | Path) -> list[tuple[int, Path]]:
    """The files an image-sequence pattern matches, with their numbers, in frame order."""
    p = Path(pattern)
    m = SEQUENCE_FIELD.search(p.name)
    assert m is not None
    width = int(m.group(1) or 0)
    digits = rf"\d{{{width}}}" if width else r"\d+"
    rx = re.compile(re.escape(p.name[: m.start()]) + f"({digits})" + re.escape(p.name[m.end():]))
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        return []
    return sorted((int(mm.group(1)), f) for f in folder.iterdir()
                  if (mm := rx.fullmatch(f.name)))


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def written_over(output: str | Path, src: str | Path) -> Path | None:
    """The first existing file that writing `output` would replace and that is one of the
    input's: `src` itself, or a frame of the image sequence it names. An output pattern
    (frames/%04d.png) writes frames numbered from 1, so any file there that the pattern
    numbers counts, whatever the render's length; links and other names for the same file
    count too."""
    output, src = Path(output), Path(src)
    files = [f for _, f in sequence_files(src)] if is_sequence(src) else [src]
    inputs = {i for f in files if (i := _identity(f)) is not None}
    if not inputs:
        return None
    if not (is_sequence(output) and output.suffix.lower() != ".gif"):
        return output if _identity(output) in inputs else None
    field = SEQUENCE_FIELD.search(output.name)
    assert field is not None
    width = int(field.group(1) or 0)
    head, tail = output.name[:field.start()], output.name[field.end():]
    for number, path in sequence_files(output):
        if number >= 1 and path.name == f"{head}{number:0{width}d}{tail}" \
                and _identity(path) in inputs:
            return path
    return None


def file_in_the_way(folder: Path) -> Path | None:
    """The file that stands where `folder`, or a folder above it, would have to be (a folder
    asked for inside a file: "in/one.png/x.png"); None where there is none."""
    for place in (folder, *folder.parents):
        try:
            if not place.exists():
                continue
        except OSError:
            return None  # (unreadable: the writer says what is wrong)
        return None if place.is_dir() else place
    return None
