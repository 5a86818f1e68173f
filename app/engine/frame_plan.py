"""A frame's passes decided once per key: which run, which are skipped, how long each output
lives, and which texture each output draws into (targets whose lives do not overlap share
one)."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass

from .style import PassSpec, RepeatSpec, StyleSpec

RUN, BYPASS, CLEAR = "run", "bypass", "clear"
FOREVER = math.inf  # an output read after the frame (the style's output, history, views)


@dataclass(frozen=True)
class Step:
    """One pass of the frame: drawn (RUN), aliased to an input (BYPASS) or cleared (CLEAR).

    `last_read` is the position of the last step that reads the value it makes (FOREVER for
    a kept target; its own position when nothing reads it). A drawn output's `register` is
    the index of the texture of its kind (size and format) it shares with outputs whose
    lives do not overlap; None: the target's own textures (it is kept, or a kept target
    stands for it)."""

    spec: PassSpec
    action: str
    last_read: float
    register: int | None = None
    # (kind, register) of the shared textures no later step of the frame uses
    frees: tuple[tuple[Hashable, int], ...] = ()


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


def build_plan(passes: Iterable[PassSpec], runs: Mapping[str, bool], kept: frozenset[str],
               kind: Callable[[str], Hashable] | None = None) -> FramePlan:
    """The plan of a frame whose passes run as `runs` says (a pass not in it is made
    elsewhere: by another tile's run). A skipped pass is bypassed or cleared, unless an
    alternative already made its output; `kept` targets live to the end of the frame.
    With `kind` (a target's texture kind), the other drawn outputs get registers."""
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
    lives: list[float] = []
    for i, (p, _) in enumerate(actions):
        last: float = i
        if p.output in kept:
            last = FOREVER
        else:
            for j in range(i + 1, len(actions)):
                if p.output in reads[j]:
                    last = j
                if actions[j][0].output == p.output:
                    break  # a new value from here on (read above, before it is written)
        lives.append(last)
    registers, frees = _registers(actions, lives, kept, kind) if kind is not None else ({}, {})
    return FramePlan(tuple(Step(p, a, lives[i], registers.get(i), tuple(frees.get(i, ())))
                           for i, (p, a) in enumerate(actions)))


def _registers(actions: list[tuple[PassSpec, str]], lives: list[float], kept: frozenset[str],
               kind: Callable[[str], Hashable]
               ) -> tuple[dict[int, int], dict[int, list[tuple[Hashable, int]]]]:
    """Step -> register for the drawn outputs that are not kept: the lowest-numbered texture
    of its kind free for the value's whole life (a bypass that aliases it lengthens it);
    and step -> the registers whose last use it is."""
    producer: dict[str, int] = {}  # target -> the drawn step whose value it holds now
    until: dict[int, float] = {}  # drawn step -> the last step reading its value (aliases too)
    own: set[int] = set()  # drawn values a kept target stands for: the target's own textures
    for i, (p, action) in enumerate(actions):
        if action == RUN:
            producer[p.output] = i
            until[i] = lives[i]
        elif action == BYPASS:
            src = producer.get(p.inputs[p.bypass].target.removesuffix(".prev"))  # type: ignore[index]
            if src is None:
                producer.pop(p.output, None)
                continue
            producer[p.output] = src
            until[src] = max(until[src], lives[i])
            if p.output in kept:
                own.add(src)
        else:
            producer.pop(p.output, None)
    busy: dict[Hashable, list[float]] = {}  # kind -> each register's value's last read
    out: dict[int, int] = {}
    for i, (p, action) in enumerate(actions):
        if action != RUN or p.output in kept or i in own:
            continue
        regs = busy.setdefault(kind(p.output), [])
        free = next((r for r, last in enumerate(regs) if last < i), len(regs))
        if free == len(regs):
            regs.append(until[i])
        else:
            regs[free] = until[i]
        out[i] = free
    frees: dict[int, list[tuple[Hashable, int]]] = {}
    for k, regs in busy.items():
        for r, last in enumerate(regs):
            frees.setdefault(int(last), []).append((k, r))
    return out, frees


def _reads(p: PassSpec, action: str) -> frozenset[str]:
    """The targets a step reads (a `.prev` input may read this frame's value)."""
    if action == CLEAR:
        return frozenset()
    if action == BYPASS:
        return frozenset({p.inputs[p.bypass].target.removesuffix(".prev")})  # type: ignore[index]
    return frozenset(i.target.removesuffix(".prev") for i in p.inputs.values())
