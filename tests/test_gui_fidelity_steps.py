"""Trial W2's findings: the window shows what an export makes after quick steps, an image
sequence reopened, a split compare of a stereo pair and integer zooms."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from test_gui import TIMEOUT, Dialogs, config, dialogs, grab  # noqa: F401
from test_gui_fidelity import (
    FPS,
    PH,
    PW,
    assert_same,
    cli_render,
    clip_frame,
    files,  # noqa: F401
    goto,
    open_paused,
    photo,
    portrait_clip,
    shown,
    window,
)

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


def test_an_image_sequence_comes_back_after_a_restart_and_from_open_recent(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """seq/f_%04d.png was taken for a file gone (its pattern is no file): Open recent greyed
    it "no longer there", a restart showed the demo instead, and open_recent took it off the
    list. It comes back and paints as the CLI paints it."""
    seq = tmp_path / "seq"
    seq.mkdir()
    for i in range(4):
        cv2.imwrite(str(seq / f"f_{i:04d}.png"), clip_frame(i)[:, :, ::-1])
    pattern = str(seq / "f_%04d.png")
    first = window(qtbot, config)
    open_paused(qtbot, first, Path(pattern))
    expected = cli_render(seq / "f_0000.png", tmp_path / "cli.png")
    menu = first.recent_menu
    menu.aboutToShow.emit()
    assert (menu.actions()[0].text(), menu.actions()[0].isEnabled()) == (pattern, True)
    first.close()
    win = window(qtbot, config)  # a restart: the last source comes back
    win.open_initial()
    assert win.source_spec is not None and win.source_spec.ref == pattern
    win.playback.toggle_play()
    goto(qtbot, win, 0)
    assert_same(shown(qtbot, win), expected)
    assert win.sources.open_recent(pattern)
    assert win.settings.recent_files()[0] == pattern
    win.playback.toggle_play()
    goto(qtbot, win, 0)
    assert_same(shown(qtbot, win), expected)
    assert not dialogs.calls
    for frame in seq.iterdir():  # its frames deleted: gone, as a file is
        frame.unlink()
    menu = win.recent_menu
    menu.aboutToShow.emit()
    assert (menu.actions()[0].text(), menu.actions()[0].isEnabled()) \
        == (f"{pattern} (no longer there)", False)


def stereo_in_split(qtbot: Any, config: Path, files: dict[str, Path],  # noqa: F811
                    output: str) -> Any:
    """A window showing the still as a stereo pair laid out as `output`, in split compare
    at 100%."""
    from aquarelle.ui.view_transform import CompareMode

    win = window(qtbot, config)
    vp = win.viewport
    assert win.open_file(files["still"])
    shown(qtbot, win)
    with qtbot.waitSignal(vp.rendered, timeout=TIMEOUT):
        win.set_style("stereo")
    with qtbot.waitSignal(vp.rendered, timeout=TIMEOUT):
        win.param_panel.set_value("output", output)
    win.set_compare(CompareMode.SPLIT)
    vp.actual_pixels()
    return win


@pytest.mark.parametrize("output", ["sbs", "tb"])
def test_split_compare_of_a_stereo_pair_shows_the_original_in_each_view(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path, output: str) -> None:
    """Split compare on a side-by-side or top-bottom pair showed the pair alone, no original
    and no divider, while the status bar said "Compare: split". Left of the divider each
    view is the original, right of it the pair the CLI writes."""
    win = stereo_in_split(qtbot, config, files, output)
    vp = win.viewport
    pair = cli_render(files["still"], tmp_path / "pair.png", "--style", "stereo",
                      "--set", f"output={output}")
    h, w = grab(win).shape[:2]
    rect = vp.transform.image_rect((w, h), (pair.shape[1], pair.shape[0]))
    x0, y0 = round(rect.x), round(rect.y)
    assert (round(rect.w), round(rect.h)) == (pair.shape[1], pair.shape[0])
    x = x0 + 3 * pair.shape[1] // 4  # in the right view of a side-by-side pair
    vp.set_split(x / w)
    pixels = grab(win)[y0:y0 + pair.shape[0], x0:x0 + pair.shape[1]]
    cut = x - x0
    original = photo()
    views = [(0, 0), (PW, 0)] if output == "sbs" else [(0, 0), (0, PH)]
    for vx, vy in views:  # the original left of the divider (2 px wide), in each view
        end = min(PW, cut - 2 - vx)
        assert_same(pixels[vy:vy + PH, vx:vx + end], original[:, :end])
    assert_same(pixels[:, cut + 2:], pair[:, cut + 2:])
    assert (pixels[:, cut - 1:cut + 1] == pixels[0, cut]).all()  # the divider
    assert vp.comparing  # the labels "Original" and "Painted" shown


def test_split_compare_of_a_squeezed_pair_shows_the_original_squeezed_in_each_view(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """A half-width side-by-side pair is the frame's size: left of the divider the original
    was drawn once across both views, unsqueezed (trial X, finding 6); it is in each view,
    squeezed as the views are."""
    import cv2

    win = stereo_in_split(qtbot, config, files, "sbs_half")
    vp = win.viewport
    h, w = grab(win).shape[:2]
    rect = vp.transform.image_rect((w, h), (PW, PH))
    x0, y0 = round(rect.x), round(rect.y)
    vp.set_split((x0 + PW - 4) / w)  # the original in nearly all of both views
    pixels = grab(win)[y0:y0 + PH, x0:x0 + PW].astype(int)
    squeezed = cv2.resize(photo(), (PW // 2, PH), interpolation=cv2.INTER_AREA).astype(int)
    half = PW // 2
    for view in (pixels[:, 4:half - 4], pixels[:, half + 4:PW - 8]):
        assert np.abs(view - squeezed[:, 4:view.shape[1] + 4]).mean() < 12
    unsqueezed = photo().astype(int)[:, half + 4:PW - 8]  # (what the right view showed)
    assert np.abs(pixels[:, half + 4:PW - 8] - unsqueezed).mean() > 20


def still_and_cli(qtbot: Any, config: Path, files: dict[str, Path], tmp_path: Path,  # noqa: F811
                  size: tuple[int, int] | None = None) -> tuple[Any, np.ndarray]:
    """A window (resized to `size`) showing the still, and the CLI's painting of it."""
    win = window(qtbot, config)
    if size is not None:
        win.resize(*size)
    assert win.open_file(files["still"])
    shown(qtbot, win)
    return win, cli_render(files["still"], tmp_path / "cli.png")


def test_200_percent_shows_the_pictures_pixels_as_201_does(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """200% was drawn smoothed and 201% and up as pixels: at 200% each pixel of the CLI's
    picture is a 2x2 block on screen."""
    win, expected = still_and_cli(qtbot, config, files, tmp_path)
    vp = win.viewport
    h, w = grab(win).shape[:2]
    vp.transform.actual_pixels(vp.pane_size(), (PW, PH), 2.0)
    vp.update()
    pixels = grab(win)
    rect = vp.transform.image_rect((w, h), (PW, PH))
    assert (rect.w, rect.h) == (2 * PW, 2 * PH)
    x, y = round(rect.x), round(rect.y)
    assert_same(pixels[y:y + 2 * PH, x:x + 2 * PW], expected.repeat(2, 0).repeat(2, 1))


@pytest.mark.parametrize(("k", "side_by_side"), [(1, False), (2, False), (3, False),
                                                 (4, False), (1, True), (2, True), (4, True)])
def test_integer_zooms_show_exact_pixels_where_the_picture_starts_on_a_half_pixel(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path, k: int, side_by_side: bool) -> None:
    """A picture placed on a half pixel (a pane of odd size, or a pan) was drawn nearest with
    its screen pixels' centres on texel edges: below the quad's diagonal every other row
    showed the neighbouring row (trial re2, 200% and 400%: 7% and 15% of pixels, max 224);
    at 100% it was sampled between pixels, a blend of two (trial W4: a drag by a logical
    pixel at 150% screen scaling). Drawn on whole pixels, each pixel of the CLI's picture is
    a k x k block (side by side: the original's on the left too)."""
    from aquarelle.ui.view_transform import CompareMode

    win, expected = still_and_cli(qtbot, config, files, tmp_path)
    vp = win.viewport
    h, w = grab(win).shape[:2]
    panes = [(0, expected)]
    if side_by_side:
        win.set_compare(CompareMode.SIDE_BY_SIDE)
        panes = [(0, photo()), (w - vp.pane_size()[0], expected)]
    pane = vp.pane_size()
    vp.transform.actual_pixels(pane, (PW, PH), float(k))
    vp.transform.pan(0.5, 0.5)
    rect = vp.transform.image_rect(pane, (PW, PH))
    assert (rect.x % 1, rect.y % 1) == pytest.approx((0.5, 0.5), abs=1e-9)
    vp.update()
    pixels = grab(win)
    pw, ph = pane
    x, y = math.floor(rect.x + 0.5), math.floor(rect.y + 0.5)  # the nearer whole pixel, up
    x0, y0 = max(0, x), max(0, y)  # the part on screen (at 400% it is cut)
    x1, y1 = min(pw, x + k * PW), min(ph, y + k * PH)
    assert x1 - x0 >= min(pw, k * PW) - 1 and y1 - y0 >= min(ph, k * PH) - 1
    for offset, picture in panes:
        big = picture.repeat(k, 0).repeat(k, 1)
        assert_same(pixels[y0:y1, offset + x0:offset + x1], big[y0 - y:y1 - y, x0 - x:x1 - x])


def test_a_wheel_zoomed_in_and_back_out_to_100_percent_is_the_pictures_pixels(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """Two wheel steps in at one point and two out at another said 100% with the picture at
    x=161.111 (trial W4: max 87 off the CLI's picture); drawn 1:1, it starts on a whole
    pixel."""
    win, expected = still_and_cli(qtbot, config, files, tmp_path)
    vp = win.viewport
    vp.actual_pixels()
    pane = vp.pane_size()
    for point, factor in (((100, 130), 1.2), ((100, 130), 1.2), ((300, 210), 1 / 1.2),
                          ((300, 210), 1 / 1.2)):
        vp.transform.zoom_at(pane, point, factor)
    rect = vp.transform.image_rect(pane, (PW, PH))
    assert round(rect.w / PW, 6) == 1.0 and rect.x % 1 > 0.01  # 100%, off the pixel grid
    vp.update()
    pixels = grab(win)
    x, y = math.floor(rect.x + 0.5), math.floor(rect.y + 0.5)
    assert_same(pixels[y:y + PH, x:x + PW], expected)


def test_the_views_device_size_is_its_framebuffers() -> None:
    """Qt makes a widget's framebuffer size * ratio with halves rounded up: 441 x 559 at 150%
    is 662 x 839 (Python's round made 838, and 100% was drawn half a line off)."""
    from aquarelle.ui.view_transform import device_size

    assert device_size(441, 559, 1.5) == (662, 839)
    assert device_size(901, 600, 1.25) == (1126, 750)
    assert device_size(900, 600, 2.0) == (1800, 1200)
    assert device_size(0, 1, 1.0) == (1, 1)


def runs_collapsed(a: np.ndarray) -> np.ndarray:
    """`a` with each run of equal rows, then of equal columns, kept once."""
    a = a[np.r_[True, (a[1:] != a[:-1]).any(axis=(1, 2))]]
    return a[:, np.r_[True, (a[:, 1:] != a[:, :-1]).any(axis=(0, 2))]]


@pytest.mark.parametrize("k", [2.25, 2.5])
def test_zooms_between_show_whole_rows_and_columns_of_pixels(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path, k: float) -> None:
    """Where screen pixels' centres fall on texel edges (225%, 250%), the texel was looked up
    from the quad's interpolated coordinates, which round one way in one triangle and the
    other way in the other: rows and columns mixing two rows of the picture along the
    diagonal. Each screen row now shows one row of the picture, each column one column:
    with runs of equal rows and columns kept once, the screen is the CLI's picture."""
    win, expected = still_and_cli(qtbot, config, files, tmp_path, (1300, 800))
    vp = win.viewport  # (the whole picture in view)
    vp.actual_pixels()
    vp.zoom_by(k)
    grab(win)
    pane = vp.pane_size()
    rect = vp.transform.image_rect(pane, (PW, PH))
    vp.transform.pan(math.floor(rect.x) + 0.5 - rect.x, math.floor(rect.y) + 0.5 - rect.y)
    rect = vp.transform.image_rect(pane, (PW, PH))
    x, y = math.floor(rect.x + 0.5), math.floor(rect.y + 0.5)
    assert x > 0 and y > 0 and x + rect.w < pane[0] - 1 and y + rect.h < pane[1] - 1
    vp.update()
    pixels = grab(win)[y:y + math.ceil(rect.h), x:x + math.ceil(rect.w)]
    seen = runs_collapsed(pixels)
    assert seen.shape == expected.shape
    assert_same(seen, expected)


def test_a_tiny_picture_is_shown_1_to_1() -> None:
    """1 on a 1x1 PNG showed 2205%: 1:1 was under the lowest zoom, 1/20 of the fit (trial
    W4); zooming out by hand from there keeps it, resizing the view keeps its size."""
    from aquarelle.ui.view_transform import ViewTransform

    t = ViewTransform()
    t.actual_pixels((900, 600), (1, 1))
    assert t.image_rect((900, 600), (1, 1)).w == pytest.approx(1.0)
    t.zoom_at((900, 600), (450, 300), 1 / 1.2)
    assert t.image_rect((900, 600), (1, 1)).w == pytest.approx(1.0)
    t.hold_scale((900, 600), (1, 1))
    t.hold_scale((1200, 800), (1, 1))
    assert t.image_rect((1200, 800), (1, 1)).w == pytest.approx(1.0)
    t.zoom_at((1200, 800), (600, 400), 2.0)
    assert t.image_rect((1200, 800), (1, 1)).w == pytest.approx(2.0)
