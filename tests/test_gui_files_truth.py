"""The window tells the truth about files (trial V2): a music file's cover picture is no
video to open."""
# ruff: noqa: F811 - pytest fixtures imported from test_gui

from __future__ import annotations

from pathlib import Path
from typing import Any

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
