"""The Tribes page module: the JSON views the page shell serves and the browser module that draws them.

``PAGE`` implements :class:`games.api.PageModule`: :mod:`games.tribes.page.view` (the live state with
scores, prompt and era-3 progress; the box catalog), :mod:`games.tribes.page.movejson` (moves as
structured JSON, both ways) and ``static/tribes.js`` (the browser module the shell loads).
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from typing import Any

from games.tribes.page import movejson, view
from games.tribes.rules.moves import Setup
from games.tribes.rules.pending import PendingKind


class TribesPage:
    """The game's part of the web page."""

    script = "tribes.js"

    @property
    def static(self) -> Traversable:
        """``games/tribes/page/static``."""
        return resources.files(__package__).joinpath("static")

    def state_view(self, state: Any) -> dict[str, Any]:
        """Position, prompt with the legal-move overview, scores, era-3 progress, free slot."""
        return view.state_block(state)

    def log_fields(self, state: Any) -> dict[str, Any]:
        """What the move log shows beside each move made from ``state``: the round."""
        return {"round": state.round}

    def move_to_json(self, move: Any) -> dict[str, Any]:
        """A move as structured JSON."""
        return movejson.move_to_json(move)

    def move_from_json(self, data: Any, field: str = "move") -> Any:
        """A move from notation or structured JSON; :class:`MoveFieldError` names the field."""
        return movejson.move_from_json(data, field)

    def is_setup(self, move: Any) -> bool:
        """The move is the setup outcome (what a new game may start with)."""
        return isinstance(move, Setup)

    def catalog(self, profile: Any) -> dict[str, Any]:
        """The box's components, provisional values flagged."""
        return view.catalog(profile)

    def chance_view(self, state: Any) -> dict[str, Any]:
        """At the setup: the action tiles, era-1 achievements, resources and players to choose from."""
        if state.pending.kind != PendingKind.SETUP:
            return {}
        prof = state.profile
        return {
            "setup": {
                "action_tiles": [t.id for t in prof.action_tiles],
                "era1": [a.id for a in prof.achievements_of_era(1)],
                "resources": list(prof.resources),
                "players": [p.name for p in state.players],
            }
        }


PAGE = TribesPage()
