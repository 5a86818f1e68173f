"""OpenGL contexts: a headless EGL context for the CLI and tests, or the current one (GUI)."""

from __future__ import annotations

import moderngl

from .errors import GLUnavailableError

REQUIRED_VERSION = 330


def create_headless_context() -> moderngl.Context:
    """A standalone OpenGL 3.3 core context through EGL (Mesa llvmpipe works without a GPU)."""
    try:
        ctx = moderngl.create_standalone_context(backend="egl", require=REQUIRED_VERSION)
    except Exception as e:  # moderngl raises plain Exception from glcontext
        raise GLUnavailableError(
            f"cannot create a headless OpenGL 3.3 context through EGL ({e}); "
            "install libegl1 and libgl1-mesa-dri") from None
    _check_version(ctx)
    return ctx


def wrap_current_context() -> moderngl.Context:
    """Wrap the context current on this thread (e.g. the desktop app's QOpenGLWidget)."""
    try:
        ctx = moderngl.create_context(require=REQUIRED_VERSION)
    except Exception as e:
        raise GLUnavailableError(f"no usable OpenGL 3.3 core context is current ({e})") from None
    _check_version(ctx)
    return ctx


def _check_version(ctx: moderngl.Context) -> None:
    if ctx.version_code < REQUIRED_VERSION:
        raise GLUnavailableError(
            f"OpenGL 3.3 core is required; {renderer_string(ctx)} offers {ctx.version_code}")


def renderer_string(ctx: moderngl.Context) -> str:
    """The GL renderer and version, for reports and benchmarks."""
    info = ctx.info
    return f"{info['GL_RENDERER']} ({info['GL_VERSION']})"
