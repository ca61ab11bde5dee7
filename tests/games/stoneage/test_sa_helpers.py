"""The companion's helpers: the roll helper (best use of tools, one more pip), the yield
distribution, and the feeding check before it happens (S-DICE-1, S-DICE-2, S-TOOL-2, S-TOOL-3,
S-FEED-1, S-FEED-2)."""

from __future__ import annotations

import itertools

import pytest
from sa_helpers import acting, play

from games.stoneage.rules.helpers import (
    expected_yield,
    feeding_check,
    roll_help,
    roll_help_for,
    sum_distribution,
    yield_distribution,
)
from games.stoneage.rules.state import Phase


def test_roll_help_best_tools_waste_fewest_pips_S_TOOL_3():
    h = roll_help("wood", [3, 5, 6], 3, [1, 2, 3])
    assert h["base"] == 4 and h["max"] == 6 and h["base_one_more_pip"] == 5
    assert h["best"]["tools"] == [3, 1] and h["best"]["waste"] == 0 and h["best"]["move"] == "tools 3,1"
    assert [o["yield"] for o in h["options"]] == [4, 5, 6]
    assert h["options"][1]["tools"] == [1]  # one pip more makes the fifth wood


def test_roll_help_uses_one_time_tools_last_S_CARD_6():
    h = roll_help("gold", [6, 6, 5], 6, [4], [3])
    assert h["max"] == 4 and h["best"]["tools"] == [4] and h["best"]["once"] == [3]
    h2 = roll_help("gold", [6, 6, 2], 6, [4], [4])
    assert h2["best"]["tools"] == [4] and h2["best"]["once"] == []  # the permanent tool is spent first


def test_roll_help_one_more_pip_S_DICE_2():
    h = roll_help("stone", [4, 5], 5, [])
    assert h["max"] == 1 and h["short"] == 1 and h["one_more_pip"] == 2
    assert h["one_more_pip_text"] == "one more pip would give 2"
    h = roll_help("stone", [5, 5], 5, [])
    assert h["one_more_pip_text"] == "one more pip would still give 2"


def test_roll_help_is_right_against_brute_force_S_DICE_1_S_TOOL_2():
    for dice, tools, div in (
        ([1, 2, 6], [2, 2, 1], 3),
        ([6, 6], [4, 3], 5),
        ([1], [1, 1, 1], 2),
        ([3, 4, 4, 5], [4, 4, 4], 6),
    ):
        h = roll_help("x", dice, div, tools)
        best = max((sum(dice) + sum(c)) // div for k in range(len(tools) + 1) for c in itertools.combinations(tools, k))
        assert h["max"] == best
        cheapest = min(
            sum(c)
            for k in range(len(tools) + 1)
            for c in itertools.combinations(tools, k)
            if (sum(dice) + sum(c)) // div == best
        )
        assert h["best"]["added"] == cheapest


def test_yield_distribution_sums_to_one_and_matches_the_expectation():
    assert sum_distribution(2)[7] == 6 and sum(sum_distribution(3)) == 216
    d = yield_distribution(2, 2)
    assert abs(sum(d.values()) - 1) < 1e-12 and d[6] == pytest.approx(1 / 36)
    assert expected_yield(1, 2) == pytest.approx((0 + 1 + 1 + 2 + 2 + 3) / 6)
    assert expected_yield(3, 3, added=3) == pytest.approx(expected_yield(3, 3) + 1)


def test_roll_help_for_a_state_waiting_for_tools():
    s = play(acting(placed={0: {"wood": 2}}, fields={0: {"tools": (2, 1), "used": (1,)}}), "take wood", "roll wood 2,2")
    assert s.phase is Phase.TOOLS
    h = roll_help_for(s)
    assert h["seat"] == 0 and h["gives"] == "wood" and h["best"]["tools"] == [2] and h["max"] == 2


def test_feeding_check_before_feeding_S_FEED_1():
    s = acting(placed={0: {"hunt": 2, "hut": 2}}, fields={0: {"food": 0, "agri": 1, "res": (1, 1, 0, 0)}})
    f = feeding_check(s, 0)
    assert (f["food"], f["agriculture"], f["mouths"], f["new_people"]) == (0, 1, 6, 1)
    assert f["short"] == 5 and f["hunting_expected"] == pytest.approx(expected_yield(2, 2))
    assert f["short_expected"] == pytest.approx(5 - 3.25, abs=0.01)
    assert f["can_pay"] is False and f["cost_points"]["starve"] == 10


def test_feeding_check_in_section_three_S_FEED_2():
    s = acting(fields={0: {"food": 3, "res": (1, 2, 0, 0)}})
    s = play(s, "take hunt", "roll hunt 1")
    assert s.phase is Phase.FEED and s.actor == 0
    f = feeding_check(s, 0)
    assert f["short"] == 2 and f["pay"] == {"wood": 1, "clay": 1, "stone": 0, "gold": 0}
    assert f["pay_move"] == "feed wood,clay" and f["cost_points"] == {"pay": 2, "starve": 10}
