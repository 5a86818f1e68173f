"""Recording the live stylized output to a video file (H.264 via PyAV, in a writer thread).

The viewport hands every rendered frame (read back only while recording) to `push`; the
encoder runs in its own thread behind a small queue, and frames that arrive while it is
behind are dropped and counted rather than building up memory or latency.

Frames of a file source carry their media time: the recording is then timed by it (a
re-render of the same frame, e.g. a slider moved while paused, adds nothing), and the file's
sound is put under the recording when it stops, segment by segment across loops and seeks.
Live sources (cameras) and stills are timed by the wall clock and have no sound; such a
recording lasts until it is stopped, its last picture held (a still is pushed once, and
again only when a setting changes).

A recording never replaces a file: it is written beside its name and given the name only
if no file has it, else the next free one (NAME-1.mp4, NAME-2.mp4, as snapshots are named).
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from av.video.reformatter import ColorRange, Colorspace

from ..claim import claim_new
from ..engine.errors import AquarelleError
from ..engine.yuv_pack import YuvFormat, coded_size
from ..media.atomic import link_new
from ..media.codecs import CONTAINERS
from ..media.paths import file_in_the_way
from ..media.soundtrack import Segment, has_audio, mux_with_audio
from ..media.video_writer import pad_to
from .reasons import short_reason

QUEUE_FRAMES = 8
TIME_BASE = Fraction(1, 1000)
EXTENSIONS = (".mp4", ".m4v")  # what a recording (H.264 in MP4) may be called


def unused_name(folder: Path, stem: str, suffix: str) -> Path:
    """FOLDER/STEM+SUFFIX, else STEM-1+SUFFIX, STEM-2+SUFFIX...: the first name no file
    (nor link) has. How snapshots and recordings are named, never over another file."""
    path = folder / f"{stem}{suffix}"
    n = 1
    while os.path.lexists(path):
        path = folder / f"{stem}-{n}{suffix}"
        n += 1
    return path


def publish_new(finished: Path, wanted: Path) -> Path:
    """Give the file `finished` the name `wanted`, else the next free one (`unused_name`);
    never replaces a file, even one that appears meanwhile. Returns the name it got."""
    target = wanted
    while True:
        try:
            link_new(finished, target, target)  # (atomic: a link, else a claimed name)
            return target
        except FileExistsError:
            target = unused_name(wanted.parent, wanted.stem, wanted.suffix)


def _new_part(path: Path) -> Path:
    """A new empty file beside `path` to write its recording in (PATH.part, else
    PATH.1.part...): one of its own, even where another recording of that name runs."""
    return claim_new(lambda n: path.with_name(f"{path.name}.part" if n == 0
                                              else f"{path.name}.{n}.part"))


class Recorder:
    """Encodes frames into an MP4 (written beside PATH first, given its name, or the next
    free one, at the stop: `publish_new`), timed by their media time
    or, for live sources and stills, the wall clock (`clock`) from the recording's start:
    H.264 yuv420p, tagged BT.709 limited range as exports are (full range for a
    `full_range` source, as an export keeps it), odd sides padded with the last column and
    row, a source's non-square pixels (`sar`) tagged. Frames come as RGB, or packed on the
    GPU in `packed_format`."""

    def __init__(self, path: str | Path, fps: float = 30.0,
                 audio_source: str | Path | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 sar: Fraction = Fraction(1), full_range: bool = False) -> None:
        self.path = Path(path)
        self._range = ColorRange.JPEG if full_range else ColorRange.MPEG
        self.packed_format = YuvFormat("yuv420p", "bt709", full_range)
        if self.path.suffix.lower() not in EXTENSIONS:  # as `aquarelle render` refuses it
            raise AquarelleError(
                f"cannot record to {self.path}: a recording is an MP4 video; name it "
                f"{self.path.with_suffix('.mp4').name}")
        self._clock = clock
        self._muxer = CONTAINERS[self.path.suffix.lower()]  # a .m4v's is Apple's ("ipod")
        self.audio_source = Path(audio_source) if audio_source and has_audio(audio_source) \
            else None
        self.segments: list[Segment] = []
        self._src_last: float | None = None
        if not self.path.parent.is_dir():
            if (place := file_in_the_way(self.path.parent)) is not None:
                raise AquarelleError(f"cannot record to {self.path}: {place} is a file, "
                                     "not a folder")
            raise AquarelleError(f"folder does not exist: {self.path.parent}")
        self.fps = fps
        self.sar = sar
        self.frames = 0
        self.seconds = 0.0  # the time of the last frame encoded
        # the newest clock-timed frame pushed, and its time
        self._last_live: tuple[np.ndarray, float] | None = None
        self.dropped = 0
        self.error: str | None = None
        self.sound_error: str | None = None
        self._queue: queue.Queue[tuple[np.ndarray, float] | None] = queue.Queue(QUEUE_FRAMES)
        try:
            self._part = _new_part(self.path)
        except OSError as e:
            raise AquarelleError(f"cannot write the recording into {self.path.parent}: "
                                 f"{short_reason(e)}") from None
        try:
            self._container = av.open(str(self._part), "w", format=self._muxer)
        except (OSError, av.FFmpegError) as e:
            self._part.unlink(missing_ok=True)
            raise AquarelleError(f"cannot write the recording into {self.path.parent}: "
                                 f"{short_reason(e)}") from None
        self._stream: av.video.stream.VideoStream | None = None
        self._t0 = self._clock()  # clock-timed frames: the recording began here
        self._last_pts = -1
        self._thread = threading.Thread(target=self._run, name="aquarelle-recorder", daemon=True)
        self._thread.start()

    def push(self, rgb: np.ndarray, pts: float | None = None) -> None:
        """Queue one frame (uint8 RGB, or its `packed_format` bytes: an (H * 3 / 2, W)
        array) shown at media time `pts` (None: live, wall clock); drops it when the encoder
        is behind."""
        if pts is None:
            # the first frame is what was on screen when the recording began (through a
            # GPU's readback ring it comes a frame late; a still's, only at the stop)
            t = self._clock() - self._t0 if self._last_live is not None else 0.0
            self._last_live = (rgb, t)
        else:
            t = self._media_time(pts)
            if t is None:
                return  # the same frame again (re-rendered with new settings)
        try:
            self._queue.put_nowait((rgb, t))
        except queue.Full:
            self.dropped += 1

    def _media_time(self, pts: float) -> float | None:
        """Recording time of a frame at media time `pts`; a jump (loop, seek) starts a new
        segment right after the last frame."""
        last = self._src_last
        if last is not None and abs(pts - last) < 1e-6:
            return None
        seg = self.segments[-1] if self.segments else None
        if seg is None or last is None or pts < last or pts - last > 1.0:
            start = 0.0 if seg is None else seg.out_start + (seg.src_end - seg.src_start)
            seg = Segment(out_start=start, src_start=pts, src_end=pts)
            self.segments.append(seg)
        self._src_last = pts
        seg.src_end = pts + 1.0 / self.fps
        return seg.out_start + (pts - seg.src_start)

    def _run(self) -> None:
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    break
                if self.error is None:
                    self._encode(*item)
            if self._stream is not None and self.error is None:
                for packet in self._stream.encode(None):
                    self._container.mux(packet)
        except Exception as e:  # an encoder failure ends the recording, never the app
            self.error = f"recording failed: {e}"
        finally:
            try:
                self._container.close()
            except Exception as e:
                self.error = self.error or f"recording failed: {e}"

    def _encode(self, image: np.ndarray, t: float) -> None:
        packed = image.ndim == 2
        if packed:
            w, h = image.shape[1], image.shape[0] * 2 // 3
        else:
            w, h = coded_size((image.shape[1], image.shape[0]))  # yuv420p: even sides
        if self._stream is None:
            stream = self._container.add_stream("libx264", rate=round(self.fps))
            stream.width, stream.height = w, h
            stream.pix_fmt = "yuv420p"
            stream.time_base = TIME_BASE
            cc = stream.codec_context
            cc.time_base = TIME_BASE
            cc.colorspace = cc.color_primaries = cc.color_trc = 1  # BT.709, as the pixels
            cc.color_range = int(self._range)
            if self.sar != 1:
                cc.sample_aspect_ratio = self.sar
            stream.options = {"crf": "20", "preset": "veryfast"}
            self._stream = stream
            self._size = (w, h)
        if (w, h) != self._size:
            return  # the source changed size: keep the first size's frames only
        pts = max(self._last_pts + 1, round(t / TIME_BASE))
        self._last_pts = pts
        if packed:
            frame = av.VideoFrame.from_ndarray(image, format="yuv420p")
        else:
            rgb = av.VideoFrame.from_ndarray(np.ascontiguousarray(pad_to(image, w, h)),
                                             format="rgb24")
            frame = rgb.reformat(format="yuv420p", dst_colorspace=Colorspace.ITU709,
                                 dst_color_range=self._range)
        frame.pts = pts
        frame.time_base = TIME_BASE
        for packet in self._stream.encode(frame):
            self._container.mux(packet)
        self.frames += 1
        self.seconds = float(pts * TIME_BASE)

    def stop(self, timeout: float = 30.0) -> Path | None:
        """Finish the file; returns its path (`path`, else the next free name when a file
        has that one by now), or None when nothing (valid) was recorded."""
        self._hold_last(timeout)
        self._queue.put(None)
        self._thread.join(timeout)
        if self.error is None and self.frames > 0 and self._part.exists():
            if self.audio_source is not None and self.segments:
                self._add_sound()
            try:
                self.path = publish_new(self._part, self.path)
            except OSError as e:  # the recording stays beside its name, said
                self.error = f"recording kept as {self._part}: cannot name it {self.path}: {e}"
                return None
            return self.path
        self._part.unlink(missing_ok=True)
        return None

    def _hold_last(self, timeout: float) -> None:
        """A clock-timed recording lasts until now: its last picture again at the stop (a
        still is pushed once; a stalled camera's last frame stays on screen)."""
        if self._last_live is None:
            return
        image, t = self._last_live
        end = self._clock() - self._t0
        if end - t >= 1.0 / self.fps and self._thread.is_alive():
            with contextlib.suppress(queue.Full):  # an encoder that stopped takes nothing
                self._queue.put((image, end), timeout=timeout)

    def _add_sound(self) -> None:
        """Put the file's sound under the recording (kept silent if that fails)."""
        assert self.audio_source is not None
        with_sound = self._part.with_name(self._part.name + ".a.mp4")
        try:
            mux_with_audio(self._part, self.audio_source, self.segments, with_sound,
                           self._muxer)
            with_sound.replace(self._part)
        except Exception as e:  # the picture is kept; say why there is no sound
            self.sound_error = f"recorded without sound: {e}"
            with_sound.unlink(missing_ok=True)
