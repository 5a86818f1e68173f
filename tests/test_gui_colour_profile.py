"""The window shows a Display P3 still as `aquarelle render` reads it: in sRGB."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PIL import Image
from PyQt6.QtCore import Qt
from test_colour_profile import DISPLAY_P3, as_srgb, colourful, converted
from test_gui import (  # noqa: F401 - fixtures
    H,
    W,
    config,
    dialogs,
    grab,
    image_region,
    mean_diff,
    open_and_render,
    source_as_shown,
)
from test_gui import window as window  # noqa: F401

from aquarelle.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def test_the_window_shows_a_p3_still_converted_to_srgb(qtbot: Any, window: MainWindow,
                                                        tmp_path) -> None:
    p3 = converted(colourful(W, H), DISPLAY_P3)
    Image.fromarray(p3).save(tmp_path / "p3.png", icc_profile=DISPLAY_P3)
    srgb = as_srgb(p3, DISPLAY_P3)
    open_and_render(qtbot, window, tmp_path / "p3.png")
    assert window.source is not None and window.source.still
    assert np.array_equal(window.source.image, srgb)  # what it paints
    qtbot.keyPress(window.viewport, Qt.Key.Key_O)  # the original, as shown
    pixels = grab(window)
    qtbot.keyRelease(window.viewport, Qt.Key.Key_O)
    x0, y0, x1, y1 = image_region(window, pixels)
    inside = (slice(y0, y1), slice(x0, x1))
    shown, unconverted = (source_as_shown(window, pixels, a)[inside] for a in (srgb, p3))
    assert mean_diff(pixels[inside], shown) < 2.0
    assert mean_diff(pixels[inside], unconverted) > 4.0
