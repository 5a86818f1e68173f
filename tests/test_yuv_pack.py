"""4:2:0 YUV packed on the GPU (engine/yuv_pack.py) against a numpy reference, and exports
whose frames come packed (what a GPU does) decoded as the RGB path's."""

from __future__ import annotations

import av
import numpy as np
import pytest
from av.video.reformatter import ColorRange, Colorspace
from conftest import smooth_noise, to_u8
from hw_paths import packed_as_on_a_gpu
from videoclips import decode_video, make_clip

from aquarelle.engine.yuv_pack import MATRICES, YuvFormat, YuvPacker, coded_size, packed_array
from aquarelle.media.export import ExportOptions, export_video


@pytest.fixture(autouse=True)
def current(gl_ctx):
    """The context current on this thread at each test's start (an export makes it current
    on its render thread)."""
    with gl_ctx:
        yield


def reference(rgb: np.ndarray, fmt: YuvFormat) -> np.ndarray:
    """The packed bytes: limited range (or full: Y 0-255, C 128 +- 127.5, clipped), chroma
    the mean of its 2x2 pixels, the last column and row repeated to even sides."""
    h, w = rgb.shape[:2]
    cw, ch = coded_size((w, h))
    x = np.pad(rgb / 255.0, ((0, ch - h), (0, cw - w), (0, 0)), mode="edge")
    kr, kb = MATRICES[fmt.matrix]

    def luma(c: np.ndarray) -> np.ndarray:
        return kr * c[..., 0] + (1 - kr - kb) * c[..., 1] + kb * c[..., 2]

    ys, cs = (255, 255) if fmt.full else (219, 224)
    y = (0 if fmt.full else 16) + ys * luma(x)
    c = x.reshape(ch // 2, 2, cw // 2, 2, 3).mean(axis=(1, 3))
    u = 128 + cs * (c[..., 2] - luma(c)) / (2 * (1 - kb))
    v = 128 + cs * (c[..., 0] - luma(c)) / (2 * (1 - kr))
    chroma = np.dstack([u, v]).reshape(-1) if fmt.layout == "nv12" \
        else np.concatenate([u.reshape(-1), v.reshape(-1)])
    out = np.concatenate([y.reshape(-1), chroma])
    return np.clip(np.round(out), 0, 255).astype(np.uint8).reshape(ch * 3 // 2, cw)


@pytest.mark.parametrize("fmt", [YuvFormat("yuv420p", "bt709"), YuvFormat("nv12", "bt601"),
                                 YuvFormat("yuv420p", "bt2020"),
                                 YuvFormat("yuv420p", "bt709", full=True),
                                 YuvFormat("nv12", "bt601", full=True)])
@pytest.mark.parametrize("size", [(64, 48), (37, 23)])
def test_the_packed_bytes_are_the_reference(gl_ctx, fmt, size) -> None:
    w, h = size
    rgb = to_u8(smooth_noise(h, w, seed=1, sigma=3))
    rgb[5:9, 3:20] = (250, 10, 40)  # a saturated bar: chroma at its sharpest
    tex = gl_ctx.texture((w, h), 4, np.dstack([rgb, np.full((h, w), 255, np.uint8)]).tobytes())
    packer = YuvPacker(gl_ctx)
    try:
        got = packed_array(packer.pack(tex, fmt).read(alignment=1), size)
    finally:
        packer.release()
        tex.release()
    want = reference(rgb, fmt)
    assert got.shape == want.shape
    assert np.abs(got.astype(int) - want).max() <= 1  # rounding of the last bit


@pytest.mark.parametrize("full", [False, True])
def test_packed_bytes_decode_as_ffmpegs_conversion_does(gl_ctx, full) -> None:
    # what a player shows from the GPU's bytes: as close to the picture as FFmpeg's own
    # RGB -> yuv420p conversion (the software path) gets, in either range (in full range
    # closer to the picture: swscale's chroma there comes out 0.57 of a level low on average)
    h, w = 72, 96
    rgb = to_u8(smooth_noise(h, w, seed=2, sigma=4))
    rgb[:, :8] = np.linspace(0, 255, h).round()[:, None, None]  # black to white: the ends
    tex = gl_ctx.texture((w, h), 4, np.dstack([rgb, np.full((h, w), 255, np.uint8)]).tobytes())
    packer = YuvPacker(gl_ctx)
    try:
        packed = packed_array(packer.pack(tex, YuvFormat(full=full)).read(alignment=1),
                              (w, h))
    finally:
        packer.release()
        tex.release()
    rng = ColorRange.JPEG if full else ColorRange.MPEG

    def shown(frame: av.VideoFrame) -> np.ndarray:
        return frame.reformat(format="rgb24", src_colorspace=Colorspace.ITU709,
                              src_color_range=rng).to_ndarray().astype(int)

    sws_yuv = av.VideoFrame.from_ndarray(rgb, format="rgb24").reformat(
        format="yuv420p", dst_colorspace=Colorspace.ITU709, dst_color_range=rng)
    ours = shown(av.VideoFrame.from_ndarray(packed, format="yuv420p"))
    sws = shown(sws_yuv)
    assert np.abs(ours - rgb).mean() <= np.abs(sws - rgb).mean() + 0.2
    assert np.abs(ours - sws).mean() < 1.0
    # the Y plane's levels as FFmpeg's: the ends reach 0 and 255 in full range only
    luma = packed[:h].astype(int)
    assert np.abs(luma - sws_yuv.to_ndarray()[:h].astype(int)).max() <= 1
    assert (luma.min(), luma.max()) == ((0, 255) if full else (16, 235))


@pytest.mark.parametrize("size", [None, (95, 63)])  # odd sides: the last column, row repeat
def test_an_export_packed_on_the_gpu_is_the_rgb_exports_picture(tmp_path, gl_ctx, monkeypatch,
                                                                size) -> None:
    clip = make_clip(tmp_path / "in.mp4", size=(96, 64), frames=6)
    opts = ExportOptions(crf=1, size=size, decoder="software")  # the label names no GPU decoder
    values = {"temporal": False}
    plain = export_video(clip.path, tmp_path / "rgb.mp4", "watercolor", values, opts,
                         ctx=gl_ctx)
    formats = packed_as_on_a_gpu(monkeypatch)
    said: list[str] = []
    packed = export_video(clip.path, tmp_path / "yuv.mp4", "watercolor", values, opts,
                          ctx=gl_ctx, progress=lambda p: said.append(p.encoder))
    assert [f.layout for f in formats] == ["yuv420p"] * 6
    # the software encoder with its reason, as the closing line names it
    assert said[-1].startswith("h264 -> libx264 (software")
    assert said[-1].endswith("), yuv420p made on the GPU")
    a, times_a, facts_a = decode_video(tmp_path / "rgb.mp4")
    b, times_b, facts_b = decode_video(tmp_path / "yuv.mp4")
    assert packed.frames == plain.frames == 6 and times_a == times_b
    assert (facts_b["width"], facts_b["height"]) == (facts_a["width"], facts_a["height"])
    for fa, fb in zip(a, b, strict=True):
        d = np.abs(fa.astype(int) - fb)
        assert d.mean() < 1.8 and np.percentile(d, 99) <= 12  # the encoder's noise, and
        # the chroma's rounding and siting (99th percentile 9 measured: deep darks' edges;
        # with the paper margins' hard edge round the picture mean 1.53-1.67 and 99th
        # percentile 11, 1.4 and 9 without)


# -- the virtual camera ---------------------------------------------------------------------

class PackedBackend:
    """A virtual camera that takes I420 as it is (v4l2loopback's own format)."""

    device = "/dev/video-fake"
    packed = YuvFormat("yuv420p", "bt601")

    def __init__(self) -> None:
        self.frames: list[np.ndarray] = []

    def send(self, frame: np.ndarray) -> None:
        self.frames.append(frame.copy())

    def close(self) -> None:
        pass


def test_a_live_session_on_a_gpu_sends_a_device_that_takes_i420_its_bytes(pipeline) -> None:
    import cv2

    from aquarelle.media.live import LiveOptions, LiveSession
    from aquarelle.media.sources import SyntheticSource
    from aquarelle.media.virtual_camera import VirtualCameraSink

    backend = PackedBackend()
    session = LiveSession(SyntheticSource((64, 48), fps=30.0, live=True), pipeline(),
                          LiveOptions(size=(96, 48), fit="pad"),
                          sink_factory=lambda size, fps: VirtualCameraSink(
                              size, fps, backend_factory=lambda w, h, r: backend))
    session.queued = True  # the readback ring, as on a GPU
    session.run(max_frames=6, seconds=30.0)
    packed = [f for f in backend.frames if f.ndim == 2]
    assert packed and all(f.shape == (72, 96) for f in packed)
    shown = cv2.cvtColor(packed[-1], cv2.COLOR_YUV2RGB_I420)
    assert shown[:, :10].max() <= 2 and shown[:, -10:].max() <= 2  # 64x48 in 96x48: bars
    assert shown[:, 20:76].mean() > 20


class FakeCamera:
    """pyvirtualcam.Camera's part the wrapper uses; `refuse` formats it cannot open."""

    refuse: tuple[str, ...] = ()
    opened: list[str] = []

    def __init__(self, width: int, height: int, fps: float, fmt: str) -> None:
        if fmt in self.refuse:
            raise RuntimeError(f"{fmt} is not supported")
        FakeCamera.opened.append(fmt)
        self.device, self.sent = "/dev/video9", []

    def send(self, frame: np.ndarray) -> None:
        self.sent.append(frame)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("refuse", [(), ("I420",)])
def test_pyvirtualcam_is_opened_in_i420_where_the_device_takes_it(monkeypatch, refuse) -> None:
    import sys
    import types

    from aquarelle.media.virtual_camera import open_pyvirtualcam

    module = types.ModuleType("pyvirtualcam")
    module.PixelFormat = types.SimpleNamespace(RGB="RGB", I420="I420")  # type: ignore[attr-defined]
    module.Camera = type("Cam", (FakeCamera,), {"refuse": refuse})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pyvirtualcam", module)
    FakeCamera.opened = []
    cam = open_pyvirtualcam(64, 48, 30.0)
    rgb = np.zeros((48, 64, 3), np.uint8)
    rgb[:, :32] = (255, 0, 0)
    cam.send(rgb)
    sent = cam._cam.sent[-1]  # type: ignore[attr-defined]
    if refuse:
        assert FakeCamera.opened == ["RGB"] and cam.packed is None  # type: ignore[attr-defined]
        assert sent is rgb
        return
    assert FakeCamera.opened == ["I420"] and cam.packed == YuvFormat("yuv420p", "bt601")  # type: ignore[attr-defined]
    # an RGB frame (a CPU renderer's) converted as pyvirtualcam's libyuv would: BT.601
    assert sent.size == 64 * 48 * 3 // 2 and sent[0, 0] in (81, 82) and sent[0, 40] == 16
    packed = np.full((72, 64), 100, np.uint8)
    cam.send(packed)
    assert cam._cam.sent[-1] is packed  # type: ignore[attr-defined]  # a GPU's, as it is
