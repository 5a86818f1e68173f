"""Errors raised by the engine; each carries a message fit for a one-line report."""


class AquarelleError(Exception):
    """Base class of every error the user should see as a clean one-line message."""


class GLUnavailableError(AquarelleError):
    """No OpenGL 3.3 core context could be made or found."""


class ParamError(AquarelleError, ValueError):
    """A parameter name or value is invalid."""


class FrameError(AquarelleError, ValueError):
    """A frame that the engine cannot take (wrong shape, type or size)."""


class StyleError(AquarelleError):
    """A style or preset description is missing or malformed."""


class ShaderCompileError(AquarelleError):
    """A GLSL program failed to compile or link; names the file and line."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"shader error in {where}: {message}")
