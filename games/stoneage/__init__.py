"""Stone Age (Hans im Glück 2008): the companion's second game.

``GAME`` is the plug-in (:mod:`games.stoneage.plugin`). Inside: ``rules/`` (the engine, pure Python: the
single source of truth, with the companion's helpers), ``profiles/default.json`` (the box profile,
partly provisional), ``cli.py`` (the roll helper and the final-scoring calculator) and ``page/`` (the
page module's JSON views; the browser module comes with the shared page shell).
"""

from games.stoneage.plugin import GAME

__all__ = ["GAME"]
