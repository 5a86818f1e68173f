"""The video codecs and containers written, by name (no PyAV): what each `--codec` is
encoded with, the containers that hold it, the speed presets, the GPU encoders tried and
the --encoder/--decoder choices. video_writer.py, hw_encoders.py and hw_decoders.py encode
and decode with them (and re-export them); the command line's parser only names them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import MediaError


@dataclass(frozen=True)
class CodecSpec:
    """How one `--codec` choice is encoded."""

    name: str
    encoder: str
    pix_fmt: str
    default_crf: int | None  # None: the codec has no CRF (ProRes)
    max_crf: int
    containers: frozenset[str]
    subsampling: tuple[int, int]  # chroma subsampling (x, y): sizes must be multiples
    deep_pix_fmt: str | None = None  # 10 bits (H.265 Main 10, VP9 profile 2); None: 8 only
    profile: str | None = None  # the encoder's `profile` option (prores_ks'), if it takes one


CODECS: dict[str, CodecSpec] = {
    "h264": CodecSpec("h264", "libx264", "yuv420p", 18, 51,
                      frozenset({"mp4", "ipod", "mov", "matroska"}), (2, 2)),
    "h265": CodecSpec("h265", "libx265", "yuv420p", 22, 51,
                      frozenset({"mp4", "mov", "matroska"}), (2, 2), "yuv420p10le"),
    "vp9": CodecSpec("vp9", "libvpx-vp9", "yuv420p", 31, 63,
                     frozenset({"webm", "matroska", "mp4"}), (2, 2), "yuv420p10le"),
    "prores": CodecSpec("prores", "prores_ks", "yuv422p10le", None, 0,
                        frozenset({"mov", "matroska"}), (2, 1), "yuv422p10le", "standard"),
}
# x264/x265 presets, fastest to smallest; VP9's cpu-used follows them.
SPEEDS = ("ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
          "veryslow")
# .m4v is Apple's MP4 (FFmpeg's "ipod" muxer: the M4V brand Apple's players look for), which
# holds H.264 video and AAC, ALAC or AC-3 sound only
CONTAINERS = {".mp4": "mp4", ".m4v": "ipod", ".mov": "mov", ".mkv": "matroska",
              ".webm": "webm"}
# QuickTime's family: edit lists, a sample's duration kept as the step to the next decode
# time, the index moved to the front (faststart), handler names, iTunes' tags
ISO_FORMATS = frozenset({"mp4", "ipod", "mov"})
DEFAULT_CODEC = {"webm": "vp9"}
EXTENSION_FOR_CODEC = {"h264": ".mp4", "h265": ".mp4", "vp9": ".webm", "prores": ".mov"}

# The GPU encoders tried, in order, for each --codec (their FFmpeg names; hw_encoders.py).
HARDWARE: dict[str, tuple[str, ...]] = {
    "h264": ("h264_nvenc", "h264_qsv", "h264_amf", "h264_videotoolbox", "h264_mf"),
    "h265": ("hevc_nvenc", "hevc_qsv", "hevc_amf", "hevc_videotoolbox", "hevc_mf"),
}
# The encoders that keep a full-range (0-255, "pc") source so: their bitstream says so
# (H.264's and H.265's VUI, VP9's colour config) and FFmpeg reads it back. ProRes has no
# such flag (FFmpeg's decoder reads limited range whatever a .mkv's tag says); the GPU
# encoders are left out until checked on one. The others write limited range (16-235).
FULL_RANGE_ENCODERS = frozenset({"libx264", "libx265", "libvpx-vp9"})
# --encoder and --decoder: a GPU's where one works here, software only, or a GPU's only
DEVICE_CHOICES = ("auto", "software", "hardware")


def output_format(path: str | Path, codec: str | None = None) -> tuple[str, CodecSpec]:
    """The container format and codec for an output path (`codec` None: by extension)."""
    ext = Path(path).suffix.lower()
    fmt = CONTAINERS.get(ext)
    if fmt is None:
        raise MediaError(f"unsupported video output format {ext or '(none)'} for {path}; "
                         f"use one of {', '.join(sorted(CONTAINERS))}")
    name = (codec or DEFAULT_CODEC.get(fmt, "h264")).lower()
    spec = CODECS.get(name)
    if spec is None:
        raise MediaError(f"unknown codec {codec!r}; use one of {', '.join(CODECS)}")
    if fmt not in spec.containers:
        allowed = sorted(e for e, f in CONTAINERS.items() if f in spec.containers)
        raise MediaError(f"codec {name} cannot go into {ext} files; use {', '.join(allowed)}")
    return fmt, spec
