"""The rules of coin race (see :mod:`games.toy`): value types, ``apply``, legal moves, JSON. The plug-in
(``GAME``, which also names the page module) is :mod:`games.toy` itself: a game's rules import only
themselves (tests/architecture)."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from datafile import DataFileError, Reader
from games.api import GameInfo, PlayerFactory, Seat, Standing
from games.errors import IllegalMoveError, InvalidMoveError

GOAL = 10
INFO = GameInfo(
    id="toy",
    title="Coin race",
    min_players=2,
    max_players=4,
    clause_prefix="T-",
    journal_format="toy-journal",
    position_format="toy-position",
    summary="a toy game: the chassis's test double",
    listed=False,
)


class Phase(StrEnum):
    """What the game waits for."""

    DECIDE = "decide"
    COIN = "coin"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Step:
    """``step N``: move N spaces (T-2)."""

    n: int
    chance = False

    def __str__(self) -> str:
        return f"step {self.n}"


@dataclass(frozen=True, slots=True)
class Flip:
    """``flip``: the table flips the coin (T-4)."""

    chance = False

    def __str__(self) -> str:
        return "flip"


@dataclass(frozen=True, slots=True)
class Coin:
    """``coin heads`` / ``coin tails``: the chance outcome of a flip (T-4)."""

    heads: bool
    chance = True

    def __str__(self) -> str:
        return "coin heads" if self.heads else "coin tails"


Move = Step | Flip | Coin


@dataclass(frozen=True, slots=True)
class State:
    """Seats (name, colour), spaces reached, the seat to move and the phase."""

    seats: tuple[Seat, ...]
    spaces: tuple[int, ...]
    to_move: int = 0
    phase: Phase = Phase.DECIDE


def parse_move(text: str) -> Move:
    """``step 1``, ``step 2``, ``flip``, ``coin heads``, ``coin tails``."""
    words = text.split() if isinstance(text, str) else []
    if words == ["flip"]:
        return Flip()
    if len(words) == 2 and words[0] == "coin" and words[1] in ("heads", "tails"):
        return Coin(words[1] == "heads")
    if len(words) == 2 and words[0] == "step" and words[1] in ("1", "2"):
        return Step(int(words[1]))
    raise InvalidMoveError(f"{text!r} is not a move: write 'step 1', 'step 2', 'flip' or 'coin heads|tails'")


def _context(state: State) -> str:
    if state.phase is Phase.OVER:
        return "the game is over"
    who = state.seats[state.to_move].name
    return f"{who} on space {state.spaces[state.to_move]}, " + (
        "waiting for the coin" if state.phase is Phase.COIN else "to move"
    )


def check(state: State, move: Any) -> tuple[str, str] | None:
    """``(clause, reason)`` when ``move`` is illegal, else None."""
    if state.phase is Phase.OVER:
        return ("T-5", "the game is over")
    if state.phase is Phase.COIN:
        return None if isinstance(move, Coin) else ("T-4", "the coin was flipped: report it ('coin heads|tails')")
    if isinstance(move, Coin):
        return ("T-4", "nobody flipped the coin")
    if isinstance(move, Step) and move.n == 2 and state.spaces[state.to_move] == GOAL - 1:
        return ("T-3", f"no 'step 2' from space {GOAL - 1}")
    if not isinstance(move, Step | Flip):
        return ("T-1", f"{move!r} is not a move of this game")
    return None


def _advance(state: State, by: int) -> State:
    spaces = list(state.spaces)
    spaces[state.to_move] += by
    if spaces[state.to_move] >= GOAL:
        return replace(state, spaces=tuple(spaces), phase=Phase.OVER)
    return replace(state, spaces=tuple(spaces), to_move=(state.to_move + 1) % len(spaces), phase=Phase.DECIDE)


def apply(state: State, move: Any) -> State:
    """The state after ``move``; IllegalMoveError names the clause."""
    bad = check(state, move)
    if bad:
        raise IllegalMoveError(bad[0], bad[1], str(move), _context(state))
    if isinstance(move, Flip):
        return replace(state, phase=Phase.COIN)
    if isinstance(move, Coin):
        return _advance(state, 3 if move.heads else 0)
    return _advance(state, move.n)


class LegalMoves:
    """The legal moves of one state, generated on demand."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __iter__(self) -> Iterator[Move]:
        for m in (Step(1), Step(2), Flip(), Coin(True), Coin(False)):
            if check(self.state, m) is None:
                yield m

    def __contains__(self, move: object) -> bool:
        return check(self.state, move) is None

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)


class RandomPlayer:
    """Picks a legal decision at random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return self.rng.choice([m for m in LegalMoves(state) if not m.chance])


class GreedyPlayer:
    """Steps 2 when it may, else 1."""

    def __init__(self, seed: int) -> None:
        del seed

    def choose(self, state: State) -> Move:
        return Step(2) if Step(2) in LegalMoves(state) else Step(1)


class ToyRules:
    """The game interface of coin race."""

    info = INFO

    @property
    def players(self) -> Mapping[str, PlayerFactory]:
        return {"random": RandomPlayer, "greedy": GreedyPlayer}

    def settings(self, players: Sequence[tuple[str, str]], profile: Any = None) -> dict[str, Any]:
        if not INFO.min_players <= len(players) <= INFO.max_players:
            raise ValueError(f"coin race is played by {INFO.min_players} to {INFO.max_players} players")
        return {"players": [{"name": n, "colour": c} for n, c in players]}

    def new_state(self, settings: Mapping[str, Any], source: str = "settings", base: str | Path | None = None) -> State:
        rd = Reader(source)
        if settings.get("start") is not None:
            return self.state_from_json(settings["start"], f"{source}: settings.start")
        raw = rd.list(rd.get(settings, "players", "settings"), "settings.players", 2, 4)
        seats = tuple(
            Seat(
                rd.text(
                    rd.get(rd.obj(p, f"settings.players[{i}]"), "name", f"settings.players[{i}]"),
                    f"settings.players[{i}].name",
                ),
                str(p.get("colour", "grey")),
            )
            for i, p in enumerate(raw)
        )
        return State(seats, (0,) * len(seats))

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def apply(self, state: State, move: Any) -> State:
        return apply(state, move)

    def legal_moves(self, state: State) -> LegalMoves:
        return LegalMoves(state)

    def explain(self, state: State, move: Any) -> str | None:
        bad = check(state, move)
        return f"{bad[0]}: {bad[1]}" if bad else None

    def is_chance(self, state: State) -> bool:
        return state.phase is Phase.COIN

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def actor(self, state: State) -> int:
        return state.to_move

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        return [(Coin(True), 0.5), (Coin(False), 0.5)] if state.phase is Phase.COIN else []

    def sample_chance(self, state: State, rng: random.Random) -> Any:
        return Coin(rng.random() < 0.5)

    def seats(self, state: State) -> list[Seat]:
        return list(state.seats)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return {
            "format": INFO.position_format,
            "version": 1,
            "players": [
                {"name": s.name, "colour": s.colour, "space": n} for s, n in zip(state.seats, state.spaces, strict=True)
            ],
            "to_move": state.to_move,
            "phase": str(state.phase),
        }

    def state_from_json(
        self, data: Any, source: str = "<position>", profile: Any = None, base: str | Path | None = None
    ) -> State:
        rd = Reader(source, DataFileError)
        doc = rd.obj(data, "")
        rd.only(doc, ("format", "version", "players", "to_move", "phase"), "")
        if doc.get("format") != INFO.position_format:
            raise rd.fail("format", f"must be {INFO.position_format!r}")
        raw = rd.list(rd.get(doc, "players", ""), "players", 2, 4)
        seats, spaces = [], []
        for i, p in enumerate(raw):
            path = f"players[{i}]"
            p = rd.obj(p, path)
            rd.only(p, ("name", "colour", "space"), path)
            seats.append(
                Seat(
                    rd.text(rd.get(p, "name", path), f"{path}.name"), rd.text(p.get("colour", "grey"), f"{path}.colour")
                )
            )
            spaces.append(rd.integer(rd.get(p, "space", path), f"{path}.space", 0, GOAL + 2))
        to_move = rd.integer(rd.get(doc, "to_move", ""), "to_move", 0, len(raw) - 1)
        phase = Phase(rd.choice(rd.get(doc, "phase", ""), "phase", [p.value for p in Phase]))
        return State(tuple(seats), tuple(spaces), to_move, phase)

    def settings_of(self, state: State) -> dict[str, Any]:
        return {
            "players": [{"name": s.name, "colour": s.colour} for s in state.seats],
            "start": self.state_to_json(state),
        }

    def scores(self, state: State) -> list[dict[str, Any]]:
        return [
            {"seat": i, "name": s.name, "total": n, "spaces": n}
            for i, (s, n) in enumerate(zip(state.seats, state.spaces, strict=True))
        ]

    def ranking(self, state: State) -> list[Standing]:
        order = sorted(range(len(state.seats)), key=lambda i: (-state.spaces[i], i))
        return [Standing(k + 1, i, state.seats[i].name, state.spaces[i], (("seat", i),)) for k, i in enumerate(order)]

    def result(self, state: State) -> dict[str, Any]:
        return {"ranking": [s.to_dict() for s in self.ranking(state)]}

    def prompt(self, state: State) -> dict[str, Any]:
        return {
            "kind": str(state.phase),
            "seat": state.to_move,
            "chance": state.phase is Phase.COIN,
            "text": _context(state),
            "options": [
                {
                    "move": str(m),
                    "available": check(state, m) is None,
                    "reason": (check(state, m) or ("", ""))[1],
                    "clause": (check(state, m) or ("", ""))[0],
                }
                for m in (Step(1), Step(2), Flip())
            ]
            if state.phase is Phase.DECIDE
            else [],
        }

    def turn_key(self, state: State) -> Hashable:
        return ("over",) if state.phase is Phase.OVER else ("turn", state.to_move, sum(state.spaces))

