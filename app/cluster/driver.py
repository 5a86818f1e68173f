"""The driver: plan every file, run the motion phase and the chunks on a backend (Ray, or
in-process), check each finished chunk against the source, record it in the manifest, re-run
what failed, and join each file as soon as its chunks are all there. No Ray here."""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol

from ..engine.chain_spec import AnyStyle
from ..media.errors import MediaError, ffmpeg_reason
from ..media.export import (
    ExportOptions,
    ExportProgress,
    asked,
    keep_depth,
    pixel_shape,
    square_warning,
)
from ..media.video_reader import VideoReader, output_origin
from ..media.video_writer import CODECS, ISO_FORMATS, keeps_pixel_aspect, padding_warning
from .canvas import MotionSummary, compose, motion_summary, motion_widths
from .chunk import ChunkRenderer, ChunkResult, ChunkTask, RenderSettings, chunk_problem
from .join import JoinResult, join_chunks
from .manifest import Manifest, source_facts
from .plan import (
    WARMUP_FRAMES,
    Chunk,
    VideoIndex,
    decode_window,
    motion_segments,
    plan_chunks,
    scan,
)


@dataclass
class ClusterOptions:
    """How a job is spread: chunk length, warm-up, resume, where chunk files go."""

    chunk_seconds: float = 30.0
    warmup: int = WARMUP_FRAMES
    resume: bool = False
    work_dir: Path | None = None  # a shared folder; None: next to each output
    keep_work: bool = False  # keep chunk files and manifest after joining
    attempts: int = 3  # tries per chunk (a dead worker or a chunk that fails its check)


@dataclass(frozen=True)
class MotionJob:
    """Summarize the motion of frames a+1..b of a file (decoding a..b)."""

    job: int
    piece: int
    source: str
    window: tuple[float, float | None]
    size: tuple[int, int] | None
    widths: tuple[int, ...]
    attempt: int = 0


class WorkerFailure(Exception):
    """A job that did not come back: its error, or its worker died (`lost`)."""

    def __init__(self, message: str, lost: bool = False) -> None:
        super().__init__(message)
        self.lost = lost


Job = MotionJob | ChunkTask


class Backend(Protocol):
    """Where jobs run. `completed` blocks until at least one job is done and yields each
    finished one with its result or a WorkerFailure."""

    def submit(self, job: Job) -> None: ...

    def completed(self) -> Iterator[tuple[Job, Any]]: ...

    def busy(self) -> bool: ...


def run_motion(job: MotionJob) -> MotionSummary:
    return motion_summary(job.source, job.window[0], job.window[1], job.size,
                          list(job.widths))


class LocalBackend:
    """Every job in this process, one at a time, on one headless GL context (tests, and a
    machine without Ray)."""

    def __init__(self, ctx: Any = None) -> None:
        self._queue: list[Job] = []
        self._ctx = ctx
        self._renderer: ChunkRenderer | None = None
        self.ran: list[Job] = []

    def submit(self, job: Job) -> None:
        self._queue.append(job)

    def busy(self) -> bool:
        return bool(self._queue)

    def completed(self) -> Iterator[tuple[Job, Any]]:
        job = self._queue.pop(0)
        self.ran.append(job)
        try:
            yield job, self.execute(job)
        except Exception as e:  # noqa: BLE001 - reported like a remote failure
            yield job, WorkerFailure(str(e))

    def execute(self, job: Job) -> Any:
        if isinstance(job, MotionJob):
            return run_motion(job)
        if self._renderer is None:
            from ..engine.context import create_headless_context

            self._renderer = ChunkRenderer(self._ctx or create_headless_context())
        return self._renderer.render(job)


@dataclass
class FileJob:
    """One source file to render into one output file."""

    source: Path
    output: Path
    fmt: str
    codec: str
    options: ExportOptions


@dataclass
class FileOutcome:
    """How one file went."""

    job: FileJob
    result: JoinResult | None = None
    error: str | None = None
    chunks: int = 0
    resumed: int = 0  # chunks taken from the manifest
    reruns: int = 0  # chunks run again (failed check, dead worker)
    elapsed: float = 0.0
    chunk_seconds: list[float] = field(default_factory=list)  # worker time per chunk
    deinterlaced: bool = False  # the chunks rendered here made interlaced frames progressive
    chosen: str = ""  # why the codec was chosen where none was asked for (a deep source's)


@dataclass
class _File:
    n: int
    job: FileJob
    index: VideoIndex
    chunks: list[Chunk]
    work: Path
    manifest: Manifest
    settings: RenderSettings
    size: tuple[int, int] | None
    fps: float | None
    shift: int
    lo: int
    widths: list[int]
    pieces: dict[int, MotionSummary] = field(default_factory=dict)
    segments: list[tuple[int, int]] = field(default_factory=list)
    done: dict[int, ChunkResult | None] = field(default_factory=dict)
    outcome: FileOutcome | None = None
    started: float = 0.0
    lost: int = 0  # frames of the range its chunks could not decode
    sar: Fraction = Fraction(1)  # the shape of the output's pixels (width / height)
    squared: str | None = None  # the warning for non-square pixels made square
    chosen: str = ""  # why the codec was chosen (keep_depth), for the summary


def work_folder(output: Path, shared: Path | None) -> Path:
    """Where a job's chunk files and manifest go: next to the output, or in the shared
    folder under a name unique to the output."""
    if shared is None:
        return output.parent / f".{output.name}.chunks"
    tag = hashlib.sha1(str(output.resolve()).encode()).hexdigest()[:10]
    return Path(shared) / f"{output.stem}-{tag}"


ProgressFn = Callable[[ExportProgress], None]


class Driver:
    """Runs file jobs on a backend; `run` returns one outcome per job, in order."""

    def __init__(self, backend: Backend, style: str, style_spec: AnyStyle,
                 values: dict[str, Any], options: ClusterOptions | None = None,
                 progress: ProgressFn | None = None) -> None:
        self.backend = backend
        self.style = style
        self.spec = style_spec
        self.values = dict(values)
        self.opts = options or ClusterOptions()
        self.progress = progress
        self._done_frames = 0
        self._total = 0
        self._t0 = time.perf_counter()

    # -- planning -------------------------------------------------------------------------
    def _prepare(self, n: int, job: FileJob) -> _File:
        o = job.options
        if o.fps is not None:
            raise MediaError("--fps cannot be combined with --cluster")
        index = scan(job.source, audio=o.audio)
        if (start := index.snapped_start(o.start)) != o.start:  # (the frame a time names;
            job.options = o = dataclasses.replace(o, start=start)  # a batch's are shared)
        with VideoReader(job.source) as reader:
            first = next(reader.frames(), None)
            if first is None:
                raise MediaError(f"{job.source}: no decodable video frames{reader.none_why()}")
            source = (first.image.shape[1], first.image.shape[0])
            # without --codec a deep source's codec keeps its bits, as a single machine's
            spec, chosen = keep_depth(job.fmt, CODECS[job.codec], o.codec, reader.bit_depth,
                                      reader.codec_name)
            job.codec = spec.name
            keeps = keeps_pixel_aspect(job.fmt, spec)
            source_sar = reader.sample_aspect
            size, sar = pixel_shape(o.size, source, source_sar, keeps)
            fps = reader.fps
        squared = None
        if source_sar != 1 and not keeps and not asked(o.size):
            squared = square_warning(job.source.name, source, source_sar, size,
                                     f"{job.output.suffix} with {job.codec}")
        chunks = plan_chunks(index, self.opts.chunk_seconds, self.opts.warmup, o.start, o.end)
        offset = output_origin(index.start_time, index.first_time, o.start)
        shift = round(Fraction(offset).limit_denominator(10**9) / index.time_base)
        settings = RenderSettings(self.style, self.values, o.seed, o.scale, job.fmt, job.codec,
                                  o.crf, o.speed, o.video_lines)
        widths = motion_widths(self.spec, self.values)
        work = work_folder(job.output, self.opts.work_dir)
        key = {"source": source_facts(job.source), "chunks": [
            (c.first, c.end, c.warm) for c in chunks], "settings": [
            self.style, sorted(self.values.items()), o.seed, o.scale, job.fmt, job.codec, o.crf,
            o.speed, o.video_lines], "size": size, "start": o.start, "end": o.end,
            # chunks written before their pixels' shape was tagged are not taken
            **({"sar": str(sar)} if sar != 1 else {})}
        manifest = Manifest.load(work, key) if self.opts.resume else Manifest(work, key)
        if not self.opts.resume and work.exists():
            shutil.rmtree(work, ignore_errors=True)
        try:
            work.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise MediaError(f"cannot make the chunks' folder {work}: {ffmpeg_reason(e)}"
                             ) from None
        return _File(n, job, index, chunks, work, manifest, settings, size, fps, shift,
                     chunks[0].first, widths, sar=sar, squared=squared, chosen=chosen)

    def _chunk_file(self, f: _File, c: Chunk) -> Path:
        return f.work / f"chunk_{c.index:05d}{f.job.output.suffix.lower()}"

    @staticmethod
    def _cut(f: _File) -> int | None:
        """A --start cut's source timestamp (ChunkTask.start_pts), None without one."""
        return f.shift if f.job.options.start > 0 else None

    def _written_pts(self, f: _File, k: int) -> int:
        """Frame k's source timestamp as written: the frame on screen at a --start cut,
        begun before it, from the cut."""
        cut = self._cut(f)
        return f.index.pts[k] if cut is None else max(f.index.pts[k], cut)

    def _rebase(self, f: _File, c: Chunk) -> int:
        """Timestamps in a chunk file are the output's less this (see ChunkTask.rebase)."""
        return self._written_pts(f, c.first) - f.shift if f.job.fmt in ISO_FORMATS else 0

    def _expected(self, f: _File, c: Chunk) -> list[int]:
        r = f.shift + self._rebase(f, c)
        return [self._written_pts(f, k) - r for k in range(c.first, c.end)]

    def _task(self, f: _File, c: Chunk, canvas: dict[int, Any], attempt: int = 0) -> ChunkTask:
        return ChunkTask(f.n, c.index, str(f.job.source), str(self._chunk_file(f, c)),
                         c.first, c.end, c.warm, c.warm - f.lo,
                         decode_window(f.index, c.warm, c.end, f.job.options.end
                                       if c is f.chunks[-1] else None),
                         f.index.pts[c.first], f.shift,
                         self._rebase(f, c), f.size, f.fps, canvas, f.settings, attempt,
                         sar=f.sar, next_pts=f.index.pts[c.end]
                         if c is not f.chunks[-1] and c.end < len(f.index.pts) else None,
                         start_pts=self._cut(f))

    def _start(self, f: _File) -> None:
        """Resume what the manifest has; then the motion phase (or the chunks directly)."""
        for c in f.chunks:
            rec = f.manifest.finished(c.index)
            missing = set(rec.get("missing", ())) if rec is not None else set()
            if rec is not None and chunk_problem(
                    self._chunk_file(f, c), [t for t in self._expected(f, c) if t not in missing],
                    f.index.time_base) is None:
                f.done[c.index] = None  # from an earlier run
                f.lost += len(missing)
                f.outcome.resumed += 1
                self._advance(c.frames)
            else:
                f.manifest.chunks.pop(c.index, None)
        todo = [c for c in f.chunks if c.index not in f.done]
        if not todo:
            self._join(f)
            return
        f.segments = motion_segments(f.chunks) if f.widths else []
        if not f.segments:
            self._submit_chunks(f)
            return
        for i, (a, b) in enumerate(f.segments):
            self.backend.submit(MotionJob(f.n, i, str(f.job.source),
                                          decode_window(f.index, a, b + 1), f.size,
                                          tuple(f.widths)))

    def _submit_chunks(self, f: _File) -> None:
        canvases = compose([f.pieces[i] for i in range(len(f.segments))], f.widths) \
            if f.segments else [{}]
        starts = [f.lo] + [b for _, b in f.segments]
        at = dict(zip(starts, canvases, strict=True))
        for c in f.chunks:
            if c.index not in f.done:
                self.backend.submit(self._task(f, c, at.get(c.warm, {})))

    # -- running --------------------------------------------------------------------------
    def run(self, jobs: list[FileJob]) -> list[FileOutcome]:
        files: list[_File | None] = []
        outcomes: list[FileOutcome] = []
        for n, job in enumerate(jobs):
            out = FileOutcome(job)
            outcomes.append(out)
            try:
                f = self._prepare(n, job)
            except MediaError as e:
                out.error = str(e)
                files.append(None)
                continue
            f.outcome = out
            f.started = time.perf_counter()
            out.chunks = len(f.chunks)
            self._total += sum(c.frames for c in f.chunks)
            files.append(f)
        for f in files:
            if f is not None:
                self._start(f)
        while self.backend.busy():
            for job, res in self.backend.completed():
                f = files[job.job]
                assert f is not None and f.outcome is not None
                if f.outcome.error is not None:
                    continue  # that file already failed
                if isinstance(res, WorkerFailure):
                    self._retry(f, job, str(res))
                elif isinstance(job, MotionJob):
                    f.pieces[job.piece] = res
                    if len(f.pieces) == len(f.segments):
                        self._submit_chunks(f)
                else:
                    self._finished_chunk(f, job, res)
        return outcomes

    def _retry(self, f: _File, job: Job, why: str) -> None:
        assert f.outcome is not None
        if job.attempt + 1 >= self.opts.attempts:
            what = f"chunk {job.index}" if isinstance(job, ChunkTask) else "motion phase"
            f.outcome.error = f"{f.job.source}: {what} failed {job.attempt + 1} times: {why}"
            return
        f.outcome.reruns += isinstance(job, ChunkTask)
        self.backend.submit(replace(job, attempt=job.attempt + 1))

    def _finished_chunk(self, f: _File, task: ChunkTask, res: ChunkResult) -> None:
        c = f.chunks[task.index]
        path = Path(task.output)
        expected = self._expected(f, c)
        written = set(res.written)
        # its decoder lost frames (a corrupt source): the others are checked and kept, as a
        # single machine's export keeps them, and counted
        lossy = res.undecodable and written <= set(expected)
        why = chunk_problem(path, [t for t in expected if t in written] if lossy else expected,
                            f.index.time_base)
        if why is not None:
            path.unlink(missing_ok=True)
            self._retry(f, task, f"chunk file {path.name}: {why}")
            return
        missing = [t for t in expected if t not in written] if lossy else []
        f.lost += len(missing)
        f.manifest.add(c.index, path, c.frames, missing)
        f.done[c.index] = res
        assert f.outcome is not None
        f.outcome.chunk_seconds.append(res.seconds)
        self._advance(c.frames)
        if len(f.done) == len(f.chunks):
            self._join(f)

    def _join(self, f: _File) -> None:
        assert f.outcome is not None
        o = f.job.options
        try:
            parts = [(self._chunk_file(f, c), self._rebase(f, c) * f.index.time_base)
                     for c in f.chunks]
            f.outcome.result = join_chunks(parts, f.job.output, f.job.fmt, f.job.source,
                                           audio=o.audio, start=o.start, end=o.end,
                                           replace=o.replace, subtitles=o.subtitles,
                                           metadata=o.metadata, codec=f.job.codec)
        except MediaError as e:
            f.outcome.error = str(e)
            return
        f.outcome.chosen = f.chosen
        if f.squared:
            f.outcome.result.warnings.append(f.squared)
        if f.lost:
            f.outcome.result.warnings.append(
                f"{f.job.source}: {f.lost} frame(s) could not be decoded and are missing from "
                "the output")
        f.outcome.deinterlaced = any(r is not None and r.deinterlaced for r in f.done.values())
        painted = next((r.content for r in f.done.values() if r is not None), None)
        if painted and (padded := padding_warning(painted, f.outcome.result.size)):
            f.outcome.result.warnings.append(padded)  # (as a single machine's export says)
        f.outcome.elapsed = time.perf_counter() - f.started
        if not self.opts.keep_work:
            shutil.rmtree(f.work, ignore_errors=True)

    def _advance(self, frames: int) -> None:
        self._done_frames += frames
        if self.progress is not None:
            self.progress(ExportProgress(self._done_frames, self._total,
                                         time.perf_counter() - self._t0))
