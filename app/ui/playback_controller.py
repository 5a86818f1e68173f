"""Play, pause, step, seek, speed and loop of the file on screen (the transport bar, J/K/L
and < >)."""

from __future__ import annotations

from collections.abc import Callable

from PyQt6.QtCore import QObject

from ..media.file_source import RATES
from ..media.source import FrameSource
from . import playback
from .live_controller import LiveController
from .settings import Settings
from .source_controls import TransportBar
from .viewport import Viewport


class PlaybackController(QObject):
    """Drives the source's transport; the bar and adaptive quality follow what it does."""

    def __init__(self, source: Callable[[], FrameSource | None], transport: TransportBar,
                 viewport: Viewport, live: LiveController, settings: Settings,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.source, self.transport, self.viewport = source, transport, viewport
        self.live, self.settings = live, settings
        # the playback speed, kept for the files opened after (this session: a file opened
        # tomorrow plays at its pace)
        self.rate = 1.0
        self.loop_changed: Callable[[bool], None] = lambda on: None
        self.seeked: Callable[[], None] = lambda: None  # the source jumped (step, seek)
        transport.playToggled.connect(self.toggle_play)
        transport.stepRequested.connect(self.step)
        transport.seekRequested.connect(self.seek)
        transport.loopToggled.connect(self._loop_toggled)
        transport.speedChosen.connect(self.set_rate)
        transport.loop.setChecked(settings.loop())

    def toggle_play(self) -> None:
        src = self.source()
        if not playback.can_play(src):
            return
        playing = not playback.is_playing(src)
        if playing and src is not None and src.finished:
            playback.seek(src, 0.0)
            self.seeked()
        playback.set_playing(src, playing)
        self.show_playing(playing)
        if not playing:
            self._pause_on_the_frame_shown()

    def on_screen(self) -> float | None:
        """The time of the frame a pause stays on (see _pause_on_the_frame_shown): the
        source's own position may not be it yet, the seek back to it pending."""
        src, shown = self.source(), self.viewport.painted_pts
        here = playback.position(src)
        if shown is None or here is None or abs(here - shown) <= 1e-6 \
                or (here > shown and self.viewport.record.follows_export()):
            return here
        return shown

    def _pause_on_the_frame_shown(self) -> None:
        """Paused, the file stays on the frame on screen: on a slow machine the decoder is a
        few frames ahead of the picture (they were painted next: Space showed a later frame).
        Where playback painted the frame otherwise than an export does, it is painted again
        as a seek to it would paint it anyway; there the seek goes to it. (Painted as the
        export paints it, the next frame is the export's too: it is shown.) A looping file
        whose decoder went round to its start is always taken back to the frame on screen
        (its next frame would be the first: paused on the last, the picture jumped to it)."""
        here, stay = playback.position(self.source()), self.on_screen()
        if stay is not None and stay != here:
            self.seek(stay)

    def show_playing(self, playing: bool | None = None) -> None:
        """The transport's button and adaptive quality follow whether the file plays."""
        if playing is None:
            playing = playback.is_playing(self.source())
        self.transport.set_playing(playing)
        self.live.set_playing(playing)
        self.viewport.set_paused(playback.can_play(self.source()) and not playing)

    def set_playing(self, playing: bool) -> None:
        """Play (L) or pause (K) a file; no change when it already does."""
        src = self.source()
        if playback.can_play(src) and playback.is_playing(src) != playing:
            self.toggle_play()

    def jump_back(self) -> None:
        """Back one second, paused (J)."""
        here = playback.position(self.source())
        if here is not None:
            self.set_playing(False)
            self.seek(max(0.0, here - 1.0))

    def step(self, frames: int) -> None:
        """Pause and step by `frames` from the frame on screen. While the file plays the
        decoder may be a frame ahead of the picture (delivered, not painted yet): counted
        from the decoder, "," paused on the frame shown and "." skipped one. There the step
        is a seek from the frame painted, and a frame taken meanwhile is not painted."""
        src = self.source()
        shown = self.viewport.on_screen_pts if playback.is_playing(src) else None
        here = playback.position(src)
        ahead = shown is not None and (here is None or abs(here - shown) > 1e-6)
        if ahead:
            self.viewport.drop_pending()
        playback.step(src, frames, shown if ahead else None)
        if frames < 0 or ahead:  # a step back is a seek
            self.seeked()
        self.show_playing()

    def seek(self, seconds: float) -> None:
        src = self.source()
        if src is not None and src.seekable:
            playback.seek(src, seconds)
            self.seeked()
            self.viewport.new_source()

    def set_rate(self, rate: float) -> None:
        """Play at `rate` times the file's pace (exports are not affected)."""
        self.rate = rate
        self.source_opened()

    def source_opened(self) -> None:
        """A file on screen plays at the speed chosen; the bar and adaptive quality (which
        holds the frames a second that come) follow."""
        playback.set_rate(self.source(), self.rate)
        self.transport.set_speed(self.rate)
        self.live.follow_rate()

    def faster(self) -> None:
        """The next speed up (>)."""
        self.set_rate(next((r for r in RATES if r > self.rate + 1e-9), RATES[-1]))

    def slower(self) -> None:
        """The next speed down (<)."""
        self.set_rate(next((r for r in reversed(RATES) if r < self.rate - 1e-9), RATES[0]))

    def _loop_toggled(self, on: bool) -> None:
        playback.set_loop(self.source(), on)
        self.settings.set_loop(on)
        self.loop_changed(on)
