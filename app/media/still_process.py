"""Stills painted in a process of their own, for the window.

moderngl holds the GIL through each of its calls, and llvmpipe makes a draw wait for the
passes it reads: a thread painting a big still stops every other thread of its process for
seconds at a time (a 4899x3266 stereo picture: 13 s in one draw), the window's included,
which then neither repaints nor answers. A child process leaves the window free. It is
spawned, never forked (the window's GL context and threads stay behind); a frozen app calls
multiprocessing.freeze_support() first (scripts/packaging/aquarelle_entry.py).
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.chain_spec import AnyStyle
from ..engine.errors import AquarelleError
from ..engine.tile_plan import TILE_ABOVE_PX

Progress = Callable[[int, int], None]  # (tiles painted, tiles)


class ChildJob:
    """`fn(*args, progress=..., **kwargs)` in a spawned process, followed without waiting:
    `poll()` takes `tiles` (painted, total) as they come, then `result` or `error`."""

    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        spawn = multiprocessing.get_context("spawn")
        self._conn, self._child_end = spawn.Pipe(duplex=False)
        self._process = spawn.Process(target=_serve, args=(self._child_end, fn, args, kwargs),
                                      name="aquarelle-paint", daemon=True)
        self.tiles: tuple[int, int] | None = None
        self.result: Any = None
        self.error: str | None = None
        self.cancelled = False
        self.ended = False
        self._unstarted: str | None = None
        self._starter = threading.Thread(target=self._start, name="aquarelle-paint-start",
                                         daemon=True)

    def start(self) -> None:
        """Start the child; its arguments (a big picture) go down the pipe from a thread of
        this process while the child starts up to read them (0.3 s for 16 MP)."""
        self._starter.start()

    def _start(self) -> None:
        try:
            self._process.start()
        except Exception as e:  # (no process to be had: memory, a limit) said by poll()
            self._unstarted = f"the painting's process did not start: {type(e).__name__}: {e}"
        self._child_end.close()  # the child's copy is its own: once it is gone, EOF here

    @property
    def pid(self) -> int | None:
        return self._process.pid

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
                    if alive:
                        return False
                    raise EOFError
                kind, value = self._conn.recv()
            except (EOFError, OSError):
                self._process.join(1.0)  # (its end of the pipe closed: it is ending)
                self._end(error="the painting's process ended without finishing it (exit "
                                f"code {self._process.exitcode})")
                break
            if kind == "tiles":
                self.tiles = value
            elif kind == "done":
                self._end(result=value)
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
        """Stop the child where it is: for the window's paintings, which write no file (an
        export stopped so would leave its temporary file beside the output)."""
        if self.ended:
            return
        self._starter.join()
        if self._unstarted is None:
            self._process.kill()
            self._process.join(5.0)
        self.cancelled = True
        self._end(error="cancelled")

    def _end(self, result: Any = None, error: str | None = None) -> None:
        self.result, self.error, self.ended = result, error, True
        self._conn.close()
        if not self.cancelled and self._unstarted is None:
            # reaped when it exits (it sent all it had): no zombie, and no wait here
            threading.Thread(target=self._process.join, name="aquarelle-paint-reap",
                             daemon=True).start()


def _serve(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...],
           kwargs: dict[str, Any]) -> None:
    """The child: `fn` with its tiles reported as they are painted, then its result or the
    error that stopped it (in one line, as the window shows it)."""
    def progress(done: int, total: int) -> None:
        conn.send(("tiles", (done, total)))

    try:
        message: tuple[str, Any] = ("done", fn(*args, progress=progress, **kwargs))
    except AquarelleError as e:
        message = ("error", str(e))
    except Exception as e:  # the window shows it; the child ends either way
        message = ("error", f"{type(e).__name__}: {e}")
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
