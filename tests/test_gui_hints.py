"""What the window says over the picture and in its status bar (a trial's findings):

- every hint was about 200 px tall whatever its text (ViewportOverlays.place fixed a width,
  then adjustSize() on the word-wrapped label took the height of a narrow guess): the "No
  camera found" note, two lines, covered half of a 441x532 viewport; the slow-playback
  hint, one line, was a 950x365 dark box for 15 s. Each overlay is now as tall as its lines
  at the width it has, inside the viewport, at any window size and after a resize;
- the slow-playback hint advised a lower Processing scale while adaptive quality already
  painted at its lowest scale (0.3), where no Processing scale is any faster;
- a photo of 4899x3266 (16,000,134 px, just over the 16 MP the window shows whole) was
  "shown at 4899x3266": the smaller size rounded back to its own.
"""
# ruff: noqa: F811 - pytest fixtures imported from test_gui

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PyQt6.QtCore import QRect
from PyQt6.QtWidgets import QLabel
from test_gui import (  # noqa: F401 - fixtures
    TIMEOUT,
    Dialogs,
    config,
    dialogs,
    media,
    open_and_render,
    window,
)

from aquarelle.engine.chain_spec import load_chain
from aquarelle.media import sources
from aquarelle.media.sources import preview_size
from aquarelle.ui import slow_hint
from aquarelle.ui.main_window import MainWindow
from aquarelle.ui.slow_hint import PaintedHow, SlowPlaybackHint, heavy_styles

pytestmark = pytest.mark.gui

SIZES = [(900, 600), (1580, 980)]  # the trial's


def resized(qtbot: Any, win: MainWindow, size: tuple[int, int]) -> None:
    before, viewport = win.size(), win.viewport.size()
    win.resize(*size)
    if win.size() != before:
        qtbot.waitUntil(lambda: win.viewport.size() != viewport, timeout=TIMEOUT)


def assert_fits_its_text(label: QLabel, viewport: QRect, most_lines: int | None = None
                         ) -> None:
    """`label` is inside the viewport, as tall as the lines it shows its text in plus its
    padding, wrapped only where the width it may take needs it (at most `most_lines`
    lines), and no wider than its text on one line."""
    g = label.geometry()
    m = label.contentsMargins()
    fm = label.fontMetrics()
    assert viewport.contains(g), (g, viewport)
    pad = m.top() + m.bottom()
    assert g.height() == label.heightForWidth(g.width())  # nothing cut off, nothing more
    lines = round((g.height() - pad) / fm.lineSpacing())
    assert g.height() <= lines * fm.lineSpacing() + pad + 2, (g, lines)
    assert most_lines is None or lines <= most_lines, (lines, label.text())
    one_line = fm.horizontalAdvance(label.text())
    inner = g.width() - m.left() - m.right()
    assert lines <= math.ceil(one_line / inner) + 1, (lines, label.text())  # none wasted
    assert g.width() <= one_line + m.left() + m.right() + 12, (g, one_line)  # (the indent)


def floor_hint() -> str:
    """The slow-playback hint as a 640x360 watercolor video at adaptive quality's floor
    gets it on a CPU renderer."""
    [text] = slow(PaintedHow(scale=1.0, adaptive=True, adapted=0.3, lowest=0.3, lines=108,
                             heavy=("Watercolor",), cpu=True))
    return text


@pytest.mark.parametrize("size", SIZES)
def test_hints_are_as_tall_as_their_text(qtbot: Any, window: MainWindow,
                                         size: tuple[int, int]) -> None:
    resized(qtbot, window, size)
    window.open_initial()  # no camera (the fixture's): the demo, with a note
    hint = window.overlays.hint
    qtbot.waitUntil(hint.isVisible, timeout=TIMEOUT)
    assert hint.text().startswith("No camera found")
    viewport = window.viewport.rect()
    # (the trial: 401x202 px for its two lines over a 441x532 viewport)
    assert_fits_its_text(hint, viewport, 2 if viewport.width() > 400 else 3)
    if viewport.width() > 600:
        assert_fits_its_text(hint, viewport, 1)
    assert hint.height() < viewport.height() / 8
    bottom_gap = viewport.bottom() - hint.geometry().bottom()
    assert 0 < bottom_gap <= 40  # at the bottom, centred
    assert abs(hint.geometry().center().x() - viewport.center().x()) <= 1
    window.overlays.show_hint("Press Esc to leave fullscreen")
    assert_fits_its_text(hint, viewport, 1)
    # (the trial: a 950x365 dark box for the slow-playback hint)
    window.overlays.show_hint(floor_hint())
    assert_fits_its_text(hint, viewport)


def test_a_hint_shown_follows_the_window_as_it_is_resized(qtbot: Any,
                                                         window: MainWindow) -> None:
    resized(qtbot, window, SIZES[1])
    overlays = window.overlays
    overlays.show_hint(floor_hint(), 60000)
    wide = overlays.hint.geometry()
    assert_fits_its_text(overlays.hint, window.viewport.rect())
    resized(qtbot, window, SIZES[0])
    narrow = overlays.hint.geometry()
    assert narrow.width() < wide.width() and narrow.height() > wide.height()  # rewrapped
    assert_fits_its_text(overlays.hint, window.viewport.rect())
    resized(qtbot, window, SIZES[1])
    assert overlays.hint.geometry() == wide


@pytest.mark.parametrize("size", [(640, 480), *SIZES])  # (640: a viewport under 200 px)
def test_badges_fit_the_viewport_and_keep_apart(qtbot: Any, window: MainWindow,
                                                size: tuple[int, int]) -> None:
    """The painting badge is one line high where it fits, bottom left; a hint shown with
    it goes above it; the recording panel keeps clear of the compare labels, its Stop
    button in view however narrow the viewport."""
    resized(qtbot, window, size)
    overlays = window.overlays
    viewport = window.viewport.rect()
    overlays.show_painting("Painting 4899\u00d73266 with watercolor", time.monotonic())
    badge = overlays.painting
    try:
        assert badge.isVisible() and viewport.contains(badge.geometry())
        assert badge.label.text() == "Painting 4899\u00d73266 with watercolor\u2026 0:00"
        wide = viewport.width() > 400
        assert_fits_its_text(badge.label, badge.rect(), 1 if wide else None)
        fm = badge.label.fontMetrics()
        if wide:
            assert badge.height() <= fm.lineSpacing() + 16  # its text and 4+4 px margins
        assert badge.geometry().left() == 10 and viewport.bottom() - badge.geometry().bottom() == 10
        overlays.show_hint(floor_hint())
        assert not overlays.hint.geometry().intersects(badge.geometry())
        assert viewport.contains(overlays.hint.geometry())
    finally:
        overlays.show_painting(None)
    overlays.show_compare(True, False)
    overlays.show_recording(True)
    overlays.recording.show_time(754.0, 22620)
    rec = overlays.recording.geometry()
    assert viewport.contains(rec)
    assert not rec.intersects(overlays.original.geometry())
    assert not rec.intersects(overlays.painted.geometry())
    assert abs(rec.center().x() - viewport.center().x()) <= 1  # re-centred as it grew
    stop = overlays.recording.stop_button
    assert viewport.contains(stop.geometry().translated(rec.topLeft()))
    label = overlays.recording.label
    assert label.geometry().bottom() < stop.geometry().top() or \
        label.geometry().right() < stop.geometry().left()
    assert label.height() == label.heightForWidth(label.width()) or not label.wordWrap()
    overlays.show_recording(False)


# -- the slow-playback hint's advice ---------------------------------------------------------

class Playing:
    live, fps, dropped = False, 25.0, 0


def slow(how: PaintedHow, seconds: float = 4.0) -> list[str]:
    """The hints said over `seconds` of a playback skipping 20 of 25 frames a second."""
    src, hint = Playing(), SlowPlaybackHint()
    said = []
    for i in range(int(seconds / 0.5)):
        src.dropped += 10
        said.append(hint.check(src, True, i * 0.5, how.scale, how.adaptive, how))
    return [s for s in said if s]


def test_at_adaptive_qualitys_floor_the_hint_does_not_advise_a_lower_processing_scale() -> None:
    cpu_360p = PaintedHow(scale=1.0, adaptive=True, adapted=0.3, lowest=0.3, lines=108,
                          heavy=("Watercolor",), cpu=True)
    [text] = slow(cpu_360p)
    assert text.startswith("This machine paints about 5 of the video's 25 frames a second, "
                           "even at adaptive quality's lowest scale (0.30): a lower "
                           "Processing scale would not help. What helps: ")
    assert "lower Style \u203a Processing scale" not in text
    assert "Live \u203a Lowest scale (down to 20%)" in text  # the menu's lowest choice
    assert "a lighter style than Watercolor" in text and "a GPU" in text
    assert "Video painted at" not in text  # 108 lines: below the setting's least (120)
    assert text.endswith("Exports are not affected: they paint every frame.")
    # a 1080p video, a GPU, the lowest Lowest scale: fewer lines are what is left
    [text] = slow(PaintedHow(scale=1.0, adaptive=True, adapted=0.2, lowest=0.2, lines=216,
                             heavy=("Denoise", "Watercolor"), cpu=False))
    assert "fewer lines in Style \u203a Video painted at (below the 216 lines" in text
    assert "a lighter style than Denoise and Watercolor" in text
    assert "GPU" not in text and "Lowest scale" not in text
    # nothing left to lower: said so
    [text] = slow(PaintedHow(scale=1.0, adaptive=True, adapted=0.2, lowest=0.2, lines=72,
                             heavy=(), cpu=False))
    assert "cannot keep up at any setting" in text and "What helps" not in text


def test_the_hint_waits_while_adaptive_quality_still_lowers_the_scale() -> None:
    assert slow(PaintedHow(scale=1.0, adaptive=True, adapted=0.55, lowest=0.3)) == []


def test_a_processing_scale_below_the_lowest_scale_is_adaptive_qualitys_floor() -> None:
    [text] = slow(PaintedHow(scale=0.25, adaptive=True, adapted=0.25, lowest=0.3, lines=90))
    assert "even at Processing scale 0.25." in text
    assert "a lower Style \u203a Processing scale (down to 0.1)" in text
    assert "Lowest scale" not in text


def test_without_adaptive_quality_the_hint_names_it_and_the_processing_scale() -> None:
    [text] = slow(PaintedHow(scale=1.0, adaptive=False, lines=360, heavy=("Watercolor",)))
    assert ("lower Style \u203a Processing scale (0.5 paints about 2.5x faster) or turn on "
            "Live \u203a Adaptive quality (Ctrl+Shift+A)") in text


def test_played_slower_the_hint_counts_the_frames_that_come() -> None:
    # at half speed 12.5 frames a second come: skipping 10 of them is "about 2 of 12.5" (of
    # the file's 25 it was under half: no hint)
    class Slower(Playing):
        rate, delivered_fps = 0.5, 12.5

    hint, src = SlowPlaybackHint(), Slower()
    how = PaintedHow(scale=1.0, adaptive=False, lines=360)
    said = []
    for i in range(8):
        src.dropped += 5
        said.append(hint.check(src, True, i * 0.5, how.scale, how.adaptive, how))
    [text] = [s for s in said if s]
    assert text.startswith("This machine paints about 2 of the video's 12 frames a second at "
                           "0.5\u00d7 speed:")


def test_heavy_styles_are_named_by_their_labels() -> None:
    assert heavy_styles(load_chain("watercolor")) == ("Watercolor",)
    assert heavy_styles(load_chain("edges")) == ()
    assert heavy_styles(load_chain("adjust+denoise+watercolor")) == ("Denoise", "Watercolor")


def test_the_window_says_what_helps_at_the_floor_over_the_picture(
        qtbot: Any, window: MainWindow, media: dict[str, Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's own hint while a clip plays with adaptive quality at its floor (this
    machine's speed made slow: any skipped share counts, the scale pinned at the floor)."""
    monkeypatch.setattr(slow_hint, "SKIPPED_SHARE", -1.0)
    resized(qtbot, window, SIZES[1])
    open_and_render(qtbot, window, media["clip"])
    assert window.live.adaptive_on and window.state.scale == 1.0
    window.playback.set_playing(True)

    def hint_shown() -> bool:
        adaptive = window.viewport.adaptive
        if adaptive is not None:  # painting at the floor, as a slow machine does
            adaptive.enabled, adaptive.scale = False, adaptive.floor
        return window.overlays.hint.isVisible()

    qtbot.waitUntil(hint_shown, timeout=TIMEOUT)
    window.playback.set_playing(False)
    text = window.overlays.hint.text()
    assert "even at adaptive quality's lowest scale (0.30): a lower Processing scale would " \
           "not help" in text
    assert "lower Style \u203a Processing scale" not in text
    assert "Lowest scale (down to 20%)" in text and "lighter style than Watercolor" in text
    assert ("GPU" in text) == window.viewport.cpu_renderer
    assert "Video painted at" not in text  # a 160x90 clip: 27 lines painted
    assert_fits_its_text(window.overlays.hint, window.viewport.rect())


# -- a big still's message ---------------------------------------------------------------------

def test_a_still_just_over_the_limit_is_not_said_to_be_shrunk(qtbot: Any, window: MainWindow,
                                                              tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """As 4899x3266 is to 16 MP (134 px over): 1200x600 against a limit 50 px under it."""
    assert preview_size((4899, 3266)) is None  # (was "shown at 4899x3266")
    assert preview_size((9000, 6000)) == (4899, 3266)
    y, x = np.mgrid[0:600, 0:1200]
    photo = np.dstack([120 + 80 * np.sin(x / 90), 110 + 60 * np.cos(y / 70),
                       150 + 50 * np.sin((x + y) / 130)]).astype(np.uint8)
    src = tmp_path / "photo.png"
    cv2.imwrite(str(src), photo)
    monkeypatch.setattr(sources, "PREVIEW_PX", 1200 * 600 - 50)
    open_and_render(qtbot, window, src)
    message = window.statusBar().currentMessage()
    assert window.sources.source.size == (1200, 600)
    assert message.startswith("Opened photo.png") and "shown at" not in message, message
    monkeypatch.setattr(sources, "PREVIEW_PX", 1200 * 600 // 2)  # one really shrunk
    open_and_render(qtbot, window, src)
    w, h = window.sources.source.size
    assert (w, h) == (849, 424)
    assert f"which is 1200x600: shown at {w}x{h} " in window.statusBar().currentMessage()
    # its snapshot is the picture shown, and says so (trial W4: it said only "849x424")
    assert window.snapshots.save(tmp_path / "snap.png")
    assert cv2.imread(str(tmp_path / "snap.png")).shape[:2] == (h, w)
    assert f"({w}\u00d7{h}, as shown: the picture is 1200\u00d7600, Ctrl+E paints it at " \
           "its full size)" in window.statusBar().currentMessage()
