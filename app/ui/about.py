"""What Help > About says: the version, what the painting runs on (in truth: a CPU renderer
is named as one), the licence and whose work ships inside."""

from __future__ import annotations

from ..platforms import software_renderer


def about_text(version: str, renderer: str) -> str:
    """The About box's text for Aquarelle `version` painting with the GL `renderer` string
    (empty before the picture's context exists)."""
    if not renderer:
        runs = "Painting on: not started yet"
    elif software_renderer(renderer):
        runs = (f"Painting on the CPU: {renderer}, a software renderer (slow; with a GPU's "
                "own driver it paints many times faster)")
    else:
        runs = f"Painting on the GPU: {renderer}"
    return (f"Aquarelle {version}\nLive watercolor painting of photos, videos and cameras.\n\n"
            f"{runs}\n\n"
            "Licence: MIT.\n"
            "Face and person models: Google MediaPipe's, Apache License 2.0 "
            "(assets/models).\n"
            "Demo pictures: scikit-image's sample data, no copyright restrictions "
            "(assets/demo).\n"
            "Built on PyQt6, moderngl, OpenCV, PyAV (FFmpeg) and NumPy, each under its own "
            "licence.")
