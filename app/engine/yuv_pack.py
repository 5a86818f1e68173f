"""Painted frames packed into 8-bit 4:2:0 YUV on the GPU (OBS's and GPUImage's output path):
the encoder and the virtual camera read back 1.5 bytes a pixel instead of 4, already in the
layout they take, and no CPU converts colour (shaders/common/yuv_pack.frag)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import moderngl
import numpy as np

from .context import release_framebuffer, reset_draw_state
from .glsl import fullscreen_pass

FRAGMENT_SHADER = "common/yuv_pack.frag"
# Luma weights (Kr, Kb) of the matrices a frame may be tagged with
MATRICES = {"bt709": (0.2126, 0.0722), "bt601": (0.299, 0.114), "bt2020": (0.2627, 0.0593)}
LAYOUTS = ("yuv420p", "nv12")  # FFmpeg's names (yuv420p is I420)


@dataclass(frozen=True)
class YuvFormat:
    """A 4:2:0 layout, the matrix its colours are converted with, and their range: limited
    (Y 16-235, C 16-240) or `full` (0-255, as FFmpeg's JPEG range)."""

    layout: str = "yuv420p"
    matrix: str = "bt709"
    full: bool = False

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS or self.matrix not in MATRICES:
            raise ValueError(f"no packing {self.layout} / {self.matrix}")


def coded_size(size: tuple[int, int]) -> tuple[int, int]:
    """The packed frame's size: both sides rounded up to even (4:2:0)."""
    return size[0] + size[0] % 2, size[1] + size[1] % 2


def packed_bytes(size: tuple[int, int]) -> int:
    """Bytes of a packed frame of `size` (w, h), rounded up to even sides."""
    w, h = coded_size(size)
    return w * h * 3 // 2


class YuvPacker:
    """Packs RGBA8 textures into a reused R8 texture of (W, H * 3 / 2): its bytes, read back
    row by row, are the frame. Call only from the thread that owns the context."""

    def __init__(self, ctx: moderngl.Context, shader_root: Path | None = None) -> None:
        self.ctx = ctx
        self.program, self.vao = fullscreen_pass(ctx, FRAGMENT_SHADER, shader_root)
        self.sampler = ctx.sampler(filter=(moderngl.LINEAR, moderngl.LINEAR), repeat_x=False,
                                   repeat_y=False)
        self._target: tuple[moderngl.Texture, moderngl.Framebuffer] | None = None

    def pack(self, tex: moderngl.Texture, fmt: YuvFormat,
             size: tuple[int, int] | None = None) -> moderngl.Texture:
        """`tex` as 4:2:0 bytes of `size` (the texture's own by default; a larger one
        repeats its last column and row, as the encoder's even sides need), in a texture the
        packer owns, overwritten by the next pack."""
        w, h = coded_size(size or tex.size)
        if self._target is None or self._target[0].size != (w, h * 3 // 2):
            self._release_target()
            out = self.ctx.texture((w, h * 3 // 2), 1, dtype="f1")
            self._target = (out, self.ctx.framebuffer(color_attachments=[out]))
        out, fbo = self._target
        reset_draw_state(self.ctx)
        fbo.use()
        tex.use(0)
        self.sampler.use(0)
        self.program["src"].value = 0
        self.program["u_coded"].value = (w, h)
        self.program["u_nv12"].value = int(fmt.layout == "nv12")
        self.program["u_kr_kb"].value = MATRICES[fmt.matrix]
        self.program["u_full"].value = int(fmt.full)
        # the planes in two draws: a CPU renderer's SIMD would take both branches everywhere
        for plane, box in enumerate(((0, 0, w, h), (0, h, w, h // 2))):
            fbo.viewport = box
            self.program["u_plane"].value = plane
            self.vao.render(moderngl.TRIANGLES, vertices=3)
        fbo.viewport = (0, 0, w, h * 3 // 2)
        self.ctx.clear_samplers(0, 1)
        return out

    def _release_target(self) -> None:
        if self._target is not None:
            release_framebuffer(self._target[1])
            self._target[0].release()
            self._target = None

    def release(self) -> None:
        """Release the GL objects."""
        self._release_target()
        self.vao.release()
        self.program.release()
        self.sampler.release()


def packed_array(data: bytes | np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A packed frame's bytes as the (H * 3 / 2, W) array PyAV and pyvirtualcam take."""
    w, h = coded_size(size)
    return np.frombuffer(data, np.uint8).reshape(h * 3 // 2, w)
