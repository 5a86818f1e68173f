"""Split passes: on a CPU renderer (which runs every branch of a shader for every pixel) the
watercolor's composite is drawn whole without a face's feature accents, then with them only
on the tiles where the features are. The picture is the one the single draw makes, to the
byte; only the work moves."""

from __future__ import annotations

import json

import cv2
import moderngl
import numpy as np
import pytest
import skimage.data

from aquarelle.engine import AquarelleError, Renderer, load_style
from aquarelle.engine.style import styles_dir


def portrait(w: int = 240, h: int = 200) -> np.ndarray:
    return cv2.resize(skimage.data.astronaut()[:, 16:496], (w, h), interpolation=cv2.INTER_AREA)


def painted(ctx: moderngl.Context, frames: list[np.ndarray], split: bool, **kw
            ) -> tuple[list[np.ndarray], Renderer]:
    p = Renderer(ctx, "watercolor", **kw)
    p.stages[0].graph.split = split
    return [p.render_array(f) for f in frames], p


def composites(p: Renderer) -> list[bool]:
    """Whether each composite step of the last frame's plan draws onto the one before."""
    return [op.onto for op in p.stages[0].graph.plan.ops if op.name == "composite"]


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_a_split_composite_paints_the_same_picture(gl_ctx, scale):
    # a portrait and the same one moved (a video's next frames: history, the focus blended
    # along the flow); at half scale a draft, its composite on the finish's grid
    still = portrait(262, 198)  # sides no multiple of the tiles'
    frames = [still, np.roll(still, 5, axis=1), np.roll(still, 9, axis=1)]
    whole, one = painted(gl_ctx, frames, False, scale=scale)
    split, two = painted(gl_ctx, frames, True, scale=scale)
    with one, two:
        assert composites(one) == [False]
        assert composites(two) == [False, True]  # the second part onto the first's
        for a, b in zip(whole, split, strict=True):
            assert np.array_equal(a, b)


def test_the_split_shades_the_costly_part_only_round_the_features(gl_ctx):
    # the map of tiles the second part draws: every tile with a feature's texel near it, a
    # small part of the picture
    with Renderer(gl_ctx, "watercolor") as p:
        p.inspect = True
        p.render_array(portrait())
        graph = p.stages[0].graph
        assert graph.split  # llvmpipe: a CPU renderer
        features = p.read_target("focus_t")[..., 1] > 0
        ((tex, _, _, _),) = graph._split_maps.values()
        tiles = np.frombuffer(tex.read(), np.uint8).reshape(tex.height, tex.width) > 0
    assert features.any()
    # the features' texels (4 px each) lie in tiles (16 px) drawn
    ys, xs = np.nonzero(features)
    assert tiles[np.minimum(ys // 4, tiles.shape[0] - 1),
                 np.minimum(xs // 4, tiles.shape[1] - 1)].all()
    assert tiles.mean() < 0.3, tiles.mean()


def test_a_picture_without_a_face_is_drawn_in_one_part(gl_ctx):
    flat = np.full((96, 128, 3), 140, np.uint8)
    _, p = painted(gl_ctx, [flat], True)
    with p:
        assert composites(p) == [False]


def test_a_split_must_name_one_of_the_passs_inputs(tmp_path):
    doc = json.loads((styles_dir() / "watercolor.json").read_text())
    composite = next(p for p in doc["passes"] if p.get("name") == "composite")
    composite["split"] = {**composite["split"], "input": "nowhere"}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(AquarelleError, match="split"):
        load_style(path)
