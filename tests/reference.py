"""Independent numpy/OpenCV references for the watercolor passes (see
/work/shared/reference/watercolor-algorithms.md). Images are float arrays (H, W, C); row 0
of an array is row 0 (y = 0) of the texture."""

from __future__ import annotations

import math

import cv2
import numpy as np

# -- structure tensor -----------------------------------------------------------------------

def sobel_tensor(img: np.ndarray) -> np.ndarray:
    """(E, F, G) = sum over channels of (gx*gx, gx*gy, gy*gy), Sobel/4, replicated borders.

    Returns float64 (H, W, 3).
    """
    img = np.asarray(img, np.float64)
    e = np.zeros(img.shape[:2])
    f = np.zeros(img.shape[:2])
    g = np.zeros(img.shape[:2])
    for c in range(img.shape[2]):
        ch = img[:, :, c]
        gx = cv2.Sobel(ch, cv2.CV_64F, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE) / 4.0
        gy = cv2.Sobel(ch, cv2.CV_64F, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE) / 4.0
        e += gx * gx
        f += gx * gy
        g += gy * gy
    return np.dstack([e, f, g])


def half_tensor(img: np.ndarray) -> np.ndarray:
    """The structure tensor as the pipeline computes it, at half the size of `img` (even
    sizes): Sobel/4 of the image box-filtered 2x2, gradients per full-size pixel (halved)."""
    img = np.asarray(img, np.float64)
    h, w = img.shape[:2]
    box = img.reshape(h // 2, 2, w // 2, 2, -1).mean(axis=(1, 3))
    return sobel_tensor(box) * 0.25


def gauss_ksize(sigma: float) -> int:
    """The kernel size of the separable blur: radius ceil(2.45 sigma)."""
    return 2 * math.ceil(2.45 * sigma) + 1


def gaussian_blur(a: np.ndarray, sigma: float) -> np.ndarray:
    """Normalized Gaussian blur with the shader's radius and replicated borders."""
    k = gauss_ksize(sigma)
    return cv2.GaussianBlur(np.asarray(a, np.float64), (k, k), sigmaX=sigma, sigmaY=sigma,
                            borderType=cv2.BORDER_REPLICATE)


def tensor_tangent(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit tangent (minor eigenvector, closed form phi = atan2(-2F, G-E)/2) and anisotropy
    of a tensor image (..., 3); the tangent's sign is arbitrary."""
    e, f, g = (np.asarray(t[..., i], np.float64) for i in range(3))
    phi = 0.5 * np.arctan2(-2.0 * f, g - e)
    root = np.sqrt((e - g) ** 2 + 4.0 * f * f)
    l1, l2 = 0.5 * (e + g + root), 0.5 * (e + g - root)
    s = l1 + l2
    aniso = np.divide(l1 - l2, s, out=np.zeros_like(s), where=s > 0)
    return np.stack([np.cos(phi), np.sin(phi)], axis=-1), aniso


# -- colour -------------------------------------------------------------------------------

M_RGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                         [0.2126729, 0.7151522, 0.0721750],
                         [0.0193339, 0.1191920, 0.9503041]])
D65 = np.array([0.95047, 1.0, 1.08883])


def srgb_to_linear(c: np.ndarray) -> np.ndarray:
    c = np.clip(np.asarray(c, np.float64), 0.0, 1.0)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(c: np.ndarray) -> np.ndarray:
    c = np.clip(np.asarray(c, np.float64), 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1.0 / 2.4) - 0.055)


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB [0,1] -> linear -> XYZ (D65) -> CIELab, L in 0..100."""
    xyz = srgb_to_linear(rgb) @ M_RGB_TO_XYZ.T / D65
    d = 6.0 / 29.0
    f = np.where(xyz > d ** 3, np.cbrt(xyz), xyz / (3 * d * d) + 4.0 / 29.0)
    return np.stack([116.0 * f[..., 1] - 16.0, 500.0 * (f[..., 0] - f[..., 1]),
                     200.0 * (f[..., 1] - f[..., 2])], axis=-1)


def lab_to_srgb(lab: np.ndarray) -> np.ndarray:
    """CIELab -> sRGB values clamped to [0,1]."""
    lab = np.asarray(lab, np.float64)
    d = 6.0 / 29.0
    fy = (lab[..., 0] + 16.0) / 116.0
    f = np.stack([fy + lab[..., 1] / 500.0, fy, fy - lab[..., 2] / 200.0], axis=-1)
    xyz = np.where(f > d, f ** 3, 3 * d * d * (f - 4.0 / 29.0)) * D65
    return linear_to_srgb(xyz @ np.linalg.inv(M_RGB_TO_XYZ).T)


# -- abstraction --------------------------------------------------------------------------

def smoothstep(e0: float, e1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def skin_band(lab: np.ndarray, hue: tuple, chroma: tuple, light: tuple) -> np.ndarray:
    """watercolor/skin.glsl: soft bands of Lab hue angle (degrees), chroma and lightness."""
    h = np.degrees(np.arctan2(lab[..., 2], lab[..., 1]))
    c = np.hypot(lab[..., 1], lab[..., 2])

    def band(x: np.ndarray, e: tuple) -> np.ndarray:
        return smoothstep(e[0], e[1], x) * (1.0 - smoothstep(e[2], e[3], x))

    return band(h, hue) * band(c, chroma) * band(lab[..., 0], light)


def chroma_gain(lab: np.ndarray, saturation: float, skin_saturation: float) -> np.ndarray:
    """watercolor/tones.glsl: the pigment saturation, held at the skin's on vivid skin, its
    boost fading on colours already vivid (chroma 30 to 70)."""
    skin = skin_band(lab, (22, 34, 74, 86), (3, 7, 36, 48), (12, 25, 93, 99))
    c = np.hypot(lab[..., 1], lab[..., 2])
    w = skin * smoothstep(12.0, 24.0, c)
    gain = saturation * (1 - w) + min(saturation, skin_saturation) * w
    return np.where(gain > 1.0, 1.0 + (gain - 1.0) * (1.0 - smoothstep(30.0, 70.0, c)), gain)


def soft_quantize(lum: np.ndarray, n: int, phi: float | np.ndarray) -> np.ndarray:
    """Winnemöller 2006 soft quantization of L in 0..100: qn = floor(L n + .5) / n,
    q = qn + (smoothstep(-2, 2, phi 100 (L - qn)) - .5) / n (on L/100); returns 0..100."""
    x = np.asarray(lum, np.float64) / 100.0
    phi = np.asarray(phi, np.float64)
    qn = np.floor(x * n + 0.5) / n
    q = qn + (smoothstep(-2.0, 2.0, phi * 100.0 * (x - qn)) - 0.5) / n
    return np.clip(q, 0.0, 1.0) * 100.0


# -- pigment model ------------------------------------------------------------------------

def pigment(c: np.ndarray, d: np.ndarray | float) -> np.ndarray:
    """Bousseau 2006: C' = C (1 - (1 - C)(d - 1)), clamped to [0,1]."""
    c = np.asarray(c, np.float64)
    d = np.asarray(d, np.float64)
    if d.ndim == c.ndim - 1:
        d = d[..., None]
    return np.clip(c * (1.0 - (1.0 - c) * (d - 1.0)), 0.0, 1.0)


def density(tex: np.ndarray, beta: float) -> np.ndarray:
    """The density a grey texture T with weight beta contributes: 1 + beta (T - 0.5)."""
    return 1.0 + beta * (np.asarray(tex, np.float64) - 0.5)


# -- line integral convolution --------------------------------------------------------------

TONE_SLOPE = 2.0  # tones.glsl's tone_slope: per reference pixel, times this


def adaptive_sharpness(lum: np.ndarray, phi: float, px: float,
                       own_share: float = 0.4) -> np.ndarray:
    """Winnemöller's gradient-adaptive sharpness as quantize.frag uses it: the tone change per
    reference pixel (central differences, replicated borders; `px` = this image's pixels per
    reference pixel) times TONE_SLOPE (tones.glsl's tuning), maps
    phi * mix(0.04, 1, smoothstep(0.2, 1.5, slope)), at most step_limit of the change
    laid (`own_share` of this L's: the rest is the wide blur's)."""
    lum = np.asarray(lum, np.float64)
    pad = np.pad(lum, 1, mode="edge")
    gx = (pad[1:-1, 2:] - pad[1:-1, :-2]) * 0.5
    gy = (pad[2:, 1:-1] - pad[:-2, 1:-1]) * 0.5
    slope = TONE_SLOPE * np.hypot(gx, gy) * px
    limit = step_limit(own_share * np.hypot(gx, gy))
    return np.minimum(limit, phi * (0.04 + 0.96 * smoothstep(0.2, 1.5, slope)))


def step_limit(change: np.ndarray) -> np.ndarray:
    """tones.glsl: the sharpest tone step a target holds without stair-steps where its L*
    changes by `change` per pixel (a step 1.5 px wide)."""
    return 4.0 / (1.5 * np.maximum(change, 1e-3))


def lic_straight(img: np.ndarray, t: tuple[float, float], sigma: float,
                 work_size: tuple[int, int], out_shape: tuple[int, int],
                 renormalize: bool = False, max_steps: int = 24, step: float = 1.0
                 ) -> np.ndarray:
    """LIC along a constant flow `t` (unit (x, y)): Gaussian weights exp(-s^2 / 2 sigma^2) at
    arc lengths s = i step <= 2 sigma (centre weight 1), walking in work pixels from the
    output pixel's centre and stopping at the work image's border; `img` sampled bilinearly
    (clamp to edge).
    With `renormalize`, the deviation from 0.5 is scaled by 0.5 / sqrt(sum w^2 / (sum w)^2).
    """
    img = np.asarray(img, np.float64)
    ww, wh = work_size
    oh, ow = out_shape
    ih, iw = img.shape[:2]
    ox, oy = pixel_centres(oh, ow)
    x0, y0 = ox * ww / ow, oy * wh / oh  # output pixel centre in work pixels

    def sample(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return bilinear(img, x * iw / ww, y * ih / wh)

    total = sample(x0, y0)
    wsum = np.ones((oh, ow))
    w2sum = np.ones((oh, ow))
    reach = min(max_steps, int(math.floor(2.0 * sigma / step + 1e-9)))
    for sign in (1.0, -1.0):
        alive = np.ones((oh, ow), bool)
        for i in range(1, reach + 1):
            s = i * step
            x = x0 + sign * s * t[0]
            y = y0 + sign * s * t[1]
            alive &= (x >= 0) & (y >= 0) & (x < ww) & (y < wh)
            w = math.exp(-s * s / (2.0 * sigma * sigma)) * alive
            total += w[..., None] * sample(x, y)
            wsum += w
            w2sum += w * w
    out = total / wsum[..., None]
    if renormalize:
        w2 = (w2sum / (wsum * wsum))[..., None]
        out = np.clip(0.5 + (out - 0.5) / np.sqrt(w2) * 0.5, 0.0, 1.0)
    return out


def autocorrelation(a: np.ndarray, dy: int, dx: int) -> float:
    """Pearson correlation of a 2-D array with itself shifted by (dy, dx) (overlap only)."""
    a = np.asarray(a, np.float64)
    h, w = a.shape
    y0, y1 = max(0, -dy), min(h, h - dy)
    x0, x1 = max(0, -dx), min(w, w - dx)
    p = a[y0:y1, x0:x1].ravel()
    q = a[y0 + dy:y1 + dy, x0 + dx:x1 + dx].ravel()
    return float(np.corrcoef(p, q)[0, 1])


def bilinear(img: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """GL `texture()` with LINEAR filtering and CLAMP_TO_EDGE at pixel coordinates (px, py)
    (texel centres at +0.5). img (H, W, C); px, py broadcastable (H', W')."""
    img = np.asarray(img, np.float64)
    h, w = img.shape[:2]
    x = np.asarray(px, np.float64) - 0.5
    y = np.asarray(py, np.float64) - 0.5
    x0, y0 = np.floor(x), np.floor(y)
    fx, fy = (x - x0)[..., None], (y - y0)[..., None]
    x0i, y0i = x0.astype(int), y0.astype(int)
    xa, xb = np.clip(x0i, 0, w - 1), np.clip(x0i + 1, 0, w - 1)
    ya, yb = np.clip(y0i, 0, h - 1), np.clip(y0i + 1, 0, h - 1)
    top = img[ya, xa] * (1 - fx) + img[ya, xb] * fx
    bot = img[yb, xa] * (1 - fx) + img[yb, xb] * fx
    return top * (1 - fy) + bot * fy


def pixel_centres(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """gl_FragCoord.xy of every pixel of an (h, w) target: (x + .5, y + .5)."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    return x + 0.5, y + 0.5


def bilateral_1d(lab: np.ndarray, axis: int, sigma_d: float, sigma_r: float,
                 max_steps: int = 32) -> np.ndarray:
    """One 1-D pass of the bilateral filter along an image axis (0: y, 1: x), steps of
    max(1, floor(sigma_d / 1.8)) texels out to 2 sigma_d, replicated borders; weight
    exp(-s^2/2 sd^2) exp(-|c - c0|^2 / 2 sr^2)."""
    lab = np.asarray(lab, np.float64)
    n = lab.shape[axis]
    reach = 2.0 * sigma_d
    stride = max(1, int(sigma_d // 1.8))  # bilateral.frag STRIDE_SIGMA
    total = lab.copy()
    norm = np.ones(lab.shape[:2])
    idx = np.arange(n)
    for i in range(1, max_steps + 1):
        s = i * stride
        if s > reach:
            break
        kd = math.exp(-s * s / (2.0 * sigma_d * sigma_d))
        for sign in (1, -1):
            j = np.clip(idx + sign * s, 0, n - 1)
            c = lab[j] if axis == 0 else lab[:, j]
            k = kd * np.exp(-((c - lab) ** 2).sum(-1) / (2.0 * sigma_r * sigma_r))
            total += k[..., None] * c
            norm += k
    return total / norm[..., None]


def gauss_1d_replicate(a: np.ndarray, axis: int, sigma: float, reach: float) -> np.ndarray:
    """Normalized Gaussian of a 2-D array along an axis at unit steps s <= reach, replicated
    borders."""
    a = np.asarray(a, np.float64)
    n = a.shape[axis]
    total = a.copy()
    norm = 1.0
    idx = np.arange(n)
    s = 1
    while s <= reach:
        w = math.exp(-s * s / (2.0 * sigma * sigma))
        for sign in (1, -1):
            j = np.clip(idx + sign * s, 0, n - 1)
            total += w * (a[j] if axis == 0 else a[:, j])
        norm += 2 * w
        s += 1
    return total / norm


def flow_dog(lum: np.ndarray, axis: int, sigma: float, k: float, p: float) -> np.ndarray:
    """D = (1 + p) G_sigma - p G_(k sigma) across a constant flow (along `axis`), both
    Gaussians sampled out to 2 k sigma."""
    reach = 2.0 * k * sigma
    g1 = gauss_1d_replicate(lum, axis, sigma, reach)
    g2 = gauss_1d_replicate(lum, axis, k * sigma, reach)
    return (1.0 + p) * g1 - p * g2


def xdog_threshold(d: np.ndarray, eps: float, phi: float) -> np.ndarray:
    """T = 1 if D >= eps else 1 + tanh(phi (D - eps)), clamped to [0,1]."""
    d = np.asarray(d, np.float64)
    return np.clip(np.where(d >= eps, 1.0, 1.0 + np.tanh(phi * (d - eps))), 0.0, 1.0)


def hold(cur: np.ndarray, prev: np.ndarray, flow: np.ndarray, steadiness: float) -> np.ndarray:
    """The painting held along the flow (watercolor/hold.frag): the last output warped by the
    backward flow (UV units, .z confidence), clamped to this frame's 3x3 neighbourhood, mixed
    in by 0.85 * hold * confidence; pixels whose past lies outside the frame keep `cur`."""
    h, w = cur.shape[:2]
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    mx = xx + flow[..., 0] * w
    my = yy + flow[..., 1] * h
    past = cv2.remap(prev.astype(np.float32), mx, my, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
    pad = np.pad(cur, ((1, 1), (1, 1), (0, 0)), mode="edge")
    window = np.stack([pad[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)])
    past = np.clip(past, window.min(axis=0), window.max(axis=0))
    k = 0.85 * np.clip(2.0 * steadiness - 1.0, 0.0, 1.0) * flow[..., 2:3]
    held = cur * (1.0 - k) + past * k
    u, v = (xx + 0.5) / w + flow[..., 0], (yy + 0.5) / h + flow[..., 1]
    inside = (u >= 0) & (u <= 1) & (v >= 0) & (v <= 1)
    return np.where(inside[..., None], held, cur)


def hard_edges(washes: np.ndarray, face: np.ndarray | None, out_hw: tuple[int, int],
               hardness: float, ref_px: float = 1.0, reach: float = 3.0,
               width: float = 1.2, face_soft: float = 0.75) -> np.ndarray:
    """watercolor/hard_edges.glsl: the half-size washes (RGBA, .a wetness) at the output size,
    each border steepened to `width` reference px between its sides `reach` reference px
    across it; `face` (focus .z at the output size) softens it. ref_px: output px per
    reference px."""
    washes = np.asarray(washes, np.float64)
    h, w = out_hw
    sh, sw = washes.shape[:2]
    x, y = pixel_centres(h, w)
    kx, ky = sw / w, sh / h

    def at(px, py):  # output pixel coordinates
        return bilinear(washes, px * kx, py * ky)

    def lum(c):
        return c[..., :3] @ np.array([0.2126, 0.7152, 0.0722])

    here = at(x, y)
    gx = lum(at(x + 1 / kx, y)) - lum(here)
    gy = lum(at(x, y + 1 / ky)) - lum(here)
    hard = hardness * (1.0 - here[..., 3])
    if face is not None:
        hard = hard * (1.0 - face_soft * face)
    norm = np.hypot(gx, gy)
    nx, ny = gx / np.maximum(norm, 1e-12), gy / np.maximum(norm, 1e-12)
    d = reach * ref_px
    a = at(x - d * nx, y - d * ny)[..., :3]
    ab = at(x + d * nx, y + d * ny)[..., :3] - a

    def across(c):
        return np.clip(np.sum((c[..., :3] - a) * ab, -1) / np.maximum(np.sum(ab * ab, -1),
                                                                      1e-12), 0.0, 1.0)

    hard = hard * smoothstep(0.003, 0.009, norm) * smoothstep(0.05, 0.12,
                                                               np.linalg.norm(ab, axis=-1))
    t = across(here)
    rate = norm / ((w / sw) * np.maximum(np.abs(lum(ab)), 0.02))
    hard = hard * smoothstep(0.3, 0.7, rate * 2.0 * reach * ref_px)
    half = np.minimum(0.5, 0.5 * max(1.0, width * ref_px) * rate)
    s = smoothstep_field(0.5 - half, 0.5 + half, t)
    out = here.copy()
    out[..., :3] += (hard * (s - t))[..., None] * ab
    return out


def smoothstep_field(e0: np.ndarray, e1: np.ndarray, x: np.ndarray) -> np.ndarray:
    """smoothstep with per-pixel edges (GLSL: undefined at e0 == e1; here a step)."""
    t = np.clip((x - e0) / np.maximum(e1 - e0, 1e-12), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def coarse_pigment(c: np.ndarray) -> np.ndarray:
    """watercolor/granulation.glsl: how coarse the pigment of sRGB `c` (..., 3) is: 1 for
    blues and earths (warm, not light), 0.3 for the fine ones."""
    c = np.asarray(c, np.float64)
    lum = c @ np.array([0.2126, 0.7152, 0.0722])
    blue = smoothstep(0.0, 0.15, c[..., 2] - 0.5 * (c[..., 0] + c[..., 1]))
    earth = smoothstep(0.05, 0.2, c[..., 0] - c[..., 2]) * (1.0 - smoothstep(0.45, 0.7, lum))
    return 0.3 + 0.7 * np.maximum(blue, earth)



# watercolor/palette.glsl
PIGMENT_HUES = np.array([95.0, 75.0, 60.0, 50.0, 38.0, 5.0, 335.0, 290.0, 245.0, 175.0, 120.0])


def palette_tone(lab: np.ndarray, around: np.ndarray, skin: np.ndarray | float,
                 palette: float, temperature: float) -> np.ndarray:
    """palette.glsl: hues drawn `palette` of the way to the nearest pigment's (not greys,
    skin 0.3 as much), then shadows cooler and lights warmer than `around` (L*), bare paper
    (L* 100) left white. (The style's wash_size is not 0 where it is used.)"""
    out = np.array(lab, np.float64, copy=True)
    ab = out[..., 1:3]
    if palette > 0:
        c = np.linalg.norm(ab, axis=-1)
        h = np.degrees(np.arctan2(ab[..., 1], ab[..., 0]))
        d = np.mod(h[..., None] - PIGMENT_HUES + 540.0, 360.0) - 180.0
        best = np.take_along_axis(d, np.abs(d).argmin(-1)[..., None], -1)[..., 0]
        k = palette * smoothstep(4.0, 12.0, c) * (1.0 - 0.7 * np.asarray(skin))
        to = np.radians(h - best * k)
        ab = np.stack([c * np.cos(to), c * np.sin(to)], axis=-1)
    if temperature > 0:
        t = np.clip((out[..., 0] - around) / 20.0, -1.0, 1.0)[..., None]
        pigment = (1.0 - smoothstep(98.0, 100.0, out[..., 0]))[..., None]
        ab = ab + temperature * pigment * np.where(t < 0, -t * np.array([1.5, -7.0]),
                                                   t * np.array([0.5, 4.0]))
    out[..., 1:3] = ab
    return out


# watercolor/glaze.glsl
GLAZE_Y = 0.62
GLAZE_HUE_L = 65.0
GLAZE_COOL = np.array([0.58, 0.64, 0.80])
GLAZE_COOL_SHARE = (0.4, 0.15)
GLAZE_ON_SKIN = 0.6
LUMINANCE = np.array([0.2126, 0.7152, 0.0722])


def glaze_transmittance(cover: np.ndarray, local: np.ndarray, skin: float,
                        glaze: float) -> np.ndarray:
    """glaze.glsl: the light a glaze `cover` lets through over the local colour's a*b*: its
    hue at L* 65 with some ultramarine, GLAZE_Y of the light at full cover."""
    local = np.asarray(local, np.float64)
    hue_lab = np.concatenate([np.full(local.shape[:-1] + (1,), GLAZE_HUE_L), local], -1)
    hue = srgb_to_linear(lab_to_srgb(hue_lab))
    hue = hue / np.maximum(hue @ LUMINANCE, 1e-3)[..., None]
    hue = hue + (1.0 - hue) * skin  # on skin a neutral pigment
    cool = GLAZE_COOL / (GLAZE_COOL @ LUMINANCE)
    share = GLAZE_COOL_SHARE[0] + (GLAZE_COOL_SHARE[1] - GLAZE_COOL_SHARE[0]) * skin
    full = np.minimum(GLAZE_Y * (hue + (cool - hue) * share), 1.0)
    k = (glaze * np.asarray(cover, np.float64) * (1.0 + (GLAZE_ON_SKIN - 1.0) * skin))[..., None]
    return 1.0 + (full - 1.0) * k


def glaze_lifted(lab: np.ndarray, cover: np.ndarray, local: np.ndarray, skin: float,
                 glaze: float) -> np.ndarray:
    """glaze.glsl: the first layer's L* beneath a glaze, lighter by what the glaze takes from
    its colour."""
    c = srgb_to_linear(lab_to_srgb(lab))
    y = np.maximum(c @ LUMINANCE, 1e-5)
    through = (c * glaze_transmittance(cover, local, skin, glaze)) @ LUMINANCE / y
    y = srgb_to_linear(lab_to_srgb(np.stack([lab[..., 0], 0 * y, 0 * y], -1)))[..., 1]
    y = np.minimum(y / np.maximum(through, 1e-3), 1.0)
    return np.minimum(srgb_to_lab(linear_to_srgb(np.repeat(y[..., None], 3, -1)))[..., 0],
                      100.0)


def glazed(lab: np.ndarray, cover: np.ndarray, local: np.ndarray, skin: float,
           glaze: float) -> np.ndarray:
    """glaze.glsl: a Lab tone with the glaze laid over it (transmittance times reflectance)."""
    lin = srgb_to_linear(lab_to_srgb(lab)) * glaze_transmittance(cover, local, skin, glaze)
    return srgb_to_lab(linear_to_srgb(lin))
