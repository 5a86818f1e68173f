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
from PyQt6.QtWidgets import QDialog, QFileDialog, QMessageBox, QProgressDialog

from ..engine.errors import AquarelleError
from ..engine.style import StyleSpec
from ..media.errors import ExportCancelled
from ..media.export import ExportOptions
from . import playback
from .export_dialog import ExportChoice, ExportDialog

if TYPE_CHECKING:
    from ..media.export import ExportProgress, ExportResult
    from .main_window import MainWindow

POLL_MS = 100


class ExportJob:
    """One export running in a Python thread; poll `progress`, `result`, `error`."""

    def __init__(self, src: Path, dst: Path, style: StyleSpec, values: dict[str, Any],
                 options: ExportOptions | None = None) -> None:
        self.src, self.dst = src, dst
        self._args = (style, values, options or ExportOptions())
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
        from ..media.export import export_video

        style, values, options = self._args
        try:
            self.result = export_video(self.src, self.dst, style, values, options,
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
    """Ask where and how to export the open video (or still image), then start."""
    if window.source_spec is not None and window.source is not None \
            and export_source_path(window) is None:
        export_still(window)
        return
    src = export_source_path(window)
    if src is None:
        window.error("Export", "Export works on image and video files: open one first "
                     "(Ctrl+O).")
        return
    if window.export_job is not None and window.export_job.running:
        window.error("Export", "An export is already running.")
        return
    spec = window.source_spec
    folder = src.parent  # next to the source, as users of video tools expect
    if spec is None or spec.kind != "file" or not _writable(folder):
        folder = window.default_dir("export", QStandardPaths.StandardLocation.MoviesLocation)
    src_now = window.source
    dialog = ExportDialog(src, folder, playback.duration(src_now), playback.position(src_now),
                          window)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    window.after_dialog()
    if accepted:
        start_export(window, dialog.choice())


def _writable(folder: Path) -> bool:
    import os

    return os.access(folder, os.W_OK)


def export_still(window: MainWindow) -> None:
    """Ctrl+E on an image: save the painted still at the image's full resolution."""
    spec = window.source_spec
    stem = Path(spec.ref).stem if spec is not None and spec.kind == "file" else "aquarelle"
    folder = Path(spec.ref).parent if spec is not None and spec.kind == "file" else \
        window.default_dir("snapshot", QStandardPaths.StandardLocation.PicturesLocation)
    path, _ = QFileDialog.getSaveFileName(
        window, "Export painted image", str(folder / f"{stem}-watercolor.png"),
        "PNG (*.png);;JPEG (*.jpg *.jpeg);;WebP (*.webp);;TIFF (*.tif *.tiff)")
    window.after_dialog()
    if path and window.save_snapshot(Path(path)):
        notify_done(window, f"Exported {Path(path).name}", Path(path).parent)


def start_export(window: MainWindow, choice: ExportChoice | Path) -> ExportJob | None:
    """Start exporting the open video with the current look (a plain path: defaults)."""
    src = export_source_path(window)
    if src is None:
        window.error("Export", "Export works on video files: open one first (Ctrl+O).")
        return None
    if isinstance(choice, Path):
        choice = ExportChoice(path=choice, codec="", crf=None, width=None, start=0.0,
                              end=None, audio=True)
    dst = choice.path if choice.path.suffix else choice.path.with_suffix(".mp4")
    state = window.state
    options = ExportOptions(codec=choice.codec or None, crf=choice.crf,
                            size=(choice.width, -1) if choice.width else None,
                            start=choice.start, end=choice.end, audio=choice.audio,
                            seed=state.seed, scale=state.scale)
    job = ExportJob(src, dst, state.style, state.params.values(), options)
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
        notify_done(window, f"Exported {r.frames} frames to {r.output.name} in "
                    f"{r.elapsed:.1f} s{extra}", r.output.parent)
    window.exportFinished.emit(job)


def notify_done(window: MainWindow, text: str, folder: Path) -> QMessageBox:
    """A non-blocking "done" box with Show in folder (and the same in the status bar)."""
    window.status(text, 15000)
    window.show_folder_link(folder)
    box = QMessageBox(QMessageBox.Icon.Information, "Export finished", text,
                      QMessageBox.StandardButton.Close, window)
    show = box.addButton("Show in folder", QMessageBox.ButtonRole.ActionRole)
    if show is not None:
        show.clicked.connect(lambda: window.open_folder(folder))
    box.setModal(False)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.show()
    window.done_box = box
    return box
