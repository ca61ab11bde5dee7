"""The position format: any state of a game as JSON (docs/position.md), read with full validation.

A position is what a group that starts the companion mid-game, a test, or a bug report writes down:
the players' lands, supplies, shells, bear teeth and track markers, the action row, the achievement
board with stones and arrows, the event stacks and what the game waits for. Reading checks that the
components add up (15 members per player, 50 landscape tiles, 20 shells, …) and names the field of
the first problem.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.tribes.rules.errors import PositionError, ProfileError
from games.tribes.rules.hexgrid import Hex, is_connected
from games.tribes.rules.pending import (
    DrawPending,
    EventPending,
    EventRevealPending,
    Pending,
    PlacePending,
    RestorePending,
    RevealPending,
    pending_from_dict,
)
from games.tribes.rules.profile import BOARD_COLUMNS, TRACKS, BoxProfile, default_profile, resolve_profile
from games.tribes.rules.state import Arrow, BoardTile, Land, Player, RowTile, State, land_proxy

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


class _P:
    """Field access with errors that name the file and field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, field: str, reason: str) -> PositionError:
        return PositionError(self.source, field, reason)

    def get(self, obj: Any, key: str, path: str, default: Any = ...) -> Any:
        if not isinstance(obj, dict):
            raise self.fail(path or "(top level)", "must be an object")
        if key not in obj:
            if default is ...:
                raise self.fail(f"{path}.{key}" if path else key, "is missing")
            return default
        return obj[key]

    def int(self, val: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(val, bool) or not isinstance(val, int):
            raise self.fail(path, f"must be an integer, got {val!r}")
        if lo is not None and val < lo:
            raise self.fail(path, f"must be >= {lo}, got {val}")
        if hi is not None and val > hi:
            raise self.fail(path, f"must be <= {hi}, got {val}")
        return val

    def bool(self, val: Any, path: str) -> bool:
        if not isinstance(val, bool):
            raise self.fail(path, f"must be true or false, got {val!r}")
        return val

    def list(self, val: Any, path: str) -> list[Any]:
        if not isinstance(val, list):
            raise self.fail(path, f"must be a list, got {type(val).__name__}")
        return val

    def str(self, val: Any, path: str) -> str:
        if not isinstance(val, str) or not val:
            raise self.fail(path, f"must be a non-empty text, got {val!r}")
        return val


def state_from_dict(data: Any, profile: BoxProfile | None = None, source: str = "<position>") -> State:
    """Read and validate a position; raises :class:`PositionError` naming file, field and reason."""
    rd = _P(source)
    if not isinstance(data, dict):
        raise rd.fail("(top level)", "must be a JSON object")
    if data.get("format") != POSITION_FORMAT:
        raise rd.fail("format", f"must be {POSITION_FORMAT!r}, got {data.get('format')!r}")
    rd.int(rd.get(data, "version", ""), "version", POSITION_VERSION, POSITION_VERSION)
    if profile is None:
        try:
            profile = resolve_profile(data.get("profile", "default"), source)
        except ProfileError as exc:
            raise rd.fail("profile", str(exc)) from None
    prof = profile

    raw_players = rd.list(rd.get(data, "players", ""), "players")
    if not 2 <= len(raw_players) <= 4:
        raise rd.fail("players", f"Tribes has 2 to 4 players, got {len(raw_players)}")
    n = len(raw_players)
    players = []
    names: set[str] = set()
    for i, rp in enumerate(raw_players):
        path = f"players[{i}]"
        name = rd.str(rd.get(rp, "name", path), f"{path}.name")
        if name in names:
            raise rd.fail(f"{path}.name", f"two players are called {name!r}")
        names.add(name)
        colour = rd.str(rd.get(rp, "colour", path, "grey"), f"{path}.colour")
        land: dict[Hex, Land] = {}
        for j, rl in enumerate(rd.list(rd.get(rp, "land", path), f"{path}.land")):
            lp = f"{path}.land[{j}]"
            hx = rd.get(rl, "hex", lp)
            if not (
                isinstance(hx, list)
                and len(hx) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in hx)
            ):
                raise rd.fail(f"{lp}.hex", f"must be [q, r] integers, got {hx!r}")
            h = (hx[0], hx[1])
            if h in land:
                raise rd.fail(f"{lp}.hex", f"{hx} appears twice")
            res = rd.get(rl, "resource", lp)
            if res not in prof.resources:
                raise rd.fail(f"{lp}.resource", f"must be one of {', '.join(prof.resources)}, got {res!r}")
            land[h] = Land(
                res,
                rd.bool(rd.get(rl, "exhausted", lp, False), f"{lp}.exhausted"),
                rd.int(rd.get(rl, "members", lp, 0), f"{lp}.members", 0, prof.members_per_player),
            )
        if not is_connected(land):
            raise rd.fail(f"{path}.land", "is not one connected area (R-ACT-EXP-1)")
        supply = rd.int(rd.get(rp, "supply", path), f"{path}.supply", 0)
        on_map = sum(t.members for t in land.values())
        if supply + on_map != prof.members_per_player:
            raise rd.fail(
                f"{path}.supply",
                f"{supply} in supply + {on_map} on the land must make {prof.members_per_player} members (R-COMP-1)",
            )
        tr = rd.get(rp, "tracks", path, {})
        if not isinstance(tr, dict) or set(tr) - set(TRACKS):
            raise rd.fail(f"{path}.tracks", f"must be an object with keys from {', '.join(TRACKS)}")
        tracks = tuple(rd.int(tr.get(t, 0), f"{path}.tracks.{t}", 0, prof.track(t).top) for t in TRACKS)
        players.append(
            Player(
                name=name,
                colour=colour,
                land=land_proxy(land),
                supply=supply,
                shells=rd.int(rd.get(rp, "shells", path), f"{path}.shells", 0),
                vp=rd.int(rd.get(rp, "vp", path), f"{path}.vp", 0),
                tracks=tracks,  # type: ignore[arg-type]
                arrow=rd.bool(rd.get(rp, "arrow", path, True), f"{path}.arrow"),
            )
        )

    row = []
    for i, rt in enumerate(rd.list(rd.get(data, "row", ""), "row")):
        path = f"row[{i}]"
        shells = rd.int(rd.get(rt, "shells", path, 0), f"{path}.shells", 0)
        if isinstance(rt, dict) and "event" in rt:
            ev = rd.get(rt, "event", path)
            try:
                prof.event(ev)
            except KeyError:
                raise rd.fail(f"{path}.event", f"{ev!r} is not an event of the profile") from None
            row.append(RowTile(ev, True, shells))
        else:
            tile = rd.get(rt, "tile", path)
            try:
                prof.action_tile(tile)
            except KeyError:
                raise rd.fail(f"{path}.tile", f"{tile!r} is not an action tile of the profile") from None
            row.append(RowTile(tile, False, shells))
    actions = Counter(t.tile for t in row if not t.event)
    if row and sorted(actions.elements()) != sorted(t.id for t in prof.action_tiles):
        raise rd.fail("row", f"must hold each action tile once: {', '.join(t.id for t in prof.action_tiles)}")

    board_raw = rd.list(rd.get(data, "board", ""), "board")
    if len(board_raw) != 3:
        raise rd.fail("board", "must have 3 rows (eras 1, 2, 3)")
    board = []
    placed: set[str] = set()
    stones_used = Counter[int]()
    for e, rrow in enumerate(board_raw, start=1):
        rrow = rd.list(rrow, f"board[{e - 1}]")
        if len(rrow) != BOARD_COLUMNS:
            raise rd.fail(f"board[{e - 1}]", f"must have {BOARD_COLUMNS} positions")
        out_row = []
        for c, rb in enumerate(rrow):
            path = f"board[{e - 1}][{c}]"
            tile = rd.get(rb, "tile", path, None)
            stones = tuple(
                rd.int(s, f"{path}.stones", 0, n - 1) for s in rd.list(rd.get(rb, "stones", path, []), f"{path}.stones")
            )
            if tile is not None:
                try:
                    ach = prof.achievement(tile)
                except KeyError:
                    raise rd.fail(f"{path}.tile", f"{tile!r} is not an achievement of the profile") from None
                if ach.era != e:
                    raise rd.fail(f"{path}.tile", f"{tile!r} is an era-{ach.era} tile, not era {e}")
                if tile in placed:
                    raise rd.fail(f"{path}.tile", f"{tile!r} lies on the board twice")
                placed.add(tile)
                if len(stones) > len(ach.slots):
                    raise rd.fail(f"{path}.stones", f"{tile!r} has only {len(ach.slots)} slots (R-ACH-5)")
            elif stones:
                raise rd.fail(f"{path}.stones", "a face-down tile holds no stones")
            if len(set(stones)) != len(stones):
                raise rd.fail(f"{path}.stones", "one player has two stones on one tile (R-ACH-9)")
            stones_used.update(stones)
            out_row.append(BoardTile(tile, stones))
        board.append(tuple(out_row))
    for seat, k in stones_used.items():
        if k > prof.stones_per_player:
            raise rd.fail(
                "board",
                f"{players[seat].name} has {k} stones on the board; the box has {prof.stones_per_player} (R-COMP-1)",
            )

    arrows = []
    for i, ra in enumerate(rd.list(rd.get(data, "arrows", "", []), "arrows")):
        path = f"arrows[{i}]"
        pos = []
        for key in ("from", "to"):
            tid = rd.get(ra, key, path)
            where = next(((e, c) for e, r in enumerate(board, 1) for c, bt in enumerate(r) if bt.tile == tid), None)
            if where is None:
                raise rd.fail(f"{path}.{key}", f"{tid!r} is not face up on the board")
            pos.append(where)
        lower, upper = pos
        if upper[0] != lower[0] + 1 or abs(upper[1] - lower[1]) != 1:
            raise rd.fail(path, "an arrow joins diagonal tiles of consecutive eras (R-ARR-1)")
        owner = rd.int(rd.get(ra, "owner", path), f"{path}.owner", 0, n - 1)
        if players[owner].arrow:
            raise rd.fail(f"{path}.owner", f"{players[owner].name} still holds their arrow token (arrow: true)")
        arrows.append(Arrow(lower, upper, owner))

    try:
        pending = pending_from_dict(rd.get(data, "pending", "", {"kind": "choose", "seat": 0}))
    except ValueError as exc:
        raise rd.fail("pending", str(exc)) from None
    on_lands = Counter(t.resource for p in players for t in p.land.values())
    on_lands.update(getattr(pending, "drawn", ()))  # drawn and not yet placed
    bag = []
    for r in prof.resources:
        left = prof.tiles_per_resource - on_lands[r]
        if left < 0:
            raise rd.fail(
                "players",
                f"the lands (and drawn tiles) hold {on_lands[r]} {r} tiles; the box has {prof.tiles_per_resource}",
            )
        bag.append(left)
    if "bag" in data:
        given = rd.get(data, "bag", "")
        if not isinstance(given, dict) or {k: given.get(k) for k in prof.resources} != dict(
            zip(prof.resources, bag, strict=True)
        ):
            raise rd.fail("bag", f"must match the tiles not on any land: {dict(zip(prof.resources, bag, strict=True))}")

    seen = rd.list(rd.get(data, "seen_events", "", []), "seen_events")
    done = rd.list(rd.get(data, "done_events", "", []), "done_events")
    for key, ids in (("seen_events", seen), ("done_events", done)):
        for i, eid in enumerate(ids):
            try:
                prof.event(eid)
            except (KeyError, TypeError):
                raise rd.fail(f"{key}[{i}]", f"{eid!r} is not an event of the profile") from None
    seen_set = frozenset(seen) | {t.tile for t in row if t.event} | frozenset(done)
    if len(set(done)) != len(done):
        raise rd.fail("done_events", "lists an event twice")
    for t in row:
        if t.event and t.tile in done:
            raise rd.fail("row", f"event {t.tile!r} is in the row and also done")
    stacks_raw = rd.get(data, "event_stacks", "", None)
    stacks = []
    for e in (1, 2, 3):
        era_events = prof.events_of_era(e)
        left = len(era_events) - sum(1 for x in era_events if x.id in seen_set)
        if stacks_raw is None:
            stacks.append(left)
        else:
            val = rd.int(rd.get(stacks_raw, str(e), "event_stacks"), f"event_stacks.{e}", 0, left)
            stacks.append(val)

    shells_here = sum(p.shells for p in players) + sum(t.shells for t in row)
    turn_shells = rd.int(rd.get(data, "turn_shells", "", 0), "turn_shells", 0)
    supply_default = prof.shells_total - shells_here - turn_shells
    shell_supply = rd.int(rd.get(data, "shell_supply", "", supply_default), "shell_supply", 0)
    if shell_supply != supply_default:
        raise rd.fail(
            "shell_supply",
            f"players and row hold {shells_here + turn_shells} shells, so the supply is "
            f"{supply_default} of {prof.shells_total} (R-COMP-5), not {shell_supply}",
        )

    if not 0 <= pending.seat < n:
        raise rd.fail("pending.seat", f"must be a seat from 0 to {n - 1}")
    _check_pending(rd, prof, pending, n)
    to_move = rd.int(rd.get(data, "to_move", "", pending.seat), "to_move", 0, n - 1)
    if pending.kind != "setup" and not row:
        raise rd.fail("row", "is empty: after setup the row holds the action tiles")
    for p_i, p in enumerate(players):
        if pending.kind not in ("setup",) and not p.land:
            raise rd.fail(f"players[{p_i}].land", "is empty: after setup every player has three tiles")

    return State(
        profile=prof,
        players=tuple(players),
        row=tuple(row),
        board=tuple(board),
        arrows=tuple(arrows),
        bag=tuple(bag),
        stacks=(stacks[0], stacks[1], stacks[2]),
        seen_events=seen_set,
        done_events=tuple(done),
        shell_supply=shell_supply,
        to_move=to_move,
        turn=rd.int(rd.get(data, "turn", "", 0), "turn", 0),
        turn_shells=turn_shells,
        end_triggered=rd.bool(rd.get(data, "end_triggered", "", False), "end_triggered"),
        pending=pending,
    )


def _check_pending(rd: _P, prof: BoxProfile, pend: Pending, n: int) -> None:
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
