"""`aquarelle eval flicker INPUT STYLIZED`: temporal coherence of a stylized video."""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from ..engine.errors import AquarelleError
from ..eval.flicker import warping_errors
from ..media.video_reader import VideoReader


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="measure stylized video quality")
    evsub = p.add_subparsers(dest="metric", metavar="METRIC", required=True)
    f = evsub.add_parser(
        "flicker", help="warping error E_warp (Lai et al. 2018) of a stylized video",
        description="E_warp of STYLIZED along the optical flow (DIS) of INPUT, with occlusion "
                    "masks, RGB in [0,1], mean over frame pairs; printed next to INPUT's own "
                    "E_warp. Lower is steadier.")
    f.add_argument("input", type=Path, help="the original video")
    f.add_argument("stylized", type=Path, help="the stylized video (same frames)")
    f.add_argument("--max-frames", type=int, default=None, help="use only the first N frames")
    f.set_defaults(func=run_flicker)


def _frames(reader: VideoReader, limit: int | None):
    frames = (f.image for f in reader.frames())
    return itertools.islice(frames, limit) if limit else frames


def _common_crop(a, b):
    """Both streams cropped to their common size (an encoder may pad or crop odd sizes by one
    pixel); a larger difference is an error."""
    for fa, fb in zip(a, b, strict=False):
        h, w = min(fa.shape[0], fb.shape[0]), min(fa.shape[1], fb.shape[1])
        if max(fa.shape[0], fb.shape[0]) - h > 1 or max(fa.shape[1], fb.shape[1]) - w > 1:
            raise AquarelleError(f"frame sizes differ: input {fa.shape[1]}x{fa.shape[0]}, "
                                 f"stylized {fb.shape[1]}x{fb.shape[0]}")
        yield fa[:h, :w], fb[:h, :w]


def run_flicker(args: argparse.Namespace) -> int:
    src = VideoReader(args.input)
    try:
        out = VideoReader(args.stylized)
    except BaseException:
        src.close()
        raise
    try:
        pairs_iter = _common_crop(_frames(src, args.max_frames), _frames(out, args.max_frames))
        first, second = itertools.tee(pairs_iter)
        result = warping_errors((a for a, _ in first), stylized=(b for _, b in second))
    finally:
        src.close()
        out.close()
    pairs = len(result.errors["input"])
    if pairs == 0:
        raise AquarelleError("need at least two frames in both videos to measure flicker")
    e_in, e_out = result.e_warp("input"), result.e_warp("stylized")
    print(f"frame pairs:       {pairs}")
    print(f"input E_warp:      {e_in:.6f}")
    ratio = f"  ({e_out / e_in:.2f}x the input's)" if e_in > 0 else ""
    print(f"stylized E_warp:   {e_out:.6f}{ratio}")
    return 0
