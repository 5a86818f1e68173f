"""The main window: lays out the viewport, side panel, transport, menus and status bar, and
connects the controllers that do the work (sources, playback, styles, the look and its
undo, snapshots, recording, exports, live extras)."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PyQt6.QtCore import QMimeData, Qt, QTimer, QUrl, pyqtSignal
from PyQt6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QDragEnterEvent,
    QDropEvent,
    QMoveEvent,
    QResizeEvent,
)
from PyQt6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QMenu,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from ..engine.errors import AquarelleError, ShaderCompileError
from ..media.animation import animation_of
from ..media.sniff import misnamed_image
from ..media.source import FrameSource
from ..platforms import current_virtual_camera_name
from . import playback
from .about import about_text
from .camera_watch import CameraWatcher
from .drops import Drop, read_drop
from .export_job import ExportController
from .key_router import KeyRouter
from .live_controller import LiveController, adaptive_menus, camera_mode_menus
from .look_editor import LookEditor
from .look_settings import restore_state, save_state
from .menus import build_menus
from .overlays import ViewportOverlays
from .playback_controller import PlaybackController
from .recorder import Recorder
from .recording import RecordingController
from .settings import PlacePlayed, Settings
from .shader_warmup import ShaderWarmup
from .shortcuts import ShortcutsDialog, step_text
from .side_panel import SidePanel
from .slow_hint import PaintedHow, SlowPlaybackHint, heavy_styles
from .snapshots import SnapshotController
from .sound_controller import SoundController
from .source_controller import SourceController
from .source_controls import TransportBar
from .source_watch import SourceWatch
from .sources import SourceSpec, demo_path, file_stamp
from .stats import PassTimesDock
from .status_labels import StatusLabels
from .style_controller import StyleController, error_text
from .subtitle_controller import SubtitleController
from .theme import theme_menu
from .view_transform import CompareMode
from .viewport import Viewport
from .window_fit import Fullscreen, NarrowWindow, fit_to_screen

POLL_MS = 8  # how often the newest frame is taken from the source (~120 Hz)
STATS_MS = 500
SAVE_DELAY_MS = 1000
# the Playback menu's items: a file that plays only (not a still, a camera, nothing)
PLAYING_ACTIONS = ("play", "step", "step_back", "pause", "play_on", "slower", "faster",
                   "loop")
SEEKING_ACTIONS = ("rewind", "jump_back")  # ... that can also seek


class MainWindow(QMainWindow):
    """The Aquarelle desktop window."""

    exportFinished = pyqtSignal(object)  # the ExportJob, when it ends (done, failed, cancelled)

    def __init__(self, settings: Settings | None = None, preset_dir: Path | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self.settings.on_problem = self._settings_unsaved
        self.setWindowTitle("Aquarelle")
        self.setAcceptDrops(True)
        self._last_gl_error: str | None = None

        self.state, self._initial_compare = restore_state(self.settings)
        self.viewport = Viewport(self.state, self)
        self.viewport.pipelineFailed.connect(self._pipeline_failed)
        self.overlays = ViewportOverlays(self.viewport, self.toggle_record)
        self.transport = TransportBar(self)
        self.transport.set_enabled_for(False, False)
        central = QWidget(self)
        cl = QVBoxLayout(central)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.viewport, 1)
        cl.addWidget(self.transport)
        self.setCentralWidget(central)

        self.side_scroll = panel = SidePanel(self.state, preset_dir)
        self.source_panel, self.style_combo = panel.source_panel, panel.style_combo
        self.chain_panel, self.presets = panel.chain_panel, panel.presets
        self.presets.thumbnails = self.viewport.thumbnails
        self.seed_spin, self.scale_spin = panel.seed_spin, panel.scale_spin
        self.compare_combo, self.debug_combo = panel.compare_combo, panel.debug_combo
        self.param_panel = panel.param_panel
        # a slider dragged: drafts that keep up, the whole picture once it is let go
        self.param_panel.adjusting.connect(self.viewport.set_adjusting)
        self.side_dock = QDockWidget("Controls", self)
        self.side_dock.setObjectName("controlsDock")
        self.side_dock.setWidget(panel)
        self.side_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                   | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.side_dock)
        self.narrow = NarrowWindow(self, self.side_dock, panel.narrowest)
        self._narrow_timer = QTimer(self)  # once the docks are laid out at a new size
        self._narrow_timer.setSingleShot(True)
        self._narrow_timer.timeout.connect(self._narrowed)
        self._width_before = -1
        self.pass_dock = PassTimesDock(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.pass_dock)
        self.tabifyDockWidget(self.side_dock, self.pass_dock)  # a tab: controls keep their room
        self.pass_dock.hide()
        self.pass_dock.visibilityChanged.connect(self.viewport.set_profile)

        self.live = LiveController(self.viewport, self.settings, parent=self)
        self.live.failed.connect(self.error)
        self.live.changed.connect(self._live_changed)
        self.sources = SourceController(self, self.settings, self.viewport, self.live, self,
                                        self.transport.loop.isChecked, self.overlays.show_hint,
                                        self._stop_recording_because, self)
        self.playback = PlaybackController(lambda: self.sources.source, self.transport,
                                           self.viewport, self.live, self.settings, self)
        self.playback.seeked = self.sources.seeked
        self.sound = SoundController(self.settings, self.status, self)
        self.subtitles = SubtitleController(lambda text: self.overlays.show_subtitle(text),
                                            self.status, self)
        self._naming: SourceSpec | None = None  # opened, named once its picture is shown
        self.camera_watch = CameraWatcher(self)
        self.camera_watch.changed.connect(self.sources.cameras_changed)
        self.source_watch = SourceWatch(self)
        self.source_watch.gone.connect(self._source_gone)
        self.slow_hint = SlowPlaybackHint()
        self.styles = StyleController(self.state, self.viewport, self.settings,
                                      self.style_combo, self.chain_panel, self.param_panel,
                                      self.presets, self.debug_combo, self.error, self.status,
                                      self)
        self.editor = LookEditor(self.state, self.param_panel, self.presets, self.seed_spin,
                                 self.scale_spin, self.side_scroll.video_lines_spin,
                                 *self.settings.preset(self.state.style.name), parent=self,
                                 switch_style=lambda name: self.styles.set_style(name, False))
        self.editor.history.on_change = self._undo_changed
        self.styles.editor = self.editor
        # the app turns it on (app.run): compiles the style's presets ahead, off the window
        self.warmup = ShaderWarmup(self.state, self.viewport, self.presets.presets_of, parent=self)
        self._build_status_bar()
        self._build_menus()
        self._connect()

        self._poll = QTimer(self)
        self._poll.setTimerType(Qt.TimerType.PreciseTimer)
        self._poll.timeout.connect(self.poll_source)
        self._poll.start(POLL_MS)
        self.viewport.rendered.connect(self.show_position)
        self._stats_timer = QTimer(self)
        self._stats_timer.timeout.connect(self.update_stats)
        self._stats_timer.start(STATS_MS)
        self._save_timer = QTimer(self)  # settings are saved shortly after a change, too
        self._save_timer.setSingleShot(True)
        self._save_timer.timeout.connect(self.save_render_settings)
        # the window's place and size are saved once a move or resize rests (not only at
        # the close: a crash kept all but them)
        self._layout_timer = QTimer(self)
        self._layout_timer.setSingleShot(True)
        self._layout_timer.timeout.connect(self.save_layout)
        self.keys = KeyRouter(self, self.side_scroll, self.viewport, self._show_original,
                              lambda: self.fullscreen.leave(), self)
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
        self.fullscreen = Fullscreen(self, [self.menuBar(), self.statusBar(), self.side_dock,
                                            self.pass_dock, self.transport])
        fit_to_screen(self)

    # -- construction ----------------------------------------------------------------------
    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        assert bar is not None
        self.labels = StatusLabels(bar, self.open_folder, self)
        self.snapshots = SnapshotController(
            self, self.viewport, self.settings, self, self.after_dialog, self._source_file,
            lambda: getattr(self.source, "full_size", None), self)
        self.recording = RecordingController(
            self.viewport, self.settings, self.labels, self, lambda: self.source,
            lambda: self.snapshots.default_dir("record"), self)
        self.exports = ExportController(self, self, self.settings, self.state,
                                        lambda: (self.source_spec, self.source),
                                        self.snapshots.default_dir,
                                        lambda path: self.snapshots.save(path, False),
                                        self.after_dialog, lambda: self.playback.on_screen())
        self.exports.finished.connect(self.exportFinished.emit)

    def _build_menus(self) -> None:
        src, play, vp, live = self.sources, self.playback, self.viewport, self.live
        handlers: dict[str, Callable[[], object]] = {
            "open": src.open_file_dialog, "demo": src.open_demo, "camera": src.next_camera,
            "snapshot": self.snapshots.snapshot, "snapshot_as": self.snapshots.snapshot_as,
            "record": self.toggle_record, "export": self.export_dialog, "quit": self.quit,
            "play": play.toggle_play, "step": lambda: play.step(1),
            "step_back": lambda: play.step(-1), "rewind": lambda: play.seek(0.0),
            "jump_back": play.jump_back, "pause": lambda: play.set_playing(False),
            "play_on": lambda: play.set_playing(True), "slower": play.slower,
            "faster": play.faster,
            "loop": lambda: self.transport.loop.toggle(), "compare": self.cycle_compare,
            "mute": lambda: self.transport.mute.toggle(),
            "debug": self.styles.cycle_debug_view, "fit": vp.fit, "actual": vp.actual_pixels,
            "zoom_in": lambda: vp.zoom_by(1.25), "zoom_out": lambda: vp.zoom_by(0.8),
            "fullscreen": self.toggle_fullscreen,
            "panel": self.toggle_panel,
            "pass_times": self.toggle_pass_times,
            "reset_all": self.param_panel.reset_all, "next_preset": lambda: self.presets.step(1),
            "prev_preset": lambda: self.presets.step(-1),
            "save_preset": self.presets.save_dialog, "new_seed": self.new_seed,
            "reload_shaders": self.styles.reload_shaders, "help": self.show_shortcuts,
            "undo": self.editor.undo, "redo": self.editor.redo,
            "virtual_camera": self.toggle_virtual_camera,
            "mirror": self.toggle_mirror,
            "adaptive": self.toggle_adaptive,
        }
        self._actions, menus = build_menus(self, handlers)
        self.recent_menu = QMenu("Open recent", self)
        self.recent_menu.aboutToShow.connect(lambda: src.fill_recent(self.recent_menu))
        menus["File"].insertMenu(self._actions["demo"], self.recent_menu)
        folders = QMenu("Save folders", self)
        for kind, label in (("snapshot", "Snapshots\u2026"), ("record", "Recordings\u2026")):
            action = folders.addAction(label)
            assert action is not None
            action.triggered.connect(lambda _=False, k=kind: self.snapshots.choose_folder(k))
        menus["File"].insertMenu(self._actions["quit"], folders)
        menus["Playback"].insertMenu(self._actions["loop"], self.transport.speed_menu)
        menus["Playback"].insertMenu(self._actions["loop"], self.sound.menu)
        menus["Playback"].insertMenu(self._actions["loop"], self.subtitles.menu)
        # cameras plugged in where nothing watches for them: Open the next camera follows
        menus["File"].aboutToShow.connect(src.refresh_cameras)
        menus["View"].addSeparator()
        self.theme_menu = theme_menu(self, self.settings)
        menus["View"].addMenu(self.theme_menu)
        about = QAction("About Aquarelle", self)
        about.triggered.connect(self._about)
        menus["Help"].addAction(about)
        menus["Live"].addSeparator()
        for menu in adaptive_menus(self, self.settings, live.settings_changed):
            menus["Live"].addMenu(menu)
        menus["Live"].addSeparator()
        self.camera_menus = camera_mode_menus(self, self.settings, src.camera_modes,
                                              src.camera_mode_changed)
        for menu in self.camera_menus:
            menus["Live"].addMenu(menu)
        self.source_panel.add_button(self._actions["virtual_camera"],
                                     "Send the painted picture to the virtual camera "
                                     "(Ctrl+Shift+V): pick it in your video call")
        self._live_changed()
        self._source_changed()
        self._undo_changed()

    def _connect(self) -> None:
        self.editor.message.connect(self.status)
        self.editor.failed.connect(self.error)
        self.presets.message.connect(self.status)
        self.presets.open_folder = self.open_folder  # "Show presets folder"
        self.presets.problem.connect(self.error)
        self.presets.report_problems()  # (the first read came before this window listened)
        self.side_scroll.new_seed.clicked.connect(self.new_seed)
        self.compare_combo.currentIndexChanged.connect(
            lambda i: self.set_compare(self.compare_combo.itemData(i)))
        src = self.sources
        src.opened.connect(self._opened)
        self.viewport.newPictureShown.connect(self._name_shown)
        src.stopped.connect(lambda: self.transport.set_enabled_for(False, False))
        src.stopped.connect(self._source_changed)
        src.camerasListed.connect(self.source_panel.set_cameras)
        self.source_panel.cameraChosen.connect(
            lambda ident: src.open_spec(SourceSpec("camera", ident)))
        self.source_panel.openRequested.connect(src.open_file_dialog)
        self.source_panel.demoRequested.connect(src.open_demo)
        self.source_panel.refreshRequested.connect(src.refresh_cameras)
        self.playback.loop_changed = self._actions["loop"].setChecked
        self._actions["loop"].setChecked(self.transport.loop.isChecked())
        self.transport.mute.setChecked(self.sound.muted)
        self._actions["mute"].setChecked(self.sound.muted)
        self.transport.muteToggled.connect(self._actions["mute"].setChecked)
        self.transport.muteToggled.connect(self.sound.set_muted)
        src.stopped.connect(lambda: self.sound.follow(None))
        src.stopped.connect(lambda: self.subtitles.follow(None))
        self.viewport.viewChanged.connect(self._view_changed)
        self.viewport.painter.changed.connect(self._painting_changed)
        self.set_compare(self._initial_compare)
        self.state.subscribe(lambda change: self._save_timer.start(SAVE_DELAY_MS))
        src.refresh_cameras()  # Open the next camera: only with one to open

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
        # only a shader that failed to build leaves the previous ones at work
        kept = self.viewport.pipeline is not None and isinstance(e, ShaderCompileError)
        suffix = "\n\nThe last working shaders stay in use." if kept else ""
        self.error("Rendering problem", text + suffix)

    # -- sources (see source_controller.py, playback_controller.py) -----------------------
    @property
    def source(self) -> FrameSource | None:
        """The source on screen."""
        return self.sources.source

    def _source_file(self) -> Path | None:
        """The file on screen, if a file is (the demo's included)."""
        spec = self.source_spec
        if spec is None or spec.kind not in ("file", "demo"):
            return None
        return demo_path() if spec.kind == "demo" else Path(spec.ref)

    @property
    def source_spec(self) -> SourceSpec | None:
        return self.sources.spec

    def open_initial(self, file: str | None = None) -> None:
        self.sources.open_initial(file)
        self._go_back_to(self.settings.position())  # (a seek: before the view's restore)
        view, spec = self.settings.view(), self.sources.spec
        if view is not None and spec is not None and str(spec) == view[0]:
            self.viewport.restore_view(view[1], view[2])  # (at its first picture)

    def open_spec(self, spec: SourceSpec, quiet: bool = False) -> bool:
        return self.sources.open_spec(spec, quiet)

    def _place_played(self) -> PlacePlayed | None:
        """Where the video on screen is, for the next start: the frame on screen (else the
        one the file went to), whether it is paused; None for a still, a camera, a file
        that cannot seek or is gone."""
        src, spec, path = self.source, self.sources.spec, self._source_file()
        if src is None or spec is None or path is None or not src.seekable \
                or not playback.can_play(src):
            return None
        seconds = self.viewport.on_screen_pts
        if seconds is None:
            seconds = playback.position(src)
        stamp = file_stamp(path)
        if seconds is None or stamp is None:
            return None
        return PlacePlayed(str(spec), seconds, not playback.is_playing(src), *stamp)

    def _go_back_to(self, place: PlacePlayed | None) -> None:
        """The video opened at start where it was left (`place`), paused if it was: the
        same source, its file unchanged (size and time); else from its beginning."""
        src, spec, path = self.source, self.sources.spec, self._source_file()
        if place is None or src is None or spec is None or path is None \
                or str(spec) != place.source or not src.seekable \
                or not playback.can_play(src) \
                or file_stamp(path) != (place.size, place.mtime_ns):
            return
        if place.paused:
            self.playback.set_playing(False)
        if place.paused or place.seconds > 0:
            self.playback.seek(place.seconds)

    def open_file(self, path: str | Path, otherwise: Callable[[], object] | None = None
                  ) -> bool:
        """Open an image or video file (`otherwise`: what to open if a big picture, decoded
        apart, turns out not to open)."""
        return self.sources.open_file(path, otherwise)

    def open_demo(self) -> bool:
        return self.sources.open_demo()

    def poll_source(self) -> None:
        self.sources.poll()

    def _opened(self, spec: SourceSpec) -> None:
        src = self.sources.source
        assert src is not None
        self.slow_hint.reset()
        camera = spec.ref if spec.kind == "camera" else None
        self.source_panel.show_camera(camera)
        self._naming = spec
        if not self.viewport.holding_previous:  # (else once its first frame is shown)
            self._name_shown()
        self.transport.set_enabled_for(src.seekable, playback.can_play(src))
        self.playback.source_opened()
        self.playback.show_playing()
        # (the count's "about" from the start: the time's room is taken before the first
        # frame, not a frame later with the picture fitted again to a narrower view)
        self.show_position()
        full = getattr(src, "full_size", None)
        moving = animation_of(src.path) if getattr(src, "still", False) and \
            getattr(src, "path", None) else None
        if moving is not None:  # (one FFmpeg decodes plays as a video: sources.open_source)
            self.status(f"Opened {spec.label}: {moving.name}, shown as its first frame (FFmpeg "
                        "here cannot decode the others)", 20000)
        elif full is None:
            path = Path(spec.ref) if spec.kind == "file" else None
            note = misnamed_image(path) if path is not None else None
            # (as `aquarelle render` warns: a JPEG named .mp4 is shown, and exported, as the
            # picture it is)
            self.status(f"Opened {spec.label}" + (f", {note}" if note else ""),
                        20000 if note else 6000)
        else:  # a big still: shown smaller, exported whole
            w, h = src.size
            self.status(f"Opened {spec.label}, which is {full[0]}x{full[1]}: shown at {w}x{h} "
                        "(the painting looks the same, smaller); Ctrl+E paints it at full size",
                        20000)
        self.source_watch.follow(Path(spec.ref) if spec.kind == "file" else None)
        self.sound.follow(src)
        self.subtitles.follow(src)
        self._source_changed()

    def _source_gone(self, path: str) -> None:
        """The open file was moved or deleted: said now, and in the title."""
        name = Path(path).name
        self.status(f"{name} was moved or deleted: what is open stays on screen, but "
                    "exporting it needs the file back (or open it again where it is now)",
                    30000)
        self.setWindowTitle(f"{name} (missing) — Aquarelle")

    def _name_shown(self) -> None:
        """The title, "Showing:" and the size name the source whose picture is on screen:
        the picture before a new source's is held until its first frame is painted (its
        face found; README), and stayed there ~100 ms under the new file's name (trial W2,
        finding 5)."""
        spec, src, self._naming = self._naming, self.sources.source, None
        if spec is None or src is None or spec != self.sources.spec:
            return
        camera = spec.ref if spec.kind == "camera" else None
        name = self.source_panel.camera_name(camera) if camera is not None else None
        self.source_panel.current.setText(f"Showing: {spec.label}"
                                          + (f" ({name})" if name else ""))
        self.setWindowTitle(f"{spec.label} \u2014 Aquarelle")
        self.labels.show_resolution(src)

    @property
    def camera_on_screen(self) -> bool:
        """Whether the source on screen is a camera."""
        spec = self.sources.spec
        return self.source is not None and spec is not None and spec.kind == "camera"

    def _source_changed(self) -> None:
        """Menu items that act on the source are enabled only where they can: the
        Playback menu's for a file that plays (not a still, a camera, nothing), the
        camera's resolution and frame rate for a camera on screen, Record and Export with a
        source open, Snapshot with a picture on screen (the last of a source that stopped)."""
        src = self.source
        self._actions["record"].setEnabled(src is not None or self.recorder is not None)
        self._actions["export"].setEnabled(src is not None)  # videos, and stills from images
        for name in ("snapshot", "snapshot_as"):
            self._actions[name].setEnabled(src is not None
                                           or self.viewport.frame_size is not None)
        playable = playback.can_play(src)
        for name in PLAYING_ACTIONS:
            self._actions[name].setEnabled(playable)
        self.transport.speed_menu.setEnabled(playable)
        for name in SEEKING_ACTIONS:
            self._actions[name].setEnabled(playable and src is not None and src.seekable)
        for menu in self.camera_menus:
            menu.setEnabled(self.camera_on_screen)

    def _undo_changed(self) -> None:
        """Undo and Redo are enabled only with a step to take, and name it ("Undo Seed
        change")."""
        actions = getattr(self, "_actions", None)
        if actions is not None:  # (none before the menus are built)
            history = self.editor.history
            actions["undo"].setEnabled(history.can_undo)
            actions["redo"].setEnabled(history.can_redo)
            actions["undo"].setText(step_text("undo", history.undo_text))
            actions["redo"].setText(step_text("redo", history.redo_text))

    def _stop_recording(self) -> None:
        if self.recorder is not None:
            self.toggle_record()

    def _stop_recording_because(self, why: str) -> None:
        """The source's end, or another source, ends a recording (it carries its source's
        sound): said over the picture, where the next source's "Opened" or a dialog does not
        replace it at once."""
        if self.recorder is None:
            return
        self.toggle_record()
        if self.recording.said:
            self.overlays.show_hint(f"Recording stopped: {why}. {self.recording.said}", 12000)

    def toggle_virtual_camera(self) -> None:
        """Virtual camera on / off; on, a hint says what to pick in the video call."""
        if self.live.toggle_virtual_camera():
            name = current_virtual_camera_name()
            self.overlays.show_hint(f"Virtual camera on: pick \u201c{name}\u201d as the "
                                    "camera in your video call", 8000)
            self.status("Virtual camera on")
        else:
            self.status("Virtual camera off")

    def toggle_mirror(self) -> None:
        """Mirror cameras on / off (kept); without a camera on screen, the status bar says
        why the picture did not change."""
        on = not self.live.mirror
        self.live.set_mirror(on)
        if not self.camera_on_screen:
            self.status(f"Mirror {'on' if on else 'off'}: it applies to cameras, and none is "
                        "showing (a camera opened next is shown "
                        f"{'mirrored' if on else 'as it sees'})", 8000)

    def toggle_adaptive(self) -> None:
        """Adaptive quality on / off (kept); where it cannot act on what is on screen (a
        still, a paused video, nothing), the status bar says why the picture did not
        change."""
        on = not self.live.adaptive_on
        self.live.set_adaptive(on)
        src = self.source
        if src is None:
            why = "it applies to video and the camera, and none is showing"
        elif src.still:
            why = "it applies to video and the camera; this still is painted at full quality"
        elif not src.live and not self.live.playing:
            why = "it applies while the video plays; paused, its frame is painted at full " \
                "quality"
        else:
            return
        self.status(f"Adaptive quality {'on' if on else 'off'}: {why}", 8000)

    def _live_changed(self) -> None:
        for name, on in (("virtual_camera", self.live.virtual_camera_on),
                         ("mirror", self.live.mirror), ("adaptive", self.live.adaptive_on)):
            self._actions[name].setChecked(on)
        self.labels.live.setText(self.live.status_text())

    # -- rendering settings ----------------------------------------------------------------

    def set_style(self, name: str) -> bool:
        """Switch style or chain (`a+b`), undoably; see StyleController."""
        return self.styles.set_style(name)

    def new_seed(self) -> None:
        self.seed_spin.setValue(random.randint(0, 99999))

    def set_compare(self, mode: CompareMode) -> None:
        self.state.set_compare(mode.value)  # the viewport and the combo follow

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

    # -- view ------------------------------------------------------------------------------
    def toggle_fullscreen(self) -> None:
        """Fullscreen shows only the picture; Esc (or F, F11) brings everything back."""
        if self.fullscreen.toggle():
            self.overlays.show_hint("Press Esc to leave fullscreen", 3000)

    def _show_original(self, on: bool) -> None:
        self.viewport.set_show_original(on)
        self._view_changed()

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

        QMessageBox.about(self, "About Aquarelle", about_text(__version__, self.viewport.gl_info))

    # -- status ----------------------------------------------------------------------------
    def show_position(self) -> None:
        """The transport's time, frame number and seek bar at the frame on screen (after
        each frame shown: a step or a seek showed the frame before for up to the stats'
        half second)."""
        src = self.source
        if src is not None:
            self.transport.set_position(playback.position(src), playback.duration(src),
                                        src.fps, self.viewport.shown_index, src.frame_count,
                                        about=not getattr(src, "frame_count_exact", True))
            shown = self.viewport.painted_pts  # (the frame on screen's line)
            self.subtitles.at(shown if shown is not None else playback.position(src))

    def update_stats(self) -> None:
        """Refresh the status-bar numbers, the transport and the pass-times dock."""
        src = self.source
        self.live.follow_rate()
        self.labels.show_stats(self.viewport.stats, src, self.live.status_text(),
                               named=self._naming is None, shown=self.viewport.frame_size)
        hint = self.slow_hint.check(src, playback.is_playing(src), time.monotonic(),
                                    self.state.scale, self.live.adaptive_on,
                                    self._painted_how())
        if hint is not None:
            self.overlays.show_hint(hint, 15000)
            self.status(hint, 15000)
        if src is not None:
            self.show_position()
            self.playback.show_playing()
        self._view_changed()  # the zoom follows window and frame sizes too
        if self.pass_dock.isVisible():
            self.pass_dock.show_times(self.viewport.last_pass_times)
        if self.recorder is not None:
            self.labels.show_recording(self.recorder.frames)
            self.overlays.recording.show_time(time.monotonic() - self.recording.started,
                                              self.recorder.frames)

    def _painted_how(self) -> PaintedHow:
        """How the frames are painted now (the slow-playback hint's advice follows it)."""
        vp = self.viewport
        size, scale = vp.frame_size, vp.painted_scale()
        return PaintedHow(scale=self.state.scale, adaptive=self.live.adaptive_on,
                          adapted=None if vp.adaptive is None else vp.adaptive.scale,
                          lowest=self.live.min_scale,
                          lines=None if size is None or scale is None
                          else round(min(size) * scale),
                          heavy=heavy_styles(self.state.style), cpu=vp.cpu_renderer)

    def _painting_changed(self) -> None:
        """A big still painted apart (viewport.APART_PX): a badge over the picture while it
        lasts."""
        order = self.viewport.painter.painting
        if order is None:
            self.overlays.show_painting(None)
        else:
            w, h = order.size
            self.overlays.show_painting(f"Painting {w}\u00d7{h} with {order.style.name}",
                                        order.made)

    def _view_changed(self) -> None:
        vp = self.viewport
        self.overlays.show_compare(vp.comparing, vp.show_original)
        self.labels.show_zoom(vp.zoom_percent())

    # -- feedback for the controllers -------------------------------------------------------
    def show_folder_link(self, folder: Path) -> None:
        """A clickable "Show in folder" in the status bar for a while."""
        self.labels.show_folder_link(folder)

    def open_folder(self, folder: Path) -> None:
        """Show a folder in the system's file manager."""
        self.opened_folder = folder  # tests look at it; there may be no file manager
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    # -- record and export (see recording.py / export_job.py) ------------------------------
    @property
    def recorder(self) -> Recorder | None:
        """The running recording, if any."""
        return self.recording.recorder

    def toggle_record(self, path: Path | None = None) -> None:
        """Start recording the painted output (to `path`, else a new file in the recording
        folder), or stop and finish the file."""
        self.overlays.show_recording(self.recording.toggle(path))

    def export_dialog(self) -> None:
        """Ask where and how to export the open video (or image), then start. A playing file
        pauses first: the dialog's "Current position" is then the frame on screen (it ran a
        frame or two on behind the dialog); it plays on once the dialog is closed (the
        preview keeps running while an export does: trial W11 found it paused throughout,
        nothing saying why)."""
        was_playing = playback.is_playing(self.source)
        self.playback.set_playing(False)
        if was_playing:
            self.status("Paused while the export's choices are made; it plays on after")
        self.exports.open_dialog()
        if was_playing:
            self.playback.set_playing(True)

    # -- drag and drop ---------------------------------------------------------------------
    def dragEnterEvent(self, e: QDragEnterEvent | None) -> None:
        # files are taken: a notes.txt's refusal is said while it is dragged (the status
        # bar) and, dropped, in a dialog as File > Open's is (trial W10: a dropped damaged
        # video was refused in the status bar alone, gone in ten seconds)
        drop = read_drop(e.mimeData()) if e is not None else None
        if e is None or drop is None:
            return
        if drop.file is None:
            self.status(drop.refusal(), 10000)
        e.acceptProposedAction()

    def dropEvent(self, e: QDropEvent | None) -> None:
        drop = read_drop(e.mimeData()) if e is not None else None
        if e is None or drop is None:
            return
        e.acceptProposedAction()
        if drop.file is None:
            self.error("Cannot open source", drop.refusal("\n"))
            return
        mime = QMimeData()  # (kept: a big picture that fails later has the next tried then)
        mime.setUrls(e.mimeData().urls())
        self._open_dropped(mime, drop)

    def _open_dropped(self, mime: QMimeData, drop: Drop | None) -> None:
        """Open the first of the dropped files that opens, from `drop` on."""
        while drop is not None and drop.file is not None:
            if drop.preset:  # (the panel says what came of it)
                self.presets.import_path(Path(drop.file))
                return
            note = drop.note()
            if self.open_file(drop.file, lambda after=drop.index: self._open_dropped(
                    mime, read_drop(mime, after))):
                if note is not None:  # (else its dialog said why: the next is tried)
                    bar = self.statusBar()  # (after "Opened" and what it says of the file)
                    opened = bar.currentMessage() if bar is not None else ""
                    self.status(f"{opened or 'Opened ' + Path(drop.file).name}; {note}",
                                20000)
                return
            drop = read_drop(mime, drop.index)

    # -- closing ---------------------------------------------------------------------------
    def save_render_settings(self) -> None:
        """Style, parameter values, seed, scale, compare mode and its split, zoom and the
        video's place to the settings file."""
        self.settings.set_position(self._place_played())
        kept, spec = self.viewport.kept_view(), self.sources.spec
        self.settings.set_view(str(spec) if kept is not None and spec is not None else None,
                               *(kept or ()))
        save_state(self.settings, self.state, self.editor.preset, self.editor.modified,
                   self.viewport.compare)

    def save_layout(self) -> None:
        """Window geometry and docks to the settings file (as they were before
        fullscreen)."""
        geometry, docks = self.fullscreen.saved_layout()
        self.settings.set_geometry(geometry)
        self.settings.set_window_state(docks)
        self.settings.sync()

    def moveEvent(self, e: QMoveEvent | None) -> None:
        super().moveEvent(e)
        self._layout_timer.start(SAVE_DELAY_MS)

    def resizeEvent(self, e: QResizeEvent | None) -> None:
        super().resizeEvent(e)
        self._layout_timer.start(SAVE_DELAY_MS)
        if e is not None:  # (the widest since the last look: resizes may come in a row)
            old = e.oldSize().width()
            active = self._narrow_timer.isActive()
            self._width_before = max(self._width_before, old) if active else old
            self._narrow_timer.start(0)

    def _narrowed(self) -> None:
        said = self.narrow.resized(self._width_before)
        if said:
            self.status(said)

    def toggle_panel(self) -> None:
        """F9: the Controls panel shown or hidden, the user's choice from now on."""
        self.narrow.toggled_by_user()
        self.side_dock.setVisible(not self.side_dock.isVisible())

    def _settings_unsaved(self, text: str) -> None:
        """The settings file could not be written (told once, see Settings.sync)."""
        self.error("Settings", f"{text}\n\nChanges stay in use until Aquarelle quits, and "
                   "are lost then.")

    def save_settings(self) -> None:
        """Everything that persists, window geometry and docks included (as they were before
        fullscreen)."""
        self.save_layout()
        self.settings.set_loop(self.transport.loop.isChecked())
        self.save_render_settings()

    def quit(self) -> None:
        """File > Quit: a running recording ends only if the user agrees (the question names
        its file); then the window closes."""
        if self._recording_may_end():
            self.close()

    def _recording_may_end(self) -> bool:
        """Whether quitting may finish the running recording, if any: asked first."""
        rec = self.recorder
        if rec is None:
            return True
        answer = QMessageBox.question(
            self, "Recording", f"Recording to {rec.path.name} in {rec.path.parent}.\n\n"
            "Stop recording and quit? The recording is kept.")
        return answer == QMessageBox.StandardButton.Yes

    def closeEvent(self, e: QCloseEvent | None) -> None:
        # the title bar's close asks as Quit does; a close that is no user's (SIGTERM)
        # finishes the recording unasked, and says where it went on the terminal
        if e is not None and e.spontaneous() and not self._recording_may_end():
            e.ignore()
            return
        # a video's export, or a still's painted in its own process (it was killed unasked)
        running = [j for j in (self.exports.job, self.exports.still_job)
                   if j is not None and j.running]
        if running:
            answer = QMessageBox.question(
                self, "Export running", "An export is still running. Cancel it and quit?")
            if answer != QMessageBox.StandardButton.Yes:
                if e is not None:
                    e.ignore()
                return
            for job in running:
                job.cancel()
                job.wait(10.0)
        if self.recorder is not None:
            self._stop_recording()
            if self.recording.saved is not None:
                print(f"aquarelle: the recording was saved to {self.recording.saved}",
                      file=sys.stderr)
        self.live.stop_virtual_camera()
        self.warmup.stop()
        for timer in (self._poll, self._stats_timer, self._save_timer, self._layout_timer):
            timer.stop()
        self.labels.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self.keys)
        # (a dialog now would hold the quit, a SIGTERM's too: the terminal is told)
        self.settings.on_problem = lambda text: print(f"aquarelle: {text}", file=sys.stderr)
        self.save_settings()
        self.sources.close()
        self.sound.close()
        self.viewport.release_gl()
        if e is not None:
            e.accept()
