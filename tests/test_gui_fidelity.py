"""The window shows what you get: the viewport's picture, read back from its framebuffer at
one image pixel per screen pixel, against `aquarelle render` of the same input and values.

Each case is one a user meets: a still on a fresh start, a restart with a saved look, a
paused video after a seek, a step back and the loop point, a chain edit and a processing
scale change while paused. A picture that is still settling (history blended across a jump,
a pass blending into what its target held) differs from the CLI's by far more than a level.
"""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import cv2
import numpy as np
import pytest
from modal import answer_modal
from PyQt6.QtGui import QImage, QPixmap
from PyQt6.QtWidgets import QApplication
from skimage import data
from test_gui import TIMEOUT, Dialogs, config, dialogs, grab, make_window  # noqa: F401
from videoclips import late_clip, mux_frames, pattern

from aquarelle.cli.main import main as cli_main
from aquarelle.engine.thumbnails import thumb_size
from aquarelle.ui.main_window import MainWindow
from aquarelle.ui.settings import Settings

pytestmark = pytest.mark.gui
PW, PH = 200, 136  # small: llvmpipe on two busy cores
CLIP_FRAMES = 8
FPS = 8


def photo() -> np.ndarray:
    """A real photograph (skimage's chelsea), small, RGB uint8."""
    return cv2.resize(data.chelsea(), (PW, PH), interpolation=cv2.INTER_AREA)


def clip_frame(i: int) -> np.ndarray:
    """Frame i of the test clip: the photo panning right by 3 px a frame (motion to follow)."""
    big = cv2.resize(data.chelsea(), (PW + 3 * CLIP_FRAMES, PH), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(big[:, 3 * i:3 * i + PW])


def lossless_clip(path: Path, frames: list[np.ndarray]) -> Path:
    """A clip of RGB `frames` at FPS, lossless (FFV1): a decoded frame is the frame."""
    h, w = frames[0].shape[:2]
    with av.open(str(path), "w") as out:
        stream = out.add_stream("ffv1", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = w, h, "bgr0"
        stream.time_base = Fraction(1, FPS)
        mux_frames(out, stream, frames)
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fidelity")
    still = root / "photo.png"
    cv2.imwrite(str(still), photo()[:, :, ::-1])
    clip = lossless_clip(root / "pan.mkv", [clip_frame(i) for i in range(CLIP_FRAMES)])
    frames = []
    for i in range(CLIP_FRAMES):
        p = root / f"frame{i}.png"
        cv2.imwrite(str(p), clip_frame(i)[:, :, ::-1])
        frames.append(p)
    portrait = root / "portrait.png"  # the astronaut (public domain): a face to find
    cv2.imwrite(str(portrait), cv2.resize(data.astronaut(), (256, 256),
                                          interpolation=cv2.INTER_AREA)[:, :, ::-1])
    return {"still": still, "clip": clip, "portrait": portrait,
            **{f"frame{i}": p for i, p in enumerate(frames)}}


def cli_render(src: Path, out: Path, *args: str) -> np.ndarray:
    """What `aquarelle render SRC -o OUT ARGS` writes, as RGB."""
    assert cli_main(["render", str(src), "-o", str(out), "-y", *args]) == 0
    img = cv2.imread(str(out))
    assert img is not None
    return img[:, :, ::-1].copy()


def shown(qtbot: Any, win: MainWindow) -> np.ndarray:
    """The picture the viewport draws, read back from its framebuffer at 100% (RGB)."""
    vp = win.viewport
    qtbot.waitUntil(lambda: vp.has_frame, timeout=TIMEOUT)
    grab(win)  # takes what is pending: a new frame then waits for its subject
    # a new or sought frame is painted once its subject is found (the picture before it,
    # or nothing, held meanwhile)
    qtbot.waitUntil(lambda: not vp.subjects.waiting_fresh, timeout=TIMEOUT)
    grab(win)  # renders it
    vp.actual_pixels()
    pixels = grab(win)
    h, w = pixels.shape[:2]
    frame = vp.frame_size
    assert frame is not None
    rect = vp.transform.image_rect((w, h), frame)
    size = (round(rect.w), round(rect.h))
    x, y = round(rect.x), round(rect.y)
    assert max(abs(rect.x - x), abs(rect.y - y)) < 1e-6, "100% is not pixel-aligned"
    assert x >= 0 and y >= 0 and x + size[0] <= w and y + size[1] <= h, "window too small"
    return pixels[y:y + size[1], x:x + size[0]]


def assert_same(a: np.ndarray, b: np.ndarray) -> None:
    assert a.shape == b.shape
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16))
    assert diff.max() <= 1, (f"window differs from the CLI: max {diff.max()}, mean "
                             f"{diff.mean():.2f}; means {a.mean():.1f} vs {b.mean():.1f}")


def window(qtbot: Any, config: Path) -> MainWindow:  # noqa: F811
    win = make_window(qtbot, config, resize=False)
    win.resize(900, 640)
    return win


def open_paused(qtbot: Any, win: MainWindow, path: Path) -> None:
    """Open a clip, pause at once, and show its first frame."""
    assert win.open_file(path)
    win.playback.toggle_play()
    goto(qtbot, win, 0)


def goto(qtbot: Any, win: MainWindow, index: int) -> None:
    """Seek to frame `index` (paused) and wait until the window shows it."""
    win.playback.seek(index / FPS)
    qtbot.waitUntil(lambda: win.viewport.shown_index == index, timeout=TIMEOUT)
    # ... and painted: a seek's frame waits for its subject, the picture before it held
    qtbot.waitUntil(lambda: not win.viewport.subjects.waiting_fresh, timeout=TIMEOUT)
    grab(win)


# -- stills ---------------------------------------------------------------------------------
def test_still_on_a_fresh_start_is_the_cli_render(qtbot: Any, config: Path,  # noqa: F811
                                                  dialogs: Dialogs,  # noqa: F811
                                                  files: dict[str, Path],
                                                  tmp_path: Path) -> None:
    win = window(qtbot, config)
    assert win.open_file(files["still"])
    expected = cli_render(files["still"], tmp_path / "cli.png")
    assert_same(shown(qtbot, win), expected)
    assert_same(win.viewport.snapshot(), expected)  # what Ctrl+Shift+S saves
    win.editor.apply_preset(win.presets.select("ink_and_wash"))  # another look: still exact
    assert_same(shown(qtbot, win), cli_render(files["still"], tmp_path / "ink.png",
                                              "--preset", "ink_and_wash"))


def test_a_painting_whose_texture_went_is_painted_again_not_drawn_released(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """A repaint drew the painting's texture after the pipeline had made its targets anew
    (the suite, once: an AttributeError in paintGL, the picture not drawn); it is painted
    again, and is the CLI's."""
    win = window(qtbot, config)
    assert win.open_file(files["still"])
    expected = cli_render(files["still"], tmp_path / "cli.png")
    assert_same(shown(qtbot, win), expected)
    paint = win.viewport.paint
    assert paint.ctx is not None and paint.result is not None
    win.viewport.makeCurrent()
    stale = paint.ctx.texture(paint.result.size, 4)  # the texture painted before, since
    stale.release()  # released by the pipeline making its targets anew
    paint.result = stale
    win.viewport.doneCurrent()
    win.viewport.update()
    qtbot.waitUntil(lambda: win.viewport.paint.result is not stale, timeout=TIMEOUT)
    assert_same(shown(qtbot, win), expected)


def test_a_16_bit_still_is_painted_at_16_bits_as_the_cli_paints_it(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """A 16-bit PNG is painted by a deep pipeline, as `aquarelle render` paints it (the
    window painted its 8-bit copy: 0.6 levels off on average, up to 54 at tone borders),
    and an 8-bit picture opened next goes back to 8 bits."""
    deep = tmp_path / "deep.png"
    cv2.imwrite(str(deep), (photo().astype(np.uint16) * 257 + 100)[:, :, ::-1])
    win = window(qtbot, config)
    assert win.open_file(deep)
    cli_render(deep, tmp_path / "cli16.png")
    cli16 = cv2.imread(str(tmp_path / "cli16.png"), cv2.IMREAD_UNCHANGED)[:, :, ::-1]
    assert cli16.dtype == np.uint16
    on_screen = shown(qtbot, win)
    # the painting itself, to the last bit
    np.testing.assert_array_equal(win.viewport.snapshot(full_depth=True), cli16)
    # drawn into the 8-bit framebuffer: rounded, and a 16-bit texture's filtering moves
    # a few edge pixels by a level or few
    d = np.abs(on_screen.astype(int) - np.round(cli16 / 257.0))
    assert d.max() <= 4 and d.mean() < 0.5, (d.max(), d.mean())
    assert win.viewport.pipeline is not None and win.viewport.pipeline.deep
    assert win.viewport.snapshot().dtype == np.uint8  # what Ctrl+Shift+S saves
    assert win.open_file(files["still"])
    qtbot.waitUntil(lambda: win.viewport.current_image.dtype == np.uint8, timeout=TIMEOUT)
    assert_same(shown(qtbot, win), cli_render(files["still"], tmp_path / "cli8.png"))
    assert not win.viewport.pipeline.deep


def test_a_16_bit_still_is_saved_and_recorded_as_the_cli_writes_it(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """A snapshot of a 16-bit still (Ctrl+Shift+S) is pixel for pixel the file `aquarelle
    render` writes for it: 16 bits in a PNG (it was 8), 8 in a BMP (the window kept the high
    byte where the CLI rounds: a level off on about a sixth of the pixels); the frame a
    recording is given is the 8-bit one."""
    deep = tmp_path / "deep.png"
    cv2.imwrite(str(deep), (photo().astype(np.uint16) * 257 + 100)[:, :, ::-1])
    win = window(qtbot, config)
    assert win.open_file(deep)
    qtbot.waitUntil(lambda: win.viewport.has_frame, timeout=TIMEOUT)
    cli8 = cli_render(deep, tmp_path / "cli.bmp")  # BMP holds 8 bits: the CLI's own 16 -> 8
    cli_render(deep, tmp_path / "cli.png")
    cli16 = cv2.imread(str(tmp_path / "cli.png"), cv2.IMREAD_UNCHANGED)
    assert cli16.dtype == np.uint16
    for name, want in (("snapshot.png", cli16[:, :, ::-1]), ("snapshot.bmp", cli8)):
        assert win.snapshots.save(tmp_path / name)
        snapshot = cv2.imread(str(tmp_path / name), cv2.IMREAD_UNCHANGED)
        assert snapshot is not None and snapshot.dtype == want.dtype, name
        np.testing.assert_array_equal(snapshot[:, :, ::-1], want)
    assert win.viewport.pipeline is not None and win.viewport.pipeline.deep
    recorded: list[np.ndarray] = []
    win.viewport.frame_sink = lambda rgb, pts: recorded.append(rgb)
    win.viewport.rerender()
    qtbot.waitUntil(lambda: bool(recorded), timeout=TIMEOUT)
    win.viewport.frame_sink = None
    np.testing.assert_array_equal(recorded[0], cli8)
    assert not dialogs.calls


def test_a_portrait_is_painted_again_with_its_subject_as_the_cli_paints_it(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """The faces are found off the GUI thread; once they are, the still is painted again
    with them (its vignette, its focus): then the window is the CLI's picture."""
    win = window(qtbot, config)
    assert win.open_file(files["portrait"])
    vp = win.viewport
    qtbot.waitUntil(lambda: vp.has_frame, timeout=TIMEOUT)
    grab(win)
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    pipeline = vp.pipeline
    assert pipeline is not None
    qtbot.waitUntil(lambda: pipeline.last_subject is not None, timeout=TIMEOUT)
    assert_same(shown(qtbot, win), cli_render(files["portrait"], tmp_path / "cli.png"))
    assert not dialogs.calls


def test_a_big_still_shown_smaller_is_the_cli_render_at_that_size(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A still over the app's preview size is shown smaller: the window's picture is what
    `aquarelle render --size` makes at that size (the full size is Ctrl+E's)."""
    from aquarelle.media import sources

    monkeypatch.setattr(sources, "PREVIEW_SIDE", PW)  # as 8192 px is to a 30000 px panorama
    big = tmp_path / "big.png"
    cv2.imwrite(str(big), cv2.resize(data.chelsea(), (2 * PW, 2 * PH),
                                     interpolation=cv2.INTER_AREA)[:, :, ::-1])
    win = window(qtbot, config)
    assert win.open_file(big)
    assert win.sources.source.size == (PW, PH)
    assert_same(shown(qtbot, win), cli_render(big, tmp_path / "cli.png", "--size",
                                              f"{PW}x{PH}"))


@pytest.mark.parametrize("preset", ["dry_brush"])
def test_restart_with_a_saved_look_is_the_cli_render(qtbot: Any, config: Path,  # noqa: F811
                                                     dialogs: Dialogs,  # noqa: F811
                                                     files: dict[str, Path], tmp_path: Path,
                                                     preset: str) -> None:
    first = window(qtbot, config)
    first.editor.apply_preset(first.presets.select(preset))
    first.close()
    win = window(qtbot, config)  # a restart: the look comes from the settings
    assert (win.editor.preset, win.editor.modified) == (preset, False)
    assert win.open_file(files["still"])
    assert_same(shown(qtbot, win), cli_render(files["still"], tmp_path / "cli.png",
                                              "--preset", preset))


# -- video ----------------------------------------------------------------------------------
def test_paused_video_after_seek_step_and_loop(qtbot: Any, config: Path,  # noqa: F811
                                               dialogs: Dialogs,  # noqa: F811
                                               files: dict[str, Path],
                                               tmp_path: Path) -> None:
    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    for i in (1, 2, 3):  # frames in a row: history carried, as an export does
        win.playback.step(1)
        qtbot.waitUntil(lambda i=i: win.viewport.shown_index == i, timeout=TIMEOUT)
    win.playback.step(-1)  # back: a jump no history may cross
    qtbot.waitUntil(lambda: win.viewport.shown_index == 2, timeout=TIMEOUT)
    assert_same(shown(qtbot, win), cli_render(files["frame2"], tmp_path / "f2.png"))
    goto(qtbot, win, 6)  # a seek forward
    assert_same(shown(qtbot, win), cli_render(files["frame6"], tmp_path / "f6.png"))
    win.playback.step(1)
    qtbot.waitUntil(lambda: win.viewport.shown_index == 7, timeout=TIMEOUT)
    win.playback.step(1)  # past the end, with loop on: frame 0, painted afresh
    qtbot.waitUntil(lambda: win.viewport.shown_index == 0, timeout=TIMEOUT)
    assert_same(shown(qtbot, win), cli_render(files["frame0"], tmp_path / "f0.png"))


def test_a_paused_portrait_video_after_a_seek_is_painted_with_its_subject(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """A seek leaves nothing found for the frame it lands on: like a still, it is painted
    again once its own faces are found (it stayed without them while paused: no vignette,
    unlike the export)."""
    face = cv2.resize(data.astronaut(), (192, 192), interpolation=cv2.INTER_AREA)
    clip = lossless_clip(tmp_path / "portrait.mkv",
                         [np.ascontiguousarray(np.roll(face, 2 * i, 1)) for i in range(4)])
    still = tmp_path / "frame2.png"
    cv2.imwrite(str(still), np.roll(face, 4, 1)[:, :, ::-1])
    win = window(qtbot, config)
    open_paused(qtbot, win, clip)
    goto(qtbot, win, 2)
    vp = win.viewport
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    pipeline = vp.pipeline
    assert pipeline is not None
    qtbot.waitUntil(lambda: pipeline.last_subject is not None, timeout=TIMEOUT)
    assert_same(shown(qtbot, win), cli_render(still, tmp_path / "cli.png"))
    assert not dialogs.calls


def test_paused_video_chain_and_scale_changes(qtbot: Any, config: Path,  # noqa: F811
                                              dialogs: Dialogs,  # noqa: F811
                                              files: dict[str, Path], tmp_path: Path) -> None:
    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    goto(qtbot, win, 4)
    frame = files["frame4"]
    win.chain_panel.add_style("denoise")
    assert win.state.style.name == "denoise+watercolor"
    assert_same(shown(qtbot, win), cli_render(frame, tmp_path / "dn.png",
                                              "--style", "denoise+watercolor"))
    win.chain_panel.list.setCurrentRow(0)
    win.chain_panel.remove_selected()
    win.scale_spin.setValue(0.5)
    assert_same(shown(qtbot, win), cli_render(frame, tmp_path / "half.png", "--scale", "0.5"))


def test_a_video_painted_at_fewer_lines_is_the_cli_render_at_that_scale(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """A video's frames are painted at most `video_lines` lines, as exported (the limit's
    scale: 120 of the clip's 136 lines); a still keeps every line."""
    win = window(qtbot, config)
    win.side_scroll.video_lines_spin.setValue(120)
    assert win.state.video_lines == 120
    assert win.open_file(files["still"])
    assert_same(shown(qtbot, win), cli_render(files["still"], tmp_path / "still.png"))
    open_paused(qtbot, win, files["clip"])
    goto(qtbot, win, 4)
    assert_same(shown(qtbot, win), cli_render(files["frame4"], tmp_path / "lines.png",
                                              "--scale", repr(120 / PH)))
    win.update_stats()
    assert "painted at 120 lines" in win.labels.live.text()  # the status bar says so


def test_first_frame_after_open_is_the_cli_render(qtbot: Any, config: Path,  # noqa: F811
                                                  dialogs: Dialogs,  # noqa: F811
                                                  files: dict[str, Path],
                                                  tmp_path: Path) -> None:
    settings = Settings(config)
    settings.set_style("watercolor+upscale")
    settings.sync()
    win = window(qtbot, config)
    assert win.state.style.name == "watercolor+upscale"
    assert win.open_file(files["still"])
    assert_same(shown(qtbot, win), cli_render(files["still"], tmp_path / "up.png",
                                              "--style", "watercolor+upscale"))


# -- the preset menu's pictures -------------------------------------------------------------
def qimage_rgb(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    raw = np.frombuffer(image.constBits().asarray(image.sizeInBytes()), np.uint8)
    return raw.reshape(h, image.bytesPerLine())[:, :3 * w].reshape(h, w, 3).copy()


def icon_pixels(win: MainWindow, index: int) -> np.ndarray:
    """The picture of item `index` of the preset chooser as the screen holds it, RGB."""
    combo = win.presets.combo
    return qimage_rgb(combo.itemIcon(index).pixmap(combo.iconSize()).toImage())


def on_screen(rgb: np.ndarray) -> np.ndarray:
    """An RGB picture as a pixmap on this screen holds it (Xvfb's default is 16-bit)."""
    h, w = rgb.shape[:2]
    data = np.ascontiguousarray(rgb)
    image = QImage(data.data, w, h, 3 * w, QImage.Format.Format_RGB888)
    return qimage_rgb(QPixmap.fromImage(image).toImage())


def test_preset_pictures_are_the_frame_on_screen_in_each_preset(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """Opening the preset chooser paints the frame on screen small in every preset; each
    picture is what `aquarelle render` makes of that small frame with the preset."""
    win = window(qtbot, config)
    assert win.open_file(files["still"])
    shown(qtbot, win)
    assert win.presets.paint_thumbnails()
    combo = win.presets.combo
    assert combo.count() == len(win.presets.presets) + 1 >= 11
    size = (combo.iconSize().width(), combo.iconSize().height())
    assert size == thumb_size((PW, PH))
    # the small frame the pictures are painted from: the GPU's fit of the photo, made by
    # the painter's own fitter on the window's context (a second context in this process
    # would leave Qt's current context broken)
    vp = win.viewport
    vp.makeCurrent()
    try:
        small = vp._thumbs.fitter.fit(vp.paint.orig, size, "stretch")
    finally:
        vp.doneCurrent()
    # a repaint before the CLI's own EGL context comes and goes in this thread: that one's
    # teardown, right after a doneCurrent, leaves the next windows without a context
    grab(win)
    source = tmp_path / "small.png"
    cv2.imwrite(str(source), small[:, :, ::-1])
    pictures = [icon_pixels(win, i) for i in range(combo.count())]
    for name in ("vivid", "sepia", "ink_and_wash"):
        i = 1 + [p.name for p in win.presets.presets].index(name)
        assert_same(pictures[i], on_screen(cli_render(source, tmp_path / f"{name}.png",
                                                      "--preset", name)))
    assert_same(pictures[0], on_screen(cli_render(source, tmp_path / "default.png")))
    # each preset reads differently, even at this size
    for i in range(1, len(pictures)):
        for j in range(i + 1, len(pictures)):
            assert np.abs(pictures[i].astype(int) - pictures[j]).mean() > 2, (i, j)


def test_frames_stepped_in_a_row_are_the_cli_export_with_motion_found_ahead(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Frames in a row carry the painting along the motion, found on the motion feed's
    thread (not in the paint): the window's frame 3 is the CLI's 4th image of the clip."""
    import threading

    from aquarelle.engine import motion

    gui = []
    update = motion.MotionEstimator.update
    monkeypatch.setattr(motion.MotionEstimator, "update", lambda self, frame: gui.append(
        threading.current_thread() is threading.main_thread()) or update(self, frame))
    compare = motion.MotionEstimator.compare
    feed = []
    monkeypatch.setattr(motion.MotionEstimator, "compare", lambda self, past, frame: feed.append(
        threading.current_thread().name) or compare(self, past, frame))
    win = window(qtbot, config)
    win.sources.motion_ahead = True  # as on a GPU (a CPU renderer estimates in the paint)
    open_paused(qtbot, win, files["clip"])
    gui.clear()
    feed.clear()
    for i in (1, 2, 3):
        win.playback.step(1)
        qtbot.waitUntil(lambda i=i: win.viewport.shown_index == i, timeout=TIMEOUT)
        grab(win)  # painted before the next step
    painted = shown(qtbot, win)
    assert not any(gui), "the paint estimated motion itself"
    assert feed and set(feed) == {"aquarelle-motion"}
    assert cli_main(["render", str(files["clip"]), "-o", str(tmp_path / "f%02d.png")]) == 0
    cli = cv2.imread(str(tmp_path / "f04.png"))[:, :, ::-1]  # numbered from 1
    assert_same(painted, cli)


def test_a_10_bit_video_is_painted_at_16_bits_as_the_cli_exports_it(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """A 10-bit video's frames reach the painting at 16 bits in the window, as in its export
    (the window read them at 8: frames stepped to differed by up to 9 levels, 11% of the
    pixels by more than 1)."""
    path = tmp_path / "deep.mkv"
    with av.open(str(path), "w") as out:
        stream = out.add_stream("ffv1", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = PW, PH, "gbrp10le"
        stream.time_base = Fraction(1, FPS)
        # low contrast: a gradient 8 bits hold in steps, 10 bits smoothly
        mux_frames(out, stream, ((clip_frame(i) * (0.22 * 257) + 0.35 * 65535)
                                 .astype(np.uint16) for i in range(4)), fmt="rgb48le")
    win = window(qtbot, config)
    open_paused(qtbot, win, path)
    for i in (1, 2):
        win.playback.step(1)
        qtbot.waitUntil(lambda i=i: win.viewport.shown_index == i, timeout=TIMEOUT)
        grab(win)
    painted = shown(qtbot, win)
    assert win.viewport.pipeline is not None and win.viewport.pipeline.deep
    assert cli_main(["render", str(path), "-o", str(tmp_path / "f%02d.png")]) == 0
    assert_same(painted, cv2.imread(str(tmp_path / "f03.png"))[:, :, ::-1])


def test_frames_stepped_in_a_row_are_the_cli_export_with_motion_found_in_the_paint(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """The same where the paint finds the motion (a CPU renderer): the frame opened on is
    painted again once its subject is looked for, and the next frames still follow it (the
    repaint forgot the past frame, and every step after an open or a seek was painted as a
    cut: 4.8 levels off the export on average)."""
    win = window(qtbot, config)
    win.sources.motion_ahead = False
    open_paused(qtbot, win, files["clip"])
    qtbot.waitUntil(lambda: not win.viewport.subjects.waiting, timeout=TIMEOUT)
    # its subject arrived after the first paint (the feed's signal; a fast worker's may come
    # before it, when no second paint is needed): the frame is painted again
    repaints = win.viewport.stats.renders
    win.viewport.subjects.stillReady.emit()
    grab(win)
    assert win.viewport.stats.renders == repaints + 1
    for i in (1, 2, 3):
        win.playback.step(1)
        qtbot.waitUntil(lambda i=i: win.viewport.shown_index == i, timeout=TIMEOUT)
        grab(win)  # painted before the next step
    painted = shown(qtbot, win)
    assert cli_main(["render", str(files["clip"]), "-o", str(tmp_path / "f%02d.png")]) == 0
    cli = cv2.imread(str(tmp_path / "f04.png"))[:, :, ::-1]  # numbered from 1
    assert_same(painted, cli)


def portrait_clip(tmp_path: Path, n: int = 6) -> tuple[Path, list[np.ndarray]]:
    """A face (the astronaut) panning 2 px a frame, lossless."""
    face = cv2.resize(data.astronaut(), (192, 192), interpolation=cv2.INTER_AREA)
    frames = [np.ascontiguousarray(np.roll(face, 2 * i, 1)) for i in range(n)]
    return lossless_clip(tmp_path / "portrait.mkv", frames), frames


def test_a_paused_seek_shows_its_frame_only_with_its_face(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A seek while paused keeps the picture before it on screen until the new frame's face
    is found: the frame is never shown framed as a scene first and as a portrait a moment
    later (the trial measured that flash 33-48 levels off, on every seek)."""
    from aquarelle.ui import subject_hold

    monkeypatch.setattr(subject_hold, "SUBJECT_HOLD_S", 30.0)  # (a slow machine's wait)
    clip, _ = portrait_clip(tmp_path)
    win = window(qtbot, config)
    open_paused(qtbot, win, clip)
    vp = win.viewport
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    painted: list[tuple[int | None, bool]] = []
    vp.rendered.connect(lambda: painted.append(
        (vp.shown_index, vp.pipeline is not None and vp.pipeline.last_subject is not None)))
    for index in (4, 1, 3):
        goto(qtbot, win, index)
        qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
        grab(win)
    seeks = [p for p in painted if p[0] in (4, 1, 3)]
    assert {p[0] for p in seeks} == {4, 1, 3}, painted
    assert all(face for _, face in seeks), painted  # every paint of them had the face


def test_a_portrait_video_stepped_while_paused_is_the_cli_export(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """Each step is painted at once with the frame before's face, then again with its own:
    with the history it read the first time, so the frame is the export's (painted again,
    it was blended with itself, and a paused frame kept the face of the frame before)."""
    clip, _ = portrait_clip(tmp_path)
    win = window(qtbot, config)
    open_paused(qtbot, win, clip)
    vp = win.viewport
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    grab(win)
    for i in (1, 2, 3):
        win.playback.step(1)
        qtbot.waitUntil(lambda i=i: vp.shown_index == i, timeout=TIMEOUT)
        grab(win)
        qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
        grab(win)  # painted again with its own face, if that differs
    painted = shown(qtbot, win)
    assert cli_main(["render", str(clip), "-o", str(tmp_path / "f%02d.png")]) == 0
    assert_same(painted, cv2.imread(str(tmp_path / "f04.png"))[:, :, ::-1])


def test_frames_skipped_in_playback_keep_the_face(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """Playback on a slow machine skips frames; the face is followed across the skip. It
    was searched afresh, and the frame after a skip was painted without it: framed as a
    scene for a frame, then blended back (the trial's sudden dark composition and ghost)."""
    from aquarelle.media.source import Frame

    clip, frames = portrait_clip(tmp_path, 12)
    win = window(qtbot, config)
    open_paused(qtbot, win, clip)
    vp = win.viewport
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    grab(win)
    assert vp.pipeline is not None and vp.pipeline.last_subject is not None
    vp.set_paused(False)  # as while it plays: frames come on, none waits for its subject
    faces = []
    for index in (4, 9):  # 4 and 5 frames on: a skip, not a seek
        vp.show_frame(Frame(frames[index], index, index / FPS))
        grab(win)
        assert vp.shown_index == index
        # (a frame after a skip waits for its own subject, the picture before held)
        qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
        grab(win)
        faces.append(vp.pipeline.last_subject is not None)
    assert all(faces), faces


def test_the_loop_point_shows_the_first_frame_with_its_own_face(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A file playing round its loop point (a cut): the picture before it stays until the
    first frame's face is found; it is never painted with the face where the last frame
    had it (the trial: 75 levels off the export for half a second after every loop)."""
    from aquarelle.media.source import Frame
    from aquarelle.ui import subject_hold

    monkeypatch.setattr(subject_hold, "SUBJECT_HOLD_S", 30.0)  # (a slow machine's wait)
    face = cv2.resize(data.astronaut(), (192, 192), interpolation=cv2.INTER_AREA)
    frames = [np.ascontiguousarray(np.roll(face, 24 * i, 1)) for i in range(4)]
    win = window(qtbot, config)
    vp = win.viewport
    win._poll.stop()  # the frames come from here, as a file playing
    vp.set_paused(False)
    boxes: dict[int, list[tuple[float, ...]]] = {}

    def painted() -> None:
        s = vp.pipeline.last_subject if vp.pipeline is not None else None
        boxes.setdefault(vp.shown_index, []).append(s.faces[0].box if s else ())

    vp.rendered.connect(painted)
    for index in (0, 1, 2, 3):
        vp.show_frame(Frame(frames[index], index, index / FPS))
        grab(win)
        vp.set_paused(True)  # (a moment's pause: each frame painted with its own face)
        qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
        grab(win)
        vp.set_paused(False)
    own, last = boxes[0][-1], boxes[3][-1]
    assert own and last and abs(own[0] - last[0]) > 40, boxes  # the face moved
    looped = len(boxes[0])
    vp.show_frame(Frame(frames[0], 0, 0.0))  # round the loop point, playing on
    grab(win)  # handed over: held
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    grab(win)
    after = boxes[0][looped:]
    assert after and all(b and np.abs(np.subtract(b, own)).max() < 4.0 for b in after), \
        boxes  # painted only with its own face: never none, nor the last frame's


def test_a_portrait_video_opened_playing_shows_its_first_picture_with_its_face(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a file (nothing painted yet) waits for its first frame's face as a seek does:
    the trial saw the first frame framed as a scene, 14 levels off the export, for 0.3 s."""
    from aquarelle.ui import subject_hold

    monkeypatch.setattr(subject_hold, "SUBJECT_HOLD_S", 30.0)  # (a slow machine's wait)
    clip, _ = portrait_clip(tmp_path, 12)
    win = window(qtbot, config)
    vp = win.viewport
    painted: list[bool] = []
    vp.rendered.connect(lambda: painted.append(
        vp.pipeline is not None and vp.pipeline.last_subject is not None))
    assert win.open_file(clip)
    qtbot.waitUntil(lambda: len(painted) >= 2, timeout=TIMEOUT)
    assert all(painted), painted  # from the first paint on, with the face


# -- a frame paused on after playing ---------------------------------------------------------
def played_at(win: MainWindow, *indices: int) -> None:
    """Frames handed to the viewport as a file playing hands them (the source paused at
    frame 0: nothing else comes), each painted before the next (a frame after a skip once
    its subject is found, the picture before held meanwhile)."""
    from aquarelle.media.source import Frame

    vp = win.viewport
    win._poll.stop()
    vp.set_paused(False)
    for i in indices:
        vp.show_frame(Frame(clip_frame(i), i, i / FPS))
        grab(win)
        assert vp.shown_index == i
        deadline = time.monotonic() + TIMEOUT / 1000
        win._stats_timer.stop()  # (meanwhile: it has the viewport follow the source, paused)
        while vp.painted_pts != i / FPS:
            assert time.monotonic() < deadline, f"frame {i} was never painted"
            QApplication.processEvents()
            grab(win)
        win._stats_timer.start()


def test_a_video_played_to_its_end_at_a_lowered_scale_ends_on_the_cli_render(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """Playback on a slow machine paints adaptive quality's draft at a lower scale; at the
    end (loop off) the last frame is painted as a seek to it paints it, at full scale, and
    that is what Snapshot saves (it stayed the blurry draft: 23 levels off the export)."""
    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    vp = win.viewport
    scales: list[float | None] = []
    vp.rendered.connect(lambda: scales.append(vp.painted_scale()))
    win.transport.loop.setChecked(False)
    win.playback.set_playing(True)
    adaptive = vp.adaptive
    assert adaptive is not None
    adaptive.scale = adaptive.floor = 0.3  # as low as adaptive quality goes, and held there
    adaptive.enabled = False
    qtbot.waitUntil(lambda: not win.live.playing, timeout=TIMEOUT)  # at its end: paused
    assert vp.paused and vp.adaptive is None
    painted = shown(qtbot, win)
    assert vp.shown_index == CLIP_FRAMES - 1
    assert 0.3 in scales and scales[-1] == 1.0, scales
    # (the CLI before a snapshot: its context made after one, Qt's is lost: see
    # test_gui_painting)
    expected = cli_render(files[f"frame{CLIP_FRAMES - 1}"], tmp_path / "cli.png")
    saved = tmp_path / "snapshot.png"
    assert win.snapshots.save(saved)
    snapshot = cv2.imread(str(saved))[:, :, ::-1]
    assert_same(painted, expected)
    assert_same(snapshot, expected)
    assert not dialogs.calls


def test_a_picture_painted_at_another_scale_than_wanted_is_painted_again(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """The picture on screen painted at adaptive quality's scale is painted again once that
    scale is no longer wanted, settings unchanged and no new frame (it stayed the draft,
    and so did what Snapshot saved): anew from the frame, its history afresh."""
    from aquarelle.media.adaptive import AdaptiveScale

    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    vp = win.viewport
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    vp.adaptive = AdaptiveScale(FPS, 0.3, 0.3, enabled=False)
    played_at(win, 1)
    assert vp.painted_scale() == 0.3
    renders = vp.stats.renders
    vp.adaptive = None
    vp.request_render()
    painted = shown(qtbot, win)
    assert vp.stats.renders > renders and vp.painted_scale() == 1.0
    expected = cli_render(files["frame1"], tmp_path / "cli.png")  # (before a snapshot)
    assert_same(painted, expected)
    assert_same(vp.snapshot(), expected)


def test_a_frame_paused_on_after_frames_were_skipped_is_painted_as_a_seek_to_it(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Playback that falls behind skips frames, and the painting carried across the skip is
    no export's (4 to 5 levels off); paused, the frame is painted as a seek to it paints it,
    the picture before held meanwhile (no blank, no flash), and a step on from it is the
    export from there."""
    from aquarelle.media.source import Frame
    from aquarelle.ui import subject_hold

    monkeypatch.setattr(subject_hold, "SUBJECT_HOLD_S", 30.0)  # held until its subject
    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    vp = win.viewport
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    played_at(win, 1, 2, 4)  # 3 skipped
    before = grab(win)
    vp.set_paused(True)
    assert np.array_equal(grab(win), before)  # held while its subject is found again
    painted = shown(qtbot, win)
    vp.show_frame(Frame(clip_frame(5), 5, 5 / FPS))  # a step
    qtbot.waitUntil(lambda: vp.shown_index == 5, timeout=TIMEOUT)
    stepped = shown(qtbot, win)
    assert_same(painted, cli_render(files["frame4"], tmp_path / "f4.png"))
    assert cli_main(["render", str(files["clip"]), "-o", str(tmp_path / "s%02d.png"),
                     "--start", repr(4 / FPS)]) == 0
    assert_same(stepped, cv2.imread(str(tmp_path / "s02.png"))[:, :, ::-1])


def test_paused_behind_the_decoder_the_file_stays_on_the_frame_on_screen(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a slow machine the decoder is frames ahead of the picture, and Space showed a later
    frame than the one on screen (27 -> 30, a tester's); where that frame was painted
    otherwise than an export paints it, pausing seeks the file to it, painted as a seek."""
    from aquarelle.ui import playback

    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    vp = win.viewport
    played_at(win, 1, 3)  # 2 skipped: not the export's painting
    win._poll.start()
    vp.set_paused(True)
    with monkeypatch.context() as m:
        m.setattr(playback, "position", lambda src: 6 / FPS)  # the decoder's frame 6
        win.playback._pause_on_the_frame_shown()
    qtbot.waitUntil(lambda: vp.shown_index == 3 and vp.painted_pts == 3 / FPS,
                    timeout=TIMEOUT)
    painted = shown(qtbot, win)
    assert playback.position(win.source) == pytest.approx(3 / FPS)
    assert cli_main(["render", str(files["clip"]), "-o", str(tmp_path / "p%02d.png"),
                     "--start", repr(3 / FPS)]) == 0
    assert_same(painted, cv2.imread(str(tmp_path / "p01.png"))[:, :, ::-1])


def test_paused_as_a_looping_file_goes_round_it_stays_on_the_frame_on_screen(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Paused on one of the last frames of a looping clip whose decoder had gone round to
    frame 0, the window jumped to frame 0 and stayed there (2 pauses in 40 in a re-trial):
    a decoder behind the picture was taken for one on it. The file is taken back to the
    frame on screen, even where its frames were painted as an export paints them."""
    from aquarelle.ui import playback

    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    vp = win.viewport
    played_at(win, 1, 2, 3)  # as the export paints them
    assert vp.record.follows_export()
    win._poll.start()
    vp.set_paused(True)
    seeks: list[float] = []
    monkeypatch.setattr(win.playback, "seek", seeks.append)
    with monkeypatch.context() as m:
        m.setattr(playback, "position", lambda src: 0.0)  # gone round to the start
        win.playback._pause_on_the_frame_shown()
    assert seeks == [pytest.approx(3 / FPS)]
    seeks.clear()
    with monkeypatch.context() as m:  # ahead of it, painted as the export: the next is shown
        m.setattr(playback, "position", lambda src: 4 / FPS)
        win.playback._pause_on_the_frame_shown()
    assert seeks == []


def test_a_frame_taken_before_the_pause_is_never_painted_after_it(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Frame 4 was taken from the decoder (queued, not painted) when the file paused on
    frame 3, which pausing seeks to: frame 4 was painted, then the seek's frame 3 (3 -> 4 ->
    3, 4 pauses in 47 in a trial). Nor is a frame held for its subject (after a cut) when a
    seek comes painted. Only 3 is painted after the pause or the seek."""
    from aquarelle.media.source import Frame
    from aquarelle.ui import playback, subject_hold

    monkeypatch.setattr(subject_hold, "SUBJECT_HOLD_S", 30.0)  # held until its subject
    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    vp = win.viewport
    painted: list[int] = []
    vp.rendered.connect(lambda: painted.append(round((vp.painted_pts or 0) * FPS)))
    for late, held in ((4, False), (6, True)):
        goto(qtbot, win, 0)
        qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
        played_at(win, 1, 3)  # 2 skipped: paused, the frame is painted as a seek to it
        if held:
            vp.new_source()  # a seek while playing: its frame waits for its subject
        vp.show_frame(Frame(clip_frame(late), late, late / FPS))  # from the decoder
        if held:
            grab(win)
            assert vp.frames.fresh and vp.shown_index == late and vp.frames.painted_index is None
        painted.clear()
        if held:
            vp.set_paused(True)
            win.playback.seek(3 / FPS)
        else:
            with monkeypatch.context() as m:
                m.setattr(playback, "position", lambda src, k=late: k / FPS)
                m.setattr(playback, "is_playing", lambda src: True)
                win.playback.toggle_play()  # pause: a seek to frame 3
        grab(win)
        qtbot.waitUntil(lambda: not vp.subjects.waiting_fresh, timeout=TIMEOUT)
        grab(win)  # (the old code painted the frame taken before here)
        win._poll.start()
        qtbot.waitUntil(lambda: vp.shown_index == 3 and vp.painted_pts == 3 / FPS,
                        timeout=TIMEOUT)
        shown(qtbot, win)
        assert set(painted) == {3}, (late, painted)


def test_a_step_from_a_frame_played_across_a_skip_is_painted_as_a_seek_to_it(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """A frame that comes paused before the frame paused on was painted again (a step at
    once) does not follow the painting carried across the skip either."""
    from aquarelle.media.source import Frame

    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    vp = win.viewport
    played_at(win, 1, 3)  # 2 skipped
    vp.set_paused(True)
    vp.show_frame(Frame(clip_frame(4), 4, 4 / FPS))
    assert_same(shown(qtbot, win), cli_render(files["frame4"], tmp_path / "f4.png"))


def test_a_frame_paused_on_after_frames_played_in_a_row_is_kept_as_the_export_paints_it(
        qtbot: Any, config: Path, dialogs: Dialogs, files: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """Frames played in a row at full scale are the export's: the frame paused on keeps its
    painting (with the frames before it), the CLI's 4th image of the clip."""
    win = window(qtbot, config)
    open_paused(qtbot, win, files["clip"])
    vp = win.viewport
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    played_at(win, 1, 2, 3)
    vp.set_paused(True)
    painted = shown(qtbot, win)
    assert cli_main(["render", str(files["clip"]), "-o", str(tmp_path / "f%02d.png")]) == 0
    assert_same(painted, cv2.imread(str(tmp_path / "f04.png"))[:, :, ::-1])


# -- a still with transparency ---------------------------------------------------------------
def test_a_snapshot_of_a_still_with_alpha_keeps_it_as_the_cli_writes_it(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """Snapshot of a PNG with transparency writes its alpha as `aquarelle render` does
    (it wrote RGB only), enlarged with the picture by an upscaler; a JPEG holds the
    painting on its paper, as the CLI's."""
    rgba = np.dstack([photo(), np.tile(np.linspace(0, 255, PW).astype(np.uint8), (PH, 1))])
    src = tmp_path / "alpha.png"
    cv2.imwrite(str(src), cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA))
    win = window(qtbot, config)
    cases = (("snap.png", ()), ("snap.jpg", ()),
             ("snap_up.png", ("--style", "watercolor+upscale")))
    for name, args in cases:  # (the CLI before a snapshot: see test_gui_painting)
        cli_render(src, tmp_path / f"cli_{name}", *args)
    assert win.open_file(src)
    shown(qtbot, win)
    assert win.snapshots.save(tmp_path / "snap.png")
    assert win.snapshots.save(tmp_path / "snap.jpg")
    win.state.set_style("watercolor+upscale")
    shown(qtbot, win)
    assert win.snapshots.save(tmp_path / "snap_up.png")
    for name, _ in cases:
        snap = cv2.imread(str(tmp_path / name), cv2.IMREAD_UNCHANGED)
        cli = cv2.imread(str(tmp_path / f"cli_{name}"), cv2.IMREAD_UNCHANGED)
        assert snap.shape == cli.shape, name
        if name.endswith(".png"):
            assert snap.shape[2] == 4
            np.testing.assert_array_equal(snap[:, :, 3], cli[:, :, 3])
        assert_same(snap[:, :, :3], cli[:, :, :3])
    assert not dialogs.calls


# -- a clip whose clock starts late, a variable frame rate, millisecond times ----------------
def cli_first(src: Path, tmp_path: Path, start: float, name: str) -> tuple[np.ndarray, int]:
    """The first picture of `aquarelle render SRC --start START` as PNGs, and how many it
    wrote."""
    assert cli_main(["render", str(src), "-o", str(tmp_path / f"{name}%02d.png"),
                     "--start", repr(start)]) == 0
    written = len(list(tmp_path.glob(f"{name}*.png")))
    return cv2.imread(str(tmp_path / f"{name}01.png"))[:, :, ::-1].copy(), written


def settled(qtbot: Any, win: MainWindow, pts: float) -> None:
    """Wait until the frame at `pts` (s from the video's first frame) is painted."""
    vp = win.viewport
    qtbot.waitUntil(lambda: vp.painted_pts is not None and abs(vp.painted_pts - pts) < 1e-6
                    and not vp.subjects.waiting_fresh, timeout=TIMEOUT)
    grab(win)


def test_a_clip_whose_clock_starts_late_is_timed_from_its_first_frame(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """A recording whose first frame is at 1.5 s: position, painted time, J, step back, the
    time shown and the export's Current position all count from its first frame, as seeking
    and --start do (they counted from the file's clock: pause jumped 1.5 s ahead, a step
    back went forward, J too, the time shown ran past the duration)."""

    from aquarelle.ui import playback
    from aquarelle.ui.export_dialog import ExportDialog, start_at
    from aquarelle.ui.source_controls import SEEK_STEPS

    fps = 24
    path = late_clip(tmp_path / "late.mp4", 1.5, fps=fps, frames=48)
    win = window(qtbot, config)
    assert win.open_file(path)
    vp = win.viewport
    qtbot.waitUntil(lambda: (vp.shown_index or 0) >= 3, timeout=TIMEOUT)
    win.playback.toggle_play()  # paused after playing: on the frame on screen
    # (the pause's seek back to it forgets the index until its frame is painted again)
    qtbot.waitUntil(lambda: vp.painted_pts is not None and vp.shown_index is not None
                    and playback.position(win.source) == vp.painted_pts, timeout=TIMEOUT)
    assert vp.painted_pts == pytest.approx(vp.shown_index / fps)
    win.playback.seek(36 / fps)
    settled(qtbot, win, 36 / fps)
    assert vp.shown_index == 36 and playback.position(win.source) == pytest.approx(1.5)
    win.show_position()
    assert win.transport.time.text().startswith("0:00:01:12 / 0:00:02:00   frame 37 of 48")
    assert win.transport.seek.value() == round(SEEK_STEPS * 36 / 48)
    win.playback.jump_back()  # J: back one second
    settled(qtbot, win, 12 / fps)
    assert vp.shown_index == 12
    win.playback.step(-1)
    settled(qtbot, win, 11 / fps)
    assert vp.shown_index == 11
    painted = shown(qtbot, win)
    seen: list[float] = []

    def look(dialog: ExportDialog) -> None:
        seen.append(dialog.position)
        dialog.reject()

    answer_modal(look, ExportDialog)
    win.exports.open_dialog()
    assert seen == [pytest.approx(11 / fps)]
    # an export from there (the dialog's Current position) starts at the frame on screen
    first, _ = cli_first(path, tmp_path, start_at(seen[0]), "e")
    assert_same(painted, first)


VFR_MS = [0, 40, 120, 130, 300, 333, 500, 510, 520, 800, 900, 1000, 1040, 1300, 1310, 1500,
          1700, 1710, 1900, 2000]


def test_a_variable_rate_clip_is_numbered_and_stepped_back_as_the_cli_exports_it(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """Frames 0, 40, 120, 130 ms... in a Matroska (which counts no frames; its rate says 25):
    the window numbers them 1..20 of 20 as the export does (it said 'frame 38 of 51' at
    1.5 s), and a step back goes to the frame before (it stayed on 1.5 s: 1.5 frame periods
    at 25 fps fall short of 1.31 s) painted afresh, as `--start` exports it."""
    path = tmp_path / "vfr.mkv"
    with av.open(str(path), "w") as out:
        stream = out.add_stream("ffv1", rate=25)
        stream.width, stream.height, stream.pix_fmt = PW, PH, "bgr0"
        stream.codec_context.time_base = Fraction(1, 1000)
        mux_frames(out, stream, [pattern(k, PW, PH) for k in range(len(VFR_MS))],
                   pts=VFR_MS, time_base=Fraction(1, 1000))
    win = window(qtbot, config)
    assert win.open_file(path)
    win.playback.toggle_play()
    src = win.source
    # (a Matroska counts no frames: the count is exact once the frames' times are read)
    qtbot.waitUntil(lambda: getattr(src, "frame_count_exact", False), timeout=TIMEOUT)
    assert src is not None and src.frame_count == 20
    vp = win.viewport
    win.playback.seek(1.5)
    settled(qtbot, win, 1.5)
    assert vp.shown_index == 15
    win.show_position()
    assert "frame 16 of 20" in win.transport.time.text()
    # (until counted: the count from its duration and rate, said as one)
    win.transport.set_position(1.5, 2.04, 25, 15, 51, about=True)
    assert win.transport.time.text().endswith("frame 16 of about 51")
    for t, index in ((1.31, 14), (1.3, 13)):
        win.playback.step(-1)
        settled(qtbot, win, t)
        assert vp.shown_index == index
    painted = shown(qtbot, win)
    first, written = cli_first(path, tmp_path, 1.3, "v")
    assert written == 20 - 13  # the export's frames 14..20: the window's 14 is its first
    assert_same(painted, first)


def test_the_timecode_of_millisecond_times_is_the_frame_shown(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """A Matroska's times are whole milliseconds: its frame 15 at 24 fps is at 0.583 s, a
    hair before 14/24 s; the timecode said frame 13 of that second next to 'frame 15'."""
    from aquarelle.ui.source_controls import format_timecode

    assert format_timecode(0.083, 24) == "0:00:00:02"
    # cut to the millisecond (trial W9): 0.041 and 0.166 s are frames 1 and 4, not 0 and 3
    assert [format_timecode(k / 1000, 24)[-2:] for k in (0, 41, 83, 125, 166, 208, 958)] == \
        ["00", "01", "02", "03", "04", "05", "23"]
    assert format_timecode(2.0, 29.97) == "0:00:01:29"  # (frame 59 of a 30-frame second)
    path = tmp_path / "ms.mkv"
    with av.open(str(path), "w") as out:
        stream = out.add_stream("ffv1", rate=24)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "bgr0"
        mux_frames(out, stream, [pattern(k, 64, 48) for k in range(24)])
    win = window(qtbot, config)
    assert win.open_file(path)
    win.playback.toggle_play()
    win.playback.seek(0.583)
    settled(qtbot, win, 0.583)
    assert win.viewport.shown_index == 14
    qtbot.waitUntil(lambda: getattr(win.source, "frame_count_exact", True), timeout=TIMEOUT)
    win.show_position()
    assert win.transport.time.text().startswith("0:00:00:14 / 0:00:01:00   frame 15 of 24")


def test_a_video_with_alpha_says_it_is_left_out_as_the_cli_does(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """A video whose pictures carry transparency (PNG frames in a QuickTime file here; a
    ProRes 4444's, a VP9's) is painted opaque: the window says so, as the CLI warns (it only
    said 'Opened ...')."""
    path = tmp_path / "alpha.mov"
    with av.open(str(path), "w") as out:
        stream = out.add_stream("png", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "rgba"
        frames = []
        for k in range(3):
            rgba = np.dstack([pattern(k, 64, 48), np.full((48, 64), 255, np.uint8)])
            rgba[:, :32, 3] = 96  # the left half see-through
            frames.append(rgba)
        mux_frames(out, stream, frames, fmt="rgba")
    win = window(qtbot, config)
    assert win.open_file(path)
    qtbot.waitUntil(lambda: "has an alpha channel" in win.statusBar().currentMessage(),
                    timeout=TIMEOUT)
    assert "shows opaque: its transparent parts are laid on white paper (.gif and .png " \
        "frames exported keep it)" in win.statusBar().currentMessage()
