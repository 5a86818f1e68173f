"""What an export is asked for (ExportOptions: codec, quality, size, range, streams, the
GPU's coder), and the size a --size gives a source (resolve_size), without PyAV: the
command line's job and a still's render take them; export.py does the export."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..engine.renderer import VIDEO_LINES


@dataclass
class ExportOptions:
    """What to export: codec (None: by extension), quality, size, time range, audio."""

    codec: str | None = None
    crf: int | None = None
    size: tuple[int, int] | None = None  # upright (W, H); -1 in one of them keeps the aspect
    start: float = 0.0  # seconds from the video's start
    end: float | None = None
    audio: bool = True
    subtitles: bool = True  # False (--no-subtitles): subtitle streams left out
    metadata: bool = True  # False (--no-metadata): no container tags, chapters or stream tags
    speed: str | None = None  # encoder preset (codecs.SPEEDS); None: medium
    encoder: str = "auto"  # codecs.DEVICE_CHOICES: a GPU's H.264/H.265 encoder where one works
    decoder: str = "auto"  # codecs.DEVICE_CHOICES: the GPU's decoder where it decodes the file
    fps: float | Fraction | None = None  # a new constant rate (frames repeated or left out)
    seed: int = 0
    scale: float = 1.0
    video_lines: int = VIDEO_LINES  # painted at most these lines, finished at full size (0: all)
    pipelined: bool = True
    queue_size: int = 4
    replace: bool = True  # False (-n): an existing output is never replaced, atomically


def resolve_size(size: tuple[int, int] | None, source: tuple[int, int],
                 sar: Fraction = Fraction(1), *, even: bool = True) -> tuple[int, int]:
    """The upright content size: `size` with -1 meaning 'keep the aspect' (the other side
    rounded to even for video's 4:2:0, to the nearest pixel for a still: `even` False),
    the one `source` pixels shaped `sar` (width / height) are displayed at."""
    if size is None:
        return source
    w, h = size
    sw, sh = source
    if w <= 0 and h <= 0:
        return source
    step = 2 if even else 1
    if w <= 0:
        w = max(step, round(sw * sar * h / sh / step) * step)
    if h <= 0:
        h = max(step, round(sh * w / (sw * sar) / step) * step)
    return int(w), int(h)


def fit_frame(frame: tuple[int, int], source: tuple[int, int], sar: Fraction = Fraction(1)
              ) -> tuple[int, int]:
    """The upright size a standard frame (long x short side: 1920x1080 for 1080p) gives a
    `source` of pixels shaped `sar`: its shape fitted in the frame turned as the source is
    (a portrait 1080p is 1080x1920), the other side rounded to even. Enlarges a smaller
    source, as a --size does."""
    long, short = frame
    sw, sh = source
    shown_w = sw * sar
    bw, bh = (long, short) if shown_w >= sh else (short, long)
    if shown_w * bh >= sh * bw:  # as wide as the frame or wider: its width decides
        return resolve_size((bw, -1), source, sar)
    return resolve_size((-1, bh), source, sar)
