"""Variable frame rates keep every frame's length: in a video output each packet carries
its own frame's duration (the step to the next frame's timestamp, the last frame its own)
and the file lasts as long as the source; a GIF shows each frame until the next one's time;
a new rate (--fps) ends with the last frame, not a step past it. Outputs are read back with
PyAV (packets demuxed, pictures decoded); clips are tiny (see videoclips.py)."""

from __future__ import annotations

from fractions import Fraction
from itertools import accumulate, pairwise
from pathlib import Path

import av
import pytest
from PIL import Image as PILImage
from videoclips import decode_video, make_clip, pattern

from aquarelle.cli.main import main
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


def test_a_new_rate_ends_with_the_last_frame_not_a_step_past_it(tmp_path, gl_ctx):
    # 25 fps cut to [0.13, 0.77) at 10 fps: slots at 0.16, 0.26 ... 0.76; the last frame
    # (0.76) ends at 0.80, so the last slot lasts 40 ms, not 100 (the video ran to 0.86,
    # 0.09 s past the cut's end).
    src = make_clip(tmp_path / "in.mkv", frames=25, fps=25, audio=False).path
    out = tmp_path / "cut.mp4"
    export_video(src, out, "adjust", None,
                 ExportOptions(fps=10, start=0.13, end=0.77), ctx=gl_ctx)
    got, facts = packets(out)
    rel = [float(t) for t, _ in got]
    assert rel == pytest.approx([0.03 + 0.1 * k for k in range(7)], abs=1e-3)
    assert [float(d) for _, d in got] == pytest.approx([0.1] * 6 + [0.04], abs=1e-3)
    assert facts["stream"] == pytest.approx(0.64, abs=1e-3)  # 0.16 to 0.80: the cut's length
    end = facts["start"] + facts["stream"]
    assert end == pytest.approx(0.67, abs=1e-3)  # within a source frame of the cut's end


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

