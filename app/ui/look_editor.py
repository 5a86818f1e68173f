"""Edits of the look (style or chain, parameters, seed, processing scale, a video's lines,
presets) as undo steps, with an honest preset label. The edits go to the app's state; the
views follow it."""

from __future__ import annotations

from collections.abc import Callable

from PyQt6.QtCore import QObject, pyqtSignal
from PyQt6.QtWidgets import QDoubleSpinBox, QSpinBox

from ..engine.presets import Preset, preset_problem
from ..engine.renderer import MAX_SEED, MAX_VIDEO_LINES, MIN_VIDEO_LINES
from ..engine.style_stage import MAX_SCALE, MIN_SCALE
from .param_panel import ParamPanel, clamped_said, steps_of
from .presets_panel import PresetsPanel
from .render_state import RenderState
from .undo import Look, UndoHistory

# The side panel's own fields: what each is called and holds (a number typed outside is
# clamped, and said so as a parameter's field says it)
SPIN_RANGES = {"seed": ("Seed", 0, MAX_SEED),
               "scale": ("Processing scale", MIN_SCALE, MAX_SCALE),
               "video lines": ("Video painted at", MIN_VIDEO_LINES, MAX_VIDEO_LINES)}


class LookEditor(QObject):
    """Every change of the look goes through here: it is recorded for undo, and the preset
    chooser shows the preset the values came from ("NAME, modified" after edits)."""

    message = pyqtSignal(str)  # status-bar text
    failed = pyqtSignal(str, str)  # a dialog's title and text (a preset that cannot apply)

    def __init__(self, state: RenderState, panel: ParamPanel, presets: PresetsPanel,
                 seed_spin: QSpinBox, scale_spin: QDoubleSpinBox, video_lines_spin: QSpinBox,
                 preset: str | None = None, modified: bool = True, parent: QObject | None = None,
                 switch_style: Callable[[str], bool] | None = None) -> None:
        """`switch_style(name)`: make a style or chain current (for undoing a chain edit);
        returns False when it cannot be built."""
        super().__init__(parent)
        self.state, self.panel, self.presets, self.seed_spin = state, panel, presets, seed_spin
        self.switch_style = switch_style
        self.history = UndoHistory()
        state.subscribe(self._state_changed)
        self._show(preset, modified)
        self._look = self.look()
        panel.changed.connect(self._param_changed)
        panel.message.connect(self.message)  # typing that changed no value, said
        presets.presetChosen.connect(self.apply_preset)
        presets.stateChanged.connect(self._preset_state)
        self._spins = {"seed": seed_spin, "scale": scale_spin, "video lines": video_lines_spin}
        seed_spin.valueChanged.connect(self._seed_changed)
        scale_spin.valueChanged.connect(self._scale_changed)
        video_lines_spin.valueChanged.connect(self._video_lines_changed)
        for name, spin in self._spins.items():
            spin.editingFinished.connect(lambda name=name: self._say_clamped(name))

    @property
    def preset(self) -> str | None:
        """The preset the values started from (the state's)."""
        return self.state.preset

    @property
    def modified(self) -> bool:
        return self.state.modified

    def _state_changed(self, change: str) -> None:
        if change in ("preset", "values", "style"):  # the chooser says where values came from
            state = self.state
            self.presets.show_state(state.preset, state.modified, state.at_defaults())

    def look(self) -> Look:
        """The current look."""
        return Look(self.state.params.as_json_values(), self.state.seed, self.preset,
                    self.modified, self.state.style.name, self.state.scale,
                    self.state.video_lines)

    def style_switched(self, before: Look | None) -> None:
        """The style or chain changed (from `before`: one undo step; None: none, an undo's
        own switch). The state holds the new values and the preset they came from."""
        if before is not None:
            chain = "+" in before.style or "+" in self.state.style.name
            self.history.record(before, None, "Chain change" if chain else "Style change")
        self._look = self.look()

    # -- changes ---------------------------------------------------------------------------
    def _param_changed(self, name: str) -> None:
        row = self.panel.rows.get(name)  # ("": Reset all)
        self.history.record(self._look, self.panel.gesture,
                            f"{row.spec.label} change" if row is not None
                            else "Reset all parameters")
        self.state.values_changed()
        self._show(self.preset, True)
        if self.panel.warning:
            self.message.emit(self.panel.warning)
        self._done()

    def _seed_changed(self, value: int) -> None:
        self.state.set_seed(value)
        self._record_spin("seed")
        self._done()

    def _scale_changed(self, value: float) -> None:
        self.state.set_scale(value)
        self._record_spin("scale")
        self._done()

    def _video_lines_changed(self, value: int) -> None:
        self.state.set_video_lines(value)
        self._record_spin("video lines")
        self._done()

    def _say_clamped(self, name: str) -> None:
        """A number typed into a side-panel field outside what it holds: said, with what was
        taken instead (it was cut off as typed, or clamped, without a word)."""
        take = getattr(self._spins[name], "take_exact", None)
        exact = take() if take is not None else None
        label, lo, hi = SPIN_RANGES[name]
        if exact is None or lo <= exact <= hi or (name == "video lines" and exact == 0):
            return
        taken = self._spins[name].value()
        self.message.emit(clamped_said(label, lo, hi, f"{exact:f}", taken,
                                       " (0: all)" if name == "video lines" else ""))

    def _record_spin(self, name: str) -> None:
        # steps of the spin box in a row are one undo step; a typed value or a button's
        # (New seed, N) is one of its own
        self.history.record(self._look, steps_of(self._spins[name], name),
                            f"{name.capitalize()} change")

    def apply_preset(self, preset: Preset) -> None:
        """Take a preset's values (the others back to their defaults); undoable. A preset
        with a value that cannot apply is refused whole, as `render --preset` refuses it,
        and the chooser goes back to where the values came from."""
        problem = preset_problem(preset, self.state.params)
        if problem is not None:
            where = f"{preset.name!r}" + (f" ({preset.path})" if preset.path else "")
            self._show(self.preset, self.modified)
            self.failed.emit("Preset not applied",
                             f"Preset {where} cannot be applied: {problem}.\n"
                             "Correct or delete its file; the look is unchanged.")
            return
        if self.state.holds(preset.values):
            # (the preset shown chosen again, or values that are already its look: no step,
            # which would also throw away what Redo holds)
            self._show(preset.name, False)
            self._look = self.look()
            self.message.emit(f"Preset {preset.name}")
            return
        self.history.record(self._look, None, "Preset change")
        warnings = self.state.apply_values(preset.values, reset_others=True)
        self._show(preset.name, False)
        self.message.emit(f"Preset {preset.name}"
                          + (f" ({'; '.join(warnings)})" if warnings else ""))
        self._done()

    def _preset_state(self, base: object, modified: bool) -> None:
        # Saved, renamed or deleted a preset: the label changed, the values did not.
        self._show(base if isinstance(base, str) else None, modified)
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
        self.state.set_seed(look.seed)  # the views follow the state
        self.state.set_scale(look.scale)
        self.state.set_video_lines(look.video_lines)
        self._show(look.preset, look.modified)
        self._look = look
        self.message.emit(done)
        return True

    # -- helpers ---------------------------------------------------------------------------
    def _show(self, preset: str | None, modified: bool) -> None:
        """The values came from `preset` (`modified`: edited since). Edited values that are
        a look again are named by it: the preset's own, else the style's ("Default", after
        Reset all), else any preset's they equal."""
        listed = self.presets.presets
        base = next((p for p in listed if p.name == preset), None)
        if modified:
            if base is not None and self.state.holds(base.values):
                modified = False
            elif self.state.at_defaults():
                base = None  # (without a preset, the state's `modified` is False there)
            else:
                same = next((p for p in listed if self.state.holds(p.values)), None)
                if same is not None:
                    base, modified = same, False
        self.state.set_preset(base.name if base is not None else None, modified)

    def _done(self) -> None:
        self._look = self.look()  # what the next change's undo step goes back to
