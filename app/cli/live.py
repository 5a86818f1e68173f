"""`aquarelle live`: a camera (or a file, looped) painted live without a window, optionally
sent to a virtual camera for video calls, until Ctrl+C."""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from ..engine.context import create_headless_context
from ..engine.errors import ParamError
from ..engine.fit import FIT_MODES
from ..engine.renderer import Renderer
from ..engine.style_stage import MIN_SCALE
from ..media import virtual_camera
from ..media.errors import MediaError
from ..media.file_source import VideoFileSource
from ..media.live import LIVE_FPS_RANGE, LiveOptions, LiveSession, LiveStats
from ..media.source import FrameSource
from ..media.sources import SyntheticSource, open_source
from ..media.virtual_camera import VirtualCameraSink
from ..media.webcam import CameraSource, camera_device_problem, list_cameras
from .common import (
    add_style_options,
    counted,
    float_rate,
    in_range,
    parse_frame_size,
    positive,
    resolve_look,
)

SYNTHETIC_SIZE = (640, 360)  # `--input synthetic` without --size: a webcam's picture


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "live", help="paint a camera live; send it to a virtual camera for video calls",
        description="Paint a camera (or a video file, looped) live, without a window, until "
                    "Ctrl+C. With --virtual-camera the painted picture goes to the system's "
                    "virtual camera (v4l2loopback on Linux, OBS Virtual Camera on Windows "
                    "and macOS), which Zoom, Meet, Teams, OBS and Discord can pick.")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--camera", metavar="N", help="camera index or device (default 0)")
    src.add_argument("--input", metavar="FILE", help="a video file instead of a camera "
                     "(played at its rate, looped), or `synthetic` (a test picture made at "
                     "--size, else 640x360)")
    p.add_argument("--virtual-camera", action="store_true",
                   help="send the painted picture to the virtual camera")
    add_style_options(p)
    p.add_argument("--size", metavar="WxH",
                   help="output size (default: the source's); the picture keeps its aspect")
    p.add_argument("--fit", choices=FIT_MODES, default="pad",
                   help="when the output's aspect differs: pad (bars) or crop (fill)")
    p.add_argument("--fps", type=float_rate,
                   help="output frame rate, and the most a file or `synthetic` is played at "
                        "(default: the source's, at most 30); adaptive quality holds this "
                        "rate, or the source's where it is lower")
    p.add_argument("--camera-size", metavar="WxH", help="ask the camera for this resolution")
    p.add_argument("--mirror", action="store_true", help="mirror the picture (selfie view)")
    p.add_argument("--no-adaptive", dest="adaptive", action="store_false",
                   help="keep the processing scale fixed (default: lower it to hold the "
                        "frame rate)")
    p.add_argument("--min-scale", type=float, default=0.3,
                   help="the lowest processing scale adaptation may choose (default 0.3)")
    p.add_argument("--seconds", type=float, help="stop after this long (default: Ctrl+C)")
    p.add_argument("--max-frames", type=int, metavar="N", help="stop after N painted frames")
    p.set_defaults(func=run)


def _source(args: argparse.Namespace, size: tuple[int, int] | None) -> FrameSource:
    """The source the options name; `synthetic` is made at the output's --size (`size`),
    else at a webcam's 640x360 (it was 64x48, which --size only enlarged)."""
    camera_size = parse_frame_size(args.camera_size, "--camera-size") \
        if args.camera_size else None
    if args.input:
        if camera_size:
            raise ParamError("--camera-size applies to cameras, not to --input")
        if args.input == "synthetic":
            return SyntheticSource(size or SYNTHETIC_SIZE, live=True)
        source = open_source(args.input, paced=True, loop=True)
        if isinstance(source, VideoFileSource):
            source.stamp_due = True  # latency: from a frame coming due to its painting
        return source
    check_camera(args.camera or "0", args.virtual_camera)
    return CameraSource(args.camera or 0, size=camera_size, fps=args.fps)


def check_camera(device: str, sending: bool) -> None:
    """Say plainly that the camera is not found (a name that is no camera's; where cameras
    are device files, Linux, a missing one), refused, or the virtual camera itself
    (`sending` to it); OpenCV only says it failed."""
    problem = camera_device_problem(device)
    name = f"camera {device}" if device.isdigit() else "camera"
    if problem is not None and problem.unknown:
        raise MediaError(f"camera {device} not found: {problem.text}; {_cameras_here()}")
    if problem is not None and problem.missing:
        raise MediaError(f"no {name}: {problem.text}; {_cameras_here()}")
    if problem is not None:
        raise MediaError(f"cannot open {name}: {problem.text}")
    path = virtual_camera.DEV / f"video{device}" if device.isdigit() else Path(device)
    if sending and path in {d.path for d in virtual_camera.loopback_devices() or []}:
        raise ParamError(f"{name} ({path}) is the virtual camera itself, which "
                         f"--virtual-camera sends to; {_cameras_here()}")


def _cameras_here() -> str:
    """The cameras to pick from instead (or that there are none), and the file fallback."""
    loopbacks = {d.path for d in virtual_camera.loopback_devices() or []}
    cams = [c for c in list_cameras(virtual_camera.DEV, virtual_camera.SYS_VIDEO)
            if Path(c.path) not in loopbacks]
    listed = ", ".join(f"--camera {c.index} ({c.name})" for c in cams)
    return (f"cameras here: {listed}" if cams else "no camera is connected") + \
        "; to paint a video file instead: --input FILE (or --input synthetic, a test picture)"


def options(args: argparse.Namespace) -> LiveOptions:
    """The session's options from the command line (checked: one line if wrong)."""
    size = parse_frame_size(args.size, "--size") if args.size else None
    if args.fps is not None:
        in_range(args.fps, *LIVE_FPS_RANGE, "--fps", " for a live picture")
    if args.seconds is not None:
        positive(args.seconds, "--seconds")
    if args.max_frames is not None:
        positive(args.max_frames, "--max-frames")
    if not MIN_SCALE <= args.min_scale <= 1.0:
        raise ParamError(f"--min-scale must be between {MIN_SCALE} and 1, got "
                         f"{args.min_scale:g}")
    return LiveOptions(size=size, fps=args.fps, fit=args.fit, mirror=args.mirror,
                       adaptive=args.adaptive, min_scale=min(args.min_scale, args.scale),
                       scale=args.scale)


def run(args: argparse.Namespace) -> int:
    look = resolve_look(args)
    style, values = look.style, look.values
    opts = options(args)
    if args.virtual_camera:
        virtual_camera.check_device()  # before the camera: fix this first, it may add one
    source = _source(args, opts.size)
    ctx = create_headless_context()
    try:
        with Renderer(ctx, style, seed=args.seed, scale=args.scale) as pipeline:
            pipeline.set_params(values)
            # The session opens the sink once the source's size and rate are known
            # (VirtualCameraError: one line, exit 2).
            session = LiveSession(source, pipeline, opts,
                                  sink_factory=VirtualCameraSink if args.virtual_camera
                                  else None)
            stop = threading.Event()
            try:
                stats = session.run(stop, seconds=args.seconds, on_status=_print_status,
                                    max_frames=args.max_frames)
            except KeyboardInterrupt:
                stats = session.snapshot()
            if sys.stderr.isatty():  # end the status line that \r kept rewriting
                print(file=sys.stderr)
            print(f"aquarelle: live: {counted(stats.rendered, 'frame')} in "
                  f"{stats.seconds:.1f} s: "
                  f"{stats.line()}", file=sys.stderr)
    finally:
        ctx.release()
    return 0


def _print_status(stats: LiveStats) -> None:
    end = "\r" if sys.stderr.isatty() else "\n"
    print(f"live: {stats.line()}", end=end, file=sys.stderr, flush=True)
