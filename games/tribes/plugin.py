"""Tribes: Dawn of Humanity as a plug-in of the companion (:class:`games.api.GamePlugin`).

The rules engine (:mod:`games.tribes.rules`) is the game's single source of truth; this module only
adapts it to the game interface. The heavier parts — the page module, the LED map, the camera — are
imported when the chassis first asks for them.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.api import GameInfo, GamePlugin, PlayerFactory, Seat, Standing
from games.profiles import Profiles
from games.tribes.rules import chance, engine, legal, moves, position, profile, scoring
from games.tribes.rules.game import POLICIES, Game, journal_result, state_from_settings
from games.tribes.rules.pending import PendingKind
from games.tribes.rules.state import State

if TYPE_CHECKING:
    from games.api import CameraSupport, LedMap, PageModule

INFO = GameInfo(
    id="tribes",
    title="Tribes: Dawn of Humanity",
    min_players=2,
    max_players=4,
    clause_prefix="R-",
    journal_format="tribes-journal",
    position_format=position.POSITION_FORMAT,
    summary="Grow a tribe from the first fire to the first cities (KOSMOS 2018)",
    publisher="KOSMOS",
    bgg_id=245931,
)


class TribesRules:
    """The game interface over the Tribes engine."""

    info = INFO

    @property
    def players(self) -> Mapping[str, PlayerFactory]:
        """``random`` and ``greedy``."""
        return POLICIES

    def settings(self, players: Sequence[tuple[str, str]], profile: Any = None) -> dict[str, Any]:
        """``{"players": [...], "profile": "default" | {...}}``."""
        return Game.new(list(players), profile).settings

    def new_state(self, settings: Mapping[str, Any], source: str = "settings", base: str | Path | None = None) -> State:
        """The state before the first move (or the starting position of a mid-game start)."""
        return state_from_settings(dict(settings), source, base)

    def parse_move(self, text: str) -> moves.Move:
        """A move in the notation (docs/notation.md)."""
        return moves.parse_move(text)

    def apply(self, state: State, move: Any) -> State:
        """The engine's ``apply``."""
        return engine.apply(state, move)

    def legal_moves(self, state: State) -> legal.LegalMoves:
        """The engine's lazy legal-move view."""
        return legal.legal_moves(state)

    def explain(self, state: State, move: Any) -> str | None:
        """Why the move is illegal (clause and reason), or None."""
        return legal.explain(state, move)

    def is_chance(self, state: State) -> bool:
        """The game waits for a setup, a draw or a reveal reported from the table."""
        return state.is_chance

    def is_over(self, state: State) -> bool:
        """After the final scoring (R-END-2)."""
        return state.is_over

    def actor(self, state: State) -> int:
        """The seat the game waits for."""
        return state.actor

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """The possible draws, reveals or setups with their probabilities."""
        return chance.chance_outcomes(state)

    def sample_chance(self, state: State, rng: random.Random) -> Any:
        """A chance outcome drawn with ``rng`` (simulations only)."""
        return chance.sample_chance(state, rng)

    def seats(self, state: State) -> list[Seat]:
        """Names and colours in seat order."""
        return [Seat(p.name, p.colour) for p in state.players]

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The position document (docs/position.md)."""
        return state.to_dict()

    def state_from_json(
        self, data: Any, source: str = "<position>", profile: Any = None, base: str | Path | None = None
    ) -> State:
        """A position document read back with full validation."""
        return position.state_from_dict(data, profile, source, base)

    def settings_of(self, state: State) -> dict[str, Any]:
        """Settings of a game that starts at ``state``."""
        return Game.from_position(state).settings

    def scores(self, state: State) -> list[dict[str, Any]]:
        """The live breakdown (docs/rules-json.md): bear teeth, tracks, majorities, total."""
        return [b.to_dict() for b in scoring.scoreboard(state)]

    def ranking(self, state: State) -> list[Standing]:
        """Most VP, then more shells, then fewer exhausted tiles (R-END-7)."""
        return [
            Standing(s.place, s.seat, s.name, s.total, (("shells", s.shells), ("exhausted", s.exhausted)))
            for s in scoring.ranking(state)
        ]

    def result(self, state: State) -> dict[str, Any]:
        """Ranking and final scores, as the engine's journal records them."""
        return journal_result(state)

    def prompt(self, state: State) -> dict[str, Any]:
        """What the game waits for, with the legal-move overview (``rules legal --json``)."""
        return legal.describe(state)

    def turn_key(self, state: State) -> Hashable:
        """Setup placements are one turn per seat; after that a turn runs from a player's tile choice
        to the next player's (event answers by other players belong to the chooser's turn)."""
        kind = state.pending.kind
        if kind in (PendingKind.SETUP, PendingKind.FIRST_MEMBER):
            return ("setup", state.pending.seat)
        if kind == PendingKind.GAME_OVER:
            return ("over",)
        return ("turn", state.turn)


def _page() -> PageModule:
    from games.tribes.page import PAGE

    return PAGE


def _leds() -> LedMap:
    from games.tribes.leds import LEDS

    return LEDS


def _camera() -> CameraSupport:
    from games.tribes.camera import CAMERA

    return CAMERA


def _cli(sub: Any) -> None:
    from games.tribes import cli
    from games.tribes.vision import cli as camera_cli

    cli.register(sub)
    camera_cli.register(sub)


GAME = GamePlugin(
    info=INFO,
    rules=TribesRules(),
    profile=Profiles(profile.default_profile, profile.load_profile, profile.parse_profile),
    page=_page,
    leds=_leds,
    camera=_camera,
    cli=_cli,
    docs={"rules": "docs/rules-notes.md", "notation": "docs/notation.md", "position": "docs/position.md"},
)
