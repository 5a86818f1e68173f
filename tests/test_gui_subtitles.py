"""A video's subtitles over the picture in the window (trial W11: neither shown nor listed;
the export kept them): Playback > Subtitles offers its text tracks and Off, the forced or
default one shown, the line of the frame on screen."""
# ruff: noqa: F811 - pytest fixtures imported from test_gui

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_files_cues import cued_clip
from test_gui import (  # noqa: F401 - fixtures
    TIMEOUT,
    Dialogs,
    config,
    dialogs,
    open_and_render,
    paused_at_start,
    window,
)

from aquarelle.ui.main_window import MainWindow


@pytest.fixture(scope="module")
def cued(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cued_clip(tmp_path_factory.mktemp("cued") / "cued.mkv")


def shown_at(qtbot: Any, win: MainWindow, t: float) -> str:
    """What the subtitle says once the frame at `t` is on screen ("" when none shows)."""
    vp = win.viewport
    win.playback.seek(t)
    qtbot.waitUntil(lambda: vp.painted_pts is not None and abs(vp.painted_pts - t) < 0.021,
                    timeout=TIMEOUT)
    win.show_position()
    label = win.overlays.subtitle
    return label.text() if label.isVisible() else ""


def test_the_forced_track_shows_its_line_and_the_menu_picks_another_or_none(
        qtbot: Any, window: MainWindow, cued: Path) -> None:
    open_and_render(qtbot, window, cued)
    paused_at_start(qtbot, window)
    menu = window.subtitles.menu
    assert [a.text() for a in menu.actions()] == ["Off", "Subtitles 1", "Subtitles 2"]
    assert [a.isChecked() for a in menu.actions()] == [False, False, True]
    qtbot.waitUntil(lambda: bool(window.subtitles._cues), timeout=TIMEOUT)
    assert shown_at(qtbot, window, 0.32) == "FORCED one"
    label = window.overlays.subtitle
    assert window.viewport.rect().contains(label.geometry())
    assert label.geometry().center().x() == pytest.approx(window.viewport.width() / 2, abs=2)
    assert shown_at(qtbot, window, 0.8) == ""
    menu.actions()[1].trigger()
    qtbot.waitUntil(lambda: bool(window.subtitles._cues), timeout=TIMEOUT)
    assert shown_at(qtbot, window, 0.32) == "Hello there"
    menu.actions()[0].trigger()
    assert shown_at(qtbot, window, 0.32) == ""
