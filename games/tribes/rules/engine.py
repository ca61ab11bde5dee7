"""The rules of Tribes: Dawn of Humanity as a pure function ``apply(state, move) -> state``.

:func:`new_game` builds the state before setup; :func:`apply` checks a move against every rule clause
of ``tribes-rules.md`` and returns the next state, or raises :class:`IllegalMoveError` naming the
clause. Nothing here draws at random: chance outcomes (setup, bag draws, reveals) are moves like any
other, reported by whoever watches the table (see :mod:`rules.chance` for simulations).

Choices the rulebook leaves open are documented in docs/rules-notes.md; each is marked here with
"engine choice".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from games.tribes.rules.checks import (
    Claim,
    Reason,
    claim_check,
    condition_holds,
    delta_reason,
    event_applies,
    intensity,
    movement_cost,
    plural,
    slot_reason,
    why,
)
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.hexgrid import START_TRIANGLE, Hex, format_hex, is_connected
from games.tribes.rules.moves import (
    Achieve,
    Draw,
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
    Reveal,
    RevealEvent,
    Setup,
    TakeEvent,
)
from games.tribes.rules.pending import (
    ChoosePending,
    DrawPending,
    EffectPath,
    EventPending,
    EventRevealPending,
    FirstMemberPending,
    GameOverPending,
    PlacePending,
    RestorePending,
    RevealPending,
    SetupPending,
)
from games.tribes.rules.profile import BOARD_COLUMNS, TRACKS, BoxProfile, Effect, Event, default_profile
from games.tribes.rules.state import Arrow, BoardTile, Land, Player, RowTile, State, land_proxy

SEAT_COMPENSATION: dict[int, tuple[int, ...]] = {2: (0, 1), 3: (0, 0, 1), 4: (0, 0, 1, 1)}
"""R-SET-9: bear teeth (VP) each seat gets at setup, by number of players."""

END_TRIGGER: dict[int, int] = {2: 2, 3: 3, 4: 4}
"""R-END-1: era-3 events to carry out before the game ends, by number of players."""

PENDING_CLAUSE = {
    "setup": "R-SET-5",
    "first_member": "R-SET-10",
    "choose": "R-TURN-1",
    "draw": "R-ACT-EXP-1",
    "place": "R-ACT-EXP-1",
    "restore": "R-ACT-EXP-3",
    "reveal": "R-ACH-8",
    "event_reveal": "R-ACH-6",
    "event": "R-EVT-1",
    "game_over": "R-END-2",
}


def new_game(players: Sequence[str | tuple[str, str]], profile: BoxProfile | None = None) -> State:
    """The state before setup for players listed clockwise from the start player (R-SET-8).

    Each player is a name or a ``(name, colour)`` pair. Seat compensation (R-SET-9) is paid here.
    The next input is the :class:`~rules.moves.Setup` outcome.
    """
    prof = profile or default_profile()
    n = len(players)
    if n not in SEAT_COMPENSATION:
        raise ValueError(f"Tribes is played by 2 to 4 players, got {n}")
    default_colours = ("red", "blue", "yellow", "black")
    ps = []
    names: set[str] = set()
    for i, entry in enumerate(players):
        name, colour = (entry, default_colours[i]) if isinstance(entry, str) else entry
        if not name or not isinstance(name, str):
            raise ValueError(f"player {i + 1} has no name")
        if name in names:
            raise ValueError(f"two players are called {name!r}")
        names.add(name)
        ps.append(
            Player(
                name=name,
                colour=colour,
                land=land_proxy({}),
                supply=prof.members_per_player,
                shells=prof.shells_per_player,
                vp=SEAT_COMPENSATION[n][i],
            )
        )
    return State(
        profile=prof,
        players=tuple(ps),
        row=(),
        board=tuple(tuple(BoardTile(None) for _ in range(BOARD_COLUMNS)) for _ in range(3)),
        arrows=(),
        bag=tuple(prof.tiles_per_resource for _ in prof.resources),
        stacks=tuple(len(prof.events_of_era(e)) for e in (1, 2, 3)),  # type: ignore[arg-type]
        seen_events=frozenset(),
        done_events=(),
        shell_supply=prof.shells_total - n * prof.shells_per_player,
        to_move=0,
        turn=0,
        turn_shells=0,
        end_triggered=False,
        pending=SetupPending(0),
    )


def describe_context(state: State) -> str:
    """Short words on where the game stands, for error messages."""
    pend = state.pending
    who = state.players[pend.seat].name if state.players else "?"
    what = {
        "setup": "waiting for the setup outcome",
        "first_member": f"{who} places their first member",
        "choose": f"{who} to choose a tile, round {state.round}",
        "draw": f"waiting for the {plural(getattr(pend, 'count', 0), 'tile')} {who} draws",
        "place": f"{who} places drawn tiles",
        "restore": f"{who} may turn exhausted tiles back",
        "reveal": "waiting for the achievement revealed above",
        "event_reveal": "waiting for the event revealed",
        "event": f"{who} answers event {getattr(pend, 'event', '')!r}",
        "game_over": "the game is over",
    }[pend.kind]
    return what


def _illegal(state: State, move: Move, reason: Reason) -> IllegalMoveError:
    return IllegalMoveError(reason.clause, reason.text, str(move), describe_context(state), reason.key, reason.arg_map)


def apply(state: State, move: Move) -> State:
    """The state after ``move``; raises :class:`IllegalMoveError` (a ValueError) if it breaks a rule."""
    handler: Callable[[State, Any], State] | None = _HANDLERS.get((state.pending.kind, type(move)))
    if handler is None:
        raise _illegal(state, move, _wrong_kind(state, move))
    return handler(state, move)


def check(state: State, move: Move) -> Reason | None:
    """None if ``move`` is legal now, else the reason it is not."""
    try:
        apply(state, move)
    except IllegalMoveError as exc:
        return why(exc.clause, exc.reason_key, exc.reason, **exc.reason_args)
    return None


def _wrong_kind(state: State, move: Move) -> Reason:
    kind = state.pending.kind
    clause = PENDING_CLAUSE[kind]
    expect = {
        "setup": "a setup outcome ('setup row=… era1=… lands=…')",
        "first_member": "'start q,r'",
        "choose": "a tile choice ('N:off|mov|exp|ach|evt …')",
        "draw": "the drawn tiles ('draw …')",
        "place": "the placement of the drawn tiles ('place res@q,r …')",
        "restore": "'restore q,r …'",
        "reveal": "the revealed achievement ('reveal <id>')",
        "event_reveal": "the revealed event ('event <id>')",
        "game_over": "nothing: the game is over",
    }.get(kind)
    key = f"waits_{kind}"
    if expect is None:
        expect, key = _event_expect(state)
    return why(clause, key, f"the game waits for {expect}")


def _event_expect(state: State) -> tuple[str, str]:
    pend = state.pending
    assert isinstance(pend, EventPending)
    eff = effect_at(state.profile.event(pend.event), pend.path)
    kind = "lose" if eff.kind == "members" and eff.amount < 0 else "gain" if eff.kind == "members" else eff.kind
    text = {
        "choose": "'pick N'",
        "lose": "'lose …'",
        "gain": "'gain …'",
        "exhaust": "'exhaust …'",
        "restore": "'restore …'",
    }
    if kind not in text:
        return "an answer", "waits_event_answer"
    return text[kind], f"waits_event_{kind}"


# --- small state builders -----------------------------------------------------------------------
def _set_player(state: State, seat: int, player: Player, **changes: object) -> State:
    players = list(state.players)
    players[seat] = player
    return state.replace(players=tuple(players), **changes)


def _player(p: Player, **changes: object) -> Player:
    data = {
        "name": p.name,
        "colour": p.colour,
        "land": p.land,
        "supply": p.supply,
        "shells": p.shells,
        "vp": p.vp,
        "tracks": p.tracks,
        "arrow": p.arrow,
    }
    data.update(changes)
    return Player(**data)  # type: ignore[arg-type]


def _members_changed(p: Player, changes: dict[Hex, int]) -> dict[Hex, Land]:
    land = dict(p.land)
    for h, n in changes.items():
        t = land[h]
        land[h] = Land(t.resource, t.exhausted, t.members + n)
    return land


def _flip(p: Player, hexes: Sequence[Hex], exhausted: bool) -> dict[Hex, Land]:
    land = dict(p.land)
    for h in hexes:
        t = land[h]
        land[h] = Land(t.resource, exhausted, t.members)
    return land


def _advance(state: State, p: Player, track: str, steps: int) -> Player:
    idx = TRACKS.index(track)
    top = state.profile.tracks[idx].top
    tracks = list(p.tracks)
    tracks[idx] = max(0, min(top, tracks[idx] + steps))  # engine choice: markers stop at both ends
    return _player(p, tracks=tuple(tracks))


def _end_turn(state: State, seat: int = -1, player: Player | None = None, **changes: object) -> State:
    """Finish a turn in one step: put ``player`` at ``seat`` and apply ``changes``, collect the shells of
    the taken tile (R-TURN-3), then pass the turn, or end the game (R-END-2)."""
    owner = state.to_move
    collect = int(changes.pop("turn_shells", state.turn_shells))  # type: ignore[call-overload]
    players = state.players
    if player is not None or collect:
        plist = list(players)
        if player is not None:
            plist[seat] = player
        if collect:
            q = plist[owner]
            plist[owner] = _player(q, shells=q.shells + collect)
        players = tuple(plist)
    if changes.get("end_triggered", state.end_triggered) and owner == state.n - 1:
        return state.replace(players=players, turn_shells=0, pending=GameOverPending(owner), **changes)
    nxt = (owner + 1) % state.n
    return state.replace(
        players=players, turn_shells=0, to_move=nxt, turn=state.turn + 1, pending=ChoosePending(nxt), **changes
    )


# --- setup ---------------------------------------------------------------------------------------
def _setup(state: State, move: Setup) -> State:
    prof = state.profile

    def bad(clause: str, key: str, text: str, **args: Any) -> IllegalMoveError:
        return _illegal(state, move, why(clause, key, text, **args))

    tiles = sorted(t.id for t in prof.action_tiles)
    if sorted(move.row) != tiles:
        ids = ", ".join(tiles)
        raise bad("R-SET-5", "setup_row", f"the row must hold each action tile once: {ids}", ids=ids)
    era1 = {a.id for a in prof.achievements_of_era(1)}
    if len(move.era1) != BOARD_COLUMNS or len(set(move.era1)) != BOARD_COLUMNS or not set(move.era1) <= era1:
        ids = ", ".join(sorted(era1))
        text = f"era 1 needs {BOARD_COLUMNS} different era-1 tiles out of {ids}"
        raise bad("R-SET-6", "setup_era1", text, n=BOARD_COLUMNS, ids=ids)
    if len(move.lands) != state.n:
        got = len(move.lands)
        text = f"each of the {state.n} players needs starting tiles, got {got}"
        raise bad("R-SET-3", "setup_lands", text, n=state.n, got=got)
    used: Counter[str] = Counter()
    for i, trio in enumerate(move.lands):
        for r in trio:
            if r not in prof.resources:
                ids = ", ".join(prof.resources)
                raise bad("R-COMP-4", "not_resource", f"{r!r} is not a resource: {ids}", value=repr(r), ids=ids)
        if len(set(trio)) != 3:
            who, trio_text = state.players[i].name, "/".join(trio)
            text = f"{who} must start with 3 different resources, got {trio_text}"
            raise bad("R-SET-4", "setup_three", text, player=who, got=trio_text)
        used.update(trio)
    for r, k in used.items():
        if k > prof.tiles_per_resource:
            n = prof.tiles_per_resource
            raise bad("R-SET-2", "setup_bag", f"the bag holds only {n} {r} tiles, the setup uses {k}", n=n, res=r, k=k)
    players = []
    for p, trio in zip(state.players, move.lands, strict=True):
        land = {h: Land(r) for h, r in zip(START_TRIANGLE, trio, strict=True)}
        players.append(_player(p, land=land_proxy(land)))
    bag = tuple(state.bag[i] - used[r] for i, r in enumerate(prof.resources))
    board = list(state.board)
    board[0] = tuple(BoardTile(a) for a in move.era1)
    return state.replace(
        players=tuple(players),
        row=tuple(RowTile(t) for t in move.row),
        board=tuple(board),
        bag=bag,
        pending=FirstMemberPending(0),
    )


def _place_first(state: State, move: PlaceFirst) -> State:
    seat = state.pending.seat
    p = state.players[seat]
    if move.hex not in p.land:
        hx = format_hex(move.hex)
        raise _illegal(state, move, why("R-SET-10", "first_not_yours", f"{hx} is not one of your three tiles", hex=hx))
    land = _members_changed(p, {move.hex: 1})
    state = _set_player(state, seat, _player(p, land=land_proxy(land), supply=p.supply - 1))
    if seat + 1 < state.n:
        return state.replace(pending=FirstMemberPending(seat + 1))
    return state.replace(pending=ChoosePending(0), to_move=0, turn=0)


# --- taking a tile -------------------------------------------------------------------------------
def _take(state: State, move: Move, slot: int) -> tuple[tuple[RowTile, ...], Player, RowTile]:
    """Check the choice of the tile at ``slot``; return the row after it (a shell on each skipped tile,
    R-TURN-2; an action tile moves to the end, R-TURN-1), the player after paying, and the tile. Its
    shells are collected at the end of the turn (R-TURN-3)."""
    seat = state.to_move
    reason = slot_reason(state, seat, slot)
    if reason:
        raise _illegal(state, move, reason)
    prof = state.profile
    tile = state.row[slot - 1]
    if isinstance(move, TakeEvent):
        if not tile.event:
            text = f"slot {slot} holds an action tile, not an event"
            raise _illegal(state, move, why("R-EVT-1", "not_event", text, slot=slot))
    else:
        if tile.event:
            text = f"slot {slot} holds an event; take it with '{slot}:evt'"
            raise _illegal(state, move, why("R-EVT-1", "is_event", text, slot=slot))
        act = prof.action_tile(tile.tile)
        if isinstance(move, Achieve):
            if not act.hand:
                text = f"slot {slot} ({_tile_name(act.name)}) shows no hand"
                raise _illegal(state, move, why("R-ACH-1", "no_hand", text, slot=slot, tile=act.id))
        else:
            want = {"off": "offspring", "mov": "movement", "exp": "exploration"}[move.kind]
            if act.action != want:
                text = f"slot {slot} is {_tile_name(act.name)}, not {want.title()}"
                raise _illegal(state, move, why("R-TURN-4", "wrong_action", text, slot=slot, tile=act.id, action=want))
    cost = slot - 1
    row = [RowTile(t.tile, t.event, t.shells + 1) for t in state.row[:cost]]
    row.extend(state.row[slot:])
    if not tile.event:
        row.append(RowTile(tile.tile, False, 0))
    p = state.players[seat]
    if cost:
        p = _player(p, shells=p.shells - cost)
    return tuple(row), p, tile


def _tile_name(name: Mapping[str, str]) -> str:
    return "'" + (name.get("en") or next(iter(name.values()))) + "'"


def _offspring(state: State, move: Offspring) -> State:
    seat = state.to_move
    before = state.players[seat]
    row, p, tile = _take(state, move, move.slot)
    k = intensity(state, seat, "offspring")
    occupied = {h for h, t in before.land.items() if t.members}
    if before.supply > 0:
        n = min(k, before.supply)  # engine choice: a short supply gives what it has
        if move.relocate:
            text = "relocating is allowed only when your supply is empty"
            raise _illegal(state, move, why("R-ACT-OFF-2", "relocate_only_empty", text))
        if len(move.place) != n:
            text = f"take {plural(n, 'member')} from your supply and place all of them"
            raise _illegal(state, move, why("R-ACT-OFF-1", "place_all", text, n=n))
        for h in move.place:
            if h not in occupied:
                hx = format_hex(h)
                text = f"{hx} holds none of your members: new members go only onto tiles you already occupy"
                raise _illegal(state, move, why("R-ACT-OFF-1", "off_not_occupied", text, hex=hx))
    else:
        if move.place:
            text = "your supply is empty: you may only relocate"
            raise _illegal(state, move, why("R-ACT-OFF-2", "only_relocate", text))
        moved = sum(n for _, n in move.relocate if n > 0)
        if moved > k:
            text = f"you may relocate at most {plural(k, 'member')}, not {moved}"
            raise _illegal(state, move, why("R-ACT-OFF-2", "relocate_max", text, k=k, moved=moved))
        reason = delta_reason(before, move.relocate)
        if reason:
            raise _illegal(state, move, Reason("R-ACT-OFF-2", reason.text, reason.key, reason.args))
        for h, n in move.relocate:
            if n > 0 and h not in occupied:
                hx = format_hex(h)
                text = f"{hx} is not occupied: relocate only onto tiles you occupy"
                raise _illegal(state, move, why("R-ACT-OFF-2", "relocate_not_occupied", text, hex=hx))
    if move.place:
        land = _members_changed(p, dict(Counter(move.place)))
        p = _player(p, land=land_proxy(land), supply=p.supply - len(move.place))
    elif move.relocate:
        p = _player(p, land=land_proxy(_members_changed(p, dict(move.relocate))))
    return _end_turn(state, seat, p, row=row, turn_shells=tile.shells)


def _movement(state: State, move: Movement) -> State:
    seat = state.to_move
    before = state.players[seat]
    row, p, tile = _take(state, move, move.slot)
    reason = delta_reason(before, move.delta)
    if reason:
        raise _illegal(state, move, reason)
    k = intensity(state, seat, "movement")
    if move.delta:
        cost = movement_cost(before, move.delta)
        if cost < 0 or cost > k:
            text = f"this needs {cost if cost >= 0 else 'impossible'} steps; your Movement marker gives {k}"
            reason = why("R-ACT-MOV-1", "steps" if cost >= 0 else "steps_impossible", text, cost=cost, k=k)
            raise _illegal(state, move, reason)
    if move.delta:
        p = _player(p, land=land_proxy(_members_changed(p, dict(move.delta))))
    return _end_turn(state, seat, p, row=row, turn_shells=tile.shells)


def _explore(state: State, move: Explore) -> State:
    seat = state.to_move
    row, p, tile = _take(state, move, move.slot)
    k = intensity(state, seat, "exploration")
    total = state.bag_total()
    if total > 0:  # engine choice: with fewer tiles in the bag than the intensity, draw what is left
        return _set_player(state, seat, p, row=row, turn_shells=tile.shells, pending=DrawPending(seat, min(k, total)))
    if restore_candidates(p, occupied_ok=False):
        return _set_player(state, seat, p, row=row, turn_shells=tile.shells, pending=RestorePending(seat, k))
    return _end_turn(state, seat, p, row=row, turn_shells=tile.shells)  # R-ACT-EXP-3: nothing happens


def restore_candidates(p: Player, occupied_ok: bool) -> list[Hex]:
    """Exhausted tiles that may be turned back (R-ACT-EXP-3 needs them unoccupied)."""
    return sorted(h for h, t in p.land.items() if t.exhausted and (occupied_ok or not t.members))


def _draw(state: State, move: Draw) -> State:
    pend = state.pending
    assert isinstance(pend, DrawPending)
    prof = state.profile
    if len(move.tiles) != pend.count:
        text = f"the player draws {plural(pend.count, 'tile')}"
        raise _illegal(state, move, why("R-ACT-EXP-1", "draw_count", text, n=pend.count))
    bag = list(state.bag)
    for r in move.tiles:
        if r not in prof.resources:
            ids = ", ".join(prof.resources)
            text = f"{r!r} is not a resource: {ids}"
            raise _illegal(state, move, why("R-COMP-4", "not_resource", text, value=repr(r), ids=ids))
        i = prof.resource_index(r)
        if bag[i] <= 0:
            raise _illegal(state, move, why("R-SET-2", "bag_empty", f"the bag holds no more {r} tiles", res=r))
        bag[i] -= 1
    return state.replace(bag=tuple(bag), pending=PlacePending(pend.seat, move.tiles))


def _place(state: State, move: Place) -> State:
    pend = state.pending
    assert isinstance(pend, PlacePending)
    p = state.players[pend.seat]
    reason = place_reason(p, pend.drawn, move)
    if reason:
        raise _illegal(state, move, reason)
    land = dict(p.land)
    for h, r in move.tiles:
        land[h] = Land(r)
    return _end_turn(state, pend.seat, _player(p, land=land_proxy(land)))


def place_reason(p: Player, drawn: tuple[str, ...], move: Place) -> Reason | None:
    """Why a placement of ``drawn`` tiles is not allowed (R-ACT-EXP-1/2), or None."""
    if Counter(r for _, r in move.tiles) != Counter(drawn):
        res = sorted(drawn)
        return why("R-ACT-EXP-1", "place_drawn", f"place exactly the drawn tiles: {' '.join(res)}", res_list=res)
    new = [h for h, _ in move.tiles]
    if len(set(new)) != len(new):
        return why("R-ACT-EXP-1", "place_same_hex", "two tiles cannot go on the same hex")
    for h in new:
        if h in p.land:
            hx = format_hex(h)
            return why("R-ACT-EXP-2", "place_taken", f"{hx} already holds a tile, and placed tiles never move", hex=hx)
    if not is_connected([*p.land, *new]):
        text = "every new tile must be edge-adjacent to your land (it stays connected)"
        return why("R-ACT-EXP-1", "place_adjacent", text)
    return None


def _restore_exp(state: State, move: Restore) -> State:
    pend = state.pending
    assert isinstance(pend, RestorePending)
    p = state.players[pend.seat]
    allowed = set(restore_candidates(p, occupied_ok=False))
    if len(move.hexes) > pend.count:
        text = f"turn back at most {plural(pend.count, 'tile')}"
        raise _illegal(state, move, why("R-ACT-EXP-3", "restore_max", text, n=pend.count))
    if len(set(move.hexes)) != len(move.hexes):
        raise _illegal(state, move, why("R-ACT-EXP-3", "restore_once", "each tile can be turned back once"))
    for h in move.hexes:
        if h not in allowed:
            hx = format_hex(h)
            text = f"{hx} is not one of your exhausted tiles without members"
            raise _illegal(state, move, why("R-ACT-EXP-3", "restore_not", text, hex=hx))
    return _end_turn(state, pend.seat, _player(p, land=land_proxy(_flip(p, move.hexes, False))))


# --- achievements --------------------------------------------------------------------------------
def _achieve(state: State, move: Achieve) -> State:
    seat = state.to_move
    prof = state.profile
    row, p, tile = _take(state, move, move.slot)
    pos = state.find_achievement(move.achievement)
    if pos is None:
        try:
            ach = prof.achievement(move.achievement)
        except KeyError:
            text = f"there is no achievement {move.achievement!r}"
            raise _illegal(state, move, why("R-ACH-5", "no_achievement", text, value=repr(move.achievement))) from None
        text = f"{_tile_name(ach.name)} is not face up on the board"
        raise _illegal(state, move, why("R-ACH-8", "not_face_up", text, ach=ach.id))
    era, col = pos
    claim = claim_check(state, seat, era, col)
    if isinstance(claim, Reason):
        raise _illegal(state, move, claim)
    reason = claim_move_reason(state, claim, move)
    if reason:
        raise _illegal(state, move, reason)
    ach = claim.achievement
    slot = ach.slots[claim.slot]
    if move.jokers:
        p = _player(p, land=land_proxy(_flip(p, move.jokers, True)))
    p = _player(p, vp=p.vp + slot.vp)
    p = _advance(state, p, ach.track, 1)
    arrows = state.arrows
    if move.arrow:
        lower = state.find_achievement(move.arrow)
        assert lower is not None
        arrows = (*arrows, Arrow(lower, (era, col), seat))
        p = _player(p, arrow=False)
    bt = state.board[era - 1][col]
    first = not bt.stones
    board = _with_board_tile(state, era, col, BoardTile(bt.tile, (*bt.stones, seat)))
    changes = {"row": row, "turn_shells": tile.shells, "board": board, "arrows": arrows}
    event_era = era if slot.lightning and state.stacks[era - 1] > 0 else 0  # R-EVT-1b: empty stack, no event
    if first and era < 3 and state.board[era][col].tile is None:
        return _set_player(state, seat, p, pending=RevealPending(seat, era + 1, col, event_era), **changes)
    if event_era:
        return _set_player(state, seat, p, pending=EventRevealPending(seat, event_era), **changes)
    return _end_turn(state, seat, p, **changes)


def _with_board_tile(state: State, era: int, col: int, bt: BoardTile) -> tuple[tuple[BoardTile, ...], ...]:
    board = list(state.board)
    row = list(board[era - 1])
    row[col] = bt
    board[era - 1] = tuple(row)
    return tuple(board)


def claim_move_reason(state: State, claim: Claim, move: Achieve) -> Reason | None:
    """Whether the jokers and arrow of ``move`` fit what ``claim`` needs (R-ACH-4, R-ARR-1)."""
    jokers = move.jokers
    name = _tile_name(claim.achievement.name)
    ach, res = claim.achievement.id, claim.achievement.resource
    if len(set(jokers)) != len(jokers):
        return why("R-ACH-4", "joker_twice", "each joker is a different tile")
    if len(jokers) != claim.jokers_needed:
        n = claim.jokers_needed
        if n == 0:
            return why("R-ACH-4", "no_joker", f"you have the {res} tiles {name} needs: no joker", res=res, ach=ach)
        text = f"{name} needs {plural(n, 'joker')}: name {'it' if n == 1 else 'them'} with joker=q,r"
        return why("R-ACH-4", "jokers_needed", text, ach=ach, n=n)
    for h in jokers:
        if h not in claim.joker_candidates:
            hx = format_hex(h)
            text = (
                f"{hx} cannot be a joker: a joker is an unexhausted tile holding your member "
                f"and not already counted as {res}"
            )
            return why("R-ACH-4", "joker_bad", text, hex=hx, res=res)
    if claim.arrow_from:
        if move.arrow is None:
            text = f"{name} needs your stone directly below or your arrow: add arrow=<id>"
            return why("R-ACH-2", "arrow_needed", text, ach=ach)
        lower = state.find_achievement(move.arrow)
        if lower not in claim.arrow_from:
            opts = ", ".join(str(state.board_tile(*p).tile) for p in claim.arrow_from)
            text = f"the arrow must come from a diagonal tile below holding your stone: {opts}"
            return why("R-ARR-1", "arrow_from", text, ids=opts)
    elif move.arrow is not None:
        return why("R-ARR-1", "arrow_not_needed", f"you may claim {name} without laying your arrow", ach=ach)
    return None


def _reveal(state: State, move: Reveal) -> State:
    pend = state.pending
    assert isinstance(pend, RevealPending)
    prof = state.profile
    try:
        ach = prof.achievement(move.achievement)
    except KeyError:
        text = f"there is no achievement {move.achievement!r}"
        raise _illegal(state, move, why("R-ACH-8", "no_achievement", text, value=repr(move.achievement))) from None
    value = repr(move.achievement)
    if ach.era != pend.era:
        text = f"the tile above is an era-{pend.era} tile; {value} is era {ach.era}"
        raise _illegal(state, move, why("R-ACH-8", "reveal_era", text, era=pend.era, value=value, was=ach.era))
    if state.find_achievement(ach.id) is not None:
        text = f"{value} is already face up on the board"
        raise _illegal(state, move, why("R-ACH-8", "reveal_up", text, value=value))
    board = _with_board_tile(state, pend.era, pend.col, BoardTile(ach.id))
    if pend.then_event:
        return state.replace(board=board, pending=EventRevealPending(pend.seat, pend.then_event))
    return _end_turn(state, board=board)


def _reveal_event(state: State, move: RevealEvent) -> State:
    pend = state.pending
    assert isinstance(pend, EventRevealPending)
    prof = state.profile
    try:
        ev = prof.event(move.event)
    except KeyError:
        text = f"there is no event {move.event!r}"
        raise _illegal(state, move, why("R-ACH-6", "no_event", text, value=repr(move.event))) from None
    value = repr(move.event)
    if ev.era != pend.era:
        text = f"the event comes from the era-{pend.era} stack; {value} is era {ev.era}"
        raise _illegal(state, move, why("R-ACH-6", "event_era", text, era=pend.era, value=value, was=ev.era))
    if ev.id in state.seen_events:
        text = f"event {value} has already left its stack"
        raise _illegal(state, move, why("R-ACH-6", "event_gone", text, value=value))
    stacks = list(state.stacks)
    stacks[pend.era - 1] -= 1
    # R-ACH-6: the event is laid at the end of the row during the achievement; the hand tile goes to
    # the end only after the achievement is carried out (R-TURN-1), so it lies behind the event.
    # The hand tile taken this turn is the row's last tile (moved there when it was taken).
    hand = state.row[-1]
    return _end_turn(
        state,
        stacks=tuple(stacks),
        seen_events=state.seen_events | {ev.id},
        row=(*state.row[:-1], RowTile(ev.id, True, 0), hand),
    )


# --- events --------------------------------------------------------------------------------------
def effect_at(event: Event, path: EffectPath) -> Effect:
    """The effect at ``path`` inside ``event``."""
    entry = event.entries[path[0]]
    eff = entry.effects[path[1]]
    if len(path) == 4:
        eff = eff.options[path[2]][path[3]]
    return eff


def chooser_affected(state: State, event: Event, chooser: int) -> bool:
    """R-EVT-3: the event concerns the chooser (an entry for them holds, or it targets 'others')."""
    for entry in event.entries:
        if entry.who == "others":
            return True
        if condition_holds(state, chooser, entry.condition):
            return True
    return False


def _take_event(state: State, move: TakeEvent) -> State:
    seat = state.to_move
    row, p, tile = _take(state, move, move.slot)
    state = _set_player(state, seat, p, row=row, turn_shells=tile.shells)
    event = state.profile.event(tile.tile)
    queue: list[tuple[int, EffectPath]] = []
    if chooser_affected(state, event, seat):
        # Conditions are judged once, when the event is taken (engine choice), for every player in
        # order: the chooser first, then clockwise (R-EVT-6).
        for k in range(state.n):
            s = (seat + k) % state.n
            for ei, entry in enumerate(event.entries):
                if event_applies(entry.who, s, seat) and condition_holds(state, s, entry.condition):
                    queue.extend((s, (ei, fi)) for fi in range(len(entry.effects)))
    return _run_event(state, event, seat, tuple(queue))


def _finish_event(state: State, event: Event) -> State:
    """R-EVT-7: the event leaves the game; era-3 events count towards the end (R-END-1)."""
    done = (*state.done_events, event.id)
    prof = state.profile
    era3 = sum(1 for e in done if prof.event(e).era == 3)
    triggered = state.end_triggered or (event.era == 3 and era3 >= END_TRIGGER[state.n])
    return _end_turn(state, done_events=done, end_triggered=triggered)


def _run_event(state: State, event: Event, chooser: int, queue: tuple[tuple[int, EffectPath], ...]) -> State:
    """Resolve effects in order until one needs a player's choice, or the event is done."""
    while queue:
        seat, path = queue[0]
        eff = effect_at(event, path)
        outcomes = effect_choices(state, seat, eff)
        if outcomes is None:
            state = _auto_effect(state, seat, eff)
            queue = queue[1:]
            continue
        if len(outcomes) == 1:
            state, queue = _answer(state, event, seat, path, eff, outcomes[0], queue[1:])
            continue
        return state.replace(pending=EventPending(seat, event.id, chooser, path, queue[1:]))
    return _finish_event(state, event)


def effect_choices(state: State, seat: int, eff: Effect) -> list[object] | None:
    """The distinct answers a player can give to an effect, or None when it needs no answer.

    Answers: an option index for ``choose``; a sorted tuple of hexes for members/exhaust/restore.
    """
    p = state.players[seat]
    kind = eff.kind
    if kind == "choose":
        return list(range(len(eff.options)))
    if kind == "members":
        if eff.amount > 0:
            n = min(eff.amount, p.supply)
            occ = p.occupied()
            if n == 0 or not occ:
                return [()]
            return list(_multisets(occ, n))
        n = min(-eff.amount, p.members_on_map - 1)  # R-EVT-4: never the last member
        if n <= 0:
            return [()]
        return list(_bounded_multisets([(h, t.members) for h, t in sorted(p.land.items()) if t.members], n))
    if kind == "exhaust":
        fresh = sorted(h for h, t in p.land.items() if not t.exhausted)  # R-EVT-5: occupied or not
        return list(combinations(fresh, min(eff.amount, len(fresh))))
    if kind == "restore":
        tired = restore_candidates(p, occupied_ok=True)
        return list(combinations(tired, min(eff.amount, len(tired))))
    return None


def _multisets(items: list[Hex], n: int) -> list[tuple[Hex, ...]]:
    out: list[tuple[Hex, ...]] = []

    def rec(i: int, left: int, acc: tuple[Hex, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        if i == len(items):
            return
        for k in range(left, -1, -1):
            rec(i + 1, left - k, acc + (items[i],) * k)

    rec(0, n, ())
    return out


def _bounded_multisets(items: list[tuple[Hex, int]], n: int) -> list[tuple[Hex, ...]]:
    out: list[tuple[Hex, ...]] = []

    def rec(i: int, left: int, acc: tuple[Hex, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        if i == len(items):
            return
        h, cap = items[i]
        for k in range(min(cap, left), -1, -1):
            rec(i + 1, left - k, acc + (h,) * k)

    rec(0, n, ())
    return out


def _auto_effect(state: State, seat: int, eff: Effect) -> State:
    p = state.players[seat]
    kind, amount = eff.kind, eff.amount
    if kind == "vp":
        return _set_player(state, seat, _player(p, vp=max(0, p.vp + amount)))  # engine choice: VP floor 0
    if kind == "shells":
        if amount > 0:
            got = min(amount, state.shell_supply)  # engine choice: an empty shell supply gives nothing
            return _set_player(state, seat, _player(p, shells=p.shells + got), shell_supply=state.shell_supply - got)
        lost = min(-amount, p.shells)
        return _set_player(state, seat, _player(p, shells=p.shells - lost), shell_supply=state.shell_supply + lost)
    if kind == "track":
        return _set_player(state, seat, _advance(state, p, eff.track, amount))
    raise AssertionError(f"effect {kind} needs an answer")  # pragma: no cover


def _answer(
    state: State,
    event: Event,
    seat: int,
    path: EffectPath,
    eff: Effect,
    answer: object,
    rest: tuple[tuple[int, EffectPath], ...],
) -> tuple[State, tuple[tuple[int, EffectPath], ...]]:
    """Apply a (checked) answer to the effect at ``path``; returns the state and remaining queue."""
    p = state.players[seat]
    if eff.kind == "choose":
        assert isinstance(answer, int)
        opts = tuple((seat, (path[0], path[1], answer, i)) for i in range(len(eff.options[answer])))
        return state, opts + rest
    hexes = answer
    assert isinstance(hexes, tuple)
    if eff.kind == "members":
        c = Counter(hexes)
        sign = 1 if eff.amount > 0 else -1
        land = _members_changed(p, {h: sign * k for h, k in c.items()})
        p = _player(p, land=land_proxy(land), supply=p.supply - sign * len(hexes))
    elif eff.kind == "exhaust":
        p = _player(p, land=land_proxy(_flip(p, hexes, True)))
    elif eff.kind == "restore":
        p = _player(p, land=land_proxy(_flip(p, hexes, False)))
    return _set_player(state, seat, p), rest


def _event_answer(state: State, move: Move) -> State:
    pend = state.pending
    assert isinstance(pend, EventPending)
    event = state.profile.event(pend.event)
    eff = effect_at(event, pend.path)
    outcomes = effect_choices(state, pend.seat, eff)
    assert outcomes is not None
    expected = {"choose": Pick, "exhaust": Exhaust, "restore": Restore}.get(eff.kind, Gain if eff.amount > 0 else Lose)
    if not isinstance(move, expected):
        raise _illegal(state, move, _wrong_kind(state, move))
    if isinstance(move, Pick):
        answer: object = move.option - 1
        if answer not in outcomes:
            n = len(outcomes)
            raise _illegal(state, move, why("R-EVT-1", "pick_range", f"choose an option from 1 to {n}", n=n))
    else:
        answer = move.hexes  # type: ignore[attr-defined]
        if answer not in outcomes:
            raise _illegal(state, move, _answer_reason(state, pend.seat, eff, answer))  # type: ignore[arg-type]
    state, rest = _answer(state, event, pend.seat, pend.path, eff, answer, pend.queue)
    return _run_event(state, event, pend.chooser, rest)


def _answer_reason(state: State, seat: int, eff: Effect, hexes: tuple[Hex, ...]) -> Reason:
    p = state.players[seat]
    if eff.kind == "members" and eff.amount > 0:
        n = min(eff.amount, p.supply)
        return why("R-ACT-OFF-1", "answer_gain", f"place {plural(n, 'new member')} on tiles you occupy", n=n)
    if eff.kind == "members":
        n = min(-eff.amount, p.members_on_map - 1)
        return why("R-EVT-4", "answer_lose", f"remove {plural(n, 'member')} from your tiles, never your last one", n=n)
    if eff.kind == "exhaust":
        fresh = sum(1 for t in p.land.values() if not t.exhausted)
        n = min(eff.amount, fresh)
        return why("R-EVT-5", "answer_exhaust", f"exhaust {plural(n, 'different unexhausted tile')}", n=n)
    tired = len(restore_candidates(p, occupied_ok=True))
    n = min(eff.amount, tired)
    return why("R-EVT-1", "answer_restore", f"turn back {plural(n, 'different exhausted tile')}", n=n)


_HANDLERS: dict[tuple[str, type], Callable[[State, Any], State]] = {
    ("setup", Setup): _setup,
    ("first_member", PlaceFirst): _place_first,
    ("choose", Offspring): _offspring,
    ("choose", Movement): _movement,
    ("choose", Explore): _explore,
    ("choose", Achieve): _achieve,
    ("choose", TakeEvent): _take_event,
    ("draw", Draw): _draw,
    ("place", Place): _place,
    ("restore", Restore): _restore_exp,
    ("reveal", Reveal): _reveal,
    ("event_reveal", RevealEvent): _reveal_event,
    ("event", Pick): _event_answer,
    ("event", Lose): _event_answer,
    ("event", Gain): _event_answer,
    ("event", Exhaust): _event_answer,
    ("event", Restore): _event_answer,
}
