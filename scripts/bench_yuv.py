"""A painted frame handed to the encoder: packed into yuv420p on the GPU and read back
(engine/yuv_pack.py) against read back as RGBA and converted by FFmpeg's swscale (the CPU
path), in the same process, on this machine's GL renderer. What the export's render stage
chooses by renderer (a GPU packs; llvmpipe does not, its pass costs more than swscale).

Run: .venv/bin/python scripts/bench_yuv.py [--runs 20] [--write BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
from datetime import date

import av
import moderngl
import numpy as np
from av.video.reformatter import ColorRange, Colorspace

from aquarelle.engine.context import create_headless_context, renderer_string
from aquarelle.engine.yuv_pack import YuvFormat, YuvPacker, packed_bytes
from aquarelle.eval.report import replace_section
from aquarelle.eval.timing import median_ms

SIZES = ((1280, 720), (1920, 1080), (3840, 2160))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--write", metavar="MD", help="put the table into this Markdown file")
    args = ap.parse_args()
    ctx = create_headless_context()
    packer = YuvPacker(ctx)
    rows = []
    for w, h in SIZES:
        rgba = np.random.default_rng(0).integers(0, 256, (h, w, 4), dtype=np.uint8)
        tex = ctx.texture((w, h), 4, rgba.tobytes())
        fmt = YuvFormat()

        def gpu(tex: moderngl.Texture = tex, fmt: YuvFormat = fmt) -> None:
            np.frombuffer(packer.pack(tex, fmt).read(alignment=1), np.uint8)

        def cpu(tex: moderngl.Texture = tex, w: int = w, h: int = h) -> None:
            data = np.frombuffer(tex.read(alignment=1), np.uint8).reshape(h, w, 4)
            av.VideoFrame.from_ndarray(data, format="rgba").reformat(
                format="yuv420p", dst_colorspace=Colorspace.ITU709,
                dst_color_range=ColorRange.MPEG)

        g, c = median_ms(gpu, args.runs), median_ms(cpu, args.runs)
        rows.append(f"| {w}x{h} | {g:.2f} | {packed_bytes((w, h)) / 1e6:.1f} | {c:.2f} | "
                    f"{w * h * 4 / 1e6:.1f} | x{c / g:.2f} |")
        tex.release()
    packer.release()
    md = "\n".join([
        f"Command: `.venv/bin/python scripts/bench_yuv.py --write BENCHMARKS.md` "
        f"({date.today()}), {renderer_string(ctx)}, median of {args.runs}.", "",
        "| frame | GPU pack + readback ms | MB read | RGBA readback + swscale ms | MB read | "
        "CPU path / GPU path |",
        "|---|---:|---:|---:|---:|---:|", *rows])
    print(md)
    if args.write:
        replace_section(args.write, "yuv", md,
                        "## Colour conversion for the encoder (issue 30, item 3)")
    ctx.release()


if __name__ == "__main__":
    main()
