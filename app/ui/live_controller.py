"""The app's live extras: the virtual camera, adaptive quality and the selfie mirror.

The controller receives the viewport and the settings it needs (never the window): it
gives the viewport an `AdaptiveScale` while a live source plays, and, while the virtual
camera is on, fits every painted frame to the camera's fixed size on the GPU (inside the
viewport's GL context) and hands it to the media layer's `VirtualCameraSink`.
"""

from __future__ import annotations

from collections.abc import Callable

import moderngl
from PyQt6.QtCore import QObject, pyqtSignal
from PyQt6.QtGui import QAction, QActionGroup
from PyQt6.QtWidgets import QMenu, QWidget

from ..engine.errors import AquarelleError
from ..engine.renderer import Renderer
from ..media.adaptive import AIM, AdaptiveScale, floor_for
from ..media.camera_modes import COMMON_RATES, COMMON_SIZES, CameraMode
from ..media.live import MAX_LIVE_FPS
from ..media.source import FrameSource
from ..media.virtual_camera import BackendFactory, VirtualCameraSink
from .settings import Settings
from .viewport import Viewport


class LiveController(QObject):
    """Virtual camera on/off, adaptive quality and mirror for the app (see module doc)."""

    changed = pyqtSignal()  # something the menus or the status bar show changed
    failed = pyqtSignal(str, str)  # title, message: the window shows a dialog

    def __init__(self, viewport: Viewport, settings: Settings,
                 backend_factory: BackendFactory | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.viewport = viewport
        self.settings = settings
        self.backend_factory = backend_factory  # None: pyvirtualcam
        self.sink: VirtualCameraSink | None = None
        self.source: FrameSource | None = None
        self.playing = False  # a file plays (adapts too); paused, it shows full quality
        self._queued: bool | None = None  # live frames through the readback ring (None: GPU)
        self._queued_for: VirtualCameraSink | None = None  # the session the ring holds for
        viewport.live_output = self._output

    # -- settings --------------------------------------------------------------------------
    @property
    def adaptive_on(self) -> bool:
        return self.settings.live_bool("adaptive", True)

    @property
    def mirror(self) -> bool:
        return self.settings.live_bool("mirror", False)

    @property
    def min_scale(self) -> float:
        return self.settings.live_float("min_scale", 0.3, 0.1, 1.0)

    @property
    def target_fps(self) -> float:
        """The rate to hold: the setting, else the frames a second the source delivers (at
        most 30): a file played slower than its pace delivers fewer, each painted better."""
        wanted = self.settings.live_float("target_fps", 0.0, 0.0, 120.0)
        if wanted > 0:
            return wanted
        src = self.source
        fps = getattr(src, "delivered_fps", None) or (src.fps if src is not None else None)
        return float(min(MAX_LIVE_FPS, fps or MAX_LIVE_FPS))

    def follow_rate(self) -> None:
        """Hold the source's rate once it is known (a camera says it from its capture
        thread, after it opened: a 15 fps camera was held to 30 then, painted at 0.3), and
        a file's at a new playback speed."""
        adaptive = self.viewport.adaptive
        if adaptive is not None and adaptive.target_fps != self.target_fps:
            adaptive.target_fps = self.target_fps

    def set_adaptive(self, on: bool) -> None:
        self.settings.set_live("adaptive", bool(on))
        self._apply()

    def settings_changed(self) -> None:
        """The rate to hold or the lowest scale changed: adapt with them from now on."""
        self._apply()

    def set_mirror(self, on: bool) -> None:
        self.settings.set_live("mirror", bool(on))
        if self.source is not None and hasattr(self.source, "mirror"):
            self.source.mirror = bool(on)
        self.changed.emit()

    # -- the source ------------------------------------------------------------------------
    def source_changed(self, source: FrameSource | None) -> None:
        """A new source plays (or none): adapt for live ones, mirror cameras."""
        self.source = source
        if source is not None and hasattr(source, "mirror"):
            source.mirror = self.mirror
        self._apply()

    def set_playing(self, playing: bool) -> None:
        """A file started or stopped playing: while it plays, adaptive quality holds its
        frame rate as for a camera; paused, the frame is painted as an export paints it."""
        if playing != self.playing:
            self.playing = playing
            self._apply()

    @property
    def adapting(self) -> bool:
        """Whether adaptive quality applies to the source now."""
        src = self.source
        moving = src is not None and (src.live or (self.playing and not src.still))
        return moving and self.adaptive_on

    def _apply(self) -> None:
        if self.adapting:
            state_scale = self.viewport.state.scale
            src = self.source
            floor = floor_for(self.min_scale, src.size[1] if src is not None else 0)
            self.viewport.adaptive = AdaptiveScale(self.target_fps, min(floor, state_scale),
                                                   self._start_scale(state_scale),
                                                   ceiling=state_scale)
        else:
            self.viewport.adaptive = None
        self.viewport.request_render()
        self.changed.emit()

    def _start_scale(self, ceiling: float) -> float:
        """The scale a source starts adapting at: what the paints measured so far afford at
        its size (a 1080p video opened after a photo on llvmpipe starts low, instead of
        painting its first frames at full scale for 3 s), else the user's (`ceiling`)."""
        src = self.source
        w, h = src.size if src is not None else (0, 0)
        if w <= 0 or h <= 0:  # (a camera before its first picture)
            return ceiling
        fits = self.viewport.cost.affordable_scale((w, h), AIM / self.target_fps)
        return ceiling if fits is None else min(ceiling, fits)

    # -- virtual camera --------------------------------------------------------------------
    @property
    def virtual_camera_on(self) -> bool:
        return self.sink is not None

    def toggle_virtual_camera(self) -> bool:
        """Start or stop sending to the virtual camera; returns whether it is on. A failure
        is reported through `failed` (the preview keeps going)."""
        try:
            return self._toggle()
        finally:
            self.changed.emit()  # also after a failure: the menu's check mark follows

    def _toggle(self) -> bool:
        if self.sink is not None:
            self.stop_virtual_camera()
            return False
        size = self.viewport.frame_size
        if size is None:
            self.failed.emit("Virtual camera", "Open a camera, a video or an image first: the "
                                               "virtual camera sends its size.")
            return False
        sink = VirtualCameraSink(size, self.target_fps, backend_factory=self.backend_factory)
        try:
            sink.start()
        except AquarelleError as e:
            self.failed.emit("Virtual camera", str(e))
            return False
        except Exception as e:  # a backend bug must not take the app down
            self.failed.emit("Virtual camera", f"{type(e).__name__}: {e}")
            return False
        self.sink = sink
        self.viewport.rerender()  # send the frame on screen at once (a still, a paused video)
        return True

    def stop_virtual_camera(self) -> None:
        sink, self.sink = self.sink, None
        if sink is not None:
            sink.stop()
            self.changed.emit()

    def _output(self, pipeline: Renderer, tex: moderngl.Texture, captured: float | None) -> None:
        """Viewport hook (GL context current): fit the painted frame and send it."""
        sink = self.sink
        if sink is None:
            return
        if sink.error:
            self.stop_virtual_camera()
            self.failed.emit("Virtual camera", sink.error)
            return
        fitter = self.viewport.fitter()
        if sink is not self._queued_for:
            fitter.drain_queued()  # another camera session's frame: not this one's
            self._queued_for = sink
        if captured is None or not self.queued:
            # a one-off render (a still, a paused video, a setting) is sent at once, after
            # what was in flight; so is every frame on a CPU renderer
            for image, at in fitter.drain_queued():
                sink.submit(image, at)
            sink.submit(fitter.fit(tex, sink.size, "pad"), captured)
            return
        # a live frame on a GPU, through the readback ring (packed there when the device
        # takes 4:2:0): the one before it, never a wait
        ready = fitter.fit_queued(tex, sink.size, "pad", meta=captured,
                                  packed=sink.packed_format)
        if ready is not None:
            sink.submit(*ready)

    @property
    def queued(self) -> bool:
        """Whether live frames go out through the readback ring (on a GPU)."""
        if self._queued is None:
            return not self.viewport.cpu_renderer
        return self._queued

    @queued.setter
    def queued(self, on: bool | None) -> None:
        self._queued = on

    # -- status ----------------------------------------------------------------------------
    def status_text(self) -> str:
        """For the status bar: the scale while adapting, else the lines painted where
        fewer than the frame's (a video's limit), the virtual camera's state."""
        parts = []
        scale = self.viewport.painted_scale()
        if self.viewport.adaptive is not None and scale is not None:
            parts.append(f"scale {scale:.2f}")
        else:
            lines = self.viewport.painted_lines()
            if lines is not None:
                parts.append(f"painted at {lines} lines")
        latency = self.viewport.stats.latency.text()
        if latency:
            parts.append(latency)
        if self.sink is not None:
            w, h = self.sink.size
            device = f" {self.sink.device}" if self.sink.device else ""
            med, p95 = self.sink.latency.median(), self.sink.latency.p95()
            sent = "" if med is None or p95 is None else \
                f", sent {med * 1000:.0f} ms after capture (p95 {p95 * 1000:.0f})"
            parts.append(f"\u25cf virtual camera{device} {w}\u00d7{h}{sent}")
        return " \u00b7 ".join(parts)


def camera_mode(settings: Settings) -> tuple[tuple[int, int] | None, float | None]:
    """The resolution and frame rate to ask cameras for (None: the camera's default)."""
    size_text = settings.live_text("camera_size", "default")
    rate_text = settings.live_text("camera_fps", "default")
    size = None
    w, sep, h = size_text.partition("x")
    if sep and w.isdigit() and h.isdigit() and int(w) > 0 and int(h) > 0:
        size = (int(w), int(h))
    try:
        rate: float | None = float(rate_text)
    except ValueError:
        rate = None
    if rate is not None and not 0 < rate <= 240:
        rate = None
    return size, rate


def choice_menu(parent: QWidget, title: str, settings: Settings, key: str, default: str,
                choices: Callable[[], list[tuple[str, str]]],
                changed: Callable[[], None]) -> QMenu:
    """A menu of radio items for one live setting: (value, label) pairs from `choices`
    (asked again each time the menu opens), the setting's value checked; `changed` runs
    after a choice."""
    menu = QMenu(title, parent)

    def fill() -> None:
        menu.clear()
        group = QActionGroup(menu)
        current = settings.live_text(key, default)
        for value, label in choices():
            action = QAction(label, menu)
            action.setCheckable(True)
            action.setChecked(value == current)
            group.addAction(action)

            def choose(_: bool = False, v: str = value) -> None:
                settings.set_live(key, v)
                changed()

            action.triggered.connect(choose)
            menu.addAction(action)

    menu.aboutToShow.connect(fill)
    fill()
    return menu


def camera_mode_menus(parent: QWidget, settings: Settings,
                      modes: Callable[[], list[CameraMode]],
                      changed: Callable[[], None]) -> list[QMenu]:
    """"Camera resolution" and "Camera frame rate": what the camera on screen offers
    (`modes`), else common modes; `changed` runs after a choice (the window reopens the
    camera)."""

    def sizes() -> list[tuple[str, str]]:
        found = [(m.width, m.height) for m in modes()] or list(COMMON_SIZES)
        return [("default", "Camera's default"),
                *[(f"{w}x{h}", f"{w}\u00d7{h}") for w, h in found]]

    def rates() -> list[tuple[str, str]]:
        size, _ = camera_mode(settings)
        offered = modes()
        at_size = [m.rates for m in offered if size is None or (m.width, m.height) == size]
        found = sorted({r for rs in at_size for r in rs}, reverse=True) or list(COMMON_RATES)
        return [("default", "Camera's default"), *[(f"{r:g}", f"{r:g} fps") for r in found]]

    return [choice_menu(parent, "Camera resolution", settings, "camera_size", "default",
                        sizes, changed),
            choice_menu(parent, "Camera frame rate", settings, "camera_fps", "default",
                        rates, changed)]


TARGET_RATES = ("0", "15", "24", "30", "60")
FLOORS = ("0.2", "0.3", "0.5", "0.7")


def adaptive_menus(parent: QWidget, settings: Settings,
                   changed: Callable[[], None]) -> list[QMenu]:
    """"Frame rate to hold" and "Lowest scale" for adaptive quality (kept in the
    settings); `changed` runs after a choice."""
    rates = [(r, "The camera's (at most 30)" if r == "0" else f"{r} fps") for r in TARGET_RATES]
    floors = [(f, f"{float(f):.0%} of the source size") for f in FLOORS]
    return [choice_menu(parent, "Frame rate to hold", settings, "target_fps", "0",
                        lambda: rates, changed),
            choice_menu(parent, "Lowest scale", settings, "min_scale", "0.3",
                        lambda: floors, changed)]
