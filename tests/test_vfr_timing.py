"""Variable frame rates keep every frame's length: in a video output each packet carries
its own frame's duration (the step to the next frame's timestamp, the last frame its own)
and the file lasts as long as the source; a GIF shows each frame until the next one's time;
a cut (--start/--end) holds what the source shows from its start to its end, at a new rate
(--fps) too. Outputs are read back with PyAV (packets demuxed, pictures decoded); clips are
tiny (see videoclips.py)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import accumulate, pairwise
from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image as PILImage
from videoclips import decode_video, make_clip, mux_frames, mux_sound, pattern

from aquarelle.cli.main import main
from aquarelle.cli.render_video import summary
from aquarelle.media.export import ExportOptions, export_video

MS = Fraction(1, 1000)
# a variable frame rate: steps of 40, 120, 10 and 240 ms (the 10 ms ones: no GIF holds them)
VFR_PTS = [0, 40, 80, 200, 240, 250, 260, 500, 540, 580, 900]
GIF_MS = [100, 100, 200, 50, 50, 100, 100, 300, 100, 100]  # an animated GIF's frame delays
# steps a GIF can show (20 ms and more), not whole centiseconds
GIF_PTS = [0, 33, 67, 200, 233, 260, 500, 533, 900]


@pytest.fixture(autouse=True)
def _shared_context_current_again(gl_ctx):
    """A CLI run makes and releases its own GL context: make the module's current again."""
    yield
    gl_ctx.__enter__()


def vfr_clip(path: Path, pts: list[int] = VFR_PTS) -> Path:
    """A variable frame rate clip (H.264 with B-frames), times in ms."""
    return make_clip(path, pts=pts, time_base=MS, audio=False).path


def gif_clip(path: Path, delays: list[int] = GIF_MS) -> Path:
    """An animated GIF of 64x48 pattern frames shown `delays` ms each."""
    images = [PILImage.fromarray(pattern(k, 64, 48)).quantize(colors=64)
              for k in range(len(delays))]
    images[0].save(path, save_all=True, append_images=images[1:], duration=delays, loop=0,
                   optimize=False)
    return path


def source_frames(path: Path) -> list[tuple[Fraction, Fraction]]:
    """(time, duration) of each frame of a file, as its container says (seconds)."""
    with av.open(str(path)) as c:
        vs = c.streams.video[0]
        return [(f.pts * vs.time_base, (f.duration or 0) * vs.time_base)
                for f in c.decode(vs)]


def packets(path: Path) -> tuple[list[tuple[Fraction, Fraction]], dict]:
    """(time, duration) of each video packet in presentation order (seconds), and the
    durations the file reports: the container's, the stream's, and where the stream ends."""
    with av.open(str(path)) as c:
        vs = c.streams.video[0]
        tb = vs.time_base
        got = sorted((p.pts * tb, p.duration * tb) for p in c.demux(vs)
                     if p.size and p.pts is not None)
        facts = {"container": c.duration / 1e6 if c.duration else None,
                 "stream": float(vs.duration * tb) if vs.duration else None,
                 "start": float((vs.start_time or 0) * tb)}
    return got, facts


def own_lengths(times: list[Fraction], last: Fraction) -> list[Fraction]:
    """Each frame shows until the next one starts; the last for its own duration."""
    return [b - a for a, b in pairwise(times)] + [last]


def gif_delays(path: Path) -> list[int]:
    with PILImage.open(path) as im:
        delays = []
        for k in range(im.n_frames):
            im.seek(k)
            delays.append(im.info["duration"])
    return delays


def render(capsys, src: Path, out: Path, *extra: str) -> None:
    code = main(["render", str(src), "-o", str(out), "-q", "--style", "adjust", *extra])
    assert code == 0, capsys.readouterr().err


@pytest.mark.parametrize("source", ["vfr.mkv", "vfr.mp4", "anim.gif"])
@pytest.mark.parametrize("ext", [".mp4", ".mov", ".mkv"])
def test_each_packet_carries_its_own_frames_duration(tmp_path, gl_ctx, source, ext):
    # Matroska gives every frame of a variable rate one default duration; MP4's B-frames put
    # each sample's duration on another frame (the step between decode times); a GIF's are
    # its own. An MP4 from the GIF lasted 1.0 of its 1.2 s, its 300 ms frame given 80 ms.
    src = tmp_path / source
    gif_clip(src) if source.endswith(".gif") else vfr_clip(src)
    frames = source_frames(src)
    times = [t for t, _ in frames]
    last = frames[-1][1]
    assert last > 0
    out = tmp_path / f"out{ext}"
    export_video(src, out, "adjust", None, ExportOptions(), ctx=gl_ctx)
    got, facts = packets(out)
    tick = 1e-3  # Matroska keeps milliseconds
    assert [float(t) for t, _ in got] == pytest.approx([float(t) for t in times], abs=tick)
    assert [float(d) for _, d in got] == pytest.approx(
        [float(d) for d in own_lengths(times, last)], abs=tick)
    span = float(times[-1] + last - times[0])  # the source's length
    assert facts["container"] == pytest.approx(span, abs=1e-3)
    if ext != ".mkv":  # (Matroska gives no stream duration)
        assert facts["stream"] == pytest.approx(span, abs=1e-3)
    pictures, decoded, _ = decode_video(out)
    assert len(pictures) == len(times)
    assert [float(t) for t in decoded] == pytest.approx([float(t) for t in times], abs=tick)


def on_screen(times: list[Fraction], t: Fraction) -> int:
    """The source frame on screen at `t`: the last that started at or before it."""
    return max(i for i, s in enumerate(times) if s <= t)


def cut_expected(times: list[Fraction], start: Fraction, end: Fraction, fps: int | None
                 ) -> tuple[list[Fraction], list[int]]:
    """What a cut of [start, end) holds: each output frame's time (from the cut's start) and
    the source frame it shows. At a new rate the slots start + k / fps before `end`, each
    showing the frame on screen then; else the frames whose times fall in the cut."""
    if fps is None:
        kept = [i for i, t in enumerate(times) if start <= t < end]
        return [times[i] - start for i in kept], kept
    slots = [Fraction(k, fps) for k in range(math.ceil((end - start) * fps))]
    return slots, [on_screen(times, start + t) for t in slots]


def nearest(picture: np.ndarray, drawn: list[np.ndarray]) -> int:
    """Which drawn frame a decoded picture is, painted in `adjust` (about 5 levels off it;
    the others are 60 and more)."""
    diffs = [float(np.abs(picture.astype(np.int16) - d.astype(np.int16)).mean())
             for d in drawn]
    best, second = sorted(diffs)[:2]
    assert best * 4 < second, (best, second)
    return int(np.argmin(diffs))


@pytest.mark.parametrize(("source", "fps", "start", "end"), [
    ("30fps.mp4", 24, "0", "1.0"),
    ("30fps.mp4", 60, "0", "0.505"),  # the 31st slot, 0.5, lasts 5 ms
    ("30fps.mp4", 25, "0.41", "1.2"),  # the first slot shows the frame of 0.4
    ("30fps.mp4", 10, "0.41", "1.2"),  # the last slot (1.11) comes before the last frame
    ("30fps.mp4", None, "0", "0.505"),  # the frame of 0.5 lasts until 0.505
    ("vfr.mkv", 10, "0.23", "0.75"),
    ("vfr.mkv", None, "0", "0.4"),  # the frame of 0.26 is on screen until 0.5: cut at 0.4
])
def test_a_cut_holds_what_the_source_shows_from_start_to_end(tmp_path, gl_ctx, source, fps,
                                                             start, end):
    # A new rate's slots ran past --end to the last source frame's end (--fps 60 --end
    # 0.505: a 32nd slot at 0.517), and started at the first frame after --start, not at
    # it (--start 0.41: every slot 23 ms late, the frame of 0.4 never shown), and a last
    # slot that came before the last frame kept a whole step (1.11 to 1.21 at 10 fps); the
    # last frame lasted its whole length past --end (to 0.533), or its nominal 33 ms of a
    # variable rate's 240 (the video ended at 0.293 of 0.4); the progress counted 15 frames
    # of --end 0.505's 16, and 30 of its 31 at 60 fps.
    if source == "vfr.mkv":
        clip = make_clip(tmp_path / source, pts=VFR_PTS, time_base=MS, audio=False)
    else:
        clip = make_clip(tmp_path / source, frames=45, fps=30)
    t0, t1 = Fraction(start), Fraction(end)
    times, shows = cut_expected(clip.times, t0, t1, fps)
    out = tmp_path / "cut.mp4"
    totals: list[int | None] = []
    r = export_video(clip.path, out, "adjust", None,
                     ExportOptions(fps=fps, start=float(t0), end=float(t1), crf=1),
                     progress=lambda p: totals.append(p.total), ctx=gl_ctx)
    assert r.frames == len(times) and f"({len(times)} frames, " in summary(clip.path, r)
    # the progress line's count: the true one (a variable rate's is estimated from its mean)
    assert totals[-1] == len(times) and (source == "vfr.mkv" or set(totals) == {len(times)})
    got, facts = packets(out)
    assert [t for t, _ in got] == pytest.approx(times, abs=1e-4)
    # each lasts until the next; the last until the cut's end
    assert [d for _, d in got] == pytest.approx(
        [b - a for a, b in pairwise(times)] + [t1 - t0 - times[-1]], abs=1e-4)
    assert facts["start"] == pytest.approx(float(times[0]), abs=1e-4)
    assert facts["stream"] + facts["start"] == pytest.approx(float(t1 - t0), abs=1e-4)
    pictures, _, decoded = decode_video(out)
    assert [nearest(p, clip.frames) for p in pictures] == shows
    if clip.audio_seconds:  # copied AAC is cut at its packets (21 ms)
        assert decoded["audio"][0][1] == pytest.approx(float(t1 - t0), abs=0.025)


# steps of 70, 20 and 20 ms: in a still picture's encoding a B-frame shown 20 ms after the
# frame before it is decoded 70 ms after that (x264 puts B-frames between frames that differ
# little: pattern frames get none)
STEP_PTS = list(accumulate([0] + [70 if k % 3 == 0 else 20 for k in range(59)]))
# the white frame, at 1.5 s, when the beep starts: the cut to it and back changes x264's
# frame order there, so the decode times from before the first frame start earlier
FLASH = 40


def flash_clip(path: Path) -> Path:
    """A Matroska clip of grey frames at STEP_PTS (ms) but one white one, FLASH, and a
    1 kHz beep in silence from that frame's time (AAC)."""
    rate = 48000
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=30)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        vs.time_base = vs.codec_context.time_base = MS
        audio = out.add_stream("aac", rate=rate, layout="stereo")
        frames = [np.full((48, 64, 3), 255 if k == FLASH else 30, np.uint8)
                  for k in range(len(STEP_PTS))]
        mux_frames(out, vs, frames, pts=STEP_PTS, time_base=MS)
        n = (STEP_PTS[-1] + 100) * rate // 1000
        sound = np.zeros((2, n - n % 1024), np.float32)
        onset = STEP_PTS[FLASH] * rate // 1000
        sound[:, onset:onset + rate // 5] = 0.5 * np.sin(
            2 * np.pi * 1000 * np.arange(rate // 5) / rate)
        mux_sound(out, audio, sound, rate, "stereo")
    return path


def beep_onset(path: Path) -> float:
    """When a file's sound first gets loud (seconds)."""
    with av.open(str(path)) as c:
        for f in c.decode(audio=0):
            loud = np.nonzero(np.abs(f.to_ndarray()[0]) > 0.1)[0]
            if len(loud):
                return float(f.time) + loud[0] / f.sample_rate
    raise AssertionError(f"{path}: no beep")


@pytest.mark.parametrize("ext", [".mp4", ".mov", ".mkv"])
@pytest.mark.parametrize("start", ["0.3", "0.6"])
def test_a_cut_keeps_the_first_frames_distance_from_start_in_step_with_the_sound(
        tmp_path, gl_ctx, ext, start):
    # --start 0.3 of frames at 0.29, 0.31, 0.33, 0.40: an MP4/MOV showed the frame of 0.31
    # at 0.0, not 0.01, and every frame after it 10 ms early, ahead of the beep (--start
    # 0.6: 20 ms). Decode times laid out for the 70 ms frames put a B-frame's at or before
    # 0, and FFmpeg's muxer then left the edit list's empty edit out. (The frame on screen
    # at --start now fills that distance: test_start_on_screen.)
    src = flash_clip(tmp_path / "in.mkv")
    t0 = Fraction(start)
    times = [Fraction(0)] + [Fraction(t, 1000) - t0 for t in STEP_PTS
                             if Fraction(t, 1000) > t0]
    assert times[1] > 0  # the first frame after --start keeps its distance
    out = tmp_path / f"cut{ext}"
    export_video(src, out, "adjust", None, ExportOptions(start=float(t0)), ctx=gl_ctx)
    pictures, decoded, _ = decode_video(out)
    assert [float(t) for t in decoded] == pytest.approx([float(t) for t in times], abs=1e-3)
    flash = [float(t) for p, t in zip(pictures, decoded, strict=True) if p.mean() > 150]
    assert flash == pytest.approx([STEP_PTS[FLASH] / 1000 - float(t0)], abs=1e-3)
    assert beep_onset(out) == pytest.approx(flash[0], abs=2e-3)


def test_a_gif_at_a_new_rate_holds_the_cut(tmp_path, capsys):
    # 0.41 to 1.2 at 10 fps: 8 slots from 0.41, the last 90 ms (it was 100: 0.8 s of 0.79)
    clip = make_clip(tmp_path / "in.mp4", frames=45, fps=30, audio=False)
    render(capsys, clip.path, tmp_path / "out.gif", "--fps", "10", "--start", "0.41",
           "--end", "1.2")
    assert gif_delays(tmp_path / "out.gif") == [100] * 7 + [90]
    with PILImage.open(tmp_path / "out.gif") as im:
        shown = []
        for k in range(im.n_frames):
            im.seek(k)
            shown.append(nearest(np.asarray(im.convert("RGB")), clip.frames))
    assert shown == [on_screen(clip.times, Fraction("0.41") + Fraction(k, 10)) for k in range(8)]


def test_mp4_decode_times_at_a_constant_rate_are_a_step_apart(tmp_path, gl_ctx):
    # Decode times laid out by the frames' durations are the encoder's own where every frame
    # lasts as long: a step apart, from before the first frame (B-frames), each a step long.
    src = make_clip(tmp_path / "in.mp4", frames=12, fps=25, audio=False).path
    out = tmp_path / "out.mp4"
    export_video(src, out, "adjust", None, ExportOptions(), ctx=gl_ctx)
    with av.open(str(out)) as c:
        vs = c.streams.video[0]
        dts = [p.dts for p in c.demux(vs) if p.size]
        step = round(Fraction(1, 25) / vs.time_base)
    assert dts[0] < 0  # x264's B-frames: decoding starts before the first frame shows
    assert [b - a for a, b in pairwise(dts)] == [step] * 11
    got, facts = packets(out)
    assert {d for _, d in got} == {Fraction(1, 25)}
    assert facts["stream"] == pytest.approx(12 / 25, abs=1e-6)


@pytest.mark.parametrize("source", ["vfr.mkv", "vfr.mp4"])
def test_a_gif_shows_each_frame_until_the_next_ones_time(tmp_path, capsys, source):
    # A Matroska source made every frame 33 ms (its default); an MP4's were one frame late.
    src = vfr_clip(tmp_path / source, GIF_PTS)
    frames = source_frames(src)
    render(capsys, src, tmp_path / "out.gif")
    delays = gif_delays(tmp_path / "out.gif")
    assert len(delays) == len(GIF_PTS)
    shown = list(accumulate(delays))  # when each frame gives way, in ms
    ends = [float(t) * 1000 for t, _ in frames[1:]] + [float(frames[-1][0] +
                                                            frames[-1][1]) * 1000]
    assert all(abs(a - b) <= 10 for a, b in zip(shown, ends, strict=True)), (shown, ends)
    assert delays[-1] == pytest.approx(float(frames[-1][1]) * 1000, abs=10)


def test_a_gif_keeps_a_gifs_frame_delays(tmp_path, capsys):
    src = gif_clip(tmp_path / "anim.gif")
    render(capsys, src, tmp_path / "out.gif")
    assert gif_delays(tmp_path / "out.gif") == GIF_MS

