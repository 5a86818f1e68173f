"""A frame's passes decided once per key: which run, which are skipped, and how long each
output lives (so targets whose lives do not overlap share one texture)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .style import PassSpec, RepeatSpec, StyleSpec

RUN, BYPASS, CLEAR = "run", "bypass", "clear"
FOREVER = math.inf  # an output read after the frame (the style's output, history, views)


@dataclass(frozen=True)
class Step:
    """One pass of the frame: drawn (RUN), aliased to an input (BYPASS) or cleared (CLEAR);
    `last_read` is the position of the last step that reads the value it makes (FOREVER for
    a kept target; its own position when nothing reads it)."""

    spec: PassSpec
    action: str
    last_read: float


@dataclass(frozen=True)
class FramePlan:
    """The steps of one frame, in order; the same for every frame with the same key."""

    steps: tuple[Step, ...]


def unrolled(style: StyleSpec, repeats: Mapping[str, int]) -> list[PassSpec]:
    """The style's passes in the order they run, repeat blocks written out."""
    out: list[PassSpec] = []
    for node in style.graph:
        if isinstance(node, RepeatSpec):
            for _ in range(repeats[node.count]):
                out.extend(node.passes)
        else:
            out.append(node)
    return out


def build_plan(passes: Iterable[PassSpec], runs: Mapping[str, bool],
               kept: frozenset[str]) -> FramePlan:
    """The plan of a frame whose passes run as `runs` says (a pass not in it is made
    elsewhere: by another tile's run). A skipped pass is bypassed or cleared, unless an
    alternative already made its output; `kept` targets live to the end of the frame."""
    actions: list[tuple[PassSpec, str]] = []
    made: set[str] = set()
    for p in passes:
        if p.name not in runs:
            continue
        if runs[p.name]:
            actions.append((p, RUN))
        elif p.output in made:
            continue  # an alternative already wrote it: keep it
        else:
            actions.append((p, BYPASS if p.bypass is not None else CLEAR))
        made.add(p.output)
    reads = [_reads(p, action) for p, action in actions]
    steps = []
    for i, (p, action) in enumerate(actions):
        last: float = i
        if p.output in kept:
            last = FOREVER
        else:
            for j in range(i + 1, len(actions)):
                if p.output in reads[j]:
                    last = j
                if actions[j][0].output == p.output:
                    break  # a new value from here on (read above, before it is written)
        steps.append(Step(p, action, last))
    return FramePlan(tuple(steps))


def _reads(p: PassSpec, action: str) -> frozenset[str]:
    """The targets a step reads (a `.prev` input may read this frame's value)."""
    if action == CLEAR:
        return frozenset()
    if action == BYPASS:
        return frozenset({p.inputs[p.bypass].target.removesuffix(".prev")})  # type: ignore[index]
    return frozenset(i.target.removesuffix(".prev") for i in p.inputs.values())
