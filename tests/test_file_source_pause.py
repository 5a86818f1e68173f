"""A paced file source delivers no frame after `pause()` returns, save a step's or seek's."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from videoclips import make_clip

from aquarelle.media import file_source
from aquarelle.media.file_source import VideoFileSource


def test_a_frame_due_when_the_file_pauses_is_not_delivered_after_the_pause(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pause comes just as the worker delivers frame 5 (after it checked for a pause,
    before its putting the frame in the slot): nothing comes while paused (frame 5 came, so
    a window that had decided which frame to pause on showed a later one), and frame 5 is
    the next frame once playing again."""
    clip = make_clip(tmp_path / "c.mp4", frames=24, fps=24, audio=False)
    src = VideoFileSource(clip.path, paced=True)
    src.stamp_due = True  # (dataclasses.replace stamps each frame just before its put)
    paused_at: list[int] = []
    stamp = file_source.replace

    def pause_meanwhile(frame, **changes):
        # (frame 5 or the first after it that is put: on a loaded machine a frame decoded
        # late is skipped without being stamped)
        if frame.index >= 5 and not paused_at:
            paused_at.append(frame.index)
            src.pause()
        return stamp(frame, **changes)

    put_while_paused: list[int] = []
    put = src._slot.put

    def record(frame):
        if src.paused:
            put_while_paused.append(frame.index)
        return put(frame)

    parked = threading.Event()  # the worker waits, paused: frame 5 was put or kept by then
    wake = src._wake

    class Watched:
        def set(self) -> None:
            wake.set()

        def clear(self) -> None:
            wake.clear()

        def wait(self, timeout: float | None = None) -> bool:
            if paused_at and src.paused:
                parked.set()
            return wake.wait(timeout)

    monkeypatch.setattr(file_source, "replace", pause_meanwhile)
    src._slot.put = record  # type: ignore[method-assign]
    src._wake = Watched()  # type: ignore[assignment]
    src.start()
    try:
        assert parked.wait(10.0), "the worker never paused"
        assert put_while_paused == []
        src.latest()  # (frame 4, or an earlier one, never taken)
        src.resume()
        assert src._slot.wait(10.0), "nothing came after resuming"
        frame = src.latest()
        assert frame is not None and frame.index == paused_at[0]
    finally:
        src.stop()
