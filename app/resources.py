"""Locating the shipped data folders (shaders/, assets/) in a checkout, an installed wheel or
the desktop bundle made by PyInstaller (scripts/build-app.sh, scripts/packaging/)."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path


@cache
def _data_dir(package: str, folder: str) -> Path:
    # The bundled app (PyInstaller sets sys.frozen): the spec puts the folders at the top of
    # the bundle's data folder, sys._MEIPASS (_internal/ next to the executable; inside a
    # macOS .app, Contents/Frameworks, which links to Contents/Resources).
    bundle = getattr(sys, "_MEIPASS", None) if getattr(sys, "frozen", False) else None
    if bundle is not None and (Path(bundle) / folder).is_dir():
        return Path(bundle) / folder
    # Installed (wheel or editable): the folders are the data packages aquarelle._shaders and
    # aquarelle._assets. Fallback for running straight from a checkout without installing.
    # The data packages have no __init__.py (namespace packages): ask the import system
    # where they live, which works for wheels and for editable installs' path mappings.
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if Path(location).is_dir():
            return Path(location)
    path = Path(__file__).resolve().parent.parent / folder
    if not path.is_dir():
        raise FileNotFoundError(f"Aquarelle data folder '{folder}' not found (broken install?)")
    return path


def shaders_dir() -> Path:
    """The folder holding the GLSL sources."""
    return _data_dir("aquarelle._shaders", "shaders")


def assets_dir() -> Path:
    """The folder holding styles, presets, demo media and paper textures."""
    return _data_dir("aquarelle._assets", "assets")
