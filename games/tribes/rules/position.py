"""The position format: any state of a game as JSON (docs/position.md), read with full validation.

A position is what a group that starts the companion mid-game, a test, or a bug report writes down:
the players' lands, supplies, shells, bear teeth and track markers, the action row, the achievement
board with stones and arrows, the event stacks and what the game waits for. Reading checks that the
components add up (15 members per player, 50 landscape tiles, 20 shells, …) and names the field of
the first problem.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from datafile import Reader
from games.tribes.rules.errors import PositionError, ProfileError
from games.tribes.rules.hexgrid import Hex, is_connected
from games.tribes.rules.pending import (
    DrawPending,
    EventPending,
    EventRevealPending,
    Pending,
    PendingKind,
    PlacePending,
    RestorePending,
    RevealPending,
    pending_from_dict,
)
from games.tribes.rules.profile import BOARD_COLUMNS, TRACKS, BoxProfile, default_profile, resolve_profile
from games.tribes.rules.state import Arrow, BoardTile, Land, Player, RowTile, State, land_proxy

T = TypeVar("T")
BoardRow = tuple[BoardTile, ...]

POSITION_FORMAT = "tribes-position"
POSITION_VERSION = 1


def profile_spec(profile: BoxProfile) -> Any:
    """How a document refers to a profile: ``"default"`` for the shipped one, else the whole profile."""
    return "default" if profile == default_profile() else dict(profile.raw)


def state_to_dict(state: State) -> dict[str, Any]:
    """The position of ``state`` as plain JSON data."""
    prof = state.profile
    players = []
    for p in state.players:
        players.append(
            {
                "name": p.name,
                "colour": p.colour,
                "supply": p.supply,
                "shells": p.shells,
                "vp": p.vp,
                "tracks": dict(zip(TRACKS, p.tracks, strict=True)),
                "arrow": p.arrow,
                "land": [
                    {"hex": [h[0], h[1]], "resource": t.resource, "exhausted": t.exhausted, "members": t.members}
                    for h, t in sorted(p.land.items())
                ],
            }
        )
    return {
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "profile": profile_spec(prof),
        "players": players,
        "row": [
            {"event": t.tile, "shells": t.shells} if t.event else {"tile": t.tile, "shells": t.shells}
            for t in state.row
        ],
        "board": [[{"tile": bt.tile, "stones": list(bt.stones)} for bt in row] for row in state.board],
        "arrows": [
            {"from": state.board_tile(*a.lower).tile, "to": state.board_tile(*a.upper).tile, "owner": a.owner}
            for a in state.arrows
        ],
        "bag": dict(zip(prof.resources, state.bag, strict=True)),
        "event_stacks": {str(e): state.stacks[e - 1] for e in (1, 2, 3)},
        "seen_events": sorted(state.seen_events),
        "done_events": list(state.done_events),
        "shell_supply": state.shell_supply,
        "to_move": state.to_move,
        "turn": state.turn,
        "turn_shells": state.turn_shells,
        "end_triggered": state.end_triggered,
        "pending": state.pending.to_dict(),
    }


class _PositionReader(Reader):
    """The common reader, raising :class:`PositionError`, with the kinds of value a position holds."""

    def __init__(self, source: str) -> None:
        super().__init__(source, PositionError)

    def field(self, node: Any, key: str, path: str, default: Any = ...) -> Any:
        """``node[key]`` of the object ``node`` at ``path``; missing is an error unless ``default``."""
        return self.get(self.obj(node, path), key, path, default)

    def hex(self, val: Any, path: str) -> Hex:
        """A hex ``[q, r]``."""
        if not (isinstance(val, list) and len(val) == 2 and all(type(v) is int for v in val)):
            raise self.fail(path, f"must be [q, r] integers, got {val!r}")
        return (val[0], val[1])

    def known(self, lookup: Callable[[Any], T], val: Any, path: str, what: str) -> T:
        """``lookup(val)`` (a profile's table), or "VAL is not WHAT of the profile"."""
        try:
            return lookup(val)
        except (KeyError, TypeError):
            raise self.fail(path, f"{val!r} is not {what} of the profile") from None


def state_from_dict(
    data: Any, profile: BoxProfile | None = None, source: str = "<position>", base: str | Path | None = None
) -> State:
    """Read and validate a position; raises :class:`PositionError` naming file, field and reason.
    ``base``: the folder of the file the document came from (a profile named by a relative path is
    read from there; None: the working directory).

    Each part is read by its own function, in the order of the document; the checks that tie parts
    together (stones against players, the bag against lands, shells against the box) follow them."""
    rd = _PositionReader(source)
    data, prof = _header(rd, data, profile, base)
    players = _players(rd, data, prof)
    row = _row(rd, data, prof)
    board = _board(rd, data, prof, players)
    arrows = _arrows(rd, data, board, players)
    pending = _pending(rd, data)
    bag = _bag(rd, data, prof, players, pending)
    seen, done = _events(rd, data, prof, row)
    stacks = _stacks(rd, data, prof, seen)
    turn_shells, shell_supply = _shells(rd, data, prof, players, row)
    n = len(players)
    if not 0 <= pending.seat < n:
        raise rd.fail("pending.seat", f"must be a seat from 0 to {n - 1}")
    _check_pending(rd, prof, pending, n)
    to_move = rd.integer(rd.get(data, "to_move", "", pending.seat), "to_move", 0, n - 1)
    _check_after_setup(rd, pending, players, row)
    return State(
        profile=prof,
        players=tuple(players),
        row=tuple(row),
        board=tuple(board),
        arrows=tuple(arrows),
        bag=tuple(bag),
        stacks=stacks,
        seen_events=seen,
        done_events=tuple(done),
        shell_supply=shell_supply,
        to_move=to_move,
        turn=rd.integer(rd.get(data, "turn", "", 0), "turn", 0),
        turn_shells=turn_shells,
        end_triggered=rd.boolean(rd.get(data, "end_triggered", "", False), "end_triggered"),
        pending=pending,
    )


def _header(
    rd: _PositionReader, data: Any, profile: BoxProfile | None, base: str | Path | None
) -> tuple[dict[str, Any], BoxProfile]:
    """The document as an object of the right format and version, and the box profile it is read with
    (``profile`` when given, else the one it names)."""
    if not isinstance(data, dict):
        raise rd.fail("(top level)", "must be a JSON object")
    if data.get("format") != POSITION_FORMAT:
        raise rd.fail("format", f"must be {POSITION_FORMAT!r}, got {data.get('format')!r}")
    rd.integer(rd.get(data, "version", ""), "version", POSITION_VERSION, POSITION_VERSION)
    if profile is not None:
        return data, profile
    try:
        return data, resolve_profile(data.get("profile", "default"), rd.source, base)
    except ProfileError as exc:
        raise rd.fail("profile", str(exc)) from None


def _players(rd: _PositionReader, data: dict[str, Any], prof: BoxProfile) -> list[Player]:
    raw = rd.list(rd.get(data, "players", ""), "players")
    if not 2 <= len(raw) <= 4:
        raise rd.fail("players", f"Tribes has 2 to 4 players, got {len(raw)}")
    names: set[str] = set()
    return [_player(rd, node, f"players[{i}]", prof, names) for i, node in enumerate(raw)]


def _player(rd: _PositionReader, node: Any, path: str, prof: BoxProfile, names: set[str]) -> Player:
    """One player; ``names`` are those of the players before (and gets this one's)."""
    rp = rd.obj(node, path)
    name = rd.text(rd.get(rp, "name", path), f"{path}.name")
    if name in names:
        raise rd.fail(f"{path}.name", f"two players are called {name!r}")
    names.add(name)
    colour = rd.text(rd.get(rp, "colour", path, "grey"), f"{path}.colour")
    land = _land(rd, rd.get(rp, "land", path), f"{path}.land", prof)
    supply = rd.integer(rd.get(rp, "supply", path), f"{path}.supply", 0)
    on_map = sum(t.members for t in land.values())
    if supply + on_map != prof.members_per_player:
        raise rd.fail(
            f"{path}.supply",
            f"{supply} in supply + {on_map} on the land must make {prof.members_per_player} members (R-COMP-1)",
        )
    tracks = _tracks(rd, rd.get(rp, "tracks", path, {}), f"{path}.tracks", prof)
    return Player(
        name=name,
        colour=colour,
        land=land_proxy(land),
        supply=supply,
        shells=rd.integer(rd.get(rp, "shells", path), f"{path}.shells", 0),
        vp=rd.integer(rd.get(rp, "vp", path), f"{path}.vp", 0),
        tracks=tracks,
        arrow=rd.boolean(rd.get(rp, "arrow", path, True), f"{path}.arrow"),
    )


def _land(rd: _PositionReader, node: Any, path: str, prof: BoxProfile) -> dict[Hex, Land]:
    land: dict[Hex, Land] = {}
    for j, rl in enumerate(rd.list(node, path)):
        lp = f"{path}[{j}]"
        tile = rd.obj(rl, lp)
        h = rd.hex(rd.get(tile, "hex", lp), f"{lp}.hex")
        if h in land:
            raise rd.fail(f"{lp}.hex", f"{list(h)} appears twice")
        res = rd.get(tile, "resource", lp)
        if res not in prof.resources:
            raise rd.fail(f"{lp}.resource", f"must be one of {', '.join(prof.resources)}, got {res!r}")
        land[h] = Land(
            res,
            rd.boolean(rd.get(tile, "exhausted", lp, False), f"{lp}.exhausted"),
            rd.integer(rd.get(tile, "members", lp, 0), f"{lp}.members", 0, prof.members_per_player),
        )
    if not is_connected(land):
        raise rd.fail(path, "is not one connected area (R-ACT-EXP-1)")
    return land


def _tracks(rd: _PositionReader, node: Any, path: str, prof: BoxProfile) -> tuple[int, int, int, int]:
    if not isinstance(node, dict) or set(node) - set(TRACKS):
        raise rd.fail(path, f"must be an object with keys from {', '.join(TRACKS)}")
    off, mov, exp, strength = (rd.integer(node.get(t, 0), f"{path}.{t}", 0, prof.track(t).top) for t in TRACKS)
    return (off, mov, exp, strength)


def _row(rd: _PositionReader, data: dict[str, Any], prof: BoxProfile) -> list[RowTile]:
    row = [_row_tile(rd, rt, f"row[{i}]", prof) for i, rt in enumerate(rd.list(rd.get(data, "row", ""), "row"))]
    actions = Counter(t.tile for t in row if not t.event)
    if row and sorted(actions.elements()) != sorted(t.id for t in prof.action_tiles):
        raise rd.fail("row", f"must hold each action tile once: {', '.join(t.id for t in prof.action_tiles)}")
    return row


def _row_tile(rd: _PositionReader, node: Any, path: str, prof: BoxProfile) -> RowTile:
    rt = rd.obj(node, path)
    shells = rd.integer(rd.get(rt, "shells", path, 0), f"{path}.shells", 0)
    if "event" in rt:
        ev = rt["event"]
        rd.known(prof.event, ev, f"{path}.event", "an event")
        return RowTile(ev, True, shells)
    tile = rd.get(rt, "tile", path)
    rd.known(prof.action_tile, tile, f"{path}.tile", "an action tile")
    return RowTile(tile, False, shells)


def _board(rd: _PositionReader, data: dict[str, Any], prof: BoxProfile, players: list[Player]) -> list[BoardRow]:
    raw = rd.list(rd.get(data, "board", ""), "board")
    if len(raw) != 3:
        raise rd.fail("board", "must have 3 rows (eras 1, 2, 3)")
    board: list[BoardRow] = []
    placed: set[str] = set()
    for e, node in enumerate(raw, start=1):
        rpath = f"board[{e - 1}]"
        rrow = rd.list(node, rpath)
        if len(rrow) != BOARD_COLUMNS:
            raise rd.fail(rpath, f"must have {BOARD_COLUMNS} positions")
        board.append(
            tuple(_board_tile(rd, rb, f"{rpath}[{c}]", e, prof, len(players), placed) for c, rb in enumerate(rrow))
        )
    stones_used = Counter(s for brow in board for bt in brow for s in bt.stones)
    for seat, k in stones_used.items():
        if k > prof.stones_per_player:
            raise rd.fail(
                "board",
                f"{players[seat].name} has {k} stones on the board; the box has {prof.stones_per_player} (R-COMP-1)",
            )
    return board


def _board_tile(
    rd: _PositionReader, node: Any, path: str, era: int, prof: BoxProfile, n: int, placed: set[str]
) -> BoardTile:
    """One position of the board (``placed``: the tiles before it, and gets this one)."""
    rb = rd.obj(node, path)
    tile = rb.get("tile")
    stones = tuple(
        rd.integer(s, f"{path}.stones", 0, n - 1) for s in rd.list(rd.get(rb, "stones", path, []), f"{path}.stones")
    )
    if tile is not None:
        ach = rd.known(prof.achievement, tile, f"{path}.tile", "an achievement")
        if ach.era != era:
            raise rd.fail(f"{path}.tile", f"{tile!r} is an era-{ach.era} tile, not era {era}")
        if tile in placed:
            raise rd.fail(f"{path}.tile", f"{tile!r} lies on the board twice")
        placed.add(tile)
        if len(stones) > len(ach.slots):
            raise rd.fail(f"{path}.stones", f"{tile!r} has only {len(ach.slots)} slots (R-ACH-5)")
    elif stones:
        raise rd.fail(f"{path}.stones", "a face-down tile holds no stones")
    if len(set(stones)) != len(stones):
        raise rd.fail(f"{path}.stones", "one player has two stones on one tile (R-ACH-9)")
    return BoardTile(tile, stones)


def _arrows(rd: _PositionReader, data: dict[str, Any], board: list[BoardRow], players: list[Player]) -> list[Arrow]:
    face_up = {bt.tile: (e, c) for e, brow in enumerate(board, 1) for c, bt in enumerate(brow) if bt.tile is not None}
    arrows = []
    for i, node in enumerate(rd.list(rd.get(data, "arrows", "", []), "arrows")):
        path = f"arrows[{i}]"
        ra = rd.obj(node, path)
        ends = []
        for key in ("from", "to"):
            tid = rd.get(ra, key, path)
            where = face_up.get(tid) if isinstance(tid, str) else None
            if where is None:
                raise rd.fail(f"{path}.{key}", f"{tid!r} is not face up on the board")
            ends.append(where)
        lower, upper = ends
        if upper[0] != lower[0] + 1 or abs(upper[1] - lower[1]) != 1:
            raise rd.fail(path, "an arrow joins diagonal tiles of consecutive eras (R-ARR-1)")
        owner = rd.integer(rd.get(ra, "owner", path), f"{path}.owner", 0, len(players) - 1)
        if players[owner].arrow:
            raise rd.fail(f"{path}.owner", f"{players[owner].name} still holds their arrow token (arrow: true)")
        arrows.append(Arrow(lower, upper, owner))
    return arrows


def _pending(rd: _PositionReader, data: dict[str, Any]) -> Pending:
    try:
        return pending_from_dict(rd.get(data, "pending", "", {"kind": "choose", "seat": 0}))
    except ValueError as exc:
        raise rd.fail("pending", str(exc)) from None


def _bag(
    rd: _PositionReader, data: dict[str, Any], prof: BoxProfile, players: list[Player], pending: Pending
) -> list[int]:
    """The tiles in the bag: the box's less those on the lands and those drawn but not yet placed; a
    ``bag`` the document gives must say the same."""
    on_lands = Counter(t.resource for p in players for t in p.land.values())
    on_lands.update(getattr(pending, "drawn", ()))
    bag = []
    for r in prof.resources:
        left = prof.tiles_per_resource - on_lands[r]
        if left < 0:
            raise rd.fail(
                "players",
                f"the lands (and drawn tiles) hold {on_lands[r]} {r} tiles; the box has {prof.tiles_per_resource}",
            )
        bag.append(left)
    expected = dict(zip(prof.resources, bag, strict=True))
    if "bag" in data:
        given = data["bag"]
        if not isinstance(given, dict) or {k: given.get(k) for k in prof.resources} != expected:
            raise rd.fail("bag", f"must match the tiles not on any land: {expected}")
    return bag


def _events(
    rd: _PositionReader, data: dict[str, Any], prof: BoxProfile, row: list[RowTile]
) -> tuple[frozenset[str], list[str]]:
    """The events seen (listed, in the row or done) and those done, in order."""
    seen = rd.list(rd.get(data, "seen_events", "", []), "seen_events")
    done = rd.list(rd.get(data, "done_events", "", []), "done_events")
    for key, ids in (("seen_events", seen), ("done_events", done)):
        for i, eid in enumerate(ids):
            rd.known(prof.event, eid, f"{key}[{i}]", "an event")
    if len(set(done)) != len(done):
        raise rd.fail("done_events", "lists an event twice")
    for t in row:
        if t.event and t.tile in done:
            raise rd.fail("row", f"event {t.tile!r} is in the row and also done")
    return frozenset(seen) | {t.tile for t in row if t.event} | frozenset(done), done


def _stacks(rd: _PositionReader, data: dict[str, Any], prof: BoxProfile, seen: frozenset[str]) -> tuple[int, int, int]:
    """The face-down event stacks: what the document says (at most the unseen events of the era), or
    all the unseen events of the era."""
    given = rd.get(data, "event_stacks", "", None)
    sizes = []
    for e in (1, 2, 3):
        era_events = prof.events_of_era(e)
        left = len(era_events) - sum(1 for x in era_events if x.id in seen)
        if given is not None:
            left = rd.integer(rd.field(given, str(e), "event_stacks"), f"event_stacks.{e}", 0, left)
        sizes.append(left)
    return (sizes[0], sizes[1], sizes[2])


def _shells(
    rd: _PositionReader, data: dict[str, Any], prof: BoxProfile, players: list[Player], row: list[RowTile]
) -> tuple[int, int]:
    """``(turn_shells, shell_supply)``: the supply is what the players, the row and the turn do not
    hold (R-COMP-5); a ``shell_supply`` the document gives must say the same."""
    shells_here = sum(p.shells for p in players) + sum(t.shells for t in row)
    turn_shells = rd.integer(rd.get(data, "turn_shells", "", 0), "turn_shells", 0)
    supply = prof.shells_total - shells_here - turn_shells
    given = rd.integer(rd.get(data, "shell_supply", "", supply), "shell_supply", 0)
    if given != supply:
        raise rd.fail(
            "shell_supply",
            f"players and row hold {shells_here + turn_shells} shells, so the supply is "
            f"{supply} of {prof.shells_total} (R-COMP-5), not {given}",
        )
    return turn_shells, supply


def _check_after_setup(rd: _PositionReader, pending: Pending, players: list[Player], row: list[RowTile]) -> None:
    """After setup the row holds the action tiles and every player has land."""
    if pending.kind == PendingKind.SETUP:
        return
    if not row:
        raise rd.fail("row", "is empty: after setup the row holds the action tiles")
    for i, p in enumerate(players):
        if not p.land:
            raise rd.fail(f"players[{i}].land", "is empty: after setup every player has three tiles")


def _check_pending(rd: _PositionReader, prof: BoxProfile, pend: Pending, n: int) -> None:
    """The fields of a pending step must refer to things that exist."""
    if isinstance(pend, DrawPending | RestorePending) and pend.count < 1:
        raise rd.fail("pending.count", "must be at least 1")
    if isinstance(pend, PlacePending) and (not pend.drawn or any(r not in prof.resources for r in pend.drawn)):
        raise rd.fail("pending.drawn", f"must list drawn resources out of {', '.join(prof.resources)}")
    if isinstance(pend, RevealPending) and (
        pend.era not in (2, 3) or not 0 <= pend.col < BOARD_COLUMNS or pend.then_event not in (0, 1, 2)
    ):
        raise rd.fail("pending", "a reveal needs era 2 or 3, col 0-3 and then_event 0, 1 or 2")
    if isinstance(pend, EventRevealPending) and pend.era not in (1, 2, 3):
        raise rd.fail("pending.era", "must be 1, 2 or 3")
    if isinstance(pend, EventPending):
        try:
            event = prof.event(pend.event)
        except KeyError:
            raise rd.fail("pending.event", f"{pend.event!r} is not an event of the profile") from None
        if not 0 <= pend.chooser < n:
            raise rd.fail("pending.chooser", f"must be a seat from 0 to {n - 1}")
        checks = [("pending.path", pend.seat, pend.path, True)]
        checks += [(f"pending.queue[{i}]", s, p, False) for i, (s, p) in enumerate(pend.queue)]
        for where, seat, path, asks in checks:
            if not 0 <= seat < n or not _valid_path(event, path, asks):
                raise rd.fail(where, f"does not point at an effect of event {pend.event!r} that fits here")


def _valid_path(event: Any, path: tuple[int, ...], asks: bool) -> bool:
    """True when ``path`` names an effect of ``event`` (one that asks a player, if ``asks``)."""
    try:
        if len(path) not in (2, 4) or any(i < 0 for i in path):
            return False
        eff = event.entries[path[0]].effects[path[1]]
        if len(path) == 4:
            eff = eff.options[path[2]][path[3]]
    except (IndexError, TypeError):
        return False
    return not asks or eff.kind in ("choose", "members", "exhaust", "restore")
