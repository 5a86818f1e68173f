"""The look and the view as the settings file keeps them between sessions."""

from __future__ import annotations

from ..engine.errors import AquarelleError
from .render_state import RenderState
from .settings import Settings
from .view_transform import CompareMode


def restore_state(settings: Settings) -> tuple[RenderState, CompareMode]:
    """The style (or chain), its values, seed and scale, and the compare mode and its
    split divider of last time (the defaults for what is missing or no longer valid)."""
    try:
        state = RenderState(settings.style())
    except AquarelleError:
        state = RenderState("watercolor")
    state.apply_values(settings.params(state.style.name))
    state.set_seed(settings.seed())
    state.set_scale(settings.scale())
    state.set_video_lines(settings.video_lines())
    state.set_split(settings.split())
    try:
        compare = CompareMode(settings.compare())
    except ValueError:
        compare = CompareMode.OFF
    return state, compare


def save_state(settings: Settings, state: RenderState, preset: str | None, modified: bool,
               compare: CompareMode) -> None:
    """Write what `restore_state` reads (and the preset the values came from)."""
    settings.set_style(state.style.name)
    settings.set_params(state.style.name, state.params.as_json_values())
    settings.set_seed(state.seed)
    settings.set_preset(state.style.name, preset, modified)
    settings.set_scale(state.scale)
    settings.set_video_lines(state.video_lines)
    settings.set_compare(compare.value)
    settings.set_split(state.split)
    settings.sync()
