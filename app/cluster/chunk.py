"""One chunk on one worker: decode from the keyframe before the warm-up start, render the
warm-up frames and throw them away, then render and encode the chunk's frames with their
source timestamps (video only, the same encoder settings for every chunk), atomically.

Descriptors (paths, frame ranges, the paper's position) travel between machines, never
frames. Also the check of a finished chunk file against the source (no decoding).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import moderngl

from ..engine.motion import FrameMotion
from ..engine.renderer import VIDEO_LINES, Renderer
from ..engine.subject_ahead import FrameSubject
from ..media.atomic import atomic_output
from ..media.errors import MediaError
from ..media.export import from_start
from ..media.frame_analysis import FrameAnalysis
from ..media.frame_range import DecodedFrame
from ..media.render_stage import Rendered, RenderStage
from ..media.runner import run_pipelined
from ..media.video_reader import AudioItem, VideoReader
from ..media.video_writer import CODECS, VideoWriter, source_profile
from .canvas import Matrix, fit


@dataclass(frozen=True)
class RenderSettings:
    """What every chunk of a job shares: look and encoder."""

    style: str  # a style or chain name (`a+b`), or a style file
    values: dict[str, Any]
    seed: int = 0
    scale: float = 1.0
    fmt: str = "mp4"
    codec: str = "h264"
    crf: int | None = None
    speed: str | None = None
    video_lines: int = VIDEO_LINES

    def key(self) -> tuple:
        return (self.style, tuple(sorted((k, repr(v)) for k, v in self.values.items())),
                self.seed, self.scale, self.video_lines)


@dataclass(frozen=True)
class ChunkTask:
    """Render frames [first, end) of `source` into `output` after warm-up from `warm`."""

    job: int  # which file of the run
    index: int  # which chunk of the file
    source: str
    output: str
    first: int
    end: int
    warm: int
    frame_index: int  # the pipeline's frame counter at `warm` (frames since the range start)
    window: tuple[float, float | None]  # decode [start, end) seconds: frames warm..end-1
    pts_first: int  # source timestamp of frame `first`
    shift: int  # subtracted from source timestamps (a --start trim)
    # then subtracted in the chunk file, added back when joining: MP4/MOV store a start
    # offset in the movie's millisecond timescale (inexact), so their chunks start at 0
    rebase: int
    size: tuple[int, int] | None  # the frames' size in the pipeline (--size), None: source
    fps: float | None
    canvas: dict[int, Matrix]  # the paper's position at `warm`, per flow width
    settings: RenderSettings
    attempt: int = 0
    sar: Fraction = Fraction(1)  # the shape of the output's pixels (width / height)
    # the next chunk's first frame's source timestamp: the last frame here lasts until it
    # (a variable rate's frames last until the next one's time); None for the last chunk
    next_pts: int | None = None
    # a --start cut's source timestamp (None: none): the frame on screen there, begun
    # before it, is held from it (export.from_start)
    start_pts: int | None = None


@dataclass
class ChunkResult:
    """What a worker wrote for a chunk."""

    job: int
    index: int
    output: str
    frames: int
    warmup: int
    seconds: float
    node: str = ""
    stage_seconds: dict[str, float] = field(default_factory=dict)
    # the chunk file's timestamps, as written; fewer than the plan's when its decoder lost
    # frames (`undecodable`: a corrupt source, whose frames that decode are kept, as a single
    # machine's export keeps them)
    written: tuple[int, ...] = ()
    undecodable: bool = False
    deinterlaced: bool = False  # its frames were made progressive (media/deinterlace.py)
    content: tuple[int, int] = (0, 0)  # the painted picture's size (written padded if odd)


class _Positioned:
    """The pipeline as RenderStage sees it, putting the paper where a long render would have
    it at the first (warm-up) frame, before rendering it: that frame has no motion to follow
    and keeps a position set by hand, so the advected canvas layers start there too."""

    def __init__(self, pipeline: Renderer, canvas: dict[int, Matrix]) -> None:
        self.pipeline = pipeline
        self.ctx = pipeline.ctx
        self.deep = pipeline.deep  # 16-bit readback
        self._canvas = canvas
        self._placed = False

    def render(self, frame: Any, order: str = "rgb", *, motion: FrameMotion | None = None,
               subject: FrameSubject | None = None) -> moderngl.Texture:
        if not self._placed:
            self._placed = True
            self.pipeline.place_canvas(self._canvas)
        return self.pipeline.render(frame, order, motion=motion, subject=subject)


class ChunkRenderer:
    """Renders chunks on one GL context, keeping the pipeline between chunks of the same
    look (a worker's state). Calls from the context's thread only."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self._pipeline: Renderer | None = None
        self._key: tuple | None = None

    def pipeline(self, settings: RenderSettings, deep: bool = False) -> Renderer:
        """The pipeline for a job's settings (`deep`: for a source over 8 bits), kept while
        the chunks' settings stay the same."""
        key = (settings.key(), deep)
        if self._pipeline is None or self._key != key:
            self.release()
            p = Renderer(self.ctx, settings.style, seed=settings.seed,
                               scale=settings.scale, deep=deep)
            if settings.values:
                p.set_params(settings.values)
            p.max_lines = settings.video_lines
            self._pipeline, self._key = p, key
        return self._pipeline

    def release(self) -> None:
        """Release the pipeline (the context stays its owner's)."""
        if self._pipeline is not None:
            with self.ctx:
                self._pipeline.release()
            self._pipeline, self._key = None, None

    def render(self, task: ChunkTask) -> ChunkResult:
        t0 = time.perf_counter()
        s = task.settings
        with self.ctx:
            reader = VideoReader(task.source, deep=None, rgba=True)
            try:
                pipeline = self.pipeline(s, reader.deep)
                pipeline.reset_history()
                pipeline.frame_index = task.frame_index
                frames = reader.frames(*task.window)
                first = next(frames, None)
                if first is None:
                    raise MediaError(f"{task.source}: chunk {task.index} has no frames")
                size = task.size or (first.image.shape[1], first.image.shape[0])
                out_size = pipeline.output_size(size)
                written, stage_seconds = self._encode(task, reader, first, frames, pipeline,
                                                      size, out_size)
                undecodable = bool(reader.decode_errors or reader.failure)
                deinterlaced = reader.deinterlaced
            finally:
                reader.close()
        return ChunkResult(task.job, task.index, task.output, len(written),
                           task.first - task.warm, time.perf_counter() - t0,
                           stage_seconds=stage_seconds, written=tuple(written),
                           undecodable=undecodable, deinterlaced=deinterlaced,
                           content=out_size)

    def _encode(self, task: ChunkTask, reader: VideoReader, first: DecodedFrame,
                rest: Any, pipeline: Renderer, size: tuple[int, int],
                out_size: tuple[int, int]) -> tuple[list[int], dict[str, float]]:
        """Render and encode the chunk; the timestamps written and the stages' seconds."""
        s = task.settings
        busy = {"decode": 0.0, "encode": 0.0}
        written: list[int] = []

        def decoded() -> Any:
            yield _fitted(first, size)
            while True:
                t = time.perf_counter()
                item = next(rest, None)
                if item is None:
                    return
                item = _fitted(item, size)
                busy["decode"] += time.perf_counter() - t
                yield item

        stage = RenderStage(_Positioned(pipeline, task.canvas), out_size)  # type: ignore[arg-type]
        analysis = FrameAnalysis(pipeline)
        try:
            with atomic_output(task.output) as tmp:
                spec = source_profile(CODECS[s.codec], reader.video)  # ProRes HQ kept
                writer = VideoWriter(tmp, fmt=s.fmt, codec=spec, size=out_size,
                                     time_base=reader.time_base, fps=task.fps, crf=s.crf,
                                     speed=s.speed, deep=reader.deep, colour=reader.colour,
                                     sar=task.sar)
                stage.pack_yuv(writer.packed_format, writer.size)
                try:
                    def encode(item: Rendered | AudioItem) -> None:
                        if isinstance(item, Rendered) and item.pts >= task.pts_first:
                            t = time.perf_counter()
                            if task.start_pts is not None:
                                from_start(item, task.start_pts)
                            pts = item.pts - task.shift - task.rebase
                            writer.write_frame(item.image, pts, item.duration, item.yuv)
                            written.append(pts)
                            busy["encode"] += time.perf_counter() - t

                    def finish() -> None:
                        writer.close(None if task.next_pts is None else
                                     task.next_pts - task.shift - task.rebase)

                    run_pipelined(decoded(), stage, encode, finish, lambda: None, 4,
                                  analysis if analysis.needed else None)
                except BaseException:
                    writer.abort()
                    raise
        finally:
            analysis.close()
            stage.release()
        return written, {**busy, **analysis.busy, "render": stage.busy}


def _fitted(frame: DecodedFrame, size: tuple[int, int]) -> DecodedFrame:
    frame.image = fit(frame.image, size)
    return frame


def chunk_problem(path: str | Path, expected: list[int], time_base: Fraction) -> str | None:
    """Why a chunk file is not what the plan says (frame count, timestamps: `expected` in
    `time_base` units), or None when it is. Reads packets only, decodes nothing."""
    p = Path(path)
    if not p.is_file():
        return "missing"
    try:
        with av.open(str(p)) as c:
            stream = c.streams.video[0]
            tb = stream.time_base
            got = sorted(int(pk.pts) for pk in c.demux(stream)
                         if pk.pts is not None and pk.size)
    except Exception as e:  # noqa: BLE001 - any unreadable file is a bad chunk
        return f"unreadable ({type(e).__name__})"
    if len(got) != len(expected):
        return f"{len(got)} frames instead of {len(expected)}"
    # the container may keep another time base (Matroska: milliseconds): a timestamp is
    # right within half a tick of the coarser of the two
    slack = max(Fraction(tb), Fraction(time_base)) / 2
    for i, (a, b) in enumerate(zip(got, expected, strict=True)):
        if abs(a * tb - b * time_base) > slack:
            return f"frame {i} has timestamp {round(a * tb / time_base)} instead of {b}"
    return None
