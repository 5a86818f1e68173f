"""A big still on a CPU renderer painted apart: in a process of its own (still_painter.py),
its last painting or the picture itself shown meanwhile; while values come fast, drafts of
them painted here at a small scale. Runs on the GL thread, with the context current."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Protocol

import moderngl
import numpy as np

from ..engine.renderer import Renderer, use_draft
from .display import rgb_texture
from .frame_queue import FrameQueue
from .paint_cost import PaintCost
from .render_state import RenderState
from .stats import FrameStats
from .still_painter import PaintOrder, StillPainter
from .subject_feed import SubjectFeed

# A still of at least this many pixels is painted in a process of its own on a CPU renderer
# (16 MP, the most the window shows: 10 s for the watercolor and 17 s for the stereo on
# llvmpipe's two cores): painted here, or in a thread (moderngl holds the GIL through a
# draw), it would stop the window for as long. The process costs its start and its shaders
# on every painting, about a second here (a change to a 2 MP photo showed after 1.6 s apart
# against 0.5 s painted here), so below about a second of painting it is painted here. On a
# GPU it is always painted here.
APART_PX = 4_000_000
# ... and so is a smaller one of at least APART_MIN_PX whose paint, as paints measured here
# went, would take over APART_S (a 4000x600 panorama stopped the window 2.2 s on two busy
# cores, with the picture before it on screen)
APART_MIN_PX = 1_000_000
APART_S = 1.0
# While values come fast (a slider dragged) such a still is drafted here at the scale that
# paints this many pixels, shown until the painting of the last values comes back (a 12 MP
# photo: 0.4-0.5 s a value on llvmpipe's two busy cores, against 10 s and more apart)
APART_DRAFT_PX = 500_000

# what the picture on screen was made for: the settings' revision and the debug view
Revision = tuple[object, str | None]


class ApartView(Protocol):
    """What painting apart reads of the view (the Viewport is one): its settings, where
    the time a painting took goes, and the limits above which a still is painted apart
    (`apart_px`: APART_PX, None: never; `apart_min_px`, `apart_s`: APART_MIN_PX, APART_S)."""

    state: RenderState
    stats: FrameStats
    cost: PaintCost
    subjects: SubjectFeed
    cpu_renderer: bool
    profile: bool
    shader_root: Path | None
    apart_px: int | None
    apart_min_px: int
    apart_s: float


class ApartCanvas(Protocol):
    """What shows the pictures painted apart (the FramePainter is one): the textures on
    screen, what they were made for, and how it paints a frame here."""

    ctx: moderngl.Context | None
    frames: FrameQueue
    orig: moderngl.Texture | None
    result: moderngl.Texture | None
    applied: object
    painted_as: tuple[float, bool] | None

    def upload_own(self, img: np.ndarray) -> moderngl.Texture: ...
    def timed(self, p: Renderer, frame: np.ndarray | moderngl.Texture
              ) -> tuple[moderngl.Texture, float]: ...
    def give_subject(self, p: Renderer) -> tuple[bool, bool]: ...
    def send(self, p: Renderer, captured: float | None) -> None: ...


class BigStills:
    """Paints big stills apart by `painter` for `canvas`, as `view` says (see the module
    docstring); `painter.painting` says what is being painted."""

    def __init__(self, view: ApartView, canvas: ApartCanvas, painter: StillPainter) -> None:
        self.view = view
        self.canvas = canvas
        self.painter = painter
        self._tex: moderngl.Texture | None = None  # the painting shown, as it came
        self._shown: np.ndarray | None = None  # ... from this array
        self._of: np.ndarray | None = None  # ... of this picture
        self._orig_of: np.ndarray | None = None  # the picture in the canvas's `orig`
        # drafts of a big still while values come fast: the picture in the pipeline, and
        # the draft on screen with the values (revision) it was painted for
        self._drafted: np.ndarray | None = None
        self._draft: tuple[moderngl.Texture, Revision] | None = None

    def order(self, p: Renderer | None) -> PaintOrder | None:
        """What to paint apart (APART_PX): a still, big, on a CPU renderer, shown as painted
        (a debug view and the pass times need this context's own painting); else None."""
        view, img = self.view, self.canvas.frames.image
        if img is None or p is None or view.apart_px is None or not view.cpu_renderer \
                or self.canvas.frames.moving or not self._paints_long(p, img) \
                or view.state.debug_target is not None or view.profile \
                or p.style.name != view.state.style.name:
            return None
        state = view.state
        return PaintOrder(img, p, state.style, state.params.values(), state.seed, state.scale,
                          view.shader_root)

    def _paints_long(self, p: Renderer, img: np.ndarray) -> bool:
        """Whether a still is big enough to be painted apart (APART_PX, APART_S)."""
        view = self.view
        h, w = img.shape[:2]
        if view.apart_px is not None and w * h >= view.apart_px:
            return True
        seconds = view.cost.seconds((w, h), p.work_scale((w, h)))
        return w * h >= view.apart_min_px and seconds is not None and seconds > view.apart_s

    def render(self, p: Renderer, img: np.ndarray, order: PaintOrder,
               revision: Revision) -> bool:
        """A big still: its painting shown once it comes back from the painter; meanwhile
        the last painting of the picture (other values, another style) or, for a new
        picture, the picture itself. Returns whether a painting was shown anew."""
        canvas = self.canvas
        self._show_original(img)
        canvas.frames.fresh = True  # (painted here instead, later, it goes in as an array)
        self.painter.order(order)  # (painted already: any other painting is stopped)
        painted = self.painter.painted(order)
        if painted is None:
            draft = self._draft
            if draft is not None and draft[1] == revision and self._orig_of is img:
                canvas.result = draft[0]  # the values' draft until their painting comes
            else:
                canvas.result = self._tex if self._of is img else None
            return False
        self._draft = None
        if self._shown is not painted or self._tex is None:
            assert canvas.ctx is not None
            self._tex = rgb_texture(canvas.ctx, self._tex, painted)
            if self._shown is not painted and self.painter.took is not None:
                self.view.stats.frame_cost(self.painter.took)  # (its painting, in its process)
            self._shown, self._of = painted, img
        elif canvas.applied == revision and canvas.result is self._tex:
            return False
        canvas.result = self._tex
        canvas.applied = revision
        self.view.stats.renders += 1
        canvas.send(p, None)
        return True

    def _show_original(self, img: np.ndarray) -> None:
        """A big still's picture in the canvas's `orig` (shown until a painting or a draft
        of it is)."""
        canvas = self.canvas
        if canvas.orig is None or self._orig_of is not img:
            canvas.orig = canvas.upload_own(img)
            self._orig_of = img
            canvas.frames.painted_index = canvas.frames.shown_index
            canvas.frames.shown_new()

    def draft(self, p: Renderer, img: np.ndarray, revision: Revision) -> bool:
        """A big still while values come fast: a draft of the values painted here at the
        scale that paints APART_DRAFT_PX, the painting apart stopped until they settle.
        Returns whether one was painted."""
        canvas, view = self.canvas, self.view
        if self._draft is not None and self._draft[1] == revision \
                and self._orig_of is img and canvas.result is self._draft[0] \
                and (not p.has_subject_style or view.subjects.given_own):
            return False  # (drafted without its subject: again, with it, once found)
        self.painter.halt()
        self._show_original(img)
        fresh = self._drafted is not img or p.input_texture is None
        h, w = img.shape[:2]
        p.scale, p.max_lines = min(1.0, math.sqrt(APART_DRAFT_PX / (w * h))), 0
        use_draft(p, adapting=True)
        p.keep_targets(())
        p.params.update(view.state.params.values())
        p.seed = view.state.seed
        if p.has_subject_style:
            if fresh:  # its faces found off this thread; drafted again with them
                view.subjects.frame(img, still=True, cut=True, wait=True, index=None,
                                    t=time.monotonic())
            canvas.give_subject(p)
        if fresh:
            p.reset_history()  # (a still: no history from another picture)
            result = canvas.timed(p, img)[0]
            self._drafted = img
        else:
            assert p.input_texture is not None
            result = canvas.timed(p, p.input_texture)[0]  # the same picture, new values
        self._draft = (result, revision)
        canvas.result = result
        canvas.applied = revision
        canvas.painted_as = None  # (painted otherwise than either: a full paint follows)
        view.stats.renders += 1
        return True

    def release(self) -> None:
        """Release the painting's texture (the context is current, and about to go)."""
        if self._tex is not None:
            self._tex.release()

    def forget(self) -> None:
        """Forget the pictures shown and drafted (their textures went with the context)."""
        self._tex = self._shown = self._of = self._orig_of = None
        self._drafted = self._draft = None
