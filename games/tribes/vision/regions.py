"""Where the camera pipeline looks: every readable spot of a table layout, in table millimetres.

The readers never think in pixels. They ask for *patches*: square windows of the table plane with a
centre (mm), a rotation (degrees, clockwise seen from above), a side (mm) and an output size (px);
:mod:`vision.sampling` cuts them out of a registered frame. This module computes those windows
from the :class:`~vision.layout.Layout` and the box profile (how many track spaces there are):

* hexes of each seat's land lattice (the window turned with the seat, so a tile's art is upright
  as the art pack draws it),
* the action row slots, the achievement positions and their stone slots,
* the track spaces (with each seat's usual marker offset),
* each seat's shell spot and supply spot, and the fields of the reference patch.

Pure numpy; no OpenCV.
"""

from __future__ import annotations

from functools import cached_property

import cv2
import numpy as np

from games.tribes.rules.hexgrid import neighbours
from games.tribes.rules.profile import BoxProfile
from games.tribes.vision.layout import TRACK_NAMES, Hex, Layout
from games.tribes.vision.layout import regions as layout_regions
from vision.layout import Point, rect_corners
from vision.patches import PatchSet, patch_set, window_vectors
from vision.registration import Registration

HEX_PATCH_MM = 48.0
"""Side of the window around a landscape tile for recognising its type (the tile is 46 mm corner to
corner in the default layout; scaled with the layout's tile size)."""
COUNT_PATCH_MM = 62.0
"""Side of the window for counting members on a hex (meeples lean out of their hex when the camera
is tilted, so the window is larger than the tile)."""
EMBED_PX = 40
"""Pixels per side of the patches fed to the feature model."""
COUNT_PX = 48
"""Pixels per side of the patches fed to the counting models."""
LEAN_MM = 16.0
"""Height (mm) of the piece whose lean a counting model may be told (a meeple's, as the renderer's):
how far its top lies from its foot in a window seen by a tilted camera (:func:`leans`)."""


RESERVED = ("reference_patch", "row.slots", "board.")
"""The layout regions (field paths) where no landscape tile can lie."""
RESERVED_MARGIN = 0.3
"""A tile centred nearer than this (hexes) to a reserved place would overlap it."""
WALK_REACH = 2.0
"""Hexes beyond its land area the land reader always walks a land to."""
WALK_FAR = 6.0
"""Hexes beyond its land area the land reader walks a land to where no other seat's area is nearer."""


class Regions:
    """The readable spots of ``layout`` for a game with ``profile`` (track space counts)."""

    def __init__(self, layout: Layout, profile: BoxProfile) -> None:
        self.layout = layout
        self.profile = profile
        self.scale = layout.hex.flat_to_flat / 40.0  # windows grow with the layout's tiles
        self.track_counts = {t.name: len(t.vp) for t in profile.tracks}

    # --- land ---------------------------------------------------------------------------------
    def hex_center(self, seat: int, h: Hex) -> Point:
        """Centre (mm) of hex ``h`` of ``seat``'s land."""
        return self.layout.hex_center(seat, h)

    def hex_patches(self, cells: list[tuple[int, Hex]], px: int = EMBED_PX) -> PatchSet:
        """Windows for recognising the tiles at ``cells`` ((seat, hex) pairs)."""
        lay = self.layout
        centers = [lay.hex_center(s, h) for s, h in cells]
        rots = [lay.hex_rotation(s) for s, _ in cells]
        return patch_set("hex", centers, rots, HEX_PATCH_MM * self.scale, px)

    def count_patches(self, cells: list[tuple[int, Hex]], px: int = COUNT_PX) -> PatchSet:
        """Larger windows for counting members on the hexes at ``cells``."""
        lay = self.layout
        centers = [lay.hex_center(s, h) for s, h in cells]
        rots = [lay.seats[s].rotation for s, _ in cells]
        return patch_set("count", centers, rots, COUNT_PATCH_MM * self.scale, px)

    def area_hexes(self, seat: int) -> list[Hex]:
        """Hexes of the seat's land area (where the camera expects its land)."""
        return self.layout.area_hexes(seat)

    def outside_area(self, seat: int, at: tuple[float, float] | np.ndarray) -> float:
        """How far (mm) the table point ``at`` lies outside ``seat``'s land area (0 inside)."""
        s = self.layout.seats[seat]
        c = np.asarray(at, np.float64) - np.asarray(s.area_center)
        a = np.radians(-s.rotation)
        x, y = np.cos(a) * c[0] - np.sin(a) * c[1], np.sin(a) * c[0] + np.cos(a) * c[1]
        return float(max(abs(x) - s.area_size[0] / 2, abs(y) - s.area_size[1] / 2, 0.0))

    def on_table(self, seat: int, h: Hex) -> bool:
        """Whether a tile on hex ``h`` of ``seat`` would lie within the play area (the layout's
        table): its centre at least half a hex inside the edge (one nearer would hang over it)."""
        lay = self.layout
        x, y = lay.hex_center(seat, h)
        m = lay.hex.pitch / 2
        return m <= x <= lay.table[0] - m and m <= y <= lay.table[1] - m

    @cached_property
    def reserved(self) -> list[np.ndarray]:
        """The layout's places where no landscape tile can lie (:data:`RESERVED` of
        :func:`layout.regions`): the reference patch, the action row, the achievement board, the
        event stacks and the discard — as float32 polygons (mm). Not the tracks or the supplies:
        players move those aside when a land grows there (and our renderer lays tiles over them)."""
        return [
            np.asarray(poly, np.float32).reshape(-1, 1, 2)
            for path, poly in layout_regions(self.layout)
            if path.startswith(RESERVED)
        ]

    def reserved_at(self, at: tuple[float, float] | np.ndarray, margin: float = RESERVED_MARGIN) -> bool:
        """Whether a tile centred at ``at`` (mm) would lie on a reserved place (its centre inside one,
        or nearer than ``margin`` hexes to one)."""
        p = (float(at[0]), float(at[1]))
        margin = margin * self.layout.hex.pitch
        return any(cv2.pointPolygonTest(poly, p, True) > -margin for poly in self.reserved)

    def walkable(
        self, seat: int, h: Hex, reach: float = WALK_REACH, far: float = WALK_FAR, margin: float = RESERVED_MARGIN
    ) -> bool:
        """Whether the land reader may read hex ``h`` of ``seat``: not on a reserved place (the row,
        the board, the patch: :meth:`reserved_at` with ``margin``), and within its land area widened by
        ``reach`` hexes, or — a land may grow long — up to ``far`` hexes out as long as the hex lies
        nearer to this seat's area than to any other seat's."""
        lay = self.layout
        at = np.asarray(lay.hex_center(seat, h), np.float64)
        if self.reserved_at(at, margin):
            return False
        out = self.outside_area(seat, at)
        if out <= reach * lay.hex.pitch:
            return True
        if out > far * lay.hex.pitch:
            return False
        return all(out < self.outside_area(o, at) for o in range(len(lay.seats)) if o != seat)

    def walk_hexes(self, seat: int, reach: float = WALK_REACH, far: float = WALK_FAR) -> list[Hex]:
        """Every hex the land reader may read for ``seat`` (:meth:`walkable`), reached from the land
        area through walkable hexes, sorted."""
        seen = set(self.area_hexes(seat))
        todo = list(seen)
        while todo:
            nxt = []
            for h in todo:
                for n in neighbours(h):
                    if n not in seen and self.walkable(seat, n, reach, far):
                        seen.add(n)
                        nxt.append(n)
            todo = nxt
        return sorted(seen)

    # --- row and board ------------------------------------------------------------------------
    @cached_property
    def row_side(self) -> float:
        """Window side (mm) for a row slot: the larger tile (action or event) plus a margin."""
        lay = self.layout
        return max(*lay.action_size, *lay.event_size) + 4.0

    def row_patches(self, px: int = EMBED_PX) -> PatchSet:
        """One window per row slot (slot 1 first)."""
        return patch_set("row", list(self.layout.row_slots), self.layout.row_rotation, self.row_side, px)

    def row_count_patches(self, px: int = COUNT_PX, slots: int | None = None) -> PatchSet:
        """Windows for counting shells on each row slot (as large as the slot pitch allows), or on the
        first ``slots`` of them."""
        lay = self.layout
        side = self.row_side + 6.0
        return patch_set("rowcount", list(lay.row_slots)[:slots], lay.row_rotation, side, px)

    @cached_property
    def board_positions(self) -> list[tuple[int, int]]:
        """``(era, col)`` of every achievement position, era 1 first."""
        return [(e, c) for e in (1, 2, 3) for c in range(len(self.layout.board[e - 1]))]

    def board_patches(self, px: int = EMBED_PX) -> PatchSet:
        """One window per achievement position (order of :attr:`board_positions`)."""
        lay = self.layout
        centers = [lay.board_tile(e, c) for e, c in self.board_positions]
        side = max(lay.achievement_size) + 6.0
        return patch_set("board", centers, lay.board_rotation, side, px)

    def stone_points(self) -> list[tuple[int, int, int, Point]]:
        """``(era, col, slot, centre mm)`` of every stone slot."""
        lay = self.layout
        out = []
        for e, c in self.board_positions:
            for k in range(len(lay.stone_slots)):
                out.append((e, c, k, lay.stone_slot(e, c, k)))
        return out

    @cached_property
    def stone_radius(self) -> float:
        """Half the distance between neighbouring stone slots (mm): how far a stone's disc reaches."""
        pts = np.asarray(self.layout.stone_slots, np.float64)
        if len(pts) < 2:
            return 6.0
        d = np.linalg.norm(pts[1:] - pts[:-1], axis=1)
        return float(max(3.0, d.min() / 2))

    # --- tracks -------------------------------------------------------------------------------
    def track_spaces(self, track: str) -> list[Point]:
        """Centres (mm) of the spaces of ``track``, lowest first."""
        return self.layout.track_spaces(track, self.track_counts[track])

    @cached_property
    def track_pitch(self) -> float:
        """Smallest distance (mm) between two neighbouring spaces of any track."""
        best = np.inf
        for t in TRACK_NAMES:
            sp = np.asarray(self.track_spaces(t), np.float64)
            if len(sp) > 1:
                best = min(best, float(np.linalg.norm(sp[1:] - sp[:-1], axis=1).min()))
        return float(best) if np.isfinite(best) else 40.0

    # --- shells, supply, reference patch -------------------------------------------------------
    def shell_patches(self, seats: list[int], px: int = COUNT_PX) -> PatchSet:
        """Windows over the shell spots of ``seats`` (turned with the seat)."""
        lay = self.layout
        centers = [lay.seats[s].shells_center for s in seats]
        side = max(2 * lay.seats[s].shells_radius for s in seats) + 10.0 if seats else 80.0
        return patch_set("shells", centers, [lay.seats[s].rotation for s in seats], side, px)

    def supply_patches(self, seats: list[int], px: int = 64) -> PatchSet:
        """Windows over the supply spots of ``seats`` (members, stones and arrow not in play)."""
        lay = self.layout
        centers = [lay.seats[s].supply_center for s in seats]
        side = max(2 * lay.seats[s].supply_radius for s in seats) + 10.0 if seats else 110.0
        return patch_set("supply", centers, [lay.seats[s].rotation for s in seats], side, px)

    def tone_patches(self, px: int = 8) -> PatchSet:
        """The inner half of each field of the reference patch (white, grey, black, …)."""
        p = self.layout.patch
        centers = []
        for i in range(len(p.tones)):
            cs = np.asarray(p.tone_corners(i))
            centers.append(tuple(cs.mean(0)))
        side = 0.5 * min(p.size[0] / len(p.tones), p.size[1])
        return patch_set("tones", centers, p.rotation, side, px)

    def table_ring(self, px: int = 8) -> PatchSet:
        """Small windows of bare table (between the markers and the reference patch) used to learn
        the table's colour: points a little inside each table-corner marker."""
        lay = self.layout
        w, h = lay.table
        pts = []
        for m in lay.markers:
            cx, cy = m.center
            dx = 1.0 if cx < w / 2 else -1.0
            dy = 1.0 if cy < h / 2 else -1.0
            off = m.size * 0.9
            pts.append((cx + dx * off, cy))
            pts.append((cx, cy + dy * off))
        return patch_set("ring", pts, 0.0, 10.0, px)

    def marker_outline(self, marker_id: int) -> list[Point]:
        """The corners of a marker (mm)."""
        m = self.layout.marker(marker_id)
        return rect_corners(m.center, (m.size, m.size), m.rotation)


def leans(reg: Registration, ps: PatchSet, z: float = LEAN_MM) -> np.ndarray:
    """Where the top of a piece ``z`` mm tall standing at each window's centre appears, from its foot,
    in the window's pixels (N x 2: columns, rows): zero under the camera, longer the more obliquely
    the camera sees the window (:meth:`~vision.registration.Registration.raised`)."""
    return window_vectors(ps, reg.raised(ps.centers, z) - ps.centers)
