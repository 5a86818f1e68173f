"""Locating the shipped data folders (shaders/, assets/) in a checkout or an installed wheel."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path


@cache
def _data_dir(package: str, folder: str) -> Path:
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
