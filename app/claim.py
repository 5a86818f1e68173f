"""Claiming a new file's name: the first of a series of names that no file has, made at once
as an empty file (O_CREAT | O_EXCL), so nothing is ever written over, not even a file that
appears meanwhile (a user preset's name, a recording's part file)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def claim_new(name_for: Callable[[int], Path]) -> Path:
    """The first of name_for(0), name_for(1), ... that no file had, now an empty file."""
    n = 0
    while True:
        path = name_for(n)
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            n += 1
            continue
        return path
