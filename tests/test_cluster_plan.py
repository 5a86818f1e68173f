"""The cluster's pieces that need no Ray: chunk planning, the paper's position composed from
motion summaries, the manifest, the EGL device mapping, a chunk that fails its check run
again (in-process backend), and `--cluster` without Ray installed."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from cluster_clips import keyframe_clip
from videoclips import decode_video

from aquarelle.cli.main import main
from aquarelle.cluster.canvas import MotionSummary, compose, motion_widths
from aquarelle.cluster.chunk import ChunkTask
from aquarelle.cluster.driver import ClusterOptions, Driver, FileJob, LocalBackend
from aquarelle.cluster.egl import EglDevice, pick_egl_device
from aquarelle.cluster.manifest import Manifest
from aquarelle.cluster.plan import (
    VideoIndex,
    decode_window,
    motion_segments,
    plan_chunks,
    scan,
    scene_cuts,
)
from aquarelle.engine.chain_spec import load_chain, param_set
from aquarelle.media.export import ExportOptions, export_video


def index(frames: int, keys: list[int], fps: int = 30) -> VideoIndex:
    return VideoIndex("x.mp4", Fraction(1, fps), 0.0, tuple(range(frames)), tuple(keys),
                      scene_cuts(tuple(keys)))


def test_chunks_split_at_keyframes_near_multiples_of_the_length():
    idx = index(300, list(range(0, 300, 25)))  # a keyframe every 25 frames, 10 s at 30 fps
    chunks = plan_chunks(idx, 2.0, warmup=16)
    assert [c.first for c in chunks] == [0, 50, 125, 175, 250]  # nearest keyframes to 60, 120..
    assert chunks[-1].end == 300
    assert all(a.end == b.first for a, b in zip(chunks, chunks[1:], strict=False))
    assert chunks[0].warm == 0 and chunks[1].warm == 34
    # a likely scene cut (a keyframe off the cadence) near the target wins
    keys = sorted({*range(0, 300, 25), 57})
    assert plan_chunks(index(300, keys), 2.0)[1].first == 57
    # no keyframes: split at the nearest frame (the worker decodes from an earlier one)
    assert [c.first for c in plan_chunks(index(100, [0]), 1.0)] == [0, 30, 60, 90]


def test_chunks_respect_start_and_end_and_decode_windows_pick_exact_frames():
    idx = index(300, list(range(0, 300, 10)))
    chunks = plan_chunks(idx, 2.0, warmup=16, start=1.0, end=5.0)
    assert chunks[0].first == chunks[0].warm == 30 and chunks[-1].end == 150
    a, b = decode_window(idx, 40, 60)
    assert idx.time(39) < a < idx.time(40) and idx.time(59) < b < idx.time(60)
    assert decode_window(idx, 0, 300) == (0.0, None)
    assert motion_segments(chunks) == [(c.warm, d.warm) for c, d in
                                       zip(chunks, chunks[1:], strict=False)]


def test_scan_reads_keyframes_without_decoding(tmp_path):
    clip = keyframe_clip(tmp_path / "in.mp4", frames=40, gop=10, audio=False)
    idx = scan(clip.path)
    assert idx.pts == tuple(clip.pts) and idx.keyframes == (0, 10, 20, 30)
    assert idx.cuts == ()


def test_canvas_composes_pieces_and_restarts_at_cuts():
    t = np.eye(3)
    t[0, 2] = 2.0
    pieces = [MotionSummary({320: (t @ t).tolist()}, {320: False}),
              MotionSummary({320: t.tolist()}, {320: False}),
              MotionSummary({320: t.tolist()}, {320: True})]  # a cut, then one frame of pan
    out = compose(pieces, [320])
    assert [np.asarray(c[320])[0, 2] for c in out] == [0.0, 4.0, 6.0, 2.0]
    spec = load_chain("watercolor")
    assert motion_widths(spec, param_set(spec).values()) == [320]
    assert motion_widths(spec, {"temporal": False}) == []


def test_manifest_keeps_chunks_for_the_same_job_only(tmp_path):
    key = {"source": "a", "chunks": [(0, 10, 0)]}
    m = Manifest(tmp_path, key)
    f = tmp_path / "chunk_00000.mp4"
    f.write_bytes(b"x" * 100)
    m.add(0, f, 10)
    assert Manifest.load(tmp_path, key).finished(0)["frames"] == 10
    assert Manifest.load(tmp_path, {**key, "source": "b"}).chunks == {}
    f.write_bytes(b"x" * 99)  # changed since: not finished
    assert Manifest.load(tmp_path, key).finished(0) is None
    (tmp_path / "manifest.json").write_text("{not json")
    assert Manifest.load(tmp_path, key).chunks == {}
    assert json.loads(json.dumps(key)) == {"source": "a", "chunks": [[0, 10, 0]]}


ALL = [EglDevice(0, None, "EGL_MESA_device_software"), EglDevice(1, 0), EglDevice(2, 1),
       EglDevice(3, 2)]  # a software device first, then three GPUs (CUDA 0, 1, 2)
VISIBLE_2 = [EglDevice(0, None), EglDevice(1, 0), EglDevice(2, 1)]  # two visible to CUDA


@pytest.mark.parametrize(("assigned", "devices", "visible", "expected"), [
    ([], ALL, None, None),  # no GPU: the default device
    (["1"], ALL, None, 2),  # no CUDA_VISIBLE_DEVICES: CUDA 1 is physical GPU 1
    (["1"], VISIBLE_2[:2], "1", 1),  # Ray set CUDA_VISIBLE_DEVICES=1: it is CUDA device 0
    (["3"], VISIBLE_2, "2,3", 2),  # GPU 3 is CUDA device 1 here
    (["5"], VISIBLE_2, "2,3", None),  # not visible: cannot tell
    (["GPU-1b2c"], ALL, None, None),  # a UUID without a visible list
    (["0"], [EglDevice(0, None)], None, None),  # Mesa: no CUDA numbers at all
])
def test_egl_device_for_the_assigned_gpu(assigned, devices, visible, expected):
    assert pick_egl_device(assigned, devices, visible) == expected


class CorruptOnce(LocalBackend):
    """The first try of chunk 1 leaves a truncated file (a worker dying mid-write, a full
    disk): the driver's check finds it and runs the chunk again."""

    def execute(self, job):
        result = super().execute(job)
        if isinstance(job, ChunkTask) and job.index == 1 and job.attempt == 0:
            data = Path(job.output).read_bytes()
            Path(job.output).write_bytes(data[: len(data) // 3])
        return result


def test_a_chunk_that_fails_its_check_is_rendered_again(tmp_path, gl_ctx):
    clip = keyframe_clip(tmp_path / "in.mp4", frames=45)
    spec = load_chain("watercolor")
    backend = CorruptOnce(gl_ctx)
    driver = Driver(backend, "watercolor", spec, param_set(spec).values(),
                    ClusterOptions(chunk_seconds=0.5))
    (out,) = driver.run([FileJob(clip.path, tmp_path / "out.mp4", "mp4", "h264",
                                 ExportOptions(crf=1))])
    assert out.error is None and out.reruns == 1 and out.chunks >= 3
    ref = export_video(clip.path, tmp_path / "ref.mp4", "watercolor", None,
                       ExportOptions(crf=1), ctx=gl_ctx)
    frames, times, facts = decode_video(tmp_path / "out.mp4")
    rf, rt, rfacts = decode_video(ref.output)
    assert len(frames) == 45 and times == rt and facts["audio"] == rfacts["audio"]
    assert not (tmp_path / ".out.mp4.chunks").exists()  # the work folder is gone


@pytest.mark.parametrize(("start", "end"), [(0.0, 0.505), (0.41, 1.49)])
def test_a_chunked_cut_ends_at_its_end_as_one_machines_does(tmp_path, gl_ctx, start, end):
    # The last chunk's last frame lasted its whole length past --end (0.505: to 0.533), and
    # the join took the last decoded sample's length (a B-frame's) for the last frame's.
    clip = keyframe_clip(tmp_path / "in.mp4", frames=45, gop=5, audio=False)
    spec = load_chain("adjust")
    opts = ExportOptions(crf=1, start=start, end=end)
    driver = Driver(LocalBackend(gl_ctx), "adjust", spec, param_set(spec).values(),
                    ClusterOptions(chunk_seconds=0.3))
    (out,) = driver.run([FileJob(clip.path, tmp_path / "out.mp4", "mp4", "h264", opts)])
    assert out.error is None and out.chunks >= 2
    export_video(clip.path, tmp_path / "ref.mp4", "adjust", None, opts, ctx=gl_ctx)

    def samples(path: Path) -> list[tuple[Fraction, Fraction]]:
        with av.open(str(path)) as c:
            vs = c.streams.video[0]
            return sorted((p.pts * vs.time_base, p.duration * vs.time_base)
                          for p in c.demux(vs) if p.size)

    got = samples(tmp_path / "out.mp4")
    assert got == samples(tmp_path / "ref.mp4")
    last, length = got[-1]  # (MP4 keeps the first frame's 23 ms offset in milliseconds)
    assert float(last + length) == pytest.approx(end - start, abs=1e-3)


def test_cluster_without_ray_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    clip = keyframe_clip(tmp_path / "in.mp4", frames=4, audio=False)
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    code = main(["render", str(clip.path), "-o", str(tmp_path / "out.mp4"), "--cluster"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "pip install 'aquarelle[cluster]'" in err
    assert not (tmp_path / "out.mp4").exists()


@pytest.mark.parametrize(("address", "ray_says", "we_say"), [
    # Ray's words as ray.init raises them (ray 2.x), which name options aquarelle lacks
    ("auto", "Could not find any running Ray instance. Please specify the one to connect to "
             "by setting the `--address` flag or `RAY_ADDRESS` environment variable.",
     "--cluster auto: no Ray cluster is running on this machine; start one (ray start "
     "--head), give a cluster's address (--cluster ray://HOST:10001), or use --cluster alone "
     "for a local one"),
    ("ray://HEAD:10001", "Ray Client requires pip package `ray[client]`. If you installed the "
                         "minimal Ray (e.g. `pip install ray`), please reinstall by executing "
                         "`pip install ray[client]`.",
     "--cluster ray://HEAD:10001 needs Ray Client, which is not installed: "
     "pip install 'aquarelle[cluster]'"),
    ("auto", "Found multiple active Ray instances: {'10.0.0.1:6379', '10.0.0.2:6379'}. "
             "Please specify the one to connect to by setting `--address` flag or "
             "`RAY_ADDRESS` environment variable.",
     "--cluster auto: several Ray clusters run on this machine ({'10.0.0.1:6379', "
     "'10.0.0.2:6379'}); name one: --cluster HOST:PORT"),
    ("ray://HEAD:10001", "ray client connection timeout",
     "--cluster ray://HEAD:10001: no Ray Client server answered (is the cluster's head "
     "running, with its client port, usually 10001, reachable from here?)"),
    (None, "Something else\nwith a second line", "cannot reach the Ray cluster at a local "
                                                 "Ray instance: Something else"),
])
def test_rays_connection_errors_are_said_in_aquarelles_terms(address, ray_says, we_say):
    from aquarelle.cluster.reach import unreachable

    said = unreachable(address, ray_says)
    assert said == we_say
    assert "--address" not in said and "RAY_ADDRESS" not in said and "ray[client]" not in said


def test_a_panning_shot_in_chunks_matches_the_sequential_render(tmp_path, gl_ctx):
    """The paper and the advected canvas layers carry the whole pan since the last cut:
    each chunk starts them where the sequential render has them (the motion-only phase)."""
    clip = keyframe_clip(tmp_path / "in.mp4", frames=60, pan=True)
    spec = load_chain("watercolor")
    driver = Driver(LocalBackend(gl_ctx), "watercolor", spec, param_set(spec).values(),
                    ClusterOptions(chunk_seconds=0.5))
    (out,) = driver.run([FileJob(clip.path, tmp_path / "out.mp4", "mp4", "h264",
                                 ExportOptions(crf=1))])
    assert out.error is None and out.chunks >= 3
    ref = export_video(clip.path, tmp_path / "ref.mp4", "watercolor", None,
                       ExportOptions(crf=1), ctx=gl_ctx)
    frames, times, _ = decode_video(tmp_path / "out.mp4")
    rf, rt, _ = decode_video(ref.output)
    assert times == rt
    diff = [float(np.abs(a.astype(float) - b.astype(float)).mean())
            for a, b in zip(frames, rf, strict=True)]
    # measured 1.58 and 2.73 (the encoder's noise at crf 1, larger next to deep darks)
    assert np.median(diff) <= 1.8 and max(diff) <= 4.0, (np.median(diff), max(diff))


def test_an_empty_range_names_only_the_options_given():
    # "no video frames between the --start and --end times" with no --end given
    from aquarelle.media.errors import MediaError

    clip = index(50, [0, 25], fps=25)
    with pytest.raises(MediaError, match=r"no video frame starts at or after --start 2.5 s "
                                         r"\(the video lasts 2.00 s\)"):
        plan_chunks(clip, 1.0, start=2.5)
    with pytest.raises(MediaError, match="between the --start and --end times"):
        plan_chunks(clip, 1.0, start=2.01, end=2.03)
    # (a range inside one frame holds it: the frame on screen at --start, 1.00 to 1.04 s)
    assert [(c.first, c.end) for c in plan_chunks(clip, 1.0, start=1.01, end=1.03)] == [
        (25, 26)]
