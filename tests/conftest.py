"""Shared fixtures: one headless EGL context per session, pipelines, synthetic test images."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from typing import Any

import moderngl
import numpy as np
import pytest

# llvmpipe compiles each shader variant with LLVM's optimization passes, which cost the suite
# more than they save: on a clean machine (CI's: no Mesa shader cache yet) compiling was much
# of its time, while the tests' pictures are small. Without them the pixels are the same (a
# portrait painted either way: identical bytes). And it rasterizes on a thread per core, which
# the suite's workers (a process per core and one) only contend for. Set before the first
# context (the workers, the CLI's and the cluster's processes inherit them); the product keeps
# Mesa's defaults.
os.environ.setdefault("GALLIVM_PERF", "nopt")
os.environ.setdefault("LP_NUM_THREADS", "1")
# The window's tests play files with sound: not on a developer's speakers, and the same on
# every machine (CI has no sound server): no PulseAudio/PipeWire server to reach. The sound
# path is tested with a stand-in output (test_gui_sound) and a simulated one (test_sound).
os.environ["PULSE_SERVER"] = "unix:/nonexistent/aquarelle-tests"

from aquarelle.engine import Renderer, create_headless_context, load_style
from aquarelle.engine.context import make_current
from aquarelle.media import adaptive

MIN_LINES = adaptive.MIN_LINES  # the product's (the tests' is 0: see lines_floor_off)


@pytest.fixture(autouse=True)
def lines_floor_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test clips are small (90-240 lines): they adapt as the big sources adaptive
    quality is for, not held at full scale by its lines floor (MIN_LINES), which would make
    them fall behind on llvmpipe (and the slow-playback hint narrow the view). The floor's
    own test sets it back."""
    monkeypatch.setattr(adaptive, "MIN_LINES", 0)


# Every composite effect off: the result is the flow-smoothed colour under white paper.
EFFECTS_OFF: dict[str, Any] = {
    "turbulence": 0.0,
    "dispersion": 0.0,
    "stroke_strength": 0.0,
    "paper_grain": 0.0,
    "paper_tooth": 0.0,
    "dither": False,
    "darks": 0.0,
    "granulation": 0.0,
    "wobble": 0.0,
    "dry_brush": 0.0,
    "outline_strength": 0.0,
    "edge_darkening": 0.0,
    "hard_edges": 0.0,
    "blooms": 0.0,
    "out_of_focus": 0.0,
    "margins": 0.0,
    "dilution": 0.0,
    "paper_color": "#ffffff",
}

# The wash effects (saliency-driven detail, tone layers, background blur and shapes, tremor,
# reserved highlights, saturation, bleeding, gaps and overlaps) off: the passes before them
# see the abstraction as it is.
WASH_OFF: dict[str, Any] = {
    "detail": 0.0,
    "quantize_levels": 0,
    "wash_size": 0.0,
    "shapes": 0.0,
    "tremor": 0.0,
    "highlights": 0.0,
    "saturation": 1.0,
    "palette": 0.0,
    "temperature": 0.0,
    "glaze": 0.0,
    "bleeding": 0.0,
    "gaps": 0.0,
    "overlaps": 0.0,
    "out_of_focus": 0.0,
}


@pytest.fixture(scope="module")
def gl_ctx() -> Iterator[moderngl.Context]:
    """A headless OpenGL 3.3 core context (EGL; Mesa llvmpipe without a GPU).

    One per test module, released at its end.

    Without one the engine cannot be tested at all, so this fails (never skips).
    """
    try:
        ctx = create_headless_context()
    except Exception as e:  # noqa: BLE001 - any failure here must fail the tests, loudly
        pytest.fail(f"no headless OpenGL context: {e}", pytrace=False)
    yield ctx
    ctx.release()


PipelineFactory = Callable[..., Renderer]


def _fresh_pipelines(gl_ctx: moderngl.Context) -> Iterator[PipelineFactory]:
    made: list[Renderer] = []

    def make(params: dict[str, Any] | None = None, style: Any = "watercolor",
             seed: int = 0, scale: float = 1.0) -> Renderer:
        p = Renderer(gl_ctx, style, seed=seed, scale=scale)
        p.inspect = True
        made.append(p)
        if params:
            warnings = p.set_params(params)
            assert not warnings, f"test parameters were clamped: {warnings}"
        return p

    yield make
    for p in made:
        p.release()


@pytest.fixture
def pipeline(gl_ctx: moderngl.Context) -> Iterator[PipelineFactory]:
    """A factory: `pipeline(params=None, style="watercolor", seed=0, scale=1.0)` (a style
    or a chain "a+b").

    Every pipeline it makes is released at the end of the test. Its intermediate targets
    are kept after each frame for the tests to read (`inspect`; test_frame_plan.py checks
    that sharing their textures changes no picture).
    """
    yield from _fresh_pipelines(gl_ctx)


@pytest.fixture
def fresh_pipeline(gl_ctx: moderngl.Context) -> Iterator[PipelineFactory]:
    """`pipeline` by another name: fresh Renderers in a module whose `pipeline` is
    `reused_pipeline`."""
    yield from _fresh_pipelines(gl_ctx)


# The renderer's settings a test may switch; `reused_pipeline` sets them back.
SWITCHES = ("draft", "draft_finish", "draft_borders", "upscale_method", "upload_ring",
            "profile", "seed", "subject_feed")


@dataclasses.dataclass
class _Made:
    renderer: Renderer
    style: Any  # kept alive: its id is in the pool's key
    switches: dict[str, Any]  # SWITCHES as made


@pytest.fixture(scope="module")
def _renderer_pool(gl_ctx: moderngl.Context) -> Iterator[dict[Any, list[_Made]]]:
    """The module's renderers for `reused_pipeline`, by (style, seed, scale)."""
    pool: dict[Any, list[_Made]] = {}
    yield pool
    for renderers in pool.values():
        for made in renderers:
            made.renderer.release()


@pytest.fixture
def reused_pipeline(gl_ctx: moderngl.Context,
                    _renderer_pool: dict[Any, list[_Made]]) -> PipelineFactory:
    """A factory like `pipeline`, whose pipelines are the module's, reused from test to test
    (a fresh one compiles its programs: many times a small frame's painting), each handed out
    set as a fresh one is: every parameter at its default under the given ones, the settings
    in SWITCHES as made, no subject given, the past forgotten. Within a test each call is
    another Renderer, as with `pipeline`. Only for tests that change nothing else in a
    pipeline (its stages, their graphs); test_robustness checks that a pipeline so reused
    paints as a fresh one."""
    taken: dict[Any, int] = {}

    def make(params: dict[str, Any] | None = None, style: Any = "watercolor",
             seed: int = 0, scale: float = 1.0) -> Renderer:
        key = (style if isinstance(style, str) else id(style), seed, scale)
        renderers = _renderer_pool.setdefault(key, [])
        i = taken[key] = taken.get(key, -1) + 1
        if i == len(renderers):
            p = Renderer(gl_ctx, style, seed=seed, scale=scale)
            renderers.append(_Made(p, style, {name: getattr(p, name) for name in SWITCHES}))
        p = renderers[i].renderer
        # current again: a test in between may have made and dropped a context of its own
        # (the CLI in-process), which a fresh Renderer's making would have undone
        make_current(gl_ctx)
        for name, value in renderers[i].switches.items():
            setattr(p, name, value)
        p.inspect = True
        p.set_subject(None)  # (what a "given" subject_feed paints with)
        defaults = {name: spec.default for name, spec in p.params.specs.items()}
        warnings = p.set_params({**defaults, **(params or {})})
        assert not warnings, f"test parameters were clamped: {warnings}"
        p.reset_history()
        return p

    return make


# The per-pass math is checked in work pixels: this copy of the style declares no reference
# frame, so sizes given in "reference pixels" are work pixels (u_px = 1) on tiny test images.
UNIT_STYLE = dataclasses.replace(load_style("watercolor"), reference_lines=0)


def _unit(factory: PipelineFactory) -> PipelineFactory:
    def make(params: dict[str, Any] | None = None, style: Any = UNIT_STYLE, seed: int = 0,
             scale: float = 1.0) -> Renderer:
        # (and the paper margins off: the passes' tests look at the whole frame)
        return factory({**WASH_OFF, "margins": 0.0, **(params or {})}, style=style, seed=seed,
                       scale=scale)

    return make


@pytest.fixture
def unit_pipeline(pipeline: PipelineFactory) -> PipelineFactory:
    """Like `pipeline`, on UNIT_STYLE, with WASH_OFF applied under the given parameters."""
    return _unit(pipeline)


@pytest.fixture
def reused_unit_pipeline(reused_pipeline: PipelineFactory) -> PipelineFactory:
    """`unit_pipeline` on `reused_pipeline`."""
    return _unit(reused_pipeline)


@pytest.fixture
def fresh_unit_pipeline(fresh_pipeline: PipelineFactory) -> PipelineFactory:
    """`unit_pipeline` on `fresh_pipeline`."""
    return _unit(fresh_pipeline)


# -- synthetic images ---------------------------------------------------------------------
# All helpers return float32 RGB images in [0,1] of shape (h, w, 3) unless noted; row 0 of
# an array is row 0 (y = 0) of the texture.

def _grey(a: np.ndarray) -> np.ndarray:
    return np.repeat(a[:, :, None], 3, axis=2).astype(np.float32)


def two_washes(h: int = 24, w: int = 64, left: tuple[int, int, int] = (200, 120, 60),
               right: tuple[int, int, int] = (60, 110, 190)) -> np.ndarray:
    """uint8: two flat colours meeting on a vertical border at x = w/2 (a 2x2 block edge,
    so the half-size washes see it exactly)."""
    img = np.empty((h, w, 3), np.uint8)
    img[:, : w // 2] = left
    img[:, w // 2:] = right
    return img


def rings(h: int, w: int, period: float = 12.0,
          center: tuple[float, float] | None = None) -> np.ndarray:
    """Concentric cosine rings around `center` (x, y in pixel-index units)."""
    cx, cy = center if center is not None else ((w - 1) / 2.0, (h - 1) / 2.0)
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    r = np.hypot(x - cx, y - cy)
    return _grey(0.5 + 0.45 * np.cos(2.0 * np.pi * r / period))


def step_edge(h: int, w: int, x0: int | None = None, lo: float = 0.2,
              hi: float = 0.8) -> np.ndarray:
    """A vertical step edge: columns < x0 are `lo`, the others `hi`."""
    x0 = w // 2 if x0 is None else x0
    a = np.full((h, w), lo, np.float64)
    a[:, x0:] = hi
    return _grey(a)


def noise(h: int, w: int, seed: int = 0, channels: int = 3) -> np.ndarray:
    """Uniform white noise in [0,1]."""
    rng = np.random.default_rng(seed)
    return rng.random((h, w, channels)).astype(np.float32)


def smooth_noise(h: int, w: int, seed: int = 0, sigma: float = 1.5) -> np.ndarray:
    """Colour noise low-passed a little: gradients of every direction and size."""
    import cv2

    a = noise(h, w, seed)
    return np.clip(cv2.GaussianBlur(a, (0, 0), sigma), 0.0, 1.0).astype(np.float32)


def stripes(h: int, w: int, period: float = 8.0, angle_deg: float = 0.0) -> np.ndarray:
    """Cosine stripes whose crests run along `angle_deg` (0: vertical stripes varying in x,
    i.e. the flow is along y; the gradient direction is (cos a, sin a))."""
    a = np.radians(angle_deg)
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    u = x * np.cos(a) + y * np.sin(a)
    return _grey(0.5 + 0.4 * np.cos(2.0 * np.pi * u / period))


def to_u8(img: np.ndarray) -> np.ndarray:
    """float [0,1] -> uint8 with rounding."""
    return np.clip(np.round(img * 255.0), 0, 255).astype(np.uint8)


# -- GUI tests first ----------------------------------------------------------------------
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the GUI tests before any test that makes a headless EGL context.

    Mesa: once a standalone EGL context has existed in a process, QOpenGLWidget's GLX context
    can no longer be made current. The app itself never meets this (its window's context
    comes first; exports make EGL contexts later), so the suite keeps the same order. Under
    pytest-xdist (scripts/test.sh) each worker keeps it too: modules go out whole and in this
    order (--dist loadfile --no-loadscope-reorder), so no worker gets a GUI module after
    another.
    """
    items.sort(key=lambda item: 0 if item.path.name.startswith("test_gui") else 1)


# -- no silent skips ----------------------------------------------------------------------
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """A test that cannot run fails: a skip (missing display, library, ...) becomes a failure."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped tests are not allowed here: {reason}"


@pytest.fixture
def python_takes_ctrl_c() -> Iterator[None]:
    """Ctrl+C as a process started in the foreground takes it (Python's own handler): the
    suite run in the background by a non-interactive shell inherits SIGINT ignored (POSIX),
    which the CLI rightly leaves alone, and a test of its Ctrl+C waited for an interrupt that
    never came (a whole-suite run hung)."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
