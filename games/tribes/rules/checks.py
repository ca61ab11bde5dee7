"""Rule checks shared by :mod:`rules.engine` (which refuses illegal moves) and :mod:`rules.legal`
(which lists what is allowed and why the rest is not). Each check returns either the facts a move
needs or a :class:`Reason` naming the clause that forbids it, so the two can never disagree.

A reason carries its sentence in English (``text``) and the same sentence as a ``key`` with its
``args``: the page says it in the reader's language from its catalogue of reasons
(``games/tribes/page/static/tribes-i18n.js``, ``REASONS``), whose English templates give ``text``
back exactly (tests/games/tribes/test_tribes_texts.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.tribes.rules.hexgrid import Hex, distances_within
from games.tribes.rules.moves import Delta, pair_delta
from games.tribes.rules.profile import BOARD_COLUMNS, Achievement, Condition
from games.tribes.rules.state import Player, State


@dataclass(frozen=True, slots=True)
class Reason:
    """Why something is not allowed: a rule clause id and a sentence for people (``text``, English),
    and the sentence's template ``key`` with its ``args`` (ids, numbers, hexes as ``"q,r"``) for the
    page to say it in any language."""

    clause: str
    text: str
    key: str = ""
    args: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return f"{self.clause}: {self.text}"

    @property
    def arg_map(self) -> dict[str, Any]:
        """``args`` as a dict (lists for tuples)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.args}

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: clause, text, key, args."""
        return {"clause": self.clause, "text": self.text, "key": self.key, "args": self.arg_map}


def why(clause: str, key: str, text: str, **args: Any) -> Reason:
    """A :class:`Reason` with its template ``key`` and ``args`` (lists become tuples)."""
    return Reason(clause, text, key, tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in args.items()))


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 tile"`` / ``"2 tiles"``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def intensity(state: State, seat: int, action: str) -> int:
    """Action intensity of the player's marker on the action's track (R-SET-1)."""
    track = state.profile.track(action)
    assert track.intensity is not None
    return track.intensity[state.players[seat].track(action)]


# --- the row -------------------------------------------------------------------------------------
def slot_reason(state: State, seat: int, slot: int) -> Reason | None:
    """Why the player cannot take the tile at ``slot`` (1-based) at all, or None."""
    if not 1 <= slot <= len(state.row):
        n = len(state.row)
        return why("R-TURN-1", "no_slot", f"there is no slot {slot}: the row holds {plural(n, 'tile')}", slot=slot, n=n)
    cost = slot - 1
    have = state.players[seat].shells
    if have < cost:
        return why(
            "R-TURN-2",
            "slot_cost",
            f"slot {slot} costs {plural(cost, 'shell')} (1 on each skipped tile); you have {have}",
            slot=slot,
            cost=cost,
            have=have,
        )
    return None


# --- achievements --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Claim:
    """What claiming an achievement needs and gives (when it is allowed)."""

    achievement: Achievement
    era: int
    col: int
    slot: int  # 0-based slot the stone goes to
    real: tuple[Hex, ...]  # occupied tiles of the resource that count
    jokers_needed: int
    joker_candidates: tuple[Hex, ...]
    arrow_from: tuple[tuple[int, int], ...]  # lower positions an own arrow may come from (if needed)
    via_arrow: bool  # an arrow already on the board opens the way


def occupied_fresh(state: State, seat: int) -> dict[str, list[Hex]]:
    """The player's unexhausted tiles holding a member, by resource (cached on the state)."""
    key = ("occ", seat)
    out: dict[str, list[Hex]] | None = state._cache.get(key)
    if out is None:
        out = {}
        for h, t in state.players[seat].land.items():
            if t.members and not t.exhausted:
                out.setdefault(t.resource, []).append(h)
        for v in out.values():
            v.sort()
        state._cache[key] = out
    return out


def claim_check(state: State, seat: int, era: int, col: int) -> Claim | Reason:
    """Whether ``seat`` may claim the achievement at ``era``/``col`` now (R-ACH-2..9, R-ARR)."""
    out = _claim(state, seat, era, col)
    return out if isinstance(out, Claim) else _claim_reason(state, seat, era, col, out)


def claim_or_none(state: State, seat: int, era: int, col: int) -> Claim | None:
    """:func:`claim_check` without composing the reason: for move generators."""
    out = _claim(state, seat, era, col)
    return out if isinstance(out, Claim) else None


def _claim(state: State, seat: int, era: int, col: int) -> Claim | str:
    """The facts of a claim, or the code of the first rule that forbids it."""
    bt = state.board[era - 1][col]
    if bt.tile is None:
        return "face_down"
    if seat in bt.stones:
        return "again"
    prof = state.profile
    ach = prof.achievement(bt.tile)
    if len(bt.stones) >= len(ach.slots):
        return "full"
    if state.stones_used(seat) >= prof.stones_per_player:
        return "no_stones"
    arrow_from: tuple[tuple[int, int], ...] = ()
    via_arrow = False
    if era > 1 and seat not in state.board[era - 2][col].stones:
        board = state.board
        via_arrow = any(
            a.upper == (era, col) and seat in board[a.lower[0] - 1][a.lower[1]].stones for a in state.arrows
        )
        if not via_arrow:
            if not state.players[seat].arrow:
                return "order_no_arrow"
            arrow_from = tuple(
                (era - 1, c) for c in (col - 1, col + 1) if 0 <= c < BOARD_COLUMNS and seat in board[era - 2][c].stones
            )
            if not arrow_from:
                return "order"
    occ = occupied_fresh(state, seat)
    res = ach.resource
    real = occ.get(res, ())
    need = ach.era
    if len(real) >= need:
        return Claim(ach, era, col, len(bt.stones), tuple(real), 0, (), arrow_from, via_arrow)
    if era > 1 and not real:
        return "no_real"
    j = need - len(real)
    cands = tuple(sorted(h for r, hs in occ.items() if r != res for h in hs))
    if len(cands) < j:
        return "resources"
    return Claim(ach, era, col, len(bt.stones), tuple(real), j, cands, arrow_from, via_arrow)


def _claim_reason(state: State, seat: int, era: int, col: int, code: str) -> Reason:
    prof = state.profile
    bt = state.board[era - 1][col]
    if code == "face_down":
        return why(
            "R-ACH-8", "face_down", f"the tile at era {era}, column {col + 1} is still face down", era=era, col=col + 1
        )
    ach = prof.achievement(bt.tile)  # type: ignore[arg-type]
    name = _name(ach)
    if code == "again":
        return why("R-ACH-9", "again", f"you already have a stone on {name}", ach=ach.id)
    if code == "full":
        n = len(ach.slots)
        return why("R-ACH-5", "full", f"all {plural(n, 'slot')} of {name} are taken", ach=ach.id, n=n)
    if code == "no_stones":
        n = prof.stones_per_player
        return why("R-COMP-1", "no_stones", f"you have no marking stone left (all {n} are on the board)", n=n)
    if code in ("order", "order_no_arrow"):
        below = state.board[era - 2][col]
        below_name = _name(prof.achievement(below.tile)) if below.tile else "the tile below"
        if code == "order":
            extra = " (or a stone on a diagonal tile below, to lay your arrow: R-ARR-1)"
        else:
            extra = "; your arrow token is already used"
        key = code if below.tile else f"{code}_unknown"
        text = f"{name} needs your stone on {below_name} directly below{extra}"
        return why("R-ACH-2", key, text, ach=ach.id, below=below.tile)
    res = ach.resource
    need = ach.era
    if code == "no_real":
        return why(
            "R-ACH-4",
            f"no_real_{need}",
            f"{name} needs {need} {res} tiles with a member of yours and jokers may replace only "
            f"the 2nd{' and 3rd' if need == 3 else ''}; you have no {res} tile with a member",
            ach=ach.id,
            need=need,
            res=res,
        )
    occ = occupied_fresh(state, seat)
    have = len(occ.get(res, ()))
    others = sum(len(hs) for r, hs in occ.items() if r != res)
    return why(
        "R-ACH-3",
        "resources",
        f"{name} needs {need} {res} tile{'s' if need > 1 else ''} with a member of yours; you have "
        f"{have}, and {plural(others, 'other occupied tile')} to exhaust as "
        f"{plural(need - have, 'joker')} (R-ACH-4)",
        ach=ach.id,
        need=need,
        res=res,
        have=have,
        others=others,
        jokers=need - have,
    )


def _name(ach: Achievement) -> str:
    nm = ach.name.get("en") or next(iter(ach.name.values()))
    return f"'{nm}'"


# --- members and movement ------------------------------------------------------------------------
def area_distance(player: Player) -> object:
    """A distance function for :func:`rules.moves.pair_delta` that walks only the player's tiles."""
    cache: dict[Hex, dict[Hex, int]] = {}
    land = player.land

    def dist(a: Hex, b: Hex) -> int:
        d = cache.get(a)
        if d is None:
            d = cache[a] = distances_within(land, a)
        return d.get(b, -1)

    return dist


def delta_reason(player: Player, delta: Delta) -> Reason | None:
    """Basic soundness of a member change within the player's land (hexes exist, enough members)."""
    land = player.land
    for h, n in delta:
        hx = f"{h[0]},{h[1]}"
        if h not in land:
            return why("R-ACT-MOV-1", "not_yours", f"{hx} is not one of your tiles", hex=hx)
        if n < 0 and land[h].members < -n:
            have = land[h].members
            return why(
                "R-ACT-MOV-1",
                "too_few_members",
                f"{hx} holds {plural(have, 'member')} of yours, not {-n}",
                hex=hx,
                have=have,
                want=-n,
            )
    return None


def movement_cost(player: Player, delta: Delta) -> int:
    """Fewest steps that realise ``delta`` inside the player's land; -1 if impossible."""
    cost, _ = pair_delta(delta, area_distance(player))  # type: ignore[arg-type]
    return cost


# --- events --------------------------------------------------------------------------------------
def stat_value(state: State, seat: int, stat: str) -> int:
    """A player's statistic for event conditions (see docs/box-profile.md)."""
    p = state.players[seat]
    if stat == "members_placed":
        return state.profile.members_per_player - p.supply
    if stat == "members_in_supply":
        return p.supply
    if stat == "tiles":
        return len(p.land)
    if stat == "exhausted_tiles":
        return p.exhausted_tiles
    if stat == "shells":
        return p.shells
    if stat == "vp":
        return p.vp
    return p.track(stat)


_CMP: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "==": lambda a, b: a == b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "!=": lambda a, b: a != b,
}


def condition_holds(state: State, seat: int, cond: Condition) -> bool:
    """Whether an event condition holds for ``seat`` (R-EVT-2: ties count; all equal = both)."""
    kind = cond.kind
    if kind == "always":
        return True
    if kind == "stat":
        return _CMP[cond.cmp](stat_value(state, seat, cond.stat), cond.value)
    hi, lo = state.strength_extremes()
    s = state.players[seat].tracks[3]
    if kind == "strongest":
        return s == hi
    if kind == "weakest":
        return s == lo
    if kind == "not_strongest":
        return s != hi
    return s != lo  # not_weakest


def event_applies(who: str, seat: int, chooser: int) -> bool:
    """Whether an entry addressed to ``who`` concerns ``seat``."""
    if who == "chooser":
        return seat == chooser
    if who == "others":
        return seat != chooser
    return True
