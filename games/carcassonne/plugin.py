"""Carcassonne – Hunters & Gatherers as a plug-in of the companion (:class:`games.api.GamePlugin`).

The rules engine (:mod:`games.carcassonne.rules`) is the single source of truth; this module adapts it
to the game interface. The page module and the console commands are imported when first asked for.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.api import GameInfo, GamePlugin, PlayerFactory, Seat, Standing
from games.carcassonne.rules import engine, legal, moves, position, scoring, tiles
from games.carcassonne.rules.players import POLICIES
from games.carcassonne.rules.state import Phase, State
from games.profiles import Profiles

if TYPE_CHECKING:
    from games.api import PageModule

INFO = GameInfo(
    id="carcassonne",
    title="Carcassonne – Die Jäger und Sammler (Hunters & Gatherers)",
    min_players=2,
    max_players=5,
    clause_prefix="H-",
    journal_format="carcassonne-journal",
    position_format=position.POSITION_FORMAT,
    colours=("red", "blue", "yellow", "green", "black"),
    summary="Lay stone-age land tiles; gather, fish and hunt; score forests, rivers, huts and meadows (2002)",
    publisher="Hans im Glück",
)


def prompt(state: State) -> dict[str, Any]:
    """What the game waits for: the draws the table may report (with their probabilities), or the
    drawn tile's legal placements, each with its figure spots allowed or refused (clause and reason),
    and whether the tile may be discarded (H-DRAW-2)."""
    out: dict[str, Any] = {
        "kind": str(state.phase),
        "seat": state.to_move,
        "player": state.seats[state.to_move].name,
        "chance": state.is_chance,
        "text": engine.context(state),
        "tile": state.profile.tiles[state.drawn].id if state.drawn >= 0 else None,
        "options": [],
    }
    if state.is_chance:
        out["options"] = [
            {"move": str(m), "tile": m.tile, "left": state.bag[state.profile.index[m.tile]], "probability": p}
            for m, p in legal.chance_outcomes(state)
        ]
    elif state.phase in (Phase.PLACE, Phase.BONUS_PLACE):
        out["options"] = legal.overview(state)
        bad = engine.check(state, moves.Discard())
        out["discard"] = {
            "move": "discard",
            "allowed": bad is None,
            **({"clause": bad[0], "reason": bad[1]} if bad else {}),
        }
    return out


class CarcassonneRules:
    """The game interface over the Hunters & Gatherers engine."""

    info = INFO

    @property
    def players(self) -> Mapping[str, PlayerFactory]:
        """``random`` and ``greedy``."""
        return POLICIES

    def settings(self, players: Sequence[tuple[str, str]], profile: Any = None) -> dict[str, Any]:
        """``{"players": [...], "profile": "default" | {...}}``; ValueError for a bad player list."""
        if not INFO.min_players <= len(players) <= INFO.max_players:
            raise ValueError(f"Hunters & Gatherers is played by 2 to 5 players, got {len(players)}")
        return position.settings_for([(str(n), str(c)) for n, c in players], tiles.resolve_profile(profile))

    def new_state(self, settings: Mapping[str, Any], source: str = "settings", base: str | Path | None = None) -> State:
        """The state before the first draw (or the starting position of a mid-game start)."""
        return position.state_from_settings(settings, source, base=base)

    def parse_move(self, text: str) -> moves.Move:
        """A move in the notation (docs/carcassonne.md)."""
        return moves.parse_move(text)

    def apply(self, state: State, move: Any) -> State:
        """The engine's ``apply``."""
        return engine.apply(state, move)

    def legal_moves(self, state: State) -> legal.LegalMoves:
        """The lazy legal-move view."""
        return legal.legal_moves(state)

    def explain(self, state: State, move: Any) -> str | None:
        """Why the move is illegal (``"H-…: reason"``), or None."""
        bad = engine.check(state, move)
        return f"{bad[0]}: {bad[1]}" if bad else None

    def is_chance(self, state: State) -> bool:
        """The table reports a land or bonus tile drawn."""
        return state.is_chance

    def is_over(self, state: State) -> bool:
        """After the final scoring (H-END-1)."""
        return state.is_over

    def actor(self, state: State) -> int:
        """The seat whose turn it is."""
        return state.to_move

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """Every tile type left in the stack with its probability."""
        return list(legal.chance_outcomes(state))

    def sample_chance(self, state: State, rng: random.Random) -> Any:
        """A tile drawn with ``rng`` (simulations only)."""
        return legal.sample_chance(state, rng)

    def seats(self, state: State) -> list[Seat]:
        """Names and colours in seat order."""
        return list(state.seats)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The position document (docs/carcassonne.md, "Positions")."""
        return position.state_to_dict(state)

    def state_from_json(
        self, data: Any, source: str = "<position>", profile: Any = None, base: str | Path | None = None
    ) -> State:
        """A position document read back with full validation."""
        return position.state_from_dict(data, profile, source, base)

    def settings_of(self, state: State) -> dict[str, Any]:
        """Settings of a game that starts at ``state``."""
        return {
            **position.settings_for([(s.name, s.colour) for s in state.seats], state.profile),
            "start": position.state_to_dict(state),
        }

    def scores(self, state: State) -> list[dict[str, Any]]:
        """The live breakdown per player and the projected final score."""
        return scoring.scoreboard(state)

    def ranking(self, state: State) -> list[Standing]:
        """Most points; equal points share the place (H-END-2)."""
        return scoring.ranking(state)

    def result(self, state: State) -> dict[str, Any]:
        """Ranking and final scores with the breakdown."""
        return {
            "ranking": [s.to_dict() for s in scoring.ranking(state)],
            "scores": scoring.scoreboard(state),
        }

    def prompt(self, state: State) -> dict[str, Any]:
        """What the game waits for (see :func:`prompt`)."""
        return prompt(state)

    def turn_key(self, state: State) -> Hashable:
        """A turn runs from the land tile drawn to the next player's draw (bonus tiles included)."""
        return ("over",) if state.is_over else ("turn", state.turn)


def _page() -> PageModule:
    from games.carcassonne.page import PAGE

    return PAGE


def _cli(sub: Any) -> None:
    from games.carcassonne import cli

    cli.register(sub)


GAME = GamePlugin(
    info=INFO,
    rules=CarcassonneRules(),
    profile=Profiles(tiles.default_profile, tiles.load_profile, tiles.parse_profile),
    page=_page,
    cli=_cli,
    docs={
        "rules": "docs/carcassonne-rules.md",
        "notation": "docs/carcassonne.md",
        "position": "docs/carcassonne.md",
    },
)
