"""Subject models' time per frame: face detection with meshes and the person mask on a
640x360 webcam-like frame, and a still's face search on a 1280x853 photo without faces,
against cv2.stylization of the same frame in the same process.

Run: .venv/bin/python scripts/bench_subject.py [--runs 30] [--write BENCHMARKS.md]
The frame: scikit-image's astronaut (public domain), her face about 150 px wide, on a grey
wall at 640x360. Threads: OpenCV's default, and one (the budget when the render and the
decoder have the other core).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from datetime import date

import cv2
import numpy as np
import skimage.data

from aquarelle.engine.faces import FaceDetector
from aquarelle.engine.person_mask import PersonSegmenter
from aquarelle.engine.subject import SubjectTracker
from aquarelle.eval.report import replace_section


def frame(shift: int = 0) -> np.ndarray:
    face = cv2.resize(skimage.data.astronaut(), (300, 300), interpolation=cv2.INTER_AREA)
    out = np.full((360, 640, 3), 170, np.uint8)
    out[30:330, 170 + shift:470 + shift] = face
    return out


def tracked_ms(runs: int) -> float:
    """A tracker's mean time a frame over a clip of the face moving 2 px a frame: meshes
    followed, a full detection every 10 frames, the person mask every second frame."""
    clip = [frame(2 * (k % 40) - 40) for k in range(max(runs, 40))]
    tracker = SubjectTracker()
    tracker.update(clip[0], 0.0)
    t = time.perf_counter()
    for k, f in enumerate(clip[1:], 1):
        tracker.update(f, k / 30)
    return 1000 * (time.perf_counter() - t) / (len(clip) - 1)


def median_ms(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def measure(runs: int) -> list[tuple[str, float, float]]:
    rgb = frame()
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    still = cv2.resize(skimage.data.coffee(), (1280, 853), interpolation=cv2.INTER_AREA)
    still_bgr = cv2.cvtColor(still, cv2.COLOR_RGB2BGR)
    rows = []
    for threads in (cv2.getNumThreads(), 1):
        cv2.setNumThreads(threads)
        det, seg = FaceDetector(), PersonSegmenter()
        assert len(det.detect(rgb)) == 1, "the benchmark frame's face was not found"
        faces = median_ms(lambda: det.detect(rgb), runs)  # noqa: B023 - measured at once
        person = median_ms(lambda: seg.mask(rgb), runs)  # noqa: B023
        cv = median_ms(lambda: cv2.stylization(bgr), max(3, runs // 3))
        n = f"{threads} thread{'s' if threads > 1 else ''}"
        rows += [(f"faces + meshes, one picture ({n})", faces, cv),
                 (f"person mask ({n})", person, cv),
                 (f"video: faces tracked + person mask every 2nd frame ({n})",
                  tracked_ms(runs), cv)]
        # a still without faces: the first boards, then a still's thorough search, which
        # looks at the finer boards when the first found no face (a group's small faces)
        assert det.detect(still, thorough=True) == [], "a face in the faceless still"
        cv_still = median_ms(lambda: cv2.stylization(still_bgr), max(3, runs // 3))
        rows += [(f"1280x853 still without faces: first boards ({n})",
                  median_ms(lambda d=det: d.detect(still), runs), cv_still),
                 (f"1280x853 still without faces: thorough, finer boards too ({n})",
                  median_ms(lambda d=det: d.detect(still, thorough=True), runs), cv_still)]
    return rows


def markdown(rows: list[tuple[str, float, float]], runs: int) -> str:
    lines = [f"Command: `.venv/bin/python scripts/bench_subject.py --runs {runs}` "
             f"({date.today()}, {platform.machine()}, {os.cpu_count()} CPU cores, OpenCV "
             f"{cv2.__version__})  ",
             "A 640x360 frame with one face about 150 px wide, and a 1280x853 still without "
             "faces (scikit-image's coffee); median of the runs. Baseline: "
             "`cv2.stylization` of the same frame, same process and thread count.", "",
             "| model | ms a frame | x cv2.stylization |", "|---|---:|---:|"]
    lines += [f"| {name} | {ms:.1f} | {ms / cv:.2f} |" for name, ms, cv in rows]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--write", metavar="FILE", help="put the table in FILE (BENCHMARKS.md)")
    args = ap.parse_args()
    md = markdown(measure(args.runs), args.runs)
    print(md)
    if args.write:
        replace_section(args.write, "subject", md,
                        "## Subject models: `scripts/bench_subject.py`")


if __name__ == "__main__":
    main()
