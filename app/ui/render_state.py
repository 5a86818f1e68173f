"""The app's state in one place: the style or chain, its parameter values, the preset they
came from, the seed, the processing scale (and a video's lines) and the view (debug view,
compare and its split).

Plain Python (no Qt, no GL), evented as napari's models are: whoever changes it goes through
its setters, and every view subscribes (`subscribe`) and shows what it says, instead of one
window syncing each widget by hand. The viewport reads it in paintGL and applies it to
whichever pipeline currently works, so the values survive pipeline rebuilds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from ..engine.chain_spec import AnyStyle, load_chain, param_set
from ..engine.renderer import MAX_VIDEO_LINES, MIN_VIDEO_LINES, VIDEO_LINES
from ..engine.style_stage import MAX_SCALE, MIN_SCALE

# What changed: the style or chain (and with it every value), values, the preset label, the
# seed, the processing scale, or only what is shown (debug view, compare, split).
Change = Literal["style", "values", "preset", "seed", "scale", "view"]
Observer = Callable[[Change], None]


class RenderState:
    """The render settings, with a revision counter bumped on every change that affects the
    picture, and observers told of every change."""

    def __init__(self, style: str | AnyStyle = "watercolor") -> None:
        self.style = style if not isinstance(style, str) else load_chain(style)
        self.params = param_set(self.style)
        self.seed = 0
        self.scale = 1.0
        self.video_lines = VIDEO_LINES  # a video's frames painted at most these lines (0: all)
        self.debug_view: str | None = None  # a label of style.debug_views, or None
        self.compare = "off"  # a CompareMode's value
        self.split = 0.5  # the split compare's divider, a fraction of the view's width
        self.preset: str | None = None  # the preset the values started from
        self._edited = True  # ... and edited since
        self._revision = 0
        self._observers: list[Observer] = []

    def subscribe(self, observer: Observer) -> None:
        """Call `observer(change)` after every change, in the order of subscription."""
        self._observers.append(observer)

    def _emit(self, change: Change) -> None:
        for observer in list(self._observers):
            observer(change)

    def values_changed(self) -> None:
        """A value was set on `params` directly (the parameter panel's own edit)."""
        self.touch()
        self._emit("values")

    @property
    def revision(self) -> tuple[int, int, int]:
        """Changes whenever anything that affects the rendered image changes."""
        return (self._revision, id(self.params), self.params.revision)

    def touch(self) -> None:
        """Mark the state changed (for changes made outside the setters)."""
        self._revision += 1

    def set_style(self, style: str | AnyStyle, values: Mapping[str, Any] | None = None,
                  preset: str | None = None, modified: bool = True) -> None:
        """Switch style; parameters start at their defaults, then `values` (unknown ignored),
        which came from `preset` (`modified`: edited since). The preset goes with the values:
        the one the style before came from never stays on the new one's values."""
        self.style = style if not isinstance(style, str) else load_chain(style)
        self.params = param_set(self.style)
        if values:
            self._apply(values)
        self.preset, self._edited = preset, modified
        if self.debug_view not in self.style.debug_views:
            self.debug_view = None
        self.touch()
        self._emit("style")

    def apply_values(self, values: Mapping[str, Any], reset_others: bool = False) -> list[str]:
        """Set the known parameters among `values`; returns warnings (clamped or invalid).
        `reset_others`: the rest back to their defaults; in a chain, only the rest of the
        styles `values` speak of (a watercolor preset leaves the denoise alone)."""
        warnings = self._apply(values, reset_others)
        self.touch()
        self._emit("values")
        return warnings

    def preset_look(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The values `apply_values(values, reset_others=True)` would give (a preset
        chosen), the state unchanged."""
        own = self.params
        self.params = param_set(self.style)
        try:
            self.params.update(own.values())
            self._apply(values, reset_others=True)
            return self.params.values()
        finally:
            self.params = own

    def _apply(self, values: Mapping[str, Any], reset_others: bool = False) -> list[str]:
        if reset_others:
            styles = {k.split(".", 1)[0] for k in values if "." in k}
            for name in self.params.specs:
                owner = name.split(".", 1)[0] if "." in name else None
                if owner is None or owner in styles:
                    self.params.reset(name)
        warnings = []
        for name, value in values.items():
            if name not in self.params:
                warnings.append(f"unknown parameter {name!r} ignored")
                continue
            try:
                w = self.params.set(name, value)
            except ValueError as e:  # ParamError
                warnings.append(str(e))
                continue
            if w:
                warnings.append(w)
        return warnings

    def set_seed(self, seed: int) -> None:
        """The noise seed."""
        self.seed = int(seed)
        self.touch()
        self._emit("seed")

    def set_scale(self, scale: float) -> None:
        """The processing scale, clamped to the engine's range."""
        self.scale = min(MAX_SCALE, max(MIN_SCALE, float(scale)))
        self.touch()
        self._emit("scale")

    def set_video_lines(self, lines: int) -> None:
        """At most how many lines a video's frames are painted (0: all; see Renderer),
        clamped to the engine's range."""
        lines = int(lines)
        self.video_lines = 0 if lines <= 0 else min(MAX_VIDEO_LINES, max(MIN_VIDEO_LINES, lines))
        self.touch()
        self._emit("scale")

    def set_debug_view(self, label: str | None) -> None:
        """Show an intermediate target (a debug view label) instead of the result."""
        if label is not None and label not in self.style.debug_views:
            raise KeyError(label)
        # the settings are unchanged: the viewport renders the frame again, keeping the target
        self.debug_view = label
        self._emit("view")

    def set_compare(self, mode: str) -> None:
        """How the original is shown beside the result (a CompareMode's value)."""
        self.compare = mode
        self._emit("view")

    def set_split(self, fraction: float) -> None:
        """Where the split compare's divider is (0..1 across the view)."""
        fraction = float(fraction)
        self.split = min(1.0, max(0.0, fraction)) if fraction == fraction else 0.5
        self._emit("view")

    def set_preset(self, preset: str | None, modified: bool) -> None:
        """The preset the values started from, and whether they were edited since."""
        self.preset, self._edited = preset, modified
        self._emit("preset")

    @property
    def modified(self) -> bool:
        """Edited since the preset was chosen; without one, other than the style's own
        values (those are "Default", not a modified look)."""
        return self._edited if self.preset is not None else not self.at_defaults()

    def at_defaults(self) -> bool:
        """Every value is its parameter's default."""
        params = self.params
        return all(v == params.specs[n].default for n, v in params.values().items())

    def holds(self, values: Mapping[str, Any]) -> bool:
        """Whether applying a preset's `values` (as `apply_values` with `reset_others`
        does) would change nothing: the values are that preset's look."""
        params = self.params
        current = params.values()
        given = set()
        try:
            for key, raw in values.items():
                name = params.canonical(key)
                spec = params.specs[name]
                if spec.type == "file":
                    # by its path: checking a file reads it (a LUT), and this runs per edit
                    if not isinstance(raw, str):
                        return False
                    want: Any = str(Path(raw.strip()).resolve()) if raw.strip() else ""
                else:
                    want = spec.coerce(raw)[0]
                if current[name] != want:
                    return False
                given.add(name)
        except (ValueError, OSError):  # (ParamError) a preset that cannot apply: no look
            return False
        styles = {k.split(".", 1)[0] for k in values if "." in k}
        return all(current[name] == spec.default for name, spec in params.specs.items()
                   if name not in given
                   and ("." not in name or name.split(".", 1)[0] in styles))

    @property
    def debug_target(self) -> str | None:
        """The target name of the current debug view."""
        return self.style.debug_views.get(self.debug_view) if self.debug_view else None
