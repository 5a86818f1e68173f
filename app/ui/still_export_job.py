"""Exporting a still from the GUI at its full size (the window shows a big one smaller): the
media layer's export_still in a process of its own (media/still_process.py: painted in a
thread, it would stop the window for seconds at a time), its tiles' progress polled on the
GUI thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.chain_spec import AnyStyle
from ..engine.tile_plan import TILE_ABOVE_PX
from ..media.atomic import sweep_stale
from ..media.still_process import ChildJob, export_file
from .child_export import EXPORT_NICE, ChildExport


class StillExportJob(ChildExport):
    """One still painted at full size in a child process; `start()`, then poll `running`,
    `tiles`; `size`, `error`, `notes` once it has ended."""

    def __init__(self, src: Path, dst: Path, style: AnyStyle, values: dict[str, Any], *,
                 seed: int = 0, scale: float = 1.0, tile_above_px: int = TILE_ABOVE_PX) -> None:
        super().__init__(src, dst, ChildJob(export_file, src, dst, style, dict(values),
                                            seed=seed, scale=scale,
                                            tile_above_px=tile_above_px, nice=EXPORT_NICE))
        self.size: tuple[int, int] | None = None  # what was written, when done
        self.notes: list[str] = []  # what the file could not keep (16 bits in a JPEG)

    @property
    def tiles(self) -> tuple[int, int] | None:
        """(painted, total) once tiling started; None for a still painted whole."""
        self._poll()
        return self._child.tiles

    def cancel(self) -> None:
        """Stop the painting (the window closing): the child is killed and the temporary
        file it was writing beside the output removed; no file is left."""
        if not self._child.ended:
            self.cancelled = True
            self._child.cancel()
            sweep_stale(self.dst)
        self._poll()

    def _poll(self) -> bool:
        child = self._child
        if not child.poll():
            return False
        if child.error is not None:
            self.error = child.error
        elif self.size is None:
            self.size, self.notes = child.result
        return True
