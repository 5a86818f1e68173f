"""Edits of the look (parameters, seed, presets) with undo/redo and an honest preset label."""

from __future__ import annotations

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
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state, self.panel, self.presets, self.seed_spin = state, panel, presets, seed_spin
        self.history = UndoHistory()
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
                    self.modified)

    def reset(self, preset: str | None = None, modified: bool = True) -> None:
        """A new style: its values have nothing to do with the history."""
        self.history = UndoHistory()
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
        self.presets.show_state(preset, modified)
        self.preset = self.presets.base
        self.modified = modified if self.preset is not None else True

    def _done(self) -> None:
        self._look = self.look()
        self.changed.emit()
