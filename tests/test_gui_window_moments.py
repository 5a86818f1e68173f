"""Trial W2 and re-trial 2: steps pressed while a video plays, the layout after an image
sequence opens. The window's picture is read back and compared with `aquarelle render`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest
from PyQt6.QtWidgets import QApplication
from test_gui import TIMEOUT, Dialogs, config, dialogs  # noqa: F401
from test_gui_fidelity import (
    FPS,
    assert_same,
    cli_render,
    clip_frame,
    files,  # noqa: F401
    goto,
    open_paused,
    shown,
    window,
)
from test_gui_fidelity_steps import start_render

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("frames", [-1, 1])
def test_a_step_while_playing_counts_from_the_frame_on_screen(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path, frames: int) -> None:
    """While a file plays the decoder can be a frame ahead of the picture (delivered, not
    taken yet: a busy GUI thread). "," and "." counted from the decoder: "," paused on the
    frame already shown, "." skipped one (re-trial 2: shown 16, decoder 17: "," stayed on
    16). They count from the frame on screen: from 3, "," shows 2 (as `--start` 2 paints
    it) and "." shows 4 (the export from 3 on)."""
    clip = files["clip"]
    win = window(qtbot, config)
    open_paused(qtbot, win, clip)
    goto(qtbot, win, 3)
    vp = win.viewport
    src = win.source
    assert src is not None
    win._poll.stop()  # the GUI thread busy: the decoder's next frame is not taken
    win.playback.set_playing(True)
    qtbot.waitUntil(lambda: (src.position or 0.0) > 3.5 / FPS, timeout=TIMEOUT)
    assert vp.painted_pts == 3 / FPS
    win.playback.step(frames)
    win._poll.start()
    want = 3 + frames
    qtbot.waitUntil(lambda: vp.shown_index == want, timeout=TIMEOUT)
    painted = shown(qtbot, win)
    assert vp.shown_index == want and vp.painted_pts == want / FPS
    if frames < 0:
        expected = start_render(clip, tmp_path, want)
    else:
        start_render(clip, tmp_path, 3)
        expected = cv2.imread(str(tmp_path / "s3_02.png"))[:, :, ::-1]
    assert_same(painted, expected)


def test_an_image_sequence_is_first_painted_at_the_width_it_keeps(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """A sequence's frame count is an estimate ("frame 3 of about 20"), said only from the
    first frame painted on: the wider time label widened the transport, and a 900x640
    window's view grew from 441 to 463 px a frame or so after the first, the picture fitted
    again (trial W2, finding 7). The room is taken when it opens: every painting has the
    width the view keeps, and the picture is the CLI's."""
    seq = tmp_path / "seq"
    seq.mkdir()
    for i in range(12):
        cv2.imwrite(str(seq / f"f_{i:04d}.png"), clip_frame(i)[:, :, ::-1])
    win = window(qtbot, config)
    win._stats_timer.stop()  # (its refresh could come before the first frame painted)
    vp = win.viewport
    widths: list[int] = []
    vp.rendered.connect(lambda: widths.append(vp.width()))
    open_paused(qtbot, win, seq / "f_%04d.png")
    assert "of about 12" in win.transport.time.text()
    for _ in range(4):  # the layout requests its time label made, carried out
        QApplication.sendPostedEvents(None, 0)
        QApplication.processEvents()
    painted = shown(qtbot, win)
    assert widths and set(widths) | {vp.width()} == {widths[0]}, (widths, vp.width())
    assert_same(painted, cli_render(seq / "f_0000.png", tmp_path / "cli.png"))
