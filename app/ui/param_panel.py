"""Parameter controls generated from a style's declarations (ParamSpec).

Numbers get a slider and a numeric entry, booleans a check box, colours a colour button,
files (a .cube LUT) a button that opens a file dialog;
every row has a reset button and the declaration's help as tooltip. Groups become boxes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QStandardPaths, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QColor, QValidator
from PyQt6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QColorDialog,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..engine.params import ParamSet, ParamSpec, ParamValue, color_to_hex
from .undo import Gesture

MAX_SLIDER_STEPS = 1000
# A slider's steps (arrow keys held down, the wheel) this close together are one burst: the
# picture follows them as a draft until the burst ends (see ParamPanel.adjusting)
BURST_MS = 300
TYPED_LIMIT = 1_000_000_000  # what the numeric entry accepts; the parameter clamps
_DRAGS = itertools.count(1)  # each slider drag's own number: no two are one undo step


def _decimals(step: float) -> int:
    """Decimals needed to show multiples of `step` (0.25: 2, not 1: the slider's 12.25
    was shown, and typed, as 12.2)."""
    if step >= 1 and float(step).is_integer():
        return 0
    return next((d for d in range(1, 6)
                 if math.isclose(step * 10 ** d, round(step * 10 ** d), abs_tol=1e-6)), 6)


SIGNS = {"+": "", "-": "-", "\u2212": "-"}  # \u2212: the minus sign some keyboards type


def parse_typed(text: str, point: str = ".") -> Decimal | None:
    """The number typed in a field, exactly: digits with an optional sign and one decimal
    separator, the locale's (`point`), "." or "," (the fields show no group separators, so
    either is read as the decimal one in any locale); None when `text` is not a number."""
    body = text.strip()
    sign = SIGNS.get(body[:1])
    if sign is not None:
        body = body[1:]
    whole, sep, frac = next((body.partition(p) for p in (point, ".", ",") if p in body),
                            (body, "", ""))
    if not (whole or frac) or not all(c.isdecimal() for c in whole + frac):
        return None  # (a second separator is no digit)
    try:
        return Decimal(f"{sign or ''}{whole or '0'}{'.' if sep else ''}{frac}")
    except InvalidOperation:
        return None


def _typed_state(text: str, point: str) -> QValidator.State:
    """A number: Acceptable; anything else, one on its way or text that makes none (refused
    on Return, and said): Intermediate, so no keystroke is dropped unseen (a "." once was:
    2.7 became 27; an "e" too: 1e3 became 13)."""
    if parse_typed(text, point) is not None:
        return QValidator.State.Acceptable
    return QValidator.State.Intermediate


class Stepping:
    """Mixed into a spin box: tells its steps (arrow keys, wheel, its buttons) from typing;
    `stepping` is True while a step changes the value (a burst of them is one undo step, a
    typed value one of its own)."""

    stepping = False

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt's name
        """Qt's step, flagged."""
        self.stepping = True
        try:
            super().stepBy(steps)  # type: ignore[misc]
        finally:
            self.stepping = False


class SteppedSpin(Stepping, QSpinBox):
    """A QSpinBox whose steps are told from typing (`stepping`)."""


class SteppedDoubleSpin(Stepping, QDoubleSpinBox):
    """A QDoubleSpinBox whose steps are told from typing (`stepping`)."""


def steps_of(spin: object, key: str) -> Gesture | None:
    """The undo gesture of a spin box's change: a burst of steps named `key` while it steps,
    else none (a typed value, or a value set by a button or a script)."""
    return Gesture(key, burst=True) if getattr(spin, "stepping", False) else None


class _TypedEntry(Stepping):
    """What a number field (a spin box this is mixed into) does with typed text: a number
    with the locale's or another common decimal separator, rounded half away from zero to
    the decimals the field holds; what was rounded or refused is kept for its row to say
    (`take_typed`, `take_note`)."""

    _typed: tuple[Decimal, float] | None = None  # the last number typed: exact, as held
    _refused: str | None = None  # the last text that was no number
    _last: Decimal | None = None  # the last number typed, whatever became of it

    @property
    def decimals_held(self) -> int:
        """The decimals the field holds."""
        return 0

    def _point(self) -> str:
        return self.locale().decimalPoint() or "."  # type: ignore[attr-defined]

    def validate(self, text: str | None, pos: int) -> tuple[QValidator.State, str, int]:
        """Qt's check of the text as typed (see _typed_state)."""
        if self._special(text or ""):
            return QValidator.State.Acceptable, text or "", pos
        return _typed_state(self._bare(text or ""), self._point()), text or "", pos

    def _bare(self, text: str) -> str:
        """The text typed without the field's prefix and suffix (" lines")."""
        body = text.strip()
        prefix = self.prefix().strip()  # type: ignore[attr-defined]
        suffix = self.suffix().strip()  # type: ignore[attr-defined]
        if prefix:
            body = body.removeprefix(prefix).strip()
        if suffix:
            body = body.removesuffix(suffix).strip()
        return body

    def _special(self, text: str) -> bool:
        """Whether `text` is the field's word for its minimum ("All")."""
        special = self.specialValueText()  # type: ignore[attr-defined]
        return bool(special) and special.strip().lower() in (text.strip().lower(),
                                                            self._bare(text).lower())

    def fixup(self, text: str | None) -> str:
        """Qt's last chance for text that is no number: kept to be said; the field goes back
        to its value."""
        if (text or "").strip():
            self._refused = text
        return text or ""

    def _held(self, text: str) -> float:
        if self._special(text):
            return float(self.minimum())  # type: ignore[attr-defined]
        exact = parse_typed(self._bare(text), self._point())
        if exact is None:  # (Qt asks only for text that validate accepts)
            return float(self.value())  # type: ignore[attr-defined]
        self._last = exact
        lo = min(-TYPED_LIMIT, self.minimum())  # type: ignore[attr-defined]
        hi = max(TYPED_LIMIT, self.maximum())  # type: ignore[attr-defined]
        within = min(max(exact, Decimal(lo)), Decimal(hi))
        held = float(within.quantize(Decimal(1).scaleb(-self.decimals_held), ROUND_HALF_UP))
        self._typed = (exact, held) if exact != Decimal(repr(held)) else None
        return held

    def take_exact(self) -> Decimal | None:
        """The number last typed, exactly (None: no typing since the last call)."""
        last, self._last = self._last, None
        return last

    def take_typed(self, value: float) -> Decimal | None:
        """The number typed, when the field rounded it to `value`; else None."""
        typed, self._typed = self._typed, None
        return typed[0] if typed is not None and typed[1] == value else None

    def take_note(self) -> tuple[Decimal, float] | str | None:
        """What the last typing left unsaid when its value did not change: the number typed
        and what it was rounded to, or the text that was no number; else None."""
        typed, self._typed = self._typed, None
        refused, self._refused = self._refused, None
        return refused if refused is not None else typed


class IntEntry(_TypedEntry, QSpinBox):
    """A whole-number field that takes a decimal typed into it as the nearest whole number."""

    def valueFromText(self, text: str | None) -> int:  # noqa: N802 - Qt's name
        """The whole number the text rounds to."""
        return int(self._held(text or ""))


class FloatEntry(_TypedEntry, QDoubleSpinBox):
    """A decimal field that takes more decimals than it holds, rounded to those."""

    @property
    def decimals_held(self) -> int:
        """The decimals the field holds (and typed numbers are rounded to)."""
        return self.decimals()

    def valueFromText(self, text: str | None) -> float:  # noqa: N802 - Qt's name
        """The number the text rounds to."""
        return self._held(text or "")


class ParamRow:
    """The widgets of one parameter in a grid row; calls `on_change(name, value, ...)`."""

    def __init__(self, spec: ParamSpec, grid: QGridLayout, row: int, parent: QWidget,
                 on_change: Any, on_message: Callable[[str], None] | None = None,
                 on_slider: Callable[[str], None] | None = None) -> None:
        """`on_change(name, value, refresh, typed, gesture)`: `typed` the exact number typed
        where the field rounded it, `gesture` the undo gesture the change is part of (None: a
        step of its own); `on_message(text)`: what typing changed nothing but needs said;
        `on_slider(event)`: the slider "pressed", "released", or "step" (moved, not dragged)."""
        self.spec = spec
        self._on_change = on_change
        self._on_message = on_message
        self._on_slider = on_slider
        # the label is for people; the tooltip also names the parameter for --set and presets
        tip = f"{spec.help or spec.label}\n(Command line: --set {spec.name}=…)"
        self.label = QLabel(spec.label, parent)
        self.label.setToolTip(tip)
        self.label.setWordWrap(True)  # (a long name in two lines before the panel clips)
        grid.addWidget(self.label, row, 0)
        self.slider: QSlider | None = None
        self.spin: IntEntry | FloatEntry | None = None
        self.check: QCheckBox | None = None
        self.color_button: QPushButton | None = None
        self._color: tuple[float, float, float] = (0.0, 0.0, 0.0)
        self.combo: QComboBox | None = None
        self.file_button: QPushButton | None = None
        self._file = ""
        if spec.choices is not None:
            self.combo = QComboBox(parent)
            self.combo.addItems(list(spec.choices))
            self.combo.setToolTip(tip)
            self.combo.currentIndexChanged.connect(lambda i: self._emit(int(i)))
            grid.addWidget(self.combo, row, 1, 1, 2)
        elif spec.type in ("float", "int"):
            self._build_number(grid, row, parent, tip)
        elif spec.type == "bool":
            self.check = QCheckBox(parent)
            self.check.setToolTip(tip)
            self.check.toggled.connect(lambda on: self._emit(bool(on)))
            grid.addWidget(self.check, row, 1, 1, 2)
        elif spec.type == "file":
            self.file_button = QPushButton("none", parent)
            self.file_button.setToolTip(tip)
            self.file_button.clicked.connect(self._pick_file)
            grid.addWidget(self.file_button, row, 1, 1, 2)
        else:
            self.color_button = QPushButton(parent)
            self.color_button.setToolTip(tip)
            self.color_button.clicked.connect(self._pick_color)
            grid.addWidget(self.color_button, row, 1, 1, 2)
        self.reset_button = QToolButton(parent)
        self.reset_button.setText("\u21ba")
        self.reset_button.setAutoRaise(True)
        self.reset_button.setToolTip(f"Reset {spec.label} to {_fmt(spec)}")
        self.reset_button.clicked.connect(lambda: self._emit(spec.default, refresh=True))
        grid.addWidget(self.reset_button, row, 3)

    def _build_number(self, grid: QGridLayout, row: int, parent: QWidget, tip: str) -> None:
        spec = self.spec
        lo, hi = float(spec.min or 0), float(spec.max or 1)
        tip = f"{tip}\nRange {_num(lo)} to {_num(hi)}, default {_fmt(spec)}."
        self.label.setToolTip(tip)
        step = float(spec.step or (1 if spec.type == "int" else (hi - lo) / 100))
        self._lo, self._step = lo, step
        steps = max(1, min(MAX_SLIDER_STEPS, round((hi - lo) / step)))
        self._step = (hi - lo) / steps
        self.slider = QSlider(Qt.Orientation.Horizontal, parent)
        self.slider.setRange(0, steps)
        self.slider.setToolTip(tip)
        self.slider.setMinimumWidth(90)
        self.slider.valueChanged.connect(self._slider_moved)
        self.slider.sliderPressed.connect(self._drag_started)
        self.slider.sliderReleased.connect(lambda: self._slider_event("released"))
        self._drag = 0
        if spec.type == "int":
            spin: IntEntry | FloatEntry = IntEntry(parent)
            # The entry takes any number; out-of-range ones are clamped by the parameter
            # set, which says so (a spin box would silently refuse them).
            spin.setRange(-TYPED_LIMIT, TYPED_LIMIT)
            spin.setSingleStep(max(1, int(step)))
            spin.valueChanged.connect(lambda v: self._spin_changed(int(v)))
        else:
            spin = FloatEntry(parent)
            spin.setDecimals(_decimals(step))
            spin.setRange(-TYPED_LIMIT, TYPED_LIMIT)
            spin.setSingleStep(step)
            spin.valueChanged.connect(lambda v: self._spin_changed(float(v)))
        spin.setKeyboardTracking(False)
        spin.editingFinished.connect(self._typing_done)
        spin.setToolTip(tip)
        spin.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.NoButtons)
        spin.setAlignment(Qt.AlignmentFlag.AlignRight)
        spin.setMinimumWidth(56)
        self.spin = spin
        grid.addWidget(self.slider, row, 1)
        grid.addWidget(spin, row, 2)

    # -- events ----------------------------------------------------------------------------
    def _drag_started(self) -> None:
        self._drag = next(_DRAGS)
        self._slider_event("pressed")

    def _slider_event(self, event: str) -> None:
        if self._on_slider is not None:
            self._on_slider(event)

    def _slider_moved(self, pos: int) -> None:
        value: float | int = self._lo + pos * self._step
        value = int(round(value)) if self.spec.type == "int" else round(value, 9)
        if self.spin is not None:
            self.spin.blockSignals(True)
            self.spin.setValue(value)
            self.spin.blockSignals(False)
        # a drag, pauses and all, is one undo step; wheel and arrow keys, a burst of steps
        down = self.slider is not None and self.slider.isSliderDown()
        gesture = Gesture(f"{self.spec.name} drag {self._drag}") if down \
            else Gesture(f"{self.spec.name} steps", burst=True)
        if not down:
            self._slider_event("step")
        self._on_change(self.spec.name, value, False, None, gesture)

    def _spin_changed(self, value: float | int) -> None:
        # the panel clamps, says what was rounded or clamped, and shows the result
        typed = self.spin.take_typed(value) if self.spin is not None else None
        self._on_change(self.spec.name, value, True, typed,
                        steps_of(self.spin, f"{self.spec.name} steps"))

    def _typing_done(self) -> None:
        """Say what typing did where the value stayed (the field shows the value again)."""
        note = self.spin.take_note() if self.spin is not None else None  # (None or said)
        if note is None or self._on_message is None or self.spin is None:
            return
        now = self.spin.text()
        if isinstance(note, str):
            self._on_message(f"“{note.strip()}” is not a number: {self.spec.label} stays "
                             f"{now}")
        else:
            self._on_message(_rounded(self.spec.label, self.spin.decimals_held, *note))

    def _pick_color(self) -> None:
        r, g, b = (round(c * 255) for c in self._color)
        parent = self.color_button.window() if self.color_button else None
        color = QColorDialog.getColor(QColor(r, g, b), parent, self.spec.label)
        if color.isValid():
            self._emit(color.name(), refresh=True)

    def _pick_file(self) -> None:
        kinds = " ".join(f"*{e}" for e in self.spec.extensions or ())
        parent = self.file_button.window() if self.file_button else None
        start = self._file or QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.DocumentsLocation)
        path, _ = QFileDialog.getOpenFileName(parent, self.spec.label, start,
                                              f"{self.spec.label} ({kinds})")
        if not path:
            return
        try:
            self.spec.coerce(path)  # a broken file: one clear line, the current one stays
        except ValueError as e:
            QMessageBox.warning(parent, f"Cannot use this {self.spec.label}", str(e))
            return
        self._emit(path, refresh=True)

    def _emit(self, value: Any, refresh: bool = False) -> None:
        self._on_change(self.spec.name, value, refresh)

    # -- display ---------------------------------------------------------------------------
    def show_value(self, value: ParamValue) -> None:
        """Show `value` without emitting changes."""
        if self.combo is not None:
            self.combo.blockSignals(True)
            self.combo.setCurrentIndex(int(value))  # type: ignore[arg-type]
            self.combo.blockSignals(False)
        elif self.slider is not None and self.spin is not None:
            assert isinstance(value, int | float)
            for w in (self.slider, self.spin):
                w.blockSignals(True)
            self.slider.setValue(round((float(value) - self._lo) / self._step))
            self.spin.setValue(value)  # type: ignore[arg-type]
            for w in (self.slider, self.spin):
                w.blockSignals(False)
        elif self.check is not None:
            self.check.blockSignals(True)
            self.check.setChecked(bool(value))
            self.check.blockSignals(False)
        elif self.file_button is not None:
            self._file = str(value)
            self.file_button.setText(Path(self._file).name if self._file else "none")
            self.file_button.setToolTip(self._file or self.spec.help)
        elif self.color_button is not None and isinstance(value, tuple):
            self._color = value
            hex_ = color_to_hex(value)
            self.color_button.setText(hex_)
            text = "#000000" if sum(value) > 1.5 else "#ffffff"
            self.color_button.setStyleSheet(f"background-color: {hex_}; color: {text};")
        modified = value != self.spec.default
        font = self.label.font()
        font.setItalic(modified)
        self.label.setFont(font)


def _num(x: float) -> str:
    """A number as people write it (no exponent for a whole number however big)."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def clamped_said(label: str, lo: float, hi: float, said: str, taken: float,
                 note: str = "") -> str:
    """What the status bar says of a number typed outside a field's range (`note`: after
    the range, e.g. " (0: all)")."""
    return f"{label} goes from {_num(lo)} to {_num(hi)}{note}: {said} was clamped to " \
           f"{_num(taken)}"


def _rounded(label: str, decimals: int, typed: Decimal, value: float) -> str:
    """What the status bar says of a typed number that a field holding `decimals` rounded."""
    held = "whole numbers" if decimals == 0 else \
        f"{decimals} decimal{'' if decimals == 1 else 's'}"
    return f"{label} takes {held}: {typed:f} was rounded to {value:.{decimals}f}"


def _fmt(spec: ParamSpec) -> str:
    d = spec.default
    if isinstance(d, tuple):
        return color_to_hex(d)
    if d == "":
        return "none"
    return f"{d:g}" if isinstance(d, float) else str(d)


class ParamPanel(QWidget):
    """All parameters of the current style, grouped, bound to a ParamSet."""

    changed = pyqtSignal(str)  # a parameter name, or "" after reset all / reload
    message = pyqtSignal(str)  # status-bar text of typing that changed no value
    # True while values come fast (a slider held down, or stepped in a burst: BURST_MS), then
    # False once: the view paints drafts meanwhile and the full picture at the end
    adjusting = pyqtSignal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.params: ParamSet | None = None
        self.rows: dict[str, ParamRow] = {}
        self.warning: str | None = None
        self.gesture: Gesture | None = None  # the last change's (see `undo.Gesture`)
        self._body: QWidget | None = None
        self._held = False  # a slider is held down
        self._burst = False  # ... or stepped twice within BURST_MS
        self.is_adjusting = False  # what `adjusting` said last
        self._burst_timer = QTimer(self)
        self._burst_timer.setSingleShot(True)
        self._burst_timer.setInterval(BURST_MS)
        self._burst_timer.timeout.connect(self.end_burst)

    def bind(self, params: ParamSet) -> None:
        """Build the rows for `params` (a new style)."""
        if self._body is not None:
            self._layout.removeWidget(self._body)
            self._body.hide()  # gone now, not when the event loop deletes it
            self._body.deleteLater()
        self.params = params
        self.rows = {}
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        reset_all = QPushButton("Reset all parameters", body)
        reset_all.setObjectName("resetAll")
        reset_all.setToolTip("Every parameter back to the style's default")
        reset_all.clicked.connect(self.reset_all)
        layout.addWidget(reset_all)
        for group, specs in params.groups().items():
            box = QGroupBox(group, body)
            grid = QGridLayout(box)
            grid.setContentsMargins(6, 4, 2, 4)
            grid.setHorizontalSpacing(4)
            grid.setVerticalSpacing(2)
            grid.setColumnStretch(1, 1)
            for row, spec in enumerate(specs):
                self.rows[spec.name] = ParamRow(spec, grid, row, box, self._on_change,
                                                self.message.emit, self._slider_event)
            layout.addWidget(box)
        layout.addStretch(1)
        self._body = body
        self._layout.addWidget(body)
        self._held = False  # (the rows held are gone)
        self.end_burst()
        self.refresh()

    def _slider_event(self, event: str) -> None:
        if event == "step":
            # the first step of a burst is painted whole; the ones after it as drafts
            self._burst = self._burst_timer.isActive()
            self._burst_timer.start()
        else:
            self._held = event == "pressed"
        self._say_adjusting()

    def end_burst(self) -> None:
        """A burst of slider steps is over (BURST_MS without one)."""
        self._burst_timer.stop()
        self._burst = False
        self._say_adjusting()

    def _say_adjusting(self) -> None:
        on = self._held or self._burst
        if on != self.is_adjusting:
            self.is_adjusting = on
            self.adjusting.emit(on)

    def refresh(self) -> None:
        """Show the ParamSet's current values."""
        if self.params is None:
            return
        values = self.params.values()
        for name, row in self.rows.items():
            row.show_value(values[name])

    def set_value(self, name: str, value: Any) -> None:
        """Set a parameter as if the user had (clamped; the warning is kept in `warning`)."""
        self._on_change(name, value, True)

    def reset_all(self) -> None:
        """Every parameter to its default."""
        if self.params is None:
            return
        self.params.reset()
        self.refresh()
        self.gesture = None
        self.changed.emit("")

    def _on_change(self, name: str, value: Any, refresh: bool,
                   typed: Decimal | None = None, gesture: Gesture | None = None) -> None:
        """`typed`: the exact number typed, where the field rounded it to `value`;
        `gesture`: the undo gesture the change is part of (None: a step of its own)."""
        if self.params is None:
            return
        row = self.rows[name]
        spec = row.spec
        try:
            self.warning = self.params.set(name, value)
        except ValueError as e:
            self.warning = f"{spec.label}: {e}"
        if self.warning is not None and spec.min is not None and spec.max is not None \
                and not isinstance(value, str):
            said = f"{typed:f}" if typed is not None else _num(float(value))
            self.warning = clamped_said(spec.label, float(spec.min), float(spec.max), said,
                                        float(self.params[name]))
        elif typed is not None and row.spin is not None:
            self.warning = _rounded(spec.label, row.spin.decimals_held, typed, value)
        if refresh or self.warning:
            self.rows[name].show_value(self.params[name])
        else:
            row = self.rows[name]
            font = row.label.font()
            font.setItalic(self.params[name] != row.spec.default)
            row.label.setFont(font)
        self.gesture = gesture
        self.changed.emit(name)
