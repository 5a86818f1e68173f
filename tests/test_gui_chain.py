"""The chain panel: add, remove, reorder and bypass styles in the app; the picture, the
parameter panel, the debug views, undo and the settings follow."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import Qt
from test_gui import TIMEOUT, Dialogs, config, dialogs, make_window, media, open_and_render  # noqa: F401

from aquarelle.engine.renderer import Renderer
from aquarelle.ui.main_window import MainWindow
from aquarelle.ui.settings import Settings


def test_chain_panel_add_reorder_bypass_remove(qtbot: Any, config: Path,  # noqa: F811
                                               dialogs: Dialogs,  # noqa: F811
                                               media: dict[str, Path]) -> None:  # noqa: F811
    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["image"])
    panel = win.chain_panel
    assert panel.names() == ["watercolor"]
    win.param_panel.set_value("dilution", 0.31)

    # add: a clean-up filter goes before the painting, keeping watercolor's values
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        panel.add_style("denoise")
    assert panel.names() == ["denoise", "watercolor"]
    assert win.state.style.name == "denoise+watercolor"
    assert isinstance(win.viewport.pipeline, Renderer)
    assert win.state.params["watercolor.dilution"] == 0.31
    assert "denoise.sigma_space" in win.param_panel.rows  # its generated sliders
    views = [win.debug_combo.itemText(i) for i in range(win.debug_combo.count())]
    assert "Denoise › spatial" in views and any(v.startswith("Watercolor ›") for v in views)

    # reorder (as a drag does: the list's order changes, the chain follows)
    panel.list.setCurrentRow(1)
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        panel.move_selected(-1)
    assert win.state.style.name == "watercolor+denoise"
    item = panel.list.takeItem(1)  # a drag-and-drop move through the model
    panel.list.insertItem(0, item)
    panel.list.model().rowsMoved.emit(panel.list.model().index(0, 0).parent(), 1, 1,
                                      panel.list.model().index(0, 0).parent(), 0)
    assert win.state.style.name == "denoise+watercolor"

    # bypass: untick; undo ticks it again
    row = panel.names().index("watercolor")
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        panel.list.item(row).setCheckState(Qt.CheckState.Unchecked)
    assert win.state.params["watercolor.bypass"] is True
    win.editor.undo()
    assert win.state.params["watercolor.bypass"] is False
    assert panel.list.item(row).checkState() == Qt.CheckState.Checked

    # remove; a lone style cannot be removed
    panel.list.setCurrentRow(panel.names().index("denoise"))
    panel.remove_selected()
    assert win.state.style.name == "watercolor" and panel.names() == ["watercolor"]
    assert win.state.params["dilution"] == 0.31
    panel.list.setCurrentRow(0)
    panel.remove_selected()
    assert panel.names() == ["watercolor"] and not panel.remove_button.isEnabled()

    # the chain and its values persist
    panel.add_style("enhance")
    win.param_panel.set_value("enhance.gamma", 1.3)
    win.close()
    again = MainWindow(Settings(config))
    qtbot.addWidget(again)
    assert again.state.style.name == "enhance+watercolor"
    assert again.state.params["enhance.gamma"] == 1.3
    assert again.chain_panel.names() == ["enhance", "watercolor"]
    again.close()


def test_a_stereo_pair_in_split_compare_is_labelled_as_a_split(
        qtbot: Any, config: Path, dialogs: Dialogs, media: dict[str, Path]) -> None:  # noqa: F811
    """A pair twice as wide is split against the original in each view (trial W2: it was
    shown alone, unlabelled, while the status bar said "Compare: split"); see
    test_gui_fidelity_steps for the pixels."""
    from aquarelle.ui.view_transform import CompareMode

    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["image"])
    win.set_compare(CompareMode.SPLIT)
    assert win.viewport.comparing
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        win.set_style("stereo")
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        win.param_panel.set_value("output", "sbs")
    assert win.viewport.comparing
    win.update_stats()
    assert not win.overlays.painted.isHidden() and not win.overlays.original.isHidden()
    win.param_panel.set_value("output", "anaglyph")
    qtbot.waitUntil(lambda: win.viewport.comparing, timeout=TIMEOUT)
    win.close()


def test_a_stereo_pair_at_actual_pixels_is_shown_one_to_one(
        qtbot: Any, config: Path, dialogs: Dialogs, media: dict[str, Path]) -> None:  # noqa: F811
    """"Actual pixels" (1) shows a side-by-side or top-bottom pair's own pixels one to one,
    and the zoom says 100% (it drew a 2560x720 pair at 1280x360 and said 100%)."""
    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["image"])
    vp = win.viewport
    with qtbot.waitSignal(vp.rendered, timeout=TIMEOUT):
        win.set_style("stereo")
    for output in ("sbs", "tb"):
        with qtbot.waitSignal(vp.rendered, timeout=TIMEOUT):
            win.param_panel.set_value("output", output)
        vp.actual_pixels()
        assert vp.zoom_percent() == pytest.approx(100.0)
        result = vp.pipeline.output_size(vp.frame_size)
        rect = vp.transform.image_rect(vp.view_size(), result)  # as the pair is drawn
        dpr = vp.devicePixelRatioF()
        assert (round(rect.w), round(rect.h)) == (round(result[0] * dpr), round(result[1] * dpr))
    # an upscaler's result at its own pixels is 100% too (it said 200%, of the frame)
    with qtbot.waitSignal(vp.rendered, timeout=TIMEOUT):
        win.set_style("upscale")
    vp.actual_pixels()
    assert vp.pipeline.output_size(vp.frame_size)[1] == 2 * vp.frame_size[1]
    assert vp.zoom_percent() == pytest.approx(100.0)
    win.close()


def test_chain_edits_keep_values_and_are_undo_steps(qtbot: Any, config: Path,  # noqa: F811
                                                    dialogs: Dialogs,  # noqa: F811
                                                    media: dict[str, Path]) -> None:  # noqa: F811
    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["image"])
    panel = win.chain_panel
    win.editor.apply_preset(win.presets.select("dry_brush"))
    win.param_panel.set_value("saturation", 1.1)
    edited = win.state.params.as_json_values()
    for name in ("denoise", "upscale"):  # adding keeps every edited watercolor value
        panel.add_style(name)
        values = win.state.params.as_json_values()
        assert {k: values[f"watercolor.{k}"] for k in edited} == edited
    assert win.state.style.name == "denoise+watercolor+upscale"
    panel.list.setCurrentRow(0)
    panel.remove_selected()  # asks nothing: it is an undo step, and the status says so
    assert win.state.style.name == "watercolor+upscale"
    assert "Ctrl+Z" in win.statusBar().currentMessage()
    assert win.editor.undo()  # the removal
    assert win.state.style.name == "denoise+watercolor+upscale"
    assert panel.names() == ["denoise", "watercolor", "upscale"]
    assert win.editor.undo() and win.editor.undo()  # both additions
    assert win.state.style.name == "watercolor"
    assert win.state.params.as_json_values() == edited
    assert win.editor.undo()  # and the edits before the chain changes are still there
    assert win.state.params["saturation"] != 1.1
    assert win.editor.redo() and win.editor.redo()
    assert win.state.style.name == "denoise+watercolor"
    assert dialogs.calls == []
    win.close()


def test_a_preset_saved_after_a_chain_edit_holds_the_values_shown(
        qtbot: Any, config: Path, dialogs: Dialogs, media: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """Saving a preset once the chain (or style) changed writes the values on screen, for the
    chain on screen: it wrote the values the first style had when the window opened, so the
    preset chosen again (or given to `aquarelle render --preset FILE`) was another look."""
    import numpy as np
    from test_gui_fidelity import cli_render, shown

    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["image"])
    win.chain_panel.add_style("sharpen")
    win.param_panel.set_value("watercolor.dilution", 0.72)
    win.param_panel.set_value("sharpen.amount", 1.7)
    on_screen = win.state.params.as_json_values()
    preset = win.presets.save_as("Mine")
    assert preset.values == on_screen
    assert preset.path is not None and preset.path.parent.name == "watercolor+sharpen"
    win.param_panel.reset_all()
    assert win.presets.select("Mine") is not None
    assert win.state.params.as_json_values() == on_screen
    picture = shown(qtbot, win)  # before the CLI's own EGL context comes and goes
    expected = cli_render(media["image"], tmp_path / "cli.png", "--preset", str(preset.path))
    d = np.abs(picture.astype(int) - expected.astype(int))
    assert d.max() <= 1, (d.max(), d.mean())
    win.close()


def test_a_chain_edit_keeps_the_subject_found_in_the_still(
        qtbot: Any, config: Path, dialogs: Dialogs, tmp_path: Path) -> None:  # noqa: F811
    """A chain edit on a portrait paints it with its subject at once, as `aquarelle render`
    does: the faces found in the still stay found (the new pipeline painted it without them,
    vignette and focus gone, until they were found again)."""
    import cv2
    import numpy as np
    from skimage import data
    from test_gui import grab
    from test_gui_fidelity import cli_render, shown

    portrait = tmp_path / "portrait.png"
    cv2.imwrite(str(portrait), cv2.resize(data.astronaut(), (200, 200),
                                          interpolation=cv2.INTER_AREA)[:, :, ::-1])
    win: MainWindow = make_window(qtbot, config)
    win.resize(900, 640)
    assert win.open_file(portrait)
    vp = win.viewport
    qtbot.waitUntil(lambda: vp.has_frame, timeout=TIMEOUT)
    grab(win)
    qtbot.waitUntil(lambda: not vp.subjects.waiting, timeout=TIMEOUT)
    grab(win)
    assert vp.pipeline is not None and vp.pipeline.last_subject is not None
    win.chain_panel.add_style("denoise")
    grab(win)  # the first paint of the new pipeline
    assert vp.pipeline.style.name == "denoise+watercolor"
    assert vp.pipeline.last_subject is not None
    assert not vp.subjects.waiting
    picture = shown(qtbot, win)
    expected = cli_render(portrait, tmp_path / "cli.png", "--style", "denoise+watercolor")
    d = np.abs(picture.astype(int) - expected.astype(int))
    assert d.max() <= 1, (d.max(), d.mean())
    assert not dialogs.calls
    win.close()


def test_a_style_round_trip_shows_the_preset_its_values_came_from(
        qtbot: Any, config: Path, dialogs: Dialogs, media: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """Back on a style, the chooser, the modified flag, the values and the picture agree:
    sepia, then adjust, then denoise+watercolor (its watercolor at its defaults), then
    watercolor again took the chain's watercolor values (the defaults) but still said
    "Sepia", unmodified, while the picture (and an export) was the default look. The values
    a style shows go along with it, and the preset they came from with them: straight from
    sepia into the chain and back, it is Sepia all the way, as `aquarelle render` paints it."""
    import numpy as np
    from test_gui_fidelity import assert_same, cli_render, shown

    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["image"])
    presets, editor, state = win.presets, win.editor, win.state

    def look_of(name: str) -> dict[str, Any]:
        """The values choosing preset `name` of the style shown gives."""
        looks = presets.looks()[1:]
        return next(look for p, look in zip(presets.presets, looks, strict=True) if p.name == name)

    assert presets.select("sepia") is not None
    for name in ("adjust", "denoise+watercolor", "watercolor"):
        assert win.set_style(name)
        assert presets.combo.currentText() == "Default"
        assert (editor.preset, editor.modified) == (None, False)
        assert state.params.as_json_values() == state.params.defaults_json()
    round_trip = shown(qtbot, win)

    assert presets.select("sepia") is not None
    pictures = []
    for name in ("denoise+watercolor", "watercolor"):
        assert win.set_style(name)
        assert presets.combo.currentText() == "Sepia"
        assert (editor.preset, editor.modified) == ("sepia", False)
        assert state.params.as_json_values() == look_of("sepia")
        pictures.append(shown(qtbot, win))

    out = tmp_path / "cli.png"  # (the pictures read back before its EGL context comes and goes)
    assert_same(round_trip, cli_render(media["image"], out, "--style", "watercolor"))
    sepia = cli_render(media["image"], out, "--style", "watercolor", "--preset", "sepia")
    assert np.abs(round_trip.astype(int) - sepia.astype(int)).mean() > 5  # another look
    assert_same(pictures[1], sepia)
    assert_same(pictures[0], cli_render(media["image"], out, "--style", "denoise+watercolor",
                                        "--preset", "sepia"))
    win.close()


def test_a_chain_presets_command_line_names_its_chain(
        qtbot: Any, config: Path, dialogs: Dialogs, media: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """The preset chooser's tooltip gives a command line that finds the preset: a chain's
    user preset needs its --style (`--preset NAME` alone looks among the watercolor's and
    fails), a name with a space needs quotes."""
    import shlex
    import subprocess
    import sys

    win: MainWindow = make_window(qtbot, config)
    win.chain_panel.add_style("sharpen")
    win.presets.save_as("My look")
    combo = win.presets.combo
    tip = str(combo.itemData(combo.currentIndex(), Qt.ItemDataRole.ToolTipRole))
    line = tip.split("(Command line: ", 1)[1].rstrip(")")
    assert line == "--style watercolor+sharpen --preset 'My look'"
    out = tmp_path / "out.png"
    # in its own process: the CLI's EGL context would come and go on the window's thread
    run = subprocess.run([sys.executable, "-m", "aquarelle", "render", str(media["image"]),
                          "-o", str(out), "-q", *shlex.split(line)], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert out.is_file()
    win.close()


def test_a_style_presets_command_line_in_a_chain_paints_what_the_window_shows(
        qtbot: Any, config: Path, dialogs: Dialogs, media: dict[str, Path],  # noqa: F811
        tmp_path: Path) -> None:
    """A watercolor preset chosen in enhance+watercolor leaves the enhance's values as they
    are: its tooltip's command line gave them at their defaults, another picture (trial X,
    finding 8: 124 levels apart at most); the chooser's picture of it alike."""
    import shlex
    import subprocess
    import sys

    import cv2
    from test_gui_fidelity import assert_same, shown

    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["image"])
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        win.chain_panel.add_style("enhance")
    win.chain_panel.list.setCurrentRow(win.chain_panel.names().index("enhance"))
    if win.chain_panel.names()[0] != "enhance":
        win.chain_panel.move_selected(-1)
    assert win.state.style.name == "enhance+watercolor"
    win.editor.apply_preset(win.presets.select("vivid"))
    win.param_panel.set_value("enhance.gamma", 1.4)
    win.param_panel.set_value("enhance.amount", 0.3)
    win.seed_spin.setValue(7)  # (the seed and the scale too: trial W7, finding 1)
    assert win.state.seed == 7
    assert win.presets.combo.currentText() == "Vivid"  # (its values are the watercolor's)
    painted = shown(qtbot, win)
    win.presets._opening()  # the list opens: its tooltips and pictures as choosing makes them
    combo = win.presets.combo
    tip = str(combo.itemData(combo.currentIndex(), Qt.ItemDataRole.ToolTipRole))
    line = tip.split("(Command line: ", 1)[1].rstrip(")")
    assert line == ("--style enhance+watercolor --preset 7_vivid --set enhance.amount=0.3 "
                    "--set enhance.gamma=1.4 --seed 7")
    vivid = next(k for k, p in enumerate(win.presets.presets) if p.name == "vivid")
    assert win.presets.looks()[1 + vivid] == win.state.params.as_json_values()
    out = tmp_path / "out.png"
    run = subprocess.run([sys.executable, "-m", "aquarelle", "render", str(media["image"]),
                          "-o", str(out), "-q", *shlex.split(line)], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert_same(painted, cv2.imread(str(out))[:, :, ::-1])
    win.close()


def test_side_by_side_compare_shows_the_original_as_big_as_a_view_of_the_pair(
        qtbot: Any, config: Path, dialogs: Dialogs, media: dict[str, Path]) -> None:  # noqa: F811
    """C with a side-by-side stereo pair: the original at the scale of each view (it was
    fitted on its own, twice as big), and at "Actual pixels" its own pixels beside the
    pair's (it was drawn at 200% while the status bar said 100%)."""
    import numpy as np
    from test_gui import grab, scene
    from test_gui_polish import picture_box

    from aquarelle.ui.view_transform import CompareMode

    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["image"])
    vp = win.viewport
    with qtbot.waitSignal(vp.rendered, timeout=TIMEOUT):
        win.set_style("stereo")
    with qtbot.waitSignal(vp.rendered, timeout=TIMEOUT):
        win.param_panel.set_value("output", "sbs")
    win.set_compare(CompareMode.SIDE_BY_SIDE)
    win.side_dock.hide()  # room for two 320 px panes
    qtbot.waitUntil(lambda: vp.view_size()[0] >= 660, timeout=TIMEOUT)

    def panes() -> tuple[tuple[int, int, int, int], tuple[int, int, int, int], np.ndarray]:
        pixels = grab(win)
        w = pixels.shape[1]
        original = pixels[:, : w // 2]
        return picture_box(original), picture_box(pixels[:, w - w // 2:]), original

    vp.fit()
    (_, _, ow, oh), (_, _, pw, ph), _ = panes()
    assert abs(ow - pw / 2) <= 1 and abs(oh - ph) <= 1
    vp.actual_pixels()
    (x, y, ow, oh), (_, _, pw, ph), original = panes()
    assert (ow, oh) == (160, 90) and (pw, ph) == (320, 90)
    assert np.array_equal(original[y:y + oh, x:x + ow], scene())
    assert win.labels.zoom.text() == "100%"
    win.close()


def test_a_looks_enlargement_is_in_the_export_sizes_and_the_files_written(
        qtbot: Any, config: Path, dialogs: Dialogs, media: dict[str, Path],  # noqa: F811
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With an upscaler the export list said "360p (640x360, enlarged from 160x90)" and the
    file was 1280x720; a still's export said the photo's size for a side-by-side pair twice
    as wide (trial X, findings 1 and 2)."""
    import av
    import cv2
    from PyQt6.QtWidgets import QFileDialog
    from test_gui_polish import export_by_keys

    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["clip"])  # 160x90
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        win.chain_panel.add_style("upscale")
    assert win.state.style.name == "watercolor+upscale"
    labels: list[str] = []

    def fill(dialog: Any) -> None:
        labels.extend(dialog.size.itemText(i) for i in range(dialog.size.count()))
        dialog.path_edit.setText(str(tmp_path / "out.mp4"))
        dialog.size.setCurrentIndex(labels.index("360p (640x360, enlarged from 160x90)"))
        dialog.accept()

    job = export_by_keys(qtbot, win, fill)
    assert job.error is None
    assert labels[0] == "Same as the source (160x90, written 320x180)"
    with av.open(str(tmp_path / "out.mp4")) as c:
        st = c.streams.video[0]
        assert (st.width, st.height) == (640, 360)  # as the list said

    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        win.set_style("stereo")
    win.param_panel.set_value("output", "sbs")
    open_and_render(qtbot, win, media["image"])  # 160x90
    dst = tmp_path / "pair.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(dst), "")))
    with qtbot.waitSignal(win.exports.stillFinished, timeout=TIMEOUT) as blocker:
        win.exports.open_dialog()
    assert blocker.args[0].error is None
    assert cv2.imread(str(dst)).shape[:2] == (90, 320)
    box = win.exports.done_box
    assert box is not None and box.text() == "Exported pair.png (320x90)"
    win.close()


def test_the_processing_scale_is_off_for_a_lone_upscale(
        qtbot: Any, config: Path, dialogs: Dialogs) -> None:  # noqa: F811
    """Super-resolution runs at full scale (renderer.scaled_styles): the Processing scale
    changed nothing for a lone upscale, yet stayed on offer."""
    win: MainWindow = make_window(qtbot, config)
    spin = win.scale_spin
    assert spin.isEnabled()
    assert win.set_style("upscale")
    assert not spin.isEnabled() and "runs at full scale" in spin.toolTip()
    assert win.set_style("denoise+upscale")  # the denoise takes it
    assert spin.isEnabled() and spin.toolTip().startswith("Processing scale")
    win.close()


def test_an_empty_debug_view_is_said_to_be(qtbot: Any, config: Path, dialogs: Dialogs,  # noqa: F811
                                           media: dict[str, Path]) -> None:  # noqa: F811
    """A stereo pair's matched disparity on one picture: its passes do not run, the view was
    black without a word (trial X, finding 11); the status bar says it is empty, once."""
    win: MainWindow = make_window(qtbot, config)
    open_and_render(qtbot, win, media["image"])
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        win.set_style("stereo")
    bar = win.statusBar()
    assert bar is not None
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        win.styles.set_debug_view("depth (nearness)")
    assert not win.viewport.debug_empty and "is empty here" not in bar.currentMessage()
    with qtbot.waitSignal(win.viewport.rendered, timeout=TIMEOUT):
        win.styles.set_debug_view("stereo pair: matched disparity")
    assert win.viewport.debug_empty
    assert bar.currentMessage() == ("View \u201cstereo pair: matched disparity\u201d is empty "
                                    "here: the passes that make it do not run for this "
                                    "picture with these settings")
    win.close()
