"""Chains of styles as data: `denoise+enhance+watercolor+upscale`.

A chain is its styles in order. Its parameters are the styles' own, qualified by the style's
name (`watercolor.dilution`), plus one `STYLE.bypass` switch per style; its debug views list
every style's targets. A one-style "chain" is just that style, so everything that takes a
style takes a chain.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from .errors import StyleError
from .params import ParamSet, ParamSpec
from .style import StyleSpec, installed_params, load_style

JOIN = "+"
BYPASS = "bypass"


@dataclass(frozen=True)
class ChainSpec:
    """Several styles applied one after the other."""

    styles: tuple[StyleSpec, ...]

    @property
    def name(self) -> str:
        return JOIN.join(s.name for s in self.styles)

    @property
    def label(self) -> str:
        return " → ".join(s.label for s in self.styles)

    @property
    def description(self) -> str:
        return "A chain: " + "; then ".join(s.label for s in self.styles) + "."

    @property
    def path(self) -> Path | None:
        return None

    @property
    def params(self) -> tuple[ParamSpec, ...]:
        out: list[ParamSpec] = []
        for s in self.styles:
            out.append(ParamSpec(name=f"{s.name}.{BYPASS}", label="Bypass", type="bool",
                                 default=False, group=s.label,
                                 help=f"Leave {s.label} out of the chain (as if it were not "
                                      "there)."))
            out.extend(replace(p, name=f"{s.name}.{p.name}", group=f"{s.label} · {p.group}")
                       for p in s.params)
        return tuple(out)

    @property
    def debug_views(self) -> dict[str, str]:
        """Each style's own debug views in chain order, as `Label › view` -> `style.target`
        (a style that names none offers its output)."""
        views: dict[str, str] = {}
        for s in self.styles:
            for view, target in (s.debug_views or {"result": s.output}).items():
                views[f"{s.label} › {view}"] = f"{s.name}.{target}"
        return views

    @property
    def draft_upscale(self) -> str:
        """The enlargement of the last style that paints below full size."""
        drafts = [s for s in self.styles if s.has_draft]
        return drafts[-1].draft_upscale if drafts else "learned"


AnyStyle = StyleSpec | ChainSpec


def specs_of(style: AnyStyle) -> tuple[StyleSpec, ...]:
    """The styles of a chain in order, or a lone style alone."""
    return style.styles if isinstance(style, ChainSpec) else (style,)


def look_painted(style: AnyStyle, values: Mapping[str, object]
                 ) -> Callable[[tuple[int, int]], tuple[int, int]]:
    """Size -> the size of the picture `style` paints from a frame of that size at
    `values` (the set ones, as given on a command line: coerced and completed with the
    defaults first; see `painted_size`)."""
    params = param_set(style)
    params.update(values)
    full = params.values()
    return lambda size: painted_size(style, full, size)


def _active_styles(style: AnyStyle, values: Mapping[str, object]
                   ) -> list[tuple[StyleSpec, dict[str, object]]]:
    """The styles that paint (a chain's not bypassed), each with its own values."""
    if isinstance(style, StyleSpec):
        return [(style, dict(values))]
    active = []
    for s in specs_of(style):
        prefix = s.name + "."
        own = {k[len(prefix):]: v for k, v in values.items() if k.startswith(prefix)}
        if not own.pop(BYPASS, False):
            active.append((s, own))
    return active


def painted_size(style: AnyStyle, values: Mapping[str, object], size: tuple[int, int]
                 ) -> tuple[int, int]:
    """The size of the picture `style` paints from a frame of `size` (w, h) at these
    parameter `values` (a chain's qualified, with its bypass switches), as a renderer at
    full scale returns it (Renderer.output_size): the frame's own for most styles, larger
    after an upscaler, twice as wide for a side-by-side stereo pair."""
    w, h = size
    for s, own in _active_styles(style, values):
        kx, ky = s.targets[s.output].factors(own)
        w, h = max(1, round(w * kx)), max(1, round(h * ky))
    return w, h


def painted_views(style: AnyStyle, values: Mapping[str, object]) -> tuple[int, int]:
    """(nx, ny): the views the picture `style` paints holds across and down (a stereo pair
    side by side, squeezed or not: (2, 1)); a style that takes a pair in uses its views."""
    nx, ny = 1, 1
    for s, own in _active_styles(style, values):
        (ix, iy), (ox, oy) = s.view_grid("input", own), s.view_grid("output", own)
        nx, ny = max(1, nx // ix) * ox, max(1, ny // iy) * oy
    return nx, ny


def style_names(style: AnyStyle) -> list[str]:
    """The names of the styles in order (one for a plain style)."""
    return [s.name for s in style.styles] if isinstance(style, ChainSpec) else [style.name]


def load_chain(text: str | Path) -> AnyStyle:
    """A style (name or JSON file) or a chain of them joined by `+`."""
    if isinstance(text, Path) or JOIN not in str(text):
        return load_style(text)
    parts = [part.strip() for part in str(text).split(JOIN)]
    if any(not part for part in parts):
        raise StyleError(f"a chain joins style names with '+', got {str(text)!r}")
    styles = tuple(load_style(part) for part in parts)
    seen: set[str] = set()
    for s in styles:
        if s.name in seen:
            raise StyleError(f"style {s.name!r} appears twice in the chain {str(text)!r}; a "
                             "chain holds each style once")
        seen.add(s.name)
    return styles[0] if len(styles) == 1 else ChainSpec(styles)


def chain_of(names: list[str]) -> AnyStyle:
    """The chain of these style names (one name: that style)."""
    if not names:
        raise StyleError("a chain needs at least one style")
    return load_chain(JOIN.join(names))


def param_set(style: AnyStyle) -> ParamSet:
    """Fresh parameter values for a style or chain (a style also takes `style.name`)."""
    scope = style.name if isinstance(style, StyleSpec) else None
    return ParamSet(style.params, scope=scope, installed=installed_params)


def qualify(values: dict[str, object], style_name: str, target: AnyStyle) -> dict[str, object]:
    """Values saved for one style (a preset) addressed to it inside `target`: unchanged
    for that style itself, `style.param` inside a chain that holds it."""
    if isinstance(target, StyleSpec):
        return dict(values)
    return {f"{style_name}.{k}": v for k, v in values.items()}


def carry_values(old: AnyStyle, values: dict[str, object], new: AnyStyle) -> dict[str, object]:
    """Values of `old` that also exist in `new`, renamed for it: a style's settings follow it
    when a chain gains, loses or reorders styles."""
    def split(style: AnyStyle, name: str) -> tuple[str, str]:
        return tuple(name.split(".", 1)) if isinstance(style, ChainSpec) \
            else (style.name, name)  # type: ignore[return-value]

    def join(style: AnyStyle, owner: str, param: str) -> str:
        return f"{owner}.{param}" if isinstance(style, ChainSpec) else param

    wanted = {split(new, p.name) for p in new.params}
    out: dict[str, object] = {}
    for name, value in values.items():
        key = split(old, name)
        if key in wanted:
            out[join(new, *key)] = value
    return out
