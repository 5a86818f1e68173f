"""Where a file ends, and what goes where (re-trial 2): a short render's subtitles end with its
video, a new --fps rate's last frame lasts a whole step, an image sequence renders into a
folder and in a batch."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import cv2
import pytest
from videoclips import cut_short, make_clip, pattern, subtitle_cues

from aquarelle.cli.main import main
from aquarelle.media.subtitles import cue_text


def render(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["render", *args, "--style", "adjust"])
    return code, capsys.readouterr().err


def video_end(path: Path) -> float:
    with av.open(str(path)) as c:
        last = list(c.decode(video=0))[-1]
        return float((last.pts + last.duration) * last.time_base)


@pytest.fixture(scope="module")
def cued_then_cut(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cued_and_cut(tmp_path_factory.mktemp("cued"))


def cued_and_cut(folder: Path) -> Path:
    """A 2 s Matroska clip (25 fps) with a SubRip cue every 0.25 s, each lasting 0.4 s and
    stored 0.3 s ahead of its time (as muxers interleave by decode time), cut short at 40%
    of its bytes (a download that stopped): its last cues outlast its picture, or begin
    after it."""
    plain = make_clip(folder / "plain.mkv", frames=50, fps=25, audio=False).path
    whole = folder / "whole.mkv"
    with av.open(str(plain)) as c, av.open(str(whole), "w") as out:
        video = out.add_stream_from_template(c.streams.video[0])
        subs = out.add_mux_stream("subrip", time_base=Fraction(1, 1000))
        cues = iter(range(0, 2000, 250))
        cue = next(cues, None)
        packets = [p for p in c.demux(c.streams.video[0]) if p.size]
        for n, packet in enumerate(packets):  # (Matroska keeps no decode times: 40 ms each)
            while cue is not None and cue - 300 <= n * 40:
                p = av.Packet(f"cue at {cue} ms".encode())
                p.stream, p.time_base = subs, Fraction(1, 1000)
                p.pts, p.dts = cue, max(0, cue - 300)
                p.duration = 400
                out.mux(p)
                cue = next(cues, None)
            packet.stream = video
            out.mux(packet)
    return cut_short(whole)


@pytest.mark.parametrize("ext", ["mkv", "mp4", "mov", "webm"])
def test_cues_end_where_a_short_renders_video_ends(cued_then_cut: Path, tmp_path: Path,
                                                  ext: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # trunc_rich.mkv -> .mp4: 1.2 s of video, its mov_text tracks and the file 1.5 s
    out = tmp_path / f"out.{ext}"
    code, err = render(capsys, str(cued_then_cut), "-o", str(out))
    assert code == 0 and "could not be decoded" in err, err
    assert_cues_end_with_the_video(cued_then_cut, out)


def assert_cues_end_with_the_video(src: Path, out: Path) -> None:
    """Each cue of `src` that begins before `out`'s video ends is in it, none after; the
    one spanning its end is cut there, and the file ends there too. (The cues overlap: an
    MP4's text track shows each overlapping span as a sample of its own, holding the text
    of each cue on screen then.)"""
    end = video_end(out)
    assert 0.3 < end < 1.6
    cues = shown_cues(out)
    source = shown_cues(src)
    assert max(a for a, _ in source.values()) >= end  # (a cue begins after the picture)
    # every cue that begins before the picture ends, on screen for its time, none after it
    assert cues == {text: (a, round(min(b, end), 3)) for text, (a, b) in source.items()
                    if a < end}
    assert max(b for _, b in cues.values()) == pytest.approx(end, abs=0.001)  # spanning it
    with av.open(str(out)) as c:
        assert c.duration / 1e6 == pytest.approx(end, abs=0.002)


def shown_cues(path: Path) -> dict[str, tuple[float, float]]:
    """Each cue text a file's subtitle track shows (each line of its samples), and from
    when to when (s)."""
    codec = "mov_text" if path.suffix in (".mp4", ".mov") else "subrip"
    spans: dict[str, tuple[float, float]] = {}
    for a, d, payload in subtitle_cues(path):
        for line in cue_text(codec, payload).split("\n"):
            if line:
                first, last = spans.get(line, (a, a + d))
                spans[line] = (round(min(first, a), 3), round(max(last, a + d), 3))
    return spans


def samples(path: Path) -> tuple[list[int], list[int], Fraction]:
    """A video's frame times and its packets' durations (an MP4's 'stts', decode order), in
    its time base."""
    with av.open(str(path)) as c:
        vs = c.streams.video[0]
        pts = sorted(f.pts for f in c.decode(vs))
    with av.open(str(path)) as c:
        vs = c.streams.video[0]
        durations = [p.duration for p in c.demux(vs) if p.size]
        return pts, durations, vs.time_base


@pytest.mark.parametrize(("rate", "start", "frames"), [
    # 2 s at 29.97: 59.94 steps; the last frame was cut to 941 of 1001 ticks
    ("30000/1001", None, 60),
    # 1.002 s at 59.94: 60.06 steps; a 61st frame of 1 ms was written
    ("60000/1001", "0.998", 60)])
@pytest.mark.parametrize("ext", ["mp4", "mov"])
def test_a_new_rate_ends_on_a_whole_step(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         rate: str, start: str | None, frames: int,
                                         ext: str) -> None:
    src = make_clip(tmp_path / "in.mp4", frames=50, fps=25, audio=False).path  # 2.0 s
    out = tmp_path / f"out.{ext}"
    cut = ["--start", start] if start else []
    code, err = render(capsys, str(src), "-o", str(out), "--fps", rate, *cut, "-q")
    assert code == 0, err
    pts, durations, tb = samples(out)
    step = round(1 / (Fraction(rate) * tb))
    assert len(pts) == frames
    assert {b - a for a, b in zip(pts, pts[1:], strict=False)} == {step}
    assert set(durations) == {step}  # one 'stts' entry: a constant rate to any editor
    # within half a step of where the frames end
    length = float(2 - Fraction(start or 0))
    assert abs(float((pts[-1] + step - pts[0]) * tb) - length) <= float(step * tb) / 2


def test_a_gif_at_a_new_rate_leaves_out_a_last_slot_under_half_a_step(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the last 0.82 s of a clip at 10 fps: 8 frames, the last until the clip's end (it was
    # 9, the last 20 ms); cut at --end, the last slot lasts until it (test_vfr_timing)
    from PIL import Image as PILImage

    src = make_clip(tmp_path / "in.mp4", frames=25, fps=25, audio=False).path
    out = tmp_path / "out.gif"
    code, err = render(capsys, str(src), "-o", str(out), "--fps", "10", "--start", "0.18")
    assert code == 0, err
    with PILImage.open(out) as im:
        delays = []
        for k in range(im.n_frames):
            im.seek(k)
            delays.append(im.info["duration"])
    assert delays == [100] * 7 + [120]


@pytest.fixture
def sequence(tmp_path: Path) -> Path:
    """in/seq/%04d.png: 4 frames, numbered from 0."""
    folder = tmp_path / "in" / "seq"
    folder.mkdir(parents=True)
    for k in range(4):
        cv2.imwrite(str(folder / f"{k:04d}.png"), pattern(k, 32, 24)[:, :, ::-1])
    return folder / "%04d.png"


@pytest.mark.parametrize("slash", ["/", ""])
def test_a_sequence_renders_into_a_folder_as_its_own_pattern(
        sequence: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], slash: str) -> None:
    # "unsupported video output format .png for out/seqdir/%04d.png"
    out = tmp_path / "out"
    out.mkdir()
    code, err = render(capsys, str(sequence), "-o", f"{out}{slash}", "-q")
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == [f"{k:04d}.png" for k in range(1, 5)]


def test_a_sequence_into_a_new_folder_and_with_a_format(
        sequence: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = tmp_path / "made" / "here"
    code, err = render(capsys, str(sequence), "-o", f"{new}/", "--format", "jpg",
                       "--name", "{stem}_painted", "-q")
    assert code == 0, err
    assert sorted(p.name for p in new.iterdir()) == [f"{k:04d}_painted.jpg" for k in range(1, 5)]
    # a folder's name that is not there, without a slash: said as a name without extension
    code, err = render(capsys, str(sequence), "-o", str(tmp_path / "sd_new"), "-q")
    assert code == 2 and "has no extension" in err and "-o " + str(tmp_path / "sd_new/") in err
    # a name that loses the frame number
    code, err = render(capsys, str(sequence), "-o", f"{tmp_path / 'x'}/", "--name", "one")
    assert code == 2 and "need its frame number" in err and not (tmp_path / "x").exists()


def test_a_batch_takes_a_sequence_beside_a_video(
        sequence: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # "no such file: in/seq/%04d.png", "1 of 2 rendered"
    video = make_clip(tmp_path / "in" / "clip.mp4", frames=3, audio=False).path
    out = tmp_path / "out"
    code, err = render(capsys, str(sequence), str(video), "-o", f"{out}/")
    assert code == 0 and "batch: 2 of 2 rendered" in err, err
    assert sorted(p.name for p in out.iterdir()) == [
        *(f"{k:04d}.png" for k in range(1, 5)), "clip.mp4"]
    code, err = render(capsys, str(sequence), str(video), "-o", f"{out}/")
    assert code == 0 and "2 skipped (already there: %04d.png, clip.mp4" in err, err
