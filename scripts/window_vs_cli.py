"""Docs pictures: the window's picture (read back from the viewport at 100%) next to what
`aquarelle render` makes of the same input, for a still and a paused video frame.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python scripts/window_vs_cli.py \
        docs/screenshots

Prints the largest difference of each pair (0 or 1 level: the same picture).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np
from PyQt6.QtGui import QImage
from PyQt6.QtWidgets import QApplication

from aquarelle.cli.main import main as cli_main
from aquarelle.media.video_reader import VideoReader
from aquarelle.resources import assets_dir
from aquarelle.ui.app import create_application
from aquarelle.ui.screenshots import wait_until

SEEK_S = 1.0  # the paused video frame: a second into the demo clip


def shown(window: object) -> np.ndarray:
    """The viewport's picture at 100%, cropped to the image (RGB)."""
    vp = window.viewport  # type: ignore[attr-defined]
    vp.grabFramebuffer()  # takes what is pending: a new frame waits for its subject
    wait_until(QApplication.instance(), lambda: not vp.subjects.waiting_fresh)
    vp.grabFramebuffer()
    vp.actual_pixels()
    img = vp.grabFramebuffer().convertToFormat(QImage.Format.Format_RGB888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    rows = np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())
    pixels = rows[:, : img.width() * 3].reshape(img.height(), img.width(), 3)
    rect = vp.transform.image_rect((img.width(), img.height()), vp.frame_size)
    x, y, w, h = (round(v) for v in (rect.x, rect.y, rect.w, rect.h))
    return pixels[max(0, y):y + h, max(0, x):x + w].copy()


def cli_render(src: Path, out: Path) -> np.ndarray:
    assert cli_main(["render", str(src), "-o", str(out), "-y", "-q"]) == 0
    return cv2.imread(str(out))[:, :, ::-1].copy()


def pair(window_rgb: np.ndarray, cli_rgb: np.ndarray, title: str) -> np.ndarray:
    """Window | CLI with a caption bar, as BGR for cv2.imwrite."""
    h, w = cli_rgb.shape[:2]
    gap = 12
    canvas = np.full((h + 44, 2 * w + gap, 3), 255, np.uint8)
    canvas[44:, :w] = window_rgb[:h, :w]
    canvas[44:, w + gap:] = cli_rgb
    diff = int(np.abs(window_rgb[:h, :w].astype(int) - cli_rgb.astype(int)).max())
    for x, text in ((8, f"the window ({title})"), (w + gap + 8, "aquarelle render")):
        cv2.putText(canvas, text, (x, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (40, 40, 40), 2,
                    cv2.LINE_AA)
    cv2.putText(canvas, f"largest difference: {diff} of 255", (2 * w + gap - 330, 30),
                cv2.FONT_HERSHEY_SIMPLEX, 0.6, (90, 90, 90), 1, cv2.LINE_AA)
    print(f"{title}: largest difference {diff}")
    return canvas[:, :, ::-1]


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    app = create_application()
    from aquarelle.ui.main_window import MainWindow
    from aquarelle.ui.settings import Settings

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        window = MainWindow(Settings(tmp / "settings.ini"), preset_dir=tmp / "presets")
        window.resize(1500, 950)
        window.show()
        photo = assets_dir() / "demo" / "coffee.jpg"
        assert window.open_file(photo)
        wait_until(app, lambda: window.viewport.has_frame and window.viewport.pipeline is not None)
        still = pair(shown(window), cli_render(photo, tmp / "still.png"), "a photo")
        cv2.imwrite(str(out / "window-vs-cli-still.jpg"), still, [cv2.IMWRITE_JPEG_QUALITY, 88])

        clip = assets_dir() / "demo" / "demo.mp4"
        assert window.open_file(clip)
        window.playback.set_playing(False)
        window.playback.seek(SEEK_S)
        wait_until(app, lambda: window.source.position is not None
             and abs(window.source.position - SEEK_S) < 0.05
             and window.viewport.shown_index is not None and window.viewport.has_frame)
        index = window.viewport.shown_index
        picture = shown(window)
        reader = VideoReader(clip)  # decoded as the app and the export decode it
        try:
            frame = next(f for i, f in enumerate(reader.frames()) if i == index)
        finally:
            reader.close()
        still_frame = tmp / "frame.png"
        cv2.imwrite(str(still_frame), frame.image[:, :, ::-1])
        video = pair(picture, cli_render(still_frame, tmp / "frame-cli.png"),
                     f"paused video, frame {index + 1}")
        cv2.imwrite(str(out / "window-vs-cli-video.jpg"), video, [cv2.IMWRITE_JPEG_QUALITY, 88])
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")))
