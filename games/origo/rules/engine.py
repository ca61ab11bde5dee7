"""The engine: a new game, what a move is forbidden by (clause and reason), ``apply``, the lazy
legal-move view and the prompt (what the game waits for, with the options and the clause that
forbids the rest). Rules: docs/origo-rules.md (clauses ``O-…``).

:func:`check` is the single source of truth: :func:`apply` refuses exactly what it refuses, and the
legal-move view is every candidate it lets through, so nothing ``apply`` accepts is missing from it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from games.api import Seat
from games.origo.rules import battle as calc
from games.origo.rules.board import Board, RegionKind
from games.origo.rules.errors import IllegalMoveError
from games.origo.rules.moves import (
    MAX_POINTS,
    AnyMove,
    Attack,
    Card,
    Lay,
    Pass,
    Play,
    Points,
    Refill,
    Reveal,
    Stop,
)
from games.origo.rules.state import FREE, Battle, EndTrigger, Founding, Phase, Side, State

Problem = tuple[str, str]
"""``(clause, reason)``: why a move is illegal."""


# --- a new game ------------------------------------------------------------------------------


def check_players(players: Sequence[tuple[str, str]], board: Board) -> str | None:
    """Why this list of ``(name, colour)`` cannot play on ``board`` (O-SETUP-1), or None."""
    counts = board.player_counts()
    n = len(players)
    if n not in counts:
        return f"Origo is played by {', '.join(map(str, counts))} players on this board, not {n}"
    names: set[str] = set()
    colours: set[str] = set()
    per = board.shields_per_player[n]
    for name, colour in players:
        if not isinstance(name, str) or not name or name != " ".join(name.split()) or len(name) > 30:
            return f"player name {name!r} must be 1-30 characters, single spaces between words"
        if name.casefold() in names:
            return f"two players are called {name!r}"
        names.add(name.casefold())
        if colour not in board.shields_by_colour:
            return f"{name}'s colour {colour!r} is no shield colour: choose from {', '.join(board.shields_by_colour)}"
        if colour in colours:
            return f"two players play {colour}"
        colours.add(colour)
        if board.shields_by_colour[colour] < per:
            return f"{colour} has {board.shields_by_colour[colour]} shields; {n} players need {per} each"
    return None


def new_game(players: Sequence[tuple[str, str]], board: Board) -> State:
    """The state before the first move (O-SETUP-1): every supply full, every hand full, every leader
    at the start of the path, the board empty, the first seat on turn; ValueError for a bad list."""
    bad = check_players(players, board)
    if bad:
        raise ValueError(bad)
    n = len(players)
    return State(
        board=board,
        seats=tuple(Seat(name, colour) for name, colour in players),
        owners=(FREE,) * board.n_fields,
        supply=(board.shields_per_player[n],) * n,
        out=(0,) * n,
        hands=(board.hand_size,) * n,
        leader=(board.path_start,) * n,
        tribe=(0,) * n,
        final=(0,) * n,
    )


# --- conditions ------------------------------------------------------------------------------


def actor(state: State) -> int:
    """The seat whose decision the state waits for: the player on turn, the side whose battle card is
    due, or the first player whose points are not yet entered."""
    if state.phase is Phase.BATTLE and state.battle is not None:
        b = state.battle
        return b.attacker if calc.side_to_answer(state, b) is Side.ATTACKER else b.defender
    if state.phase in (Phase.SCORING, Phase.FINAL):
        for i, e in enumerate(state.entries):
            if e is None:
                return i
    return state.to_move


def region_full(state: State, region: int) -> bool:
    """Every field of the region holds a shield."""
    return state.free_fields(region) == 0


def attack_problem(state: State, seat: int, field: int) -> Problem | None:
    """Why ``seat`` cannot attack ``field`` as the board lies (O-ATK-1, O-ATK-2), or None; the turn,
    the hand and the supply are not looked at (the calculator asks this too)."""
    board = state.board
    name = board.name_of(field)
    owner = state.owners[field]
    if owner == FREE:
        return ("O-ATK-1", f"{name} is free: only a field occupied by another player can be attacked")
    if owner == seat:
        return ("O-ATK-1", f"{name} holds {state.name(seat)}'s own shield")
    ri = board.cells[field].region
    region = board.regions[ri]
    if region.kind is RegionKind.SEA and not region_full(state, ri):
        return (
            "O-ATK-1",
            f"{name} lies in {region.name['en']}, a sea with {state.free_fields(ri)} free field(s): "
            "only a fully occupied sea can be attacked",
        )
    if region.kind is RegionKind.LAND and not state.is_founded(ri):
        return ("O-ATK-1", f"{name} lies in {region.name['en']}, which is not founded")
    if not any(state.owners[nb] == seat for nb in board.neighbours[field]):
        cell = board.cells[field]
        diag = [
            i
            for i, c in enumerate(board.cells)
            if abs(c.col - cell.col) == 1 and abs(c.row - cell.row) == 1 and state.owners[i] == seat
        ]
        if diag:
            return (
                "O-ATK-2",
                f"{state.name(seat)}'s shield on {board.name_of(diag[0])} touches {name} only "
                "diagonally; diagonal fields are not adjacent",
            )
        return ("O-ATK-1", f"no shield of {state.name(seat)} lies on a field adjacent to {name}")
    return None


def attack_targets(state: State, seat: int) -> list[int]:
    """The fields ``seat`` could attack as the board lies."""
    return [f for f in range(state.board.n_fields) if attack_problem(state, seat, f) is None]


def _field(state: State, name: str) -> tuple[int | None, Problem | None]:
    idx = state.board.find(name)
    if idx is None:
        return None, ("O-BOARD-1", f"the board has no field {name}")
    return idx, None


def _seat(state: State, name: str, clause: str) -> tuple[int | None, Problem | None]:
    seat = state.seat_of(name)
    if seat is None:
        who = ", ".join(s.name for s in state.seats)
        return None, (clause, f"nobody called {name!r} plays (players: {who})")
    return seat, None


def _check_turn(state: State, move: Any) -> Problem | None:
    mover = state.to_move
    if isinstance(move, Reveal):
        return ("O-FOUND-2", "no land is waiting for its founding field")
    if isinstance(move, Points):
        return ("O-SCORE-1", "no scoring is being entered now")
    if isinstance(move, Card | Stop):
        return ("O-ATK-4", "no battle is in progress: a battle starts with an attack")
    name: str = move.player
    seat, bad = _seat(state, name, "O-TURN-5")
    if bad:
        return bad
    if seat != mover:
        return ("O-TURN-5", f"it is {state.name(mover)}'s turn, not {name}'s")
    if isinstance(move, Lay):
        idx, bad = _field(state, move.field)
        if bad or idx is None:
            return bad
        if state.owners[idx] != FREE:
            return ("O-LAY-1", f"{move.field} already holds {state.name(state.owners[idx])}'s shield")
        if state.supply[mover] == 0:
            return ("O-LAY-1", f"{name} has no unused shield left")
        return None
    if isinstance(move, Play):
        if move.cards > state.hands[mover]:
            return ("O-LAY-2", f"{name} holds {state.hands[mover]} card(s), not {move.cards}")
        return None
    if isinstance(move, Attack):
        idx, bad = _field(state, move.field)
        if bad or idx is None:
            return bad
        bad = attack_problem(state, mover, idx)
        if bad:
            return bad
        if state.hands[mover] == 0:
            return ("O-ATK-3", f"{name} holds no card to attack with")
        if state.supply[mover] == 0:
            return ("O-ATK-4", f"{name} has no unused shield to lay on the attacked field")
        return None
    if isinstance(move, Pass):
        if state.acted:
            return ("O-TURN-2", f"{name} has acted this turn: end it with 'refill {name}'")
        return None
    if isinstance(move, Refill):
        if not state.acted:
            return ("O-TURN-3", f"{name} has done nothing this turn: sitting it out is 'pass {name}'")
        return None
    return ("O-TURN-1", f"{move!r} is not a move of Origo")


def _check_battle(state: State, move: Any) -> Problem | None:
    b = state.battle
    assert b is not None
    field = state.board.name_of(b.field)
    if not isinstance(move, Card | Stop):
        return ("O-ATK-12", f"a battle for {field} is in progress: play a card or stop first")
    side = calc.side_to_answer(state, b)
    due = b.attacker if side is Side.ATTACKER else b.defender
    if state.seat_of(move.player) != due:
        a, d = calc.battle_points(state, b)
        if b.opening:
            why = f"{state.name(b.attacker)} is still playing the opening cards"
            clause = "O-ATK-4"
        elif side is Side.ATTACKER:
            why = f"{state.name(b.defender)} leads {d}:{a} (a tie is the defender's): only {state.name(due)} answers"
            clause = "O-ATK-7"
        else:
            why = f"{state.name(b.attacker)} leads {a}:{d}: only {state.name(due)} answers"
            clause = "O-ATK-8"
        return (clause, why)
    if isinstance(move, Card) and state.hands[due] == 0:
        return ("O-ATK-9", f"{move.player} holds no card to play")
    return None


def _check_reveal(state: State, move: Any) -> Problem | None:
    if not isinstance(move, Reveal):
        assert state.founding_land is not None
        land = state.board.regions[state.founding_land].name["en"]
        return ("O-FOUND-2", f"{land} was founded: report the founding field revealed first ('reveal N [red]')")
    if move.value > state.board.max_reveal:
        return ("O-FOUND-2", f"a founding field shows at most {state.board.max_reveal} on this board, not {move.value}")
    return None


def _check_scoring(state: State, move: Any) -> Problem | None:
    clause = "O-SCORE-1" if state.phase is Phase.SCORING else "O-SCORE-3"
    what = "tribe scoring" if state.phase is Phase.SCORING else "final scoring"
    missing = ", ".join(state.name(i) for i, e in enumerate(state.entries) if e is None)
    if not isinstance(move, Points):
        return (clause, f"the {what} is being entered: 'points NAME N' for {missing}")
    seat, bad = _seat(state, move.player, clause)
    if bad or seat is None:
        return bad
    if state.entries[seat] is not None:
        return (clause, f"{move.player}'s points of this {what} are entered ({state.entries[seat]})")
    if move.points > MAX_POINTS:  # pragma: no cover - the notation refuses it already
        return (clause, f"at most {MAX_POINTS} points in one entry")
    return None


def check(state: State, move: Any) -> Problem | None:
    """``(clause, reason)`` when ``move`` is illegal in ``state``, else None."""
    if not isinstance(move, Lay | Play | Attack | Card | Stop | Refill | Pass | Reveal | Points):
        return ("O-TURN-1", f"{move!r} is not a move of Origo")
    phase = state.phase
    if phase is Phase.OVER:
        return ("O-END-3", "the game is over")
    if phase is Phase.TURN:
        return _check_turn(state, move)
    if phase is Phase.BATTLE:
        return _check_battle(state, move)
    if phase is Phase.REVEAL:
        return _check_reveal(state, move)
    return _check_scoring(state, move)


# --- applying moves --------------------------------------------------------------------------


def _set(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _trigger(state: State, why: EndTrigger) -> EndTrigger:
    return state.end if state.end is not EndTrigger.NONE else why


def _after_round(state: State) -> State:
    """The round is over and its scoring (if any) held: the next round, or the final scoring."""
    if state.end is not EndTrigger.NONE:
        return replace(state, phase=Phase.FINAL, entries=(None,) * state.n, acted=False)
    return replace(
        state,
        round=state.round + 1,
        turn=state.turn + 1,
        to_move=0,
        passes=0,
        phase=Phase.TURN,
        acted=False,
        entries=(),
    )


def _end_turn(state: State, refill: bool) -> State:
    hands = (state.board.hand_size,) * state.n if refill else state.hands
    passes = state.passes + (0 if refill else 1)
    nxt = state.to_move + 1
    if nxt < state.n:
        return replace(state, hands=hands, passes=passes, to_move=nxt, turn=state.turn + 1, acted=False)
    end = _trigger(state, EndTrigger.PASSES) if passes == state.n else state.end
    s = replace(state, hands=hands, passes=passes, end=end, acted=False, to_move=0)
    if s.scorings_due > 0:  # O-FOUND-4/5: one tribe scoring at this round's end, the rest later
        return replace(s, phase=Phase.SCORING, scorings_due=s.scorings_due - 1, entries=(None,) * s.n)
    return _after_round(s)


def _resolve(state: State, b: Battle, loser: Side) -> State:
    out = state.out
    owners = state.owners
    if loser is Side.ATTACKER:  # O-ATK-11: the attacker's shield on the field goes to the box
        out = _set(out, b.attacker, out[b.attacker] + 1)
    else:  # O-ATK-10: the defender's shield goes to the box, the attacker's stays
        out = _set(out, b.defender, out[b.defender] + 1)
        owners = _set(owners, b.field, b.attacker)
    return replace(state, out=out, owners=owners, battle=None, phase=Phase.TURN)


def apply(state: State, move: Any) -> State:
    """The state after ``move``; :class:`IllegalMoveError` naming the clause (``state`` unchanged)."""
    bad = check(state, move)
    if bad:
        raise IllegalMoveError(bad[0], bad[1], str(move), describe_context(state))
    m: AnyMove = move
    seat = state.to_move
    if isinstance(m, Lay):
        idx = state.board.find(m.field)
        assert idx is not None
        supply = _set(state.supply, seat, state.supply[seat] - 1)
        s = replace(
            state,
            owners=_set(state.owners, idx, seat),
            supply=supply,
            acted=True,
            end=_trigger(state, EndTrigger.SHIELDS) if supply[seat] == 0 else state.end,
        )
        ri = state.board.cells[idx].region
        if state.board.regions[ri].is_land and not s.is_founded(ri) and region_full(s, ri) and s.stones_left > 0:
            return replace(s, phase=Phase.REVEAL, founding_land=ri)  # O-FOUND-1
        return s
    if isinstance(m, Play):
        return replace(state, hands=_set(state.hands, seat, state.hands[seat] - m.cards), acted=True)
    if isinstance(m, Attack):
        idx = state.board.find(m.field)
        assert idx is not None
        supply = _set(state.supply, seat, state.supply[seat] - 1)
        return replace(
            state,
            supply=supply,
            hands=_set(state.hands, seat, state.hands[seat] - 1),
            battle=Battle(idx, seat, state.owners[idx]),
            phase=Phase.BATTLE,
            acted=True,
            end=_trigger(state, EndTrigger.SHIELDS) if supply[seat] == 0 else state.end,
        )
    if isinstance(m, Card):
        b = state.battle
        assert b is not None
        who = state.seat_of(m.player)
        assert who is not None
        nb = (
            replace(b, attacker_cards=b.attacker_cards + 1)
            if who == b.attacker
            else replace(b, defender_cards=b.defender_cards + 1)
        )
        return replace(state, hands=_set(state.hands, who, state.hands[who] - 1), battle=nb)
    if isinstance(m, Stop):
        b = state.battle
        assert b is not None
        a, d = calc.battle_points(state, b)
        if b.opening and a > d:  # the attacker is ahead after his opening: the defender answers
            return replace(state, battle=replace(b, opening=False))
        return _resolve(state, b, calc.side_to_answer(state, b))
    if isinstance(m, Reveal):
        land = state.founding_land
        assert land is not None
        lead = min(state.leader[seat] + m.value, state.board.path_length)  # O-FOUND-3
        founded = (*state.founded, Founding(land, seat, m.value, m.red))
        s = replace(
            state,
            founded=founded,
            leader=_set(state.leader, seat, lead),
            scorings_due=state.scorings_due + (1 if m.red else 0),  # O-FOUND-4
            phase=Phase.TURN,
            founding_land=None,
        )
        if s.stones_left == 0:
            s = replace(s, end=_trigger(s, EndTrigger.STONES))  # O-END-2
        return s
    if isinstance(m, Refill):
        return _end_turn(state, refill=True)
    if isinstance(m, Pass):
        return _end_turn(state, refill=False)
    # Points
    who = state.seat_of(m.player)
    assert who is not None
    entries = (*state.entries[:who], m.points, *state.entries[who + 1 :])
    if state.phase is Phase.SCORING:
        s = replace(state, tribe=_set(state.tribe, who, state.tribe[who] + m.points), entries=entries)
        if all(e is not None for e in entries):
            return _after_round(replace(s, scorings_held=s.scorings_held + 1, entries=()))
        return s
    s = replace(state, final=_set(state.final, who, state.final[who] + m.points), entries=entries)
    if all(e is not None for e in entries):
        return replace(s, phase=Phase.OVER, entries=())
    return s


# --- legal moves -----------------------------------------------------------------------------


def candidates(state: State) -> Iterator[AnyMove]:
    """Every move that might be legal here (a superset the view filters with :func:`check`)."""
    phase = state.phase
    if phase is Phase.TURN:
        seat = state.to_move
        name = state.name(seat)
        board = state.board
        if state.supply[seat] > 0:
            for f in range(board.n_fields):
                if state.owners[f] == FREE:
                    yield Lay(name, board.name_of(f))
        for k in range(1, state.hands[seat] + 1):
            yield Play(name, k)
        if state.supply[seat] > 0 and state.hands[seat] > 0:
            for f in attack_targets(state, seat):
                yield Attack(name, board.name_of(f))
        yield Refill(name) if state.acted else Pass(name)
    elif phase is Phase.BATTLE:
        b = state.battle
        assert b is not None
        due = b.attacker if calc.side_to_answer(state, b) is Side.ATTACKER else b.defender
        if state.hands[due] > 0:
            yield Card(state.name(due))
        yield Stop(state.name(due))
    elif phase is Phase.REVEAL:
        for v in range(state.board.max_reveal + 1):
            yield Reveal(v)
            yield Reveal(v, True)
    elif phase in (Phase.SCORING, Phase.FINAL):
        for i, e in enumerate(state.entries):
            if e is None:
                for p in range(MAX_POINTS + 1):
                    yield Points(state.name(i), p)


class LegalMoves:
    """The legal moves of one state, generated on demand (python-chess style)."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __iter__(self) -> Iterator[AnyMove]:
        for m in candidates(self.state):
            if check(self.state, m) is None:
                yield m

    def __contains__(self, move: object) -> bool:
        return check(self.state, move) is None

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        """How many legal moves there are."""
        return sum(1 for _ in self)


def legal_moves(state: State) -> LegalMoves:
    """The lazy legal-move view of ``state``."""
    return LegalMoves(state)


def explain(state: State, move: Any) -> str | None:
    """``"CLAUSE: reason"`` when ``move`` is illegal here, else None."""
    bad = check(state, move)
    return f"{bad[0]}: {bad[1]}" if bad else None


# --- describing the state --------------------------------------------------------------------


def scoring_rounds(state: State) -> list[int]:
    """The rounds at whose end the scheduled tribe scorings take place (one per round, O-FOUND-5)."""
    first = state.round if state.phase in (Phase.TURN, Phase.BATTLE, Phase.REVEAL) else state.round + 1
    return [first + k for k in range(state.scorings_due)]


def describe_context(state: State) -> str:
    """One line saying where the game stands (used in error messages)."""
    phase = state.phase
    if phase is Phase.OVER:
        return "the game is over"
    where = f"round {state.round}"
    if phase is Phase.TURN:
        return f"{where}, {state.name(state.to_move)} on turn"
    if phase is Phase.BATTLE:
        b = state.battle
        assert b is not None
        a, d = calc.battle_points(state, b)
        return (
            f"{where}, {state.name(b.attacker)} attacks {state.board.name_of(b.field)} held by "
            f"{state.name(b.defender)}, {a}:{d}"
        )
    if phase is Phase.REVEAL:
        assert state.founding_land is not None
        return f"{where}, {state.board.regions[state.founding_land].name['en']} founded, waiting for its founding field"
    what = "tribe scoring" if phase is Phase.SCORING else "final scoring"
    return f"end of {where}, {what} being entered"


def expected_reveal(state: State) -> Reveal | None:
    """The founding field the board file puts under the leftmost stone (None when no stone is left)."""
    k = len(state.founded)
    if k >= state.board.stones:
        return None
    f = state.board.founding[k]
    return Reveal(f.value, f.red)


def _option(move: str, ok: bool, cost: str = "", clause: str = "", reason: str = "", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "move": move,
        "available": ok,
        "cost": cost,
        "clause": "" if ok else clause,
        "reason": "" if ok else reason,
    }
    out.update(extra)
    return out


def describe(state: State) -> dict[str, Any]:
    """What the game waits for, as JSON: kind, seat, text and the options with their cost and the
    clause that forbids the rest (the ``prompt`` of the game interface)."""
    phase = state.phase
    seat = actor(state)
    out: dict[str, Any] = {
        "kind": str(phase),
        "seat": seat if phase not in (Phase.OVER, Phase.REVEAL) else None,
        "player": state.name(seat) if phase not in (Phase.OVER, Phase.REVEAL) else None,
        "chance": phase is Phase.REVEAL,
        "round": state.round,
        "text": describe_context(state),
        "options": [],
    }
    if phase is Phase.TURN:
        name = state.name(seat)
        free = sum(1 for o in state.owners if o == FREE)
        sup, hand = state.supply[seat], state.hands[seat]
        targets = attack_targets(state, seat)
        opts = [
            _option(
                f"lay {name} FIELD",
                sup > 0 and free > 0,
                "1 shield from the supply",
                "O-LAY-1",
                f"{name} has no unused shield left" if sup == 0 else "no field is free",
                fields=free,
            ),
            _option(f"play {name} N", hand > 0, "cards from the hand", "O-LAY-2", f"{name} holds no card", hand=hand),
        ]
        if not targets:
            why: Problem = ("O-ATK-1", "no opponent's shield adjacent to yours lies in a full sea or a founded land")
        elif hand == 0:
            why = ("O-ATK-3", f"{name} holds no card to attack with")
        else:
            why = ("O-ATK-4", f"{name} has no unused shield")
        opts.append(
            _option(
                f"attack {name} FIELD",
                bool(targets) and hand > 0 and sup > 0,
                "1 card and 1 shield",
                why[0],
                why[1],
                targets=[calc.figures(state, f, seat, opening=True).to_dict() for f in targets],
            )
        )
        opts.append(_option(f"pass {name}", not state.acted, "", "O-TURN-2", f"{name} has acted this turn"))
        opts.append(
            _option(
                f"refill {name}",
                state.acted,
                f"draw up to {state.board.hand_size} cards",
                "O-TURN-3",
                f"{name} has done nothing this turn: pass instead",
            )
        )
        out["options"] = opts
    elif phase is Phase.BATTLE:
        b = state.battle
        assert b is not None
        fig = calc.battle_figures(state, b)
        name = state.name(seat)
        a, d = fig.attacker_points, fig.defender_points
        if b.opening and a > d:
            stop_means = f"ends {name}'s opening: {fig.defender} must answer"
        else:
            loser = b.attacker if seat == b.attacker else b.defender
            stop_means = f"{state.name(loser)}'s shield on {fig.field} leaves the game"
        out["battle"] = fig.to_dict()
        out["options"] = [
            _option(
                f"card {name}",
                state.hands[seat] > 0,
                "1 card, +2 points",
                "O-ATK-9",
                f"{name} holds no card",
                hand=state.hands[seat],
            ),
            _option(f"stop {name}", True, "", means=stop_means),
        ]
    elif phase is Phase.REVEAL:
        exp = expected_reveal(state)
        out["expected"] = str(exp) if exp else None
        out["values"] = [0, state.board.max_reveal]
        out["options"] = [
            _option("reveal N", True, note="N as shown on the founding field"),
            _option("reveal N red", True, note="a red founding field: a tribe scoring at the round's end"),
        ]
    elif phase in (Phase.SCORING, Phase.FINAL):
        missing = [state.name(i) for i, e in enumerate(state.entries) if e is None]
        what = "Tribe scoring (O-FOUND-4)" if phase is Phase.SCORING else "Final scoring (O-SCORE-3)"
        out["text"] = f"{what} at the end of round {state.round}: enter the points of {', '.join(missing)}"
        out["missing"] = missing
        out["options"] = [_option(f"points {n} N", True) for n in missing]
    return out


__all__ = [
    "LegalMoves",
    "Problem",
    "actor",
    "apply",
    "attack_problem",
    "attack_targets",
    "candidates",
    "check",
    "check_players",
    "describe",
    "describe_context",
    "expected_reveal",
    "explain",
    "legal_moves",
    "new_game",
    "region_full",
    "scoring_rounds",
]
