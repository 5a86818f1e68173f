"""Opening a video does not stop the window (trial W8, finding 2: 130-230 ms on the GUI
thread for a 1280x720 H.264 clip): its container is probed and its first frame decoded on a
worker thread while the window's event loop runs on (painting, timers; no input, as under a
modal dialog), and the open still answers at once whether it opened."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import QTimer
from test_gui import TIMEOUT, Dialogs, config, dialogs  # noqa: F401
from test_gui_fidelity import clip_frame, lossless_clip, window

pytestmark = pytest.mark.gui


class HeldOpen:
    """open_source as the window calls it, recording whether each call ran on the GUI
    thread; a video's waits until the GUI thread's event loop has run a timer (the test
    sets one), which it never does while the GUI thread itself is opening it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from aquarelle.ui import source_controller

        self.real = source_controller.open_source
        self.ticked = threading.Event()
        self.threads: list[bool] = []
        self.waited: list[bool] = []
        monkeypatch.setattr(source_controller, "open_source", self)

    def __call__(self, spec: Any, **kw: Any) -> Any:
        gui = threading.current_thread() is threading.main_thread()
        self.threads.append(gui)
        # (a bound, not a sync: on the GUI thread the timer cannot run, and this gives up)
        self.waited.append(self.ticked.wait(2.0))
        return self.real(spec, **kw)


@pytest.fixture
def clip(tmp_path: Path) -> Path:
    return lossless_clip(tmp_path / "pan.mkv", [clip_frame(i) for i in range(4)])


def test_a_video_is_opened_off_the_gui_thread_while_the_window_runs(
        qtbot: Any, config: Path, dialogs: Dialogs, clip: Path,  # noqa: F811
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """... and one that does not open is said in a one-line dialog, the one before staying
    on screen (as when it was opened on the GUI thread)."""
    win = window(qtbot, config)
    held = HeldOpen(monkeypatch)
    QTimer.singleShot(0, held.ticked.set)  # runs only if the event loop runs meanwhile
    assert win.open_file(clip)  # answered once opened
    assert held.threads == [False] and held.waited == [True], (held.threads, held.waited)
    assert win.source_spec is not None and win.source_spec.ref == str(clip)
    assert win.source is not None and win.source.size == (200, 136)
    qtbot.waitUntil(lambda: win.viewport.frame_size == (200, 136), timeout=TIMEOUT)
    assert not dialogs.calls
    broken = tmp_path / "broken.mp4"
    broken.write_bytes(b"\x00\x00\x00\x18ftypisom" + bytes(200))
    held.ticked.clear()
    QTimer.singleShot(0, held.ticked.set)
    assert not win.open_file(broken)
    assert held.threads == [False, False] and held.waited == [True, True]
    assert len(dialogs.calls) == 1, dialogs.calls
    _, title, text = dialogs.calls[0][:3]
    assert title == "Cannot open source" and "broken.mp4" in text and "\n" not in text, \
        dialogs.calls
    assert win.source_spec is not None and win.source_spec.ref == str(clip)
    assert win.source is not None
