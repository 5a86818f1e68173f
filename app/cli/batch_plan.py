"""What a batch renders and where: the files found in the inputs, their output names, the
checks before any file, and the batch's last line."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

from ..engine.errors import AquarelleError
from ..media.animation import animation_of, ffmpeg_decodes, is_still_gif
from ..media.atomic import probe_writable
from ..media.codecs import CONTAINERS, EXTENSION_FOR_CODEC, output_format
from ..media.errors import MediaError
from ..media.export_options import resolve_size
from ..media.image_formats import IMAGE_EXTENSIONS, WRITE_EXTENSIONS, is_image_path, written_suffix
from ..media.image_read import image_size
from ..media.paths import VIDEO_EXTENSIONS, is_sequence, is_video_path, same_path
from ..media.sniff import ffmpeg_opens, sniff_image
from .common import counted
from .render_job import RenderJob
from .render_options import NAME_TEMPLATE, check_name_template, check_pixels, check_video_size

STILL_GIF_SUFFIX = ".png"  # a one-frame GIF's painting (GIF is no format a still is written as)
# extensions that, ending a --name template, are its output's extension (else part of the name)
NAMED_EXTENSIONS = frozenset(IMAGE_EXTENSIONS | VIDEO_EXTENSIONS | set(CONTAINERS) | {".apng"})


def default_name(src: Path, codec: str | None, fmt: str | None = None,
                 template: str = NAME_TEMPLATE, *, video: bool = False,
                 still: bool = False, still_fmt: str | None = None) -> str:
    """Output file name for a file rendered into a folder. A video (`video`: also one named
    as a picture, an APNG say) gets the container's extension: `fmt` (--format's), else an
    .mkv source's own without a --codec, else the codec's; a still (an image, or `still`: a
    one-frame GIF) `still_fmt` (--format's), else its own (PNG for a GIF, JPEG for HEIF:
    formats no still is written as). An extension the template ends with ({stem}.png) is
    used where it is one of that kind's, else refused."""
    check_name_template(template)  # plain fields: nothing of str.format's runs
    ext = src.suffix.lstrip(".")
    stem = template.format(stem=src.stem, ext=ext)
    if not stem or "/" in stem or "\\" in stem:
        raise AquarelleError(f"--name {template!r} gives no usable file name for {src.name}")
    pictured = still or (is_image_path(src) and not video)
    # the template's own extension, not one in the input's stem (a.mp4.jpg's stem a.mp4)
    given = Path(template.format(stem="x", ext=ext)).suffix.lower()
    if given in NAMED_EXTENSIONS:
        allowed = WRITE_EXTENSIONS if pictured else CONTAINERS
        if given not in allowed:
            kind = "a still, written as" if pictured else "a video, written in"
            raise AquarelleError(f"--name {template!r} gives {stem} for {src.name}, {kind} "
                                 f"{' '.join(sorted(allowed))}")
        return stem
    if pictured:
        if still_fmt:
            return f"{stem}.{still_fmt}"
        return stem + (STILL_GIF_SUFFIX if still else written_suffix(src))
    if fmt:
        return f"{stem}.{fmt}"
    if codec is None and src.suffix.lower() == ".mkv":
        # Matroska holds all a Matroska source has (attachments, ASS subtitles...), which
        # MP4 would leave out or convert: it stays one (trial V5)
        return stem + ".mkv"
    return stem + EXTENSION_FOR_CODEC.get((codec or "h264").lower(), ".mp4")


def sequence_name(src: Path, template: str = NAME_TEMPLATE, still_fmt: str | None = None
                  ) -> str:
    """The name pattern of the frames an image sequence (`src`, frames/%04d.png) is rendered
    to in a folder: its own (%04d.png), through the --name template, in --format's still
    format (`still_fmt`); a name that loses the frame number is refused."""
    name = default_name(src, None, template=template, still_fmt=still_fmt)
    if not is_sequence(name):
        raise AquarelleError(f"--name {template!r} gives {name} for the image sequence "
                             f"{src.name}, whose frames need its frame number ({{stem}} "
                             "keeps it)")
    return name


def collect_inputs(inputs: list[Path], output: Path, quiet: bool = False,
                   recursive: bool = False) -> list[tuple[Path, Path]]:
    """The files to render, each with the subfolder (of -o) it goes to: explicit files as
    given, folders expanded to their media files (and subfolders' with `recursive`); what
    is skipped there, and why, is said. A folder given that cannot be read is an error; a
    subfolder that cannot be read is named in a warning."""
    files: list[tuple[Path, Path]] = []
    for p in inputs:
        if not p.is_dir():
            files.append((p, Path()))
            continue
        if same_path(p, output):
            raise AquarelleError(f"output folder {output} is the input folder {p}; "
                                 "choose another one")
        walk = _Walk(p, output, recursive)
        walk.visit(p, Path())
        for folder, reason in walk.unreadable:  # said even with -q: files left out unseen
            print(f"aquarelle: warning: cannot read folder {p / folder}: {reason}; what it "
                  "holds is not rendered", file=sys.stderr)
        if not quiet and (why := walk.skipped_said()):
            print(f"aquarelle: note: skipped in {p}: {why}", file=sys.stderr)
        if not walk.found:
            raise AquarelleError(f"no images or videos in {p}")
        files.extend(walk.found)
    return once_each(files, quiet)


class _Walk:
    """One input folder's media files, walked in name order (a folder's files where its
    name sorts), and what was skipped and why. Symlinked subfolders are followed, but not
    one into the folder walked (its files are found under their own names) nor one back up
    to a folder the walk is in (a loop), nor a second link to a folder walked already."""

    def __init__(self, top: Path, output: Path, recursive: bool) -> None:
        self.top, self.recursive = top, recursive
        self.output = _real(output)
        self.found: list[tuple[Path, Path]] = []
        self.skipped: list[str] = []  # not media by their names (and subfolders without -r)
        self.hidden: list[str] = []
        self.broken: list[str] = []  # symlinks to nothing
        self.links: list[str] = []  # symlinked folders not followed
        self.unreadable: list[tuple[Path, str]] = []
        self.walked: set[Path] = set()

    def visit(self, folder: Path, rel: Path) -> None:
        """Walk `folder` (`rel` from the top), and its subfolders with --recursive."""
        real = _real(folder)
        self.walked.add(real)
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            if folder == self.top:
                raise AquarelleError(f"cannot read folder {folder}: {_reason(e)}") from None
            self.unreadable.append((rel, _reason(e)))
            return
        for entry in entries:
            path, name = folder / entry.name, rel / entry.name
            try:
                is_dir = entry.is_dir()  # (through a symlink)
                is_file = not is_dir and entry.is_file()
                link = entry.is_symlink()
            except OSError as e:  # a folder listed but not searchable
                self.unreadable.append((name, _reason(e)))
                continue
            if entry.name.startswith("."):  # named once: a hidden folder, not its files
                self.hidden.append(f"{name}/" if is_dir else str(name))
            elif link and not is_dir and not is_file and not path.exists():
                self.broken.append(str(name))
            elif is_dir and not self.recursive:
                self.skipped.append(f"{name}/")
            elif is_dir:
                target = _real(path)
                if target == self.output or self.output in target.parents:
                    continue  # the output folder inside the input folder
                if link and (target in self.walked or target in real.parents
                             or _real(self.top) in target.parents):
                    self.links.append(f"{name}/")
                    continue
                self.visit(path, name)
            elif is_file and (is_image_path(path) or is_video_path(path)
                              or path.suffix.lower() == ".apng"):
                self.found.append((path, rel))
            else:
                self.skipped.append(str(name))

    def skipped_said(self) -> str:
        """What the walk skipped, and why, for one note ("" when nothing was)."""
        more = "" if self.recursive else "; subfolders are entered with --recursive"
        why = [f"{first_ten(self.skipped)} (not images or videos by their names{more})"] \
            if self.skipped else []
        why += [f"{first_ten(self.broken)} (broken link)"] if self.broken else []
        why += [f"{first_ten(self.links)} (a symlink to a folder walked elsewhere or above: "
                "not followed)"] if self.links else []
        why += [f"{first_ten(self.hidden)} (hidden)"] if self.hidden else []
        return "; ".join(why)


def _real(path: Path) -> Path:
    """`path` with its symlinks resolved (as far as they go)."""
    return Path(os.path.realpath(path))


def first_ten(names: list[str]) -> str:
    """"a, b, c": the first ten names, and "..." for more."""
    return ", ".join(names[:10]) + (", ..." if len(names) > 10 else "")


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
                 template: str = NAME_TEMPLATE, videos: frozenset[Path] = frozenset(), *,
                 stills: frozenset[Path] = frozenset(), still_fmt: str | None = None
                 ) -> list[Path]:
    """One output path (relative to -o) per input, each its own (`videos`: animated pictures
    rendered as videos, also ones named as images; `stills`: one-frame GIFs, painted as
    pictures). Names are told apart without case, as Windows and macOS file systems do.
    Inputs that would share one (x.mp4 and x.mkv -> x.mp4): the one already called that
    keeps it (else the first); each other one adds the first free tag of: its extension
    where it differs (x_mkv.mp4), the last part of its folder's path that tells it apart
    (other/one.png -> one_other.png), a number (painted-2.png)."""
    plain = _plain_names(files, codec, fmt, template, videos, stills, still_fmt)
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(plain):
        groups.setdefault(_key(name), []).append(i)
    folders = {_key(d) for name in plain for d in name.parents}  # no file takes a folder's
    keepers = {k: next((i for i in group if files[i][0].name == plain[i].name), group[0])
               for k, group in groups.items() if k not in folders}
    taken = folders | set(keepers)
    out = list(plain)
    for k, group in groups.items():
        for i in group:
            if i == keepers.get(k):
                continue
            name = next(c for c in _tagged(files, group, keepers.get(k), i, plain[i])
                        if _key(c) not in taken)
            taken.add(_key(name))
            out[i] = name
    return out


def _plain_names(files: list[tuple[Path, Path]], codec: str | None, fmt: str | None,
                 template: str, videos: frozenset[Path], stills: frozenset[Path],
                 still_fmt: str | None) -> list[Path]:
    """Each input's output path as if it were the only one."""
    return [sub / (sequence_name(f, template, still_fmt) if is_sequence(f) else
                   default_name(f, codec, fmt, template, video=f in videos, still=f in stills,
                                still_fmt=still_fmt)) for f, sub in files]


def renamed_note(files: list[tuple[Path, Path]], names: list[Path], plain: list[Path]) -> str:
    """The note naming the inputs whose outputs were renamed apart ("" when none was)."""
    moved = [f"{f} -> {n}" for (f, _), n, p in zip(files, names, plain, strict=True) if n != p]
    if not moved:
        return ""
    return (f"aquarelle: note: {counted(len(moved), 'output')} renamed, as other inputs "
            f"would have the same name: {', '.join(moved[:5])}"
            f"{', ...' if len(moved) > 5 else ''}")


def _key(name: Path) -> str:
    """An output name as a case-insensitive file system compares it."""
    return name.as_posix().casefold()


def _tagged(files: list[tuple[Path, Path]], group: list[int], keeper: int | None, i: int,
            name: Path) -> Iterator[Path]:
    """The names input `i` may take instead of `name`, which others of `group` share: its
    extension added, then the shortest end of its folder's path no other in the group has,
    then numbers (endless: one is free)."""
    src = files[i][0]
    ext = src.suffix.lstrip(".")
    if ext and (keeper is None or files[keeper][0].suffix.casefold() != src.suffix.casefold()):
        yield name.with_name(f"{name.stem}_{ext}{name.suffix}")
    here = _folder_parts(src)
    others = [_folder_parts(files[j][0]) for j in group if j != i]
    for n in range(1, len(here) + 1):
        if all(_key(Path(*o[-n:])) != _key(Path(*here[-n:])) for o in others):
            yield name.with_name(f"{name.stem}_{'_'.join(here[-n:])}{name.suffix}")
            break
    n = 2
    while True:
        yield name.with_name(f"{name.stem}-{n}{name.suffix}")
        n += 1


def _folder_parts(src: Path) -> tuple[str, ...]:
    """The names of the folders above an input (as given, from the current folder up for a
    relative one; symlinks not followed)."""
    return Path(os.path.abspath(src)).parent.parts[1:]


def prepare_batch(job: RenderJob
                  ) -> tuple[list[tuple[Path, Path]], list[Path], dict[Path, bool]]:
    """A batch's checks before any file (codec, container, the output folder, a --size its
    videos cannot have; the style and values were checked when the job was parsed), the
    files found, their output names, and for each animated picture (an APNG, also one named
    .png) whether FFmpeg decodes its frames: then it is a video, as `aquarelle render`
    renders it alone. A one-frame GIF is a still (written as PNG); on a cluster it is still
    sent as a one-frame video (render_cluster renders only images named so here)."""
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
    stills = frozenset(f for f, _ in files if is_still_gif(f))
    sequences = frozenset(f for f, _ in files if is_sequence(f))  # frames/%04d.png
    moving = [f for f, _ in files
              if f in videos or f in sequences or not (is_image_path(f) or f in stills)]
    if moving:  # a size no video frame can have: said before any file, not per video
        check_video_size(opts.size, moving[0].name)
    if opts.size is not None and min(opts.size) < 0:  # a -1 side: as each still resolves it
        for f, _ in files:
            if f not in videos and f not in sequences and is_image_path(f) \
                    and (header := image_size(f)):
                check_pixels(resolve_size(opts.size, header, even=False), f.name, opts.size)
    sfmt = job.still_format  # (names before the folder: a --name refused makes none)
    names = output_names(files, opts.codec, fmt, job.name_template, videos, stills=stills,
                         still_fmt=sfmt)
    moved = set(moving) - sequences  # (a sequence's frames are pictures, written as named)
    for ext in sorted({n.suffix.lower() for (f, _), n in zip(files, names, strict=True)
                       if f in moved}):  # (--name's: each container with --codec)
        output_format(f"x{ext}", opts.codec)
    try:
        output.mkdir(exist_ok=True)
    except OSError as e:
        raise MediaError(f"cannot create output folder {output}: {_reason(e)}") from None
    try:  # a read-only folder: said once, before any painting, not after each file's
        probe_writable(output / "probe")
    except OSError as e:
        raise MediaError(f"cannot write into output folder {output}: {_reason(e)}") from None
    note = renamed_note(files, names, _plain_names(files, opts.codec, fmt, job.name_template,
                                                   videos, stills, sfmt))
    if note and not job.quiet:
        print(note, file=sys.stderr)
    return files, names, decodes


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


def _reason(e: OSError) -> str:
    """An OSError's reason in lower-case words ("permission denied")."""
    text = e.strerror or str(e) or type(e).__name__
    return text[:1].lower() + text[1:]
