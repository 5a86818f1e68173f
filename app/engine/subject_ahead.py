"""The subject of a video's frames found before their render, on another thread (an
export's analysis stage), in frame order: what a `Renderer` finding it in each frame itself
(`subject_feed` "detect") would find, so that its thread only paints."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .frame_arrays import SamePicture
from .subject import Subject, SubjectSearch


@dataclass(frozen=True)
class FrameSubject:
    """A frame's subject found ahead of its render (None: nobody, or too small a frame)."""

    subject: Subject | None


class SubjectAhead:
    """Finds the subject of each frame handed to it, in order, as the renderer would; made
    for the renderer's next frame (`Renderer.frame_index`, after any reset) and used only
    where `Renderer.wants_subject`."""

    def __init__(self, first_index: int = 0) -> None:
        self._search = SubjectSearch()
        self._same = SamePicture()
        self._index = first_index

    def estimate(self, rgb: np.ndarray) -> FrameSubject:
        """The subject of the next frame (RGB)."""
        repeat = self._same(rgb)
        found = self._search.find(rgb, "rgb", self._index, repeat)
        self._index += 1
        return FrameSubject(found)

    def release(self) -> None:
        """Let the models go."""
        self._search.release()
