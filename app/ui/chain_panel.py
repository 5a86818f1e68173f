"""The chain panel: the styles a picture goes through, in order; add, remove, reorder
(drag, or Alt+Up/Down), and bypass each (its check box)."""

from __future__ import annotations

from PyQt6.QtCore import Qt, pyqtSignal
from PyQt6.QtGui import QKeySequence, QShortcut
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .shortcuts import CHAIN_EARLIER, CHAIN_LATER, CHAIN_REMOVE

ROW_HEIGHT_PX = 22


class ChainPanel(QWidget):
    """Shows a chain of styles; says what the user changed, changes nothing itself."""

    chain_changed = pyqtSignal(list)  # the style names in their new order
    bypass_toggled = pyqtSignal(str, bool)  # style name, bypassed

    def __init__(self, styles: list[str], labels: dict[str, str], orders: dict[str, int],
                 parent: QWidget | None = None) -> None:
        """`labels` and `orders` (where a style goes when added: lower first) by name."""
        super().__init__(parent)
        self._styles = styles
        self._labels = labels
        self._orders = orders
        self.list = QListWidget(self)
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.list.setToolTip("The styles a picture goes through, top to bottom. Drag to "
                             "reorder (or Alt+Up/Down); untick to bypass a style.")
        self.list.model().rowsMoved.connect(lambda *_: self._emit_order())
        self.list.itemChanged.connect(self._item_changed)
        self.add_button = QToolButton(self)
        self.add_button.setText("Add")
        self.add_button.setToolTip("Add a style or filter to the chain")
        self.add_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.add_menu = QMenu(self.add_button)
        self.add_button.setMenu(self.add_menu)
        self.add_menu.aboutToShow.connect(self._fill_add_menu)
        self.remove_button = QToolButton(self)
        self.remove_button.setText("Remove")
        self.remove_button.setToolTip("Remove the selected style from the chain (Delete)")
        self.remove_button.clicked.connect(self.remove_selected)
        self.up_button = QToolButton(self)
        self.up_button.setText("↑")
        self.up_button.setToolTip("Move the selected style earlier (Alt+Up)")
        self.up_button.clicked.connect(lambda: self.move_selected(-1))
        self.down_button = QToolButton(self)
        self.down_button.setText("↓")
        self.down_button.setToolTip("Move the selected style later (Alt+Down)")
        self.down_button.clicked.connect(lambda: self.move_selected(1))
        for key, slot in ((CHAIN_REMOVE, self.remove_selected),
                          (CHAIN_EARLIER, lambda: self.move_selected(-1)),
                          (CHAIN_LATER, lambda: self.move_selected(1))):
            sc = QShortcut(QKeySequence(key.keys), self.list)
            sc.setContext(Qt.ShortcutContext.WidgetShortcut)
            sc.activated.connect(slot)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for b in (self.add_button, self.remove_button, self.up_button, self.down_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        self._showing = False

    # -- showing ---------------------------------------------------------------------------
    def show_chain(self, names: list[str], bypassed: dict[str, bool]) -> None:
        """Show `names` in order, ticked unless bypassed (no signals)."""
        self._showing = True
        try:
            self.list.clear()
            for name in names:
                item = QListWidgetItem(self._labels.get(name, name))
                item.setData(Qt.ItemDataRole.UserRole, name)
                flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable \
                    | Qt.ItemFlag.ItemIsDragEnabled
                if len(names) > 1:  # a lone style is not bypassed: choose another instead
                    flags |= Qt.ItemFlag.ItemIsUserCheckable
                    item.setCheckState(Qt.CheckState.Unchecked if bypassed.get(name)
                                       else Qt.CheckState.Checked)
                    item.setToolTip(f"{name}: untick to bypass")
                item.setFlags(flags)
                self.list.addItem(item)
            self.list.setFixedHeight(ROW_HEIGHT_PX * max(2, len(names)) + 6)
            self.remove_button.setEnabled(len(names) > 1)
        finally:
            self._showing = False

    def show_bypass(self, bypassed: dict[str, bool]) -> None:
        """Update the check boxes only (after undo, a preset...), keeping the selection."""
        self._showing = True
        try:
            for i in range(self.list.count()):
                item = self.list.item(i)
                name = item.data(Qt.ItemDataRole.UserRole)
                if name in bypassed:
                    item.setCheckState(Qt.CheckState.Unchecked if bypassed[name]
                                       else Qt.CheckState.Checked)
        finally:
            self._showing = False

    def label(self, name: str) -> str:
        """A style's name as people read it."""
        return self._labels.get(name, name)

    def names(self) -> list[str]:
        """The style names as listed."""
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.list.count())]

    # -- editing ---------------------------------------------------------------------------
    def add_style(self, name: str) -> None:
        """Add a style where it usually goes (clean-up filters before the painting,
        enlarging last: the styles' `chain_order`); the user may reorder it after."""
        names = self.names()
        if name in names:
            return
        order = self._orders.get(name, 50)
        at = next((i for i, n in enumerate(names) if self._orders.get(n, 50) > order),
                  len(names))
        names.insert(at, name)
        self.chain_changed.emit(names)

    def remove_selected(self) -> None:
        names = self.names()
        row = self.list.currentRow()
        if 0 <= row < len(names) and len(names) > 1:
            del names[row]
            self.chain_changed.emit(names)

    def move_selected(self, step: int) -> None:
        names = self.names()
        row = self.list.currentRow()
        to = row + step
        if 0 <= row < len(names) and 0 <= to < len(names):
            names.insert(to, names.pop(row))
            self.chain_changed.emit(names)
            self.list.setCurrentRow(to)

    def _fill_add_menu(self) -> None:
        self.add_menu.clear()
        present = set(self.names())
        for name in self._styles:
            if name in present:
                continue
            action = self.add_menu.addAction(self._labels.get(name, name))
            action.triggered.connect(lambda _=False, n=name: self.add_style(n))

    def _emit_order(self) -> None:
        if not self._showing:
            self.chain_changed.emit(self.names())

    def _item_changed(self, item: QListWidgetItem) -> None:
        if self._showing:
            return
        self.bypass_toggled.emit(item.data(Qt.ItemDataRole.UserRole),
                                 item.checkState() != Qt.CheckState.Checked)
