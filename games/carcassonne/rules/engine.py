"""The rules of Hunters & Gatherers: new game, legality, ``apply``, scoring (docs/carcassonne-rules.md).

Laying a tile (:class:`_Txn`) appends one union-find node per segment of the tile and joins them
with the neighbours' features across the sides that touch the map (the frontier square already knows
them), counting matched forest and river edges off the features' open-edge counts: a forest or river
whose count reaches 0 is complete (H-FOREST-1, H-RIVER-1). Rivers also join *river systems* (a
second union-find), across lakes, for huts (H-HUT-1). Everything a move writes goes into copies of the
chunks it touches; the state before the move is never changed.

Every refusal raises :class:`IllegalMoveError` naming its clause; :func:`check` returns
``(clause, reason)`` instead.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, NamedTuple

from games.api import Seat
from games.carcassonne.rules.errors import IllegalMoveError
from games.carcassonne.rules.moves import ROLE_LETTERS, Discard, Draw, Move, Place
from games.carcassonne.rules.state import (
    CHUNK_BITS,
    CHUNK_MASK,
    EMPTY_DSU,
    FIG_BITS,
    Dsu,
    Figure,
    FrontierEntry,
    Phase,
    Placement,
    ScoreEvent,
    State,
    find,
    majority,
    record,
    unpack_figs,
)
from games.carcassonne.rules.tiles import (
    DELTA,
    LETTER_OF_EDGE,
    RIVER,
    ROLES_OF_SEG,
    SEG_FOREST,
    SEG_LAKE,
    SEG_NAME,
    SEG_RIVER,
    SIDES,
    BoxProfile,
    Compiled,
    Role,
    cell_key,
    cell_xy,
    resolve_profile,
)

NO_SIDES: tuple[None, None, None, None] = (None, None, None, None)
_mk = tuple.__new__
"""Builds a State from its fields in order (faster than the generated constructor)."""
ROLE_FEATURE = {Role.GATHERER: "forest", Role.FISHER: "river", Role.HUNTER: "meadow", Role.HUT: "river system"}


def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _w(arr: list[list[Any]], own: set[int], c: int) -> list[Any]:
    """Chunk ``c`` of ``arr``, writable in this transaction (copied on first write, or created)."""
    if c in own:
        return arr[c]
    if c == len(arr):
        ch: list[Any] = []
        arr.append(ch)
    else:
        ch = arr[c][:]
        arr[c] = ch
    own.add(c)
    return ch


class _Txn:
    """One move's edit of the union-finds: chunks are copied when first written (copy-on-write).

    An entry of ``nodes`` (``systems``) is a parent node number, or at a root the feature (system)
    record itself."""

    __slots__ = ("n", "nodes", "own_n", "own_s", "sn", "systems")

    def __init__(self, dsu: Dsu) -> None:
        self.nodes = list(dsu.nodes)
        self.systems = list(dsu.systems)
        self.own_n: set[int] = set()
        self.own_s: set[int] = set()
        self.n = dsu.n
        self.sn = dsu.sn

    def commit(self) -> Dsu:
        return Dsu(tuple(self.nodes), tuple(self.systems), self.n, self.sn)

    def find(self, g: int) -> int:
        nodes = self.nodes
        while True:
            v = nodes[g >> CHUNK_BITS][g & CHUNK_MASK]
            if v.__class__ is tuple:
                return g
            g = v

    def sfind(self, g: int) -> int:
        systems = self.systems
        while True:
            v = systems[g >> CHUNK_BITS][g & CHUNK_MASK]
            if v.__class__ is tuple:
                return g
            g = v

    def get(self, r: int) -> tuple[Any, ...]:
        """The record at root ``r``."""
        rec: tuple[Any, ...] = self.nodes[r >> CHUNK_BITS][r & CHUNK_MASK]
        return rec

    def sget(self, r: int) -> tuple[Any, ...]:
        rec: tuple[Any, ...] = self.systems[r >> CHUNK_BITS][r & CHUNK_MASK]
        return rec

    def set_info(self, r: int, val: tuple[Any, ...]) -> None:
        _w(self.nodes, self.own_n, r >> CHUNK_BITS)[r & CHUNK_MASK] = val

    def set_sinfo(self, r: int, val: tuple[Any, ...]) -> None:
        _w(self.systems, self.own_s, r >> CHUNK_BITS)[r & CHUNK_MASK] = val

    def join(self, a: int, b: int, dec: int) -> None:
        """Join the forests or meadows of nodes ``a`` and ``b``; ``dec`` open edges are used up (2 for
        a matched forest edge, 0 for meadows)."""
        nodes = self.nodes
        while True:  # find, inlined: this is the hottest loop of the engine
            ia = nodes[a >> CHUNK_BITS][a & CHUNK_MASK]
            if ia.__class__ is tuple:
                break
            a = ia
        while True:
            ib = nodes[b >> CHUNK_BITS][b & CHUNK_MASK]
            if ib.__class__ is tuple:
                break
            b = ib
        if a == b:
            if dec:
                _w(nodes, self.own_n, a >> CHUNK_BITS)[a & CHUNK_MASK] = (
                    ia[0],
                    ia[1],
                    ia[2],
                    ia[3] - dec,
                    ia[4],
                    ia[5],
                )
            return
        merged = (ia[0], ia[1] + ib[1], ia[2] + ib[2], ia[3] + ib[3] - dec, ia[4] | ib[4], ia[5] + ib[5])
        if ia[1] < ib[1]:
            a, b = b, a
        _w(nodes, self.own_n, b >> CHUNK_BITS)[b & CHUNK_MASK] = a
        _w(nodes, self.own_n, a >> CHUNK_BITS)[a & CHUNK_MASK] = merged

    def join_river(self, a: int, b: int) -> None:
        """Join the rivers of nodes ``a`` and ``b`` across a matched river edge, and their systems."""
        nodes = self.nodes
        while True:
            ia = nodes[a >> CHUNK_BITS][a & CHUNK_MASK]
            if ia.__class__ is tuple:
                break
            a = ia
        while True:
            ib = nodes[b >> CHUNK_BITS][b & CHUNK_MASK]
            if ib.__class__ is tuple:
                break
            b = ib
        if a == b:  # a closed loop
            _w(nodes, self.own_n, a >> CHUNK_BITS)[a & CHUNK_MASK] = (
                ia[0],
                ia[1],
                ia[2],
                ia[3] - 2,
                ia[4],
                ia[5],
                ia[6],
            )
            return
        self.sjoin(ia[6], ib[6])
        merged = (ia[0], ia[1] + ib[1], ia[2] + ib[2], ia[3] + ib[3] - 2, ia[4] | ib[4], ia[5] + ib[5], ia[6])
        if ia[1] < ib[1]:
            a, b = b, a
        _w(nodes, self.own_n, b >> CHUNK_BITS)[b & CHUNK_MASK] = a
        _w(nodes, self.own_n, a >> CHUNK_BITS)[a & CHUNK_MASK] = merged

    def sjoin(self, a: int, b: int) -> None:
        """Join two river systems (H-HUT-1)."""
        ra = self.sfind(a)
        rb = self.sfind(b)
        if ra == rb:
            return
        ia = self.sget(ra)
        ib = self.sget(rb)
        merged = (ia[0] + ib[0], ia[1] + ib[1], ia[2] + ib[2], ia[3] | ib[3])
        if ia[0] < ib[0]:
            ra, rb = rb, ra
        _w(self.systems, self.own_s, rb >> CHUNK_BITS)[rb & CHUNK_MASK] = ra
        _w(self.systems, self.own_s, ra >> CHUNK_BITS)[ra & CHUNK_MASK] = merged

    def lay(
        self,
        comp: Compiled,
        rot: int,
        cell: int,
        sides: Sequence[tuple[int, int, int] | None],
        tile_no: int,
        frontier: dict[int, FrontierEntry],
    ) -> int:
        """Add the tile's segments (and its river systems), join them with the neighbours and update
        ``frontier`` (a copy the caller owns). Returns the tile's first node."""
        base = self.n
        sbase = self.sn
        tbit = 1 << tile_no
        nseg = comp.nseg
        recs: list[tuple[Any, ...]] = []
        for k, x3, x5, ll, fish, sg in comp.records:
            if k == SEG_RIVER:
                recs.append((k, 1, 0, x3, tbit, ((base + ll, fish),) if ll >= 0 else (), sbase + sg))
            elif k == SEG_LAKE:
                recs.append((k, 1, 0, 0, tbit, 0, sbase + sg))
            else:
                recs.append((k, 1, 0, x3, tbit, x5))
        c = base >> CHUNK_BITS
        if c == (base + nseg - 1) >> CHUNK_BITS:
            _w(self.nodes, self.own_n, c).extend(recs)
        else:  # the tile's nodes straddle two chunks
            for local in range(nseg):
                _w(self.nodes, self.own_n, (base + local) >> CHUNK_BITS).append(recs[local])
        self.n = base + nseg
        if comp.sys_records:
            for j, (size, fish) in enumerate(comp.sys_records):
                _w(self.systems, self.own_s, (sbase + j) >> CHUNK_BITS).append((size, fish, 0, tbit))
            self.sn = sbase + len(comp.sys_records)
        ports = comp.ports[rot]
        edges = comp.edges[rot]
        for d in range(4):
            s = sides[d]
            pe, p0, p1 = ports[d]
            if s is None:
                n = cell + DELTA[d]
                o = (d + 2) & 3
                port = (base + pe if pe >= 0 else -1, base + p1 if p1 >= 0 else -1, base + p0 if p0 >= 0 else -1)
                old = frontier.get(n)
                if old is None:
                    ns: list[tuple[int, int, int] | None] = [None, None, None, None]
                    ns[o] = port
                    frontier[n] = (edges[d] << (2 * o), tuple(ns))
                else:
                    ns = list(old[1])
                    ns[o] = port
                    frontier[n] = (old[0] | edges[d] << (2 * o), tuple(ns))
                continue
            qe, q0, q1 = s
            if pe >= 0:
                if edges[d] == RIVER:
                    self.join_river(base + pe, qe)
                else:
                    self.join(base + pe, qe, 2)
            if p0 >= 0:
                self.join(base + p0, q0, 0)
                if p1 != p0 or q1 != q0:
                    self.join(base + p1, q1, 0)
        frontier.pop(cell, None)
        return base

    def system_of(self, g: int) -> int:
        """The river-system root of river or lake node ``g``."""
        return self.sfind(self.get(self.find(g))[6])

    def occupied(self, g: int, role: Role) -> bool:
        """The feature (or, for a hut, the river system) of node ``g`` already holds a figure of that
        kind (H-FIG-5, H-HUT-2)."""
        if role is Role.HUT:
            return bool(self.sget(self.system_of(g))[2])
        return bool(self.get(self.find(g))[2])

    def add_figure(self, g: int, seat: int, role: Role, cult: bool) -> None:
        one = 1 << (FIG_BITS * seat)
        if role is Role.HUT:
            r = self.system_of(g)
            i = self.sget(r)
            self.set_sinfo(r, (i[0], i[1], i[2] + one, i[3]))
            return
        r = self.find(g)
        i = self.get(r)
        self.set_info(r, (i[0], i[1], i[2] + one, i[3], i[4], i[5] + one if cult else i[5], *i[6:]))


# --- a new game -----------------------------------------------------------------------------------


def new_game(players: Sequence[tuple[str, str]], profile: Any = None) -> State:
    """The state before the first draw: the start tile on 0,0 (H-SET-1), both stacks full (H-SET-2),
    every player with their members and huts (H-SET-3)."""
    prof = resolve_profile(profile)
    if not 2 <= len(players) <= 5:
        raise ValueError(f"Hunters & Gatherers is played by 2 to 5 players, got {len(players)}")
    seats = tuple(Seat(str(n), str(c)) for n, c in players)
    bag = tuple(0 if t.group == "start" else t.count for t in prof.tiles)
    txn = _Txn(EMPTY_DSU)
    frontier: dict[int, FrontierEntry] = {}
    base = txn.lay(prof.compiled[prof.start], 0, 0, NO_SIDES, 0, frontier)
    n = len(seats)
    return State(
        profile=prof,
        seats=seats,
        phase=Phase.DRAW,
        to_move=0,
        turn=1,
        drawn=-1,
        bag=bag,
        land_left=sum(prof.tiles[i].count for i in prof.land),
        bonus_left=sum(prof.tiles[i].count for i in prof.bonus),
        removed=(),
        scores=(0,) * n,
        members=(prof.members,) * n,
        huts=(prof.huts,) * n,
        figures=(),
        log=(),
        tiles=(Placement(0, 0, 0, prof.start, 0, base, -1), None),
        ntiles=1,
        frontier=frontier,
        dsu=txn.commit(),
    )


# --- legality -------------------------------------------------------------------------------------


def context(state: State) -> str:
    """One line saying where the game stands (quoted in error messages)."""
    if state.phase is Phase.OVER:
        return "the game is over"
    who = state.seats[state.to_move].name
    prof = state.profile
    if state.phase is Phase.DRAW:
        return f"turn {state.turn}: {who} draws a land tile ({state.land_left} left)"
    if state.phase is Phase.BONUS_DRAW:
        return f"turn {state.turn}: {who} draws a bonus tile ({state.bonus_left} left)"
    return f"turn {state.turn}: {who} lays {prof.tiles[state.drawn].id}"


def _fail(state: State, move: object, clause: str, reason: str) -> IllegalMoveError:
    return IllegalMoveError(clause, reason, str(move), context(state))


def placements(state: State) -> list[tuple[int, int]]:
    """Every ``(cell, rotation)`` where the drawn tile may be laid (H-PLACE-1..4), in frontier order."""
    if state.drawn < 0:
        return []
    fits = state.profile.compiled[state.drawn].fits
    return [(cell, r) for cell, entry in state.frontier.items() for r in fits[entry[0]]]


def has_placement(state: State) -> bool:
    """The drawn tile fits somewhere."""
    fits = state.profile.compiled[state.drawn].fits
    return any(fits[entry[0]] for entry in state.frontier.values())


def _occupied_cells(state: State) -> set[int]:
    return set(state.board())


def _where_refused(state: State, move: Place) -> tuple[str, str]:
    """Why square (x, y) cannot take a tile at all (it is in no frontier entry)."""
    cell = cell_key(move.x, move.y)
    occ = _occupied_cells(state)
    if cell in occ:
        return "H-PLACE-1", f"square {move.x},{move.y} already holds a tile"
    for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        if cell_key(move.x + dx, move.y + dy) in occ:
            return "H-PLACE-2", f"square {move.x},{move.y} touches the map only at a corner"
    return "H-PLACE-1", f"square {move.x},{move.y} touches no laid tile with a side"


def _edge_refusal(state: State, comp: Compiled, entry: FrontierEntry, move: Place) -> str:
    edges = comp.edges[move.rot]
    for d in range(4):
        need = (entry[0] >> (2 * d)) & 3
        if need and edges[d] != need:
            return f"turned r{move.rot} its {SIDES[d]} side is {_edge_word(edges[d])} but meets {_edge_word(need)}"
    return "the edges do not continue"  # pragma: no cover - fits[] said no


def _edge_word(e: int) -> str:
    return {"F": "forest", "M": "meadow", "R": "river"}[LETTER_OF_EDGE[e]]


class Laid(NamedTuple):
    """A tile laid in a transaction (before its figure): what the figure checks and scoring need."""

    txn: _Txn
    frontier: dict[int, FrontierEntry]
    base: int
    comp: Compiled
    cell: int


_LAST = threading.local()
"""The last tile laid by :func:`lay` (per thread): ``apply`` takes it over instead of laying the same
tile again (a player lists a placement's spots, then plays it). Nothing reads a taken one again."""


def lay(state: State, cell: int, rot: int) -> Laid:
    """Lay the drawn tile on ``cell`` (a legal placement) turned ``rot`` in a transaction of its own,
    for reading (figure spots); the state is not changed."""
    last = getattr(_LAST, "v", None)
    if last is not None and last[0] is state and last[1] == cell and last[2] == rot:
        laid: Laid = last[3]
        return laid
    comp = state.profile.compiled[state.drawn]
    frontier = dict(state.frontier)
    txn = _Txn(state.dsu)
    base = txn.lay(comp, rot, cell, frontier[cell][1], state.ntiles, frontier)
    laid = Laid(txn, frontier, base, comp, cell)
    _LAST.v = (state, cell, rot, laid)
    return laid


def _take(state: State, cell: int, rot: int) -> Laid:
    """A laid tile for ``apply`` to write to: the one :func:`lay` just made for this state and
    placement (taken away from it), else a new one."""
    laid = lay(state, cell, rot)
    _LAST.v = None
    return laid


class SpotOption(NamedTuple):
    """One figure a player could put on the tile just laid: allowed, or refused with the clause."""

    role: Role
    spot: str
    allowed: bool
    clause: str = ""
    reason: str = ""


def _spot_refusal(state: State, laid: Laid, local: int, role: Role) -> tuple[str, str] | None:
    seat = state.to_move
    if role is Role.HUT:
        if state.huts[seat] <= 0:
            return "H-FIG-2", f"{state.seats[seat].name} has no hut left in the supply"
        if laid.txn.occupied(laid.base + local, role):
            return "H-HUT-2", "that river system already holds a hut"
        return None
    if state.members[seat] <= 0:
        return "H-FIG-2", f"{state.seats[seat].name} has no tribe member left in the supply"
    if laid.txn.occupied(laid.base + local, role):
        return "H-FIG-5", f"that {ROLE_FEATURE[role]} already holds a {role}, however far away"
    return None


def options_of(prof: BoxProfile, kind: int) -> tuple[tuple[int, Role, str], ...]:
    """Every ``(local segment, role, spot)`` a figure could take on a tile type (H-FIG-4)."""
    return prof.compiled[kind].options


def spot_options(state: State, laid: Laid) -> list[SpotOption]:
    """Every figure (role × spot) on the tile just laid, allowed or refused with its clause."""
    out = []
    for local, role, spot in options_of(state.profile, state.drawn):
        bad = _spot_refusal(state, laid, local, role)
        if bad is None:
            out.append(SpotOption(role, spot, True))
        else:
            out.append(SpotOption(role, spot, False, bad[0], bad[1]))
    return out


def free_spots(state: State, laid: Laid) -> list[tuple[Role, str]]:
    """The figures the player to move may put on the tile just laid (the fast form of
    :func:`spot_options` for simulated players)."""
    seat = state.to_move
    member = state.members[seat] > 0
    hut = state.huts[seat] > 0
    if not member and not hut:
        return []
    txn, base = laid.txn, laid.base
    out: list[tuple[Role, str]] = []
    for local, role, spot in laid.comp.options:
        if role is Role.HUT:
            if hut and not txn.sget(txn.system_of(base + local))[2]:
                out.append((role, spot))
        elif member and not txn.get(txn.find(base + local))[2]:
            out.append((role, spot))
    return out


def _check_place(state: State, move: Place) -> Laid:
    """Laid tile for a legal placement (figure not yet added); IllegalMoveError otherwise."""
    if state.phase not in (Phase.PLACE, Phase.BONUS_PLACE):
        raise _fail(state, move, *_phase_refusal(state))
    if not isinstance(move.rot, int) or not 0 <= move.rot <= 3:
        raise _fail(state, move, "H-PLACE-4", "a tile is turned 0 to 3 quarter turns (r0-r3)")
    prof = state.profile
    comp = prof.compiled[state.drawn]
    if abs(move.x) > 1000 or abs(move.y) > 1000:
        raise _fail(state, move, "H-PLACE-1", f"square {move.x},{move.y} touches no laid tile with a side")
    cell = cell_key(move.x, move.y)
    entry = state.frontier.get(cell)
    if entry is None:
        raise _fail(state, move, *_where_refused(state, move))
    if move.rot not in comp.fits[entry[0]]:
        raise _fail(state, move, "H-PLACE-3", _edge_refusal(state, comp, entry, move))
    local = -1
    if move.role is not None:
        tile = prof.tiles[state.drawn]
        local = comp.spot_local.get(move.spot or "", -1)
        if local < 0:
            raise _fail(
                state,
                move,
                "H-FIG-3",
                f"{tile.id} has no spot {move.spot!r} (its spots: {', '.join(s.spot for s in tile.segments)})",
            )
        seg = tile.segments[local]
        if (move.spot or "")[0] not in ROLE_LETTERS[move.role]:
            raise _fail(
                state,
                move,
                "H-FIG-4",
                f"a {move.role} cannot stand on a {SEG_NAME[seg.kind]} "
                "(gatherer: forest, fisher: river, hunter: meadow, hut: river or lake)",
            )
    laid = _take(state, cell, move.rot)
    if move.role is not None:
        bad = _spot_refusal(state, laid, local, move.role)
        if bad is not None:
            raise _fail(state, move, *bad)
    return laid


def _phase_refusal(state: State) -> tuple[str, str]:
    if state.phase is Phase.OVER:
        return "H-END-1", "the game is over"
    if state.phase is Phase.DRAW:
        return "H-TURN-1", "first the table reports the land tile drawn ('draw ID')"
    if state.phase is Phase.BONUS_DRAW:
        return "H-GOLD-1", "first the table reports the bonus tile drawn ('bonus ID')"
    return "H-TURN-1", f"{state.profile.tiles[state.drawn].id} is to be laid now ('place X,Y rR' or 'discard')"


def check(state: State, move: object) -> tuple[str, str] | None:
    """``(clause, reason)`` when ``move`` is illegal here, else None."""
    try:
        _validate(state, move)
    except IllegalMoveError as exc:
        return exc.clause, exc.reason
    return None


def _validate(state: State, move: object) -> None:
    if isinstance(move, Place):
        _check_place(state, move)
    elif isinstance(move, Draw):
        _check_draw(state, move)
    elif isinstance(move, Discard):
        _check_discard(state, move)
    else:
        raise IllegalMoveError("H-TURN-1", f"{move!r} is not a move of Hunters & Gatherers", str(move), context(state))


def _check_draw(state: State, move: Draw) -> int:
    want = Phase.BONUS_DRAW if move.bonus else Phase.DRAW
    if state.phase is not want:
        if state.phase in (Phase.DRAW, Phase.BONUS_DRAW):
            clause = "H-GOLD-1" if move.bonus else "H-DRAW-1"
            other = "a land tile ('draw ID')" if state.phase is Phase.DRAW else "a bonus tile ('bonus ID')"
            raise _fail(state, move, clause, f"the table is to report {other}")
        raise _fail(state, move, *_phase_refusal(state))
    prof = state.profile
    kind = prof.index.get(move.tile, -1)
    group = "bonus" if move.bonus else "land"
    if kind < 0 or prof.tiles[kind].group != group:
        ids = [prof.tiles[i].id for i in (prof.bonus if move.bonus else prof.land) if state.bag[i]]
        raise _fail(
            state,
            move,
            "H-GOLD-1" if move.bonus else "H-DRAW-1",
            f"{move.tile!r} is no {group} tile of this box (in the stack: {', '.join(ids[:12])}"
            f"{' …' if len(ids) > 12 else ''})",
        )
    if state.bag[kind] <= 0:
        raise _fail(
            state, move, "H-GOLD-1" if move.bonus else "H-DRAW-1", f"no {move.tile} is left in the {group} stack"
        )
    return kind


def _check_discard(state: State, move: Discard) -> None:
    if state.phase not in (Phase.PLACE, Phase.BONUS_PLACE):
        raise _fail(state, move, *_phase_refusal(state))
    if has_placement(state):
        n = len(placements(state))
        clause = "H-GOLD-5" if state.phase is Phase.BONUS_PLACE else "H-DRAW-2"
        raise _fail(state, move, clause, f"{state.profile.tiles[state.drawn].id} fits in {n} places: it must be laid")


# --- apply ----------------------------------------------------------------------------------------


def apply(state: State, move: Move) -> State:
    """The state after ``move``; :class:`IllegalMoveError` names the clause and nothing changes."""
    if isinstance(move, Place):
        return _apply_place(state, move)
    if isinstance(move, Draw):
        kind = _check_draw(state, move)
        bag = list(state.bag)
        bag[kind] -= 1
        head, tail = state[:2], state[9:]  # (profile, seats) … (removed, …)
        if move.bonus:
            fields = (
                *head,
                Phase.BONUS_PLACE,
                state.to_move,
                state.turn,
                kind,
                tuple(bag),
                state.land_left,
                state.bonus_left - 1,
                *tail,
            )
        else:
            fields = (
                *head,
                Phase.PLACE,
                state.to_move,
                state.turn,
                kind,
                tuple(bag),
                state.land_left - 1,
                state.bonus_left,
                *tail,
            )
        return _mk(State, fields)
    if isinstance(move, Discard):
        _check_discard(state, move)
        removed = (*state.removed, state.drawn)
        if state.phase is Phase.BONUS_PLACE:
            # H-GOLD-5 (companion's choice): another bonus tile while the stack has one
            if state.bonus_left > 0:
                return state._replace(phase=Phase.BONUS_DRAW, drawn=-1, removed=removed)
            return _end_turn(state._replace(drawn=-1, removed=removed))
        if state.land_left > 0:  # H-DRAW-2: the player draws another tile
            return state._replace(phase=Phase.DRAW, drawn=-1, removed=removed)
        return _end_turn(state._replace(drawn=-1, removed=removed))
    raise IllegalMoveError("H-TURN-1", f"{move!r} is not a move of Hunters & Gatherers", str(move), context(state))


def _apply_place(state: State, move: Place) -> State:
    laid = _check_place(state, move)
    txn, base, comp = laid.txn, laid.base, laid.comp
    seat = state.to_move
    n = len(state.seats)
    prof = state.profile
    bonus_tile = state.phase is Phase.BONUS_PLACE
    tile_no = state.ntiles
    figures = state.figures
    members = state.members
    huts = state.huts
    if move.role is not None:
        local = comp.spot_local[move.spot or ""]
        cult = move.role is Role.HUNTER and comp.cult[local]
        txn.add_figure(base + local, seat, move.role, cult)
        figures = (*figures, Figure(seat, move.role, tile_no, move.spot or "", base + local, cult))
        if move.role is Role.HUT:
            huts = (*huts[:seat], huts[seat] - 1, *huts[seat + 1 :])
        else:
            members = (*members[:seat], members[seat] - 1, *members[seat + 1 :])
    # completed forests and rivers (H-SCORE-1)
    done: list[int] = []
    for local in comp.scoring_locals:
        r = txn.find(base + local)
        if r not in done and txn.get(r)[3] == 0:
            done.append(r)
    scores = state.scores
    log = state.log
    gold = False
    if done:
        sc = list(scores)
        mem = list(members)
        events = []
        for r in done:
            info = txn.get(r)
            figs = unpack_figs(info[2], n)
            winners = majority(figs)
            ntile = info[4].bit_count()
            if info[0] == SEG_FOREST:
                mush = info[5] >> 8
                has_gold = (info[5] & 0xFF) > 0
                points = 2 * ntile + 2 * mush  # H-FOREST-2, H-BONUS-2
                detail: tuple[tuple[str, int], ...] = (("tiles", ntile), ("mushrooms", mush))
                feature = "forest"
                if has_gold:
                    gold = True
            else:
                fish = sum(f for _, f in set(info[5]))
                points = ntile + fish  # H-RIVER-2
                detail = (("tiles", ntile), ("fish", fish))
                feature = "river"
                has_gold = False
            for w in winners:
                sc[w] += points
            events.append(
                ScoreEvent(state.turn, feature, _bits(info[4]), points, winners, tuple(figs), detail, seat, has_gold)
            )
            if info[2]:
                # H-RET-1: the gatherers / fishers there go home
                role = Role.GATHERER if info[0] == SEG_FOREST else Role.FISHER
                keep = []
                for f in figures:
                    if f.role is role and txn.find(f.node) == r:
                        mem[f.seat] += 1
                    else:
                        keep.append(f)
                figures = tuple(keep)
                txn.set_info(r, (info[0], info[1], 0, *info[3:]))
        scores = tuple(sc)
        members = tuple(mem)
        log = log + tuple(events)
    x, y = cell_xy(laid.cell)
    phase = state.phase
    turn = state.turn
    if gold and not bonus_tile and state.bonus_left > 0:
        phase = Phase.BONUS_DRAW  # H-GOLD-1 (one per turn: H-GOLD-4)
    elif state.land_left > 0:
        phase = Phase.DRAW
        seat = (seat + 1) % n
        turn += 1
    nxt = _mk(
        State,
        (
            prof,
            state.seats,
            phase,
            seat,
            turn,
            -1,
            state.bag,
            state.land_left,
            state.bonus_left,
            state.removed,
            scores,
            members,
            huts,
            figures,
            log,
            (Placement(tile_no, x, y, state.drawn, move.rot, base, state.to_move), state.tiles),
            tile_no + 1,
            laid.frontier,
            txn.commit(),
        ),
    )
    if phase is Phase.DRAW or phase is Phase.BONUS_DRAW:
        return nxt
    return _end_turn(nxt)


def _end_turn(state: State) -> State:
    """The next player's turn, or the final scoring after the last land tile (H-END-1)."""
    if state.land_left <= 0:
        events = final_events(state)
        sc = list(state.scores)
        for e in events:
            for w in e.winners:
                sc[w] += e.points
        return state._replace(phase=Phase.OVER, drawn=-1, scores=tuple(sc), log=state.log + tuple(events))
    return state._replace(
        phase=Phase.DRAW, drawn=-1, to_move=(state.to_move + 1) % len(state.seats), turn=state.turn + 1
    )


def final_events(state: State) -> list[ScoreEvent]:
    """The final scoring of ``state`` as it stands: every meadow with hunters (H-FINAL-2, H-BONUS-1,
    H-BONUS-3, H-BONUS-4) and every river system with huts (H-FINAL-1), complete or not."""
    n = len(state.seats)
    dsu = state.dsu
    meadows: dict[int, list[Figure]] = {}
    systems: dict[int, list[Figure]] = {}
    for f in state.figures:
        if f.role is Role.HUNTER:
            meadows.setdefault(find(dsu.nodes, f.node), []).append(f)
        elif f.role is Role.HUT:
            systems.setdefault(find(dsu.systems, record(dsu.nodes, f.node)[6]), []).append(f)
    out = []
    for r, figs in meadows.items():
        info = dsu.nodes[r >> CHUNK_BITS][r & CHUNK_MASK]
        a = info[3]
        deer, mammoths, tigers, aurochs, fire = (
            a & 0xFF,
            (a >> 8) & 0xFF,
            (a >> 16) & 0xFF,
            (a >> 24) & 0xFF,
            (a >> 32) & 0xFF,
        )
        eaten = 0 if fire else min(tigers, deer)
        points = 2 * (deer - eaten + mammoths + aurochs)
        counts = [0] * n
        cult = [0] * n
        for f in figs:
            counts[f.seat] += 1
            if f.cult:
                cult[f.seat] += 1
        winners = majority(cult) if any(cult) else majority(counts)
        detail = (
            ("deer", deer),
            ("mammoths", mammoths),
            ("aurochs", aurochs),
            ("tigers", tigers),
            ("eaten", eaten),
            ("fire", fire),
            ("cult", sum(cult)),
        )
        out.append(ScoreEvent(state.turn, "hunters", _bits(info[4]), points, winners, tuple(counts), detail))
    for r, figs in systems.items():
        sinfo = dsu.systems[r >> CHUNK_BITS][r & CHUNK_MASK]
        counts = [0] * n
        for f in figs:
            counts[f.seat] += 1
        out.append(
            ScoreEvent(
                state.turn, "huts", _bits(sinfo[3]), sinfo[1], majority(counts), tuple(counts), (("fish", sinfo[1]),)
            )
        )
    out.sort(key=lambda e: (e.feature, e.tiles))
    return out


def projected(state: State) -> list[int]:
    """Each seat's total if the game ended now: points so far plus the final scoring of huts and
    hunters as they stand (incomplete forests and rivers score nothing, H-END-1)."""
    sc = list(state.scores)
    if state.is_over:
        return sc
    for e in final_events(state):
        for w in e.winners:
            sc[w] += e.points
    return sc


__all__ = [
    "ROLES_OF_SEG",
    "Laid",
    "SpotOption",
    "apply",
    "check",
    "context",
    "final_events",
    "has_placement",
    "lay",
    "new_game",
    "placements",
    "projected",
    "spot_options",
]
