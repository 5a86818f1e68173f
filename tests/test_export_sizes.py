"""The size a look writes (engine.chain_spec.painted_size) and the export dialog's sizes for
looks that enlarge the frames: the file written is the size the list says (trial X,
finding 1: with an upscaler, "360p (640x360)" wrote 1280x720, "4K" aimed at 7680x4320)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from aquarelle.engine.chain_spec import load_chain, painted_size, param_set
from aquarelle.engine.renderer import Renderer
from aquarelle.ui.export_dialog import size_choices


@pytest.mark.parametrize(("style", "values"), [
    ("watercolor", {}), ("upscale", {}), ("upscale", {"factor": 4}),
    ("watercolor+upscale", {}), ("stereo", {"output": "sbs"}), ("stereo", {"output": "tb"}),
    ("stereo", {"output": "sbs_half"}), ("watercolor+stereo", {"stereo.output": "sbs"}),
    ("watercolor+upscale", {"upscale.bypass": True}),
    ("upscale+stereo", {"stereo.output": "sbs", "upscale.factor": 3}),
])
def test_the_size_a_look_paints_is_the_renderers(gl_ctx, style, values):
    spec = load_chain(style)
    params = param_set(spec)
    params.update(values)
    renderer = Renderer(gl_ctx, spec)
    try:
        renderer.params.update(params.values())
        for size in ((320, 180), (161, 97)):
            assert painted_size(spec, params.values(), size) == renderer.output_size(size)
    finally:
        renderer.release()


def twice(size: tuple[int, int]) -> tuple[int, int]:
    return size[0] * 2, size[1] * 2


def side_by_side(size: tuple[int, int]) -> tuple[int, int]:
    return size[0] * 2, size[1]


def four_times(size: tuple[int, int]) -> tuple[int, int]:
    return size[0] * 4, size[1] * 4


def test_an_enlarged_size_never_overshoots_its_frame():
    """x4: 854/4 = 213.5 painted as 214 wrote 856x480 for 480p (the stop-59 verifier)."""
    for label, size in size_choices((320, 180), Fraction(1), four_times)[1:]:
        out = four_times(size)
        frame = {"4K": (3840, 2160), "1080p": (1920, 1080), "720p": (1280, 720),
                 "480p": (854, 480), "360p": (640, 360)}[label.split(" ")[0]]
        assert out[0] <= frame[0] and out[1] <= frame[1], label


@pytest.mark.parametrize(("painted", "listed", "at"), [
    (twice, ["Same as the source (320x180, written 640x360)",
             "4K (3840x2160, enlarged from 320x180)", "1080p (1920x1080, enlarged from 320x180)",
             "720p (1280x720, enlarged from 320x180)", "480p (852x480, enlarged from 320x180)",
             "360p (640x360, the source's size)"],
     [None, (1920, 1080), (960, 540), (640, 360), (426, 240), (320, 180)]),
    # (a video's frames are painted at an even size: 854 would be 2 x 427, so 480p is 852)
    # a stereo pair side by side: the pair (32:9) fitted in the frame
    (side_by_side, ["Same as the source (320x180, written 640x180)",
                    "4K (3840x1080, enlarged from 320x180)",
                    "1080p (1920x540, enlarged from 320x180)",
                    "720p (1280x360, enlarged from 320x180)",
                    "480p (852x240, enlarged from 320x180)",
                    "360p (640x180, the source's size)"],
     [None, (1920, 1080), (960, 540), (640, 360), (426, 240), (320, 180)]),
])
def test_an_enlarging_looks_sizes_are_the_files_written(painted, listed, at):
    choices = size_choices((320, 180), Fraction(1), painted)
    assert [label for label, _ in choices] == listed
    assert [size for _, size in choices] == at
    for (label, size), frame in zip(choices[1:], ((3840, 2160), (1920, 1080), (1280, 720),
                                                 (854, 480), (640, 360)), strict=True):
        out = painted(size)
        assert f"({out[0]}x{out[1]}" in label and out[0] <= frame[0] and out[1] <= frame[1]


@pytest.mark.parametrize(("style", "values", "views"), [
    ("watercolor", {}, (1, 1)), ("stereo", {"output": "anaglyph"}, (1, 1)),
    ("stereo", {"output": "sbs"}, (2, 1)), ("stereo", {"output": "sbs_half"}, (2, 1)),
    ("stereo", {"output": "tb"}, (1, 2)),
    ("watercolor+stereo+upscale", {"stereo.output": "sbs_half"}, (2, 1)),
    ("watercolor+stereo", {"stereo.output": "tb", "stereo.bypass": True}, (1, 1)),
    # a pair taken in (input sbs) and painted as one anaglyph
    ("stereo", {"input": "sbs", "output": "anaglyph"}, (1, 1)),
])
def test_the_views_a_look_paints(style, values, views):
    from aquarelle.engine.chain_spec import painted_views

    spec = load_chain(style)
    params = param_set(spec)
    params.update(values)
    assert painted_views(spec, params.values()) == views


def test_an_odd_size_says_the_codecs_padding():
    """An odd picture is written padded to the codec's chroma grid (161 -> 162 in 4:2:0):
    the list said 'written 161x182' for a file of 162x182 (trial W7)."""
    from aquarelle.media.video_writer import CODECS, encoded_size

    def pads(codec: str):
        return lambda s: encoded_size(*s, CODECS[codec])

    odd = size_choices((161, 182), Fraction(1), None, pads("h264"))
    assert odd[0][0] == "Same as the source (161x182, padded to 162x182)"
    assert all("padded" not in label for label, _ in odd[1:])  # (painted at even sizes)
    pair = size_choices((161, 182), Fraction(1), side_by_side, pads("h264"))
    assert pair[0][0] == "Same as the source (161x182, written 322x182)"
    # (ProRes' 4:2:2 has every line: an odd height is written as it is)
    assert size_choices((162, 181), Fraction(1), None, pads("h264"))[0][0] == \
        "Same as the source (162x181, padded to 162x182)"
    assert size_choices((162, 181), Fraction(1), None, pads("prores"))[0][0] == \
        "Same as the source (162x181)"


def test_the_dialogs_list_follows_the_codec(qtbot, tmp_path):
    from aquarelle.ui.export_dialog import ExportDialog
    from aquarelle.ui.settings import ExportMemory

    dialog = ExportDialog(tmp_path / "odd.mp4", tmp_path, 1.0, 0.0, size=(162, 181),
                          remembered=ExportMemory(codec="h264", container=".mov"))
    qtbot.addWidget(dialog)
    assert dialog.size.itemText(0) == "Same as the source (162x181, padded to 162x182)"
    dialog.codec.setCurrentIndex(dialog.codec.findData("prores"))
    assert dialog.size.itemText(0) == "Same as the source (162x181)"
