"""The app's live extras: the virtual camera toggle (fake backend), its failure dialog,
adaptive quality on live sources, mirror and camera modes, the live status."""
# ruff: noqa: F811 - pytest fixtures imported from test_gui

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest
from PyQt6.QtWidgets import QToolButton
from test_gui import (  # noqa: F401 - fixtures
    TIMEOUT,
    Dialogs,
    FakeCamera,
    config,
    dialogs,
    media,
    open_and_render,
    window,
)
from test_live import FakeBackend

from aquarelle.media.virtual_camera import VirtualCameraError
from aquarelle.media.webcam import CameraSource
from aquarelle.ui import source_controller as sc
from aquarelle.ui.live_controller import camera_mode
from aquarelle.ui.main_window import MainWindow
from aquarelle.ui.sources import SourceSpec


def use_camera(monkeypatch: pytest.MonkeyPatch, cam: Any) -> list[dict[str, Any]]:
    """Cameras open as `cam`; returns the keyword arguments each open got."""
    opened: list[dict[str, Any]] = []

    def fake_open(spec: SourceSpec, loop: bool = True, **kw: Any) -> Any:
        opened.append(kw)
        return cam

    monkeypatch.setattr(sc, "open_source", fake_open)
    return opened


@pytest.mark.parametrize("queued", [None, True])  # True: a GPU's readback ring
def test_virtual_camera_sends_the_painted_picture(qtbot: Any, window: MainWindow,
                                                  media: dict[str, Any],
                                                  queued: bool | None) -> None:
    # A still is a one-off render: sent at once even where live frames go through the ring.
    window.live.queued = queued
    backend = FakeBackend(want=3)
    opened: list[tuple[int, int, float]] = []

    def factory(w: int, h: int, fps: float) -> FakeBackend:
        opened.append((w, h, fps))
        return backend

    window.live.backend_factory = factory
    open_and_render(qtbot, window, media["image"])  # a still: sent at once, then repeated
    size = window.viewport.frame_size
    assert size is not None
    window._actions["virtual_camera"].trigger()
    assert window.live.virtual_camera_on and window._actions["virtual_camera"].isChecked()
    assert opened == [(size[0], size[1], window.live.target_fps)]
    # black until the first painted frame arrives, then the picture
    qtbot.waitUntil(lambda: any(f.mean() > 10 for f in backend.frames), timeout=TIMEOUT)
    painted = backend.frames[-1]
    assert painted.shape == (size[1], size[0], 3) and painted.mean() > 10
    window.update_stats()
    assert "virtual camera" in window.labels.live.text()
    window._actions["virtual_camera"].trigger()  # off again
    assert not window.live.virtual_camera_on and backend.closed
    assert "virtual camera" not in window.live.status_text()


def test_virtual_camera_without_backend_shows_a_dialog_and_keeps_the_preview(
        qtbot: Any, window: MainWindow, dialogs: Dialogs, media: dict[str, Any]) -> None:
    def missing(w: int, h: int, fps: float) -> Any:
        raise VirtualCameraError("no virtual camera (no device): run `sudo modprobe "
                                 "v4l2loopback`")

    window.live.backend_factory = missing
    open_and_render(qtbot, window, media["clip"])
    window._actions["virtual_camera"].trigger()
    assert dialogs.kinds() == ["warning"]
    assert "modprobe v4l2loopback" in dialogs.calls[0][2]
    assert not window.live.virtual_camera_on
    assert not window._actions["virtual_camera"].isChecked()
    renders = window.viewport.stats.renders
    qtbot.waitUntil(lambda: window.viewport.stats.renders > renders, timeout=TIMEOUT)


def test_cameras_and_playing_files_adapt_the_scale(qtbot: Any, window: MainWindow,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   media: dict[str, Any]) -> None:
    open_and_render(qtbot, window, media["clip"])
    assert window.viewport.adaptive is not None  # a playing file holds its rate too
    assert window.viewport.adaptive.target_fps == 12.0  # the file's own
    window.playback.toggle_play()  # paused: the frame as the export paints it
    assert window.viewport.adaptive is None
    window.playback.toggle_play()
    assert window.viewport.adaptive is not None
    cam = FakeCamera(unplug=False, frames=10**6)
    use_camera(monkeypatch, cam)
    assert window.open_spec(SourceSpec("camera", "0"))
    adaptive = window.viewport.adaptive
    assert adaptive is not None and adaptive.ceiling == window.state.scale
    qtbot.waitUntil(lambda: window.viewport.stats.renders > 5, timeout=TIMEOUT)
    window.update_stats()
    assert "scale" in window.labels.live.text()
    # adapting, the cheapest draft: the whole painting at the work size, enlarged cheaply
    p = window.viewport.pipeline
    assert p is not None and not p.draft_borders and p.upscale_method == "bicubic"
    window._actions["adaptive"].trigger()  # off: the chosen scale again
    assert window.viewport.adaptive is None and not window._actions["adaptive"].isChecked()
    renders = window.viewport.stats.renders
    qtbot.waitUntil(lambda: window.viewport.stats.renders > renders, timeout=TIMEOUT)
    assert window.viewport.pipeline.draft_borders  # the export's draft again
    assert window.settings.live_bool("adaptive", True) is False


def test_mirror_flips_camera_frames(qtbot: Any, window: MainWindow,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    frame = np.zeros((4, 6, 3), np.uint8)
    frame[:, :3] = 255  # left half white

    class Capture:
        def __init__(self) -> None:
            self.reads = 0

        def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
            return True

        def set(self, *a: Any) -> bool:
            return True

        def get(self, *a: Any) -> float:
            return 30.0

        def read(self) -> tuple[bool, np.ndarray]:
            # a camera's read waits for its next frame (one that returns at once spun the
            # capture thread, and the window took seconds to get one after another test)
            time.sleep(1 / 60)
            self.reads += 1
            return True, frame[:, :, ::-1].copy()

        def release(self) -> None:
            pass

    cam = CameraSource(0, capture_factory=lambda dev: Capture())
    use_camera(monkeypatch, cam)
    window._actions["mirror"].trigger()
    assert window.live.mirror and window._actions["mirror"].isChecked()
    assert window.open_spec(SourceSpec("camera", "0"))
    assert cam.mirror
    qtbot.waitUntil(lambda: window.viewport.has_frame, timeout=TIMEOUT)
    img = window.viewport.current_image
    assert img is not None and img[0, -1].min() == 255 and img[0, 0].max() == 0
    window.close()


def test_camera_mode_menu_reopens_the_camera_with_it(qtbot: Any, window: MainWindow,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    opened = use_camera(monkeypatch, FakeCamera(unplug=False, frames=10**6))
    assert window.open_spec(SourceSpec("camera", "0"))
    assert opened[-1] == {"camera_size": None, "camera_fps": None}
    live_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "Live")
    resolution = next(a.menu() for a in live_menu.actions()
                      if a.menu() is not None and a.text() == "Camera resolution")
    hd = next(a for a in resolution.actions() if a.text() == "1280\u00d7720")
    hd.trigger()
    assert camera_mode(window.settings) == ((1280, 720), None)
    assert opened[-1] == {"camera_size": (1280, 720), "camera_fps": None}


def live_submenu(window: MainWindow, title: str) -> Any:
    live_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "Live")
    return next(a.menu() for a in live_menu.actions()
                if a.menu() is not None and a.text() == title)


def test_rate_to_hold_and_lowest_scale_are_settings(qtbot: Any, window: MainWindow,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    use_camera(monkeypatch, FakeCamera(unplug=False, frames=10**6))
    assert window.open_spec(SourceSpec("camera", "0"))
    adaptive = window.viewport.adaptive
    assert adaptive is not None and adaptive.target_fps == 30.0 and adaptive.floor == 0.3
    next(a for a in live_submenu(window, "Frame rate to hold").actions()
         if a.text() == "15 fps").trigger()
    next(a for a in live_submenu(window, "Lowest scale").actions()
         if a.text().startswith("50%")).trigger()
    adaptive = window.viewport.adaptive
    assert adaptive is not None and adaptive.target_fps == 15.0 and adaptive.floor == 0.5
    assert window.settings.live_float("min_scale", 0.3, 0.1, 1.0) == 0.5
    # the side panel's button is the same toggle as the menu's
    buttons = window.source_panel.findChildren(QToolButton)
    assert window._actions["virtual_camera"] in [b.defaultAction() for b in buttons]


def test_the_app_shows_an_upscaled_picture_and_compares_it(qtbot: Any, window: MainWindow,
                                                           media: dict[str, Any]) -> None:
    from aquarelle.ui.view_transform import CompareMode

    open_and_render(qtbot, window, media["image"])
    with qtbot.waitSignal(window.viewport.rendered, timeout=TIMEOUT):
        window.set_style("upscale")
    w, h = window.viewport.frame_size or (0, 0)
    shot = window.viewport.snapshot()
    assert shot.shape == (2 * h, 2 * w, 3)  # the result is the enlarged picture
    method = next(r for r in window.param_panel.rows.values() if r.spec.name == "method")
    assert method.combo is not None and method.combo.count() == 3  # a menu, not a slider
    window.set_compare(CompareMode.SPLIT)
    with qtbot.waitSignal(window.viewport.rendered, timeout=TIMEOUT):
        method.combo.setCurrentIndex(1)  # EASU
    assert window.state.params["method"] == 1
    assert window.viewport.snapshot().shape == (2 * h, 2 * w, 3)


def test_a_lost_camera_that_comes_back_is_reopened(qtbot: Any, window: MainWindow,
                                                   dialogs: Dialogs,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    cam = FakeCamera(unplug=True, frames=2)
    use_camera(monkeypatch, cam)
    assert window.open_spec(SourceSpec("camera", "0"))
    qtbot.waitUntil(lambda: window.source is None or window.source is not cam,
                    timeout=TIMEOUT)  # unplugged: the question was answered No
    assert dialogs.kinds() == ["question"] and "plugged back in" in dialogs.calls[0][2]
    monkeypatch.setattr(sc, "list_cameras", lambda: [("0", "Fake camera")])
    back = FakeCamera(unplug=False, frames=10**6)
    use_camera(monkeypatch, back)
    window.sources.cameras_changed()  # what the /dev watcher triggers
    assert window.source is back and window.source_spec == SourceSpec("camera", "0")
    assert window.source_panel.cameras.count() == 2  # "choose a camera…" + the camera


def use_cameras(monkeypatch: pytest.MonkeyPatch, cams: dict[str, Any]) -> None:
    """Camera N opens as a new `cams[N]()` each time; files and the demo as they do."""
    real = sc.open_source
    monkeypatch.setattr(sc, "open_source", lambda spec, loop=True, **kw: cams[spec.ref]()
                        if spec.kind == "camera" else real(spec, loop=loop, **kw))


class RateLaterCamera(FakeCamera):
    """A camera whose rate its capture thread reads after it opened (as CameraSource's)."""

    @property
    def fps(self) -> float | None:
        return 15.0 if self.sent else None


def test_adaptive_quality_holds_a_cameras_rate_once_it_is_known(
        qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    # It read the rate as the camera opened, before the camera said it: a 15 fps camera was
    # held to 30 fps, painted at 0.3 where 0.9 kept up.
    use_cameras(monkeypatch, {"0": lambda: RateLaterCamera(unplug=False, frames=10**6)})
    assert window.open_spec(SourceSpec("camera", "0"))
    adaptive = window.viewport.adaptive
    assert adaptive is not None and adaptive.target_fps == 30.0
    qtbot.waitUntil(lambda: window.sources.frames_seen > 0, timeout=TIMEOUT)
    window.update_stats()
    assert window.viewport.adaptive is adaptive and adaptive.target_fps == 15.0


def test_a_camera_that_never_starts_gives_the_working_one_back(
        qtbot: Any, window: MainWindow, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl+K onto a busy camera closed the working one at once, then said the new one did
    # not start ("Camera camera 6 ..."), and left the old camera's last picture under the
    # new one's name for good.
    use_cameras(monkeypatch, {"0": lambda: FakeCamera(unplug=False, frames=10**6),
                              "6": lambda: FakeCamera(frames=0)})
    assert window.open_spec(SourceSpec("camera", "0"))
    qtbot.waitUntil(lambda: window.sources.frames_seen > 0, timeout=TIMEOUT)
    assert window.open_spec(SourceSpec("camera", "6"))
    qtbot.waitUntil(lambda: dialogs.calls != [], timeout=TIMEOUT)
    assert [text for _, _, text in dialogs.calls] == [
        "Camera 6 did not start: device disconnected\n\nShowing camera 0 again."]
    assert window.source_spec == SourceSpec("camera", "0")
    assert window.windowTitle().startswith("camera 0")
    qtbot.waitUntil(lambda: window.sources.frames_seen > 0, timeout=TIMEOUT)


def test_a_camera_lost_while_recording_says_so_over_the_picture(
        qtbot: Any, window: MainWindow, dialogs: Dialogs, tmp_path: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    cam = FakeCamera(unplug=False, frames=10**6)
    use_cameras(monkeypatch, {"0": lambda: cam})
    assert window.open_spec(SourceSpec("camera", "0"))
    qtbot.waitUntil(lambda: window.sources.frames_seen > 0, timeout=TIMEOUT)
    window.toggle_record(tmp_path / "rec.mp4")
    qtbot.waitUntil(lambda: window.recorder is not None and window.recorder.frames >= 2,
                    timeout=TIMEOUT)
    cam.frames, cam.unplug = cam.sent, True  # unplugged
    qtbot.waitUntil(lambda: window.recorder is None, timeout=TIMEOUT)
    hint = window.overlays.hint.text()
    assert hint.startswith("Recording stopped: the camera was lost. Recorded "), \
        (hint, dialogs.calls)


def test_the_camera_list_shows_the_camera_on_screen(
        qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    # It always read "choose a camera...", and the panel said "camera 1", not its name.
    monkeypatch.setattr(sc, "list_cameras", lambda: [("0", "Desk cam"), ("1", "Room cam")])
    use_cameras(monkeypatch, {"1": lambda: FakeCamera(unplug=False, frames=10**6)})
    window.sources.refresh_cameras()
    assert window.open_spec(SourceSpec("camera", "1"))
    panel = window.source_panel
    assert panel.cameras.currentText() == "Room cam"
    assert panel.current.text() == "Showing: camera 1 (Room cam)"
    window.sources.refresh_cameras()  # listed again (a camera plugged in): still selected
    assert panel.cameras.currentText() == "Room cam"
    with qtbot.waitSignal(window.viewport.rendered, timeout=TIMEOUT):
        window.open_demo()
    assert panel.cameras.currentText() == "choose a camera\u2026"


def test_a_camera_without_a_first_picture_says_it_is_waiting(
        qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    # A camera whose read never returned showed the last source's picture under its name,
    # "starting...", and nothing else for as long as the read took (10 s on V4L2).
    use_cameras(monkeypatch, {"3": lambda: FakeCamera(unplug=False, frames=0)})
    now = [100.0]
    window.sources.clock = lambda: now[0]
    assert window.open_spec(SourceSpec("camera", "3"))
    window.poll_source()
    assert "no picture yet" not in window.statusBar().currentMessage()
    now[0] += 5.2
    window.poll_source()
    assert window.statusBar().currentMessage() == "Camera 3: no picture yet (5 s)"


def test_a_lost_camera_leaves_no_size_or_drops_in_the_status_bar(
        qtbot: Any, window: MainWindow, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    cam = FakeCamera(frames=3)
    use_cameras(monkeypatch, {"0": lambda: cam})
    assert window.open_spec(SourceSpec("camera", "0"))
    qtbot.waitUntil(lambda: window.sources.frames_seen > 0, timeout=TIMEOUT)
    window.update_stats()
    assert window.labels.res.text() and window.labels.dropped.text().startswith("dropped")
    qtbot.waitUntil(lambda: cam.stopped, timeout=TIMEOUT)  # unplugged; no demo asked for
    assert window.source is None
    window.update_stats()
    assert window.labels.res.text() == "" and window.labels.dropped.text() == ""
