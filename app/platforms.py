"""Every decision that depends on the operating system, in one place.

Each decision is a function of the platform name (`sys.platform`: "linux", "win32",
"darwin") and what it needs from the environment, so that all three are tested on any
machine; the `current_*` helpers apply them to this machine. Nothing else in the engine or
the media layer names a platform.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

APP_DIR_NAME = {"linux": "aquarelle", "win32": "Aquarelle", "darwin": "Aquarelle"}


def family(platform: str) -> str:
    """"linux", "win32" or "darwin" for a `sys.platform` value (other Unixes count as
    Linux: they share its conventions, EGL and XDG folders)."""
    if platform.startswith("win") or platform == "cygwin":
        return "win32"
    if platform == "darwin":
        return "darwin"
    return "linux"


# -- OpenGL ---------------------------------------------------------------------------------

def gl_backends(platform: str, has_display: bool) -> list[str | None]:
    """moderngl standalone backends to try, in order (None: the platform's own, WGL on
    Windows and CGL on macOS, which gives a 4.1 core profile when 3.3 is required).
    Linux: EGL (works without a display; Mesa llvmpipe without a GPU), then GLX when an X
    display exists (older drivers without EGL)."""
    if family(platform) == "linux":
        return ["egl", "glx"] if has_display else ["egl"]
    return [None]


def gl_help(platform: str) -> str:
    """What to do when no OpenGL 3.3 context can be made, in the system's own terms."""
    return {
        "linux": "install the EGL and Mesa drivers (Debian/Ubuntu: sudo apt install libegl1 "
                 "libgl1-mesa-dri; Fedora: sudo dnf install mesa-libEGL mesa-dri-drivers) or "
                 "your GPU vendor's driver",
        "win32": "install the graphics driver from your GPU's maker (Intel, AMD or NVIDIA): "
                 "Windows' built-in display driver offers no OpenGL 3.3; in a virtual machine "
                 "or remote session, enable 3D acceleration or use Mesa's opengl32.dll",
        "darwin": "macOS offers OpenGL 4.1 on every Mac since 2012; update macOS, and run "
                  "Aquarelle from a logged-in desktop session (not over plain SSH)",
    }[family(platform)]


# -- folders -------------------------------------------------------------------------------

def config_dir(platform: str, env: Mapping[str, str], home: Path) -> Path:
    """Where settings and user presets live: $XDG_CONFIG_HOME/aquarelle (~/.config) on
    Linux, %APPDATA%\\Aquarelle on Windows, ~/Library/Application Support/Aquarelle on
    macOS."""
    fam = family(platform)
    if fam == "win32":
        base = Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
    elif fam == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
    return base / APP_DIR_NAME[fam]


def media_dir(kind: str, platform: str, env: Mapping[str, str], home: Path) -> Path:
    """The user's folder for snapshots (`kind` "pictures") or recordings ("videos"):
    ~/Pictures and ~/Videos (Linux: as set in ~/.config/user-dirs.dirs), ~/Movies on macOS,
    %USERPROFILE%\\Pictures and \\Videos on Windows."""
    if kind not in ("pictures", "videos"):
        raise ValueError(f"unknown folder kind {kind!r}")
    fam = family(platform)
    if fam == "win32":
        base = Path(env["USERPROFILE"]) if env.get("USERPROFILE") else home
        return base / kind.capitalize()
    if fam == "darwin":
        return home / ("Pictures" if kind == "pictures" else "Movies")
    xdg = _xdg_user_dir(kind, env, home)
    return xdg if xdg is not None else home / kind.capitalize()


def _xdg_user_dir(kind: str, env: Mapping[str, str], home: Path) -> Path | None:
    """XDG_PICTURES_DIR / XDG_VIDEOS_DIR from user-dirs.dirs (as xdg-user-dir reads it)."""
    key = {"pictures": "XDG_PICTURES_DIR", "videos": "XDG_VIDEOS_DIR"}[kind]
    base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
    try:
        text = (base / "user-dirs.dirs").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    m = re.search(rf'^\s*{key}\s*=\s*"([^"]*)"', text, re.M)
    if not m:
        return None
    value = m.group(1).replace("$HOME", str(home))
    path = Path(value)
    return path if path.is_absolute() and path != home else None


def legacy_settings_files(platform: str, env: Mapping[str, str], home: Path) -> list[Path]:
    """Settings files of earlier versions, read once when the current one is missing (they
    went where Qt's INI settings go: ~/.config/Aquarelle/Aquarelle.ini on Linux and macOS,
    %APPDATA%\\Aquarelle\\Aquarelle.ini on Windows)."""
    fam = family(platform)
    if fam == "win32":
        base = Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
    else:
        base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
    return [base / "Aquarelle" / "Aquarelle.ini"]


# -- cameras -------------------------------------------------------------------------------

def camera_api(platform: str) -> str:
    """The OpenCV capture backend to open cameras with (a `cv2.CAP_*` name): V4L2 on Linux,
    Media Foundation on Windows, AVFoundation on macOS."""
    return {"linux": "CAP_V4L2", "win32": "CAP_MSMF", "darwin": "CAP_AVFOUNDATION"}[
        family(platform)]


def lists_cameras_from_devices(platform: str) -> bool:
    """Whether cameras are found as device files (/dev/video*, names in sysfs): Linux.
    Elsewhere the desktop app asks Qt (QMediaDevices) for their names."""
    return family(platform) == "linux"


VIDEO_GROUP_HINT = "the 'video' group: sudo usermod -aG video $USER, then log in again"


def camera_denied_hint(platform: str) -> str:
    """What to do when a camera exists but cannot be opened (busy, or access refused)."""
    return {
        "linux": "close other programs using it, and check that you may use /dev/video* "
                 f"({VIDEO_GROUP_HINT})",
        "win32": "close other programs using it, and allow camera access in Settings > "
                 "Privacy & security > Camera (\"Let desktop apps access your camera\")",
        "darwin": "macOS may have refused access: allow Aquarelle (or the Terminal you "
                  "started it from) in System Settings > Privacy & Security > Camera, then "
                  "start it again; also close other programs using the camera",
    }[family(platform)]


def virtual_camera_setup(platform: str) -> str:
    """What a user does once so that a virtual camera exists: v4l2loopback on Linux, OBS
    Studio's Virtual Camera on Windows and macOS (pyvirtualcam drives either)."""
    if family(platform) == "linux":
        return ("run `sudo modprobe v4l2loopback devices=1 exclusive_caps=1 "
                "card_label=\"Aquarelle\"` (package v4l2loopback-dkms)")
    return "install OBS Studio 28 or newer and start its Virtual Camera once"


def finds_virtual_camera_device(platform: str) -> bool:
    """Whether the virtual camera is a device file that can be looked for before opening
    it (a v4l2loopback /dev/videoN, named in sysfs): Linux. OBS's Virtual Camera on Windows
    and macOS only shows when opened."""
    return family(platform) == "linux"


def device_denied_hint(platform: str) -> str:
    """What to do when a device file exists but opening it is refused (EACCES)."""
    if family(platform) == "linux":
        return f"you may not open it ({VIDEO_GROUP_HINT})"
    return camera_denied_hint(platform)


def virtual_camera_name(platform: str) -> str:
    """The camera to pick in the video call."""
    return "Aquarelle" if family(platform) == "linux" else "OBS Virtual Camera"


# -- the desktop app -----------------------------------------------------------------------

def gl_widget_version(platform: str) -> tuple[int, int]:
    """The core profile the app's widgets ask for: macOS gives 4.1 core (a 3.3 request
    would get the legacy 2.1 profile), elsewhere 3.3."""
    return (4, 1) if family(platform) == "darwin" else (3, 3)


def trims_heap(platform: str) -> bool:
    """Whether freed heap memory is handed back to the system only when asked (glibc's
    malloc_trim, Linux): a CPU renderer's released textures would otherwise still count."""
    return family(platform) == "linux"


def video_decoder_devices(platform: str) -> tuple[str, ...]:
    """FFmpeg's hardware device types to decode video on, in the order tried: NVDEC (CUDA)
    and VAAPI on Linux; Direct3D 11, NVDEC and DXVA2 on Windows; VideoToolbox on macOS.
    (FFmpeg's own decoders take no Quick Sync device: an Intel GPU decodes through VAAPI or
    Direct3D 11.)"""
    return {"linux": ("cuda", "vaapi"), "win32": ("d3d11va", "cuda", "dxva2"),
            "darwin": ("videotoolbox",)}[family(platform)]


def needs_display_server(platform: str) -> bool:
    """Whether the app needs $DISPLAY or $WAYLAND_DISPLAY (Linux); Windows and macOS
    always have their desktop."""
    return family(platform) == "linux"


# -- this machine ---------------------------------------------------------------------------

def has_display(env: Mapping[str, str] | None = None) -> bool:
    """Whether a display server is reachable (X11 or Wayland)."""
    env = os.environ if env is None else env
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def current_gl_backends() -> list[str | None]:
    return gl_backends(sys.platform, has_display())


def current_gl_help() -> str:
    return gl_help(sys.platform)


def current_config_dir() -> Path:
    return config_dir(sys.platform, os.environ, Path.home())


def current_media_dir(kind: str) -> Path:
    return media_dir(kind, sys.platform, os.environ, Path.home())


def current_camera_api() -> str:
    return camera_api(sys.platform)


def current_camera_denied_hint() -> str:
    return camera_denied_hint(sys.platform)


def current_lists_cameras_from_devices() -> bool:
    return lists_cameras_from_devices(sys.platform)


def current_legacy_settings_files() -> list[Path]:
    return legacy_settings_files(sys.platform, os.environ, Path.home())


def current_virtual_camera_setup() -> str:
    return virtual_camera_setup(sys.platform)


def current_finds_virtual_camera_device() -> bool:
    return finds_virtual_camera_device(sys.platform)


def current_device_denied_hint() -> str:
    return device_denied_hint(sys.platform)


def current_virtual_camera_name() -> str:
    return virtual_camera_name(sys.platform)


def current_gl_widget_version() -> tuple[int, int]:
    return gl_widget_version(sys.platform)


def current_video_decoder_devices() -> tuple[str, ...]:
    return video_decoder_devices(sys.platform)


def current_needs_display_server() -> bool:
    return needs_display_server(sys.platform)


def return_freed_heap() -> None:
    """Hand freed heap memory back to the system where it is kept until asked (glibc)."""
    if trims_heap(sys.platform):
        with contextlib.suppress(OSError, AttributeError):  # not glibc (musl): no need
            ctypes.CDLL(None).malloc_trim(0)


M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
BIG_BUFFER = 1 << 20


def map_big_buffers() -> None:
    """Give every buffer over 1 MB its own mapping, returned to the system when freed
    (glibc). glibc's threshold otherwise grows to the largest buffer freed so far, and a
    still's decoded picture, its readback and the GL textures then stay resident in the heap
    once freed; for a process painting stills, not for video (a frame's buffers would be
    mapped and zeroed anew every frame)."""
    if trims_heap(sys.platform):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, BIG_BUFFER)


SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swiftshader", "software", "swrast")


def software_renderer(renderer: str) -> bool:
    """Whether a GL renderer string names a CPU renderer (Mesa llvmpipe and kin)."""
    return any(s in renderer.lower() for s in SOFTWARE_RENDERERS)
