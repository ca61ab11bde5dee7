"""Origo as a plug-in of the companion (:class:`games.api.GamePlugin`).

The rules engine (:mod:`games.origo.rules`) is the single source of truth; this module adapts it to
the game interface: settings, the engine's moves and states, the founding field as the one chance
outcome, scores and ranking, the board file as the box profile (:class:`OrigoProfiles`), and the
factories of the page module and the ``battle`` console command.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from datafile import DataFileError
from games.api import GameInfo, GamePlugin, PlayerFactory, Seat, Standing
from games.origo.rules import engine, position, scoring
from games.origo.rules.board import Board, board_spec, default_board, load_board, parse_board, resolve_board
from games.origo.rules.moves import AnyMove, Reveal, parse_move
from games.origo.rules.players import POLICIES
from games.origo.rules.state import Phase, State
from games.profiles import Profiles

if TYPE_CHECKING:
    from games.api import PageModule

INFO = GameInfo(
    id="origo",
    title="Origo",
    min_players=2,
    max_players=5,
    clause_prefix="O-",
    journal_format="origo-journal",
    position_format=position.POSITION_FORMAT,
    colours=("red", "blue", "black", "green", "orange"),
    summary="Found the lands of ancient Europe and fight for their fields (Kramer, Parker 2007)",
    publisher="Parker / Hasbro",
)


def _board_of(spec: Any, source: str, base: str | Path | None = None) -> Board:
    if isinstance(spec, Board):
        return spec
    return resolve_board(spec, source, "settings.profile", base)


class OrigoRules:
    """The game interface over the Origo engine."""

    info = INFO

    @property
    def players(self) -> Mapping[str, PlayerFactory]:
        """``random`` and ``greedy``."""
        return POLICIES

    def settings(self, players: Sequence[tuple[str, str]], profile: Any = None) -> dict[str, Any]:
        """``{"players": [{"name", "colour"}…], "profile": "default" | the board document}`` (a board
        file named by path is written in full, so the journal stands alone); ValueError for a list the
        board cannot seat (O-SETUP-1)."""
        board = _board_of(profile, "settings")
        bad = engine.check_players(list(players), board)
        if bad:
            raise ValueError(bad)
        return {"players": [{"name": n, "colour": c} for n, c in players], "profile": board_spec(board)}

    def new_state(self, settings: Mapping[str, Any], source: str = "settings", base: str | Path | None = None) -> State:
        """The state before the first move, or the starting position of a mid-game start."""
        board = _board_of(settings.get("profile", "default"), source, base)  # a BoardError names the field
        if settings.get("start") is not None:
            return position.state_from_dict(settings["start"], board, f"{source}: settings.start")
        raw = settings.get("players")
        if not isinstance(raw, list) or not all(
            isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("colour"), str) for p in raw
        ):
            raise DataFileError(source, "settings.players", 'must be a list of {"name": …, "colour": …}')
        try:
            return engine.new_game([(p["name"], p["colour"]) for p in raw], board)
        except ValueError as exc:
            raise DataFileError(source, "settings.players", str(exc)) from None

    def parse_move(self, text: str) -> AnyMove:
        """A move in the notation (docs/origo.md, "Moves")."""
        return parse_move(text)

    def apply(self, state: State, move: Any) -> State:
        """The engine's ``apply``."""
        return engine.apply(state, move)

    def legal_moves(self, state: State) -> engine.LegalMoves:
        """The engine's lazy legal-move view."""
        return engine.legal_moves(state)

    def explain(self, state: State, move: Any) -> str | None:
        """Why the move is illegal (clause and reason), or None."""
        return engine.explain(state, move)

    def is_chance(self, state: State) -> bool:
        """A land was founded: the table reports the founding field revealed."""
        return state.is_chance

    def is_over(self, state: State) -> bool:
        """After the final scoring (O-SCORE-3)."""
        return state.is_over

    def actor(self, state: State) -> int:
        """The seat the game waits for."""
        return engine.actor(state)

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """The founding field the board file puts under the leftmost stone, with certainty (the table
        may report another one: the board file is then wrong, and any value in range is accepted)."""
        exp = engine.expected_reveal(state) if state.is_chance else None
        return [(exp, 1.0)] if exp is not None else []

    def sample_chance(self, state: State, rng: random.Random) -> Reveal:
        """The board file's founding field (simulations); ``rng`` is not needed."""
        del rng
        exp = engine.expected_reveal(state)
        if exp is None or not state.is_chance:
            raise ValueError("no founding field is waiting to be revealed")
        return exp

    def seats(self, state: State) -> list[Seat]:
        """Names and colours in seat order."""
        return list(state.seats)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The position document (docs/origo.md, "Position")."""
        return position.state_to_dict(state)

    def state_from_json(
        self, data: Any, source: str = "<position>", profile: Any = None, base: str | Path | None = None
    ) -> State:
        """A position document read back with full validation (``profile``: the board to read it
        with; None: the one it names)."""
        board = None if profile is None else _board_of(profile, source, base)
        return position.state_from_dict(data, board, source, base)

    def settings_of(self, state: State) -> dict[str, Any]:
        """Settings of a game that starts at ``state``."""
        return {
            "players": [{"name": s.name, "colour": s.colour} for s in state.seats],
            "profile": board_spec(state.board),
            "start": position.state_to_dict(state),
        }

    def scores(self, state: State) -> list[dict[str, Any]]:
        """Per seat: total (tribe + final points), the parts, the leader's field, shields, lands."""
        return scoring.scores(state)

    def ranking(self, state: State) -> list[Standing]:
        """Most points, then the leader farther on the path; level on both share the place
        (O-SCORE-3, companion's choice)."""
        return scoring.ranking(state)

    def result(self, state: State) -> dict[str, Any]:
        """Ranking and final scores."""
        return {
            "ranking": [s.to_dict() for s in self.ranking(state)],
            "scores": self.scores(state),
            "end": str(state.end) or None,
        }

    def prompt(self, state: State) -> dict[str, Any]:
        """What the game waits for, with the options, their cost and the clause that forbids the rest."""
        return engine.describe(state)

    def turn_key(self, state: State) -> Hashable:
        """A turn runs from a player's first action to their ``refill``/``pass`` (battles and
        foundings inside it belong to it); a scoring is a turn of its own."""
        if state.phase is Phase.OVER:
            return ("over",)
        if state.phase in (Phase.SCORING, Phase.FINAL):
            return (str(state.phase), state.round)
        return ("turn", state.turn)


def _page() -> PageModule:
    from games.origo.page import PAGE

    return PAGE


def _cli(sub: Any) -> None:
    from games.origo import cli

    cli.register(sub)


GAME = GamePlugin(
    info=INFO,
    rules=OrigoRules(),
    profile=Profiles(default_board, load_board, parse_board, attribute="board"),
    page=_page,
    cli=_cli,
    docs={"rules": "docs/origo-rules.md", "notation": "docs/origo.md", "position": "docs/origo.md"},
)
"""The Origo plug-in."""
