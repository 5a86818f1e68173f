"""The window's shader warm-up: soon after it painted a style first, that style's
presets are compiled in a process of its own, at the lowest priority (engine/shader_warmup),
so that choosing one later finds its programs in the GL driver's disk cache instead of
stopping the window for seconds. Done once per style, look, app and shader version and GL
renderer: a file in the settings folder remembers which."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from PyQt6.QtCore import QObject, QTimer

from .. import __version__
from ..engine.shader_warmup import shader_digest, warm_looks
from ..media.image_pixels import to_8bit
from ..media.still_process import ChildJob
from ..platforms import current_config_dir
from ..resources import shaders_dir

if TYPE_CHECKING:
    from ..engine.presets import Preset
    from .render_state import RenderState
    from .viewport import Viewport

# started this long after the window's first picture of a style (it then paints at full
# priority: the child, at the lowest, takes a core's 1.5% while the window wants both)
DELAY_MS = 2000
POLL_MS = 500
PICTURE_PX = 640  # the picture painted: the one shown, at most this long side
NICE = 19
MAX_KEPT = 200  # keys remembered
STAMP_FILE = "warmed-shaders.json"

Looks = list[dict[str, Any]]  # a style's whole set of values, each


def warm_key(style: str, looks: Looks, moving: bool, renderer: str, shaders: str) -> str:
    """What a warm-up is of (`shaders`: the shader files' digest): the programs it compiles
    follow from each of these."""
    digest = hashlib.sha1()
    for part in (__version__, shaders, renderer, style,
                 json.dumps(looks, sort_keys=True, default=str), str(moving)):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


class WarmStamps:
    """The warm-ups done, as keys in a small JSON file (one that cannot be read or written
    only means a warm-up done again)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def keys(self) -> list[str]:
        try:
            value = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return [str(k) for k in value] if isinstance(value, list) else []

    def __contains__(self, key: object) -> bool:
        return key in self.keys()

    def add(self, key: str) -> None:
        keys = [k for k in self.keys() if k != key][-(MAX_KEPT - 1):] + [key]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".part")
            tmp.write_text(json.dumps(keys), encoding="utf-8")
            tmp.replace(self.path)
        except OSError:
            pass


def small_picture(image: np.ndarray) -> np.ndarray:
    """`image` (RGB, 8 or 16 bits) as 8 bits with at most PICTURE_PX on its long side."""
    h, w = image.shape[:2]
    rgb = image[:, :, :3]
    rgb = to_8bit(rgb)
    k = PICTURE_PX / max(h, w)
    if k < 1.0:
        rgb = cv2.resize(rgb, (max(1, round(w * k)), max(1, round(h * k))),
                         interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(rgb)


class ShaderWarmup(QObject):
    """Warms the shaders of the current style's presets in a child process, DELAY_MS after
    the window first painted a (style, still or moving) pair it has not warmed;
    `enabled` is the app's to set (windows made by tests leave it off)."""

    def __init__(self, state: RenderState, viewport: Viewport,
                 presets_of: Callable[[str], list[Preset]],
                 stamps: WarmStamps | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.enabled = False
        self.state, self.viewport, self.presets_of = state, viewport, presets_of
        self.stamps = stamps or WarmStamps(current_config_dir() / STAMP_FILE)
        self.job: ChildJob | None = None
        self.key: str | None = None  # what the job warms
        self._seen: set[tuple[str, bool]] = set()  # (style, moving) pairs scheduled
        self._digests: dict[Path, str] = {}  # shader folder -> its digest, once a session
        self._delay = QTimer(self)
        self._delay.setSingleShot(True)
        self._delay.timeout.connect(self._start)
        self._poll = QTimer(self)
        self._poll.timeout.connect(self._check)
        viewport.rendered.connect(self._painted)

    def _painted(self) -> None:
        pair = (self.state.style.name, self.viewport.moving_source)
        if self.enabled and pair not in self._seen and self.job is None \
                and not self._delay.isActive():
            self._seen.add(pair)
            self._delay.start(DELAY_MS)

    def looks(self) -> Looks:
        """The current values, then each preset's as choosing it would set them."""
        state = self.state
        looks: Looks = []
        presets = self.presets_of(state.style.name)
        for values in [state.params.values()] + [state.preset_look(p.values) for p in presets]:
            if values not in looks:
                looks.append(values)
        return looks

    def _start(self) -> None:
        image, vp = self.viewport.current_image, self.viewport
        if image is None or self.job is not None or not vp.gl_info:
            return
        root = vp.shader_root or shaders_dir()
        if root not in self._digests:
            self._digests[root] = shader_digest(root)
        looks, moving = self.looks(), vp.moving_source
        key = warm_key(self.state.style.name, looks, moving, vp.gl_info, self._digests[root])
        if key in self.stamps:
            return
        self.key = key
        self.job = ChildJob(warm_looks, self.state.style, looks, small_picture(image), moving,
                            vp.shader_root, what="shader warm-up", nice=NICE)
        self.job.start()
        self._poll.start(POLL_MS)

    def _check(self) -> None:
        job = self.job
        if job is None or not job.poll():
            return
        self._poll.stop()
        self.job = None
        if job.error is None and self.key is not None:
            self.stamps.add(self.key)
        elif not job.cancelled:  # (best effort: the looks compile when first used, as ever)
            print(f"aquarelle: shader warm-up: {job.error}", file=sys.stderr)

    def stop(self) -> None:
        """End a warm-up under way (the window closes)."""
        self._delay.stop()
        self._poll.stop()
        if self.job is not None:
            self.job.cancel()
            self.job = None
