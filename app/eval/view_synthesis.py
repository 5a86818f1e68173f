"""A one-pass style for measuring view synthesis on its own: a shader that reads `source`
as `image` and an external `disparity` (nearest) and writes an RGBA8 view of the source's
size; its `u_shift` / `u_max_shift` are parameters. The style format has no plain external
inputs, so the evaluation and the tests build it here."""

from __future__ import annotations

from pathlib import Path

from ..engine.params import ParamSpec
from ..engine.style import InputSpec, PassSpec, StyleSpec, TargetSpec


def view_style(shader: str) -> StyleSpec:
    """The style running `shader` (e.g. "stereo/dibr.frag") alone."""
    params = (
        ParamSpec(name="shift", label="Shift", type="float", default=1.0, min=-4.0, max=4.0),
        ParamSpec(name="max_shift", label="Search radius", type="float", default=64.0,
                  min=0.0, max=1024.0),
    )
    return StyleSpec(
        name="view_synthesis", label="View synthesis", description="", params=params,
        targets={"view": TargetSpec(name="view", format="rgba8", relative_to="source")},
        graph=(PassSpec(name="view", shader=shader, output="view",
                        inputs={"image": InputSpec("source"),
                                "disparity": InputSpec("disparity", filter="nearest")},
                        # the search radius is u_max_shift alone (not a share of the width)
                        uniforms={"u_max_shift_percent": 0.0}),),
        output="view", debug_views={}, path=Path(__file__))
