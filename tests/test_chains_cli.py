"""Chains on the command line: `--style a+b`, `--set style.param`, chain presets; one-line
errors. (Apart from test_chains.py: each command opens and releases its own GL context.)"""

from __future__ import annotations

import json
from pathlib import Path

import av
import cv2
import numpy as np
import skimage.data

from aquarelle.cli.main import main


def _photo(tmp_path: Path) -> Path:
    src = tmp_path / "in.png"
    cv2.imwrite(str(src), np.ascontiguousarray(skimage.data.astronaut()[::4, ::4, ::-1]))
    return src


def _one_line_error(capsys, text: str) -> None:
    err = capsys.readouterr().err.strip()
    assert err.startswith("aquarelle render: error:") and "\n" not in err and "Traceback" not in err
    assert text in err, err


def test_unknown_style_in_a_chain_exits_2_with_one_line(tmp_path, capsys):
    out = tmp_path / "out.png"
    assert main(["render", str(_photo(tmp_path)), "-o", str(out), "--style",
                 "denoise+watercolour"]) == 2
    _one_line_error(capsys, "unknown style 'watercolour'")
    assert not out.exists()


def test_ambiguous_parameter_exits_2_with_one_line(tmp_path, capsys):
    out = tmp_path / "out.png"
    assert main(["render", str(_photo(tmp_path)), "-o", str(out), "--style",
                 "blur+sharpen", "--set", "bypass=true"]) == 2
    _one_line_error(capsys, "ambiguous parameter 'bypass'")
    assert not out.exists()


def test_another_styles_parameter_names_that_style_and_the_chain_to_ask_for(tmp_path, capsys):
    """`--set method=easu` with the watercolor listed the watercolor's names as if `method`
    were a slip; it is upscale's, and the chain said works."""
    src, out = _photo(tmp_path), tmp_path / "out.png"
    for name in ("method", "upscale.method"):
        assert main(["render", str(src), "-o", str(out), "--set", f"{name}=easu"]) == 2
        _one_line_error(capsys, f"unknown parameter '{name}': ")
        assert not out.exists()
    assert main(["render", str(src), "-o", str(out), "--set", "method=easu"]) == 2
    _one_line_error(capsys, "watercolor has none; upscale has, a style not painted here: "
                            "add it, --style watercolor+upscale")
    assert main(["render", str(src), "-o", str(out), "--style", "watercolor+upscale",
                 "--set", "method=easu", "-q"]) == 0
    assert out.exists()


def test_qualified_and_bare_names_set_the_same_value(tmp_path):
    src = _photo(tmp_path)
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    assert main(["render", str(src), "-o", str(a), "--style", "denoise+watercolor",
                 "--set", "watercolor.dilution=0.3", "-q"]) == 0
    assert main(["render", str(src), "-o", str(b), "--style", "denoise+watercolor",
                 "--set", "dilution=0.3", "-q"]) == 0
    assert np.array_equal(cv2.imread(str(a)), cv2.imread(str(b)))


def test_a_preset_file_brings_its_chain(tmp_path):
    src = _photo(tmp_path)
    preset = tmp_path / "p.json"
    preset.write_text(json.dumps({"name": "p", "style": "denoise+upscale",
                                  "values": {"upscale.factor": 3}}))
    out = tmp_path / "out.png"
    assert main(["render", str(src), "-o", str(out), "--preset", str(preset), "-q"]) == 0
    assert cv2.imread(str(out)).shape == (384, 384, 3)


def test_a_video_through_a_chain_that_changes_size(tmp_path):
    from videoclips import make_clip

    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=10).path
    out = tmp_path / "out.mp4"
    assert main(["render", str(clip), "-o", str(out), "--style", "denoise+upscale", "-q"]) == 0
    with av.open(str(clip)) as a, av.open(str(out)) as b:
        vb = b.streams.video[0]
        assert (vb.width, vb.height) == (192, 128)
        assert len(b.streams.audio) == len(a.streams.audio) == 1
        assert sum(1 for _ in b.decode(video=0)) == sum(1 for _ in a.decode(video=0))
