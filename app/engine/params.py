"""Parameter declarations and validated parameter values.

A style declares its parameters once (name, label, type, range, default, step, group, help);
the declarations drive the GUI sliders, presets, the command line and validation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ParamError

ParamValue = float | int | bool | tuple[float, float, float] | str
PARAM_TYPES = ("float", "int", "bool", "color", "file")
_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")


@dataclass(frozen=True)
class ParamSpec:
    """One declared parameter of a style."""

    name: str
    label: str
    type: str
    default: ParamValue
    min: float | None = None
    max: float | None = None
    step: float | None = None
    group: str = "General"
    help: str = ""
    choices: tuple[str, ...] | None = None  # int parameters: names of 0, 1, ... (a menu)
    extensions: tuple[str, ...] | None = None  # file parameters: accepted suffixes ("" = none)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ParamSpec:
        if not isinstance(d, Mapping) or not isinstance(d.get("name"), str):
            raise ParamError("a parameter needs an object with a text 'name'")
        name = d["name"]
        kind = d.get("type", "float")
        if kind == "choice" and d.get("choices") is not None:
            kind = "int"  # a menu: its value is the index of a name (as `params` says)
        if kind not in PARAM_TYPES:
            raise ParamError(f"parameter {name!r}: unknown type {kind!r}")
        texts = {k: d.get(k, dflt) for k, dflt in (
            ("label", name.replace("_", " ").capitalize()), ("group", "General"),
            ("help", ""))}
        for key, value in texts.items():
            if not isinstance(value, str):
                raise ParamError(f"parameter {name!r}: {key} must be text")
        numbers = {k: d.get(k) for k in ("min", "max", "step")}
        for key, value in numbers.items():
            if value is not None and (isinstance(value, bool)
                                      or not isinstance(value, int | float)
                                      or value != value or abs(value) == float("inf")):
                raise ParamError(f"parameter {name!r}: {key} must be a finite number")
        if "default" not in d:
            raise ParamError(f"parameter {name!r}: missing key 'default'")
        choices = d.get("choices")
        if choices is not None:
            if kind != "int" or not isinstance(choices, list) or not choices or not all(
                    isinstance(c, str) and c for c in choices) or len(set(choices)) < len(choices):
                raise ParamError(f"parameter {name!r}: choices must be distinct names of an "
                                 "int parameter's values 0, 1, ...")
            choices = tuple(choices)
            numbers.update(min=0, max=len(choices) - 1, step=1)
        extensions = d.get("extensions")
        if kind == "file":
            from .lut import FILE_CHECKS

            if not isinstance(extensions, list) or not extensions \
                    or not all(e in FILE_CHECKS for e in extensions):
                raise ParamError(f"parameter {name!r}: a file parameter lists its extensions "
                                 f"(known: {', '.join(FILE_CHECKS)})")
            extensions = tuple(extensions)
            if d["default"] != "":
                raise ParamError(f"parameter {name!r}: a file parameter's default is \"\"")
        elif extensions is not None:
            raise ParamError(f"parameter {name!r}: only file parameters take extensions")
        default = d["default"]
        if choices is not None and isinstance(default, str) and default in choices:
            default = choices.index(default)
        spec = cls(name=name, label=texts["label"], type=kind,
                   default=_coerce_raw(kind, default, name), min=numbers["min"],
                   max=numbers["max"], step=numbers["step"], group=texts["group"],
                   help=texts["help"], choices=choices, extensions=extensions)
        if kind in ("float", "int") and (spec.min is None or spec.max is None):
            raise ParamError(f"parameter {spec.name!r}: numeric parameters need min and max")
        return spec

    def coerce(self, value: Any) -> tuple[ParamValue, str | None]:
        """Convert and clamp a value (or its command-line text).

        Returns the value and a warning when it was clamped. Raises ParamError when the value
        is of the wrong type.
        """
        if self.choices is not None and isinstance(value, str) \
                and value.strip() in self.choices:
            value = self.choices.index(value.strip())  # `--set method=easu`
        elif self.choices is not None and isinstance(value, str) and (
                not value.strip().lstrip("-").isdigit()
                # choices named by numbers (32, 64, 128): another number is no index
                or any(c.isdigit() for c in self.choices)):
            close = close_match(value.strip(), self.choices)
            raise ParamError(f"{self.name}: {value!r} is not one of "
                             f"{', '.join(self.choices)}"
                             + (f"; did you mean {close!r}?" if close else ""))
        val = _coerce_raw(self.type, value, self.name)
        if self.type == "file":
            return _checked_file(self, str(val)), None
        if self.type in ("float", "int"):
            lo, hi = self.min, self.max
            assert lo is not None and hi is not None
            if val < lo or val > hi:
                clamped = type(val)(min(max(val, lo), hi))
                if self.choices is not None:  # a menu's number: say which choice it became
                    return clamped, f"{self.name}={_fmt(val)} is no choice's number (0.." \
                        f"{len(self.choices) - 1}); {self.choices[int(clamped)]} taken"
                return clamped, f"{self.name}={_fmt(val)} is out of range [{_fmt(lo)}, " \
                    f"{_fmt(hi)}]; clamped to {_fmt(clamped)}"
        return val, None

    def as_text(self, value: ParamValue) -> str:
        """A value as `--set NAME=VALUE` takes it: a menu's choice by name, a colour as
        #rrggbb, a number without trailing zeros (not shell-quoted)."""
        if self.choices is not None and isinstance(value, int) \
                and 0 <= value < len(self.choices):
            return self.choices[value]
        if isinstance(value, tuple):
            return color_to_hex(value)
        if isinstance(value, bool):
            return str(value).lower()
        return _fmt(value) if isinstance(value, float) else str(value)

    def as_dict(self) -> dict[str, Any]:
        """The declaration as plain data (for JSON and the `params` command); the default
        as --set takes it where a number would not say it (a choice's name, #rrggbb)."""
        default = self.as_text(self.default) if self.choices or self.type == "color" \
            else self.default
        if self.choices:  # a menu, as `params` lists it: named choices, not numbers
            return {"name": self.name, "label": self.label, "type": "choice",
                    "default": default, "choices": list(self.choices), "group": self.group,
                    "help": self.help}
        return {
            "name": self.name, "label": self.label, "type": self.type, "default": default,
            "min": self.min, "max": self.max, "step": self.step, "group": self.group,
            "help": self.help,
            **({"extensions": list(self.extensions)} if self.extensions else {}),
        }


def _checked_file(spec: ParamSpec, path: str) -> str:
    """A file parameter's value: "" (none) or a readable file of an accepted kind."""
    from pathlib import Path

    from .lut import FILE_CHECKS

    if path == "":
        return path
    suffix = Path(path).suffix.lower()
    if suffix not in (spec.extensions or ()):
        raise ParamError(f"{spec.name}: {path!r} is not a {' or '.join(spec.extensions or ())} "
                         "file")
    if not Path(path).is_file():
        raise ParamError(f"{spec.name}: no such file {path!r}")
    FILE_CHECKS[suffix](path)  # a broken file is refused now, not at the first frame
    return str(Path(path).resolve())


def _fmt(v: float) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _coerce_raw(kind: str, value: Any, name: str) -> ParamValue:
    try:
        if kind == "float":
            if isinstance(value, bool):
                raise ValueError
            out = float(value)
            if out != out or out in (float("inf"), float("-inf")):
                raise ValueError
            return out
        if kind == "int":
            if isinstance(value, bool):
                raise ValueError
            if isinstance(value, float):
                if not value.is_integer():
                    raise ValueError
                return int(value)
            return int(str(value).strip())
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if kind == "color":
            return _parse_color(value)
        if kind == "file":
            if not isinstance(value, str):
                raise ValueError
            return value.strip()
    except (ValueError, TypeError):
        pass
    expected = {"float": "a number", "int": "a whole number", "bool": "true or false",
                "color": "a colour like #f4ecd8 or 0.96,0.93,0.85",
                "file": "a file name"}[kind]
    raise ParamError(f"{name}: {value!r} is not {expected}")


def _parse_color(value: Any) -> tuple[float, float, float]:
    if isinstance(value, str):
        m = _HEX.match(value.strip())
        if m:
            h = m.group(1)
            return tuple(int(h[i:i + 2], 16) / 255.0 for i in (0, 2, 4))  # type: ignore[return-value]
        value = value.split(",")
    comps = [float(c) for c in value]
    if len(comps) != 3 or any(not 0.0 <= c <= 1.0 for c in comps):
        raise ValueError
    return (comps[0], comps[1], comps[2])


def color_to_hex(rgb: tuple[float, float, float]) -> str:
    """Format a colour parameter as #rrggbb."""
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)


def suggest(name: str, known: Iterable[str], what: str = "names") -> str:
    """'did you mean X?' for a close name, else the list of valid ones."""
    known = sorted(known)
    close = close_match(name.replace("-", "_"), known)
    if close:
        return f"did you mean {close!r}?"
    return f"valid {what}: {', '.join(known)}"


def close_match(name: str, known: Iterable[str]) -> str | None:
    """The one of `known` that `name` is most likely a slip for, if any is close."""
    import difflib

    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return close[0] if close else None


# The installed styles' places in a chain and parameter names (style.installed_params):
# what an unknown name's message looks among for the style that has it
Installed = Mapping[str, tuple[int, set[str]]]


def _styles_with(param: str, members: list[str], installed: Installed) -> list[str]:
    """The installed styles other than `members` that have a parameter `param`."""
    return [s for s, (_, names) in installed.items() if s not in members and param in names]


def _chain_with(chain: list[str], style: str, installed: Installed) -> str:
    """The chain of styles `chain` with `style` added where it usually goes (clean-up filters
    before the painting, enlarging last: the styles' chain_order), as the app's Add does."""
    order = installed.get(style, (50, set()))[0]
    names = list(chain)
    at = next((i for i, n in enumerate(names) if installed.get(n, (50, set()))[0] > order),
              len(names))
    names.insert(at, style)
    return "+".join(names)


class ParamSet:
    """Current values of a style's parameters, always valid and within range.

    A chain's parameters are qualified (`watercolor.dilution`); a bare name (`dilution`)
    finds the one parameter of that name, and one that several styles have is refused. A
    single style's set accepts its own qualified names too when given its `scope` (the
    style's name).
    """

    def __init__(self, specs: Iterable[ParamSpec], scope: str | None = None,
                 installed: Callable[[], Installed] | None = None) -> None:
        """`installed`: the installed styles (style.installed_params), where an unknown
        name's message may name the style that has it."""
        self.specs: dict[str, ParamSpec] = {s.name: s for s in specs}
        self._installed = installed
        self._values: dict[str, ParamValue] = {n: s.default for n, s in self.specs.items()}
        self.revision = 0  # bumped on every change, so views can tell when to re-render
        self.scope = scope
        bare: dict[str, list[str]] = {}
        for n in self.specs:
            if "." in n:
                bare.setdefault(n.split(".", 1)[1], []).append(n)
        self._bare = bare

    def _resolve(self, name: str) -> str | None:
        if name in self.specs:
            return name
        if self.scope is not None and name.startswith(self.scope + "."):
            rest = name[len(self.scope) + 1:]
            if rest in self.specs:
                return rest
        found = self._bare.get(name, [])
        return found[0] if len(found) == 1 else None

    def canonical(self, name: str) -> str:
        """The declared name `name` stands for; unknown or ambiguous names are errors."""
        resolved = self._resolve(name)
        if resolved is not None:
            return resolved
        found = self._bare.get(name, [])
        if found:
            raise ParamError(f"ambiguous parameter {name!r}: say which style's, "
                             f"{' or '.join(found)}")
        raise ParamError(self._unknown(name))

    def _unknown(self, name: str) -> str:
        """What is wrong with `name`: a style not painted here, or a parameter another
        style of the chain has (`watercolor.exposure` for adjust's), else the closest name
        or the list (which suggested watercolor.temporal for watercolor.exposure)."""
        prefix, dot, rest = name.partition(".")
        installed = self._installed() if self._installed is not None else {}
        chain = list(dict.fromkeys(n.split(".", 1)[0] for n in self.specs if "." in n)) \
            or ([self.scope] if self.scope else [])  # in the chain's order
        members = sorted(chain)
        if dot and members and prefix not in members:
            said = (f"unknown parameter {name!r}: {prefix} is not a style painted here "
                    f"({', '.join(members)})")
            if prefix in _styles_with(rest, members, installed):  # (upscale.method)
                said += f": add it, --style {_chain_with(chain, prefix, installed)}"
            return said
        if not self._bare and (rest if dot and prefix == self.scope else name) == "bypass":
            # (chain_spec.BYPASS: a chain's switch per style; 'watercolor.dilution' is
            # taken from a lone watercolor, so its bypass was thought to be too)
            alone = f"{self.scope} is painted alone here" if self.scope else \
                "a lone style has none"
            return (f"unknown parameter {name!r}: bypass applies in a chain of styles (it "
                    f"leaves one of them out); {alone}")
        owners = self._bare.get(rest, []) if dot else []
        if owners:
            return f"unknown parameter {name!r}: {prefix} has none; {' or '.join(owners)} has"
        plain = rest if dot and prefix == self.scope else name  # a single style's own
        others = _styles_with(name, members, installed) if members and not dot else []
        if others:  # another style's (method, upscale's, with the watercolor alone)
            close = close_match(name, self.specs)
            return (f"unknown parameter {name!r}: {' and '.join(members)} "
                    f"{'has' if len(members) == 1 else 'have'} none; {' or '.join(others)} "
                    f"has, a style not painted here: add it, --style "
                    f"{_chain_with(chain, others[0], installed)}"
                    + (f" (or did you mean {close!r}?)" if close else ""))
        return f"unknown parameter {name!r}; {suggest(plain, self.specs)}"

    def spec(self, name: str) -> ParamSpec:
        """The declaration of `name`; an unknown name lists the valid ones."""
        return self.specs[self.canonical(name)]

    def __getitem__(self, name: str) -> ParamValue:
        return self._values[self.canonical(name)]

    def __contains__(self, name: object) -> bool:
        # (no error message built: the finish asks this of every parameter, every frame)
        return isinstance(name, str) and self._resolve(name) is not None

    def set(self, name: str, value: Any) -> str | None:
        """Set one value (clamped); returns a warning if it was clamped."""
        name = self.canonical(name)
        val, warning = self.specs[name].coerce(value)
        if self._values[name] != val:
            self._values[name] = val
            self.revision += 1
        return warning

    def update(self, values: Mapping[str, Any]) -> list[str]:
        """Set several values after validating all of them; returns clamp warnings."""
        coerced = {}
        warnings = []
        for name, value in values.items():
            name = self.canonical(name)
            val, warning = self.specs[name].coerce(value)
            coerced[name] = val
            if warning:
                warnings.append(warning)
        for name, val in coerced.items():
            if self._values[name] != val:
                self._values[name] = val
                self.revision += 1
        return warnings

    def coerce_values(self, values: Mapping[str, Any]) -> dict[str, ParamValue]:
        """`values` validated and converted (clamped) without setting them."""
        return {self.canonical(name): self.spec(name).coerce(value)[0]
                for name, value in values.items()}

    def reset(self, name: str | None = None) -> None:
        """Reset one parameter, or all of them, to the default."""
        names = [self.canonical(name)] if name else list(self.specs)
        for n in names:
            self.set(n, self.spec(n).default)

    def values(self) -> dict[str, ParamValue]:
        """A copy of all current values."""
        return dict(self._values)

    def as_json_values(self) -> dict[str, Any]:
        """Current values in a JSON-friendly form (colours as #rrggbb)."""
        return {n: color_to_hex(v) if isinstance(v, tuple) else v for n, v in self._values.items()}

    def defaults_json(self) -> dict[str, Any]:
        """The declared defaults in the JSON-friendly form of as_json_values."""
        return {n: color_to_hex(s.default) if isinstance(s.default, tuple) else s.default
                for n, s in self.specs.items()}

    def groups(self) -> dict[str, list[ParamSpec]]:
        """Declarations by group, in declaration order."""
        out: dict[str, list[ParamSpec]] = {}
        for s in self.specs.values():
            out.setdefault(s.group, []).append(s)
        return out
