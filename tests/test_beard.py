"""Beards and stubble (trial F8, finding 2): inside the face's oval a man's stubble was smoothed
into clean-shaven flesh (the face's form is half the wide blur, laid at half the work size),
and past the oval, under the jaw, the beard was laid as the figure's clothes (70 % their
shapes, which blur the collar's and the shirt's colours into it) in crisp tones: maroon stains
under a red beard, a blue-black bruise under a grey one. A beard is now laid as hair
(beard.frag, beard.glsl): its own tone and colour, its hairs drawn over it. A clean-shaven
face, and a face whose photo is grainy all over (a print's, a scan's grain), stay smooth."""

from __future__ import annotations

import cv2
import numpy as np
import reference as ref
from test_strands import given

from aquarelle.engine.context import cpu_renderer
from aquarelle.engine.faces import Face
from aquarelle.engine.subject import Subject
from aquarelle.engine.tiles import TiledStill

N = 480
BOX = (120.0, 90.0, 360.0, 330.0)  # brows to chin: the face's oval (no mesh: an ellipse in it)
SHIRT = 410  # a blue shirt from this row down
# the paper's and the pigment's textures off: the washes' own texture is measured
TEXTURES_OFF = {"turbulence": 0.0, "dispersion": 0.0, "stroke_strength": 0.0,
                "paper_grain": 0.0, "paper_tooth": 0.0, "dither": False, "granulation": 0.0,
                "margins": 0.0, "wobble": 0.0, "vignette": 0.0}
SKIN = (70.0, 14.0, 18.0)
# the beard's place: the lower face, from beside the mouth to under the jaw (above the shirt)
CHEEKS = (slice(250, 320), slice(170, 310))  # inside the oval, beside and under the mouth
UNDER = (slice(345, 395), slice(205, 275))   # under the chin, past the oval


def lab_picture(lab: np.ndarray) -> np.ndarray:
    return (np.clip(ref.lab_to_srgb(lab), 0.0, 1.0) * 255.0).round().astype(np.uint8)


def portrait(hairs: str = "none", seed: int = 4) -> np.ndarray:
    """uint8 RGB: skin (SKIN, lit from above) over a blue shirt, with `hairs`: "dark" stubble
    (1-2 px dots, L* 35, on a third of the beard's place), "grey" (as many dark and light
    grey hairs, chroma 0, a grey beard's), "grain" (a print's grain of the stubble's size and
    contrast all over the skin) or "none" (the skin's faint pores only)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[:N, :N].astype(np.float32)
    lab = np.zeros((N, N, 3), np.float32)
    lab[...] = SKIN
    lab[..., 0] += 6.0 - 12.0 * y / N
    pores = cv2.GaussianBlur(rng.normal(0.0, 1.0, (N, N)).astype(np.float32), (0, 0), 0.8)
    lab[..., 0] += 0.8 * pores / pores.std()
    cx, cy, hw, hh = 240.0, 210.0, 120.0, 120.0
    dx, dy = (x - cx) / hw, (y - cy) / hh
    place = (dy > 0.3) & (dy < 1.6) & (np.abs(dx) < 0.8 - 0.3 * np.maximum(dy - 1.0, 0.0))
    if hairs == "grain":
        place = y < SHIRT
    if hairs != "none":
        dots = rng.random((N, N)) < 0.33
        dots = cv2.dilate(dots.astype(np.uint8), np.ones((2, 1), np.uint8)) > 0  # 1-2 px
        hair = place & dots
        if hairs == "grey":
            light = rng.random((N, N)) < 0.5
            lab[hair & light] = (82.0, 0.0, 1.0)
            lab[hair & ~light] = (32.0, 0.0, 1.0)
        else:
            lab[hair] = (35.0, 4.0, 7.0)
    lab[y >= SHIRT] = (42.0, 6.0, -38.0)
    return lab_picture(lab)


def a_man() -> Subject:
    return Subject((Face(BOX, np.zeros((6, 2)), 0.9),), np.ones((144, 256), np.float32))


def lab_of(rgb: np.ndarray) -> np.ndarray:
    return ref.srgb_to_lab(rgb[..., :3].astype(np.float32) / 255.0)


def texture(lab: np.ndarray, where: tuple[slice, slice]) -> float:
    """The hair's texture: the std of L* less its Gaussian blur of 3 px, in `where`."""
    L = lab[..., 0]
    return float((L - cv2.GaussianBlur(L, (0, 0), 3.0))[where].std())


def painted(pipeline, img: np.ndarray):
    p = given(pipeline(TEXTURES_OFF), a_man())
    return p, lab_of(p.render_array(img))


def test_stubble_keeps_its_hairs_on_the_face_and_under_the_jaw(pipeline):
    img = portrait("dark")
    _, lab = painted(pipeline, img)
    src = lab_of(img)
    # old: the face's form (half its wide blur) at half the work size kept 0.08 of the
    # stubble's texture inside the oval, the figure's shapes under the jaw 0.10; now 0.74, 0.63
    for where in (CHEEKS, UNDER):
        kept = texture(lab, where) / texture(src, where)
        assert kept > 0.6, (where, kept)
    # ... in the beard's tone, as dark as the photo's (2.8 L* lighter, as the old's 3.0)
    assert abs(lab[UNDER][..., 0].mean() - src[UNDER][..., 0].mean()) < 4.0


def test_a_grey_beard_under_the_jaw_keeps_its_own_greyness(pipeline):
    img = portrait("grey")
    _, lab = painted(pipeline, img)
    src = lab_of(img)
    chroma = np.hypot(lab[..., 1], lab[..., 2])[UNDER].mean()
    photo = np.hypot(src[..., 1], src[..., 2])[UNDER].mean()
    # old: the washes' saturation warmed the skin between its hairs, C* 16.1 and b* 14.0
    # against the photo's 10.9 and 8.7 (the paper's tint adds 2-3); now 12.9 and 11.5
    assert chroma < photo + 2.5, (chroma, photo)
    assert lab[UNDER][..., 2].mean() < src[UNDER][..., 2].mean() + 4.0


def test_a_clean_shaven_or_grainy_face_gets_no_beard(pipeline):
    for hairs in ("none", "grain"):
        p, _ = painted(pipeline, portrait(hairs))
        beard = cv2.resize(p.read_target("beard_t")[..., 0], (N, N))
        # a clean skin's pores and a print's grain all over the face are no beard (its
        # texture drawn there would be new noise on a smooth face)
        assert beard.max() < 0.05, (hairs, beard.max())


def test_a_bearded_portrait_in_tiles_is_the_untiled_painting(pipeline):
    # the beard map reads its face's grain and jaw (up to a face above the beard) from the
    # whole picture's detail: a tile's own would miss them
    big = 3 * N // 2  # (as small as keeps four tiles: the test's time is the tiles')
    img = cv2.resize(portrait("dark"), (big, big), interpolation=cv2.INTER_NEAREST)
    box = tuple(1.5 * v for v in BOX)
    p = given(pipeline(), Subject((Face(box, np.zeros((6, 2)), 0.9),),
                                  np.ones((144, 256), np.float32)))
    whole = p.render_array(img)
    assert p.read_target("beard_t").max() > 0.9
    tiles = TiledStill(p, (big, big), max_tile_px=340_000)
    assert len(tiles.tiles) >= 4
    d = np.abs(tiles.render(img).astype(np.int16) - whole).max(axis=2)
    # (float rounding at a hard edge or a shape's seed: test_portrait's bounds)
    gpu = not cpu_renderer(p.ctx)
    most, many, mean = (64, 6000, 0.1) if gpu else (32, 100, 0.02)
    assert d.max() <= most and (d > 2).sum() <= many and d.mean() < mean, \
        (d.max(), (d > 2).sum(), d.mean())
