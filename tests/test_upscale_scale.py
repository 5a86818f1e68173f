"""A processing scale never shrinks a super-resolution (trial X, finding 4): run on the photo
shrunk to --scale 0.5 and enlarged back, the learned upscaler scored 25.4 dB where a bicubic
resize scores 29.2 (and it 30.3 at full scale), unsaid. It runs at full scale, alone or after
filters that take the scale; a --scale that nothing takes is said to be ignored."""

from __future__ import annotations

import cv2
import numpy as np
import skimage.data
from PIL import Image

from aquarelle.cli.main import main
from aquarelle.engine.chain_spec import load_chain
from aquarelle.engine.renderer import scale_applies


def _psnr(a: np.ndarray, b: np.ndarray) -> float:
    return 10 * np.log10(255.0 ** 2 / np.mean((a.astype(float) - b.astype(float)) ** 2))


def _photo() -> tuple[np.ndarray, np.ndarray]:
    """A photo's 192x160 crop and it at half size (the upscaler's input)."""
    hr = skimage.data.astronaut()[40:200, 160:352]
    return hr, cv2.resize(hr, (96, 80), interpolation=cv2.INTER_AREA)


def test_a_lone_upscale_at_half_scale_is_painted_at_full_scale(pipeline):
    hr, lr = _photo()
    full = pipeline(style="upscale", scale=1.0).render_array(lr)
    half = pipeline(style="upscale", scale=0.5)
    out = half.render_array(lr)
    assert out.shape == hr.shape
    assert half.work_scale((96, 80)) == 1.0
    np.testing.assert_array_equal(out, full)
    bicubic = cv2.resize(lr, (192, 160), interpolation=cv2.INTER_CUBIC)
    assert _psnr(hr, out) > _psnr(hr, bicubic)


def test_in_a_chain_of_filters_the_upscale_keeps_full_scale(pipeline):
    """denoise takes the scale (painted at half size, enlarged back); upscale is given the
    whole picture: the same as after a denoise at full scale but for the denoise's draft."""
    _, lr = _photo()
    p = pipeline(style="denoise+upscale", scale=0.5)
    assert [s.scale for s in p.stages] == [0.5, 1.0]
    assert p.render_array(lr).shape == (160, 192, 3)
    assert scale_applies(load_chain("denoise+upscale"))
    assert not scale_applies(load_chain("upscale"))


def test_the_command_line_says_a_scale_nothing_takes_is_ignored(tmp_path, capsys):
    _, lr = _photo()
    src = tmp_path / "small.png"
    Image.fromarray(lr).save(src)
    outs = []
    for scale in ("1", "0.5"):
        out = tmp_path / f"up{scale}.png"
        assert main(["render", str(src), "-o", str(out), "--style", "upscale", "--scale",
                     scale, "-q"]) == 0
        outs.append(np.asarray(Image.open(out)))
    assert capsys.readouterr().err == (
        "aquarelle: warning: --scale 0.5 does not apply to upscale: super-resolution runs at "
        "full scale (from a smaller picture it is blurrier than a plain resize); ignored\n")
    np.testing.assert_array_equal(outs[0], outs[1])
    assert main(["render", str(src), "-o", str(tmp_path / "d.png"), "--style",
                 "denoise+upscale", "--scale", "0.5", "-q"]) == 0
    assert capsys.readouterr().err == ""
