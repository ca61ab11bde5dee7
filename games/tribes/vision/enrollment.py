"""Enrollment: learning the user's own box — tile art, piece colours, table and light — at setup.

Recognition compares what the camera sees with *examples from the user's own table*, not with art
we drew. An :class:`Enroller` collects them from frames whose content is known:

* the **setup frame**: after the setup the table shows each player's three starting tiles (the
  user confirms their types), the 6 action tiles in the row (their order is the setup's), the
  era-1 achievement tiles, the face-down later eras, every player's supply of members and stones
  in their colour, 5 shells per player and the reference patch; every other hex of the land areas
  and the empty row slots show bare table;
* optional **extra frames** with known content, e.g. one tile of each resource not among the
  starting tiles and one tile turned over (exhausted);
* an optional **art pack** (``table-companion render photo-pack``: photos of tiles on the capture
  sheet), for tiles that only appear later (events, era 2/3 achievements).

What a frame shows is given as an :class:`~vision.observation.Observation` (the same format the
recognizer produces) plus the colour of each seat: :func:`labels_from_state` builds it from a rules
state (e.g. the position after the setup move). From each labelled place the enroller cuts a few
slightly shifted windows (normalised against the reference patch), and measures the piece, shell
and table colours. :class:`Enrollment` is saved as ``NAME.json`` (what, where from, colours) plus
``NAME.npz`` (the example windows) and loaded again by the recognizer, which turns the windows
into features with whichever feature model it runs (so a retrained model reuses old enrollments).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datafile import Reader, read_json
from games.tribes.rules.hexgrid import START_TRIANGLE, neighbours
from games.tribes.rules.profile import BoxProfile
from games.tribes.vision.layout import Layout
from games.tribes.vision.observation import (
    BoardReading,
    HexReading,
    Observation,
    ShellReading,
    SlotReading,
    TrackReading,
)
from games.tribes.vision.regions import EMBED_PX, Regions
from games.tribes.vision.table import TableModel
from vision.bare import PX as BARE_PX
from vision.bare import thumbnails
from vision.colour import ColourNorm, fit_norm, lab, piece_colour, read_tones
from vision.errors import EnrollmentError, FrameError
from vision.patches import PatchSet, patch_set
from vision.registration import Registrar, Registration
from vision.sampling import Sampler

ENROLL_FORMAT = "tribes-enrollment"
ENROLL_VERSION = 1
GROUPS = ("hex", "row", "board")
"""Example groups: landscape tiles and bare hexes; row slots; achievement positions."""
EMPTY = "empty"


def hex_label(resource: str | None, exhausted: bool, tile: bool = True) -> str:
    """Class name of a hex: ``empty``, ``exhausted`` or ``resource:<id>``."""
    if not tile:
        return EMPTY
    return "exhausted" if exhausted else f"resource:{resource}"


BARE_SEEN = 0.9
"""An enrollment that saw less than this share of the places of bare table it wanted says so."""


def hex_place(seat: int, h: tuple[int, int]) -> str:
    """The place name of hex ``h`` of ``seat``'s land (a key of the bare-table thumbnails)."""
    return f"hex:{seat}:{h[0]},{h[1]}"


def parse_place(place: str) -> tuple[int, tuple[int, int]]:
    """``(seat, hex)`` of a place name made by :func:`hex_place` (ValueError for anything else)."""
    kind, seat, qr = place.split(":")
    q, r = qr.split(",")
    if kind != "hex":
        raise ValueError(f"not a hex place: {place!r}")
    return int(seat), (int(q), int(r))


def row_label(tile: str | None, event: bool) -> str:
    """Class name of a row slot: ``empty``, ``action:<id>`` or ``event:<id>``."""
    if tile is None:
        return EMPTY
    return f"event:{tile}" if event else f"action:{tile}"


def board_label(era: int, tile: str | None) -> str:
    """Class name of an achievement position: ``back:<era>`` (face down) or ``achievement:<id>``."""
    return f"back:{era}" if tile is None else f"achievement:{tile}"


def check_frame(image: Any) -> np.ndarray:
    """The frame as an H x W x 3 uint8 BGR array (grey frames are expanded); FrameError otherwise."""
    if not isinstance(image, np.ndarray):
        raise FrameError(f"a frame must be an image array, got {type(image).__name__}")
    if image.size == 0 or image.ndim not in (2, 3) or min(image.shape[:2]) < 16:
        raise FrameError(f"a frame must be an image of at least 16 x 16 pixels, got shape {image.shape}")
    if image.dtype != np.uint8:
        raise FrameError(f"a frame must hold 8-bit pixels (uint8), got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise FrameError(f"a frame must have 1, 3 or 4 channels, got {image.shape[2]}")
    return image


# --- labels from a rules state ---------------------------------------------------------------------
def labels_from_table(model: TableModel) -> tuple[Observation, dict[int, str]]:
    """What a settled table shows (tiles, row, board, tracks, shells) and each seat's colour; seat
    ``i`` is player ``i`` (seat the layout first with ``Layout.with_seats`` when players sit
    elsewhere)."""
    hexes = []
    for seat, st in enumerate(model.seats):
        for h, t in sorted(st.land.items()):
            hexes.append(
                HexReading(seat, h, True, t.resource, t.exhausted, {st.colour: t.members} if t.members else {})
            )
    row = [SlotReading(i + 1, r.tile, r.event, r.shells) for i, r in enumerate(model.row)]
    board = []
    for e in (1, 2, 3):
        for c, b in enumerate(model.board[e - 1]):
            stones = tuple(model.seats[s].colour for s in b.stones)
            board.append(BoardReading(e, c, b.tile, stones))
    names = ("offspring", "movement", "exploration", "strength")
    tracks = [TrackReading(st.colour, names[i], v) for st in model.seats for i, v in enumerate(st.tracks) if v >= 0]
    shells = [ShellReading(i, st.shells) for i, st in enumerate(model.seats)]
    obs = Observation(
        hexes=tuple(hexes), row=tuple(row), board=tuple(board), tracks=tuple(tracks), shells=tuple(shells)
    )
    return obs, {i: st.colour for i, st in enumerate(model.seats)}


def labels_from_state(state: Any) -> tuple[Observation, dict[int, str]]:
    """:func:`labels_from_table` of a rules :class:`~rules.state.State`."""
    return labels_from_table(TableModel.from_state(state))


# --- the saved enrollment --------------------------------------------------------------------------
@dataclass
class Enrollment:
    """What was learned of the user's box (see the module docstring)."""

    layout: str
    seats: dict[int, str]
    colours: dict[str, np.ndarray]
    spreads: dict[str, float]
    shell: np.ndarray
    table: np.ndarray
    norm: ColourNorm
    windows: dict[str, np.ndarray]
    labels: dict[str, list[str]]
    sources: list[str] = field(default_factory=list)
    member_area: float = 0.0
    shell_area: float = 0.0
    notes: list[str] = field(default_factory=list)
    seat_order: list[int] = field(default_factory=list)
    layout_file: str = ""
    table_points: np.ndarray = field(default_factory=lambda: np.zeros((0, 5), np.float32))
    """Bare table at the reference points around the markers (:meth:`Regions.table_ring`): per
    point its place (mm) and normalised BGR under the enrollment's light (N x 5: x, y, b, g, r) —
    what the recognizer compares every frame with to follow the light (:mod:`vision.light`)."""
    bare_places: list[str] = field(default_factory=list)
    """The places (:func:`hex_place`) whose bare table an enrollment frame showed, in the order of
    ``bare``."""
    bare: np.ndarray = field(default_factory=lambda: np.zeros((0, BARE_PX, BARE_PX, 3), np.uint8))
    """Thumbnails of the bare table at ``bare_places`` (:func:`vision.bare.thumbnails`, normalised
    under the enrollment's light): what the land reader holds a window read as a tile against
    (:class:`vision.bare.BareLook`)."""

    def classes(self, group: str) -> list[str]:
        """The class names enrolled in ``group`` (sorted)."""
        return sorted(set(self.labels.get(group, [])))

    def count(self, group: str, label: str) -> int:
        """How many example windows of ``label`` the group holds."""
        return sum(1 for x in self.labels.get(group, []) if x == label)

    def missing(self, profile: BoxProfile) -> list[str]:
        """Tiles of the box that no example shows (they cannot be recognised)."""
        want = {
            "hex": [EMPTY, "exhausted"] + [f"resource:{r}" for r in profile.resources],
            "row": [EMPTY]
            + [f"action:{t.id}" for t in profile.action_tiles]
            + [f"event:{e.id}" for e in profile.events],
            "board": [f"achievement:{a.id}" for a in profile.achievements] + ["back:2", "back:3"],
        }
        out = []
        for g, names in want.items():
            have = set(self.labels.get(g, []))
            out += [f"{g}:{n}" for n in names if n not in have]
        return out

    # --- files ------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The JSON half of the saved enrollment."""
        return {
            "format": ENROLL_FORMAT,
            "version": ENROLL_VERSION,
            "layout": self.layout,
            "seats": {str(k): v for k, v in sorted(self.seats.items())},
            "colours": {k: [round(float(x), 3) for x in v] for k, v in self.colours.items()},
            "spreads": {k: round(float(v), 3) for k, v in self.spreads.items()},
            "shell": [round(float(x), 3) for x in self.shell],
            "table": [round(float(x), 3) for x in self.table],
            "norm": self.norm.to_dict(),
            "member_area": self.member_area,
            "shell_area": self.shell_area,
            "seat_order": self.seat_order,
            "layout_file": self.layout_file,
            "table_points": [[round(float(x), 4) for x in row] for row in self.table_points],
            "bare_places": self.bare_places,
            "labels": self.labels,
            "sources": self.sources,
            "notes": self.notes,
        }

    def save(self, path: str | Path) -> tuple[Path, Path]:
        """Write ``path`` (JSON, ``.json`` added when missing) and the windows beside it (``.npz``)."""
        p = Path(path)
        if p.suffix != ".json":
            p = p.with_name(p.name + ".json")
        npz = p.with_suffix(".npz")
        p.parent.mkdir(parents=True, exist_ok=True)
        doc = self.to_json()
        doc["windows"] = npz.name
        p.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        np.savez_compressed(npz, **{g: w for g, w in self.windows.items()}, bare=self.bare)
        return p, npz

    @staticmethod
    def load(path: str | Path) -> Enrollment:
        """Read a saved enrollment; :class:`EnrollmentError` names the file and field on a problem."""
        p = Path(path)
        src = str(p)
        doc = _read_enrollment(p)
        rd = _EnrollmentReader(src)
        if not isinstance(doc, dict) or doc.get("format") != ENROLL_FORMAT:
            raise rd.fail("format", f"must be {ENROLL_FORMAT!r}")
        if doc.get("version") != ENROLL_VERSION:
            raise rd.fail("version", f"must be {ENROLL_VERSION}, got {doc.get('version')!r}")
        seats = {rd.seat(k, "seats"): rd.text(v, f"seats.{k}") for k, v in rd.section(doc, "seats").items()}
        colours = {k: rd.lab(v, f"colours.{k}") for k, v in rd.section(doc, "colours").items()}
        spreads = {k: rd.number(v, f"spreads.{k}") for k, v in rd.section(doc, "spreads", {}).items()}
        shell = rd.lab(rd.get(doc, "shell", ""), "shell")
        table = rd.lab(rd.get(doc, "table", ""), "table")
        norm = rd.norm(rd.section(doc, "norm"))
        labels = {g: rd.items(v, f"labels.{g}", rd.text) for g, v in rd.section(doc, "labels").items()}
        for s, c in seats.items():
            if c not in colours:
                raise rd.fail(f"seats.{s}", f"colour {c!r} has no entry in colours")
        npz = p.parent / (rd.text(rd.get(doc, "windows", "", ""), "windows", empty=True) or p.with_suffix(".npz").name)
        try:
            with np.load(npz, allow_pickle=False) as z:
                windows = {g: np.asarray(z[g]) for g in z.files if g != "bare"}
                bare = np.asarray(z["bare"]) if "bare" in z.files else None
        except FileNotFoundError:
            raise EnrollmentError(
                str(npz), "", "missing: the example windows saved beside the enrollment are gone"
            ) from None
        except (OSError, ValueError, KeyError) as exc:
            raise EnrollmentError(str(npz), "", f"cannot read the example windows: {str(exc)[:120]}") from None
        for g, lab_list in labels.items():
            w = windows.get(g)
            if w is None or len(w) != len(lab_list):
                raise EnrollmentError(
                    str(npz), g, f"holds {0 if w is None else len(w)} windows for {len(lab_list)} labels"
                )
            if w.ndim != 4 or w.shape[3] != 3:
                raise EnrollmentError(str(npz), g, f"windows must be N x px x px x 3, got {w.shape}")

        def text(key: str) -> str:
            return rd.text(rd.get(doc, key, "", ""), key, empty=True)

        places = rd.items(rd.get(doc, "bare_places", "", []), "bare_places", lambda v, at: rd.text(v, at))
        if bare is None:
            bare = np.zeros((0, BARE_PX, BARE_PX, 3), np.uint8)
        if len(bare) != len(places):
            raise EnrollmentError(str(npz), "bare", f"holds {len(bare)} thumbnails for {len(places)} bare_places")
        if len(bare) and (bare.ndim != 4 or bare.shape[1] != bare.shape[2] or bare.shape[3:] != (3,)):
            raise EnrollmentError(str(npz), "bare", f"thumbnails must be N x px x px x 3, got {bare.shape}")
        if bare.dtype != np.uint8:
            raise EnrollmentError(str(npz), "bare", f"thumbnails must be bytes (uint8), got {bare.dtype}")

        def texts(key: str) -> list[str]:
            return rd.items(rd.get(doc, key, "", []), key, lambda v, at: rd.text(v, at, empty=True))

        return Enrollment(
            layout=text("layout"),
            seats=seats,
            colours=colours,
            spreads=spreads,
            shell=shell,
            table=table,
            norm=norm,
            windows=windows,
            labels=labels,
            sources=texts("sources"),
            member_area=rd.number(rd.get(doc, "member_area", "", 0.0), "member_area"),
            shell_area=rd.number(rd.get(doc, "shell_area", "", 0.0), "shell_area"),
            notes=texts("notes"),
            seat_order=rd.items(rd.get(doc, "seat_order", "", []), "seat_order", rd.integer),
            layout_file=text("layout_file"),
            table_points=rd.points(rd.get(doc, "table_points", "", [])),
            bare_places=places,
            bare=bare,
        )


class _EnrollmentReader(Reader):
    """The common reader, raising :class:`EnrollmentError`, with the values an enrollment holds."""

    def __init__(self, source: str) -> None:
        super().__init__(source, EnrollmentError)

    def section(self, doc: dict[str, Any], key: str, default: Any = ...) -> dict[str, Any]:
        """The object ``doc[key]``."""
        return self.obj(self.get(doc, key, "", default), key)

    def seat(self, key: str, path: str) -> int:
        """A seat number written as an object key (``"0"``)."""
        if not key.isdigit():
            raise self.fail(f"{path}.{key}", "must be a seat number")
        return int(key)

    def lab(self, val: Any, path: str) -> np.ndarray:
        """A colour as a list of 3 numbers (CIE Lab)."""
        if not (isinstance(val, list) and len(val) == 3 and all(_number(x) for x in val)):
            raise self.fail(path, "must be a list of 3 numbers (Lab)")
        return np.asarray(val, np.float32)

    def points(self, val: Any) -> np.ndarray:
        """Reference points of bare table: a list of ``[x, y, b, g, r]`` (mm, normalised BGR)."""
        rows = self.list(val, "table_points")
        for i, row in enumerate(rows):
            if not (isinstance(row, list) and len(row) == 5 and all(_number(x) for x in row)):
                raise self.fail(f"table_points.{i}", "must be a list of 5 numbers (x, y mm; b, g, r)")
        return np.asarray(rows, np.float32).reshape(-1, 5)

    def norm(self, node: dict[str, Any]) -> ColourNorm:
        """The colour normalisation: ``gain`` and ``offset``, 3 numbers each."""
        for key in ("gain", "offset"):
            val = self.get(node, key, "norm")
            if not (isinstance(val, list) and len(val) == 3 and all(_number(x) for x in val)):
                raise self.fail(f"norm.{key}", "must be a list of 3 numbers")
        return ColourNorm.from_dict(node)


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _read_enrollment(p: Path) -> Any:
    """The decoded JSON of an enrollment file (errors name the line of bad JSON, as they always did)."""
    if not p.exists():
        raise EnrollmentError(str(p), "", "missing: no such enrollment file (run table-companion enroll)")
    try:
        return read_json(p, "the enrollment", EnrollmentError)
    except EnrollmentError as exc:
        if exc.field.startswith("line "):
            raise EnrollmentError(exc.source, exc.field.split(" column ")[0], exc.reason) from None
        raise


# --- building one --------------------------------------------------------------------------------
JITTER = ((0.0, 0.0, 0.0), (1.2, 0.0, 2.0), (-1.2, 0.6, -2.0), (0.0, -1.2, 3.0), (0.6, 1.2, -3.0))
"""Shifts (mm) and turns (degrees) of the windows cut around each enrolled place."""
PACK_GAIN_MIDDLE = 0.5
"""The middle of a face (this share of its size, square) is what a pack's face and the table's
windows of it are compared on (:meth:`Enroller._pack_gain`): clear of the edge, the table around it
and small misplacements."""
PACK_GAIN_TONES = (5, 15, 30, 50, 70, 85, 95)
"""The tones (percentiles per channel) of a face compared between the pack and the table."""
PACK_GAIN_SPREAD = 0.06
"""When the faces miss the fitted gains by more than this (the median face's median miss, on the
0..1 scale), the gains are not trusted and the pack is enrolled as it is."""
PACK_GAIN_MAX = 2.0
"""Gains are kept within 1/this .. this."""


def _jittered(ps: PatchSet, jitter: Sequence[tuple[float, float, float]] = JITTER) -> PatchSet:
    cs, rs = [], []
    for dx, dy, dr in jitter:
        cs.append(ps.centers + np.array([dx, dy]))
        rs.append(ps.rotations + dr)
    return patch_set(ps.key + "+j", np.concatenate(cs), np.concatenate(rs), ps.side_mm, ps.px)


def frame_norm(image: np.ndarray, reg: Registration, regions: Regions, sampler: Sampler) -> ColourNorm | None:
    """The colour normalisation measured on the reference patch of a registered frame."""
    ps = regions.tone_patches()
    tones = read_tones(sampler.sample(image, reg, ps))
    return fit_norm(tones, np.array([t.grey for t in regions.layout.patch.tones], np.float64))


def table_colour(
    image: np.ndarray, reg: Registration, regions: Regions, sampler: Sampler, norm: ColourNorm
) -> np.ndarray:
    """Median Lab of bare table near the markers."""
    ring = sampler.sample(image, reg, regions.table_ring())
    return np.median(lab(norm.apply(ring)).reshape(-1, 3), axis=0)


def table_points(
    image: np.ndarray, reg: Registration, regions: Regions, sampler: Sampler, norm: ColourNorm
) -> np.ndarray:
    """The bare table at each reference point (N x 5: x, y mm, median normalised BGR); points out
    of the frame are left out."""
    ps = regions.table_ring()
    inside = sampler.inside(reg, ps)
    bgr = np.median(norm.apply(sampler.sample(image, reg, ps)).reshape(len(ps), -1, 3), axis=1)
    return np.hstack([ps.centers, bgr]).astype(np.float32)[inside]


class Enroller:
    """Collects examples from labelled frames and art packs; :meth:`build` makes the enrollment."""

    def __init__(self, layout: Layout, profile: BoxProfile) -> None:
        self.layout = layout
        self.profile = profile
        self.regions = Regions(layout, profile)
        self.sampler = Sampler()
        self.windows: dict[str, list[np.ndarray]] = {g: [] for g in GROUPS}
        self.labels: dict[str, list[str]] = {g: [] for g in GROUPS}
        self.frame_labels: dict[str, set[str]] = {g: set() for g in GROUPS}  # learned from frames
        self.frame_parts: dict[str, list[tuple[np.ndarray, list[str]]]] = {g: [] for g in GROUPS}
        """Per group, the windows the frames gave (with their labels): what a pack is matched to."""
        self.pack_gains: list[tuple[str, np.ndarray, int]] = []
        """Per art pack added: (source, the BGR gains its faces were brought to the table with, how
        many faces seen both on the table and in the pack the gains come from)."""
        self.seats: dict[int, str] = {}
        self.colour_samples: dict[str, list[tuple[np.ndarray, float]]] = {}
        self.shell_samples: list[np.ndarray] = []
        self.table_samples: list[np.ndarray] = []
        self.point_samples: list[np.ndarray] = []
        self.bare_samples: dict[str, list[np.ndarray]] = {}
        self.bare_wanted: set[str] = set()  # the places whose bare look a frame could have shown
        self.norms: list[ColourNorm] = []
        self.sources: list[str] = []
        self.notes: list[str] = []

    def _add(self, group: str, windows: np.ndarray, labels: Sequence[str]) -> None:
        self.windows[group].append(windows.astype(np.float16))
        self.labels[group].extend(labels)

    def add_frame(
        self, image: np.ndarray, labels: Observation, seats: Mapping[int, str], source: str = "frame"
    ) -> Registration:
        """Learn from a frame whose content ``labels`` describes (seat -> colour in ``seats``).
        Raises EnrollmentError when the table cannot be registered or the patch read."""
        image = check_frame(image)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        res = Registrar(self.layout).update(gray)
        if res.registration is None:
            raise EnrollmentError(
                source,
                "markers",
                f"the table was not found (markers seen: {list(res.seen) or 'none'}; at least 3 needed)",
            )
        reg = res.registration
        norm = frame_norm(image, reg, self.regions, self.sampler)
        if norm is None:
            raise EnrollmentError(
                source, "reference_patch", "the reference patch could not be read (covered, glare or shadow?)"
            )
        self.norms.append(norm)
        table = table_colour(image, reg, self.regions, self.sampler, norm)
        self.table_samples.append(table)
        self.point_samples.append(table_points(image, reg, self.regions, self.sampler, norm))
        for s, c in seats.items():
            if not 0 <= s < len(self.layout.seats):
                raise EnrollmentError(source, "seats", f"seat {s} is not a seat of layout {self.layout.name!r}")
            if self.seats.get(s, c) != c:
                raise EnrollmentError(source, "seats", f"seat {s} was {self.seats[s]!r} before, now {c!r}")
            self.seats[s] = c
        before = {g: len(self.labels[g]) for g in GROUPS}
        parts = {g: len(self.windows[g]) for g in GROUPS}
        self._land(image, reg, norm, labels, seats)
        self._row(image, reg, norm, labels)
        self._board(image, reg, norm, labels)
        for g in GROUPS:
            self.frame_labels[g].update(self.labels[g][before[g] :])
            start = before[g]
            for wins in self.windows[g][parts[g] :]:  # the arrays this frame added (not copied)
                self.frame_parts[g].append((wins, self.labels[g][start : start + len(wins)]))
                start += len(wins)
        self._colours(image, reg, norm, labels, seats, table)
        self.sources.append(source)
        return reg

    def shown_by_frames(self, key: str) -> bool:
        """True when the frames added so far showed face ``key`` (e.g. ``resource-goat``,
        ``action-off``): it was enrolled from the table, so a pack need not add it again."""
        group, label, *_ = self._face_target(key)
        return group is not None and label in self.frame_labels[group]

    def _land(
        self, image: np.ndarray, reg: Registration, norm: ColourNorm, labels: Observation, seats: Mapping[int, str]
    ) -> None:
        cells: list[tuple[int, tuple[int, int]]] = []
        names: list[str] = []
        tiles = {(h.seat, h.hex): h for h in labels.hexes}
        for seat in sorted(seats):
            own = {h for (s, h), r in tiles.items() if s == seat and r.tile}
            empties: set[tuple[int, int]] = set()
            for h in own | set(START_TRIANGLE):
                empties.update(n for n in neighbours(h) if n not in own)
            # a spread of the other hexes of the area (bare table under different light)
            area = [h for h in self.regions.area_hexes(seat) if h not in own and h not in empties]
            empties.update(area[:: max(1, len(area) // 12)])
            for h in sorted(own):
                r = tiles[(seat, h)]
                if r.tile:
                    cells.append((seat, h))
                    names.append(hex_label(r.resource, r.exhausted))
            for h in sorted(empties):
                if (seat, h) in tiles and tiles[(seat, h)].tile:
                    continue
                cells.append((seat, h))
                names.append(EMPTY)
        ps, keep = self._hex_patches_in_view(reg, cells)
        if not keep:
            return
        names = [names[i] for i in keep]
        jp = _jittered(ps)
        win = norm.apply(self.sampler.sample(image, reg, jp))
        self._add("hex", win, names * len(JITTER))
        self._bare(image, reg, norm, labels, seats)

    def _hex_patches_in_view(
        self, reg: Registration, cells: list[tuple[int, tuple[int, int]]]
    ) -> tuple[PatchSet, list[int]]:
        """The hex windows of ``cells`` wholly inside the frame, and their indices in ``cells``."""
        ps = self.regions.hex_patches(cells)
        inside = self.sampler.inside(reg, ps)
        keep = [i for i in range(len(cells)) if inside[i]]
        return patch_set("hex", ps.centers[keep], ps.rotations[keep], ps.side_mm, ps.px), keep

    def _bare(
        self, image: np.ndarray, reg: Registration, norm: ColourNorm, labels: Observation, seats: Mapping[int, str]
    ) -> None:
        """Thumbnails of the bare table at every hex on the table the land reader may walk to
        (:meth:`Regions.walk_hexes`) where no labelled tile lies near."""
        lay = self.layout
        pitch = lay.hex.pitch
        laid = np.array([lay.hex_center(h.seat, h.hex) for h in labels.hexes if h.tile], np.float64).reshape(-1, 2)
        cells: list[tuple[int, tuple[int, int]]] = []
        for seat in sorted(seats):
            for h in self.regions.walk_hexes(seat):
                if not self.regions.on_table(seat, h):
                    continue
                x, y = lay.hex_center(seat, h)
                if len(laid) and float(np.hypot(laid[:, 0] - x, laid[:, 1] - y).min()) < 0.9 * pitch:
                    continue  # a tile lies there (or so near that it reaches in)
                cells.append((seat, h))
        if not cells:
            return
        self.bare_wanted.update(hex_place(*c) for c in cells)
        ps, keep = self._hex_patches_in_view(reg, cells)
        if not keep:
            return
        thumbs = thumbnails(norm.apply(self.sampler.sample(image, reg, ps)))
        for i, t in zip(keep, thumbs, strict=True):
            self.bare_samples.setdefault(hex_place(*cells[i]), []).append(t)

    def _row(self, image: np.ndarray, reg: Registration, norm: ColourNorm, labels: Observation) -> None:
        ps = self.regions.row_patches()
        by_slot = {s.slot: s for s in labels.row}
        names = []
        for i in range(len(ps)):
            s = by_slot.get(i + 1)
            names.append(row_label(s.tile, s.event) if s is not None else EMPTY)
        inside = self.sampler.inside(reg, ps)
        keep = [i for i in range(len(ps)) if inside[i]]
        ps = patch_set("row", ps.centers[keep], ps.rotations[keep], ps.side_mm, ps.px)
        win = norm.apply(self.sampler.sample(image, reg, _jittered(ps)))
        self._add("row", win, [names[i] for i in keep] * len(JITTER))

    def _board(self, image: np.ndarray, reg: Registration, norm: ColourNorm, labels: Observation) -> None:
        ps = self.regions.board_patches()
        by_pos = {(b.era, b.col): b for b in labels.board}
        names, keep = [], []
        inside = self.sampler.inside(reg, ps)
        for i, (e, c) in enumerate(self.regions.board_positions):
            b = by_pos.get((e, c))
            if b is None or not inside[i]:
                continue
            keep.append(i)
            names.append(board_label(e, b.tile))
        if not keep:
            return
        ps = patch_set("board", ps.centers[keep], ps.rotations[keep], ps.side_mm, ps.px)
        win = norm.apply(self.sampler.sample(image, reg, _jittered(ps)))
        self._add("board", win, names * len(JITTER))

    def _colours(
        self,
        image: np.ndarray,
        reg: Registration,
        norm: ColourNorm,
        labels: Observation,
        seats: Mapping[int, str],
        table: np.ndarray,
    ) -> None:
        sl = sorted(seats)
        sup = self.sampler.sample(image, reg, self.regions.supply_patches(sl))
        yy, xx = np.mgrid[0 : sup.shape[1], 0 : sup.shape[2]]
        c = (sup.shape[1] - 1) / 2
        disc = np.hypot(xx - c, yy - c) <= 0.42 * sup.shape[1]
        for i, s in enumerate(sl):
            px = lab(norm.apply(sup[i]))[disc]
            col, spread = piece_colour(px, table, share=0.2)
            self.colour_samples.setdefault(seats[s], []).append((col, spread))
        shells = {s.seat: s.count for s in labels.shells}
        with_shells = [s for s in sl if shells.get(s, 0) > 0]
        if with_shells:
            sp = self.sampler.sample(image, reg, self.regions.shell_patches(with_shells))
            yy, xx = np.mgrid[0 : sp.shape[1], 0 : sp.shape[2]]
            c = (sp.shape[1] - 1) / 2
            disc = np.hypot(xx - c, yy - c) <= 0.45 * sp.shape[1]
            px = np.concatenate([lab(norm.apply(sp[i]))[disc] for i in range(len(with_shells))])
            col, _ = piece_colour(px, table, share=0.08)
            self.shell_samples.append(col)

    def add_pack(
        self, pack: Any, faces: Sequence[str] | None = None, source: str = "pack", only_missing: bool = False
    ) -> int:
        """Learn tiles from an art pack (e.g. built from photos with ``render photo-pack``): each face
        is laid, at its size, on the enrolled table colour and seen at about the camera's
        resolution. ``faces`` limits the faces used (default: every face the pack has);
        ``only_missing`` leaves out the faces the frames showed already (:meth:`shown_by_frames`),
        as ``table-companion enroll --pack`` does. Returns the number of faces learned. Call after
        at least one frame (the table colour comes from it)."""
        if not self.table_samples:
            raise EnrollmentError(source, "", "add a table frame before an art pack (the table colour comes from it)")
        table = np.median(np.stack(self.table_samples), axis=0)
        keys = list(faces) if faces is not None else sorted(pack.faces)
        for key in keys:
            if pack.faces.get(key) is None:
                raise EnrollmentError(source, key, "the pack has no such face")
        gain, matched = self._pack_gain(pack, keys, table)
        self.pack_gains.append((source, gain, matched))
        if matched:
            self.notes.append(
                f"{source}: faces brought to the table's exposure and white point by gains "
                f"B {gain[0]:.2f} G {gain[1]:.2f} R {gain[2]:.2f} (from {matched} faces the frames showed too)"
            )
        if only_missing:
            keys = [k for k in keys if not self.shown_by_frames(k)]
        n = 0
        for key in keys:
            group, label, size, hexagonal, side = self._face_target(key)
            if group is None:
                continue
            img = pack.faces[key]
            wins = [face_window(img, size, side, EMBED_PX, hexagonal, table, j, gain) for j in range(len(JITTER))]
            self._add(group, np.stack(wins), [label] * len(wins))
            n += 1
        self.sources.append(source)
        return n

    def _pack_gain(self, pack: Any, keys: Sequence[str], table: np.ndarray) -> tuple[np.ndarray, int]:
        """``(BGR gains, faces matched)``: what brings the pack's faces to the table's exposure and
        white point. A photo of a tile on the capture paper is balanced on the paper, not on the tile,
        and keeps whatever the photo's lamp and the card's finish give it (a pale face came out darker
        and pinker than the camera sees it on the table): so each face that both the pack and the
        frames show (the setup's starting tiles, action tiles, era-1 achievements and the backs of
        later eras) is compared with the table's windows of it, tone for tone (the percentiles
        :data:`PACK_GAIN_TONES` of the middle of the face, per channel), and the median ratio over
        all faces' tones is the gain. A face that misses the gains by far (cut or named wrongly) is
        left out of a second fit. No face seen on both, or faces that disagree from face to face
        (:data:`PACK_GAIN_SPREAD`): gains of 1, the pack as it is. A gain and an offset per channel
        (contrast too) were tried and lost to the gain alone on the tuning set
        (``benchmarks/vision_diag.py --set tune --re-enroll``)."""
        xs, ys = [], []
        for key in keys:
            group, label, size, hexagonal, side = self._face_target(key)
            if group is None or label not in self.frame_labels[group]:
                continue
            seen = [w[[x == label for x in lab_]] for w, lab_ in self.frame_parts[group]]
            table_wins = np.concatenate([w for w in seen if len(w)]).astype(np.float32)
            made = face_window(pack.faces[key], size, side, EMBED_PX, hexagonal, table)
            r = max(1, round(PACK_GAIN_MIDDLE * size / side * EMBED_PX / 2))
            c = EMBED_PX // 2
            ys.append(np.percentile(table_wins[:, c - r : c + r, c - r : c + r].reshape(-1, 3), PACK_GAIN_TONES, 0))
            xs.append(np.percentile(made[c - r : c + r, c - r : c + r].reshape(-1, 3), PACK_GAIN_TONES, 0))
        one = np.ones(3, np.float32)
        if not xs:
            return one, 0
        x, y = np.stack(xs), np.stack(ys)  # faces x tones x channels
        gain = _fit_gain(x, y)
        miss = np.median(np.abs(x * gain - y), axis=(1, 2))  # each face's own misfit
        keep = miss <= max(3 * float(np.median(miss)), 0.02)
        if 1 < keep.sum() < len(keep):
            gain = _fit_gain(x[keep], y[keep])
        if len(xs) > 1 and float(np.median(miss)) > PACK_GAIN_SPREAD:
            self.notes.append(
                "the art pack's faces and the same faces on the table disagree in colour from face to face "
                "(a face cut or named wrongly?): the pack is enrolled as it is"
            )
            return one, 0
        return gain, len(xs)

    def _face_target(self, key: str) -> tuple[str | None, str, float, bool, float]:
        lay, reg = self.layout, self.regions
        hx = lay.hex.flat_to_flat
        if key.startswith("resource-"):
            return "hex", f"resource:{key[9:]}", hx, True, reg.hex_patches([(0, (0, 0))]).side_mm
        if key == "exhausted":
            return "hex", "exhausted", hx, True, reg.hex_patches([(0, (0, 0))]).side_mm
        if key.startswith("action-"):
            return "row", f"action:{key[7:]}", float(lay.action_size[0]), False, reg.row_side
        if key.startswith("event-back-") or key.startswith("achievement-back-"):
            if key.startswith("achievement-back-"):
                return (
                    "board",
                    f"back:{key.rsplit('-', 1)[1]}",
                    float(lay.achievement_size[0]),
                    False,
                    reg.board_patches().side_mm,
                )
            return None, "", 0.0, False, 0.0
        if key.startswith("event-"):
            return "row", f"event:{key[6:]}", float(lay.event_size[0]), False, reg.row_side
        if key.startswith("achievement-"):
            return (
                "board",
                f"achievement:{key[12:]}",
                float(lay.achievement_size[0]),
                False,
                reg.board_patches().side_mm,
            )
        return None, "", 0.0, False, 0.0

    def build(self) -> Enrollment:
        """The enrollment (EnrollmentError when no frame was added)."""
        if not self.norms:
            raise EnrollmentError("enrollment", "", "no frame was added")
        colours: dict[str, np.ndarray] = {}
        spreads: dict[str, float] = {}
        for name, samples in self.colour_samples.items():
            colours[name] = np.median(np.stack([c for c, _ in samples]), axis=0)
            spreads[name] = float(np.median([s for _, s in samples]))
        table = np.median(np.stack(self.table_samples), axis=0)
        shell = (
            np.median(np.stack(self.shell_samples), axis=0)
            if self.shell_samples
            else np.array([90.0, 2.0, 10.0], np.float32)
        )
        if not self.shell_samples:
            self.notes.append("no shells were in view: the shell colour is a default (light beige)")
        wanted = len(self.bare_wanted | set(self.bare_samples))
        if wanted and len(self.bare_samples) < BARE_SEEN * wanted:
            self.notes.append(
                f"the bare table was in view at only {len(self.bare_samples)} of the {wanted} hexes where a land "
                "can grow: tiles read elsewhere are not checked against it (photograph the whole table)"
            )
        windows = {
            g: (
                np.concatenate(self.windows[g]) if self.windows[g] else np.zeros((0, EMBED_PX, EMBED_PX, 3), np.float16)
            )
            for g in GROUPS
        }
        return Enrollment(
            layout=self.layout.name,
            seats=dict(self.seats),
            colours=colours,
            spreads=spreads,
            shell=np.asarray(shell, np.float32),
            table=np.asarray(table, np.float32),
            norm=self.norms[0],
            windows=windows,
            labels={g: list(self.labels[g]) for g in GROUPS},
            sources=list(self.sources),
            notes=list(self.notes),
            table_points=_median_points(self.point_samples),
            bare_places=sorted(self.bare_samples),
            bare=_median_thumbs([self.bare_samples[k] for k in sorted(self.bare_samples)]),
        )


def _median_thumbs(samples: Sequence[Sequence[np.ndarray]]) -> np.ndarray:
    """Per place, the median thumbnail over the frames that showed it bare."""
    if not samples:
        return np.zeros((0, BARE_PX, BARE_PX, 3), np.uint8)
    return np.stack([np.median(np.stack(list(s)), axis=0).round().astype(np.uint8) for s in samples])


def _median_points(samples: Sequence[np.ndarray]) -> np.ndarray:
    """Per reference point (by place), the median colour over the frames that saw it."""
    by: dict[tuple[float, float], list[np.ndarray]] = {}
    for arr in samples:
        for row in arr:
            by.setdefault((round(float(row[0]), 2), round(float(row[1]), 2)), []).append(row[2:])
    rows = [[x, y, *np.median(np.stack(v), axis=0)] for (x, y), v in sorted(by.items())]
    return np.asarray(rows, np.float32).reshape(-1, 5)


def _fit_gain(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per channel the gain taking the tones ``x`` to ``y`` (faces x tones x channels): the median
    ratio, within 1/:data:`PACK_GAIN_MAX` .. :data:`PACK_GAIN_MAX`."""
    ratio = y.reshape(-1, 3) / np.maximum(x.reshape(-1, 3), 0.05)
    return np.clip(np.median(ratio, axis=0), 1 / PACK_GAIN_MAX, PACK_GAIN_MAX).astype(np.float32)


def face_window(
    face: np.ndarray,
    size_mm: float,
    side_mm: float,
    px: int,
    hexagonal: bool,
    table_lab: np.ndarray,
    jitter: int = 0,
    gain: np.ndarray | None = None,
) -> np.ndarray:
    """A window like the recognizer cuts from a frame, made from a tile face image: the face at
    ``size_mm`` (hexagons: flat to flat; the image's width spans corner to corner) centred on a
    ``side_mm`` window of table colour, softened to about one camera pixel per millimetre; the face's
    BGR times ``gain`` (default 1: see :meth:`Enroller._pack_gain`).
    Returns normalised BGR float32 (px x px x 3)."""
    bg = cv2.cvtColor(np.asarray(table_lab, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2BGR).reshape(3)
    hi = px * 4
    canvas = np.empty((hi, hi, 3), np.float32)
    canvas[:] = bg
    k = hi / side_mm
    dx, dy, dr = JITTER[jitter % len(JITTER)]
    h, w = face.shape[:2]
    width_mm = size_mm * 2 / math.sqrt(3) if hexagonal else size_mm
    scale = width_mm * k / w
    m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), -dr, scale)
    m[:, 2] += np.array([(hi - 1) / 2 + dx * k, (hi - 1) / 2 + dy * k]) - np.array([(w - 1) / 2, (h - 1) / 2])
    src = face.astype(np.float32) / 255.0
    if gain is not None:
        src = src * np.asarray(gain, np.float32).reshape(1, 1, 3)
    warped = cv2.warpAffine(src, m, (hi, hi), flags=cv2.INTER_AREA)
    mask = np.zeros((h, w), np.float32)
    if hexagonal:
        pts = np.array(
            [
                [w - 1, (h - 1) / 2],
                [0.75 * (w - 1), h - 1],
                [0.25 * (w - 1), h - 1],
                [0, (h - 1) / 2],
                [0.25 * (w - 1), 0],
                [0.75 * (w - 1), 0],
            ],
            np.float32,
        )
        cv2.fillConvexPoly(mask, np.round(pts).astype(np.int32), 1.0)
    else:
        mask[:] = 1.0
    mw = cv2.warpAffine(mask, m, (hi, hi), flags=cv2.INTER_AREA)[..., None]
    canvas = canvas * (1 - mw) + warped * mw
    # about one camera pixel per millimetre: blur at that scale, then shrink
    sigma = 0.5 * k
    canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
    return cv2.resize(canvas, (px, px), interpolation=cv2.INTER_AREA)
