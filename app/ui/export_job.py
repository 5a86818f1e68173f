"""Exporting the open video from the GUI: the media layer's export in a process of its own.

In a thread of the window's process the export stalled the window: moderngl holds the GIL
through each call and llvmpipe makes a draw wait, so the GUI thread waited for the GIL
(media/still_process.py: the same for big stills). The child makes its own headless EGL
context, a timer on the GUI thread shows its progress in a dialog with Cancel, and the
window stays usable meanwhile. Parameters are copied when the export starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QObject, Qt, QTimer, pyqtSignal
from PyQt6.QtWidgets import QDialog, QFileDialog, QMessageBox, QProgressDialog, QWidget

from ..engine.chain_spec import AnyStyle, painted_size
from ..engine.still import whole_reason
from ..engine.tile_plan import TILE_ABOVE_PX
from ..media.atomic import sweep_stale
from ..media.export import ExportOptions
from ..media.paths import is_part_of
from ..media.source import FrameSource
from ..media.sources import StillImageSource
from ..media.still_process import ChildJob, export_movie
from . import playback
from .child_export import EXPORT_NICE, ChildExport
from .export_dialog import ExportChoice, ExportDialog
from .feedback import Feedback
from .image_names import STILL_FILTERS, with_filter_suffix
from .render_state import RenderState
from .settings import Settings
from .sources import SourceSpec
from .still_export_job import StillExportJob

if TYPE_CHECKING:
    from ..media.export import ExportProgress, ExportResult

POLL_MS = 100
# Cancel asks the child to stop (between frames: the export removes its temporary file);
# one stuck longer in a frame (a big one on a slow GPU) is killed and its file swept
STOP_GRACE_S = 2.0


class ExportJob(ChildExport):
    """One export running in a child process; `start()`, then poll `running`, `progress`;
    `result`, `error`, `cancelled` once it has ended."""

    # what the child runs (picklable: the child imports it); a test may hold it there
    work: Callable[..., Any] = staticmethod(export_movie)

    def __init__(self, src: Path, dst: Path, style: AnyStyle, values: dict[str, Any],
                 options: ExportOptions | None = None) -> None:
        super().__init__(src, dst, ChildJob(self.work, src, dst, style, dict(values),
                                            options or ExportOptions(), what="export",
                                            grace=STOP_GRACE_S, nice=EXPORT_NICE))
        self.progress: ExportProgress | None = None
        self.result: ExportResult | None = None
        self._told = False  # the child's end taken

    def cancel(self) -> None:
        """Stop the export: the child stops before its next frame, or is killed after
        STOP_GRACE_S; either way no file is left, temporary or not."""
        self._child.cancel()
        self._poll()

    def _poll(self) -> bool:
        child = self._child
        ended = child.poll()
        if child.progress is not None:
            self.progress = child.progress
        if not ended or self._told:
            return ended
        self._told = True
        if child.cancelled:
            self.cancelled = True
        elif child.error is not None:
            self.error = child.error
        else:
            self.result = child.result
        if self.result is None:  # a child killed (or dead) leaves its temporary file
            sweep_stale(self.dst)
        return True


SourceGetter = Callable[[], tuple[SourceSpec | None, FrameSource | None]]
FolderGetter = Callable[[str], Path]  # "export", "snapshot" -> the folder to offer


class ExportController(QObject):
    """The app's Export action: the dialog, the job in the background with its progress
    dialog, and the "done" box. Gets what it needs, never the window."""

    finished = pyqtSignal(object)  # the ExportJob, when it ends (done, failed, cancelled)
    stillFinished = pyqtSignal(object)  # the StillExportJob of a big still, when it ends

    def __init__(self, parent: QWidget, feedback: Feedback, settings: Settings,
                 state: RenderState, source: SourceGetter, default_dir: FolderGetter,
                 save_snapshot: Callable[[Path], bool], after_dialog: Callable[[], None],
                 here: Callable[[], float | None]) -> None:
        super().__init__(parent)
        self.widget = parent
        self.feedback = feedback
        self.settings = settings
        self.state = state
        self._source = source
        self._default_dir = default_dir
        self._save_snapshot = save_snapshot
        self._after_dialog = after_dialog
        self._here = here  # the time of the frame on screen ("Current position")
        self.job: Any = None  # the last ExportJob
        self.still_job: StillExportJob | None = None  # the last big still's
        self.tile_above_px = TILE_ABOVE_PX  # a still exported over this is painted in tiles
        self.progress_dialog: QProgressDialog | None = None
        self.done_box: QMessageBox | None = None  # the last "export finished" box

    def source_path(self) -> Path | None:
        """The video file on screen, if it is one that can be exported."""
        spec, source = self._source()
        if spec is None or source is None:
            return None
        if spec.kind == "demo":
            from .sources import demo_path

            return demo_path()
        if spec.kind == "file" and not getattr(source, "still", False):
            from ..media.image_formats import is_image_path

            path = Path(spec.ref)
            return None if is_image_path(path) else path
        return None

    def open_dialog(self) -> None:
        """Ask where and how to export the open video (or still image), then start."""
        spec, source = self._source()
        if spec is not None and source is not None and self.source_path() is None:
            self.export_still()
            return
        src = self.source_path()
        if src is None or source is None:
            self.feedback.error("Export", "Export works on image and video files: open one "
                                "first (Ctrl+O).")
            return
        if self.job is not None and self.job.running:
            self.feedback.error("Export", "An export is already running.")
            return
        folder = src.parent  # next to the source, as users of video tools expect
        if spec is None or spec.kind != "file" or not _writable(folder):
            folder = self._default_dir("export")
        dialog = ExportDialog(src, folder, playback.duration(source),
                              self._here(), self.widget, size=source.size,
                              pixel_aspect=source.pixel_aspect,
                              remembered=self.settings.export_memory(),
                              painted=self.painted)
        while dialog.exec() == QDialog.DialogCode.Accepted:
            choice = dialog.choice()
            # kept for the next export (a codec without GPU encoders keeps the encoder shown)
            self.settings.set_export_memory(dialog.memory())
            dst = choice.path if choice.path.suffix else choice.path.with_suffix(".mp4")
            if not dst.exists() or QMessageBox.question(
                    self.widget, "Export", f"{dst.name} already exists in {dst.parent}.\n\n"
                    "Replace it?") == QMessageBox.StandardButton.Yes:
                self._after_dialog()
                self.start(choice)
                return
        self._after_dialog()

    def painted(self, size: tuple[int, int]) -> tuple[int, int]:
        """The size of the picture the look on screen paints from a frame of `size` (an
        upscaler's larger, a side-by-side stereo pair's twice as wide)."""
        return painted_size(self.state.style, self.state.params.values(), size)

    def export_still(self) -> None:
        """Ctrl+E on an image: save the painted still at the image's full resolution."""
        spec, _ = self._source()
        is_file = spec is not None and spec.kind == "file"
        stem = Path(spec.ref).stem if spec is not None and is_file else "aquarelle"
        folder = Path(spec.ref).parent if spec is not None and is_file else \
            self._default_dir("snapshot")
        start = str(folder / f"{stem}-watercolor.png")
        while True:
            path, kind = QFileDialog.getSaveFileName(
                self.widget, "Export painted image", start, ";;".join(STILL_FILTERS))
            self._after_dialog()
            if not path:
                return
            dst = with_filter_suffix(Path(path), kind)
            if spec is None or not is_file or not is_part_of(dst, spec.ref):
                break
            # (the photo itself, replaced by its painting: lost)
            self.feedback.error("Export", f"{dst.name} is the picture being painted: "
                                "choose another name.")
            start = str(dst.with_name(f"{stem}-watercolor{dst.suffix}"))
        _, source = self._source()
        if isinstance(source, StillImageSource) and source.path:
            # painted from the file, as `aquarelle render` paints it: at its full size (a big
            # one is shown smaller), 16 bits, its alpha, colour profile and EXIF kept
            self.start_still(source.path, dst, source.full_size or source.size)
        elif self._save_snapshot(dst):
            self.notify_done(f"Exported {dst.name}", dst.parent)

    def start_still(self, src: Path, dst: Path, size: tuple[int, int]) -> StillExportJob:
        """Paint a still at its full size in the background, with a progress dialog: the
        tiles painted, or for one painted whole a busy bar and the time so far."""
        state = self.state
        job = StillExportJob(src, dst, state.style, state.params.values(), seed=state.seed,
                             scale=state.scale, tile_above_px=self.tile_above_px)
        out = self.painted(size)
        label = f"Painting {src.name} at {size[0]}x{size[1]}" + \
            (f" into {out[0]}x{out[1]}" if out != size else "")
        whole = painted_whole(state.style, state.params.values(), size, state.scale,
                              self.tile_above_px)
        # (its painter is a process of its own: Cancel stops it at once, nothing written)
        dialog = QProgressDialog(f"{label}{whole}\u2026", "Cancel", 0, 0, self.widget)
        dialog.setWindowTitle("Export")
        dialog.setWindowModality(Qt.WindowModality.NonModal)
        dialog.setMinimumDuration(0)
        dialog.canceled.connect(job.cancel)
        self.still_job = job
        started = time.monotonic()

        def show() -> None:
            tiles = job.tiles
            if tiles is not None:
                done, total = tiles
                dialog.setMaximum(total)
                dialog.setValue(done)
                dialog.setLabelText(f"{label}: tile {done}/{total}")
                return
            m, sec = divmod(int(time.monotonic() - started), 60)
            dialog.setLabelText(f"{label}{whole}\u2026 {m}:{sec:02d}")

        def finished() -> None:
            if job.cancelled:  # (the window closing: no dialog over what was asked for)
                self.feedback.status("Export cancelled; nothing was written")
            elif job.error is not None:
                self.feedback.error("Export failed", job.error)
            else:
                self.notify_done(f"Exported {dst.name} ({out[0]}x{out[1]})", dst.parent,
                                 job.notes)
            self.stillFinished.emit(job)

        self._follow(job, dialog, show, finished)
        self.feedback.status(f"Painting {src.name} at full size to {dst}\u2026")
        return job

    def _follow(self, job: ExportJob | StillExportJob, dialog: QProgressDialog,
                show: Callable[[], None], finished: Callable[[], None]) -> None:
        """Start `job`, `show` its progress in `dialog` until it ends, then close the dialog
        and call `finished` (on the GUI thread, from a timer)."""
        timer = QTimer(dialog)

        def poll() -> None:
            show()
            if job.running:
                return
            timer.stop()
            dialog.reset()
            dialog.hide()
            dialog.deleteLater()
            finished()

        timer.timeout.connect(poll)
        timer.start(POLL_MS)
        # Esc (or the title bar's close) only hid the dialog: the work went on unseen, with
        # no Cancel left on screen; it cancels, as its button does
        dialog.rejected.connect(job.cancel)
        job.start()
        dialog.show()

    def start(self, choice: ExportChoice | Path) -> ExportJob | None:
        """Start exporting the open video with the current look (a plain path: defaults)."""
        src = self.source_path()
        if src is None:
            self.feedback.error("Export", "Export works on video files: open one first "
                                "(Ctrl+O).")
            return None
        if isinstance(choice, Path):
            choice = ExportChoice(path=choice, codec="", crf=None, size=None, start=0.0,
                                  end=None, audio=True)
        dst = choice.path if choice.path.suffix else choice.path.with_suffix(".mp4")
        state = self.state
        options = ExportOptions(codec=choice.codec or None, crf=choice.crf, size=choice.size,
                                start=choice.start, end=choice.end, audio=choice.audio,
                                subtitles=choice.subtitles, metadata=choice.metadata,
                                seed=state.seed, scale=state.scale,
                                video_lines=state.video_lines,
                                encoder=choice.encoder, decoder=choice.decoder)
        job = ExportJob(src, dst, state.style, state.params.values(), options)
        dialog = QProgressDialog(f"Exporting {src.name}\u2026", "Cancel", 0, 0, self.widget)
        dialog.setWindowTitle("Export")
        dialog.setWindowModality(Qt.WindowModality.NonModal)
        dialog.setMinimumDuration(0)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(job.cancel)
        self.job = job
        self.progress_dialog = dialog

        def show() -> None:
            p = job.progress
            if p is not None:
                if p.total:
                    dialog.setMaximum(p.total)
                    dialog.setValue(min(p.done, p.total))
                eta = f", {p.eta:.0f} s left" if p.eta is not None else ""
                coders = f" ({p.encoder})" if p.encoder else ""  # e.g. h264 on cuda -> ...
                dialog.setLabelText(f"Exporting {src.name}{coders}: {p.done}"
                                    f"{'/' + str(p.total) if p.total else ''} frames, "
                                    f"{p.fps:.1f} fps{eta}")

        def finished() -> None:
            self.progress_dialog = None
            self._finished(job)

        self._follow(job, dialog, show, finished)
        self.feedback.status(f"Exporting to {dst}\u2026")
        return job

    def _finished(self, job: ExportJob) -> None:
        if job.cancelled:
            self.feedback.status("Export cancelled; nothing was written")
        elif job.error is not None:
            self.feedback.error("Export failed", _in_dialog_words(job.error))
        elif job.result is not None:
            r = job.result
            self.settings.set_last_dir("export", str(r.output.parent))
            extra = f", {r.lost} frames lost" if r.lost else ""
            self.notify_done(f"Exported {r.frames} frames to {r.output.name} in "
                             f"{r.elapsed:.1f} s{extra}", r.output.parent,
                             [_in_dialog_words(w) for w in r.warnings])
        self.finished.emit(job)

    def notify_done(self, text: str, folder: Path, notes: list[str] | None = None
                    ) -> QMessageBox:
        """A non-blocking "done" box with Show in folder (and the same in the status bar);
        `notes`: what the export could not keep (streams left out, bits lost)."""
        self.feedback.status(text, 15000)
        self.feedback.show_folder_link(folder)
        box = QMessageBox(QMessageBox.Icon.Information, "Export finished", text,
                          QMessageBox.StandardButton.Close, self.widget)
        if notes:
            box.setInformativeText("\n".join(f"Note: {n}" for n in notes))
        show = box.addButton("Show in folder", QMessageBox.ButtonRole.ActionRole)
        if show is not None:
            show.clicked.connect(lambda: self.feedback.open_folder(folder))
        box.setModal(False)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.show()
        self.done_box = box
        return box


# The command line's words in media errors and notes, and the dialog's for the same choice
DIALOG_WORDS = (("--encoder hardware", "GPU encoding (Encoder: GPU only)"),
                ("--decoder hardware", "GPU decoding (Decoder: GPU only)"),
                ("use --codec ", "choose the codec "), ("--start", "the start"),
                ("--end", "the end"), ("--crf", "Quality (CRF)"))


def _in_dialog_words(error: str) -> str:
    """A media error or note in the dialog's words (the command line's option names its
    choice)."""
    for cli, dialog in DIALOG_WORDS:
        error = error.replace(cli, dialog)
    return error


def painted_whole(style: AnyStyle, values: dict[str, Any], size: tuple[int, int],
                  scale: float, above_px: int = TILE_ABOVE_PX) -> str:
    """" whole (STYLE cannot be painted in tiles)" for a still over `above_px` pixels that
    its style paints whole (engine/still.py: no tiles to count, so no share of it done to
    show), else ""."""
    why = whole_reason(style, values, size, scale, above_px=above_px)
    return f" whole ({why})" if why else ""


def _writable(folder: Path) -> bool:
    import os

    return os.access(folder, os.W_OK)
