"""A one-time hint when a file plays slower than it should, naming the settings that help."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..media.source import FrameSource

WINDOW_S = 3.0  # seconds of playback looked at
SKIPPED_SHARE = 0.5  # more than this share of the file's frames skipped in them: too slow


@dataclass
class SlowPlaybackHint:
    """Watches a playing file's skipped frames; says once per session what would help."""

    shown: bool = False
    _seen: list[tuple[float, int]] = field(default_factory=list)  # (clock, skipped so far)

    def reset(self) -> None:
        """A new source, a seek or a pause: start watching afresh."""
        self._seen.clear()

    def check(self, source: FrameSource | None, playing: bool, now: float, scale: float,
              adaptive: bool) -> str | None:
        """The hint to show now, if any (then never again this session)."""
        if self.shown or source is None or source.live or not playing or not source.fps:
            self.reset()
            return None
        self._seen.append((now, source.dropped))
        while self._seen and now - self._seen[0][0] > WINDOW_S:
            self._seen.pop(0)
        t0, skipped0 = self._seen[0]
        if now - t0 < 0.8 * WINDOW_S:
            return None
        share = (source.dropped - skipped0) / ((now - t0) * source.fps)
        if share <= SKIPPED_SHARE:
            return None
        self.shown = True
        shown_fps = (1.0 - min(1.0, share)) * source.fps
        helps = [] if adaptive else ["turn on Live \u203a Adaptive quality (Ctrl+Shift+A)"]
        if scale > 0.5:
            helps.insert(0, "lower Style \u203a Processing scale (0.5 paints about 2.5x faster)")
        if not helps:
            helps = ["lower the lowest scale in Live \u203a Adaptive quality, or a smaller "
                     "Processing scale"]
        return (f"This machine paints about {shown_fps:.0f} of the video's "
                f"{source.fps:.0f} frames a second: {' or '.join(helps)}. "
                "Exports are not affected: they paint every frame.")
