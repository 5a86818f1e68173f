"""`aquarelle styles`, `presets` and `params STYLE`: what can be chosen and set."""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import shutil
import sys
import textwrap
import unicodedata
from pathlib import Path

from ..engine.chain_spec import load_chain, param_set
from ..engine.errors import StyleError
from ..engine.params import ParamSpec
from ..engine.presets import (
    Preset,
    apply_preset,
    describe_preset,
    list_presets,
    preset_problem,
    user_presets_dir,
)
from ..engine.style import list_styles, load_style
from ..resources import assets_dir
from .common import DEFAULT_STYLE, look_preset, preset_for

MIN_HELP_WIDTH = 30  # narrower than this beside the table, a parameter's help goes below it
NAME_COLUMN = 28  # preset names: a longer one gets a line of its own, the column stays put


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("styles", help="list the styles and their presets")
    p.set_defaults(func=run_styles)
    p = sub.add_parser("presets", help="list a style's presets, or show one's values",
                       description="`aquarelle presets [STYLE]` lists the presets; "
                                   "`aquarelle presets show NAME [--style STYLE]` prints the "
                                   "values of one (as --set options).")
    p.add_argument("words", nargs="*", metavar="STYLE | show NAME")
    p.add_argument("--style", help="style of `show` (default: the preset's, as `render "
                                   "--preset NAME` finds it; else watercolor)")
    p.set_defaults(func=run_presets)
    p = sub.add_parser("params", help="list a style's parameters")
    p.add_argument("style", nargs="?", default="watercolor",
                   help="a style or a chain (a+b): its parameters as style.param "
                        "(default: watercolor)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run_params)


def terminal_width() -> int:
    """Columns to wrap to: the terminal's (or $COLUMNS; 80 when not a terminal)."""
    return max(40, shutil.get_terminal_size().columns)


def hanging(first: str, text: str, indent: int, width: int) -> str:
    """`text` after `first`, wrapped to `width`; later lines indented by `indent`."""
    return textwrap.fill(text, width, initial_indent=first, subsequent_indent=" " * indent,
                         break_on_hyphens=False, break_long_words=False)


def run_styles(args: argparse.Namespace) -> int:
    width = terminal_width()
    for name in sorted(list_styles(), key=lambda n: (n != DEFAULT_STYLE, n)):  # main first
        style = load_style(name)
        presets = ", ".join(p.name for p in list_presets(name))
        print(hanging(f"{name:14s} ", f"{style.label}: {style.description}", 15, width))
        print(hanging(f"{'':14s} ", f"presets: {presets or '-'}", 15, width))
    print()
    print(textwrap.fill("Chain styles with + (each after the one before), e.g. "
                        "--style denoise+enhance+watercolor; set a style's parameter as "
                        "style.param.", width, break_on_hyphens=False))
    return 0


def run_presets(args: argparse.Namespace) -> int:
    words = list(args.words)
    if words and words[0] == "show":
        if len(words) != 2:
            raise StyleError("usage: aquarelle presets show NAME [--style STYLE]")
        return _show_preset(words[1], args.style)
    if len(words) > 1:
        raise StyleError("usage: aquarelle presets [STYLE] | aquarelle presets show NAME")
    style = load_chain(words[0] if words else args.style or DEFAULT_STYLE)
    presets = list_presets(style.name)
    if not presets:
        print(textwrap.fill(
            f"{style.name} has no presets; save one in the desktop app (Save\u2026 beside the "
            f"presets, or Ctrl+S: it goes to {user_presets_dir(style.name)}), or set values "
            f"with --set NAME=VALUE (see `aquarelle params {style.name}`)", terminal_width(),
            break_on_hyphens=False, break_long_words=False))
        return 0
    width = max((n for n in map(columns, (p.name for p in presets)) if n <= NAME_COLUMN),
                default=0)
    for preset in presets:
        problem = preset_problem(preset, param_set(style))
        # the full message (with every valid name) is `presets show`'s to give
        broken = f" (broken: {problem.split('; valid ')[0]})" if problem else ""
        about = f"{_describe(preset)}{broken}"
        room = width - columns(preset.name)
        if room < 0:  # the whole name (it is what --preset takes), its description below
            print(preset.name)
            print(f"{'':{width}s}  {about}")
        else:
            print(f"{preset.name}{' ' * room}  {about}")
    return 0


def columns(text: str) -> int:
    """The terminal columns `text` takes: wide characters (CJK, emoji) two, combining
    marks none."""
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def _show_preset(name: str, style_name: str | None) -> int:
    """A preset's values as --set options to paste, found as `render --preset` finds it."""
    style_found, loaded = look_preset(style_name, name)
    style = load_chain(style_found)
    preset = preset_for(loaded, name, style.name)
    params = param_set(style)
    for warning in apply_preset(preset, params):
        print(f"aquarelle: warning: {warning}", file=sys.stderr)
    print(f"{preset.name}: {_describe(preset)}")
    if style.name != DEFAULT_STYLE:  # the --set names are this style's
        print(f"  --style {shlex.quote(style.name)}")
    for key in preset.values:
        spec = params.spec(key)
        value = spec.as_text(params[key])  # as checked: clamped, a menu's choice by name
        print(f"  --set {key}={shlex.quote(value)}    (default {spec.as_text(spec.default)})")
    return 0


def _describe(preset: Preset) -> str:
    """describe_preset, "yours" for a user's file also where a chain lists it (read-only
    there, so marked built in): the file says whose it is."""
    if preset.builtin and preset.path is not None and not _is_builtin_file(preset.path):
        preset = dataclasses.replace(preset, builtin=False)
    return describe_preset(preset)


def _is_builtin_file(path: Path) -> bool:
    try:
        return path.resolve().is_relative_to((assets_dir() / "presets").resolve())
    except OSError:
        return True


def _fmt(v: object) -> str:
    return "-" if v is None else f"{v:g}" if isinstance(v, float) else str(v)


def run_params(args: argparse.Namespace) -> int:
    style = load_chain(args.style)
    if args.json:
        print(json.dumps([p.as_dict() for p in style.params], indent=2))
        return 0
    width = terminal_width()
    nw = max(22, *(len(p.name) for p in style.params))
    gw = max(len("group"), *(len(p.group) for p in style.params))
    head = f"{'name':{nw}s} {'type':6s} {'min':>7s} {'max':>7s} {'default':>8s}  {'group':{gw}s} "
    below = width - len(head) < MIN_HELP_WIDTH
    print(head.rstrip() if below else head + "help")
    for p in style.params:
        row = _param_row(p, nw, gw)
        if below:
            print(row.rstrip())
            print(hanging("    ", _param_help(p), 4, width))
        else:
            print(hanging(row, _param_help(p), len(row), width))
    return 0


def _param_row(p: ParamSpec, nw: int, gw: int) -> str:
    """A parameter's table columns, up to its help."""
    if p.choices:  # a menu: its names instead of numbers
        return (f"{p.name:{nw}s} {'choice':6s} {'':>7s} {'':>7s} {p.as_text(p.default):>8s}  "
                f"{p.group:{gw}s} ")
    return (f"{p.name:{nw}s} {p.type:6s} {_fmt(p.min):>7s} {_fmt(p.max):>7s} "
            f"{p.as_text(p.default):>8s}  {p.group:{gw}s} ")


def _param_help(p: ParamSpec) -> str:
    return f"one of {', '.join(p.choices)}. {p.help}" if p.choices else p.help
