"""`aquarelle render ... --cluster [ADDRESS]`: videos (and whole folders) rendered in chunks
on a Ray cluster (app/cluster), with the same output as a single-machine render: every frame
with its source timestamp, the sound copied or transcoded, the file written atomically. Its
options are declared in render_options.py (the parser imports no video module)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

from ..engine.errors import AquarelleError
from ..media.animation import is_still_gif
from ..media.codecs import output_format
from ..media.errors import MediaError
from ..media.export import check_options
from ..media.image_formats import is_image_path
from ..media.paths import is_sequence, same_path, wants_frames
from ..media.progress import ProgressPrinter
from ..media.video_reader import bits_of
from .batch_plan import (
    batch_summary,
    content_kind,
    default_name,
    kinds_counted,
    prepare_batch,
)
from .common import counted, positive
from .main import print_error
from .render_frames import frame_path, run_frames
from .render_image import render_image, render_still_gif
from .render_job import RENDER, ClusterChoice, RenderJob, check_writable, refuse_existing

INSTALL_HINT = "--cluster needs Ray, which is not installed: pip install 'aquarelle[cluster]'"


def _backend(choice: ClusterChoice) -> tuple[Any, Any]:
    """(the Ray backend, the module) after connecting; one line if Ray is missing."""
    try:
        importlib.import_module("ray")
        from ..cluster import ray_backend
    except ImportError:
        raise AquarelleError(INSTALL_HINT) from None
    address = choice.address
    started = ray_backend.connect(address)
    try:
        backend = ray_backend.RayBackend()
    except BaseException:
        if started:
            ray_backend.shutdown()
        raise
    backend.started = started
    return backend, ray_backend


def _options(choice: ClusterChoice) -> Any:
    from ..cluster.driver import ClusterOptions

    positive(choice.chunk, "--chunk")
    return ClusterOptions(chunk_seconds=choice.chunk, resume=choice.resume,
                          work_dir=choice.work_dir)


def _run_jobs(job: RenderJob, jobs: list[Any], label: str) -> list[Any]:
    from ..cluster.driver import Driver

    assert job.cluster is not None
    options = _options(job.cluster)
    backend, module = _backend(job.cluster)
    printer = ProgressPrinter(label, quiet=job.quiet)
    try:
        driver = Driver(backend, job.look.name, job.look.style, job.look.values, options,
                        printer)
        return driver.run(jobs)
    finally:
        printer.finish()
        backend.close()
        if backend.started:
            module.shutdown()


def warn(warnings: list[str]) -> None:
    """A cluster render's warnings, as a single-machine render prints them."""
    for warning in warnings:
        print(f"aquarelle: warning: {warning}", file=sys.stderr)


def summary(o: Any) -> str:
    """One line per file, like a single-machine render's, with the chunks."""
    r = o.result
    audio = "".join(f", {a}" for a in r.audio) if r.audio else ", no audio"  # "audio 1 ..."
    audio += "".join(f", {s}" for s in r.streams)
    fps = r.frames / o.elapsed if o.elapsed > 0 else 0.0
    extra = f"; {counted(o.chunks, 'chunk')}"
    if o.resumed:
        extra += f", {o.resumed} resumed"
    if o.reruns:
        extra += f", {o.reruns} re-run"
    made = ", deinterlaced (bwdif)" if o.deinterlaced else ""
    chosen = f" ({o.chosen})" if o.chosen else ""  # a deep source's codec, and why
    return (f"{o.job.source} -> {r.output} ({counted(r.frames, 'frame')}, "
            f"{r.size[0]}x{r.size[1]} {r.codec} {bits_of(r.pix_fmt)}-bit{chosen}{made}{audio}; "
            f"{o.elapsed:.1f} s, "
            f"{fps:.1f} fps{extra})")


def run(job: RenderJob, src: Path, output: Path) -> int:
    """One video on the cluster."""
    from ..cluster.driver import FileJob

    if wants_frames(output):
        raise AquarelleError("--cluster writes video files, not frames or GIFs")
    opts = job.export
    check_options(opts)
    if output.is_dir():
        output = output / default_name(src, opts.codec, job.container, job.name_template)
    refuse_existing(job, output)
    fmt, spec = output_format(output, opts.codec)
    if same_path(src, output):
        raise MediaError(f"output {output} is the input; choose another name")
    if str(output.parent) and not output.parent.is_dir():
        raise MediaError(f"output folder does not exist: {output.parent}")
    check_writable(output)
    (o,) = _run_jobs(job, [FileJob(src, output, fmt, spec.name, opts)], src.name)
    if o.error:
        raise MediaError(o.error)
    warn(o.result.warnings)
    if not job.quiet:
        print(summary(o), file=sys.stderr)
    return 0


def run_batch(job: RenderJob) -> int:
    """Several files into the folder -o: the videos' chunks spread over the cluster
    together (one progress line), images and image sequences' frames rendered here; the
    batch's summary line."""
    from ..cluster.driver import FileJob

    output, opts = job.output, job.export
    files, names, decodes = prepare_batch(job)
    check_options(opts)
    failed: list[tuple[Path, str]] = []
    skipped: list[str] = []
    jobs: list[FileJob] = []
    kinds: list[str] = []
    for (src, _), name in zip(files, names, strict=True):
        dst = output / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if (frame_path(dst, 1) if is_sequence(dst) else dst).exists() and not job.overwrite:
            skipped.append(str(name))
            continue
        if is_sequence(src):  # frames, painted here as pictures are
            try:
                run_frames(job, src, dst)
            except AquarelleError as e:
                print_error(RENDER, e)
                failed.append((src, str(e)))
            continue
        still_gif = is_still_gif(src)  # (a picture: painted here, as a batch paints it)
        if (is_image_path(src) and not decodes.get(src)) or still_gif:
            try:
                if still_gif:
                    render_still_gif(job, src, dst)
                else:
                    render_image(job, src, dst, decodes=decodes.get(src))
            except AquarelleError as e:
                print_error(RENDER, e)
                failed.append((src, str(e)))
            continue
        kind = "video" if decodes.get(src) else content_kind(src)
        try:
            if kind is None:  # not sent to the cluster to fail there, nor counted a video
                raise MediaError(f"{src} is not an image or a video (FFmpeg cannot read it)")
            vfmt, spec = output_format(dst, opts.codec)
        except AquarelleError as e:
            print_error(RENDER, e)
            failed.append((src, str(e)))
            continue
        jobs.append(FileJob(src, dst, vfmt, spec.name, opts))
        kinds.append(kind)
    if jobs:
        for o in _run_jobs(job, jobs, kinds_counted(kinds)):
            if o.error:
                print_error(RENDER, o.error)
                failed.append((o.job.source, o.error))
                continue
            warn(o.result.warnings)
            if not job.quiet:
                print(summary(o), file=sys.stderr)

    return batch_summary(job.quiet, len(files), output, skipped, failed)
