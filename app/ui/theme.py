"""Light and dark themes: Qt's Fusion style with a palette that follows the system's colour
scheme (or the user's choice, kept in the settings)."""

from __future__ import annotations

from enum import Enum

from PyQt6.QtCore import Qt
from PyQt6.QtGui import QAction, QActionGroup, QColor, QGuiApplication, QPalette
from PyQt6.QtWidgets import QApplication, QMenu, QStyleFactory, QWidget

from .settings import Settings


class Theme(Enum):
    """What the user chose in View > Theme."""

    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


def system_is_dark() -> bool:
    """Whether the system asks for a dark colour scheme (Qt 6.5+; else no)."""
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None) if hints is not None else None
    return scheme is not None and scheme() == Qt.ColorScheme.Dark


def dark_palette() -> QPalette:
    """A calm dark palette (greys, a blue highlight) that keeps text readable."""
    p = QPalette()
    window, base, text = QColor(45, 45, 48), QColor(30, 30, 32), QColor(225, 225, 225)
    roles = {
        QPalette.ColorRole.Window: window, QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base, QPalette.ColorRole.AlternateBase: window,
        QPalette.ColorRole.ToolTipBase: QColor(60, 60, 64),
        QPalette.ColorRole.ToolTipText: text, QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: window, QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor(255, 90, 90),
        QPalette.ColorRole.Link: QColor(110, 170, 255),
        QPalette.ColorRole.Highlight: QColor(60, 120, 210),
        QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
        QPalette.ColorRole.PlaceholderText: QColor(140, 140, 140),
    }
    for role, color in roles.items():
        p.setColor(role, color)
    disabled = QColor(130, 130, 130)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
                 QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return p


def is_dark(theme: Theme) -> bool:
    """Whether `theme` paints dark here."""
    return theme is Theme.DARK or (theme is Theme.SYSTEM and system_is_dark())


def apply_theme(theme: Theme) -> bool:
    """Fusion with the light or dark palette; returns whether it is dark."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return False
    fusion = QStyleFactory.create("Fusion")
    if fusion is not None:
        app.setStyle(fusion)
    dark = is_dark(theme)
    app.setPalette(dark_palette() if dark else fusion.standardPalette() if fusion is not None
                   else QPalette())
    return dark


def saved_theme(settings: Settings) -> Theme:
    try:
        return Theme(settings.theme())
    except ValueError:
        return Theme.SYSTEM


def theme_menu(parent: QWidget, settings: Settings) -> QMenu:
    """View > Theme: System (follows the system's light or dark), Light, Dark; applies the
    saved choice now and whenever the system's scheme changes."""
    menu = QMenu("Theme", parent)
    group = QActionGroup(menu)
    current = saved_theme(settings)
    for theme, label in ((Theme.SYSTEM, "Follow the system"), (Theme.LIGHT, "Light"),
                         (Theme.DARK, "Dark")):
        action = QAction(label, menu)
        action.setCheckable(True)
        action.setChecked(theme is current)
        action.setData(theme.value)
        group.addAction(action)
        menu.addAction(action)

    def chosen(action: QAction) -> None:
        theme = Theme(action.data())
        settings.set_theme(theme.value)
        apply_theme(theme)

    group.triggered.connect(chosen)
    hints = QGuiApplication.styleHints()
    changed = getattr(hints, "colorSchemeChanged", None) if hints is not None else None
    if changed is not None:
        changed.connect(lambda *_: apply_theme(saved_theme(settings)))
    apply_theme(current)
    return menu
