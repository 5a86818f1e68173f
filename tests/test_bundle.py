"""The desktop bundle (PyInstaller, scripts/build-app.sh and scripts/packaging/aquarelle.spec).

The fast tests check the build's inputs and that the data folders are found in a frozen app.
The `bundle` tests build the app and run it: minutes, so they are left out of the default run
(pyproject.toml's addopts); run them with `pytest -m bundle`. They need what the default suite
needs (EGL, Xvfb) plus network or a cache for pip to install PyInstaller into .venv once.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from aquarelle import resources

REPO = Path(__file__).resolve().parent.parent
SPEC = REPO / "scripts" / "packaging" / "aquarelle.spec"
BUILD_SH = REPO / "scripts" / "build-app.sh"
BUILD_PS1 = REPO / "scripts" / "build-app.ps1"
PHOTO = REPO / "assets" / "demo" / "coffee.jpg"


# -- fast: the build's inputs ----------------------------------------------------------------

def test_spec_bundles_the_data_folders() -> None:
    text = SPEC.read_text()
    assert re.search(r'DATA_FOLDERS = \("shaders", "assets"\)', text)
    assert "aquarelle_entry.py" in text and (SPEC.parent / "aquarelle_entry.py").is_file()
    assert "NSCameraUsageDescription" in text  # macOS kills an app that opens a camera without
    assert 'name=NAME' in text and 'NAME = "Aquarelle"' in text


def test_build_scripts_exist_and_pin_the_same_pyinstaller() -> None:
    assert BUILD_SH.is_file() and os.access(BUILD_SH, os.X_OK)
    sh = re.search(r"PYINSTALLER_VERSION=(\S+)", BUILD_SH.read_text())
    ps1 = re.search(r'\$PyInstallerVersion = "([^"]+)"', BUILD_PS1.read_text())
    assert sh and ps1 and sh.group(1) == ps1.group(1)
    assert re.fullmatch(r"6\.\d+\.\d+", sh.group(1))
    assert "scripts/packaging/aquarelle.spec" in BUILD_SH.read_text()
    assert "scripts\\packaging\\aquarelle.spec" in BUILD_PS1.read_text()


def test_build_outputs_are_ignored_by_git() -> None:
    lines = (REPO / ".gitignore").read_text().split()
    assert "build/" in lines and "dist/" in lines


def test_frozen_app_finds_data_next_to_the_executable(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """In the bundle, sys._MEIPASS holds shaders/ and assets/ (the spec puts them there)."""
    (tmp_path / "shaders").mkdir()
    (tmp_path / "assets").mkdir()
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    find = resources._data_dir.__wrapped__  # past the cache
    assert find("aquarelle._shaders", "shaders") == tmp_path / "shaders"
    assert find("aquarelle._assets", "assets") == tmp_path / "assets"
    # not frozen: the installed data packages, as before
    monkeypatch.setattr(sys, "frozen", False)
    assert find("aquarelle._shaders", "shaders").resolve() == (REPO / "shaders").resolve()


# -- slow: build the bundle and run it ---------------------------------------------------------

def _bundle_paths() -> tuple[Path, Path, Path]:
    """(bundle folder, executable for the app, executable for the CLI)."""
    if sys.platform.startswith("win"):
        folder = REPO / "dist" / "Aquarelle"
        return folder, folder / "Aquarelle.exe", folder / "aquarelle-cli.exe"
    if sys.platform == "darwin":
        folder = REPO / "dist" / "Aquarelle.app"
        exe = folder / "Contents" / "MacOS" / "Aquarelle"
        return folder, exe, exe
    folder = REPO / "dist" / "Aquarelle"
    return folder, folder / "Aquarelle", folder / "Aquarelle"


@pytest.fixture(scope="module")
def bundle() -> Iterator[tuple[Path, Path, Path]]:
    if sys.platform.startswith("win"):
        cmd = ["powershell", "-ExecutionPolicy", "Bypass", "-File", str(BUILD_PS1)]
    else:
        cmd = ["bash", str(BUILD_SH)]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    paths = _bundle_paths()
    assert paths[1].is_file() and paths[2].is_file(), paths
    yield paths


def _cli(exe: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(exe), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.bundle
@pytest.mark.slow
def test_bundle_holds_the_data_and_no_system_graphics_stack(bundle: tuple[Path, Path, Path]
                                                            ) -> None:
    folder = bundle[0]
    names = {p.name for p in folder.rglob("*")}
    assert "composite.frag" in names and "watercolor.json" in names and "coffee.jpg" in names
    dangling = [p for p in folder.rglob("*") if p.is_symlink() and not p.exists()]
    assert not dangling, dangling
    if sys.platform.startswith("linux"):
        # EGL/GL/Mesa and the C/C++ runtimes must come from the system (see the spec)
        for bad in ("libEGL.so.1", "libGL.so.1", "libGLX.so.0", "libstdc++.so.6",
                    "libgcc_s.so.1", "libmvec.so.1", "libc.so.6"):
            assert bad not in names, bad
        assert "libqxcb.so" in names and "libqxcb-glx-integration.so" in names


@pytest.mark.bundle
@pytest.mark.slow
def test_bundle_cli_renders_like_the_installed_package(bundle: tuple[Path, Path, Path],
                                                       tmp_path: Path) -> None:
    cli = bundle[2]
    done = _cli(cli, "--help", cwd=tmp_path)
    assert done.returncode == 0 and "render" in done.stdout, done.stderr
    done = _cli(cli, "render", str(PHOTO), "-o", str(tmp_path / "bundle.png"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    installed = subprocess.run([sys.executable, "-m", "aquarelle", "render", str(PHOTO), "-o",
                                str(tmp_path / "venv.png")], cwd=tmp_path, capture_output=True,
                               text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    a = cv2.imread(str(tmp_path / "bundle.png")).astype(np.int16)
    b = cv2.imread(str(tmp_path / "venv.png")).astype(np.int16)
    photo = cv2.imread(str(PHOTO)).astype(np.int16)
    assert a.shape == b.shape == photo.shape
    assert np.abs(a - b).max() <= 2  # the same program: identical here
    assert np.abs(a - photo).mean() > 5  # and it did paint
    done = _cli(cli, "doctor", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OpenGL (EGL, headless)" in done.stdout or sys.platform != "linux"


@pytest.mark.bundle
@pytest.mark.slow
@pytest.mark.gui
def test_bundle_app_starts_and_keeps_running(bundle: tuple[Path, Path, Path],
                                            tmp_path: Path) -> None:
    """The desktop app opens (on the demo clip, or a camera) and runs for 8 s without error.
    On Linux it uses the display pytest-xvfb provides."""
    app = bundle[1]
    env = dict(os.environ)
    if sys.platform.startswith("linux"):
        assert env.get("DISPLAY"), "no DISPLAY: run under pytest-xvfb (the default) or Xvfb"
        env["QT_QPA_PLATFORM"] = "xcb"
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")  # no settings from earlier runs
    err = tmp_path / "stderr.txt"
    with err.open("w") as err_file:
        proc = subprocess.Popen([str(app)], cwd=tmp_path, env=env,
                                stdout=subprocess.DEVNULL, stderr=err_file)
        try:
            time.sleep(8)
            still_running = proc.poll() is None
        finally:
            if proc.poll() is None:
                if sys.platform.startswith("win"):
                    proc.terminate()
                else:
                    proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    text = err.read_text(errors="replace")
    assert still_running, f"the app quit early ({proc.returncode}): {text[-3000:]}"
    # a Python error, or Mesa failing to load its driver (e.g. a bundled libstdc++ too old)
    for bad in ("Traceback", "aquarelle: error", "libGL error", "MESA-LOADER", "EGL_BAD"):
        assert bad not in text, text[-3000:]
