"""`aquarelle bench`'s header and comparison say what was timed (trial X, finding 9): the
recorded command left out --style, the header said "preset `defaults`" under a --set, Canny
edges were timed against a Sobel, and a chain against its last style's OpenCV call alone
(denoise+enhance+watercolor+upscale against a cv2.resize: "x0.00")."""

from __future__ import annotations

import re

import numpy as np

from aquarelle.cli.bench_baselines import baseline
from aquarelle.cli.bench_frames import pan_frames
from aquarelle.cli.common import command_line, look_said
from aquarelle.cli.main import main


def _row(out: str, size: str) -> list[str]:
    line = next(x for x in out.splitlines() if x.startswith(f"| {size} |"))
    return [c.strip() for c in line.strip("|").split("|")]


def test_a_style_and_its_values_are_in_the_command_and_the_baseline(capsys):
    assert main(["bench", "--runs", "1", "--sizes", "48x32", "--style", "edges", "--set",
                 "mode=canny"]) == 0
    out = capsys.readouterr().out
    assert "Command: `aquarelle bench --style edges --set mode=canny --sizes 48x32 --runs 1`" \
        in out, out
    assert "Style `edges`, preset `defaults` with `--set mode=canny`, scale 1." in out
    assert "Baseline: cv2.Canny (L2 gradient, thresholds 50/150) on the same frames" in out
    cells = _row(out, "48x32")
    assert float(cells[3]) > 0 and not re.search(r"x0\.0+$", cells[4]), cells


def test_a_chain_is_compared_with_its_styles_calls_in_turn(capsys):
    assert main(["bench", "--runs", "1", "--sizes", "48x32", "--style", "denoise+upscale",
                 "--set", "factor=4"]) == 0
    out = capsys.readouterr().out
    assert "Command: `aquarelle bench --style denoise+upscale --set factor=4" in out
    assert "Baseline: cv2.bilateralFilter (d from sigma 2, sigma_color 40) then cv2.resize " \
           "x4 bicubic on the same frames" in out, out
    cells = _row(out, "48x32")
    assert "x0.00" not in cells[4:6], cells


def test_a_baseline_does_the_styles_job():
    """The same job: Canny's one-pixel lines, an upscale's factor, a chain's styles in
    turn (a bypassed one left out); a style with none is compared with nothing."""
    f = pan_frames(64, 48, 1)[0]
    what, canny = baseline("edges", {"mode": 1, "canny_low": 20.0, "canny_high": 60.0})
    assert what.startswith("cv2.Canny") and set(np.unique(canny(f))) <= {0, 255}
    assert baseline("edges", {"mode": 0})[0] == "cv2.Sobel magnitude"
    assert baseline("upscale", {"factor": 3.0})[1](f).shape == (144, 192, 3)
    what, chain = baseline("denoise+edges+upscale", {"edges.bypass": True,
                                                      "upscale.factor": 2.0})
    assert what == "cv2.bilateralFilter (d from sigma 2, sigma_color 40) then cv2.resize x2 " \
                   "bicubic"
    assert chain(f).shape == (96, 128, 3)
    assert baseline("nosuchstyle") is None


def test_other_benches_name_the_style_too():
    class Args:
        style, background, preset, sets, seed, scale = "adjust", None, "vivid", ["a=1"], 0, 1.0
        seconds = 2.0
    assert command_line("bench-export", Args(), {"seconds": 2.0}) == \
        "aquarelle bench-export --style adjust --preset vivid --set a=1"
    assert look_said(Args()) == "preset `vivid` with `--set a=1`"
