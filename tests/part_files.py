"""Temporary output files (`.part`) a render subprocess makes, seen from a test."""

from __future__ import annotations

from pathlib import Path


def parts(folder: Path) -> list[str]:
    """The names of the temporary files in `folder`, sorted."""
    return sorted(p.name for p in folder.iterdir() if ".part" in p.name)


def written_parts(folder: Path) -> list[str]:
    """The temporary files in `folder` that hold bytes: the work's, not the writability
    probe's (an empty file made and removed before the work starts)."""
    return [n for n in parts(folder) if _size(folder / n) > 0]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:  # removed in the meantime
        return 0
