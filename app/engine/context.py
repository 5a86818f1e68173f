"""OpenGL contexts: a headless one for the CLI, exports and tests (EGL on Linux, then GLX;
WGL on Windows; CGL on macOS: `platforms.gl_backends`), or the current one (GUI)."""

from __future__ import annotations

import moderngl

from ..platforms import (
    current_gl_backends,
    current_gl_help,
    return_freed_heap,
    software_renderer,
)
from .errors import GLUnavailableError

REQUIRED_VERSION = 330


def create_headless_context() -> moderngl.Context:
    """A standalone OpenGL 3.3 core context without a window, through the first of this
    system's backends that works (Mesa llvmpipe through EGL works without a GPU)."""
    failures = []
    for backend in current_gl_backends():
        try:
            if backend is None:
                ctx = moderngl.create_standalone_context(require=REQUIRED_VERSION)
            else:
                ctx = moderngl.create_standalone_context(backend=backend,
                                                         require=REQUIRED_VERSION)
        except Exception as e:  # moderngl raises plain Exception from glcontext
            failures.append(f"{backend or 'default'}: {e}")
            continue
        _check_version(ctx)
        return ctx
    raise GLUnavailableError(f"cannot create a headless OpenGL 3.3 context "
                             f"({'; '.join(failures)}); {current_gl_help()}")


def wrap_current_context() -> moderngl.Context:
    """Wrap the context current on this thread (e.g. the desktop app's QOpenGLWidget)."""
    try:
        ctx = moderngl.create_context(require=REQUIRED_VERSION)
    except Exception as e:
        raise GLUnavailableError(f"no usable OpenGL 3.3 core context is current ({e})") from None
    _check_version(ctx)
    return ctx


def make_current(ctx: moderngl.Context) -> None:
    """Make `ctx` current on this thread, and leave it so: a caller's context must stay
    usable after an engine call (`with ctx:` on EGL leaves no context current on exit)."""
    ctx.__enter__()


def _check_version(ctx: moderngl.Context) -> None:
    if ctx.version_code < REQUIRED_VERSION:
        raise GLUnavailableError(
            f"OpenGL 3.3 core is required; {renderer_string(ctx)} offers {ctx.version_code}")


def renderer_string(ctx: moderngl.Context) -> str:
    """The GL renderer and version, for reports and benchmarks."""
    info = ctx.info
    return f"{info['GL_RENDERER']} ({info['GL_VERSION']})"


def cpu_renderer(ctx: moderngl.Context) -> bool:
    """Whether the context renders on the CPU (Mesa llvmpipe and kin): its "GPU" memory is
    the process's, so buffer rings would only copy twice, and nothing runs beside the host."""
    return software_renderer(ctx.info["GL_RENDERER"])


def reset_draw_state(ctx: moderngl.Context) -> None:
    """Put the state every engine draw assumes: no blending, depth test, culling or scissor.

    A context the engine shares (the desktop app's, which Qt also paints with) may be left
    with blending on: each pass would then blend into what its target held before, and a
    still re-rendered converged on the right picture only after some 20 renders.
    """
    ctx.disable(moderngl.BLEND | moderngl.DEPTH_TEST | moderngl.CULL_FACE)
    ctx.blend_func = moderngl.DEFAULT_BLENDING
    ctx.scissor = None


def release_framebuffer(fbo: moderngl.Framebuffer) -> None:
    """Release a framebuffer; the bound one hands its binding to the default framebuffer
    first: moderngl restores the bound framebuffer after a read, and a released name there
    fails the next call (GL_INVALID_OPERATION, reported by whatever comes next)."""
    if fbo.ctx.fbo is fbo:
        fbo.ctx.detect_framebuffer(0).use()
    fbo.release()


def released(obj: moderngl.Texture) -> bool:
    """Whether a GL object was released (moderngl swaps its handle for an InvalidObject)."""
    return type(obj.mglo).__name__ == "InvalidObject"


def collect_garbage(ctx: moderngl.Context) -> int:
    """Release GL objects that Python collected (gc_mode "context_gc"), on this thread.

    Like ctx.gc(), but skips objects released explicitly before they were collected
    (moderngl 5.13 queues those as InvalidObject, which ctx.gc() fails on).
    """
    count = 0
    objects = ctx.objects
    while objects:
        obj = objects.popleft()
        release = getattr(obj, "release", None)
        if release is not None:
            release()
            count += 1
    return count


def return_freed_memory(ctx: moderngl.Context) -> None:
    """Hand the memory of released textures back to the system now: a CPU renderer's
    textures live in the process's heap (a still's working textures, freed before its
    readback, would otherwise still count)."""
    ctx.finish()  # the driver frees a released texture once no draw uses it
    return_freed_heap()
