"""Hardware encoders: chosen where one works, the software encoder otherwise, said in the
export's lines and by `doctor`; the same frames out either way."""

from __future__ import annotations

import numpy as np
import pytest
from hw_paths import both_ways, cli
from videoclips import make_clip

from aquarelle.cli.main import main
from aquarelle.media import hw_encoders
from aquarelle.media.hw_encoders import HARDWARE, choose, probe


def test_a_missing_encoder_falls_back_to_software() -> None:
    assert probe("h264_no_such_encoder") == "not in this FFmpeg"
    choice = choose("h264", "libx264", tried=("h264_no_such_encoder",))
    assert (choice.name, choice.hardware) == ("libx264", False)
    assert choice.describe() == "libx264 (software: no hardware encoder)"
    assert choose("h264", "libx264", "software", tried=("libx264",)).hardware is False
    with pytest.raises(ValueError, match="h264_no_such_encoder: not in this FFmpeg"):
        choose("h264", "libx264", "hardware", tried=("h264_no_such_encoder",))


def test_an_export_through_the_hardware_path_keeps_every_frame(tmp_path, capsys,
                                                               monkeypatch) -> None:
    # No GPU encoder here: libx264 stands in for one (it opens and encodes, as NVENC would
    # on a machine with the driver), through the same path a hardware encoder takes.
    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=10, audio=False)
    err_soft, err_hard, frames_soft, frames_hard = both_ways(
        capsys, clip, tmp_path, "--encoder",
        lambda: monkeypatch.setitem(HARDWARE, "h264", ("libx264",)))
    assert "by libx264 (software)" in err_soft and "by libx264 (hardware)" in err_hard
    for a, b in zip(frames_soft, frames_hard, strict=True):  # the same painting, coded apart
        assert np.abs(a.astype(np.int16) - b).mean() < 6  # 96x64: coarse blocks either way


def test_insisting_on_hardware_where_none_works_is_a_clear_error(tmp_path, capsys,
                                                                 monkeypatch) -> None:
    monkeypatch.setitem(HARDWARE, "h264", ("h264_no_such_encoder",))
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=4, audio=False)
    out = tmp_path / "o.mp4"
    code, err = cli(capsys, "render", clip.path, "-o", out, "--encoder", "hardware")
    assert code == 2 and "Traceback" not in err
    assert "no hardware encoder for h264 works here" in err and not out.exists()
    code, err = cli(capsys, "render", clip.path, "-o", out)  # auto: the software encoder
    assert code == 0 and "by libx264 (software: no hardware encoder)" in err


def test_doctor_names_the_gpu_encoders(capsys, monkeypatch) -> None:
    monkeypatch.setitem(HARDWARE, "h264", ("h264_no_such_encoder", "libx264"))
    main(["doctor"])
    out = capsys.readouterr().out
    assert "GPU encoder h264" in out and "libx264 (exports use it" in out
    assert "GPU encoder h265" in out
    assert hw_encoders.report(("h264",))[0].startswith("h264: h264_no_such_encoder: not in")
