"""The Stone Age rules engine: legality (with the clause that forbids), transitions, legal moves, chance.

:func:`check` says why a move is illegal (``(clause, reason)``) or None; :func:`apply` returns the state
after a legal move (IllegalMoveError otherwise) and never changes its argument. Internally a move is
:func:`step` on a :class:`~games.stoneage.rules.state.Work` followed by :func:`settle`, which carries
out everything that needs nobody's decision (skipping a player who cannot place, feeding a player who
has the food, the end of a round, the end of the game). :func:`generate` yields every legal move;
:class:`LegalMoves` is the lazy view. Chance outcomes (:func:`chance_outcomes`, :func:`sample_chance`)
are moves like any other; sampling is for simulations only. :func:`playout` runs a whole simulated
game on one Work — the same step/settle code, without freezing a State after every move.

Clause ids (``S-…``) are documented in docs/stoneage-rules.md.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement
from math import factorial
from typing import Any, Protocol

from games.stoneage.rules.errors import CoreError, IllegalMoveError
from games.stoneage.rules.moves import (
    AnyMove,
    AnyRes,
    Buy,
    Draw,
    Feed,
    Move,
    Pay,
    Pick,
    Place,
    Reveal,
    Roll,
    Skip,
    Starve,
    Take,
    Tools,
)
from games.stoneage.rules.profile import DICE_PLACES, RESOURCES, BoxProfile, Building
from games.stoneage.rules.state import (
    FIELD,
    FIRST_CARD,
    FIXED_PLACES,
    HUNT,
    HUT,
    TOOLMAKER,
    Phase,
    PlayerState,
    State,
    Tribe,
    View,
    Work,
    place_index,
    unused,
)

Bad = tuple[str, str] | None
"""``(clause, reason)`` for an illegal move, None for a legal one."""

_DICE_INDEX = {p: i for i, p in enumerate(DICE_PLACES)}


# --- small readers ---------------------------------------------------------------------------------
def who(s: View, seat: int) -> str:
    """A player's name for messages."""
    return s.seats[seat].name


def context(s: View) -> str:
    """One line saying where the game stands (for error messages)."""
    if s.phase is Phase.OVER:
        return f"the game is over after round {s.round}"
    name = who(s, s.actor)
    what = {
        Phase.REVEAL: "the table reveals " + _reveal_text(s),
        Phase.PLACE: f"{name} places people",
        Phase.ACT: f"{name} carries out their places",
        Phase.ROLL: f"{name} rolls {s.ndice} dice for {s.what}",
        Phase.TOOLS: f"{name} adds tools to the roll {','.join(map(str, s.dice))} for {s.what}",
        Phase.BAR: f"{name} takes a die of the dice bar {','.join(map(str, s.dice))}",
        Phase.DRAW: f"{name} draws the extra card",
        Phase.FEED: f"{name} is short of food",
    }[s.phase]
    return f"round {s.round}: {what}"


def _reveal_text(s: View) -> str:
    target = reveal_target(s)
    if target is None:
        return "nothing"
    kind, k = target
    return f"the card for card place {k + 1}" if kind == "card" else f"the next building of stack {k + 1}"


def reveal_target(s: View) -> tuple[str, int] | None:
    """What the table reveals next: ``("card", slot)`` (only while the card places are (re)filled
    before placing) or ``("building", stack)``; None when nothing is to be revealed."""
    if s.resume is Phase.PLACE:
        for k, c in enumerate(s.display):
            if c is None and s.unseen_cards:
                return ("card", k)
    for k, top in enumerate(s.tops):
        if top is None and s.left[k] > 0:
            return ("building", k)
    return None


def occupancy(s: View, idx: int) -> int:
    """People of all players on place ``idx``."""
    return sum(p.placed[idx] for p in s.players)


def colours_on(s: View, idx: int) -> list[int]:
    """Seats with people on place ``idx``."""
    return [i for i, p in enumerate(s.players) if p.placed[idx]]


def available(p: PlayerState | Tribe) -> int:
    """People a player still has to place."""
    return p.people - sum(p.placed)


def has_tools(p: PlayerState | Tribe) -> bool:
    """The player has a tool to add to a roll (unused this round, or a one-time tool card)."""
    return len(p.used) < len(p.tools) or bool(p.once)


def tools_can_help(prof: BoxProfile, p: PlayerState | Tribe, what: str, dice: Sequence[int]) -> bool:
    """Adding every tool the player still has would give more than the dice alone: only then is the
    tools choice asked (S-TOOL-4); otherwise ``tools -`` is the best answer and is taken."""
    if not has_tools(p):
        return False
    div = prof.divisor[what]
    pips = sum(dice)
    extra = sum(unused(p.tools, p.used)) + sum(prof.card(c).top.value for c in p.once)
    return (pips + extra) // div > pips // div


def yield_of(s: View, what: str, pips: int) -> int:
    """What a total of ``pips`` gives for ``what`` (S-DICE-1, S-DICE-2): pips // divisor."""
    return pips // s.profile.divisor[what]


def shortfall(p: PlayerState | Tribe) -> int:
    """Food missing to feed everyone (after the agriculture food has been added)."""
    return max(0, p.people - p.food)


def card_cost(s: View, idx: int) -> int:
    """The price of the card on place ``idx`` (S-CARD-1)."""
    return s.profile.card_costs[idx - FIRST_CARD]


def place_kind(s: View, idx: int) -> str:
    """``dice``, ``village``, ``card`` or ``building``."""
    if idx <= 4:
        return "dice"
    if idx <= FIELD:
        return "village"
    return "card" if idx < FIRST_CARD + len(s.display) else "building"


def building_at(s: View, idx: int) -> Building | None:
    """The face-up building of the stack at place ``idx`` (None if the stack is empty)."""
    top = s.tops[idx - FIRST_CARD - len(s.display)]
    return None if top is None else s.profile.building(top)


def building_points(prof: BoxProfile, b: Building, pay: Pay) -> int:
    """Points a building scores when paid with ``pay`` (S-BLD-1, S-BLD-3)."""
    if b.kind == "fixed":
        return b.points
    v = prof.value
    return pay[0] * v[0] + pay[1] * v[1] + pay[2] * v[2] + pay[3] * v[3]


def building_pay_bad(b: Building, pay: Pay, res: Sequence[int]) -> str | None:
    """Why ``pay`` does not pay for building ``b`` out of ``res`` (None if it does)."""
    if any(pay[i] > res[i] for i in range(4)):
        return "the player does not have these resources"
    total = sum(pay)
    if b.kind == "fixed":
        if pay != b.cost:
            return f"it costs exactly {_fmt(b.cost)}"
        return None
    kinds = sum(1 for x in pay if x)
    if b.kind == "count":
        if total != b.count or kinds != b.kinds:
            return f"it takes exactly {b.count} resources of exactly {b.kinds} kind(s)"
        return None
    if not b.lo <= total <= b.hi:
        return f"it takes {b.lo} to {b.hi} resources of any kinds"
    return None


def _fmt(pay: Sequence[int]) -> str:
    parts = [f"{k} {r}" for r, k in zip(RESOURCES, pay, strict=True) if k]
    return ", ".join(parts) if parts else "nothing"


# --- legality --------------------------------------------------------------------------------------
def check(s: View, move: object) -> Bad:
    """``(clause, reason)`` when ``move`` is illegal in ``s``, else None."""
    ph = s.phase
    if ph is Phase.OVER:
        return ("S-END-1", "the game is over")
    if not isinstance(move, Move):
        return ("S-ROUND-1", f"{move!r} is not a Stone Age move")
    bad = _malformed(move)
    if bad:
        return bad
    if ph is Phase.REVEAL:
        if not isinstance(move, Reveal):
            return ("S-CHANCE-1", f"the table reveals {_reveal_text(s)} first ('reveal ID')")
        return _check_reveal(s, move)
    if ph is Phase.ROLL:
        if not isinstance(move, Roll):
            return ("S-CHANCE-1", f"the table reports the {s.ndice} dice rolled for {s.what} first ('roll {s.what} …')")
        if move.what != s.what:
            return ("S-DICE-3", f"the dice rolled are for {s.what}, not {move.what}")
        if len(move.dice) != s.ndice:
            clause = "S-CARD-4" if s.what == "bar" else "S-DICE-3"
            return (clause, f"{s.ndice} dice are rolled for {s.what}, not {len(move.dice)}")
        return None
    if ph is Phase.DRAW:
        if not isinstance(move, Draw):
            return ("S-CHANCE-1", "the table reports the card drawn for the extra card first ('draw ID')")
        return _check_card_draw(s, move.card, "S-CARD-7")
    if move.chance:
        return ("S-CHANCE-1", f"nothing is to be reported now: {context(s)}")
    p = s.players[s.actor]
    if isinstance(move, AnyRes):
        return _check_any(s, p, move)
    if ph is Phase.PLACE:
        if not isinstance(move, Place):
            return ("S-ROUND-1", "people are being placed (section 1): 'place PLACE [N]'")
        return check_place(s, s.actor, move)
    if ph is Phase.ACT:
        if not isinstance(move, Take | Buy | Skip):
            return ("S-ROUND-1", "places are being carried out (section 2): 'take', 'buy' or 'skip'")
        return _check_act(s, p, move)
    if ph is Phase.TOOLS:
        if not isinstance(move, Tools):
            return ("S-TOOL-4", f"first say which tools {who(s, s.actor)} adds to the roll ('tools 2,1' or 'tools -')")
        return _check_tools(s.profile, p, move)
    if ph is Phase.BAR:
        if not isinstance(move, Pick):
            return ("S-CARD-4", f"{who(s, s.actor)} takes a die of the dice bar first ('pick FACE')")
        if move.face not in s.dice:
            return ("S-CARD-4", f"no die shows {move.face}: the dice left are {','.join(map(str, s.dice))}")
        return None
    if ph is Phase.FEED:
        if isinstance(move, Starve):
            return None
        if not isinstance(move, Feed):
            return ("S-FEED-2", f"{who(s, s.actor)} is short of food: 'feed RESOURCES' or 'starve'")
        need = shortfall(p)
        if sum(move.pay) != need:
            return (
                "S-FEED-2",
                f"{need} food is missing: pay exactly {need} resource(s) (1 per food), not {sum(move.pay)}",
            )
        if any(move.pay[i] > p.res[i] for i in range(4)):
            return ("S-FEED-2", f"{who(s, s.actor)} has only {_fmt(p.res)}")
        return None
    return ("S-ROUND-1", f"{move} is not possible now: {context(s)}")  # pragma: no cover - every phase handled


def _malformed(move: Move) -> Bad:
    """A move built directly in Python (not parsed) that is not in canonical form: refused, so that
    nothing apply accepts is missing from the legal moves."""
    if isinstance(move, Place):
        if move.place in DICE_PLACES and move.n < 1:
            return ("S-PLACE-1", f"put at least one person on {move.place}")
        if move.place not in DICE_PLACES and move.n != 0:
            return ("S-PLACE-1", f"{move.place} takes exactly the people it shows: write 'place {move.place}'")
    elif isinstance(move, Take):
        if move.place not in DICE_PLACES and move.place not in ("toolmaker", "hut", "field"):
            return ("S-ACT-1", f"{move.place} is bought ('buy') or left ('skip'), not taken")
    elif isinstance(move, Buy | Skip) and not move.place.startswith(("card", "building")):
        return ("S-ACT-1", f"{move.place} is carried out with 'take {move.place}'")
    if isinstance(move, Buy | Feed):
        pay = move.pay
    elif isinstance(move, AnyRes):
        pay = move.take
    else:
        pay = (0, 0, 0, 1)
    if len(pay) != 4 or min(pay) < 0 or sum(pay) < 1:
        return ("S-ROUND-1", f"{pay!r} is not a set of resources (four counts, none negative)")
    if isinstance(move, Roll) and (list(move.dice) != sorted(move.dice) or not all(1 <= d <= 6 for d in move.dice)):
        return ("S-DICE-3", f"dice {move.dice!r} must be faces 1-6, sorted")
    if isinstance(move, Tools) and (
        list(move.values) != sorted(move.values, reverse=True) or list(move.once) != sorted(move.once, reverse=True)
    ):
        return ("S-TOOL-4", "tools are listed highest first")
    return None


def _check_reveal(s: View, move: Reveal) -> Bad:
    target = reveal_target(s)
    if target is None:  # pragma: no cover - settle never leaves REVEAL without a target
        return ("S-CHANCE-1", "nothing is to be revealed")
    kind, k = target
    if kind == "card":
        return _check_card_draw(s, move.item, "S-SET-2")
    prof = s.profile
    if not prof.is_building(move.item):
        return ("S-BLD-1", f"{move.item!r} is not a building of this box (stack {k + 1} shows a building next)")
    if move.item not in s.unseen_buildings:
        return ("S-BLD-1", f"building {move.item} has already been seen (it is on the board or with a player)")
    order = s.building_order
    if order is not None and order[k] and order[k][0] != move.item:
        return ("S-SET-4", f"the settings fixed the order: stack {k + 1} shows {order[k][0]} next")
    return None


def _check_card_draw(s: View, item: str, clause: str) -> Bad:
    if not s.profile.is_card(item):
        return (clause, f"{item!r} is not a civilization card of this box")
    if item not in s.unseen_cards:
        return (clause, f"card {item} is not in the deck (it is on the board or with a player)")
    order = s.card_order
    if order is not None and order and order[0] != item:
        return ("S-SET-4", f"the settings fixed the order: the deck shows {order[0]} next")
    return None


def _check_any(s: View, p: PlayerState | Tribe, move: AnyRes) -> Bad:
    if s.phase not in (Phase.PLACE, Phase.ACT, Phase.FEED):
        return ("S-CARD-8", "an 'any resources' card is used on its holder's turn to place, carry out or feed")
    if not p.anyc:
        return ("S-CARD-8", f"{who(s, s.actor)} has no unused 'any resources' card")
    amounts = {s.profile.card(c).top.amount for c in p.anyc}
    if sum(move.take) not in amounts:
        return ("S-CARD-8", f"the card gives {' or '.join(map(str, sorted(amounts)))} resources, not {sum(move.take)}")
    return None


def check_place(s: View, seat: int, move: Place) -> Bad:
    """Why ``seat`` may not make placement ``move`` (S-PLACE-*, S-CAP-*, S-FEW-*), or None."""
    idx = place_index(len(s.display), len(s.tops)).get(move.place)
    if idx is None:
        return (
            "S-SET-3",
            f"there is no place {move.place} in this game ({len(s.display)} card places, "
            f"{len(s.tops)} building stacks)",
        )
    p = s.players[seat]
    left = available(p)
    need = move.n
    cap = s.profile.capacity
    kind = place_kind(s, idx)
    if kind == "village":
        need = cap[move.place] or 1
    elif kind in ("card", "building"):
        need = 1
    if left < 1:
        return ("S-PLACE-2", f"{who(s, seat)} has placed all their people")
    if need > left:
        clause = {TOOLMAKER: "S-CAP-1", HUT: "S-CAP-2", FIELD: "S-CAP-3"}.get(idx, "S-PLACE-1")
        return (clause, f"{who(s, seat)} has only {left} people left to place, {move.place} needs {need}")
    if p.placed[idx]:
        return ("S-PLACE-4", f"{who(s, seat)} already has people on {move.place} this round (no adding)")
    occ = occupancy(s, idx)
    if kind == "village":
        clause = {TOOLMAKER: "S-CAP-1", HUT: "S-CAP-2", FIELD: "S-CAP-3"}[idx]
        if occ:
            return (clause, f"{move.place} is taken by {who(s, colours_on(s, idx)[0])}")
        if s.n <= 3 and sum(1 for i in (TOOLMAKER, HUT, FIELD) if occupancy(s, i)) >= 2:
            return ("S-FEW-1", f"with {s.n} players only 2 of tool maker, hut and field are used per round")
        return None
    if kind == "dice":
        if idx == HUNT:
            c = cap["hunt"]
            if c is not None and occ + need > c:
                return ("S-CAP-4", f"the hunting grounds hold {c} people, {occ} are there")
            return None
        c = cap[move.place]
        if c is not None and occ + need > c:
            return ("S-CAP-5", f"{move.place} holds {c} people in all, {occ} are there: at most {c - occ} more")
        if s.n == 3 and len(colours_on(s, idx)) >= 2:
            return (
                "S-FEW-2",
                f"with 3 players at most 2 players use {move.place}; "
                + " and ".join(who(s, i) for i in colours_on(s, idx))
                + " are there",
            )
        if s.n == 2 and occ:
            return (
                "S-FEW-3",
                f"with 2 players only one player uses {move.place}: {who(s, colours_on(s, idx)[0])} is there",
            )
        return None
    if kind == "card":
        if s.display[idx - FIRST_CARD] is None:
            return ("S-CAP-6", f"{move.place} holds no card this round")
        if occ:
            return ("S-CAP-6", f"{move.place} is taken by {who(s, colours_on(s, idx)[0])}")
        return None
    if building_at(s, idx) is None:
        return ("S-CAP-7", f"the stack at {move.place} is empty")
    if occ:
        return ("S-CAP-7", f"{move.place} is taken by {who(s, colours_on(s, idx)[0])}")
    return None


def _check_act(s: View, p: PlayerState | Tribe, move: Take | Buy | Skip) -> Bad:
    idx = place_index(len(s.display), len(s.tops)).get(move.place)
    if idx is None:
        return ("S-SET-3", f"there is no place {move.place} in this game")
    if not p.placed[idx]:
        return ("S-ACT-1", f"{who(s, s.actor)} has nobody on {move.place} to carry out")
    kind = place_kind(s, idx)
    if isinstance(move, Take):
        return None  # parse_move allows 'take' only for village and dice places
    if kind not in ("card", "building"):  # pragma: no cover - parse_move allows buy/skip only for slots
        return ("S-ACT-1", f"{move.place} is carried out with 'take {move.place}'")
    if isinstance(move, Skip):
        return None
    pay = move.pay
    if kind == "card":
        cost = card_cost(s, idx)
        if sum(pay) != cost:
            return ("S-CARD-1", f"the card on {move.place} costs {cost} resource(s), not {sum(pay)}")
        if any(pay[i] > p.res[i] for i in range(4)):
            return ("S-CARD-1", f"{who(s, s.actor)} has only {_fmt(p.res)}")
        return None
    b = building_at(s, idx)
    if b is None:  # pragma: no cover - a placed person keeps its building (taken only by its owner)
        return ("S-CAP-7", f"the stack at {move.place} is empty")
    why = building_pay_bad(b, pay, p.res)
    if why:
        clause = "S-BLD-1" if b.kind == "fixed" or why.startswith("the player") else "S-BLD-3"
        return (clause, f"building {b.id}: {why}" + (f" (has {_fmt(p.res)})" if why.startswith("the player") else ""))
    return None


def _check_tools(prof: BoxProfile, p: PlayerState | Tribe, move: Tools) -> Bad:
    free = unused(p.tools, p.used)
    for v in move.values:
        if v in free:
            free.remove(v)
        else:
            return ("S-TOOL-2", f"no unused tool of value {v} (unused this round: {_list(unused(p.tools, p.used))})")
    held = once_values(prof, p)
    for v in move.once:
        if v in held:
            held.remove(v)
        else:
            return ("S-CARD-6", f"no one-time tool of value {v} (held: {_list(once_values(prof, p))})")
    return None


def once_values(prof: BoxProfile, p: PlayerState | Tribe) -> list[int]:
    """Values of the player's unused one-time tools, highest first."""
    return sorted((prof.card(c).top.value for c in p.once), reverse=True)


def _list(vals: Sequence[int]) -> str:
    return ",".join(map(str, vals)) if vals else "none"


# --- transitions -----------------------------------------------------------------------------------
def apply(state: State, move: Any) -> State:
    """The state after ``move``; :class:`IllegalMoveError` (naming the clause) if the rules forbid it."""
    bad = check(state, move)
    if bad:
        raise IllegalMoveError(bad[0], bad[1], str(move), context(state))
    w = Work(state)
    step(w, move)
    settle(w)
    return w.freeze()


def add_tool(w: Work, t: Tribe) -> None:
    """The tool maker's effect (S-TOOL-1): a new tool of value 1 while the player has fewer than the
    most tools; else the lowest tool goes up by one (an unused one if there is a choice); nothing when
    every tool has the highest value."""
    prof = w.profile
    if len(t.tools) < prof.max_tools:
        t.tools.append(1)
        t.tools.sort(reverse=True)
        return
    if not t.tools:
        return
    low = t.tools[-1]
    if low >= prof.max_tool_value:
        return
    t.tools[-1] = low + 1
    t.tools.sort(reverse=True)
    if t.used.count(low) == t.tools.count(low) + 1:  # every tool of that value was used: a used one goes up
        t.used.remove(low)
        t.used.append(low + 1)
        t.used.sort(reverse=True)


def _gain(t: Tribe, what: str, amount: int) -> None:
    if what == "hunt":
        t.food += amount
    else:
        t.res[_DICE_INDEX[what] - 1] += amount


def _pay(t: Tribe, pay: Pay) -> None:
    r = t.res
    r[0] -= pay[0]
    r[1] -= pay[1]
    r[2] -= pay[2]
    r[3] -= pay[3]


def _remove(seq: list[str], item: str) -> None:
    seq.remove(item)


def step(w: Work, move: AnyMove) -> None:
    """Carry out a legal ``move`` on ``w`` (no checks; :func:`settle` follows)."""
    prof = w.profile
    if isinstance(move, Place):
        t = w.tribe(w.actor)
        idx = place_index(len(w.display), len(w.tops))[move.place]
        if idx <= 4:
            n = move.n
        elif idx <= FIELD:
            n = prof.capacity[move.place] or 1
        else:
            n = 1
        t.placed[idx] = n
        w.actor = (w.actor + 1) % w.n
        return
    if isinstance(move, Roll):
        w.dice = list(move.dice)
        if move.what == "bar":
            w.phase = Phase.BAR
            w.actor = w.taker
            return
        t = w.tribe(w.actor)
        if tools_can_help(prof, t, move.what, move.dice):
            w.phase = Phase.TOOLS
            return
        _gain(t, move.what, sum(move.dice) // prof.divisor[move.what])
        w.dice = []
        w.phase = Phase.ACT
        return
    if isinstance(move, Take):
        t = w.tribe(w.actor)
        idx = place_index(len(w.display), len(w.tops))[move.place]
        n = t.placed[idx]
        t.placed[idx] = 0
        if idx <= 4:
            w.what = move.place
            w.ndice = n
            w.phase = Phase.ROLL
        elif idx == TOOLMAKER:
            add_tool(w, t)
        elif idx == HUT:
            if t.people < prof.max_people:
                t.people += 1
        else:
            t.agri = min(t.agri + 1, prof.max_agriculture)
        return
    if isinstance(move, Tools):
        t = w.tribe(w.actor)
        for v in move.values:
            t.used.append(v)
        if move.values:
            t.used.sort(reverse=True)
        for v in move.once:
            for c in t.once:
                if prof.card(c).top.value == v:
                    t.once.remove(c)
                    break
        _gain(t, w.what, (sum(w.dice) + move.total) // prof.divisor[w.what])
        w.dice = []
        w.phase = Phase.ACT
        return
    if isinstance(move, Buy):
        t = w.tribe(w.actor)
        idx = place_index(len(w.display), len(w.tops))[move.place]
        t.placed[idx] = 0
        _pay(t, move.pay)
        k = idx - FIRST_CARD
        if k < len(w.display):
            cid = w.display[k]
            assert cid is not None
            w.display[k] = None
            _own_card(t, cid)
            _card_effect(w, t, cid)
            return
        k -= len(w.display)
        bid = w.tops[k]
        assert bid is not None
        b = prof.building(bid)
        pts = building_points(prof, b, move.pay)
        t.buildings.append((bid, pts))
        t.points += pts
        w.tops[k] = None
        if w.left[k] > 0:
            w.phase = Phase.REVEAL
            w.resume = Phase.ACT
        return
    if isinstance(move, Skip):
        t = w.tribe(w.actor)
        t.placed[place_index(len(w.display), len(w.tops))[move.place]] = 0
        return
    if isinstance(move, Pick):
        t = w.tribe(w.actor)
        w.dice.remove(move.face)
        reward = prof.dice_bar[move.face - 1]
        if reward == "tool":
            add_tool(w, t)
        elif reward == "agriculture":
            t.agri = min(t.agri + 1, prof.max_agriculture)
        else:
            t.res[RESOURCES.index(reward)] += 1
        if w.dice:
            w.actor = (w.actor + 1) % w.n
        else:
            w.actor = w.taker
            w.phase = Phase.ACT
        return
    if isinstance(move, AnyRes):
        t = w.tribe(w.actor)
        amount = sum(move.take)
        for c in t.anyc:
            if prof.card(c).top.amount == amount:
                t.anyc.remove(c)
                break
        r = t.res
        for i in range(4):
            r[i] += move.take[i]
        return
    if isinstance(move, Feed):
        t = w.tribe(w.actor)
        t.food = 0
        _pay(t, move.pay)
        _next_feeder(w)
        return
    if isinstance(move, Starve):
        _starve(w.tribe(w.actor))
        _next_feeder(w)
        return
    if isinstance(move, Reveal):
        target = reveal_target(w)
        assert target is not None
        kind, k = target
        if kind == "card":
            w.display[k] = move.item
            _remove(w.unseen_cards, move.item)
            if w.card_order:
                w.card_order.pop(0)
        else:
            w.tops[k] = move.item
            w.left[k] -= 1
            _remove(w.unseen_buildings, move.item)
            if w.building_order is not None and w.building_order[k]:
                w.building_order[k].pop(0)
        return
    if isinstance(move, Draw):
        t = w.tribe(w.actor)
        _remove(w.unseen_cards, move.card)
        if w.card_order:
            w.card_order.pop(0)
        _own_card(t, move.card)
        w.phase = Phase.ACT
        return
    raise AssertionError(f"unhandled move {move!r}")  # pragma: no cover


def _own_card(t: Tribe, cid: str) -> None:
    t.cards.append(cid)
    t.cards.sort()


def _starve(t: Tribe) -> None:
    t.food = 0
    t.points -= 10
    t.starved += 1


def _card_effect(w: Work, t: Tribe, cid: str) -> None:
    """The top half of a card just bought (S-CARD-3 … S-CARD-8)."""
    prof = w.profile
    top = prof.card(cid).top
    kind = top.kind
    if kind == "food":
        t.food += top.amount
    elif kind == "resource":
        t.res[RESOURCES.index(top.resource)] += top.amount
    elif kind == "points":
        t.points += top.amount
        t.card_points += top.amount
    elif kind == "agriculture":
        t.agri = min(t.agri + top.amount, prof.max_agriculture)
    elif kind == "tool":
        for _ in range(top.amount):
            add_tool(w, t)
    elif kind == "tool_once":
        t.once.append(cid)
        t.once.sort()
    elif kind == "any_resources":
        t.anyc.append(cid)
        t.anyc.sort()
    elif kind == "roll":
        w.what = top.resource
        w.ndice = top.dice
        w.phase = Phase.ROLL
    elif kind == "dice_bar":
        w.what = "bar"
        w.ndice = w.n
        w.taker = w.actor
        w.phase = Phase.ROLL
    elif kind == "extra_card" and w.unseen_cards:
        w.phase = Phase.DRAW


def place_room(s: View, seat: int, idx: int) -> tuple[int, int] | None:
    """How many people ``seat`` may put on place ``idx`` now, as ``(fewest, most)``, or None when it
    is closed to them — the same answer as :func:`check_place`, without the reasons (the move
    generator's and the simulated players' fast path)."""
    players = s.players
    placed = players[seat].placed
    if placed[idx]:
        return None
    left = players[seat].people - sum(placed)
    if left < 1:
        return None
    if idx > FIELD:
        k = idx - FIRST_CARD
        nc = len(s.display)
        if (s.display[k] if k < nc else s.tops[k - nc]) is None:
            return None
        for q in players:
            if q.placed[idx]:
                return None
        return (1, 1)
    n = len(players)
    occ = 0
    colours = 0
    for q in players:
        if q.placed[idx]:
            occ += q.placed[idx]
            colours += 1
    cap = s.profile.capacity[FIXED_PLACES[idx]]
    if idx >= TOOLMAKER:
        need = cap or 1
        if occ or need > left:
            return None
        if n <= 3:
            used = 0
            for i in (TOOLMAKER, HUT, FIELD):
                for q in players:
                    if q.placed[i]:
                        used += 1
                        break
            if used >= 2:
                return None
        return (need, need)
    room = left if cap is None else min(left, cap - occ)
    if room < 1:
        return None
    if idx != HUNT and colours and (n == 2 or (n == 3 and colours >= 2)):
        return None
    return (1, room)


def open_places(s: View, seat: int) -> list[tuple[int, int, int]]:
    """The places ``seat`` may put people on now, as ``(index, fewest, most)`` people."""
    out = []
    for idx in range(len(s.names)):
        room = place_room(s, seat, idx)
        if room is not None:
            out.append((idx, room[0], room[1]))
    return out


def can_place(s: View, seat: int) -> bool:
    """``seat`` has people left and at least one place that takes them (S-PLACE-3)."""
    p = s.players[seat]
    if p.people - sum(p.placed) < 1:
        return False
    if not p.placed[HUNT] and s.profile.capacity["hunt"] is None:
        return True
    return any(place_room(s, seat, idx) is not None for idx in range(len(s.names)))


def settle(w: Work) -> None:
    """Carry out everything that needs no decision, until the game waits for one (or a chance outcome)."""
    while True:
        ph = w.phase
        if ph is Phase.REVEAL:
            if reveal_target(w) is not None:
                return
            w.phase = w.resume
            continue
        if ph is Phase.PLACE:
            for k in range(w.n):
                seat = (w.actor + k) % w.n
                if can_place(w, seat):
                    w.actor = seat
                    return
            w.phase = Phase.ACT
            w.actor = w.start
            continue
        if ph is Phase.ACT:
            if any(w.players[w.actor].placed):
                return
            nxt = (w.actor + 1) % w.n
            if nxt == w.start:
                _start_feeding(w)
                continue
            w.actor = nxt
            continue
        if ph is Phase.BAR:
            if len(set(w.dice)) == 1:  # only one kind of die left: nothing to choose
                step(w, Pick(w.dice[0]))
                continue
            return
        if ph is Phase.FEED:
            p = w.players[w.actor]
            short = p.people - p.food
            if short > 0 and can_pay_food(w.profile, p):
                return  # a choice: pay with resources (after using the card, if need be) or lose 10 points
            t = w.tribe(w.actor)
            if short > 0:
                _starve(t)
            else:
                t.food -= t.people
            _next_feeder(w)
            continue
        return


def can_pay_food(prof: BoxProfile, p: PlayerState | Tribe) -> bool:
    """A player short of food could pay the rest with resources (counting what their unused "any
    resources" cards would give): then feeding is their choice (S-FEED-2, S-FEED-3)."""
    return shortfall(p) <= sum(p.res) + sum(prof.card(c).top.amount for c in p.anyc)


def _next_feeder(w: Work) -> None:
    """The next player to feed, or the end of the round after the last."""
    nxt = (w.actor + 1) % w.n
    if nxt == w.start:
        _end_round(w)
    else:
        w.actor = nxt


def _start_feeding(w: Work) -> None:
    """Section 3: every player takes their agriculture food first (S-FEED-1), then each feeds in turn."""
    for i in range(w.n):
        if w.players[i].agri:
            t = w.tribe(i)
            t.food += t.agri
    w.phase = Phase.FEED
    w.actor = w.start
    w.what = ""
    w.ndice = 0


def _end_round(w: Work) -> None:
    """After feeding: the end (S-END-1) or the next round (S-ROUND-2)."""
    if any(top is None and w.left[k] == 0 for k, top in enumerate(w.tops)):
        w.phase = Phase.OVER
        w.ended = "buildings"
        return
    rest = [c for c in w.display if c is not None]
    k = len(w.display)
    if len(w.unseen_cards) < k - len(rest):
        w.phase = Phase.OVER
        w.ended = "cards"
        return
    w.display = rest + [None] * (k - len(rest))
    w.round += 1
    w.start = (w.start + 1) % w.n
    w.actor = w.start
    for i in range(w.n):
        if w.players[i].used:
            w.tribe(i).used.clear()
    w.phase = Phase.REVEAL
    w.resume = Phase.PLACE


# --- legal moves -----------------------------------------------------------------------------------
def payments(size: int, caps: Sequence[int]) -> Iterator[Pay]:
    """Every way to pay ``size`` resources out of ``caps`` (wood, clay, stone, gold), cheapest kinds
    first."""
    c0, c1, c2, c3 = caps[0], caps[1], caps[2], caps[3]
    for a in range(min(c0, size), -1, -1):
        r1 = size - a
        for b in range(min(c1, r1), -1, -1):
            r2 = r1 - b
            for c in range(min(c2, r2), -1, -1):
                d = r2 - c
                if d <= c3:
                    yield (a, b, c, d)


def building_payments(b: Building, res: Sequence[int]) -> Iterator[Pay]:
    """Every payment that buys building ``b`` out of ``res``."""
    if b.kind == "fixed":
        if all(b.cost[i] <= res[i] for i in range(4)):
            yield b.cost
        return
    if b.kind == "count":
        for pay in payments(b.count, res):
            if sum(1 for x in pay if x) == b.kinds:
                yield pay
        return
    for size in range(b.lo, b.hi + 1):
        yield from payments(size, res)


def _sub_multisets(vals: Sequence[int]) -> list[tuple[int, ...]]:
    """Distinct sub-multisets of ``vals`` (highest first), each highest first."""
    counts: dict[int, int] = {}
    for v in vals:
        counts[v] = counts.get(v, 0) + 1
    out: list[tuple[int, ...]] = [()]
    for v in sorted(counts, reverse=True):
        out = [prev + (v,) * k for prev in out for k in range(counts[v] + 1)]
    return out


def tool_choices(prof: BoxProfile, p: PlayerState | Tribe) -> list[Tools]:
    """Every distinct choice of tools for a roll (``tools -`` first)."""
    perm = _sub_multisets(unused(p.tools, p.used))
    once = _sub_multisets(once_values(prof, p))
    return [Tools(a, b) for a in perm for b in once]


def any_moves(s: View, p: PlayerState | Tribe) -> Iterator[AnyRes]:
    """Every way to use an 'any resources' card of ``p`` (S-CARD-8)."""
    for amount in sorted({s.profile.card(c).top.amount for c in p.anyc}):
        for take in payments(amount, (amount,) * 4):
            yield AnyRes(take)


def place_moves(s: View, seat: int) -> Iterator[Place]:
    """Every legal placement of ``seat``."""
    names = s.names
    for idx, lo, hi in open_places(s, seat):
        name = names[idx]
        if idx <= 4:
            for k in range(lo, hi + 1):
                yield Place(name, k)
        else:
            yield Place(name, 0)


def act_moves(s: View, seat: int) -> Iterator[Take | Buy | Skip]:
    """Every legal way for ``seat`` to carry out one of their places."""
    p = s.players[seat]
    names = s.names
    ncards = len(s.display)
    for idx, n in enumerate(p.placed):
        if not n:
            continue
        name = names[idx]
        if idx <= FIELD:
            yield Take(name)
            continue
        yield Skip(name)
        if idx < FIRST_CARD + ncards:
            for pay in payments(card_cost(s, idx), p.res):
                yield Buy(name, pay)
        else:
            b = building_at(s, idx)
            if b is not None:
                for pay in building_payments(b, p.res):
                    yield Buy(name, pay)


def feed_moves(s: View, seat: int) -> Iterator[Feed | Starve]:
    """The feeding choices of a player short of food: each full payment, and starving."""
    p = s.players[seat]
    yield Starve()
    need = shortfall(p)
    if need <= sum(p.res):
        for pay in payments(need, p.res):
            yield Feed(pay)


def dice_outcomes(k: int) -> Iterator[tuple[int, ...]]:
    """Every roll of ``k`` dice, sorted (multisets)."""
    return combinations_with_replacement(range(1, 7), k)


def generate(s: View) -> Iterator[AnyMove]:
    """Every legal move of ``s`` (decisions or chance outcomes), in a fixed order."""
    ph = s.phase
    if ph is Phase.OVER:
        return
    if ph is Phase.REVEAL:
        target = reveal_target(s)
        if target is None:  # pragma: no cover
            return
        kind, k = target
        if kind == "card":
            order = s.card_order
            yield from (Reveal(c) for c in ([order[0]] if order else s.unseen_cards))
        else:
            border = s.building_order
            pool = [border[k][0]] if border is not None and border[k] else s.unseen_buildings
            yield from (Reveal(b) for b in pool)
        return
    if ph is Phase.ROLL:
        for d in dice_outcomes(s.ndice):
            yield Roll(s.what, d)
        return
    if ph is Phase.DRAW:
        order = s.card_order
        yield from (Draw(c) for c in ([order[0]] if order else s.unseen_cards))
        return
    seat = s.actor
    p = s.players[seat]
    if ph is Phase.PLACE:
        yield from place_moves(s, seat)
    elif ph is Phase.ACT:
        yield from act_moves(s, seat)
    elif ph is Phase.TOOLS:
        yield from tool_choices(s.profile, p)
        return
    elif ph is Phase.BAR:
        for f in sorted(set(s.dice)):
            yield Pick(f)
        return
    elif ph is Phase.FEED:
        yield from feed_moves(s, seat)
    if p.anyc:
        yield from any_moves(s, p)


class LegalMoves:
    """A lazy, re-iterable view of the legal moves of one state (python-chess style)."""

    def __init__(self, state: View) -> None:
        self.state = state

    def __iter__(self) -> Iterator[AnyMove]:
        return generate(self.state)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and check(self.state, move) is None

    def __bool__(self) -> bool:
        return any(True for _ in generate(self.state))

    def count(self) -> int:
        """How many legal moves there are."""
        return sum(1 for _ in generate(self.state))

    def __len__(self) -> int:
        return self.count()


def explain(state: View, move: Any) -> str | None:
    """``"CLAUSE: reason"`` when ``move`` is illegal, else None."""
    bad = check(state, move)
    return f"{bad[0]}: {bad[1]}" if bad else None


# --- chance ----------------------------------------------------------------------------------------
def roll_probability(dice: Sequence[int]) -> float:
    """Probability of a sorted roll (a multiset of faces) of ``len(dice)`` fair dice."""
    k = len(dice)
    p = factorial(k)
    for f in set(dice):
        p //= factorial(dice.count(f))
    return float(p / 6**k)


def chance_outcomes(s: View) -> list[tuple[AnyMove, float]]:
    """The possible chance outcomes here with their probabilities (empty at a decision)."""
    if not s.is_chance:
        return []
    moves = list(generate(s))
    if s.phase is Phase.ROLL:
        return [(m, roll_probability(m.dice)) for m in moves if isinstance(m, Roll)]
    return [(m, 1 / len(moves)) for m in moves]


def sample_chance(s: View, rng: random.Random) -> AnyMove:
    """One chance outcome drawn with ``rng`` (simulations and tests only)."""
    ph = s.phase
    if ph is Phase.ROLL:
        rnd = rng.random
        return Roll(s.what, tuple(sorted(int(rnd() * 6) + 1 for _ in range(s.ndice))))
    if ph is Phase.REVEAL:
        target = reveal_target(s)
        assert target is not None
        kind, k = target
        if kind == "card":
            return Reveal(s.card_order[0] if s.card_order else s.unseen_cards[int(rng.random() * len(s.unseen_cards))])
        border = s.building_order
        if border is not None and border[k]:
            return Reveal(border[k][0])
        return Reveal(s.unseen_buildings[int(rng.random() * len(s.unseen_buildings))])
    if ph is Phase.DRAW:
        return Draw(s.card_order[0] if s.card_order else s.unseen_cards[int(rng.random() * len(s.unseen_cards))])
    raise ValueError(f"no chance outcome is due: {context(s)}")


# --- fast playout ----------------------------------------------------------------------------------
class Chooser(Protocol):
    """A simulated player (``games.api.Player``) that also accepts a Work."""

    def choose(self, state: View) -> AnyMove: ...  # pragma: no cover - protocol


def playout(
    state: State,
    choosers: Sequence[Chooser],
    rng: random.Random,
    max_moves: int = 20000,
    log: list[AnyMove] | None = None,
    fast: bool | None = None,
) -> State:
    """Play on from ``state`` to the end with ``choosers[seat].choose(view)`` for decisions and ``rng`` for
    chance, on one Work (no State per move); returns the final State. The moves go to ``log``.

    When every chooser is a RandomPlayer and the C core is built, the core plays the game
    (:mod:`games.stoneage.rules.fast`: the same moves, final State and RNG states, bit for bit).
    ``fast=False`` (or the environment variable ``STONEAGE_CORE=0``) forces this Python code;
    ``fast=True`` requires the core (CoreError when it cannot play the game); by default a game the
    core refuses (past its fixed limits) is played by this Python code."""
    if fast is not False:
        from games.stoneage.rules import fast as core  # lazily: fast imports players, which imports engine

        if fast or (os.environ.get("STONEAGE_CORE") != "0" and core.usable(state, choosers, rng)):
            try:
                return core.playout(state, choosers, rng, max_moves, log)
            except CoreError:
                if fast:
                    raise
                # past the core's fixed limits: the Python code plays it (nothing was changed)
    w = Work(state)
    for i in range(w.n):
        w.tribe(i)
    settle(w)
    for _ in range(max_moves):
        ph = w.phase
        if ph is Phase.OVER:
            break
        move = sample_chance(w, rng) if ph in (Phase.REVEAL, Phase.ROLL, Phase.DRAW) else choosers[w.actor].choose(w)
        if log is not None:
            log.append(move)
        step(w, move)
        settle(w)
    return w.freeze()


def start(state: State) -> State:
    """``state`` with everything automatic carried out (a new game starts at the first reveal)."""
    w = Work(state)
    settle(w)
    return w.freeze()


__all__ = [
    "LegalMoves",
    "act_moves",
    "add_tool",
    "any_moves",
    "apply",
    "available",
    "building_at",
    "building_pay_bad",
    "building_payments",
    "building_points",
    "can_pay_food",
    "can_place",
    "card_cost",
    "chance_outcomes",
    "check",
    "check_place",
    "colours_on",
    "context",
    "dice_outcomes",
    "explain",
    "feed_moves",
    "generate",
    "has_tools",
    "occupancy",
    "once_values",
    "open_places",
    "payments",
    "place_kind",
    "place_moves",
    "place_room",
    "playout",
    "reveal_target",
    "roll_probability",
    "sample_chance",
    "settle",
    "shortfall",
    "start",
    "step",
    "tool_choices",
    "tools_can_help",
    "who",
    "yield_of",
]
