"""Quick key presses on a paused video (trial W2): the window shows what an export makes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from test_gui import TIMEOUT, Dialogs, config, dialogs, grab  # noqa: F401
from test_gui_fidelity import FPS, assert_same, goto, open_paused, portrait_clip, shown, window

from aquarelle.cli.main import main as cli_main

pytestmark = pytest.mark.gui


def start_render(clip: Path, out: Path, index: int) -> np.ndarray:
    """The first image of `aquarelle render CLIP --start` at frame `index`."""
    assert cli_main(["render", str(clip), "-o", str(out / f"s{index}_%02d.png"), "-y",
                     "--start", repr(index / FPS)]) == 0
    img = cv2.imread(str(out / f"s{index}_01.png"))
    assert img is not None
    return img[:, :, ::-1].copy()


def test_quick_steps_forward_paint_the_frame_landed_on_as_a_seek_to_it(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """"." pressed 5 times with no event-loop turn between: the file hands over only the
    last frame, which was painted with the first frame's face on a history started afresh,
    then again with its own (a ghost: wash and vignette behind the face, 10 levels off
    both `--start` and the export). It is painted as a seek to it paints it, and a step on
    from it is the export from there."""
    clip, _ = portrait_clip(tmp_path, 8)
    win = window(qtbot, config)
    open_paused(qtbot, win, clip)
    goto(qtbot, win, 1)
    vp = win.viewport
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    for _ in range(5):
        win.playback.step(1)
    qtbot.waitUntil(lambda: vp.shown_index == 6, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    assert_same(shown(qtbot, win), start_render(clip, tmp_path, 6))
    win.playback.step(1)
    qtbot.waitUntil(lambda: vp.shown_index == 7, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    stepped = shown(qtbot, win)
    assert_same(stepped, cv2.imread(str(tmp_path / "s6_02.png"))[:, :, ::-1])


def test_quick_steps_back_add_up(qtbot: Any, config: Path, dialogs: Dialogs,  # noqa: F811
                                 tmp_path: Path) -> None:
    """"," pressed 3 times with no event-loop turn between goes 3 frames back (each press
    sought from the frame delivered last, so 3 presses from 6 landed on 5), painted as a
    seek to it paints it."""
    clip, _ = portrait_clip(tmp_path, 8)
    win = window(qtbot, config)
    open_paused(qtbot, win, clip)
    goto(qtbot, win, 6)
    vp = win.viewport
    for _ in range(3):
        win.playback.step(-1)
    qtbot.waitUntil(lambda: vp.shown_index != 6, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    painted = shown(qtbot, win)
    assert vp.shown_index == 3
    assert_same(painted, start_render(clip, tmp_path, 3))
