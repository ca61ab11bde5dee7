"""Stone Age moves as structured JSON for the page and the HTTP API, both ways; errors name the field.

A structured move is an object with ``kind`` (the notation's verb) and its fields::

    {"kind": "place", "place": "hunt", "people": 3}       {"kind": "place", "place": "hut"}
    {"kind": "take", "place": "wood"}                     {"kind": "skip", "place": "card2"}
    {"kind": "buy", "place": "card2", "pay": {"wood": 1, "clay": 1}}
    {"kind": "roll", "what": "wood", "dice": [3, 5, 6]}    {"kind": "tools", "tools": [3, 1], "once": [4]}
    {"kind": "pick", "face": 5}                           {"kind": "any", "take": {"gold": 2}}
    {"kind": "feed", "pay": {"wood": 2}}                  {"kind": "starve"}
    {"kind": "reveal", "id": "c07"}                       {"kind": "draw", "id": "c12"}

``pay``/``take`` may also be a list of resource names (``["wood", "clay"]``). :func:`move_from_json`
also accepts the notation as a string.
"""

from __future__ import annotations

from typing import Any

from games.stoneage.rules.moves import (
    AnyMove,
    AnyRes,
    Buy,
    Draw,
    Feed,
    Pay,
    Pick,
    Place,
    Reveal,
    Roll,
    Skip,
    Starve,
    Take,
    Tools,
    parse_move,
)
from games.stoneage.rules.profile import DICE_PLACES, RESOURCES

KINDS: tuple[str, ...] = (
    "place",
    "take",
    "buy",
    "skip",
    "roll",
    "tools",
    "pick",
    "any",
    "feed",
    "starve",
    "reveal",
    "draw",
)


class MoveFieldError(ValueError):
    """A structured move with a bad field; ``field`` names it (``move.pay.wood``)."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


def _pay_json(pay: Pay) -> dict[str, int]:
    return {r: k for r, k in zip(RESOURCES, pay, strict=True) if k}


def move_to_json(move: AnyMove) -> dict[str, Any]:
    """The structured form of any move (with its notation under ``text``)."""
    out: dict[str, Any] = {"kind": move.kind, "text": str(move), "chance": move.chance}
    if isinstance(move, Place):
        out["place"] = move.place
        if move.place in DICE_PLACES:
            out["people"] = move.n
    elif isinstance(move, Take | Skip):
        out["place"] = move.place
    elif isinstance(move, Buy):
        out.update(place=move.place, pay=_pay_json(move.pay))
    elif isinstance(move, Roll):
        out.update(what=move.what, dice=list(move.dice))
    elif isinstance(move, Tools):
        out.update(tools=list(move.values), once=list(move.once))
    elif isinstance(move, Pick):
        out["face"] = move.face
    elif isinstance(move, AnyRes):
        out["take"] = _pay_json(move.take)
    elif isinstance(move, Feed):
        out["pay"] = _pay_json(move.pay)
    elif isinstance(move, Reveal):
        out["id"] = move.item
    elif isinstance(move, Draw):
        out["id"] = move.card
    return out


def _str(obj: dict[str, Any], key: str, field: str) -> str:
    val = obj.get(key)
    if not isinstance(val, str) or not val or len(val) > 40 or any(c.isspace() for c in val):
        raise MoveFieldError(f"{field}.{key}", "must be a word (no spaces)" if key in obj else "is missing")
    return val


def _int(val: Any, field: str, lo: int, hi: int) -> int:
    if isinstance(val, bool) or not isinstance(val, int) or not lo <= val <= hi:
        raise MoveFieldError(field, f"must be an integer from {lo} to {hi}")
    return val


def _ints(obj: dict[str, Any], key: str, field: str, lo: int, hi: int, required: bool = True) -> list[int]:
    if key not in obj:
        if required:
            raise MoveFieldError(f"{field}.{key}", "is missing")
        return []
    val = obj[key]
    if not isinstance(val, list) or len(val) > 30:
        raise MoveFieldError(f"{field}.{key}", "must be a list of at most 30 numbers")
    return [_int(v, f"{field}.{key}[{i}]", lo, hi) for i, v in enumerate(val)]


def _pay(obj: dict[str, Any], key: str, field: str) -> Pay:
    if key not in obj:
        raise MoveFieldError(f"{field}.{key}", "is missing")
    val = obj[key]
    counts = [0, 0, 0, 0]
    if isinstance(val, dict):
        for r, k in val.items():
            if r not in RESOURCES:
                raise MoveFieldError(f"{field}.{key}.{r}", "is not a resource (wood, clay, stone, gold)")
            counts[RESOURCES.index(r)] = _int(k, f"{field}.{key}.{r}", 0, 99)
    elif isinstance(val, list) and len(val) <= 99:
        for i, r in enumerate(val):
            if r not in RESOURCES:
                raise MoveFieldError(f"{field}.{key}[{i}]", "is not a resource (wood, clay, stone, gold)")
            counts[RESOURCES.index(r)] += 1
    else:
        raise MoveFieldError(f"{field}.{key}", 'must be {"wood": 2, …} or ["wood", "wood", …]')
    if not any(counts):
        raise MoveFieldError(f"{field}.{key}", "must name at least one resource")
    return (counts[0], counts[1], counts[2], counts[3])


def move_from_json(data: Any, field: str = "move") -> AnyMove:
    """A move from its notation (a string) or its structured form (an object).

    :class:`MoveFieldError` for a malformed structure (naming the field), the engine's
    ``InvalidMoveError`` for text that is not notation."""
    if isinstance(data, str):
        if len(data) > 500:
            raise MoveFieldError(field, "is too long for a move")
        return parse_move(data)
    if not isinstance(data, dict):
        raise MoveFieldError(field, "must be a move in notation (a string) or a structured move (an object)")
    kind = data.get("kind")
    if kind not in KINDS:
        raise MoveFieldError(f"{field}.kind", f"must be one of {', '.join(KINDS)}")
    if kind == "place":
        place = _str(data, "place", field)
        if place in DICE_PLACES:
            n = _int(data.get("people"), f"{field}.people", 1, 30)
            return parse_move(f"place {place} {n}")
        if "people" in data:
            raise MoveFieldError(f"{field}.people", f"{place} takes exactly the people it shows: leave 'people' out")
        return parse_move(f"place {place}")
    if kind in ("take", "skip"):
        return parse_move(f"{kind} {_str(data, 'place', field)}")
    if kind == "buy":
        place = _str(data, "place", field)
        pay = _pay(data, "pay", field)
        return parse_move(f"buy {place} " + ",".join(f"{k}{r}" for r, k in zip(RESOURCES, pay, strict=True) if k))
    if kind == "roll":
        what = _str(data, "what", field)
        dice = _ints(data, "dice", field, 1, 6)
        if not dice:
            raise MoveFieldError(f"{field}.dice", "must list the dice rolled")
        return parse_move(f"roll {what} {','.join(map(str, dice))}")
    if kind == "tools":
        vals = _ints(data, "tools", field, 1, 9, required=False)
        once = _ints(data, "once", field, 1, 20, required=False)
        return Tools(tuple(sorted(vals, reverse=True)), tuple(sorted(once, reverse=True)))
    if kind == "pick":
        return Pick(_int(data.get("face"), f"{field}.face", 1, 6))
    if kind == "any":
        return AnyRes(_pay(data, "take", field))
    if kind == "feed":
        return Feed(_pay(data, "pay", field))
    if kind == "starve":
        return Starve()
    return parse_move(f"{kind} {_str(data, 'id', field)}")


__all__ = ["KINDS", "MoveFieldError", "move_from_json", "move_to_json"]
