"""The page module of coin race (:class:`games.api.PageModule`): the smallest game part of the web page.

The view is the position document with the prompt, the scores, the legal moves in notation (the
browser module, ``static/toy.js``, shows one button per legal move and per coin outcome) and, once
over, the ranking. Moves as JSON are ``{"kind": "step", "n": 1|2}``, ``{"kind": "flip"}`` and
``{"kind": "coin", "heads": true|false}``; notation text is accepted too.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from typing import Any

from games.errors import FieldError
from games.toy.rules import GOAL, Coin, Flip, LegalMoves, State, Step, ToyRules, parse_move

RULES = ToyRules()


class ToyPage:
    """Coin race's part of the web page."""

    script = "toy.js"

    @property
    def static(self) -> Traversable:
        """``games/toy/static``."""
        return resources.files("games.toy").joinpath("static")

    def state_view(self, state: State) -> dict[str, Any]:
        """The position, the prompt, the scores, the legal moves and the goal; the ranking once over."""
        over = RULES.is_over(state)
        out: dict[str, Any] = {
            "position": RULES.state_to_json(state),
            "prompt": RULES.prompt(state),
            "scores": RULES.scores(state),
            "legal": [str(m) for m in LegalMoves(state)],
            "goal": GOAL,
            "over": over,
        }
        if over:
            out["ranking"] = [s.to_dict() for s in RULES.ranking(state)]
        return out

    def move_to_json(self, move: Any) -> dict[str, Any]:
        """``{"kind": "step", "n": …}``, ``{"kind": "flip"}`` or ``{"kind": "coin", "heads": …}``."""
        if isinstance(move, Step):
            return {"kind": "step", "n": move.n}
        if isinstance(move, Coin):
            return {"kind": "coin", "heads": move.heads}
        return {"kind": "flip"}

    def move_from_json(self, data: Any, field: str = "move") -> Any:
        """A move from notation or structured JSON; :class:`FieldError` names the bad field."""
        if isinstance(data, str):
            return parse_move(data)
        if not isinstance(data, dict):
            raise FieldError(field, "must be a move in notation or an object with 'kind'")
        kind = data.get("kind")
        if kind == "flip" and set(data) == {"kind"}:
            return Flip()
        if kind == "step" and set(data) == {"kind", "n"}:
            if data["n"] not in (1, 2) or isinstance(data["n"], bool):
                raise FieldError(f"{field}.n", "must be 1 or 2")
            return Step(data["n"])
        if kind == "coin" and set(data) == {"kind", "heads"}:
            if not isinstance(data["heads"], bool):
                raise FieldError(f"{field}.heads", "must be true or false")
            return Coin(data["heads"])
        if kind not in ("step", "flip", "coin"):
            raise FieldError(f"{field}.kind", "must be 'step', 'flip' or 'coin'")
        raise FieldError(field, "step takes n, coin takes heads, flip nothing else")

    def catalog(self, profile: Any) -> dict[str, Any]:
        """Coin race has no box: nothing to list."""
        return {}

    def chance_view(self, state: State) -> dict[str, Any]:
        """Nothing beyond the two coin outcomes."""
        return {}


PAGE = ToyPage()
