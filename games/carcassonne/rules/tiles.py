"""Tile geometry and the box profile: every tile type of the box, validated and compiled for speed.

A tile has four sides (N, E, S, W; clockwise), each a forest, meadow or river edge (H-TILE-1). Its
*segments* are the parts a figure can stand on: forests (a set of forest sides), river sections (one
side ending at a lake or a spring, or two sides), lakes (with fish) and meadows (a set of half-sides:
every side has two halves, named clockwise ``NW NE EN ES SE SW WS WN``; a river side splits the
meadow there, a meadow side usually does not). Spots are named by segment kind and index in the
profile's order: ``f0`` (forest), ``r1`` (river), ``l0`` (lake), ``m2`` (meadow) — the same whatever
the tile's rotation.

The box profile (docs/carcassonne.md, "Box profile") lists the start tile, the land tiles and the
bonus tiles with their counts; every value carries provenance (:class:`datafile.provenance.SourceReader`).
The totals are checked against the component counts (H-COMP-1). :class:`Compiled` holds, per tile
type and rotation, the edge key, the side ports and the fit table the engine uses, built once per
profile.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

from datafile import DataFileError as _BaseDataFileError
from datafile import beside, parse_json, read_bytes, show
from datafile.provenance import SourceReader, provisional_paths, source_of
from datafile.provenance import mark_checked as _mark_checked
from games.carcassonne.rules.errors import ProfileError

PROFILE_FORMAT = "carcassonne-box-profile"
PROFILE_VERSION = 1

SIDES = "NESW"
"""Side letters by index: 0 north, 1 east, 2 south, 3 west (clockwise)."""
HALVES = ("NW", "NE", "EN", "ES", "SE", "SW", "WS", "WN")
"""Half-side names by index ``2 * side + h`` (clockwise: half 0 comes first going round)."""
DELTA = (-1, 4096, 1, -4096)
"""Cell-key offset of the neighbour across each side (a cell key is ``x * 4096 + y``, y southwards)."""
CELL = 4096

FOREST, MEADOW, RIVER = 1, 2, 3
"""Edge types (0 means an open side in a constraint)."""
EDGE_OF_LETTER = {"F": FOREST, "M": MEADOW, "R": RIVER}
LETTER_OF_EDGE = {v: k for k, v in EDGE_OF_LETTER.items()}

SEG_FOREST, SEG_RIVER, SEG_LAKE, SEG_MEADOW = 0, 1, 2, 3
SPOT_LETTER = ("f", "r", "l", "m")
SEG_NAME = ("forest", "river", "lake", "meadow")

ANIMALS = ("deer", "mammoths", "tigers", "aurochs", "fire", "cult")
"""Meadow contents, packed 8 bits each into one integer in this order (deer lowest)."""
ANIMAL_SHIFT = {name: 8 * i for i, name in enumerate(ANIMALS)}
PACK_LIMIT = 255
"""Most of one animal kind (or of gold / mushrooms) a whole box may hold: they are packed 8 bits each."""
MAX_MEMBERS = 20
"""Most tribe members or huts per player a profile may give (figure counts are packed 5 bits each)."""
GROUPS = ("start", "land", "bonus")


class Role(StrEnum):
    """What a figure is, by where it stands (H-FIG-4): tribe members as gatherer (forest), fisher
    (river) or hunter (meadow, lying down), or a hut (river or lake, H-HUT-1)."""

    GATHERER = "gatherer"
    FISHER = "fisher"
    HUNTER = "hunter"
    HUT = "hut"

    def __repr__(self) -> str:
        return f"Role.{self.name}"


ROLES_OF_SEG: dict[int, tuple[Role, ...]] = {
    SEG_FOREST: (Role.GATHERER,),
    SEG_RIVER: (Role.FISHER, Role.HUT),
    SEG_LAKE: (Role.HUT,),
    SEG_MEADOW: (Role.HUNTER,),
}
"""Which figures may stand on which segment (H-FIG-4, H-HUT-1)."""


def cell_key(x: int, y: int) -> int:
    """The integer key of square ``(x, y)``."""
    return x * CELL + y


def cell_xy(key: int) -> tuple[int, int]:
    """The square of a cell key."""
    x = (key + CELL // 2) // CELL
    return x, key - x * CELL


@dataclass(frozen=True, slots=True)
class Segment:
    """One part of a tile: a forest, a river section, a lake or a meadow, and what is drawn on it."""

    kind: int
    index: int
    sides: tuple[int, ...] = ()
    """Forest/river: the sides it reaches (unrotated)."""
    halves: tuple[int, ...] = ()
    """Meadow: the half-sides it reaches (unrotated)."""
    end: str = ""
    """River with one side: ``spring`` or ``lake``."""
    lake: int = -1
    """River ending at a lake: the lake's index on the tile."""
    gold: int = 0
    mushrooms: int = 0
    fish: int = 0
    deer: int = 0
    mammoths: int = 0
    tigers: int = 0
    aurochs: int = 0
    fire: int = 0
    cult: int = 0

    @property
    def spot(self) -> str:
        """The spot name (``f0``, ``r1``, ``l0``, ``m2``)."""
        return f"{SPOT_LETTER[self.kind]}{self.index}"

    def animals(self) -> int:
        """The meadow's contents packed (see :data:`ANIMALS`)."""
        return (
            self.deer | self.mammoths << 8 | self.tigers << 16 | self.aurochs << 24 | self.fire << 32 | self.cult << 40
        )

    def to_view(self) -> dict[str, Any]:
        """Plain data for the page (unrotated sides and halves)."""
        out: dict[str, Any] = {"spot": self.spot, "kind": SEG_NAME[self.kind]}
        if self.sides:
            out["sides"] = [SIDES[s] for s in self.sides]
        if self.kind == SEG_MEADOW:
            out["halves"] = [HALVES[h] for h in self.halves]
        if self.end:
            out["end"] = self.end
            if self.end == "lake":
                out["lake"] = self.lake
        for name in ("gold", "mushrooms", "fish", *ANIMALS):
            val = getattr(self, name)
            if val:
                out[name] = val
        return out


@dataclass(frozen=True, slots=True)
class TileType:
    """A tile type of the box: its id, group (start, land, bonus), count, edges and segments."""

    id: str
    group: str
    count: int
    edges: tuple[int, int, int, int]
    segments: tuple[Segment, ...]
    path: str
    """Where it sits in the profile document (``land[3]``)."""

    @property
    def edge_text(self) -> str:
        """The edges as letters, N E S W (``FMRM``)."""
        return "".join(LETTER_OF_EDGE[e] for e in self.edges)

    def segment(self, spot: str) -> Segment | None:
        """The segment at ``spot`` (``m1``), or None."""
        for seg in self.segments:
            if seg.spot == spot:
                return seg
        return None

    def to_view(self) -> dict[str, Any]:
        """Plain data the page draws the tile from (unrotated)."""
        return {
            "id": self.id,
            "group": self.group,
            "count": self.count,
            "edges": self.edge_text,
            "segments": [s.to_view() for s in self.segments],
        }


class Compiled:
    """Per-rotation tables of one tile type, built once per profile (the engine's hot data).

    ``ports[r][d]`` are the local segments at side ``d`` of the tile turned ``r`` quarter turns
    clockwise: ``(edge feature or -1, meadow at half 0 or -1, meadow at half 1 or -1)``. ``fits[c]``
    lists the rotations whose edges satisfy the constraint ``c`` (2 bits per side, 0 = open).
    """

    __slots__ = (
        "cult",
        "edges",
        "fits",
        "forest_open",
        "goldmush",
        "keys",
        "lake_fish",
        "meadow_animals",
        "nseg",
        "options",
        "ports",
        "records",
        "river_lake",
        "river_open",
        "scoring_locals",
        "seg_kind",
        "spot_local",
        "sys_groups",
        "sys_records",
        "sys_root",
        "touch",
        "water",
    )

    def __init__(self, tile: TileType) -> None:
        segs = tile.segments
        self.nseg = len(segs)
        self.seg_kind: tuple[int, ...] = tuple(s.kind for s in segs)
        edge_seg = [-1] * 4
        half_seg = [-1] * 8
        for local, s in enumerate(segs):
            if s.kind in (SEG_FOREST, SEG_RIVER):
                for side in s.sides:
                    edge_seg[side] = local
            elif s.kind == SEG_MEADOW:
                for h in s.halves:
                    half_seg[h] = local
        self.edges: tuple[tuple[int, ...], ...] = tuple(
            tuple(tile.edges[(d - r) % 4] for d in range(4)) for r in range(4)
        )
        self.keys: tuple[int, ...] = tuple(sum(e[d] << (2 * d) for d in range(4)) for e in self.edges)
        ports: list[tuple[tuple[int, int, int], ...]] = []
        touch: list[tuple[tuple[tuple[int, int], ...], ...]] = []
        for r in range(4):
            pr = []
            tr: list[list[tuple[int, int]]] = [[] for _ in segs]
            for d in range(4):
                o = (d - r) % 4
                p = (edge_seg[o], half_seg[2 * o], half_seg[2 * o + 1])
                pr.append(p)
                for pi, local in enumerate(p):
                    if local >= 0:
                        tr[local].append((d, pi))
            ports.append(tuple(pr))
            touch.append(tuple(tuple(t) for t in tr))
        self.ports = tuple(ports)
        self.touch = tuple(touch)
        fits: list[tuple[int, ...]] = []
        for c in range(256):
            mask = 0
            for d in range(4):
                if (c >> (2 * d)) & 3:
                    mask |= 3 << (2 * d)
            fits.append(tuple(r for r in range(4) if self.keys[r] & mask == c))
        self.fits: tuple[tuple[int, ...], ...] = tuple(fits)
        # static parts of each segment's feature record
        self.forest_open = tuple(len(s.sides) if s.kind == SEG_FOREST else 0 for s in segs)
        self.goldmush = tuple(s.gold | s.mushrooms << 8 for s in segs)
        self.river_open = tuple(len(s.sides) if s.kind == SEG_RIVER else 0 for s in segs)
        lake_locals = [i for i, s in enumerate(segs) if s.kind == SEG_LAKE]
        self.river_lake = tuple(lake_locals[s.lake] if s.kind == SEG_RIVER and s.end == "lake" else -1 for s in segs)
        self.lake_fish = tuple(s.fish for s in segs)
        self.meadow_animals = tuple(s.animals() if s.kind == SEG_MEADOW else 0 for s in segs)
        self.scoring_locals = tuple(i for i, s in enumerate(segs) if s.kind in (SEG_FOREST, SEG_RIVER))
        self.water = tuple(i for i, s in enumerate(segs) if s.kind in (SEG_RIVER, SEG_LAKE))
        # river systems inside the tile: rivers ending at a lake belong to the lake's system (H-HUT-2)
        root = list(range(self.nseg))
        for i in range(self.nseg):
            if self.river_lake[i] >= 0:
                root[i] = self.river_lake[i]
        self.sys_root = tuple(root)
        groups: dict[int, list[int]] = {}
        for i in self.water:
            groups.setdefault(root[i], []).append(i)
        self.sys_groups = tuple(tuple(g) for g in groups.values())
        # river systems of the tile: one node per group, numbered in group order
        group_of = {i: j for j, g in enumerate(self.sys_groups) for i in g}
        # per segment: (kind, open or animals, gold|mushrooms or 0, end lake (local) or -1, its fish, system)
        recs: list[tuple[int, int, int, int, int, int]] = []
        for i, s in enumerate(segs):
            if s.kind == SEG_FOREST:
                recs.append((SEG_FOREST, self.forest_open[i], self.goldmush[i], -1, 0, -1))
            elif s.kind == SEG_RIVER:
                ll = self.river_lake[i]
                recs.append((SEG_RIVER, self.river_open[i], 0, ll, self.lake_fish[ll] if ll >= 0 else 0, group_of[i]))
            elif s.kind == SEG_LAKE:
                recs.append((SEG_LAKE, 0, 0, -1, 0, group_of[i]))
            else:
                recs.append((SEG_MEADOW, self.meadow_animals[i], 0, -1, 0, -1))
        self.records = tuple(recs)
        self.sys_records: tuple[tuple[int, int], ...] = tuple(
            (len(g), sum(self.lake_fish[i] for i in g if segs[i].kind == SEG_LAKE)) for g in self.sys_groups
        )
        self.spot_local: dict[str, int] = {sg.spot: i for i, sg in enumerate(segs)}
        self.cult: tuple[bool, ...] = tuple(sg.cult > 0 for sg in segs)
        self.options: tuple[tuple[int, Role, str], ...] = tuple(
            (i, role, sg.spot) for i, sg in enumerate(segs) for role in ROLES_OF_SEG[sg.kind]
        )


@dataclass(frozen=True, eq=False)
class BoxProfile:
    """A validated box profile: tile types (start, land, bonus), figures per player, provenance.

    Equality is by content digest."""

    name: str
    raw: Mapping[str, Any]
    provenance: Mapping[str, str]
    members: int
    huts: int
    land_total: int
    bonus_total: int
    tiles: tuple[TileType, ...]
    digest: str
    compiled: tuple[Compiled, ...] = field(repr=False, default=())
    index: Mapping[str, int] = field(repr=False, default_factory=dict)
    start: int = 0
    land: tuple[int, ...] = ()
    bonus: tuple[int, ...] = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoxProfile) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def __repr__(self) -> str:
        return f"<BoxProfile {self.name!r} sha256:{self.digest[:12]}>"

    def tile(self, tile_id: str) -> TileType | None:
        """The tile type with this id, or None."""
        i = self.index.get(tile_id)
        return None if i is None else self.tiles[i]

    def source_of(self, path: str) -> str:
        """The provenance of the value at ``path`` (``land[3].meadows[0].deer``)."""
        return source_of(self.provenance, path)

    def provisional_paths(self) -> list[str]:
        """Every value path whose provenance is provisional."""
        return provisional_paths(self.raw, self.provenance)

    def is_provisional(self, path: str) -> bool:
        """The value (or part) at ``path`` is provisional."""
        return self.source_of(path).startswith("provisional")


def _sides(rd: SourceReader, val: Any, path: str) -> list[int]:
    out = []
    for i, s in enumerate(rd.list(val, path, 1, 4)):
        s = rd.choice(s, f"{path}[{i}]", list(SIDES))
        if SIDES.index(s) in out:
            raise rd.fail(f"{path}[{i}]", f"side {s} is named twice")
        out.append(SIDES.index(s))
    return out


def _halves(rd: SourceReader, val: Any, path: str) -> list[int]:
    out: list[int] = []
    for i, s in enumerate(rd.list(val, path, 0, 8)):
        s = rd.choice(s, f"{path}[{i}]", [*SIDES, *HALVES])
        hs = [2 * SIDES.index(s), 2 * SIDES.index(s) + 1] if len(s) == 1 else [HALVES.index(s)]
        for h in hs:
            if h in out:
                raise rd.fail(f"{path}[{i}]", f"half-side {HALVES[h]} is named twice")
            out.append(h)
    return out


def _count(rd: SourceReader, node: Mapping[str, Any], key: str, path: str) -> int:
    return rd.integer(rd.get(node, key, path, 0), f"{path}.{key}", 0, PACK_LIMIT)


def parse_tile(rd: SourceReader, node: Any, path: str, group: str) -> TileType:
    """One tile type: edges and segments, checked for consistency (every side covered once)."""
    node = rd.obj(node, path)
    keys = ["id", "edges", "forests", "rivers", "lakes", "meadows", "_source", "_sources", "name"]
    if group != "start":
        keys.append("count")
    rd.only(node, keys, path)
    tid = rd.text(rd.get(node, "id", path), f"{path}.id", max_len=24)
    if not tid.replace("-", "").replace("_", "").isalnum():
        raise rd.fail(f"{path}.id", f"must be letters, digits, '-' or '_', got {show(tid)}")
    count = 1 if group == "start" else rd.integer(rd.get(node, "count", path), f"{path}.count", 0, 200)
    etext = rd.text(rd.get(node, "edges", path), f"{path}.edges")
    if len(etext) != 4 or any(c not in EDGE_OF_LETTER for c in etext):
        raise rd.fail(f"{path}.edges", f"must be 4 letters F, M or R (sides N E S W), got {show(etext)}")
    edges = (EDGE_OF_LETTER[etext[0]], EDGE_OF_LETTER[etext[1]], EDGE_OF_LETTER[etext[2]], EDGE_OF_LETTER[etext[3]])
    segs: list[Segment] = []
    covered: dict[int, str] = {}
    # forests
    for i, f in enumerate(rd.list(rd.get(node, "forests", path, []), f"{path}.forests")):
        fp = f"{path}.forests[{i}]"
        f = rd.obj(f, fp)
        rd.only(f, ("sides", "gold", "mushrooms", "_source", "_sources"), fp)
        sides = _sides(rd, rd.get(f, "sides", fp), f"{fp}.sides")
        for s in sides:
            if edges[s] != FOREST:
                raise rd.fail(f"{fp}.sides", f"side {SIDES[s]} is not a forest edge (edges {etext})")
            if s in covered:
                raise rd.fail(f"{fp}.sides", f"side {SIDES[s]} already belongs to {covered[s]}")
            covered[s] = f"forest {i}"
        segs.append(
            Segment(
                SEG_FOREST,
                i,
                sides=tuple(sides),
                gold=_count(rd, f, "gold", fp),
                mushrooms=_count(rd, f, "mushrooms", fp),
            )
        )
    lakes_raw = rd.list(rd.get(node, "lakes", path, []), f"{path}.lakes", 0, 8)
    # rivers
    for i, r in enumerate(rd.list(rd.get(node, "rivers", path, []), f"{path}.rivers")):
        rp = f"{path}.rivers[{i}]"
        r = rd.obj(r, rp)
        rd.only(r, ("sides", "end", "lake", "_source", "_sources"), rp)
        sides = _sides(rd, rd.get(r, "sides", rp), f"{rp}.sides")
        if len(sides) > 2:
            raise rd.fail(f"{rp}.sides", "a river section reaches one or two sides (more meet at a lake)")
        for s in sides:
            if edges[s] != RIVER:
                raise rd.fail(f"{rp}.sides", f"side {SIDES[s]} is not a river edge (edges {etext})")
            if s in covered:
                raise rd.fail(f"{rp}.sides", f"side {SIDES[s]} already belongs to {covered[s]}")
            covered[s] = f"river {i}"
        end, lake = "", -1
        if len(sides) == 1:
            end = rd.choice(rd.get(r, "end", rp), f"{rp}.end", ["spring", "lake"])
            if end == "lake":
                if not lakes_raw:
                    raise rd.fail(f"{rp}.end", "the river ends at a lake, but the tile has no lakes")
                lake = rd.integer(rd.get(r, "lake", rp, 0), f"{rp}.lake", 0, len(lakes_raw) - 1)
            elif "lake" in r:
                raise rd.fail(f"{rp}.lake", "only a river ending at a lake names one")
        elif "end" in r or "lake" in r:
            raise rd.fail(f"{rp}.end", "a river through two sides has no end on the tile")
        segs.append(Segment(SEG_RIVER, i, sides=tuple(sides), end=end, lake=lake))
    for i, lk in enumerate(lakes_raw):
        lp = f"{path}.lakes[{i}]"
        lk = rd.obj(lk, lp)
        rd.only(lk, ("fish", "_source", "_sources"), lp)
        segs.append(Segment(SEG_LAKE, i, fish=rd.integer(rd.get(lk, "fish", lp, 0), f"{lp}.fish", 0, 99)))
    hcovered: dict[int, int] = {}
    for i, m in enumerate(rd.list(rd.get(node, "meadows", path, []), f"{path}.meadows")):
        mp = f"{path}.meadows[{i}]"
        m = rd.obj(m, mp)
        rd.only(m, ("sides", *ANIMALS, "_source", "_sources"), mp)
        halves = _halves(rd, rd.get(m, "sides", mp), f"{mp}.sides")
        for h in halves:
            if edges[h // 2] == FOREST:
                raise rd.fail(f"{mp}.sides", f"side {SIDES[h // 2]} is a forest edge: it has no meadow")
            if h in hcovered:
                raise rd.fail(f"{mp}.sides", f"half-side {HALVES[h]} already belongs to meadow {hcovered[h]}")
            hcovered[h] = i
        segs.append(
            Segment(
                SEG_MEADOW,
                i,
                halves=tuple(sorted(halves)),
                deer=_count(rd, m, "deer", mp),
                mammoths=_count(rd, m, "mammoths", mp),
                tigers=_count(rd, m, "tigers", mp),
                aurochs=_count(rd, m, "aurochs", mp),
                fire=_count(rd, m, "fire", mp),
                cult=_count(rd, m, "cult", mp),
            )
        )
    for s in range(4):
        if edges[s] in (FOREST, RIVER) and s not in covered:
            what = "forest" if edges[s] == FOREST else "river"
            raise rd.fail(f"{path}.{what}s", f"side {SIDES[s]} is a {what} edge but no {what} reaches it")
        if edges[s] != FOREST:
            for h in (2 * s, 2 * s + 1):
                if h not in hcovered:
                    raise rd.fail(f"{path}.meadows", f"half-side {HALVES[h]} belongs to no meadow")
    # rivers and lakes sorted into the spot order: forests, rivers, lakes, meadows (as parsed)
    return TileType(tid, group, count, edges, tuple(segs), path)


def parse_profile(data: Any, source: str = "<profile>") -> BoxProfile:
    """Validate a profile document; :class:`ProfileError` names the source and field."""
    rd = SourceReader(source, ProfileError)
    doc = rd.obj(data, "")
    rd.only(doc, ("format", "version", "name", "components", "start", "land", "bonus", "_source", "_sources"), "")
    if doc.get("format") != PROFILE_FORMAT:
        raise rd.fail("format", f"must be {PROFILE_FORMAT!r}, got {show(doc.get('format'))}")
    if doc.get("version") != PROFILE_VERSION:
        raise rd.fail("version", f"must be {PROFILE_VERSION}, got {show(doc.get('version'))}")
    name = rd.text(rd.get(doc, "name", ""), "name")
    comp = rd.obj(rd.get(doc, "components", ""), "components")
    rd.only(
        comp,
        ("land_tiles", "bonus_tiles", "members_per_player", "huts_per_player", "_source", "_sources"),
        "components",
    )
    land_total = rd.integer(rd.get(comp, "land_tiles", "components"), "components.land_tiles", 1, 500)
    bonus_total = rd.integer(rd.get(comp, "bonus_tiles", "components"), "components.bonus_tiles", 0, 200)
    members = rd.integer(
        rd.get(comp, "members_per_player", "components"), "components.members_per_player", 0, MAX_MEMBERS
    )
    huts = rd.integer(rd.get(comp, "huts_per_player", "components"), "components.huts_per_player", 0, MAX_MEMBERS)
    tiles = [parse_tile(rd, rd.get(doc, "start", ""), "start", "start")]
    for group in ("land", "bonus"):
        for i, t in enumerate(rd.list(rd.get(doc, group, ""), group, 1 if group == "land" else 0)):
            tiles.append(parse_tile(rd, t, f"{group}[{i}]", group))
    seen: dict[str, str] = {}
    for t in tiles:
        if t.id in seen:
            raise rd.fail(f"{t.path}.id", f"{t.id!r} is already the id of {seen[t.id]}")
        seen[t.id] = t.path
    for group, total, key in (("land", land_total, "land_tiles"), ("bonus", bonus_total, "bonus_tiles")):
        n = sum(t.count for t in tiles if t.group == group)
        if n != total:
            raise rd.fail(group, f"the counts add up to {n} tiles, but components.{key} says {total}")
    for attr in ("gold", "mushrooms", *ANIMALS):
        n = sum(t.count * getattr(s, attr) for t in tiles for s in t.segments)
        if n > PACK_LIMIT:
            raise rd.fail("land", f"the box holds {n} {attr} in all (at most {PACK_LIMIT})")
    canonical = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    compiled = tuple(Compiled(t) for t in tiles)
    return BoxProfile(
        name=name,
        raw=doc,
        provenance=dict(rd.provenance),
        members=members,
        huts=huts,
        land_total=land_total,
        bonus_total=bonus_total,
        tiles=tuple(tiles),
        digest=hashlib.sha256(canonical.encode()).hexdigest(),
        compiled=compiled,
        index={t.id: i for i, t in enumerate(tiles)},
        start=0,
        land=tuple(i for i, t in enumerate(tiles) if t.group == "land"),
        bonus=tuple(i for i, t in enumerate(tiles) if t.group == "bonus"),
    )


def load_profile(path: str | Path) -> BoxProfile:
    """Read and validate a profile file."""
    return parse_profile(
        parse_json(read_bytes(path, "the box profile", ProfileError), str(path), ProfileError), str(path)
    )


_DEFAULT: list[BoxProfile] = []


def default_profile() -> BoxProfile:
    """The shipped profile (``games/carcassonne/profiles/default.json``), read once."""
    if not _DEFAULT:
        res = resources.files("games.carcassonne").joinpath("profiles/default.json")
        _DEFAULT.append(parse_profile(parse_json(res.read_bytes(), "default profile", ProfileError), "default profile"))
    return _DEFAULT[0]


def resolve_profile(spec: Any, source: str = "settings", base: str | Path | None = None) -> BoxProfile:
    """A profile from a settings value: ``"default"``/None, a file path (relative to ``base``, the
    folder of the file that names it), an inline document, or a :class:`BoxProfile`."""
    if isinstance(spec, BoxProfile):
        return spec
    if spec is None or spec == "default":
        return default_profile()
    if isinstance(spec, dict):
        return parse_profile(spec, f"{source}: profile")
    if isinstance(spec, str):
        try:
            return load_profile(beside(spec, base))
        except _BaseDataFileError as exc:
            raise ProfileError(exc.source, exc.field, exc.reason) from None
    raise ProfileError(source, "profile", f'must be "default", a file path or an object, got {show(spec)}')


def mark_checked(raw: Mapping[str, Any], paths: Sequence[str], field: str = "checked") -> dict[str, Any]:
    """:func:`datafile.provenance.mark_checked` (a path naming a whole tile marks the tile's own
    ``_source`` too)."""
    return _mark_checked(raw, list(paths), field)


def profile_spec(profile: BoxProfile) -> Any:
    """How settings and positions refer to a profile: ``"default"`` for the shipped one, else the
    whole document."""
    return "default" if profile == default_profile() else dict(profile.raw)


__all__ = [
    "ANIMALS",
    "DELTA",
    "HALVES",
    "PROFILE_FORMAT",
    "ROLES_OF_SEG",
    "SIDES",
    "BoxProfile",
    "Compiled",
    "Role",
    "Segment",
    "TileType",
    "cell_key",
    "cell_xy",
    "default_profile",
    "load_profile",
    "mark_checked",
    "parse_profile",
    "profile_spec",
    "resolve_profile",
]
