"""The command line starts with what its command needs: a still's render imports no PyAV and
no video module, `styles` none of the other commands' modules (cli/main.py imports only the
named command's module); and main.py's table of commands is the parser's."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from aquarelle.cli.main import COMMANDS, build_parser, main
from aquarelle.media.image_read import read_image
from aquarelle.media.image_write import write_image

# What only a video (or a batch, a cluster) needs
VIDEO_MODULES = {"aquarelle.media." + m for m in (
    "export", "video_reader", "video_writer", "hw_decoders", "hw_encoders", "carry", "audio",
    "subtitles", "render_stage", "runner")} | {"aquarelle.cli." + m for m in (
        "render_video", "render_frames", "render_cluster")}
# The other commands' modules
OTHER_COMMANDS = {"aquarelle.cli." + m for m in (
    "bench", "bench_export", "bench_live", "live", "eval_cmd", "doctor")}


def _run(argv: list[str], cwd: Path) -> tuple[int, set[str], str]:
    """`aquarelle ARGV` in a fresh interpreter: its exit status, the modules it imported (the
    package's and PyAV's) and its stderr."""
    code = ("import json, sys\nfrom aquarelle.cli.main import main\nrc = main(sys.argv[1:])\n"
            "print(json.dumps([rc, sorted(m for m in sys.modules "
            "if m == 'av' or m.startswith('aquarelle.'))]))\n")
    res = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                         cwd=cwd, timeout=300)
    assert res.returncode == 0, res.stderr
    rc, modules = json.loads(res.stdout.splitlines()[-1])
    return rc, set(modules), res.stderr


def test_a_still_is_rendered_without_pyav_or_the_video_modules(tmp_path):
    src, out = tmp_path / "small.png", tmp_path / "out.png"
    write_image(src, np.random.default_rng(1).integers(0, 256, (48, 64, 3), dtype=np.uint8))
    rc, modules, err = _run(["render", str(src), "-o", str(out), "-q"], tmp_path)
    assert rc == 0, err
    assert read_image(out).size == (64, 48)
    assert not modules & OTHER_COMMANDS
    assert "av" not in modules
    assert not modules & VIDEO_MODULES, sorted(modules & VIDEO_MODULES)


def test_styles_imports_no_other_command(tmp_path):
    rc, modules, err = _run(["styles"], tmp_path)
    assert rc == 0, err
    assert "aquarelle.cli.info" in modules
    assert not modules & (OTHER_COMMANDS | VIDEO_MODULES | {"aquarelle.cli.render", "av"})


def _names(parser: argparse.ArgumentParser) -> list[str]:
    """The subcommands' names, in the order --help lists them."""
    assert parser._subparsers is not None
    return [name for action in parser._subparsers._group_actions
            for name in getattr(action, "choices", None) or {}]


def test_the_table_of_commands_is_the_parsers():
    assert _names(build_parser()) == list(COMMANDS)  # every module, in --help's order
    for command, module in COMMANDS.items():  # one command: its module's commands only
        assert _names(build_parser(command)) == [c for c, m in COMMANDS.items() if m == module]


def test_the_tables_modules_are_no_commands(capsys, tmp_path, monkeypatch):
    """`info` is the module of styles, presets and params, no command: `aquarelle info`,
    `info --help` and `info FILE` say so in one line with the commands (`info --help` was
    argparse's "argument COMMAND: invalid choice"); the other modules' names point to
    their commands."""
    monkeypatch.chdir(tmp_path)
    commands = ", ".join(COMMANDS)
    said = {}
    for module in sorted(set(COMMANDS.values()) - set(COMMANDS)):
        for argv in ([module], [module, "--help"], [module, "clip.mp4"]):
            assert main(argv) == 2
            out = capsys.readouterr()
            assert out.out == "" and out.err.count("\n") == 1, out
            said[" ".join(argv)] = out.err.strip()
    assert said["info"] == f"aquarelle: error: no command or file 'info'; commands: {commands}"
    for argv in ("info --help", "info clip.mp4"):
        assert said[argv] == f"aquarelle: error: unknown command 'info'; commands: {commands}"
    assert said["eval_cmd --help"] == "aquarelle: error: unknown command 'eval_cmd'; did " \
                                      "you mean 'eval'?"
    assert said["bench_export"] == "aquarelle: error: unknown command 'bench_export'; did " \
                                   "you mean 'bench-export'?"
