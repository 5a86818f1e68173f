"""Locating the shipped data folders (shaders/, assets/) in a checkout or an installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def _data_dir(package: str, folder: str) -> Path:
    # Installed (wheel or editable): the folders are the data packages aquarelle._shaders and
    # aquarelle._assets. Fallback for running straight from a checkout without installing.
    try:
        import importlib.resources as ir

        path = Path(str(ir.files(package)))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
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
