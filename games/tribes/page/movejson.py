"""Moves as structured JSON for the HTTP API, both ways, with errors that name the bad field.

A structured move is an object with ``kind`` (the notation's verb: ``setup``, ``start``, ``off``,
``mov``, ``exp``, ``ach``, ``evt``, ``draw``, ``place``, ``reveal``, ``event``, ``pick``, ``restore``,
``lose``, ``gain``, ``exhaust``) and the fields of that move. Hexes are ``[q, r]`` pairs or ``"q,r"``
strings. Examples::

    {"kind": "off", "slot": 1, "place": ["0,0", "1,0"]}
    {"kind": "mov", "slot": 2, "transfers": [["0,0", "1,0"]]}
    {"kind": "ach", "slot": 4, "achievement": "kaese", "jokers": ["1,0"], "arrow": "kochen"}
    {"kind": "draw", "tiles": ["goat", "wheat"]}
    {"kind": "place", "tiles": [{"hex": "1,-1", "resource": "goat"}]}

:func:`move_from_json` also accepts a string (the engine's notation). :func:`move_to_json` writes the
structured form of any move.
"""

from __future__ import annotations

from typing import Any

from games.errors import FieldError
from games.tribes.rules.hexgrid import Hex, format_hex, parse_hex
from games.tribes.rules.moves import (
    Achieve,
    Draw,
    Exhaust,
    Explore,
    Gain,
    Lose,
    Move,
    Movement,
    Offspring,
    Pick,
    Place,
    PlaceFirst,
    Restore,
    Reveal,
    RevealEvent,
    Setup,
    TakeEvent,
    delta_of,
    pair_delta,
    parse_move,
)

MOVE_KINDS: tuple[str, ...] = (
    "setup",
    "start",
    "off",
    "mov",
    "exp",
    "ach",
    "evt",
    "draw",
    "place",
    "reveal",
    "event",
    "pick",
    "restore",
    "lose",
    "gain",
    "exhaust",
)
MAX_LIST = 64
"""No list in a move is longer than this (the biggest real one is a few entries)."""


class MoveFieldError(FieldError):
    """A structured move with a bad field; ``field`` names it (e.g. ``move.place[1]``)."""


def _hex(val: Any, field: str) -> Hex:
    if isinstance(val, str):
        try:
            return parse_hex(val)
        except ValueError as exc:
            raise MoveFieldError(field, str(exc)) from None
    if (
        isinstance(val, list)
        and len(val) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) and abs(x) < 1000 for x in val)
    ):
        return (val[0], val[1])
    raise MoveFieldError(field, 'must be a hex: "q,r" or [q, r] with small integers')


def _list(obj: dict[str, Any], key: str, field: str, required: bool = True) -> list[Any]:
    if key not in obj:
        if required:
            raise MoveFieldError(f"{field}.{key}", "is missing")
        return []
    val = obj[key]
    if not isinstance(val, list):
        raise MoveFieldError(f"{field}.{key}", "must be a list")
    if len(val) > MAX_LIST:
        raise MoveFieldError(f"{field}.{key}", f"must hold at most {MAX_LIST} items")
    return val


def _hexes(obj: dict[str, Any], key: str, field: str, required: bool = True) -> tuple[Hex, ...]:
    return tuple(_hex(v, f"{field}.{key}[{i}]") for i, v in enumerate(_list(obj, key, field, required)))


def _word(obj: dict[str, Any], key: str, field: str) -> str:
    val = obj.get(key)
    if not isinstance(val, str) or not val or len(val) > 64 or any(c.isspace() for c in val):
        raise MoveFieldError(f"{field}.{key}", "must be an id (a word without spaces)")
    return val


def _words(obj: dict[str, Any], key: str, field: str) -> tuple[str, ...]:
    out = []
    for i, v in enumerate(_list(obj, key, field)):
        if not isinstance(v, str) or not v or len(v) > 64 or any(c.isspace() or c in ",/=@" for c in v):
            raise MoveFieldError(f"{field}.{key}[{i}]", "must be an id (a word without spaces)")
        out.append(v)
    return tuple(out)


def _int(obj: dict[str, Any], key: str, field: str, lo: int = 1, hi: int = 99) -> int:
    val = obj.get(key)
    if isinstance(val, bool) or not isinstance(val, int) or not lo <= val <= hi:
        raise MoveFieldError(f"{field}.{key}", f"must be an integer from {lo} to {hi}")
    return val


def _transfers(obj: dict[str, Any], key: str, field: str) -> list[tuple[Hex, Hex]]:
    out = []
    for i, t in enumerate(_list(obj, key, field, required=False)):
        f = f"{field}.{key}[{i}]"
        if isinstance(t, str) and ">" in t:
            a, _, b = t.partition(">")
            out.append((_hex(a, f), _hex(b, f)))
        elif isinstance(t, list) and len(t) == 2:
            out.append((_hex(t[0], f + "[0]"), _hex(t[1], f + "[1]")))
        elif isinstance(t, dict):
            out.append((_hex(t.get("from"), f + ".from"), _hex(t.get("to"), f + ".to")))
        else:
            raise MoveFieldError(f, 'must be a transfer: "q,r>q,r", [from, to] or {"from": …, "to": …}')
    return out


def move_from_json(data: Any, field: str = "move") -> Move:
    """A move from its notation (a string) or its structured form (an object).

    Raises :class:`MoveFieldError` for a malformed structure and
    :class:`rules.errors.InvalidMoveError` for text that is not notation.
    """
    if isinstance(data, str):
        if len(data) > 2000:
            raise MoveFieldError(field, "is too long for a move")
        return parse_move(data)
    if not isinstance(data, dict):
        raise MoveFieldError(field, "must be a move in notation (a string) or a structured move (an object)")
    kind = data.get("kind")
    if kind not in MOVE_KINDS:
        raise MoveFieldError(f"{field}.kind", f"must be one of {', '.join(MOVE_KINDS)}")
    f = field
    if kind == "setup":
        lands = []
        for i, trio in enumerate(_list(data, "lands", f)):
            if not isinstance(trio, list) or len(trio) != 3:
                raise MoveFieldError(f"{f}.lands[{i}]", "must be a list of three resources")
            lands.append(_words({"x": trio}, "x", f"{f}.lands[{i}]"))
        return Setup(_words(data, "row", f), _words(data, "era1", f), tuple(lands))  # type: ignore[arg-type]
    if kind == "start":
        return PlaceFirst(_hex(data.get("hex"), f"{f}.hex"))
    if kind == "off":
        slot = _int(data, "slot", f)
        place = _hexes(data, "place", f, required=False)
        relocate = _transfers(data, "relocate", f)
        if place and relocate:
            raise MoveFieldError(f"{f}.relocate", "Offspring either places new members or relocates, not both")
        return Offspring(slot, place, delta_of(relocate))
    if kind == "mov":
        return Movement.of(_int(data, "slot", f), _transfers(data, "transfers", f))
    if kind == "exp":
        return Explore(_int(data, "slot", f))
    if kind == "evt":
        return TakeEvent(_int(data, "slot", f))
    if kind == "ach":
        arrow = data.get("arrow")
        if arrow is not None:
            arrow = _word(data, "arrow", f)
        return Achieve(_int(data, "slot", f), _word(data, "achievement", f), _hexes(data, "jokers", f, False), arrow)
    if kind == "draw":
        tiles = _words(data, "tiles", f)
        if not tiles:
            raise MoveFieldError(f"{f}.tiles", "must name the drawn tiles")
        return Draw(tiles)
    if kind == "place":
        tiles = []
        for i, t in enumerate(_list(data, "tiles", f)):
            if not isinstance(t, dict):
                raise MoveFieldError(f"{f}.tiles[{i}]", 'must be {"hex": "q,r", "resource": …}')
            tiles.append((_hex(t.get("hex"), f"{f}.tiles[{i}].hex"), _word(t, "resource", f"{f}.tiles[{i}]")))
        if not tiles:
            raise MoveFieldError(f"{f}.tiles", "must list the placed tiles")
        return Place(tuple(tiles))
    if kind == "reveal":
        return Reveal(_word(data, "achievement", f))
    if kind == "event":
        return RevealEvent(_word(data, "event", f))
    if kind == "pick":
        return Pick(_int(data, "option", f))
    cls = {"restore": Restore, "lose": Lose, "gain": Gain, "exhaust": Exhaust}[kind]
    return cls(_hexes(data, "hexes", f, required=False))


def _fh(h: Hex) -> str:
    return format_hex(h)


def move_to_json(move: Move) -> dict[str, Any]:
    """The structured form of ``move`` (what :func:`move_from_json` reads back)."""
    out: dict[str, Any] = {"kind": move.kind}
    if isinstance(move, Setup):
        out.update(row=list(move.row), era1=list(move.era1), lands=[list(t) for t in move.lands])
    elif isinstance(move, PlaceFirst):
        out["hex"] = _fh(move.hex)
    elif isinstance(move, Offspring):
        out["slot"] = move.slot
        out["place"] = [_fh(h) for h in move.place]
        out["relocate"] = [[_fh(a), _fh(b)] for a, b in pair_delta(move.relocate)[1]]
    elif isinstance(move, Movement):
        out["slot"] = move.slot
        out["transfers"] = [[_fh(a), _fh(b)] for a, b in pair_delta(move.delta)[1]]
    elif isinstance(move, Explore | TakeEvent):
        out["slot"] = move.slot
    elif isinstance(move, Achieve):
        out.update(slot=move.slot, achievement=move.achievement, jokers=[_fh(h) for h in move.jokers])
        out["arrow"] = move.arrow
    elif isinstance(move, Draw):
        out["tiles"] = list(move.tiles)
    elif isinstance(move, Place):
        out["tiles"] = [{"hex": _fh(h), "resource": r} for h, r in move.tiles]
    elif isinstance(move, Reveal):
        out["achievement"] = move.achievement
    elif isinstance(move, RevealEvent):
        out["event"] = move.event
    elif isinstance(move, Pick):
        out["option"] = move.option
    elif isinstance(move, Restore | Lose | Gain | Exhaust):
        out["hexes"] = [_fh(h) for h in move.hexes]
    return out
