"""The window keeps up while values come fast: a slider dragged (or stepped in a burst) paints
a still or a paused frame as a draft at a scale that keeps up, the latest value winning, and
the whole picture once it is let go, which is what `aquarelle render` makes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtWidgets import QAbstractSlider, QSlider
from test_gui import TIMEOUT, Dialogs, config, dialogs, grab  # noqa: F401
from test_gui_fidelity import (  # noqa: F401
    assert_same,
    cli_render,
    files,
    goto,
    open_paused,
    shown,
    window,
)

from aquarelle.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def a_slider(win: MainWindow) -> tuple[str, QSlider]:
    """A number parameter's slider with room to move."""
    for name, row in win.param_panel.rows.items():
        if row.slider is not None and row.spec.type == "float" and row.slider.maximum() >= 50:
            return name, row.slider
    raise AssertionError("no slider")


def drafted(win: MainWindow) -> bool:
    """The picture on screen is a draft, below the whole picture's scale."""
    scale = win.viewport.draft_scale
    return scale is not None and scale < 1.0


def slow_machine(win: MainWindow) -> None:
    """Paints measured as costing a second a pixel: any whole paint is too slow to follow a
    drag (the draft's scale follows what paints cost, not a clock read in the test)."""
    win.viewport.cost.per_px = 1.0


def drag_to(qtbot: Any, win: MainWindow, slider: QSlider, positions: list[int]) -> None:
    """Values set while the slider is held, with no paint between them."""
    slider.setSliderDown(True)
    for pos in positions:
        slider.setValue(pos)


def test_a_dragged_slider_paints_drafts_then_the_cli_render_once_let_go(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    win = window(qtbot, config)
    assert win.open_file(files["still"])
    shown(qtbot, win)
    vp = win.viewport
    assert vp.draft_scale is None and vp.painted_scale() == 1.0
    slow_machine(win)
    name, slider = a_slider(win)
    renders = vp.stats.renders
    grab(win)
    assert vp.stats.renders == renders  # held, no new value: the whole picture stays
    top = slider.maximum()
    drag_to(qtbot, win, slider, [top // 5, top // 4, top // 3])
    grab(win)
    # three values, one paint, of the latest, as a draft
    assert vp.stats.renders == renders + 1
    assert drafted(win)
    value = win.state.params[name]
    slider.setValue(top // 2)
    grab(win)
    assert vp.stats.renders == renders + 2 and drafted(win)
    assert win.state.params[name] != value
    value = win.state.params[name]
    slider.setSliderDown(False)  # let go: the whole picture, once
    painted = shown(qtbot, win)
    assert vp.draft_scale is None and vp.painted_scale() == 1.0
    # (the CLI before a snapshot: its context made after one, Qt's is lost; see
    # test_gui_fidelity)
    expected = cli_render(files["still"], tmp_path / "cli.png", "--set", f"{name}={value!r}")
    assert_same(painted, expected)
    assert_same(vp.snapshot(), expected)
    assert not dialogs.calls


def test_a_paused_frame_dragged_ends_on_the_cli_render_of_that_frame(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """A paused video gets drafts too (it had neither adaptive quality nor a draft: 370-870
    ms a value at 1080p here), and ends on the frame painted as a seek to it paints it."""
    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    goto(qtbot, win, 3)
    vp = win.viewport
    slow_machine(win)
    name, slider = a_slider(win)
    drag_to(qtbot, win, slider, [slider.maximum() // 3])
    grab(win)
    assert drafted(win) and vp.shown_index == 3
    value = win.state.params[name]
    slider.setSliderDown(False)
    painted = shown(qtbot, win)
    assert vp.draft_scale is None and vp.painted_scale() == 1.0 and vp.shown_index == 3
    assert_same(painted, cli_render(files["frame3"], tmp_path / "cli.png",
                                    "--set", f"{name}={value!r}"))


def test_slider_steps_in_a_burst_paint_drafts_until_it_ends(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """Arrow keys held on a slider: the first step is painted whole, the ones after it
    within the burst as drafts, and the whole picture once the burst is over."""
    win = window(qtbot, config)
    assert win.open_file(files["still"])
    shown(qtbot, win)
    vp, panel = win.viewport, win.param_panel
    slow_machine(win)
    name, slider = a_slider(win)
    slider.triggerAction(QAbstractSlider.SliderAction.SliderPageStepAdd)
    grab(win)
    assert vp.draft_scale is None
    slider.triggerAction(QAbstractSlider.SliderAction.SliderPageStepAdd)  # (auto-repeat)
    grab(win)
    assert drafted(win)
    value = win.state.params[name]
    panel.end_burst()  # (what its timer does BURST_MS after the last step)
    painted = shown(qtbot, win)
    assert vp.draft_scale is None
    assert_same(painted, cli_render(files["still"], tmp_path / "cli.png",
                                    "--set", f"{name}={value!r}"))


# -- a file played: started at the scale the machine affords --------------------------------

def played_on_a_slow_machine(qtbot: Any, settings: Path, clip: Path
                             ) -> tuple[MainWindow, Any, float | None]:
    """A window (on the `settings` file) on a slow machine playing `clip`: the window, its
    adaptive quality and the scale its first picture was painted at."""
    win = window(qtbot, settings)
    vp = win.viewport
    slow_machine(win)
    assert win.open_file(clip)
    adaptive = vp.adaptive
    assert win.live.playing and adaptive is not None
    scales: list[float | None] = []
    vp.rendered.connect(lambda: scales.append(vp.painted_scale()))
    qtbot.waitUntil(lambda: len(scales) > 0, timeout=TIMEOUT)
    return win, adaptive, scales[0]


def test_a_file_played_on_a_slow_machine_starts_at_the_scale_it_affords(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path]) -> None:  # noqa: F811
    """Paints measured slow: a file opened playing adapts from the lowest scale at once
    (a 1080p video on llvmpipe painted its first frames whole for 3 s, 1.2-2 s each);
    measured fast, from the full scale."""
    win, adaptive, first = played_on_a_slow_machine(qtbot, config, files["clip"])
    vp = win.viewport
    assert adaptive.scale == adaptive.floor < 1.0
    assert first == adaptive.floor  # its first picture too
    win.playback.set_playing(False)
    vp.cost.per_px = 1e-15  # a fast machine
    win.playback.set_playing(True)
    adaptive = vp.adaptive
    assert adaptive is not None and adaptive.scale == 1.0


def test_a_small_clip_is_never_painted_below_its_lines_floor(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Adaptive quality paints at least MIN_LINES lines: a 320x240 clip on a slow machine
    was painted at the 0.3 floor, 72 lines, a mush on screen (trial W5); this 136-line clip
    is painted whole, playing slower instead."""
    from conftest import MIN_LINES

    from aquarelle.media import adaptive
    from aquarelle.media.adaptive import floor_for

    monkeypatch.setattr(adaptive, "MIN_LINES", MIN_LINES)  # (the product's, not the tests')
    assert floor_for(0.3, 136) == 1.0 and floor_for(0.3, 240) == pytest.approx(0.75)
    assert floor_for(0.3, 1080) == 0.3 and floor_for(0.5, 480) == 0.5
    assert MIN_LINES > 136
    _, adaptive, first = played_on_a_slow_machine(qtbot, config, files["clip"])
    assert adaptive.floor == adaptive.scale == 1.0
    assert first == 1.0


def test_a_first_whole_paint_far_over_the_budget_lowers_the_scale_at_once(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing measured before: the first frame painted whole takes seconds, and the next is
    painted at the scale that cost affords, not after four such frames."""
    import time
    from types import SimpleNamespace

    from test_gui_fidelity import played_at

    from aquarelle.media.adaptive import AdaptiveScale
    from aquarelle.ui import frame_painter, viewport

    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    vp = win.viewport
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    vp.cost.per_px = None
    adaptive = AdaptiveScale(8, 0.3, 1.0)
    vp.adaptive = adaptive
    clock = iter(range(10**6))  # every reading a second after the one before
    for module in (viewport, frame_painter):  # (the paint's time; the pipeline's render's)
        monkeypatch.setattr(module, "time", SimpleNamespace(
            monotonic=time.monotonic, perf_counter=lambda: float(next(clock))))
    played_at(win, 1)
    assert vp.painted_scale() == 1.0
    assert adaptive.scale == 0.3
    played_at(win, 2)
    assert vp.painted_scale() == 0.3


# -- a big picture: decoded off the GUI thread ----------------------------------------------

@pytest.fixture
def big_picture(tmp_path: Path) -> Path:
    """A picture over DECODE_APART_PX (1200x1000), something to paint."""
    import cv2
    import numpy as np

    y, x = np.mgrid[0:1000, 0:1200]
    img = np.stack([x * 255 // 1200, y * 255 // 1000, (x + y) % 256], axis=2).astype(np.uint8)
    path = tmp_path / "big.png"
    cv2.imwrite(str(path), img)
    return path


class HeldDecode:
    """open_source as the window calls it, recording the thread it ran on; on another thread
    than the GUI's it waits for `release` (the test lets it go), on the GUI's it runs on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import threading

        from aquarelle.ui import source_controller

        self.real = source_controller.open_source
        self.release = threading.Event()
        self.threads: list[bool] = []  # whether each call ran on the GUI thread
        monkeypatch.setattr(source_controller, "open_source", self)

    def __call__(self, spec: Any, **kw: Any) -> Any:
        import threading

        gui = threading.current_thread() is threading.main_thread()
        self.threads.append(gui)
        if not gui and spec.kind == "file" and spec.ref.endswith("big.png"):
            assert self.release.wait(TIMEOUT / 1000)  # (a bound: never a hang)
        return self.real(spec, **kw)


def test_a_big_picture_is_decoded_off_the_gui_thread(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        big_picture: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While it decodes the window runs and shows the picture before it; then the new one."""
    win = window(qtbot, config)
    assert win.open_file(files["still"])
    shown(qtbot, win)
    held = HeldDecode(monkeypatch)
    assert win.open_file(big_picture)  # returns while its decode is held
    assert held.threads == [False]
    assert win.source_spec is not None and win.source_spec.ref == str(files["still"])
    renders = win.viewport.stats.renders
    win.viewport.rerender()
    grab(win)  # the window paints meanwhile: the picture before it
    assert win.viewport.stats.renders > renders
    assert win.viewport.frame_size == (200, 136)
    held.release.set()
    qtbot.waitUntil(lambda: win.viewport.frame_size == (1200, 1000), timeout=TIMEOUT)
    assert win.source_spec is not None and win.source_spec.ref == str(big_picture)
    assert not dialogs.calls


def test_an_open_while_a_big_picture_decodes_wins(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        big_picture: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    win = window(qtbot, config)
    held = HeldDecode(monkeypatch)
    assert win.open_file(big_picture)
    assert win.open_file(files["frame2"])  # (small: opened at once)
    assert held.threads == [False, True]
    with qtbot.waitSignal(win.sources.decoded, timeout=TIMEOUT):  # the big one came
        held.release.set()
    assert win.source_spec is not None and win.source_spec.ref == str(files["frame2"])
    qtbot.waitUntil(lambda: win.viewport.frame_size == (200, 136), timeout=TIMEOUT)
    assert not dialogs.calls


def test_a_big_picture_that_does_not_decode_is_said_and_the_one_before_stays(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        big_picture: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    win = window(qtbot, config)
    assert win.open_file(files["still"])
    shown(qtbot, win)
    data = big_picture.read_bytes()
    big_picture.write_bytes(data[:len(data) // 3])  # its header reads, its pixels do not
    held = HeldDecode(monkeypatch)
    held.release.set()
    win.open_file(big_picture)
    qtbot.waitUntil(lambda: bool(dialogs.calls), timeout=TIMEOUT)
    assert held.threads == [False]
    assert dialogs.calls[0][1] == "Cannot open source" and "big.png" in dialogs.calls[0][2]
    assert win.source_spec is not None and win.source_spec.ref == str(files["still"])
    assert win.viewport.frame_size == (200, 136)


def test_a_big_picture_named_at_start_that_does_not_decode_falls_back(
        qtbot: Any, config: Path, dialogs: Dialogs, big_picture: Path) -> None:  # noqa: F811
    """Decoded apart, its failure came after open_initial had taken the open as done: the
    window stayed empty, where a file that cannot open falls back to what would have been
    shown (here the demo)."""
    from aquarelle.ui.sources import SourceSpec

    data = big_picture.read_bytes()
    big_picture.write_bytes(data[:len(data) // 3])  # its header reads, its pixels do not
    win = window(qtbot, config)
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        win.open_initial(str(big_picture))
    assert dialogs.calls[0][1] == "Cannot open source" and "big.png" in dialogs.calls[0][2]
    assert win.source_spec == SourceSpec("demo")


def test_a_dropped_big_picture_that_does_not_decode_gives_way_to_the_next(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        big_picture: Path) -> None:
    from test_gui_keys import drop

    data = big_picture.read_bytes()
    big_picture.write_bytes(data[:len(data) // 3])
    win = window(qtbot, config)
    drop(qtbot, win, big_picture, files["still"])  # (waits for the next file's picture)
    assert dialogs.calls[0][1] == "Cannot open source" and "big.png" in dialogs.calls[0][2]
    assert win.source_spec is not None and win.source_spec.ref == str(files["still"])
