"""Atomic output files: write to a temporary file next to the target, publish it on success.

The temporary file is `.{stem}.{pid}.{host}.{random}.part{suffix}`: it names its owner, so a
later write of the same target removes what a killed process left behind (only files of that
exact pattern, of processes of this machine that are no longer alive).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import secrets
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..engine.interrupts import checkpoint

# os.link's answers where the filesystem has no hard links (FAT, exFAT, some SMB/FUSE;
# EINVAL is how Windows' "incorrect function" on FAT comes out).
_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.ENOSYS,
             errno.EINVAL}
_STEM_BYTES = 120  # the temp name adds about 40 bytes; names are at most 255
_LISTING_SECONDS = 10.0  # how long one folder listing serves the stale-file sweep


class OutputExists(FileExistsError):
    """replace=False and the target exists (or appeared while the output was written)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(errno.EEXIST, "exists and -n says not to replace it", str(path))

    def __str__(self) -> str:
        return f"{self.filename} exists and -n says not to replace it"

    def __reduce__(self) -> tuple[type, tuple[str]]:  # pickled (Ray) by the path alone
        return OutputExists, (self.filename,)


def _read_umask() -> int:
    # os.umask can only be read by setting it; do it once, at import (before any threads).
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _host_token() -> str:
    """This machine as a short name-safe word: whose PIDs the pid in a temp name is. The
    hostname alone is not enough: machines sharing a folder may be called the same, and
    containers on one machine share its name and files but not its PIDs."""
    name = socket.gethostname()
    identity = [name]
    with contextlib.suppress(OSError):
        identity.append(Path("/etc/machine-id").read_text().strip())
    with contextlib.suppress(OSError):
        identity.append(str(os.stat("/proc/self/ns/pid").st_ino))
    digest = hashlib.sha1(":".join(identity).encode()).hexdigest()[:8]
    return f"{re.sub(r'[^A-Za-z0-9-]', '-', name)[:24] or 'host'}-{digest}"


_UMASK = _read_umask()
_HOST = _host_token()
_listings: dict[str, tuple[float, list[str]]] = {}


@contextmanager
def atomic_output(path: str | Path, *, replace: bool = True) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; it becomes `path` only if the block
    succeeds, and is removed otherwise (nothing half-written is ever left behind).

    replace=False (-n) never replaces an existing file, even one that appears while the
    block runs: OutputExists is raised and the temporary file removed.

    A symlink is written through, as editors and ffmpeg do: the file it points to gets the
    new content (the temporary file goes next to it, so the rename is atomic on its
    filesystem) and the link stays a link. A dangling link creates its target when the
    target's folder exists.

    The finished file gets the usual permissions (0666 minus the umask), not 0600.
    """
    target = real_target(path)
    if not replace and os.path.lexists(target):
        raise OutputExists(path)  # fail before the work; the publish below is the guarantee
    sweep_stale(target)
    tmp = _create_temp(target)
    try:
        yield tmp
        checkpoint()  # an interrupt a library swallowed still keeps the output unwritten
        if tmp.exists():
            os.chmod(tmp, 0o666 & ~_UMASK)
        if replace:
            os.replace(tmp, target)
        else:
            link_new(tmp, target, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def probe_writable(path: str | Path) -> None:
    """Raise now the OSError that writing `path` would meet after the work (a read-only or
    immutable folder, a full disk's inodes...): a temporary file is made and removed."""
    _create_temp(real_target(path)).unlink()


def real_target(path: str | Path) -> Path:
    """The file a write of `path` changes: `path`, or where its symlink (chain) points."""
    target = Path(path)
    if not target.is_symlink():
        return target
    real = Path(os.path.realpath(target))
    if real.is_symlink():  # realpath stops where a link loops
        raise OSError(errno.ELOOP, "a symlink loop", str(path))
    if not real.parent.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"it is a symlink to {real}, whose folder "
                                              "does not exist", str(path))
    return real


def link_new(tmp: Path, target: Path, shown: str | Path) -> None:
    """Give the finished `tmp` the name `target` only if no file has it: os.link fails
    atomically when the name exists, where os.replace would silently replace it."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise OutputExists(shown) from None
    except OSError as e:
        if e.errno not in _NO_LINKS:
            raise
        _publish_by_reservation(tmp, target, shown)
        return
    with contextlib.suppress(OSError):  # published; a leftover second name is swept later
        tmp.unlink()


def _publish_by_reservation(tmp: Path, target: Path, shown: str | Path) -> None:
    """No hard links: claim the name with O_CREAT|O_EXCL (atomic on these filesystems too),
    then rename the finished file over the claim. The claim is made now, not before the
    work, so that a killed render leaves no empty file at the target; the cost is that for
    the instant between claim and rename the target exists and is empty."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~_UMASK)
    except FileExistsError:
        raise OutputExists(shown) from None
    try:
        claim = os.fstat(fd)
    finally:
        os.close(fd)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            now = os.stat(target, follow_symlinks=False)
            if (now.st_dev, now.st_ino) == (claim.st_dev, claim.st_ino):  # still our claim
                os.unlink(target)
        raise


def _create_temp(target: Path) -> Path:
    """A new empty temporary file for `target`, in its folder, named after this process."""
    folder = target.parent
    prefix, suffix = _temp_affixes(target)
    for _ in range(100):
        tmp = folder / f"{prefix}{os.getpid()}.{_HOST}.{secrets.token_hex(4)}{suffix}"
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            continue
        return tmp
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(folder))


def _temp_affixes(target: Path) -> tuple[str, str]:
    stem = os.fsencode(target.stem)[:_STEM_BYTES].decode("utf-8", "ignore")
    return f".{stem}.", f".part{target.suffix}"


def _temp_pattern(target: Path) -> re.Pattern[str]:
    """The names _create_temp gives `target`'s temporary files (any process, any host);
    none of the groups holds a dot, so another target's names cannot match."""
    prefix, suffix = _temp_affixes(target)
    return re.compile(re.escape(prefix) + r"([1-9][0-9]{0,9})\.([A-Za-z0-9-]{1,40})\."
                      r"[0-9a-f]{8}" + re.escape(suffix))


def sweep_stale(target: str | Path) -> list[Path]:
    """Remove the temporary files of `target` that processes of this machine left when they
    were killed (their pid is no longer alive); returns what was removed. Anything else in
    the folder, other machines' files and live processes' files are never touched."""
    if os.name != "posix":  # os.kill(pid, 0) would end the process on Windows
        return []
    target = Path(target)
    pattern = _temp_pattern(target)
    removed = []
    for name in _listing(target.parent):
        m = pattern.fullmatch(name)
        if m is None or m.group(2) != _HOST or _alive(int(m.group(1))):
            continue
        path = target.parent / name
        with contextlib.suppress(OSError):
            if path.is_file() and not path.is_symlink():
                path.unlink()
                removed.append(path)
    return removed


def _listing(folder: Path) -> list[str]:
    """The names in `folder` that look like temporary files. One listing serves a few
    seconds: an image sequence writes thousands of files into one folder, and listing it
    for each would take time quadratic in the frames. (A file left by a process killed
    meanwhile is removed by a later write.)"""
    key = os.path.abspath(folder)
    now = time.monotonic()
    cached = _listings.get(key)
    if cached is not None and now - cached[0] < _LISTING_SECONDS:
        return cached[1]
    try:
        names = [n for n in os.listdir(folder) if n.startswith(".") and ".part" in n]
    except OSError:
        names = []
    _listings[key] = (now, names)
    return names


def _alive(pid: int) -> bool:
    """Whether a process with this pid exists here (one we may not signal counts too)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OverflowError, OSError):  # PermissionError: someone else's; anything else: keep
        return True
    return True
