"""Every keyboard shortcut of the app in one table (menus, the Help dialog and docs use it)."""

from __future__ import annotations

from dataclasses import dataclass

from PyQt6.QtWidgets import QDialog, QDialogButtonBox, QTreeWidget, QTreeWidgetItem, QVBoxLayout


@dataclass(frozen=True)
class Shortcut:
    """An action id, its keys (Qt key-sequence text; the first is primary) and what it does."""

    action: str
    keys: tuple[str, ...]
    text: str
    menu: str
    label: str | None = None  # the menu item's words where the text is long (else its head)

    @property
    def menu_text(self) -> str:
        """The menu item's words: `label`, else the text before any parenthesis; an item
        that opens a dialog keeps its "\u2026" (its text ends with one)."""
        words = self.label or self.text.split(" (")[0]
        dialog = self.text.endswith("\u2026") and not words.endswith("\u2026")
        return words + "\u2026" if dialog else words


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("open", ("Ctrl+O",), "Open an image or video file\u2026", "File"),
    Shortcut("demo", ("Ctrl+D",), "Open the demo clip", "File"),
    Shortcut("camera", ("Ctrl+K",), "Open the next camera", "File"),
    Shortcut("snapshot", ("Ctrl+Shift+S",), "Save a snapshot (PNG, full source resolution)",
             "File"),
    Shortcut("snapshot_as", ("Ctrl+Alt+S",), "Save a snapshot as\u2026", "File"),
    Shortcut("record", ("Ctrl+Shift+R",), "Start / stop recording the stylized output", "File"),
    Shortcut("export", ("Ctrl+E",), "Export the painted video or image\u2026", "File"),
    Shortcut("quit", ("Ctrl+Q",), "Quit", "File"),
    Shortcut("undo", ("Ctrl+Z",),
             "Undo a change of parameters, preset, seed, scale or video lines", "Edit", "Undo"),
    Shortcut("redo", ("Ctrl+Shift+Z", "Ctrl+Y"), "Redo", "Edit"),
    Shortcut("play", ("Space",), "Play / pause", "Playback"),
    Shortcut("step", (".",), "Next frame (pauses)", "Playback"),
    Shortcut("step_back", (",",), "Previous frame (pauses)", "Playback"),
    Shortcut("rewind", ("Home",), "Back to the start", "Playback"),
    Shortcut("jump_back", ("J",), "Back one second (pauses)", "Playback"),
    Shortcut("pause", ("K",), "Pause", "Playback"),
    Shortcut("play_on", ("L",), "Play", "Playback"),
    Shortcut("slower", ("<",), "Play slower (down to a quarter of the speed)", "Playback"),
    Shortcut("faster", (">",), "Play faster (up to twice the speed)", "Playback"),
    Shortcut("loop", ("Ctrl+L",), "Loop playback on / off", "Playback"),
    Shortcut("mute", ("M",), "Sound off / on", "Playback"),
    Shortcut("compare", ("C",), "Cycle compare: off / split / side by side", "View"),
    Shortcut("original", ("O",), "Hold to see the original", "View"),
    Shortcut("debug", ("D",), "Cycle debug views (intermediate targets)", "View"),
    Shortcut("fit", ("0", "Ctrl+0"), "Fit to window", "View"),
    Shortcut("actual", ("1",), "Actual pixels (1:1)", "View"),
    Shortcut("zoom_in", ("+", "="), "Zoom in", "View"),
    Shortcut("zoom_out", ("-",), "Zoom out", "View"),
    Shortcut("fullscreen", ("F", "F11"), "Fullscreen on / off (Esc leaves)", "View"),
    Shortcut("panel", ("F9",), "Show / hide the side panel", "View"),
    Shortcut("pass_times", ("P",), "Show / hide GPU pass times", "View"),
    Shortcut("reset_all", ("Ctrl+R",), "Reset all parameters", "Style"),
    Shortcut("next_preset", ("PgDown",), "Next preset", "Style"),
    Shortcut("prev_preset", ("PgUp",), "Previous preset", "Style"),
    Shortcut("save_preset", ("Ctrl+S",), "Save the parameters as a preset\u2026", "Style"),
    Shortcut("new_seed", ("N",), "New random seed", "Style"),
    Shortcut("reload_shaders", ("F5",), "Reload shaders from disk", "Style"),
    Shortcut("virtual_camera", ("Ctrl+Shift+V",),
             "Virtual camera on / off (the painted picture in video calls)", "Live"),
    Shortcut("mirror", ("Ctrl+M",), "Mirror the camera (selfie view)", "Live"),
    Shortcut("adaptive", ("Ctrl+Shift+A",),
             "Adaptive quality on / off (cameras and playing videos hold their frame rate)",
             "Live"),
    Shortcut("help", ("F1",), "Keyboard shortcuts", "Help"),
)

BY_ACTION = {s.action: s for s in SHORTCUTS}


@dataclass(frozen=True)
class PanelKey:
    """A key that acts in one panel, while it has the focus (no menu item)."""

    keys: str
    text: str


# The chain panel's keys (its list of styles)
CHAIN_REMOVE = PanelKey("Delete", "Remove the selected style from the chain (chain panel)")
CHAIN_EARLIER = PanelKey("Alt+Up", "Move the selected style earlier (chain panel)")
CHAIN_LATER = PanelKey("Alt+Down", "Move the selected style later (chain panel)")
PANEL_KEYS = (CHAIN_REMOVE, CHAIN_EARLIER, CHAIN_LATER)


def _rows() -> list[tuple[str, str]]:
    """Every key and what it does: the menus' first, then the panels'."""
    return [(" / ".join(s.keys), s.text) for s in SHORTCUTS] + \
        [(k.keys, k.text) for k in PANEL_KEYS]


def step_text(action: str, what: str) -> str:
    """Undo's or Redo's menu item naming its step ("Undo Seed change"; `what` "": "Undo")."""
    words = BY_ACTION[action].menu_text
    return f"{words} {what}" if what else words


def shortcut_table_markdown() -> str:
    """The table for the README."""
    lines = ["| Keys | Action |", "| --- | --- |"]
    lines += [f"| {keys} | {text} |" for keys, text in _rows()]
    return "\n".join(lines)


class ShortcutsDialog(QDialog):
    """The Help > Keyboard shortcuts list."""

    def __init__(self, parent: object = None) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self.setWindowTitle("Keyboard shortcuts")
        tree = QTreeWidget(self)
        tree.setColumnCount(2)
        tree.setHeaderLabels(["Keys", "Action"])
        tree.setRootIsDecorated(False)
        for keys, text in _rows():
            tree.addTopLevelItem(QTreeWidgetItem([keys, text]))
        tree.resizeColumnToContents(0)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tree)
        layout.addWidget(buttons)
        self.resize(480, 560)
