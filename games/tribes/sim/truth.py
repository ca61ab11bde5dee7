"""Ground truth of a rendered frame: what lies where, in table millimetres and in image pixels.

Everything is read from the :class:`~vision.table.TableModel` (itself read from the rules state) and
projected through the camera; pixel coordinates follow OpenCV (pixel centres at integers, lens
distortion applied). The document (``format: tribes-render-truth``) is described in
docs/renderer.md. Per hex: the seat, the axial hex, whether a tile lies there (tiles and the empty
hexes next to them are listed), its resource, whether it is exhausted, members per colour; per row
slot: tile id, event or not, shells; per achievement position: tile (None = face down) and stones
per slot; arrow tokens; track markers per seat; shells per seat and in the supply; marker corners;
every piece with its image box (and how it lies on another or leans); hands.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.tribes.rules.hexgrid import frontier
from games.tribes.sim.compose import TILE_THICKNESS
from games.tribes.sim.pieces import HEIGHTS, PieceRenderer
from games.tribes.sim.scene import Scene
from games.tribes.vision.layout import TRACK_NAMES, Layout
from games.tribes.vision.table import TableModel
from sim.camera import Camera
from vision.layout import rect_corners

TRUTH_FORMAT = "tribes-render-truth"
TRUTH_VERSION = 1


def _r(v: float) -> float:
    return round(float(v), 3)


def _pts(a: np.ndarray) -> list[list[float]]:
    return [[_r(x), _r(y)] for x, y in np.asarray(a).reshape(-1, 2)]


class _Batch:
    """Collects table points to project, then projects them all in one call."""

    def __init__(self, camera: Camera) -> None:
        self.camera = camera
        self.points: list[np.ndarray] = []
        self.heights: list[np.ndarray] = []
        self.n = 0
        self.px = np.zeros((0, 2))

    def add(self, points: Any, height: float = 0.0) -> slice:
        p = np.asarray(points, np.float64).reshape(-1, 2)
        self.points.append(p)
        self.heights.append(np.full(len(p), height))
        s = slice(self.n, self.n + len(p))
        self.n += len(p)
        return s

    def run(self) -> None:
        if self.n:
            self.px = self.camera.project(np.vstack(self.points), np.concatenate(self.heights))

    def __getitem__(self, s: slice) -> np.ndarray:
        return self.px[s]


def build_truth(
    model: TableModel,
    layout: Layout,
    camera: Camera,
    scene: Scene,
    pieces: PieceRenderer,
    hands: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The ground-truth document of a frame (without the header fields the renderer adds)."""
    cam = camera
    bt = _Batch(cam)
    # --- gather every point --------------------------------------------------------------------
    mk = [bt.add(m.corners()) for m in layout.markers]
    pt = [bt.add(layout.patch.tone_corners(i)) for i in range(len(layout.patch.tones))]
    hex_rows = []
    for seat, st in enumerate(model.seats):
        for h in sorted(st.land) + frontier(st.land):
            t = st.land.get(h)
            z = TILE_THICKNESS if t else 0.0
            hex_rows.append(
                (seat, h, t, bt.add([layout.hex_center(seat, h)], z), bt.add(layout.hex_corners(seat, h), z))
            )
    row_rows = []
    for c in layout.row_slots:
        row_rows.append(
            (
                bt.add([c], TILE_THICKNESS),
                bt.add(rect_corners(c, layout.action_size, layout.row_rotation), TILE_THICKNESS),
            )
        )
    board_rows = []
    for era in (1, 2, 3):
        for col in range(4):
            b = model.board[era - 1][col]
            c = layout.board_tile(era, col)
            stones = [bt.add([layout.stone_slot(era, col, k)], HEIGHTS["stone"]) for k in range(len(b.stones))]
            corners = bt.add(rect_corners(c, layout.achievement_size, layout.board_rotation), TILE_THICKNESS)
            board_rows.append((era, col, b, bt.add([c], TILE_THICKNESS), corners, stones))
    arrow_rows = [bt.add([layout.arrow_position(a.lower, a.upper)[0]], HEIGHTS["arrow"]) for a in model.arrows]
    seat_rows = []
    for seat, st in enumerate(model.seats):
        s = layout.seats[seat]
        tr = [
            bt.add([layout.track_marker(name, max(st.tracks[ti], 0), model.track_spaces[ti], seat)], HEIGHTS["marker"])
            for ti, name in enumerate(TRACK_NAMES)
        ]
        seat_rows.append((bt.add([s.shells_center]), bt.add([s.supply_center]), tr))
    piece_base = bt.add([p.center for p in scene.pieces]) if scene.pieces else slice(0, 0)
    bt.run()

    # --- build the document --------------------------------------------------------------------
    out: dict[str, Any] = {}
    out["markers"] = [
        {"id": m.id, "corners": _pts(bt[s]), "visible": bool(cam.visible(bt[s]).all())}
        for m, s in zip(layout.markers, mk, strict=True)
    ]
    out["patch"] = [
        {"name": t.name, "grey": t.grey, "corners": _pts(bt[s])} for t, s in zip(layout.patch.tones, pt, strict=True)
    ]
    hexes = []
    for seat, h, t, cs, ks in hex_rows:
        colour = model.seats[seat].colour
        hexes.append(
            {
                "seat": seat,
                "hex": [h[0], h[1]],
                "tile": t is not None,
                "resource": t.resource if t else None,
                "exhausted": bool(t.exhausted) if t else False,
                "members": {colour: t.members} if t and t.members else {},
                "center": _pts(bt[cs])[0],
                "corners": _pts(bt[ks]),
                "in_view": bool(cam.visible(bt[ks]).all()),
                "in_area": layout.in_area(seat, layout.hex_center(seat, h)),
            }
        )
    out["hexes"] = hexes
    by_slot = {}
    for item in model.row:
        if abs(item.place - round(item.place)) < 1e-3:
            by_slot[round(item.place)] = item
    out["row"] = []
    for i, (cs, ks) in enumerate(row_rows, start=1):
        item = by_slot.get(i)
        out["row"].append(
            {
                "slot": i,
                "tile": item.tile if item else None,
                "event": bool(item.event) if item else False,
                "shells": item.shells if item else 0,
                "center": _pts(bt[cs])[0],
                "corners": _pts(bt[ks]),
            }
        )
    out["row_moving"] = [
        {"tile": it.tile, "event": it.event, "shells": it.shells, "place": _r(it.place)}
        for it in model.row
        if abs(it.place - round(it.place)) >= 1e-3
    ]
    out["board"] = []
    for era, col, b, cs, ks, stones in board_rows:
        out["board"].append(
            {
                "era": era,
                "col": col,
                "tile": b.tile,
                "face_up": b.tile is not None,
                "stones": [
                    {"slot": k, "seat": owner, "colour": model.seats[owner].colour, "center": _pts(bt[stones[k]])[0]}
                    for k, owner in enumerate(b.stones)
                ],
                "center": _pts(bt[cs])[0],
                "corners": _pts(bt[ks]),
            }
        )
    out["arrows"] = [
        {
            "owner": a.owner,
            "colour": model.seats[a.owner].colour,
            "lower": list(a.lower),
            "upper": list(a.upper),
            "center": _pts(bt[s])[0],
        }
        for a, s in zip(model.arrows, arrow_rows, strict=True)
    ]
    seats = []
    for seat, (st, (shell_s, supply_s, tr)) in enumerate(zip(model.seats, seat_rows, strict=True)):
        tracks = {
            name: {"space": st.tracks[ti], "spaces": model.track_spaces[ti], "center": _pts(bt[tr[ti]])[0]}
            for ti, name in enumerate(TRACK_NAMES)
        }
        seats.append(
            {
                "seat": seat,
                "name": st.name,
                "colour": st.colour,
                "shells": st.shells,
                "shell_spot": _pts(bt[shell_s])[0],
                "members_in_supply": st.supply,
                "stones_in_supply": st.stones,
                "arrow_in_supply": st.arrow,
                "supply_spot": _pts(bt[supply_s])[0],
                "members_on_land": sum(t.members for t in st.land.values()),
                "tracks": tracks,
            }
        )
    out["seats"] = seats
    out["drawn"] = {str(k): list(v) for k, v in model.drawn.items() if v}
    out["event_stacks"] = list(model.stacks)
    out["discard"] = model.discard
    out["bag"] = model.bag
    out["shell_supply"] = model.shell_supply
    plist = []
    bases = bt[piece_base]
    for p, box, base in zip(scene.pieces, pieces.boxes(scene.pieces), bases, strict=True):
        entry: dict[str, Any] = {
            "kind": p.kind,
            "role": p.role,
            "seat": p.seat,
            "colour": model.seats[p.seat].colour if p.seat >= 0 else None,
            "table_mm": [_r(p.center[0]), _r(p.center[1])],
            "base": [_r(base[0]), _r(base[1])],
            "bbox": [_r(v) for v in box],
        }
        if p.role == "member":
            h = p.where[0]
            entry["hex"] = [h[0], h[1]]  # type: ignore[index]
        if p.lift:
            entry["lift_mm"] = _r(p.lift)
        if p.lean:
            entry["lean_deg"] = _r(p.lean)
            entry["lean_dir_deg"] = _r(p.lean_dir)
        plist.append(entry)
    out["pieces"] = plist
    out["hands"] = hands or []
    out["hand_in_view"] = any(h.get("in_view") for h in out["hands"])
    return out
