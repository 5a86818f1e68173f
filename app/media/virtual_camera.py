"""The virtual camera: painted frames to video calls at a fixed size and rate.

A `VirtualCameraSink` owns a backend (pyvirtualcam: v4l2loopback on Linux, OBS Virtual
Camera on Windows and macOS) and a pacing thread that sends one frame every 1/fps seconds:
the newest frame submitted, or the previous one again when the source stalls (consumers
expect a steady rate), never a queue of old ones. Frames must already have the sink's size
(the engine's `FrameFitter` fits them on the GPU). Qt-free: the app and `aquarelle live`
share it; tests inject a fake backend. Where the virtual camera is a device file
(v4l2loopback), `device_problem()` reads sysfs to say whether one exists and may be opened.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from ..engine.yuv_pack import YuvFormat, packed_bytes
from ..platforms import (
    current_device_denied_hint,
    current_finds_virtual_camera_device,
    current_virtual_camera_setup,
)
from .errors import MediaError
from .latency import LatencyMeter


class VirtualCameraError(MediaError):
    """No virtual camera can be opened (one line saying what to install or run)."""


class CameraBackend(Protocol):
    """What the sink needs of a virtual camera device (pyvirtualcam.Camera has it). A
    backend may also say `packed`: the 4:2:0 layout it takes as it is (YuvFormat), besides
    RGB frames, which it converts."""

    device: str

    def send(self, frame: np.ndarray) -> None: ...

    def close(self) -> None: ...


BackendFactory = Callable[[int, int, float], CameraBackend]

def setup_hint() -> str:
    """What a user has to do once so that a virtual camera exists on this system."""
    return current_virtual_camera_setup()


SYS_VIDEO = Path("/sys/class/video4linux")  # read at call time: tests point these elsewhere
DEV = Path("/dev")
# What v4l2loopback devices are called: its default, OBS's, ours (`setup_hint()`).
LOOPBACK_NAMES = ("dummy video device", "loopback", "obs virtual", "aquarelle")
LOOPBACK_ATTRIBUTE = "max_openers"  # a sysfs attribute only v4l2loopback devices have

Access = Callable[[Path, int], bool]


@dataclass(frozen=True)
class LoopbackDevice:
    """A v4l2loopback device: its file and the name it was given (card_label)."""

    path: Path
    name: str


def loopback_devices(sys_root: Path | None = None,
                     dev_root: Path | None = None) -> list[LoopbackDevice] | None:
    """The v4l2loopback devices, as sysfs names them (nothing is opened); None when that
    cannot be told: device files but no sysfs (some containers)."""
    sys_root, dev_root = Path(sys_root or SYS_VIDEO), Path(dev_root or DEV)
    if not sys_root.is_dir():
        return None if video_files(dev_root) else []
    found = []
    for info in sorted(sys_root.glob("video*"), key=_number):
        dev = dev_root / info.name
        if _number(info) >= 0 and dev.exists() and _is_loopback(info):
            found.append(LoopbackDevice(dev, _read(info / "name") or info.name))
    return found


def video_files(dev_root: Path | None = None) -> list[Path]:
    """/dev/video0, /dev/video1, ... in number order."""
    files = [p for p in Path(dev_root or DEV).glob("video*") if _number(p) >= 0]
    return sorted(files, key=_number)


def _number(p: Path) -> int:
    digits = p.name[len("video"):]
    return int(digits) if digits.isdigit() else -1


def _is_loopback(info: Path) -> bool:
    name = (_read(info / "name") or "").lower()
    return (info / LOOPBACK_ATTRIBUTE).exists() or any(n in name for n in LOOPBACK_NAMES)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def loopback_problem(sys_root: Path | None = None, dev_root: Path | None = None,
                     access: Access = os.access) -> str | None:
    """Why no v4l2loopback device can take frames, in one line; None when one can, or when
    that cannot be told (then opening it says)."""
    found = loopback_devices(sys_root, dev_root)
    if found is None:
        return None
    if not found:
        others = video_files(dev_root)
        why = (f"{', '.join(str(p) for p in others[:4])} {'is' if len(others) == 1 else 'are'}"
               " not one" if others else "there is no /dev/video* at all")
        return f"no virtual camera: no v4l2loopback device exists ({why}); {setup_hint()}"
    if any(access(d.path, os.R_OK | os.W_OK) for d in found):
        return None
    paths = ", ".join(f"{d.path} ({d.name})" for d in found)
    return (f"no virtual camera: {paths} {'is a' if len(found) == 1 else 'are'} v4l2loopback "
            f"device{'s' if len(found) > 1 else ''}, but {current_device_denied_hint()}")


def device_problem() -> str | None:
    """Why the virtual camera cannot take frames where it is a device file (Linux): none
    exists, or it is refused. Elsewhere only opening it can tell (None)."""
    return loopback_problem() if current_finds_virtual_camera_device() else None


def check_device() -> None:
    """Raise VirtualCameraError when `device_problem()` finds one (before any work)."""
    problem = device_problem()
    if problem:
        raise VirtualCameraError(problem)


# What pyvirtualcam converts RGB frames with (libyuv's I420: BT.601, limited range): frames
# packed on the GPU use the same, so a call sees the colours it saw before.
PACKED = YuvFormat("yuv420p", "bt601")


class PyVirtualCamera:
    """A pyvirtualcam camera taking I420 frames: packed ones (`packed`: on a GPU, packed
    there) as they are, RGB ones converted here as pyvirtualcam would (OpenCV's SIMD
    conversion, the same BT.601 limited-range I420 as its libyuv). Where the device takes no
    I420 (Unity Capture), RGB only."""

    def __init__(self, cam: Any, packed: YuvFormat | None) -> None:
        self._cam = cam
        self.packed = packed
        self.device = str(cam.device)

    def send(self, frame: np.ndarray) -> None:
        if self.packed is not None and frame.ndim == 3:
            frame = cv2.cvtColor(frame, cv2.COLOR_RGB2YUV_I420)
        self._cam.send(frame)

    def close(self) -> None:
        self._cam.close()


def open_pyvirtualcam(width: int, height: int, fps: float) -> CameraBackend:
    """Open the platform's virtual camera through pyvirtualcam: I420 frames where the
    device takes them (v4l2loopback's own format; OBS's copies them to its NV12 or UYVY),
    else RGB."""
    try:
        import pyvirtualcam
    except ImportError:
        raise VirtualCameraError("the virtual camera needs pyvirtualcam: "
                                 "pip install pyvirtualcam") from None
    fmt = pyvirtualcam.PixelFormat
    packed = PACKED if width % 2 == 0 and height % 2 == 0 else None  # 4:2:0: even sides
    cam: Any = None
    try:
        if packed is not None:
            try:
                cam = pyvirtualcam.Camera(width=width, height=height, fps=fps, fmt=fmt.I420)
            except Exception:  # a device without I420: RGB, which pyvirtualcam converts
                packed = None
        if cam is None:
            cam = pyvirtualcam.Camera(width=width, height=height, fps=fps, fmt=fmt.RGB)
    except Exception as e:  # pyvirtualcam raises RuntimeError with a multi-line text
        text = str(e).strip() or type(e).__name__
        first = text.splitlines()[0].split(". ")[0].rstrip(".")  # the first sentence
        # The device files say why more plainly, when they can: missing or refused.
        raise VirtualCameraError(device_problem() or f"no virtual camera ({first}): "
                                 f"{setup_hint()}") from None
    return PyVirtualCamera(cam, packed)


class VirtualCameraSink:
    """Sends frames to a virtual camera at a fixed size and frame rate (see the module doc).

    `submit()` may be called from any thread; `start()` raises VirtualCameraError when no
    backend can be opened. Counters: `sent` (frames handed to the backend), `fresh` (of them,
    new frames), `repeated` (the previous frame again because none came in time),
    `replaced` (submitted frames overwritten before they could be sent: stale frames dropped).
    """

    def __init__(self, size: tuple[int, int], fps: float, *,
                 backend_factory: BackendFactory | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if size[0] <= 0 or size[1] <= 0:
            raise ValueError(f"virtual camera size must be positive, got {size}")
        if not fps > 0:
            raise ValueError(f"virtual camera frame rate must be positive, got {fps}")
        self.size = (int(size[0]), int(size[1]))
        self.fps = float(fps)
        self._factory = backend_factory or open_pyvirtualcam
        self._clock = clock
        self._backend: CameraBackend | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._pending: tuple[np.ndarray, float | None] | None = None
        self._last: np.ndarray | None = None
        self.sent = self.fresh = self.repeated = self.replaced = 0
        self.latency = LatencyMeter()
        self.error: str | None = None  # set when the backend failed while running

    @property
    def device(self) -> str:
        """The device the frames go to (for the status bar), or "" before `start()`."""
        return str(getattr(self._backend, "device", "")) if self._backend else ""

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, run_thread: bool = True) -> None:
        """Open the backend and start sending (a black frame until the first submit).
        Without `run_thread` nothing paces the sink: the caller calls `tick()` (tests)."""
        if self._backend is not None:
            return
        w, h = self.size
        self._backend = self._factory(w, h, self.fps)
        self._last = np.zeros((h, w, 3), np.uint8)
        self._stop.clear()
        if run_thread:
            self._thread = threading.Thread(target=self._run, name="virtual-camera",
                                            daemon=True)
            self._thread.start()

    @property
    def packed_format(self) -> YuvFormat | None:
        """The 4:2:0 layout the open backend takes as it is (frames packed on the GPU), or
        None: RGB frames only."""
        return getattr(self._backend, "packed", None) if self._backend else None

    def submit(self, frame: np.ndarray, t_capture: float | None = None) -> None:
        """Offer the newest frame ((h, w, 3) uint8 RGB of the sink's size, or its bytes
        packed in `packed_format`); `t_capture` is the clock time the source captured it
        (for the latency figures)."""
        w, h = self.size
        packed = self.packed_format is not None and frame.ndim == 2 \
            and frame.size == packed_bytes(self.size)
        if (frame.shape != (h, w, 3) and not packed) or frame.dtype != np.uint8:
            raise ValueError(f"virtual camera frames must be {w}x{h} RGB uint8, got "
                             f"{frame.shape} {frame.dtype}")
        with self._lock:
            if self._pending is not None:
                self.replaced += 1
            self._pending = (frame, t_capture)

    def stop(self) -> None:
        """Stop sending and close the backend (idempotent)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
        if self._backend is not None:
            with contextlib.suppress(Exception):  # a vanished device may refuse to close
                self._backend.close()
            self._backend = None

    def tick(self) -> bool:
        """Send one frame: the newest submitted, else the previous one again. False when
        the backend failed (`error` says why)."""
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            frame, t_capture = pending
            self._last = frame
            self.fresh += 1
        else:
            frame, t_capture = self._last, None
            self.repeated += 1
        try:
            assert self._backend is not None and frame is not None
            self._backend.send(frame)
        except Exception as e:  # the device went away: stop, say so once
            self.error = f"virtual camera stopped: {e}"
            return False
        self.sent += 1
        if t_capture is not None:
            self.latency.add(self._clock() - t_capture)
        return True

    def _run(self) -> None:
        period = 1.0 / self.fps
        next_t = self._clock()
        while not self._stop.is_set():
            if not self.tick():
                return
            next_t, wait = pace(next_t, self._clock(), period)
            self._stop.wait(wait)


def pace(next_t: float, now: float, period: float) -> tuple[float, float]:
    """The next send time after one at `next_t`, and how long to wait for it from `now`.

    An absolute schedule: a late send does not shift the ones after it; more than a period
    behind (a hiccup), the schedule starts over from now instead of sending a burst.
    """
    next_t += period
    if now - next_t > period:
        next_t = now + period
    return next_t, max(0.0, next_t - now)


class NullCamera:
    """A virtual camera backend that discards frames (benchmarks measure up to the send;
    screenshots show the camera on without a device)."""

    device = "null"

    def send(self, frame: np.ndarray) -> None:
        pass

    def close(self) -> None:
        pass
