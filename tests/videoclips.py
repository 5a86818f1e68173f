"""Tiny deterministic test clips made with PyAV: numpy frames plus a sine tone."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from aquarelle.media.orientation import Orientation, orientation_of


@dataclass
class Clip:
    """A clip written by `make_clip` and what went into it."""

    path: Path
    frames: list[np.ndarray]  # upright RGB frames as drawn
    pts: list[int]
    time_base: Fraction
    audio_seconds: float  # length of the tone written (0 without audio)

    @property
    def times(self) -> list[Fraction]:
        return [p * self.time_base for p in self.pts]


def pattern(k: int, width: int, height: int) -> np.ndarray:
    """Frame k: a colour gradient whose hue turns with k, and a white disc that moves.

    Consecutive frames differ clearly (mean abs difference well above 10), so a dropped or
    doubled frame shows in a comparison.
    """
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    phase = k * 0.9
    r = 128 + 110 * np.sin(x / width * 3.0 + phase)
    g = 128 + 110 * np.sin(y / height * 3.0 + phase * 1.3 + 2.0)
    b = 128 + 110 * np.cos((x + y) / (width + height) * 4.0 - phase)
    img = np.stack([r, g, b], axis=2)
    cx = (0.2 + 0.6 * ((k * 0.173) % 1.0)) * width
    cy = (0.3 + 0.4 * ((k * 0.311) % 1.0)) * height
    disc = (x - cx) ** 2 + (y - cy) ** 2 < (min(width, height) * 0.18) ** 2
    img[disc] = (250, 250, 245)
    img[: max(2, height // 12), :, :] = (220, 30, 30)  # a red top band: shows orientation
    return np.clip(img, 0, 255).astype(np.uint8)


def numbered_frames(folder: str | Path, numbers: Iterable[int],
                    size: tuple[int, int] = (64, 48)) -> Path:
    """An image sequence: folder/f_0001.png... for each of `numbers` (file n holds
    `pattern(n)`); returns its pattern, folder/f_%04d.png."""
    from aquarelle.media.image_write import write_image

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for n in numbers:
        write_image(folder / f"f_{n:04d}.png", pattern(n, *size))
    return folder / "f_%04d.png"


def tone(seconds: float, rate: int = 48000, channels: int = 2, freq: float = 440.0
         ) -> np.ndarray:
    """A quiet sine, (channels, samples) float32."""
    t = np.arange(round(seconds * rate)) / rate
    wave = (0.2 * np.sin(2 * np.pi * freq * t)).astype(np.float32)
    return np.repeat(wave[None], channels, axis=0)


def mux_frames(out: av.container.OutputContainer, stream: av.VideoStream,
               frames: Iterable[np.ndarray], *, fmt: str = "rgb24",
               pts: Sequence[int] | None = None, time_base: Fraction | None = None) -> None:
    """Encode numpy `frames` (pixel format `fmt`) into `stream`, mux their packets into `out`,
    then flush the encoder into it. Frame k's pts is `pts[k]` (k without `pts`); its time
    base `time_base` (left unset without it)."""
    for k, img in enumerate(frames):
        frame = av.VideoFrame.from_ndarray(img, format=fmt)
        frame.pts = k if pts is None else pts[k]
        if time_base is not None:
            frame.time_base = time_base
        for packet in stream.encode(frame):
            out.mux(packet)
    for packet in stream.encode(None):
        out.mux(packet)


def mux_sound(out: av.container.OutputContainer, stream: av.AudioStream, samples: np.ndarray,
              rate: int, layout: str, *, start: int = 0, chunk: int = 1024) -> None:
    """Encode float `samples` (channels, n) at `rate` into `stream` in frames of `chunk`
    samples, the first at pts `start` (in samples), mux their packets into `out`, then flush
    the encoder into it."""
    for i in range(0, samples.shape[1], chunk):
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples[:, i:i + chunk]),
                                           format="fltp", layout=layout)
        frame.sample_rate, frame.pts, frame.time_base = rate, start + i, Fraction(1, rate)
        for packet in stream.encode(frame):
            out.mux(packet)
    for packet in stream.encode(None):
        out.mux(packet)


def late_clip(path: str | Path, seconds: float, *, fps: int = 24, frames: int = 12) -> Path:
    """A clip whose video and audio timestamps start `seconds` in (a broadcast recording's
    clock), the audio a little before the video."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=fps)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        audio = out.add_stream("aac", rate=48000, layout="stereo")
        first = round(seconds * fps)
        mux_frames(out, vs, [pattern(k, 64, 48) for k in range(frames)],
                   pts=range(first, first + frames), time_base=Fraction(1, fps))
        samples = tone(frames / fps)
        t0 = round(seconds * 48000) - 1024
        for i in range(0, samples.shape[1] - 1023, 1024):
            f = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples[:, i:i + 1024]),
                                           format="fltp", layout="stereo")
            f.sample_rate, f.pts, f.time_base = 48000, t0 + i, Fraction(1, 48000)
            for packet in audio.encode(f):
                out.mux(packet)
        for packet in audio.encode(None):
            out.mux(packet)
    return path


def ramp(width: int = 256, height: int = 32) -> np.ndarray:
    """A grey ramp, 0 at the left to 255 at the right (RGB)."""
    row = np.linspace(0, 255, width).round().astype(np.uint8)
    return np.repeat(np.repeat(row[None, :, None], height, 0), 3, 2)


def ramp_clip(path: str | Path, *, full: bool = True, frames: int = 3, fps: int = 10,
              codec: str = "libx264", fmt: str | None = None, gop: int | None = None
              ) -> Path:
    """A clip of `ramp` frames, BT.709 in full range (0-255 samples and tagged so: a phone's
    or screen's recording) or limited range (16-235); lossless H.264 by default, a
    keyframe every `gop` frames where given."""
    from av.video.reformatter import ColorRange

    img = ramp()
    rng = ColorRange.JPEG if full else ColorRange.MPEG
    with av.open(str(path), "w", format=fmt) as out:
        vs = out.add_stream(codec, rate=fps)
        vs.height, vs.width = img.shape[:2]
        vs.pix_fmt = "yuv420p"
        cc = vs.codec_context
        cc.colorspace = cc.color_primaries = cc.color_trc = 1
        cc.color_range = int(rng)
        if codec == "libx264":
            cc.options = {"qp": "0", **({"g": str(gop), "keyint_min": str(gop),
                                         "sc_threshold": "0"} if gop else {})}
        frame = av.VideoFrame.from_ndarray(img, format="rgb24").reformat(
            format="yuv420p", dst_colorspace="itu709", dst_color_range=rng)
        mux_frames(out, vs, [frame.to_ndarray()] * frames, fmt="yuv420p")
    return Path(path)


def avif_photo(path: str | Path, img: np.ndarray) -> Path:
    """An AVIF photo of RGB `img` (what FFmpeg reads as a one-frame video)."""
    h, w = img.shape[:2]
    with av.open(str(path), "w", format="avif") as out:
        stream = out.add_stream("libsvtav1", rate=1)
        stream.width, stream.height, stream.pix_fmt = w, h, "yuv420p"
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(img), format="rgb24")
        frame.pts = 0
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            out.mux(packet)
    return Path(path)


def make_clip(path: str | Path, *, size: tuple[int, int] = (64, 48), frames: int = 8,
              fps: int = 30, pts: list[int] | None = None, time_base: Fraction | None = None,
              codec: str = "libx264", pix_fmt: str = "yuv420p", crf: int = 12,
              audio: bool = True, audio_codec: str | None = None, audio_rate: int = 48000,
              rotation: int = 0, faststart: bool = False) -> Clip:
    """Write a clip of `frames` pattern frames (upright size `size`) and a tone as long.

    `pts`/`time_base` give variable frame rates; `rotation` stores the frames rotated and
    tags a display rotation (counter-clockwise degrees) that turns them upright again.
    """
    path = Path(path)
    w, h = size
    tb = time_base or Fraction(1, fps)
    pts = list(pts) if pts is not None else [round(Fraction(i, fps) / tb) for i in range(frames)]
    frame_dur = round(Fraction(1, fps) / tb)
    opts = {"movflags": "+faststart"} if faststart else {}
    drawn = [pattern(k, w, h) for k in range(len(pts))]
    with av.open(str(path), "w", container_options=opts) as out:
        vs = out.add_stream(codec, rate=fps)
        stored_w, stored_h = (w, h) if rotation % 180 == 0 else (h, w)
        vs.width, vs.height = stored_w, stored_h
        vs.pix_fmt = pix_fmt
        vs.codec_context.time_base = tb
        vs.time_base = tb
        if codec in ("libx264", "libvpx-vp9"):
            vs.codec_context.options = {"crf": str(crf)}
        if rotation:
            vs.set_display_rotation(rotation)
        a_stream = None
        if audio:
            name = audio_codec or ("libopus" if path.suffix == ".webm" else "aac")
            a_stream = out.add_stream(name, rate=audio_rate, layout="stereo")
            if name == "vorbis":  # FFmpeg's own Vorbis encoder is marked experimental
                a_stream.codec_context.options = {"strict": "experimental"}
        for img, p in zip(drawn, pts, strict=True):
            stored = Orientation((-rotation // 90) % 4).apply(img)
            frame = av.VideoFrame.from_ndarray(stored, format="rgb24")
            frame.pts = p
            frame.time_base = tb
            frame.duration = frame_dur
            for packet in vs.encode(frame):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
        seconds = 0.0
        if a_stream is not None:
            seconds = float((pts[-1] + frame_dur) * tb)
            samples = tone(seconds, audio_rate)
            fmt = "fltp"
            af = av.AudioFrame.from_ndarray(samples, format=fmt, layout="stereo")
            af.sample_rate = audio_rate
            af.pts = 0
            af.time_base = Fraction(1, audio_rate)
            for packet in a_stream.encode(af):
                out.mux(packet)
            for packet in a_stream.encode(None):
                out.mux(packet)
    return Clip(path, drawn, pts, tb, seconds)


def decode_video(path: str | Path) -> tuple[list[np.ndarray], list[Fraction], dict]:
    """Every frame of a file (upright RGB), its times, and stream facts."""
    frames, times = [], []
    with av.open(str(path)) as c:
        vs = c.streams.video[0]
        rotation = 0
        for f in c.decode(vs):
            rotation = orientation_of(f, vs).degrees
            frames.append(f.to_ndarray(format="rgb24"))
            times.append(f.pts * f.time_base)
        facts = {
            "width": vs.codec_context.width, "height": vs.codec_context.height,
            "codec": vs.codec_context.name, "rotation": rotation,
            "duration": float(vs.duration * vs.time_base) if vs.duration else None,
            "container_duration": c.duration / 1e6 if c.duration else None,
            "audio": [(a.codec_context.name, audio_seconds(path, a.index))
                      for a in c.streams.audio],
        }
    return frames, times, facts


def audio_seconds(path: str | Path, index: int) -> float:
    """Length of an audio stream in seconds, from its decoded samples."""
    with av.open(str(path)) as c:
        stream = next(s for s in c.streams if s.index == index)
        n, rate = 0, stream.codec_context.sample_rate
        for f in c.decode(stream):
            n += f.samples
    return n / rate


def write_bytes(path: str | Path, data: bytes) -> Path:
    path = Path(path)
    path.write_bytes(data)
    return path


SRT_CUES = [(0, 500, "<i>Hello</i> there"), (600, 400, "Second line")]  # ms, ms, text


def garbled(src: str | Path, dst: str | Path, *, count: int = 1500, seed: int = 1) -> Path:
    """A copy of `src` with `count` random bytes in its middle (packets that will not
    decode, the container still readable)."""
    import random

    data = bytearray(Path(src).read_bytes())
    rng = random.Random(seed)
    for i in range(len(data) // 2, len(data) // 2 + count):
        data[i] = rng.randrange(256)
    return write_bytes(dst, bytes(data))


def make_rich_clip(path: str | Path, *, frames: int = 25, size: tuple[int, int] = (64, 48),
                   codec: str = "libx265", pix_fmt: str = "yuv420p10le",
                   hdr: bool = False, picture_subtitles: bool = False) -> Path:
    """A Matroska clip with what people put in their files: a (10-bit) gradient video, two
    audio tracks with languages, titles and dispositions, a SubRip subtitle track, two
    chapters and a title. `hdr` tags it BT.2020 PQ; `picture_subtitles` adds a PGS track."""
    path = Path(path)
    w, h = size
    tb = Fraction(1, 25)
    with av.open(str(path), "w", format="matroska") as out:
        out.metadata["title"] = "My film"
        out.metadata["comment"] = "made for a test"
        vs = out.add_stream(codec, rate=25)
        vs.width, vs.height, vs.pix_fmt = w, h, pix_fmt
        if codec == "libx265":
            vs.codec_context.options = {"x265-params": "log-level=error", "crf": "4"}
        if hdr:
            cc = vs.codec_context
            cc.color_primaries, cc.color_trc, cc.colorspace = 9, 16, 9
        tracks = []
        for name, lang, title in (("aac", "eng", "English"), ("libopus", "fra", "Français")):
            a = out.add_stream(name, rate=48000, layout="stereo")
            a.metadata.update(language=lang, title=title)
            tracks.append(a)
        tracks[0].disposition = av.stream.Disposition.default
        tracks[1].disposition = av.stream.Disposition(0)
        subs = out.add_mux_stream("subrip", time_base=Fraction(1, 1000))
        subs.metadata.update(language="fra", title="Sous-titres")
        subs.disposition = av.stream.Disposition.forced
        pgs = None
        if picture_subtitles:
            pgs = out.add_mux_stream("hdmv_pgs_subtitle", time_base=Fraction(1, 1000))
            pgs.metadata.update(language="deu")
        out.set_chapters([
            {"id": 1, "start": 0, "end": 500, "time_base": Fraction(1, 1000),
             "metadata": {"title": "Opening"}},
            {"id": 2, "start": 500, "end": 1000, "time_base": Fraction(1, 1000),
             "metadata": {"title": "Ending"}}])
        ramp = np.linspace(0.40, 0.45, w)[None, :] * np.ones((h, 1))
        pictures = (np.stack([ramp, ramp * 0.9 + 0.002 * k, ramp * 0.8], axis=2)
                    for k in range(frames))
        mux_frames(out, vs, ((img * 65535).astype(np.uint16) for img in pictures),
                   fmt="rgb48le", time_base=tb)
        for a in tracks:
            af = av.AudioFrame.from_ndarray(tone(frames / 25), format="fltp", layout="stereo")
            af.sample_rate, af.pts, af.time_base = 48000, 0, Fraction(1, 48000)
            for packet in [*a.encode(af), *a.encode(None)]:
                out.mux(packet)
        cues = [(subs, SRT_CUES)] + ([(pgs, [(100, 300, "x")])] if pgs is not None else [])
        for stream, items in cues:
            for start, length, text in items:
                packet = av.Packet(text.encode())
                packet.stream, packet.time_base = stream, Fraction(1, 1000)
                packet.pts = packet.dts = start
                packet.duration = length
                out.mux(packet)
    return path


def probe(path: str | Path) -> dict:
    """What ffprobe would say of a file, read with PyAV: format tags, chapters (seconds and
    titles) and per stream codec, tags, disposition and pixel format."""
    with av.open(str(path)) as c:
        chapters = [(float(ch["start"] * ch["time_base"]), float(ch["end"] * ch["time_base"]),
                     ch["metadata"].get("title")) for ch in c.chapters()]
        streams = []
        for s in c.streams:
            cc = s.codec_context
            streams.append({"type": s.type, "codec": cc.name if cc else None,
                            "tags": dict(s.metadata), "disposition": int(s.disposition),
                            "pix_fmt": getattr(cc, "pix_fmt", None),
                            "profile": getattr(cc, "profile", None),
                            "colour": (cc.color_primaries, cc.color_trc, cc.colorspace)
                            if s.type == "video" else None})
        return {"tags": {k.lower(): v for k, v in c.metadata.items()}, "chapters": chapters,
                "streams": streams}


def subtitle_cues(path: str | Path) -> list[tuple[float, float, bytes]]:
    """(start s, duration s, payload) of the first subtitle stream's packets."""
    with av.open(str(path)) as c:
        s = c.streams.subtitles[0]
        return [(float(p.pts * p.time_base), float(p.duration * p.time_base), bytes(p))
                for p in c.demux(s) if p.dts is not None and p.size]


def cut_short(whole: Path, share: float = 0.4) -> Path:
    """A copy of `whole` (as cut.mkv beside it) that stops after `share` of its bytes: a
    download that stopped."""
    data = whole.read_bytes()
    cut = whole.parent / "cut.mkv"
    cut.write_bytes(data[: round(len(data) * share)])
    return cut


def preroll_clip(path: str | Path) -> Path:
    """50 frames at 25 fps with times k - 5 (the first 5 before 0, hidden by the edit list
    the MP4 muxer writes), and AAC from -0.2 s to 1.8 s."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=25)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.codec_context.options = {"bf": "0"}
        a = out.add_stream("aac", rate=48000, layout="stereo")
        mux_frames(out, vs, (pattern(k, 64, 48) for k in range(50)),
                   pts=[k - 5 for k in range(50)], time_base=Fraction(1, 25))
        mux_sound(out, a, tone(2.0), 48000, "stereo", start=-48000 // 5)
    return Path(path)
