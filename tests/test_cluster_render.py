"""Chunked renders on one local Ray instance (shared by the module): the same frames,
timestamps and sound as a single-machine export, --resume, chunks re-run, folders."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import numpy as np
import pytest
from cluster_clips import keyframe_clip
from videoclips import decode_video, garbled, late_clip, preroll_clip

from aquarelle.cli.main import main
from aquarelle.cluster.driver import ClusterOptions, Driver, FileJob
from aquarelle.engine.chain_spec import load_chain, param_set
from aquarelle.media.export import ExportOptions, export_video

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    # a cluster of its own: under pytest-xdist another worker's test_cluster_nodes may have one
    # running, which ray.init() would join (and refuse num_cpus for)
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def clip(tmp_path_factory, gl_ctx):
    """A 96x64 clip of 60 frames with sound, a keyframe every 10 frames, and its
    single-machine export."""
    d = tmp_path_factory.mktemp("clip")
    c = keyframe_clip(d / "in.mp4", frames=60, gop=10)
    export_video(c.path, d / "ref.mp4", "watercolor", None, ExportOptions(crf=1), ctx=gl_ctx)
    return c, decode_video(d / "ref.mp4")


def mads(a: list[np.ndarray], b: list[np.ndarray]) -> list[float]:
    return [float(np.abs(x.astype(np.int16) - y.astype(np.int16)).mean())
            for x, y in zip(a, b, strict=True)]


def render(src: Path, dst: Path, fmt: str = "mp4", **opts):
    from aquarelle.cluster.ray_backend import RayBackend

    spec = load_chain("watercolor")
    backend = RayBackend()
    try:
        driver = Driver(backend, "watercolor", spec, param_set(spec).values(),
                        ClusterOptions(chunk_seconds=0.5, **opts))
        (out,) = driver.run([FileJob(src, dst, fmt, "h264", ExportOptions(crf=1))])
    finally:
        backend.close()
    assert out.error is None
    return out


def assert_like_reference(path: Path, ref) -> None:
    frames, times, facts = decode_video(path)
    rf, rt, rfacts = ref
    assert len(frames) == len(rf) == 60
    assert times == rt  # every frame with its source timestamp
    assert facts["audio"] == rfacts["audio"]  # the same codec, the same decoded length
    assert facts["duration"] == pytest.approx(rfacts["duration"], abs=1e-6)
    d = mads(frames, rf)
    assert np.median(d) <= 1.5 and max(d) <= 4.0, d


def test_chunked_render_matches_a_single_machine_export(cluster, clip, tmp_path):
    c, ref = clip
    out = render(c.path, tmp_path / "out.mp4")
    assert out.chunks >= 3 and out.result.audio == ["audio 1 aac copied"]
    assert_like_reference(tmp_path / "out.mp4", ref)


def test_an_edit_lists_hidden_preroll_is_not_counted_on_the_cluster(cluster, gl_ctx, tmp_path):
    """An MP4 whose edit list hides 5 pre-roll frames (a stream-copy cut): the plan counted
    them, and every chunk failed its check ("7 frames instead of 12")."""
    src = preroll_clip(tmp_path / "in.mp4")
    export_video(src, tmp_path / "ref.mp4", "watercolor", None, ExportOptions(crf=1), ctx=gl_ctx)
    out = render(src, tmp_path / "out.mp4")
    assert out.chunks >= 3
    frames, times, _ = decode_video(tmp_path / "out.mp4")
    rf, rt, _ = decode_video(tmp_path / "ref.mp4")
    assert len(frames) == len(rf) == 45 and times == rt
    d = mads(frames, rf)
    assert np.median(d) <= 1.5 and max(d) <= 4.0, d


def test_chunks_join_into_matroska(cluster, clip, tmp_path):
    # Matroska keeps no decode times: a chunk's first frames came without one and the join
    # failed ("Invalid argument") for any .mkv of two chunks or more
    c, (rf, rt, rfacts) = clip
    out = render(c.path, tmp_path / "out.mkv", "matroska")
    assert out.chunks >= 3
    frames, times, facts = decode_video(tmp_path / "out.mkv")
    assert len(frames) == len(rf) == 60
    assert max(abs(a - b) for a, b in zip(times, rt, strict=True)) <= 0.0005  # to the ms
    d = mads(frames, rf)
    assert np.median(d) <= 1.5 and max(d) <= 4.0, d
    # the sound copied (Matroska has no edit list to hide AAC's priming: one packet more)
    assert facts["audio"][0][1] == pytest.approx(rfacts["audio"][0][1], abs=0.025)


def test_resume_skips_finished_chunks_and_reruns_broken_ones(cluster, clip, tmp_path):
    c, ref = clip
    first = render(c.path, tmp_path / "out.mp4", keep_work=True)
    work = tmp_path / ".out.mp4.chunks"
    assert (work / "manifest.json").is_file()
    again = render(c.path, tmp_path / "out.mp4", resume=True, keep_work=True)
    assert again.resumed == first.chunks and again.chunk_seconds == []  # nothing rendered
    chunks = sorted(work.glob("chunk_*.mp4"))
    chunks[1].unlink()  # missing
    chunks[2].write_bytes(chunks[2].read_bytes()[:500])  # corrupt (and another size)
    third = render(c.path, tmp_path / "out.mp4", resume=True)
    assert third.resumed == first.chunks - 2 and len(third.chunk_seconds) == 2
    assert_like_reference(tmp_path / "out.mp4", ref)
    assert not work.exists()


def test_cli_renders_a_folder_on_the_cluster(cluster, clip, tmp_path, capsys):
    c, ref = clip
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(c.path, folder / "a.mp4")
    keyframe_clip(folder / "b.mp4", frames=24, gop=8)
    code = main(["render", str(folder), "-o", str(tmp_path / "out") + "/", "--cluster",
                 "--chunk", "0.5", "--crf", "1"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert f"batch: 2 of 2 rendered into {tmp_path / 'out'}" in err
    assert_like_reference(tmp_path / "out" / "a.mp4", ref)
    frames, times, _ = decode_video(tmp_path / "out" / "b.mp4")
    assert len(frames) == 24


def test_cluster_keeps_streams_tags_chapters_and_ten_bits(cluster, tmp_path, capsys):
    """The join carries what a single-machine export does: audio tags, subtitles (converted
    for MP4), chapters, the title; chunks of a 10-bit source are painted and written at 10."""
    from videoclips import make_rich_clip, probe

    src = make_rich_clip(tmp_path / "film.mkv", frames=25, picture_subtitles=True)
    out = tmp_path / "film.mp4"
    code = main(["render", str(src), "-o", str(out), "--cluster", "--chunk", "0.5",
                 "--codec", "h265", "--style", "adjust", "-q"])
    err = capsys.readouterr().err
    assert code == 0, err
    info = probe(out)
    kinds = [s["type"] for s in info["streams"]]
    assert kinds.count("audio") == 2 and kinds.count("subtitle") == 1
    video = info["streams"][0]
    assert video["pix_fmt"] == "yuv420p10le" and video["profile"] == "Main 10"
    audio = [s for s in info["streams"] if s["type"] == "audio"]
    assert [a["tags"]["language"] for a in audio] == ["eng", "fra"]
    subs = next(s for s in info["streams"] if s["type"] == "subtitle")
    assert subs["codec"] == "mov_text" and subs["tags"]["language"] == "fra"
    assert [c[2] for c in info["chapters"]] == ["Opening", "Ending"]
    assert info["tags"]["title"] == "My film"
    assert "pgssub, picture subtitles) left out" in err


@pytest.mark.parametrize(("ext", "codec", "profile"), [("mp4", "hevc", "Main 10"),
                                                     ("mov", "prores", "HQ")])
def test_a_deep_source_without_a_codec_keeps_its_bits_on_the_cluster(cluster, tmp_path, capsys,
                                                                      ext, codec, profile):
    """As on a single machine: a 10-bit source's own codec where the container takes it
    (ProRes HQ keeps its profile), else H.265 Main 10, said in the closing line."""
    from videoclips import make_clip, probe

    clip = make_clip(tmp_path / "in.mov", frames=20, fps=25, codec="prores_ks",
                     pix_fmt="yuv422p10le", audio=False).path
    assert probe(clip)["streams"][0]["profile"] == "HQ"  # (prores_ks' own choice at 4:2:2)
    out = tmp_path / f"out.{ext}"
    code = main(["render", str(clip), "-o", str(out), "--cluster", "--chunk", "0.4",
                 "--style", "adjust"])
    err = capsys.readouterr().err
    assert code == 0, err
    video = probe(out)["streams"][0]
    assert (video["codec"], video["pix_fmt"][-4:], video["profile"]) == (codec, "10le", profile)
    assert "(chosen to keep the source's 10 bits; --codec h264 for 8-bit H.264)" in err
    assert "bit" not in "".join(line for line in err.splitlines() if "warning" in line)


def test_a_full_range_source_is_joined_full_range(cluster, tmp_path, capsys):
    """As on a single machine (test_files_range.py): each chunk is written full range and
    the join keeps the tag; ProRes, limited only, says so on the cluster too."""
    import av
    from videoclips import ramp, ramp_clip

    src = ramp_clip(tmp_path / "phone.mp4", frames=12, gop=4)
    out = tmp_path / "out.mp4"
    code = main(["render", str(src), "-o", str(out), "--cluster", "--chunk", "0.4",
                 "--style", "adjust", "-q"])
    assert code == 0, capsys.readouterr().err
    with av.open(str(out)) as c:
        stream = c.streams.video[0]
        assert stream.codec_context.color_range == 2  # "pc"
        rows = [f.to_ndarray(format="rgb24")[16, :, 1].astype(int) for f in c.decode(stream)]
    assert len(rows) == 12
    for row in rows:
        assert np.abs(row - ramp()[0, :, 1]).max() <= 2 and len(set(row.tolist())) > 230
    code = main(["render", str(src), "-o", str(tmp_path / "out.mov"), "--cluster", "--chunk",
                 "0.4", "--style", "adjust", "--codec", "prores", "-q"])
    err = capsys.readouterr().err
    assert code == 0 and "warning: phone.mp4 is full range (0-255); written limited" in err


def test_a_short_sources_chapters_end_with_the_joined_video(cluster, tmp_path, capsys):
    """A source cut short (a stopped download) keeps its chapters only to the video's end,
    as a single machine's export does (they ran to the source's 2.0 s)."""
    from test_files_leftovers import chaptered_then_cut, video_end
    from videoclips import probe

    src = chaptered_then_cut(tmp_path)
    out = tmp_path / "out.mkv"
    code = main(["render", str(src), "-o", str(out), "--cluster", "--chunk", "0.3",
                 "--style", "adjust"])
    err = capsys.readouterr().err
    assert code == 0, err
    end = video_end(out)
    assert 0.2 < end < 1.6
    assert probe(out)["chapters"][-1][1] == pytest.approx(end, abs=0.002)


def test_a_cluster_batch_counts_what_its_inputs_are(cluster, tmp_path, capsys, monkeypatch):
    """The progress line counted every input not named as an image a video ("3 videos"
    for two clips and a PNG without its extension; a text file was sent to fail there)."""
    import functools

    import cv2
    from videoclips import make_clip

    from aquarelle.cli import render_cluster
    from aquarelle.media.progress import ProgressPrinter

    # every progress report printed, not one each 5 s
    monkeypatch.setattr(render_cluster, "ProgressPrinter",
                        functools.partial(ProgressPrinter, interval=0))
    for name in ("a.mp4", "b.mp4"):
        make_clip(tmp_path / name, size=(64, 48), frames=6, audio=False)
    picture = np.full((48, 64, 3), 128, np.uint8)
    cv2.imwrite(str(tmp_path / "c.png"), picture)  # an image by its name: painted here
    (tmp_path / "scan").write_bytes((tmp_path / "c.png").read_bytes())  # by its bytes
    (tmp_path / "notes.txt").write_text("not media")
    from PIL import Image as PILImage

    PILImage.fromarray(picture).save(tmp_path / "d.gif")  # one frame: a still, painted here
    inputs = [str(tmp_path / n) for n in ("a.mp4", "b.mp4", "c.png", "scan", "notes.txt",
                                          "d.gif")]
    code = main(["render", *inputs, "-o", str(tmp_path / "out") + "/", "--cluster"])
    err = capsys.readouterr().err
    assert code == 2, err
    progress = [line for line in err.splitlines() if " frames (" in line]
    assert progress and all(line.startswith("2 videos, 1 image: ") for line in progress), err
    assert f"{tmp_path / 'notes.txt'} is not an image or a video" in err
    assert "; 1 chunk)" in err and "1 chunks" not in err
    assert f"batch: 5 of 6 rendered into {tmp_path / 'out'}, 1 failed: " \
           f"{tmp_path / 'notes.txt'}" in err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == \
           ["a.mp4", "b.mp4", "c.png", "d.png", "scan.mp4"]  # (d.gif was a 1-frame d.mp4)


def test_a_cluster_batch_renders_an_animated_png_as_a_video(cluster, tmp_path, capsys,
                                                            monkeypatch):
    """An animated PNG named .png: its frames on the cluster, counted a video (as the batch
    here and `render --cluster` of it alone do), not its first frame painted here."""
    import functools

    import cv2
    from PIL import Image

    from aquarelle.cli import render_cluster
    from aquarelle.media.progress import ProgressPrinter

    monkeypatch.setattr(render_cluster, "ProgressPrinter",
                        functools.partial(ProgressPrinter, interval=0))
    pictures = [np.full((48, 64, 3), 60 + 40 * k, np.uint8) for k in range(3)]
    Image.fromarray(pictures[0]).save(tmp_path / "anim.png", format="PNG", save_all=True,
                                      append_images=[Image.fromarray(p) for p in pictures[1:]],
                                      duration=100)
    cv2.imwrite(str(tmp_path / "still.png"), pictures[0])
    out = tmp_path / "out"
    code = main(["render", str(tmp_path / "anim.png"), str(tmp_path / "still.png"), "-o",
                 f"{out}/", "--cluster", "--style", "adjust"])
    err = capsys.readouterr().err
    assert code == 0, err
    progress = [line for line in err.splitlines() if " frames (" in line]
    assert progress and all(line.startswith("1 video: ") for line in progress), err
    assert sorted(p.name for p in out.iterdir()) == ["anim.mp4", "still.png"]
    frames, _, _ = decode_video(out / "anim.mp4")
    assert len(frames) == 3 and frames[0].shape[:2] == (48, 64)
    means = [float(f.mean()) for f in frames]
    assert means[0] + 20 < means[1] < means[2] - 20, means  # each frame its own picture
    assert cv2.imread(str(out / "still.png")).shape == (48, 64, 3)


def test_a_partly_undecodable_source_keeps_the_frames_that_decode(cluster, tmp_path, capsys):
    # A chunk whose source frames would not all decode failed its check three times and the
    # whole render with it, where a single machine's export keeps what decodes and says so
    clip = keyframe_clip(tmp_path / "c.mp4", frames=60, gop=10, audio=False)
    bad = garbled(clip.path, tmp_path / "bad.mp4")
    assert main(["render", str(bad), "-o", str(tmp_path / "one.mp4"), "-q"]) == 0
    one = capsys.readouterr().err
    _, want, _ = decode_video(tmp_path / "one.mp4")
    lost = 60 - len(want)
    assert 0 < lost < 60 and f"{lost} frame(s) could not be decoded" in one
    out = render(bad, tmp_path / "out.mp4", keep_work=True)
    assert out.chunks >= 3 and out.result.warnings == [
        f"{bad}: {lost} frame(s) could not be decoded and are missing from the output"]
    frames, times, _ = decode_video(tmp_path / "out.mp4")
    assert times == want  # the same frames at their source timestamps
    again = render(bad, tmp_path / "out.mp4", resume=True)  # the lossy chunk is kept too
    assert again.resumed == out.chunks and again.result.warnings == out.result.warnings


def test_a_recording_whose_clock_starts_late_keeps_its_sync(cluster, gl_ctx, tmp_path):
    # the sound starts 21 ms before the picture: the output's clock starts at the sound,
    # and the chunks' picture 21 ms in, as a single-machine export puts it (it was at 0)
    src = late_clip(tmp_path / "in.ts", 600.0)
    export_video(src, tmp_path / "ref.mp4", "watercolor", None, ExportOptions(crf=1),
                 ctx=gl_ctx)
    render(src, tmp_path / "out.mp4")
    _, times, _ = decode_video(tmp_path / "out.mp4")
    _, ref_times, _ = decode_video(tmp_path / "ref.mp4")
    assert 0.015 < times[0] < 0.05 and times == ref_times


def test_a_variable_rate_keeps_each_frames_length_across_chunks(cluster, tmp_path):
    # each chunk's last frame took its container's nominal length (40 ms), not the time to
    # the next chunk's first frame: frames overlapped or left gaps where chunks join
    from fractions import Fraction

    import av

    times = [0, 40, 80, 200, 240, 250, 260, 500, 540, 580, 900, 933, 966, 1000, 1040, 1100,
             1140, 1400, 1440, 1480]
    src = keyframe_clip(tmp_path / "vfr.mkv", frames=len(times), fps=25, gop=4, audio=False,
                        pts=times, time_base=Fraction(1, 1000)).path
    out = render(src, tmp_path / "out.mkv", fmt="matroska")
    assert out.result.frames == len(times)
    with av.open(str(tmp_path / "out.mkv")) as c:
        stream = c.streams.video[0]
        packets = sorted((int(p.pts), int(p.duration)) for p in c.demux(stream) if p.size)
    assert [p for p, _ in packets] == times
    assert [d for _, d in packets[:-1]] == [b - a for a, b in itertools.pairwise(times)]


def test_mp4_joins_lay_decode_times_by_each_frames_length(cluster, tmp_path):
    from fractions import Fraction

    # each chunk's encoder delays its decode times by its own reordering (a short last
    # chunk by none): where chunks met, MP4 samples took a neighbour's length (a constant
    # rate read [(9, 3600), (1, 10800), (2, 3600)], summing past the media's duration)
    import av

    times = [0, 40, 80, 200, 240, 250, 260, 500, 540, 580, 900, 933, 966, 1000, 1040, 1100,
             1140, 1400, 1440, 1480]
    src = keyframe_clip(tmp_path / "vfr.mkv", frames=len(times), fps=25, gop=4, audio=False,
                        pts=times, time_base=Fraction(1, 1000)).path
    render(src, tmp_path / "out.mp4")
    with av.open(str(tmp_path / "out.mp4")) as c:
        stream = c.streams.video[0]
        tb = stream.time_base
        packets = [(p.pts * tb, p.dts * tb) for p in c.demux(stream) if p.size]
    steps = [b[1] - a[1] for a, b in itertools.pairwise(packets)]
    frames = sorted(p for p, _ in packets)
    lengths = dict(zip(frames, [b - a for a, b in itertools.pairwise(frames)], strict=False))
    # each sample lasts its own frame's length (the last frame its 40 ms), decoded no later
    # than shown
    assert steps == [lengths.get(p, Fraction(1, 25)) for p, _ in packets[:-1]]
    assert all(d <= p for p, d in packets)


def test_a_chunked_render_says_it_deinterlaced(cluster, tmp_path):
    from test_deinterlace import fields_clip

    from aquarelle.cli.render_cluster import summary

    out = render(fields_clip(tmp_path / "in.mkv", interlaced=True), tmp_path / "out.mp4")
    assert out.deinterlaced and "deinterlaced (bwdif)" in summary(out)
    # the codec named as a local render names it, with its depth (it said FFmpeg's name)
    assert " h264 8-bit, deinterlaced (bwdif)" in summary(out)


def test_a_cluster_render_says_an_odd_size_was_padded(cluster, tmp_path, capsys):
    """A single machine's export says so; the cluster's said nothing of it (a re-trial)."""
    from videoclips import make_clip

    src = make_clip(tmp_path / "odd.mp4", size=(65, 49), frames=6, pix_fmt="yuv444p",
                    audio=False).path
    out = tmp_path / "out.mp4"
    code = main(["render", str(src), "-o", str(out), "--cluster", "--chunk", "0.1",
                 "--style", "adjust"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "odd size 65x49 padded to 66x50 (last column/row repeated)" in err


# -- a short source; a sequence in a batch (one Ray start per module) --
@pytest.mark.parametrize("ext", ["mkv", "mp4"])
def test_a_short_sources_cues_end_with_the_joined_video(cluster, tmp_path: Path, ext: str,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    from test_files_ends import assert_cues_end_with_the_video, cued_and_cut

    src = cued_and_cut(tmp_path)
    out = tmp_path / f"out.{ext}"
    code = main(["render", str(src), "-o", str(out), "--cluster", "--chunk", "0.3",
                 "--style", "adjust"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert_cues_end_with_the_video(src, out)


def test_a_cluster_batch_paints_a_sequences_frames_here(cluster, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    import cv2
    from videoclips import make_clip, pattern

    (tmp_path / "seq").mkdir()
    for k in range(3):
        cv2.imwrite(str(tmp_path / "seq" / f"f{k:03d}.png"), pattern(k, 32, 24)[:, :, ::-1])
    video = make_clip(tmp_path / "clip.mp4", frames=6, audio=False).path
    out = tmp_path / "out"
    code = main(["render", str(tmp_path / "seq" / "f%03d.png"), str(video), "-o", f"{out}/",
                 "--cluster", "--style", "adjust", "-q"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["clip.mp4", "f001.png", "f002.png",
                                                     "f003.png"]


def test_a_cluster_cut_keeps_the_cues_on_screen_at_its_start(cluster, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    # trial V3, finding 1: --start 0.55 --end 1.55 --cluster --chunk 0.5 dropped every cue
    # begun before the keyframe at 0.48 s
    from test_files_cues import cued_clip, cues_of, expected

    src = cued_clip(tmp_path / "cued.mkv")
    out = tmp_path / "out.mkv"
    code = main(["render", str(src), "-o", str(out), "--cluster", "--chunk", "0.5",
                 "--style", "adjust", "--start", "0.55", "--end", "1.55", "-q"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert cues_of(out) == expected(0.55, 1.55)


def test_a_rounded_start_names_the_same_frame_as_a_local_render(cluster, tmp_path, gl_ctx):
    """--start 0.416667 is frame 5 of a 12 fps clip on a cluster as on one machine (test
    start_frame): the index snaps it as the reader does."""
    from test_start_frame import numbered_clip

    from aquarelle.cluster.ray_backend import RayBackend

    src = numbered_clip(tmp_path / "in.mp4")
    opts = ExportOptions(crf=1, start=0.416667, end=1.0)
    export_video(src, tmp_path / "local.mp4", "adjust", None, opts, ctx=gl_ctx)
    spec = load_chain("adjust")
    backend = RayBackend()
    try:
        driver = Driver(backend, "adjust", spec, param_set(spec).values(),
                        ClusterOptions(chunk_seconds=0.5))
        (out,) = driver.run([FileJob(src, tmp_path / "chunked.mp4", "mp4", "h264", opts)])
    finally:
        backend.close()
    assert out.error is None
    local, chunked = decode_video(tmp_path / "local.mp4"), decode_video(tmp_path / "chunked.mp4")
    assert len(chunked[0]) == len(local[0]) == 7  # frames 5..11
    assert chunked[1] == local[1]
    assert max(mads(local[0], chunked[0])) < 1.0


@pytest.mark.parametrize(("ext", "fmt"), [("mp4", "mp4"), ("mkv", "matroska")])
def test_a_start_between_frames_begins_with_the_frame_on_screen_as_a_local_render(
        cluster, tmp_path, gl_ctx, ext, fmt):
    """--start 0.25 of a 10 fps clip begins with frame 2 held from the cut on a cluster as
    on one machine (test_start_on_screen); it began with frame 3 at 0.05 s."""
    from test_start_on_screen import grey_clip, shown

    from aquarelle.cluster.ray_backend import RayBackend

    src = grey_clip(tmp_path / "grey.mkv")
    opts = ExportOptions(crf=1, start=0.25, end=0.85, audio=False)
    export_video(src, tmp_path / f"local.{ext}", "adjust", None, opts, ctx=gl_ctx)
    spec = load_chain("adjust")
    backend = RayBackend()
    try:
        driver = Driver(backend, "adjust", spec, param_set(spec).values(),
                        ClusterOptions(chunk_seconds=0.3))
        (out,) = driver.run([FileJob(src, tmp_path / f"chunked.{ext}", fmt, "h264", opts)])
    finally:
        backend.close()
    assert out.error is None
    expected = [(0.0, 2), (0.05, 3), (0.15, 4), (0.25, 5), (0.35, 6), (0.45, 7), (0.55, 8)]
    assert shown(tmp_path / f"local.{ext}") == expected
    assert shown(tmp_path / f"chunked.{ext}") == expected
