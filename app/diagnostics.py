"""What this machine offers Aquarelle: packages, OpenGL, the Qt platform plugin's system
libraries (with the Debian packages that provide them), the window's sound output, cameras,
encoders, Ray (for render --cluster), folders.

No Qt import here: the point is to explain a machine on which Qt may not even load.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .platforms import (
    current_needs_display_server,
    family,
    finds_virtual_camera_device,
    software_renderer,
    virtual_camera_setup,
)

PACKAGES = ("numpy", "moderngl", "glcontext", "cv2", "av", "PyQt6.QtCore", "PIL")
# The Qt xcb plugin's usual missing libraries -> the Debian package that provides each.
DEBIAN_PACKAGES = {
    "libxcb-icccm.so.4": "libxcb-icccm4", "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0", "libxcb-image.so.0": "libxcb-image0",
    "libxcb-randr.so.0": "libxcb-randr0", "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0", "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xkb.so.1": "libxcb-xkb1", "libxcb-util.so.1": "libxcb-util1",
    "libxcb-shm.so.0": "libxcb-shm0", "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0", "libxcb-render.so.0": "libxcb-render0",
    "libxcb.so.1": "libxcb1", "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6", "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6", "libdbus-1.so.3": "libdbus-1-3",
    "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1", "libOpenGL.so.0": "libopengl0",
    "libGLX.so.0": "libglx0", "libglib-2.0.so.0": "libglib2.0-0",
    "libpulse.so.0": "libpulse0",
}
CLUSTER_INSTALL = "pip install 'aquarelle[cluster]'"  # pyproject's extra: ray[client]
ENCODERS = (("H.264", "libx264", True), ("H.265", "libx265", False),
            ("VP9", "libvpx-vp9", False), ("ProRes", "prores_ks", False),
            ("AAC", "aac", True), ("Opus", "libopus", False))


@dataclass
class Check:
    """One line of the report: what, its state, and the fix when it is a problem."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    required: bool = True


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)

    def add(self, *args: object, **kw: object) -> Check:
        check = Check(*args, **kw)  # type: ignore[arg-type]
        self.checks.append(check)
        return check

    @property
    def fixes(self) -> list[str]:
        return [c.fix for c in self.checks if not c.ok and c.required and c.fix]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks if c.required)


def python_and_packages(report: Report) -> None:
    report.add("Python", True, f"{platform.python_version()} ({sys.executable})")
    for name in PACKAGES:
        try:
            module = importlib.import_module(name)
        except Exception as e:  # a broken binary package raises anything
            report.add(f"package {name}", False, f"cannot import: {e}",
                       fix="reinstall: pip install -e . (or bash scripts/setup.sh)")
            continue
        version = getattr(module, "__version__", None) or getattr(module, "VERSION", "")
        if hasattr(module, "PYQT_VERSION_STR"):
            version = f"{module.PYQT_VERSION_STR} (Qt {module.QT_VERSION_STR})"
        report.add(f"package {name.split('.')[0]}", True, str(version))


def opengl(report: Report) -> None:
    try:
        from .engine.context import create_headless_context, renderer_string

        ctx = create_headless_context()
        renderer = renderer_string(ctx)
        ctx.release()
    except Exception as e:
        report.add("OpenGL (EGL, headless)", False, str(e),
                   fix="apt-get install libegl1 libgl1-mesa-dri (or the GPU vendor's driver)")
        return
    software = software_renderer(renderer)
    report.add("OpenGL (EGL, headless)", True, renderer
               + (" - software rendering on the CPU: works, but slowly" if software else ""))


def missing_libraries(library: Path, ldd: Callable[[Path], str] | None = None) -> list[str]:
    """The shared libraries `library` needs that the loader cannot find (via ldd)."""
    run = ldd or _ldd
    text = run(library)
    return re.findall(r"^\s*(\S+) => not found", text, flags=re.M)


def _ldd(library: Path) -> str:
    if shutil.which("ldd") is None:
        return ""
    done = subprocess.run(["ldd", str(library)], capture_output=True, text=True, timeout=30)
    return done.stdout


def qt_platform(report: Report, ldd: Callable[[Path], str] | None = None) -> None:
    """Can Qt's window-system plugin load? On Linux, name the missing libraries and packages."""
    try:
        import PyQt6
    except Exception as e:
        report.add("Qt platform plugin", False, f"PyQt6 cannot be imported: {e}",
                   fix="pip install PyQt6")
        return
    if not current_needs_display_server():
        report.add("Qt platform plugin", True, f"{sys.platform}: Qt's own plugin")
        return
    qt = Path(PyQt6.__file__).parent / "Qt6"
    plugin = qt / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        report.add("Qt platform plugin (xcb)", False, f"missing: {plugin}",
                   fix="reinstall PyQt6: pip install --force-reinstall PyQt6-Qt6")
        return
    missing = sorted(set(missing_libraries(plugin, ldd)
                         + missing_libraries(qt / "lib" / "libQt6XcbQpa.so.6", ldd)))
    if missing:
        packages = sorted({DEBIAN_PACKAGES.get(m, m) for m in missing})
        report.add("Qt platform plugin (xcb)", False,
                   f"missing system libraries: {', '.join(missing)}",
                   fix=f"apt-get install {' '.join(packages)}")
    else:
        report.add("Qt platform plugin (xcb)", True, "all its system libraries are present")
    display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    report.add("display", bool(display), display or "none: the app needs one (the command "
               "line does not); run it under Xvfb (xvfb-run) on a server", required=False)


def sound_output(report: Report, ldd: Callable[[Path], str] | None = None,
                 sockets: list[Path] | None = None) -> None:
    """Can the window play a file's sound? On Linux: Qt Multimedia's libraries (libpulse)
    and a PulseAudio (or PipeWire's PulseAudio) server to play to."""
    if not current_needs_display_server():
        report.add("sound output", True, f"{sys.platform}: the system's", required=False)
        return
    try:
        import PyQt6
    except Exception:
        return  # (said under Qt platform plugin)
    library = Path(PyQt6.__file__).parent / "Qt6" / "lib" / "libQt6Multimedia.so.6"
    missing = missing_libraries(library, ldd) if library.is_file() else []
    if not library.is_file() or missing:
        packages = sorted({DEBIAN_PACKAGES.get(m, m) for m in missing})
        report.add("sound output", False,
                   f"Qt Multimedia cannot load ({', '.join(missing) or 'not installed'} "
                   "missing): the window plays files without sound",
                   fix=f"apt-get install {' '.join(packages)}" if packages else "",
                   required=False)
        return
    found = next((p for p in (sockets if sockets is not None else _pulse_sockets())
                  if p.exists()), None)
    server = os.environ.get("PULSE_SERVER", "")
    if server and not server.startswith(("unix:", "/")):
        report.add("sound output", True, f"PulseAudio at {server} (not checked)",
                   required=False)
    elif server:  # a socket named: that one or none
        path = Path(server.removeprefix("unix:"))
        report.add("sound output", path.exists(), f"PulseAudio at {path}" if path.exists()
                   else f"no PulseAudio server at {path} (PULSE_SERVER): the window plays "
                   "files without sound (exports keep it)", required=False)
    elif found is not None:
        report.add("sound output", True, f"PulseAudio (or PipeWire) at {found}",
                   required=False)
    else:
        report.add("sound output", False, "no PulseAudio or PipeWire server found: the "
                   "window plays files without sound (exports keep it)", required=False)


def _pulse_sockets() -> list[Path]:
    """Where a PulseAudio server (PipeWire's too) listens for this user."""
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    return [Path(runtime) / "pulse" / "native", Path("/var/run/pulse/native"),
            *sorted(Path(tempfile.gettempdir()).glob("pulse-*/native"))]


def cameras(report: Report) -> None:
    try:
        from .media.webcam import list_cameras

        found = list_cameras()
    except Exception as e:
        report.add("cameras", False, f"cannot list: {e}", required=False)
        return
    names = ", ".join(f"{c.ident} ({c.name})" for c in found) if found else "none found"
    report.add("cameras", True, names, required=False)


def _deep_detail(encoder: str) -> str:
    """E.g. "deep sources written 10-bit; it takes up to 12-bit, 4:4:4": what Aquarelle
    writes with a deep-capable encoder, and what the encoder itself takes (a choice, not
    its limit)."""
    import av

    formats = [av.VideoFormat(f.name) for f in av.codec.Codec(encoder, "w").video_formats or ()]
    most = max((max(c.bits for c in f.components) for f in formats), default=10)
    full = any(not f.is_rgb and f.components and f.chroma_width(1024) == 1024
               and len(f.components) >= 3 for f in formats)
    takes = [f"up to {most}-bit"] if most > 10 else []
    takes += ["4:4:4"] if full else []
    return "deep sources written 10-bit" + (f"; it takes {', '.join(takes)}" if takes else "")


def encoders(report: Report) -> None:
    try:
        import av
    except Exception as e:
        report.add("encoders", False, f"PyAV cannot be imported: {e}", fix="pip install av")
        return
    from .media.video_writer import CODECS, deep_format

    depth = {spec.encoder: spec for spec in CODECS.values() if spec.deep_pix_fmt is not None}
    for label, name, needed in ENCODERS:
        try:
            av.codec.Codec(name, "w")
            detail = name
            if name in depth:  # what 10-bit sources get from it (libvpx is often 8-bit)
                detail += f" ({_deep_detail(name)})" if deep_format(depth[name]) else \
                    " (8-bit only in this build: 10-bit sources lose 2 bits)"
            report.add(f"encoder {label}", True, detail, required=needed)
        except Exception:
            report.add(f"encoder {label}", False, f"{name} is not in this FFmpeg build",
                       fix="pip install --force-reinstall av (its wheels include it)",
                       required=needed)
    from .media.hw_encoders import HARDWARE, said

    for codec in HARDWARE:
        answers = said(codec)
        works = [n for n, why in answers.items() if why is None]
        if works:
            detail = f"{works[0]} (exports use it; --encoder software to avoid it)"
        else:
            why = "; ".join(f"{n}: {w}" for n, w in answers.items() if w != "not in this FFmpeg")
            detail = f"none works here ({why or 'none in this FFmpeg'}); exports use " \
                     f"{CODECS[codec].encoder}"
        report.add(f"GPU encoder {codec}", bool(works), detail, required=False)
    from .media import hw_decoders

    answers = hw_decoders.said()
    works_dec = [d for d, why in answers.items() if why is None]
    detail = (f"{works_dec[0]} for H.264 (exports use it where it decodes the file; "
              f"--decoder software to avoid it)" if works_dec else
              f"none works here ({hw_decoders.report(answers)}); exports decode in software")
    report.add("GPU decoder", bool(works_dec), detail, required=False)


def virtual_camera(report: Report, platform: str | None = None,
                   sys_root: Path | None = None, dev_root: Path | None = None) -> None:
    """pyvirtualcam, and where the virtual camera is a device file (Linux) whether a
    v4l2loopback device exists that may be opened; elsewhere what it needs (OBS)."""
    from .media.virtual_camera import loopback_devices, loopback_problem

    platform = platform or sys.platform
    try:
        importlib.import_module("pyvirtualcam")
        backend = ""
    except Exception:
        backend = "pyvirtualcam is not installed (optional: pip install pyvirtualcam); "
    if not finds_virtual_camera_device(platform):
        report.add("virtual camera", not backend, (backend or "pyvirtualcam is installed; ")
                   + "it sends to OBS Studio's Virtual Camera, which shows only when opened "
                   f"(not checked here: {virtual_camera_setup(platform)})", required=False)
        return
    problem = loopback_problem(sys_root, dev_root)
    found = loopback_devices(sys_root, dev_root)
    if problem:
        detail = problem.removeprefix("no virtual camera: ")
    elif found is None:
        detail = "cannot tell whether a v4l2loopback device exists (no /sys/class/video4linux)"
    else:
        detail = "v4l2loopback " + ", ".join(f"{d.path} ({d.name})" for d in found)
    report.add("virtual camera", not backend and not problem and bool(found),
               backend + detail, required=False)


def _installed(module: str, distribution: str) -> str | None:
    """The installed version of a package (its metadata: importing Ray takes seconds), "" if
    it is there without metadata, None if it is not there."""
    try:
        if importlib.util.find_spec(module) is None:
            return None
    except (ImportError, ValueError):  # a broken package: as good as absent
        return None
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ""


def cluster(report: Report) -> None:
    """Ray, which `render --cluster` needs (the optional `cluster` extra), and its Ray Client
    (grpcio) for a cluster's ray://HOST:PORT address. Nothing is imported."""
    ray = _installed("ray", "ray")
    if ray is None:
        report.add("cluster (Ray)", False, "Ray is not installed (optional: render --cluster "
                   f"needs it): {CLUSTER_INSTALL}", required=False)
        return
    detail = f"ray {ray or '(version unknown)'}"
    if _installed("grpc", "grpcio") is None:
        detail += ("; a local --cluster works, but not --cluster ray://HOST:PORT: Ray Client "
                   f"needs grpcio ({CLUSTER_INSTALL})")
    report.add("cluster (Ray)", True, detail, required=False)


def folder_state(path: Path, access: Callable[[Path, int], bool] = os.access,
                 probe: Callable[[Path], None] | None = None) -> tuple[bool, str, str]:
    """Whether Aquarelle can write into `path`, creating it if need be: (ok, what it is, the
    fix when not). The folder, or the nearest existing one above it, must be a folder that
    takes a new entry, tried for real (`probe`: a temporary folder made and removed at once;
    os.access says yes to root in /proc or on a read-only mount). Nothing is left behind."""
    there = path
    try:
        while not there.exists() and there != there.parent:
            there = there.parent
    except OSError as e:  # a folder above that may not be looked into
        return False, f"{path} cannot be reached: {e.strerror or e}", \
            f"make {there} readable (chmod u+rx)"
    will = "" if there == path else f"{path} cannot be created: "
    if not there.is_dir():
        return False, f"{will}{there} is a file, not a folder", f"move the file {there} away"
    if not access(there, os.W_OK | os.X_OK):
        return False, f"{will}{there} is not writable: nothing can be saved there", \
            f"make {there} writable (chmod u+w {there})"
    try:
        (probe or _probe_folder)(there)
    except OSError as e:
        return False, f"{will}{there} takes no new files or folders ({e.strerror or e})", \
            f"{there} takes no new folders: choose a writable place for them"
    if there == path:
        return True, f"{path} (exists, writable)", ""
    return True, f"{path} (will be created on first save)", ""


def _probe_folder(folder: Path) -> None:
    """Make a temporary folder in `folder` and remove it: raises the OSError that creating
    one there meets."""
    os.rmdir(tempfile.mkdtemp(prefix=".aquarelle-probe-", dir=folder))


def folders(report: Report, presets: Path | None = None,
            access: Callable[[Path, int], bool] = os.access,
            probe: Callable[[Path], None] | None = None) -> None:
    """The settings folder and the user presets folder (a style's presets are in its
    subfolder, presets/STYLE/): there or creatable, writable. Where they are not, settings
    and presets cannot be saved: a problem with its fix (exit 1)."""
    from .engine.presets import user_presets_dir

    presets = presets or user_presets_dir("watercolor").parent
    xdg = os.environ.get("XDG_CONFIG_HOME")
    elsewhere = ""
    if family(sys.platform) == "linux":  # where the settings go, by the XDG rules
        elsewhere = "; or set XDG_CONFIG_HOME to a writable folder" + (f" (now {xdg})"
                                                                      if xdg else "")
    for name, path in (("config folder", presets.parent), ("user presets", presets)):
        ok, detail, fix = folder_state(path, access, probe)
        if name == "user presets":
            detail += f"; each style's in its own folder: {path / 'STYLE'}/ (e.g. watercolor/)"
        report.add(name, ok, detail, fix=fix + elsewhere if fix else "")


def diagnose(ldd: Callable[[Path], str] | None = None) -> Report:
    """Every check, in the order the report prints them."""
    report = Report()
    python_and_packages(report)
    opengl(report)
    qt_platform(report, ldd)
    sound_output(report, ldd)
    cameras(report)
    encoders(report)
    virtual_camera(report)
    cluster(report)
    folders(report)
    return report


def format_report(report: Report) -> str:
    width = max(len(c.name) for c in report.checks)
    lines = []
    for c in report.checks:
        mark = "ok " if c.ok else ("!! " if c.required else "-- ")
        lines.append(f"{mark}{c.name:{width}s}  {c.detail}")
    if report.fixes:
        lines += ["", "To fix:"] + [f"  {fix}" for fix in dict.fromkeys(report.fixes)]
    else:
        # (an extra missing, a display say, leaves a command unusable: named, not hidden)
        extras = [c.name for c in report.checks if not c.ok and not c.required]
        lines += ["", "Everything Aquarelle needs works on this machine"
                  + (f"; not the extras marked --: {', '.join(extras)}." if extras else ".")]
    return "\n".join(lines)
