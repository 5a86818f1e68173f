"""View synthesis for stereoscopic 3D: depth-image-based rendering (shaders/stereo/dibr.frag)
against the one-tap shift (shaders/stereo/naive_shift.frag), on a real stereo pair.

scikit-image's Middlebury 2014 motorcycle (741x500): the right view is made from the left
image and the left view's ground-truth disparity (invalid ground truth filled, for the warp
only, with the row's nearest valid background value), u_shift = 1, and compared with the real
right image on the pixels visible in both views: a right pixel counts when a left pixel with
valid ground truth lands on it (rounded, so within 0.5 px) and is the nearest of all the left
pixels landing there (a z-buffered forward splat). PSNR on RGB, SSIM on BT.601 luma (the SSIM
map averaged over those pixels). Speed: ms per frame (upload of picture and disparity, the
pass, glFinish; no readback), median of runs. Also writes docs/stereo/view_synthesis_crops.jpg
(real right | naive | dibr, 2x nearest).

The passes run in a one-pass StyleSpec (`aquarelle.eval.view_synthesis.view_style`): the
style format has no declaration for a plain external input, so the disparity is handed to
PassGraph through FrameInfo.externals.

Run: .venv/bin/python scripts/eval_view_synthesis.py [--write BENCHMARKS.md] [--runs 5]
"""

from __future__ import annotations

import argparse
import math
import sys
from datetime import date
from pathlib import Path

import cv2
import moderngl
import numpy as np
import skimage.data
from skimage.metrics import structural_similarity

from aquarelle.engine import create_headless_context, renderer_string
from aquarelle.engine.frame_info import FrameInfo
from aquarelle.engine.graph import PassGraph
from aquarelle.eval.report import replace_section
from aquarelle.eval.timing import median_ms
from aquarelle.eval.view_synthesis import view_style

ROOT = Path(__file__).resolve().parent.parent
SHADERS = {"naive shift": "stereo/naive_shift.frag", "dibr": "stereo/dibr.frag"}
CROP = (150, 380, 130, 150)  # y, x, h, w of the comparison crop (right view coordinates)


class ViewSynth:
    """A view-synthesis pass with its picture and disparity textures, reused frame after
    frame."""

    def __init__(self, ctx: moderngl.Context, shader: str, size: tuple[int, int],
                 disparity_size: tuple[int, int] | None = None) -> None:
        self.ctx = ctx
        self.graph = PassGraph(ctx, view_style(shader))
        self.image = ctx.texture(size, 4, dtype="f1", alignment=1)
        self.disparity = ctx.texture(disparity_size or size, 1, dtype="f4", alignment=4)

    def run(self, image: np.ndarray, disparity: np.ndarray, shift: float,
            max_shift: float) -> None:
        """Upload and render (no readback)."""
        if image.shape[2] == 3:
            image = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
        self.image.write(np.ascontiguousarray(image, np.uint8).tobytes())
        self.disparity.write(np.ascontiguousarray(disparity, np.float32).tobytes())
        frame = FrameInfo(source=self.image, work_size=self.image.size, seed=0, frame=0,
                          scale=1.0, externals={"disparity": self.disparity})
        self.graph.run(frame, {"shift": float(shift), "max_shift": float(max_shift)})

    def render(self, image: np.ndarray, disparity: np.ndarray, shift: float,
               max_shift: float) -> np.ndarray:
        """The new view, (h, w, 4) uint8."""
        self.run(image, disparity, shift, max_shift)
        out = self.graph.output()
        return np.frombuffer(out.read(alignment=1), np.uint8).reshape(
            out.height, out.width, 4).copy()

    def release(self) -> None:
        self.graph.release()
        self.image.release()
        self.disparity.release()


def fill_invalid(disp: np.ndarray) -> np.ndarray:
    """Non-finite disparities replaced by the row's nearest valid value on the background
    side (the smaller of the nearest valid values left and right; 0 for an empty row)."""
    h, w = disp.shape
    valid = np.isfinite(disp)
    cols = np.arange(w)
    out = np.where(valid, disp, 0.0).astype(np.float32)
    for y in range(h):
        v = valid[y]
        if v.all() or not v.any():
            continue
        left_idx = np.maximum.accumulate(np.where(v, cols, -1))
        right_idx = np.minimum.accumulate(np.where(v, cols, w)[::-1])[::-1]
        left = np.where(left_idx >= 0, disp[y, np.clip(left_idx, 0, w - 1)], np.inf)
        right = np.where(right_idx < w, disp[y, np.clip(right_idx, 0, w - 1)], np.inf)
        out[y, ~v] = np.minimum(left, right)[~v]
    return out


def visible_mask(disp: np.ndarray, filled: np.ndarray) -> np.ndarray:
    """Right-view pixels visible in both views: the nearest left pixel landing there (left
    pixel x lands at round(x - d), every left pixel with its filled disparity competing) has
    valid ground truth."""
    h, w = disp.shape
    ys, xs = np.mgrid[0:h, 0:w]
    j = np.floor(xs - filled + 0.5).astype(np.int64)
    inside = (j >= 0) & (j < w)
    flat = (ys * w + np.clip(j, 0, w - 1))[inside]
    zbuf = np.full(h * w, -np.inf)
    np.maximum.at(zbuf, flat, filled[inside].astype(np.float64))
    zvalid = np.full(h * w, -np.inf)
    valid_d = np.where(np.isfinite(disp), filled, -np.inf)[inside].astype(np.float64)
    np.maximum.at(zvalid, flat, valid_d)
    return (np.isfinite(zbuf) & (zvalid == zbuf)).reshape(h, w)


def luma(rgb: np.ndarray) -> np.ndarray:
    """BT.601 luma of 8-bit sRGB values, in [0, 1]."""
    return (rgb[..., :3].astype(np.float64) / 255.0) @ np.array([0.299, 0.587, 0.114])


def scores(ref: np.ndarray, out: np.ndarray, mask: np.ndarray) -> tuple[float, float]:
    """(PSNR in dB on RGB, mean SSIM on luma) over the masked pixels."""
    diff = ref[..., :3].astype(np.float64) - out[..., :3].astype(np.float64)
    mse = float(np.mean(diff[mask] ** 2))
    psnr = 10 * math.log10(255.0 ** 2 / max(mse, 1e-12))
    _, ssim_map = structural_similarity(luma(ref), luma(out), data_range=1.0, full=True)
    return psnr, float(ssim_map[mask].mean())


def crops(views: dict[str, np.ndarray], out_dir: Path) -> Path:
    """Real right | naive | dibr, a crop enlarged 2x (nearest), labelled."""
    y, x, h, w = CROP
    row = []
    for text, img in views.items():
        tile = cv2.resize(np.ascontiguousarray(img[y:y + h, x:x + w, :3]), (2 * w, 2 * h),
                          interpolation=cv2.INTER_NEAREST)
        cv2.putText(tile, text, (7, 23), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 3)
        cv2.putText(tile, text, (7, 23), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1)
        row.append(tile)
        row.append(np.full((2 * h, 4, 3), 255, np.uint8))
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "view_synthesis_crops.jpg"
    cv2.imwrite(str(path), np.hstack(row[:-1])[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", help="replace the view-synthesis section in this Markdown file")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    left, right, disp = skimage.data.stereo_motorcycle()
    disp = disp.astype(np.float32)
    filled = fill_invalid(disp)
    mask = visible_mask(disp, filled)
    max_shift = float(np.ceil(np.abs(filled).max()))
    h, w = disp.shape
    ctx = create_headless_context()
    results: dict[str, tuple[float, float, float]] = {}
    views: dict[str, np.ndarray] = {"real right": right}
    try:
        renderer = renderer_string(ctx)
        for label, shader in SHADERS.items():
            synth = ViewSynth(ctx, shader, (w, h))
            try:
                out = synth.render(left, filled, 1.0, max_shift)
                ms = median_ms(lambda s=synth: (s.run(left, filled, 1.0, max_shift),
                                                ctx.finish()), args.runs)
            finally:
                synth.release()
            views[label] = out
            results[label] = (*scores(right, out, mask), ms)
            print(label, results[label], flush=True)
        picture = crops(views, ROOT / "docs" / "stereo")
    finally:
        ctx.release()
    gain = results["dibr"][0] - results["naive shift"][0]
    rel = picture.relative_to(ROOT)
    lines = [
        f"Command: `python scripts/eval_view_synthesis.py --runs {args.runs}` ({date.today()})  ",
        f"GL renderer: `{renderer}`  ",
        f"Middlebury 2014 motorcycle ({w}x{h}, scikit-image): the right view made from the left "
        "image and the left view's ground-truth disparity (u_shift = 1, search radius "
        f"{max_shift:.0f} px), scored against the real right image on the "
        f"{100 * mask.mean():.1f} % of its pixels visible in both views. PSNR on RGB, SSIM on "
        "BT.601 luma; ms per frame: upload of picture and disparity, the pass, glFinish "
        "(median of runs).",
        "",
        "| method | PSNR (dB) | SSIM (luma) | ms per frame |",
        "|---|---:|---:|---:|",
        *[f"| {label} | {p:.2f} | {s:.4f} | {ms:.1f} |"
          for label, (p, s, ms) in results.items()],
        "",
        f"DIBR over the one-tap shift: {gain:+.2f} dB. "
        f"Crops (2x nearest; real right, naive, dibr): [{rel}]({rel}).",
    ]
    md = "\n".join(lines)
    print(md)
    if args.write:
        replace_section(args.write, "view-synthesis", md,
                        "## View synthesis: `scripts/eval_view_synthesis.py`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
