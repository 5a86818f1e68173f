"""`aquarelle render` for one image file."""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from pathlib import Path

import moderngl
import numpy as np

from ..engine.chain_spec import look_painted
from ..engine.context import create_headless_context
from ..engine.errors import AquarelleError
from ..engine.renderer import Renderer
from ..engine.still import paint_still, whole_reason
from ..engine.tile_analysis import tiling_problem
from ..media.animation import animation_of, ffmpeg_decodes
from ..media.errors import MediaError
from ..media.export_options import resolve_size
from ..media.image_formats import (
    LOSSY,
    LOSSY_SAID,
    WRITE_EXTENSIONS,
    is_image_path,
    is_writable_image_path,
)
from ..media.image_pixels import on_paper
from ..media.image_read import image_size, read_image
from ..media.image_types import Image, ImageError
from ..media.image_write import painting_to_write, side_limit, write_image
from ..media.image_write_warnings import write_warnings
from ..media.paths import same_path
from ..media.progress import ProgressPrinter, format_seconds
from ..platforms import map_big_buffers, return_freed_heap
from .render_job import RenderJob, check_writable, refuse_existing
from .render_options import resize


def read_pair(left: Path, right: Path, size: tuple[int, int] | None = None) -> Image:
    """Two photos of a stereo pair as one side-by-side picture (left view on the left),
    each view at `size` (--size is a view's: the pair is twice as wide)."""
    a, b = read_image(left), read_image(right)
    if a.size != b.size:
        raise ImageError(f"a stereo pair's views must be the same size: {left.name} is "
                         f"{a.size[0]}x{a.size[1]}, {right.name} {b.size[0]}x{b.size[1]}")
    rgb_a = a.rgb
    rgb_b = b.rgb.astype(a.rgb.dtype) if b.rgb.dtype == a.rgb.dtype else \
        (b.rgb.astype(np.float32) * (257 if a.rgb.dtype == np.uint16 else 1 / 257)
         ).astype(a.rgb.dtype)
    if size is not None:
        view = resolve_size(size, a.size, even=False)
        rgb_a, rgb_b = resize(rgb_a, view), resize(rgb_b, view)
    return dataclasses.replace(a, rgb=np.ascontiguousarray(np.hstack([rgb_a, rgb_b])),
                               alpha=None)


def render_still_gif(job: RenderJob, src: Path, output: Path) -> int:
    """A one-frame GIF painted as the picture it is (as `render still.gif -o x.png` paints
    it), not as a one-frame video."""
    from ..media.image_read import read_image
    from ..media.video_reader import only_picture

    try:  # (Pillow's: its transparent colour kept, which FFmpeg's frame left opaque)
        return render_image(job, src, output, read_image(src))
    except ImageError:
        picture = only_picture(src)
    if picture is None:
        raise MediaError(f"{src}: FFmpeg cannot read its one picture")
    return render_image(job, src, output, Image(picture))


def render_image(job: RenderJob, src: Path, output: Path, image: Image | None = None, *,
                 decodes: bool | None = None, said_as: str | None = None) -> int:
    """Stylize one image file (or a given picture read from `src`) into `output`
    (atomically). `decodes`: whether FFmpeg decodes an animated `src`'s frames, where the
    caller probed it already (None: probed here if it is animated); `said_as`: the source's
    name in the summary line, where it is more than `src` (a stereo pair's two photos)."""
    style, values = job.look.style, job.look.values
    if same_path(src, output):
        raise AquarelleError(f"output {output} is the input; choose another name")
    if image is None and not src.exists():  # the input's own problem first, then the output's
        raise ImageError(f"no such file: {src}")
    refuse_existing(job, output)
    if not is_writable_image_path(output):
        what = "HEIF, which aquarelle reads but does not write" if is_image_path(output) \
            else f"unsupported output format {output.suffix or '(none)'}"
        raise ImageError(f"{what}, for an image; use one of "
                         f"{' '.join(sorted(WRITE_EXTENSIONS))}")
    if str(output.parent) and not output.parent.is_dir():
        raise ImageError(f"output folder does not exist: {output.parent}")
    check_writable(output)
    for option in job.video_only:
        print(f"aquarelle: warning: {option} applies to videos; ignored for {src.name}",
              file=sys.stderr)
    if image is None and (why := first_frame_only(src, decodes)):
        print(f"aquarelle: warning: {why}", file=sys.stderr)
    map_big_buffers()  # a still's big buffers go back to the system once freed
    size = job.size
    # the header's size first: a picture that cannot be painted is refused before decoding
    header = image.size if image is not None else image_size(src)
    ctx = create_headless_context()
    try:
        if header is not None:
            refuse_unpaintable(job, resolve_size(size, header, even=False), ctx, src,
                               output, source=header)
        if image is None:
            image = read_image(src, fit=resolve_size(size, header, even=False)
                               if size and header else None)
        rgb_in, alpha = image.rgb, image.alpha
        if size is not None:
            w, h = resolve_size(size, image.size, even=False)
            rgb_in = resize(rgb_in, (w, h))
            alpha = resize(alpha, (w, h)) if alpha is not None else None
        rgb_in = on_paper(rgb_in, alpha)  # transparent: paper, not the colours under it
        # --no-metadata: no EXIF (GPS, camera, dates); the colour profile stays, the picture
        # looks as it did (and its orientation is in the pixels)
        icc, exif = image.icc, image.exif if job.export.metadata else None
        dpi, unkept = image.dpi, image.unkept
        del image  # a big photo: only the picture being painted stays in memory
        # 16-bit in: painted and written at 16 bits (a deep pipeline)
        deep = rgb_in.dtype == np.uint16
        with Renderer(ctx, style, seed=job.look.seed, scale=job.look.scale,
                            deep=deep) as pipeline:
            pipeline.set_params(values)
            why = whole_reason(style, values, (rgb_in.shape[1], rgb_in.shape[0]),
                               job.look.scale)
            rgb = paint(pipeline, rgb_in, src, quiet=job.quiet, whole=why)
            del rgb_in
            if alpha is not None:  # enlarged, or once per view of a stereo pair
                alpha = pipeline.output_alpha(alpha)
    finally:
        ctx.release()
        return_freed_heap()  # the GL textures' memory, for the encoder
    quality = job.quality
    # (its range was checked with the command line)
    if quality is not None and output.suffix.lower() not in LOSSY:
        print(f"aquarelle: warning: --quality applies to {LOSSY_SAID}; ignored for "
              f"{output.name}", file=sys.stderr)
    for warning in write_warnings(output, rgb, icc, exif, alpha, dpi=dpi, unkept=unkept):
        print(f"aquarelle: warning: {warning}", file=sys.stderr)
    write_image(output, painting_to_write(output, rgb, alpha), alpha, quality=quality, icc=icc,
                exif=exif, replace=job.replace, dpi=dpi)
    if not job.quiet:
        print(f"{said_as or src} -> {output} ({rgb.shape[1]}x{rgb.shape[0]})",
              file=sys.stderr)
    return 0


def first_frame_only(src: Path, decodes: bool | None = None) -> str | None:
    """What painting an animated picture as an image leaves out (its frames but the
    first), and how to paint them all where FFmpeg can; None for a still. `decodes`: the
    probe's answer where it was made already (its frames are decoded only once)."""
    anim = animation_of(src)
    if anim is None:
        return None
    if decodes is None:
        decodes = ffmpeg_decodes(src)
    how = ("render it on its own to -o NAME.mp4 or NAME.gif to paint them"
           if decodes else "FFmpeg here cannot decode them")
    return (f"{src} is {anim.name}; only its first frame is painted, the other "
            f"{anim.frames - 1} are not ({how})")


def refuse_unpaintable(job: RenderJob, size: tuple[int, int], ctx: moderngl.Context,
                       src: Path, output: Path | None = None, *,
                       source: tuple[int, int] | None = None) -> None:
    """A still the GPU cannot paint, or `output`'s format cannot hold, is refused before it
    is decoded, in one line with the largest --size that works: one painted beyond what the
    format holds (WebP's 16383 px), one beyond the texture limit whose style cannot be
    painted in tiles, or one whose style paints it larger (an upscale, a stereo pair side by
    side: painted whole, never in tiles) beyond the texture limit. `size` is the size it
    would be painted from, `source` the photo's own (what the hint's -1 follows; `size`'s
    shape where not given)."""
    limit = int(ctx.info["GL_MAX_TEXTURE_SIZE"])
    w, h = size
    source = source or size
    painted = look_painted(job.look.style, job.look.values)
    out = painted(size)
    if output is not None and (beyond := side_limit(output, out)) is not None:
        kind, most = beyond
        made = f" and {job.look.style.name} would paint it {out[0]}x{out[1]}" \
            if out != size else ""
        raise AquarelleError(f"{src.name} is {w}x{h}{made}: {kind} holds at most {most} "
                             f"px a side; render it smaller, e.g. --size "
                             f"{largest_size(source, painted, most)} (or write .png, .tif "
                             "or .avif)")
    if max(out) > limit and out != size:
        raise AquarelleError(f"{src.name} is {w}x{h}: {job.look.style.name} would paint it "
                             f"{out[0]}x{out[1]}, beyond the GPU's texture limit ({limit} "
                             f"px); render it smaller, e.g. --size "
                             f"{largest_size(source, painted, limit)}")
    if max(size) <= limit:
        return
    why = f"{job.look.style.name} changes the picture's size" if out != size else \
        tiling_problem(job.look.style, job.look.values, size, scale=job.look.scale)
    if why is None:
        return
    raise AquarelleError(f"{src.name} is {w}x{h}, beyond the GPU's texture limit ({limit} "
                         f"px), and cannot be painted in tiles: {why}; render it smaller, "
                         f"e.g. --size {largest_size(source, painted, limit)}")


def largest_size(source: tuple[int, int],
                 painted: Callable[[tuple[int, int]], tuple[int, int]], limit: int) -> str:
    """The --size (the long side, -1 the other) of the largest picture whose sides, and its
    painting's (`painted`), are within `limit`: the -1 follows the photo's own proportions
    (`source`, as the next render resolves it, whatever shape a refused --size gave) and
    the look's enlargement is measured, not assumed (a 256x300 photo at --size 5000x5000
    was told 4096x-1, which is 4096x4800 and paints 16384x19200 after a x4 upscale)."""
    wide = source[0] >= source[1]

    def resolved(side: int) -> tuple[int, int]:
        return resolve_size((side, -1) if wide else (-1, side), source, even=False)

    def fits(side: int) -> bool:
        size = resolved(side)
        return max(*size, *painted(size)) <= limit

    # the enlargement of each side at about that size, the other side's share of the long
    probe = resolved(limit)
    out = painted(probe)
    grow_w, grow_h = max(1.0, out[0] / probe[0]), max(1.0, out[1] / probe[1])
    long, short = (grow_w, grow_h) if wide else (grow_h, grow_w)
    share = probe[1] / probe[0] if wide else probe[0] / probe[1]
    side = max(1, int(min(limit / long, limit / (short * share))))
    while side > 1 and not fits(side):  # rounding: a px or two less
        side -= 1
    while fits(side + 1):  # (an estimate short of it: as large as fits)
        side += 1
    return f"{side}x-1" if wide else f"-1x{side}"


def paint(pipeline: Renderer, rgb: np.ndarray, src: Path, *, quiet: bool,
          whole: str | None = None) -> np.ndarray:
    """The painting of a still (engine/still.py), with a progress line when in tiles; a big
    one painted whole (`whole`: why) is said before it starts, and its time after (nothing
    can count its share done)."""
    printer = TilePrinter(src.name, quiet=quiet)
    if whole and not quiet:
        printer.show(f"{src.name}: painting {rgb.shape[1]}x{rgb.shape[0]} whole ({whole}), "
                     "no progress to show...")
    start = time.monotonic()
    try:
        out = paint_still(pipeline, rgb, printer.tiles)
    except BaseException:
        printer.finish()
        raise
    printer.finish(f"{src.name}: painted in {format_seconds(time.monotonic() - start)}"
                   if whole else None)
    return out


class TilePrinter(ProgressPrinter):
    """The video progress line (rewritten on a terminal, plain lines otherwise) counting
    tiles: `photo.jpg: tile 3/12 (25%), ETA 0:41`."""

    def tiles(self, done: int, total: int) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if done == 0:
            self._start = now
        elif done < total and now - self._last < self.interval:
            return
        self._last = now
        text = f"{self.label}: tile {done}/{total} ({100 * done // max(1, total)}%)"
        if 0 < done < total:
            text += f", ETA {format_seconds((now - self._start) / done * (total - done))}"
        self.show(text)
