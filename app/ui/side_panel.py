"""The controls beside the picture: source, style and chain, preset, seed, processing scale,
compare, debug view and the style's parameters, in a scrolling panel."""

from __future__ import annotations

from pathlib import Path

from PyQt6.QtCore import QSize, Qt
from PyQt6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..engine.chain_spec import AnyStyle
from ..engine.renderer import MAX_SEED, MAX_VIDEO_LINES, VIDEO_LINES, scale_applies
from ..engine.style import list_styles, load_style
from ..engine.style_stage import MAX_SCALE, MIN_SCALE
from .chain_panel import ChainPanel
from .param_panel import FloatEntry, IntEntry, ParamPanel
from .presets_panel import PresetsPanel
from .render_state import RenderState
from .source_controls import SourcePanel
from .view_transform import CompareMode

MIN_WIDTH = 340  # at least (the widgets' own minimum decides: narrowest())
SCALE_TIP = ("Processing scale: paint at this fraction of the source size and enlarge "
             "(faster, less detail; Command line: --scale)")


class SidePanel(QScrollArea):
    """The widgets of the side panel, built once; the controllers connect to them."""

    def __init__(self, state: RenderState, preset_dir: Path | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)

        source_box = QGroupBox("Source", body)
        self.source_panel = SourcePanel(source_box)
        self.source_panel.cameras.addItem("cameras: press \u27f3 to look", None)
        QVBoxLayout(source_box).addWidget(self.source_panel)
        layout.addWidget(source_box)

        style_box = QGroupBox("Style", body)
        form = QFormLayout(style_box)
        # (a field too wide beside its label goes under it: the panel narrows, nothing cut)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        form.setContentsMargins(6, 4, 6, 4)
        specs = [load_style(n) for n in list_styles()]
        self.style_combo = QComboBox(style_box)
        for spec in specs:
            self.style_combo.addItem(spec.label, spec.name)
            self.style_combo.setItemData(self.style_combo.count() - 1,
                                         f"{spec.description}\n(Command line: --style "
                                         f"{spec.name})", Qt.ItemDataRole.ToolTipRole)
        self.style_combo.setToolTip("The rendering style (one style; build a chain below)")
        form.addRow("Style", self.style_combo)
        self.chain_panel = ChainPanel([s.name for s in specs], {s.name: s.label for s in specs},
                                      {s.name: s.chain_order for s in specs}, style_box)
        form.addRow("Chain", self.chain_panel)
        # the state's params are replaced on every style switch: read them when asked
        self.presets = PresetsPanel(lambda: state.params.as_json_values(), style_box,
                                    preset_dir, defaults=lambda: state.params.defaults_json())
        self.presets.look_args = lambda: _look_args(state)
        self.presets.set_style(state.style.name)
        form.addRow("Preset", self.presets)
        seed_row = QHBoxLayout()
        # typed numbers out of range are clamped and said (LookEditor), not cut off as typed
        self.seed_spin = IntEntry(style_box)  # (its steps in a row: one undo step)
        self.seed_spin.setRange(0, MAX_SEED)
        self.seed_spin.setValue(state.seed)
        self.seed_spin.setKeyboardTracking(False)
        self.seed_spin.setToolTip("Seed of the paper and pigment noise (Command line: --seed)")
        self.new_seed = QToolButton(style_box)
        self.new_seed.setText("New")
        self.new_seed.setToolTip("A new random seed (N)")
        seed_row.addWidget(self.seed_spin, 1)
        seed_row.addWidget(self.new_seed)
        form.addRow("Seed", seed_row)
        self.scale_spin = FloatEntry(style_box)
        self.scale_spin.setRange(MIN_SCALE, MAX_SCALE)
        self.scale_spin.setSingleStep(0.05)
        self.scale_spin.setDecimals(2)
        self.scale_spin.setValue(state.scale)
        self.scale_spin.setKeyboardTracking(False)
        self._scale_for(state.style)
        form.addRow("Processing scale", self.scale_spin)
        self.video_lines_spin = IntEntry(style_box)
        self.video_lines_spin.setRange(0, MAX_VIDEO_LINES)
        self.video_lines_spin.setSingleStep(180)
        self.video_lines_spin.setSpecialValueText("All")
        self.video_lines_spin.setSuffix(" lines")
        self.video_lines_spin.setValue(state.video_lines)
        self.video_lines_spin.setKeyboardTracking(False)
        self.video_lines_spin.setToolTip(
            f"A video's or camera's frames are painted at most this many lines (their short "
            f"side), the paper laid at full size: a 4K video painted at {VIDEO_LINES} lines "
            f"looks the same at a third of the cost. All: every line (Command line: "
            f"--video-lines)")
        form.addRow("Video painted at", self.video_lines_spin)
        self.compare_combo = QComboBox(style_box)
        for mode in CompareMode:
            self.compare_combo.addItem(mode.value.capitalize(), mode)
        self.compare_combo.setToolTip("Show the original next to the result (C); hold O to see "
                                      "the original")
        form.addRow("Compare", self.compare_combo)
        self.debug_combo = QComboBox(style_box)
        self.debug_combo.setToolTip("Show a step of the painting instead of the result (D)")
        form.addRow("View", self.debug_combo)
        layout.addWidget(style_box)

        params_box = QGroupBox("Parameters", body)
        self.param_panel = ParamPanel(params_box)
        self.param_panel.bind(state.params)
        QVBoxLayout(params_box).addWidget(self.param_panel)
        layout.addWidget(params_box)
        layout.addStretch(1)

        self.setWidget(body)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(self.narrowest())
        self.state = state
        state.subscribe(self._state_changed)

    def narrowest(self) -> int:
        """The narrowest the panel shows all its widgets at, its long rows wrapped (it never
        scrolls sideways: a dock dragged narrower than its widgets cut off each parameter's
        value and reset, trial W11)."""
        body = self.widget()
        inner = body.minimumSizeHint().width() if body is not None else 0
        bar = self.verticalScrollBar()
        return max(MIN_WIDTH, inner + (bar.sizeHint().width() if bar is not None else 0)
                   + 2 * self.frameWidth())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """Room for its widgets laid out at ease (each label beside its field)."""
        body = self.widget()
        bar = self.verticalScrollBar()
        wide = (body.sizeHint().width() if body is not None else 0) \
            + (bar.sizeHint().width() if bar is not None else 0) + 2 * self.frameWidth()
        return QSize(max(wide, self.narrowest()), super().sizeHint().height())

    def _state_changed(self, change: str) -> None:
        """The widgets show the state, whoever changed it (undo, a preset, a restart)."""
        state = self.state
        if change == "style":
            self.param_panel.bind(state.params)
            self._scale_for(state.style)
            self.setMinimumWidth(self.narrowest())  # (another style's longer labels)
        elif change == "values":
            self.param_panel.refresh()
        elif change == "seed":
            _show(self.seed_spin, state.seed)
        elif change == "scale":
            _show(self.scale_spin, state.scale)
            _show(self.video_lines_spin, state.video_lines)
        elif change == "view":
            index = self.compare_combo.findData(CompareMode(state.compare))
            self.compare_combo.blockSignals(True)
            self.compare_combo.setCurrentIndex(index)
            self.compare_combo.blockSignals(False)

    def _scale_for(self, style: AnyStyle) -> None:
        """The processing scale is offered where it paints something smaller: never for a
        lone upscale (super-resolution runs at full scale: renderer.scaled_styles)."""
        applies = scale_applies(style)
        self.scale_spin.setEnabled(applies)
        self.scale_spin.setToolTip(SCALE_TIP if applies else
                                   f"{style.label} runs at full scale: super-resolution on "
                                   "a shrunk picture is blurrier than a plain resize")


def _look_args(state: RenderState) -> str:
    """The seed and processing scale as command-line options, where not the defaults."""
    return (f" --seed {state.seed}" if state.seed != 0 else "") + \
        (f" --scale {state.scale:g}" if state.scale != 1.0 else "")


def _show(spin: QSpinBox | QDoubleSpinBox, value: float) -> None:
    spin.blockSignals(True)
    spin.setValue(value)  # type: ignore[arg-type]
    spin.blockSignals(False)
