"""Both install modes find shaders/ and assets/ at run time: editable and a plain install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent


def test_editable_install_uses_the_checkout() -> None:
    from aquarelle.resources import assets_dir, shaders_dir

    assert shaders_dir().resolve() == (REPO / "shaders").resolve()
    assert (assets_dir() / "styles" / "watercolor.json").is_file()


def test_plain_install_finds_data_and_renders(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", "docs", "tests", ".*cache"))
    target = tmp_path / "site"
    res = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                          "--no-build-isolation", "--target", str(target), str(src)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    shutil.rmtree(src)  # the installed copy must not depend on the source tree
    img = tmp_path / "in.png"
    cv2.imwrite(str(img), np.full((24, 40, 3), (40, 120, 200), np.uint8))
    env = {**os.environ, "PYTHONPATH": str(target)}
    code = ("from aquarelle.resources import shaders_dir, assets_dir; "
            "print(shaders_dir()); print(assets_dir())")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert all(Path(p).resolve().is_relative_to(target.resolve()) for p in out), out
    assert (Path(out[0]) / "watercolor" / "composite.frag").is_file()
    for model in ("face_detection_short_range", "face_landmark", "selfie_segmentation"):
        assert (Path(out[1]) / "models" / f"{model}.tflite").is_file()  # the subject models
    assert (Path(out[1]) / "models" / "LICENSE.txt").is_file()
    res = subprocess.run([sys.executable, "-m", "aquarelle", "render", str(img), "-o",
                          str(tmp_path / "out.png"), "--preset", "ink_and_wash"],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    out_img = cv2.imread(str(tmp_path / "out.png"))
    assert out_img.shape == (24, 40, 3)
    # the learned filters (.npy) and the draft finish (styles/parts/) are shipped too
    res = subprocess.run([sys.executable, "-m", "aquarelle", "render", str(img), "-o",
                          str(tmp_path / "up.png"), "--style", "upscale", "-q"],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert cv2.imread(str(tmp_path / "up.png")).shape == (48, 80, 3)
    res = subprocess.run([sys.executable, "-m", "aquarelle", "render", str(img), "-o",
                          str(tmp_path / "half.png"), "--scale", "0.5", "-q"],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
