"""Long runs stay flat: frames through the live viewport and a long export, with memory and
GL objects measured at the start (after warm-up) and the end.

    xvfb-run -a python -m aquarelle.ui.soak [--frames 10000] [--write BENCHMARKS.md]

The viewport part drives the real window: a synthetic source's frames shown and painted one
by one, a parameter changed every 100 frames, a preset switch half-way, a seek (history
reset). The export part renders a synthetic clip of as many frames and decodes the result:
every frame there once, in order, with its timestamp (none dropped or duplicated).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

WARMUP = 50
SETTLED = 4  # frames painted after a change before textures are counted again
SIZE = (160, 96)


def rss_mib() -> float:
    """Resident memory of this process now (Linux /proc; elsewhere the peak)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


@dataclass
class Soak:
    """Start (after warm-up) and end figures of one run."""

    frames: int
    seconds: float
    rss_start: float
    rss_end: float
    gl_start: int
    gl_end: int
    dropped: int = 0
    duplicated: int = 0
    painted: int = 0  # the viewport's renders (a frame held too long is never painted)

    @property
    def rss_growth(self) -> float:
        return self.rss_end / self.rss_start - 1.0


def gl_objects(window: Any) -> int:
    """GL objects the viewport's renderer has ever allocated (textures; framebuffers go with
    them): flat when nothing leaks."""
    renderer = window.viewport.pipeline
    return sum(pool.allocations for pool in renderer.texture_pools()) \
        if renderer is not None else 0


def soak_viewport(app: Any, window: Any, frames: int) -> Soak:
    from ..engine.presets import list_presets
    from ..media.source import Frame
    from ..media.sources import synthetic_pattern

    presets = list_presets(window.state.style.name)
    renders = window.viewport.stats.renders
    params = window.param_panel
    start = None
    changed = None  # the renders made when the preset changed or the seek came
    t0 = time.perf_counter()
    for k in range(frames):
        if k == WARMUP:
            start = (rss_mib(), gl_objects(window), time.perf_counter())
        if changed is not None and start is not None \
                and window.viewport.stats.renders - changed >= SETTLED:
            # a preset's passes may need more textures at once (shared by lifetime), and the
            # frames after a seek (held for their subject, as long as finding it takes, then
            # painted afresh and again with it): a leak is what grows after those
            start = (start[0], gl_objects(window), start[2])
            changed = None
        if k % 100 == 99:
            params.set_value("dilution", 0.1 + 0.3 * ((k // 100) % 3) / 2)
        if k == frames // 2 and presets:
            window.presets.select(presets[k % len(presets)].name)
            changed = window.viewport.stats.renders
        if k == (3 * frames) // 4:
            window.viewport.new_source()  # what a seek does: history forgotten
            changed = window.viewport.stats.renders
        # a file playing (its frames timed): each is painted as it comes (a still would wait
        # for its subject, the picture before it held)
        window.viewport.show_frame(Frame(synthetic_pattern(k, *SIZE), k, k / 30.0))
        window.viewport.repaint()
        app.processEvents()
    rss0, gl0, t1 = start or (rss_mib(), gl_objects(window), t0)
    return Soak(frames, time.perf_counter() - t1, rss0, rss_mib(), gl0, gl_objects(window),
                painted=window.viewport.stats.renders - renders)


def soak_export(frames: int, folder: Path) -> Soak:
    """A synthetic clip of `frames` frames exported and decoded again."""
    import av

    from ..media.export import ExportOptions, export_video
    from ..media.sources import synthetic_pattern

    src, dst = folder / "soak-in.mp4", folder / "soak-out.mp4"
    with av.open(str(src), "w") as c:
        s = c.add_stream("libx264", rate=30)
        s.width, s.height, s.pix_fmt = SIZE[0], SIZE[1], "yuv420p"
        s.options = {"preset": "ultrafast", "crf": "30"}
        s.codec_context.time_base = Fraction(1, 30)
        for k in range(frames):
            f = av.VideoFrame.from_ndarray(synthetic_pattern(k, *SIZE), format="rgb24")
            f.pts = k
            for p in s.encode(f):
                c.mux(p)
        for p in s.encode(None):
            c.mux(p)
    warm: list[tuple[float, float]] = []

    def progress(p: Any) -> None:  # RSS once the export is warmed up, as for the viewport
        if p.done >= WARMUP and not warm:
            warm.append((rss_mib(), time.perf_counter()))

    t0 = time.perf_counter()
    result = export_video(src, dst, "watercolor", {}, ExportOptions(crf=30), progress=progress)
    rss0, t1 = warm[0] if warm else (rss_mib(), t0)
    seconds = time.perf_counter() - t1
    with av.open(str(dst)) as c:
        stream = c.streams.video[0]
        pts = [f.pts for f in c.decode(stream)]
    dup = len(pts) - len(set(pts))
    return Soak(result.frames, seconds, rss0, rss_mib(), 0, 0,
                dropped=frames - len(set(pts)), duplicated=dup)


def table(view: Soak, export: Soak) -> str:
    def row(name: str, s: Soak, gl: str) -> str:
        return (f"| {name} | {s.frames} | {s.seconds:.0f} | {s.rss_start:.0f} | "
                f"{s.rss_end:.0f} | {s.rss_growth:+.1%} | {gl} | {s.dropped} | "
                f"{s.duplicated} |")

    return "\n".join([
        f"Command: `xvfb-run -a python -m aquarelle.ui.soak --frames {view.frames} --write "
        f"BENCHMARKS.md` ({date.today().isoformat()}), frames {SIZE[0]}x{SIZE[1]}.",
        "",
        "| run | frames | seconds | RSS start MiB | RSS end MiB | growth | GL textures start "
        "-> end | dropped | duplicated |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|",
        row("live viewport (params every 100, preset, seek)", view,
            f"{view.gl_start} -> {view.gl_end}"),
        row("export", export, "-"),
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aquarelle.ui.soak")
    parser.add_argument("--frames", type=int, default=10000)
    parser.add_argument("--write", metavar="FILE", help="replace the soak table in FILE")
    args = parser.parse_args(argv)
    from .app import create_application
    from .main_window import MainWindow
    from .settings import Settings

    app = create_application()
    with tempfile.TemporaryDirectory(prefix="aquarelle-soak-") as tmp:
        window = MainWindow(Settings(Path(tmp) / "settings.ini"), preset_dir=Path(tmp))
        window.resize(800, 500)
        window.show()
        window._poll.stop()  # frames come from here, not from a source
        view = soak_viewport(app, window, args.frames)
        window.close()
        export = soak_export(args.frames, Path(tmp))
    md = table(view, export)
    print(md)
    if args.write:
        from ..eval.report import replace_section

        replace_section(args.write, "soak", md, "## Long runs: `python -m aquarelle.ui.soak`")
    flat = view.rss_growth < 0.05 and export.rss_growth < 0.05 and view.gl_end == view.gl_start
    return 0 if flat and export.dropped == export.duplicated == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())

