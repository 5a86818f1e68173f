"""The main window: viewport, side panel, transport, menus, status bar; wires them together."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from pathlib import Path

from PyQt6.QtCore import Qt, QTimer, QUrl, pyqtSignal
from PyQt6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
)
from PyQt6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..engine.errors import AquarelleError
from ..engine.presets import Preset
from ..engine.style import list_styles, load_style
from ..media.camera_modes import CameraMode, camera_modes
from ..media.source import FrameSource
from ..platforms import (
    current_camera_denied_hint,
    current_virtual_camera_name,
)
from . import playback
from .camera_access import denied_by_system
from .camera_watch import CameraWatcher
from .chain_panel import ChainPanel
from .export_job import ExportController, ExportJob
from .key_router import KeyRouter
from .live_controller import LiveController, adaptive_menus, camera_mode, camera_mode_menus
from .look_editor import LookEditor
from .overlays import ViewportOverlays
from .param_panel import ParamPanel
from .presets_panel import PresetsPanel
from .recorder import Recorder
from .recording import RecordingController
from .render_state import RenderState
from .settings import Settings
from .shortcuts import SHORTCUTS, ShortcutsDialog
from .slow_hint import SlowPlaybackHint
from .snapshots import SnapshotController
from .source_controls import SourcePanel, TransportBar
from .sources import SourceSpec, demo_path, list_cameras, open_source
from .stats import PassTimesDock
from .status_labels import StatusLabels
from .style_controller import StyleController, error_text
from .theme import theme_menu
from .view_transform import CompareMode
from .viewport import Viewport

POLL_MS = 8  # how often the newest frame is taken from the source (~120 Hz)
STATS_MS = 500
SAVE_DELAY_MS = 1000
MAX_SEED = 2**31 - 1


class MainWindow(QMainWindow):
    """The Aquarelle desktop window."""

    exportFinished = pyqtSignal(object)  # the ExportJob, when it ends (done, failed, cancelled)

    def __init__(self, settings: Settings | None = None, preset_dir: Path | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self.setWindowTitle("Aquarelle")
        self.setAcceptDrops(True)
        self.source: FrameSource | None = None
        self.source_spec: SourceSpec | None = None
        self._fallback_to_demo = False  # a camera opened at start that fails: demo, quietly
        self._frames_seen = 0
        self._last_gl_error: str | None = None
        self._actions: dict[str, QAction] = {}

        self.state = self._initial_state()
        self.viewport = Viewport(self.state, self)
        self.viewport.pipelineFailed.connect(self._pipeline_failed)
        self.overlays = ViewportOverlays(self.viewport, self.toggle_record)
        self._chrome: dict[QWidget, bool] = {}  # what fullscreen hid, and whether it showed
        self.transport = TransportBar(self)
        self.transport.set_enabled_for(False, False)
        central = QWidget(self)
        cl = QVBoxLayout(central)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.viewport, 1)
        cl.addWidget(self.transport)
        self.setCentralWidget(central)

        self._lost_camera: str | None = None  # a camera that stopped: reopened if it returns
        self.slow_hint = SlowPlaybackHint()
        self.camera_watch = CameraWatcher(self)
        self.camera_watch.changed.connect(self.cameras_changed)
        self.live = LiveController(self.viewport, self.settings, parent=self)
        self.live.failed.connect(self.error)
        self.live.changed.connect(self._live_changed)
        self._build_side_panel(preset_dir)
        self.styles = StyleController(self.state, self.viewport, self.settings,
                                      self.style_combo, self.chain_panel, self.param_panel,
                                      self.presets, self.debug_combo, self.error, self.status,
                                      self)
        self.editor = LookEditor(self.state, self.param_panel, self.presets, self.seed_spin,
                                 *self.settings.preset(self.state.style.name), parent=self,
                                 switch_style=lambda name: self.styles.set_style(name, False))
        self.styles.editor = self.editor
        self.pass_dock = PassTimesDock(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.pass_dock)
        self.tabifyDockWidget(self.side_dock, self.pass_dock)  # a tab: controls keep their room
        self.pass_dock.hide()
        self.pass_dock.visibilityChanged.connect(self._pass_dock_visible)
        self._build_status_bar()
        self._build_menus()
        self._connect()

        self._poll = QTimer(self)
        self._poll.setTimerType(Qt.TimerType.PreciseTimer)
        self._poll.timeout.connect(self.poll_source)
        self._poll.start(POLL_MS)
        self._stats_timer = QTimer(self)
        self._stats_timer.timeout.connect(self.update_stats)
        self._stats_timer.start(STATS_MS)
        self._save_timer = QTimer(self)  # settings are saved shortly after a change, too
        self._save_timer.setSingleShot(True)
        self._save_timer.timeout.connect(self.save_render_settings)
        self.keys = KeyRouter(self, self.side_scroll, self._show_original,
                              self._leave_fullscreen, self)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self.keys)

        self.resize(1100, 700)
        geometry = self.settings.geometry()
        if geometry is not None:
            self.restoreGeometry(geometry)
        docks = self.settings.window_state()
        if docks is not None:
            self.restoreState(docks)
        self.pass_dock.hide()  # on demand only
        self.fit_to_screen()

    def fit_to_screen(self) -> None:
        """Keep the window on its screen and no larger than it (a saved size from a larger
        monitor, or 1100x700 at 150% scaling on a small laptop screen)."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None or self.isFullScreen() or self.isMaximized():
            return
        room = screen.availableGeometry()
        frame = self.frameGeometry().size() - self.geometry().size()  # title bar, borders
        w = min(self.width(), room.width() - frame.width())
        h = min(self.height(), room.height() - frame.height())
        if (w, h) != (self.width(), self.height()):
            self.resize(max(w, 320), max(h, 240))
        x = min(max(self.x(), room.left()), room.right() - self.frameGeometry().width() + 1)
        y = min(max(self.y(), room.top()), room.bottom() - self.frameGeometry().height() + 1)
        if (x, y) != (self.x(), self.y()):
            self.move(max(x, room.left()), max(y, room.top()))

    # -- construction ----------------------------------------------------------------------
    def _initial_state(self) -> RenderState:
        name = self.settings.style()
        try:
            state = RenderState(name)
        except AquarelleError:
            state = RenderState("watercolor")
        state.apply_values(self.settings.params(state.style.name))
        state.set_seed(self.settings.seed())
        state.set_scale(self.settings.scale())
        try:
            self._initial_compare = CompareMode(self.settings.compare())
        except ValueError:
            self._initial_compare = CompareMode.OFF
        return state

    def _build_side_panel(self, preset_dir: Path | None) -> None:
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
        form.setContentsMargins(6, 4, 6, 4)
        self.style_combo = QComboBox(style_box)
        for name in list_styles():
            self.style_combo.addItem(name, name)
        self.style_combo.setToolTip("The rendering style (one style; build a chain below)")
        form.addRow("Style", self.style_combo)
        names = list_styles()
        specs = [load_style(n) for n in names]
        self.chain_panel = ChainPanel(names, {s.name: s.label for s in specs},
                                      {s.name: s.chain_order for s in specs}, style_box)
        form.addRow("Chain", self.chain_panel)
        self.presets = PresetsPanel(self.state.params.as_json_values, style_box, preset_dir)
        self.presets.set_style(self.state.style.name)
        form.addRow("Preset", self.presets)
        seed_row = QHBoxLayout()
        self.seed_spin = QSpinBox(style_box)
        self.seed_spin.setRange(0, MAX_SEED)
        self.seed_spin.setValue(self.state.seed)
        self.seed_spin.setKeyboardTracking(False)
        self.seed_spin.setToolTip("Seed of the paper and pigment noise")
        new_seed = QToolButton(style_box)
        new_seed.setText("New")
        new_seed.setToolTip("A new random seed (N)")
        new_seed.clicked.connect(self.new_seed)
        seed_row.addWidget(self.seed_spin, 1)
        seed_row.addWidget(new_seed)
        form.addRow("Seed", seed_row)
        self.scale_spin = QDoubleSpinBox(style_box)
        self.scale_spin.setRange(0.1, 1.0)
        self.scale_spin.setSingleStep(0.05)
        self.scale_spin.setDecimals(2)
        self.scale_spin.setValue(self.state.scale)
        self.scale_spin.setKeyboardTracking(False)
        self.scale_spin.setToolTip("Processing scale: render the style at this fraction of the "
                                   "source size (faster, less detail)")
        form.addRow("Processing scale", self.scale_spin)
        self.compare_combo = QComboBox(style_box)
        for mode in CompareMode:
            self.compare_combo.addItem(mode.value, mode)
        self.compare_combo.setToolTip("Show the original next to the result (C); hold O to see "
                                      "the original")
        form.addRow("Compare", self.compare_combo)
        self.debug_combo = QComboBox(style_box)
        self.debug_combo.setToolTip("Show an intermediate target instead of the result (D)")
        form.addRow("View", self.debug_combo)
        layout.addWidget(style_box)

        params_box = QGroupBox("Parameters", body)
        self.param_panel = ParamPanel(params_box)
        self.param_panel.bind(self.state.params)
        QVBoxLayout(params_box).addWidget(self.param_panel)
        layout.addWidget(params_box)
        layout.addStretch(1)

        scroll = self.side_scroll = QScrollArea()
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(340)
        self.side_dock = QDockWidget("Controls", self)
        self.side_dock.setObjectName("controlsDock")
        self.side_dock.setWidget(scroll)
        self.side_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                   | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.side_dock)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        assert bar is not None
        self.labels = StatusLabels(bar, self.open_folder, self)
        self.snapshots = SnapshotController(self, self.viewport, self.settings, self,
                                            self.after_dialog, self)
        self.recording = RecordingController(
            self.viewport, self.settings, self.labels, self, lambda: self.source,
            lambda: self.default_dir("record"),
            self)
        self.exports = ExportController(self, self, self.settings, self.state,
                                        lambda: (self.source_spec, self.source),
                                        self.default_dir,
                                        lambda path: self.snapshots.save(path, False),
                                        self.after_dialog)
        self.exports.finished.connect(self.exportFinished.emit)

    def _build_menus(self) -> None:
        handlers: dict[str, Callable[[], object]] = {
            "open": self.open_file_dialog, "demo": self.open_demo, "camera": self.next_camera,
            "snapshot": self.snapshot, "snapshot_as": self.snapshots.snapshot_as,
            "record": self.toggle_record, "export": self.export_dialog, "quit": self.close,
            "play": self.toggle_play, "step": lambda: self.step(1),
            "step_back": lambda: self.step(-1), "rewind": lambda: self.seek(0.0),
            "jump_back": self.jump_back, "pause": lambda: self.set_playing(False),
            "play_on": lambda: self.set_playing(True),
            "loop": lambda: self.transport.loop.toggle(), "compare": self.cycle_compare,
            "debug": self.styles.cycle_debug_view, "fit": self.viewport.fit,
            "actual": self.viewport.actual_pixels, "zoom_in": lambda: self.viewport.zoom_by(1.25),
            "zoom_out": lambda: self.viewport.zoom_by(0.8),
            "fullscreen": self.toggle_fullscreen,
            "panel": lambda: self.side_dock.setVisible(not self.side_dock.isVisible()),
            "pass_times": self.toggle_pass_times,
            "reset_all": self.param_panel.reset_all, "next_preset": lambda: self.presets.step(1),
            "prev_preset": lambda: self.presets.step(-1),
            "save_preset": self.presets.save_dialog, "new_seed": self.new_seed,
            "reload_shaders": self.styles.reload_shaders, "help": self.show_shortcuts,
            "undo": self.editor.undo, "redo": self.editor.redo,
            "virtual_camera": self.toggle_virtual_camera,
            "mirror": lambda: self.live.set_mirror(not self.live.mirror),
            "adaptive": lambda: self.live.set_adaptive(not self.live.adaptive_on),
        }
        menubar = self.menuBar()
        assert menubar is not None
        menus: dict[str, QMenu] = {}
        for s in SHORTCUTS:
            if s.action not in handlers:
                continue  # hold-to-see-original is handled as a key event, not an action
            menu = menus.get(s.menu)
            if menu is None:
                menu = menus[s.menu] = menubar.addMenu(s.menu)  # type: ignore[assignment]
                assert menu is not None
            label = s.text.split(" (")[0]
            action = QAction(label, self)
            action.setShortcuts([QKeySequence(k) for k in s.keys])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            fn = handlers[s.action]
            action.triggered.connect(lambda _=False, fn=fn: fn())
            menu.addAction(action)
            self.addAction(action)  # keeps shortcuts working in fullscreen (menu bar hidden)
            self._actions[s.action] = action
            if s.action in ("quit", "loop", "fullscreen", "panel", "reset_all", "rewind"):
                menu.addSeparator()
        self.recent_menu = QMenu("Open recent", self)
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        menus["File"].insertMenu(self._actions["demo"], self.recent_menu)
        folders = QMenu("Save folders", self)
        for kind, label in (("snapshot", "Snapshots\u2026"), ("record", "Recordings\u2026")):
            action = folders.addAction(label)
            assert action is not None
            action.triggered.connect(lambda _=False, k=kind: self.choose_folder(k))
        menus["File"].insertMenu(self._actions["quit"], folders)
        menus["View"].addSeparator()
        self.theme_menu = theme_menu(self, self.settings)
        menus["View"].addMenu(self.theme_menu)
        about = QAction("About Aquarelle", self)
        about.triggered.connect(self._about)
        menus["Help"].addAction(about)
        self._actions["play"].setStatusTip("Play / pause")
        self._actions["loop"].setCheckable(True)
        for name in ("virtual_camera", "mirror", "adaptive"):
            self._actions[name].setCheckable(True)
        menus["Live"].addSeparator()
        for menu in adaptive_menus(self, self.settings, self.live.settings_changed):
            menus["Live"].addMenu(menu)
        menus["Live"].addSeparator()
        for menu in camera_mode_menus(self, self.settings, self._camera_modes,
                                      self._camera_mode_changed):
            menus["Live"].addMenu(menu)
        self.source_panel.add_button(self._actions["virtual_camera"],
                                     "Send the painted picture to the virtual camera "
                                     "(Ctrl+Shift+V): pick it in your video call")
        self._live_changed()

    def _connect(self) -> None:
        self.editor.changed.connect(self._look_changed)
        self.editor.message.connect(self.status)
        self.presets.message.connect(self.status)
        self.editor.changed.connect(self.styles.show_bypass)
        self.scale_spin.valueChanged.connect(self._scale_changed)
        self.compare_combo.currentIndexChanged.connect(
            lambda i: self.set_compare(self.compare_combo.itemData(i)))
        self.source_panel.cameraChosen.connect(
            lambda ident: self.open_spec(SourceSpec("camera", ident)))
        self.source_panel.openRequested.connect(self.open_file_dialog)
        self.source_panel.demoRequested.connect(self.open_demo)
        self.source_panel.refreshRequested.connect(self.refresh_cameras)
        self.transport.playToggled.connect(self.toggle_play)
        self.transport.stepRequested.connect(self.step)
        self.transport.seekRequested.connect(self.seek)
        self.transport.loopToggled.connect(self._loop_toggled)
        self.transport.loop.setChecked(self.settings.loop())
        self.viewport.viewChanged.connect(self._view_changed)
        self.set_compare(self._initial_compare)

    # -- messages --------------------------------------------------------------------------
    def status(self, text: str, ms: int = 6000) -> None:
        """A transient status-bar message."""
        bar = self.statusBar()
        if bar is not None:
            bar.showMessage(text, ms)

    def error(self, title: str, text: str) -> None:
        """Tell the user about a problem (dialog + status bar); never raises."""
        self.status(f"{title}: {text.splitlines()[0] if text else ''}", 10000)
        QMessageBox.warning(self, title, text)

    def _pipeline_failed(self, e: AquarelleError) -> None:
        text = error_text(e)
        if text == self._last_gl_error:  # the same failure again (next frame): no new dialog
            self.status(f"Rendering problem: {text.splitlines()[0]}", 10000)
            return
        self._last_gl_error = text
        kept = self.viewport.pipeline is not None
        suffix = "\n\nThe last working shaders stay in use." if kept else ""
        self.error("Rendering problem", text + suffix)

    # -- sources ---------------------------------------------------------------------------
    def refresh_cameras(self) -> list[tuple[str, str]]:
        cams = list_cameras()
        self.source_panel.set_cameras(cams)
        return cams

    def cameras_changed(self) -> None:
        """Cameras came or went: refresh the list; a lost camera that is back is reopened
        while the window shows nothing or the demo in its place."""
        ids = [c[0] for c in self.refresh_cameras()]
        lost = self._lost_camera
        showing_stand_in = self.source is None or (
            self.source_spec is not None and self.source_spec.kind == "demo")
        if lost is not None and lost in ids and showing_stand_in \
                and self.open_spec(SourceSpec("camera", lost), quiet=True):
            self.status(f"Camera {lost} is back")

    def open_initial(self, file: str | None = None) -> None:
        """What the app opens at start: FILE, else what was open last time (a file that
        still exists, a camera that is still there, the demo), else the first camera, else
        the demo clip."""
        cams = self.refresh_cameras()
        if file:
            self.open_spec(SourceSpec("file", str(Path(file).resolve())))
            return
        last = SourceSpec.parse(self.settings.last_source() or "")
        if last is not None and self._reopen(last, [c[0] for c in cams]):
            return
        if cams:
            if not self.open_spec(SourceSpec("camera", cams[0][0]), quiet=True):
                self.open_demo()
        elif demo_path() is not None:
            self.open_demo()
            self.overlays.show_hint("No camera found: showing the demo. Open a file with "
                                    "Ctrl+O or drop one here.", 10000)
        else:
            self.status("No camera and no demo clip: open a file (Ctrl+O) or drop one here")

    def _reopen(self, spec: SourceSpec, cameras: list[str]) -> bool:
        """Open last session's source if it is still there (quietly: else the defaults)."""
        if spec.kind == "file" and not Path(spec.ref).is_file():
            return False
        if spec.kind == "camera" and spec.ref not in cameras:
            return False
        if spec.kind == "demo" and demo_path() is None:
            return False
        return self.open_spec(spec, quiet=True)

    def open_spec(self, spec: SourceSpec, quiet: bool = False) -> bool:
        """Open and start a source; on failure keep the current one and say why."""
        try:
            size, fps = camera_mode(self.settings)
            src = open_source(spec, loop=self.transport.loop.isChecked(), camera_size=size,
                              camera_fps=fps)
            src.start()
        except AquarelleError as e:
            if not quiet:
                self.error("Cannot open source", f"{spec.label}: {e}")
            return False
        except Exception as e:  # a source bug must not take the app down
            if not quiet:
                self.error("Cannot open source", f"{spec.label}: {type(e).__name__}: {e}")
            return False
        self._close_source()
        self._lost_camera = None
        self.source, self.source_spec = src, spec
        self.live.source_changed(src)
        self._fallback_to_demo = quiet and spec.kind == "camera"
        self._frames_seen = 0
        self.viewport.new_source()
        self.viewport.fit()
        self.settings.set_last_source(str(spec))
        self.source_panel.current.setText(f"Showing: {spec.label}")
        self.setWindowTitle(f"{spec.label} \u2014 Aquarelle")
        self.labels.show_resolution(src)
        self.transport.set_enabled_for(src.seekable, playback.can_play(src))
        self._show_playing()
        self.transport.set_position(playback.position(src), playback.duration(src), src.fps,
                                    None, src.frame_count)
        self.status(f"Opened {spec.label}")
        self._actions["export"].setEnabled(True)  # videos, and stills from images
        return True

    def open_file(self, path: str | Path) -> bool:
        """Open an image or video file."""
        return self.open_spec(SourceSpec("file", str(Path(path).resolve())))

    def open_demo(self) -> bool:
        if demo_path() is None:
            self.error("Demo", "The demo clip is not installed (assets/demo/demo.mp4).")
            return False
        return self.open_spec(SourceSpec("demo"))

    def next_camera(self) -> None:
        cams = self.refresh_cameras()
        if not cams:
            self.error("Camera", "No camera was found.")
            return
        ids = [c[0] for c in cams]
        current = self.source_spec.ref if self.source_spec and \
            self.source_spec.kind == "camera" else None
        nxt = ids[(ids.index(current) + 1) % len(ids)] if current in ids else ids[0]
        self.open_spec(SourceSpec("camera", nxt))

    def open_file_dialog(self) -> None:
        folder = self.settings.last_dir("open")
        path, _ = QFileDialog.getOpenFileName(
            self, "Open image or video", folder,
            "Media (*.mp4 *.mov *.mkv *.webm *.avi *.m4v *.gif *.png *.jpg *.jpeg *.webp "
            "*.tif *.tiff *.bmp);;All files (*)")
        if path:
            self.settings.set_last_dir("open", str(Path(path).parent))
            self.open_file(path)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.settings.recent_files():
            action = self.recent_menu.addAction(path)
            assert action is not None
            action.triggered.connect(lambda _=False, p=path: self.open_file(p))
        if self.recent_menu.isEmpty():
            empty = self.recent_menu.addAction("(none)")
            assert empty is not None
            empty.setEnabled(False)

    def _close_source(self) -> None:
        src, self.source = self.source, None
        self.live.source_changed(None)
        if src is not None:
            with contextlib.suppress(Exception):  # stopping must never fail the app
                src.stop()

    def poll_source(self) -> None:
        """Take the newest frame (never a queue: live sources keep no latency)."""
        src = self.source
        if src is None:
            return
        try:
            frame = src.latest()
        except Exception as e:
            src.error = src.error or f"{type(e).__name__}: {e}"
            frame = None
        if frame is not None:
            self._frames_seen += 1
            self.viewport.show_frame(frame)
        if src.error:
            self._source_failed(src)

    def _source_failed(self, src: FrameSource) -> None:
        spec = self.source_spec
        message = src.error or "the source stopped"
        if self.recorder is not None:  # keep what was recorded: a playable file up to here
            self.toggle_record()
        self._close_source()
        self.transport.set_enabled_for(False, False)
        if spec is not None and spec.kind == "camera" and self._fallback_to_demo \
                and self._frames_seen == 0 and demo_path() is not None:
            if denied_by_system():
                message = f"the system refused access: {current_camera_denied_hint()}"
            self.status(f"Camera {spec.ref} did not start ({message}); showing the demo clip",
                        15000)
            self.open_demo()
            return
        if spec is not None and spec.kind == "camera" and self._frames_seen == 0:
            if denied_by_system():
                message = f"the system refused access: {current_camera_denied_hint()}"
            self.error("Camera", f"Camera {spec.label} did not start: {message}")
            self._lost_camera = spec.ref  # plugged in or freed later: it opens by itself
            return
        if spec is not None and spec.kind == "camera":
            self.status(f"Camera lost: {message}", 15000)
            if demo_path() is None:
                QMessageBox.warning(self, "Camera", f"The camera stopped: {message}\n\nIt "
                                    "opens again by itself when it is plugged back in.")
            else:
                answer = QMessageBox.question(
                    self, "Camera", f"The camera stopped: {message}\n\nShow the demo clip "
                    "instead? (The camera opens again by itself when it is plugged back in.)")
                if answer == QMessageBox.StandardButton.Yes:
                    self.open_demo()
            self._lost_camera = spec.ref  # after open_demo, which forgets it
            return
        label = spec.label if spec is not None else "source"
        self.error("Playback stopped", f"{label}: {message}")

    def toggle_virtual_camera(self) -> None:
        """Virtual camera on / off; on, a hint says what to pick in the video call."""
        if self.live.toggle_virtual_camera():
            name = current_virtual_camera_name()
            self.overlays.show_hint(f"Virtual camera on: pick \u201c{name}\u201d as the "
                                    "camera in your video call", 8000)
            self.status("Virtual camera on")
        else:
            self.status("Virtual camera off")

    def _live_changed(self) -> None:
        for name, on in (("virtual_camera", self.live.virtual_camera_on),
                         ("mirror", self.live.mirror), ("adaptive", self.live.adaptive_on)):
            self._actions[name].setChecked(on)
        self.labels.live.setText(self.live.status_text())

    def _camera_modes(self) -> list[CameraMode]:
        """What the camera on screen offers (none listed for other sources)."""
        spec = self.source_spec
        if spec is None or spec.kind != "camera":
            return []
        path = f"/dev/video{spec.ref}" if spec.ref.isdigit() else spec.ref
        return camera_modes(path)

    def _camera_mode_changed(self) -> None:
        """A new camera resolution or rate: reopen the camera on screen with it."""
        if self.source_spec is not None and self.source_spec.kind == "camera":
            self.open_spec(self.source_spec)

    # -- transport -------------------------------------------------------------------------
    def toggle_play(self) -> None:
        if not playback.can_play(self.source):
            return
        playing = not playback.is_playing(self.source)
        if playing and self.source is not None and self.source.finished:
            playback.seek(self.source, 0.0)
        playback.set_playing(self.source, playing)
        self._show_playing(playing)

    def _show_playing(self, playing: bool | None = None) -> None:
        """The transport's button and adaptive quality follow whether the file plays."""
        if playing is None:
            playing = playback.is_playing(self.source)
        self.transport.set_playing(playing)
        self.live.set_playing(playing)

    def set_playing(self, playing: bool) -> None:
        """Play (L) or pause (K) a file; no change when it already does."""
        if playback.can_play(self.source) and playback.is_playing(self.source) != playing:
            self.toggle_play()

    def jump_back(self) -> None:
        """Back one second, paused (J)."""
        here = playback.position(self.source)
        if here is not None:
            self.set_playing(False)
            self.seek(max(0.0, here - 1.0))

    def step(self, frames: int) -> None:
        playback.step(self.source, frames)
        self._show_playing()

    def seek(self, seconds: float) -> None:
        if self.source is not None and self.source.seekable:
            playback.seek(self.source, seconds)
            self.viewport.new_source()

    def _loop_toggled(self, on: bool) -> None:
        playback.set_loop(self.source, on)
        self.settings.set_loop(on)
        self._actions["loop"].setChecked(on)

    # -- rendering settings ----------------------------------------------------------------
    def _look_changed(self) -> None:
        self._save_timer.start(SAVE_DELAY_MS)
        self.viewport.request_render()

    def apply_preset(self, preset: Preset) -> None:
        """Take a preset's values (undoable)."""
        self.editor.apply_preset(preset)

    def set_style(self, name: str) -> bool:
        """Switch style or chain (`a+b`), undoably; see StyleController."""
        return self.styles.set_style(name)

    def set_debug_view(self, label: str | None) -> None:
        """Show a debug view by label (None: the result)."""
        self.styles.set_debug_view(label)

    def reload_shaders(self) -> bool:
        return self.styles.reload_shaders()

    def new_seed(self) -> None:
        self.seed_spin.setValue(random.randint(0, 99999))

    def _scale_changed(self, value: float) -> None:
        self.state.set_scale(value)
        self._save_timer.start(SAVE_DELAY_MS)
        self.viewport.request_render()

    def set_compare(self, mode: CompareMode) -> None:
        self.viewport.set_compare(mode)
        index = self.compare_combo.findData(mode)
        if index != self.compare_combo.currentIndex():
            self.compare_combo.setCurrentIndex(index)

    def cycle_compare(self) -> None:
        self.set_compare(self.viewport.compare.next())
        self.status(f"Compare: {self.viewport.compare.value}", 2000)

    def toggle_pass_times(self) -> None:
        """The GPU pass times, in their own tab beside the controls."""
        if self.pass_dock.isVisible():
            self.pass_dock.hide()
            self.side_dock.raise_()
        else:
            self.pass_dock.show()
            self.pass_dock.raise_()
        self.viewport.set_profile(self.pass_dock.isVisible())

    def _pass_dock_visible(self, visible: bool) -> None:
        self.viewport.set_profile(visible)

    # -- view ------------------------------------------------------------------------------
    def toggle_fullscreen(self) -> None:
        """Fullscreen shows only the picture; Esc (or F, F11) brings everything back."""
        if self.isFullScreen():
            self.showNormal()
            for widget, shown in self._chrome.items():
                widget.setVisible(shown)
            self._chrome.clear()
            return
        chrome: list[QWidget | None] = [self.menuBar(), self.statusBar(), self.side_dock,
                                        self.pass_dock, self.transport]
        self._chrome = {w: w.isVisible() for w in chrome if w is not None}
        for widget in self._chrome:
            widget.hide()
        self.showFullScreen()
        self.overlays.show_hint("Press Esc to leave fullscreen", 3000)

    def _show_original(self, on: bool) -> None:
        self.viewport.set_show_original(on)
        self._view_changed()

    def _leave_fullscreen(self) -> bool:
        if not self.isFullScreen():
            return False
        self.toggle_fullscreen()
        return True

    def show_shortcuts(self) -> None:
        ShortcutsDialog(self).exec()
        self.after_dialog()

    def after_dialog(self) -> None:
        """Give the keyboard back to the window once a dialog closed (else its shortcuts
        stay dead until the viewport is clicked)."""
        self.activateWindow()
        self.viewport.setFocus(Qt.FocusReason.OtherFocusReason)

    def _about(self) -> None:
        from .. import __version__

        QMessageBox.about(self, "About Aquarelle",
                          f"Aquarelle {__version__}\nLive watercolor painting on the GPU.\n\n"
                          f"OpenGL: {self.viewport.gl_info or 'not initialized'}")

    # -- status ----------------------------------------------------------------------------
    def update_stats(self) -> None:
        """Refresh the status-bar numbers and the pass-times dock."""
        src = self.source
        self.labels.show_stats(self.viewport.stats, src, self.live.status_text())
        hint = self.slow_hint.check(src, playback.is_playing(src), time.monotonic(),
                                    self.state.scale, self.live.adaptive_on)
        if hint is not None:
            self.overlays.show_hint(hint, 15000)
            self.status(hint, 15000)
        if src is not None:
            self.transport.set_position(playback.position(src), playback.duration(src),
                                        src.fps, self.viewport.shown_index, src.frame_count)
            self._show_playing()
        self._view_changed()  # the zoom follows window and frame sizes too
        if self.pass_dock.isVisible():
            self.pass_dock.show_times(self.viewport.last_pass_times)
        if self.recorder is not None:
            self.labels.show_recording(self.recorder.frames)
            self.overlays.recording.show_time(time.monotonic() - self.recording.started,
                                              self.recorder.frames)

    def _view_changed(self) -> None:
        vp = self.viewport
        self.overlays.show_compare(vp.comparing, vp.show_original)
        self.labels.show_zoom(vp.zoom_percent())

    # -- snapshots (see snapshots.py) ------------------------------------------------------
    def default_dir(self, kind: str) -> Path:
        return self.snapshots.default_dir(kind)

    def choose_folder(self, kind: str) -> Path | None:
        return self.snapshots.choose_folder(kind)

    def snapshot(self) -> Path | None:
        """Save the painted frame as a new PNG in the snapshot folder."""
        return self.snapshots.snapshot()

    def save_snapshot(self, path: Path) -> bool:
        return self.snapshots.save(path)

    @property
    def snapshot_dir(self) -> Path | None:
        """A folder for this session's snapshots (None: the last one used, else Pictures)."""
        return self.snapshots.folder

    @snapshot_dir.setter
    def snapshot_dir(self, folder: Path | None) -> None:
        self.snapshots.folder = folder

    def show_folder_link(self, folder: Path) -> None:
        """A clickable "Show in folder" in the status bar for a while."""
        self.labels.show_folder_link(folder)

    def open_folder(self, folder: Path) -> None:
        """Show a folder in the system's file manager."""
        self.opened_folder = folder  # tests look at it; there may be no file manager
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    # -- record and export (see recorder.py / export_job.py) ------------------------------
    @property
    def recorder(self) -> Recorder | None:
        """The running recording, if any."""
        return self.recording.recorder

    def toggle_record(self, path: Path | None = None) -> None:
        """Start recording the painted output (to `path`, else a new file in the recording
        folder), or stop and finish the file."""
        self.overlays.show_recording(self.recording.toggle(path))

    def export_dialog(self) -> None:
        """Ask where and how to export the open video (or image), then start."""
        self.exports.open_dialog()

    @property
    def export_job(self) -> ExportJob | None:
        """The last export started from the window (running or not)."""
        return self.exports.job

    @export_job.setter
    def export_job(self, job: ExportJob | None) -> None:
        self.exports.job = job

    @property
    def export_dialog_widget(self) -> QProgressDialog | None:
        """The running export's progress dialog."""
        return self.exports.progress_dialog

    @property
    def done_box(self) -> QMessageBox | None:
        """The last "export finished" box."""
        return self.exports.done_box

    # -- drag and drop ---------------------------------------------------------------------
    def dragEnterEvent(self, e: QDragEnterEvent | None) -> None:
        if e is None:
            return
        mime = e.mimeData()
        if mime is not None and mime.hasUrls() and any(u.isLocalFile() for u in mime.urls()):
            e.acceptProposedAction()

    def dropEvent(self, e: QDropEvent | None) -> None:
        if e is None:
            return
        mime = e.mimeData()
        files = [u.toLocalFile() for u in mime.urls() if u.isLocalFile()] if mime else []
        if files:
            e.acceptProposedAction()
            self.open_file(files[0])

    # -- closing ---------------------------------------------------------------------------
    def save_render_settings(self) -> None:
        """Style, parameter values, seed, scale and compare mode to the settings file."""
        s = self.settings
        s.set_style(self.state.style.name)
        s.set_params(self.state.style.name, self.state.params.as_json_values())
        s.set_seed(self.state.seed)
        s.set_preset(self.state.style.name, self.editor.preset, self.editor.modified)
        s.set_scale(self.state.scale)
        s.set_compare(self.viewport.compare.value)
        s.sync()

    def save_settings(self) -> None:
        """Everything that persists, window geometry included."""
        s = self.settings
        s.set_geometry(self.saveGeometry())
        s.set_window_state(self.saveState())
        s.set_loop(self.transport.loop.isChecked())
        self.save_render_settings()

    def closeEvent(self, e: QCloseEvent | None) -> None:
        job = self.export_job
        if job is not None and job.running:
            answer = QMessageBox.question(
                self, "Export running", "An export is still running. Cancel it and quit?")
            if answer != QMessageBox.StandardButton.Yes:
                if e is not None:
                    e.ignore()
                return
            job.cancel()
            job.wait(10.0)
        if self.recorder is not None:
            self.toggle_record()
        self.live.stop_virtual_camera()
        self._poll.stop()
        self._stats_timer.stop()
        self._save_timer.stop()
        self.labels.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self.keys)
        if self.isFullScreen():
            self.showNormal()
        self.save_settings()
        self._close_source()
        self.viewport.release_gl()
        if e is not None:
            e.accept()
