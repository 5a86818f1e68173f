"""Video export through the media API: frame-exact, timestamps, audio, rotation, sizes,
codecs, pipelining, cancellation. Clips are made here with PyAV (see videoclips.py)."""

from __future__ import annotations

import threading
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from videoclips import (
    audio_seconds,
    decode_video,
    late_clip,
    make_clip,
    mux_frames,
    pattern,
    tone,
)

from aquarelle.engine import Renderer
from aquarelle.media import export as export_mod
from aquarelle.media.errors import ExportCancelled, MediaError
from aquarelle.media.export import ExportOptions, export_video
from aquarelle.media.video_reader import VideoReader

# (the paper margins off: the rotation test reads the picture's edge rows)
NO_TEMPORAL = {"temporal": False, "margins": 0.0}


def export(src: Path, dst: Path, ctx, values=None, **opts):
    return export_video(src, dst, "watercolor", values, ExportOptions(**opts), ctx=ctx)


def yuv_roundtrip(rgb: np.ndarray) -> np.ndarray:
    """What 4:2:0 BT.709 storage alone does to a picture (the loss every export has)."""
    f = av.VideoFrame.from_ndarray(np.ascontiguousarray(rgb), format="rgb24")
    f = f.reformat(format="yuv420p", dst_colorspace="itu709", dst_color_range=1)
    return f.reformat(format="rgb24", src_colorspace="itu709", src_color_range=1).to_ndarray()


def stylize(ctx, frames: list[np.ndarray], values=None, fresh_each: bool = False
            ) -> list[np.ndarray]:
    """Frames rendered with Renderer.render_array on a fresh pipeline (one per frame, or one
    for the sequence in order)."""
    out = []
    with ctx:
        p = None
        for f in frames:
            if p is None or fresh_each:
                if p is not None:
                    p.release()
                p = Renderer(ctx, "watercolor")
                if values:
                    p.set_params(values)
            out.append(p.render_array(f))
        if p is not None:
            p.release()
    return out


def mad(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def assert_frames_match(out: list[np.ndarray], refs: list[np.ndarray], tol: float = 3.0):
    assert len(out) == len(refs)
    for k, (o, r) in enumerate(zip(out, refs, strict=True)):
        r = yuv_roundtrip(r)
        d = mad(o, r)
        assert d < tol, f"frame {k}: mean abs diff {d:.2f}"
        for j in (k - 1, k + 1):  # and clearly not a neighbour (no doubled/shifted frame)
            if 0 <= j < len(refs):
                assert mad(o, yuv_roundtrip(refs[j])) > 3 * tol, f"frame {k} looks like {j}"


def test_export_is_frame_exact_with_audio(tmp_path, gl_ctx):
    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=12)
    src_frames, src_times, src = decode_video(clip.path)
    result = export(clip.path, tmp_path / "out.mp4", gl_ctx, crf=1)
    frames, times, facts = decode_video(tmp_path / "out.mp4")
    assert result.frames == 12 and result.lost == 0 and not result.warnings
    assert result.audio == ["audio 1 aac copied"]
    assert times == src_times == clip.times
    assert facts["duration"] == pytest.approx(src["duration"], abs=1e-6)
    assert facts["container_duration"] == pytest.approx(src["container_duration"], abs=1e-3)
    assert (facts["width"], facts["height"]) == (96, 64)
    # Audio: the same codec and exactly the same decoded length (packets copied).
    assert facts["audio"] == src["audio"]
    assert facts["audio"][0][1] == pytest.approx(clip.audio_seconds, abs=0.025)
    # Pixels: each output frame is the stylized input frame (temporal coherence on: the
    # same frames rendered in order on a fresh pipeline).
    assert_frames_match(frames, stylize(gl_ctx, src_frames))


def test_each_frame_equals_a_fresh_pipeline_render(tmp_path, gl_ctx):
    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=8, audio=False)
    src_frames, _, _ = decode_video(clip.path)
    export(clip.path, tmp_path / "out.mp4", gl_ctx, NO_TEMPORAL, crf=1)
    frames, _, _ = decode_video(tmp_path / "out.mp4")
    assert_frames_match(frames, stylize(gl_ctx, src_frames, NO_TEMPORAL, fresh_each=True))


def test_the_callers_context_is_left_current_after_an_export(tmp_path, gl_ctx):
    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=2, audio=False)
    export_video(clip.path, tmp_path / "out.mp4", ctx=gl_ctx)
    with Renderer(gl_ctx, "denoise") as r:  # new programs: only in a current context
        assert r.render_array(np.full((16, 16, 3), 90, np.uint8)).shape == (16, 16, 3)


def test_pipelined_and_sequential_exports_are_identical(tmp_path, gl_ctx, monkeypatch):
    from aquarelle.media import render_stage
    from aquarelle.media.render_stage import RenderStage

    rendered: dict[bool, list[np.ndarray]] = {}
    wrap = RenderStage._wrap

    def keep(self, frame, data):  # the pictures handed to the encoder, in order
        r = wrap(self, frame, data)
        rendered.setdefault(self.pingpong, []).append(r.image[..., :3].copy())
        return r

    monkeypatch.setattr(RenderStage, "_wrap", keep)
    # RGB pictures to compare (a GPU's are packed into 4:2:0 there: test_yuv_pack)
    monkeypatch.setattr(render_stage, "cpu_renderer", lambda ctx: True)
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=10)
    a = export(clip.path, tmp_path / "a.mp4", gl_ctx, pipelined=True)
    b = export(clip.path, tmp_path / "b.mp4", gl_ctx, pipelined=False)
    for x, y in zip(rendered[True], rendered[False], strict=True):
        np.testing.assert_array_equal(x, y)  # the same pictures in the same order
    fa, ta, _ = decode_video(tmp_path / "a.mp4")
    fb, tb, _ = decode_video(tmp_path / "b.mp4")
    assert a.frames == b.frames == 10 and ta == tb
    # Multithreaded x264 may round differently from one run to the next (measured: up to
    # 2.7 levels mean on this tiny clip in 3 of 12 runs, with identical input pictures).
    assert max(mad(x, y) for x, y in zip(fa, fb, strict=True)) < 4.0
    # and each decoded frame is its own picture, not a neighbour's
    pics = [yuv_roundtrip(r) for r in rendered[True]]
    for k, f in enumerate(fa):
        own = mad(f, pics[k])
        assert all(own < mad(f, pics[j]) for j in (k - 1, k + 1) if 0 <= j < len(pics)), k


def test_variable_frame_rate_is_kept(tmp_path, gl_ctx):
    pts = [0, 33, 100, 133, 250, 283, 400, 420, 500]
    clip = make_clip(tmp_path / "vfr.mp4", size=(64, 48), pts=pts, time_base=Fraction(1, 1000))
    export(clip.path, tmp_path / "out.mp4", gl_ctx)
    _, times, facts = decode_video(tmp_path / "out.mp4")
    _, _, src = decode_video(clip.path)
    assert times == clip.times
    assert facts["duration"] == pytest.approx(src["duration"], abs=1e-6)
    assert facts["audio"][0][1] == pytest.approx(src["audio"][0][1], abs=1e-6)


def test_odd_size_is_padded_by_repeating_the_edge(tmp_path, gl_ctx):
    # x264 takes odd sizes in 4:4:4; the export writes 4:2:0, which needs even ones.
    clip = make_clip(tmp_path / "odd.mp4", size=(63, 47), frames=6, pix_fmt="yuv444p")
    src_frames, _, _ = decode_video(clip.path)
    assert src_frames[0].shape == (47, 63, 3)
    result = export(clip.path, tmp_path / "out.mp4", gl_ctx, NO_TEMPORAL, crf=1)
    assert result.size == (64, 48)
    assert any("padded to 64x48" in w for w in result.warnings)
    frames, times, _ = decode_video(tmp_path / "out.mp4")
    assert len(frames) == 6 and times == clip.times
    refs = stylize(gl_ctx, src_frames, NO_TEMPORAL, fresh_each=True)
    for out, ref in zip(frames, refs, strict=True):
        padded = np.pad(ref, ((0, 1), (0, 1), (0, 0)), mode="edge")
        assert mad(out[:47, :63], yuv_roundtrip(padded)[:47, :63]) < 3
        assert mad(out[:, 63], out[:, 62]) < 6  # the added column repeats the last one
        assert mad(out[47], out[46]) < 6


@pytest.mark.parametrize("rotation", [-90, 90, 180])
def test_rotated_video_comes_out_upright(tmp_path, gl_ctx, rotation):
    # A portrait picture (48x64) stored sideways with a display rotation, like a phone's.
    clip = make_clip(tmp_path / "rot.mp4", size=(48, 64), frames=4, rotation=rotation)
    with av.open(str(clip.path)) as c:
        stored = c.streams.video[0].codec_context
        assert (stored.width, stored.height) == ((64, 48) if rotation % 180 else (48, 64))
    export(clip.path, tmp_path / "out.mp4", gl_ctx, NO_TEMPORAL)
    frames, _, facts = decode_video(tmp_path / "out.mp4")
    assert (facts["width"], facts["height"]) == (48, 64) and facts["rotation"] == 0
    refs = stylize(gl_ctx, clip.frames, NO_TEMPORAL, fresh_each=True)
    for out, ref in zip(frames, refs, strict=True):
        top = out[:3].astype(int)
        assert (top[..., 0] - top[..., 1]).mean() > 60  # the red band is on top
        assert mad(out, ref) < mad(out, ref[::-1, ::-1]) / 2


def test_clip_without_audio_and_no_audio_option(tmp_path, gl_ctx):
    silent = make_clip(tmp_path / "silent.mp4", frames=5, audio=False)
    r = export(silent.path, tmp_path / "a.mp4", gl_ctx)
    assert r.audio == [] and decode_video(tmp_path / "a.mp4")[2]["audio"] == []
    loud = make_clip(tmp_path / "loud.mp4", frames=5)
    r = export(loud.path, tmp_path / "b.mp4", gl_ctx, audio=False)
    frames, times, facts = decode_video(tmp_path / "b.mp4")
    assert r.audio == [] and facts["audio"] == [] and times == loud.times


def test_vp9_webm_in_and_out(tmp_path, gl_ctx):
    clip = make_clip(tmp_path / "in.webm", frames=8, codec="libvpx-vp9", crf=20)
    _, src_times, src = decode_video(clip.path)
    assert src["codec"] == "vp9" and src["audio"][0][0] == "opus"
    r = export(clip.path, tmp_path / "out.webm", gl_ctx)
    frames, times, facts = decode_video(tmp_path / "out.webm")
    assert r.codec == "vp9" and r.audio == ["audio 1 opus copied"] and facts["codec"] == "vp9"
    assert len(frames) == 8 and times == src_times  # WebM keeps milliseconds
    assert facts["audio"][0][1] == pytest.approx(src["audio"][0][1], abs=0.001)


def test_audio_is_transcoded_when_the_container_refuses_it(tmp_path, gl_ctx):
    # AAC cannot go into WebM: transcoded to Opus; PCM cannot go into MP4: to FLAC.
    clip = make_clip(tmp_path / "in.mp4", frames=9)
    r = export(clip.path, tmp_path / "out.webm", gl_ctx)
    _, times, facts = decode_video(tmp_path / "out.webm")
    assert r.audio == ["audio 1 aac -> libopus (WebM cannot hold aac)"]
    assert facts["audio"][0][0] == "opus"
    assert facts["audio"][0][1] == pytest.approx(clip.audio_seconds, abs=0.03)
    assert [round(float(t), 3) for t in times] == [round(float(t), 3) for t in clip.times]

    pcm = make_clip(tmp_path / "pcm.mkv", frames=9, audio_codec="pcm_s16le")
    r = export(pcm.path, tmp_path / "pcm.mp4", gl_ctx)
    _, times, facts = decode_video(tmp_path / "pcm.mp4")
    assert r.audio == ["audio 1 pcm_s16le 2 channels -> flac stereo (lossless; MP4 players do "
                       "not play pcm_s16le)"]
    assert facts["audio"][0][0] == "flac"
    assert facts["audio"][0][1] == pytest.approx(pcm.audio_seconds, abs=0.03)
    assert times == decode_video(pcm.path)[1]  # Matroska's milliseconds, kept


def test_start_and_end_trim_video_and_audio(tmp_path, gl_ctx):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=12)
    src_frames, _, _ = decode_video(clip.path)
    r = export(clip.path, tmp_path / "out.mp4", gl_ctx, NO_TEMPORAL, start=0.1, end=0.3,
               crf=1)
    frames, times, facts = decode_video(tmp_path / "out.mp4")
    # Frames 3..8 (0.1 <= t < 0.3), shifted to start at 0.
    assert r.frames == 6 and times == [Fraction(k, 30) for k in range(6)]
    assert_frames_match(frames, stylize(gl_ctx, src_frames[3:9], NO_TEMPORAL, True))
    # Copied AAC is cut at packet boundaries (21 ms at 48 kHz).
    assert facts["audio"][0][1] == pytest.approx(0.2, abs=0.025)
    # Transcoded audio is cut to the sample.
    export(clip.path, tmp_path / "out.webm", gl_ctx, start=0.1, end=0.3)
    assert audio_seconds(tmp_path / "out.webm", 1) == pytest.approx(0.2, abs=0.002)


def _short_audio_clip(path: Path) -> Path:
    """1 s of video (20 fps) with 0.4 s of AAC."""
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=20)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        audio = out.add_stream("aac", rate=48000, layout="stereo")
        mux_frames(out, vs, [pattern(k, 64, 48) for k in range(20)])
        f = av.AudioFrame.from_ndarray(tone(0.4), format="fltp", layout="stereo")
        f.sample_rate, f.pts, f.time_base = 48000, 0, Fraction(1, 48000)
        for packet in [*audio.encode(f), *audio.encode(None)]:
            out.mux(packet)
    return path


@pytest.mark.parametrize("ext", [".mkv", ".mp4"])
def test_audio_ending_before_the_start_is_said_not_written(tmp_path, gl_ctx, ext):
    # a copy of no packets was said "copied": Matroska got an empty track, MP4 none
    src = _short_audio_clip(tmp_path / "in.mp4")
    r = export(src, tmp_path / f"out{ext}", gl_ctx, NO_TEMPORAL, start=0.6)
    assert r.audio == ["audio 1 aac not written"]
    assert [w for w in r.warnings if "audio 1" in w] == [
        "audio 1 aac ends at 0.40 s, before --start 0.6 s: no track is written for it"]
    with av.open(str(tmp_path / f"out{ext}")) as c:
        assert [s.type for s in c.streams] == ["video"]
    # a start inside the audio copies it, as before
    r = export(src, tmp_path / f"in_range{ext}", gl_ctx, NO_TEMPORAL, start=0.2)
    assert r.audio == ["audio 1 aac copied"] and r.frames == 16


def test_an_mpeg_ts_clip_with_one_keyframe_is_trimmed_and_rewound(tmp_path, gl_ctx):
    # MPEG-TS seeks land past a short clip's only keyframe: nothing decoded from there
    clip = make_clip(tmp_path / "in.ts", size=(64, 48), frames=24, fps=24)
    src_frames, _, _ = decode_video(clip.path)
    r = export(clip.path, tmp_path / "out.mp4", gl_ctx, NO_TEMPORAL, start=0.5, crf=1)
    frames, times, _ = decode_video(tmp_path / "out.mp4")
    assert r.frames == 12 and times[0] == 0
    assert_frames_match(frames, stylize(gl_ctx, src_frames[12:], NO_TEMPORAL, True))
    with VideoReader(clip.path) as reader:
        assert len(list(reader.frames())) == 24
        reader.rewind()
        assert len(list(reader.frames())) == 24


def test_a_matroska_video_starting_late_is_not_said_to_miss_frames(tmp_path, gl_ctx):
    # Matroska's duration counts from the segment's zero: a video whose timestamps start
    # at 10 s ends there, it does not last that long (240 frames were said to be missing)
    clip = make_clip(tmp_path / "in.mkv", size=(64, 48), frames=24, fps=24, audio=False,
                     pts=list(range(240, 264)), time_base=Fraction(1, 24))
    with VideoReader(clip.path) as reader:
        assert reader.start_time == pytest.approx(10.0)
        assert reader.duration == pytest.approx(1.0, abs=0.05)
        assert reader.expected_frames() == 24
    r = export(clip.path, tmp_path / "out.mp4", gl_ctx, NO_TEMPORAL)
    assert r.frames == 24 and r.lost == 0 and not r.warnings


@pytest.mark.parametrize("ext", [".mp4", ".mkv"])
def test_a_recording_whose_clock_starts_late_starts_at_zero(tmp_path, gl_ctx, ext):
    # a TS recording's timestamps start anywhere (600 s here): the output starts at 0, as
    # long as the source, not with 600 s of nothing before its first frame
    src = late_clip(tmp_path / "in.ts", 600.0)
    r = export(src, tmp_path / f"out{ext}", gl_ctx, NO_TEMPORAL)
    frames, times, facts = decode_video(tmp_path / f"out{ext}")
    assert r.frames == len(frames) == 12
    assert 0 <= times[0] < 0.05 and float(times[-1] - times[0]) == pytest.approx(11 / 24, abs=2e-3)
    assert facts["container_duration"] < 1.0
    with av.open(str(tmp_path / f"out{ext}")) as c:
        a = c.streams.audio[0]
        first_audio = next(c.demux(a)).pts * a.time_base
    assert abs(float(first_audio)) < 0.05  # the audio from 0 too, still before the video
    # a --start cut still counts from the video's first frame
    r = export(src, tmp_path / f"cut{ext}", gl_ctx, NO_TEMPORAL, start=0.25)
    frames, times, _ = decode_video(tmp_path / f"cut{ext}")
    assert len(frames) == 6 and times[0] == 0


def test_size_option_keeps_the_aspect(tmp_path, gl_ctx):
    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=3)
    r = export(clip.path, tmp_path / "out.mp4", gl_ctx, size=(48, -1))
    frames, times, _ = decode_video(tmp_path / "out.mp4")
    assert r.size == (48, 32) and frames[0].shape == (32, 48, 3) and times == clip.times


@pytest.mark.parametrize(("codec", "ext", "name"), [("h265", ".mp4", "hevc"),
                                                     ("prores", ".mov", "prores"),
                                                     ("vp9", ".mkv", "vp9")])
def test_other_codecs(tmp_path, gl_ctx, codec, ext, name):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=4)
    r = export(clip.path, tmp_path / f"out{ext}", gl_ctx, codec=codec)
    frames, times, facts = decode_video(tmp_path / f"out{ext}")
    assert r.codec == codec and facts["codec"] == name and len(frames) == 4
    assert [round(float(t), 3) for t in times] == [round(float(t), 3) for t in clip.times]
    assert facts["audio"] and facts["audio"][0][0] == "aac"


def test_truncated_file_renders_the_decodable_frames(tmp_path, gl_ctx):
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=20, faststart=True)
    data = clip.path.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: int(len(data) * 0.6)])
    with VideoReader(cut) as reader:
        decodable = sum(1 for _ in reader.frames())
    assert 0 < decodable < 20
    r = export(cut, tmp_path / "out.mp4", gl_ctx)
    frames, times, _ = decode_video(tmp_path / "out.mp4")
    assert r.frames == len(frames) == decodable and r.lost == 20 - decodable
    assert times == clip.times[:decodable]
    assert any(f"{20 - decodable} frame(s) could not be decoded" in w for w in r.warnings)


def _no_leftovers(folder: Path, name: str) -> None:
    assert not (folder / name).exists()
    assert not [p for p in folder.iterdir() if p.name.startswith(".")], "temp file left"


def test_cancel_from_the_progress_callback_leaves_nothing(tmp_path, gl_ctx):
    clip = make_clip(tmp_path / "in.mp4", frames=12)
    out = tmp_path / "out"
    out.mkdir()
    calls = []

    def progress(p):
        calls.append(p.done)
        if len(calls) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        export_video(clip.path, out / "x.mp4", "watercolor", None, ExportOptions(),
                     progress=progress, ctx=gl_ctx)
    assert len(calls) == 4
    _no_leftovers(out, "x.mp4")


@pytest.mark.parametrize("pipelined", [True, False])
def test_cancel_event_stops_the_export(tmp_path, gl_ctx, pipelined):
    clip = make_clip(tmp_path / "in.mp4", frames=12)
    out = tmp_path / "out"
    out.mkdir()
    cancel = threading.Event()
    seen = []

    def progress(p):
        seen.append(p.done)
        if len(seen) == 2:
            cancel.set()

    with pytest.raises(ExportCancelled):
        export_video(clip.path, out / "x.mp4", options=ExportOptions(pipelined=pipelined),
                     progress=progress, cancel=cancel, ctx=gl_ctx)
    assert len(seen) == 2
    _no_leftovers(out, "x.mp4")


def test_encoder_failure_is_raised_and_nothing_is_left(tmp_path, gl_ctx, monkeypatch):
    clip = make_clip(tmp_path / "in.mp4", frames=10)
    out = tmp_path / "out"
    out.mkdir()
    real = export_mod.VideoWriter.write_frame

    def failing(self, *a, **k):
        if self.frames == 3:
            raise MediaError("disk full (simulated)")
        return real(self, *a, **k)

    monkeypatch.setattr(export_mod.VideoWriter, "write_frame", failing)
    with pytest.raises(MediaError, match="simulated"):
        export(clip.path, out / "x.mp4", gl_ctx)
    _no_leftovers(out, "x.mp4")


def test_an_os_error_writing_the_output_is_said_in_lower_case(tmp_path, gl_ctx):
    # (the OS's strerror "Is a directory", where a read error says "permission denied")
    clip = make_clip(tmp_path / "in.mp4", frames=4)
    (tmp_path / "taken.mp4").mkdir()
    with pytest.raises(MediaError) as err:
        export(clip.path, tmp_path / "taken.mp4", gl_ctx)
    assert str(err.value) == f"cannot write {tmp_path / 'taken.mp4'}: is a directory"
    assert list((tmp_path / "taken.mp4").iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mp4", "taken.mp4"]


def test_decoder_failure_is_raised_and_nothing_is_left(tmp_path, gl_ctx, monkeypatch):
    clip = make_clip(tmp_path / "in.mp4", frames=10)
    out = tmp_path / "out"
    out.mkdir()
    real = VideoReader._convert

    def failing(self, f):
        if self.decoded == 5:
            raise RuntimeError("decoder exploded (simulated)")
        return real(self, f)

    monkeypatch.setattr(VideoReader, "_convert", failing)
    with pytest.raises(RuntimeError, match="simulated"):
        export(clip.path, out / "x.mp4", gl_ctx)
    _no_leftovers(out, "x.mp4")


def test_queues_are_bounded(tmp_path, gl_ctx, monkeypatch):
    # The decoder may not run ahead of the encoder by more than the queues hold.
    clip = make_clip(tmp_path / "in.mp4", size=(32, 32), frames=40, audio=False)
    decoded = [0]
    real = VideoReader._count

    def count(self, *frame):
        decoded[0] += 1
        return real(self, *frame)

    monkeypatch.setattr(VideoReader, "_count", count)
    lead = []
    opts = ExportOptions(queue_size=2)
    export_video(clip.path, tmp_path / "o.mp4", options=opts, ctx=gl_ctx,
                 progress=lambda p: lead.append(decoded[0] - p.done))
    # 2 + 2 + 2 queued (decoded, analysed, rendered), one in the hands of each of the four
    # stages, one waiting in the readback buffers, one being handed over.
    assert max(lead) <= 2 + 2 + 2 + 4 + 1 + 1
    assert decoded[0] == 40
