"""Pictures and statistics of the watercolor look: docs/look/ and the look table.

Renders scikit-image's public-domain photos (chelsea, coffee, astronaut, rocket, the grey
cameraman, the Hubble deep field, a motorcycle) with the default, every preset and
`cv2.stylization`:

- docs/look/presets_<photo>.jpg: source | cv2.stylization | default | each preset;
- docs/look/<phenomenon>.jpg: 100% crops of the photo at 1280 px wide (cubic upscale):
  source | previous default (the look before 0.2: PREVIOUS_VALUES) | new default;
- docs/look/hard_edges.jpg, blooms.jpg, hair_flow.jpg, glaze.jpg, margins.jpg: 100% crops,
  photo | the default with that parameter at 0 | the default;
- docs/look/resolution.jpg: the default on chelsea painted at 640, 1280 and 4032 px wide (a
  phone photo's width), each shown at 640: the same look at any resolution;
- with --write BENCHMARKS.md, the look table: detail kept away from the subject (mean
  gradient energy where the saliency map is below 0.3, relative to the source) and the
  fraction of bare or nearly bare paper (within 6% of the paper colour's luma).

Run: .venv/bin/python scripts/make_look_docs.py [--write BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import skimage.data

from aquarelle.engine import Renderer, create_headless_context, list_presets
from aquarelle.eval.report import replace_section

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "look"
PHOTOS = ("chelsea", "coffee", "astronaut", "rocket", "camera", "hubble_deep_field",
          "stereo_motorcycle")
TILE_HEIGHT = 260
WIDE = 1280
PREVIOUS = "the look before 0.2"
# the look before 0.2 (the photo_wash preset's values until it became a tight study)
PREVIOUS_VALUES = {
    "quantize_levels": 0, "detail": 0.0, "abstraction_iterations": 2, "sigma_d": 2.0,
    "sigma_r": 6.0, "bleeding": 0.0, "gaps": 0.0, "overlaps": 0.0, "tremor": 0.0,
    "highlights": 0.0, "saturation": 1.0, "edge_darkening": 2.0, "edge_width": 1.5,
    "stroke_strength": 0.5, "dispersion": 0.15, "turbulence": 0.7, "dilution": 0.2,
    "granulation": 0.3, "paper_grain": 0.5}
# (file, photo, what it shows, crop x, y, w, h at 1280 px wide)
PHENOMENA = (
    ("washes", "coffee", "washes, not a filtered photo: tones merge into flat-ish layers",
     40, 80, 420, 320),
    ("pooling", "coffee", "pigment pooled along the inside of each wash's border",
     300, 20, 420, 320),
    ("gaps_overlaps", "astronaut", "gaps of bare paper and darker overlaps where washes meet",
     700, 500, 420, 320),
    ("bleeding", "astronaut", "wet-in-wet: washes feather into each other, mostly in the "
     "background", 800, 40, 420, 320),
    ("subject_detail", "chelsea", "the subject keeps its drawing, the background dissolves",
     280, 120, 420, 320),
    ("highlights", "coffee", "highlights reserved as bare paper", 520, 80, 420, 320),
    ("sky", "rocket", "a graded sky: soft tones where the photo changes slowly", 100, 0,
     420, 320),
)
# (file, parameter, what it shows, [(photo, crop x, y) at 1280 px wide, ...]): 100% crops of
# the photo, the default with the parameter at 0, and the default
TOGGLES = (
    ("hard_edges", "hard_edges", "dried washes stop at hard borders, pigment pooled inside",
     (("coffee", 300, 180), ("chelsea", 420, 90), ("stereo_motorcycle", 560, 300))),
    ("blooms", "blooms", "blooms (backruns) in wet washes: a pale inside, a dark branching "
     "front", (("stereo_motorcycle", 0, 644), ("coffee", 0, 633))),
    ("hair_flow", "hair_flow", "a figure's hair and clothes laid along their flow: long "
     "shapes that follow the strands and folds, not blobs",
     (("astronaut", 340, 30), ("astronaut", 600, 60), ("astronaut", 120, 760))),
    ("glaze", "glaze", "shadows laid as one transparent glaze over the dried first layer: its "
     "hard border follows the form across the first layer's washes",
     (("coffee", 60, 420), ("stereo_motorcycle", 520, 560), ("chelsea", 700, 420))),
    ("margins", "margins", "without a face the painting stops short of the sheet's borders in a "
     "ragged margin of bare paper, found and lost, the wash graded and dried at it",
     (("coffee", 0, 0), ("rocket", 980, 0), ("stereo_motorcycle", 0, 644))),
)
TOGGLE_CROP = (300, 220)
NEARLY_BARE = 0.06
NON_SALIENT = 0.3


def label(img: np.ndarray, text: str) -> np.ndarray:
    img = img.copy()
    cv2.rectangle(img, (0, 0), (8 + 8 * len(text), 20), (255, 255, 255), -1)
    cv2.putText(img, text, (4, 15), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (20, 20, 20), 1,
                cv2.LINE_AA)
    return img


def photo(name: str, width: int | None = None) -> np.ndarray:
    img = getattr(skimage.data, name)()
    if isinstance(img, tuple):  # a stereo pair (and its disparity): the left view
        img = img[0]
    if img.ndim == 2:  # a grey photo, as RGB
        img = np.repeat(img[..., None], 3, axis=2)
    if width is not None:
        s = width / img.shape[1]
        img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC)
    return img


def render(ctx, img: np.ndarray, values: dict) -> tuple[np.ndarray, np.ndarray]:
    """The stylized image and the saliency map at the image's size."""
    with Renderer(ctx) as p:
        p.set_params(values)
        out = p.render_array(img)
        sal = p.read_target("saliency_t")[..., 0]
    sal = cv2.resize(sal, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    return out, sal


def stylization(img: np.ndarray) -> np.ndarray:
    return cv2.stylization(img[:, :, ::-1])[:, :, ::-1]


def gradient_energy(img: np.ndarray, mask: np.ndarray) -> float:
    g = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY).astype(np.float64) / 255.0
    gx = cv2.Sobel(g, cv2.CV_64F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_64F, 0, 1, ksize=3)
    return float(((gx * gx + gy * gy) * mask).sum() / max(mask.sum(), 1.0))


def bare_fraction(img: np.ndarray, paper_luma: float) -> float:
    y = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY).astype(np.float64) / 255.0
    return float((y >= paper_luma - NEARLY_BARE).mean())


def grids(ctx, presets) -> None:
    for name in PHOTOS:
        img = photo(name)
        tiles = [label(img, "photo"), label(stylization(img), "cv2.stylization"),
                 label(render(ctx, img, {})[0], "default")]
        tiles += [label(render(ctx, img, p.values)[0], p.name) for p in presets]
        s = TILE_HEIGHT / img.shape[0]
        tiles = [cv2.resize(t, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) for t in tiles]
        rows = [np.hstack(tiles[i:i + 4]) for i in range(0, len(tiles), 4)]
        w = max(r.shape[1] for r in rows)
        rows = [np.pad(r, ((0, 0), (0, w - r.shape[1]), (0, 0)), constant_values=255)
                for r in rows]
        save(f"presets_{name}.jpg", np.vstack(rows))


def phenomena(ctx, previous: dict) -> None:
    cache: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    for file, name, _what, x, y, w, h in PHENOMENA:
        if name not in cache:
            img = photo(name, WIDE)
            cache[name] = (img, render(ctx, img, previous)[0], render(ctx, img, {})[0])
        crops = [c[y:y + h, x:x + w] for c in cache[name]]
        titles = ("photo", f"previous default ({PREVIOUS})", "new default")
        save(f"{file}.jpg", np.hstack([label(c, t) for c, t in zip(crops, titles, strict=True)]))


def toggles(ctx) -> None:
    w, h = TOGGLE_CROP
    for file, param, _what, crops in TOGGLES:
        rows = []
        for name, x, y in crops:
            img = photo(name, WIDE)
            tiles = [img, render(ctx, img, {param: 0})[0], render(ctx, img, {})[0]]
            titles = ("photo", f"{param} 0", "default")
            rows.append(np.hstack([label(t[y:y + h, x:x + w], title)
                                   for t, title in zip(tiles, titles, strict=True)]))
        save(f"{file}.jpg", np.vstack(rows))


def resolution(ctx) -> None:
    shown = 640
    tiles = []
    for width in (640, WIDE, 4032):
        img = photo("chelsea", width)
        out = render(ctx, img, {})[0]
        small = cv2.resize(out, (shown, round(out.shape[0] * shown / out.shape[1])),
                           interpolation=cv2.INTER_AREA)
        tiles.append(label(small, f"painted at {width} px wide"))
    save("resolution.jpg", np.hstack(tiles))


def statistics(ctx, previous: dict, paper_luma: float) -> list[str]:
    rows = []
    sums = np.zeros(4)
    bare = np.zeros(5)
    for name in PHOTOS:
        img = photo(name, WIDE)
        # the paper's tooth off: its relief is texture, not the photo's detail kept
        flat = {"paper_tooth": 0.0}
        new, sal = render(ctx, img, flat)
        old, _ = render(ctx, img, {**previous, **flat})
        cv = stylization(img)
        mask = (sal < NON_SALIENT).astype(np.float64)
        base = gradient_energy(img, mask)
        kept = [gradient_energy(x, mask) / base for x in (cv, old, new)]
        fr = [bare_fraction(x, paper_luma) for x in (img, cv, old, new)]
        rows.append(f"| {name} | {mask.mean():.0%} | " + " | ".join(f"{k:.2f}" for k in kept)
                    + " | " + " | ".join(f"{f:.1%}" for f in fr) + " |")
        sums[:3] += kept
        bare[:4] += fr
    n = len(PHOTOS)
    rows.append("| **mean** | | " + " | ".join(f"**{k / n:.2f}**" for k in sums[:3])
                + " | " + " | ".join(f"**{f / n:.1%}**" for f in bare[:4]) + " |")
    return rows


def save(file: str, img: np.ndarray) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / file
    cv2.imwrite(str(path), img[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 85])
    print(path, f"{img.shape[1]}x{img.shape[0]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", type=Path, help="replace the look table in this Markdown file")
    ap.add_argument("--no-pictures", action="store_true", help="only the statistics")
    args = ap.parse_args()
    ctx = create_headless_context()
    presets = list_presets("watercolor")
    previous = PREVIOUS_VALUES
    if not args.no_pictures:
        grids(ctx, presets)
        phenomena(ctx, previous)
        toggles(ctx)
        resolution(ctx)
    paper = "#f7f2e6"  # the default paper colour
    rgb = np.array([int(paper[i:i + 2], 16) for i in (1, 3, 5)], np.uint8)
    paper_luma = float(cv2.cvtColor(rgb[None, None], cv2.COLOR_RGB2GRAY)[0, 0]) / 255.0
    rows = statistics(ctx, previous, paper_luma)
    table = [
        "Command: `python scripts/make_look_docs.py --write BENCHMARKS.md` (photos at "
        f"{WIDE} px wide)  ",
        f"*Detail kept*: mean squared luma gradient (Sobel) where the default's saliency map is "
        f"below {NON_SALIENT}, relative to the photo's (1.00 = all the photo's micro-detail "
        f"kept). *Bare paper*: pixels within {NEARLY_BARE:.0%} of the paper's luma. Both with "
        "the paper's tooth off (its relief is texture, not detail).",
        "",
        "| photo | non-salient area | detail kept: cv2.stylization | previous default "
        f"({PREVIOUS}) | new default | bare paper: photo | cv2.stylization | previous | new |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    ]
    print("\n".join(table))
    if args.write:
        replace_section(args.write, "look", "\n".join(table))
    ctx.release()


if __name__ == "__main__":
    main()
