"""Tribes: Dawn of Humanity (KOSMOS 2018), the companion's first game.

``GAME`` is the plug-in (:mod:`games.tribes.plugin`). Inside: ``rules/`` (the engine, pure Python:
the single source of truth), ``cli.py`` (``table-companion rules …``), ``page/`` (the page module:
JSON views and the browser module), ``leds.py`` (the LED map), ``vision/`` (table layout, readers,
enrollment, the recognizer), ``tracker/`` (facts, move proposals, the tracker policy), ``camera.py``
(the camera support the chassis loads) and ``sim/`` (the synthetic table: renderer, video,
evaluation — tooling nothing on the product path imports).
"""

from games.tribes.plugin import GAME

__all__ = ["GAME"]
