"""The file types a painted picture is saved as from the window, and the name a save dialog's
answer stands for: a name typed without an extension takes the chosen type's."""

from __future__ import annotations

import re
from pathlib import Path

from ..media.image_formats import is_writable_image_path

STILL_FILTERS = ("PNG (*.png)", "JPEG (*.jpg *.jpeg)", "WebP (*.webp)", "TIFF (*.tif *.tiff)")


def with_filter_suffix(path: Path, chosen: str) -> Path:
    """`path` as typed where it ends with a picture's extension, else with the first
    extension of the dialog's chosen filter added (PNG where the filter names none, e.g.
    "All files (*)"): "noext" and "look.v2" with JPEG chosen are noext.jpg, look.v2.jpg."""
    if is_writable_image_path(path):
        return path
    found = re.search(r"\*(\.\w+)", chosen)
    return path.with_name(path.name + (found.group(1) if found else ".png"))
