"""Frame statistics for the status bar, and the dock that lists GPU time per pass."""

from __future__ import annotations

import statistics
import time
from collections import deque

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QDockWidget, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ..media.latency import LatencyMeter


class FrameStats:
    """Rolling counters: displayed source frames per second and what a frame costs (the
    measure adaptive quality steers by: engine.frame_timer.frame_cost)."""

    def __init__(self, window_s: float = 2.0) -> None:
        self.window_s = window_s
        self._frames: deque[float] = deque()
        self._cost_ms: deque[tuple[float, float]] = deque()  # (when, ms)
        self.latency = LatencyMeter()  # live frames: capture to shown
        self.renders = 0  # pipeline renders since start (tests count coalescing with it)

    def frame_shown(self, now: float | None = None) -> None:
        """A new source frame was stylized and drawn."""
        now = time.perf_counter() if now is None else now
        self._frames.append(now)
        self._trim(now)

    def frame_cost(self, seconds: float, now: float | None = None) -> None:
        """Record what one painting of a frame cost: the host's work and the GPU's, as
        adaptive quality is told it (frame_cost), or a big still's painting apart."""
        now = time.perf_counter() if now is None else now
        self._cost_ms.append((now, seconds * 1000.0))
        # the paintings of the last window (the fps's), the last one at least: a step of
        # adaptive quality shows within it (60 paintings were 7 s of a slow video)
        while len(self._cost_ms) > 1 and now - self._cost_ms[0][0] > self.window_s:
            self._cost_ms.popleft()

    def _trim(self, now: float) -> None:
        while self._frames and now - self._frames[0] > self.window_s:
            self._frames.popleft()

    def fps(self, now: float | None = None) -> float:
        """Frames shown per second, from the intervals between the frames of the last window
        (a count per window would only ever show multiples of 1 / window)."""
        now = time.perf_counter() if now is None else now
        self._trim(now)
        if len(self._frames) < 2:
            return 0.0
        span = self._frames[-1] - self._frames[0]
        return (len(self._frames) - 1) / span if span > 0 else 0.0

    def frame_ms(self) -> float | None:
        """Median cost of the last window's paintings in milliseconds (see frame_cost)."""
        return statistics.median(ms for _, ms in self._cost_ms) if self._cost_ms else None

    def reset(self) -> None:
        """Forget everything (new source)."""
        self._frames.clear()
        self._cost_ms.clear()
        self.latency = LatencyMeter()


class PassTimesDock(QDockWidget):
    """GPU milliseconds per pass of the last frame (from GL timer queries)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("GPU pass times", parent)
        self.setObjectName("passTimesDock")
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        self.total = QLabel("no frame rendered yet", body)
        self.tree = QTreeWidget(body)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["pass", "ms"])
        self.tree.setRootIsDecorated(False)
        self.tree.setColumnWidth(0, 160)
        layout.addWidget(self.total)
        layout.addWidget(self.tree)
        self.setWidget(body)
        self.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea
                             | Qt.DockWidgetArea.RightDockWidgetArea
                             | Qt.DockWidgetArea.BottomDockWidgetArea)

    def show_times(self, times: dict[str, float]) -> None:
        """Replace the list with `times` (pass name -> ms)."""
        if not times:
            return
        self.tree.clear()
        for name, ms in times.items():
            item = QTreeWidgetItem([name, f"{ms:.2f}"])
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
            self.tree.addTopLevelItem(item)
        # (the passes and the steps around them: the upload, resizes, the draft finish)
        self.total.setText(f"total {sum(times.values()):.2f} ms over {len(times)} steps")
