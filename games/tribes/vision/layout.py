"""The table layout: where everything lies on the table, in millimetres (docs/table-layout.md).

A layout is a JSON document describing the play area as seen from above: x to the right, y towards
the bottom edge (where seat 0 sits), origin at the top-left corner, millimetres. It names

* the ArUco markers that register the table plane (dictionary, id, size, centre, rotation),
* the white/grey/black reference patch for colour,
* the tile sizes (hexagonal landscape tiles: flat-to-flat size, gap and flat- or pointy-top; the
  rectangular action, event and achievement tiles),
* the regions: the action row (slot centres, slot 1 = the free front tile), the achievement board
  (3 eras x 4 columns of tile centres, the stone slots on a tile, the event stacks and the discard
  pile), the 4 progress tracks (start and end; the number of spaces comes from the box profile),
  the bag and the common shell supply,
* per seat: the land (hex lattice origin, rotation, and the area it may grow in), the shell spot and
  the supply spot (members, stones and arrow token not in play).

:func:`load_layout` validates a file and reports ``file: field: reason``; :func:`default_layout`
returns the shipped 4-player table. Component sizes that no source gives are *provisional* and are
listed in the layout's ``provisional`` field (``Layout.is_provisional``). Pure Python: no OpenCV.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any

from datafile import Reader, join, kind, parse_json, read_json, show
from vision.errors import LayoutError
from vision.layout import (
    ARUCO_DICTIONARIES,
    CAPTURE_RESERVED,
    Marker,
    Patch,
    Point,
    Tone,
    add,
    circle_polygon,
    rect_corners,
    rotate,
)

LAYOUT_FORMAT = "tribes-table-layout"
LAYOUT_VERSION = 1
TRACK_NAMES: tuple[str, ...] = ("offspring", "movement", "exploration", "strength")
"""The four progress tracks, in the order of ``rules.profile.TRACKS``."""
STONE_HEIGHT = 7.0
"""How tall a stone stands (mm) when the layout does not say (``board.stone_height``): a guess, as no
source gives it (the renderer's stones are as tall)."""

Hex = tuple[int, int]
SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, slots=True)
class HexTiles:
    """Landscape tiles: size across flats, gap between neighbours, and flat- or pointy-top lattice."""

    flat_to_flat: float
    gap: float
    orientation: str  # "flat" or "pointy"

    @property
    def pitch(self) -> float:
        """Distance between the centres of two neighbouring tiles."""
        return self.flat_to_flat + self.gap

    @property
    def radius(self) -> float:
        """Circumradius of a tile (centre to corner)."""
        return self.flat_to_flat / SQRT3


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: its land lattice, the area the land may grow in, its shell spot and supply spot."""

    name: str
    rotation: float
    origin: Point
    area_center: Point
    area_size: Point
    shells_center: Point
    shells_radius: float
    supply_center: Point
    supply_radius: float

    def area_corners(self) -> list[Point]:
        """Corners of the land area (mm)."""
        return rect_corners(self.area_center, self.area_size, self.rotation)


@dataclass(frozen=True, slots=True)
class TrackLine:
    """A progress track: the centre of its lowest space (``start``) and of its top space (``end``),
    or an explicit list of space centres."""

    name: str
    start: Point
    end: Point
    spaces: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Layout:
    """A validated table layout. All coordinates in mm, x right, y down, seen from above."""

    name: str
    table: Point
    dictionary: str
    markers: tuple[Marker, ...]
    patch: Patch
    hex: HexTiles
    action_size: Point
    event_size: Point
    achievement_size: Point
    row_slots: tuple[Point, ...]
    row_rotation: float
    board: tuple[tuple[Point, ...], ...]  # [era-1][col]
    board_rotation: float
    stone_slots: tuple[Point, ...]
    event_stacks: tuple[Point, ...]
    discard: Point
    tracks: Mapping[str, TrackLine]
    marker_offsets: tuple[Point, ...]
    bag: Point
    bag_radius: float
    shell_supply: Point
    shell_supply_radius: float
    seats: tuple[Seat, ...]
    provisional: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    stone_height: float = STONE_HEIGHT
    """How tall a stone stands (mm): the board reader looks for its top, where the camera sees it."""
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)
    source: str = ""

    # --- lookups ------------------------------------------------------------------------------
    def marker(self, marker_id: int) -> Marker:
        """The marker with this id; KeyError if none."""
        for m in self.markers:
            if m.id == marker_id:
                return m
        raise KeyError(marker_id)

    def is_provisional(self, path: str) -> bool:
        """True when the value at ``path`` (e.g. ``tiles.hex.flat_to_flat``) is a provisional guess."""
        return any(path == p or path.startswith(p + ".") or path.startswith(p + "[") for p in self.provisional)

    # --- land lattice -------------------------------------------------------------------------
    def hex_local(self, h: Hex) -> Point:
        """Centre of hex ``h`` in the seat's own frame (mm from the lattice origin, before rotation)."""
        q, r = h
        rad = self.hex.pitch / SQRT3
        if self.hex.orientation == "flat":
            return (rad * 1.5 * q, rad * SQRT3 * (r + q / 2))
        return (rad * SQRT3 * (q + r / 2), rad * 1.5 * r)

    def hex_center(self, seat: int, h: Hex) -> Point:
        """Centre of hex ``h`` of seat ``seat``'s land on the table (mm)."""
        s = self.seats[seat]
        return add(s.origin, rotate(self.hex_local(h), s.rotation))

    def hex_rotation(self, seat: int) -> float:
        """Clockwise rotation (degrees) that turns a flat-top tile image into a tile of this seat."""
        return self.seats[seat].rotation + (0.0 if self.hex.orientation == "flat" else 30.0)

    def hex_corners(self, seat: int, h: Hex, radius: float | None = None) -> list[Point]:
        """The six corners (mm) of the tile at ``h`` (``radius`` defaults to the tile's circumradius)."""
        c = self.hex_center(seat, h)
        rad = self.hex.radius if radius is None else radius
        rot = self.hex_rotation(seat)
        return [
            add(c, rotate((rad * math.cos(math.radians(60 * k)), rad * math.sin(math.radians(60 * k))), rot))
            for k in range(6)
        ]

    def hex_at(self, seat: int, point: Point) -> Hex:
        """The hex of seat ``seat``'s lattice containing table point ``point`` (cube rounding)."""
        s = self.seats[seat]
        local = rotate((point[0] - s.origin[0], point[1] - s.origin[1]), -s.rotation)
        rad = self.hex.pitch / SQRT3
        x, y = local[0] / rad, local[1] / rad
        if self.hex.orientation == "flat":
            qf, rf = 2 / 3 * x, -1 / 3 * x + SQRT3 / 3 * y
        else:
            qf, rf = SQRT3 / 3 * x - 1 / 3 * y, 2 / 3 * y
        sf = -qf - rf
        q, r, s_ = round(qf), round(rf), round(sf)
        dq, dr, ds = abs(q - qf), abs(r - rf), abs(s_ - sf)
        if dq > dr and dq > ds:
            q = -r - s_
        elif dr > ds:
            r = -q - s_
        return (int(q), int(r))

    def in_area(self, seat: int, point: Point) -> bool:
        """True when ``point`` lies inside seat ``seat``'s land area."""
        s = self.seats[seat]
        local = rotate((point[0] - s.area_center[0], point[1] - s.area_center[1]), -s.rotation)
        return abs(local[0]) <= s.area_size[0] / 2 and abs(local[1]) <= s.area_size[1] / 2

    def area_hexes(self, seat: int) -> list[Hex]:
        """Every hex whose centre lies inside the seat's land area, sorted."""
        s = self.seats[seat]
        span = int(math.hypot(*s.area_size) / self.hex.pitch) + 3
        c = self.hex_at(seat, s.area_center)
        out = []
        for dq in range(-span, span + 1):
            for dr in range(-span, span + 1):
                h = (c[0] + dq, c[1] + dr)
                if self.in_area(seat, self.hex_center(seat, h)):
                    out.append(h)
        return sorted(out)

    # --- row, board, tracks -------------------------------------------------------------------
    def row_slot(self, slot: int) -> Point:
        """Centre of row slot ``slot`` (counted from 1, the free front tile)."""
        return self.row_slots[slot - 1]

    def row_position(self, place: float) -> Point:
        """A point along the row for a fractional slot number (for tiles sliding forward)."""
        n = len(self.row_slots)
        place = min(max(place, 1.0), float(n))
        lo = min(math.floor(place), n - 1)
        t = place - lo
        a, b = self.row_slots[lo - 1], self.row_slots[lo]
        return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)

    def board_tile(self, era: int, col: int) -> Point:
        """Centre of the achievement position ``era`` (1–3), ``col`` (0–3)."""
        return self.board[era - 1][col]

    def stone_slot(self, era: int, col: int, slot: int) -> Point:
        """Centre of stone slot ``slot`` (0 = leftmost) on the achievement tile at ``era``, ``col``."""
        return add(self.board_tile(era, col), rotate(self.stone_slots[slot], self.board_rotation))

    def arrow_position(self, lower: tuple[int, int], upper: tuple[int, int]) -> tuple[Point, float]:
        """Where an arrow token lies between two board positions ``(era, col)``: centre and the
        clockwise angle (degrees) of the direction from the lower to the upper tile."""
        a, b = self.board_tile(*lower), self.board_tile(*upper)
        return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))

    def track_spaces(self, track: str, count: int) -> list[Point]:
        """Centres of the ``count`` spaces of ``track`` (from the box profile), lowest first."""
        t = self.tracks[track]
        if t.spaces:
            if len(t.spaces) != count:
                raise LayoutError(
                    self.source or "<layout>",
                    f"tracks.{track}.spaces",
                    f"lists {len(t.spaces)} spaces but the box profile's {track} track has {count}",
                )
            return list(t.spaces)
        if count == 1:
            return [t.start]
        return [
            (
                t.start[0] + (t.end[0] - t.start[0]) * k / (count - 1),
                t.start[1] + (t.end[1] - t.start[1]) * k / (count - 1),
            )
            for k in range(count)
        ]

    def track_marker(self, track: str, space: int, count: int, seat: int) -> Point:
        """Where seat ``seat``'s progress marker lies on space ``space`` of ``track``."""
        base = self.track_spaces(track, count)[space]
        return add(base, self.marker_offsets[seat % len(self.marker_offsets)])

    def with_seats(self, order: Sequence[int]) -> Layout:
        """The same table with players seated at layout seats ``order`` (player i at seat
        ``order[i]``), e.g. ``(0, 2)``: two players opposite each other on a 4-seat table."""
        order = list(order)
        n = len(self.seats)
        if not order or len(set(order)) != len(order) or any(not 0 <= i < n for i in order):
            raise LayoutError(
                self.source or "<layout>", "seats", f"seat order {order} must name distinct seats 0..{n - 1}"
            )
        offsets = self.marker_offsets
        return replace(
            self,
            seats=tuple(self.seats[i] for i in order),
            marker_offsets=tuple(offsets[i % len(offsets)] for i in order),
        )

    # --- JSON ---------------------------------------------------------------------------------
    def to_json(self) -> str:
        """The validated source document as JSON text."""
        return json.dumps(self.raw, ensure_ascii=False, indent=1) + "\n"


# --- reading and validation ------------------------------------------------------------------------
class _LayoutReader(Reader):
    """The common reader, raising :class:`LayoutError`, with the kinds of value a layout holds: points,
    sizes, lists of points and circles (millimetres)."""

    def __init__(self, source: str) -> None:
        super().__init__(source, LayoutError)

    def point(self, val: Any, path: str) -> Point:
        """A point ``[x, y]`` in mm."""
        if not isinstance(val, list) or len(val) != 2:
            raise self.fail(path, f"must be a point [x, y] in mm, got {show(val)}")
        return (self.number(val[0], f"{path}[0]"), self.number(val[1], f"{path}[1]"))

    def size(self, val: Any, path: str) -> Point:
        """A size ``[width, height]`` in mm, both positive."""
        if not isinstance(val, list) or len(val) != 2:
            raise self.fail(path, f"must be a size [width, height] in mm, got {show(val)}")
        return (self.number(val[0], f"{path}[0]", positive=True), self.number(val[1], f"{path}[1]", positive=True))

    def points(self, val: Any, path: str, count: int | None = None, min_count: int = 1) -> tuple[Point, ...]:
        """A list of points, or ``{"first": [x, y], "step": [dx, dy], "count": n}``."""
        if isinstance(val, dict):
            first = self.point(self.get(val, "first", path), join(path, "first"))
            step = self.point(self.get(val, "step", path), join(path, "step"))
            n = self.integer(self.get(val, "count", path), join(path, "count"), 1)
            extra = sorted(set(val) - {"first", "step", "count"})
            if extra:
                raise self.fail(join(path, extra[0]), "is not a field here (expected first, step, count)")
            pts = tuple((first[0] + step[0] * k, first[1] + step[1] * k) for k in range(n))
        elif isinstance(val, list):
            pts = tuple(self.point(p, f"{path}[{i}]") for i, p in enumerate(val))
        else:
            raise self.fail(path, f'must be a list of points or {{"first", "step", "count"}}, got {kind(val)}')
        if count is not None and len(pts) != count:
            raise self.fail(path, f"must hold {count} points, got {len(pts)}")
        if len(pts) < min_count:
            raise self.fail(path, f"must hold at least {min_count} point(s), got {len(pts)}")
        return pts

    def circle(self, val: Any, path: str) -> tuple[Point, float]:
        """``{"center": [x, y], "radius": r}``."""
        node = self.obj(val, path)
        return (
            self.point(self.get(node, "center", path), join(path, "center")),
            self.number(self.get(node, "radius", path), join(path, "radius"), positive=True),
        )


def parse_layout(data: Any, source: str = "<layout>") -> Layout:
    """Validate a layout document (decoded JSON) and build the :class:`Layout`."""
    rd = _LayoutReader(source)
    root = rd.obj(data, "")
    if root.get("format") != LAYOUT_FORMAT:
        raise rd.fail("format", f"must be {LAYOUT_FORMAT!r}, got {show(root.get('format'))}")
    rd.integer(rd.get(root, "version", ""), "version", LAYOUT_VERSION, LAYOUT_VERSION)
    name = rd.text(rd.get(root, "name", ""), "name")
    prov_raw = rd.get(root, "provisional", "", [])
    if not isinstance(prov_raw, list) or not all(isinstance(p, str) and p for p in prov_raw):
        raise rd.fail("provisional", "must be a list of field paths (texts)")

    tnode = rd.obj(rd.get(root, "table", ""), "table")
    table = (
        rd.number(rd.get(tnode, "width", "table"), "table.width", positive=True),
        rd.number(rd.get(tnode, "height", "table"), "table.height", positive=True),
    )

    # markers
    mnode = rd.obj(rd.get(root, "markers", ""), "markers")
    dictionary = rd.get(mnode, "dictionary", "markers")
    if dictionary not in ARUCO_DICTIONARIES:
        raise rd.fail(
            "markers.dictionary",
            f"must be one of OpenCV's ArUco dictionaries such as DICT_4X4_50, got {show(dictionary)}",
        )
    default_size = rd.get(mnode, "size", "markers", None)
    if default_size is not None:
        default_size = rd.number(default_size, "markers.size", positive=True)
    items = rd.list(rd.get(mnode, "items", "markers"), "markers.items")
    if len(items) < 4:
        raise rd.fail(
            "markers.items",
            f"must hold at least 4 markers (so that the plane is found with some hidden), got {len(items)}",
        )
    markers = []
    seen_ids: set[int] = set()
    for i, node in enumerate(items):
        path = f"markers.items[{i}]"
        mn = rd.obj(node, path)
        mid = rd.integer(rd.get(mn, "id", path), f"{path}.id", 0, ARUCO_DICTIONARIES[dictionary] - 1)
        if mid >= ARUCO_DICTIONARIES[dictionary] - CAPTURE_RESERVED:
            raise rd.fail(
                f"{path}.id",
                f"id {mid} is reserved for the tile capture sheet (the last {CAPTURE_RESERVED} ids of {dictionary})",
            )
        if mid in seen_ids:
            raise rd.fail(f"{path}.id", f"marker id {mid} is used twice")
        seen_ids.add(mid)
        size = rd.get(mn, "size", path, default_size)
        if size is None:
            raise rd.fail(f"{path}.size", "is missing (and markers.size gives no default)")
        markers.append(
            Marker(
                mid,
                rd.point(rd.get(mn, "center", path), f"{path}.center"),
                rd.number(size, f"{path}.size", positive=True),
                rd.number(rd.get(mn, "rotation", path, 0.0), f"{path}.rotation"),
            )
        )

    # reference patch
    pnode = rd.obj(rd.get(root, "reference_patch", ""), "reference_patch")
    tones_raw = rd.get(pnode, "tones", "reference_patch")
    if not isinstance(tones_raw, list) or not tones_raw:
        raise rd.fail("reference_patch.tones", "must be a non-empty list of {name, grey}")
    tones = []
    for i, tn in enumerate(tones_raw):
        path = f"reference_patch.tones[{i}]"
        tnd = rd.obj(tn, path)
        tones.append(
            Tone(
                rd.text(rd.get(tnd, "name", path), f"{path}.name"),
                rd.integer(rd.get(tnd, "grey", path), f"{path}.grey", 0, 255),
            )
        )
    patch = Patch(
        rd.point(rd.get(pnode, "center", "reference_patch"), "reference_patch.center"),
        rd.size(rd.get(pnode, "size", "reference_patch"), "reference_patch.size"),
        rd.number(rd.get(pnode, "rotation", "reference_patch", 0.0), "reference_patch.rotation"),
        tuple(tones),
    )

    # tiles
    tiles = rd.obj(rd.get(root, "tiles", ""), "tiles")
    hnode = rd.obj(rd.get(tiles, "hex", "tiles"), "tiles.hex")
    orient = rd.get(hnode, "orientation", "tiles.hex")
    if orient not in ("flat", "pointy"):
        raise rd.fail("tiles.hex.orientation", f"must be 'flat' or 'pointy', got {show(orient)}")
    hex_tiles = HexTiles(
        rd.number(rd.get(hnode, "flat_to_flat", "tiles.hex"), "tiles.hex.flat_to_flat", positive=True),
        rd.number(rd.get(hnode, "gap", "tiles.hex", 0.0), "tiles.hex.gap", 0.0),
        orient,
    )
    sizes = {}
    for tk in ("action", "event", "achievement"):
        node = rd.obj(rd.get(tiles, tk, "tiles"), f"tiles.{tk}")
        sizes[tk] = rd.size(rd.get(node, "size", f"tiles.{tk}"), f"tiles.{tk}.size")

    # row
    rnode = rd.obj(rd.get(root, "row", ""), "row")
    row_slots = rd.points(rd.get(rnode, "slots", "row"), "row.slots", min_count=6)
    row_rotation = rd.number(rd.get(rnode, "rotation", "row", 0.0), "row.rotation")

    # board
    bnode = rd.obj(rd.get(root, "board", ""), "board")
    enode = rd.obj(rd.get(bnode, "eras", "board"), "board.eras")
    board = tuple(rd.points(rd.get(enode, str(e), "board.eras"), f"board.eras.{e}", count=4) for e in (1, 2, 3))
    board_rotation = rd.number(rd.get(bnode, "rotation", "board", 0.0), "board.rotation")
    stone_slots = rd.points(rd.get(bnode, "stone_slots", "board"), "board.stone_slots")
    stone_height = rd.number(rd.get(bnode, "stone_height", "board", STONE_HEIGHT), "board.stone_height", 0.0, 30.0)
    event_stacks = rd.points(rd.get(bnode, "event_stacks", "board"), "board.event_stacks", count=3)
    discard = rd.point(rd.get(bnode, "discard", "board"), "board.discard")

    # tracks
    trnode = rd.obj(rd.get(root, "tracks", ""), "tracks")
    extra = sorted(set(trnode) - set(TRACK_NAMES) - {"marker_offsets"})
    if extra:
        raise rd.fail(f"tracks.{extra[0]}", f"is not a track; the tracks are {', '.join(TRACK_NAMES)}")
    tracks = {}
    for tname in TRACK_NAMES:
        path = f"tracks.{tname}"
        tn = rd.obj(rd.get(trnode, tname, "tracks"), path)
        if "spaces" in tn:
            spaces = rd.points(tn["spaces"], f"{path}.spaces", min_count=1)
            tracks[tname] = TrackLine(tname, spaces[0], spaces[-1], spaces)
        else:
            tracks[tname] = TrackLine(
                tname,
                rd.point(rd.get(tn, "start", path), f"{path}.start"),
                rd.point(rd.get(tn, "end", path), f"{path}.end"),
            )
    marker_offsets = rd.points(rd.get(trnode, "marker_offsets", "tracks"), "tracks.marker_offsets", min_count=1)

    bag, bag_r = rd.circle(rd.get(root, "bag", ""), "bag")
    shell_supply, shell_r = rd.circle(rd.get(root, "shell_supply", ""), "shell_supply")

    # seats
    seats_raw = rd.get(root, "seats", "")
    if not isinstance(seats_raw, list) or not seats_raw:
        raise rd.fail("seats", "must be a non-empty list of seats (seat 0 is the start player)")
    seats = []
    for i, sn in enumerate(seats_raw):
        path = f"seats[{i}]"
        snode = rd.obj(sn, path)
        land = rd.obj(rd.get(snode, "land", path), f"{path}.land")
        area = rd.obj(rd.get(land, "area", f"{path}.land"), f"{path}.land.area")
        shells_c, shells_r = rd.circle(rd.get(snode, "shells", path), f"{path}.shells")
        supply_c, supply_r = rd.circle(rd.get(snode, "supply", path), f"{path}.supply")
        seats.append(
            Seat(
                name=rd.text(rd.get(snode, "name", path), f"{path}.name"),
                rotation=rd.number(rd.get(snode, "rotation", path, 0.0), f"{path}.rotation"),
                origin=rd.point(rd.get(land, "origin", f"{path}.land"), f"{path}.land.origin"),
                area_center=rd.point(rd.get(area, "center", f"{path}.land.area"), f"{path}.land.area.center"),
                area_size=rd.size(rd.get(area, "size", f"{path}.land.area"), f"{path}.land.area.size"),
                shells_center=shells_c,
                shells_radius=shells_r,
                supply_center=supply_c,
                supply_radius=supply_r,
            )
        )

    layout = Layout(
        name=name,
        table=table,
        dictionary=dictionary,
        markers=tuple(markers),
        patch=patch,
        hex=hex_tiles,
        action_size=sizes["action"],
        event_size=sizes["event"],
        achievement_size=sizes["achievement"],
        row_slots=row_slots,
        row_rotation=row_rotation,
        board=board,
        board_rotation=board_rotation,
        stone_slots=stone_slots,
        stone_height=stone_height,
        event_stacks=event_stacks,
        discard=discard,
        tracks=tracks,
        marker_offsets=marker_offsets,
        bag=bag,
        bag_radius=bag_r,
        shell_supply=shell_supply,
        shell_supply_radius=shell_r,
        seats=tuple(seats),
        provisional=tuple(prov_raw),
        raw=dict(root),
        source=source,
    )
    warnings = _check_geometry(layout, rd)
    object.__setattr__(layout, "warnings", tuple(warnings))
    return layout


def regions(layout: Layout) -> list[tuple[str, list[Point]]]:
    """Every region of the layout as ``(field path, polygon in mm)``: markers, patch, row slots,
    board tiles, event stacks, discard, tracks, bag, shell supply and each seat's area and spots."""
    out: list[tuple[str, list[Point]]] = []
    for i, m in enumerate(layout.markers):
        out.append((f"markers.items[{i}]", m.corners()))
    out.append(("reference_patch", rect_corners(layout.patch.center, layout.patch.size, layout.patch.rotation)))
    for i, c in enumerate(layout.row_slots):
        out.append((f"row.slots[{i}]", rect_corners(c, layout.action_size, layout.row_rotation)))
    for e in (1, 2, 3):
        for col, c in enumerate(layout.board[e - 1]):
            out.append((f"board.eras.{e}[{col}]", rect_corners(c, layout.achievement_size, layout.board_rotation)))
    for i, c in enumerate(layout.event_stacks):
        out.append((f"board.event_stacks[{i}]", rect_corners(c, layout.event_size, layout.board_rotation)))
    out.append(("board.discard", rect_corners(layout.discard, layout.event_size, layout.board_rotation)))
    for name, t in layout.tracks.items():
        out.append((f"tracks.{name}", _segment_polygon(t.start, t.end, 18.0)))
    out.append(("bag", circle_polygon(layout.bag, layout.bag_radius)))
    out.append(("shell_supply", circle_polygon(layout.shell_supply, layout.shell_supply_radius)))
    for i, s in enumerate(layout.seats):
        out.append((f"seats[{i}].land.area", s.area_corners()))
        out.append((f"seats[{i}].shells", circle_polygon(s.shells_center, s.shells_radius)))
        out.append((f"seats[{i}].supply", circle_polygon(s.supply_center, s.supply_radius)))
    return out


def _segment_polygon(a: Point, b: Point, half_width: float) -> list[Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    ux, uy = (dx / length, dy / length) if length > 1e-9 else (1.0, 0.0)
    nx, ny = -uy * half_width, ux * half_width
    ex, ey = ux * half_width, uy * half_width
    return [
        (a[0] - ex + nx, a[1] - ey + ny),
        (b[0] + ex + nx, b[1] + ey + ny),
        (b[0] + ex - nx, b[1] + ey - ny),
        (a[0] - ex - nx, a[1] - ey - ny),
    ]


def _group(path: str) -> str:
    """Regions in one group may touch each other (row slots side by side, board tiles)."""
    return path.split("[")[0] if not path.startswith("seats[") else path


def _check_geometry(layout: Layout, rd: _LayoutReader) -> list[str]:
    w, h = layout.table
    regs = regions(layout)
    for path, poly in regs:
        for x, y in poly:
            if x < -0.5 or y < -0.5 or x > w + 0.5 or y > h + 0.5:
                raise rd.fail(path, f"reaches outside the table (0..{w:g} x 0..{h:g} mm): ({x:.0f}, {y:.0f})")
    for (pa, a), (pb, b) in combinations(regs, 2):
        if _group(pa) == _group(pb) and not pa.startswith("markers"):
            continue
        depth = _overlap(a, b)
        if depth > 0.5:
            raise rd.fail(pb, f"overlaps {pa} by {depth:.1f} mm")
    warnings = []
    area = w * h
    centres = [m.center for m in layout.markers]
    for hidden in combinations(range(len(centres)), 2):
        rest = [c for i, c in enumerate(centres) if i not in hidden]
        best = max((abs(_tri_area(*t)) for t in combinations(rest, 3)), default=0.0)
        if best < 0.05 * area:
            ids = [layout.markers[i].id for i in hidden]
            warnings.append(
                f"{rd.source}: markers: with markers {ids[0]} and {ids[1]} hidden the rest span too little of the "
                "table (no triangle of 5% of its area): add markers or spread them out"
            )
            break
    return warnings


def _tri_area(a: Point, b: Point, c: Point) -> float:
    return 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]))


def _overlap(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Penetration depth of two convex polygons (0 when they do not overlap), separating axes."""
    depth = math.inf
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % n]
            ax, ay = y2 - y1, x1 - x2
            norm = math.hypot(ax, ay)
            if norm < 1e-12:
                continue
            ax, ay = ax / norm, ay / norm
            pa = [p[0] * ax + p[1] * ay for p in a]
            pb = [p[0] * ax + p[1] * ay for p in b]
            d = min(max(pa), max(pb)) - max(min(pa), min(pb))
            if d <= 0:
                return 0.0
            depth = min(depth, d)
    return depth


def load_layout(path: str | Path) -> Layout:
    """Read and validate a layout file; errors name the file, field and reason."""
    return parse_layout(read_json(path, "the layout", LayoutError), str(path))


DEFAULT_LAYOUT = "table-4p.json"


def default_layout() -> Layout:
    """The shipped layout of a 4-player table (``vision/layouts/table-4p.json``)."""
    source = f"vision/layouts/{DEFAULT_LAYOUT}"
    data = resources.files(__package__).joinpath("layouts", DEFAULT_LAYOUT).read_bytes()
    return parse_layout(parse_json(data, source, LayoutError), source)


def resolve_layout(spec: str | Path | None) -> Layout:
    """``None`` or ``"default"`` for the shipped layout, else a path to a layout file."""
    if spec is None or str(spec) == "default":
        return default_layout()
    return load_layout(spec)
