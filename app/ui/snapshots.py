"""Snapshots of the painted frame and the folders things are saved to."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from PyQt6.QtCore import QObject
from PyQt6.QtWidgets import QFileDialog, QWidget

from ..engine.errors import AquarelleError
from ..media.image_write import painting_to_write, write_image
from ..media.paths import is_part_of
from ..platforms import current_media_dir
from .feedback import Feedback
from .image_names import STILL_FILTERS, with_filter_suffix
from .recorder import unused_name
from .settings import Settings
from .viewport import Viewport

KINDS = {"snapshot": "Snapshots", "record": "Recordings", "export": "Exports"}


class SnapshotController(QObject):
    """Saves what the viewport paints (Ctrl+Shift+S, Ctrl+Alt+S) and knows the folders."""

    def __init__(self, widget: QWidget, viewport: Viewport, settings: Settings,
                 feedback: Feedback, after_dialog: Callable[[], None],
                 source_file: Callable[[], Path | None] = lambda: None,
                 full_size: Callable[[], tuple[int, int] | None] = lambda: None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.widget, self.viewport, self.settings = widget, viewport, settings
        self.feedback, self.after_dialog = feedback, after_dialog
        self.source_file = source_file  # the file on screen (never saved over)
        self.full_size = full_size  # a big still's own size, where it is shown smaller
        self.folder: Path | None = None  # None: the last folder used, else Pictures

    def default_dir(self, kind: str) -> Path:
        """The folder last used for `kind` ("snapshot", "record", "export"), else the
        system's folder for it (Pictures for snapshots, else Videos / Movies), else home."""
        last = self.settings.last_dir(kind)
        if last and Path(last).is_dir():
            return Path(last)
        folder = current_media_dir("pictures" if kind == "snapshot" else "videos")
        if folder:
            with contextlib.suppress(OSError):  # e.g. ~/Pictures on a fresh account
                Path(folder).mkdir(parents=True, exist_ok=True)
            if Path(folder).is_dir():
                return Path(folder)
        return Path.home()

    def choose_folder(self, kind: str) -> Path | None:
        """Pick where snapshots ("snapshot") or recordings ("record") go (kept)."""
        start = self.default_dir(kind)
        chosen = QFileDialog.getExistingDirectory(self.widget, f"Folder for {kind}s",
                                                  str(start))
        self.after_dialog()
        if not chosen:
            return None
        self.settings.set_last_dir(kind, chosen)
        if kind == "snapshot":
            self.folder = None  # the chosen folder, not a session override
        self.feedback.status(f"{KINDS.get(kind, kind)} go to {chosen}")
        return Path(chosen)

    def snapshot(self) -> Path | None:
        """Save the painted frame (full source resolution) as a PNG in the snapshot folder,
        under a new name."""
        folder = self.folder or self.default_dir("snapshot")
        path = unused_name(folder, time.strftime("aquarelle-%Y%m%d-%H%M%S"), ".png")
        return path if self.save(path) else None

    def snapshot_as(self) -> None:
        folder = self.default_dir("snapshot")
        path, kind = QFileDialog.getSaveFileName(
            self.widget, "Save snapshot", str(folder / "aquarelle.png"),
            ";;".join((*STILL_FILTERS, "All files (*)")))
        self.after_dialog()
        if path:
            self.save(with_filter_suffix(Path(path), kind))

    def save(self, path: Path, remember: bool = True) -> bool:
        """Write the painted frame to `path`, with a still's transparency as `aquarelle
        render` writes it (a JPEG holds none: the painting on its paper); errors become a
        dialog. `remember`: later snapshots go to its folder too (an export of a still does
        not move them)."""
        source = self.source_file()
        if source is not None and is_part_of(path, source):
            # (the photo or video itself, replaced by a painting of it: lost)
            self.feedback.error("Snapshot failed", f"{path.name} is the file being painted: "
                                "choose another name.")
            return False
        try:
            # a 16-bit still's painting at 16 bits where the format holds them, as
            # `aquarelle render` writes it (write_image rounds it for one that does not)
            rgb = self.viewport.snapshot(full_depth=True)
            alpha = self.viewport.snapshot_alpha()
            if not path.suffix:
                path = path.with_suffix(".png")
            write_image(path, painting_to_write(path, rgb, alpha), alpha)
        except (AquarelleError, OSError) as e:
            self.feedback.error("Snapshot failed", str(e))
            return False
        except Exception as e:  # e.g. a GL error while reading back: report, keep running
            self.feedback.error("Snapshot failed", f"{type(e).__name__}: {e}")
            return False
        if remember:
            self.settings.set_last_dir("snapshot", str(path.parent))
            draft = self.viewport.draft_scale
            # (the frame as shown: adaptive quality's draft while playing, enlarged)
            note = "" if draft is None else \
                f", a draft painted at {draft:.0%} to keep up: pause, or turn adaptive quality " \
                "off, for a full-quality one"
            full = self.full_size()
            if full is not None and draft is None:  # (said at opening; again, as it is saved)
                note = f", as shown: the picture is {full[0]}\u00d7{full[1]}, Ctrl+E paints " \
                       "it at its full size"
            self.feedback.status(f"Snapshot saved in {path.parent}: {path.name} "
                                 f"({rgb.shape[1]}\u00d7{rgb.shape[0]}{note})", 15000 if note
                                 else 6000)
        self.feedback.show_folder_link(path.parent)
        return True
