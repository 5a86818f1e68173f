"""What controllers need to tell the user things; the window implements it."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol


class Feedback(Protocol):
    """Status-bar messages, error dialogs, the "Show in folder" link and the file manager."""

    def status(self, text: str, ms: int = 6000) -> None: ...

    def error(self, title: str, text: str) -> None: ...

    def show_folder_link(self, folder: Path) -> None: ...

    def open_folder(self, folder: Path) -> None: ...
