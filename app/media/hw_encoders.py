"""Hardware video encoders: which of the GPU's encoders FFmpeg (through PyAV) offers and
opens here, chosen automatically for H.264 and H.265, with the software encoder as the
fallback and the reason it was needed.

An encoder is tried once per process on a tiny picture (open, encode a frame, flush): one
that is built in but has no device or driver (NVENC without an NVIDIA driver, Quick Sync
without an Intel GPU) fails there, not in the middle of an export. VAAPI is left out: it
takes frames uploaded to GPU surfaces, not the system-memory frames the writer hands over.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import av
import numpy as np

from .codecs import DEVICE_CHOICES as CHOICES
from .codecs import HARDWARE  # the encoders tried, in order, for each --codec
from .errors import ffmpeg_reason

_PROBE_SIZE = (256, 144)


@dataclass(frozen=True)
class EncoderChoice:
    """The encoder an export uses, and why (a line for progress output and `doctor`)."""

    name: str  # FFmpeg's encoder name, e.g. "h264_nvenc" or "libx264"
    hardware: bool
    why: str = ""  # for the software one in auto: why no hardware encoder was used

    def describe(self) -> str:
        if self.hardware:
            return f"{self.name} (hardware)"
        return f"{self.name} (software{': ' + self.why if self.why else ''})"


def pixel_format(encoder: str) -> str:
    """The 8-bit 4:2:0 layout a hardware encoder takes (Quick Sync wants NV12)."""
    return "nv12" if encoder.endswith("_qsv") else "yuv420p"


def quality_options(encoder: str, crf: int, speed_index: int) -> dict[str, str]:
    """A hardware encoder's options for a --crf and a speed (0 fastest .. 8 slowest, as
    x264's presets): constant quality, as the software encoders are run."""
    crf = max(1, crf)  # 0 reads as "unset" to NVENC and Quick Sync
    if encoder.endswith("_nvenc"):
        preset = f"p{min(7, 1 + speed_index * 6 // 8)}"  # p1 fastest .. p7 best
        return {"rc": "vbr", "cq": str(crf), "b": "0", "preset": preset}
    if encoder.endswith("_qsv"):
        names = ("veryfast", "veryfast", "veryfast", "faster", "fast", "medium", "slow",
                 "slower", "veryslow")
        return {"global_quality": str(crf), "preset": names[speed_index]}
    if encoder.endswith("_amf"):
        return {"rc": "cqp", "qp_i": str(crf), "qp_p": str(crf), "qp_b": str(crf)}
    if encoder.endswith("_videotoolbox"):
        # constant quality (Apple silicon): ffmpeg's -q:v, 1-100 higher better, in lambda units
        return {"flags": "+qscale", "global_quality": str(max(1, 100 - 2 * crf) * 118)}
    if encoder.endswith("_mf"):  # the GPU's encoder only: never Windows' software one
        return {"hw_encoding": "1", "rate_control": "quality",
                "quality": str(max(1, 100 - 2 * crf))}
    return {}


@functools.cache
def probe(encoder: str, pix_fmt: str = "yuv420p",
          size: tuple[int, int] = _PROBE_SIZE) -> str | None:
    """None when `encoder` opens and encodes a frame of `size` here, else why not (one
    line). An export probes at its own size: a GPU's encoder has a largest frame."""
    if encoder not in av.codecs_available:
        return "not in this FFmpeg"
    try:
        cc = av.CodecContext.create(encoder, "w")
        cc.width, cc.height = size
        cc.pix_fmt = pix_fmt
        cc.time_base = Fraction(1, 30)
        cc.options = quality_options(encoder, 23, 5)
        cc.open()
        frame = av.VideoFrame.from_ndarray(np.zeros((size[1], size[0], 3), np.uint8),
                                           format="rgb24")
        frame = frame.reformat(format=pix_fmt)
        frame.pts = 0
        cc.encode(frame)
        cc.encode(None)
    except (av.error.FFmpegError, ValueError, OSError) as e:
        return ffmpeg_reason(e)
    return None


def choose(codec: str, software: str, want: str = "auto", *,
           tried: tuple[str, ...] | None = None,
           size: tuple[int, int] = _PROBE_SIZE) -> EncoderChoice:
    """The encoder for `codec` (its software encoder `software`): `auto` the first hardware
    one that works here, else the software one; `hardware` refuses to fall back (a
    ValueError saying why each failed); `software` never tries. `tried` replaces HARDWARE's
    list (tests); `size`: the frames' (even) size."""
    if want not in CHOICES:
        raise ValueError(f"--encoder must be one of {', '.join(CHOICES)}, got {want!r}")
    candidates = HARDWARE.get(codec, ()) if tried is None else tried
    if want == "software":
        return EncoderChoice(software, False)
    failures = []
    for name in candidates:
        reason = probe(name, pixel_format(name), size)
        if reason is None:
            return EncoderChoice(name, True)
        failures.append(f"{name}: {reason}")
    why = "; ".join(failures) if failures else f"none for {codec}"
    if want == "hardware":
        raise ValueError(f"no hardware encoder for {codec} works here ({why})")
    return EncoderChoice(software, False, "no hardware encoder" if failures else why)


def said(codec: str) -> dict[str, str | None]:
    """What each of a codec's hardware encoders says here (None: it works)."""
    return {name: probe(name, pixel_format(name)) for name in HARDWARE[codec]}


def report(codecs: tuple[str, ...] = ("h264", "h265")) -> list[str]:
    """A line per codec: each hardware encoder and what it says."""
    return [f"{codec}: " + "; ".join(f"{n} works" if why is None else f"{n}: {why}"
                                     for n, why in said(codec).items()) for codec in codecs]
