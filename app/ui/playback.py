"""Transport control of file sources (play/pause, step, seek, loop) over the FrameSource API.

Pausing, position and duration are optional controls of the FrameSource interface; frame
stepping and looping are extras of the file sources. These helpers use what the source has
and degrade to "not available" otherwise.
"""

from __future__ import annotations

from ..media.source import FrameSource


def can_play(src: FrameSource | None) -> bool:
    """Whether the source is a file that plays (and so can pause and step)."""
    return src is not None and not src.live and not getattr(src, "still", False)


def is_playing(src: FrameSource | None) -> bool:
    if src is None or not can_play(src):
        return False
    return not bool(getattr(src, "paused", False)) and not src.finished


def set_playing(src: FrameSource | None, playing: bool) -> None:
    """Resume or pause a playing file."""
    if not can_play(src):
        return
    if playing:
        src.resume()  # type: ignore[union-attr]
    else:
        src.pause()  # type: ignore[union-attr]


def step(src: FrameSource | None, frames: int, origin: float | None = None) -> None:
    """Pause and move by `frames` (negative: backwards); `origin`: the time of the frame to
    count from, where the source has gone past it (see VideoFileSource.step)."""
    if not can_play(src):
        return
    assert src is not None
    set_playing(src, False)
    fn = getattr(src, "step", None)
    if fn is not None:
        if origin is None:
            fn(frames)
        else:
            fn(frames, origin)


def seek(src: FrameSource | None, seconds: float) -> None:
    if src is not None and src.seekable:
        src.seek(max(0.0, seconds))


def position(src: FrameSource | None) -> float | None:
    """The time of the newest frame delivered, in seconds."""
    value = getattr(src, "position", None) if src is not None else None
    return float(value) if isinstance(value, int | float) else None


def duration(src: FrameSource | None) -> float | None:
    value = getattr(src, "duration", None) if src is not None else None
    if isinstance(value, int | float) and value > 0:
        return float(value)
    if src is not None and src.frame_count and src.fps:
        return src.frame_count / src.fps
    return None


def rate(src: FrameSource | None) -> float:
    """The source's playback speed (1.0 where it has none to set)."""
    value = getattr(src, "rate", None) if src is not None else None
    return float(value) if isinstance(value, int | float) else 1.0


def set_rate(src: FrameSource | None, speed: float) -> None:
    """Play a file at `speed` times its pace (a source that has no speed ignores it)."""
    fn = getattr(src, "set_rate", None) if can_play(src) else None
    if fn is not None:
        fn(speed)


def set_loop(src: FrameSource | None, on: bool) -> None:
    if src is not None and hasattr(src, "loop"):
        src.loop = on  # type: ignore[attr-defined]
