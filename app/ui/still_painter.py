"""The window's big stills painted in a process of their own (media/still_process.py), so
the window keeps answering while a painting takes seconds on a CPU renderer: one painting at
a time, a newer order replacing the one in progress, followed by a timer on the GUI thread."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PyQt6.QtCore import QObject, QTimer, pyqtSignal

from ..engine.chain_spec import AnyStyle
from ..media.still_process import ChildJob, paint_picture

POLL_MS = 50
# A burst of changes (a slider dragged) starts one painting, this long after the last
DELAY_MS = 150


@dataclass(eq=False)
class PaintOrder:
    """What a painting is of: the picture (this very array), the pipeline it would be
    painted by on screen (a new one after a style change or a shader reload), the values."""

    image: np.ndarray
    pipeline: object
    style: AnyStyle
    values: dict[str, Any]
    seed: int
    scale: float
    shader_root: Path | None = None
    made: float = field(default_factory=time.monotonic)

    def same(self, other: PaintOrder | None) -> bool:
        """Whether `other` paints the same picture."""
        return other is not None and other.image is self.image \
            and other.pipeline is self.pipeline and other.values == self.values \
            and other.seed == self.seed and other.scale == self.scale \
            and other.shader_root == self.shader_root

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]


class StillPainter(QObject):
    """Paints the orders it is given in a child process; `painting` is the order in
    progress (None: none), `painted(order)` the picture once it came back."""

    changed = pyqtSignal()  # a painting started or ended (the window's indicator)
    ready = pyqtSignal()  # a painting came back: the viewport shows it
    failed = pyqtSignal(str)  # a painting failed: why, in one line

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.painting: PaintOrder | None = None
        self.job: ChildJob | None = None  # the child painting `painting`, once started
        self._done: tuple[PaintOrder, np.ndarray] | None = None
        self._failed: PaintOrder | None = None  # not tried again
        self._launched = 0.0
        self.took: float | None = None  # seconds the last painting that came back took
        self._delay = QTimer(self)
        self._delay.setSingleShot(True)
        self._delay.timeout.connect(self._launch)
        self._poll = QTimer(self)
        self._poll.timeout.connect(self._check)

    def painted(self, order: PaintOrder) -> np.ndarray | None:
        """The painting of `order`, if it came back."""
        done = self._done
        return done[1] if done is not None and done[0].same(order) else None

    def order(self, order: PaintOrder) -> None:
        """Paint `order` (unless it is in progress, painted, or failed), stopping the
        painting in progress: only the newest order is wanted."""
        if order.same(self.painting):
            return
        if self.painted(order) is not None or order.same(self._failed):
            if self.painting is not None:  # (a change, then back: the painting is there)
                self._stop()
                self.changed.emit()
            return
        self._stop()
        self.painting = order
        self._delay.start(DELAY_MS)
        self.changed.emit()

    def halt(self) -> None:
        """Stop the painting in progress (values are changing: it is no longer wanted), keeping
        the last one that came back."""
        if self.painting is not None:
            self._stop()
            self.changed.emit()

    def cancel(self) -> None:
        """Stop whatever is being painted and forget what was (a new source)."""
        busy = self.painting is not None
        self._stop()
        self._done = self._failed = None
        if busy:
            self.changed.emit()

    def _stop(self) -> None:
        self._delay.stop()
        self._poll.stop()
        if self.job is not None:
            self.job.cancel()
        self.job = self.painting = None

    def _launch(self) -> None:
        order = self.painting
        if order is None:
            return
        self.job = ChildJob(paint_picture, order.image, order.style, order.values,
                            seed=order.seed, scale=order.scale, shader_root=order.shader_root)
        self._launched = time.monotonic()
        self.job.start()
        self._poll.start(POLL_MS)

    def _check(self) -> None:
        job, order = self.job, self.painting
        if job is None or order is None or not job.poll():
            return
        self._poll.stop()
        self.job = self.painting = None
        if job.error is not None:
            self._failed = order
            self.changed.emit()
            self.failed.emit(job.error)
            return
        self._done = (order, job.result)
        self.took = time.monotonic() - self._launched
        self.changed.emit()
        self.ready.emit()
