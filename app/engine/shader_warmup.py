"""The shader programs of a style's looks compiled ahead, off the window, so that the GL
driver's disk cache holds them when the window first paints with one of them.

A program is compiled the first time a frame needs it (its variant of the style's values):
on llvmpipe the first switch to the sepia preset stopped the window for 6-7 s while it
compiled, and 0.2-0.6 s once Mesa's shader cache held those programs, compiled by any
process of the same driver (a headless EGL context's serve a window's GLX one). So a
process of its own paints a small picture with each look once, as the window would: a still,
a video's next frames (history, motion), a slider's draft.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .chain_spec import AnyStyle
from .context import create_headless_context
from .renderer import Renderer, use_draft

# A video's first frame is painted as a still is; the next ones with history and motion
VIDEO_FRAMES = 3
# ... each moved by so many pixels (the motion the temporal passes follow)
VIDEO_STEP_PX = 4
DRAFT_SCALE = 0.5  # a slider dragged paints drafts below full size


def warm_looks(style: AnyStyle | str, looks: Sequence[Mapping[str, Any]], picture: np.ndarray,
               moving: bool, shader_root: Path | None = None,
               progress: Callable[[int, int], None] | None = None) -> int:
    """Paint `picture` (RGB) with each of `looks` (a style's whole set of values) as the
    window paints it: a still (`moving` False) or a video's first frames, then a draft.
    `progress(done, looks)` after each look; returns the looks painted."""
    ctx = create_headless_context()
    try:
        with Renderer(ctx, style, shader_root=shader_root) as renderer:
            for i, values in enumerate(looks):
                renderer.set_params(values)
                _paint_as_the_window(renderer, picture, moving)
                if progress is not None:
                    progress(i + 1, len(looks))
    finally:
        ctx.release()
    return len(looks)


def _paint_as_the_window(renderer: Renderer, picture: np.ndarray, moving: bool) -> None:
    renderer.scale = 1.0
    use_draft(renderer, adapting=False)
    renderer.reset_history()
    for k in range(VIDEO_FRAMES if moving else 1):
        renderer.render(np.roll(picture, k * VIDEO_STEP_PX, axis=1) if k else picture)
    renderer.scale = DRAFT_SCALE
    use_draft(renderer, adapting=True)
    renderer.render(picture)
    renderer.scale = 1.0
    use_draft(renderer, adapting=False)
    renderer.reset_history()


def shader_digest(shader_root: Path) -> str:
    """A digest of every shader file under `shader_root` (names and contents): programs
    compiled from other sources are other programs."""
    digest = hashlib.sha1()
    for path in sorted(p for p in shader_root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(shader_root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
