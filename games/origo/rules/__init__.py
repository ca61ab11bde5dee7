"""The Origo rules engine, pure Python: the single source of truth of the plug-in.

``board`` (the board file with provenance), ``moves`` (notation), ``state`` (the immutable state),
``engine`` (check, apply, legal moves, prompt), ``battle`` (the battle calculator's pure functions),
``position`` (position JSON both ways), ``players`` (simulated players) and ``errors``. The rules
are the clauses of docs/origo-rules.md (``O-…``).
"""

from games.origo.rules.board import Board, default_board, load_board, parse_board
from games.origo.rules.engine import apply, check, describe, explain, legal_moves, new_game
from games.origo.rules.moves import parse_move
from games.origo.rules.position import POSITION_FORMAT, state_from_dict, state_to_dict
from games.origo.rules.state import Phase, State

__all__ = [
    "POSITION_FORMAT",
    "Board",
    "Phase",
    "State",
    "apply",
    "check",
    "default_board",
    "describe",
    "explain",
    "legal_moves",
    "load_board",
    "new_game",
    "parse_board",
    "parse_move",
    "state_from_dict",
    "state_to_dict",
]
