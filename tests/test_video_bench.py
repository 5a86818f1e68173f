"""`aquarelle bench-export`: runs, prints a Markdown table, replaces only its own section."""

from __future__ import annotations

import pytest

from aquarelle.cli.main import main


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
                   "| cv2.stylization per frame", "| 6 |",
                   "Export time relative to decode + `cv2.stylization` + encode: **"):
        assert needle in section


def test_bench_export_repeats_alternately_and_reports_medians(tmp_path, capsys):
    code = main(["bench-export", "--seconds", "0.1", "--size", "48x32", "--repeat", "3"])
    out = capsys.readouterr().out
    assert code == 0
    lines = [ln.split(":")[0] for ln in out.splitlines()
             if ln.startswith(("pipelined:", "sequential:", "cv2.stylization:"))]
    assert lines == ["pipelined", "sequential", "cv2.stylization", "pipelined",
                     "cv2.stylization", "pipelined", "cv2.stylization"]
    assert "median of 3 alternating runs" in out and "--repeat 3" in out
