"""The style or chain in use: switching it (undoably, values kept), the style combo, the
chain panel, the debug views and shader reloads follow the render state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PyQt6.QtCore import QObject
from PyQt6.QtWidgets import QComboBox

from ..engine.chain_spec import (
    BYPASS,
    JOIN,
    AnyStyle,
    carry_values,
    load_chain,
    param_set,
    style_names,
)
from ..engine.errors import AquarelleError, ParamError, ShaderCompileError
from ..engine.style import StyleSpec
from .chain_panel import ChainPanel
from .look_editor import LookEditor
from .param_panel import ParamPanel
from .presets_panel import PresetsPanel
from .render_state import RenderState
from .settings import Settings
from .viewport import Viewport

RESULT = "Result"


def error_text(e: BaseException) -> str:
    """What a dialog says about a failure (a shader's file and line when it has them)."""
    if isinstance(e, ShaderCompileError):
        where = f"{e.path}, line {e.line}" if e.line is not None else e.path
        return f"A shader failed to compile.\n\nFile: {where}\n{e.message}"
    return str(e) or type(e).__name__


class StyleController(QObject):
    """Owns the switch between styles and chains; the views show what the state holds."""

    def __init__(self, state: RenderState, viewport: Viewport, settings: Settings,
                 style_combo: QComboBox, chain_panel: ChainPanel, param_panel: ParamPanel,
                 presets: PresetsPanel, debug_combo: QComboBox,
                 error: Callable[[str, str], None], status: Callable[[str, int], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state, self.viewport, self.settings = state, viewport, settings
        self.style_combo, self.chain_panel = style_combo, chain_panel
        self.param_panel, self.presets, self.debug_combo = param_panel, presets, debug_combo
        self.error, self.status = error, status
        self.editor: LookEditor | None = None  # set once the editor exists
        style_combo.activated.connect(lambda i: self.set_style(str(style_combo.itemData(i))))
        chain_panel.chain_changed.connect(self._chain_edited)
        chain_panel.bypass_toggled.connect(
            lambda name, off: param_panel.set_value(f"{name}.{BYPASS}", off))
        debug_combo.currentIndexChanged.connect(self._debug_changed)
        viewport.rendered.connect(self._say_empty_view)
        self._said_empty: str | None = None  # the debug view last said to be empty
        state.subscribe(self._state_changed)
        self.show_style()
        self.fill_debug_views()

    def _state_changed(self, change: str) -> None:
        """The style combo, the chain, the presets listed and the debug views follow."""
        if change == "style":
            self.show_style()
            self.presets.set_style(self.state.style.name)
            self.fill_debug_views()
        elif change == "values":
            self.show_bypass()
        elif change == "view":
            combo = self.debug_combo
            combo.blockSignals(True)
            combo.setCurrentIndex(max(0, combo.findData(self.state.debug_view)))
            combo.blockSignals(False)

    # -- switching -------------------------------------------------------------------------
    def _chain_edited(self, names: list[str]) -> None:
        before = style_names(self.state.style)
        if self.set_style(JOIN.join(names)) and len(names) < len(before):
            gone = next(n for n in before if n not in names)
            self.status(f"Removed {self.chain_panel.label(gone)} from the chain (Ctrl+Z brings "
                        "it back)", 6000)

    def set_style(self, name: str, record: bool = True) -> bool:
        """Switch style or chain (`a+b`); one whose shaders fail keeps the current one. The
        values of styles that stay in the chain go along; `record`: one undo step."""
        if name == self.state.style.name:
            return True
        try:
            spec = load_chain(name)
            self.viewport.build_pipeline(spec)
        except AquarelleError as e:
            self.error("Cannot use style", error_text(e))
            self.show_style()
            return False
        editor = self.editor
        before = editor.look() if editor is not None and record else None
        old, values = self.state.style, self.state.params.as_json_values()
        self.settings.set_params(old.name, values)
        self.settings.set_preset(old.name, self.state.preset, self.state.modified)
        carried = carry_values(old, values, spec)
        self.state.set_style(spec, {**self.settings.params(spec.name), **carried},
                             *self._preset_of(spec, carried))  # the views follow
        if editor is not None:
            editor.style_switched(before)
        return True

    def _preset_of(self, spec: AnyStyle, carried: dict[str, Any]) -> tuple[str | None, bool]:
        """The preset the values `spec` starts with came from, and whether edited since: its
        own saved one, unless the values carried over from the current style change those;
        then the current style's preset, where all it set is carried and `spec` lists it too
        (a style's preset inside a chain, and back out); else none."""
        try:
            theirs = {p.name: p for p in self.presets.presets_of(spec.name)}
        except AquarelleError:
            return None, True
        saved = {**param_set(spec).defaults_json(), **self.settings.params(spec.name)}
        if all(saved.get(name) == value for name, value in carried.items()):
            preset, modified = self.settings.preset(spec.name)
            return (preset, modified) if preset in theirs else (None, True)
        ours = next((p for p in self.presets.presets if p.name == self.state.preset), None)
        if ours is None:
            return None, True
        values = carry_values(self.state.style, ours.values, spec)
        same = theirs.get(ours.name)
        if same is None or same.values != values or len(values) < len(ours.values):
            return None, True
        look = param_set(spec)
        try:
            look.update(values)
        except ParamError:
            return None, True
        now = {**saved, **carried}
        owners = {name.split(".", 1)[0] for name in values}  # a chain: the styles it sets
        return ours.name, any(now.get(name) != value
                              for name, value in look.as_json_values().items()
                              if isinstance(spec, StyleSpec) or name.split(".", 1)[0] in owners)

    def show_style(self) -> None:
        """The style combo and the chain panel show the current style or chain."""
        name = self.state.style.name
        combo = self.style_combo
        combo.blockSignals(True)
        if combo.findData(name) < 0:  # a chain: listed while it is the current one
            for i in reversed(range(combo.count())):
                if JOIN in str(combo.itemData(i)):
                    combo.removeItem(i)
            combo.insertItem(0, self.state.style.label, name)
        combo.setCurrentIndex(combo.findData(name))
        combo.blockSignals(False)
        self.chain_panel.show_chain(style_names(self.state.style), self.bypassed())

    def bypassed(self) -> dict[str, bool]:
        names = style_names(self.state.style)
        return {n: bool(self.state.params[f"{n}.{BYPASS}"]) for n in names if len(names) > 1}

    def show_bypass(self) -> None:
        self.chain_panel.show_bypass(self.bypassed())

    def reload_shaders(self) -> bool:
        """Recompile the current style from disk; a failure keeps the working shaders."""
        try:
            self.viewport.build_pipeline(self.state.style)
        except AquarelleError as e:
            self.error("Shader error", error_text(e) + "\n\nThe last working shaders stay "
                       "in use.")
            return False
        self.status("Shaders reloaded", 6000)
        return True

    # -- debug views -----------------------------------------------------------------------
    def fill_debug_views(self) -> None:
        combo = self.debug_combo
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(RESULT, None)
        for label in self.state.style.debug_views:
            combo.addItem(label[:1].upper() + label[1:], label)
        combo.setCurrentIndex(max(0, combo.findData(self.state.debug_view)))
        combo.blockSignals(False)

    def _debug_changed(self, index: int) -> None:
        self.state.set_debug_view(self.debug_combo.itemData(index))

    def _say_empty_view(self) -> None:
        """A debug view whose passes do not run here shows nothing: said once (it was a
        black picture without a word: a mono still's "stereo pair: matched disparity")."""
        label = self.state.debug_view
        if label is None or not self.viewport.debug_empty:
            return
        if label != self._said_empty:
            self._said_empty = label
            self.status(f"View \u201c{label}\u201d is empty here: the passes that make it do "
                        "not run for this picture with these settings", 10000)

    def set_debug_view(self, label: str | None) -> None:
        """Show a debug view by label (None: the result)."""
        self.debug_combo.setCurrentIndex(max(0, self.debug_combo.findData(label)))

    def cycle_debug_view(self) -> None:
        n = self.debug_combo.count()
        if n:
            self.debug_combo.setCurrentIndex((self.debug_combo.currentIndex() + 1) % n)
            self.status(f"View: {self.debug_combo.currentText()}", 2000)
