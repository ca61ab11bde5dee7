"""Positions as JSON (``origo-position``, version 1; docs/origo.md, "Position"), both ways.

:func:`state_to_dict` writes every part of the state; :func:`state_from_dict` reads it back through
:class:`datafile.Reader`, checks it against the board (field names, land ids, counts within bounds,
shields conserved: supply + board + out of the game = the supply of the player count) and refuses
anything else with one :class:`PositionError` naming the source and field. The two round-trip
exactly. Players are referred to by name, fields by their names, lands by their ids.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from datafile import Reader, show
from games.api import Seat
from games.origo.rules.board import Board, board_spec, resolve_board
from games.origo.rules.engine import check_players
from games.origo.rules.errors import BoardError, PositionError
from games.origo.rules.moves import MAX_POINTS
from games.origo.rules.state import FREE, Battle, EndTrigger, Founding, Phase, State

POSITION_FORMAT = "origo-position"
POSITION_VERSION = 1
_KEYS = (
    "format",
    "version",
    "profile",
    "players",
    "fields",
    "founded",
    "round",
    "turn",
    "to_move",
    "phase",
    "acted",
    "passes",
    "scorings_due",
    "scorings_held",
    "end",
    "battle",
    "founding_land",
    "entries",
)


def state_to_dict(state: State, board: Any | None = None) -> dict[str, Any]:
    """The position document of ``state`` (``board``: what to write under ``profile``; default:
    ``"default"`` for the shipped board, else the whole board document)."""
    b = state.board
    name = state.name
    battle: dict[str, Any] | None = None
    if state.battle is not None:
        bt = state.battle
        battle = {
            "field": b.name_of(bt.field),
            "attacker": name(bt.attacker),
            "defender": name(bt.defender),
            "attacker_cards": bt.attacker_cards,
            "defender_cards": bt.defender_cards,
            "opening": bt.opening,
        }
    return {
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "profile": board_spec(b) if board is None else board,
        "players": [
            {
                "name": s.name,
                "colour": s.colour,
                "supply": state.supply[i],
                "out": state.out[i],
                "hand": state.hands[i],
                "leader": state.leader[i],
                "tribe_points": state.tribe[i],
                "final_points": state.final[i],
            }
            for i, s in enumerate(state.seats)
        ],
        "fields": {b.name_of(f): name(o) for f, o in enumerate(state.owners) if o != FREE},
        "founded": [
            {"land": b.regions[f.land].id, "by": name(f.seat), "value": f.value, "red": f.red} for f in state.founded
        ],
        "round": state.round,
        "turn": state.turn,
        "to_move": name(state.to_move),
        "phase": str(state.phase),
        "acted": state.acted,
        "passes": state.passes,
        "scorings_due": state.scorings_due,
        "scorings_held": state.scorings_held,
        "end": str(state.end) or None,
        "battle": battle,
        "founding_land": None if state.founding_land is None else b.regions[state.founding_land].id,
        "entries": None
        if state.phase not in (Phase.SCORING, Phase.FINAL)
        else {name(i): e for i, e in enumerate(state.entries)},
    }


class _Reader(Reader):
    def seat(self, state_seats: tuple[Seat, ...], val: Any, path: str) -> int:
        for i, s in enumerate(state_seats):
            if s.name == val:
                return i
        raise self.fail(path, f"{show(val)} is not a player of this position")


def state_from_dict(
    data: Any, board: Board | None = None, source: str = "<position>", base: str | Path | None = None
) -> State:
    """A position document read back with full validation (``board``: read it with this board
    instead of the one it names)."""
    rd = _Reader(source, PositionError)
    doc = rd.obj(data, "")
    if doc.get("format") != POSITION_FORMAT:
        raise rd.fail("format", f"must be {POSITION_FORMAT!r}, got {show(doc.get('format'))}")
    rd.integer(rd.get(doc, "version", ""), "version", POSITION_VERSION, POSITION_VERSION)
    rd.only(doc, _KEYS, "")
    if board is None:
        try:
            board = resolve_board(doc.get("profile", "default"), source, "profile", base)
        except BoardError as exc:
            raise PositionError(exc.source, exc.field, exc.reason) from None

    raw_players = rd.list(rd.get(doc, "players", ""), "players", 1, 9)
    seats: list[Seat] = []
    cols: dict[str, list[int]] = {k: [] for k in ("supply", "out", "hand", "leader", "tribe_points", "final_points")}
    for i, node in enumerate(raw_players):
        path = f"players[{i}]"
        p = rd.obj(node, path)
        rd.only(p, ("name", "colour", *cols), path)
        seats.append(
            Seat(rd.text(rd.get(p, "name", path), f"{path}.name"), rd.text(rd.get(p, "colour", path), f"{path}.colour"))
        )
        cols["supply"].append(rd.integer(rd.get(p, "supply", path), f"{path}.supply", 0, 10_000))
        cols["out"].append(rd.integer(rd.get(p, "out", path), f"{path}.out", 0, 10_000))
        cols["hand"].append(rd.integer(rd.get(p, "hand", path), f"{path}.hand", 0, board.hand_size))
        cols["leader"].append(rd.integer(rd.get(p, "leader", path), f"{path}.leader", 0, board.path_length))
        cols["tribe_points"].append(rd.integer(rd.get(p, "tribe_points", path), f"{path}.tribe_points", 0, 100_000))
        cols["final_points"].append(rd.integer(rd.get(p, "final_points", path), f"{path}.final_points", 0, 100_000))
    bad = check_players([(s.name, s.colour) for s in seats], board)
    if bad:
        raise rd.fail("players", bad)
    st = tuple(seats)
    n = len(st)

    owners = [FREE] * board.n_fields
    fields = rd.obj(rd.get(doc, "fields", ""), "fields")
    for key, who in fields.items():
        idx = board.find(key)
        if idx is None or board.name_of(idx) != key:
            raise rd.fail(f"fields.{key}", "is no field of the board (write fields as C4)")
        owners[idx] = rd.seat(st, who, f"fields.{key}")

    founded: list[Founding] = []
    seen: set[int] = set()
    fnodes = rd.list(rd.get(doc, "founded", ""), "founded", 0, board.stones)
    for i, node in enumerate(fnodes):
        path = f"founded[{i}]"
        f = rd.obj(node, path)
        rd.only(f, ("land", "by", "value", "red"), path)
        land_id = rd.text(rd.get(f, "land", path), f"{path}.land")
        land = board.region(land_id)
        if land is None or not board.regions[land].is_land:
            raise rd.fail(f"{path}.land", f"{land_id!r} is no land of the board")
        if land in seen:
            raise rd.fail(f"{path}.land", f"{land_id!r} is founded twice (O-FOUND-6)")
        seen.add(land)
        founded.append(
            Founding(
                land,
                rd.seat(st, rd.get(f, "by", path), f"{path}.by"),
                rd.integer(rd.get(f, "value", path), f"{path}.value", 0, board.max_reveal),
                rd.boolean(rd.get(f, "red", path), f"{path}.red"),
            )
        )

    phase = Phase(rd.choice(rd.get(doc, "phase", ""), "phase", [p.value for p in Phase]))
    rnd = rd.integer(rd.get(doc, "round", ""), "round", 1, 100_000)
    turn = rd.integer(rd.get(doc, "turn", ""), "turn", 1, 1_000_000)
    to_move = rd.seat(st, rd.get(doc, "to_move", ""), "to_move")
    acted = rd.boolean(rd.get(doc, "acted", ""), "acted")
    passes = rd.integer(rd.get(doc, "passes", ""), "passes", 0, n)
    in_turn = phase in (Phase.TURN, Phase.BATTLE, Phase.REVEAL)
    if passes > (to_move if in_turn else n):
        raise rd.fail("passes", f"{passes} players cannot have passed before {st[to_move].name}'s turn")
    if in_turn and phase is not Phase.TURN and not acted:
        raise rd.fail("acted", f"a {phase} follows an action of {st[to_move].name}'s: must be true")
    due = rd.integer(rd.get(doc, "scorings_due", ""), "scorings_due", 0, board.stones)
    held = rd.integer(rd.get(doc, "scorings_held", ""), "scorings_held", 0, board.stones)
    reds = sum(1 for f in founded if f.red)
    if due + held + (1 if phase is Phase.SCORING else 0) != reds:
        raise rd.fail(
            "scorings_due",
            f"scheduled ({due}), held ({held}) and being held "
            f"({1 if phase is Phase.SCORING else 0}) must add up to the red founding "
            f"fields revealed ({reds})",
        )
    end_raw = rd.get(doc, "end", "")
    end = (
        EndTrigger.NONE
        if end_raw is None
        else EndTrigger(rd.choice(end_raw, "end", [e.value for e in EndTrigger if e is not EndTrigger.NONE]))
    )
    if phase in (Phase.FINAL, Phase.OVER) and end is EndTrigger.NONE:
        raise rd.fail("end", f"a game in phase {phase} must say why it ended")
    if end is EndTrigger.STONES and len(founded) < board.stones:
        raise rd.fail("end", "the founding stones are not all placed")
    if end is EndTrigger.SHIELDS and all(v > 0 for v in cols["supply"]):
        raise rd.fail("end", "every player still has unused shields")

    battle: Battle | None = None
    bnode = rd.get(doc, "battle", "")
    if bnode is not None:
        bo = rd.obj(bnode, "battle")
        rd.only(bo, ("field", "attacker", "defender", "attacker_cards", "defender_cards", "opening"), "battle")
        fname = rd.text(rd.get(bo, "field", "battle"), "battle.field")
        bf = board.find(fname)
        if bf is None or board.name_of(bf) != fname:
            raise rd.fail("battle.field", f"{fname!r} is no field of the board")
        att = rd.seat(st, rd.get(bo, "attacker", "battle"), "battle.attacker")
        dfd = rd.seat(st, rd.get(bo, "defender", "battle"), "battle.defender")
        if att != to_move:
            raise rd.fail("battle.attacker", "must be the player on turn")
        if dfd == att or owners[bf] != dfd:
            raise rd.fail("battle.defender", f"must be the owner of the shield on {fname}, another player")
        battle = Battle(
            bf,
            att,
            dfd,
            rd.integer(rd.get(bo, "attacker_cards", "battle"), "battle.attacker_cards", 1, 10_000),
            rd.integer(rd.get(bo, "defender_cards", "battle"), "battle.defender_cards", 0, 10_000),
            rd.boolean(rd.get(bo, "opening", "battle"), "battle.opening"),
        )
    if (battle is not None) != (phase is Phase.BATTLE):
        raise rd.fail("battle", "is given exactly when the phase is 'battle'")

    fl_raw = rd.get(doc, "founding_land", "")
    founding_land: int | None = None
    if fl_raw is not None:
        fl = board.region(rd.text(fl_raw, "founding_land"))
        if fl is None or not board.regions[fl].is_land or fl in seen:
            raise rd.fail("founding_land", f"{show(fl_raw)} is no unfounded land of the board")
        if any(owners[f] == FREE for f in board.regions[fl].fields):
            raise rd.fail("founding_land", f"{show(fl_raw)} still has a free field")
        if len(founded) >= board.stones:
            raise rd.fail("founding_land", "no founding stone is left")
        founding_land = fl
    if (founding_land is not None) != (phase is Phase.REVEAL):
        raise rd.fail("founding_land", "is given exactly when the phase is 'reveal'")

    entries: tuple[int | None, ...] = ()
    enode = rd.get(doc, "entries", "")
    if phase in (Phase.SCORING, Phase.FINAL):
        eo = rd.obj(enode, "entries")
        vals: list[int | None] = [None] * n
        for key, val in eo.items():
            seat = rd.seat(st, key, f"entries.{key}")
            vals[seat] = None if val is None else rd.integer(val, f"entries.{key}", 0, MAX_POINTS)
        if len(eo) != n:
            raise rd.fail("entries", "must name every player (null: not yet entered)")
        if all(v is not None for v in vals):
            raise rd.fail("entries", "a scoring with every player's points entered is over")
        entries = tuple(vals)
    elif enode is not None:
        raise rd.fail("entries", "is given only during a scoring (phase 'scoring' or 'final')")

    if len(founded) < board.stones:
        for ri, region in enumerate(board.regions):
            if (
                region.is_land
                and ri not in seen
                and ri != founding_land
                and all(owners[f] != FREE for f in region.fields)
            ):
                raise rd.fail(
                    "fields",
                    f"{region.id} is fully occupied but not founded while founding stones are left "
                    "(O-FOUND-1: the position would be waiting for its founding field)",
                )

    per = board.shields_per_player[n]
    for i in range(n):
        on = sum(1 for o in owners if o == i) + (1 if battle is not None and battle.attacker == i else 0)
        total = cols["supply"][i] + on + cols["out"][i]
        if total != per:
            raise rd.fail(
                f"players[{i}]",
                f"{st[i].name}'s shields (supply {cols['supply'][i]} + board {on} + out "
                f"{cols['out'][i]} = {total}) must add up to {per} (O-SETUP-1)",
            )

    return State(
        board=board,
        seats=st,
        owners=tuple(owners),
        supply=tuple(cols["supply"]),
        out=tuple(cols["out"]),
        hands=tuple(cols["hand"]),
        leader=tuple(cols["leader"]),
        tribe=tuple(cols["tribe_points"]),
        final=tuple(cols["final_points"]),
        founded=tuple(founded),
        round=rnd,
        turn=turn,
        to_move=to_move,
        phase=phase,
        acted=acted,
        passes=passes,
        scorings_due=due,
        scorings_held=held,
        end=end,
        battle=battle,
        founding_land=founding_land,
        entries=entries,
    )


__all__ = ["POSITION_FORMAT", "POSITION_VERSION", "state_from_dict", "state_to_dict"]
