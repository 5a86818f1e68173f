"""`aquarelle bench-export`: runs, prints a Markdown table, replaces only its own section."""

from __future__ import annotations

import types

import pytest

from aquarelle.cli import bench_export
from aquarelle.cli.main import main

STYLIZATION = "cv2.stylization (sigma_s=60, sigma_r=0.45)"


@pytest.fixture(autouse=True)
def _shared_context_current_again(gl_ctx):
    yield
    gl_ctx.__enter__()  # the command made and released its own context


def test_bench_export_writes_its_section(tmp_path, capsys):
    md = tmp_path / "BENCHMARKS.md"
    md.write_text("# Benchmarks\n\nintro\n\n<!-- bench:frame:begin -->\nframe table\n"
                  "<!-- bench:frame:end -->\n\n<!-- bench:export:begin -->\nold\n"
                  "<!-- bench:export:end -->\n\ntail\n")
    code = main(["bench-export", "--seconds", "0.2", "--size", "64x48", "--write", str(md)])
    out = capsys.readouterr().out
    assert code == 0
    text = md.read_text()
    assert "old" not in text and "frame table" in text and text.endswith("tail\n")
    section = text.split("<!-- bench:export:begin -->")[1].split("<!-- bench:export:end -->")[0]
    assert section.strip() in out
    for needle in ("GL renderer: `", "Command: `aquarelle bench-export --seconds 0.2 --size 64x48`",
                   "| aquarelle, pipelined", "| aquarelle, sequential",
                   f"| OpenCV per frame (decode → {STYLIZATION} → encode) |", "| 6 |",
                   f"Export time relative to the OpenCV loop's (decode → {STYLIZATION} → "
                   "encode): **", "(target: at most 0.35, "):
        assert needle in section


def test_bench_export_repeats_alternately_and_reports_medians(tmp_path, capsys):
    code = main(["bench-export", "--seconds", "0.1", "--size", "48x32", "--repeat", "3"])
    out = capsys.readouterr().out
    assert code == 0
    lines = [ln.split(":")[0] for ln in out.splitlines()
             if ln.startswith(("pipelined:", "sequential:", f"OpenCV ({STYLIZATION}):"))]
    assert lines == ["pipelined", "sequential", "OpenCV (cv2.stylization (sigma_s=60, "
                     "sigma_r=0.45))"] + 2 * ["pipelined", "OpenCV (cv2.stylization (sigma_s=60, "
                                              "sigma_r=0.45))"]
    assert "median of 3 alternating runs" in out and "--repeat 3" in out


def test_bench_export_times_the_styles_own_opencv_call(capsys):
    """Canny edges against cv2.Canny (grey frames encoded), not cv2.stylization, and no
    watercolor target to miss (it said 'not met' against the stylization)."""
    code = main(["bench-export", "--style", "edges", "--set", "mode=canny", "--seconds", "0.1",
                 "--size", "48x32"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Command: `aquarelle bench-export --style edges --set mode=canny --seconds 0.1 " \
           "--size 48x32`" in out
    assert "Style `edges`, preset `defaults` with `--set mode=canny`, scale 1." in out
    canny = "cv2.Canny (L2 gradient, thresholds 50/150)"
    assert f"| OpenCV per frame (decode → {canny} → encode) | 3 |" in out, out
    assert f"Export time relative to the OpenCV loop's (decode → {canny} → encode): **" in out
    assert "(no target: the 0.35 is the watercolor's against cv2.stylization)." in out
    assert "stylization per frame" not in out and "met)" not in out


def test_a_chains_export_is_compared_with_its_styles_calls_in_turn():
    args = types.SimpleNamespace(preset=None, sets=["factor=4"], seed=0, scale=1.0, seconds=1,
                                 size="1280x720", fps=30, repeat=1, no_cv2=False,
                                 style="denoise+upscale", background=None, encoder="auto",
                                 decoder="auto", photo=None)
    rows = [("pipelined", 30, 3.0, {}), ("cv2", 30, 2.0, {})]
    md = bench_export._markdown(args, "denoise+upscale", "llvmpipe", (1280, 720), 30, rows,
                                {"denoise.sigma": 2.0, "upscale.factor": 4.0})
    calls = "cv2.bilateralFilter (d from sigma 2, sigma_color 40) then cv2.resize x4 bicubic"
    assert f"| OpenCV per frame (decode → {calls} → encode) | 30 | 2.0 |" in md
    assert f"(decode → {calls} → encode): **1.500** (no target: " in md
    assert "stylization per frame" not in md
