"""The rules engine of Tribes: Dawn of Humanity — the single source of truth of a game.

Pure Python, no dependencies on the rest of the project. The usual entry points::

    from games.tribes.rules import new_game, apply, parse_move, legal_moves, overview, scoreboard, ranking
    state = new_game(["Ann", "Bob"])
    state = apply(state, parse_move("setup row=… era1=… lands=…"))

See docs/notation.md for moves, docs/position.md and docs/journal.md for the JSON formats,
docs/box-profile.md for component data, and docs/rules-notes.md for the choices the rulebook leaves open.
"""

from games.tribes.rules.engine import apply, check, new_game
from games.tribes.rules.errors import (
    IllegalMoveError,
    InvalidMoveError,
    JournalError,
    PositionError,
    ProfileError,
    RulesError,
)
from games.tribes.rules.game import Game, load_game, simulate
from games.tribes.rules.legal import describe, explain, legal_moves, overview
from games.tribes.rules.moves import Move, parse_move
from games.tribes.rules.profile import BoxProfile, default_profile, load_profile
from games.tribes.rules.scoring import ranking, score_breakdown, scoreboard
from games.tribes.rules.state import State

__all__ = [
    "BoxProfile",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "JournalError",
    "Move",
    "PositionError",
    "ProfileError",
    "RulesError",
    "State",
    "apply",
    "check",
    "default_profile",
    "describe",
    "explain",
    "legal_moves",
    "load_game",
    "load_profile",
    "new_game",
    "overview",
    "parse_move",
    "ranking",
    "score_breakdown",
    "scoreboard",
    "simulate",
]
