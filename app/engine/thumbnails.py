"""One frame painted small in several looks (the preset menu's pictures), on the caller's
GL context: the frame fitted on the GPU, then one render per look through one pipeline kept
for the style, so a menu opened again costs renders, not compiles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import moderngl
import numpy as np

from .fit import FrameFitter
from .renderer import Renderer

THUMB_HEIGHT = 40
THUMB_MAX_WIDTH = 96


def thumb_size(frame: tuple[int, int], height: int = THUMB_HEIGHT) -> tuple[int, int]:
    """A thumbnail's (w, h) for a frame's (w, h): `height` tall, the frame's shape, at most
    THUMB_MAX_WIDTH wide (a panorama gets shorter instead)."""
    w, h = frame
    tw = max(1, round(height * w / max(h, 1)))
    if tw <= THUMB_MAX_WIDTH:
        return tw, height
    return THUMB_MAX_WIDTH, max(1, round(THUMB_MAX_WIDTH * h / max(w, 1)))


class ThumbnailPainter:
    """Paints a frame (a texture) small in each of several looks. Call only on the thread
    that owns the context; `release` before the context goes."""

    def __init__(self, ctx: moderngl.Context, shader_root: Path | None = None) -> None:
        self.ctx = ctx
        self.shader_root = shader_root
        self.fitter = FrameFitter(ctx, shader_root)
        self._pipeline: Renderer | None = None
        self._key: tuple[str, int] | None = None

    def paint(self, style: Any, seed: int, frame: moderngl.Texture,
              looks: Sequence[Mapping[str, Any]]) -> list[np.ndarray]:
        """`frame` painted at thumb_size in each look (full parameter values), as uint8 RGB.
        No subject models run (too small to find one): the saliency map decides."""
        key = (style.name, seed)
        if self._key != key:
            self._release_pipeline()
            self._pipeline = Renderer(self.ctx, style, seed=seed,
                                            shader_root=self.shader_root)
            self._pipeline.subject_feed = "given"
            self._pipeline.set_subject(None)
            self._key = key
        assert self._pipeline is not None
        small = self.fitter.draw(frame, thumb_size(frame.size), "stretch")
        out = []
        for look in looks:
            self._pipeline.set_params(look)
            self._pipeline.reset_history()  # each look a still of its own
            out.append(self._pipeline.read(self._pipeline.render(small)))
        return out

    def _release_pipeline(self) -> None:
        if self._pipeline is not None:
            self._pipeline.release()
        self._pipeline, self._key = None, None

    def release(self) -> None:
        """Release the GL objects."""
        self._release_pipeline()
        self.fitter.release()
