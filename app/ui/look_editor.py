"""Edits of the look (style or chain, parameters, seed, presets) with undo/redo and an honest
preset label."""

from __future__ import annotations

from collections.abc import Callable

from PyQt6.QtCore import QObject, pyqtSignal
from PyQt6.QtWidgets import QSpinBox

from ..engine.presets import Preset
from .param_panel import ParamPanel
from .presets_panel import PresetsPanel
from .render_state import RenderState
from .undo import Look, UndoHistory


class LookEditor(QObject):
    """Every change of the look goes through here: it is recorded for undo, and the preset
    chooser shows the preset the values came from ("NAME, modified" after edits)."""

    changed = pyqtSignal()  # the look changed: render and save
    message = pyqtSignal(str)  # status-bar text

    def __init__(self, state: RenderState, panel: ParamPanel, presets: PresetsPanel,
                 seed_spin: QSpinBox, preset: str | None = None, modified: bool = True,
                 parent: QObject | None = None,
                 switch_style: Callable[[str], bool] | None = None) -> None:
        """`switch_style(name)`: make a style or chain current (for undoing a chain edit);
        returns False when it cannot be built."""
        super().__init__(parent)
        self.state, self.panel, self.presets, self.seed_spin = state, panel, presets, seed_spin
        self.switch_style = switch_style
        self.history = UndoHistory()
        self._edits = 0  # numbers the chain edits: no two merge into one undo step
        self.preset: str | None = None
        self.modified = True
        self._show(preset, modified)
        self._look = self.look()
        panel.changed.connect(self._param_changed)
        presets.presetChosen.connect(self.apply_preset)
        presets.stateChanged.connect(self._preset_state)
        seed_spin.valueChanged.connect(self._seed_changed)

    def look(self) -> Look:
        """The current look."""
        return Look(self.state.params.as_json_values(), self.state.seed, self.preset,
                    self.modified, self.state.style.name)

    def style_switched(self, before: Look, preset: str | None = None, modified: bool = True,
                       what: str = "chain") -> None:
        """The style or chain changed (from `before`): one undo step; the preset label is
        the new style's."""
        self._edits += 1
        self.history.record(before, f"{what} {self._edits}")
        self._show(preset, modified)
        self._look = self.look()

    def show_preset(self, preset: str | None, modified: bool) -> None:
        """Show the preset the current values came from (no undo step)."""
        self._show(preset, modified)
        self._look = self.look()

    # -- changes ---------------------------------------------------------------------------
    def _param_changed(self, name: str) -> None:
        self.history.record(self._look, name or "reset all")
        self._show(self.preset, True)
        if self.panel.warning:
            self.message.emit(self.panel.warning)
        self._done()

    def _seed_changed(self, value: int) -> None:
        self.state.set_seed(value)
        self.history.record(self._look, "seed")
        self._done()

    def apply_preset(self, preset: Preset) -> None:
        """Take a preset's values (the others back to their defaults); undoable."""
        self.history.record(self._look, f"preset {preset.name}")
        warnings = self.state.apply_values(preset.values, reset_others=True)
        self.panel.refresh()
        self._show(preset.name, False)
        self.message.emit(f"Preset {preset.name}"
                          + (f" ({'; '.join(warnings)})" if warnings else ""))
        self._done()

    def _preset_state(self, base: object, modified: bool) -> None:
        # Saved, renamed or deleted a preset: the label changed, the values did not.
        self.preset = base if isinstance(base, str) else None
        self.modified = modified
        self._look = self.look()

    # -- undo ------------------------------------------------------------------------------
    def undo(self) -> bool:
        return self._restore(self.history.undo(self._look), "Nothing to undo", "Undone")

    def redo(self) -> bool:
        return self._restore(self.history.redo(self._look), "Nothing to redo", "Redone")

    def _restore(self, look: Look | None, none: str, done: str) -> bool:
        if look is None:
            self.message.emit(none)
            return False
        if look.style and look.style != self.state.style.name and (
                self.switch_style is None or not self.switch_style(look.style)):
            self.message.emit(f"{done}: cannot use {look.style}")
            return False
        self.state.apply_values(look.values, reset_others=True)
        self.seed_spin.blockSignals(True)
        self.seed_spin.setValue(look.seed)
        self.seed_spin.blockSignals(False)
        self.state.set_seed(look.seed)
        self.panel.refresh()
        self._show(look.preset, look.modified)
        self._look = look
        self.message.emit(done)
        self.changed.emit()
        return True

    # -- helpers ---------------------------------------------------------------------------
    def _show(self, preset: str | None, modified: bool) -> None:
        params = self.state.params
        at_defaults = all(v == params.specs[n].default for n, v in params.values().items())
        self.presets.show_state(preset, modified, at_defaults)
        self.preset = self.presets.base
        self.modified = modified if self.preset is not None else True

    def _done(self) -> None:
        self._look = self.look()
        self.changed.emit()
