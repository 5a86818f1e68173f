"""The source on screen: opening files, cameras and the demo, what opens at start, the
newest frame to the viewport, and the fallbacks when a camera fails or goes away."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PyQt6.QtCore import QEventLoop, QObject, pyqtSignal
from PyQt6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from ..engine.errors import AquarelleError
from ..media.camera_modes import CameraMode, camera_modes
from ..media.image_formats import IMAGE_EXTENSIONS
from ..media.motion_feed import MotionFeed
from ..media.paths import VIDEO_EXTENSIONS
from ..media.source import FrameSource
from ..platforms import current_camera_denied_hint
from .camera_access import denied_by_system
from .feedback import Feedback
from .live_controller import LiveController, camera_mode
from .reasons import short_reason
from .settings import Settings
from .sources import (
    SourceSpec,
    decoded_apart,
    demo_path,
    file_there,
    list_cameras,
    open_source,
    opened_apart,
)
from .viewport import Viewport


def _patterns(extensions: set[str]) -> str:
    return " ".join(f"*{e}" for e in sorted(extensions))


# The open dialog's filters, from the lists the sources are read by (a typed-out list hid
# HEIC and AVIF photos and .mts, .ts, .mpg, .wmv clips the window opens)
MEDIA_FILTER = (f"Media ({_patterns(VIDEO_EXTENSIONS | IMAGE_EXTENSIONS)});;"
                f"Videos ({_patterns(VIDEO_EXTENSIONS)});;"
                f"Pictures ({_patterns(IMAGE_EXTENSIONS)});;All files (*)")


FIRST_PICTURE_WAIT_S = 3  # a camera's first picture later than this is said to be late


def _gone(last: SourceSpec | None) -> str | None:
    """"Last file NAME is no longer there" where last session's file moved or was
    deleted."""
    if last is None or last.kind != "file" or file_there(last.ref):
        return None
    return f"Last file {Path(last.ref).name} is no longer there"


@dataclass(eq=False)
class Opening:
    """A source being opened on a worker thread: a big picture (see DECODE_APART_PX), or a
    video while the window waits for it (see `opened_apart`)."""

    spec: SourceSpec
    quiet: bool
    otherwise: Callable[[], object] | None = None  # what to open when it fails
    source: FrameSource | None = None  # ... what came of it
    error: Exception | None = None
    waited: bool = False  # open_spec waits for it (and answers for it: no `otherwise`)
    opened: bool | None = None  # on screen (True), refused (False); None: not yet


class SourceController(QObject):
    """Owns the open source; the window shows what `opened` and `stopped` say."""

    opened = pyqtSignal(object)  # the SourceSpec now on screen
    stopped = pyqtSignal()  # the source failed or ended for good: nothing plays
    camerasListed = pyqtSignal(list)  # [(id, label)] after each look for cameras
    decoded = pyqtSignal(object)  # an Opening done (emitted on its thread, run on this one)

    def __init__(self, widget: QWidget, settings: Settings, viewport: Viewport,
                 live: LiveController, feedback: Feedback, loop: Callable[[], bool],
                 hint: Callable[[str, int], None], stop_recording: Callable[[str], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.widget, self.settings, self.viewport, self.live = widget, settings, viewport, live
        self.feedback, self.loop, self.hint = feedback, loop, hint
        self.stop_recording = stop_recording
        self.source: FrameSource | None = None
        self.spec: SourceSpec | None = None
        self.lost_camera: str | None = None  # a camera that stopped: reopened if it returns
        self.fallback_to_demo = False  # a camera opened at start that fails: demo, quietly
        # the source that showed frames before this one opened: back to it if this camera
        # never starts (a camera opens on its own thread, so it fails after open_spec)
        self.previous: SourceSpec | None = None
        self.frames_seen = 0
        self.clock: Callable[[], float] = time.monotonic
        self._opened_at = 0.0  # when the source opened (clock)
        self._waited = 0  # the whole seconds a camera's first picture was said to be late
        self.motion: MotionFeed | None = None  # takes the source's frames, when it moves
        # Motion estimated ahead on the feed's thread: on a GPU (its cores are free while the
        # GPU paints); a CPU renderer paints with every core, and the feed's estimates of
        # frames that arrive while it paints would only slow it. None: by the renderer.
        self.motion_ahead: bool | None = None
        self.opening: Opening | None = None  # a big picture decoding: shown once it comes
        self.decoded.connect(self._open_decoded)

    # -- cameras ---------------------------------------------------------------------------
    def refresh_cameras(self) -> list[tuple[str, str]]:
        cams = list_cameras()
        self.camerasListed.emit(cams)
        return cams

    def cameras_changed(self) -> None:
        """Cameras came or went: refresh the list; a lost camera that is back is reopened
        while the window shows nothing or the demo in its place."""
        ids = [c[0] for c in self.refresh_cameras()]
        lost = self.lost_camera
        showing_stand_in = self.source is None or (
            self.spec is not None and self.spec.kind == "demo")
        if lost is not None and lost in ids and showing_stand_in \
                and self.open_spec(SourceSpec("camera", lost), quiet=True):
            self.feedback.status(f"Camera {lost} is back")

    def next_camera(self) -> None:
        cams = self.refresh_cameras()
        if not cams:
            # (the key always looks again: a camera plugged in since is found; W11: greyed
            # out with none, Ctrl+K did nothing and said nothing)
            self.feedback.error("Camera", "No camera was found: plug one in and press Ctrl+K "
                                "again, or open a video (Ctrl+O).")
            return
        ids = [c[0] for c in cams]
        current = self.spec.ref if self.spec and self.spec.kind == "camera" else None
        nxt = ids[(ids.index(current) + 1) % len(ids)] if current in ids else ids[0]
        self.open_spec(SourceSpec("camera", nxt))

    def camera_modes(self) -> list[CameraMode]:
        """What the camera on screen offers (none listed for other sources)."""
        spec = self.spec
        if spec is None or spec.kind != "camera":
            return []
        return camera_modes(f"/dev/video{spec.ref}" if spec.ref.isdigit() else spec.ref)

    def camera_mode_changed(self) -> None:
        """A new camera resolution or rate: reopen the camera on screen with it."""
        if self.spec is not None and self.spec.kind == "camera":
            self.open_spec(self.spec)

    # -- opening ---------------------------------------------------------------------------
    def open_initial(self, file: str | None = None) -> None:
        """What the app opens at start: FILE, else what was open last time (a file that
        still exists, a camera that is still there, the demo), else the first camera, else
        the demo clip. A last file that moved or was deleted is said to be gone; a FILE that
        cannot be opened is said so, then the rest is as without it (not an empty window)."""
        cams = self.refresh_cameras()
        named = SourceSpec("file", str(Path(file).resolve())) if file else None
        if named is not None and self.open_spec(
                named, otherwise=lambda: self._open_default(named, cams)):
            return
        self._open_default(named, cams)

    def _open_default(self, named: SourceSpec | None, cams: list[tuple[str, str]]) -> None:
        """open_initial without FILE, or after it failed to open."""
        last = SourceSpec.parse(self.settings.last_source() or "")
        if last is not None and last != named and self._reopen(last, [c[0] for c in cams]):
            return
        gone = _gone(last)
        if cams:
            if not self.open_spec(SourceSpec("camera", cams[0][0]), quiet=True):
                self.open_demo()
            if gone and self.spec is not None:
                self.hint(f"{gone}: showing {self.spec.label}", 10000)
        elif demo_path() is not None:
            self.open_demo()
            self.hint(f"{gone or 'No camera found'}: showing the demo. Open a file with "
                      "Ctrl+O or drop one here.", 10000)
        else:
            self.feedback.status(f"{gone or 'No camera and no demo clip'}: open a file "
                                 "(Ctrl+O) or drop one here", 15000)
            return
        if gone and last is not None:  # the whole path, where the picture's hint has no room
            self.feedback.status(f"{gone}: {last.ref}", 15000)

    def _reopen(self, spec: SourceSpec, cameras: list[str]) -> bool:
        """Open last session's source if it is still there (quietly: else the defaults)."""
        if spec.kind == "file" and not file_there(spec.ref):
            return False
        if spec.kind == "camera" and spec.ref not in cameras:
            return False
        if spec.kind == "demo" and demo_path() is None:
            return False
        return self.open_spec(spec, quiet=True)

    def open_spec(self, spec: SourceSpec, quiet: bool = False,
                  otherwise: Callable[[], object] | None = None) -> bool:
        """Open and start a source; on failure keep the current one and say why. A big
        picture (DECODE_APART_PX) is decoded on a worker thread: True then says it is on
        its way; the source on screen stays until it comes, a failure is said then, and
        any open meanwhile wins over it (one that fails does not). `otherwise`: what to open
        when such a picture turns out not to decode (False says it of the others at once).
        A video is opened on a worker thread too, waited for (see _open_waiting)."""
        size, fps = camera_mode(self.settings)
        loop = self.loop()
        if opened_apart(spec):
            return self._open_waiting(Opening(spec, quiet, otherwise, waited=True), loop)
        if decoded_apart(spec):
            job = self.opening = Opening(spec, quiet, otherwise)
            threading.Thread(target=self._decode, args=(job, loop), daemon=True,
                             name="aquarelle-open").start()
            self.feedback.status(f"Opening {spec.label}\u2026", 30000)
            return True
        try:
            src = open_source(spec, loop=loop, camera_size=size, camera_fps=fps)
            src.start()
        except Exception as e:
            self._cannot_open(spec, e, quiet)
            return False
        self.opening = None  # (a picture still decoding is dropped when it comes)
        self._adopt(spec, src, quiet)
        return True

    def _open_waiting(self, job: Opening, loop: bool) -> bool:
        """Open a video on a worker thread (its container probed, its first frame decoded:
        I/O and decoding the window stopped for) and wait for it in an event loop of its own
        that paints and runs timers but takes no input (as a modal dialog would: nothing is
        clicked or dropped meanwhile), so the open still answers at once whether it
        opened. An open that comes meanwhile (a timer's: a camera back, a source that
        failed) wins over it, as over a big picture's."""
        self.opening = job
        waiting = QEventLoop()
        self.decoded.connect(waiting.quit)
        try:
            threading.Thread(target=self._decode, args=(job, loop), daemon=True,
                             name="aquarelle-open").start()
            while job.opened is None and job is self.opening:
                waiting.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        finally:
            self.decoded.disconnect(waiting.quit)
        job.waited = False
        return job.opened is not False

    def _decode(self, job: Opening, loop: bool) -> None:
        """(worker thread) Read the picture; `decoded` hands it to the GUI thread."""
        try:
            job.source = open_source(job.spec, loop=loop)
        except Exception as e:  # said on the GUI thread, as an open there says it
            job.error = e
        with contextlib.suppress(RuntimeError):  # (the window closed meanwhile)
            self.decoded.emit(job)

    def _open_decoded(self, job: Opening) -> None:
        if job is not self.opening:  # another open came meanwhile: it won
            if job.source is not None:
                with contextlib.suppress(Exception):
                    job.source.stop()
            return
        self.opening = None
        src = job.source
        try:
            if job.error is not None:
                raise job.error
            assert src is not None
            src.start()
        except Exception as e:
            job.opened = False
            if not job.waited:
                self.feedback.status("", 1)  # (no longer "Opening …")
            self._cannot_open(job.spec, e, job.quiet)
            if job.otherwise is not None and not job.waited:  # (as a failed open's False
                job.otherwise()  # has its caller do)
            return
        job.opened = True
        self._adopt(job.spec, src, job.quiet)

    def _cannot_open(self, spec: SourceSpec, e: Exception, quiet: bool) -> None:
        """Say why `spec` did not open (unless `quiet`); the current source stays."""
        if quiet:
            return
        if isinstance(e, AquarelleError):
            # the message names the file already where it comes from one
            said = str(e)
            named = spec.kind == "file" and str(spec.ref) in said
            self.feedback.error("Cannot open source", said if named else
                                f"{spec.label}: {said}")
        elif isinstance(e, OSError):  # e.g. a file without read permission
            verb = "read" if spec.kind == "file" else "open"
            self.feedback.error("Cannot open source", f"cannot {verb} {spec.label}: "
                                f"{short_reason(e)}")
        else:  # a source bug must not take the app down
            self.feedback.error("Cannot open source", f"{spec.label}: {type(e).__name__}: {e}")

    def _adopt(self, spec: SourceSpec, src: FrameSource, quiet: bool) -> None:
        """Put the opened and started `src` on screen in place of the one there."""
        # a recording carries its source's sound: another source ends it (kept, playable)
        self.stop_recording("another source was opened")
        working = self.spec if self.source is not None and self.frames_seen > 0 else None
        self.close()
        self.previous = working
        self.lost_camera = None
        self.source, self.spec = src, spec
        self.live.source_changed(src)
        self.fallback_to_demo = quiet and spec.kind == "camera"
        self.frames_seen = 0
        self._opened_at, self._waited = self.clock(), 0
        self.viewport.new_source()
        self.viewport.pixel_aspect = float(src.pixel_aspect)
        self.viewport.fit()
        self.settings.set_last_source(str(spec))
        self.opened.emit(spec)

    def open_file(self, path: str | Path, otherwise: Callable[[], object] | None = None
                  ) -> bool:
        """Open an image or video file (`otherwise`: see open_spec)."""
        return self.open_spec(SourceSpec("file", str(Path(path).resolve())),
                              otherwise=otherwise)

    def open_demo(self) -> bool:
        if demo_path() is None:
            self.feedback.error("Demo", "The demo clip is not installed (assets/demo/demo.mp4).")
            return False
        return self.open_spec(SourceSpec("demo"))

    def open_file_dialog(self) -> None:
        folder = self.settings.last_dir("open")
        path, _ = QFileDialog.getOpenFileName(self.widget, "Open image or video", folder,
                                              MEDIA_FILTER)
        if path:
            self.settings.set_last_dir("open", str(Path(path).parent))
            self.open_file(path)

    def fill_recent(self, menu: QMenu) -> None:
        """File > Open recent: files that moved or were deleted are shown greyed, marked so;
        "Clear recent files" at the end."""
        menu.clear()
        recent = self.settings.recent_files()
        for path in recent:
            there = file_there(path)
            action = menu.addAction(path if there else f"{path} (no longer there)")
            assert action is not None
            action.setEnabled(there)
            action.triggered.connect(lambda _=False, p=path: self.open_recent(p))
        if not recent:
            empty = menu.addAction("(none)")
            assert empty is not None
            empty.setEnabled(False)
            return
        menu.addSeparator()
        clear = menu.addAction("Clear recent files")
        assert clear is not None
        clear.triggered.connect(lambda: self.settings.forget_recent())

    def open_recent(self, path: str) -> bool:
        """Open a recent file; one that is gone since the menu showed is taken off it."""
        if not file_there(path):
            self.settings.forget_recent(path)
            self.feedback.error("Open recent", f"{path} is no longer there (moved or "
                                "deleted): it was taken off the recent files.")
            return False
        return self.open_file(path)

    def _feed(self, src: FrameSource) -> MotionFeed | None:
        """A motion feed for the source, where one is wanted (see `motion_ahead`)."""
        ahead = self.motion_ahead
        if ahead is None:
            ahead = self.viewport.gl_ready and not self.viewport.cpu_renderer
        if not ahead or src.still or not src.waitable:
            return None
        self.motion = MotionFeed(src, lambda: self.viewport.motion_widths)
        self.motion.start()
        return self.motion

    def seeked(self) -> None:
        """The source jumped: a frame taken before it is not shown."""
        if self.motion is not None:
            self.motion.clear()

    def close(self) -> None:
        """Stop the source on screen (it stays on screen as the last frame)."""
        src, self.source = self.source, None
        feed, self.motion = self.motion, None
        self.live.source_changed(None)
        if feed is not None:
            feed.stop()
        if src is not None:
            with contextlib.suppress(Exception):  # stopping must never fail the app
                src.stop()

    # -- frames ----------------------------------------------------------------------------
    def poll(self) -> None:
        """Take the newest frame (never a queue: live sources keep no latency)."""
        src = self.source
        if src is None:
            return
        feed = self.motion or self._feed(src)
        try:
            if feed is None:
                frame = src.latest()
            else:  # the painting before never waits behind a newer frame: no motion lost
                frame = feed.take() if self.viewport.wants_frame else None
        except Exception as e:
            src.error = src.error or f"{type(e).__name__}: {e}"
            frame = None
        if frame is not None:
            self.frames_seen += 1
            self.viewport.show_frame(frame)
        elif src.live and self.frames_seen == 0:
            self._say_waiting()
        if src.warning:
            warning, src.warning = src.warning, None
            self.feedback.status(warning, 20000)
        if src.error:
            self._failed(src)

    def _say_waiting(self) -> None:
        """A camera that opened but shows no picture yet (busy, or slow to start: a read
        can take 10 s to fail) says so each second after the first few, rather than leave
        the last source's picture under its name without a word."""
        waited = int(self.clock() - self._opened_at)
        if waited >= FIRST_PICTURE_WAIT_S and waited != self._waited and self.spec is not None:
            self._waited = waited
            self.feedback.status(f"{self.spec.label.capitalize()}: no picture yet "
                                 f"({waited} s)", 2000)

    def _failed(self, src: FrameSource) -> None:
        spec = self.spec
        message = src.error or "the source stopped"
        camera = spec is not None and spec.kind == "camera"
        # keep what was recorded: a playable file up to here
        self.stop_recording("the camera was lost" if camera else "the video stopped")
        self.close()
        self.stopped.emit()
        if camera and self.frames_seen == 0 and denied_by_system():
            message = f"the system refused access: {current_camera_denied_hint()}"
        if camera and self.fallback_to_demo and self.frames_seen == 0 \
                and demo_path() is not None:
            self.feedback.status(f"Camera {spec.ref} did not start ({message}); showing the "
                                 "demo clip", 15000)
            self.open_demo()
            return
        if camera and self.frames_seen == 0:
            back, self.previous = self.previous, None
            if back is not None and back != spec and self.open_spec(back, quiet=True):
                self.feedback.error("Camera", f"Camera {spec.ref} did not start: {message}"
                                    f"\n\nShowing {back.label} again.")
                return
            self.feedback.error("Camera", f"Camera {spec.ref} did not start: {message}")
            self.lost_camera = spec.ref  # plugged in or freed later: it opens by itself
            return
        if camera:
            self.feedback.status(f"Camera lost: {message}", 15000)
            if demo_path() is None:
                QMessageBox.warning(self.widget, "Camera", f"The camera stopped: {message}\n\n"
                                    "It opens again by itself when it is plugged back in.")
            else:
                answer = QMessageBox.question(
                    self.widget, "Camera", f"The camera stopped: {message}\n\nShow the demo "
                    "clip instead? (The camera opens again by itself when it is plugged back "
                    "in.)")
                if answer == QMessageBox.StandardButton.Yes:
                    self.open_demo()
            self.lost_camera = spec.ref  # after open_demo, which forgets it
            return
        label = spec.label if spec is not None else "source"
        self.feedback.error("Playback stopped", f"{label}: {message}")
