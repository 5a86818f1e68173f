"""Decisions that depend on the operating system, tested for Linux, Windows and macOS on
any machine: they are functions of the platform name (app/platforms.py)."""

from __future__ import annotations

from pathlib import Path, PureWindowsPath

import pytest

from aquarelle import platforms as pf
from aquarelle.engine import context as gl_context
from aquarelle.engine.errors import GLUnavailableError

HOME = Path("/home/ana")


@pytest.mark.parametrize("name, family", [
    ("linux", "linux"), ("win32", "win32"), ("cygwin", "win32"), ("darwin", "darwin"),
    ("freebsd14", "linux")])
def test_platform_families(name, family):
    assert pf.family(name) == family


def test_headless_gl_backends():
    assert pf.gl_backends("linux", has_display=False) == ["egl"]
    assert pf.gl_backends("linux", has_display=True) == ["egl", "glx"]
    assert pf.gl_backends("win32", has_display=True) == [None]  # WGL
    assert pf.gl_backends("darwin", has_display=False) == [None]  # CGL, 4.1 core
    assert "libegl1" in pf.gl_help("linux")
    assert "driver" in pf.gl_help("win32") and "4.1" in pf.gl_help("darwin")


def test_the_headless_context_tries_each_backend_and_says_what_to_install(monkeypatch):
    tried = []

    def fake(**kw):
        tried.append(kw.get("backend"))
        raise Exception(f"no {kw.get('backend') or 'default'}")

    monkeypatch.setattr(gl_context.moderngl, "create_standalone_context", fake)
    monkeypatch.setattr(gl_context, "current_gl_backends", lambda: ["egl", "glx"])
    monkeypatch.setattr(gl_context, "current_gl_help", lambda: pf.gl_help("linux"))
    with pytest.raises(GLUnavailableError) as e:
        gl_context.create_headless_context()
    assert tried == ["egl", "glx"]
    assert "egl: no egl; glx: no glx" in str(e.value) and "libegl1" in str(e.value)
    tried.clear()
    monkeypatch.setattr(gl_context, "current_gl_backends", lambda: [None])
    monkeypatch.setattr(gl_context, "current_gl_help", lambda: pf.gl_help("win32"))
    with pytest.raises(GLUnavailableError, match="graphics driver"):
        gl_context.create_headless_context()
    assert tried == [None]  # the platform's own (no backend argument)


def test_config_folders():
    assert pf.config_dir("linux", {}, HOME) == HOME / ".config" / "aquarelle"
    assert pf.config_dir("linux", {"XDG_CONFIG_HOME": "/cfg"}, HOME) == Path("/cfg/aquarelle")
    win = pf.config_dir("win32", {"APPDATA": r"C:\Users\ana\AppData\Roaming"}, HOME)
    assert PureWindowsPath(str(win)).parts[-1] == "Aquarelle"
    assert str(win).startswith(r"C:\Users\ana\AppData\Roaming")
    assert pf.config_dir("win32", {}, HOME) == HOME / "AppData" / "Roaming" / "Aquarelle"
    assert pf.config_dir("darwin", {}, HOME) == \
        HOME / "Library" / "Application Support" / "Aquarelle"


def test_media_folders(tmp_path):
    assert pf.media_dir("pictures", "darwin", {}, HOME) == HOME / "Pictures"
    assert pf.media_dir("videos", "darwin", {}, HOME) == HOME / "Movies"
    assert pf.media_dir("videos", "win32", {"USERPROFILE": r"C:\Users\ana"}, HOME) == \
        Path(r"C:\Users\ana") / "Videos"
    assert pf.media_dir("pictures", "linux", {}, tmp_path) == tmp_path / "Pictures"
    (tmp_path / ".config").mkdir()
    (tmp_path / ".config" / "user-dirs.dirs").write_text(
        '# written by xdg-user-dirs-update\nXDG_PICTURES_DIR="$HOME/Bilder"\n'
        'XDG_VIDEOS_DIR="$HOME"\n')
    assert pf.media_dir("pictures", "linux", {}, tmp_path) == tmp_path / "Bilder"
    assert pf.media_dir("videos", "linux", {}, tmp_path) == tmp_path / "Videos"  # $HOME: unset
    with pytest.raises(ValueError):
        pf.media_dir("music", "linux", {}, tmp_path)


def test_existing_linux_presets_keep_their_folder(monkeypatch, tmp_path):
    from aquarelle.engine.presets import user_presets_dir

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    if pf.family(__import__("sys").platform) == "linux":
        assert user_presets_dir("watercolor") == tmp_path / "aquarelle" / "presets" / "watercolor"
    assert user_presets_dir("watercolor") == pf.current_config_dir() / "presets" / "watercolor"


def test_settings_move_next_to_the_presets_and_keep_earlier_values(monkeypatch, tmp_path):
    from aquarelle.ui import settings as st

    old = tmp_path / "Aquarelle" / "Aquarelle.ini"
    old.parent.mkdir()
    old.write_text("[render]\nstyle=denoise+watercolor\n")
    monkeypatch.setattr(st, "current_config_dir", lambda: tmp_path / "aquarelle")
    monkeypatch.setattr(st, "current_legacy_settings_files", lambda: [old])
    path = st.default_settings_file()
    assert path == tmp_path / "aquarelle" / "settings.ini"
    assert st.Settings().style() == "denoise+watercolor"
    old.write_text("[render]\nstyle=blur\n")  # taken over once, not again
    assert st.Settings().style() == "denoise+watercolor"
    assert pf.legacy_settings_files("linux", {}, HOME) == \
        [HOME / ".config" / "Aquarelle" / "Aquarelle.ini"]


def test_camera_decisions():
    assert pf.camera_api("linux") == "CAP_V4L2"
    assert pf.camera_api("win32") == "CAP_MSMF"
    assert pf.camera_api("darwin") == "CAP_AVFOUNDATION"
    assert pf.lists_cameras_from_devices("linux")
    assert not pf.lists_cameras_from_devices("win32")
    assert not pf.lists_cameras_from_devices("darwin")
    assert "Privacy & Security > Camera" in pf.camera_denied_hint("darwin")
    assert "Privacy & security > Camera" in pf.camera_denied_hint("win32")
    assert "video" in pf.camera_denied_hint("linux")


def test_camera_names_from_qt_keep_opencv_indices():
    from aquarelle.ui.camera_access import qt_camera_names

    assert qt_camera_names(["FaceTime HD Camera", " ", "OBS Virtual Camera"]) == [
        ("0", "FaceTime HD Camera"), ("1", "Camera 1"), ("2", "OBS Virtual Camera")]


def test_cameras_open_through_the_systems_backend(monkeypatch):
    import cv2

    from aquarelle.media import webcam

    opened = []

    class Cap:
        def __init__(self, device, api=cv2.CAP_ANY):
            opened.append(api)

        def isOpened(self):
            return len(opened) > 1  # the first backend fails

        def release(self):
            pass

    monkeypatch.setattr(webcam.cv2, "VideoCapture", Cap)
    monkeypatch.setattr(webcam, "current_camera_api", lambda: pf.camera_api("darwin"))
    webcam._open_capture(0)
    assert opened == [cv2.CAP_AVFOUNDATION, cv2.CAP_ANY]  # then OpenCV's own choice


def test_the_app_and_virtual_camera_decisions():
    assert pf.gl_widget_version("darwin") == (4, 1)
    assert pf.gl_widget_version("win32") == (3, 3) == pf.gl_widget_version("linux")
    assert pf.needs_display_server("linux") and not pf.needs_display_server("darwin")
    assert pf.trims_heap("linux") and not pf.trims_heap("win32") and not pf.trims_heap("darwin")
    assert pf.virtual_camera_name("win32") == "OBS Virtual Camera"
    assert pf.virtual_camera_name("linux") == "Aquarelle"
    assert pf.video_decoder_devices("linux") == ("cuda", "vaapi")
    assert pf.video_decoder_devices("darwin") == ("videotoolbox",)
    assert pf.video_decoder_devices("win32")[0] == "d3d11va"


def test_engine_and_media_never_name_a_platform():
    root = Path(pf.__file__).parent
    for folder in ("engine", "media"):
        for path in (root / folder).glob("*.py"):
            text = path.read_text(encoding="utf-8")
            for word in ("sys.platform", '"linux"', '"win32"', '"darwin"', "startswith(\"win"):
                assert word not in text, f"{path.name} names a platform ({word})"
