"""The window shows a clip of non-square pixels (DV's 12:11) at the shape a player shows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_gui import TIMEOUT, Dialogs, config, dialogs, grab, window  # noqa: F401
from test_pixel_aspect import sar_clip

from aquarelle.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def picture_box(pixels: np.ndarray) -> tuple[int, int]:
    """(width, height) of what differs from the viewport's background (its corner)."""
    diff = np.abs(pixels.astype(np.int16) - pixels[0, 0].astype(np.int16)).max(axis=2) > 24
    cols, rows = np.flatnonzero(diff.any(axis=0)), np.flatnonzero(diff.any(axis=1))
    return int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1)


def test_non_square_pixels_are_shown_widened(qtbot: Any, window: MainWindow,  # noqa: F811
                                             tmp_path: Path) -> None:
    src = sar_clip(tmp_path / "dv.mp4", size=(96, 64), frames=3)
    vp = window.viewport
    with qtbot.waitSignal(vp.rendered, timeout=TIMEOUT):
        assert window.open_file(src)
    assert vp.pixel_aspect == pytest.approx(12 / 11) and vp.frame_size == (96, 64)
    w, h = picture_box(grab(window))
    assert w / h == pytest.approx(96 * 12 / 11 / 64, abs=0.02)  # not 96 / 64
    vp.actual_pixels()  # one line per screen line
    assert vp.zoom_percent() == pytest.approx(100.0)
    dpr = vp.devicePixelRatioF()
    assert picture_box(grab(window)) == (round(96 * dpr * 12 / 11), round(64 * dpr))
