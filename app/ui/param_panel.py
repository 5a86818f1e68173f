"""Parameter controls generated from a style's declarations (ParamSpec).

Numbers get a slider and a numeric entry, booleans a check box, colours a colour button,
files (a .cube LUT) a button that opens a file dialog;
every row has a reset button and the declaration's help as tooltip. Groups become boxes.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QStandardPaths, Qt, pyqtSignal
from PyQt6.QtGui import QColor
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

MAX_SLIDER_STEPS = 1000
TYPED_LIMIT = 1_000_000_000  # what the numeric entry accepts; the parameter clamps


def _decimals(step: float) -> int:
    """Decimals needed to show multiples of `step`."""
    if step >= 1:
        return 0
    return min(6, max(1, math.ceil(-math.log10(step) - 1e-9)))


class ParamRow:
    """The widgets of one parameter in a grid row; calls `on_change(name, value)`."""

    def __init__(self, spec: ParamSpec, grid: QGridLayout, row: int, parent: QWidget,
                 on_change: Any) -> None:
        self.spec = spec
        self._on_change = on_change
        # the label is for people; the tooltip also names the parameter for --set and presets
        tip = f"{spec.help or spec.label}\n(Command line: --set {spec.name}=…)"
        self.label = QLabel(spec.label, parent)
        self.label.setToolTip(tip)
        grid.addWidget(self.label, row, 0)
        self.slider: QSlider | None = None
        self.spin: QSpinBox | QDoubleSpinBox | None = None
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
        if spec.type == "int":
            spin: QSpinBox | QDoubleSpinBox = QSpinBox(parent)
            # The entry takes any number; out-of-range ones are clamped by the parameter
            # set, which says so (a spin box would silently refuse them).
            spin.setRange(-TYPED_LIMIT, TYPED_LIMIT)
            spin.setSingleStep(max(1, int(step)))
            spin.valueChanged.connect(lambda v: self._spin_changed(int(v)))
        else:
            spin = QDoubleSpinBox(parent)
            spin.setDecimals(_decimals(step))
            spin.setRange(-TYPED_LIMIT, TYPED_LIMIT)
            spin.setSingleStep(step)
            spin.valueChanged.connect(lambda v: self._spin_changed(float(v)))
        spin.setKeyboardTracking(False)
        spin.setToolTip(tip)
        spin.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.NoButtons)
        spin.setAlignment(Qt.AlignmentFlag.AlignRight)
        spin.setMinimumWidth(56)
        self.spin = spin
        grid.addWidget(self.slider, row, 1)
        grid.addWidget(spin, row, 2)

    # -- events ----------------------------------------------------------------------------
    def _slider_moved(self, pos: int) -> None:
        value: float | int = self._lo + pos * self._step
        value = int(round(value)) if self.spec.type == "int" else round(value, 9)
        if self.spin is not None:
            self.spin.blockSignals(True)
            self.spin.setValue(value)
            self.spin.blockSignals(False)
        self._emit(value)

    def _spin_changed(self, value: float | int) -> None:
        self._emit(value, refresh=True)  # the panel clamps, warns and shows the result

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
    return f"{x:g}"


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

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.params: ParamSet | None = None
        self.rows: dict[str, ParamRow] = {}
        self.warning: str | None = None
        self._body: QWidget | None = None

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
                self.rows[spec.name] = ParamRow(spec, grid, row, box, self._on_change)
            layout.addWidget(box)
        layout.addStretch(1)
        self._body = body
        self._layout.addWidget(body)
        self.refresh()

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
        self.changed.emit("")

    def _on_change(self, name: str, value: Any, refresh: bool) -> None:
        if self.params is None:
            return
        spec = self.rows[name].spec
        try:
            self.warning = self.params.set(name, value)
        except ValueError as e:
            self.warning = f"{spec.label}: {e}"
        if self.warning is not None and spec.min is not None and spec.max is not None \
                and not isinstance(value, str):
            self.warning = (f"{spec.label} goes from {_num(float(spec.min))} to "
                            f"{_num(float(spec.max))}: {_num(float(value))} was clamped to "
                            f"{_num(float(self.params[name]))}")
        if refresh or self.warning:
            self.rows[name].show_value(self.params[name])
        else:
            row = self.rows[name]
            font = row.label.font()
            font.setItalic(self.params[name] != row.spec.default)
            row.label.setFont(font)
        self.changed.emit(name)
