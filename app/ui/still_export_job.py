"""Exporting a big still from the GUI at its full size (the window shows it smaller): the
media layer's export_still in a worker thread with its own GL context, its tiles' progress
polled on the GUI thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.chain_spec import AnyStyle
from ..engine.errors import AquarelleError
from .thread_job import ThreadJob


class StillExportJob(ThreadJob):
    """One still painted at full size in a Python thread; poll `tiles`, `size`, `error`."""

    def __init__(self, src: Path, dst: Path, style: AnyStyle, values: dict[str, Any], *,
                 seed: int = 0, scale: float = 1.0) -> None:
        super().__init__("aquarelle-still")
        self.src, self.dst = src, dst
        self._args = (style, dict(values), seed, scale)
        self.tiles: tuple[int, int] | None = None  # (painted, total) once tiling starts
        self.size: tuple[int, int] | None = None  # what was written, when done
        self.error: str | None = None
        self.notes: list[str] = []  # what the file could not keep (16 bits in a JPEG)

    def _progress(self, done: int, total: int) -> None:
        self.tiles = (done, total)

    def _run(self) -> None:
        from ..media.still_export import export_still

        style, values, seed, scale = self._args
        try:
            self.size = export_still(self.src, self.dst, style, values, seed=seed,
                                     scale=scale, progress=self._progress, notes=self.notes)
        except AquarelleError as e:
            self.error = str(e)
        except Exception as e:  # the worker must report, never take the app down
            self.error = f"{type(e).__name__}: {e}"
