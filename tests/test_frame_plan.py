"""Frame plans: a frame's passes decided once per key, and targets whose lives in the frame
do not overlap sharing one texture, with no picture changed by it."""

from __future__ import annotations

from typing import Any

import moderngl
import numpy as np
import pytest
from conftest import smooth_noise, to_u8

from aquarelle.engine.compiled_plan import reads_only_values
from aquarelle.engine.frame_plan import BYPASS, CLEAR, FOREVER, RUN, build_plan
from aquarelle.engine.renderer import Renderer
from aquarelle.engine.style import InputSpec, PassSpec, list_styles
from aquarelle.eval.timing import host_only_frame

CHAIN = "denoise+enhance+watercolor+upscale"


def clip(n: int = 3, h: int = 72, w: int = 96) -> list[np.ndarray]:
    """A picture panned 3 px a frame (motion, history and temporal passes at work)."""
    big = to_u8(smooth_noise(h, w + 3 * n, seed=4, sigma=3.0))
    return [np.ascontiguousarray(big[:, 3 * k:3 * k + w]) for k in range(n)]


@pytest.mark.parametrize("scale", [1.0, 0.5])
@pytest.mark.parametrize("style", [*list_styles(), CHAIN])
def test_sharing_textures_changes_no_picture(gl_ctx: moderngl.Context, style: str,
                                             scale: float) -> None:
    with Renderer(gl_ctx, style, scale=scale) as shared, \
            Renderer(gl_ctx, style, scale=scale) as kept:
        kept.inspect = True
        for frame in clip():
            assert np.array_equal(shared.render_array(frame), kept.render_array(frame)), style


def test_sharing_holds_fewer_textures(gl_ctx: moderngl.Context) -> None:
    frame = clip(1, 180, 320)[0]
    with Renderer(gl_ctx, "watercolor") as shared, \
            Renderer(gl_ctx, "watercolor") as kept:
        kept.inspect = True
        shared.render_array(frame)
        kept.render_array(frame)
        ratio = (shared.stages[0].graph.pool.resident_bytes()
                 / kept.stages[0].graph.pool.resident_bytes())
    # persistent targets (a video's history) are held alike by both: each one added moves the
    # ratio towards 1 (0.747 with face_lines_t and jewels_t, 0.762 with skin_spots_t)
    assert ratio < 0.77, ratio


def test_a_video_allocates_nothing_after_its_first_frames(gl_ctx: moderngl.Context) -> None:
    with Renderer(gl_ctx, "watercolor") as p:
        frames = clip(8)
        for f in frames[:3]:
            p.render(f)
        count, plans = p.stages[0].graph.pool.allocations, p.stages[0].graph.plans_built
        for f in frames[3:]:
            p.render(f)
        assert p.stages[0].graph.pool.allocations == count
        assert p.stages[0].graph.plans_built == plans == 2  # the first frame (no history), the rest


def test_a_slider_that_feeds_only_uniforms_builds_no_plan(gl_ctx: moderngl.Context) -> None:
    with Renderer(gl_ctx, "watercolor") as p:
        frames = clip(6)
        for f in frames[:3]:
            p.render(f)
        plans = p.stages[0].graph.plans_built
        for k, f in enumerate(frames[3:]):
            p.set_params({"saturation": 1.0 + 0.1 * k})
            p.render(f)
        assert p.stages[0].graph.plans_built == plans
        p.set_params({"outline_strength": 0.5})  # a pass turned on: a plan of its own
        p.render(frames[0])
        assert p.stages[0].graph.plans_built == plans + 1


def test_programs_compiled_for_seeds_go_with_their_plans(
        gl_ctx: moderngl.Context, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each seed compiles its own paper program; those of plans dropped are released, so a
    seed swept through many values holds no more than the plans kept."""
    from aquarelle.engine import graph as graph_module
    monkeypatch.setattr(graph_module, "MAX_PLANS", 3)
    frame = clip(1)[0]
    with Renderer(gl_ctx, "watercolor") as p, Renderer(gl_ctx, "watercolor") as fresh:
        g = p.stages[0].graph
        for seed in range(8):
            p.seed = seed
            p.reset_history()
            p.render_array(frame)
        papers = [k for k in g._variants if k[0] == "paper"]
        assert 1 <= len(papers) <= 4, papers  # the kept plans' (and the last frame's)
        assert g.plans_built == 8
        p.seed = 0  # a released seed's plan and program are made anew, and paint the same
        p.reset_history()
        fresh.seed = 0
        assert np.array_equal(p.render_array(frame), fresh.render_array(frame))


def test_only_kept_targets_are_readable(gl_ctx: moderngl.Context) -> None:
    frame = clip(1)[0]
    with Renderer(gl_ctx, "watercolor") as p:
        p.render(frame)
        with pytest.raises(Exception, match="not kept"):
            p.target("tensor_s")
        p.keep_targets(["tensor_s"])  # a debug view on screen
        p.render(frame)
        tensor = p.read_target("tensor_s")
        p.inspect = True
        p.render(frame)
        assert np.array_equal(tensor, p.read_target("tensor_s"))


def _pass(name: str, output: str, *reads: str, **kw: Any) -> PassSpec:
    return PassSpec(name, "x.frag", output, {r: InputSpec(r) for r in reads}, **kw)


def test_lifetimes_end_at_the_last_read_before_the_next_write() -> None:
    passes = [
        _pass("a", "t", "source"),
        _pass("b", "u", "t"),
        _pass("c", "t", "t", "u"),  # reads t, writes a new t
        _pass("d", "v", "u", when="off", bypass="u"),
        _pass("e", "w", "v", when="off", clear=(1.0,)),
        _pass("f", "out", "t", "v"),
    ]
    runs = {p.name: p.when is None for p in passes}
    steps = build_plan(passes, runs, frozenset({"out"})).steps
    assert [(s.spec.name, s.action, s.last_read) for s in steps] == [
        ("a", RUN, 2), ("b", RUN, 3), ("c", RUN, 5), ("d", BYPASS, 5), ("e", CLEAR, 4),
        ("f", RUN, FOREVER)]


def test_an_alternative_that_ran_is_not_cleared() -> None:
    passes = [_pass("fast", "t", "source", when="draft"),
              _pass("slow", "t", "source", when="!draft"),
              _pass("out", "out", "t")]
    steps = build_plan(passes, {"fast": True, "slow": False, "out": True},
                       frozenset({"out"})).steps
    assert [s.spec.name for s in steps] == ["fast", "out"]
    assert steps[0].last_read == 1


def test_values_whose_lives_do_not_overlap_share_a_register() -> None:
    passes = [
        _pass("a", "t", "source"),
        _pass("b", "u", "t"),  # t's last read
        _pass("c", "v", "u"),  # may reuse t's texture, not u's (its input)
        _pass("d", "w", "v", "u"),
        _pass("e", "out", "w"),
    ]
    runs = {p.name: True for p in passes}
    steps = build_plan(passes, runs, frozenset({"out"}), lambda n: "rgba16f").steps
    assert [s.register for s in steps] == [0, 1, 0, 2, None]


def test_a_bypass_keeps_the_value_it_stands_for_alive() -> None:
    passes = [
        _pass("a", "t", "source"),
        _pass("b", "u", "t", when="off", bypass="t"),  # u is t's texture from here on
        _pass("c", "v", "source"),  # t's value is still read (as u) below: not its texture
        _pass("d", "out", "u", "v"),
    ]
    runs = {p.name: p.when is None for p in passes}
    steps = build_plan(passes, runs, frozenset({"out"}), lambda n: "rgba8").steps
    assert [(s.spec.name, s.register) for s in steps] == [
        ("a", 0), ("b", None), ("c", 1), ("d", None)]


def test_a_value_a_kept_target_stands_for_keeps_a_texture_of_its_own() -> None:
    # `hist` is kept for the next frame; bypassed, it is `t`'s texture: t must not lend it.
    passes = [_pass("a", "t", "source"), _pass("h", "hist", "t", when="off", bypass="t"),
              _pass("o", "out", "t")]
    steps = build_plan(passes, {"a": True, "h": False, "o": True},
                       frozenset({"out", "hist"}), lambda n: "rgba8").steps
    assert [s.register for s in steps] == [None, None, None]


def test_the_executor_allocates_nothing_a_frame(gl_ctx: moderngl.Context) -> None:
    # A video frame of the default, draws stubbed: after its first frames, what the per-frame
    # loop leaves allocated does not grow (tracemalloc, engine files only).
    import tracemalloc

    with Renderer(gl_ctx, "watercolor") as p:
        first, second = clip(2)
        p.render(first)
        run = host_only_frame(p.stages[0].graph, lambda: p.render(second))
        tracemalloc.start()
        try:
            for _ in range(5):
                run()
            before = tracemalloc.take_snapshot()
            for _ in range(40):
                run()
            after = tracemalloc.take_snapshot()
        finally:
            tracemalloc.stop()
    grown = sum(d.count_diff for d in after.compare_to(before, "filename")
                if "engine" in d.traceback[0].filename and d.count_diff > 0)
    assert grown < 10, grown  # a block a frame would be 40


@pytest.mark.parametrize("style", ["watercolor", CHAIN])
def test_a_still_releasing_as_it_goes_paints_the_same(gl_ctx: moderngl.Context,
                                                      style: str) -> None:
    # A still (no history kept) releases each shared texture after its last use in the
    # frame: the picture is the one every target kept paints, with less held at the peak.
    frame = clip(1, 180, 320)[0]
    with Renderer(gl_ctx, style) as lean, Renderer(gl_ctx, style) as kept:
        lean.keep_history = kept.keep_history = False
        kept.inspect = True
        assert np.array_equal(lean.render_array(frame), kept.render_array(frame))
        if style == "watercolor":
            lean.stages[0].graph.pool.peak_bytes = 0
            lean.render_array(frame)
            kept_bytes = kept.stages[0].graph.pool.resident_bytes()
            # measured 0.52 (0.44 before the composite read the wide wash too, for the
            # faces' stated darks, 119a81c; 0.3-0.4 before the structure tensor went to half
            # floats, whose textures the abstraction's 32-bit ones cannot share)
            assert lean.stages[0].graph.pool.peak_bytes < 0.55 * kept_bytes


def test_a_switched_off_pass_read_only_by_lookups_clears_one_texel(
        gl_ctx: moderngl.Context) -> None:
    # Outlines off: the composite samples the cleared outline target only by texture() (in
    # a function it hands it to as well): a 1x1 texture reads the same everywhere.
    with Renderer(gl_ctx, "watercolor") as p:
        p.render(clip(1)[0])
        cleared = {op.name: op.size for op in p.stages[0].graph.plan.ops if op.action == CLEAR}
    assert cleared["xdog"] == (1, 1)


def test_a_switched_off_value_a_bypass_hands_on_clears_one_texel(
        gl_ctx: moderngl.Context) -> None:
    # The rigger off (its default) in a still: its cleared lines reach the composite through
    # its temporal blend's bypass, under another name, and are only sampled there; they
    # held a picture-sized texture (66 MB at 4K, the 3840x2160 still's peak 435 -> 489 MB).
    with Renderer(gl_ctx, "watercolor") as p:
        p.keep_history = False
        p.render(clip(1)[0])
        cleared = {op.name: op.size for op in p.stages[0].graph.plan.ops if op.action == CLEAR}
    assert cleared["rigger"] == (1, 1)


@pytest.mark.parametrize(("body", "only_values"), [
    ("float a = texture(e, uv).r + e2;", True),
    ("ivec2 s = textureSize(e, 0);", False),
    ("float a = f(uv, e);", True),  # f samples it
    ("float a = g(uv, e);", False),  # g fetches texels by index
    ("float a = texelFetch(e, ivec2(0), 0).r;", False),
])
def test_reads_only_values(body: str, only_values: bool) -> None:
    text = ("uniform sampler2D e;\n// textureSize(e, 0) in a comment\n"
            "float f(vec2 q, sampler2D s) { return texture(s, q).r; }\n"
            "float g(vec2 q, sampler2D s) { return texelFetch(s, ivec2(q), 0).r; }\n"
            f"void main() {{ {body} }}\n")
    assert reads_only_values(text, "e") is only_values


def test_a_still_is_read_back_over_its_own_picture(gl_ctx: moderngl.Context) -> None:
    # paint_still reads the painting straight into the picture's array (one 4K picture in
    # memory, not three): the same bytes as a plain readback.
    from aquarelle.engine.still import paint_still

    frame = clip(1, 180, 320)[0]
    with Renderer(gl_ctx, "watercolor") as p:
        p.keep_history = False
        expected = p.render_array(frame)
        picture = frame.copy()
        painted = paint_still(p, picture)
    assert np.array_equal(painted, expected)
    assert np.shares_memory(painted, picture)


def test_texture_pools_hold_what_a_frame_draws(pipeline):
    """Renderer.texture_pools: the style's graph's pool (and a chain's, every style's), as
    `aquarelle bench` reports a video frame's textures."""
    from aquarelle.cli.bench import video_textures_mb

    img = np.zeros((64, 96, 3), np.uint8)
    p = pipeline()
    p.render_array(img)
    pools = p.texture_pools()  # the style's graph, and the draft finish's
    assert pools[0] is p.stages[0].graph.pool and pools[0].resident_bytes() > 0
    assert video_textures_mb(p, img) * 2 ** 20 >= sum(q.resident_bytes() for q in pools)
    chain = pipeline(style="denoise+watercolor")
    chain.render_array(img)
    held = {id(q) for q in chain.texture_pools()}
    assert all(id(stage.graph.pool) in held for stage in chain.stages)


def test_a_parameter_named_as_a_frame_built_in_is_refused(gl_ctx, tmp_path):
    """The exposure key's frame uniform was first named u_exposure: adjust's exposure
    parameter (u_exposure) was then silently set to the key's gain on every frame."""
    import json

    from aquarelle.engine.errors import StyleError
    from aquarelle.engine.renderer import Renderer
    from aquarelle.engine.style import load_style

    data = json.loads((load_style("adjust").path).read_text())
    data["params"].append({"name": "key_gain", "type": "float", "min": 0.0, "max": 2.0,
                           "default": 1.5})
    # (u_key_gain is a frame uniform: the exposure key's gain, which prepare.frag reads)
    # (its face map, which the shadow key reads, any texture here)
    data["passes"] = [{"name": "keyed", "shader": "watercolor/prepare.frag",
                       "inputs": {"source": "source", "subject": "source"},
                       "output": "result"}]
    path = tmp_path / "clash.json"
    path.write_text(json.dumps(data))
    with pytest.raises(StyleError, match="u_key_gain is a built-in the engine sets"):
        Renderer(gl_ctx, load_style(path)).render_array(np.zeros((16, 16, 3), np.uint8))
