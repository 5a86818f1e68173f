"""Help > About tells the truth about what paints (trial W11: "on the GPU" on llvmpipe)."""

from __future__ import annotations

from aquarelle.ui.about import about_text

LLVMPIPE = "llvmpipe (LLVM 15.0.6, 256 bits) (4.5 (Core Profile) Mesa 22.3.6)"
NVIDIA = "NVIDIA H200/PCIe/SSE2 (4.6.0 NVIDIA 550.54.15)"


def test_a_software_renderer_is_named_as_the_cpu():
    text = about_text("1.2.3", LLVMPIPE)
    assert "Aquarelle 1.2.3" in text
    assert f"Painting on the CPU: {LLVMPIPE}, a software renderer" in text
    assert "GPU:" not in text


def test_a_gpu_is_named_as_the_gpu():
    text = about_text("1.2.3", NVIDIA)
    assert f"Painting on the GPU: {NVIDIA}" in text and "software" not in text


def test_before_the_picture_starts_nothing_is_claimed():
    text = about_text("1.2.3", "")
    assert "Painting on: not started yet" in text and "GPU:" not in text and "CPU:" not in text


def test_the_licences_of_what_ships_are_named():
    text = about_text("1.2.3", NVIDIA)
    assert "Licence: MIT" in text and "MediaPipe" in text and "Apache License 2.0" in text
    assert "scikit-image" in text
