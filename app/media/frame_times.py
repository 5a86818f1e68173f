"""The times of a video's frames, read from its packets (no decoding).

A file played in the window numbers its frames by their place among the video's frames, as an
export does; at a steady rate that is time x rate, but where the rate varies (a phone's video,
frames at 0, 40, 120, 130 ms...) only the frames' own times say which frame is the 13th, or
which one comes before. Matroska and WebM do not count their frames at all.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import av

from .paths import is_sequence

if TYPE_CHECKING:
    from .video_reader import VideoReader

MAX_PACKETS = 2_000_000  # about 18 hours at 30 fps
MAX_SECONDS = 20.0  # reading a huge file's packets gives up after this (the count stays "about")


def needs_times(reader: VideoReader) -> bool:
    """Whether the frames' times are worth reading: the container does not count its frames,
    or its average rate is not its base rate (a variable rate)."""
    if reader.gap is not None or is_sequence(reader.path):
        return False  # numbered pictures at a steady rate
    video = reader.video
    if not video.frames:
        return True
    avg, base = video.average_rate, video.base_rate
    return bool(avg and base and abs(float(avg) - float(base)) > 1e-3 * float(base))


def frame_times(path: str | Path, stream: int, origin: float,
                stop: threading.Event | None = None) -> list[float] | None:
    """The presentation times of video stream `stream`'s frames, seconds after `origin`, sorted;
    None where they cannot all be read (a packet without a time, a damaged file, too long)."""
    deadline = time.monotonic() + MAX_SECONDS
    stamps: set[int] = set()
    try:
        with av.open(str(path)) as container:
            video = container.streams[stream]
            tb = video.time_base
            if tb is None:
                return None
            for n, packet in enumerate(container.demux(video)):
                if packet.size == 0 and packet.pts is None:
                    continue  # the end
                if packet.pts is None or n >= MAX_PACKETS:
                    return None
                if not packet.is_discard:
                    stamps.add(packet.pts)
                if n % 256 == 0 and ((stop is not None and stop.is_set())
                                     or time.monotonic() > deadline):
                    return None
    except (av.error.FFmpegError, OSError, ValueError, IndexError):
        return None
    return [float(pts * tb) - origin for pts in sorted(stamps)] or None
