"""The Python side of the Hunters & Gatherers page (:class:`games.api.PageModule`): JSON views the
shell serves. The browser module (``static/carcassonne.js``) comes with the shared page shell."""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from typing import Any

from games.carcassonne.page import view


class CarcassonnePage:
    """The game's page module."""

    script = "carcassonne.js"

    @property
    def static(self) -> Traversable:
        """The folder of the browser module and its assets."""
        return resources.files("games.carcassonne").joinpath("page/static")

    def state_view(self, state: Any) -> dict[str, Any]:
        """Everything the page draws for one position."""
        return view.state_view(state)

    def move_to_json(self, move: Any) -> dict[str, Any]:
        """A move as structured JSON."""
        return view.move_to_json(move)

    def move_from_json(self, data: Any, field: str = "move") -> Any:
        """A move from notation or structured JSON (errors name ``field``)."""
        return view.move_from_json(data, field)

    def catalog(self, profile: Any) -> dict[str, Any]:
        """The box's tiles with provenance."""
        return view.catalog(profile)

    def chance_view(self, state: Any) -> dict[str, Any]:
        """The draws the table may report."""
        return view.chance_view(state)


PAGE = CarcassonnePage()

__all__ = ["PAGE", "CarcassonnePage"]
