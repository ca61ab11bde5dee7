"""Carcassonne – Die Jäger und Sammler (Hunters & Gatherers, Hans im Glück 2002) as a game plug-in.

Rules as numbered clauses ``H-…`` in docs/carcassonne-rules.md; moves, positions and the box profile
in docs/carcassonne.md. The rules engine is :mod:`games.carcassonne.rules` (pure Python); the page's
views are :mod:`games.carcassonne.page`; the game's own console commands :mod:`games.carcassonne.cli`.
"""

from games.carcassonne.plugin import GAME

__all__ = ["GAME"]
