"""HDR10's static metadata: the mastering display (SMPTE ST 2086) and the content light levels
(MaxCLL, MaxFALL), read from a video's first frame (an HEVC picture's SEI, or the container's,
which FFmpeg hands on with each frame) and written again where the encoder can: x265, and
x264 builds since 2021, through their own options (FFmpeg's encoders take it from no frame)."""

from __future__ import annotations

import contextlib
import functools
import struct
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import av.error
import numpy as np
from av.sidedata.sidedata import Type

from .orientation import reads_side_data
from .side_data import frame_side_data

# Packets read for the first frame before giving up (a stream that starts undecodable)
FIRST_FRAME_PACKETS = 300

# FFmpeg's AVMasteringDisplayMetadata: the primaries' xy (red, green, blue), the white
# point's, the minimum and maximum luminance (rationals), has_primaries, has_luminance
MASTERING_LAYOUT = struct.Struct("=22i")
LIGHT_LAYOUT = struct.Struct("=2I")  # AVContentLightMetadata: MaxCLL, MaxFALL

Point = tuple[Fraction, Fraction]


@dataclass(frozen=True)
class Mastering:
    """A mastering display: its primaries' and white point's CIE 1931 xy, and its luminance
    range in cd/m2."""

    red: Point
    green: Point
    blue: Point
    white: Point
    max_luminance: Fraction
    min_luminance: Fraction

    def option(self) -> str:
        """As x265's master-display (and x264's mastering-display) takes it: xy in 0.00002
        units, luminance in 0.0001 cd/m2."""
        def xy(p: Point) -> str:
            return f"({round(p[0] * 50000)},{round(p[1] * 50000)})"

        return (f"G{xy(self.green)}B{xy(self.blue)}R{xy(self.red)}WP{xy(self.white)}"
                f"L({round(self.max_luminance * 10000)},{round(self.min_luminance * 10000)})")


@dataclass(frozen=True)
class HDR10:
    """A video's HDR10 metadata: either part may be missing."""

    mastering: Mastering | None = None
    light: tuple[int, int] | None = None  # MaxCLL, MaxFALL in cd/m2

    def describe(self) -> str:
        """What it holds, for messages: "mastering display and light levels"."""
        parts = [what for what, there in (("mastering display", self.mastering),
                                          ("light levels", self.light)) if there]
        return " and ".join(parts)


def hdr10_of(frame: av.VideoFrame) -> HDR10 | None:
    """A decoded frame's HDR10 metadata, None where it has none."""
    mastering = light = None
    for side in frame_side_data(frame):
        data = bytes(side)
        if side.type == Type.MASTERING_DISPLAY_METADATA and len(data) >= MASTERING_LAYOUT.size:
            v = MASTERING_LAYOUT.unpack_from(data)
            # x265 takes a whole display only: primaries and luminance both
            if v[20] and v[21] and all(v[1:20:2]):
                r = [Fraction(v[i], v[i + 1]) for i in range(0, 20, 2)]
                mastering = Mastering((r[0], r[1]), (r[2], r[3]), (r[4], r[5]), (r[6], r[7]),
                                      max_luminance=r[9], min_luminance=r[8])
        elif side.type == Type.CONTENT_LIGHT_LEVEL and len(data) >= LIGHT_LAYOUT.size:
            cll, fall = LIGHT_LAYOUT.unpack_from(data)
            light = (cll, fall) if cll or fall else None
    return HDR10(mastering, light) if mastering or light else None


def read_hdr10(path: Path, index: int) -> HDR10 | None:
    """The HDR10 metadata of stream `index`'s first frame, read apart from any walk (None
    where it has none or nothing decodes)."""
    with contextlib.suppress(av.error.FFmpegError, OSError, ValueError, IndexError), \
            av.open(str(path), metadata_errors="ignore") as c:
        stream = c.streams[index]
        if not reads_side_data(stream.codec_context.name):
            return None  # (a still image codec's: none, and reading it may crash)
        for n, packet in enumerate(c.demux(stream)):
            if n >= FIRST_FRAME_PACKETS:
                break
            try:
                frames = stream.decode(packet)
            except (av.error.FFmpegError, ValueError):
                continue
            if frames:
                return hdr10_of(frames[0])
    return None


# The encoders that write HDR10 metadata: their parameters option, and its names for the
# mastering display and the light levels
HDR10_OPTIONS = {"libx265": ("x265-params", "master-display", "max-cll"),
                 "libx264": ("x264-params", "mastering-display", "cll")}


def writes_hdr10(encoder: str) -> bool:
    """Whether `encoder` writes HDR10 metadata here (x264 ignores the options of a build
    older than them: it is tried once)."""
    if encoder == "libx264":
        return _x264_writes_hdr10()
    return encoder in HDR10_OPTIONS


def hdr10_params(encoder: str, hdr10: HDR10 | None) -> list[str]:
    """The `encoder`'s parameters (HDR10_OPTIONS) that write `hdr10`; none where it cannot."""
    if hdr10 is None or not writes_hdr10(encoder):
        return []
    _, mastering, light = HDR10_OPTIONS[encoder]
    params = [f"{mastering}={hdr10.mastering.option()}"] if hdr10.mastering else []
    if hdr10.light:
        params.append(f"{light}={hdr10.light[0]},{hdr10.light[1]}")
    return params


@functools.lru_cache(maxsize=1)
def _x264_writes_hdr10() -> bool:
    """Whether this FFmpeg's x264 writes a mastering display (a frame encoded and decoded)."""
    probe = Mastering((Fraction(17, 25), Fraction(8, 25)), (Fraction(53, 200), Fraction(69, 100)),
                      (Fraction(3, 20), Fraction(3, 50)), (Fraction(3127, 10000),
                                                           Fraction(329, 1000)),
                      Fraction(1000), Fraction(1, 200))
    try:
        enc = av.CodecContext.create("libx264", "w")
        enc.width, enc.height, enc.pix_fmt = 64, 64, "yuv420p"
        enc.time_base = Fraction(1, 25)
        enc.options = {"x264-params": f"mastering-display={probe.option()}"}
        frame = av.VideoFrame.from_ndarray(np.zeros((64, 64), np.uint8), format="gray")
        frame = frame.reformat(format="yuv420p")
        frame.pts = 0
        packets = [*enc.encode(frame), *enc.encode(None)]
        dec = av.CodecContext.create("h264", "r")
        frames = [f for p in packets for f in dec.decode(p)] + list(dec.decode(None))
    except (av.error.FFmpegError, ValueError):
        return False
    return any(hdr10_of(f) == HDR10(probe) for f in frames)
