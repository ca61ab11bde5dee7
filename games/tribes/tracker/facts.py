"""Facts: the table as a flat map of small keys to values, both as the rules state predicts it and as
an Observation reads it.

The tracker compares the two fact by fact. A key names one thing a camera can read:

======================================  ===========================================================
key                                     value
======================================  ===========================================================
``("land", seat, (q, r))``              None (no tile), ``(resource, False)`` or ``(None, True)``
``("members", seat, (q, r))``           sorted ``((colour, count), …)``; ``()`` when none
``("slot", n)``                         None (empty slot) or ``(tile id, is_event)``
``("filled", n)``                       True when a tile lies on row slot ``n`` (read apart from which)
``("slotshells", n)``                   shells lying on row slot ``n``
``("board", era, col)``                 the achievement id, None while face down
``("face", era, col)``                  True when the tile lies face up (read apart from which one)
``("stones", era, col)``                stone colours on the slots from the left
``("track", colour, track)``            the marker's space
``("shells", seat)``                    shells on the seat's shell spot
``("arrow", colour)``                   None or ``((era, col), (era, col))``
======================================  ===========================================================

``seat`` is always the **layout seat** (where the player sits); :class:`tracker.facts.Seating` maps the game's seats
(rules order) to layout seats and colours. A key that a view does not list has the default value of
its kind (an unlisted hex is empty, an unlisted slot is empty…), so a view lists only what lies on
the table plus the empty hexes next to each land.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.tribes.rules.hexgrid import Hex, format_hex, frontier
from games.tribes.rules.profile import TRACKS
from games.tribes.rules.state import Player, State
from games.tribes.vision.observation import RIVAL_BACK, RIVAL_EMPTY, RIVAL_EXHAUSTED, Observation
from tracker.facts import Key, Reading, Seating, View
from tracker.facts import value_of as generic_value_of

_DEFAULTS: dict[str, Any] = {
    "land": None,
    "members": (),
    "slot": None,
    "filled": False,
    "slotshells": 0,
    "board": None,
    "face": False,
    "stones": (),
    "track": 0,
    "shells": 0,
    "arrow": None,
}

KINDS: tuple[str, ...] = tuple(_DEFAULTS)


def default(key: Key) -> Any:
    """The value a view implies for a key it does not list."""
    return _DEFAULTS[key[0]]


def value_of(view: Mapping[Key, Any], key: Key) -> Any:
    """The value of ``key`` in ``view`` (its default when not listed)."""
    return generic_value_of(view, key, default)


def table_view(state: State, seating: Seating) -> View:
    """What the table looks like in ``state``: every fact a camera could read.

    Shells lying on the tile taken this turn are already in the taker's hands: the rules credit them
    at the end of the turn (``state.turn_shells``), the table shows them on the taker's spot.
    Tiles drawn from the bag and not yet laid are not part of the view (a camera does not read them).
    """
    view: View = {}
    for g, p in enumerate(state.players):
        view.update(player_view(p, seating.layout_seats[g]))
    view.update(shells_view(state, seating))
    view.update(row_view(state))
    view.update(board_view(state))
    return view


def land_value(resource: str | None, exhausted: bool) -> tuple[str | None, bool]:
    """The value of a land fact with a tile: an exhausted tile shows its back, the same for every
    resource, so only "exhausted" is visible (``(None, True)``); a face-up tile shows its resource."""
    return (None, True) if exhausted else (resource, False)


def rival_value(rival: str) -> tuple[str | None, bool] | None:
    """The land fact's value of a hex's rival reading (:attr:`HexReading.rivals`): no tile, a tile's
    back, or a resource face up."""
    if rival == RIVAL_EMPTY:
        return None
    return land_value(None, True) if rival == RIVAL_EXHAUSTED else land_value(rival, False)


def player_view(p: Player, layout_seat: int) -> View:
    """One player's land (tiles, members, the empty hexes next to it) and track markers."""
    view: View = {}
    for h in frontier(p.land):
        view[("land", layout_seat, h)] = None
        view[("members", layout_seat, h)] = ()
    for h, t in p.land.items():
        view[("land", layout_seat, h)] = land_value(t.resource, t.exhausted)
        view[("members", layout_seat, h)] = ((p.colour, t.members),) if t.members else ()
    for i, name in enumerate(TRACKS):
        view[("track", p.colour, name)] = p.tracks[i]
    return view


def shells_view(state: State, seating: Seating) -> View:
    """Shells on each seat's spot (with the shells of the tile taken this turn, see
    :func:`table_view`)."""
    return {
        ("shells", seating.layout_seats[g]): p.shells + (state.turn_shells if g == state.to_move else 0)
        for g, p in enumerate(state.players)
    }


def row_view(state: State) -> View:
    """The action row: tile and shells per slot."""
    view: View = {}
    for i, rt in enumerate(state.row, start=1):
        view[("slot", i)] = (rt.tile, rt.event)
        view[("filled", i)] = True
        view[("slotshells", i)] = rt.shells
    return view


def board_view(state: State) -> View:
    """The achievement board (tiles, stones) and the arrow tokens, by colour."""
    view: View = {}
    colours = [p.colour for p in state.players]
    owners = {a.owner: (a.lower, a.upper) for a in state.arrows}
    for g, colour in enumerate(colours):
        view[("arrow", colour)] = owners.get(g)
    for e, era in enumerate(state.board, start=1):
        for c, bt in enumerate(era):
            view[("board", e, c)] = bt.tile
            view[("face", e, c)] = bt.tile is not None
            view[("stones", e, c)] = tuple(colours[s] for s in bt.stones)
    return view


def observation_facts(obs: Observation, colours: Iterable[str] = ()) -> dict[Key, Reading]:
    """The facts an observation reads, each with its confidence. Hidden regions give no facts
    (absence is not emptiness); arrow tokens are read for ``colours`` while the board is in view. A
    hex read as a tile names its rivals (:mod:`tracker.evidence`): those the reader weighed
    (:attr:`HexReading.rivals`), and always "no tile" at ``1 - tile_conf`` — a tile plainly there whose
    resource is unsure is not evidence for "nothing laid yet"."""
    out: dict[Key, Reading] = {}
    for h in obs.hexes:
        if h.tile:
            land: Any = land_value(h.resource, bool(h.exhausted))
            conf = min(h.tile_conf, h.resource_conf)
        else:
            land, conf = None, h.tile_conf
        weighed = {rival_value(r): p for r, p in h.rivals.items()}
        if h.tile:  # how sure a tile lies there at all is said apart: no tile is a rival that far behind
            weighed.setdefault(None, 1.0 - h.tile_conf)
        out[("land", h.seat, h.hex)] = (land, conf, weighed) if weighed else (land, conf)
        out[("members", h.seat, h.hex)] = (
            tuple(sorted((c, n) for c, n in h.members.items() if n > 0)),
            h.members_conf,
        )
    hidden = set(obs.hidden)
    if "row" not in hidden:
        for s in obs.row:
            out[("slot", s.slot)] = ((s.tile, bool(s.event)) if s.tile else None, s.tile_conf)
            out[("filled", s.slot)] = (s.tile is not None, s.filled_conf)
            out[("slotshells", s.slot)] = (s.shells, s.shells_conf)
    if "board" not in hidden:
        for b in obs.board:
            if b.rivals:
                weighed = {None if r == RIVAL_BACK else r: p for r, p in b.rivals.items()}
                out[("board", b.era, b.col)] = (b.tile, b.tile_conf, weighed)
            else:
                out[("board", b.era, b.col)] = (b.tile, b.tile_conf)
            out[("face", b.era, b.col)] = (b.tile is not None, b.face_conf)
            stones = list(b.stones)
            while stones and stones[-1] is None:
                stones.pop()
            out[("stones", b.era, b.col)] = (tuple(stones), b.stones_conf)
        if obs.board or obs.arrows:
            seen = {a.colour: a for a in obs.arrows}
            for colour in colours:
                a = seen.get(colour)
                out[("arrow", colour)] = ((a.lower, a.upper), a.conf) if a else (None, 1.0)
    if "tracks" not in hidden:
        for t in obs.tracks:
            out[("track", t.colour, t.track)] = (t.space, t.conf)
    for s in obs.shells:
        if f"shells:{s.seat}" not in hidden:
            out[("shells", s.seat)] = (s.count, s.conf)
    return out


def region_of(key: Key) -> str:
    """The observation region a fact belongs to (``land:<seat>``, ``row``, ``board``, ``tracks``,
    ``shells:<seat>``)."""
    kind = key[0]
    if kind in ("land", "members"):
        return f"land:{key[1]}"
    if kind in ("slot", "filled", "slotshells"):
        return "row"
    if kind in ("board", "face", "stones", "arrow"):
        return "board"
    if kind == "track":
        return "tracks"
    return f"shells:{key[1]}"


def describe_key(key: Key, names: Mapping[int, str] | None = None) -> str:
    """Words for a fact's place, e.g. "Ada's land 1,0 (members)", "row slot 3", "board era 2 col 1"."""
    kind = key[0]
    who = (names or {}).get(key[1], f"seat {key[1]}") if kind in ("land", "members", "shells") else ""
    if kind == "land":
        return f"{who}'s land {format_hex(key[2])} (tile)"
    if kind == "members":
        return f"{who}'s land {format_hex(key[2])} (members)"
    if kind == "slot":
        return f"row slot {key[1]} (tile)"
    if kind == "slotshells":
        return f"row slot {key[1]} (shells)"
    if kind == "filled":
        return f"row slot {key[1]} (tile or not)"
    if kind == "board":
        return f"board era {key[1]} column {key[2] + 1} (tile)"
    if kind == "face":
        return f"board era {key[1]} column {key[2] + 1} (side)"
    if kind == "stones":
        return f"board era {key[1]} column {key[2] + 1} (stones)"
    if kind == "track":
        return f"{key[1]} marker on the {key[2]} track"
    if kind == "shells":
        return f"{who}'s shells"
    return f"{key[1]} arrow token"


def describe_value(key: Key, value: Any) -> str:
    """Words for a fact's value."""
    kind = key[0]
    if kind == "land":
        if value is None:
            return "no tile"
        res, exhausted = value
        return "an exhausted tile" if exhausted else str(res)
    if kind == "members":
        return ", ".join(f"{n} {c}" for c, n in value) or "no members"
    if kind == "slot":
        return "empty" if value is None else f"{'event ' if value[1] else ''}{value[0]}"
    if kind == "board":
        return "face down" if value is None else str(value)
    if kind == "face":
        return "face up" if value else "face down"
    if kind == "filled":
        return "a tile" if value else "empty"
    if kind == "stones":
        return ", ".join(c or "-" for c in value) or "no stones"
    if kind == "arrow":
        return "not laid" if value is None else f"{value[0]}->{value[1]}"
    return str(value)


def key_to_json(key: Key) -> list[Any]:
    """A key as JSON data (hexes as ``"q,r"``)."""
    return [format_hex(k) if isinstance(k, tuple) else k for k in key]


def observation_of_view(view: Mapping[Key, Any], *, frame: int = 0, time: float = 0.0) -> Observation:
    """The observation a perfect reader would make of a table whose facts are ``view`` (every fact
    with confidence 1). The inverse of :func:`observation_facts`, for tests and simulations."""
    from games.tribes.vision.observation import (
        ArrowReading,
        BoardReading,
        HexReading,
        ShellReading,
        SlotReading,
        TrackReading,
    )

    hexes: dict[tuple[int, Hex], dict[str, Any]] = {}
    row: dict[int, dict[str, Any]] = {}
    board: dict[tuple[int, int], dict[str, Any]] = {}
    tracks, shells, arrows = [], [], []
    for key, val in view.items():
        kind = key[0]
        if kind in ("land", "members"):
            d = hexes.setdefault((key[1], key[2]), {"tile": False})
            if kind == "land" and val is not None:
                d.update(tile=True, resource=val[0], exhausted=val[1])
            elif kind == "members":
                d["members"] = dict(val)
        elif kind in ("slot", "slotshells"):
            d = row.setdefault(key[1], {"tile": None})
            if kind == "slot" and val is not None:
                d.update(tile=val[0], event=val[1])
            elif kind == "slotshells":
                d["shells"] = val
        elif kind in ("board", "stones"):
            d = board.setdefault((key[1], key[2]), {"tile": None})
            d["tile" if kind == "board" else "stones"] = val
        elif kind == "track":
            tracks.append(TrackReading(key[1], key[2], val))
        elif kind == "shells":
            shells.append(ShellReading(key[1], val))
        elif kind == "arrow" and val is not None:
            arrows.append(ArrowReading(key[1], val[0], val[1]))
    return Observation(
        frame=frame,
        time=time,
        hexes=tuple(
            HexReading(s, h, d["tile"], d.get("resource"), d.get("exhausted", False), d.get("members", {}))
            for (s, h), d in sorted(hexes.items())
        ),
        row=tuple(SlotReading(n, d["tile"], d.get("event", False), d.get("shells", 0)) for n, d in sorted(row.items())),
        board=tuple(BoardReading(e, c, d["tile"], tuple(d.get("stones", ()))) for (e, c), d in sorted(board.items())),
        tracks=tuple(tracks),
        shells=tuple(shells),
        arrows=tuple(arrows),
    )
