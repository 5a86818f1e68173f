"""The cluster's join ends a short source's subtitles with its video, as a single machine's
export does (tests/test_files_ends.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aquarelle.cli.main import main

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


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
