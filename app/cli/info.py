"""`aquarelle styles`, `presets` and `params STYLE`: what can be chosen and set."""

from __future__ import annotations

import argparse
import json

from ..engine.chain_spec import load_chain
from ..engine.errors import StyleError
from ..engine.params import color_to_hex
from ..engine.presets import describe_preset, list_presets, load_preset
from ..engine.style import list_styles, load_style


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


def run_styles(args: argparse.Namespace) -> int:
    for name in list_styles():
        style = load_style(name)
        presets = ", ".join(p.name for p in list_presets(name))
        print(f"{name:14s} {style.label}: {style.description}")
        print(f"{'':14s} presets: {presets or '-'}")
    print("\nChain styles with + (each after the one before), e.g. "
          "--style denoise+enhance+watercolor; set a style's parameter as style.param.")
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
    gw = max(len("group"), *(len(p.group) for p in style.params))
    print(f"{'name':22s} {'type':6s} {'min':>7s} {'max':>7s} {'default':>8s}  "
          f"{'group':{gw}s} help")
    for p in style.params:
        if p.choices:  # a menu: its names instead of numbers
            print(f"{p.name:22s} {'choice':6s} {'':>7s} {'':>7s} "
                  f"{p.choices[int(p.default)]:>8s}  {p.group:{gw}s} "  # type: ignore[arg-type]
                  f"one of {', '.join(p.choices)}. {p.help}")
            continue
        print(f"{p.name:22s} {p.type:6s} {_fmt(p.min):>7s} {_fmt(p.max):>7s} "
              f"{_fmt(p.default):>8s}  {p.group:{gw}s} {p.help}")
    return 0
