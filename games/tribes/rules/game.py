"""A game as settings plus a move log (the journal), replayable exactly.

:class:`Game` keeps the settings (players, box profile, optionally a starting position), every move
applied, and the states between them. The journal format (docs/journal.md) is exactly that: settings
and moves in notation; replaying it reproduces every state, with chance outcomes read from the log.
:func:`simulate` plays a whole game with simulated players and a seeded chance sampler.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from datafile import read_json
from games.tribes.rules.chance import sample_chance
from games.tribes.rules.engine import apply, new_game
from games.tribes.rules.errors import InvalidMoveError, JournalError, PositionError, ProfileError
from games.tribes.rules.moves import Move, parse_move
from games.tribes.rules.policies import GreedyPolicy, Policy, RandomPolicy
from games.tribes.rules.position import POSITION_FORMAT, profile_spec, state_from_dict
from games.tribes.rules.profile import BoxProfile, resolve_profile
from games.tribes.rules.scoring import ranking, scoreboard
from games.tribes.rules.state import State

JOURNAL_FORMAT = "tribes-journal"
JOURNAL_VERSION = 1


@dataclass
class Game:
    """Settings, the move log and the states it passes through. ``states[i]`` is the state before
    ``moves[i]``; ``state`` is the current one."""

    settings: dict[str, Any]
    states: list[State]
    moves: list[Move] = field(default_factory=list)

    @staticmethod
    def new(players: Sequence[str | tuple[str, str]], profile: BoxProfile | None = None) -> Game:
        """A new game before setup."""
        state = new_game(players, profile)
        settings = {
            "players": [{"name": p.name, "colour": p.colour} for p in state.players],
            "profile": profile_spec(state.profile),
        }
        return Game(settings, [state])

    @staticmethod
    def from_position(state: State) -> Game:
        """A game that starts at a given position (mid-game start)."""
        settings = {
            "players": [{"name": p.name, "colour": p.colour} for p in state.players],
            "profile": profile_spec(state.profile),
            "start": state.to_dict(),
        }
        return Game(settings, [state])

    @property
    def state(self) -> State:
        """The current state."""
        return self.states[-1]

    def push(self, move: Move | str) -> State:
        """Apply a move (or its notation) and log it; raises the engine's error, changing nothing."""
        if isinstance(move, str):
            move = parse_move(move)
        nxt = apply(self.state, move)
        self.moves.append(move)
        self.states.append(nxt)
        return nxt

    def to_dict(self) -> dict[str, Any]:
        """The journal as JSON data; the final ranking is added once the game is over."""
        out: dict[str, Any] = {
            "format": JOURNAL_FORMAT,
            "version": JOURNAL_VERSION,
            "game": "tribes",
            "settings": self.settings,
            "moves": [str(m) for m in self.moves],
        }
        if self.state.is_over:
            out["result"] = journal_result(self.state)
        return out

    @staticmethod
    def from_dict(
        data: Any, source: str = "<journal>", upto: int | None = None, base: str | Path | None = None
    ) -> Game:
        """Replay a journal; :class:`JournalError` names the file and the first bad field or move.
        ``base``: the folder of the journal's file (a profile path in it is read from there)."""
        if not isinstance(data, dict):
            raise JournalError(source, "(top level)", "must be a JSON object")
        if data.get("format") != JOURNAL_FORMAT:
            raise JournalError(source, "format", f"must be {JOURNAL_FORMAT!r}, got {data.get('format')!r}")
        if data.get("version") != JOURNAL_VERSION:
            raise JournalError(source, "version", f"must be {JOURNAL_VERSION}, got {data.get('version')!r}")
        settings = data.get("settings")
        if not isinstance(settings, dict):
            raise JournalError(source, "settings", "must be an object")
        game = Game(dict(settings), [state_from_settings(settings, source, base)])
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise JournalError(source, "moves", "must be a list of moves in notation")
        for i, text in enumerate(moves[:upto] if upto is not None else moves):
            try:
                game.push(text if isinstance(text, str) else parse_move(text))
            except (InvalidMoveError, ValueError) as exc:
                raise JournalError(source, f"moves[{i}]", str(exc)) from None
        return game


def journal_result(state: State) -> dict[str, Any]:
    """The result a finished game's journal records: the ranking (R-END-7) and the final scores."""
    return {
        "ranking": [
            {"place": s.place, "name": s.name, "vp": s.total, "shells": s.shells, "exhausted": s.exhausted}
            for s in ranking(state)
        ],
        "scores": [b.to_dict() for b in scoreboard(state)],
    }


def state_from_settings(settings: dict[str, Any], source: str = "<settings>", base: str | Path | None = None) -> State:
    """The state before the first move of a game with these settings (players and box profile, or
    a starting position); :class:`JournalError` names the source and field. A profile given as a
    relative path is read from ``base``, the folder of the file the settings came from (None: the
    working directory)."""
    try:
        profile = resolve_profile(settings.get("profile", "default"), source, base)
    except ProfileError as exc:
        raise JournalError(source, "settings.profile", str(exc)) from None
    if settings.get("start") is not None:
        try:
            return state_from_dict(settings["start"], profile, f"{source}: settings.start")
        except PositionError as exc:
            raise JournalError(source, "settings.start", str(exc)) from None
    raw = settings.get("players")
    if not isinstance(raw, list) or not all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in raw):
        raise JournalError(source, "settings.players", 'must be a list of {"name": …, "colour": …}')
    try:
        return new_game([(p["name"], str(p.get("colour", "grey"))) for p in raw], profile)
    except ValueError as exc:
        raise JournalError(source, "settings.players", str(exc)) from None


def game_from_data(data: Any, source: str, upto: int | None = None, base: str | Path | None = None) -> Game:
    """A journal or a position document, as a :class:`Game` (``base``: the folder of its file)."""
    if isinstance(data, dict) and data.get("format") == POSITION_FORMAT:
        return Game.from_position(state_from_dict(data, None, source, base))
    return Game.from_dict(data, source, upto, base)


def load_game(path: str | Path, upto: int | None = None) -> Game:
    """A journal or a position file, as a :class:`Game`; a profile it names by a relative path is
    read from the file's folder."""
    return game_from_data(read_json(path, "the game file", JournalError), str(path), upto, Path(path).parent)


POLICIES: dict[str, Callable[[int], Policy]] = {
    "random": lambda seed: RandomPolicy(seed),
    "greedy": lambda seed: GreedyPolicy(seed),
}


def simulate(
    players: Sequence[str | tuple[str, str]] | int,
    seed: int = 0,
    policies: Sequence[str] | str = "random",
    profile: BoxProfile | None = None,
    max_moves: int = 20000,
    on_move: Callable[[State, Move, State], None] | None = None,
) -> Game:
    """Play a whole game with simulated players; chance comes from a generator seeded with ``seed``.

    ``max_moves`` guards against a profile under which the game cannot end; the game is then
    returned unfinished (``game.state.is_over`` is False).
    """
    if isinstance(players, int):
        players = [f"Player {i + 1}" for i in range(players)]
    game = Game.new(players, profile)
    game.settings["seed"] = seed
    n = game.state.n
    names = [policies] * n if isinstance(policies, str) else list(policies)
    if len(names) != n:
        raise ValueError(f"{n} players need {n} policies, got {len(names)}")
    for name in names:
        if name not in POLICIES:
            raise ValueError(f"unknown policy {name!r}: choose from {', '.join(POLICIES)}")
    game.settings["policies"] = names
    pols = [POLICIES[name](seed * 101 + i) for i, name in enumerate(names)]
    rng = random.Random(seed)
    for _ in range(max_moves):
        state = game.state
        if state.is_over:
            break
        move = sample_chance(state, rng) if state.is_chance else pols[state.actor].choose(state)
        nxt = game.push(move)
        if on_move:
            on_move(state, move, nxt)
    return game
