"""Atomic output files: write to a temporary file next to the target, rename on success."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _read_umask() -> int:
    # os.umask can only be read by setting it; do it once, at import (before any threads).
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _read_umask()


@contextmanager
def atomic_output(path: str | Path, *, replace: bool = True) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; it replaces `path` only if the block
    succeeds, and is removed otherwise (nothing half-written is ever left behind).

    The finished file gets the usual permissions (0666 minus the umask), not mkstemp's 0600.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.stem}.",
                               suffix=f".part{target.suffix}")
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        if tmp_path.exists():
            os.chmod(tmp_path, 0o666 & ~_UMASK)
        os.replace(tmp_path, target)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
