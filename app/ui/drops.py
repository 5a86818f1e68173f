"""What a drop on the window opens, and what it says: one file is shown at a time (the first
dropped that opens), a preset file (.json) is imported, and what cannot be opened is refused
with its reason."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PyQt6.QtCore import QMimeData

from ..media.errors import MediaError
from ..media.image_formats import is_image_path
from ..media.video_reader import DAMAGED, open_input
from .sources import can_open


@dataclass(frozen=True)
class Drop:
    """The files dropped (dragged), the one a drop opens and why those before it do not."""

    count: int  # files (or addresses) dragged
    file: str | None  # the first that opens; None: none does
    refused: tuple[tuple[str, str], ...]  # (name, why) of those before it, all where none
    preset: bool = False  # `file` is a preset file (.json), imported, not opened
    index: int = 0  # `file`'s place among those dragged (the next to try come after it)

    def refusal(self, between: str = "; ") -> str:
        """'cannot open X: why' for the refused ones (the status bar's line; a dialog's
        lines with `between` a newline)."""
        return between.join(f"cannot open {name}: {why}" for name, why in self.refused)

    def note(self) -> str | None:
        """What to add to the 'Opened' message where several were dropped (None: one)."""
        if self.file is None or self.count < 2:
            return None
        note = (f"only one file is shown at a time: {Path(self.file).name}, the first of the "
                f"{self.count} dropped that opens")
        return note + (f" ({self.refusal()})" if self.refused else "")


def why_not(path: Path) -> str:
    """Why `path` does not open as a source (can_open said no), in a few words."""
    if not path.exists():
        return "no such file"
    if path.is_dir():
        return "it is a folder; drop a picture or a video file"
    if not os.access(path, os.R_OK):
        return "it cannot be read (no permission)"
    if path.stat().st_size == 0:
        return "the file is empty (0 bytes)"
    if is_image_path(path):
        return f"not a picture that can be read ({DAMAGED})"
    try:  # (the reason the media layer gives, as `aquarelle render` says it: "truncated")
        open_input(path).close()
    except MediaError as e:
        said = str(e)
        return said.removeprefix(f"{path}: ")
    except Exception:  # noqa: BLE001 - a reason is all that is asked here
        pass
    return "not a picture or a video (FFmpeg decodes no picture in it)"


def read_drop(mime: QMimeData | None, after: int = -1) -> Drop | None:
    """What dropping `mime` does; None where it holds no files or addresses (text).
    `after`: the files up to this place were tried already (one that looked openable did
    not open: the next is looked for)."""
    urls = mime.urls() if mime is not None else []
    if not urls:
        return None
    refused: list[tuple[str, str]] = []
    for index, url in enumerate(urls):
        if index <= after:
            continue
        if not url.isLocalFile():
            refused.append((url.toDisplayString(), "not a file on this computer"))
            continue
        path = Path(url.toLocalFile())
        if path.suffix.lower() == ".json" and path.is_file():  # (checked as it is imported)
            return Drop(len(urls), str(path), tuple(refused), preset=True, index=index)
        if can_open(path):  # (the later ones are not looked at: a video each takes a decode)
            return Drop(len(urls), str(path), tuple(refused), index=index)
        refused.append((path.name or str(path), why_not(path)))
    return Drop(len(urls), None, tuple(refused))
