"""Legal moves: a lazy view of every legal move, and an overview that explains the rest.

:func:`legal_moves` returns a :class:`LegalMoves` view (like python-chess's): iterate it for the
concrete moves, use ``move in view`` to test one (the same check :func:`rules.engine.apply` makes),
``count()`` to count. The set can be large (every way to lay three drawn tiles), so nothing is built
until asked for.

:func:`overview` is what a person needs at the table: each tile of the row with its cost, the shells
on it, whether it is free, each action and achievement it offers with the details (where members may
go, how far they can walk, where tiles may be laid, which jokers or arrow a claim needs) — and for
everything that is not available, the reason with its rule clause. The web page and the LED strip show
exactly this.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any

from games.tribes.rules.chance import chance_outcomes, unrevealed_achievements, unseen_events
from games.tribes.rules.checks import Claim, Reason, claim_check, intensity, plural, slot_reason
from games.tribes.rules.engine import apply, check, chooser_affected, effect_at, effect_choices, restore_candidates
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.hexgrid import Hex, connected_extensions, distances_within, format_hex, frontier, neighbours
from games.tribes.rules.moves import (
    Achieve,
    Delta,
    Exhaust,
    Explore,
    Gain,
    Lose,
    Move,
    Movement,
    Offspring,
    Pick,
    Place,
    PlaceFirst,
    Restore,
    TakeEvent,
)
from games.tribes.rules.pending import DrawPending, EventPending, PendingKind, PlacePending, RestorePending
from games.tribes.rules.profile import BOARD_COLUMNS
from games.tribes.rules.state import Player, State


class LegalMoves:
    """A lazy, re-iterable view of the legal moves in ``state`` (python-chess style)."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __iter__(self) -> Iterator[Move]:
        return _generate(self.state)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and check(self.state, move) is None

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        """How many legal moves there are (iterates them all)."""
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        sample = []
        for i, m in enumerate(self):
            if i == 5:
                sample.append("…")
                break
            sample.append(str(m))
        return f"<LegalMoves at {self.state.pending.kind}: {', '.join(sample)}>"


def legal_moves(state: State) -> LegalMoves:
    """The legal moves (or chance outcomes) for what ``state`` waits for."""
    return LegalMoves(state)


# --- enumeration ----------------------------------------------------------------------------------
def _generate(state: State) -> Iterator[Move]:
    pend = state.pending
    kind = pend.kind
    if kind in (PendingKind.SETUP, PendingKind.GAME_OVER):
        return  # the setup outcome has millions of forms: it is checked, not listed
    if kind in (PendingKind.DRAW, PendingKind.REVEAL, PendingKind.EVENT_REVEAL):
        for move, _ in chance_outcomes(state):
            yield move
        return
    p = state.players[pend.seat]
    if kind == PendingKind.FIRST_MEMBER:
        for h in sorted(p.land):
            yield PlaceFirst(h)
        return
    if isinstance(pend, PlacePending):
        yield from placements(p, pend.drawn)
        return
    if isinstance(pend, RestorePending):
        cands = restore_candidates(p, occupied_ok=False)
        for k in range(min(pend.count, len(cands)) + 1):
            for combo in combinations(cands, k):
                yield Restore(combo)
        return
    if isinstance(pend, EventPending):
        eff = effect_at(state.profile.event(pend.event), pend.path)
        outcomes = effect_choices(state, pend.seat, eff)
        assert outcomes is not None
        for ans in outcomes:
            yield _answer_move(eff.kind, eff.amount, ans)
        return
    yield from _choose_moves(state)


def _answer_move(kind: str, amount: int, ans: object) -> Move:
    if kind == "choose":
        return Pick(int(ans) + 1)  # type: ignore[call-overload]
    cls = {"exhaust": Exhaust, "restore": Restore}.get(kind, Gain if amount > 0 else Lose)
    return cls(ans)  # type: ignore[arg-type]


def _choose_moves(state: State) -> Iterator[Move]:
    seat = state.to_move
    prof = state.profile
    p = state.players[seat]
    for slot, tile in enumerate(state.row, start=1):
        if slot_reason(state, seat, slot):
            break
        if tile.event:
            yield TakeEvent(slot)
            continue
        act = prof.action_tile(tile.tile)
        if act.action == "offspring":
            yield from offspring_moves(state, seat, slot)
        elif act.action == "movement":
            for delta in movement_deltas(p, intensity(state, seat, "movement")):
                yield Movement(slot, delta)
        else:
            yield Explore(slot)
        if act.hand:
            for claim in _claims(state, seat):
                yield from claim_moves(state, slot, claim)


def _claims(state: State, seat: int) -> list[Claim]:
    out = []
    for era in (1, 2, 3):
        for col in range(BOARD_COLUMNS):
            c = claim_check(state, seat, era, col)
            if isinstance(c, Claim):
                out.append(c)
    return out


def claim_moves(state: State, slot: int, claim: Claim) -> Iterator[Achieve]:
    """Every way to make one claim: joker choices times arrow choices."""
    arrows: list[str | None] = [state.board[e - 1][c].tile for e, c in claim.arrow_from] or [None]
    for jokers in combinations(claim.joker_candidates, claim.jokers_needed):
        for arrow in arrows:
            yield Achieve(slot, claim.achievement.id, jokers, arrow)


def offspring_moves(state: State, seat: int, slot: int) -> Iterator[Offspring]:
    """Every distinct Offspring: placements of new members, or relocations with an empty supply."""
    p = state.players[seat]
    k = intensity(state, seat, "offspring")
    occ = p.occupied()
    if p.supply > 0:
        n = min(k, p.supply)
        for combo in combinations_with_replacement(occ, n):
            yield Offspring(slot, combo)
        return
    seen: set[Delta] = set()
    caps = [(h, p.land[h].members) for h in occ]
    for m in range(k + 1):
        for sources in _bounded(caps, m):
            for targets in combinations_with_replacement(occ, m):
                delta = _net(sources, targets)
                if delta not in seen:
                    seen.add(delta)
                    yield Offspring(slot, relocate=delta)


def _bounded(caps: list[tuple[Hex, int]], n: int) -> Iterator[tuple[Hex, ...]]:
    def rec(i: int, left: int, acc: tuple[Hex, ...]) -> Iterator[tuple[Hex, ...]]:
        if left == 0:
            yield acc
            return
        if i == len(caps):
            return
        h, cap = caps[i]
        for k in range(min(cap, left), -1, -1):
            yield from rec(i + 1, left - k, acc + (h,) * k)

    return rec(0, n, ())


def _net(sources: tuple[Hex, ...], targets: tuple[Hex, ...]) -> Delta:
    c: dict[Hex, int] = {}
    for h in sources:
        c[h] = c.get(h, 0) - 1
    for h in targets:
        c[h] = c.get(h, 0) + 1
    return tuple(sorted((h, n) for h, n in c.items() if n))


def movement_deltas(p: Player, steps: int) -> Iterator[Delta]:
    """Every distinct net change of members reachable with at most ``steps`` single steps."""
    hexes = sorted(p.land)
    index = {h: i for i, h in enumerate(hexes)}
    adj = [[index[n] for n in neighbours(h) if n in index] for h in hexes]
    start = tuple(p.land[h].members for h in hexes)
    seen = {start}
    frontier_states = [start]
    yield ()
    for _ in range(steps):
        nxt = []
        for conf in frontier_states:
            for i, c in enumerate(conf):
                if not c:
                    continue
                for j in adj[i]:
                    new = list(conf)
                    new[i] -= 1
                    new[j] += 1
                    t = tuple(new)
                    if t not in seen:
                        seen.add(t)
                        nxt.append(t)
                        yield tuple((hexes[x], t[x] - start[x]) for x in range(len(hexes)) if t[x] != start[x])
        frontier_states = nxt


def placements(p: Player, drawn: tuple[str, ...]) -> Iterator[Place]:
    """Every distinct way to lay the drawn tiles (R-ACT-EXP-1)."""
    orders = sorted(set(permutations(drawn)))
    for cells in connected_extensions(p.land, len(drawn)):
        for order in orders:
            yield Place(tuple(zip(cells, order, strict=True)))


# --- the overview ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Option:
    """One thing a tile offers: an action, an achievement, or carrying out its event."""

    kind: str  # offspring | movement | exploration | achievement | event
    available: bool
    reason: Reason | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        out: dict[str, Any] = {"kind": self.kind, "available": self.available, **self.detail}
        if self.reason:
            out["reason"] = self.reason.to_dict()
        return out


@dataclass(frozen=True, slots=True)
class TileChoice:
    """A tile of the row as the player to move sees it."""

    slot: int
    tile: str
    event: bool
    name: dict[str, str]
    shells_on: int
    cost: int
    affordable: bool
    reason: Reason | None
    options: tuple[Option, ...]

    @property
    def free(self) -> bool:
        """The front tile costs nothing (R-TURN-2)."""
        return self.cost == 0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        out: dict[str, Any] = {
            "slot": self.slot,
            "tile": self.tile,
            "event": self.event,
            "name": self.name,
            "shells_on": self.shells_on,
            "cost": self.cost,
            "free": self.free,
            "affordable": self.affordable,
            "options": [o.to_dict() for o in self.options],
        }
        if self.reason:
            out["reason"] = self.reason.to_dict()
        return out


def _note(key: str, text: str, **args: Any) -> dict[str, Any]:
    """An option's note for people: the English ``note``, and ``note_key`` with ``note_args`` for the
    page to say it in the reader's language (like a :class:`~games.tribes.rules.checks.Reason`)."""
    return {"note": text, "note_key": key, "note_args": args}


def _hexlist(hs: list[Hex] | tuple[Hex, ...]) -> list[str]:
    return [format_hex(h) for h in hs]


def _action_option(state: State, seat: int, action: str) -> Option:
    p = state.players[seat]
    k = intensity(state, seat, action)
    detail: dict[str, Any] = {"intensity": k}
    if action == "offspring":
        detail["targets"] = _hexlist(p.occupied())
        if p.supply:
            n = min(k, p.supply)
            text = f"place {plural(n, 'new member')} on tiles you occupy (R-ACT-OFF-1)"
            detail.update(members=n, **_note("off_place", text, n=n))
        else:
            text = f"supply empty: you may relocate up to {plural(k, 'member')} onto occupied tiles (R-ACT-OFF-2)"
            detail.update(members=0, relocate=k, **_note("off_relocate", text, k=k))
    elif action == "movement":
        text = f"up to {plural(k, 'step')} between adjacent tiles of your land (R-ACT-MOV-1)"
        detail.update(reachable=_hexlist(sorted(_reach_within(p, k))), **_note("mov_steps", text, k=k))
    elif state.bag_total():
        n = min(k, state.bag_total())
        text = f"draw {plural(n, 'tile')} and lay {'it' if n == 1 else 'them'} next to your land (R-ACT-EXP-1)"
        detail.update(
            draw=n, bag=state.bag_total(), frontier=_hexlist(frontier(p.land)), **_note("exp_draw", text, n=n)
        )
    else:
        cands = restore_candidates(p, occupied_ok=False)
        if cands:
            text = f"bag empty: you may turn back up to {plural(k, 'exhausted tile')} without members (R-ACT-EXP-3)"
            note = _note("exp_restore", text, k=k)
        else:
            note = _note("exp_nothing", "bag empty and no unoccupied exhausted tile: nothing happens (R-ACT-EXP-3)")
        detail.update(draw=0, bag=0, restore=_hexlist(cands), **note)
    path = f"tracks.{action}.intensity[{p.track(action)}]"
    detail["provisional"] = ["intensity"] if state.profile.is_provisional(path) else []
    return Option(action, True, None, detail)


def _reach_within(p: Player, k: int) -> set[Hex]:
    """Tiles some member can reach in at most ``k`` steps."""
    out: set[Hex] = set()
    for h in p.occupied():
        out.update(x for x, d in distances_within(p.land, h).items() if 0 < d <= k)
    return out


def _achievement_options(state: State, seat: int) -> list[Option]:
    prof = state.profile
    out = []
    for era in (1, 2, 3):
        for col in range(BOARD_COLUMNS):
            bt = state.board[era - 1][col]
            c = claim_check(state, seat, era, col)
            base: dict[str, Any] = {"era": era, "column": col + 1, "achievement": bt.tile}
            if bt.tile:
                ach = prof.achievement(bt.tile)
                base.update(name=dict(ach.name), resource=ach.resource, needs=ach.era, track=ach.track)
                path = prof.path_of("achievements", ach.id)
                base["provisional"] = prof.provisional_fields(path, ("resource", "track"))
            if isinstance(c, Reason):
                out.append(Option("achievement", False, c, base))
                continue
            slot = c.achievement.slots[c.slot]
            base["provisional"] += prof.provisional_fields(
                f"{prof.path_of('achievements', c.achievement.id)}.slots[{c.slot}]", ("vp", "lightning")
            )
            base.update(
                slot=c.slot + 1,
                vp=slot.vp,
                lightning=slot.lightning,
                real=_hexlist(c.real),
                jokers_needed=c.jokers_needed,
                joker_candidates=_hexlist(c.joker_candidates),
                arrow_from=[state.board[e - 1][cc].tile for e, cc in c.arrow_from],
                via_arrow=c.via_arrow,
            )
            out.append(Option("achievement", True, None, base))
    return out


def _event_option(state: State, seat: int, event_id: str) -> Option:
    ev = state.profile.event(event_id)
    affected = chooser_affected(state, ev, seat)
    prof = state.profile
    detail = {
        "event": ev.id,
        "era": ev.era,
        "name": dict(ev.name),
        "text": dict(ev.text),
        "affects_you": affected,
        "provisional": prof.provisional_fields(prof.path_of("events", ev.id), ("text", "effects")),
    }
    if not affected:
        detail.update(_note("evt_not_you", "it does not concern you: taking it removes it without effect (R-EVT-3)"))
    return Option("event", True, None, detail)


def overview(state: State) -> list[TileChoice]:
    """Every tile of the row for the player to choose now, with options and reasons (empty unless a
    tile is to be chosen)."""
    if state.pending.kind != PendingKind.CHOOSE:
        return []
    seat = state.to_move
    prof = state.profile
    out = []
    ach_opts: list[Option] | None = None
    for slot, tile in enumerate(state.row, start=1):
        reason = slot_reason(state, seat, slot)
        if tile.event:
            ev = prof.event(tile.tile)
            options: tuple[Option, ...] = (_event_option(state, seat, tile.tile),)
            name = dict(ev.name)
        else:
            act = prof.action_tile(tile.tile)
            name = dict(act.name)
            opts = [_action_option(state, seat, act.action)]
            if act.hand:
                if ach_opts is None:
                    ach_opts = _achievement_options(state, seat)
                opts.extend(ach_opts)
            options = tuple(opts)
        if reason:
            options = tuple(Option(o.kind, False, reason, o.detail) for o in options)
        out.append(
            TileChoice(slot, tile.tile, tile.event, name, tile.shells, slot - 1, reason is None, reason, options)
        )
    return out


def free_slot(state: State) -> int | None:
    """The slot a player gets for free (the front tile, R-TURN-2), if a tile is to be chosen."""
    return 1 if state.pending.kind == PendingKind.CHOOSE and state.row else None


def describe(state: State) -> dict[str, Any]:
    """What the game waits for, as JSON data: the overview for a tile choice, otherwise the question
    and its possible answers (chance outcomes with probabilities)."""
    pend = state.pending
    out: dict[str, Any] = {"kind": pend.kind, "chance": pend.chance, "seat": pend.seat}
    if state.players:
        out["player"] = state.players[pend.seat].name
    if pend.kind == PendingKind.CHOOSE:
        out["tiles"] = [t.to_dict() for t in overview(state)]
    elif pend.kind == PendingKind.FIRST_MEMBER:
        out["hexes"] = _hexlist(sorted(state.players[pend.seat].land))
    elif isinstance(pend, DrawPending):
        out["count"] = pend.count
        out["bag"] = dict(zip(state.profile.resources, state.bag, strict=True))
    elif isinstance(pend, PlacePending):
        out["drawn"] = list(pend.drawn)
        out["frontier"] = _hexlist(frontier(state.players[pend.seat].land))
    elif isinstance(pend, RestorePending):
        out["count"] = pend.count
        out["hexes"] = _hexlist(restore_candidates(state.players[pend.seat], occupied_ok=False))
    elif pend.kind == PendingKind.REVEAL:
        out["era"] = pend.era  # type: ignore[attr-defined]
        out["column"] = pend.col + 1  # type: ignore[attr-defined]
        out["outcomes"] = unrevealed_achievements(state, pend.era)  # type: ignore[attr-defined]
    elif pend.kind == PendingKind.EVENT_REVEAL:
        out["era"] = pend.era  # type: ignore[attr-defined]
        out["outcomes"] = unseen_events(state, pend.era)  # type: ignore[attr-defined]
    elif isinstance(pend, EventPending):
        eff = effect_at(state.profile.event(pend.event), pend.path)
        out["event"] = pend.event
        out["effect"] = eff.kind
        out["amount"] = eff.amount
        outcomes = effect_choices(state, pend.seat, eff) or []
        out["answers"] = [str(_answer_move(eff.kind, eff.amount, a)) for a in outcomes[:200]]
        out["answers_total"] = len(outcomes)
    return out


def explain(state: State, move: Move) -> str | None:
    """Why ``move`` is illegal now (the engine's message), or None if it is legal."""
    try:
        apply(state, move)
    except IllegalMoveError as exc:
        return str(exc)
    return None
