"""Move proposals: for what a state waits for, the few moves that could explain what the table shows.

The legal move space of Tribes is large (every way to lay three drawn tiles, every movement of
several members), so the tracker does not enumerate it: it reads the move off the change. New tiles
in a player's land give the draw and the placement; members that appeared or left give the Offspring
or Movement; a new stone gives the achievement, newly exhausted tiles its jokers, a new arrow token
the arrow; the tile turned up above gives the reveal; a new event in the row gives the revealed
event. Every proposal is only a guess: the search applies it with :func:`rules.engine.apply`, which
refuses what the rules forbid, and scores the resulting table against the evidence.

When the move read off the change is not legal (a member still in the hand, a misread count), or the
row shows an Offspring tile taken while no member is seen added (a pile read one short), a few
legal moves closest to the reading are proposed instead, found by scoring the legal moves of that
kind (:mod:`rules.legal`) on the facts they touch. Small answer spaces (first member, event answers,
restore choices, reveals) are proposed in full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations, islice, pairwise, permutations, product
from typing import Any

from games.tribes.rules.chance import unrevealed_achievements, unseen_events
from games.tribes.rules.checks import Claim, claim_check, intensity, slot_reason
from games.tribes.rules.engine import check
from games.tribes.rules.hexgrid import START_TRIANGLE, Hex
from games.tribes.rules.legal import claim_moves, legal_moves, movement_deltas, offspring_moves
from games.tribes.rules.moves import (
    Achieve,
    Draw,
    Explore,
    Move,
    Movement,
    Offspring,
    Place,
    PlaceFirst,
    Reveal,
    RevealEvent,
    Setup,
    TakeEvent,
)
from games.tribes.rules.pending import DrawPending, EventRevealPending, PendingKind, PlacePending, RevealPending
from games.tribes.rules.profile import BOARD_COLUMNS
from games.tribes.rules.state import State
from tracker.evidence import Evidence, FactEvidence
from tracker.facts import Seating

FALLBACK_LIMIT = 4000
"""Most legal moves of one kind scored when the move read off the table is not legal."""

FALLBACK_KEEP = 3
"""Legal moves kept from such a fallback, closest to the reading first."""


class TableRead:
    """The best-supported reading of each fact, arranged for proposing moves (game seats)."""

    def __init__(self, evidence: Evidence, seating: Seating) -> None:
        self.evidence = evidence
        self.seating = seating
        self.modes = evidence.modes()
        self._land: dict[int, dict[Hex, Any]] = {}
        self._members: dict[int, dict[Hex, tuple[tuple[str, int], ...]]] = {}
        for key, val in self.modes.items():
            if key[0] == "land":
                self._land.setdefault(key[1], {})[key[2]] = val
            elif key[0] == "members":
                self._members.setdefault(key[1], {})[key[2]] = val

    def land(self, g: int) -> dict[Hex, Any]:
        """Observed land facts of game seat ``g``: hex -> None or (resource, exhausted)."""
        return self._land.get(self.seating.layout_seats[g], {})

    def members(self, g: int) -> dict[Hex, int]:
        """Observed member counts of game seat ``g``'s colour on its land, by hex."""
        colour = self.seating.colours[g]
        out = {}
        for h, val in self._members.get(self.seating.layout_seats[g], {}).items():
            out[h] = dict(val).get(colour, 0)
        return out

    def get(self, key: tuple[Any, ...]) -> Any:
        """The observed value of a fact (``KeyError`` when not read)."""
        return self.modes[key]

    def has(self, key: tuple[Any, ...]) -> bool:
        """True when the fact was read."""
        return key in self.modes


def propose(state: State, read: TableRead, prune: bool = True) -> list[Move]:
    """Moves that could explain the table from ``state`` (see the module docstring); ``prune``:
    consider only the row slots the row seen says were taken (:func:`first_takes`)."""
    kind = state.pending.kind
    if kind == PendingKind.GAME_OVER:
        return []
    if kind == PendingKind.SETUP:
        setup = _setup(state, read)
        return [setup] if setup else []
    if kind == PendingKind.FIRST_MEMBER:
        return [PlaceFirst(h) for h in sorted(state.players[state.pending.seat].land)]
    if kind == PendingKind.CHOOSE:
        return _choose(state, read, prune)
    if isinstance(state.pending, DrawPending):
        return _draws(state, read)
    if isinstance(state.pending, PlacePending):
        return _places(state, read)
    if isinstance(state.pending, RevealPending):
        return _reveals(state, read)
    if isinstance(state.pending, EventRevealPending):
        return _event_reveals(state, read)
    # restore choices and event answers: small spaces, proposed in full
    return list(islice(iter(legal_moves(state)), FALLBACK_LIMIT))


# --- setup ---------------------------------------------------------------------------------------
def _setup(state: State, read: TableRead) -> Setup | None:
    n_tiles = len(state.profile.action_tiles)
    row = []
    for i in range(1, n_tiles + 1):
        v = read.modes.get(("slot", i))
        if not v or v[1]:
            return None
        row.append(v[0])
    era1 = []
    for c in range(BOARD_COLUMNS):
        t = read.modes.get(("board", 1, c))
        if not t:
            return None
        era1.append(t)
    lands = []
    for g in range(state.n):
        land = read.land(g)
        trio = []
        for h in START_TRIANGLE:
            v = land.get(h)
            if not v or v[0] is None:
                return None  # no tile, or an exhausted one (its back): the setup cannot be read here
            trio.append(v[0])
        lands.append((trio[0], trio[1], trio[2]))
    return Setup(tuple(row), tuple(era1), tuple(lands))


# --- choosing a tile -----------------------------------------------------------------------------
def member_change(state: State, g: int, read: TableRead) -> dict[Hex, int]:
    """Observed minus recorded members of seat ``g`` on its tiles (hexes not read: no change)."""
    p = state.players[g]
    seen = read.members(g)
    out = {}
    for h, t in p.land.items():
        if h in seen and seen[h] != t.members:
            out[h] = seen[h] - t.members
    return out


def _member_deficit(state: State, g: int, read: TableRead, counts: dict[Hex, int]) -> float:
    """Evidence against seat ``g`` having ``counts`` members on the given hexes."""
    ev = read.evidence
    ls = read.seating.layout_seats[g]
    colour = read.seating.colours[g]
    total = 0.0
    for h, n in counts.items():
        total += ev.deficit_of(("members", ls, h), ((colour, n),) if n else ())
    return total


def _closest(state: State, g: int, read: TableRead, moves: Iterator[Move], delta_of: Any) -> list[Move]:
    """The legal moves (of one kind) whose member change fits the reading best: scored on the hexes
    the move changes and the hexes seen to change."""
    p = state.players[g]
    seen_changed = set(member_change(state, g, read))
    scored = []
    for i, m in enumerate(moves):
        if i >= FALLBACK_LIMIT:
            break
        counts: dict[Hex, int] = {}
        for h, d in delta_of(m):
            counts[h] = counts.get(h, p.land[h].members) + d
        pred = {h: counts.get(h, p.land[h].members) for h in set(counts) | seen_changed}
        scored.append((_member_deficit(state, g, read, pred), str(m), m))
    scored.sort(key=lambda sm: (sm[0], sm[1]))
    return [m for _, _, m in scored[:FALLBACK_KEEP]]


def first_takes(state: State, read: TableRead) -> set[int] | None:
    """Row slots whose tile may have been the first taken, judging by the row alone (None: the row
    is not read, or no sequence of takes explains it: do not prune).

    Taking an action tile moves it to the end of the row, taking an event removes it, revealed
    events join at the end. So the row seen is the untaken tiles in their old order followed by the
    taken action tiles in the order taken, interleaved with new events. The first take is the first
    taken action tile in that tail, or any taken event, or the last tile (taking it changes nothing
    in the order).
    """
    row = [(rt.tile, rt.event) for rt in state.row]
    seen: list[Any] = []
    i = 1
    while True:
        key = ("slot", i)
        if key not in read.modes:
            if i == 1:
                return None
            break
        v = read.modes[key]
        if v is None:
            break
        seen.append(v)
        i += 1
    index = {t: j for j, t in enumerate(row)}
    firsts: set[int] = set()
    for m in range(min(len(row), len(seen)), -1, -1):
        kept = seen[:m]
        pos = [index.get(t, -1) for t in kept]
        if any(p < 0 for p in pos) or any(a >= b for a, b in pairwise(pos)):
            continue
        kept_pos = set(pos)
        taken = [(j, row[j]) for j in range(len(row)) if j not in kept_pos]
        tail = seen[m:]
        old_tail = [t for t in tail if t in index]
        if any(not t[1] for t in tail if t not in index):
            continue  # only events may join the row from outside
        if sorted(t[0] for t in old_tail) != sorted(t[0] for _, t in taken if not t[1]):
            continue
        # the fewest takes that explain the row: a longer explanation (say, six takes that bring
        # the row back to where it was) is never the simplest reading
        if old_tail:
            firsts.add(index[old_tail[0]] + 1)
        firsts.update(j + 1 for j, t in taken if t[1])
        if row and not row[-1][1]:
            firsts.add(len(row))  # taking the last tile leaves the order as it is (only shells change)
        return firsts
    return None


def _changes_members(m: Move) -> bool:
    return bool(getattr(m, "place", ()) or getattr(m, "relocate", ()) or getattr(m, "delta", ()))


def _choose(state: State, read: TableRead, prune: bool = True) -> list[Move]:
    seat = state.to_move
    prof = state.profile
    change = member_change(state, seat, read)
    slots = first_takes(state, read) if prune else None
    out: list[Move] = []
    member_slots: list[tuple[str, int]] = []
    achieves = _achieves(state, read)
    for slot, tile in enumerate(state.row, start=1):
        if slot_reason(state, seat, slot):
            break
        if slots is not None and slot not in slots:
            continue
        if tile.event:
            out.append(TakeEvent(slot))
            continue
        act = prof.action_tile(tile.tile)
        if act.action == "offspring":
            offs = _offspring(state, read, slot, change)
            if not offs and slots is not None and slot in slots and slot < len(state.row):
                # the row shows this tile taken but no member seen added: a member the camera has
                # not counted (a pile read one short): the legal placements closest to the reading
                offs = _fallback(state, read, "off", slot)
            out.extend(offs)
            member_slots.append(("off", slot))
        elif act.action == "movement":
            out.extend(_movement(state, read, slot, change))
            member_slots.append(("mov", slot))
        else:
            out.append(Explore(slot))
        if act.hand:
            for ach in achieves:
                out.extend(_achieve(state, read, slot, ach))
    if change and not any(_changes_members(m) for m in out):
        # no legal move explains the members seen exactly (a move in progress, a misread count):
        # the closest legal moves of each kind, scored once per kind
        fallback: dict[str, list[Move]] = {}
        for kind, slot in member_slots:
            if kind not in fallback:
                fallback[kind] = _fallback(state, read, kind, slot)
            out.extend(replace(m, slot=slot) for m in fallback[kind])  # type: ignore[type-var]
    return out


def _fallback(state: State, read: TableRead, kind: str, slot: int) -> list[Move]:
    seat = state.to_move
    p = state.players[seat]
    if kind == "off":
        if p.supply > 0:
            return _closest(state, seat, read, offspring_moves(state, seat, slot), lambda m: Counter(m.place).items())
        return _closest(state, seat, read, offspring_moves(state, seat, slot), lambda m: m.relocate)
    k = intensity(state, seat, "movement")
    return _closest(state, seat, read, (Movement(slot, d) for d in movement_deltas(p, k)), lambda m: m.delta)


WEAK_RESOURCE = 1.0
"""Support (mean vote, :mod:`tracker.evidence`) below which a new tile's resource is not taken as
read: about confidence 0.73 in every frame."""

LAID_KEEP = 3
"""Most sets of hexes tried as the tiles just laid when more new tiles are seen than were drawn."""

UNDECIDED_EMPTY = 1.0
"""Support by which the table must read a hex empty over a tile for that hex not to be taken as a
tile just laid when fewer new tiles are seen than were drawn (:func:`undecided_tiles`): the same
mean vote as :data:`WEAK_RESOURCE`, about confidence 0.73 in every frame. A tile the reader could not
make out is read at even odds (support 0 either way); a bare hex reads empty at about 3.9."""

DRAW_LIMIT = 16
"""Most draws proposed for the tiles seen laid (two readings per tile, or every resource in the bag
for a tile read only by its back)."""

UNSEEN_LIMIT = 24
"""Most moves proposed for a land the camera cannot see (they all fit; the tracker will ask)."""


def _offspring(state: State, read: TableRead, slot: int, change: dict[Hex, int]) -> list[Move]:
    seat = state.to_move
    p = state.players[seat]
    if not read.members(seat):  # the land is not seen: every Offspring fits as well
        return list(islice(offspring_moves(state, seat, slot), UNSEEN_LIMIT))
    if not change:
        # with members in the supply an Offspring always adds some: nothing seen yet
        return [] if p.supply > 0 else [Offspring(slot)]
    if p.supply > 0:
        moves = [Offspring(slot, tuple(h for h, d in sorted(change.items()) if d > 0 for _ in range(d)))]
    else:
        # no members left to place: the change may be a relocation, or belong to a later move of the
        # same player in a quick chain (then this Offspring relocated nothing)
        moves = [Offspring(slot)]
        if sum(change.values()) == 0:  # a relocation keeps the number of members
            moves.insert(0, Offspring(slot, relocate=tuple(sorted(change.items()))))
    return [m for m in moves if check(state, m) is None]


def _movement(state: State, read: TableRead, slot: int, change: dict[Hex, int]) -> list[Move]:
    seat = state.to_move
    if not read.members(seat):  # the land is not seen: every Movement fits as well
        k = intensity(state, seat, "movement")
        deltas = islice(movement_deltas(state.players[seat], k), UNSEEN_LIMIT)
        return [Movement(slot, d) for d in deltas]
    out: list[Move] = [Movement(slot, ())]  # all steps forfeited: only the row changes
    if change and sum(change.values()) == 0:  # a movement keeps the number of members
        move = Movement(slot, tuple(sorted(change.items())))
        if check(state, move) is None:
            out.append(move)
    return out


def _achieves(state: State, read: TableRead) -> list[tuple[int, int]]:
    """Board positions where the player to move has a stone on the table but not in the record."""
    seat = state.to_move
    colour = read.seating.colours[seat]
    out = []
    for e, era in enumerate(state.board, start=1):
        for c, bt in enumerate(era):
            if bt.tile is None or seat in bt.stones:
                continue
            seen = read.modes.get(("stones", e, c))
            if seen and colour in seen:
                out.append((e, c))
    return out


def _achieve(state: State, read: TableRead, slot: int, pos: tuple[int, int]) -> list[Move]:
    seat = state.to_move
    p = state.players[seat]
    ach = state.board[pos[0] - 1][pos[1]].tile
    assert ach is not None
    land = read.land(seat)
    jokers = tuple(
        sorted(h for h, t in p.land.items() if not t.exhausted and (v := land.get(h)) is not None and v[1] is True)
    )
    colour = read.seating.colours[seat]
    arrow = None
    seen_arrow = read.modes.get(("arrow", colour))
    if seen_arrow and p.arrow:
        lower = seen_arrow[0]
        arrow = state.board[lower[0] - 1][lower[1]].tile
    move = Achieve(slot, ach, jokers, arrow)
    if check(state, move) is None:
        return [move]
    claim = claim_check(state, seat, *pos)
    if not isinstance(claim, Claim):
        return []
    return list(islice(claim_moves(state, slot, claim), 16))


# --- chance and placement ------------------------------------------------------------------------
def new_tiles(state: State, g: int, read: TableRead) -> dict[Hex, Any]:
    """Tiles seen in seat ``g``'s land on hexes where the record has none."""
    p = state.players[g]
    return {h: v for h, v in read.land(g).items() if v is not None and h not in p.land}


def _resource_options(read: TableRead, g: int, h: Hex, resources: tuple[str, ...]) -> list[str]:
    """The resources a new tile might show, best supported first (close alternatives kept). A new
    tile read only as a tile back (a misreading: drawn tiles are laid face up, R-ACT-EXP-1), or a hex
    left undecided that names no resource, says nothing of its resource: every resource still
    possible is proposed (the tracker then asks)."""
    fe = read.evidence.facts.get(("land", read.seating.layout_seats[g], h))
    if fe is None:
        return []
    opts = sorted(
        ((s, v[0]) for v, s in fe.support.items() if v is not None and v[0] in resources),
        key=lambda sv: (-sv[0], sv[1]),
    )
    if not opts:
        if fe.mode is None or any(v is not None and v[0] is None for v in fe.support):
            return list(resources)  # a tile back, or a hex left undecided (:func:`undecided_tiles`)
        return []
    best = opts[0][0]
    if best < WEAK_RESOURCE:
        # read too weakly to name the drawn tile alone: every resource competes (the tracker asks)
        return list(dict.fromkeys([r for _, r in opts] + list(resources)))
    out = []
    for s, r in opts:
        if s >= best - 2.0 and r not in out:
            out.append(r)
    return out[:2]


def undecided_tiles(state: State, g: int, read: TableRead) -> list[Hex]:
    """Hexes of seat ``g``'s land, empty in the record, that the table reads empty only by less than
    :data:`UNDECIDED_EMPTY` over a tile (the reader had no evidence either way: a tile whose face
    it could not make out, read at the outline's cap). A hex the table shows bare is read empty
    surely, so a tile still to be laid is not among them."""
    p = state.players[g]
    ls = read.seating.layout_seats[g]
    out = []
    for h, v in read.land(g).items():
        if v is not None or h in p.land:
            continue
        if -_tile_strength(read.evidence.facts[("land", ls, h)]) < UNDECIDED_EMPTY:
            out.append(h)
    return sorted(out)


def _tile_strength(fe: FactEvidence) -> float:
    """How much better a hex is supported as holding some tile than as empty (negative: empty is
    better supported). A tile value the reading does not name has support 0, as in the search's
    deficits (:meth:`~tracker.evidence.Evidence.deficit_of`)."""
    tile = max([0.0] + [s for val, s in fe.support.items() if val is not None])
    return tile - fe.support.get(None, 0.0)


def laid_sets(state: State, g: int, read: TableRead, n: int) -> list[tuple[Hex, ...]]:
    """The sets of ``n`` hexes of seat ``g``'s land that may hold the ``n`` tiles just laid: the new
    tiles seen, when there are ``n``; when there are a few more (an empty hex misread as a tile),
    the :data:`LAID_KEEP` sets of ``n`` best supported as tiles. When fewer are seen, the sets that
    add hexes the table leaves undecided (:func:`undecided_tiles`: a laid tile whose face the reader
    could not make out), best supported first; none when there are not enough of those either
    (tiles still being laid)."""
    hexes = sorted(new_tiles(state, g, read))
    if len(hexes) == n:
        return [tuple(hexes)]
    if len(hexes) > n + 2:
        return []
    ev = read.evidence
    ls = read.seating.layout_seats[g]

    def strength(h: Hex) -> float:
        return _tile_strength(ev.facts[("land", ls, h)])

    if len(hexes) < n:
        extra = undecided_tiles(state, g, read)
        if len(hexes) + len(extra) < n:
            return []
        adds = sorted(combinations(extra, n - len(hexes)), key=lambda c: (-sum(strength(h) for h in c), c))
        return [tuple(sorted(hexes + list(c))) for c in adds[:LAID_KEEP]]
    sets = sorted(combinations(hexes, n), key=lambda c: (-sum(strength(h) for h in c), c))
    return sets[:LAID_KEEP]


def _draws(state: State, read: TableRead) -> list[Move]:
    pend = state.pending
    assert isinstance(pend, DrawPending)
    seat = pend.seat
    prof = state.profile
    in_bag = tuple(r for r, k in zip(prof.resources, state.bag, strict=True) if k > 0)
    out: list[Move] = []
    for hexes in laid_sets(state, seat, read, pend.count):  # the draw is seen only once laid
        options = [_resource_options(read, seat, h, in_bag) for h in hexes]
        if not all(options):
            continue
        for combo in islice(product(*options), DRAW_LIMIT):
            d = Draw(tuple(combo))
            if d not in out:
                out.append(d)
    return out[:DRAW_LIMIT]


def _places(state: State, read: TableRead) -> list[Move]:
    pend = state.pending
    assert isinstance(pend, PlacePending)
    seat = pend.seat
    ev = read.evidence
    ls = read.seating.layout_seats[seat]
    seen = sorted(new_tiles(state, seat, read))
    scored = []
    for hexes in laid_sets(state, seat, read, len(pend.drawn)):  # none while tiles are still being laid
        empty = sum(ev.deficit_of(("land", ls, h), None) for h in seen if h not in hexes)
        for order in set(permutations(pend.drawn)):
            cost = empty + sum(ev.deficit_of(("land", ls, h), (r, False)) for h, r in zip(hexes, order, strict=True))
            scored.append((cost, Place(tuple(zip(hexes, order, strict=True)))))
    scored.sort(key=lambda cm: (cm[0], str(cm[1])))
    return [m for _, m in scored[:2]]


WEAK_REVEAL = 1.0
"""Support (mean vote) below which the tile read where a chance outcome shows (the achievement turned
up, the event laid in the row) is not taken as read: about confidence 0.73 in every frame. Then every
outcome still possible is proposed, so the tracker asks which (ranked by what was read) instead of
committing a guess: a wrong reveal committed is a silent desync. Chosen on the tuning set's still
frames (``benchmarks/vision_diag.py --set tune``, achievements of eras 2 and 3 read face up): wrong
reads had supports up to 0.25 on dark art and 53 of 61 under 1.0 on pale art, right ones under 1.0
were 2 of 361 (dark) and 78 of 259 (pale), none on bold art; through the tracker on dark art, three
silent desyncs were reveals read at supports 0.7-0.8 (docs/benchmarks.md). It was 0.3 (a coin flip)."""


def _support(read: TableRead, key: tuple[Any, ...], value: Any) -> float:
    fe = read.evidence.facts.get(key)
    return fe.support.get(value, 0.0) if fe is not None else 0.0


def _reveals(state: State, read: TableRead) -> list[Move]:
    pend = state.pending
    assert isinstance(pend, RevealPending)
    key = ("board", pend.era, pend.col)
    seen = read.modes.get(key)
    ids = unrevealed_achievements(state, pend.era)
    if seen in ids and _support(read, key, seen) >= WEAK_REVEAL:
        return [Reveal(seen)]
    return [Reveal(a) for a in ids]


def _event_reveals(state: State, read: TableRead) -> list[Move]:
    pend = state.pending
    assert isinstance(pend, EventRevealPending)
    ids = unseen_events(state, pend.era)
    in_row = {rt.tile for rt in state.row}
    seen = [
        (k, v)
        for k, v in read.modes.items()
        if k[0] == "slot" and v is not None and v[1] and v[0] in ids and v[0] not in in_row
    ]
    if seen and all(_support(read, k, v) >= WEAK_REVEAL for k, v in seen):
        return [RevealEvent(e) for e in sorted({v[0] for _, v in seen})]
    return [RevealEvent(e) for e in ids]
