"""Preset chooser with save / rename / delete of user presets, and import / export of preset
files (the "⋯" menu)."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from PyQt6.QtCore import QSize, Qt, QUrl, pyqtSignal
from PyQt6.QtGui import QAction, QDesktopServices, QIcon, QImage, QPixmap
from PyQt6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..engine.chain_spec import JOIN, load_chain, param_set
from ..engine.errors import AquarelleError
from ..engine.presets import (
    Preset,
    check_preset_name,
    delete_preset,
    describe_preset,
    export_preset,
    importable,
    list_presets,
    preset_key,
    preset_label,
    rename_preset,
    save_preset,
    user_preset_named,
    user_presets_dir,
)

CUSTOM = "Custom"
DEFAULT = "Default"
CLI_STYLE = "watercolor"  # what `aquarelle render` paints without --style

# paints the frame on screen in each look given (full values), or None without a frame
Thumbnailer = Callable[[list[dict[str, Any]]], "list[np.ndarray] | None"]
# what the user preset folders held when listed: each folder's .json files, mtimes, sizes
Stamp = tuple["tuple[tuple[str, int, int], ...] | None", ...]


def _show_in_file_manager(folder: Path) -> None:
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))


def _kept(preset: Preset, values: dict[str, Any]) -> list[str]:
    """The parameters among `values` that choosing `preset` leaves as they are: in a chain,
    those of the styles its values do not speak of (RenderState.apply_values)."""
    owners = {k.split(".", 1)[0] for k in preset.values if "." in k}
    if not owners:
        return []
    return [k for k in values if "." in k and k.split(".", 1)[0] not in owners]


class _PresetCombo(QComboBox):
    """A combo that asks for a fresh list (files copied into the presets folder) and
    pictures (the frame may have moved on) each time its list opens."""

    def __init__(self, opening: Callable[[], None], parent: QWidget) -> None:
        super().__init__(parent)
        self._opening = opening

    def showPopup(self) -> None:  # noqa: N802 - Qt's name
        self._opening()
        super().showPopup()


def _icon(rgb: np.ndarray) -> QIcon:
    h, w = rgb.shape[:2]
    data = np.ascontiguousarray(rgb)
    return QIcon(QPixmap.fromImage(QImage(data.data, w, h, 3 * w,
                                          QImage.Format.Format_RGB888).copy()))


class PresetsPanel(QWidget):
    """Lists the built-in and user presets of one style; emits the chosen preset."""

    presetChosen = pyqtSignal(object)  # Preset
    message = pyqtSignal(str)  # status-bar text
    problem = pyqtSignal(str, str)  # a dialog's title and text (a preset file left out)
    stateChanged = pyqtSignal(object, bool)  # base preset name or None, modified (no undo)

    def __init__(self, values: Callable[[], dict[str, Any]],
                 parent: QWidget | None = None, user_dir: Path | None = None, *,
                 defaults: Callable[[], dict[str, Any]]) -> None:
        super().__init__(parent)
        self._values = values  # current parameter values, JSON-friendly
        self._defaults = defaults  # the style's own values, JSON-friendly
        self.thumbnails: Thumbnailer | None = None  # set by the window: the menu's pictures
        # the look's other settings as command-line options ("--seed 7 --scale 0.5", the
        # defaults left out): set by the window, so a tooltip's line paints what is shown
        self.look_args: Callable[[], str] = lambda: ""
        self.user_dir = user_dir  # None: the XDG config folder
        self.style = "watercolor"
        self.presets: list[Preset] = []
        self.base: str | None = None  # the preset the current values started from
        self._at_defaults = False
        self._skipped: list[str] = []  # user preset files left out, not yet told
        self._told: set[str] = set()  # ... told once a session each
        self._stamp: Stamp = ()  # the user folders as last listed
        self.last_dir = Path.home()  # where import and export dialogs open
        self.open_folder: Callable[[Path], None] = _show_in_file_manager  # (the window's)
        self.combo = _PresetCombo(self._opening, self)
        self.about = QLabel(self)  # what the preset shown is for
        self.about.setWordWrap(True)
        self.about.setEnabled(False)  # a quieter colour: a note, not a control
        self.combo.setToolTip("Built-in and user presets of this style")
        self.combo.activated.connect(self._chosen)
        self.save_button = QPushButton("Save\u2026", self)
        self.save_button.setToolTip("Save the current parameters as a user preset")
        self.rename_button = QPushButton("Rename\u2026", self)
        self.delete_button = QPushButton("Delete", self)
        self.save_button.clicked.connect(self.save_dialog)
        self.rename_button.clicked.connect(self.rename_dialog)
        self.delete_button.clicked.connect(self.delete_current)
        self.more_button = self._more_menu()
        buttons = QHBoxLayout()
        for b in (self.save_button, self.rename_button, self.delete_button):
            buttons.addWidget(b)
        buttons.addWidget(self.more_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addWidget(self.about)
        layout.addLayout(buttons)

    def _more_menu(self) -> QToolButton:
        """The "⋯" button: Import preset…, Export preset…, Show presets folder."""
        button = QToolButton(self)
        button.setText("\u22ef")
        button.setAccessibleName("More preset actions")
        button.setToolTip("Import or export a preset file; show the presets folder")
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        button.setStyleSheet("QToolButton::menu-indicator { image: none; }")  # "⋯" says it
        menu = QMenu(button)
        items = (("Import preset\u2026", "Copy a preset file (.json) among your presets of "
                  "its style", self.import_dialog),
                 ("Export preset\u2026", "Write the chosen preset to a .json file",
                  self.export_dialog),
                 ("Show presets folder", "Open the folder your presets of this style are "
                  "kept in", self.show_folder))
        actions = []
        for text, tip, slot in items:
            action = QAction(text, menu)
            action.setToolTip(tip)
            action.setStatusTip(tip)
            action.triggered.connect(slot)
            menu.addAction(action)
            actions.append(action)
        menu.setToolTipsVisible(True)
        self.import_action, self.export_action, self.folder_action = actions
        button.setMenu(menu)
        return button

    def _dir(self, style: str | None = None) -> Path | None:
        return self.user_dir / (style or self.style) if self.user_dir is not None else None

    def _skip(self, text: str) -> None:
        if text not in self._told:
            self._told.add(text)
            self._skipped.append(text)

    def report_problems(self) -> None:
        """Tell of the user preset files left out (broken JSON, no values), once each: the
        chooser would only lack them (call once the window listens, for the first read)."""
        if self._skipped and self.receivers(self.problem):
            text = "\n".join(self._skipped)
            self._skipped = []
            self.problem.emit("Preset file left out", f"{text}\nCorrect or delete the file.")

    def presets_of(self, style: str) -> list[Preset]:
        """The built-in and user presets of `style` (a chain: its own, then its styles')."""
        return list_presets(style, self._dir(style), warn=self._skip)

    def set_style(self, style: str) -> None:
        """List the presets of `style`. Which one the values came from is the look's to say
        (show_state follows): a style switch brings its own, which a reset here undid."""
        self.style = style
        self._list()
        self.show_state(None, True, self._at_defaults)

    def refresh(self, select: str | None = None, *, file: Path | None = None) -> None:
        """Re-read the preset folders; show `select` (a name) or the user preset in `file`,
        else "Custom" or "Default"."""
        self._list()
        if file is not None:  # its listed name may not be its own (one that reads alike)
            select = next((p.name for p in self.presets if p.path == file and not p.builtin),
                          None)
        self.show_state(select, modified=select is None, at_defaults=self._at_defaults)
        self.stateChanged.emit(self.base, select is None)

    def _folders(self) -> list[Path]:
        """The user preset folders the chooser lists (a chain's, then its styles')."""
        parts = self.style.split(JOIN)
        styles = [self.style] + (parts if len(parts) > 1 else [])
        return [self._dir(s) or user_presets_dir(s) for s in styles]

    def _folders_stamp(self) -> Stamp:
        out = []
        for folder in self._folders():
            try:
                with os.scandir(folder) as entries:
                    out.append(tuple(sorted(
                        (e.name, (st := e.stat()).st_mtime_ns, st.st_size)
                        for e in entries if e.name.endswith(".json"))))
            except OSError:  # (no folder yet)
                out.append(None)
        return tuple(out)

    def _opening(self) -> None:
        """The chooser's list opens: list files copied in or edited meanwhile (only where
        the folders changed: a restart or a style switch was needed), then paint."""
        if self._folders_stamp() != self._stamp:
            self._relist()
        self._tooltips()
        self.paint_thumbnails()

    def _relist(self) -> None:
        """Re-read the preset folders; the chooser goes on saying where the values came
        from (a preset whose file went: "Custom")."""
        chosen = self.current()
        base = chosen.name if chosen is not None else self.base
        self._list()
        self.show_state(base, chosen is None, self._at_defaults)
        if self.base != base:
            self.stateChanged.emit(self.base, True)

    def _list(self) -> None:
        self._stamp = self._folders_stamp()  # (before reading: a change meanwhile is seen)
        try:
            self.presets = self.presets_of(self.style)
        except AquarelleError as e:
            self.presets = []
            self.message.emit(str(e))
        self.report_problems()
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem(CUSTOM)
        for p in self.presets:
            self.combo.addItem(self.label(p))
        self.combo.blockSignals(False)
        self._tooltips()

    def _tooltips(self) -> None:
        """Each preset's description and the command line that paints what choosing it
        shows: in a chain, the other styles' values it leaves as they are, where they are
        not their defaults, given with --set (their defaults are the command line's)."""
        # `render --preset NAME` looks among the watercolor's presets unless told the style
        style = "" if self.style == CLI_STYLE else f"--style {self.style} "
        current, defaults = self._values(), self._defaults()
        look = self.look_args()
        specs = None
        for i, p in enumerate(self.presets, 1):
            # a user preset by its listed name (its file may be NAME-1.json: another preset's
            # name made NAME.json), a built-in by its file's
            name = shlex.quote(p.name if p.path is None or not p.builtin else p.path.stem)
            kept = [k for k in _kept(p, current) if current[k] != defaults.get(k)]
            if kept and specs is None:
                specs = param_set(load_chain(self.style)).specs
            sets = "".join(f" --set {shlex.quote(f'{k}={specs[k].as_text(current[k])}')}"
                           for k in kept if specs is not None and k in specs)
            self.combo.setItemData(i, f"{describe_preset(p)}\n(Command line: {style}--preset "
                                   f"{name}{sets}{look})", Qt.ItemDataRole.ToolTipRole)

    def looks(self) -> list[dict[str, Any]]:
        """Full values for each item of the chooser: the current ones, then each preset's
        as choosing it makes them (the values of the styles it speaks of at their defaults
        but its own; in a chain, the other styles' as they are)."""
        current, defaults = self._values(), self._defaults()
        return [current] + [{**defaults, **{k: current[k] for k in _kept(p, current)},
                             **p.values} for p in self.presets]

    def paint_thumbnails(self) -> bool:
        """Give each item a picture of the frame on screen in its look; False (and no
        pictures) when there is no frame or no thumbnailer."""
        pictures = self.thumbnails(self.looks()) if self.thumbnails is not None else None
        if not pictures:
            for i in range(self.combo.count()):
                self.combo.setItemIcon(i, QIcon())
            return False
        h, w = pictures[0].shape[:2]
        self.combo.setIconSize(QSize(w, h))
        for i, rgb in enumerate(pictures[:self.combo.count()]):
            self.combo.setItemIcon(i, _icon(rgb))
        return True

    def current(self) -> Preset | None:
        """The selected preset, or None for "Custom" / "Default"."""
        i = self.combo.currentIndex() - 1
        return self.presets[i] if 0 <= i < len(self.presets) else None

    @staticmethod
    def label(preset: Preset) -> str:
        """How the chooser lists a preset: a user's as "NAME (yours)" (once: one whose name
        reads like a built-in's is listed as "NAME (yours)" already)."""
        text = preset_label(preset)
        if preset.builtin or preset.saved_name is not None and text.endswith(" (yours)"):
            return text
        return f"{text} (yours)"

    def mine(self) -> Preset | None:
        """The user preset the values came from (chosen, or edited since: "NAME,
        modified"), or None."""
        preset = self.current() or next((p for p in self.presets if p.name == self.base),
                                        None)
        return preset if preset is not None and not preset.builtin else None

    def show_state(self, base: str | None, modified: bool, at_defaults: bool = False) -> None:
        """Show which preset the parameters came from, without choosing it: the preset
        itself, "NAME, modified" after edits, "Default" (the style's own values) or
        "Custom"."""
        self._at_defaults = at_defaults
        found = next((p for p in self.presets if p.name == base), None)
        self.base = found.name if found is not None else None
        index = 0
        if found is not None and not modified:
            index = self.presets.index(found) + 1
        if found is not None and modified:
            first = f"{self.label(found)}, modified"
        else:
            first = DEFAULT if at_defaults and found is None else CUSTOM
        self.combo.blockSignals(True)
        self.combo.setItemText(0, first)
        self.combo.setCurrentIndex(index)
        self.combo.blockSignals(False)
        about = found.description if found is not None else (
            "The style's own values." if first == DEFAULT else "Your own values.")
        self.about.setText(about)
        self._update_buttons()

    def select(self, name: str) -> Preset | None:
        """Select and emit the preset called `name`."""
        for i, p in enumerate(self.presets):
            if p.name == name:
                self.combo.setCurrentIndex(i + 1)
                self._chosen(i + 1)
                return p
        return None

    def step(self, delta: int) -> None:
        """Choose the next (+1) or previous (-1) preset."""
        if not self.presets:
            return
        here = self.combo.currentIndex() - 1
        if here < 0:  # "Custom", "Default" or "NAME, modified": from it, else from an end
            here = next((i for i, p in enumerate(self.presets) if p.name == self.base), -1)
        if here < 0:
            i = 0 if delta > 0 else len(self.presets) - 1
        else:
            i = (here + delta) % len(self.presets)
        self.combo.setCurrentIndex(i + 1)
        self._chosen(i + 1)

    def _chosen(self, index: int) -> None:
        self._update_buttons()
        preset = self.current()
        if preset is not None:
            self.presetChosen.emit(preset)

    def _update_buttons(self) -> None:
        p = self.current()
        user = p is not None and not p.builtin
        self.rename_button.setEnabled(user)
        self.delete_button.setEnabled(user)
        self.export_action.setEnabled(p is not None)

    # -- user presets ----------------------------------------------------------------------
    def save_as(self, name: str) -> Preset | None:
        """Save the current values as user preset `name`; a preset of that name (as people
        read it: "My look" is "my look") is replaced only if the user says so (None: kept,
        nothing saved)."""
        name = check_preset_name(name)
        self._check_name(name)
        taken = self._taken(name, self.mine())
        if taken is not None and not self._may_replace(name, taken):
            return None
        preset = Preset(name=name, style=self.style, values=self._values())
        path = save_preset(preset, self._dir(), over=taken.path if taken else None)
        self.refresh(file=path)
        self.message.emit(f"Saved preset “{name}”")
        return preset

    def rename(self, preset: Preset, new_name: str) -> Preset | None:
        """Rename a user preset (written under the new name, then the old file removed);
        onto another preset's name only if the user says to replace that one (None: both
        kept as they were)."""
        if preset.builtin:
            raise AquarelleError(f"preset “{preset.name}” is built in and cannot be renamed")
        new_name = check_preset_name(new_name)
        self._check_name(new_name, preset)
        taken = self._taken(new_name, preset)  # itself, where only the case changes
        if taken is not None and taken.path != preset.path \
                and not self._may_replace(new_name, taken):
            return None
        renamed = rename_preset(preset, new_name, self._dir(),
                                over=taken.path if taken else None)
        self.refresh(file=renamed.path)
        self.message.emit(f"Renamed preset “{preset.own_name}” to “{new_name}”")
        return renamed

    def _taken(self, name: str, mine: Preset | None) -> Preset | None:
        """The user preset called `name` (as people read names), the one the values came
        from (`mine`) where older files hold several such, or None."""
        return user_preset_named(name, self._dir() or user_presets_dir(self.style),
                                 prefer=mine.path if mine is not None else None)

    def _may_replace(self, name: str, taken: Preset, kept: str = "nothing was saved") -> bool:
        """Whether the user says to replace the preset `taken`, which has `name` (asked; No
        keeps it, and says so: "Preset “NAME” kept; `kept`")."""
        same = "" if taken.name == name else f"; “{name}” is the same name"
        file = taken.path.name if taken.path is not None else "?"
        answer = QMessageBox.question(
            self, "Replace preset",
            f"A preset called “{taken.name}” exists ({file}){same}. Replace it?")
        if answer == QMessageBox.StandardButton.Yes:
            return True
        self.message.emit(f"Preset “{taken.name}” kept; {kept}")
        return False

    def _check_name(self, name: str, renaming: Preset | None = None,
                    listed: list[Preset] | None = None) -> None:
        """A user preset's name may not read like a built-in's (of `listed`, else of the
        presets shown): it would hide it."""
        for p in self.presets if listed is None else listed:
            if p.builtin and preset_key(p.name) == preset_key(name) and p is not renaming:
                raise AquarelleError(f"“{preset_label(p)}” is a built-in preset; "
                                     "choose another name for yours")

    @staticmethod
    def _suggestion(preset: Preset) -> str:
        """The name to offer for `preset`: its own, where a preset may still have it (an older
        version's may not: its name as listed)."""
        try:
            return check_preset_name(preset.own_name)
        except AquarelleError:
            return preset.name

    def save_dialog(self) -> None:
        mine = self.mine()  # edited since: saving under its name updates it (asked)
        suggestion = self._suggestion(mine) if mine is not None else ""
        name, ok = QInputDialog.getText(self, "Save preset", "Preset name:",
                                        QLineEdit.EchoMode.Normal, suggestion)
        if ok:
            self._guard(lambda: self.save_as(name))

    def rename_dialog(self) -> None:
        preset = self.current()
        if preset is None or preset.builtin:
            return
        name, ok = QInputDialog.getText(self, "Rename preset", "New name:",
                                        QLineEdit.EchoMode.Normal, self._suggestion(preset))
        if ok and name.strip() and name.strip() != preset.own_name:
            self._guard(lambda: self.rename(preset, name))

    def delete_current(self) -> None:
        preset = self.current()
        if preset is None or preset.builtin:
            return
        answer = QMessageBox.question(self, "Delete preset",
                                      f"Delete the preset “{preset.name}”?")
        if answer == QMessageBox.StandardButton.Yes and \
                self._guard(lambda: delete_preset(preset)):
            self.refresh()
            self.message.emit(f"Deleted preset “{preset.name}”")

    # -- preset files ----------------------------------------------------------------------
    def import_file(self, path: Path) -> Preset | None:
        """Copy the preset in the file `path` among the user's presets of its style (under a
        file name no other preset has; one of the same name replaced only if the user says
        so: None, nothing imported). A preset of the style shown is chosen. An
        AquarelleError says why a file cannot be imported (no preset, a style not installed
        here, values that do not fit it, a name a preset cannot have)."""
        found = importable(path)
        style = found.style
        ours = style == self.style
        self._check_name(found.name, listed=self.presets if ours else self.presets_of(style))
        folder = self._dir(style) or user_presets_dir(style)
        taken = user_preset_named(found.name, folder)
        if taken is not None and not self._may_replace(found.name, taken,
                                                       "nothing was imported"):
            return None
        copy = Preset(name=found.name, style=style, values=found.values,
                      description=found.description)
        saved = save_preset(copy, folder, over=taken.path if taken else None)
        if ours:
            self._relist()
            listed = next((p for p in self.presets if p.path == saved and not p.builtin), None)
            if listed is not None:
                self.select(listed.name)
            self.message.emit(f"Imported preset “{found.name}” from {path.name}")
        else:
            self.message.emit(f"Imported preset “{found.name}” from {path.name} among the "
                              f"presets of {style_label(style)}")
        return copy

    def import_dialog(self) -> None:
        """Ask for a preset file (.json) and import it (import_file)."""
        name, _ = QFileDialog.getOpenFileName(self, "Import preset", str(self.last_dir),
                                              "Presets (*.json);;All files (*)")
        if name:
            self.last_dir = Path(name).parent
            self.import_path(Path(name))

    def import_path(self, path: Path) -> bool:
        """Import the preset file `path` (import_file), a refusal told in a dialog (what a
        .json dropped on the window may do); False where nothing was imported."""
        imported: list[Preset | None] = []
        return self._guard(lambda: imported.append(self.import_file(path))) \
            and imported[0] is not None

    def export_to(self, preset: Preset, dest: Path) -> Path:
        """Write `preset` to `dest` (.json added to a name without it); returns the file."""
        if dest.suffix.lower() != ".json":
            dest = dest.with_name(dest.name + ".json")
        export_preset(preset, dest)
        self.message.emit(f"Exported preset “{preset_label(preset)}” to {dest}")
        return dest

    def export_dialog(self) -> None:
        """Ask for a file to write the chosen preset to (export_to)."""
        preset = self.current()
        if preset is None:
            return
        stem = preset.path.stem if preset.path is not None and not preset.builtin \
            else preset.name
        name, _ = QFileDialog.getSaveFileName(self, "Export preset",
                                              str(self.last_dir / f"{stem}.json"),
                                              "Presets (*.json)")
        if not name:
            return
        dest = Path(name)
        self.last_dir = dest.parent
        if dest.suffix.lower() != ".json" and dest.with_name(dest.name + ".json").exists():
            # the dialog asked about NAME, not NAME.json
            answer = QMessageBox.question(self, "Export preset",
                                          f"{dest.name}.json exists. Replace it?")
            if answer != QMessageBox.StandardButton.Yes:
                return
        self._guard(lambda: self.export_to(preset, dest))

    def show_folder(self) -> None:
        """Show the folder of the user's presets of this style (made if missing) in the
        system's file manager."""
        folder = self._dir() or user_presets_dir(self.style)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            QMessageBox.warning(self, "Presets folder", f"cannot make the presets folder "
                                f"{folder}: {(e.strerror or str(e)).lower()}")
            return
        self.open_folder(folder)
        self.message.emit(f"Presets of {self.style}: {folder}")

    def _guard(self, fn: Callable[[], object]) -> bool:
        """Run `fn`; False after telling its error in a dialog (no success is said then)."""
        try:
            fn()
        except (AquarelleError, OSError) as e:
            QMessageBox.warning(self, "Preset", str(e))
            return False
        return True


def style_label(name: str) -> str:
    """A style's or chain's name as the style chooser shows it ("Edges", "Sharpen →
    Watercolor"); the name itself where it does not load."""
    try:
        return load_chain(name).label
    except AquarelleError:
        return name
