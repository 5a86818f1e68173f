"""The `aquarelle` command line: subcommands render, styles, params, bench."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from .. import __version__
from ..engine.errors import AquarelleError
from . import bench, bench_export, bench_live, doctor, eval_cmd, info, live, render
from .signals import Terminated, terminate_like_ctrl_c

COMMANDS = (render, live, info, bench, eval_cmd, bench_export, bench_live, doctor)


class OneLineParser(argparse.ArgumentParser):
    """argparse with its errors in one line (not the whole usage first), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

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


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="aquarelle",
        description="Watercolor stylization of images, videos and webcams on the GPU. "
                    "Without a command, opens the desktop app.")
    parser.add_argument("--version", action="version", version=f"aquarelle {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input, 130 when interrupted, 128 + the
    signal's number when terminated by SIGTERM or SIGHUP)."""
    parser = build_parser()
    argv = _join_negative_values(list(sys.argv[1:] if argv is None else argv))
    mistyped = _mistyped_command(parser, argv)
    if mistyped:
        print(f"aquarelle: error: {mistyped}", file=sys.stderr)
        return 2
    file = _app_file(parser, argv)
    if file is not None:  # `aquarelle FILE` opens the desktop app on FILE
        return _open_app(parser, argparse.Namespace(command=None, file=file))
    args = parser.parse_args(argv)
    if args.command is None:
        args.file = None
        return _open_app(parser, args)
    try:
        with terminate_like_ctrl_c():
            return int(args.func(args) or 0)
    except AquarelleError as e:
        print(f"aquarelle: error: {e}", file=sys.stderr)
        return 2
    except Terminated as e:
        print(f"aquarelle: cancelled ({e}); nothing was left half-written", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        print("aquarelle: cancelled", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `aquarelle styles | head`: the reader left; so do we, quietly
        _silence_stdout()
        return 128 + 13  # as if killed by SIGPIPE, like other tools


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


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    """The subcommands' names, in the order `--help` lists them."""
    commands: list[str] = []
    for action in parser._subparsers._group_actions if parser._subparsers else []:
        commands.extend(getattr(action, "choices", None) or {})
    return commands


def _mistyped_command(parser: argparse.ArgumentParser, argv: list[str]) -> str | None:
    """What is wrong when the first argument is no command and no file: 'did you mean' for
    a name close to a command; for a lone bare word (no folder, no extension), that it is
    neither. None when it may be a file for the app, or argparse says better."""
    if not argv or argv[0].startswith("-"):
        return None
    word, commands = argv[0], _commands(parser)
    if word in commands or Path(word).exists():
        return None
    close = difflib.get_close_matches(word, commands, n=1, cutoff=0.6)
    if close:
        return f"unknown command {word!r}; did you mean {close[0]!r}?"
    if len(argv) == 1 and not Path(word).suffix and Path(word).name == word:
        return f"no command or file {word!r}; commands: {', '.join(commands)}"
    return None


def _app_file(parser: argparse.ArgumentParser, argv: list[str]) -> str | None:
    """The FILE of `aquarelle FILE`: one argument that is a file or no known command."""
    if len(argv) != 1 or argv[0].startswith("-"):
        return None
    arg = argv[0]
    return arg if Path(arg).is_file() or arg not in _commands(parser) else None


def _open_app(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:
        from ..ui import app as ui_app
    except ImportError:
        parser.print_help()
        return 0
    return ui_app.run(args)
