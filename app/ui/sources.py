"""What the user can open (camera, file, demo clip), mapped onto the media layer's sources."""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from ..engine.errors import AquarelleError
from ..media import sources as media_sources
from ..media.animation import ffmpeg_decodes
from ..media.image_formats import is_image_path
from ..media.image_read import image_size
from ..media.paths import is_sequence, sequence_files
from ..media.sniff import sniff_image
from ..media.source import FrameSource
from ..media.webcam import CameraSource
from ..media.webcam import list_cameras as _list_cameras
from ..platforms import current_lists_cameras_from_devices
from .camera_access import qt_camera_names


@dataclass(frozen=True)
class SourceSpec:
    """What to open: ("camera", id), ("file", path) or ("demo", "")."""

    kind: str
    ref: str = ""

    def __str__(self) -> str:
        return self.kind if self.kind == "demo" else f"{self.kind}:{self.ref}"

    @classmethod
    def parse(cls, text: str) -> SourceSpec | None:
        """The inverse of str(); None for anything unrecognised."""
        kind, _, ref = text.partition(":")
        if kind == "demo":
            return cls("demo")
        if kind in ("camera", "file") and ref:
            return cls(kind, ref)
        return None

    @property
    def label(self) -> str:
        if self.kind == "camera":
            return f"camera {self.ref}"
        if self.kind == "file":
            return Path(self.ref).name
        return "demo clip"


def file_there(path: str | Path) -> bool:
    """Whether a file source is still there: the file, or for an image sequence's pattern
    (seq/f_%04d.png) a file among its frames."""
    p = Path(path)
    return p.is_file() or (is_sequence(p) and bool(sequence_files(p)))


def file_stamp(path: str | Path) -> tuple[int, int] | None:
    """A file's size and modification time (ns): what tells that it changed since; None
    where it is gone (or is an image sequence's pattern)."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns) if stat.S_ISREG(st.st_mode) else None


def demo_path() -> Path | None:
    """The bundled demo clip, if this install has it."""
    path = media_sources.demo_path()
    return path if path.is_file() else None


def list_cameras() -> list[tuple[str, str]]:
    """(id, name) of the cameras present; empty when none or when listing fails. Linux lists
    its device files; Windows and macOS ask Qt Multimedia for the cameras' names."""
    try:
        if not current_lists_cameras_from_devices():
            try:
                return qt_camera_names()
            except Exception:  # no Qt Multimedia: OpenCV's default camera
                pass
        return [(cam.id, cam.name) for cam in _list_cameras()]
    except Exception:  # listing must never stop the app from starting
        return []


def can_open(path: str | Path) -> bool:
    """Whether a file opens as a source (a drag over the window is accepted only then),
    judged as `open_source` reads it but without decoding a whole picture: one named as a
    picture whose header reads, else a file whose first video frame FFmpeg decodes."""
    p = Path(path)
    if not p.is_file():
        return False
    if is_image_path(p) and image_size(p) is not None:
        return True
    return ffmpeg_decodes(p, frames=1)  # (also a picture whose header Pillow cannot read)


# A picture at least this big (from its header) is decoded off the GUI thread: a 4000x3000
# JPEG took 0.2-0.7 s to decode here, the window stopped meanwhile. Smaller ones take
# milliseconds and open at once (their failure said at once, as before).
DECODE_APART_PX = 1_000_000


def _a_picture(ref: str) -> bool:
    """Whether a file is a picture by its name or its first bytes (no decoder asked: Pillow
    asked of a video tried all its formats, 80 ms the first time)."""
    path = Path(ref)
    return is_image_path(path) or sniff_image(path) is not None


def decoded_apart(spec: SourceSpec) -> bool:
    """Whether `spec` is a picture big enough to decode on a worker thread (its header
    read here; a file whose header does not read opens at once, as before)."""
    if spec.kind != "file" or not _a_picture(spec.ref):
        return False
    try:
        size = image_size(spec.ref)
    except (OSError, ValueError):
        return False
    return size is not None and size[0] * size[1] >= DECODE_APART_PX


def opened_apart(spec: SourceSpec) -> bool:
    """Whether `spec` is opened on a worker thread while the window waits for it, painting
    (see SourceController.open_spec): a video or the demo clip, whose container is probed
    and first frame decoded in the opening (trial W8, finding 2: on the GUI thread a
    1280x720 H.264 clip stopped the window 65-110 ms on a shared 2-core machine, 290-365 ms
    the first time; now the GUI thread's own work in it is 5 ms, 11-16 the first time).
    Pictures open as before (DECODE_APART_PX)."""
    return spec.kind == "demo" or (spec.kind == "file" and not _a_picture(spec.ref))


def open_source(spec: SourceSpec, loop: bool = True, camera_size: tuple[int, int] | None = None,
                camera_fps: float | None = None) -> FrameSource:
    """Create (not start) the source for `spec`; raises AquarelleError with a clear message.
    Cameras are asked for `camera_size` and `camera_fps` when given (they may pick the
    nearest mode they have)."""
    if spec.kind == "file":
        # a 10-bit video painted at 16 bits, as its export paints it
        return media_sources.open_source(spec.ref, paced=True, loop=loop, deep=None)
    if spec.kind == "demo":
        return media_sources.demo_source(paced=True, loop=loop)
    if spec.kind == "camera":
        return CameraSource(spec.ref, size=camera_size, fps=camera_fps)
    raise AquarelleError(f"unknown source {spec}")
