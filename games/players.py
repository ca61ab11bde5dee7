"""Player names and colours as every front end accepts them: the command line (``rules new``), the
web API (``POST /api/games``) and a position a new game starts from all check them here, with the
same limits and the same one-line reasons.

A name is 1 to :data:`MAX_NAME` printable characters (surrounding blanks dropped); a colour is a
lower-case word of 3 to 16 letters (``red``, ``black``) or ``#rrggbb``; no two players share a name
or a colour. Problems are :class:`games.errors.FieldError` naming the field (``players[1].colour``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from games.errors import FieldError

MAX_NAME = 30
"""Longest player name (characters)."""
COLOUR_RE = re.compile(r"^(#[0-9a-fA-F]{6}|[a-z]{3,16})$")
"""What a colour may be: a colour word or ``#rrggbb`` (nothing a page could mistake for markup)."""


def check_name(name: object, field: str) -> str:
    """``name`` without surrounding blanks, or :class:`FieldError`."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        shown = f" (got {len(name.strip())} characters)" if isinstance(name, str) and name.strip() else ""
        raise FieldError(field, f"must be a name of 1 to {MAX_NAME} characters{shown}")
    name = name.strip()
    if any(not c.isprintable() for c in name):
        raise FieldError(field, "must not contain control characters")
    return name


def check_colour(colour: object, field: str) -> str:
    """``colour`` if it is a colour word or ``#rrggbb``, else :class:`FieldError`."""
    if not isinstance(colour, str) or not COLOUR_RE.match(colour):
        raise FieldError(field, "must be a colour name like 'red' or '#rrggbb'")
    return colour


def check_players(
    players: Sequence[tuple[object, object]], field: str = "players", distinct: bool = True
) -> list[tuple[str, str]]:
    """Every ``(name, colour)`` checked, in order; with ``distinct`` no two names or colours alike."""
    out: list[tuple[str, str]] = []
    for i, (raw_name, raw_colour) in enumerate(players):
        f = f"{field}[{i}]"
        name = check_name(raw_name, f"{f}.name")
        colour = check_colour(raw_colour, f"{f}.colour")
        if distinct and any(name == q[0] for q in out):
            raise FieldError(f"{f}.name", f"two players are called {name!r}")
        if distinct and any(colour == q[1] for q in out):
            raise FieldError(f"{f}.colour", f"two players have the colour {colour!r}")
        out.append((name, colour))
    return out


def players_from_options(
    names_text: str, colours_text: str | None, default_colours: Sequence[str]
) -> list[tuple[str, str]]:
    """The players of a command line: ``--players A,B,C`` and ``--colours red,blue,…`` (default: the
    game's colours in order), checked like the API's; a problem is a :class:`FieldError` whose field
    is the option (``--players: 'Ann…' must be a name of 1 to 30 characters``)."""
    names = [n.strip() for n in names_text.split(",") if n.strip()]
    colours = [c.strip() for c in colours_text.split(",")] if colours_text else []
    if colours and len(colours) != len(names):
        raise FieldError("--colours", f"lists {len(colours)} colours for {len(names)} players")
    if not colours:
        colours = [default_colours[i % len(default_colours)] for i in range(len(names))]
    try:
        return check_players(list(zip(names, colours, strict=True)))
    except FieldError as exc:
        i = int(exc.field.split("[")[1].split("]")[0])
        option = "--colours" if exc.field.endswith(".colour") else "--players"
        value = colours[i] if option == "--colours" else names[i]
        shown = value if len(value) <= 40 else value[:37] + "..."
        reason = f"{shown!r} {exc.reason}" if exc.reason.startswith("must") else exc.reason
        raise FieldError(option, reason) from None


__all__ = ["COLOUR_RE", "MAX_NAME", "check_colour", "check_name", "check_players", "players_from_options"]
