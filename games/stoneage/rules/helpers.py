"""The companion's helpers for the table, as pure functions the page, the CLI and the players call.

* :func:`roll_help` — for a roll: the yield without tools, the best use of the tools (which tools to
  spend for the most, wasting the fewest pips, one-time tools last) and what one more pip would give.
* :func:`feeding_check` — before feeding happens: food now, agriculture, mouths (with a hut still to
  be carried out), the hunting still to come (expected), what is missing and what it would cost.
* :func:`yield_distribution` — the exact distribution of a roll's yield (k dice + tools, a divisor).

Nothing here changes a state; every function is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from games.stoneage.rules.engine import once_values, shortfall
from games.stoneage.rules.profile import DICE_PLACES, RESOURCES
from games.stoneage.rules.state import HUNT, HUT, Phase, PlayerState, State, Tribe, unused


def _submultisets(vals: Sequence[int]) -> list[tuple[int, ...]]:
    counts: dict[int, int] = {}
    for v in vals:
        counts[v] = counts.get(v, 0) + 1
    out: list[tuple[int, ...]] = [()]
    for v in sorted(counts, reverse=True):
        out = [prev + (v,) * k for prev in out for k in range(counts[v] + 1)]
    return out


def roll_help(
    what: str, dice: Sequence[int], divisor: int, tools: Sequence[int] = (), once: Sequence[int] = ()
) -> dict[str, Any]:
    """The yield of ``dice`` for ``what`` and the best use of the ``tools`` (unused permanent tool
    values) and ``once`` (one-time tool values) (S-DICE-1, S-TOOL-2, S-TOOL-3).

    ``options`` lists, for each yield reachable, the cheapest tools that reach it (fewest pips added,
    then the fewest one-time tools, then the fewest tools); ``best`` is the option with the most
    yield. ``one_more_pip`` is what the best option would give with one pip more, and ``short`` how
    many pips it lacks for one more unit; ``move`` the tools move in notation."""
    pips = sum(dice)
    base = pips // divisor
    best_by_yield: dict[int, tuple[tuple[int, int, int], tuple[int, ...], tuple[int, ...]]] = {}
    for a in _submultisets(sorted(tools, reverse=True)):
        for b in _submultisets(sorted(once, reverse=True)):
            added = sum(a) + sum(b)
            y = (pips + added) // divisor
            key = (added, len(b), len(a) + len(b))
            if y not in best_by_yield or key < best_by_yield[y][0]:
                best_by_yield[y] = (key, a, b)
    options: list[dict[str, Any]] = []
    for y in sorted(best_by_yield):
        (added, _, _), a, b = best_by_yield[y]
        total = pips + added
        options.append(
            {
                "yield": y,
                "tools": list(a),
                "once": list(b),
                "added": added,
                "total": total,
                "waste": total - y * divisor,
                "short": divisor - total % divisor,
                "move": _tools_text(a, b),
            }
        )
    best = options[-1]
    best_total: int = best["total"]
    best_yield: int = best["yield"]
    nxt = (best_total + 1) // divisor
    return {
        "what": what,
        "dice": sorted(dice),
        "pips": pips,
        "divisor": divisor,
        "base": base,
        "base_short": divisor - pips % divisor,
        "base_one_more_pip": (pips + 1) // divisor,
        "max": best["yield"],
        "best": best,
        "options": options,
        "one_more_pip": nxt,
        "one_more_pip_text": (
            f"one more pip would give {nxt}" if nxt > best_yield else f"one more pip would still give {nxt}"
        ),
        "short": best["short"],
    }


def _tools_text(a: Sequence[int], b: Sequence[int]) -> str:
    parts = [str(v) for v in a] + [f"once{v}" for v in b]
    return "tools " + (",".join(parts) if parts else "-")


def roll_help_for(state: State) -> dict[str, Any] | None:
    """:func:`roll_help` for the roll the state waits to add tools to (None if none)."""
    if state.phase is not Phase.TOOLS:
        return None
    p = state.players[state.actor]
    out = roll_help(
        state.what,
        state.dice,
        state.profile.divisor[state.what],
        unused(p.tools, p.used),
        once_values(state.profile, p),
    )
    out["seat"] = state.actor
    out["gives"] = "food" if state.what == "hunt" else state.what
    return out


@cache
def sum_distribution(k: int) -> tuple[int, ...]:
    """Number of ways each total 0..6k comes up with ``k`` dice."""
    dist = [1]
    for _ in range(k):
        nxt = [0] * (len(dist) + 6)
        for s, ways in enumerate(dist):
            if ways:
                for f in range(1, 7):
                    nxt[s + f] += ways
        dist = nxt
    return tuple(dist)


def yield_distribution(k: int, divisor: int, added: int = 0) -> dict[int, float]:
    """Probability of each yield of ``k`` dice + ``added`` pips with ``divisor``."""
    dist = sum_distribution(k)
    total = 6**k
    out: dict[int, float] = {}
    for s, ways in enumerate(dist):
        if ways:
            y = (s + added) // divisor
            out[y] = out.get(y, 0.0) + ways / total
    return out


def expected_yield(k: int, divisor: int, added: int = 0) -> float:
    """Expected yield of ``k`` dice + ``added`` pips."""
    return sum(y * p for y, p in yield_distribution(k, divisor, added).items())


def feeding_check(state: State, seat: int) -> dict[str, Any]:
    """The feeding of ``seat`` as things stand (S-FEED-1, S-FEED-2).

    Before section 3: food now, + agriculture, + the hunting still to be carried out (expected, with
    all unused tools), against the people (+1 for a hut still to be carried out). In section 3 (after
    the agriculture food was added): the exact shortfall. ``pay`` suggests the cheapest resources
    (the lowest-valued kinds first); ``cost_points`` compares paying (1 final point per resource)
    with starving (−10)."""
    p: PlayerState | Tribe = state.players[seat]
    prof = state.profile
    feeding_now = state.phase is Phase.FEED
    fed_already = feeding_now and _fed_this_round(state, seat)
    hut = 1 if p.placed[HUT] and p.people < prof.max_people else 0
    hunters = p.placed[HUNT]
    pending_hunt = 0.0
    if state.phase in (Phase.ROLL, Phase.TOOLS) and state.what == "hunt" and state.actor == seat:
        hunters = state.ndice if state.phase is Phase.ROLL else 0
        if state.phase is Phase.TOOLS:
            pending_hunt = float(roll_help("hunt", state.dice, prof.divisor["hunt"], unused(p.tools, p.used))["max"])
    if hunters:
        pending_hunt += expected_yield(hunters, prof.divisor["hunt"], sum(unused(p.tools, p.used)))
    if feeding_now or state.phase is Phase.OVER:
        food, agri_food = p.food, 0
    else:
        food, agri_food = p.food, p.agri
    mouths = p.people + hut
    have = food + agri_food
    short_now = max(0, mouths - have)
    short_expected = max(0.0, mouths - have - pending_hunt)
    if feeding_now and state.actor == seat:
        short_now = shortfall(p)
    pay = _cheapest(short_now, p.res)
    return {
        "seat": seat,
        "name": state.seats[seat].name,
        "food": food,
        "agriculture": agri_food if not feeding_now else p.agri,
        "people": p.people,
        "new_people": hut,
        "mouths": mouths,
        "hunting_expected": round(pending_hunt, 2),
        "short": short_now,
        "short_expected": round(short_expected, 2),
        "enough": short_now == 0,
        "fed": fed_already,
        "resources": dict(zip(RESOURCES, p.res, strict=True)),
        "can_pay": pay is not None,
        "pay": None if pay is None else dict(zip(RESOURCES, pay, strict=True)),
        "pay_move": None
        if pay is None or not short_now
        else "feed " + ",".join(r for r, k in zip(RESOURCES, pay, strict=True) for _ in range(k)),
        "cost_points": {"pay": short_now if pay is not None else None, "starve": 10 if short_now else 0},
        "any_cards": len(p.anyc),
    }


def _fed_this_round(state: State, seat: int) -> bool:
    """In section 3, ``seat`` has been fed already (seats are fed from the start player on)."""
    n = len(state.seats)
    return (seat - state.start) % n < (state.actor - state.start) % n


def _cheapest(k: int, res: Sequence[int]) -> tuple[int, int, int, int] | None:
    if k > sum(res):
        return None
    out = [0, 0, 0, 0]
    left = k
    for i in range(4):
        take = min(res[i], left)
        out[i] = take
        left -= take
    return (out[0], out[1], out[2], out[3])


def site_divisors(state: State) -> dict[str, int]:
    """Divisor of each dice place."""
    return {p: state.profile.divisor[p] for p in DICE_PLACES}


__all__ = [
    "expected_yield",
    "feeding_check",
    "roll_help",
    "roll_help_for",
    "site_divisors",
    "sum_distribution",
    "yield_distribution",
]
