"""Hardware video decoders: the GPU's decoder (NVDEC through CUDA, VAAPI, VideoToolbox,
Direct3D 11) where PyAV's FFmpeg has the device type and it decodes the file here, chosen
automatically, with the software decoder as the fallback and the reason it was needed.

A device is tried on the file itself (open, decode the first frame of its main video
stream, without FFmpeg's own silent fallback), so a device that is built in but has no
driver, or a stream the GPU's decoder does not take (a 4:4:4 or 10-bit profile, a codec it
lacks), falls back before the export starts, and the export can say which decoder it used.
Past the probe FFmpeg may still fall back, frame by frame, rather than lose frames. The
frames a GPU's decoder gives (NV12, P010) are repacked into the software decoder's planar
layout before they are turned into RGB, so both paths give the same pictures.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from av.codec.hwaccel import HWAccel, hwdevices_available

from ..platforms import current_video_decoder_devices
from .codecs import DEVICE_CHOICES as CHOICES  # as the encoder's: auto, software, hardware
from .errors import ffmpeg_reason

# A GPU decoder's semi-planar frames and the software decoder's planar layout of the same
# samples (a repack: no value changes)
SOFTWARE_LAYOUT = {"nv12": "yuv420p", "p010le": "yuv420p10le", "p016le": "yuv420p16le",
                   "nv16": "yuv422p", "p210le": "yuv422p10le"}


@dataclass(frozen=True)
class DecoderChoice:
    """The decoder an export reads with, and why (a line for progress output and `doctor`)."""

    codec: str  # the stream's codec, e.g. "h264"
    device: str | None = None  # the hardware device type, e.g. "cuda"; None: software
    why: str = ""  # for the software one in auto: why no hardware decoder was used

    @property
    def hardware(self) -> bool:
        return self.device is not None

    def hwaccel(self) -> HWAccel | None:
        """What av.open is given to decode on the device (None: software); FFmpeg falls
        back to software for what the device cannot take past the probed first frame."""
        return None if self.device is None else HWAccel(self.device,
                                                        allow_software_fallback=True)

    def describe(self) -> str:
        if self.device is not None:
            return f"{self.codec} on {self.device} (hardware)"
        return f"{self.codec} (software{': ' + self.why if self.why else ''})"


def devices() -> tuple[str, ...]:
    """The device types tried on this platform that this FFmpeg was built with."""
    built = set(hwdevices_available())
    return tuple(d for d in current_video_decoder_devices() if d in built)


def probe(source: str | Path | io.BytesIO, device: str, stream: int = 0) -> str | None:
    """None when `device` decodes the first frame of `source`'s video stream `stream` (its
    index among the video streams), else why not (one line)."""
    if isinstance(source, io.BytesIO):
        source.seek(0)
    try:
        with av.open(source if isinstance(source, io.BytesIO) else str(source), mode="r",
                     hwaccel=HWAccel(device, allow_software_fallback=False)) as c:
            next(c.decode(video=stream))
    except StopIteration:
        return "no frame decoded"
    except (av.error.FFmpegError, RuntimeError, ValueError, OSError) as e:
        return ffmpeg_reason(e)
    return None


def choose(source: str | Path, codec: str, want: str = "auto", *, stream: int = 0,
           tried: tuple[str, ...] | None = None) -> DecoderChoice:
    """The decoder for `source`'s video stream `stream` (its codec `codec`): `auto` the first
    device that decodes it here, else software; `hardware` refuses to fall back (a ValueError
    saying why each failed); `software` never tries. `tried` replaces devices() (tests)."""
    if want not in CHOICES:
        raise ValueError(f"--decoder must be one of {', '.join(CHOICES)}, got {want!r}")
    if want == "software":
        return DecoderChoice(codec)
    candidates = devices() if tried is None else tried
    failures = []
    for device in candidates:
        reason = probe(source, device, stream)
        if reason is None:
            return DecoderChoice(codec, device)
        failures.append(f"{device}: {reason}")
    why = "; ".join(failures) if failures else "none in this FFmpeg"
    if want == "hardware":
        raise ValueError(f"no hardware decoder for {codec} works here ({why})")
    return DecoderChoice(codec, None, "no hardware decoder" if failures else why)


def as_software_layout(frame: av.VideoFrame) -> av.VideoFrame:
    """A GPU decoder's frame in the software decoder's layout (see SOFTWARE_LAYOUT)."""
    layout = SOFTWARE_LAYOUT.get(frame.format.name)
    return frame if layout is None else frame.reformat(format=layout)


def _sample_clip() -> io.BytesIO:
    """A 3-frame H.264 clip in memory, for `doctor`'s question to each device."""
    buf = io.BytesIO()
    with av.open(buf, "w", format="mp4") as out:
        s = out.add_stream("libx264", rate=30)
        s.width, s.height, s.pix_fmt = 128, 96, "yuv420p"
        for i in range(3):
            f = av.VideoFrame.from_ndarray(np.full((96, 128, 3), 40 * i, np.uint8),
                                           format="rgb24")
            f.pts, f.time_base = i, Fraction(1, 30)
            out.mux(s.encode(f))
        out.mux(s.encode(None))
    return buf


def said() -> dict[str, str | None]:
    """What each device type tried here says of an H.264 clip (None: it decodes it)."""
    found = devices()
    clip = _sample_clip() if found else None
    return {d: probe(clip, d) for d in found} if clip is not None else {}


def report(answers: dict[str, str | None] | None = None) -> str:
    """said()'s answers in one line."""
    answers = said() if answers is None else answers
    if not answers:
        return "none in this FFmpeg build"
    return "; ".join(f"{d} works" if why is None else f"{d}: {why}"
                     for d, why in answers.items())
