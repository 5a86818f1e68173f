"""`aquarelle eval flicker INPUT STYLIZED`: temporal coherence of a stylized video."""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from ..engine.errors import AquarelleError, ParamError
from ..eval.border import BorderSurvey
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
    frames = reader.frames()
    return itertools.islice(frames, limit) if limit else frames


def _surveyed(pairs, survey: BorderSurvey):
    """The frame pairs, each shown to `survey` on its way (one decode serves both)."""
    for k, (a, b) in enumerate(pairs):
        survey.see(a, k, b)
        yield a, b


def _video(frames, path: Path, role: str):
    """`frames`, refused where the file holds fewer than two (a still is no video: its
    one frame has nothing to flicker against)."""
    first = list(itertools.islice(frames, 2))
    if len(first) < 2:
        what = "a still (one frame)" if first else "no frames"
        raise ParamError(f"{path} is {what}, given as {role.upper()}: E_warp measures the "
                         f"changes between a video's frames; give the {role} video")
    return itertools.chain(first, frames)


class Misaligned(AquarelleError):
    """The two videos do not show the same frames at the same times."""


def _aligned_pairs(a, b, fps: float):
    """Frame pairs, each checked to be at the same time from the videos' starts (a trimmed
    or re-timed stylization would be compared with the wrong frames), cropped to a common
    size (an encoder may pad or crop odd sizes by one pixel; more is an error)."""
    t0a = t0b = None
    for k, (fa, fb) in enumerate(itertools.zip_longest(a, b)):
        if fa is None or fb is None:
            n = sum(1 for _ in (b if fa is None else a)) + 1
            raise Misaligned(f"the videos have different lengths: the "
                             f"{'stylized video' if fa is None else 'input'} has {n} more "
                             "frame(s); E_warp compares the same frames (--max-frames N "
                             "measures the first N only)")
        t0a = fa.time if t0a is None else t0a
        t0b = fb.time if t0b is None else t0b
        ta, tb = fa.time - t0a, fb.time - t0b
        if abs(ta - tb) > 0.5 / fps:
            raise Misaligned(f"the videos are not aligned: frame {k} is at {ta:.3f} s in the "
                             f"input and {tb:.3f} s in the stylized video (was it trimmed with "
                             "--start or re-timed?); E_warp needs the same frames")
        ia, ib = fa.image, fb.image
        h, w = min(ia.shape[0], ib.shape[0]), min(ia.shape[1], ib.shape[1])
        if max(ia.shape[0], ib.shape[0]) - h > 1 or max(ia.shape[1], ib.shape[1]) - w > 1:
            raise AquarelleError(f"frame sizes differ: input {ia.shape[1]}x{ia.shape[0]}, "
                                 f"stylized {ib.shape[1]}x{ib.shape[0]}")
        yield ia[:h, :w], ib[:h, :w]


def run_flicker(args: argparse.Namespace) -> int:
    if args.max_frames is not None and args.max_frames < 2:
        raise ParamError(f"--max-frames must be at least 2 (a pair of frames), got "
                         f"{args.max_frames}")
    src = VideoReader(args.input)
    try:
        out = VideoReader(args.stylized)
    except BaseException:
        src.close()
        raise
    survey = BorderSurvey()
    try:
        pairs_iter = _surveyed(_aligned_pairs(
            _video(_frames(src, args.max_frames), args.input, "input"),
            _video(_frames(out, args.max_frames), args.stylized, "stylized"),
            src.fps or 30.0), survey)
        first, second = itertools.tee(pairs_iter)
        result = warping_errors((a for a, _ in first), stylized=(b for _, b in second))
    finally:
        src.close()
        out.close()
        survey.release()
    pairs = len(result.errors["input"])
    if pairs == 0:
        raise AquarelleError("need at least two frames in both videos to measure flicker")
    e_in, e_out = result.e_warp("input"), result.e_warp("stylized")
    print(f"frame pairs:       {pairs}")
    print(f"input E_warp:      {e_in:.6f}")
    ratio = f"  ({e_out / e_in:.2f}x the input's)" if e_in > 0 else ""
    print(f"stylized E_warp:   {e_out:.6f}{ratio}")
    print("Lower is steadier. The input's own E_warp is the floor (noise, lighting, flow "
          "errors); a stylization that follows the picture stays near it (Aquarelle's target: "
          "at most 2x), per-frame stylization is typically several times higher.")
    hint = survey.hint()
    if hint:  # only where the stylized video shows a border of bare paper
        print(hint)
    return 0
