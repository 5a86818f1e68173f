"""Exporting the open video from the GUI: the media layer's export in a worker thread.

The worker makes its own headless EGL context (the GUI's context stays on the GUI thread),
a timer on the GUI thread shows its progress in a dialog with Cancel, and the window stays
usable meanwhile. Parameters are copied when the export starts.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QStandardPaths, Qt, QTimer
from PyQt6.QtWidgets import QFileDialog, QProgressDialog

from ..engine.errors import AquarelleError
from ..engine.style import StyleSpec
from ..media.errors import ExportCancelled

if TYPE_CHECKING:
    from ..media.export import ExportProgress, ExportResult
    from .main_window import MainWindow

POLL_MS = 100


class ExportJob:
    """One export running in a Python thread; poll `progress`, `result`, `error`."""

    def __init__(self, src: Path, dst: Path, style: StyleSpec, values: dict[str, Any],
                 seed: int = 0, scale: float = 1.0) -> None:
        self.src, self.dst = src, dst
        self._args = (style, values, seed, scale)
        self.cancel_event = threading.Event()
        self.progress: ExportProgress | None = None
        self.result: ExportResult | None = None
        self.error: str | None = None
        self.cancelled = False
        self._thread = threading.Thread(target=self._run, name="aquarelle-export", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def cancel(self) -> None:
        self.cancel_event.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the worker; True when it has finished."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _on_progress(self, p: ExportProgress) -> None:
        self.progress = p

    def _run(self) -> None:
        from ..media.export import ExportOptions, export_video

        style, values, seed, scale = self._args
        try:
            self.result = export_video(self.src, self.dst, style, values,
                                       ExportOptions(seed=seed, scale=scale),
                                       progress=self._on_progress, cancel=self.cancel_event)
        except ExportCancelled:
            self.cancelled = True
        except AquarelleError as e:
            self.error = str(e)
        except Exception as e:  # the worker must report, never take the app down
            self.error = f"{type(e).__name__}: {e}"


def export_source_path(window: MainWindow) -> Path | None:
    """The video file the window shows, if it is one that can be exported."""
    spec = window.source_spec
    if spec is None or window.source is None:
        return None
    if spec.kind == "demo":
        from .sources import demo_path

        return demo_path()
    if spec.kind == "file" and not getattr(window.source, "still", False):
        from ..media.image_io import is_image_path

        path = Path(spec.ref)
        return None if is_image_path(path) else path
    return None


def export_dialog(window: MainWindow) -> None:
    """Ask for an output file and start exporting the open video."""
    src = export_source_path(window)
    if src is None:
        window.error("Export", "Export works on video files: open one first (Ctrl+O).")
        return
    if window.export_job is not None and window.export_job.running:
        window.error("Export", "An export is already running.")
        return
    folder = window.default_dir("export", QStandardPaths.StandardLocation.MoviesLocation)
    suggestion = folder / f"{src.stem}-watercolor.mp4"
    path, _ = QFileDialog.getSaveFileName(window, "Export stylized video", str(suggestion),
                                          "MP4 video (*.mp4);;Matroska (*.mkv);;"
                                          "QuickTime (*.mov);;All files (*)")
    window.after_dialog()
    if path:
        start_export(window, Path(path))


def start_export(window: MainWindow, dst: Path) -> ExportJob | None:
    """Start exporting the open video to `dst` with the current settings."""
    src = export_source_path(window)
    if src is None:
        window.error("Export", "Export works on video files: open one first (Ctrl+O).")
        return None
    if dst.suffix == "":
        dst = dst.with_suffix(".mp4")
    state = window.state
    job = ExportJob(src, dst, state.style, state.params.values(), state.seed, state.scale)
    dialog = QProgressDialog(f"Exporting {src.name}\u2026", "Cancel", 0, 0, window)
    dialog.setWindowTitle("Export")
    dialog.setWindowModality(Qt.WindowModality.NonModal)
    dialog.setMinimumDuration(0)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    dialog.canceled.connect(job.cancel)
    window.export_job = job
    window.export_dialog_widget = dialog
    timer = QTimer(dialog)

    def poll() -> None:
        p = job.progress
        if p is not None:
            if p.total:
                dialog.setMaximum(p.total)
                dialog.setValue(min(p.done, p.total))
            eta = f", {p.eta:.0f} s left" if p.eta is not None else ""
            dialog.setLabelText(f"Exporting {src.name}: {p.done}"
                                f"{'/' + str(p.total) if p.total else ''} frames, "
                                f"{p.fps:.1f} fps{eta}")
        if job.running:
            return
        timer.stop()
        dialog.reset()
        dialog.hide()
        dialog.deleteLater()
        window.export_dialog_widget = None
        _finished(window, job)

    timer.timeout.connect(poll)
    timer.start(POLL_MS)
    job.start()
    dialog.show()
    window.status(f"Exporting to {dst}\u2026")
    return job


def _finished(window: MainWindow, job: ExportJob) -> None:
    if job.cancelled:
        window.status("Export cancelled; nothing was written")
    elif job.error is not None:
        window.error("Export failed", job.error)
    elif job.result is not None:
        r = job.result
        window.settings.set_last_dir("export", str(r.output.parent))
        extra = f", {r.lost} frames lost" if r.lost else ""
        window.status(f"Exported {r.frames} frames to {r.output} in {r.elapsed:.1f} s{extra}",
                      15000)
    window.exportFinished.emit(job)
