"""Presets: JSON files holding a style (or chain) name and parameter values.

Built-in presets live in assets/presets/STYLE/; user presets in the user's config folder
(`user_presets_dir()`), written by the desktop app.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sys
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..claim import claim_new
from ..platforms import current_config_dir
from ..resources import assets_dir
from .chain_spec import JOIN, load_chain, param_set
from .errors import ParamError, StyleError
from .params import ParamSet, suggest
from .style import describe_error, list_styles, read_json


@dataclass
class Preset:
    """A named set of parameter values for one style, or a whole chain (`style` is then
    `a+b`, with values named `a.param`)."""

    name: str
    style: str
    values: dict[str, Any]
    description: str = ""
    builtin: bool = False
    path: Path | None = field(default=None, compare=False)
    # the name in the file, where the listing gives the preset another (`name`): it read
    # like a preset listed before it, or held control characters (files of older versions)
    saved_name: str | None = field(default=None, compare=False)

    @property
    def own_name(self) -> str:
        """The name the preset's file holds (`name` is the listing's, unique in it)."""
        return self.name if self.saved_name is None else self.saved_name

    def to_json(self) -> str:
        data = {"name": self.own_name, "style": self.style, "description": self.description,
                "values": self.values}
        return json.dumps(data, indent=2, sort_keys=False) + "\n"


def builtin_presets_dir(style: str) -> Path:
    return assets_dir() / "presets" / style


def user_presets_dir(style: str) -> Path:
    """Where user presets of `style` are kept (the system's folder for settings:
    `platforms.config_dir`; on Linux $XDG_CONFIG_HOME/aquarelle, as before)."""
    return current_config_dir() / "presets" / style


def _read(path: Path, builtin: bool) -> Preset:
    data = read_json(path, "preset")
    try:
        if not isinstance(data.get("values"), dict):
            raise ValueError("a preset needs 'style' and 'values' (an object of parameter "
                             "values)")
        return Preset(name=str(data.get("name", path.stem)), style=str(data["style"]),
                      values=dict(data["values"]), description=str(data.get("description", "")),
                      builtin=builtin, path=path)
    except (ValueError, KeyError, TypeError) as e:
        raise StyleError(f"{path}: not a preset: {describe_error(e)}") from None


def read_preset(path: Path) -> Preset:
    """A preset file (a user's), whatever style it is for."""
    return _read(path, False)


def importable(path: Path) -> Preset:
    """The preset in a file a user brings (to copy among their own): a preset file
    (`read_preset`) for a style, or chain, installed here, its values fit for it and its name
    fit to save (`check_preset_name`; spaces at its ends dropped); else a StyleError that
    names the file."""
    preset = read_preset(path)
    installed = set(list_styles())
    if any(part not in installed for part in preset.style.split(JOIN)):
        raise StyleError(f"{path}: the preset “{preset.name[:NAME_CHARS]}” is for the style "
                         f"{preset.style[:60]!r}, which is not installed here")
    problem = preset_problem(preset, param_set(load_chain(preset.style)))
    if problem is not None:
        raise StyleError(f"{path}: {problem}")
    try:
        preset.name = check_preset_name(preset.name)
    except StyleError as e:
        raise StyleError(f"{path}: {e}") from None
    return preset


def export_preset(preset: Preset, dest: Path) -> None:
    """Write `preset` to the file `dest` (any name the user gives), atomically: a preset
    file to import elsewhere or give to `render --preset FILE`. A StyleError in a few words
    where it cannot be written."""
    try:
        fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".preset-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(preset.to_json())
            os.chmod(tmp, 0o644)  # (mkstemp's 0600: a file to give to others)
            os.replace(tmp, dest)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as e:
        raise StyleError(f"cannot export preset “{preset.own_name}” to {dest}: "
                         f"{_why(e)}") from None


def _numbered(path: Path) -> tuple[int, str]:
    """Built-in files sort by their number prefix (2_ before 10_), then by name."""
    head, _, _ = path.stem.partition("_")
    return (int(head) if head.isdigit() else 1 << 30, path.stem)


def list_presets(style: str, user_dir: Path | None = None, *,
                 warn: Callable[[str], None] | None = None) -> list[Preset]:
    """Built-in presets (in a fixed order) followed by the user's, for one style. A chain
    (`a+b`) lists its own, then each of its styles' presets addressed to that style
    (`watercolor.dilution`), read-only there. `user_dir` is the style's folder among the
    user's preset folders (STYLE/ under the base). A broken user file is left out and
    reported to `warn` (default: one warning line on stderr per file and problem)."""
    out = [_read(p, True) for p in sorted(builtin_presets_dir(style).glob("*.json"),
                                          key=_numbered)]
    udir = user_dir or user_presets_dir(style)
    if udir.is_dir():
        mine = []
        for p in sorted(udir.glob("*.json")):
            try:
                mine.append(_read(p, False))
            except StyleError as e:  # a broken user file must not hide the others
                (warn or _warn_once)(f"{e}; skipped")
        _name_apart(mine, {preset_key(p.name): p for p in out})
        out.extend(mine)
    members = style.split(JOIN)
    if len(members) > 1:
        for member in members:
            mdir = user_dir.parent / member if user_dir is not None else None
            out.extend(_for_chain(p, style) for p in list_presets(member, mdir, warn=warn))
    return out


def _name_apart(mine: list[Preset], taken: dict[str, Preset]) -> None:
    """Give each of the user's presets a name no other listed one reads like (`taken`:
    built-ins' keys). Saving never makes two such presets, older versions did ("My look",
    "my look"), or a file made them: where a name reads like a built-in's or an earlier
    file's, the preset is listed as "NAME (yours)" or "NAME (FILE.json)" (never hidden,
    never two entries alike). Control characters are shown as symbols ("line1␊line2")."""
    kept = set()
    for preset in mine:
        key = preset_key(_printable(preset.name))
        if key not in taken:
            taken[key] = preset
            kept.add(id(preset))
    for preset in mine:
        name = _printable(preset.name)
        if id(preset) not in kept:
            file = _printable(preset.path.name) if preset.path is not None else "file"
            first = "(yours)" if taken[preset_key(name)].builtin else f"({file})"
            tails = itertools.chain((first, f"({file})"),
                                    (f"({file}, {n})" for n in itertools.count(2)))
            name = next(f"{name} {t}" for t in tails if preset_key(f"{name} {t}") not in taken)
            taken[preset_key(name)] = preset
        if name != preset.name:
            preset.saved_name, preset.name = preset.name, name


def _printable(name: str) -> str:
    """`name` with its control characters as their symbols (U+2400...), else as U+FFFD."""
    return "".join(c if not _control(c) else chr(0x2400 + ord(c)) if ord(c) < 0x20
                   else "\u2421" if c == "\x7f" else "\ufffd" for c in name)


def _control(c: str) -> bool:
    """A character that breaks a line or the text around it (line breaks, tabs, escapes)."""
    return unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp")


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    # The app lists presets again on every change; one line per broken file is enough.
    if message not in _warned:
        _warned.add(message)
        print(f"aquarelle: warning: {message}", file=sys.stderr)


def _for_chain(preset: Preset, chain: str) -> Preset:
    """A style's preset addressed to that style inside `chain` (not editable there)."""
    return Preset(name=preset.name, style=chain, builtin=True, path=preset.path,
                  saved_name=preset.saved_name,
                  description=f"{preset.style}: {preset.description or 'no description'}",
                  values={f"{preset.style}.{k}": v for k, v in preset.values.items()})


def load_preset(name_or_file: str | Path, style: str, user_dir: Path | None = None) -> Preset:
    """A preset by name (built-in or user) or from a JSON file path, for `style` (a style
    or a chain `a+b`).

    A chain takes its own presets (which store the whole chain) and those of each of its
    styles; a style's preset comes back with its values addressed to that style in the
    chain (`watercolor.dilution`).
    """
    members = style.split(JOIN)
    path = Path(name_or_file)
    if path.suffix == ".json" or _is_file(path):
        if not _is_file(path):
            raise StyleError(f"preset file not found: {path}")
        preset = _read(path, False)
    else:
        wanted = str(name_or_file)
        listed = list_presets(style, user_dir)  # a chain's own first, then its styles'
        presets: dict[str, Preset] = {}
        owned: dict[str, Preset] = {}  # by the names their files hold
        stems: dict[str, Preset] = {}
        keys: dict[str, Preset] = {}  # names as people read them: "Soft Wash", "soft-wash"
        for p in listed:
            presets.setdefault(p.name, p)
            owned.setdefault(p.own_name, p)
            keys.setdefault(preset_key(p.name), p)
            if p.path is not None:
                stems.setdefault(p.path.stem, p)
        found = presets.get(wanted) or owned.get(wanted) or stems.get(wanted) \
            or keys.get(preset_key(wanted))
        if found is None:
            other = user_preset_style(wanted) if user_dir is None else None
            if other is not None and other != style:  # (a chain's, saved by the app)
                raise StyleError(f"preset {wanted!r} is for style {other!r}, not {style!r}: "
                                 f"add --style {other}")
            raise StyleError(f"unknown preset {wanted!r}; " + (
                suggest(wanted, presets, "presets") if presets else f"{style} has no presets"))
        preset = found
    if preset.style == style:
        return preset
    if len(members) > 1 and preset.style in members:
        return Preset(name=preset.name, style=style, description=preset.description,
                      values={f"{preset.style}.{k}": v for k, v in preset.values.items()},
                      builtin=preset.builtin, path=preset.path, saved_name=preset.saved_name)
    where = f"{preset.path}: " if preset.path is not None else ""
    raise StyleError(f"{where}preset {preset.name[:60]!r} is for style "
                     f"{preset.style[:60]!r}, not {style!r}")


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a preset's name too long to be a file name is no file
        return False


def apply_preset(preset: Preset, params: ParamSet) -> list[str]:
    """Set a preset's values in `params` (all or none); returns the clamp warnings. Both
    they and an error name the preset and its file: the values are a user's to fix."""
    where = f"preset {preset.name!r}" + (f" ({preset.path})" if preset.path else "")
    try:
        return [f"{where}: {w}" for w in params.update(preset.values)]
    except ParamError as e:
        raise ParamError(f"{where}: {e}") from None


def preset_problem(preset: Preset, params: ParamSet) -> str | None:
    """What makes a preset unusable with these parameters (a fresh set), or None."""
    try:
        params.coerce_values(preset.values)
    except ParamError as e:
        return str(e)
    return None


def user_preset_style(name: str) -> str | None:
    """The style (or chain) of the user preset called `name` saved for another style than
    the default one, when exactly one style's folder has it (the app saves a chain's presets
    under the chain): what `--preset NAME` without `--style` paints."""
    base = current_config_dir() / "presets"
    if not base.is_dir():
        return None
    key = preset_key(name)
    styles = set()
    for folder in sorted(d for d in base.iterdir() if d.is_dir()):
        for path in folder.glob("*.json"):
            try:
                preset = _read(path, False)
            except StyleError:
                continue
            if key in (preset_key(preset.name), preset_key(path.stem)):
                styles.add(preset.style)
    return styles.pop() if len(styles) == 1 else None


def preset_key(name: str) -> str:
    """What two preset names that read the same share ("Soft wash", "soft_wash", "SOFT
    WASH"): they are one name, for the user's presets as for built-ins."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    seen = "".join(c for c in folded if unicodedata.category(c) != "Cf")  # invisible ones
    return " ".join(seen.replace("_", " ").replace("-", " ").split())


NAME_CHARS = 80  # a preset's name at most (the chooser lists it whole)
# the chooser's own entries (the app's presets_panel): a preset of that name would be listed
# as "Default (yours)" beside them
RESERVED_NAMES = {"default": "the style's own values", "custom": "your own unsaved values"}


def check_preset_name(name: str) -> str:
    """`name` without spaces at its ends, fit to name a new preset; else a StyleError that
    says why (empty, a control character such as a line break, over NAME_CHARS, a name the
    preset chooser gives its own entries: "Default", "Custom", as people read names)."""
    name = name.strip()
    if not name:
        raise StyleError("a preset needs a name")
    bad = next((c for c in name if _control(c)), None)
    if bad is not None:
        what = {"\n": "a line break", "\r": "a line break", "\t": "a tab"}.get(
            bad, "a line break" if unicodedata.category(bad) in ("Zl", "Zp")
            else "a control character")
        raise StyleError(f"a preset's name must be one line of text: it holds {what} "
                         f"(U+{ord(bad):04X})")
    if len(name) > NAME_CHARS:
        raise StyleError(f"a preset's name can be at most {NAME_CHARS} characters long; "
                         f"this one has {len(name)}")
    meaning = RESERVED_NAMES.get(preset_key(name))
    if meaning is not None:
        raise StyleError(f"“{name}” is what the preset chooser calls {meaning}; choose "
                         "another name for a preset")
    return name


def preset_label(preset: Preset) -> str:
    """A preset's name as people read it: built-ins' ids in words ("Soft wash")."""
    if not preset.builtin:
        return preset.name
    words = preset.name.replace("_", " ")
    return words[:1].upper() + words[1:]


def describe_preset(preset: Preset) -> str:
    """One line about a preset (the CLI's list and the app's tooltip use it)."""
    origin = "built in" if preset.builtin else "yours"
    n = len(preset.values)
    return f"{preset.description or 'no description'} ({origin}, {n} value{'' if n == 1 else 's'})"


STEM_BYTES = 120  # a file name's stem at most (file systems hold 255 bytes, and -N.json)


def _file_stem(name: str) -> str:
    """A preset's file name (without .json): its name, characters a file name cannot
    hold as _, cut to STEM_BYTES of UTF-8 (the preset keeps its whole name inside)."""
    stem = "".join(c if c.isalnum() or c in "-_ " else "_" for c in name)
    stem = stem.encode("utf-8")[:STEM_BYTES].decode("utf-8", errors="ignore")
    return stem.strip() or "preset"


def user_preset_named(name: str, user_dir: Path, prefer: Path | None = None) -> Preset | None:
    """The user preset in `user_dir` called `name` (the name stored in its file, read as
    people read names: "my look" is "My look", `preset_key`), or None. Where files of older
    versions hold several such: the one at `prefer`, else the one of exactly that name,
    else the first."""
    if not user_dir.is_dir():
        return None
    key = preset_key(name)
    same = []
    for path in sorted(user_dir.glob("*.json")):
        try:
            preset = _read(path, False)
        except StyleError:
            continue
        if preset_key(preset.name) == key:
            same.append(preset)
    return next((p for p in same if p.path == prefer), None) \
        or next((p for p in same if p.name == name), None) or (same[0] if same else None)


def _claim_file(user_dir: Path, name: str) -> Path:
    """A new empty file for the preset `name`: NAME.json, else NAME-1.json, NAME-2.json...
    where another preset (a name that reads the same in a file name: "Warm/Cool",
    "Warm?Cool"), or anything else, has it; made exclusively, never over a file."""
    stem = _file_stem(name)
    return claim_new(lambda n: user_dir / (f"{stem}.json" if n == 0 else f"{stem}-{n}.json"))


def save_preset(preset: Preset, user_dir: Path | None = None, *,
                over: Path | None = None) -> Path:
    """Write a user preset atomically; returns its path. `over`: the file to replace (the
    one the app asked about); else the file holding a preset of the same name
    (`user_preset_named`; the app asks first); a new name gets a new file, never another
    preset's (`_claim_file`). A name `check_preset_name` refuses is refused, and so is a
    folder that cannot be written, in a few words (a StyleError)."""
    _check_own_name(preset)
    udir = user_dir or user_presets_dir(preset.style)
    try:
        path, _ = _write(preset, udir, over)
    except OSError as e:
        raise StyleError(f"cannot save preset “{preset.own_name}” into {udir}: "
                         f"{_why(e)}") from None
    return path


def rename_preset(preset: Preset, new_name: str, user_dir: Path | None = None, *,
                  over: Path | None = None) -> Preset:
    """Write a user preset under `new_name` (into `user_dir`, replacing `over` or the file
    of a preset of that name, as `save_preset`), then remove its old file; returns the
    renamed preset. Where the old file cannot be removed the new one is removed again:
    never two presets where the user asked for one."""
    if preset.builtin or preset.path is None:
        raise StyleError(f"preset “{preset.name}” is built in and cannot be renamed")
    renamed = Preset(name=check_preset_name(new_name), style=preset.style,
                     values=dict(preset.values), description=preset.description)
    udir = user_dir or user_presets_dir(preset.style)
    try:
        path, made = _write(renamed, udir, over)
        if path != preset.path:
            try:
                preset.path.unlink(missing_ok=True)
            except OSError:
                if made:
                    with contextlib.suppress(OSError):
                        path.unlink(missing_ok=True)
                raise
    except OSError as e:
        raise StyleError(f"cannot rename preset “{preset.own_name}” in "
                         f"{preset.path.parent}: {_why(e)}") from None
    return renamed


def _check_own_name(preset: Preset) -> None:
    if check_preset_name(preset.own_name) != preset.own_name:
        raise StyleError(f"a preset's name cannot begin or end with spaces: "
                         f"{preset.own_name!r}")


def _write(preset: Preset, udir: Path, over: Path | None) -> tuple[Path, bool]:
    """Write `preset` into `udir` atomically (see save_preset); its path, and whether that
    is a new file. OSError where the folder cannot be written."""
    udir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=udir, prefix=".preset-", suffix=".tmp")
    claimed: Path | None = None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(preset.to_json())
        same = user_preset_named(preset.own_name, udir) if over is None else None
        path = over or (same.path if same is not None else None)
        if path is None:
            path = claimed = _claim_file(udir, preset.own_name)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        if claimed is not None:
            claimed.unlink(missing_ok=True)
        raise
    preset.path = path
    return path, claimed is not None


def _why(e: OSError) -> str:
    """An OS error in a few words, without its number or a file's name ("permission
    denied"): the message names the preset and its folder itself."""
    words = e.strerror or type(e).__name__
    return words[:1].lower() + words[1:]


def delete_preset(preset: Preset) -> None:
    """Delete a user preset (built-ins cannot be deleted); a StyleError in a few words
    where its folder does not allow it."""
    if preset.builtin or preset.path is None:
        raise StyleError(f"preset {preset.name!r} is built in and cannot be deleted")
    try:
        preset.path.unlink(missing_ok=True)
    except OSError as e:
        raise StyleError(f"cannot delete preset “{preset.own_name}” from "
                         f"{preset.path.parent}: {_why(e)}") from None
