"""Exports through a hardware codec's path and the software one, for test_hw_encoders and
test_hw_decoders: a software codec stands in for the GPU's (there is no GPU here), reached
through the same code a hardware one takes; and an export's frames packed to YUV as on a GPU
(`packed_as_on_a_gpu`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from videoclips import Clip, decode_video

from aquarelle.cli.main import main
from aquarelle.engine.yuv_pack import YuvFormat
from aquarelle.media import render_stage


def cli(capsys, *argv: object) -> tuple[int, str]:
    """`aquarelle ARGV`: its exit status and stderr."""
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().err


def both_ways(capsys, clip: Clip, folder: Path, flag: str, stand_in: Callable[[], None]
              ) -> tuple[str, str, list[np.ndarray], list[np.ndarray]]:
    """`render CLIP` with `FLAG software`, then, after `stand_in()`, with `FLAG hardware`:
    both succeed with the same frame times; their stderr and decoded frames."""
    soft, hard = folder / "soft.mp4", folder / "hard.mp4"
    code, err_soft = cli(capsys, "render", clip.path, "-o", soft, flag, "software")
    assert code == 0, err_soft
    stand_in()
    code, err_hard = cli(capsys, "render", clip.path, "-o", hard, flag, "hardware")
    assert code == 0, err_hard
    frames_soft, times_soft = decode_video(soft)[:2]
    frames_hard, times_hard = decode_video(hard)[:2]
    assert times_soft == times_hard and len(frames_soft) == len(frames_hard) == len(clip.pts)
    return err_soft, err_hard, frames_soft, frames_hard


def packed_as_on_a_gpu(monkeypatch: pytest.MonkeyPatch) -> list[YuvFormat]:
    """Exports from here on pack their frames to YUV on the GPU as they would on a GPU
    (llvmpipe reads RGB back instead); the formats packed, frame by frame, in the list."""
    packs: list[YuvFormat] = []
    real = render_stage.YuvPacker.pack

    def pack(self, tex, fmt, size=None):  # noqa: ANN001, ANN202 - a stand-in
        packs.append(fmt)
        return real(self, tex, fmt, size)

    monkeypatch.setattr(render_stage, "cpu_renderer", lambda ctx: False)
    monkeypatch.setattr(render_stage.YuvPacker, "pack", pack)
    return packs
