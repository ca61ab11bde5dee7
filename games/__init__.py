"""games: one package per game, and the registry the chassis finds them in.

``games.get("tribes")`` returns the game's :class:`~games.api.GamePlugin` (importing only its light
part: rules and data); ``games.available()`` lists the ids offered to users. The interface is
:mod:`games.api`, the generic saved game :mod:`games.record`; docs/architecture.md says how to add a
game (a package ``games/<id>/`` whose ``__init__`` defines ``GAME``, and a line in :data:`BUILTIN`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from games.errors import UnknownGameError

if TYPE_CHECKING:
    from games.api import GamePlugin

DEFAULT = "tribes"
"""The game the console command and the page open when none is named."""

BUILTIN: dict[str, str] = {
    "tribes": "games.tribes",
    "carcassonne": "games.carcassonne",
    "toy": "games.toy",
    "origo": "games.origo",
    "stoneage": "games.stoneage",
}
"""Game id → the package whose ``GAME`` attribute is its plug-in."""

_loaded: dict[str, GamePlugin] = {}


def register(plugin: GamePlugin) -> None:
    """Make ``plugin`` available under its id (tests and out-of-tree games)."""
    _loaded[plugin.info.id] = plugin


def get(game_id: str) -> GamePlugin:
    """The plug-in of ``game_id``; :class:`UnknownGameError` names the ids there are."""
    if game_id in _loaded:
        return _loaded[game_id]
    module = BUILTIN.get(game_id)
    if module is None:
        raise UnknownGameError(f"unknown game {game_id!r}: choose from {', '.join(available(hidden=True))}")
    plugin: GamePlugin = import_module(module).GAME
    _loaded[game_id] = plugin
    return plugin


def available(hidden: bool = False) -> list[str]:
    """The ids of the registered games (``hidden``: also the test doubles, such as ``toy``)."""
    ids = sorted(set(BUILTIN) | set(_loaded))
    return [i for i in ids if hidden or get(i).info.listed]


def for_format(fmt: object) -> GamePlugin | None:
    """The game whose journal or position documents carry ``format`` (None if no game's do)."""
    for gid in available(hidden=True):
        plugin = get(gid)
        if fmt in (plugin.info.journal_format, plugin.info.position_format):
            return plugin
    return None


__all__ = ["BUILTIN", "DEFAULT", "UnknownGameError", "available", "for_format", "get", "register"]
