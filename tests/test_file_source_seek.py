"""A paced file source never delivers, after a seek, a frame it had decided on before it."""

from __future__ import annotations

from pathlib import Path

from videoclips import make_clip

from aquarelle.media import file_source
from aquarelle.media.file_source import VideoFileSource


def test_a_frame_due_before_a_seek_is_not_delivered_after_it(tmp_path: Path,
                                                            monkeypatch) -> None:
    """The seek comes just as the worker delivers frame 5 (between its deciding to and its
    putting it in the slot): what comes next is the seek's frame 0, never 5 (a frame put
    after the seek had emptied the slot was painted before the seek's: a pause that seeks
    back to the frame on screen briefly showed a later one)."""
    clip = make_clip(tmp_path / "c.mp4", frames=24, fps=24, audio=False)
    src = VideoFileSource(clip.path, paced=True)
    src.stamp_due = True  # (dataclasses.replace stamps each frame just before its put)
    sought: list[int] = []
    stamp = file_source.replace

    def seek_meanwhile(frame, **changes):
        # (frame 5 or the first after it that is put: on a loaded machine a frame decoded
        # late is skipped without being stamped, and the seek never came: "no frame came")
        if frame.index >= 5 and not sought:
            sought.append(frame.index)
            src.seek(0.0)
        return stamp(frame, **changes)

    monkeypatch.setattr(file_source, "replace", seek_meanwhile)
    src.start()
    try:
        after: list[int] = []
        while not after:
            assert src._slot.wait(10.0), "no frame came"
            late = bool(sought)  # (the seek came before this frame was put, if at all)
            frame = src.latest()
            if frame is not None and late:
                after.append(frame.index)
        assert after == [0]
    finally:
        src.stop()
