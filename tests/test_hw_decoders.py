"""Hardware decoders: the GPU's decoder where it decodes the file, the software decoder
otherwise, said in the export's lines and by `doctor`; the same frames either way."""

from __future__ import annotations

import av
import numpy as np
import pytest
from hw_paths import both_ways, cli
from videoclips import make_clip

from aquarelle.cli.main import main
from aquarelle.media import hw_decoders
from aquarelle.media.hw_decoders import DecoderChoice, as_software_layout, choose
from aquarelle.media.video_reader import VideoReader


def stand_in(monkeypatch) -> None:
    """A device that "decodes" every file: FFmpeg's software decoder behind the path a GPU's
    takes (as libx264 stands in for a GPU encoder in test_hw_encoders)."""
    monkeypatch.setattr(hw_decoders, "devices", lambda: ("stand_in",))
    monkeypatch.setattr(hw_decoders, "probe", lambda source, device, stream=0: None)
    monkeypatch.setattr(DecoderChoice, "hwaccel", lambda self: None)


def test_without_a_device_the_software_decoder_and_why(tmp_path, monkeypatch) -> None:
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=2, audio=False)
    assert choose(clip.path, "h264", tried=()).describe() == "h264 (software: none in this " \
                                                             "FFmpeg)"
    monkeypatch.setattr(hw_decoders, "probe",
                        lambda source, device, stream=0: f"{device} is absent")
    choice = choose(clip.path, "h264", tried=("cuda", "vaapi"))
    assert (choice.hardware, choice.describe()) == (False, "h264 (software: no hardware "
                                                           "decoder)")
    assert choose(clip.path, "h264", "software", tried=("cuda",)).why == ""
    with pytest.raises(ValueError, match="cuda: cuda is absent; vaapi: vaapi is absent"):
        choose(clip.path, "h264", "hardware", tried=("cuda", "vaapi"))


@pytest.mark.parametrize(("gpu_layout", "planar"), [("nv12", "yuv420p"),
                                                    ("p010le", "yuv420p10le")])
def test_a_gpu_decoders_frames_become_the_software_decoders(gpu_layout, planar) -> None:
    rng = np.random.default_rng(4)
    rgb = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
    soft = av.VideoFrame.from_ndarray(rgb, format="rgb24").reformat(format=planar)
    gpu = soft.reformat(format=gpu_layout)  # the same samples, semi-planar
    back = as_software_layout(gpu)
    assert back.format.name == planar
    depth = 2 if planar.endswith("10le") else 1  # bytes a sample

    def samples(plane) -> np.ndarray:  # its rows without their padding (PyAV 18.1.1 pads more)
        rows = np.frombuffer(bytes(plane), np.uint8).reshape(plane.height, plane.line_size)
        return rows[:, :plane.width * depth]

    for a, b in zip(soft.planes, back.planes, strict=True):
        assert np.array_equal(samples(a), samples(b))
    assert as_software_layout(soft) is soft


def test_an_export_through_the_hardware_path_gives_the_same_frames(tmp_path, capsys,
                                                                   monkeypatch) -> None:
    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=8, audio=False)
    err_soft, err_hard, frames_soft, frames_hard = both_ways(
        capsys, clip, tmp_path, "--decoder", lambda: stand_in(monkeypatch))
    assert "decoded by h264 (software)" in err_soft
    assert "decoded by h264 on stand_in (hardware)" in err_hard
    # the decoded frames are the same (test_the_reader_repacks...); the paintings, encoded
    # twice, match (a suite run under heavy load once saw them differ: not reproduced)
    for a, b in zip(frames_soft, frames_hard, strict=True):
        assert np.abs(a.astype(np.int16) - b).mean() < 3


def test_the_progress_line_names_the_decoder_and_the_encoder(tmp_path, monkeypatch) -> None:
    from aquarelle.media.export import ExportOptions, export_video

    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=3, audio=False)
    stand_in(monkeypatch)
    seen = []
    export_video(clip.path, tmp_path / "o.mp4", "watercolor",
                 options=ExportOptions(encoder="software"), progress=seen.append)
    # (on a GPU: ", yuv420p made on the GPU" after it)
    assert seen and all(p.encoder.startswith("h264 on stand_in -> libx264") for p in seen)


def test_the_reader_repacks_a_gpu_decoders_frames(tmp_path, monkeypatch) -> None:
    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=4, audio=False)
    with VideoReader(clip.path) as r:
        soft = [f.image for f in r.frames()]
    stand_in(monkeypatch)
    real = VideoReader._decode

    def as_from_a_gpu(self, packet):  # frames come semi-planar, as NVDEC's do
        for f in self.video.decode(packet):
            yield self._convert(f.reformat(format="nv12"))

    monkeypatch.setattr(VideoReader, "_decode", as_from_a_gpu)
    with VideoReader(clip.path, decoder="hardware") as r:
        assert r.decoder.device == "stand_in"
        gpu = [f.image for f in r.frames()]
    monkeypatch.setattr(VideoReader, "_decode", real)
    assert len(gpu) == len(soft) == 4
    for a, b in zip(soft, gpu, strict=True):
        np.testing.assert_array_equal(a, b)


def test_insisting_on_hardware_where_none_works_is_a_clear_error(tmp_path, capsys,
                                                                 monkeypatch) -> None:
    monkeypatch.setattr(hw_decoders, "devices", lambda: ("cuda",))
    monkeypatch.setattr(hw_decoders, "probe", lambda source, device, stream=0: "no driver")
    clip = make_clip(tmp_path / "in.mp4", size=(64, 48), frames=3, audio=False)
    out = tmp_path / "o.mp4"
    code, err = cli(capsys, "render", clip.path, "-o", out, "--decoder", "hardware")
    assert code == 2 and "Traceback" not in err
    assert "no hardware decoder for h264 works here (cuda: no driver)" in err
    assert not out.exists()
    code, err = cli(capsys, "render", clip.path, "-o", out)  # auto: the software decoder
    assert code == 0 and "decoded by h264 (software: no hardware decoder)" in err


def test_doctor_names_the_gpu_decoder(capsys, monkeypatch) -> None:
    monkeypatch.setattr(hw_decoders, "devices", lambda: ("cuda",))
    monkeypatch.setattr(hw_decoders, "probe", lambda source, device, stream=0: "no driver")
    main(["doctor"])
    out = capsys.readouterr().out
    assert "GPU decoder" in out and "cuda: no driver" in out
