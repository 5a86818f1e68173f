"""Whether the window's painting of a file is the one an export paints (no Qt).

A video's painting carries its earlier frames. An export from a cut (`--start` at a seek, or
the file's start) paints every frame at the asked scale, one after the other, each with its
own subject. Playback on a slow machine may paint otherwise: adaptive quality's draft at a
lower scale, frames skipped when it falls behind, a face found a frame late. The viewport
keeps a PaintingRecord of the frames painted since the last cut, and a paused frame whose
painting deviated is painted again as a seek to it paints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Look = tuple[Any, ...]  # what an export is asked for: style, values, seed, scale, lines


@dataclass(frozen=True)
class FramePainting:
    """How one frame was painted."""

    look: Look
    full: bool  # as the export's scale and draft (not adaptive quality's lower draft)
    followed: bool  # after the frame before it (none skipped), or the first since the cut
    own: bool  # with its own subject (found in it), or with none wanted
    bare: bool  # with a subject that paints by nothing (no face, no person)

    @property
    def as_export(self) -> bool:
        """Painted as the export paints it, as far as it alone tells: another frame's
        subject is one only where it paints by nothing (see PaintingRecord)."""
        return self.full and self.followed and (self.own or self.bare)

    @property
    def uncertain(self) -> bool:
        """Painted with another frame's subject that paints by nothing: its own may have
        held a face (told only by a face found later)."""
        return not self.own and self.bare


class PaintingRecord:
    """The frames painted since the last cut: the history a next frame follows."""

    def __init__(self) -> None:
        self.cut()

    def cut(self) -> None:
        """The history starts afresh (a seek, the loop point, a new pipeline)."""
        self._history_ok = True  # the frames before the last, each as the export paints it
        self._history_look: Look | None = None  # ... all with this look (None: no frame)
        self._uncertain = False  # ... one of them with another frame's bare subject
        self._faces = False  # ... one with a subject that paints by something
        self._frame: FramePainting | None = None  # the frame painted last

    def painted(self, frame: FramePainting) -> None:
        """The next frame was painted (the one before it joins the history)."""
        last = self._frame
        if last is not None:
            self._history_ok = self._history_ok and last.as_export \
                and self._history_look in (None, last.look)
            self._history_look = last.look
            self._uncertain = self._uncertain or last.uncertain
            self._faces = self._faces or not last.bare
        self._frame = frame

    def painted_again(self, frame: FramePainting) -> None:
        """The frame painted last was painted anew (new values, its own subject found): on
        the history it read then. Painted first at another scale, it stays a deviation."""
        last = self._frame
        full = frame.full and (last is None or last.full)
        followed = frame.followed if last is None else last.followed
        self._frame = FramePainting(frame.look, full, followed, frame.own, frame.bare)

    def _tainted(self, frame_faces: bool) -> bool:
        """A frame before was painted with another's bare subject, and faces were about:
        its own may have held one."""
        return self._uncertain and (self._faces or frame_faces)

    def painted_as_export(self) -> bool:
        """Whether the frame painted last is what an export from the cut paints, but for
        its own subject (found later, it is painted again with it) and values changed
        while it is on screen (painted anew on the history it read)."""
        frame = self._frame
        if frame is None:
            return True
        return self._history_ok and frame.full and frame.followed \
            and not self._tainted(not frame.bare)

    def follows_export(self) -> bool:
        """Whether a next frame painted on from the last one would be the export's: every
        frame since the cut painted as the export paints it, with one look."""
        frame = self._frame
        if frame is None:
            return True
        return self._history_ok and frame.as_export \
            and self._history_look in (None, frame.look) \
            and not self._tainted(not frame.bare) and not (frame.uncertain and self._faces)
