"""The simple sources (still image, synthetic test pattern), the demo clip, and a factory.

Video files: `file_source.VideoFileSource`; cameras: `webcam.CameraSource`.
"""

from __future__ import annotations

import math
import queue
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from ..resources import assets_dir
from .animation import (
    animation_of,
    cut_short_avif,
    ffmpeg_decodes,
    is_still_gif,
    refuse_cut_short_avif,
)
from .colour_profile import ColourProfileWarning
from .errors import MediaError
from .file_source import VideoFileSource
from .image_formats import is_image_path
from .image_pixels import on_paper
from .image_read import image_size, read_image
from .paths import is_sequence
from .sniff import sniff_image
from .source import Frame, FrameSource, LatestSlot, ThreadedSource
from .video_reader import only_picture
from .webcam import CameraSource

# A still above these is shown smaller in the app (the look is the same at any size: its
# features are sized in reference pixels); exports paint it whole, in tiles.
PREVIEW_PX = 16_000_000
PREVIEW_SIDE = 8192


def preview_size(size: tuple[int, int]) -> tuple[int, int] | None:
    """The size the app shows a still of `size` at, if smaller (None: its own)."""
    w, h = size
    k = min(1.0, math.sqrt(PREVIEW_PX / (w * h)), PREVIEW_SIDE / max(w, h))
    fit = (max(1, round(w * k)), max(1, round(h * k)))
    # (a still a few pixels over rounds back to its own size: shown whole, not "shrunk")
    return None if fit == (w, h) else fit


def _said(caught: list[warnings.WarningMessage]) -> str | None:
    """A still's colour-profile warnings, for the window's status bar (the CLI prints them);
    any other warning goes on as it came."""
    said = [str(w.message) for w in caught if issubclass(w.category, ColourProfileWarning)]
    for w in caught:
        if not issubclass(w.category, ColourProfileWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return "; ".join(said) or None


class StillImageSource(FrameSource):
    """A still image (file or array): one frame, delivered once after `start()` and again
    after `seek(0)`."""

    name = "image"
    still = True

    def __init__(self, image: str | Path | np.ndarray, path: Path | None = None) -> None:
        """`image`: a file, or the picture itself (of the file `path`, if it has one)."""
        super().__init__()
        self.full_size: tuple[int, int] | None = None  # a big still's own size (W, H)
        self.alpha: np.ndarray | None = None  # the file's transparency, at the image's size
        if isinstance(image, np.ndarray):
            rgb = image
            self.path: Path | None = path
        else:
            self.path = Path(image)
            size = image_size(self.path)
            fit = preview_size(size) if size is not None else None
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", ColourProfileWarning)
                picture = read_image(self.path, fit=fit)  # ImageError for a bad file
            self.warning = _said(caught)
            rgb = on_paper(picture.rgb, picture.alpha)  # as `aquarelle render` paints it
            self.alpha = picture.alpha
            if fit is not None:
                self.full_size = size
                rgb = cv2.resize(rgb, fit, interpolation=cv2.INTER_AREA)
                if self.alpha is not None:
                    self.alpha = cv2.resize(self.alpha, fit, interpolation=cv2.INTER_AREA)
        if rgb.ndim == 2:  # (16 bits kept: the window paints them as `aquarelle render` does)
            rgb = np.repeat(rgb[:, :, None], 3, axis=2)
        self.image = np.ascontiguousarray(rgb[:, :, :3])
        self._lock = threading.Lock()
        self._fresh = False

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    @property
    def frame_count(self) -> int | None:
        return 1

    def start(self) -> None:
        with self._lock:
            self._fresh = True

    def stop(self) -> None:
        with self._lock:
            self._fresh = False
        self._finish()

    def seek(self, seconds: float) -> None:
        """Deliver the image again."""
        self.start()

    def latest(self) -> Frame | None:
        with self._lock:
            if not self._fresh:
                return None
            self._fresh = False
        self._finish()
        return Frame(self.image, 0, None, alpha=self.alpha)

    def wait_frame(self, timeout: float | None = None) -> bool:
        return self._fresh

    def read(self, timeout: float | None = None) -> Frame | None:
        return self.latest()


def synthetic_pattern(k: int, width: int, height: int) -> np.ndarray:
    """Frame k of the synthetic source: a turning colour gradient, a moving disc, and a
    white bar whose length encodes k (mod width)."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    phase = k * 0.25
    img = np.stack([128 + 100 * np.sin(x / max(width, 1) * 6.28 + phase),
                    128 + 100 * np.sin(y / max(height, 1) * 6.28 + phase * 1.3),
                    128 + 100 * np.cos((x + y) / max(width + height, 1) * 6.28 - phase)],
                   axis=2)
    cx = width * (0.5 + 0.35 * np.cos(phase))
    cy = height * (0.5 + 0.35 * np.sin(phase))
    img[(x - cx) ** 2 + (y - cy) ** 2 < (min(width, height) * 0.12) ** 2] = 240
    img[-max(1, height // 16):, : k % (width + 1)] = 255
    return np.clip(img, 0, 255).astype(np.uint8)


class SyntheticSource(ThreadedSource):
    """Generated frames, for tests and demos without media.

    `live=True`: a worker produces frames at `fps`, at most `max_fps` (as fast as it can
    when neither is set), into a one-frame slot, dropping unread ones, like a camera.
    `live=False`: every frame in order through `read()` (and `latest()`, non-blocking);
    seekable.
    """

    name = "synthetic"

    def __init__(self, size: tuple[int, int] = (64, 48), fps: float | None = 30.0,
                 frame_count: int | None = None, *, live: bool = False,
                 pattern: Callable[[int, int, int], np.ndarray] | None = None) -> None:
        super().__init__()
        self._pattern = pattern or synthetic_pattern  # (k, width, height) -> RGB frame
        self._size = size
        self._fps = fps
        self._count = frame_count
        self.live = live
        self.paced = live
        self.seekable = not live
        self._slot = LatestSlot()
        self._queue: queue.Queue[tuple[int, Frame | None]] = queue.Queue(maxsize=8)
        self._lock = threading.Lock()
        self._next_index = 0
        self._generation = 0

    def frame(self, k: int) -> Frame:
        """Frame k as the source delivers it."""
        pts = None if self.live or not self._fps else k / self._fps
        return Frame(self._pattern(k, *self._size), k, pts,
                     time.monotonic() if self.live else None)

    def seek(self, seconds: float) -> None:
        if self.live:
            raise NotImplementedError("a live synthetic source cannot seek")
        with self._lock:
            self._next_index = max(0, round(seconds * (self._fps or 30.0)))
            self._generation += 1
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        self.finished = False
        self.ended.clear()

    def latest(self) -> Frame | None:
        if self.live:
            return self._slot.take()
        return self._take(block=False)

    def read(self, timeout: float | None = None) -> Frame | None:
        if self.live:
            raise NotImplementedError("a live source delivers only the latest frame")
        return self._take(block=True, timeout=timeout)

    def _take(self, block: bool, timeout: float | None = None) -> Frame | None:
        while True:
            try:
                gen, frame = (self._queue.get(timeout=timeout) if block
                              else self._queue.get_nowait())
            except queue.Empty:
                return None
            if gen != self._generation:
                continue
            if frame is None:
                self._queue.put((gen, None))
                return None
            return frame

    def _run(self) -> None:
        try:
            start = time.monotonic()
            while not self._stop.is_set():
                with self._lock:
                    k, gen = self._next_index, self._generation
                    self._next_index += 1
                done = self._count is not None and k >= self._count
                if self.live:
                    if done:
                        self._finish()
                        return
                    rate = min((r for r in (self._fps, self.max_fps) if r), default=None)
                    if rate:
                        delay = start + k / rate - time.monotonic()
                        if delay > 0 and self._stop.wait(delay):
                            return
                    if self._slot.put(self.frame(k)):
                        self.dropped += 1
                    continue
                item = None if done else self.frame(k)
                while not self._stop.is_set():
                    if gen != self._generation:
                        break
                    try:
                        self._queue.put((gen, item), timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if done and gen == self._generation:
                    self._finish()
                    while not self._stop.is_set() and gen == self._generation:
                        self._stop.wait(0.1)  # idle at the end until a seek or stop
        except Exception as e:  # never raise in the worker
            self._fail(f"synthetic source: {e}")


def demo_path() -> Path:
    """The bundled demo clip (assets/demo/demo.mp4)."""
    return assets_dir() / "demo" / "demo.mp4"


def demo_source(*, paced: bool = True, loop: bool = True) -> VideoFileSource:
    """The bundled demo clip as a (looping, paced) file source."""
    path = demo_path()
    if not path.is_file():
        raise MediaError(f"the demo clip is missing ({path}); run scripts/make_demo.py")
    src = VideoFileSource(path, paced=paced, loop=loop)
    src.name = "demo"
    return src


def open_source(spec: str, *, paced: bool = True, loop: bool = False,
                deep: bool | None = False) -> FrameSource:
    """A source from a string: `demo`, `synthetic`, `camera:N`, `/dev/videoN`, a path to
    an image or video file, or an image sequence's pattern. The source is created, not
    started. `deep`: a video's frames as 16-bit RGB (None: where it has more than 8 bits
    a sample)."""
    if spec == "demo":
        return demo_source(paced=paced, loop=True)
    if spec == "synthetic":
        return SyntheticSource(live=paced)
    if spec.startswith("camera:"):
        return CameraSource(spec.partition(":")[2] or 0)
    if spec.startswith("/dev/video"):
        return CameraSource(spec)
    path = Path(spec)
    if is_sequence(path) and not path.exists():  # frames/%04d.png, as `render` reads it
        return VideoFileSource(path, paced=paced, loop=loop, deep=deep)
    if not path.exists():
        raise MediaError(f"no such file: {path}")
    if is_image_path(path) or sniff_image(path):  # a picture by its name or its bytes
        if not _moving(path):
            if not cut_short_avif(path):
                return StillImageSource(path)
            # an animated AVIF cut short is said of as a video, as render says it (and one
            # with no frame left refused so: not "a picture" cut short)
            refuse_cut_short_avif(path)
    elif is_still_gif(path):  # read as `aquarelle render` reads it: its transparent
        return StillImageSource(path)  # colour (FFmpeg's frame has none) laid on paper
    elif (picture := only_picture(path)) is not None:  # a photo FFmpeg reads as one frame
        return StillImageSource(picture, path)
    return VideoFileSource(path, paced=paced, loop=loop, deep=deep)


def _moving(path: Path) -> bool:
    """An animated picture whose frames FFmpeg decodes (an APNG, also one named .png):
    played as a video, as `aquarelle render` paints it."""
    return animation_of(path) is not None and ffmpeg_decodes(path)
