"""Render targets: textures and their framebuffers, allocated once and reused every frame."""

from __future__ import annotations

from collections.abc import Set

import moderngl

from .context import release_framebuffer
from .style import TargetSpec

DEEP_DTYPE = "nu2"  # 16-bit unsigned normalized: what 8-bit targets become in a deep graph
_BYTES = {"f1": 1, "nu2": 2, "f2": 2, "f4": 4}  # per component


def texture_bytes(tex: moderngl.Texture) -> int:
    """A texture's size in memory."""
    return tex.width * tex.height * tex.components * _BYTES[tex.dtype]


class TargetPool:
    """Owns every texture and framebuffer of a pass graph.

    Each kept target (read after the frame: the output, history, debug views) has one or more
    slots of its own (a second one for passes that read and write the same target, a third
    for persistent targets); the others share textures of their size and format with targets
    whose lives in the frame do not overlap (frame_plan.py). Textures are allocated on first
    use and kept while they are used, so steady-state rendering allocates nothing.
    """

    def __init__(self, ctx: moderngl.Context, *, deep: bool = False) -> None:
        self.ctx = ctx
        # Deep (16-bit sources): 8-bit targets are made 16-bit normalized instead, so the
        # painting keeps 16-bit precision end to end; decided once, for every target.
        self.deep = deep
        self._slots: dict[str, list[moderngl.Texture]] = {}
        self._sizes: dict[str, tuple[int, int]] = {}
        self._fbos: dict[int, moderngl.Framebuffer] = {}
        # (size, components, dtype) -> textures shared by targets of that kind
        # (None: a register's texture released until it is drawn into again)
        self._shared: dict[tuple[tuple[int, int], int, str],
                           list[moderngl.Texture | None]] = {}
        # target -> (size, value, texture): what a skipped pass leaves, cleared once
        self._cleared: dict[str, tuple[tuple[int, int], tuple[float, ...], moderngl.Texture]] = {}
        self.allocations = 0  # total textures ever created (tests check reuse with it)
        self.generation = 0  # bumped when a shared texture is released (cached ones are stale)
        self._held = 0  # bytes of the textures held now
        self.peak_bytes = 0  # the most held at once (benchmarks reset it before a frame)

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
        return self._free(self.slots(spec, size), spec, size, busy)

    def shared(self, spec: TargetSpec, size: tuple[int, int], register: int) -> moderngl.Texture:
        """The `register`-th texture of the target's size and format, shared with other
        targets (frame_plan.py gives each value a register free for its whole life)."""
        texes = self._shared.setdefault((size, spec.components, self.dtype(spec)), [])
        while len(texes) <= register:
            texes.append(None)
        tex = texes[register]
        if tex is None:
            tex = texes[register] = self._new(spec, size)
        return tex

    def drop(self, kind: tuple[tuple[int, int], int, str], register: int) -> None:
        """Release a shared texture now (a still's, once no later step of its frame uses it:
        memory held for the frame's peak, not its whole length)."""
        texes = self._shared.get(kind)
        if texes is not None and register < len(texes) and texes[register] is not None:
            self._release(texes[register])
            texes[register] = None
            self.generation += 1

    def cleared(self, spec: TargetSpec, size: tuple[int, int],
                value: tuple[float, ...]) -> moderngl.Texture:
        """A texture of the target cleared to `value`, kept for every frame that clears it
        (no pass draws into it): a pass turned off costs one clear, not one a frame."""
        kept = self._cleared.get(spec.name)
        if kept is not None and kept[0] == size and kept[1] == value:
            return kept[2]
        if kept is not None:
            self._release(kept[2])
        tex = self._new(spec, size)
        self.framebuffer(tex).clear(*(value + (0.0,) * 4)[:4])
        self._cleared[spec.name] = (size, value, tex)
        return tex

    def keep_sizes(self, sizes: Set[tuple[int, int]]) -> None:
        """Release the shared and cleared textures of other sizes (the frame's size changed);
        those of a pass turned off stay for when it is turned on."""
        for key, texes in list(self._shared.items()):
            if key[0] not in sizes:
                for tex in texes:
                    if tex is not None:
                        self._release(tex)
                del self._shared[key]
                self.generation += 1
        for name in [n for n, (size, _, _) in self._cleared.items() if size not in sizes]:
            self._release(self._cleared.pop(name)[2])

    def trim(self, keep: Set[int] = frozenset()) -> None:
        """Release the shared textures now but those in `keep` (by glo; a kept target may
        alias one): after a still, whose next frame may never come."""
        self.generation += 1
        for key, texes in list(self._shared.items()):
            # released in place: the others keep their registers
            self._shared[key] = [t if t is not None and t.glo in keep else None for t in texes]
            for tex in texes:
                if tex is not None and tex.glo not in keep:
                    self._release(tex)
            if not any(self._shared[key]):
                del self._shared[key]

    def textures(self) -> list[moderngl.Texture]:
        """Every texture the pool holds now."""
        texes = [t for slots in (*self._slots.values(), *self._shared.values()) for t in slots
                 if t is not None]
        return texes + [tex for _, _, tex in self._cleared.values()]

    def resident_bytes(self) -> int:
        """Bytes of every texture the pool holds now (counted as they are made and freed)."""
        return self._held

    def dtype(self, spec: TargetSpec) -> str:
        """The texture format the target gets (8-bit ones deepened in a deep graph)."""
        return DEEP_DTYPE if self.deep and spec.dtype == "f1" else spec.dtype

    def _free(self, slots: list[moderngl.Texture], spec: TargetSpec, size: tuple[int, int],
              busy: set[int]) -> moderngl.Texture:
        for tex in slots:
            if tex.glo not in busy:
                return tex
        tex = self._new(spec, size)
        slots.append(tex)
        return tex

    def _new(self, spec: TargetSpec, size: tuple[int, int]) -> moderngl.Texture:
        tex = self.ctx.texture(size, spec.components, dtype=self.dtype(spec))
        tex.repeat_x = tex.repeat_y = False
        self.allocations += 1
        self._held += texture_bytes(tex)
        self.peak_bytes = max(self.peak_bytes, self._held)
        return tex

    def framebuffer(self, tex: moderngl.Texture) -> moderngl.Framebuffer:
        """The (cached) framebuffer that renders into `tex`."""
        fbo = self._fbos.get(tex.glo)
        if fbo is None:
            fbo = self._fbos[tex.glo] = self.ctx.framebuffer(color_attachments=[tex])
        return fbo

    def _drop(self, name: str) -> None:
        for tex in self._slots.pop(name, []):
            self._release(tex)

    def _release(self, tex: moderngl.Texture) -> None:
        fbo = self._fbos.pop(tex.glo, None)
        if fbo is not None:
            release_framebuffer(fbo)
        self._held -= texture_bytes(tex)
        tex.release()

    def release(self) -> None:
        """Release every GL object the pool owns."""
        for name in list(self._slots):
            self._drop(name)
        self._sizes.clear()
        self.trim()
        for _, _, tex in self._cleared.values():
            self._release(tex)
        self._cleared.clear()
