"""Which EGL device renders for the GPU Ray gave a worker.

Ray assigns GPUs by their physical number and sets CUDA_VISIBLE_DEVICES to them, so CUDA
numbers them 0, 1, ... inside the worker; NVIDIA's EGL devices say which CUDA device they are
(EGL_NV_device_cuda: EGL_CUDA_DEVICE_NV). glcontext's EGL backend takes the index of the
device in eglQueryDevicesEXT's list. `pick_egl_device` is the mapping, a pure function;
`egl_devices` asks the driver (ctypes, best effort: [] where EGL cannot say).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Sequence
from dataclasses import dataclass

import moderngl

EGL_CUDA_DEVICE_NV = 0x323A
EGL_EXTENSIONS = 0x3055


@dataclass(frozen=True)
class EglDevice:
    """One entry of eglQueryDevicesEXT's list."""

    index: int  # position in the list: glcontext's device_index
    cuda: int | None  # the CUDA device number it is (inside this process), if it says
    extensions: str = ""


def pick_egl_device(assigned: Sequence[str], devices: Sequence[EglDevice],
                    visible: str | None) -> int | None:
    """The EGL device index for the first GPU Ray assigned (physical id `assigned[0]`), or
    None for the default device (no GPU assigned, or EGL cannot tell which is which).

    CUDA numbers devices within CUDA_VISIBLE_DEVICES (`visible`): the assigned GPU is CUDA
    device `visible.index(id)`; without that variable CUDA's number is the physical one.
    """
    if not assigned:
        return None
    target = str(assigned[0]).strip()
    if visible is not None and visible.strip():
        ids = [v.strip() for v in visible.split(",") if v.strip()]
        if target not in ids:
            return None
        cuda = ids.index(target)
    else:
        try:
            cuda = int(target)
        except ValueError:
            return None  # a UUID without a visible list: nothing to match it with
    for d in devices:
        if d.cuda == cuda:
            return d.index
    return None


def egl_devices() -> list[EglDevice]:
    """The EGL devices and their CUDA numbers, from libEGL; [] if that cannot be asked."""
    name = ctypes.util.find_library("EGL") or "libEGL.so.1"
    try:
        egl = ctypes.CDLL(name)
        get_proc = egl.eglGetProcAddress
        get_proc.restype = ctypes.c_void_p
        get_proc.argtypes = [ctypes.c_char_p]
        q_devices = get_proc(b"eglQueryDevicesEXT")
        q_attrib = get_proc(b"eglQueryDeviceAttribEXT")
        q_string = get_proc(b"eglQueryDeviceStringEXT")
        if not q_devices:
            return []
        query_devices = ctypes.CFUNCTYPE(ctypes.c_uint, ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_void_p),
                                         ctypes.POINTER(ctypes.c_int))(q_devices)
        count = ctypes.c_int(0)
        if not query_devices(0, None, ctypes.byref(count)) or count.value <= 0:
            return []
        handles = (ctypes.c_void_p * count.value)()
        if not query_devices(count.value, handles, ctypes.byref(count)):
            return []
        attrib = ctypes.CFUNCTYPE(ctypes.c_uint, ctypes.c_void_p, ctypes.c_int,
                                  ctypes.POINTER(ctypes.c_ssize_t))(q_attrib) \
            if q_attrib else None
        string = ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int)(q_string) \
            if q_string else None
        out = []
        for i in range(count.value):
            ext = (string(handles[i], EGL_EXTENSIONS) or b"").decode() if string else ""
            cuda = None
            if attrib is not None and "EGL_NV_device_cuda" in ext:
                value = ctypes.c_ssize_t(-1)
                if attrib(handles[i], EGL_CUDA_DEVICE_NV, ctypes.byref(value)):
                    cuda = int(value.value)
            out.append(EglDevice(i, cuda, ext))
        return out
    except (OSError, AttributeError, TypeError, ValueError):
        return []


def create_context_for_gpus(assigned: Sequence[str]) -> moderngl.Context:
    """A headless GL 3.3 context on the EGL device of the assigned GPU, or the engine's
    usual headless context (no GPU assigned, or no way to tell the devices apart)."""
    from ..engine.context import REQUIRED_VERSION, create_headless_context

    index = pick_egl_device(assigned, egl_devices() if assigned else [],
                            os.environ.get("CUDA_VISIBLE_DEVICES"))
    if index is not None:
        try:
            return moderngl.create_standalone_context(backend="egl", device_index=index,
                                                      require=REQUIRED_VERSION)
        except Exception:  # noqa: BLE001 - glcontext raises plain Exception; fall back
            pass
    return create_headless_context()
