"""The window does what the user means: keys and the wheel over fields, the seek bar, the
timecode, J/K/L (real widgets, real events)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import QPoint, QPointF, Qt
from PyQt6.QtGui import QWheelEvent
from PyQt6.QtWidgets import QApplication
from test_gui import TIMEOUT, Dialogs, config, dialogs, media, open_and_render  # noqa: F401
from test_gui import window as window  # noqa: F401

from aquarelle.ui.main_window import MainWindow
from aquarelle.ui.source_controls import format_timecode
from aquarelle.ui.view_transform import CompareMode


def _focus_field(qtbot: Any, win: MainWindow, name: str) -> Any:
    spin = win.param_panel.rows[name].spin
    assert spin is not None
    win.side_dock.show()
    with qtbot.waitActive(win, timeout=TIMEOUT):
        win.activateWindow()
    spin.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(spin.hasFocus, timeout=TIMEOUT)
    return spin


def win_handle(win: MainWindow) -> Any:
    """Key events through the window system (so shortcuts apply), to the focus widget."""
    handle = win.windowHandle()
    assert handle is not None
    return handle


def test_letters_and_undo_reach_the_window_from_a_number_field(
        qtbot: Any, window: MainWindow, media: dict[str, Path]) -> None:  # noqa: F811
    open_and_render(qtbot, window, media["image"])
    spin = _focus_field(qtbot, window, "dilution")
    before = spin.text()
    handle = win_handle(window)
    qtbot.keyClick(handle, Qt.Key.Key_C)  # compare, not a letter typed into the number
    assert window.viewport.compare is CompareMode.SPLIT
    assert spin.text() == before and spin.hasFocus()
    window.param_panel.set_value("dilution", 0.42)
    qtbot.keyClick(handle, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.state.params["dilution"] != 0.42  # the look's undo, focus in the field
    qtbot.keyPress(handle, Qt.Key.Key_O)  # hold O: the original
    assert window.viewport.show_original
    qtbot.keyRelease(handle, Qt.Key.Key_O)
    assert not window.viewport.show_original


def test_menu_ctrl_keys_reach_the_window_from_a_number_field(
        qtbot: Any, window: MainWindow, media: dict[str, Path],  # noqa: F811
        monkeypatch: Any) -> None:
    """Ctrl+E (Export), listed in the File menu, works after typing a value: the field's
    line edit took it as "end of line" and nothing was exported."""
    open_and_render(qtbot, window, media["image"])
    asked: list[bool] = []
    monkeypatch.setattr(window.exports, "open_dialog", lambda: asked.append(True))
    spin = _focus_field(qtbot, window, "dilution")
    handle = win_handle(window)
    qtbot.keyClick(handle, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked == [True] and spin.hasFocus()
    qtbot.keyClick(handle, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert spin.lineEdit() is not None and spin.lineEdit().hasSelectedText()  # still its own


def test_the_wheel_over_a_field_scrolls_the_panel(qtbot: Any, window: MainWindow) -> None:
    window.resize(760, 360)  # a panel taller than its room
    bar = window.side_scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=TIMEOUT)
    row = window.param_panel.rows["dilution"]
    window.viewport.setFocus()
    value = window.state.params["dilution"]
    for widget in (row.spin, row.slider):
        start = bar.value()
        at = QPointF(widget.width() / 2, widget.height() / 2)
        event = QWheelEvent(at, QPointF(widget.mapToGlobal(at.toPoint())), QPoint(0, 0),
                            QPoint(0, -120), Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(widget, event)
        assert bar.value() > start or bar.value() == bar.maximum()
        assert window.state.params["dilution"] == value


def test_seek_bar_jumps_to_the_click_and_shows_timecode(
        qtbot: Any, window: MainWindow, media: dict[str, Path]) -> None:  # noqa: F811
    open_and_render(qtbot, window, media["clip"])  # 12 frames at 12 fps
    window.playback.set_playing(False)
    # the label follows each frame shown, not the status bar's half-second timer (a step
    # showed the frame before for up to half a second)
    window._stats_timer.stop()
    seek = window.transport.seek
    with qtbot.waitSignal(window.transport.seekRequested, timeout=TIMEOUT) as got:
        qtbot.mouseClick(seek, Qt.MouseButton.LeftButton,
                         pos=QPoint(round(seek.width() * 0.75), seek.height() // 2))
    assert abs(got.args[0] - 0.75) < 0.1  # there, not one page towards it
    # (the picture before a seek stays while the new frame's subject is found; the label
    # follows the picture)
    label = window.transport.time.text
    qtbot.waitUntil(lambda: label().startswith("0:00:00:09 / 0:00:01:00"), timeout=TIMEOUT)
    assert window.viewport.shown_index == 9
    assert "frame 10 of 12" in label()
    window.playback.step(-1)
    qtbot.waitUntil(lambda: "frame 9 of 12" in label(), timeout=TIMEOUT)  # a frame step shows
    assert window.viewport.shown_index == 8
    window._actions["play_on"].trigger()  # L
    assert not window.source.paused
    window._actions["pause"].trigger()  # K
    assert window.source.paused
    window._actions["jump_back"].trigger()  # J: a second back, paused
    qtbot.waitUntil(lambda: window.viewport.shown_index == 0, timeout=TIMEOUT)
    assert window.transport.loop.toolTip().endswith("(Ctrl+L)")


def test_playback_speed_from_the_keys_and_the_menu(
        qtbot: Any, window: MainWindow, media: dict[str, Path]) -> None:  # noqa: F811
    open_and_render(qtbot, window, media["clip"])  # 12 frames at 12 fps
    handle = win_handle(window)
    with qtbot.waitActive(window, timeout=TIMEOUT):
        window.activateWindow()
    window.viewport.setFocus()
    speed = window.transport.speed
    assert speed.text() == "1\u00d7" and speed.isEnabled()
    qtbot.keyClick(handle, Qt.Key.Key_Less)  # <
    assert window.source.rate == 0.75 and speed.text() == "0.75\u00d7"
    # adaptive quality holds the frames a second that come: 9 of the clip's 12 now
    assert window.live.target_fps == pytest.approx(9.0)
    qtbot.keyClick(handle, Qt.Key.Key_Greater)  # >
    qtbot.keyClick(handle, Qt.Key.Key_Greater)
    assert window.source.rate == 1.25
    assert window.live.target_fps == pytest.approx(12.0)  # every frame no faster than 12/s
    half = next(a for a in window.transport.speed_menu.actions() if a.data() == 0.5)
    half.trigger()  # the Playback menu's Speed, the bar's button: one menu
    assert window.source.rate == 0.5 and half.isChecked() and speed.text() == "0.5\u00d7"
    first = window.source
    open_and_render(qtbot, window, media["clip"])  # the speed stays for the next file
    assert window.source is not first and window.source.rate == 0.5
    assert speed.text() == "0.5\u00d7"
    open_and_render(qtbot, window, media["image"])  # a still: nothing to speed
    assert not speed.isEnabled() and not window._actions["faster"].isEnabled()
    assert not window.transport.speed_menu.isEnabled()


def test_timecode_format() -> None:
    assert format_timecode(3725.5, 25) == "1:02:05:12"
    assert format_timecode(1.0, 30) == "0:00:01:00"
    assert format_timecode(2.0, 29.97) == "0:00:01:29"  # frame 59 of a 30-frame second
    assert format_timecode(2.25, None) == "0:02.2"


def test_the_views_follow_the_state(qtbot: Any, window: MainWindow,
                                    media: dict[str, Path]) -> None:  # noqa: F811
    # One place owns the look: whoever changes it (undo, a preset, a script), the panels,
    # the chooser, the chain, the debug views and the picture follow without a window in
    # between.
    open_and_render(qtbot, window, media["image"])
    state = window.state
    renders = window.viewport.stats.renders
    state.set_seed(4242)
    state.set_scale(0.5)
    state.apply_values({"dilution": 0.61})
    assert window.seed_spin.value() == 4242 and window.scale_spin.value() == 0.5
    assert window.param_panel.rows["dilution"].spin.value() == 0.61
    qtbot.waitUntil(lambda: window.viewport.stats.renders > renders, timeout=TIMEOUT)
    state.set_style("denoise+watercolor", {"watercolor.dilution": 0.33})
    assert window.chain_panel.names() == ["denoise", "watercolor"]
    qtbot.waitUntil(lambda: window.viewport.pipeline is not None
                    and window.viewport.pipeline.style.name == "denoise+watercolor",
                    timeout=TIMEOUT)  # the picture is the chain's
    assert "denoise.sigma_space" in window.param_panel.rows
    assert window.param_panel.rows["watercolor.dilution"].spin.value() == 0.33
    assert any(window.debug_combo.itemText(i).startswith("Denoise ›")
               for i in range(window.debug_combo.count()))
    state.set_compare(CompareMode.SPLIT.value)
    assert window.viewport.compare is CompareMode.SPLIT
    assert window.compare_combo.currentData() is CompareMode.SPLIT
    state.set_preset(None, True)
    assert window.presets.combo.currentText() == "Custom"


def test_an_animated_png_plays_as_a_video(qtbot: Any, window: MainWindow,  # noqa: F811
                                          tmp_path: Path) -> None:
    # An APNG named .png opened as a still (its first frame), while `aquarelle render`
    # paints every frame; its length is unknown to FFmpeg, so the seek bar is off (any place
    # on it meant the start)
    import numpy as np
    from PIL import Image

    frames = [Image.fromarray(np.full((48, 64, 3), v, np.uint8)) for v in (40, 120, 200)]
    path = tmp_path / "anim.png"
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, loop=0)
    open_and_render(qtbot, window, path)
    src = window.source
    assert src is not None and not getattr(src, "still", False)
    # it plays on past its first frame (a still never does)
    qtbot.waitUntil(lambda: (window.viewport.shown_index or 0) >= 1, timeout=TIMEOUT)
    window.show_position()
    if window.transport.duration is None:
        assert not window.transport.seek.isEnabled()


def test_an_animated_picture_shown_as_a_still_says_so(qtbot: Any, window: MainWindow,  # noqa: F811
                                                      tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # an animated WebP, whose frames FFmpeg here cannot decode, showed its first frame
    # without a word (the command line warns); FFmpeg's answer forced, as it may change
    import numpy as np
    from PIL import Image

    from aquarelle.media import sources

    monkeypatch.setattr(sources, "ffmpeg_decodes", lambda path: False)
    frames = [Image.fromarray(np.full((48, 64, 3), v, np.uint8)) for v in (40, 200)]
    path = tmp_path / "anim.webp"
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, loop=0)
    messages: list[str] = []
    monkeypatch.setattr(window, "status", lambda text, ms=0: messages.append(text))
    open_and_render(qtbot, window, path)
    assert getattr(window.source, "still", False)
    assert any("animated WebP (2 frames), shown as its first frame" in m for m in messages)
