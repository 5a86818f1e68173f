"""Colour lookup tables from Adobe/Resolve `.cube` files, as textures the shaders read.

A 3D table of N^3 RGB entries (red varies fastest in the file) is laid out as a 2D texture
N*N wide and N high: slice b (blue) at x = b*N .. b*N+N-1, red along x within a slice,
green along y. Shaders interpolate within a slice bilinearly and between slices linearly.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .errors import AquarelleError

MAX_CUBE_BYTES = 64 << 20  # a 65^3 table is about 7 MB of text
MAX_SIZE = 129


class LutError(AquarelleError, ValueError):
    """A .cube file that cannot be used."""


def read_cube(path: str | Path) -> np.ndarray:
    """The table of a 3D .cube file as float32 (N, N, N, 3) indexed [b, g, r] over inputs
    0..1 (a table over another DOMAIN_MIN..DOMAIN_MAX range resampled onto it), its
    outputs as given."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_CUBE_BYTES:
            raise LutError(f"{path}: too large for a .cube LUT")
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise LutError(f"cannot read LUT {path}: {e.strerror or e}") from None
    size = 0
    rows: list[list[float]] = []
    lo, hi = np.zeros(3), np.ones(3)  # the input range the table's grid spans
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        key = words[0].upper()
        if key == "LUT_3D_SIZE":
            try:
                size = int(words[1])
            except (IndexError, ValueError):
                raise LutError(f"{path}:{number}: LUT_3D_SIZE needs a whole number") from None
        elif key == "LUT_1D_SIZE":
            raise LutError(f"{path}: a 1D LUT; only 3D .cube LUTs are supported")
        elif key in ("DOMAIN_MIN", "DOMAIN_MAX", "LUT_3D_INPUT_RANGE"):
            try:
                bounds = [float(w) for w in words[1:]]
            except ValueError:
                bounds = []
            count = 2 if key == "LUT_3D_INPUT_RANGE" else 3
            if len(bounds) != count or not np.all(np.isfinite(bounds)):
                raise LutError(f"{path}:{number}: {key} needs {count} numbers")
            if key == "DOMAIN_MIN":
                lo = np.array(bounds)
            elif key == "DOMAIN_MAX":
                hi = np.array(bounds)
            else:
                lo, hi = np.full(3, bounds[0]), np.full(3, bounds[1])
        elif key == "TITLE":
            continue
        else:
            try:
                values = [float(w) for w in words]
            except ValueError:
                raise LutError(f"{path}:{number}: unexpected {line.strip()[:40]!r}") from None
            if len(values) != 3:
                raise LutError(f"{path}:{number}: a table row has three numbers")
            rows.append(values)
    if not 2 <= size <= MAX_SIZE:
        raise LutError(f"{path}: missing or unsupported LUT_3D_SIZE (2..{MAX_SIZE})")
    if len(rows) != size ** 3:
        raise LutError(f"{path}: {len(rows)} table rows, LUT_3D_SIZE {size} needs {size ** 3}")
    table = np.asarray(rows, np.float32).reshape(size, size, size, 3)
    if not np.all(np.isfinite(table)):
        raise LutError(f"{path}: the table holds a non-finite number")
    if np.any(hi <= lo):
        raise LutError(f"{path}: DOMAIN_MAX must be above DOMAIN_MIN")
    if np.any(lo != 0.0) or np.any(hi != 1.0):
        table = _onto_unit_domain(table, lo, hi)
    return table


def _onto_unit_domain(table: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """A table over the input range lo..hi (per channel) resampled onto the same number of
    points over 0..1, the range the shaders look up; inputs outside lo..hi take its edge."""
    n = table.shape[0]
    x = np.linspace(0.0, 1.0, n)
    b, g, r = np.meshgrid(x, x, x, indexing="ij")
    rgb = (np.stack([r, g, b], axis=-1) - lo) / (hi - lo)
    return apply_lut(rgb, table).astype(np.float32)


def cube_texture(path: str | Path) -> np.ndarray:
    """A .cube file as the (N, N*N, 3) float32 texture array described above."""
    t = read_cube(path)
    n = t.shape[0]
    return np.ascontiguousarray(t.transpose(1, 0, 2, 3).reshape(n, n * n, 3))


def apply_lut(rgb: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Reference: float RGB in [0,1] (..., 3) through a [b, g, r] table, trilinear."""
    n = table.shape[0]
    c = np.clip(rgb, 0.0, 1.0) * (n - 1)
    i0 = np.minimum(np.floor(c).astype(int), n - 2)
    f = c - i0
    out = np.zeros(rgb.shape, np.float64)
    for db in (0, 1):
        for dg in (0, 1):
            for dr in (0, 1):
                w = (np.where(dr, f[..., 0], 1 - f[..., 0]) * np.where(dg, f[..., 1], 1 - f[..., 1])
                     * np.where(db, f[..., 2], 1 - f[..., 2]))
                out += w[..., None] * table[i0[..., 2] + db, i0[..., 1] + dg, i0[..., 0] + dr]
    return out


FILE_CHECKS = {".cube": read_cube}  # what a file parameter's value is checked with
FILE_LOADERS = {".cube": cube_texture}  # and loaded with, as a texture array
