"""Starting the desktop app: OpenGL format, QApplication, main window, initial source."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from types import TracebackType

from PyQt6.QtCore import Qt
from PyQt6.QtGui import QSurfaceFormat
from PyQt6.QtWidgets import QApplication, QWidget

from ..platforms import current_gl_widget_version, current_needs_display_server, has_display
from .settings import APPLICATION, ORGANIZATION


def configure_opengl() -> None:
    """OpenGL 3.3 core (4.1 on macOS) for every widget; must run before the QApplication."""
    fmt = QSurfaceFormat()
    fmt.setVersion(*current_gl_widget_version())
    fmt.setProfile(QSurfaceFormat.OpenGLContextProfile.CoreProfile)
    fmt.setDepthBufferSize(0)
    fmt.setStencilBufferSize(0)
    fmt.setSwapInterval(1)
    QSurfaceFormat.setDefaultFormat(fmt)
    QApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)


def create_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication, configured for Aquarelle (reuses one that already exists)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    configure_opengl()
    app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("Aquarelle")
    return app


def run(args: argparse.Namespace | None = None) -> int:
    """Open the window on FILE (args.file), else the first camera, else the demo clip."""
    file = getattr(args, "file", None) if args is not None else None
    if file is not None and not Path(file).exists():
        print(f"aquarelle: error: no such file: {file}", file=sys.stderr)
        return 2
    if current_needs_display_server() and not has_display():
        print("aquarelle: error: no display (set DISPLAY, or run under Xvfb); the command-line "
              "tools work without one: see `aquarelle --help` and `aquarelle doctor`",
              file=sys.stderr)
        return 2
    problem = qt_cannot_start()
    if problem:
        print(f"aquarelle: error: {problem}; `aquarelle doctor` checks the rest",
              file=sys.stderr)
        return 2
    app = create_application()
    from .main_window import MainWindow

    window = MainWindow()
    install_excepthook(window)
    close_on_termination(window)
    window.show()
    window.warmup.enabled = True
    window.open_initial(file)
    return int(app.exec())


def qt_cannot_start() -> str | None:
    """Why Qt's window-system plugin would abort the process (it does not raise), if it
    would: on Linux, the system libraries it lacks and the packages that bring them."""
    from ..diagnostics import Report, qt_platform

    report = Report()
    qt_platform(report)
    failed = [c for c in report.checks if not c.ok and c.required]
    return f"{failed[0].detail} ({failed[0].fix})" if failed else None


SIGNAL_POLL_MS = 200


def close_on_termination(window: QWidget) -> None:
    """SIGTERM, SIGHUP and SIGINT close the window as the user would: a recording is
    finished and playable, settings are saved. (Python runs signal handlers only when it
    gets control, so a timer hands it control while Qt's event loop runs.)"""
    import signal

    from PyQt6.QtCore import QTimer

    def handler(signum: int, _frame: object) -> None:
        QTimer.singleShot(0, window.close)

    for name in ("SIGTERM", "SIGHUP", "SIGINT"):
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, handler)
    poll = QTimer(window)
    poll.timeout.connect(lambda: None)
    poll.start(SIGNAL_POLL_MS)


def install_excepthook(window: object) -> None:
    """Report an unexpected error in a slot as a dialog instead of aborting (PyQt's default)."""
    from PyQt6.QtWidgets import QMessageBox, QWidget

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        traceback.print_exception(kind, value, tb)
        if issubclass(kind, KeyboardInterrupt):
            QApplication.quit()
            return
        parent = window if isinstance(window, QWidget) else None
        QMessageBox.critical(parent, "Unexpected error",
                             f"{kind.__name__}: {value}\n\nThe app keeps running; details "
                             "were printed to the terminal.")

    sys.excepthook = hook
