"""Where each tile and piece lies: a :class:`~vision.table.TableModel` laid out on a layout.

Tiles go to their layout positions (land hexes, row slots, board positions, stacks); pieces get
deterministic places: the k-th member on a hex, shell on a spot or stone in a supply always lands on
the same spot for the same seed, so adding a member does not shuffle the others (important for
video). Several members on one hex overlap as in real play. Positions are in table millimetres;
nothing here draws.

How members stand on a land hex is set by ``piles`` (:data:`PILES`): ``"fixed"`` (the default) is
the grid of :func:`member_offset`; ``"varied"`` gives each hex with two or more members one
arrangement drawn from the seed and the hex (:func:`hex_arrangement`): a *ring*, a *heap* whose
pieces touch, overlap and climb on each other (a lifted piece lies on the one below it), or the
*grid* (:func:`arranged_members`); on a hex of three or more, up to two members lean against a
neighbour or lie on their front or back (:func:`member_leans`).
"""

from __future__ import annotations

import hashlib
import math
import struct
from dataclasses import dataclass

from games.tribes.vision.layout import Layout
from games.tribes.vision.table import TableModel
from vision.layout import Point, add, rotate

GOLDEN = math.radians(137.50776)


@dataclass(frozen=True, slots=True)
class TileDraw:
    """A flat tile: face key, centre (mm), clockwise rotation (degrees), shape and size (mm)."""

    face: str
    center: Point
    rotation: float
    shape: str  # "hex" or "rect"
    size: Point  # hex: (flat_to_flat, 0); rect: (w, h)
    layers: int = 1  # a stack of tiles shows its edge


@dataclass(frozen=True, slots=True)
class PieceDraw:
    """A wooden (or cloth) piece: kind, owner seat (-1 for none), RGB colour, position, yaw."""

    kind: str  # meeple, stone, marker, shell, arrow, bag
    seat: int
    colour: tuple[int, int, int]
    center: Point
    yaw: float
    role: str  # member, supply, stone, track, shell, arrow, bag
    where: tuple[object, ...] = ()
    lift: float = 0.0  # mm above the table (a piece lying on another one)
    lean: float = 0.0  # degrees from upright (90: lying on the table), tipped about its foot's edge
    lean_dir: float = 0.0  # table angle (degrees, as yaw) towards which its top falls


@dataclass
class Scene:
    """Everything to draw, in table millimetres."""

    tiles: list[TileDraw]
    pieces: list[PieceDraw]


def uniforms(seed: int, *key: object) -> tuple[float, float, float, float]:
    """Four deterministic uniforms in [0, 1) for a key (cheap, stable across runs and platforms)."""
    digest = hashlib.blake2b(repr((seed, key)).encode(), digest_size=16).digest()
    a, b, c, d = struct.unpack("<4I", digest)
    return (a / 2**32, b / 2**32, c / 2**32, d / 2**32)


def spiral(k: int, radius: float, capacity: int) -> Point:
    """The k-th point of a sunflower spiral filling a disc of ``radius`` with ``capacity`` points."""
    r = radius * math.sqrt((k + 0.5) / max(capacity, k + 1))
    a = k * GOLDEN
    return (r * math.cos(a), r * math.sin(a))


def member_offset(k: int, radius: float) -> Point:
    """Where the k-th member stands on a hex of circumradius ``radius`` (before jitter)."""
    if k == 0:
        return (0.0, 0.0)
    if k <= 6:
        a = math.radians(60 * (k - 1) + 30)
        return (0.36 * radius * math.cos(a), 0.36 * radius * math.sin(a))
    if k <= 18:
        a = math.radians(30 * (k - 7))
        return (0.62 * radius * math.cos(a), 0.62 * radius * math.sin(a))
    return spiral(k, 0.6 * radius, 30)


PILES = ("fixed", "varied")
"""How members stand on a land hex: always the grid, or an arrangement per hex."""

ARRANGEMENTS = ("ring", "heap", "grid")
"""The arrangements of members on a hex under ``piles="varied"``."""

FOOTPRINT = 8.0
"""Radius (mm) of the disc a member covers on the table, for the heap's overlaps (a meeple is 16 mm wide)."""

MEMBER_HEIGHT = 16.0
"""How much a member lying on another one is raised (mm): a meeple's height."""

MAX_LEVELS = 2
"""A heap is at most this many members high above the table (a third lies on the second one's level)."""

MEMBER_REACH = 0.7
"""Members stay within this share of the hex circumradius of its centre."""

MEMBER_THICK = 8.0
"""A meeple's thickness (mm): a member leaning on a neighbour touches it this much short of its centre."""

MIN_LEAN, MAX_LEAN = 20.0, 70.0
"""A member leaning on a neighbour is tipped this many degrees at least and at most; one whose
neighbour is too far to reach at :data:`MAX_LEAN` lies on the table instead (90 degrees)."""

LIE_REACH = 0.85
"""A member lying on the table keeps its head within this share of the hex circumradius."""


@dataclass(frozen=True, slots=True)
class Lean:
    """How a member leans: ``tilt`` degrees from upright (90: lying), its top falling towards table
    angle ``direction`` (degrees), against member ``against`` (its index on the hex; None when lying)."""

    tilt: float
    direction: float
    against: int | None


def check_piles(piles: str) -> str:
    """``piles`` if it is one of :data:`PILES`; raise ValueError otherwise."""
    if piles not in PILES:
        raise ValueError(f"piles must be one of {', '.join(PILES)}, got {piles!r}")
    return piles


def hex_arrangement(seed: int, seat: int, h: object) -> str:
    """The arrangement (:data:`ARRANGEMENTS`) of the members on hex ``h`` of ``seat`` under ``"varied"``."""
    u = uniforms(seed, "arrangement", seat, h)
    return ARRANGEMENTS[min(int(u[0] * len(ARRANGEMENTS)), len(ARRANGEMENTS) - 1)]


def _overlap(d: float, rho: float) -> float:
    """Share of a disc of radius ``rho`` covered by another one whose centre is ``d`` away."""
    if d >= 2 * rho:
        return 0.0
    lens = 2 * rho * rho * math.acos(d / (2 * rho)) - 0.5 * d * math.sqrt(4 * rho * rho - d * d)
    return lens / (math.pi * rho * rho)


def _within(p: Point, reach: float) -> Point:
    r = math.hypot(p[0], p[1])
    return p if r <= reach else (p[0] * reach / r, p[1] * reach / r)


def arranged_members(seed: int, seat: int, h: object, n: int, radius: float) -> tuple[str, list[tuple[Point, float]]]:
    """The arrangement of ``n`` (>= 2) members on a hex of circumradius ``radius`` under ``"varied"``,
    and each member's (offset from the hex centre, lift), jitter included.

    *ring*: evenly on one circle of radius 0.25-0.6 r, random phase. *heap*: a sunflower cluster around
    a point within 0.3 r, neighbours closer than a piece's footprint so they touch and overlap; a piece
    whose footprint is more than half covered by an earlier one lies on it (lifted by a member's height
    above the highest such piece, at most :data:`MAX_LEVELS` heights). *grid*: :func:`member_offset`,
    as under ``"fixed"``. Every member stays within :data:`MEMBER_REACH` r of the centre; which of them
    lean is :func:`member_leans`."""
    kind = hex_arrangement(seed, seat, h)
    reach = MEMBER_REACH * radius
    u = uniforms(seed, "piles", seat, h)
    out: list[tuple[Point, float]] = []
    if kind == "ring":
        rr = (0.25 + 0.35 * u[0]) * radius
        phase = u[1] * 2 * math.pi
        for k in range(n):
            v = uniforms(seed, "member", seat, h, k)
            a = phase + 2 * math.pi * k / n
            p = (rr * math.cos(a) + (v[0] - 0.5) * 2.0, rr * math.sin(a) + (v[1] - 0.5) * 2.0)
            out.append((_within(p, reach), 0.0))
        return kind, out
    if kind == "heap":
        ra, aa = 0.3 * radius * math.sqrt(u[0]), u[1] * 2 * math.pi
        hub = (ra * math.cos(aa), ra * math.sin(aa))
        spacing = (0.35 + 0.4 * u[2]) * 2 * FOOTPRINT  # 5.6-12 mm between neighbours: they touch
        spread = spacing * math.sqrt(n / math.pi)
        placed: list[tuple[Point, float]] = []
        for k in range(n):
            v = uniforms(seed, "member", seat, h, k)
            s = spiral(k, spread, n)
            p = _within((hub[0] + s[0] + (v[0] - 0.5) * 4.0, hub[1] + s[1] + (v[1] - 0.5) * 4.0), reach)
            below = [lift for q, lift in placed if _overlap(math.hypot(p[0] - q[0], p[1] - q[1]), FOOTPRINT) > 0.5]
            placed.append((p, min(max(below) + MEMBER_HEIGHT, MAX_LEVELS * MEMBER_HEIGHT) if below else 0.0))
        return kind, placed
    for k in range(n):
        v = uniforms(seed, "member", seat, h, k)
        off = member_offset(k, radius)
        out.append((_within((off[0] + (v[0] - 0.5) * 3.0, off[1] + (v[1] - 0.5) * 3.0), reach), 0.0))
    return kind, out


def _lie_direction(p: Point, others: list[Point], radius: float, phase: float) -> float:
    """The table angle (degrees) in which a member at ``p`` lies down with most room: of 12 directions,
    the one whose body (foot to head, a meeple's height) passes farthest from the other members'
    centres, among those keeping the head within :data:`LIE_REACH` r of the hex centre."""
    best, best_room = 0.0, -math.inf
    for i in range(12):
        a = phase + 2 * math.pi * i / 12
        d = (math.cos(a), math.sin(a))
        head = (p[0] + d[0] * MEMBER_HEIGHT, p[1] + d[1] * MEMBER_HEIGHT)
        room = math.inf
        for q in others:
            t = min(max((q[0] - p[0]) * d[0] + (q[1] - p[1]) * d[1], 0.0), MEMBER_HEIGHT)
            room = min(room, math.hypot(q[0] - p[0] - t * d[0], q[1] - p[1] - t * d[1]))
        if math.hypot(*head) > LIE_REACH * radius:
            room -= 1000.0
        if room > best_room:
            best, best_room = a, room
    return math.degrees(best) % 360.0


def member_leans(seed: int, seat: int, h: object, spots: list[tuple[Point, float]], radius: float) -> list[Lean | None]:
    """Which of the members at ``spots`` (from :func:`arranged_members`) lean, under ``"varied"``.

    On a hex of three or more members, 0, 1 or 2 of them (40/40/20 %) lean, drawn from the seed and
    the hex among those on the table with nothing lying on them. A leaning member tips towards its
    nearest upright neighbour on the table until its top (a meeple's height up) touches that one's
    near face (:data:`MEMBER_THICK` / 2 short of its centre), between :data:`MIN_LEAN` and
    :data:`MAX_LEAN` degrees; with no neighbour in reach, or for one in five drawn, it lies on its
    front or back (90 degrees) in the direction with the most room (:func:`_lie_direction`)."""
    n = len(spots)
    out: list[Lean | None] = [None] * n
    if n < 3:
        return out
    u = uniforms(seed, "lean", seat, h)
    count = 0 if u[0] < 0.4 else 1 if u[0] < 0.8 else 2
    pts = [off for off, _ in spots]
    under = {
        j
        for k, (q, lift) in enumerate(spots)
        if lift > 0
        for j in range(k)
        if _overlap(math.hypot(q[0] - pts[j][0], q[1] - pts[j][1]), FOOTPRINT) > 0.5
    }
    free = [k for k, (_, lift) in enumerate(spots) if lift == 0.0 and k not in under]
    free.sort(key=lambda k: uniforms(seed, "leaner", seat, h, k)[0])
    leaners = free[:count]
    for k in leaners:
        v = uniforms(seed, "leaner", seat, h, k)
        p = pts[k]
        upright = [j for j in range(n) if j not in leaners and spots[j][1] == 0.0]
        j = min(upright, key=lambda j: math.hypot(pts[j][0] - p[0], pts[j][1] - p[1]), default=None)
        if j is not None and v[1] >= 0.2:
            d = math.hypot(pts[j][0] - p[0], pts[j][1] - p[1])
            reach = (d - MEMBER_THICK / 2) / MEMBER_HEIGHT
            if reach <= math.sin(math.radians(MAX_LEAN)):
                tilt = max(math.degrees(math.asin(max(reach, 0.0))), MIN_LEAN)
                ang = math.degrees(math.atan2(pts[j][1] - p[1], pts[j][0] - p[0])) % 360.0
                out[k] = Lean(tilt, ang, j)
                continue
        others = [pts[i] for i in range(n) if i != k]
        out[k] = Lean(90.0, _lie_direction(p, others, radius, v[2] * 2 * math.pi), None)
    return out


def lean_yaw(yaw: float, direction: float) -> float:
    """The yaw nearest ``yaw`` that turns a meeple's front or back towards ``direction`` (a flat piece
    tips over onto a broad face); its +y side faces ``yaw + 90``."""
    a, b = (direction - 90.0) % 360.0, (direction + 90.0) % 360.0
    return a if abs((yaw - a + 180.0) % 360.0 - 180.0) <= abs((yaw - b + 180.0) % 360.0 - 180.0) else b


def drawn_position(layout: Layout, seat: int, k: int, n: int) -> Point:
    """Where the k-th of ``n`` tiles drawn from the bag (not yet laid) lies: beside the seat's supply."""
    s = layout.seats[seat]
    pitch = layout.hex.pitch + 3.0
    return add(s.supply_center, rotate((k * pitch - (n - 1) * pitch / 2, -s.supply_radius - pitch * 0.75), s.rotation))


def build_scene(
    model: TableModel,
    layout: Layout,
    colours: dict[str, tuple[int, int, int]],
    shell_colour: tuple[int, int, int],
    seed: int = 0,
    piles: str = "fixed",
) -> Scene:
    """Lay ``model`` out on ``layout``. ``colours`` maps each player colour name to RGB; ``piles``
    (:data:`PILES`) says how members stand on a hex."""
    check_piles(piles)
    tiles: list[TileDraw] = []
    pieces: list[PieceDraw] = []
    hx = layout.hex
    bag_col = (150, 118, 84)

    # --- land tiles and members ---------------------------------------------------------------
    for seat, st in enumerate(model.seats):
        col = colours[st.colour]
        for h in sorted(st.land):
            t = st.land[h]
            c = layout.hex_center(seat, h)
            u = uniforms(seed, "land", seat, h)
            c = (c[0] + (u[0] - 0.5) * 1.2, c[1] + (u[1] - 0.5) * 1.2)
            rot = layout.hex_rotation(seat) + (u[2] - 0.5) * 4.0
            tiles.append(
                TileDraw(
                    "exhausted" if t.exhausted else f"resource-{t.resource}", c, rot, "hex", (hx.flat_to_flat, 0.0)
                )
            )
            if piles == "varied" and t.members >= 2:
                _, spots = arranged_members(seed, seat, h, t.members, hx.radius)
                leans = member_leans(seed, seat, h, spots, hx.radius)
                for k, ((off, lift), lean) in enumerate(zip(spots, leans, strict=True)):
                    v = uniforms(seed, "member", seat, h, k)
                    p = (c[0] + off[0], c[1] + off[1])
                    if lean is None:
                        pieces.append(PieceDraw("meeple", seat, col, p, v[2] * 360.0, "member", (h, k), lift))
                    else:
                        yaw = lean_yaw(v[2] * 360.0, lean.direction)
                        pieces.append(
                            PieceDraw("meeple", seat, col, p, yaw, "member", (h, k), lift, lean.tilt, lean.direction)
                        )
                continue
            for k in range(t.members):
                v = uniforms(seed, "member", seat, h, k)
                off = member_offset(k, hx.radius)
                p = (c[0] + off[0] + (v[0] - 0.5) * 3.0, c[1] + off[1] + (v[1] - 0.5) * 3.0)
                pieces.append(PieceDraw("meeple", seat, col, p, v[2] * 360.0, "member", (h, k)))
        # supply: members, stones and the arrow token not in play
        sc, sr = layout.seats[seat].supply_center, layout.seats[seat].supply_radius
        cap = 32
        for k in range(st.supply):
            v = uniforms(seed, "supply", seat, k)
            off = spiral(2 * k, sr - 9, cap)
            pieces.append(PieceDraw("meeple", seat, col, add(sc, off), v[2] * 360.0, "supply", (k,)))
        for k in range(st.stones):
            v = uniforms(seed, "stone-supply", seat, k)
            off = spiral(2 * k + 1, sr - 8, cap)
            pieces.append(PieceDraw("stone", seat, col, add(sc, off), v[2] * 360.0, "supply-stone", (k,)))
        if st.arrow:
            a = rotate((0.0, sr + 4.0), layout.seats[seat].rotation + 35.0)
            pieces.append(PieceDraw("arrow", seat, col, add(sc, a), layout.seats[seat].rotation - 90.0, "supply-arrow"))
        # shells
        shc, shr = layout.seats[seat].shells_center, layout.seats[seat].shells_radius
        for k in range(st.shells):
            v = uniforms(seed, "shell", seat, k)
            pieces.append(
                PieceDraw("shell", seat, shell_colour, add(shc, spiral(k, shr - 6, 14)), v[0] * 360.0, "shell", (k,))
            )
        # track markers
        for ti, track in enumerate(("offspring", "movement", "exploration", "strength")):
            if st.tracks[ti] < 0:  # in a hand
                continue
            p = layout.track_marker(track, st.tracks[ti], model.track_spaces[ti], seat)
            pieces.append(PieceDraw("marker", seat, col, p, 0.0, "track", (track,)))

    for seat, drawn in model.drawn.items():
        for k, res in enumerate(drawn):
            c = drawn_position(layout, seat, k, len(drawn))
            tiles.append(TileDraw(f"resource-{res}", c, layout.hex_rotation(seat) + 8.0, "hex", (hx.flat_to_flat, 0.0)))

    # --- action row ---------------------------------------------------------------------------
    for i, item in enumerate(model.row):
        c = layout.row_position(item.place)
        u = uniforms(seed, "row", item.tile)
        c = (c[0] + (u[0] - 0.5) * 2.0, c[1] + (u[1] - 0.5) * 2.0)
        rot = layout.row_rotation + (u[2] - 0.5) * 5.0
        size = layout.event_size if item.event else layout.action_size
        tiles.append(TileDraw(f"event-{item.tile}" if item.event else f"action-{item.tile}", c, rot, "rect", size))
        for k in range(item.shells):
            v = uniforms(seed, "row-shell", item.tile, k)
            off = rotate(((k % 3 - 1) * 11.0 + (v[0] - 0.5) * 3, (k // 3 - 0.5) * 12.0 + (v[1] - 0.5) * 3), rot)
            pieces.append(PieceDraw("shell", -1, shell_colour, add(c, off), v[2] * 360.0, "row-shell", (i, k)))

    # --- achievement board --------------------------------------------------------------------
    for era in (1, 2, 3):
        for col_i in range(4):
            b = model.board[era - 1][col_i]
            c = layout.board_tile(era, col_i)
            u = uniforms(seed, "board", era, col_i)
            rot = layout.board_rotation + (u[2] - 0.5) * 3.0
            face = f"achievement-{b.tile}" if b.tile else f"achievement-back-{era}"
            tiles.append(
                TileDraw(face, (c[0] + (u[0] - 0.5), c[1] + (u[1] - 0.5)), rot, "rect", layout.achievement_size)
            )
            for k, owner in enumerate(b.stones):
                p = layout.stone_slot(era, col_i, k)
                pieces.append(
                    PieceDraw("stone", owner, colours[model.seats[owner].colour], p, 0.0, "stone", (era, col_i, k))
                )
    for a in model.arrows:
        c, ang = layout.arrow_position(a.lower, a.upper)
        pieces.append(
            PieceDraw("arrow", a.owner, colours[model.seats[a.owner].colour], c, ang, "arrow", (a.lower, a.upper))
        )
    for e in range(3):
        if model.stacks[e] > 0:
            back = f"event-back-{e + 1}"
            layers = min(model.stacks[e], 8)
            tiles.append(
                TileDraw(back, layout.event_stacks[e], layout.board_rotation, "rect", layout.event_size, layers)
            )
    if model.discard > 0 and model.discard_top:
        face = f"event-{model.discard_top}"
        layers = min(model.discard, 8)
        tiles.append(TileDraw(face, layout.discard, layout.board_rotation + 4.0, "rect", layout.event_size, layers))
    # bag and the common shell supply
    if model.bag > 0:
        pieces.append(PieceDraw("bag", -1, bag_col, layout.bag, 20.0, "bag"))
    for k in range(model.shell_supply):
        v = uniforms(seed, "shell-supply", k)
        p = add(layout.shell_supply, spiral(k, layout.shell_supply_radius - 6, 20))
        pieces.append(PieceDraw("shell", -1, shell_colour, p, v[0] * 360.0, "shell-supply", (k,)))
    return Scene(tiles, pieces)
