"""Origo (Wolfgang Kramer, Parker/Hasbro 2007) as a table companion: founding lands and battles.

``GAME`` is the plug-in (:mod:`games.origo.plugin`). Inside: ``rules/`` (the engine, pure Python:
board file, moves, state, battle calculator, positions, simulated players), ``profiles/`` (the
shipped, largely provisional board file), ``page/`` (the page module's Python side; the browser
module comes with the shared page shell) and ``cli.py`` (the ``battle`` calculator command).
What the rule fragment covers and what is entered as plain facts: docs/origo.md.
"""

from games.origo.plugin import GAME

__all__ = ["GAME"]
