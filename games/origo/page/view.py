"""JSON views of an Origo game for the page (the Python side of :class:`games.api.PageModule`).

:func:`state_view` is everything the page draws for one position: the board as plain data (fields
with their land or sea, the shield on each, founding stones, the leader track), the prompt with the
options, the scores, the battle calculator's data while an attack is being entered or fought, and
the tribe-scoring reminder. :func:`catalog` is the board file as the page draws it, provisional
values flagged; :func:`chance_view` what ``GET /api/chance`` adds while a founding field is awaited.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from typing import Any

from datafile.provenance import profile_info
from games.origo.page.movejson import move_from_json, move_to_json
from games.origo.rules import battle as calc
from games.origo.rules.board import Board
from games.origo.rules.engine import (
    actor,
    attack_targets,
    check,
    describe,
    describe_context,
    expected_reveal,
    scoring_rounds,
)
from games.origo.rules.moves import AnyMove, Attack, Card, Lay, Stop
from games.origo.rules.position import state_to_dict
from games.origo.rules.scoring import ranking, scores
from games.origo.rules.state import FREE, Phase, Side, State


def _attackable(state: State, region: int) -> bool:
    reg = state.board.regions[region]
    return state.is_founded(region) if reg.is_land else state.free_fields(region) == 0


def board_view(state: State) -> dict[str, Any]:
    """The board as plain data: every field with its grid place, land or sea and shield; every region
    with its fields, how many are free, its founding stone and whether its fields can be attacked."""
    b = state.board
    contested = state.battle.field if state.battle is not None else None
    fields = []
    for i, c in enumerate(b.cells):
        reg = b.regions[c.region]
        owner = state.owners[i]
        fields.append(
            {
                "name": c.name,
                "col": c.col,
                "row": c.row,
                "region": reg.id,
                "kind": str(reg.kind),
                "owner": None if owner == FREE else owner,
                "owner_name": None if owner == FREE else state.name(owner),
                "colour": None if owner == FREE else state.seats[owner].colour,
                "contested": i == contested,
            }
        )
    regions = []
    for ri, reg in enumerate(b.regions):
        fd = state.founding_of(ri)
        regions.append(
            {
                "id": reg.id,
                "kind": str(reg.kind),
                "name": dict(reg.name),
                "fields": [b.name_of(f) for f in reg.fields],
                "free": state.free_fields(ri),
                "full": state.free_fields(ri) == 0,
                "founded": None
                if fd is None
                else {"by": state.name(fd.seat), "seat": fd.seat, "value": fd.value, "red": fd.red},
                "attackable": _attackable(state, ri),
            }
        )
    return {
        "columns": [chr(ord("A") + x) for x in range(b.columns)],
        "rows": list(range(1, b.rows + 1)),
        "fields": fields,
        "regions": regions,
    }


def founding_view(state: State) -> dict[str, Any]:
    """The founding track: per stone the board file's field (value, red, provisional?) and, once the
    stone is taken, what the table reported (flagged when it differs from the board file)."""
    b = state.board
    track = []
    for i, ff in enumerate(b.founding):
        entry: dict[str, Any] = {
            "index": i,
            "value": ff.value,
            "red": ff.red,
            "provisional": b.is_provisional(f"founding_track.fields[{i}].value")
            or b.is_provisional(f"founding_track.fields[{i}].red"),
            "taken": i < len(state.founded),
            "reported": None,
        }
        if i < len(state.founded):
            fd = state.founded[i]
            entry["reported"] = {
                "value": fd.value,
                "red": fd.red,
                "land": b.regions[fd.land].id,
                "by": state.name(fd.seat),
                "differs": (fd.value, fd.red) != (ff.value, ff.red),
            }
        track.append(entry)
    exp = expected_reveal(state)
    return {
        "stones": b.stones,
        "left": state.stones_left,
        "track": track,
        "next": None if exp is None else {"value": exp.value, "red": exp.red},
        "max_value": b.max_reveal,
    }


def leader_view(state: State) -> dict[str, Any]:
    """The leader's path and where every player's leader stands."""
    return {
        "length": state.board.path_length,
        "start": state.board.path_start,
        "positions": [
            {"seat": i, "name": s.name, "colour": s.colour, "field": state.leader[i]} for i, s in enumerate(state.seats)
        ],
    }


def battle_view(state: State) -> dict[str, Any] | None:
    """The battle calculator's data while a battle is fought: the figures (points now, who wins if
    nobody plays on, the cards the side behind needs, whose answer is due), the most cards each side
    can still play (their hands), the end if both answer with every card they hold, a table of
    winners for every number of cards each can still play, and the moves that record the answers."""
    b = state.battle
    if b is None:
        return None
    fig = calc.battle_figures(state, b)
    a, d = fig.attacker_points, fig.defender_points
    ha, hd = state.hands[b.attacker], state.hands[b.defender]
    due = b.attacker if fig.to_answer is Side.ATTACKER else b.defender
    return {
        **fig.to_dict(),
        "attacker_seat": b.attacker,
        "defender_seat": b.defender,
        "attacker_hand": ha,
        "defender_hand": hd,
        "full_hands": calc.play_out(a, d, ha, hd).to_dict(),
        "outlook": calc.outlook_table(a, d, ha, hd),
        "due_seat": due,
        "record": {"card": str(Card(state.name(due))), "stop": str(Stop(state.name(due)))},
    }


def targets_view(state: State) -> list[dict[str, Any]]:
    """Before an attack is entered: every field the player on turn may attack, with the calculator's
    figures for the opening card and the end if both sides answer with their full hands."""
    if state.phase is not Phase.TURN:
        return []
    seat = state.to_move
    out = []
    for f in attack_targets(state, seat):
        fig = calc.figures(state, f, seat, 1, 0, opening=True)
        left_att = max(state.hands[seat] - 1, 0)
        left_def = state.hands[state.owners[f]]
        out.append(
            {
                **fig.to_dict(),
                "attacker_hand": left_att,
                "defender_hand": left_def,
                "full_hands": calc.play_out(fig.attacker_points, fig.defender_points, left_att, left_def).to_dict(),
            }
        )
    return out


def field_checks(state: State) -> dict[str, dict[str, list[str]]]:
    """On turn: for every field that the player on turn cannot lay a shield on or attack, the
    engine's ``[clause, reason]`` (the page shows it when such a field is tapped); fields missing
    from ``lay``/``attack`` are allowed. Empty outside a turn."""
    if state.phase is not Phase.TURN:
        return {"lay": {}, "attack": {}}
    name = state.name(state.to_move)
    lay: dict[str, list[str]] = {}
    attack: dict[str, list[str]] = {}
    for cell in state.board.cells:
        bad = check(state, Lay(name, cell.name))
        if bad:
            lay[cell.name] = list(bad)
        bad = check(state, Attack(name, cell.name))
        if bad:
            attack[cell.name] = list(bad)
    return {"lay": lay, "attack": attack}


def scoring_view(state: State) -> dict[str, Any]:
    """The tribe scorings: scheduled (and the rounds they fall in, one per round), held, being
    entered now, lapsed after the last round, and the reminder line the page shows."""
    phase = state.phase
    rounds = scoring_rounds(state)
    reminder: str | None = None
    if phase is Phase.SCORING:
        missing = [state.name(i) for i, e in enumerate(state.entries) if e is None]
        reminder = (
            f"Tribe scoring at the end of round {state.round} (O-FOUND-4): enter the tribe points of "
            f"{', '.join(missing)}"
        )
    elif phase in (Phase.TURN, Phase.BATTLE, Phase.REVEAL) and rounds:
        last = state.to_move == state.n - 1
        reminder = f"A tribe scoring takes place at the end of this round (round {rounds[0]})"
        if last:
            reminder += f": {state.name(state.to_move)}'s turn is the last of the round"
        if len(rounds) > 1:
            later = ", ".join(str(r) for r in rounds[1:])
            reminder += f"; carried over (O-FOUND-5, one per round): the end of round {later}"
    lapsed = state.scorings_due if phase in (Phase.FINAL, Phase.OVER) else 0
    return {
        "scheduled": state.scorings_due,
        "rounds": rounds if phase not in (Phase.FINAL, Phase.OVER) else [],
        "held": state.scorings_held,
        "now": phase is Phase.SCORING,
        "entries": {state.name(i): e for i, e in enumerate(state.entries)} if state.entries else None,
        "lapsed": lapsed,
        "reminder": reminder,
    }


def state_view(state: State) -> dict[str, Any]:
    """Everything the page draws for one position (no key of the shell's view, such as ``game``:
    the live view is this plus the shell's keys, which must not be overwritten)."""
    pos = state_to_dict(state, board={"name": state.board.name, "digest": state.board.digest})
    out: dict[str, Any] = {
        "position": pos,
        "context": describe_context(state),
        "phase": str(state.phase),
        "round": state.round,
        "actor": None if state.phase in (Phase.OVER, Phase.REVEAL) else actor(state),
        "prompt": describe(state),
        "scores": scores(state),
        "board": board_view(state),
        "founding_stones": founding_view(state),
        "leader_track": leader_view(state),
        "battle": battle_view(state),
        "attack_targets": targets_view(state),
        "checks": field_checks(state),
        "tribe_scoring": scoring_view(state),
        "over": state.is_over,
        "end": str(state.end) or None,
    }
    if state.is_over:
        out["ranking"] = [s.to_dict() for s in ranking(state)]
    return out


def catalog(board: Board) -> dict[str, Any]:
    """The board file as the page draws it: regions with their fields, the founding track, the path
    and the components, each value's provenance flag, and the provisional paths listed."""
    info = profile_info(board)
    prov = set(info["provisional"])

    def flagged(path: str) -> bool:
        return any(p == path or p.startswith(path + ".") or p.startswith(path + "[") for p in prov)

    return {
        "name": board.name,
        "digest": board.digest,
        "columns": board.columns,
        "rows": board.rows,
        "map_provisional": flagged("map"),
        "regions": [
            {
                "id": r.id,
                "kind": str(r.kind),
                "name": dict(r.name),
                "fields": [board.name_of(f) for f in r.fields],
                "provisional": flagged(f"regions[{i}]"),
            }
            for i, r in enumerate(board.regions)
        ],
        "founding_track": [
            {"value": f.value, "red": f.red, "provisional": flagged(f"founding_track.fields[{i}]")}
            for i, f in enumerate(board.founding)
        ],
        "max_value": board.max_reveal,
        "path": {"length": board.path_length, "start": board.path_start, "provisional": flagged("path")},
        "components": {
            "hand_size": board.hand_size,
            "shields_per_player": {str(k): v for k, v in sorted(board.shields_per_player.items())},
            "shields_by_colour": dict(board.shields_by_colour),
            "cards": dict(board.cards),
            "provisional": flagged("components"),
        },
        "sources": info["sources"],
        "provisional": info["provisional"],
    }


def chance_view(state: State) -> dict[str, Any]:
    """While a founding field is awaited: the land, its founder, the field the board file expects
    and the values a report may give."""
    if state.phase is not Phase.REVEAL or state.founding_land is None:
        return {}
    exp = expected_reveal(state)
    reg = state.board.regions[state.founding_land]
    return {
        "reveal": {
            "land": reg.id,
            "land_name": dict(reg.name),
            "founder": state.name(state.to_move),
            "expected": None if exp is None else {"value": exp.value, "red": exp.red, "move": str(exp)},
            "values": list(range(state.board.max_reveal + 1)),
        }
    }


class OrigoPage:
    """The Python side of Origo's page module; the browser module is ``static/origo.js``."""

    script = "origo.js"

    @property
    def static(self) -> Traversable:
        """``games/origo/page/static``."""
        return resources.files("games.origo").joinpath("page/static")

    def state_view(self, state: State) -> dict[str, Any]:
        """Everything the page draws for one position."""
        return state_view(state)

    def move_to_json(self, move: AnyMove) -> dict[str, Any]:
        """A move as structured JSON."""
        return move_to_json(move)

    def move_from_json(self, data: Any, field: str = "move") -> AnyMove:
        """A move from notation or structured JSON; errors name ``field``."""
        return move_from_json(data, field)

    def catalog(self, profile: Any) -> dict[str, Any]:
        """The board file as the page draws it."""
        return catalog(profile)

    def chance_view(self, state: State) -> dict[str, Any]:
        """Extra fields for ``GET /api/chance``."""
        return chance_view(state)


PAGE = OrigoPage()

__all__ = [
    "PAGE",
    "OrigoPage",
    "battle_view",
    "board_view",
    "catalog",
    "chance_view",
    "field_checks",
    "founding_view",
    "leader_view",
    "scoring_view",
    "state_view",
    "targets_view",
]
