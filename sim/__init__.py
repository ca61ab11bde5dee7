"""sim: the synthetic table — tooling, never imported by the product path.

The game-neutral parts of the renderer live here (``camera``: the camera model; ``warp``: the one
resampling; ``lighting``, ``effects``, ``hands``, ``textures``); each game's own drawing (its pieces,
tile art, scene, ground truth, video of whole games, evaluation) lives in ``games/<id>/sim/``. The
console command's app layer adds each game's tooling commands (``render …``) from :data:`TOOLS`.
"""

from __future__ import annotations

import argparse
from importlib import import_module

TOOLS: dict[str, str] = {"tribes": "games.tribes.sim.cli"}
"""Game id → the module whose ``register(sub)`` adds the game's tooling commands."""


def register_tools(game_id: str, sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the tooling commands of ``game_id`` (if it has any) to the parser."""
    module = TOOLS.get(game_id)
    if module:
        import_module(module).register(sub)
