"""Stills painted, and videos exported, in a process of their own, for the window.

moderngl holds the GIL through each of its calls, and llvmpipe makes a draw wait for the
passes it reads: a thread painting a big still stops every other thread of its process for
seconds at a time (a 4899x3266 stereo picture: 13 s in one draw), the window's included,
which then neither repaints nor answers; a video exported from a thread stalled it as surely
(a 1080p clip: 154 gaps over 100 ms in 70 s, 1.2 s at worst). A child process leaves the
window free. It is spawned, never forked (the window's GL context and threads stay behind);
a frozen app calls multiprocessing.freeze_support() first
(scripts/packaging/aquarelle_entry.py).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.chain_spec import AnyStyle
from ..engine.errors import AquarelleError
from ..engine.tile_plan import TILE_ABOVE_PX

if TYPE_CHECKING:
    from .export import ExportProgress, ExportResult
    from .export_options import ExportOptions

Progress = Callable[[int, int], None]  # (tiles painted, tiles)


class ChildJob:
    """`fn(*args, progress=..., **kwargs)` in a spawned process, followed without waiting:
    `poll()` takes what `progress` is called with as it comes (`progress`: one object as it
    is, several as a tuple, e.g. a still's `tiles`), then `result` or `error`.

    Three keywords are the job's own, not fn's: `what` names the work in the error said when
    its process dies; with `grace`, fn also gets `cancel`, an Event that cancel() sets, and
    the child is killed only if it has not ended `grace` seconds later (an export stops
    between frames and removes its temporary file itself). Without it cancel() kills at
    once. `nice` lowers the child's priority by so much where the system has niceness
    (POSIX): an export yields the cores to the window's preview."""

    def __init__(self, fn: Callable[..., Any], *args: Any, what: str = "painting",
                 grace: float | None = None, nice: int = 0, **kwargs: Any) -> None:
        spawn = multiprocessing.get_context("spawn")
        self._conn, self._child_end = spawn.Pipe(duplex=False)
        self._stop = spawn.Event() if grace is not None else None
        self._process = spawn.Process(target=_serve,
                                      args=(self._child_end, fn, args, kwargs, self._stop,
                                            nice),
                                      name=f"aquarelle-{what}", daemon=True)
        self.what = what
        self.grace = grace
        self.progress: Any = None  # the last one sent
        self.result: Any = None
        self.error: str | None = None
        self.cancelled = False
        self.killed = False  # ended by a kill (not by itself, asked or not)
        self.ended = False
        self._unstarted: str | None = None
        self._kill_at: float | None = None  # asked to stop: killed if still running then
        self._starter = threading.Thread(target=self._start, name=f"aquarelle-{what}-start",
                                         daemon=True)

    def start(self) -> None:
        """Start the child; its arguments (a big picture) go down the pipe from a thread of
        this process while the child starts up to read them (0.3 s for 16 MP)."""
        self._starter.start()

    def _start(self) -> None:
        try:
            self._process.start()
        except Exception as e:  # (no process to be had: memory, a limit) said by poll()
            self._unstarted = f"the {self.what}'s process did not start: " \
                              f"{type(e).__name__}: {e}"
        self._child_end.close()  # the child's copy is its own: once it is gone, EOF here

    @property
    def pid(self) -> int | None:
        return self._process.pid

    @property
    def tiles(self) -> tuple[int, int] | None:
        """A still's (tiles painted, tiles), once tiling started."""
        return self.progress

    def poll(self) -> bool:
        """Take what the child sent, without waiting; True once it has ended."""
        if self._starter.is_alive():
            return False
        if self._unstarted is not None and not self.ended:
            self._end(error=self._unstarted)
        while not self.ended:
            alive = self._process.is_alive()  # first: what it sent before it ended is read
            try:
                if not self._conn.poll():
                    if not alive:
                        raise EOFError
                    if self._kill_at is not None and time.monotonic() >= self._kill_at:
                        self._kill()  # (stuck in a draw, or it ignores the request)
                        break
                    return False
                kind, value = self._conn.recv()
            except (EOFError, OSError):
                self._process.join(1.0)  # (its end of the pipe closed: it is ending)
                if self._kill_at is not None:  # asked to stop, it did (by any way)
                    self.cancelled = True
                    self._end(error="cancelled")
                    break
                self._end(error=f"the {self.what}'s process ended without finishing it "
                                f"(exit code {self._process.exitcode})")
                break
            if kind == "progress":
                self.progress = value
            elif kind == "done":
                self._end(result=value)
            elif kind == "cancelled":
                self.cancelled = True
                self._end(error="cancelled")
            else:
                self._end(error=value)
        return True

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the end (reading what the child sends meanwhile: a big picture does not
        fit in the pipe); True once it has ended."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.poll():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            self._conn.poll(0.05 if left is None else min(0.05, left))
        return True

    def cancel(self) -> None:
        """Stop the child: at once (killed: for the window's paintings, which write no
        file), or with `grace`, asked first and killed only if it has not ended by then
        (poll() or wait() kills it; a file's writer then sweeps the temporary file it left:
        atomic.sweep_stale)."""
        if self.ended or self._kill_at is not None:
            return
        self._starter.join()
        if self._unstarted is None and self._stop is not None and self.grace:
            self._stop.set()
            self._kill_at = time.monotonic() + self.grace
            self.poll()
            return
        self._kill()

    def _kill(self) -> None:
        if self._unstarted is None:
            self.killed = True
            self._process.kill()
            self._process.join(5.0)
        self.cancelled = True
        self._end(error="cancelled")

    def _end(self, result: Any = None, error: str | None = None) -> None:
        self.result, self.error, self.ended = result, error, True
        self._conn.close()
        if self._unstarted is None and self._process.exitcode is None:
            # reaped when it exits (it sent all it had): no zombie, and no wait here
            threading.Thread(target=self._process.join, name=f"aquarelle-{self.what}-reap",
                             daemon=True).start()


def _serve(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...],
           kwargs: dict[str, Any], stop: Any = None, nice: int = 0) -> None:
    """The child: `fn` with its progress reported as it goes (a still's tiles, an export's
    frames), then its result, the error that stopped it (in one line, as the window shows
    it), or that it stopped when `stop` (an Event) asked it to."""
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # (not allowed: at the window's priority)
            os.nice(nice)
    def progress(*value: Any) -> None:
        conn.send(("progress", value[0] if len(value) == 1 else value))

    if stop is not None:
        kwargs = {**kwargs, "cancel": stop}
    try:
        message: tuple[str, Any] = ("done", fn(*args, progress=progress, **kwargs))
    except AquarelleError as e:
        message = ("error", str(e))
    except Exception as e:  # the window shows it; the child ends either way
        message = ("error", f"{type(e).__name__}: {e}")
    if message[0] == "error" and stop is not None and stop.is_set():
        message = ("cancelled", None)
    conn.send(message)
    conn.close()


def paint_picture(rgb: np.ndarray, style: AnyStyle, values: Mapping[str, Any], *,
                  seed: int = 0, scale: float = 1.0, shader_root: Path | None = None,
                  progress: Progress | None = None) -> np.ndarray:
    """The painting of an (H, W, 3) RGB picture (8 or 16 bits) as `aquarelle render` paints
    a still, in a GL context of its own."""
    from ..engine.context import create_headless_context
    from ..engine.renderer import Renderer
    from ..engine.still import paint_still

    ctx = create_headless_context()
    try:
        with Renderer(ctx, style, seed=seed, scale=scale, shader_root=shader_root,
                      deep=rgb.dtype == np.uint16) as renderer:
            renderer.set_params(values)
            return np.ascontiguousarray(paint_still(renderer, rgb, progress))
    finally:
        ctx.release()


def export_file(src: Path, dst: Path, style: AnyStyle, values: Mapping[str, Any], *,
                seed: int = 0, scale: float = 1.0, tile_above_px: int = TILE_ABOVE_PX,
                progress: Progress | None = None) -> tuple[tuple[int, int], list[str]]:
    """still_export.export_still: the size written and what the file could not keep."""
    from .still_export import export_still

    notes: list[str] = []
    size = export_still(src, dst, style, values, seed=seed, scale=scale, progress=progress,
                        notes=notes, tile_above_px=tile_above_px)
    return size, notes


def export_movie(src: Path, dst: Path, style: AnyStyle, values: Mapping[str, Any],
                 options: ExportOptions, *,
                 progress: Callable[[ExportProgress], None] | None = None,
                 cancel: Any = None) -> ExportResult:
    """export.export_video, as `aquarelle render` exports a video: the window's export, in
    its child (`cancel`: the job's Event, looked at between frames)."""
    from .export import export_video

    return export_video(src, dst, style, values, options, progress=progress, cancel=cancel)
