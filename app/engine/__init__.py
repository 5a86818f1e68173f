"""The GPU stylization engine. It never imports Qt: the GUI, the CLI and tests share it."""

from .context import create_headless_context, renderer_string, wrap_current_context
from .errors import AquarelleError, GLUnavailableError, ParamError, ShaderCompileError, StyleError
from .params import ParamSet, ParamSpec
from .presets import Preset, list_presets, load_preset
from .renderer import Renderer
from .style import StyleSpec, list_styles, load_style
from .style_stage import FrameError

__all__ = [
    "AquarelleError", "FrameError", "GLUnavailableError", "ParamError", "ParamSet", "ParamSpec",
    "Preset", "Renderer", "ShaderCompileError", "StyleError", "StyleSpec",
    "create_headless_context", "list_presets", "list_styles", "load_preset", "load_style",
    "renderer_string", "wrap_current_context",
]
