"""Moves as structured JSON for the page and the HTTP API, both ways, with errors naming the field.

A structured move is an object with ``kind`` (the notation's first word) and that move's fields::

    {"kind": "lay", "player": "Ann", "field": "C4"}
    {"kind": "play", "player": "Ann", "cards": 2}
    {"kind": "attack", "player": "Ann", "field": "C4"}
    {"kind": "card", "player": "Bob"}            {"kind": "stop", "player": "Bob"}
    {"kind": "refill", "player": "Ann"}          {"kind": "pass", "player": "Ann"}
    {"kind": "reveal", "value": 3, "red": true}
    {"kind": "points", "player": "Ann", "points": 5}

:func:`move_from_json` also accepts a string in the notation.
"""

from __future__ import annotations

from typing import Any

from games.origo.rules.board import field_name, parse_field
from games.origo.rules.errors import InvalidMoveError, MoveFieldError
from games.origo.rules.moves import (
    MAX_CARDS,
    MAX_POINTS,
    MOVE_KINDS,
    AnyMove,
    Attack,
    Card,
    Lay,
    Pass,
    Play,
    Points,
    Refill,
    Reveal,
    Stop,
    parse_move,
)

_FIELDS: dict[str, tuple[str, ...]] = {
    "lay": ("player", "field"),
    "attack": ("player", "field"),
    "play": ("player", "cards"),
    "points": ("player", "points"),
    "card": ("player",),
    "stop": ("player",),
    "refill": ("player",),
    "pass": ("player",),
    "reveal": ("value", "red"),
}


def move_to_json(move: AnyMove) -> dict[str, Any]:
    """The structured form of ``move``."""
    if isinstance(move, Reveal):
        return {"kind": "reveal", "value": move.value, "red": move.red}
    out: dict[str, Any] = {"kind": move.kind, "player": move.player}
    if isinstance(move, Lay | Attack):
        out["field"] = move.field
    elif isinstance(move, Play):
        out["cards"] = move.cards
    elif isinstance(move, Points):
        out["points"] = move.points
    return out


def _player(obj: dict[str, Any], field: str) -> str:
    val = obj.get("player")
    if not isinstance(val, str) or not val.strip():
        raise MoveFieldError(f"{field}.player", f"must be a player's name, got {val!r}")
    return " ".join(val.split())


def _int(obj: dict[str, Any], key: str, field: str, lo: int, hi: int) -> int:
    val = obj.get(key)
    if isinstance(val, bool) or not isinstance(val, int) or not lo <= val <= hi:
        raise MoveFieldError(f"{field}.{key}", f"must be a whole number from {lo} to {hi}, got {val!r}")
    return val


def move_from_json(data: Any, field: str = "move") -> AnyMove:
    """A move from notation text or structured JSON; :class:`MoveFieldError` names the bad field."""
    if isinstance(data, str):
        try:
            return parse_move(data)
        except InvalidMoveError as exc:
            raise MoveFieldError(field, str(exc)) from None
    if not isinstance(data, dict):
        raise MoveFieldError(field, f"must be a move in notation or an object with 'kind', got {type(data).__name__}")
    kind = data.get("kind")
    if kind not in MOVE_KINDS:
        raise MoveFieldError(f"{field}.kind", f"must be one of {', '.join(MOVE_KINDS)}, got {kind!r}")
    extra = sorted(set(data) - {"kind", *_FIELDS[kind]})
    if extra:
        raise MoveFieldError(f"{field}.{extra[0]}", f"is not a field of a {kind!r} move")
    if kind == "reveal":
        red = data.get("red", False)
        if not isinstance(red, bool):
            raise MoveFieldError(f"{field}.red", f"must be true or false, got {red!r}")
        return Reveal(_int(data, "value", field, 0, 99), red)
    player = _player(data, field)
    if kind in ("lay", "attack"):
        raw = data.get("field")
        pos = parse_field(raw) if isinstance(raw, str) else None
        if pos is None:
            raise MoveFieldError(f"{field}.field", f"must be a field name such as 'C4', got {raw!r}")
        return (Lay if kind == "lay" else Attack)(player, field_name(*pos))
    if kind == "play":
        return Play(player, _int(data, "cards", field, 1, MAX_CARDS))
    if kind == "points":
        return Points(player, _int(data, "points", field, 0, MAX_POINTS))
    if kind == "card":
        return Card(player)
    if kind == "stop":
        return Stop(player)
    return Refill(player) if kind == "refill" else Pass(player)


__all__ = ["move_from_json", "move_to_json"]
