"""Enlarging a rendered picture with the `upscale` style (learned x2 filters by default):
what the engine uses when it paints below full resolution (processing scale < 1, live
adaptive quality) and then brings the picture back to the source's size."""

from __future__ import annotations

import math

import moderngl

from .fit import FrameFitter
from .frame_info import FrameInfo
from .graph import PassGraph
from .params import ParamSet
from .style import load_style

# The cheapest of the upscale style's methods that keeps edges: live adaptive quality's
# enlargement (5 ms to 1280x720 on llvmpipe; EASU 7.6, the learned filters 45)
FAST_METHOD = "bicubic"
MAX_FACTOR = 4.0  # the upscale style's range; beyond it its last pass goes the rest of the way


class Upscaler:
    """Upscales textures to a requested size (call from the context's thread)."""

    def __init__(self, ctx: moderngl.Context, method: str = "learned") -> None:
        """`method`: one of the upscale style's ("learned", "easu", "bicubic"), or
        "bilinear" (the plain enlargement, for comparisons)."""
        self.ctx = ctx
        bilinear = method == "bilinear"
        style = load_style("upscale")
        self.params = ParamSet(style.params)
        if not bilinear:
            self.params.update({"method": method})
        # bilinear needs only the fitter: no upscale passes to compile
        self.graph = None if bilinear else PassGraph(ctx, style)
        self.fitter = FrameFitter(ctx)

    def upscale(self, tex: moderngl.Texture, size: tuple[int, int]) -> moderngl.Texture:
        """`tex` enlarged to `size` (w, h) as an RGBA8 texture this object owns (valid until
        the next call). Sizes that are not larger are only resampled."""
        factor = min(size[0] / tex.width, size[1] / tex.height)
        if factor <= 1.0 or self.graph is None:
            return self.fitter.draw(tex, size, "stretch")
        factor = min(MAX_FACTOR, factor)
        if factor == 2.0 and tuple(size) != (2 * tex.width, 2 * tex.height):
            # x2 in one direction, a pixel more in the other (1280x853 from 640x426): below
            # 2 the style resamples the learned x2 to the exact size itself
            factor = math.nextafter(2.0, 0.0)
        self.params.update({"factor": factor})
        # the style's last pass makes exactly `size` (beyond its range too: the resample
        # after x4, or EASU, goes the rest of the way)
        exact = {"sized": tuple(size), "result": tuple(size)}
        self.graph.run(FrameInfo(source=tex, work_size=tex.size, seed=0, frame=0, scale=1.0,
                                 keep_history=False, sizes=exact), self.params.values())
        return self.graph.output()

    def release(self) -> None:
        if self.graph is not None:
            self.graph.release()
        self.fitter.release()
