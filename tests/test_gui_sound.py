"""The window plays a file's sound in step with its pictures, mutes (M, kept), and says
once where the machine has no audio output.

The speakers are replaced by a recorder of what the window asks of them (the sound's own
timing is test_sound's); the window, media and dialog fixtures are test_gui's.
"""

# ruff: noqa: F811

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest
from PyQt6.QtCore import Qt
from test_gui import (  # noqa: F401 - fixtures
    TIMEOUT,
    Dialogs,
    config,
    dialogs,
    make_window,
    media,
    open_and_render,
    window,
)
from videoclips import make_clip, mux_frames, tone

from aquarelle.ui import sound_controller
from aquarelle.ui.main_window import MainWindow
from aquarelle.ui.settings import Settings


class Speakers:
    """Stands for ui.sound_output.SoundThread: keeps what it was asked to play."""

    made: list[Speakers] = []

    def __init__(self, report: Callable[[str], None]) -> None:
        self.report = report
        self.path: Path | None = None
        self.origin = 0.0
        self.clock: Callable[[float], tuple[float, float] | None] | None = None
        self.finished = False
        self.track: int | None = None
        Speakers.made.append(self)

    def follow(self, path: Path | None, origin: float = 0.0,
               clock: Callable[[float], tuple[float, float] | None] | None = None,
               track: int | None = None) -> None:
        self.path, self.origin, self.clock, self.track = path, origin, clock, track

    def start(self) -> None:
        pass

    def finish(self) -> None:
        self.finished = True

    def now(self) -> float | None:
        """The time the pictures are at (None: silence)."""
        assert self.clock is not None
        value = self.clock(time.monotonic())
        return None if value is None else value[0]

    def rate(self) -> float | None:
        assert self.clock is not None
        value = self.clock(time.monotonic())
        return None if value is None else value[1]


@pytest.fixture
def speakers(monkeypatch: pytest.MonkeyPatch) -> type[Speakers]:
    Speakers.made = []
    monkeypatch.setattr(sound_controller, "why_no_output", lambda: None)
    monkeypatch.setattr(sound_controller, "SoundThread", Speakers)
    return Speakers


@pytest.fixture(scope="module")
def song(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2 s clip with sound."""
    return make_clip(tmp_path_factory.mktemp("sound") / "song.mp4", size=(96, 64),
                     frames=48, fps=24).path


def test_the_window_plays_the_files_sound_at_its_pictures_time(
        qtbot: Any, window: MainWindow, speakers: type[Speakers], song: Path,
        media: dict[str, Path]) -> None:
    """Opened, the file's sound is followed at the pictures' clock: the time of the frame
    shown, moving on with the wall clock; silent paused and muted (M); at twice the pace
    played twice as fast; a picture opened after it has no sound to play."""
    open_and_render(qtbot, window, song)
    assert len(speakers.made) == 1
    out = speakers.made[0]
    assert out.path == song and out.clock is not None
    src = window.source
    assert src is not None
    qtbot.waitUntil(lambda: out.now() is not None, timeout=TIMEOUT)
    now = out.now()
    assert now is not None and src.position is not None
    assert abs(now - src.position) < 0.5  # the frame delivered last, and on from it
    window.playback.set_playing(False)
    assert out.now() is None
    window.playback.set_playing(True)
    qtbot.waitUntil(lambda: out.now() is not None, timeout=TIMEOUT)
    window._actions["mute"].trigger()  # (M)
    assert window.transport.mute.isChecked() and out.now() is None
    assert Settings(window.settings.path).muted()  # kept for the next session
    window._actions["mute"].trigger()
    assert not window.transport.mute.isChecked()
    qtbot.waitUntil(lambda: out.now() is not None, timeout=TIMEOUT)
    assert out.rate() == 1.0
    window.playback.set_rate(2.0)
    qtbot.waitUntil(lambda: out.rate() == 2.0, timeout=TIMEOUT)
    window.playback.set_rate(1.0)
    qtbot.waitUntil(lambda: out.rate() == 1.0, timeout=TIMEOUT)
    open_and_render(qtbot, window, media["image"])
    assert out.path is None
    window.close()
    assert out.finished


def test_a_file_with_several_sound_tracks_offers_them_in_the_playback_menu(
        qtbot: Any, window: MainWindow, speakers: type[Speakers], tmp_path: Path,
        media: dict[str, Path]) -> None:
    """Playback > Sound track names each track by title and language, the one marked
    default checked and played; another chosen is played; a file with one track offers
    no choice, a file without sound says so."""
    path = tmp_path / "two.mkv"
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=24)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        tracks = [out.add_stream("aac", rate=48000, layout="stereo") for _ in range(2)]
        tracks[0].metadata.update({"language": "eng"})
        tracks[1].metadata.update({"language": "fra", "title": "Commentaire"})
        tracks[0].disposition = av.stream.Disposition(0)
        tracks[1].disposition = av.stream.Disposition.default
        mux_frames(out, vs, [np.full((48, 64, 3), 9 * k, np.uint8) for k in range(24)])
        for s in tracks:
            frame = av.AudioFrame.from_ndarray(tone(1.0), format="fltp", layout="stereo")
            frame.sample_rate, frame.pts = 48000, 0
            for packet in [*s.encode(frame), *s.encode(None)]:
                out.mux(packet)
    open_and_render(qtbot, window, path)
    menu = window.sound.menu
    labels = [(a.text(), a.isChecked()) for a in menu.actions()]
    assert labels == [("Track 1 (eng)", False), ("Track 2: Commentaire (fra)", True)]
    assert menu.isEnabled()
    out = speakers.made[0]
    assert out.path == path and out.track == 2  # (stream 0 is the video)
    menu.actions()[0].trigger()
    assert out.track == 1 and menu.actions()[0].isChecked()
    open_and_render(qtbot, window, media["clip"])  # no sound
    assert [a.text() for a in menu.actions()] == ["No sound"] and not menu.isEnabled()
    assert out.path is None


def test_mute_is_kept_for_the_next_window(qtbot: Any, config: Path, dialogs: Dialogs,
                                          speakers: type[Speakers], song: Path) -> None:
    win = make_window(qtbot, config)
    with qtbot.waitActive(win, timeout=TIMEOUT):
        win.activateWindow()
    win.viewport.setFocus()
    handle = win.windowHandle()
    assert handle is not None
    qtbot.keyClick(handle, Qt.Key.Key_M)  # where a user's key goes
    assert win.sound.muted
    win.close()
    win = make_window(qtbot, config)
    assert win.transport.mute.isChecked() and win._actions["mute"].isChecked()
    open_and_render(qtbot, win, song)
    out = speakers.made[-1]
    assert out.now() is None  # muted from the start
    win.close()


def test_without_an_audio_output_the_window_says_so_once_and_plays(
        qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch, song: Path,
        media: dict[str, Path]) -> None:
    said: list[str] = []
    monkeypatch.setattr(sound_controller, "why_no_output",
                        lambda: "this machine has no audio output")
    window.sound._status = lambda text, ms=6000: said.append(text)
    open_and_render(qtbot, window, media["clip"])  # (no sound: nothing to say)
    assert said == []
    open_and_render(qtbot, window, song)
    assert said == ["Playing without sound: this machine has no audio output"]
    open_and_render(qtbot, window, song)
    assert len(said) == 1
    src = window.source
    assert src is not None and not src.paused  # it plays, silent
