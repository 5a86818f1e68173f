"""`aquarelle styles`, `presets` and `params STYLE`: what can be chosen and set."""

from __future__ import annotations

import argparse
import json
import shutil
import textwrap

from ..engine.chain_spec import load_chain
from ..engine.errors import StyleError
from ..engine.params import ParamSpec, color_to_hex
from ..engine.presets import describe_preset, list_presets, load_preset, user_presets_dir
from ..engine.style import list_styles, load_style
from .common import DEFAULT_STYLE

MIN_HELP_WIDTH = 30  # narrower than this beside the table, a parameter's help goes below it


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("styles", help="list the styles and their presets")
    p.set_defaults(func=run_styles)
    p = sub.add_parser("presets", help="list a style's presets, or show one's values",
                       description="`aquarelle presets [STYLE]` lists the presets; "
                                   "`aquarelle presets show NAME [--style STYLE]` prints the "
                                   "values of one (as --set options).")
    p.add_argument("words", nargs="*", metavar="STYLE | show NAME")
    p.add_argument("--style", default="watercolor", help="style of `show` (default watercolor)")
    p.set_defaults(func=run_presets)
    p = sub.add_parser("params", help="list a style's parameters")
    p.add_argument("style", nargs="?", default="watercolor",
                   help="a style or a chain (a+b): its parameters as style.param")
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
        preset = load_preset(words[1], args.style)
        print(f"{preset.name}: {describe_preset(preset)}")
        spec = load_chain(args.style)
        defaults = {p.name: p.default for p in spec.params}
        for name, value in preset.values.items():
            was = defaults.get(name)
            print(f"  --set {name}={value}" + (f"    (default {_fmt(was)})"
                                                if was is not None else ""))
        return 0
    if len(words) > 1:
        raise StyleError("usage: aquarelle presets [STYLE] | aquarelle presets show NAME")
    style = load_chain(words[0] if words else args.style).name
    presets = list_presets(style)
    if not presets:
        print(textwrap.fill(
            f"{style} has no presets; save one in the desktop app (Save\u2026 beside the "
            f"presets, or Ctrl+S: it goes to {user_presets_dir(style)}), or set values with "
            f"--set NAME=VALUE (see `aquarelle params {style}`)", terminal_width(),
            break_on_hyphens=False, break_long_words=False))
        return 0
    width = max((len(p.name) for p in presets), default=0)
    for preset in presets:
        print(f"{preset.name:{width}s}  {describe_preset(preset)}")
    return 0


def _fmt(v: object) -> str:
    if isinstance(v, tuple):
        return color_to_hex(v)  # type: ignore[arg-type]
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
        default = p.choices[int(p.default)]  # type: ignore[arg-type]
        return f"{p.name:{nw}s} {'choice':6s} {'':>7s} {'':>7s} {default:>8s}  {p.group:{gw}s} "
    return (f"{p.name:{nw}s} {p.type:6s} {_fmt(p.min):>7s} {_fmt(p.max):>7s} "
            f"{_fmt(p.default):>8s}  {p.group:{gw}s} ")


def _param_help(p: ParamSpec) -> str:
    return f"one of {', '.join(p.choices)}. {p.help}" if p.choices else p.help
