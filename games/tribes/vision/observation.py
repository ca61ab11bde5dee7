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

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from datafile import DataFileError, Reader, kind, read_json, show

OBSERVATION_FORMAT = "tribes-observation"
OBSERVATION_VERSION = 1
TRACKS = ("offspring", "movement", "exploration", "strength")
REGIONS = ("row", "board", "tracks")
"""Named regions besides each seat's land (``land:<seat>``) and shell spot (``shells:<seat>``)."""


class ObservationError(DataFileError):
    """An observation document that is malformed: names the field and the reason (and the file, when
    it came from one: ``source``)."""

    def __init__(self, field: str, reason: str, source: str = "") -> None:
        super().__init__(source, field, reason)


class _FileError(ObservationError):
    """An observation file that cannot be read (the datafile reader's ``(source, field, reason)``)."""

    def __init__(self, source: str, field: str, reason: str) -> None:
        super().__init__(field, reason, source)


@dataclass(frozen=True, slots=True)
class HexReading:
    """One hex of a seat's land lattice. ``tile`` False means the hex is seen empty (then resource and
    exhausted are meaningless). ``members`` counts pieces per colour standing on it. ``rivals``: the
    other readings of the hex the reader weighed, with their probabilities — ``"empty"``,
    ``"exhausted"`` or a resource (:data:`RIVAL_EMPTY`, :data:`RIVAL_EXHAUSTED`); none listed: no word
    on them."""

    seat: int
    hex: tuple[int, int]
    tile: bool
    resource: str | None = None
    exhausted: bool = False
    members: Mapping[str, int] = field(default_factory=dict)
    tile_conf: float = 1.0
    resource_conf: float = 1.0
    members_conf: float = 1.0
    rivals: Mapping[str, float] = field(default_factory=dict)


RIVAL_EMPTY = "empty"
"""A hex's rival reading "no tile" (:attr:`HexReading.rivals`)."""
RIVAL_EXHAUSTED = "exhausted"
"""A hex's rival reading "a tile showing its back" (:attr:`HexReading.rivals`)."""


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
    face up (``tile`` given) or face down (``tile`` None), whichever tile it is. ``rivals``: the other
    tiles the reader weighed there, with their probabilities — an achievement id, ``"?"`` (a face
    never enrolled) or :data:`RIVAL_BACK` (face down); none listed: no word on them."""

    era: int
    col: int
    tile: str | None
    stones: tuple[str | None, ...] = ()
    tile_conf: float = 1.0
    stones_conf: float = 1.0
    face_conf: float = 1.0
    rivals: Mapping[str, float] = field(default_factory=dict)


RIVAL_BACK = "back"
"""An achievement position's rival reading "face down" (:attr:`BoardReading.rivals`)."""


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

    def without_hidden_facts(self) -> Observation:
        """The same observation with no facts in its ``hidden`` regions (a hidden region reports
        none: absence is not emptiness, docs/observation.md); arrow tokens go with the board."""
        hid = set(self.hidden)
        if not hid:
            return self
        return replace(
            self,
            hexes=tuple(h for h in self.hexes if f"land:{h.seat}" not in hid),
            row=() if "row" in hid else self.row,
            board=() if "board" in hid else self.board,
            arrows=() if "board" in hid else self.arrows,
            tracks=() if "tracks" in hid else self.tracks,
            shells=tuple(s for s in self.shells if f"shells:{s.seat}" not in hid),
        )

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
                | ({"rivals": dict(h.rivals)} if h.rivals else {})
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
                | ({"rivals": dict(b.rivals)} if b.rivals else {})
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
    def from_dict(data: Any, source: str = "") -> Observation:
        """Read and validate an observation document; raises :class:`ObservationError` (naming
        ``source``, the file it came from, when given)."""
        return _read(data, source)

    @staticmethod
    def load(path: str | Path) -> Observation:
        """Read and validate an observation file; :class:`ObservationError` names the file and field."""
        return _read(read_json(path, "the observation", _FileError), str(path))


# --- validation ----------------------------------------------------------------------------------
class _ObservationReader(Reader):
    """The common reader, raising :class:`ObservationError`, with an observation's kinds of value."""

    def __init__(self, source: str) -> None:
        super().__init__(source, ObservationError)

    def fail(self, path: str, reason: str) -> ObservationError:
        """The error to raise for ``path`` (an ObservationError takes the field first)."""
        return ObservationError(path or "(top level)", reason, self.source)

    def seq(self, val: Any, path: str) -> list[Any]:
        """A list (or tuple, for documents built in Python)."""
        if not isinstance(val, list | tuple):
            raise self.fail(path, f"must be a list, got {kind(val)}")
        return list(val)

    def conf(self, val: Any, path: str) -> float:
        """A confidence in [0, 1]."""
        if isinstance(val, bool) or not isinstance(val, int | float) or not 0.0 <= float(val) <= 1.0:
            raise self.fail(path, f"must be a confidence between 0 and 1, got {show(val)}")
        return float(val)

    def rivals(self, d: dict[str, Any], path: str) -> dict[str, float]:
        """The optional ``rivals`` of a reading at ``path``: names, each with a probability."""
        got = self.obj(self.get(d, "rivals", path, {}), f"{path}.rivals")
        return {self.name(k, f"{path}.rivals"): self.conf(v, f"{path}.rivals.{k}") for k, v in got.items()}

    def name(self, val: Any, path: str) -> str:
        """A non-empty text (a colour, a tile id, a region)."""
        return self.text(val, path)

    def maybe(self, val: Any, path: str) -> str | None:
        """A non-empty text or null."""
        return None if val is None else self.text(val, path)

    def ints(self, val: Any, path: str) -> tuple[int, int]:
        """A pair of integers (a hex, a board position)."""
        if not isinstance(val, list | tuple) or len(val) != 2:
            raise self.fail(path, f"must be a pair of integers, got {show(val)}")
        return (self.integer(val[0], path), self.integer(val[1], path))

    def section(self, d: dict[str, Any], key: str) -> Iterator[tuple[dict[str, Any], str]]:
        """The objects of the list ``d[key]`` (none when missing), each with its path, one by one."""
        for i, item in enumerate(self.seq(self.get(d, key, "", []), key)):
            yield self.obj(item, f"{key}[{i}]"), f"{key}[{i}]"


def _read(data: Any, source: str = "") -> Observation:
    rd = _ObservationReader(source)
    d = rd.obj(data, "")
    if d.get("format") != OBSERVATION_FORMAT:
        raise rd.fail("format", f"must be {OBSERVATION_FORMAT!r}, got {d.get('format')!r}")
    rd.integer(rd.get(d, "version", ""), "version", OBSERVATION_VERSION, OBSERVATION_VERSION)
    hexes = _hexes(rd, d)
    row = [_slot(rd, s, p) for s, p in rd.section(d, "row")]
    board = [_board_reading(rd, b, p) for b, p in rd.section(d, "board")]
    tracks = [_track(rd, t, p) for t, p in rd.section(d, "tracks")]
    shells = [
        ShellReading(
            seat=rd.integer(rd.get(s, "seat", p), f"{p}.seat", 0, 7),
            count=rd.integer(rd.get(s, "count", p), f"{p}.count", 0, 99),
            conf=rd.conf(rd.get(s, "conf", p, 1.0), f"{p}.conf"),
        )
        for s, p in rd.section(d, "shells")
    ]
    arrows = [
        ArrowReading(
            colour=rd.name(rd.get(a, "colour", p), f"{p}.colour"),
            lower=rd.ints(rd.get(a, "lower", p), f"{p}.lower"),
            upper=rd.ints(rd.get(a, "upper", p), f"{p}.upper"),
            conf=rd.conf(rd.get(a, "conf", p, 1.0), f"{p}.conf"),
        )
        for a, p in rd.section(d, "arrows")
    ]
    t = rd.get(d, "time", "", 0.0)
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise rd.fail("time", f"must be a number of seconds, got {show(t)}")
    return Observation(
        frame=rd.integer(rd.get(d, "frame", "", 0), "frame", 0),
        time=float(t),
        registered=rd.boolean(rd.get(d, "registered", "", True), "registered"),
        settled=rd.boolean(rd.get(d, "settled", "", True), "settled"),
        hand_in_view=rd.boolean(rd.get(d, "hand_in_view", "", False), "hand_in_view"),
        markers=tuple(rd.integer(m, "markers", 0, 999) for m in rd.seq(rd.get(d, "markers", "", []), "markers")),
        hidden=tuple(rd.name(r, "hidden") for r in rd.seq(rd.get(d, "hidden", "", []), "hidden")),
        hexes=tuple(hexes),
        row=tuple(row),
        board=tuple(board),
        tracks=tuple(tracks),
        shells=tuple(shells),
        arrows=tuple(arrows),
    )


def _hexes(rd: _ObservationReader, d: dict[str, Any]) -> list[HexReading]:
    hexes = []
    seen: set[tuple[int, tuple[int, int]]] = set()
    for h, p in rd.section(d, "hexes"):
        seat = rd.integer(rd.get(h, "seat", p), f"{p}.seat", 0, 7)
        hx = rd.ints(rd.get(h, "hex", p), f"{p}.hex")
        if (seat, hx) in seen:
            raise rd.fail(f"{p}.hex", f"seat {seat} hex {list(hx)} is read twice")
        seen.add((seat, hx))
        members = rd.obj(rd.get(h, "members", p, {}), f"{p}.members")
        hexes.append(
            HexReading(
                seat=seat,
                hex=hx,
                tile=rd.boolean(rd.get(h, "tile", p), f"{p}.tile"),
                resource=rd.maybe(rd.get(h, "resource", p, None), f"{p}.resource"),
                exhausted=rd.boolean(rd.get(h, "exhausted", p, False), f"{p}.exhausted"),
                members={
                    rd.name(k, f"{p}.members"): rd.integer(v, f"{p}.members.{k}", 0, 99) for k, v in members.items()
                },
                tile_conf=rd.conf(rd.get(h, "tile_conf", p, 1.0), f"{p}.tile_conf"),
                resource_conf=rd.conf(rd.get(h, "resource_conf", p, 1.0), f"{p}.resource_conf"),
                members_conf=rd.conf(rd.get(h, "members_conf", p, 1.0), f"{p}.members_conf"),
                rivals=rd.rivals(h, p),
            )
        )
    return hexes


def _slot(rd: _ObservationReader, s: dict[str, Any], p: str) -> SlotReading:
    return SlotReading(
        slot=rd.integer(rd.get(s, "slot", p), f"{p}.slot", 1, 64),
        tile=rd.maybe(rd.get(s, "tile", p), f"{p}.tile"),
        event=rd.boolean(rd.get(s, "event", p, False), f"{p}.event"),
        shells=rd.integer(rd.get(s, "shells", p, 0), f"{p}.shells", 0, 99),
        tile_conf=rd.conf(rd.get(s, "tile_conf", p, 1.0), f"{p}.tile_conf"),
        shells_conf=rd.conf(rd.get(s, "shells_conf", p, 1.0), f"{p}.shells_conf"),
        filled_conf=rd.conf(rd.get(s, "filled_conf", p, 1.0), f"{p}.filled_conf"),
    )


def _board_reading(rd: _ObservationReader, b: dict[str, Any], p: str) -> BoardReading:
    return BoardReading(
        era=rd.integer(rd.get(b, "era", p), f"{p}.era", 1, 3),
        col=rd.integer(rd.get(b, "col", p), f"{p}.col", 0, 3),
        tile=rd.maybe(rd.get(b, "tile", p), f"{p}.tile"),
        stones=tuple(rd.maybe(c, f"{p}.stones") for c in rd.seq(rd.get(b, "stones", p, []), f"{p}.stones")),
        tile_conf=rd.conf(rd.get(b, "tile_conf", p, 1.0), f"{p}.tile_conf"),
        stones_conf=rd.conf(rd.get(b, "stones_conf", p, 1.0), f"{p}.stones_conf"),
        face_conf=rd.conf(rd.get(b, "face_conf", p, 1.0), f"{p}.face_conf"),
        rivals=rd.rivals(b, p),
    )


def _track(rd: _ObservationReader, t: dict[str, Any], p: str) -> TrackReading:
    track = rd.choice(rd.get(t, "track", p), f"{p}.track", TRACKS)
    return TrackReading(
        colour=rd.name(rd.get(t, "colour", p), f"{p}.colour"),
        track=track,
        space=rd.integer(rd.get(t, "space", p), f"{p}.space", 0, 99),
        conf=rd.conf(rd.get(t, "conf", p, 1.0), f"{p}.conf"),
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
