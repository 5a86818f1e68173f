"""The window's model of what paints cost: the scales it affords and the drafts' scale."""

from __future__ import annotations

import pytest

from aquarelle.media.adaptive import STEP, AdaptiveScale
from aquarelle.ui.paint_cost import DRAFT_FLOOR, PaintCost


def measured(per_px: float) -> PaintCost:
    """Its pipeline's first paint (compiling) done, then `per_px` measured."""
    cost = PaintCost()
    cost.painting(1.0, False)
    cost.painted(5.0, (1, 1), None, False)
    assert cost.per_px is None
    cost.per_px = per_px
    return cost


def test_nothing_is_afforded_before_a_paint_is_measured() -> None:
    cost = PaintCost()
    assert cost.affordable_scale((640, 480), 0.05) is None
    assert cost.draft_scale((640, 480), 1.0) is None


def test_the_affordable_scale_is_the_largest_step_within_the_time() -> None:
    cost = measured(1e-6)  # a 1000x1000 frame: 1 s whole
    assert cost.affordable_scale((1000, 1000), 0.25) == pytest.approx(0.5)  # 0.5^2 x 1 s
    assert cost.affordable_scale((1000, 1000), 0.2) == pytest.approx(0.40)  # floor to a step
    assert cost.affordable_scale((1000, 1000), 2.0) == 1.0
    assert cost.affordable_scale((1000, 1000), 1e-9) == pytest.approx(STEP)


def test_the_first_paint_of_a_pipeline_compiles_and_is_not_measured() -> None:
    cost = PaintCost()
    cost.painting(1.0, False)
    cost.painted(3.0, (100, 100), None, False)
    assert cost.per_px is None
    cost.painting(1.0, False)
    cost.painted(1.0, (100, 100), None, False)
    assert cost.per_px == pytest.approx(1e-4)
    cost.painting(0.5, False)  # a quarter of the pixels in the same time: 4x per pixel
    cost.painted(1.0, (100, 100), None, False)
    assert cost.per_px == pytest.approx(0.5 * (1e-4 + 4e-4))
    cost.new_pipeline()
    cost.painting(1.0, False)
    cost.painted(100.0, (100, 100), None, False)
    assert cost.per_px == pytest.approx(2.5e-4)


def test_a_paint_nobody_announced_is_not_measured() -> None:
    cost = measured(1e-6)
    cost.painted(5.0, (100, 100), None, False)  # (a big still's painting came from apart)
    assert cost.per_px == 1e-6


def test_drafts_are_painted_at_the_scale_the_budget_affords_but_never_below_the_floor() -> None:
    cost = measured(0.05 / (0.5 * 0.5 * 1000 * 1000))  # 0.5 fits the 50 ms budget
    assert cost.draft_scale((1000, 1000), 1.0) == pytest.approx(0.5)
    assert cost.draft_scale((1000, 1000), 0.5) is None  # the whole paint is no bigger
    slow = measured(10.0)
    assert slow.draft_scale((1000, 1000), 1.0) == DRAFT_FLOOR


def test_drafts_that_do_not_keep_up_lower_their_scale_after_the_first() -> None:
    cost = measured(0.05 / (0.8 * 0.8 * 1000 * 1000))
    assert cost.draft_scale((1000, 1000), 1.0) == pytest.approx(0.8)
    cost.painting(0.8, True)
    cost.painted(1.0, (1000, 1000), None, True)  # its first: made its textures
    assert cost.draft_scale((1000, 1000), 1.0) == pytest.approx(0.8)
    cost.painting(0.8, True)
    cost.painted(0.12, (1000, 1000), None, True)  # 0.8 x sqrt(0.05 / 0.12) = 0.52
    assert cost.draft_scale((1000, 1000), 1.0) == pytest.approx(0.5)
    for seconds in (1.0, 0.4):  # at 0.5: 0.5 x sqrt(1/8) = 0.18 -> the floor
        cost.painting(0.5, True)
        cost.painted(seconds, (1000, 1000), None, True)
    assert cost.draft_scale((1000, 1000), 1.0) == DRAFT_FLOOR
    cost.new_drafts()
    assert cost.draft_scale((1000, 1000), 1.0) == pytest.approx(0.8)  # chosen afresh


def test_a_first_whole_paint_far_over_a_playing_files_budget_jumps_its_scale() -> None:
    cost = measured(1e-9)
    cost.new_pipeline()
    cost.painting(1.0, False)
    cost.painted(0.01, (1000, 1000), None, False)  # (compiled)
    adaptive = AdaptiveScale(10.0, 0.1, 1.0)
    cost.painting(1.0, False)
    cost.painted(1.0, (1000, 1000), adaptive, False)  # ten budgets
    assert adaptive.scale < 1.0
    # 0.9 of 0.1 s at (1e-9 + 1e-6) / 2 per pixel: sqrt(0.09 / 0.5005) = 0.42 -> 0.40
    assert adaptive.scale == pytest.approx(0.40)
    later = AdaptiveScale(10.0, 0.1, 1.0)
    cost.painting(1.0, False)
    cost.painted(0.2, (1000, 1000), later, False)  # two budgets: left to adaptive quality
    assert later.scale == 1.0


def test_what_a_big_paint_costs_is_told_from_big_paints_only() -> None:
    cost = PaintCost()
    cost.painting(1.0, False)
    cost.painted(3.0, (100, 100), None, False)  # (compiling)
    cost.painting(1.0, False)
    cost.painted(0.2, (200, 136), None, False)  # small: mostly what any paint costs
    assert cost.per_px is not None and cost.seconds((1000, 1000)) is None
    cost.painting(0.5, False)
    cost.painted(0.25, (1000, 1000), None, False)  # 250 000 px painted in 0.25 s
    assert cost.seconds((2000, 1000)) == pytest.approx(2.0)
    assert cost.seconds((2000, 1000), 0.5) == pytest.approx(0.5)
