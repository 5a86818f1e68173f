"""The status bar's permanent figures (REC, live, source size, zoom, fps, frame time,
dropped frames) and its "Show in folder" link."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PyQt6.QtCore import QObject, QTimer, QUrl
from PyQt6.QtWidgets import QLabel, QStatusBar

from ..media.source import FrameSource
from .stats import FrameStats

FOLDER_LINK_MS = 15000


class StatusLabels(QObject):
    """Owns the labels; the window tells it what to show."""

    def __init__(self, bar: QStatusBar, open_folder: Callable[[Path], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.fps = QLabel("-- fps")
        self.fps.setToolTip("Frames stylized and shown per second")
        self.frame = QLabel("-- ms")
        self.frame.setToolTip("What painting a frame costs (median of the last ones): the "
                              "CPU's work and the GPU's, added on a CPU renderer, the slower "
                              "of the two on a GPU. Adaptive quality steers by it: over "
                              "1/fps of the video or camera, it paints smaller")
        self.res = QLabel("no source")
        self.dropped = QLabel("")
        self.live = QLabel("")
        self.live.setToolTip("Live: the processing scale adaptive quality chose, the latency "
                             "from capture to screen (median, 95th percentile), the virtual "
                             "camera and the latency from capture to its send")
        self.zoom = QLabel("")
        self.zoom.setToolTip("Zoom: 100% shows one image pixel per screen pixel")
        self.rec = QLabel("")
        self.rec.setStyleSheet("color: #d33; font-weight: bold;")
        self.folder_link = QLabel("")
        self.folder_link.setOpenExternalLinks(False)
        self.folder_link.setToolTip("Open the folder in the file manager")
        self.folder_link.linkActivated.connect(
            lambda url: open_folder(Path(QUrl(url).toLocalFile())))
        bar.addWidget(self.folder_link)
        for w in (self.rec, self.live, self.res, self.zoom, self.fps, self.frame,
                  self.dropped):
            bar.addPermanentWidget(w)
        self._folder_timer = QTimer(self)
        self._folder_timer.setSingleShot(True)
        self._folder_timer.timeout.connect(self.folder_link.clear)

    def show_stats(self, stats: FrameStats, source: FrameSource | None, live: str,
                   named: bool = True, shown: tuple[int, int] | None = None) -> None:
        """The figures of the last moments (`named`: the source's picture is on screen; else
        the size stays the one of the picture shown; `shown`: the size of the frame on
        screen)."""
        # (a still has no rate: painted once, and again for each change; a paused video
        # neither: its "0.0 fps" read as a stalled painter)
        if source is not None and source.still:
            self.fps.setText("-- fps")
        elif source is not None and source.paused and not source.live:
            self.fps.setText("paused")
        else:
            self.fps.setText(f"{stats.fps():.1f} fps")
        ms = stats.frame_ms()
        self.frame.setText(f"{ms:.1f} ms" if ms is not None else "-- ms")
        self.live.setText(live)
        if source is None:  # (a camera lost: not its size and drops any more)
            self.res.setText("")
            self.dropped.setText("")
            return
        if named:
            self.show_resolution(source, shown)
        if source.live:
            self.dropped.setText(f"dropped {source.dropped}")
            self.dropped.setToolTip("Camera frames that arrived while the previous one was "
                                    "still being painted (the newest wins)")
        else:
            self.dropped.setText(f"skipped {source.dropped}" if source.dropped else "")
            self.dropped.setToolTip("Frames of the file skipped to keep playback in real time "
                                    "(an export renders every frame)")

    def show_resolution(self, source: FrameSource,
                        shown: tuple[int, int] | None = None) -> None:
        """The source's size; a video's or a camera's as its frame on screen has it (a
        stream that changes size on the way: its header's stayed)."""
        w, h = shown if shown is not None and not source.still else source.size
        self.res.setText(f"{w}\u00d7{h}" if w and h else "starting\u2026")

    def show_zoom(self, percent: float | None) -> None:
        self.zoom.setText(f"{percent:.0f}%" if percent is not None else "")

    def show_recording(self, frames: int | None) -> None:
        """"● REC n" while recording (frames), nothing otherwise (None)."""
        self.rec.setText(f"\u25cf REC {frames}" if frames is not None else "")

    def show_folder_link(self, folder: Path) -> None:
        """A clickable "Show in folder" for a while."""
        self.folder_link.setText(f'<a href="{folder.as_uri()}">Show in folder</a>')
        self._folder_timer.start(FOLDER_LINK_MS)

    def stop(self) -> None:
        self._folder_timer.stop()
