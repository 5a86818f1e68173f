"""The file types a painted picture is saved as from the window, and the name a save dialog's
answer stands for: a name typed without an extension takes the chosen type's."""

from __future__ import annotations

import re
from pathlib import Path

STILL_FILTERS = ("PNG (*.png)", "JPEG (*.jpg *.jpeg)", "WebP (*.webp)", "TIFF (*.tif *.tiff)")


def with_filter_suffix(path: Path, chosen: str) -> Path:
    """`path` as typed, or with the first extension of the dialog's chosen filter (PNG
    where the filter names none, e.g. "All files (*)")."""
    if path.suffix:
        return path
    found = re.search(r"\*(\.\w+)", chosen)
    return path.with_suffix(found.group(1) if found else ".png")
