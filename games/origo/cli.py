"""``table-companion --game origo battle …``: the battle calculator on the console.

Reads a position (or a journal: its current position) of Origo and, for the attacked field, the
attacker and the cards played so far, prints both sides' points, who wins if nobody plays on and how
many more cards the side behind needs; given the cards each side can still play, how the battle
ends if both answer while they can, and (``--moves``) the moves that record that battle from the
position. Example::

    table-companion --game origo battle --board position.json --field C4 --attacker Ann --cards 1

Every user mistake (a missing or corrupt file, a field that is not on the board or cannot be
attacked, a bad count) prints one line on stderr and returns 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from games.errors import GameError
from games.origo.rules import battle as calc
from games.origo.rules.engine import apply, attack_problem, check
from games.origo.rules.moves import AnyMove, Attack, Card, Stop
from games.origo.rules.state import Phase, Side, State


class _UserError(Exception):
    pass


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``battle`` command."""
    p = sub.add_parser(
        "battle",
        help="Origo's battle calculator: points, who wins if nobody plays on, cards the side behind needs",
        description="Origo's battle calculator (docs/origo.md, 'Battle calculator').",
    )
    p.add_argument("--board", required=True, metavar="FILE", help="an Origo position or journal (JSON)")
    p.add_argument("--field", help="the attacked field, e.g. C4 (default: the field of the battle in progress)")
    p.add_argument("--attacker", help="the attacker's name (default: the player on turn)")
    p.add_argument("--cards", type=int, help="cards the attacker has played (default 1, or the battle's)")
    p.add_argument("--defender-cards", type=int, help="cards the defender has played (default 0, or the battle's)")
    p.add_argument("--attacker-left", type=int, metavar="N", help="cards the attacker can still play")
    p.add_argument("--defender-left", type=int, metavar="N", help="cards the defender can still play")
    p.add_argument("--moves", action="store_true", help="print the moves that record the battle as played out")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_battle)


def _load(path: str) -> State:
    from games.origo.plugin import GAME
    from games.record import open_record

    try:
        state: State = open_record(path, game=GAME).state
    except (GameError, ValueError) as exc:
        raise _UserError(str(exc)) from None
    return state


def _count(val: int | None, default: int, what: str, lo: int) -> int:
    if val is None:
        return default
    if val < lo:
        raise _UserError(f"{what} must be at least {lo}, got {val}")
    return val


def _record(
    state: State, field: int, attacker: int, cards: int, defender_cards: int, a_left: int, d_left: int
) -> list[str]:
    """The moves that record the battle from ``state``: the attack and the attacker's opening cards
    (unless the battle is in progress), then each side behind answering while it has cards left —
    applied through the engine, so they are legal as printed."""
    moves: list[str] = []
    s = state

    def push(m: AnyMove) -> None:
        nonlocal s
        bad = check(s, m)
        if bad:
            raise _UserError(f"cannot record {str(m)!r} from this position: {bad[0]}: {bad[1]}")
        s = apply(s, m)
        moves.append(str(m))

    att = state.name(attacker)
    b = state.battle
    if b is None or b.field != field:
        if defender_cards:
            raise _UserError("--moves records a battle from its start: --defender-cards must be 0")
        push(Attack(att, state.board.name_of(field)))
        opening_more = cards - 1
    else:
        if (cards, defender_cards) != (b.attacker_cards, b.defender_cards):
            raise _UserError("--moves continues the battle in progress: leave out --cards and --defender-cards")
        opening_more = 0
    defender = state.owners[field]
    left = {attacker: a_left, defender: d_left}
    while s.phase is Phase.BATTLE:
        sb = s.battle
        assert sb is not None
        due = sb.attacker if calc.side_to_answer(s, sb) is Side.ATTACKER else sb.defender
        pa, pd = calc.battle_points(s, sb)
        if sb.opening and opening_more > 0:
            opening_more -= 1
            push(Card(att))
        elif sb.opening and pa > pd:
            push(Stop(att))  # the opening is over: the defender answers
        elif left[due] > 0:
            left[due] -= 1
            push(Card(s.name(due)))
        else:
            push(Stop(s.name(due)))
    return moves


def cmd_battle(args: argparse.Namespace) -> int:
    """Print the calculator's figures; 2 with one line on stderr for a user mistake."""
    try:
        out = _battle(args)
    except _UserError as exc:
        print(f"origo battle: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        print("\n".join(out["lines"]))
    return 0


def _battle(args: argparse.Namespace) -> dict[str, Any]:
    state = _load(args.board)
    board = state.board
    b = state.battle
    if args.field is None and b is None:
        raise _UserError("no battle is in progress in this position: name the attacked field with --field")
    field = b.field if args.field is None and b is not None else board.find(args.field)
    if field is None:
        raise _UserError(f"the board has no field {args.field!r}")
    in_battle = b is not None and b.field == field
    if args.attacker is not None:
        attacker = state.seat_of(args.attacker)
        if attacker is None:
            raise _UserError(
                f"nobody called {args.attacker!r} plays (players: {', '.join(s.name for s in state.seats)})"
            )
    else:
        attacker = b.attacker if in_battle and b is not None else state.to_move
    if in_battle and b is not None and attacker != b.attacker:
        raise _UserError(f"the battle for {board.name_of(field)} is {state.name(b.attacker)}'s attack")
    if not in_battle:
        bad = attack_problem(state, attacker, field)
        if bad:
            raise _UserError(f"{bad[0]}: {bad[1]}")
    cards = _count(args.cards, b.attacker_cards if in_battle and b else 1, "--cards", 1)
    dcards = _count(args.defender_cards, b.defender_cards if in_battle and b else 0, "--defender-cards", 0)
    fig = calc.figures(state, field, attacker, cards, dcards)
    defender = state.owners[field]
    region = board.region_of(field)
    kind = "a founded land" if region.is_land else "a fully occupied sea"
    a, d = fig.attacker_points, fig.defender_points
    lines = [
        f"{fig.attacker} attacks {fig.field} ({region.name['en']}, {kind}) held by {fig.defender}",
        f"  {fig.attacker}: {cards} card(s) x 2 + {fig.attacker_shields} adjacent shield(s) = {a} points",
        f"  {fig.defender}: {dcards} card(s) x 2 + {fig.defender_shields - 1} adjacent shield(s) + 1 attacked shield"
        f" = {d} points",
    ]
    win = fig.attacker if fig.leading is Side.ATTACKER else fig.defender
    lose = fig.defender if fig.leading is Side.ATTACKER else fig.attacker
    lines.append(
        f"  if nobody plays on: {win} wins ({a}:{d}{', a tie goes to the defender' if a == d else ''});"
        f" {lose}'s shield on {fig.field} leaves the game"
    )
    goal = "get ahead" if fig.behind is Side.ATTACKER else "draw level (a tie is the defender's)"
    lines.append(f"  {lose} is behind and needs {fig.cards_needed} more card(s) to {goal}")
    out: dict[str, Any] = {"figures": fig.to_dict()}
    if args.attacker_left is not None or args.defender_left is not None or args.moves:
        a_left = _count(
            args.attacker_left, max(state.hands[attacker] - (0 if in_battle else cards), 0), "--attacker-left", 0
        )
        d_left = _count(args.defender_left, state.hands[defender], "--defender-left", 0)
        res = calc.play_out(a, d, a_left, d_left)
        winner = fig.attacker if res.winner is Side.ATTACKER else fig.defender
        lines.append(
            f"  if {fig.attacker} can still play {a_left} card(s) and {fig.defender} {d_left}, both answering while"
            f" they can: {winner} wins {res.attacker_points}:{res.defender_points} ({fig.attacker} plays"
            f" {res.attacker_cards} more, {fig.defender} {res.defender_cards})"
        )
        out["play_out"] = {**res.to_dict(), "attacker_left": a_left, "defender_left": d_left}
        if args.moves:
            recorded = _record(state, field, attacker, cards, dcards, a_left, d_left)
            lines.append("  record: " + "; ".join(f"'{m}'" for m in recorded))
            out["moves"] = recorded
    out["lines"] = lines
    return out


__all__ = ["cmd_battle", "register"]
