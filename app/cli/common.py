"""Options shared by the commands that stylize (style, preset, parameters, seed, scale)."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..engine.chain_spec import AnyStyle, load_chain, param_set
from ..engine.errors import ParamError, StyleError
from ..engine.params import ParamSet
from ..engine.presets import Preset, apply_preset, load_preset, read_preset, user_preset_style
from ..engine.renderer import MAX_SEED, scale_applies
from ..engine.style_stage import MAX_SCALE, MIN_SCALE

DEFAULT_STYLE = "watercolor"
# --background's words for the watercolor's `background` choices
BACKGROUNDS = {"painted": "painted", "loose": "loose wash", "paper": "bare paper"}


def add_style_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--style", metavar="NAME[+NAME...]",
                   help="style, or a chain of styles joined by + (e.g. denoise+watercolor); "
                        "see `aquarelle styles`. Default: watercolor, or the chain a preset "
                        "file stores")
    p.add_argument("--preset", metavar="NAME|FILE", help="built-in or user preset, or a JSON file")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="set a parameter (repeatable; see `aquarelle params STYLE`)")
    p.add_argument("--background", choices=sorted(BACKGROUNDS),
                   help="behind a person (watercolor): painted like the rest (default), a "
                        "loose wash, or bare paper round the figure (video calls)")
    p.add_argument("--seed", type=seed_value, default=0,
                   help=f"noise seed, 0..{MAX_SEED} (default 0)")
    p.add_argument("--scale", type=float, default=1.0,
                   help=f"processing scale {MIN_SCALE}..{MAX_SCALE}: render the style at this "
                        "fraction of the input size, then upsample (faster, less detail)")


def counted(n: int, noun: str) -> str:
    """"1 frame", "2 frames"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def report_target(path: str | None, option: str = "--write") -> None:
    """A Markdown file a bench will write its table into, checked before the bench runs
    (not found unwritable after minutes of measuring)."""
    if path is None:
        return
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK) \
            or (p.exists() and not os.access(p, os.W_OK)):
        raise ParamError(f"{option} {path}: not a file that can be written")


def parse_frame_size(text: str, option: str) -> tuple[int, int]:
    """(W, H) from `WxH`, both positive: one line saying how otherwise."""
    w, sep, h = text.strip().lower().partition("x")
    try:
        size = (int(w), int(h))
        if not sep or min(size) <= 0:
            raise ValueError
    except ValueError:
        raise ParamError(f"{option} expects WIDTHxHEIGHT with positive numbers (e.g. "
                         f"1280x720), got {text!r}") from None
    return size


def positive(value: float, option: str) -> None:
    """A count, rate or length that must be above zero."""
    if not value > 0:
        raise ParamError(f"{option} must be positive, got {float(value):g}")


def in_range(value: float, low: float, high: float, option: str, what: str = "") -> None:
    """A number that must lie in low..high (`what`: for what, said after the range)."""
    if not low <= value <= high:  # (NaN is not)
        raise ParamError(f"{option} must be between {low:g} and {high:g}{what}, got "
                         f"{float(value):g}")


def seed_value(text: str) -> int:
    """--seed: a whole number in 0..MAX_SEED (a larger or negative one would silently be
    another seed's repeat); anything else is argparse's one-line error (exit status 2)."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{seed} is outside 0..{MAX_SEED}")
    return seed


def frame_rate(text: str) -> Fraction | float:
    """--fps: a fraction N/D kept exact (30000/1001) or a decimal (29.97); anything else is
    argparse's one-line error (exit status 2). Each command checks the range."""
    num, sep, den = text.strip().partition("/")
    try:
        return Fraction(int(num), int(den)) if sep else float(num)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expects a number or a fraction N/D (e.g. 25, 29.97 "
                                         f"or 30000/1001), got {text!r}") from None


def float_rate(text: str) -> float:
    """frame_rate as a float, for a camera's or a live clock's rate."""
    return float(frame_rate(text))


def command_line(name: str, args: argparse.Namespace, defaults: dict[str, object]) -> str:
    """The command as given: the options that differ from their defaults, for reports."""
    parts = [f"aquarelle {name}"]
    if getattr(args, "style", None):
        parts.append(f"--style {args.style}")
    if getattr(args, "background", None):
        parts.append(f"--background {args.background}")
    if getattr(args, "preset", None):
        parts.append(f"--preset {args.preset}")
    for item in getattr(args, "sets", []) or []:
        parts.append(f"--set {item}")
    if getattr(args, "seed", 0):
        parts.append(f"--seed {args.seed}")
    if getattr(args, "scale", 1.0) != 1.0:
        parts.append(f"--scale {args.scale:g}")
    for key, default in defaults.items():
        value = getattr(args, key)
        if value == default:
            continue
        option = f"--{key.replace('_', '-')}"
        if isinstance(value, bool):
            parts.append(option)  # a flag
        else:
            parts.append(f"{option} {value:g}" if isinstance(value, float)
                         else f"{option} {value}")
    return " ".join(parts)


def look_said(args: argparse.Namespace) -> str:
    """The preset and the values set over it, for a report's header ("preset `defaults`",
    "preset `vivid` with `--set mode=canny`")."""
    said = f"preset `{args.preset or 'defaults'}`"
    sets = getattr(args, "sets", None) or []
    return said + (" with " + ", ".join(f"`--set {item}`" for item in sets) if sets else "")


def parse_sets(sets: list[str]) -> dict[str, str]:
    """`NAME=VALUE` strings to a dict; a malformed one is a ParamError."""
    out = {}
    for item in sets:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ParamError(f"--set expects NAME=VALUE, got {item!r}")
        out[name.strip().replace("-", "_")] = value.strip()  # --set edge-width=3 works too
    return out


@dataclass(frozen=True)
class Look:
    """What the style options ask for, validated: the style (or chain) by name and loaded,
    its parameter values (preset, then --set), the seed and the processing scale."""

    name: str  # as the command line or the preset names it, e.g. "denoise+watercolor"
    style: AnyStyle
    values: dict[str, object]
    seed: int
    scale: float


def _default_style_preset(preset: str) -> Preset | None:
    """The default style's preset of this name (its own or a user's), or None."""
    try:
        return load_preset(preset, DEFAULT_STYLE)
    except StyleError:
        return None


def resolve_look(args: argparse.Namespace, sets: list[str] | None = None) -> Look:
    """The Look of the style options (`sets`: the --set items, if not the options' own).

    Values are validated against the style here, before any GL work or file is touched;
    clamped values are reported as warnings on stderr, once.
    """
    if args.preset is not None and not args.preset.strip():
        raise ParamError("--preset needs a name or a .json file (see aquarelle presets)")
    name, preset = look_preset(args.style, args.preset)
    style = load_chain(name)
    if not MIN_SCALE <= args.scale <= MAX_SCALE:
        raise ParamError(f"--scale must be between {MIN_SCALE} and {MAX_SCALE}, got {args.scale:g}")
    check = param_set(style)
    warnings = apply_preset(preset_for(preset, args.preset, style.name), check) \
        if args.preset else []
    values: dict[str, object] = {}
    given = parse_sets(args.sets if sets is None else sets)
    if getattr(args, "background", None):
        if not any(k.rsplit(".", 1)[-1] == "background" for k in check.values()):
            raise ParamError(f"--background is a choice of the watercolor; style {name} has "
                             "no background to choose")
        values["background"] = BACKGROUNDS[args.background]
        _same_background(check, args.background, given)
    values.update(given)
    for warning in warnings + check.update(values):
        print(f"aquarelle: warning: {warning}", file=sys.stderr)
    if args.scale < 1.0 and not scale_applies(style):
        print(f"aquarelle: warning: --scale {args.scale:g} does not apply to {name}: "
              "super-resolution runs at full scale (from a smaller picture it is blurrier "
              "than a plain resize); ignored", file=sys.stderr)
    return Look(name, style, check.values(), args.seed, args.scale)


def look_preset(style: str | None, preset: str | None) -> tuple[str, Preset | None]:
    """The style (or chain) the style options paint: --style, else the chain a preset file
    stores or the style of a user preset saved for another one, else the default. With it
    the preset, where finding the style loaded it (for preset_for: it is loaded once)."""
    if style is not None:
        return style, None
    if preset and Path(preset).suffix == ".json" and Path(preset).is_file():
        found = read_preset(Path(preset))
        return found.style, found  # the chain it stores
    found = _default_style_preset(preset) if preset else None
    if preset and found is None:
        return user_preset_style(preset) or DEFAULT_STYLE, None  # a chain's, saved by the app
    return DEFAULT_STYLE, found


def preset_for(loaded: Preset | None, preset: str, style: str) -> Preset:
    """The --preset `preset` for `style` (a loaded chain's name): the one look_preset
    loaded if it is for that style, else loaded now."""
    return loaded if loaded is not None and loaded.style == style \
        else load_preset(preset, style)


def _same_background(check: ParamSet, word: str, sets: dict[str, str]) -> None:
    """--background and a --set of the same parameter must agree (neither silently wins)."""
    spec = check.spec("background")
    for name, value in sets.items():
        if name in check and check.canonical(name) == check.canonical("background") \
                and spec.coerce(value)[0] != spec.coerce(BACKGROUNDS[word])[0]:
            raise ParamError(f"--background {word} and --set {name}={value} disagree; give "
                             "one of them")
