"""The Observation: everything the camera read from one frame, as validated plain data.

This is the contract between the camera pipeline (``vision``: frame → Observation) and the tracker
(``tracker``: Observation + rules state → move, prompt or desync). It holds only what the rules care
about, each fact with a confidence in [0, 1]; it knows nothing of pixels beyond what is needed to
point at a place (regions by name). Pure Python: importing it pulls in neither OpenCV nor numpy.

Coordinates: a hex is the axial ``(q, r)`` of the seat's land lattice as the table layout defines it
(docs/table-layout.md); the renderer lays the rules state's hexes on exactly those coordinates, so
for rendered tables they equal ``State.players[seat].land`` keys. Players are identified by seat
(the layout's seat the player sits at, mapped to the game's seat by the caller) and pieces by colour
name.

JSON: :meth:`Observation.to_dict` / :meth:`Observation.from_dict` (``format: tribes-observation``,
docs/observation.md); ``from_dict`` validates and raises :class:`ObservationError` naming the field.
:func:`observation_from_truth` turns a renderer ground-truth document into the Observation a perfect
reader would produce (confidence 1), for tests, evaluation and the tracker's simulations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

OBSERVATION_FORMAT = "tribes-observation"
OBSERVATION_VERSION = 1
TRACKS = ("offspring", "movement", "exploration", "strength")
REGIONS = ("row", "board", "tracks")
"""Named regions besides each seat's land (``land:<seat>``) and shell spot (``shells:<seat>``)."""


class ObservationError(ValueError):
    """An observation document that is malformed: names the field and the reason."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


@dataclass(frozen=True, slots=True)
class HexReading:
    """One hex of a seat's land lattice. ``tile`` False means the hex is seen empty (then resource and
    exhausted are meaningless). ``members`` counts pieces per colour standing on it."""

    seat: int
    hex: tuple[int, int]
    tile: bool
    resource: str | None = None
    exhausted: bool = False
    members: Mapping[str, int] = field(default_factory=dict)
    tile_conf: float = 1.0
    resource_conf: float = 1.0
    members_conf: float = 1.0


@dataclass(frozen=True, slots=True)
class SlotReading:
    """One slot of the action row (1 = front): the tile lying there (action tile or event id; None =
    empty) and the shells on it. ``tile_conf`` is the confidence in the tile as reported (which one, or
    none); ``filled_conf`` only in whether a tile lies there at all, whichever tile it is."""

    slot: int
    tile: str | None
    event: bool = False
    shells: int = 0
    tile_conf: float = 1.0
    shells_conf: float = 1.0
    filled_conf: float = 1.0


@dataclass(frozen=True, slots=True)
class BoardReading:
    """One achievement position (era 1-3, column 0-3): the tile (None = face down) and the colour of
    the stone on each slot, left to right (None = free slot). ``tile_conf`` is the confidence in the
    reported tile as a whole (which one, or face down); ``face_conf`` only in its side: that it lies
    face up (``tile`` given) or face down (``tile`` None), whichever tile it is."""

    era: int
    col: int
    tile: str | None
    stones: tuple[str | None, ...] = ()
    tile_conf: float = 1.0
    stones_conf: float = 1.0
    face_conf: float = 1.0


@dataclass(frozen=True, slots=True)
class TrackReading:
    """Where the marker of ``colour`` stands on ``track`` (space index, 0 = lowest)."""

    colour: str
    track: str
    space: int
    conf: float = 1.0


@dataclass(frozen=True, slots=True)
class ShellReading:
    """Shells lying on a seat's shell spot."""

    seat: int
    count: int
    conf: float = 1.0


@dataclass(frozen=True, slots=True)
class ArrowReading:
    """An arrow token on the board between two positions ``(era, col)``, by colour."""

    colour: str
    lower: tuple[int, int]
    upper: tuple[int, int]
    conf: float = 1.0


@dataclass(frozen=True, slots=True)
class Observation:
    """What one frame shows. ``registered`` False means the table plane could not be found (then the
    readings are empty). ``settled`` False means hands or motion: the readings must not be trusted.
    ``hidden`` names regions the camera could not see this frame (``land:2``, ``row``, …)."""

    frame: int = 0
    time: float = 0.0
    registered: bool = True
    settled: bool = True
    hand_in_view: bool = False
    markers: tuple[int, ...] = ()
    hidden: tuple[str, ...] = ()
    hexes: tuple[HexReading, ...] = ()
    row: tuple[SlotReading, ...] = ()
    board: tuple[BoardReading, ...] = ()
    tracks: tuple[TrackReading, ...] = ()
    shells: tuple[ShellReading, ...] = ()
    arrows: tuple[ArrowReading, ...] = ()

    def land(self, seat: int) -> dict[tuple[int, int], HexReading]:
        """The readings of one seat's land, by hex."""
        return {h.hex: h for h in self.hexes if h.seat == seat}

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (docs/observation.md)."""
        return {
            "format": OBSERVATION_FORMAT,
            "version": OBSERVATION_VERSION,
            "frame": self.frame,
            "time": self.time,
            "registered": self.registered,
            "settled": self.settled,
            "hand_in_view": self.hand_in_view,
            "markers": list(self.markers),
            "hidden": list(self.hidden),
            "hexes": [
                {
                    "seat": h.seat,
                    "hex": list(h.hex),
                    "tile": h.tile,
                    "resource": h.resource,
                    "exhausted": h.exhausted,
                    "members": dict(h.members),
                    "tile_conf": h.tile_conf,
                    "resource_conf": h.resource_conf,
                    "members_conf": h.members_conf,
                }
                for h in self.hexes
            ],
            "row": [
                {
                    "slot": s.slot,
                    "tile": s.tile,
                    "event": s.event,
                    "shells": s.shells,
                    "tile_conf": s.tile_conf,
                    "shells_conf": s.shells_conf,
                    "filled_conf": s.filled_conf,
                }
                for s in self.row
            ],
            "board": [
                {
                    "era": b.era,
                    "col": b.col,
                    "tile": b.tile,
                    "stones": list(b.stones),
                    "tile_conf": b.tile_conf,
                    "stones_conf": b.stones_conf,
                    "face_conf": b.face_conf,
                }
                for b in self.board
            ],
            "tracks": [{"colour": t.colour, "track": t.track, "space": t.space, "conf": t.conf} for t in self.tracks],
            "shells": [{"seat": s.seat, "count": s.count, "conf": s.conf} for s in self.shells],
            "arrows": [
                {"colour": a.colour, "lower": list(a.lower), "upper": list(a.upper), "conf": a.conf}
                for a in self.arrows
            ],
        }

    @staticmethod
    def from_dict(data: Any) -> Observation:
        """Read and validate an observation document; raises :class:`ObservationError`."""
        return _read(data)


# --- validation ----------------------------------------------------------------------------------
def _obj(v: Any, path: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ObservationError(path, "must be an object")
    return v


def _get(d: dict[str, Any], key: str, path: str, default: Any = ...) -> Any:
    if key in d:
        return d[key]
    if default is ...:
        raise ObservationError(f"{path}.{key}" if path else key, "is missing")
    return default


def _int(v: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ObservationError(path, f"must be an integer, got {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ObservationError(path, f"must be between {lo} and {hi}, got {v}")
    return v


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise ObservationError(path, f"must be true or false, got {v!r}")
    return v


def _conf(v: Any, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not 0.0 <= float(v) <= 1.0:
        raise ObservationError(path, f"must be a confidence between 0 and 1, got {v!r}")
    return float(v)


def _name(v: Any, path: str, optional: bool = False) -> str | None:
    if v is None and optional:
        return None
    if not isinstance(v, str) or not v:
        raise ObservationError(path, f"must be a non-empty text, got {v!r}")
    return v


def _pair(v: Any, path: str) -> tuple[int, int]:
    if not (isinstance(v, list | tuple) and len(v) == 2):
        raise ObservationError(path, f"must be a pair of integers, got {v!r}")
    return (_int(v[0], path), _int(v[1], path))


def _list(v: Any, path: str) -> list[Any]:
    if not isinstance(v, list | tuple):
        raise ObservationError(path, "must be a list")
    return list(v)


def _read(data: Any) -> Observation:
    d = _obj(data, "(top level)")
    if d.get("format") != OBSERVATION_FORMAT:
        raise ObservationError("format", f"must be {OBSERVATION_FORMAT!r}, got {d.get('format')!r}")
    _int(_get(d, "version", ""), "version", OBSERVATION_VERSION, OBSERVATION_VERSION)
    hexes = []
    seen_hex: set[tuple[int, tuple[int, int]]] = set()
    for i, h in enumerate(_list(_get(d, "hexes", "", []), "hexes")):
        p = f"hexes[{i}]"
        h = _obj(h, p)
        seat = _int(_get(h, "seat", p), f"{p}.seat", 0, 7)
        hx = _pair(_get(h, "hex", p), f"{p}.hex")
        if (seat, hx) in seen_hex:
            raise ObservationError(f"{p}.hex", f"seat {seat} hex {list(hx)} is read twice")
        seen_hex.add((seat, hx))
        members = _obj(_get(h, "members", p, {}), f"{p}.members")
        hexes.append(
            HexReading(
                seat=seat,
                hex=hx,
                tile=_bool(_get(h, "tile", p), f"{p}.tile"),
                resource=_name(_get(h, "resource", p, None), f"{p}.resource", optional=True),
                exhausted=_bool(_get(h, "exhausted", p, False), f"{p}.exhausted"),
                members={
                    _name(k, f"{p}.members") or "": _int(v, f"{p}.members.{k}", 0, 99) for k, v in members.items()
                },
                tile_conf=_conf(_get(h, "tile_conf", p, 1.0), f"{p}.tile_conf"),
                resource_conf=_conf(_get(h, "resource_conf", p, 1.0), f"{p}.resource_conf"),
                members_conf=_conf(_get(h, "members_conf", p, 1.0), f"{p}.members_conf"),
            )
        )
    row = []
    for i, s in enumerate(_list(_get(d, "row", "", []), "row")):
        p = f"row[{i}]"
        s = _obj(s, p)
        row.append(
            SlotReading(
                slot=_int(_get(s, "slot", p), f"{p}.slot", 1, 64),
                tile=_name(_get(s, "tile", p), f"{p}.tile", optional=True),
                event=_bool(_get(s, "event", p, False), f"{p}.event"),
                shells=_int(_get(s, "shells", p, 0), f"{p}.shells", 0, 99),
                tile_conf=_conf(_get(s, "tile_conf", p, 1.0), f"{p}.tile_conf"),
                shells_conf=_conf(_get(s, "shells_conf", p, 1.0), f"{p}.shells_conf"),
                filled_conf=_conf(_get(s, "filled_conf", p, 1.0), f"{p}.filled_conf"),
            )
        )
    board = []
    for i, b in enumerate(_list(_get(d, "board", "", []), "board")):
        p = f"board[{i}]"
        b = _obj(b, p)
        board.append(
            BoardReading(
                era=_int(_get(b, "era", p), f"{p}.era", 1, 3),
                col=_int(_get(b, "col", p), f"{p}.col", 0, 3),
                tile=_name(_get(b, "tile", p), f"{p}.tile", optional=True),
                stones=tuple(
                    _name(c, f"{p}.stones", optional=True) for c in _list(_get(b, "stones", p, []), f"{p}.stones")
                ),
                tile_conf=_conf(_get(b, "tile_conf", p, 1.0), f"{p}.tile_conf"),
                stones_conf=_conf(_get(b, "stones_conf", p, 1.0), f"{p}.stones_conf"),
                face_conf=_conf(_get(b, "face_conf", p, 1.0), f"{p}.face_conf"),
            )
        )
    tracks = []
    for i, t in enumerate(_list(_get(d, "tracks", "", []), "tracks")):
        p = f"tracks[{i}]"
        t = _obj(t, p)
        track = _get(t, "track", p)
        if track not in TRACKS:
            raise ObservationError(f"{p}.track", f"must be one of {', '.join(TRACKS)}, got {track!r}")
        tracks.append(
            TrackReading(
                colour=_name(_get(t, "colour", p), f"{p}.colour") or "",
                track=track,
                space=_int(_get(t, "space", p), f"{p}.space", 0, 99),
                conf=_conf(_get(t, "conf", p, 1.0), f"{p}.conf"),
            )
        )
    shells = []
    for i, s in enumerate(_list(_get(d, "shells", "", []), "shells")):
        p = f"shells[{i}]"
        s = _obj(s, p)
        shells.append(
            ShellReading(
                seat=_int(_get(s, "seat", p), f"{p}.seat", 0, 7),
                count=_int(_get(s, "count", p), f"{p}.count", 0, 99),
                conf=_conf(_get(s, "conf", p, 1.0), f"{p}.conf"),
            )
        )
    arrows = []
    for i, a in enumerate(_list(_get(d, "arrows", "", []), "arrows")):
        p = f"arrows[{i}]"
        a = _obj(a, p)
        arrows.append(
            ArrowReading(
                colour=_name(_get(a, "colour", p), f"{p}.colour") or "",
                lower=_pair(_get(a, "lower", p), f"{p}.lower"),
                upper=_pair(_get(a, "upper", p), f"{p}.upper"),
                conf=_conf(_get(a, "conf", p, 1.0), f"{p}.conf"),
            )
        )
    t = _get(d, "time", "", 0.0)
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise ObservationError("time", f"must be a number of seconds, got {t!r}")
    return Observation(
        frame=_int(_get(d, "frame", "", 0), "frame", 0),
        time=float(t),
        registered=_bool(_get(d, "registered", "", True), "registered"),
        settled=_bool(_get(d, "settled", "", True), "settled"),
        hand_in_view=_bool(_get(d, "hand_in_view", "", False), "hand_in_view"),
        markers=tuple(_int(m, "markers", 0, 999) for m in _list(_get(d, "markers", "", []), "markers")),
        hidden=tuple(_name(r, "hidden") or "" for r in _list(_get(d, "hidden", "", []), "hidden")),
        hexes=tuple(hexes),
        row=tuple(row),
        board=tuple(board),
        tracks=tuple(tracks),
        shells=tuple(shells),
        arrows=tuple(arrows),
    )


def observation_from_truth(truth: Mapping[str, Any], frame: int = 0, time: float = 0.0) -> Observation:
    """The observation a perfect reader would make of a rendered frame (renderer ground truth,
    docs/renderer.md): every visible fact with confidence 1; hexes out of view are left out and their
    seat's land listed as hidden."""
    hexes = []
    hidden: set[str] = set()
    for h in truth.get("hexes", []):
        if not h.get("in_view", True):
            hidden.add(f"land:{h['seat']}")
            continue
        hexes.append(
            HexReading(
                seat=int(h["seat"]),
                hex=(int(h["hex"][0]), int(h["hex"][1])),
                tile=bool(h["tile"]),
                resource=h.get("resource") if h["tile"] else None,
                exhausted=bool(h.get("exhausted", False)) if h["tile"] else False,
                members={str(k): int(v) for k, v in (h.get("members") or {}).items() if v},
            )
        )
    row = [
        SlotReading(int(s["slot"]), s.get("tile"), bool(s.get("event", False)), int(s.get("shells", 0)))
        for s in truth.get("row", [])
    ]
    board = []
    for b in truth.get("board", []):
        tile = b.get("tile") if b.get("face_up", b.get("tile") is not None) else None
        stones_by_slot = {int(st["slot"]): st["colour"] for st in b.get("stones", [])}
        n = max(stones_by_slot, default=-1) + 1
        board.append(BoardReading(int(b["era"]), int(b["col"]), tile, tuple(stones_by_slot.get(i) for i in range(n))))
    tracks = []
    shells = []
    for seat in truth.get("seats", []):
        for name, t in (seat.get("tracks") or {}).items():
            tracks.append(TrackReading(seat["colour"], name, int(t["space"])))
        shells.append(ShellReading(int(seat["seat"]), int(seat.get("shells", 0))))
    arrows = [
        ArrowReading(a["colour"], (int(a["lower"][0]), int(a["lower"][1])), (int(a["upper"][0]), int(a["upper"][1])))
        for a in truth.get("arrows", [])
    ]
    hand = bool(truth.get("hand_in_view", False))
    return Observation(
        frame=frame,
        time=time,
        registered=True,
        settled=not hand and not truth.get("row_moving"),
        hand_in_view=hand,
        markers=tuple(int(m["id"]) for m in truth.get("markers", []) if m.get("visible", True)),
        hidden=tuple(sorted(hidden)),
        hexes=tuple(hexes),
        row=tuple(row),
        board=tuple(board),
        tracks=tuple(tracks),
        shells=tuple(shells),
        arrows=tuple(arrows),
    )
