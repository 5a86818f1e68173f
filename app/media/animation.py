"""Animated pictures (APNG, animated WebP, animated AVIF) known by their headers, without
decoding them, and whether FFmpeg decodes their frames (then they are rendered as videos,
like a GIF)."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_WEBP_ANIMATION_FLAG = 0x02  # VP8X flags: reserved, ICC, alpha, EXIF, XMP, animation, reserved
_MAX_CHUNKS = 100_000  # a damaged file's chunk walk ends somewhere


@dataclass(frozen=True)
class Animation:
    """An animated picture: its format's name and its frame count (from the header)."""

    kind: str  # "APNG", "WebP" or "AVIF"
    frames: int

    @property
    def name(self) -> str:
        """"an animated PNG (APNG, 6 frames)", "an animated WebP (6 frames)"."""
        kind = "PNG (APNG, " if self.kind == "APNG" else f"{self.kind} ("
        return f"an animated {kind}{self.frames} frames)"


def animation_of(path: str | Path) -> Animation | None:
    """The animation a PNG (an acTL chunk before IDAT) or WebP (a VP8X header with the
    animation flag, ANMF frame chunks) holds; None for a still, another file or one that
    cannot be read. Only chunk headers are read."""
    try:
        with Path(path).open("rb") as f:
            head = f.read(12)
            if head.startswith(PNG_SIGNATURE):
                frames = _apng_frames(f)
                kind = "APNG"
            elif head[:4] == b"RIFF" and head[8:12] == b"WEBP":
                frames = _webp_frames(f)
                kind = "WebP"
            elif head[4:8] == b"ftyp" and _avif_sequence(f):
                frames = _avif_frames(path)
                kind = "AVIF"
            else:
                return None
    except (OSError, struct.error):
        return None
    return Animation(kind, frames) if frames > 1 else None


def _apng_frames(f: BinaryIO) -> int:
    """acTL's frame count (0 when the chunks before IDAT hold none)."""
    f.seek(len(PNG_SIGNATURE))
    for _ in range(_MAX_CHUNKS):
        header = f.read(8)
        if len(header) < 8:
            return 0
        length, kind = struct.unpack(">I4s", header)
        if kind == b"acTL":
            return int(struct.unpack(">I", f.read(4))[0])
        if kind in (b"IDAT", b"IEND"):  # an acTL after the picture does not count
            return 0
        f.seek(length + 4, 1)  # the data and the CRC
    return 0


def _webp_frames(f: BinaryIO) -> int:
    """The ANMF chunks of an animated WebP (0 for a still: no VP8X animation flag)."""
    f.seek(12)
    header = f.read(9)
    if len(header) < 9 or header[:4] != b"VP8X" or not header[8] & _WEBP_ANIMATION_FLAG:
        return 0
    f.seek(12)
    frames = 0
    for _ in range(_MAX_CHUNKS):
        chunk = f.read(8)
        if len(chunk) < 8:
            break
        kind, length = struct.unpack("<4sI", chunk)
        frames += kind == b"ANMF"
        f.seek(length + (length & 1), 1)  # chunks are padded to an even length
    return frames


def _avif_sequence(f: BinaryIO) -> bool:
    """Whether an ISO file's ftyp box names the AVIF image sequence brand ('avis')."""
    f.seek(0)
    (size,) = struct.unpack(">I", f.read(4))
    head = f.read(min(max(size, 8), 256) - 4)
    brands = head[4:8] + head[12:]  # (the major brand, then the compatible ones)
    return any(brands[i:i + 4] == b"avis" for i in range(0, len(brands) - 3, 4))


def cut_short_avif(path: str | Path) -> bool:
    """Whether `path` is an animated AVIF (by its ftyp box) that stops before its boxes do
    (a download cut short): a video to play what decodes of, never a picture."""
    from .short_file import file_ends_early

    try:
        with Path(path).open("rb") as f:
            if f.read(8)[4:8] != b"ftyp" or not _avif_sequence(f):
                return False
    except (OSError, struct.error):
        return False
    return file_ends_early(path)


def cut_short_avif_sequence(path: str | Path) -> bool:
    """Whether `path` is an animated AVIF cut short where FFmpeg cannot open it (its
    sequence's header lost): neither an animation nor a picture to paint."""
    return cut_short_avif(path) and _avif_frames(path) == 0


def refuse_cut_short_avif(path: str | Path) -> None:
    """Raise MediaError, in the words every tool gives, where `path` is an animated AVIF
    cut short with no frame left to read (cut_short_avif_sequence)."""
    if cut_short_avif_sequence(path):
        from .errors import MediaError
        from .short_file import TRUNCATED_FRAMES

        raise MediaError(f"{path}: an animated AVIF, not readable ({TRUNCATED_FRAMES})")


def _avif_frames(path: str | Path) -> int:
    """The frames of an animated AVIF's sequence track, as its header counts them."""
    import av

    from .video_reader import main_video_stream

    try:
        with av.open(str(path)) as c:
            stream = main_video_stream(c)
            return int(stream.frames) if stream is not None else 0
    except (av.FFmpegError, OSError, UnicodeDecodeError, ValueError):
        return 0


def ffmpeg_decodes(path: str | Path, frames: int = 2) -> bool:
    """Whether FFmpeg decodes the first `frames` frames of the file's video (an animated
    WebP it may open, then fail on, or give its first frame only)."""
    import av

    from .video_reader import main_video_stream

    try:
        with av.open(str(path)) as c:
            stream = main_video_stream(c)
            if stream is None:
                return False
            for decoded, _ in enumerate(c.decode(stream), 1):
                if decoded >= frames:
                    return True
    except (av.FFmpegError, OSError, UnicodeDecodeError, ValueError):
        return False
    return False


def is_still_gif(path: Path) -> bool:
    """Whether `path` is a GIF (by its name) of one frame: a still, painted as a picture (as
    `render still.gif -o x.png` paints it), not a one-frame video. Only its blocks are read
    (Pillow), no frame decoded."""
    if path.suffix.lower() != ".gif":
        return False
    from PIL import Image

    try:
        with Image.open(path) as im:
            return im.format == "GIF" and getattr(im, "n_frames", 1) == 1
    except Exception:  # (damaged, unreadable: rendered as a video, whose error says what)
        return False
