"""A saved game of any game: settings plus the move log, replayable exactly (OpenSpiel's view).

:class:`Record` keeps the game's plug-in, the settings (players, box profile, a starting position
for a mid-game start), every move applied and the states between them. Its JSON form is the game's
journal (``{"format": "<id>-journal", "version": 1, "game": "<id>", "settings": …, "moves": […]}``
plus ``result`` once the game is over); :func:`open_record` reads a journal or a position document
of any registered game, choosing the game by the document's ``format`` (or its ``game`` field).
:func:`simulate` plays a whole game with simulated players and a seeded chance sampler — the one
place outside tests where chance is sampled.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import games
from datafile import DataFileError, read_json
from games.api import GamePlugin, State
from games.errors import GameError, JournalError

JOURNAL_VERSION = 1


@dataclass
class Record:
    """Settings, the move log and the states it passes through. ``states[i]`` is the state before
    ``moves[i]``; ``state`` is the current one."""

    game: GamePlugin
    settings: dict[str, Any]
    states: list[State]
    moves: list[Any] = field(default_factory=list)

    @staticmethod
    def new(
        game: GamePlugin, settings: dict[str, Any], source: str = "settings", base: str | Path | None = None
    ) -> Record:
        """A new game from its settings (``game.rules.settings(players, profile)``; ``base``: the
        folder of the file they came from, see :meth:`games.api.Rules.new_state`)."""
        return Record(game, dict(settings), [game.rules.new_state(settings, source, base)])

    @staticmethod
    def from_position(game: GamePlugin, state: State) -> Record:
        """A game that starts at a given position (mid-game start)."""
        return Record(game, game.rules.settings_of(state), [state])

    @property
    def state(self) -> State:
        """The current state."""
        return self.states[-1]

    def push(self, move: Any) -> State:
        """Apply a move (or its notation) and log it; raises the game's error, changing nothing."""
        rules = self.game.rules
        if isinstance(move, str):
            move = rules.parse_move(move)
        nxt = rules.apply(self.state, move)
        self.moves.append(move)
        self.states.append(nxt)
        return nxt

    def pop(self) -> Any:
        """Take the last move back (and return it)."""
        self.states.pop()
        return self.moves.pop()

    def prefix(self, upto: int) -> Record:
        """A record sharing the first ``upto`` moves (and states) of this one."""
        return Record(self.game, dict(self.settings), list(self.states[: upto + 1]), list(self.moves[:upto]))

    def to_dict(self) -> dict[str, Any]:
        """The journal as JSON data; the result is added once the game is over."""
        out: dict[str, Any] = {
            "format": self.game.info.journal_format,
            "version": JOURNAL_VERSION,
            "game": self.game.info.id,
            "settings": self.settings,
            "moves": [str(m) for m in self.moves],
        }
        if self.game.rules.is_over(self.state):
            out["result"] = self.game.rules.result(self.state)
        return out

    @staticmethod
    def from_dict(
        game: GamePlugin, data: Any, source: str = "<journal>", upto: int | None = None, base: str | Path | None = None
    ) -> Record:
        """Replay a journal of ``game``; :class:`JournalError` names the source and the first bad
        field or move (``base``: the folder of its file, as for :meth:`new`)."""
        if not isinstance(data, dict):
            raise JournalError(source, "(top level)", "must be a JSON object")
        fmt = game.info.journal_format
        if data.get("format") != fmt:
            raise JournalError(source, "format", f"must be {fmt!r}, got {data.get('format')!r}")
        if data.get("version") != JOURNAL_VERSION:
            raise JournalError(source, "version", f"must be {JOURNAL_VERSION}, got {data.get('version')!r}")
        if data.get("game", game.info.id) != game.info.id:
            raise JournalError(source, "game", f"must be {game.info.id!r}, got {data.get('game')!r}")
        settings = data.get("settings")
        if not isinstance(settings, dict):
            raise JournalError(source, "settings", "must be an object")
        try:
            record = Record.new(game, settings, source, base)
        except DataFileError as exc:
            raise JournalError(exc.source, exc.field, exc.reason) from None
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise JournalError(source, "moves", "must be a list of moves in notation")
        for i, text in enumerate(moves[:upto] if upto is not None else moves):
            if not isinstance(text, str):
                raise JournalError(source, f"moves[{i}]", "must be a move in notation (text)")
            try:
                record.push(text)
            except GameError as exc:
                raise JournalError(source, f"moves[{i}]", str(exc)) from None
        return record


def game_of(data: Any, source: str) -> GamePlugin:
    """The registered game a journal or position document belongs to: by its ``game`` field, else by
    its ``format``; :class:`JournalError` if none."""
    if not isinstance(data, dict):
        raise JournalError(source, "(top level)", "must be a JSON object")
    gid = data.get("game")
    if isinstance(gid, str):
        if gid not in games.available(hidden=True):
            raise JournalError(source, "game", f"unknown game {gid!r}: choose from {', '.join(games.available())}")
        return games.get(gid)
    plugin = games.for_format(data.get("format"))
    if plugin is None:
        raise JournalError(source, "format", f"{data.get('format')!r} is no game's journal or position format")
    return plugin


def record_from_data(
    data: Any, source: str, upto: int | None = None, game: GamePlugin | None = None, base: str | Path | None = None
) -> Record:
    """A journal or a position document (of ``game``, or of the game it names) as a :class:`Record`;
    ``base``: the folder of its file (files it names by relative paths are read from there)."""
    plugin = game or game_of(data, source)
    if isinstance(data, dict) and data.get("format") == plugin.info.position_format:
        return Record.from_position(plugin, plugin.rules.state_from_json(data, source, base=base))
    return Record.from_dict(plugin, data, source, upto, base)


def open_record(path: str | Path, upto: int | None = None, game: GamePlugin | None = None) -> Record:
    """A journal or position file of any registered game, as a :class:`Record`."""
    return record_from_data(read_json(path, "the game file", JournalError), str(path), upto, game, Path(path).parent)


def simulate(
    game: GamePlugin,
    players: Sequence[tuple[str, str]] | int,
    seed: int = 0,
    policies: Sequence[str] | str = "random",
    profile: Any = None,
    max_moves: int = 20000,
    on_move: Callable[[State, Any, State], None] | None = None,
) -> Record:
    """Play a whole game with simulated players; chance comes from a generator seeded with ``seed``.
    ``max_moves`` guards against a game that cannot end (it is returned unfinished)."""
    rules = game.rules
    if isinstance(players, int):
        colours = game.info.colours
        players = [(f"Player {i + 1}", colours[i % len(colours)]) for i in range(players)]
    record = Record.new(game, rules.settings(list(players), profile))
    n = len(rules.seats(record.state))
    names = [policies] * n if isinstance(policies, str) else list(policies)
    if len(names) != n:
        raise ValueError(f"{n} players need {n} policies, got {len(names)}")
    for name in names:
        if name not in rules.players:
            raise ValueError(f"unknown policy {name!r}: choose from {', '.join(rules.players)}")
    record.settings["seed"] = seed
    record.settings["policies"] = names
    pols = [rules.players[name](seed * 101 + i) for i, name in enumerate(names)]
    rng = random.Random(seed)
    for _ in range(max_moves):
        state = record.state
        if rules.is_over(state):
            break
        move = rules.sample_chance(state, rng) if rules.is_chance(state) else pols[rules.actor(state)].choose(state)
        nxt = record.push(move)
        if on_move:
            on_move(state, move, nxt)
    return record


__all__ = ["JOURNAL_VERSION", "Record", "game_of", "open_record", "record_from_data", "simulate"]
