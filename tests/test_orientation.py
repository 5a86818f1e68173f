"""A video's display matrix (rotation and mirroring) is applied as it says: each stored
quadrant lands where the matrix maps it, checked on real files decoded by VideoReader."""

from __future__ import annotations

import struct

import av
import numpy as np
import pytest

from aquarelle.media.orientation import Orientation
from aquarelle.media.side_data import frame_side_data
from aquarelle.media.video_reader import VideoReader

W, H = 64, 32
COLOURS = {(0, 0): (230, 20, 20), (1, 0): (20, 230, 20), (0, 1): (20, 20, 230),
           (1, 1): (230, 230, 20)}  # (column, row) of a quadrant -> its colour


def stored() -> np.ndarray:
    img = np.zeros((H, W, 3), np.uint8)
    for (col, row), colour in COLOURS.items():
        img[row * H // 2:(row + 1) * H // 2, col * W // 2:(col + 1) * W // 2] = colour
    return img


def clip(path, degrees: float, hflip: bool, vflip: bool) -> tuple[int, ...]:
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=10)
        vs.width, vs.height, vs.pix_fmt = W, H, "yuv444p"
        vs.options = {"qp": "0"}
        vs.set_display_rotation(degrees, hflip=hflip, vflip=vflip)
        for _ in range(2):
            for packet in vs.encode(av.VideoFrame.from_ndarray(stored(), format="rgb24")):
                out.mux(packet)
        for packet in vs.encode(None):
            out.mux(packet)
    with av.open(str(path)) as c:
        frame = next(c.decode(video=0))
        side = next(s for s in frame_side_data(frame) if s.type.name == "DISPLAYMATRIX")
        return struct.unpack("=9i", bytes(side))


def expected_corner(matrix: tuple[int, ...], col: int, row: int) -> tuple[int, int]:
    """Where the quadrant (col, row) is shown: its centre mapped by the matrix ((p', q') =
    (a p + c q, b p + d q), y down), then placed in the shown frame's bounding box."""
    a, b, _, c, d, *_ = (v / 65536 for v in matrix)
    corners = [(x, y) for x in (-1, 1) for y in (-1, 1)]
    mapped = [(a * x + c * y, b * x + d * y) for x, y in corners]
    p, q = mapped[corners.index((2 * col - 1, 2 * row - 1))]
    return int(p > 0), int(q > 0)


@pytest.mark.parametrize(("degrees", "hflip", "vflip"), [
    (0, True, False), (0, False, True), (180, False, False), (90, False, False),
    (-90, False, False), (90, True, False), (-90, True, False), (90, False, True)])
def test_display_matrix_applied_as_it_says(tmp_path, degrees, hflip, vflip):
    matrix = clip(tmp_path / "in.mp4", degrees, hflip, vflip)
    with VideoReader(tmp_path / "in.mp4") as reader:
        shown = next(reader.frames()).image[..., :3].astype(int)
    h, w = shown.shape[:2]
    assert (w, h) == ((H, W) if degrees % 180 else (W, H))
    for (col, row), colour in COLOURS.items():
        x, y = expected_corner(matrix, col, row)
        centre = shown[y * h // 2 + h // 4, x * w // 2 + w // 4]
        assert np.abs(centre - colour).max() < 12, (col, row, x, y)


def test_orientation_turns_then_mirrors():
    img = np.arange(6).reshape(2, 3)
    assert np.array_equal(Orientation(1).apply(img), np.rot90(img))
    assert np.array_equal(Orientation(0, True).apply(img), img[:, ::-1])
    assert np.array_equal(Orientation(3, True).apply(img), img.T)
