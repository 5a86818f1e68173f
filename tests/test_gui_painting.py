"""Long paintings in the window say so, and the window keeps answering (a trial's findings):

- a big still (a 9000x6000 photo, shown at 4899x3266) was painted in the window's paint, on
  the GUI thread: with the stereo style 17 s (82 s on another machine) of a frozen window
  and nothing to say it was working. On a CPU renderer a still of big_stills.APART_PX or more
  is painted in a process of its own (moderngl holds the GIL through a draw: a thread would
  freeze the window as surely), with a badge over the picture while it lasts;
- Ctrl+E on a still that its style paints whole (no tiles to count) showed "Painting..." and,
  painted in a thread, froze the window; it is painted in a process of its own and its
  dialog says why there is no progress to show, with the time so far;
- Live > Adaptive quality toggled on a still changed nothing and said nothing.

The pictures are small (llvmpipe on two busy cores): the thresholds are lowered through the
viewport's `apart_px` and the export controller's `tile_above_px`.
"""
# ruff: noqa: F811 - pytest fixtures imported from test_gui

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PyQt6.QtWidgets import QFileDialog, QMessageBox, QProgressDialog
from test_gui import TIMEOUT, Dialogs, config, dialogs, grab, media, open_and_render  # noqa: F401
from test_gui import window as gui_window  # noqa: F401
from test_gui_fidelity import PH, PW, assert_same, cli_render, files, photo, shown  # noqa: F401
from test_gui_fidelity import window as fidelity_window

from aquarelle.engine.chain_spec import load_chain
from aquarelle.engine.errors import AquarelleError
from aquarelle.ui import big_stills
from aquarelle.ui.export_job import painted_whole
from aquarelle.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def photo_file(tmp_path: Path) -> Path:
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), photo()[:, :, ::-1])
    return path


def status(win: MainWindow) -> str:
    bar = win.statusBar()
    assert bar is not None
    return bar.currentMessage()


def wait_painting(qtbot: Any, win: MainWindow) -> None:
    """Wait for a painting apart to start (its badge shows), then to come back."""
    badge = win.overlays.painting
    qtbot.waitUntil(badge.isVisible, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not badge.isVisible(), timeout=TIMEOUT)


def on_screen_now(win: MainWindow) -> np.ndarray:
    """The picture drawn at 100% (as `shown` crops it), read without letting any event in
    (a painting that came back is taken by a timer, so it cannot be this one)."""
    vp = win.viewport
    pixels = grab(win)
    h, w = pixels.shape[:2]
    frame = vp.frame_size
    assert frame is not None and vp.zoom_percent() == pytest.approx(100.0)
    rect = vp.transform.image_rect((w, h), frame)
    x, y = round(rect.x), round(rect.y)
    return pixels[y:y + round(rect.h), x:x + round(rect.w)]


def test_a_big_stereo_still_is_painted_apart_with_a_badge_then_is_the_cli_render(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:
    src = photo_file(tmp_path)
    win = fidelity_window(qtbot, config)
    vp = win.viewport
    vp.apart_px = PW * PH  # this photo counts as big (4899x3266 took 17 s in the paint)
    win.set_style("stereo")
    badge = win.overlays.painting
    assert win.open_file(src)
    qtbot.waitUntil(badge.isVisible, timeout=TIMEOUT)
    assert badge.bar.maximum() == 0  # a busy bar: no share of it done is known
    assert re.fullmatch(f"Painting {PW}\u00d7{PH} with stereo\u2026 0:0\\d",
                        badge.label.text()), badge.label.text()
    with pytest.raises(AquarelleError, match="still being painted"):
        vp.snapshot()  # nothing painted to save yet (not the picture as opened)
    qtbot.waitUntil(lambda: vp.painter.job is not None and vp.painter.job.pid is not None,
                    timeout=TIMEOUT)
    assert vp.painter.job.pid != os.getpid()  # painted in a process of its own ...
    qtbot.waitUntil(lambda: not badge.isVisible(), timeout=TIMEOUT)
    p = vp.pipeline
    assert p is not None and p.input_texture is None  # ... never in the window's paint
    want = cli_render(src, tmp_path / "cli.png", "--style", "stereo")
    assert_same(shown(qtbot, win), want)
    assert_same(vp.snapshot(), want)  # what is saved is what is shown
    assert not dialogs.calls


def test_a_smaller_still_that_would_paint_long_here_is_painted_apart_too(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:
    """A 4000x600 panorama (2.4 MP, under APART_PX) stopped the window 2.2 s: a still whose
    paint would take over big_stills.APART_S, as paints here went, is painted apart too."""
    src = photo_file(tmp_path)
    win = fidelity_window(qtbot, config)
    vp = win.viewport
    assert vp.apart_px is not None and vp.apart_px > PW * PH
    vp.apart_min_px = PW * PH  # this photo is big enough to be slow ...
    vp.cost.large_per_px = 2.0 * vp.apart_s / (PW * PH)  # ... and paints have been slow
    assert win.open_file(src)
    wait_painting(qtbot, win)
    p = vp.pipeline
    assert p is not None and p.input_texture is None  # never in the window's paint
    assert_same(shown(qtbot, win), cli_render(src, tmp_path / "cli.png"))
    assert not dialogs.calls


def test_a_change_to_a_big_still_shows_its_last_painting_until_the_new_one_comes(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:
    src = photo_file(tmp_path)
    win = fidelity_window(qtbot, config)
    vp = win.viewport
    vp.apart_px = PW * PH
    win.set_style("stereo")
    assert win.open_file(src)
    wait_painting(qtbot, win)
    first = shown(qtbot, win)
    assert win.state.params["depth_strength"] == 3.0  # (the default)
    win.param_panel.set_value("depth_strength", 6.0)  # as the user drags it
    win.param_panel.set_value("depth_strength", 7.0)
    qtbot.waitUntil(win.overlays.painting.isVisible, timeout=TIMEOUT)
    assert_same(on_screen_now(win), first)  # the last painting meanwhile, not the photo
    # ... and back: that painting is the one wanted, the one in progress is stopped
    win.param_panel.set_value("depth_strength", 3.0)
    qtbot.waitUntil(lambda: win.state.params["depth_strength"] == 3.0, timeout=TIMEOUT)
    assert_same(on_screen_now(win), first)
    assert vp.painter.painting is None and vp.painter.job is None
    assert not win.overlays.painting.isVisible()
    win.param_panel.set_value("depth_strength", 7.0)
    wait_painting(qtbot, win)
    last = shown(qtbot, win)
    assert_same(last, cli_render(src, tmp_path / "cli.png", "--style", "stereo", "--set",
                                 "depth_strength=7"))
    assert np.abs(last.astype(int) - first.astype(int)).max() > 20  # (another picture)
    assert not dialogs.calls


def test_a_big_16_bit_still_painted_apart_is_the_cli_render_to_the_last_bit(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:
    """Painted deep, as the window paints a 16-bit still; saved and recorded as the 8 bits
    the CLI writes."""
    deep = tmp_path / "deep.png"
    cv2.imwrite(str(deep), (photo().astype(np.uint16) * 257 + 100)[:, :, ::-1])
    win = fidelity_window(qtbot, config)
    vp = win.viewport
    vp.apart_px = PW * PH
    assert win.open_file(deep)
    wait_painting(qtbot, win)
    # (the CLI first: a snapshot, then the CLI's context made and released on this thread,
    # then a grab crashes in Qt, with or without painting apart)
    cli_render(deep, tmp_path / "cli16.png")
    cli16 = cv2.imread(str(tmp_path / "cli16.png"), cv2.IMREAD_UNCHANGED)[:, :, ::-1]
    cli8 = cli_render(deep, tmp_path / "cli.bmp")  # the CLI's own 16 -> 8 bits
    np.testing.assert_array_equal(vp.snapshot(full_depth=True), cli16)
    np.testing.assert_array_equal(vp.snapshot(), cli8)
    d = np.abs(shown(qtbot, win).astype(int) - np.round(cli16 / 257.0))
    assert d.max() <= 4 and d.mean() < 0.5, (d.max(), d.mean())  # (see test_gui_fidelity)
    recorded: list[np.ndarray] = []
    vp.frame_sink = lambda rgb, pts: recorded.append(rgb)
    vp.rerender()  # (a recording started: the still on screen is its frame)
    qtbot.waitUntil(lambda: bool(recorded), timeout=TIMEOUT)
    vp.frame_sink = None
    np.testing.assert_array_equal(recorded[0], cli8)
    assert vp.painter.painting is None  # the frame as it came back, not painted again
    assert not dialogs.calls


def test_a_big_portrait_painted_apart_has_its_face_as_the_cli_paints_it(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],
        tmp_path: Path) -> None:
    win = fidelity_window(qtbot, config)
    win.viewport.apart_px = 256 * 256
    assert win.open_file(files["portrait"])
    wait_painting(qtbot, win)
    assert_same(shown(qtbot, win), cli_render(files["portrait"], tmp_path / "cli.png"))
    assert not dialogs.calls


def test_a_small_still_is_painted_in_the_window_with_no_badge(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:
    src = photo_file(tmp_path)
    win = fidelity_window(qtbot, config)
    assert win.viewport.apart_px is not None and win.viewport.apart_px > PW * PH
    win.set_style("stereo")
    assert win.open_file(src)
    assert_same(shown(qtbot, win), cli_render(src, tmp_path / "cli.png", "--style", "stereo"))
    assert win.viewport.pipeline.input_texture is not None  # painted here
    assert win.viewport.painter.painting is None and not win.overlays.painting.isVisible()


def test_a_still_exported_whole_says_so_and_how_long_it_has_taken(
        qtbot: Any, gui_window: MainWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    window = gui_window
    src = photo_file(tmp_path)
    window.set_style("stereo")
    open_and_render(qtbot, window, src)
    window.exports.tile_above_px = 10_000  # a still over 10 000 px is big (16 MP)
    dst = tmp_path / "painted.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(dst), "")))
    with qtbot.waitSignal(window.exports.stillFinished, timeout=60000) as blocker:
        window._actions["export"].trigger()  # Ctrl+E
        dialogs = [d for d in window.findChildren(QProgressDialog) if d.isVisible()]
        assert len(dialogs) == 1
        dialog = dialogs[0]
        label = f"Painting photo.png at {PW}x{PH} whole (stereo cannot be painted in tiles)"
        assert dialog.labelText() == label + "\u2026" and dialog.maximum() == 0  # busy
        qtbot.waitUntil(lambda: re.fullmatch(re.escape(label) + "\u2026 0:\\d\\d",
                                             dialog.labelText()) is not None, timeout=TIMEOUT)
    job = blocker.args[0]
    assert job.error is None and job.tiles is None  # painted whole
    assert job._child.pid != os.getpid()  # in a process of its own
    want = cli_render(src, tmp_path / "cli.png", "--style", "stereo")
    got = cv2.imread(str(dst))[:, :, ::-1]
    assert np.abs(got.astype(int) - want.astype(int)).max() <= 1


def test_closing_the_window_during_a_still_export_asks_and_leaves_no_file(
        qtbot: Any, gui_window: MainWindow, dialogs: Dialogs, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The window closed while Ctrl+E painted a still quit at once, its export killed unasked
    (a video's export asks): now the same question; No keeps it, Yes stops it, no file and no
    temporary file left."""
    window = gui_window
    src = photo_file(tmp_path)
    window.set_style("stereo")
    open_and_render(qtbot, window, src)
    window.exports.tile_above_px = 10_000
    out = tmp_path / "out"
    out.mkdir()
    dst = out / "painted.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(dst), "")))
    window._actions["export"].trigger()  # Ctrl+E
    job = window.exports.still_job
    assert job is not None and job.running
    dialogs.answer = QMessageBox.StandardButton.No
    window.close()
    assert dialogs.calls[-1][1:] == ("Export running",
                                     "An export is still running. Cancel it and quit?")
    assert window.isVisible() and job.running  # (its process takes a second to start)
    dialogs.answer = QMessageBox.StandardButton.Yes
    with qtbot.waitSignal(window.exports.stillFinished, timeout=TIMEOUT):
        window.close()
    assert not window.isVisible() and not job.running and job.error == "cancelled"
    assert list(out.iterdir()) == []
    # the export's end, followed after the window closed, is no failure to tell in a dialog
    # (a warning 'Export failed: cancelled' over a closed window, which came in the next
    # test, after this one's fake dialogs: a real one, and a crash, double free)
    assert dialogs.kinds() == ["question", "question"]
    assert window.statusBar().currentMessage() == "Export cancelled; nothing was written"


def test_a_still_export_is_cancelled_from_its_progress_dialog(
        qtbot: Any, gui_window: MainWindow, dialogs: Dialogs, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A still painted at full size (19-39 s for a 4000x3000 photo here) had no Cancel:
    only closing the window stopped it. Its Cancel button, or Esc, stops the painter;
    nothing is written."""
    from PyQt6.QtCore import Qt
    from PyQt6.QtWidgets import QPushButton

    window = gui_window
    src = photo_file(tmp_path)
    window.set_style("stereo")  # painted whole in a process of its own
    open_and_render(qtbot, window, src)
    window.exports.tile_above_px = 10_000
    out = tmp_path / "out"
    out.mkdir()
    for how in ("button", "escape"):
        dst = out / f"painted_{how}.png"
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            staticmethod(lambda *a, dst=dst, **k: (str(dst), "")))
        with qtbot.waitSignal(window.exports.stillFinished, timeout=TIMEOUT):
            window._actions["export"].trigger()  # Ctrl+E
            job = window.exports.still_job
            assert job is not None and job.running
            dialog = next(d for d in window.findChildren(QProgressDialog) if d.isVisible())
            if how == "button":
                cancel = dialog.findChild(QPushButton)
                assert cancel is not None and cancel.text() == "Cancel"
                qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
            else:
                qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert job.cancelled and not job.running
        assert list(out.iterdir()) == []
        assert window.statusBar().currentMessage() == "Export cancelled; nothing was written"
    assert dialogs.calls == []


def test_which_stills_an_export_paints_whole_is_said_before_it_starts() -> None:
    stereo, watercolor = load_chain("stereo"), load_chain("watercolor")
    assert painted_whole(stereo, {}, (9000, 6000), 1.0) == \
        " whole (stereo cannot be painted in tiles)"
    assert painted_whole(watercolor, {}, (9000, 6000), 1.0) == ""  # tiles, counted
    assert painted_whole(stereo, {}, (4000, 3000), 1.0) == ""  # 12 MP: whole, as any
    assert painted_whole(watercolor, {}, (9000, 6000), 0.5) == \
        " whole (at scale 0.5: tiles are painted at scale 1 only)"
    assert painted_whole(load_chain("enhance+watercolor"), {}, (9000, 6000), 1.0) == \
        " whole (a chain of styles cannot be painted in tiles)"


def test_adaptive_quality_toggled_on_a_still_says_why_nothing_changes(
        qtbot: Any, gui_window: MainWindow, media: dict[str, Path]) -> None:
    window = gui_window
    open_and_render(qtbot, window, media["image"])
    was = window.live.adaptive_on
    window._actions["adaptive"].trigger()
    assert window.live.adaptive_on is not was  # kept for videos and the camera
    assert window._actions["adaptive"].isChecked() is not was
    assert window.viewport.adaptive is None
    assert status(window) == (f"Adaptive quality {'off' if was else 'on'}: it applies to "
                              "video and the camera; this still is painted at full quality")
    window._actions["adaptive"].trigger()
    assert window.live.adaptive_on is was and status(window).startswith(
        f"Adaptive quality {'on' if was else 'off'}: it applies to video and the camera")
    # a playing video: it acts, and nothing is said
    open_and_render(qtbot, window, media["clip"])
    if not window.live.adaptive_on:
        window._actions["adaptive"].trigger()
    assert window.viewport.adaptive is not None
    before = status(window)
    window._actions["adaptive"].trigger()
    assert window.viewport.adaptive is None and status(window) == before
    # paused: it applies once the video plays again
    window.playback.toggle_play()
    window._actions["adaptive"].trigger()
    assert window.viewport.adaptive is None and "applies while the video plays" in \
        status(window)
    window.playback.toggle_play()
    assert window.viewport.adaptive is not None


def test_a_big_still_is_drafted_while_a_slider_is_held_until_its_painting_comes(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A big still painted apart showed nothing new while a slider was dragged (its last
    painting, until the values settled and their painting came back: 10 s and more on a CPU
    renderer). Each value is drafted in the window from a small copy, the painting of older
    values stopped; once the slider is let go the draft stays until the painting comes."""
    src = photo_file(tmp_path)
    win = fidelity_window(qtbot, config)
    vp = win.viewport
    vp.apart_px = PW * PH
    monkeypatch.setattr(big_stills, "APART_DRAFT_PX", PW * PH // 6)  # drafted at 0.41
    assert win.open_file(src)
    wait_painting(qtbot, win)
    first = shown(qtbot, win)

    def grey(picture: np.ndarray) -> float:  # mean chroma of what is on screen
        return float(np.abs(picture.astype(int) - picture.mean(axis=2, keepdims=True)).mean())

    assert grey(first) > 8
    vp.set_adjusting(True)  # as ParamPanel.adjusting says while a slider is held
    win.param_panel.set_value("saturation", 0.5)
    qtbot.waitUntil(lambda: grey(on_screen_now(win)) < 0.8 * grey(first), timeout=TIMEOUT)
    win.param_panel.set_value("saturation", 0.0)  # each value drafted, none painted apart
    qtbot.waitUntil(lambda: grey(on_screen_now(win)) < 0.35 * grey(first), timeout=TIMEOUT)
    assert vp.painter.painting is None and not win.overlays.painting.isVisible()
    draft = on_screen_now(win)  # (a draft: no margins, softer; a whole paint follows)
    want = cli_render(src, tmp_path / "cli.png", "--set", "saturation=0")
    vp.set_adjusting(False)  # let go: their painting is made, the draft shown meanwhile
    qtbot.waitUntil(win.overlays.painting.isVisible, timeout=TIMEOUT)
    np.testing.assert_array_equal(on_screen_now(win), draft)
    qtbot.waitUntil(lambda: not win.overlays.painting.isVisible(), timeout=TIMEOUT)
    assert_same(shown(qtbot, win), want)
    assert not dialogs.calls
