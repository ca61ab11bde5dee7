"""The Python side of the Stone Age page module (:class:`games.api.PageModule`).

JSON views (:mod:`.view`) and structured moves (:mod:`.movejson`). The browser module
``static/stoneage.js`` (with ``stoneage-i18n.js`` and ``stoneage.css``) is loaded by the shared page
shell (docs/page-shell.md) and draws the views.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from typing import Any

from games.stoneage.page import movejson, view
from games.stoneage.rules.profile import BoxProfile
from games.stoneage.rules.state import State


class StoneAgePage:
    """The page module: views for the shell, moves as JSON."""

    script = "stoneage.js"

    @property
    def static(self) -> Traversable:
        """The folder with the browser module and its assets."""
        return resources.files("games.stoneage.page").joinpath("static")

    def state_view(self, state: State) -> dict[str, Any]:
        """Everything the page draws for one position."""
        return view.state_view(state)

    def move_to_json(self, move: Any) -> dict[str, Any]:
        """A move as structured JSON."""
        return movejson.move_to_json(move)

    def move_from_json(self, data: Any, field: str = "move") -> Any:
        """A move from notation or structured JSON; errors name ``field``."""
        return movejson.move_from_json(data, field)

    def catalog(self, profile: Any) -> dict[str, Any]:
        """The box's components with provisional values flagged."""
        assert isinstance(profile, BoxProfile)
        return view.catalog(profile)

    def chance_view(self, state: State) -> dict[str, Any]:
        """What a chance node offers."""
        return view.chance_view(state)


PAGE = StoneAgePage()

__all__ = ["PAGE", "StoneAgePage"]
