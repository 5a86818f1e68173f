"""The video options of `aquarelle render` (codec, quality, size, range, rate, streams,
speed), its folder and cluster options, and their value parsers; render_job.py turns them
into the job. Nothing here imports PyAV: a still's render reads these too."""

from __future__ import annotations

import argparse
import string

import numpy as np

from ..engine.errors import AquarelleError
from ..engine.renderer import MAX_VIDEO_LINES, MIN_VIDEO_LINES, VIDEO_LINES
from ..media.codecs import CODECS, CONTAINERS, DEVICE_CHOICES, SPEEDS
from ..media.image_formats import WRITE_EXTENSIONS
from ..media.image_types import MAX_PIXELS
from .common import frame_rate

VIDEO_HELP = """\
Videos: every frame is stylized and written with its original timestamp (variable frame
rates are kept), upright (rotation metadata applied), with the audio streams copied
unchanged, or transcoded (16- and 24-bit PCM and ALAC to FLAC in .mkv/.mp4; else AAC, Opus
for .webm) when the output format cannot hold their codec, each with its language, title
and default/forced flags. Subtitles are copied, or converted to the output's text format
(mov_text in .mp4/.mov, WebVTT in .webm); picture subtitles only .mkv holds (a warning
names any left out). Chapters, the file's tags (title, comment...) and its cover picture
(in .mp4 and .mkv) are kept (--no-subtitles, --no-metadata drop subtitles, tags, chapters,
cover). A 10-bit source stays 10-bit: without --codec it is written in its own codec
where the output holds it and it keeps 10 bits here (HEVC as h265, ProRes in .mov/.mkv,
VP9 with a 10-bit libvpx), else h265 Main 10 (the closing line says why); --codec h264
writes it 8-bit (a warning says so). A ProRes source keeps its profile (4444, HQ...) with
--codec prores. HDR tags (BT.2020, PQ/HLG) are carried, and HDR10's mastering display and
light levels with h265 (h264 where its x264 writes them; a warning names what another
codec leaves out). Output formats: .mp4 .mov .mkv (h264, h265; vp9 in .mp4/.mkv;
prores in .mov/.mkv), .m4v (Apple's: h264, its sound AAC, ALAC or AC-3, others made AAC),
.webm (vp9), and pictures: .gif and frames/%04d.png (a warning names
the sound, subtitles and tags they leave out; a 10-bit video's PNG or TIFF frames are
16-bit). Odd sizes: H.264/H.265/VP9
store 4:2:0 colour and ProRes 4:2:2 (4:4:4 from a 4444 source), which need an even width
(and height for 4:2:0), so an odd-sized picture is padded by repeating its last
column/row (e.g. 641x361 is written as 642x362; no pixel is lost; a warning names colour
resolution lost, e.g. a 4:4:4 source written 4:2:0). A second video stream is left out (a
warning says so). A video whose end is corrupt or truncated is rendered up to the last
decodable frame (its subtitles and chapters cut there), with a warning saying how many frames are
missing (exit status 0); an MP4/MOV cut short before its index cannot be read at all (one
line says so). Untagged
video is read as players read it: BT.709 from 720 lines or 1280 columns, else BT.601.
--start/--end cut the video at frames and copied audio at its packet boundaries (up to a
packet off: about 20 ms for AAC and Opus, up to about 100 ms for FLAC; transcoded audio to
the sample; an audio stream with no sound in the range is not written, and said); the
output's clock starts at --start, with the frame on screen there held until the next (as
an editor's cut starts; the frames after it keep their distance, in step with the sound).
Several inputs or a folder
with -o FOLDER render each file, continue past failures, print a summary, and exit with
status 2 if any failed; a cancelled batch says which files it wrote. Nothing is ever left
half-written: on error or Ctrl+C the output is removed."""

VIDEO_FORMATS = tuple(sorted(e.lstrip(".") for e in CONTAINERS))  # --format for videos
STILL_FORMATS = tuple(sorted(e.lstrip(".") for e in WRITE_EXTENSIONS))  # and for stills
NAME_TEMPLATE = "{stem}"  # --name's default: the input's own name
NAME_FIELDS = ("stem", "ext")  # the fields --name takes, plain (no .attr, [i], !r or :spec)
# a video's frames are at most this many pixels a side (media/export.py's check_options)
MAX_VIDEO_SIDE = 16384
LOCAL_CLUSTER = "local"  # --cluster without an address: a local Ray started for the render
CHUNK_SECONDS = 30.0  # --chunk's default: the length of a video's pieces on a cluster


def add_arguments(p: argparse.ArgumentParser) -> None:
    """--size (stills and videos), then the video-only and folder options of `render`."""
    p.add_argument("--size", metavar="WxH",
                   help="the size the input is resized to before painting (a still or a "
                        "video's frames); -1 for one side keeps the aspect ratio (e.g. "
                        "1280x-1). It is the size shown: non-square pixels (DV, HDV) are made "
                        "square. Styles that enlarge multiply it: upscale by its factor (2 by "
                        "default), stereo's side-by-side output doubles the width. "
                        f"At most {MAX_PIXELS // 1_000_000} MP (a "
                        f"video's frames {MAX_VIDEO_SIDE} px a side)")
    g = p.add_argument_group("video options")
    g.add_argument("--codec", metavar="{" + ",".join(CODECS) + "}",
                   help="video codec (default: h264, vp9 for .webm; for a source of more "
                        "than 8 bits one that keeps 10: its own, else h265)")
    g.add_argument("--crf", type=int, metavar="N",
                   help="constant quality: lower is better and bigger (default 18 for h264, "
                        "22 for h265, 31 for vp9; not used by prores)")
    g.add_argument("--start", metavar="T", help="start time (seconds, or [HH:]MM:SS[.ms]), "
                   "counted from the video's first frame, as the window's time counts")
    g.add_argument("--end", metavar="T", help="end time (exclusive), same forms as --start")
    g.add_argument("--no-audio", action="store_true", help="drop the audio streams")
    g.add_argument("--no-subtitles", action="store_true", help="drop the subtitle streams")
    g.add_argument("--no-metadata", action="store_true",
                   help="drop the tags (title, languages, track names...), chapters and "
                        "the cover picture; a still's EXIF (GPS location, camera, dates)")
    g.add_argument("--fps", type=frame_rate, metavar="RATE",
                   help="a new constant frame rate, a number or a fraction (30000/1001): "
                        "frames are repeated or left out (the default keeps every frame with "
                        "its own timestamp); an image sequence's own rate, every frame kept "
                        "(25 without it)")
    g.add_argument("--speed", choices=SPEEDS, metavar="PRESET",
                   help="encoder speed preset (x264/x265 names: ultrafast ... veryslow; "
                        "default medium): faster encodes give bigger files at the same --crf")
    g.add_argument("--encoder", choices=DEVICE_CHOICES,
                   help="h264/h265 on the GPU's encoder (NVENC, Quick Sync, AMF, VideoToolbox, "
                        "Media Foundation): auto uses one where it works here, else the "
                        "software encoder (the default); hardware insists; software never "
                        "tries (`aquarelle doctor` lists them)")
    g.add_argument("--decoder", choices=DEVICE_CHOICES,
                   help="decode the input on the GPU's decoder (NVDEC, VAAPI, "
                        "VideoToolbox, Direct3D 11): auto uses it where it decodes the file "
                        "here, else the software decoder (the default; the same frames either "
                        "way); hardware insists; software never tries")
    g.add_argument("--video-lines", type=int, metavar="N",
                   help=f"paint a video's frames at most N lines (their short side) and lay "
                        f"the paper, its grain and dither at the full size (the watercolor; "
                        f"the look follows a 720-line frame, so a 4K video painted at 1080 "
                        f"lines looks the same at a third of the cost); default "
                        f"{VIDEO_LINES}; 0 paints every line; else {MIN_VIDEO_LINES} to "
                        f"{MAX_VIDEO_LINES}")
    b = p.add_argument_group("folder options (-o FOLDER: several inputs, a folder of them, "
                             "or one input)")
    b.add_argument("-r", "--recursive", action="store_true",
                   help="also render the media in subfolders (the tree is kept in -o); "
                        "symlinked subfolders are followed, but not one to a folder walked "
                        "elsewhere or above (a loop): named as skipped, as are broken links; "
                        "a subfolder that cannot be read is named in a warning")
    b.add_argument("--format", metavar="EXT", action="append", type=str.lower,
                   choices=VIDEO_FORMATS + STILL_FORMATS,
                   help="the format of the files written, for the kind it names: a container "
                        "for the videos (" + ", ".join(VIDEO_FORMATS) + "; default: by "
                        "--codec, mp4), an image format for the stills (" +
                        ", ".join(STILL_FORMATS) + "; default: each its own, PNG for a "
                        "one-frame GIF, JPEG for HEIF); the other kind keeps its default; "
                        "give it twice for both (--format png --format mkv)")
    b.add_argument("--name", metavar="TEMPLATE", default=NAME_TEMPLATE,
                   help="output file name; {stem} is the input's name without extension, "
                        "{ext} its extension (default {stem}); the format's extension is "
                        "added, unless the template ends with one ({stem}.png): used where "
                        "that input's kind is written so (a still as an image, a video in a "
                        "container), else refused")
    p.epilog = ((p.epilog + "\n\n") if p.epilog else "") + VIDEO_HELP
    p.formatter_class = argparse.RawDescriptionHelpFormatter


def add_cluster_arguments(p: argparse.ArgumentParser) -> None:
    """The cluster options of `render` (render_cluster.py runs them)."""
    g = p.add_argument_group("cluster options (videos and folders on a Ray cluster)")
    g.add_argument("--cluster", nargs="?", const=LOCAL_CLUSTER, metavar="ADDRESS",
                   help="render videos in chunks on a Ray cluster: ray://HOST:PORT or auto "
                        "joins one; without an address a local Ray is started (needs "
                        "pip install 'aquarelle[cluster]')")
    g.add_argument("--chunk", type=float, default=CHUNK_SECONDS, metavar="SECONDS",
                   help="length of the pieces a video is cut into, at keyframes (default 30)")
    g.add_argument("--resume", action="store_true",
                   help="keep the chunks an interrupted --cluster run finished (its work "
                        "folder's manifest) and render only the rest")
    g.add_argument("--work-dir", metavar="FOLDER",
                   help="where chunk files go: a folder every node can read and write "
                        "(default: next to the output)")


def parse_time(text: str | None, option: str) -> float | None:
    """Seconds from `12.5`, `1:02.5` or `1:00:02`; a malformed value is an error."""
    if text is None:
        return None
    parts = text.strip().split(":")
    try:
        if len(parts) > 3 or any(not p.strip() for p in parts):
            raise ValueError
        values = [float(p) for p in parts]
    except ValueError:
        raise AquarelleError(f"{option} expects seconds or [HH:]MM:SS, got {text!r}") from None
    seconds = 0.0
    for v in values:
        seconds = seconds * 60 + v
    if seconds < 0:
        raise AquarelleError(f"{option} must not be negative, got {text!r}")
    return seconds


def parse_codec(name: str | None) -> str | None:
    """--codec: one of CODECS (any case); an unknown one is an error for any input, as it is
    for a video (a known codec given for an image is only warned about)."""
    if name is not None and name.lower() not in CODECS:
        raise AquarelleError(f"unknown codec {name!r}; use one of {', '.join(CODECS)}")
    return name


def parse_size(text: str | None) -> tuple[int, int] | None:
    """(W, H) from `WxH`; -1 keeps the aspect ratio. A picture of more than MAX_PIXELS (the
    most aquarelle decodes) is refused here, before any file is read."""
    if text is None:
        return None
    w, sep, h = text.lower().partition("x")
    try:
        size = (int(w), int(h))
        if not sep or any(v == 0 or v < -1 for v in size) or size == (-1, -1):
            raise ValueError
    except ValueError:
        raise AquarelleError(f"--size expects WIDTHxHEIGHT with positive numbers, -1 for one "
                             f"side to keep the aspect ratio (e.g. 1280x720 or 1280x-1), got "
                             f"{text!r}") from None
    check_pixels(size)
    return size


def check_pixels(size: tuple[int, int], src: str = "",
                 given: tuple[int, int] | None = None) -> None:
    """A --size (resolved, or with both sides given) whose picture is more than MAX_PIXELS
    is refused in one line naming the limit (`src`: the input a -1 side of the size
    `given` was resolved against)."""
    w, h = size
    if w > 0 and h > 0 and w * h > MAX_PIXELS:
        asked = f"{given[0]}x{given[1]} gives {w}x{h} for {src}" \
            if given is not None and given != size else f"{w}x{h}"
        raise AquarelleError(f"--size {asked}: {w * h / 1e6:.0f} MP, more than the "
                             f"{MAX_PIXELS // 1_000_000} MP aquarelle paints; give a smaller "
                             "size")


def check_video_size(size: tuple[int, int] | None, src: str = "",
                     given: tuple[int, int] | None = None) -> None:
    """A --size a video's frames cannot have (a side over MAX_VIDEO_SIDE), in one line
    (`given`: the size asked, where `size` is it resolved against `src`)."""
    if size is not None and max(size) > MAX_VIDEO_SIDE:
        asked = f"{given[0]}x{given[1]} gives {size[0]}x{size[1]}" \
            if given is not None and given != size else f"{size[0]}x{size[1]}"
        of = f"{src}'s" if src else "a video's"
        raise AquarelleError(f"--size {asked}: {of} frames are at most {MAX_VIDEO_SIDE} px a "
                             "side; give a smaller size")


def split_formats(given: list[str] | None) -> tuple[str | None, str | None]:
    """--format's values (each given once or not at all): (the videos' container, the
    stills' image format); two for one kind are refused."""
    videos = list(dict.fromkeys(f for f in given or [] if f in VIDEO_FORMATS))
    stills = list(dict.fromkeys(f for f in given or [] if f not in VIDEO_FORMATS))
    for kind, values in (("the videos", videos), ("the stills", stills)):
        if len(values) > 1:
            raise AquarelleError(f"--format {' and '.join(values)}: give one format for "
                                 f"{kind} (and one for the other kind, if any)")
    return (videos[0] if videos else None), (stills[0] if stills else None)


def check_name_template(template: str) -> None:
    """--name: text with the plain fields {stem} and {ext} only (no attribute, index,
    conversion or format spec: str.format would run them); {{ and }} are braces."""
    try:
        fields = [(name, spec, conv) for _, name, spec, conv
                  in string.Formatter().parse(template) if name is not None]
    except ValueError:
        fields = [("", None, None)]  # unbalanced braces
    if any(name not in NAME_FIELDS or spec or conv for name, spec, conv in fields):
        raise AquarelleError(f"--name {template!r}: use {{stem}} and {{ext}} only")


VIDEO_ONLY = (("codec", "--codec"), ("crf", "--crf"), ("start", "--start"), ("end", "--end"),
              ("no_audio", "--no-audio"), ("no_subtitles", "--no-subtitles"),
              ("speed", "--speed"), ("fps", "--fps"),
              ("encoder", "--encoder"), ("decoder", "--decoder"),
              ("video_lines", "--video-lines"))  # (--no-metadata applies to stills too)
# of VIDEO_ONLY, those an image sequence or a GIF has no use for (it encodes no video)
NOT_FOR_FRAMES = ("--codec", "--crf", "--speed", "--encoder", "--decoder")


def resize(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Area averaging down, cubic up (16-bit and alpha kept as they are)."""
    import cv2

    h, w = image.shape[:2]
    interp = cv2.INTER_AREA if size[0] * size[1] < w * h else cv2.INTER_CUBIC
    return cv2.resize(image, size, interpolation=interp)


def parse_video_lines(value: int | None) -> int:
    """--video-lines: the default, 0 (every line) or MIN_VIDEO_LINES to MAX_VIDEO_LINES."""
    if value is None:
        return VIDEO_LINES
    if value != 0 and not MIN_VIDEO_LINES <= value <= MAX_VIDEO_LINES:
        raise AquarelleError(f"--video-lines must be 0 (paint every line) or {MIN_VIDEO_LINES} "
                             f"to {MAX_VIDEO_LINES}, got {value}")
    return value
