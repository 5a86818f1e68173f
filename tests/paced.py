"""A paced video file played to its end, for the playback tests: what it delivered and when
it came due (the source's own schedule, `stamp_due`), read as a window takes its frames."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from videoclips import make_clip

from aquarelle.media.file_source import VideoFileSource

WAIT = 10.0


def paced_clip(tmp_path: Path, frames: int) -> Path:
    """A small 30 fps clip without sound."""
    return make_clip(tmp_path / "thirty.mp4", size=(64, 48), frames=frames, fps=30,
                     audio=False).path


def delivered(src: VideoFileSource,
              on_frame: Callable[[VideoFileSource, int], None] = lambda src, n: None
              ) -> list[tuple[int, float]]:
    """(index, time due) of each frame the paced source delivered, taken as they came
    (`on_frame(source, frames taken so far)` after each), until its end; the source is
    started here, and stopped."""
    src.stamp_due = True
    shown: list[tuple[int, float]] = []
    src.start()
    try:
        while True:
            assert src.wait_frame(WAIT) or src.ended.is_set()
            frame = src.latest()
            if frame is not None:
                shown.append((frame.index, frame.captured))
                on_frame(src, len(shown))
            elif src.ended.is_set():
                break
    finally:
        src.stop()
    assert src.error is None
    return shown
