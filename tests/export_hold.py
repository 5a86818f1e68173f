"""An export held in its child process after its first frame, for the GUI's cancel tests
(the window exports in a spawned process: a monkeypatch in the test's process never reaches
it, so the hold goes down with the job: ExportJob.work)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from aquarelle.media.still_process import export_movie


def held_export(gate: Any, *args: Any, progress: Callable[[Any], None] | None = None,
                **kwargs: Any) -> Any:
    """export_movie, held after each frame's progress until `gate` (a spawn-context
    Semaphore(0)) is released (run in the child). A semaphore, not an Event: an Event's
    set() waits for its sleepers to wake, and a killed child never does."""
    def held(p: Any) -> None:
        if progress is not None:
            progress(p)
        if gate.acquire(timeout=60.0):
            gate.release()  # (the next frames go by)

    return export_movie(*args, progress=held, **kwargs)


def holding(gate: Any) -> Callable[..., Any]:
    """What ExportJob.work becomes: the export held on `gate`."""
    return functools.partial(held_export, gate)
