"""The board file (Origo's box profile): fields on a grid, lands and seas, the founding track, the
leader's path and the component counts — every value with its provenance.

None of the board is in the rule fragment (seed 003): which field belongs to which land or sea, the
values of the founding track and which of them are red, and the length of the path are printed on
the board. The shipped file (``games/origo/profiles/default.json``) is therefore largely
**provisional**; a user corrects it from their own box (``_sources`` marks each value, see
:mod:`datafile.provenance`). The engine is right for any board this loader accepts.

Fields are named by column letter and row number (``A1`` … ``J10`` on the 10×10 board); the map
lists the region id of every field row by row, ``.`` for a grid cell that is no field. Two fields
are adjacent when they share a side: diagonal fields are not adjacent (O-ATK-2).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

from datafile import beside, read_json, show
from datafile.provenance import SourceReader, source_of
from games.origo.rules.errors import BoardError

BOARD_FORMAT = "origo-board"
BOARD_VERSION = 1
MAX_COLUMNS = 26
MAX_ROWS = 99
NO_FIELD = "."
LANGS: tuple[str, ...] = ("de", "en")
_REGION_ID = re.compile(r"^[A-Z][A-Z0-9]{0,7}$")
_FIELD = re.compile(r"^([A-Za-z])([1-9][0-9]?)$")


class RegionKind(StrEnum):
    """Every field belongs to a land or to a sea (O-BOARD-1)."""

    LAND = "land"
    SEA = "sea"


@dataclass(frozen=True, slots=True)
class Region:
    """A land or a sea: its id, kind, names and fields (indices into :attr:`Board.fields`)."""

    id: str
    kind: RegionKind
    name: Mapping[str, str]
    fields: tuple[int, ...]

    @property
    def is_land(self) -> bool:
        """True for a land (lands are founded, seas are not)."""
        return self.kind is RegionKind.LAND


@dataclass(frozen=True, slots=True)
class FoundingField:
    """One field of the founding track, under a founding stone: its value and whether it is red."""

    value: int
    red: bool

    def __str__(self) -> str:
        return f"{self.value} red" if self.red else str(self.value)


@dataclass(frozen=True, slots=True)
class Cell:
    """One field of the board: its name, grid place (0-based column and row) and region index."""

    name: str
    col: int
    row: int
    region: int


def field_name(col: int, row: int) -> str:
    """``A1`` for column 0, row 0."""
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_field(text: str) -> tuple[int, int] | None:
    """``(col, row)`` of a field name such as ``C4`` or ``c4`` (0-based), None if it is no name."""
    m = _FIELD.match(text) if isinstance(text, str) else None
    if not m:
        return None
    return ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1


@dataclass(frozen=True, eq=False)
class Board:
    """A validated board file. Equality is by content digest."""

    name: str
    columns: int
    rows: int
    cells: tuple[Cell, ...]
    neighbours: tuple[tuple[int, ...], ...]
    regions: tuple[Region, ...]
    founding: tuple[FoundingField, ...]
    max_reveal: int
    path_length: int
    path_start: int
    hand_size: int
    shields_per_player: Mapping[int, int]
    shields_by_colour: Mapping[str, int]
    cards: Mapping[str, int]
    provenance: Mapping[str, str] = field(repr=False)
    raw: Mapping[str, Any] = field(repr=False)
    digest: str = ""
    source: str = ""
    _index: Mapping[str, int] = field(default_factory=dict, repr=False)
    _region_index: Mapping[str, int] = field(default_factory=dict, repr=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def __repr__(self) -> str:
        return f"<Board {self.name!r} sha256:{self.digest[:12]}>"

    @property
    def n_fields(self) -> int:
        """How many fields the board has."""
        return len(self.cells)

    @property
    def stones(self) -> int:
        """Founding stones: one per field of the founding track."""
        return len(self.founding)

    def find(self, name: str) -> int | None:
        """Index of the field called ``name`` (``C4``, case-insensitive), None if there is none."""
        idx = self._index.get(name)
        if idx is not None:
            return idx
        pos = parse_field(name)
        if pos is None:
            return None
        return self._index.get(field_name(*pos))

    def name_of(self, index: int) -> str:
        """The name of field ``index``."""
        return self.cells[index].name

    def region_of(self, index: int) -> Region:
        """The land or sea field ``index`` belongs to."""
        return self.regions[self.cells[index].region]

    def region(self, region_id: str) -> int | None:
        """Index of the region with id ``region_id``, None if none."""
        return self._region_index.get(region_id)

    def adjacent(self, a: int, b: int) -> bool:
        """Fields ``a`` and ``b`` share a side (diagonal fields are not adjacent, O-ATK-2)."""
        return b in self.neighbours[a]

    def player_counts(self) -> tuple[int, ...]:
        """The player counts the board gives a shield supply for."""
        return tuple(sorted(self.shields_per_player))

    def source_of(self, path: str) -> str:
        """Provenance of the value at ``path`` (e.g. ``founding_track.fields[3].red``)."""
        return source_of(self.provenance, path)

    def is_provisional(self, path: str) -> bool:
        """The value at ``path`` is a provisional placeholder, not a sourced fact."""
        return self.source_of(path).startswith("provisional")

    def to_json(self) -> str:
        """The board file as JSON text."""
        return json.dumps(self.raw, ensure_ascii=False, indent=1) + "\n"


def _names(rd: SourceReader, node: Any, path: str) -> dict[str, str]:
    names = rd.obj(node, path)
    out: dict[str, str] = {}
    for lang in LANGS:
        out[lang] = rd.text(rd.get(names, lang, path), f"{path}.{lang}", max_len=60)
    rd.only(names, (*LANGS, "_source", "_sources"), path)
    return out


def _count_map(rd: SourceReader, node: Any, path: str, key_ok: re.Pattern[str], lo: int) -> dict[str, int]:
    obj = rd.obj(node, path)
    out: dict[str, int] = {}
    for key, val in obj.items():
        if key.startswith("_"):
            continue
        if not key_ok.match(key):
            raise rd.fail(f"{path}.{key}", "is not a valid key here")
        out[key] = rd.integer(val, f"{path}.{key}", lo, 10_000)
    if not out:
        raise rd.fail(path, "must name at least one entry")
    return out


def parse_board(data: Any, source: str = "<board>") -> Board:
    """Validate a board document (decoded JSON) and build the :class:`Board`; every problem is one
    :class:`BoardError` naming the source and field."""
    rd = SourceReader(source, BoardError)
    root = rd.obj(data, "")
    rd.only(
        root,
        ("format", "version", "name", "components", "regions", "map", "founding_track", "path", "_source", "_sources"),
        "",
    )
    if root.get("format") != BOARD_FORMAT:
        raise rd.fail("format", f"must be {BOARD_FORMAT!r}, got {show(root.get('format'))}")
    rd.integer(rd.get(root, "version", ""), "version", BOARD_VERSION, BOARD_VERSION)
    if "" not in rd.provenance:
        raise rd.fail("_source", "is missing: every board file gives a default provenance for its values")
    name = rd.text(rd.get(root, "name", ""), "name", max_len=200)

    # components -----------------------------------------------------------------------------
    comp = rd.obj(rd.get(root, "components", ""), "components")
    rd.only(
        comp,
        (
            "hand_size",
            "shields_per_player",
            "shields_by_colour",
            "shields_total",
            "cards",
            "cards_total",
            "_source",
            "_sources",
        ),
        "components",
    )
    hand = rd.integer(rd.get(comp, "hand_size", "components"), "components.hand_size", 1, 30)
    spp_raw = _count_map(
        rd, rd.get(comp, "shields_per_player", "components"), "components.shields_per_player", re.compile(r"^[2-9]$"), 1
    )
    spp = {int(k): v for k, v in spp_raw.items()}
    colours = _count_map(
        rd,
        rd.get(comp, "shields_by_colour", "components"),
        "components.shields_by_colour",
        re.compile(r"^[a-z][a-z-]{0,19}$"),
        0,
    )
    total = rd.integer(rd.get(comp, "shields_total", "components"), "components.shields_total", 0, 100_000)
    if total != sum(colours.values()):
        raise rd.fail(
            "components.shields_total", f"must be the sum of shields_by_colour ({sum(colours.values())}), got {total}"
        )
    for n, per in sorted(spp.items()):
        enough = sum(1 for c in colours.values() if c >= per)
        if enough < n:
            raise rd.fail(
                f"components.shields_per_player.{n}",
                f"{n} players need {n} colours with at least {per} shields each; only {enough} have",
            )
    cards = _count_map(
        rd, rd.get(comp, "cards", "components"), "components.cards", re.compile(r"^[a-z][a-z_]{0,19}$"), 0
    )
    cards_total = rd.integer(rd.get(comp, "cards_total", "components"), "components.cards_total", 0, 100_000)
    if cards_total != sum(cards.values()):
        raise rd.fail("components.cards_total", f"must be the sum of cards ({sum(cards.values())}), got {cards_total}")

    # regions --------------------------------------------------------------------------------
    reg_nodes = rd.list(rd.get(root, "regions", ""), "regions", 1, 200)
    reg_meta: list[tuple[str, RegionKind, dict[str, str], int | None]] = []
    reg_index: dict[str, int] = {}
    for i, node in enumerate(reg_nodes):
        path = f"regions[{i}]"
        r = rd.obj(node, path)
        rd.only(r, ("id", "kind", "name", "size", "_source", "_sources"), path)
        rid = rd.text(rd.get(r, "id", path), f"{path}.id")
        if not _REGION_ID.match(rid) or rid == NO_FIELD:
            raise rd.fail(
                f"{path}.id", f"must be 1-8 capital letters or digits starting with a letter, got {show(rid)}"
            )
        if rid in reg_index:
            raise rd.fail(f"{path}.id", f"{rid!r} is used twice")
        kind = RegionKind(rd.choice(rd.get(r, "kind", path), f"{path}.kind", [k.value for k in RegionKind]))
        names = _names(rd, rd.get(r, "name", path), f"{path}.name")
        size = rd.integer(r["size"], f"{path}.size", 1, MAX_COLUMNS * MAX_ROWS) if "size" in r else None
        reg_index[rid] = i
        reg_meta.append((rid, kind, names, size))
    if not any(k is RegionKind.LAND for _, k, _, _ in reg_meta):
        raise rd.fail("regions", "must hold at least one land")

    # map ------------------------------------------------------------------------------------
    mp = rd.obj(rd.get(root, "map", ""), "map")
    rd.only(mp, ("rows", "_source", "_sources"), "map")
    rows_raw = rd.list(rd.get(mp, "rows", "map"), "map.rows", 1, MAX_ROWS)
    grid: list[list[str]] = []
    for y, row in enumerate(rows_raw):
        toks = rd.text(row, f"map.rows[{y}]", max_len=MAX_COLUMNS * 9).split()
        if not 1 <= len(toks) <= MAX_COLUMNS:
            raise rd.fail(f"map.rows[{y}]", f"must list 1 to {MAX_COLUMNS} fields, got {len(toks)}")
        if grid and len(toks) != len(grid[0]):
            raise rd.fail(f"map.rows[{y}]", f"lists {len(toks)} fields; row 1 lists {len(grid[0])}")
        for x, tok in enumerate(toks):
            if tok != NO_FIELD and tok not in reg_index:
                raise rd.fail(f"map.rows[{y}]", f"field {field_name(x, y)} names {tok!r}, which is no region id")
        grid.append(toks)
    columns, n_rows = len(grid[0]), len(grid)
    cells: list[Cell] = []
    at: dict[tuple[int, int], int] = {}
    for y, toks in enumerate(grid):
        for x, tok in enumerate(toks):
            if tok == NO_FIELD:
                continue
            at[(x, y)] = len(cells)
            cells.append(Cell(field_name(x, y), x, y, reg_index[tok]))
    neighbours = tuple(
        tuple(
            at[p] for p in ((c.col, c.row - 1), (c.col - 1, c.row), (c.col + 1, c.row), (c.col, c.row + 1)) if p in at
        )
        for c in cells
    )
    regions: list[Region] = []
    for i, (rid, kind, names, size) in enumerate(reg_meta):
        fields = tuple(j for j, c in enumerate(cells) if c.region == i)
        if not fields:
            raise rd.fail(f"regions[{i}]", f"{rid!r} has no field on the map")
        if size is not None and size != len(fields):
            raise rd.fail(f"regions[{i}].size", f"{rid!r} is {size} fields, but the map gives it {len(fields)}")
        regions.append(Region(rid, kind, names, fields))

    # founding track -------------------------------------------------------------------------
    ft = rd.obj(rd.get(root, "founding_track", ""), "founding_track")
    rd.only(ft, ("fields", "max_value", "_source", "_sources"), "founding_track")
    max_value = rd.integer(rd.get(ft, "max_value", "founding_track"), "founding_track.max_value", 0, 99)
    founding: list[FoundingField] = []
    for i, node in enumerate(rd.list(rd.get(ft, "fields", "founding_track"), "founding_track.fields", 1, 200)):
        path = f"founding_track.fields[{i}]"
        f = rd.obj(node, path)
        rd.only(f, ("value", "red", "_source", "_sources"), path)
        value = rd.integer(rd.get(f, "value", path), f"{path}.value", 0, max_value)
        founding.append(FoundingField(value, rd.boolean(rd.get(f, "red", path), f"{path}.red")))

    # path -----------------------------------------------------------------------------------
    pt = rd.obj(rd.get(root, "path", ""), "path")
    rd.only(pt, ("length", "start", "_source", "_sources"), "path")
    length = rd.integer(rd.get(pt, "length", "path"), "path.length", 1, 999)
    start = rd.integer(rd.get(pt, "start", "path"), "path.start", 0, length)

    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return Board(
        name=name,
        columns=columns,
        rows=n_rows,
        cells=tuple(cells),
        neighbours=neighbours,
        regions=tuple(regions),
        founding=tuple(founding),
        max_reveal=max_value,
        path_length=length,
        path_start=start,
        hand_size=hand,
        shields_per_player=spp,
        shields_by_colour=colours,
        cards=cards,
        provenance=dict(rd.provenance),
        raw=json.loads(canonical),
        digest=hashlib.sha256(canonical.encode()).hexdigest(),
        source=source,
        _index={c.name: i for i, c in enumerate(cells)},
        _region_index={r.id: i for i, r in enumerate(regions)},
    )


def load_board(path: str | Path) -> Board:
    """Read and validate a board file; :class:`BoardError` names the file, field and reason."""
    return parse_board(read_json(path, "the board file", BoardError), str(path))


_DEFAULT: Board | None = None


def default_board() -> Board:
    """The board file shipped with the package (``games/origo/profiles/default.json``), loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        ref = resources.files("games.origo").joinpath("profiles/default.json")
        from datafile import parse_json

        _DEFAULT = parse_board(parse_json(ref.read_bytes(), "default board", BoardError), "default board")
    return _DEFAULT


def resolve_board(
    spec: Any, source: str = "settings", field_path: str = "profile", base: str | Path | None = None
) -> Board:
    """A board from a settings or position value: ``"default"``/None, a file path (relative to
    ``base``, the folder of the file that names it), an inline object or a :class:`Board`."""
    if isinstance(spec, Board):
        return spec
    if spec is None or spec == "default":
        return default_board()
    if isinstance(spec, dict):
        return parse_board(spec, f"{source}: {field_path}")
    if isinstance(spec, str):
        return load_board(beside(spec, base))
    raise BoardError(source, field_path, f'must be "default", a board file path or an object, got {show(spec)}')


def board_spec(board: Board) -> Any:
    """How a document refers to a board: ``"default"`` for the shipped one, else the whole document."""
    return "default" if board == default_board() else dict(board.raw)


__all__ = [
    "BOARD_FORMAT",
    "BOARD_VERSION",
    "Board",
    "Cell",
    "FoundingField",
    "Region",
    "RegionKind",
    "board_spec",
    "default_board",
    "field_name",
    "load_board",
    "parse_board",
    "parse_field",
    "resolve_board",
]
