"""What a batch renders and where: the files found in the inputs, their output names, the
checks before any file, and the batch's last line."""

from __future__ import annotations

import sys
from pathlib import Path

from ..engine.errors import AquarelleError
from ..media.animation import animation_of, ffmpeg_decodes
from ..media.codecs import EXTENSION_FOR_CODEC, output_format
from ..media.errors import MediaError
from ..media.export_options import resolve_size
from ..media.image_io import image_size, is_image_path
from ..media.paths import is_video_path, same_path
from ..media.sniff import ffmpeg_opens, sniff_image
from .common import counted
from .render_job import RenderJob
from .render_options import NAME_TEMPLATE, check_name_template, check_pixels, check_video_size


def default_name(src: Path, codec: str | None, fmt: str | None = None,
                 template: str = NAME_TEMPLATE, *, video: bool = False) -> str:
    """Output file name for a file rendered into a folder (videos get the container's
    extension: --format, else the codec's; `video`: one named as a picture, an APNG say)."""
    check_name_template(template)  # plain fields: nothing of str.format's runs
    stem = template.format(stem=src.stem, ext=src.suffix.lstrip("."))
    if not stem or "/" in stem or "\\" in stem:
        raise AquarelleError(f"--name {template!r} gives no usable file name for {src.name}")
    if is_image_path(src) and not video:
        return stem + src.suffix
    ext = f".{fmt}" if fmt else EXTENSION_FOR_CODEC.get((codec or "h264").lower(), ".mp4")
    return stem + ext


def collect_inputs(inputs: list[Path], output: Path, quiet: bool = False,
                   recursive: bool = False) -> list[tuple[Path, Path]]:
    """The files to render, each with the subfolder (of -o) it goes to: explicit files as
    given, folders expanded to their media files (and subfolders' with `recursive`); what
    is skipped there, and why, is said."""
    files: list[tuple[Path, Path]] = []
    for p in inputs:
        if not p.is_dir():
            files.append((p, Path()))
            continue
        if same_path(p, output):
            raise AquarelleError(f"output folder {output} is the input folder {p}; "
                                 "choose another one")
        found, skipped = [], []
        walk = sorted(p.rglob("*")) if recursive else sorted(p.iterdir())
        for f in walk:
            rel = f.relative_to(p)
            if any(part.startswith(".") for part in rel.parts) or f.is_dir() and recursive:
                continue
            if recursive and (output.resolve() == f.resolve()
                              or output.resolve() in f.resolve().parents):
                continue  # the output folder inside the input folder
            if f.is_file() and (is_image_path(f) or is_video_path(f)
                                or f.suffix.lower() == ".apng"):
                found.append((f, rel.parent))
            else:
                skipped.append(str(rel) + ("/" if f.is_dir() else ""))
        if skipped and not quiet:
            more = "" if recursive else "; subfolders are entered with --recursive"
            print(f"aquarelle: note: skipped in {p}: {', '.join(skipped[:10])}"
                  f"{', ...' if len(skipped) > 10 else ''} (not images or videos by their "
                  f"names{more})", file=sys.stderr)
        if not found:
            raise AquarelleError(f"no images or videos in {p}")
        files.extend(found)
    return once_each(files, quiet)


def _identity(path: Path) -> object:
    """What makes two paths one file: its device and inode where it exists (symlinks, hard
    links, ./ and ../ spellings, a case-insensitive file system), else its resolved path."""
    try:
        st = path.stat()
        return (st.st_dev, st.st_ino)
    except OSError:
        return path.resolve()


def once_each(files: list[tuple[Path, Path]], quiet: bool = False
              ) -> list[tuple[Path, Path]]:
    """`files` with each file kept once, where it came first (a file given twice, or also
    in a folder given, would be rendered twice under two names); the ones left out are
    said in one line."""
    seen: dict[object, Path] = {}
    kept: list[tuple[Path, Path]] = []
    dropped: list[str] = []
    for f, sub in files:
        key = _identity(f)
        if key in seen:
            first = seen[key]
            dropped.append(f"{f} (given twice)" if str(first) == str(f)
                           else f"{f} (the same file as {first})")
            continue
        seen[key] = f
        kept.append((f, sub))
    if dropped and not quiet:
        print(f"aquarelle: note: skipped {counted(len(dropped), 'duplicate input')}, each "
              f"file is rendered once: {', '.join(dropped[:5])}"
              f"{', ...' if len(dropped) > 5 else ''}", file=sys.stderr)
    return kept


def output_names(files: list[tuple[Path, Path]], codec: str | None, fmt: str | None = None,
                 template: str = NAME_TEMPLATE, videos: frozenset[Path] = frozenset()
                 ) -> list[Path]:
    """One output path (relative to -o) per input (`videos`: animated pictures rendered as
    videos, also ones named as images). Inputs that would share one (x.mp4 and x.mkv ->
    x.mp4): the one already called that keeps it (else the first), the others get their
    own extension added (x_mkv.mp4), so no file takes another's plain name."""
    plain = [sub / default_name(f, codec, fmt, template, video=f in videos)
             for f, sub in files]
    out = list(plain)
    for name in {n for n in plain if plain.count(n) > 1}:
        group = [i for i, n in enumerate(plain) if n == name]
        keeper = next((i for i in group if files[i][0].name == name.name), group[0])
        for i in group:
            if i != keeper:
                f = files[i][0]
                out[i] = name.with_name(f"{name.stem}_{f.suffix.lstrip('.')}{name.suffix}")
    return out


def prepare_batch(job: RenderJob
                  ) -> tuple[list[tuple[Path, Path]], list[Path], dict[Path, bool]]:
    """A batch's checks before any file (codec, container, the output folder, a --size its
    videos cannot have; the style and values were checked when the job was parsed), the
    files found, their output names, and for each animated picture (an APNG, also one named
    .png) whether FFmpeg decodes its frames: then it is a video, as `aquarelle render`
    renders it alone."""
    opts, output = job.export, job.output
    if opts.codec is not None:
        output_format("x" + EXTENSION_FOR_CODEC.get(opts.codec.lower(), ".mp4"), opts.codec)
    if output.exists() and not output.is_dir():
        raise AquarelleError(f"-o must be a folder when rendering several inputs: {output}")
    files = collect_inputs(list(job.inputs), output, job.quiet, job.recursive)
    fmt = job.container
    if fmt:
        output_format(f"x.{fmt}", opts.codec)  # a codec the container cannot hold: fail now
    decodes = {f: ffmpeg_decodes(f) for f, _ in files if animation_of(f) is not None}
    videos = frozenset(f for f, moving in decodes.items() if moving)
    moving = [f for f, _ in files if f in videos or not is_image_path(f)]
    if moving:  # a size no video frame can have: said before any file, not per video
        check_video_size(opts.size, moving[0].name)
    if opts.size is not None and min(opts.size) < 0:  # a -1 side: as each still resolves it
        for f, _ in files:
            if f not in videos and is_image_path(f) and (header := image_size(f)):
                check_pixels(resolve_size(opts.size, header, even=False), f.name, opts.size)
    try:
        output.mkdir(exist_ok=True)
    except OSError as e:
        raise MediaError(f"cannot create output folder {output}: {e.strerror or e}") from None
    return files, output_names(files, opts.codec, fmt, job.name_template, videos), decodes


def content_kind(src: Path) -> str | None:
    """What a batch input not named as an image is by its bytes: "image" (rendered as a
    one-frame video, as its name asks), "video", or None when FFmpeg cannot read it. A
    missing file counts as a video, so that its own error is the one given."""
    if sniff_image(src):
        return "image"
    return "video" if ffmpeg_opens(src) else None


def kinds_counted(kinds: list[str]) -> str:
    """"2 videos", "2 videos, 1 image": what a batch's jobs are."""
    return ", ".join(counted(kinds.count(k), k) for k in ("video", "image") if k in kinds)


def batch_summary(quiet: bool, total: int, output: Path, skipped: list[str],
                  failed: list[tuple[Path, str]]) -> int:
    """The batch's last line (rendered, skipped, failed) and its exit status."""
    ok = total - len(failed) - len(skipped)
    line = f"batch: {ok} of {total} rendered into {output}"
    if skipped:
        line += (f", {len(skipped)} skipped (already there: "
                 f"{', '.join(skipped[:5])}{', ...' if len(skipped) > 5 else ''}; -y replaces)")
    if failed:
        line += f", {len(failed)} failed: " + ", ".join(str(s) for s, _ in failed)
    if failed or skipped or not quiet:
        print(line, file=sys.stderr)
    return 2 if failed else 0
