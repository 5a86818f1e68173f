"""Render targets: textures and their framebuffers, allocated once and reused every frame."""

from __future__ import annotations

import moderngl

from .style import TargetSpec

DEEP_DTYPE = "nu2"  # 16-bit unsigned normalized: what 8-bit targets become in a deep graph


class TargetPool:
    """Owns every texture and framebuffer of a pass graph.

    Each named target has one or more slots (a second one for passes that read and write the
    same target, a third for persistent targets); slots are allocated on first use and kept
    until the size changes, so steady-state rendering allocates nothing.
    """

    def __init__(self, ctx: moderngl.Context, *, deep: bool = False) -> None:
        self.ctx = ctx
        # Deep (16-bit sources): 8-bit targets are made 16-bit normalized instead, so the
        # painting keeps 16-bit precision end to end; decided once, for every target.
        self.deep = deep
        self._slots: dict[str, list[moderngl.Texture]] = {}
        self._sizes: dict[str, tuple[int, int]] = {}
        self._fbos: dict[int, moderngl.Framebuffer] = {}
        self.allocations = 0  # total textures ever created (tests check reuse with it)

    def slots(self, spec: TargetSpec, size: tuple[int, int]) -> list[moderngl.Texture]:
        """The existing slots of a target at `size` (reallocated when the size changed)."""
        if self._sizes.get(spec.name) != size:
            self._drop(spec.name)
            self._sizes[spec.name] = size
            self._slots[spec.name] = []
        return self._slots[spec.name]

    def free_slot(self, spec: TargetSpec, size: tuple[int, int],
                  busy: set[int]) -> moderngl.Texture:
        """A slot of the target whose texture is not in `busy` (by glo), allocating if needed."""
        slots = self.slots(spec, size)
        for tex in slots:
            if tex.glo not in busy:
                return tex
        dtype = DEEP_DTYPE if self.deep and spec.dtype == "f1" else spec.dtype
        tex = self.ctx.texture(size, spec.components, dtype=dtype)
        tex.repeat_x = tex.repeat_y = False
        slots.append(tex)
        self.allocations += 1
        return tex

    def framebuffer(self, tex: moderngl.Texture) -> moderngl.Framebuffer:
        """The (cached) framebuffer that renders into `tex`."""
        fbo = self._fbos.get(tex.glo)
        if fbo is None:
            fbo = self._fbos[tex.glo] = self.ctx.framebuffer(color_attachments=[tex])
        return fbo

    def _drop(self, name: str) -> None:
        for tex in self._slots.pop(name, []):
            fbo = self._fbos.pop(tex.glo, None)
            if fbo is not None:
                fbo.release()
            tex.release()

    def release(self) -> None:
        """Release every GL object the pool owns."""
        for name in list(self._slots):
            self._drop(name)
        self._sizes.clear()
