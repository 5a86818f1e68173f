"""The `aquarelle` command line: subcommands render, styles, params, bench."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from .. import __version__
from ..engine.errors import AquarelleError
from .signals import Terminated, terminate_like_ctrl_c

# command -> the module of this package whose add_parsers adds it, in --help's order. Only
# the named command's module is imported (`render` loads no benchmark, `styles` no render);
# all of them for --help, no command, or a first word that is none (tests/test_cli_start.py
# checks this table against the modules and what a still's render imports).
COMMANDS = {
    "render": "render", "live": "live", "styles": "info", "presets": "info",
    "params": "info", "bench": "bench", "eval": "eval_cmd", "bench-export": "bench_export",
    "bench-live": "bench_live", "doctor": "doctor",
}


def print_error(prog: str, message: object) -> int:
    """Say an error as every error of the command line is said: one line on stderr,
    `PROG: error: MESSAGE`, PROG the (sub)command's (`aquarelle live`, as argparse's own);
    returns the exit status of bad input, 2."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


class OneLineParser(argparse.ArgumentParser):
    """argparse with its errors in one line (not the whole usage first), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(print_error(self.prog, f"{message} (see {self.prog} --help)"))

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """As argparse's, but arguments nobody took are the error of the (sub)command they
        were given to: `aquarelle render ... --bogus` points to `aquarelle render --help`."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self._command_parser(parsed).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def _command_parser(self, parsed: argparse.Namespace) -> argparse.ArgumentParser:
        """The innermost subcommand's parser that `parsed` went through (eval flicker's)."""
        parser: argparse.ArgumentParser = self
        while parser._subparsers is not None:
            action = next((a for a in parser._subparsers._group_actions
                           if isinstance(a, argparse._SubParsersAction)), None)
            chosen = getattr(parsed, action.dest, None) if action is not None else None
            if chosen not in (action.choices if action is not None else {}):
                break
            parser = action.choices[chosen]
        return parser


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: with every command, or (`command`) with that one's only
    (those its module defines), which parses that command's arguments alike."""
    parser = OneLineParser(
        prog="aquarelle",
        description="Watercolor stylization of images, videos and webcams on the GPU. "
                    "Without a command, opens the desktop app.")
    parser.add_argument("--version", action="version", version=f"aquarelle {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in names:
        importlib.import_module(f"{__package__}.{name}").add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input, 130 when interrupted, 128 + the
    signal's number when terminated by SIGTERM or SIGHUP)."""
    warnings.formatwarning = _format_warning
    argv = _join_negative_values(list(sys.argv[1:] if argv is None else argv))
    mistyped = _mistyped_command(argv)
    if mistyped:
        return print_error("aquarelle", mistyped)
    file = _app_file(argv)
    if file is not None:  # `aquarelle FILE` opens the desktop app on FILE
        return _open_app(argparse.Namespace(command=None, file=file))
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    if args.command is None:
        args.file = None
        return _open_app(args)
    try:
        with terminate_like_ctrl_c():
            return int(args.func(args) or 0)
    except AquarelleError as e:  # said as argparse's errors of the command are
        return print_error(parser._command_parser(args).prog, e)
    except Terminated as e:
        print(f"aquarelle: cancelled ({e}); nothing was left half-written", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        print("aquarelle: cancelled", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `aquarelle styles | head`: the reader left; so do we, quietly
        _silence_stdout()
        return 128 + 13  # as if killed by SIGPIPE, like other tools


_python_format = warnings.formatwarning


def _format_warning(message: Warning | str, category: type[Warning], filename: str,
                    lineno: int, line: str | None = None) -> str:
    """Our own warnings (a still's unreadable colour profile) in the CLI's one line; other
    libraries' as Python writes them."""
    if category.__module__.split(".")[0] == __name__.split(".")[0]:
        return f"aquarelle: warning: {message}\n"
    return _python_format(message, category, filename, lineno, line)


def _silence_stdout() -> None:
    """Point stdout at the null device so that the flush at exit cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


# Options whose value may start with "-" (argparse would take "-1x90" for an option).
NEGATIVE_OK = ("--size",)


def _join_negative_values(argv: list[str]) -> list[str]:
    """`--size -1x90` -> `--size=-1x90`, the documented form that argparse can read."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] in NEGATIVE_OK and i + 1 < len(argv) and argv[i + 1][:2] in ("-1", "-0"):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def _mistyped_command(argv: list[str]) -> str | None:
    """What is wrong when the first argument is no command and no file: 'did you mean' for
    a name close to a command; for a bare word (no folder, no extension), that it is
    neither (alone), or no command (before more arguments: `aquarelle info --help`). None
    when it may be a file for the app, or argparse says better."""
    if not argv or argv[0].startswith("-"):
        return None
    word, commands = argv[0], list(COMMANDS)
    if word in commands or Path(word).exists():
        return None
    close = difflib.get_close_matches(word, commands, n=1, cutoff=0.6)
    if close:
        return f"unknown command {word!r}; did you mean {close[0]!r}?"
    if not Path(word).suffix and Path(word).name == word:
        what = "no command or file" if len(argv) == 1 else "unknown command"
        return f"{what} {word!r}; commands: {', '.join(commands)}"
    return None


def _app_file(argv: list[str]) -> str | None:
    """The FILE of `aquarelle FILE`: one argument that is a file or no known command."""
    if len(argv) != 1 or argv[0].startswith("-"):
        return None
    arg = argv[0]
    return arg if Path(arg).is_file() or arg not in COMMANDS else None


def _open_app(args: argparse.Namespace) -> int:
    try:
        from ..ui import app as ui_app
    except ImportError:
        build_parser().print_help()
        return 0
    return ui_app.run(args)
