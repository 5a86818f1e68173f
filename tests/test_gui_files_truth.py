"""The window tells the truth about files (trial V2): a music file's cover picture is no
video to open."""
# ruff: noqa: F811 - pytest fixtures imported from test_gui

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_files_truth import song
from test_gui import (  # noqa: F401 - fixtures
    Dialogs,
    config,
    dialogs,
    media,
    open_and_render,
    window,
)

from aquarelle.ui.main_window import MainWindow
from aquarelle.ui.sources import SourceSpec


def test_a_music_file_with_a_cover_picture_does_not_open_as_a_video(
        qtbot: Any, window: MainWindow, media: dict[str, Path], dialogs: Dialogs,
        tmp_path: Path) -> None:
    music = song(tmp_path / "song.m4a", "mp4", "aac")
    open_and_render(qtbot, window, media["image"])
    assert window.open_file(music) is False
    assert dialogs.calls == [("warning", "Cannot open source",
                              f"{music} has no video stream, only a cover picture")]
    assert window.source_spec == SourceSpec("file", str(media["image"].resolve()))


def test_a_file_deleted_while_open_is_said_at_once(
        qtbot: Any, window: MainWindow, media: dict[str, Path], tmp_path: Path) -> None:
    """Deleted while open, a clip played on unsaid until an export failed on it (trial W5,
    finding 2): the status bar and the title say so when it goes."""
    import shutil

    clip = tmp_path / "gone.mp4"
    shutil.copy(media["clip"], clip)
    open_and_render(qtbot, window, clip)
    bar = window.statusBar()
    assert bar is not None
    clip.unlink()
    qtbot.waitUntil(lambda: "gone.mp4 was moved or deleted" in bar.currentMessage(),
                    timeout=5000)
    assert window.windowTitle() == "gone.mp4 (missing) \u2014 Aquarelle"
    # another file opened is watched instead, and named as before
    open_and_render(qtbot, window, media["image"])
    assert "(missing)" not in window.windowTitle()


def test_the_open_dialog_lists_every_kind_of_file_the_window_opens(
        qtbot: Any, window: MainWindow, media: dict[str, Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """File > Open's filter was typed out by hand: it hid HEIC and AVIF photos and .mts,
    .ts, .mpg, .wmv clips that the window opens (trial W9, finding 2). Its filters now come
    from the lists the sources are read by."""
    import fnmatch

    from PyQt6.QtWidgets import QFileDialog

    from aquarelle.media.image_formats import IMAGE_EXTENSIONS
    from aquarelle.media.paths import VIDEO_EXTENSIONS

    asked: list[str] = []

    def pick(*args: Any) -> tuple[str, str]:
        asked.append(args[3])
        return str(media["image"]), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(pick))
    window._actions["open"].trigger()
    qtbot.waitUntil(lambda: window.viewport.has_frame, timeout=10000)
    filters = asked[0].split(";;")
    first, videos, pictures = (f[f.index("(") + 1:-1].split() for f in filters[:3])
    assert filters[0].startswith("Media (") and filters[-1] == "All files (*)"

    def admits(patterns: list[str], name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in patterns)

    for ext in IMAGE_EXTENSIONS | VIDEO_EXTENSIONS:
        assert admits(first, f"IMG_0001{ext}"), ext
    assert all(admits(videos, f"clip{e}") for e in VIDEO_EXTENSIONS)
    assert all(admits(pictures, f"photo{e}") for e in IMAGE_EXTENSIONS)
    assert window.source_spec == SourceSpec("file", str(media["image"].resolve()))
