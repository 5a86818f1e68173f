"""Webcams through OpenCV: capture in a worker thread, newest frame only, clean failures.

`list_cameras()` only does what is cheap: where cameras are device files (Linux) it reads
/dev/video* and the names in /sys/class/video4linux (no device is opened, no indices are
probed); elsewhere OpenCV has no enumeration, so it offers the default camera (index 0) and
the desktop app names the cameras through Qt. Cameras open through the system's own OpenCV
backend (`platforms.camera_api`).
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..platforms import (
    current_camera_api,
    current_camera_denied_hint,
    current_device_denied_hint,
    current_lists_cameras_from_devices,
)
from . import virtual_camera
from .source import Frame, LatestSlot, ThreadedSource

MAX_READ_FAILURES = 5  # consecutive failed reads before the camera counts as gone
STALL_SECONDS = 3.0  # or this long without a frame


@dataclass(frozen=True)
class CameraInfo:
    """A camera the user can pick: `index` for OpenCV, the device path, a readable name."""

    index: int
    path: str
    name: str

    @property
    def id(self) -> str:
        """The identifier to open it with (see `CameraSource`)."""
        return str(self.index)


def list_cameras(dev_root: str | Path = "/dev",
                 sys_root: str | Path = "/sys/class/video4linux") -> list[CameraInfo]:
    """The cameras that can be listed cheaply (see the module docstring)."""
    if not current_lists_cameras_from_devices():
        return [CameraInfo(0, "0", "Default camera")]
    cams = []
    for dev in sorted(Path(dev_root).glob("video*"), key=_device_number):
        m = re.fullmatch(r"video(\d+)", dev.name)
        if not m:
            continue
        info = Path(sys_root) / dev.name
        # A UVC camera exposes a capture node (index 0) and a metadata node (index 1).
        if _read(info / "index") not in (None, "0"):
            continue
        name = _read(info / "name") or dev.name
        cams.append(CameraInfo(int(m.group(1)), str(dev), name))
    return cams


def _device_number(p: Path) -> int:
    m = re.search(r"(\d+)$", p.name)
    return int(m.group(1)) if m else 1 << 30


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


CaptureFactory = Callable[[int | str], Any]



@dataclass(frozen=True)
class CameraProblem:
    """What is wrong with a camera before opening it: it is `missing`, or refused to us;
    `unknown`: the name is no camera's at all."""

    missing: bool
    text: str
    unknown: bool = False


def camera_device_problem(device: int | str) -> CameraProblem | None:
    """What is wrong with camera `device` that can be told without opening it: a name
    that is no camera's number, device, file or stream URL (everywhere); where cameras are
    device files (Linux), a file that does not exist or that we may not open. None when it
    looks fine."""
    text = str(device)
    if current_lists_cameras_from_devices():
        dev = virtual_camera.DEV  # read at call time: tests point it elsewhere
        path = dev / f"video{text}" if text.isdigit() else Path(text)
        if path.parent == dev:
            if not path.exists():
                return CameraProblem(True, f"{path} does not exist")
            if not os.access(path, os.R_OK | os.W_OK):
                return CameraProblem(False, f"{path} exists, but {current_device_denied_hint()}")
            return None
    # OpenCV takes a number, or a path, URL or GStreamer pipeline it tries as a file: any
    # other name fails as if the camera were busy or refused (a notes.txt given as the
    # camera was "busy (another app may be using it)")
    if Path(text).is_file() and not text.isdigit():
        return CameraProblem(False, f"{text} is a file, not a camera; a video file plays "
                                    f"with --input {text}")
    if text.isdigit() or "://" in text or "!" in text or Path(text).exists():
        return None
    return CameraProblem(True, "a camera is named by its number (0, 1, ...) or its device",
                         unknown=True)

class CameraSource(ThreadedSource):
    """A live camera: OpenCV capture (CAP_PROP_BUFFERSIZE=1) in a worker thread.

    Only the newest frame is kept (`latest()`); frames not taken in time are dropped and
    counted. Opening happens in the worker (it can be slow); `size` is (0, 0) until the first
    frame arrived (`ready` is set then, or on failure). A camera that cannot be opened or
    stops delivering (unplugged) sets `error`; nothing raises in the worker.
    """

    name = "camera"
    live = True
    seekable = False

    def __init__(self, device: int | str = 0, *, size: tuple[int, int] | None = None,
                 fps: float | None = None, capture_factory: CaptureFactory | None = None
                 ) -> None:
        super().__init__()
        self.device: int | str = int(device) if str(device).isdigit() else device
        self.requested_size = size
        self.requested_fps = fps
        self._factory = capture_factory or _open_capture
        self.mirror = False  # selfie view: frames flipped left-right (settable while running)
        self._slot = LatestSlot()
        self.ready = threading.Event()

    def latest(self) -> Frame | None:
        return self._slot.take()

    def _run(self) -> None:
        cap = None
        try:
            cap = self._factory(self.device)
            if cap is None or not cap.isOpened():
                problem = camera_device_problem(self.device)
                if problem is not None and problem.unknown:
                    self._fail(f"camera {self.device} not found: {problem.text}")
                    return
                if problem is None:
                    why = ("it is busy (another app may be using it) or not allowed; "
                           f"{current_camera_denied_hint()}")
                else:
                    why = problem.text + (" (is it connected?)" if problem.missing else "")
                self._fail(f"cannot open camera {self.device}: {why}")
                return
            self._configure(cap)
            self._capture(cap)
        except Exception as e:  # never raise in the worker
            self._fail(f"camera {self.device}: {e}")
        finally:
            self.ready.set()
            if cap is not None:
                with contextlib.suppress(Exception):  # a vanished device may refuse
                    cap.release()

    def _configure(self, cap: Any) -> None:
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # keep latency down: no queue of old frames
        if self.requested_size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.requested_size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.requested_size[1])
        if self.requested_fps:
            cap.set(cv2.CAP_PROP_FPS, self.requested_fps)
        fps = cap.get(cv2.CAP_PROP_FPS)
        self._fps = float(fps) if fps and fps > 0 else None

    def _capture(self, cap: Any) -> None:
        failures, index, last = 0, 0, time.monotonic()
        while not self._stop.is_set():
            ok, bgr = cap.read()
            if not ok or bgr is None:
                failures += 1
                if failures >= MAX_READ_FAILURES or time.monotonic() - last > STALL_SECONDS:
                    self._fail(f"camera {self.device} stopped delivering frames "
                               "(unplugged?)")
                    return
                continue
            failures, last = 0, time.monotonic()
            rgb = _to_rgb(bgr)
            if self.mirror:
                rgb = cv2.flip(rgb, 1)
            self._size = (rgb.shape[1], rgb.shape[0])
            self.ready.set()
            if self.paused:
                continue
            if self._slot.put(Frame(rgb, index, None, time.monotonic())):
                self.dropped += 1
            index += 1
        self._finish()


def _to_rgb(bgr: np.ndarray) -> np.ndarray:
    if bgr.ndim == 2:
        return cv2.cvtColor(bgr, cv2.COLOR_GRAY2RGB)
    if bgr.shape[2] == 4:
        return cv2.cvtColor(bgr, cv2.COLOR_BGRA2RGB)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def _open_capture(device: int | str) -> Any:
    api = getattr(cv2, current_camera_api(), cv2.CAP_ANY)
    cap = cv2.VideoCapture(device, api)
    if not cap.isOpened() and api != cv2.CAP_ANY:
        cap.release()  # e.g. a camera only DirectShow drives: OpenCV's own choice
        cap = cv2.VideoCapture(device)
    return cap
