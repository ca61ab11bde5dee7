"""Wooden pieces drawn on the top-down canvas so that the camera sees them in 3-D.

Each piece is a union of small convex solids (a meeple: two legs, torso, arms and head, each a slab
8 mm thick; a stone: a disc; a progress marker: a cube; a shell: a domed oval; an arrow token: shaft
and head; the bag: a cloth dome). A point ``z`` mm above table point ``p`` is drawn where the camera
ray through it meets the table (:meth:`vision.camera.Camera.lean`), so after the one perspective
warp every vertex lands exactly where a real camera would see it. Each solid is filled as the convex
hull of its projected vertices (sides), then its top and the face turned to the camera, each
shaded by the light (ambient + Lambert); pieces are drawn far-to-near from the camera so nearer
ones cover farther ones, and a piece lying on another (its ``lift``) after the one below it. A
leaning piece (:attr:`PieceDraw.lean` degrees towards :attr:`PieceDraw.lean_dir`) is the same solids
turned about the edge of its foot on that side (:func:`tilt_vertices`), so the camera sees it
foreshortened and its top shifted, at 90 degrees lying on the table; its faces are shaded and
chosen by their turned normals, and it is ordered by the middle of its turned footprint.
Shadows are the same solids projected along the light onto the table, accumulated in one mask,
blurred (soft edges) and multiplied in before the pieces are drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from games.tribes.sim.scene import PieceDraw, uniforms
from sim.camera import Camera
from sim.lighting import Light
from sim.warp import Canvas

SHIFT = 4
ONE = 1 << SHIFT

HEIGHTS = {"meeple": 16.0, "stone": 7.0, "marker": 8.0, "shell": 6.0, "arrow": 4.0, "bag": 60.0}
"""Heights of the pieces (mm)."""


@dataclass(frozen=True)
class Solid:
    """A convex solid in piece coordinates (x along the piece's yaw, y across, z up, mm).

    ``top`` and ``front`` index the vertices of its top face and of its two broad faces (for slabs:
    the faces at y = +t/2 and y = -t/2); ``shade`` scales its colour (e.g. darker head band)."""

    verts: np.ndarray
    top: tuple[int, ...]
    fronts: tuple[tuple[int, ...], tuple[int, ...]] | None
    shade: float = 1.0


def _prism(poly: list[tuple[float, float]], z0: float, z1: float, top_scale: float = 1.0) -> Solid:
    p = np.array(poly, np.float64)
    n = len(p)
    bottom = np.column_stack([p, np.full(n, z0)])
    top = np.column_stack([p * top_scale, np.full(n, z1)])
    return Solid(np.vstack([bottom, top]), tuple(range(n, 2 * n)), None)


def _slab(poly_xz: list[tuple[float, float]], thick: float, shade: float = 1.0, top: bool = True) -> Solid:
    p = np.array(poly_xz, np.float64)
    n = len(p)
    front = np.column_stack([p[:, 0], np.full(n, thick / 2), p[:, 1]])
    back = np.column_stack([p[:, 0], np.full(n, -thick / 2), p[:, 1]])
    zmax = p[:, 1].max()
    top_idx = [i for i in range(n) if p[i, 1] >= zmax - 1e-6]
    top = tuple(top_idx + [n + i for i in reversed(top_idx)]) if len(top_idx) >= 2 and top else ()
    return Solid(np.vstack([front, back]), top, (tuple(range(n)), tuple(range(n, 2 * n))), shade)


def _circle(r: float, n: int = 14, sx: float = 1.0, sy: float = 1.0) -> list[tuple[float, float]]:
    return [(r * sx * math.cos(2 * math.pi * k / n), r * sy * math.sin(2 * math.pi * k / n)) for k in range(n)]


@cache
def solids(kind: str) -> tuple[Solid, ...]:
    """The convex solids making up a piece of ``kind``."""
    if kind == "meeple":
        t = 8.0
        return (
            # legs and torso: their tops lie inside the torso and arms, so they are never seen
            _slab([(-7.6, 0), (-1.4, 0), (-1.2, 7.2), (-4.8, 7.6)], t, top=False),
            _slab([(1.4, 0), (7.6, 0), (4.8, 7.6), (1.2, 7.2)], t, top=False),
            _slab([(-4.9, 6.8), (4.9, 6.8), (3.8, 12.0), (-3.8, 12.0)], t, top=False),
            _slab([(-8.0, 9.6), (8.0, 9.6), (7.4, 12.2), (-7.4, 12.2)], t),
            _slab(
                [(-2.6, 12.0), (2.6, 12.0), (2.9, 13.6), (2.0, 15.6), (0, 16.2), (-2.0, 15.6), (-2.9, 13.6)], t * 0.92
            ),
        )
    if kind == "stone":
        return (_prism(_circle(7.0, 16), 0, 7.0),)
    if kind == "marker":
        return (_prism([(-4, -4), (4, -4), (4, 4), (-4, 4)], 0, 8.0),)
    if kind == "shell":
        return (_prism(_circle(8.0, 12, 1.0, 0.68), 0, 3.0), _prism(_circle(7.0, 12, 1.0, 0.6), 3.0, 6.0, 0.7))
    if kind == "arrow":
        return (
            _prism([(-14, -3), (2, -3), (2, 3), (-14, 3)], 0, 4.0),
            _prism([(0, -7), (14, 0), (0, 7)], 0, 4.0),
        )
    if kind == "bag":
        blob = [
            (45 * (1 + 0.08 * math.sin(3 * a)) * math.cos(a), 40 * (1 + 0.08 * math.cos(2 * a)) * math.sin(a))
            for a in np.linspace(0, 2 * math.pi, 18, endpoint=False)
        ]
        return (
            _prism(blob, 0, 35.0, 0.72),
            _prism([(x * 0.72, y * 0.72) for x, y in blob], 35.0, 52.0, 0.35),
            _prism(_circle(9.0, 10), 52.0, 62.0, 1.3),
        )
    raise ValueError(f"unknown piece kind {kind!r}")


def _wood(colour: tuple[int, int, int], u: float) -> np.ndarray:
    """BGR float base colour with a little per-piece variation (wood is not uniform)."""
    r, g, b = colour
    f = 0.94 + 0.12 * u
    return np.array([b, g, r], np.float64) * f


def _tilt_axes(piece: PieceDraw) -> tuple[float, float, float, float]:
    """cos and sin of a piece's lean and the unit table direction (dx, dy) its top falls towards."""
    t, d = math.radians(piece.lean), math.radians(piece.lean_dir)
    return math.cos(t), math.sin(t), math.cos(d), math.sin(d)


def tilt_vertices(world: np.ndarray, piece: PieceDraw) -> np.ndarray:
    """World vertices (M x 3, upright, on the table) of ``piece`` turned by its lean about the edge of
    its foot farthest along :attr:`PieceDraw.lean_dir` (the edge it tips over), nothing below the table."""
    ct, st, dx, dy = _tilt_axes(piece)
    rx, ry = world[:, 0] - piece.center[0], world[:, 1] - piece.center[1]
    a = rx * dx + ry * dy  # along the fall
    b = -rx * dy + ry * dx  # across it
    z = world[:, 2]
    foot = z <= z.min() + 1e-6
    a0 = float(a[foot].max())
    ar = a - a0
    a2 = a0 + ar * ct + z * st
    z2 = -ar * st + z * ct
    return np.column_stack([piece.center[0] + a2 * dx - b * dy, piece.center[1] + a2 * dy + b * dx, z2])


def tilt_vector(v: np.ndarray, piece: PieceDraw) -> np.ndarray:
    """A direction (x, y, up) of ``piece`` upright turned with it by its lean (for normals)."""
    ct, st, dx, dy = _tilt_axes(piece)
    a, b = v[0] * dx + v[1] * dy, -v[0] * dy + v[1] * dx
    a2, z2 = a * ct + v[2] * st, -a * st + v[2] * ct
    return np.array([a2 * dx - b * dy, a2 * dy + b * dx, z2])


@dataclass
class _Group:
    """All pieces of one kind, with their solids' vertices computed at once."""

    kind: str
    pieces: list[PieceDraw]
    world: np.ndarray  # (P, M, 3) x, y, z up
    px: np.ndarray  # (P, M, 2) int32 fixed-point canvas coordinates as seen by the camera
    shadow: np.ndarray  # (P, M, 2) int32 fixed-point canvas coordinates of the shadow


@cache
def _kind_vertices(kind: str) -> tuple[np.ndarray, tuple[tuple[int, int], ...]]:
    """All solids of ``kind`` stacked (M x 3) and each solid's (start, end) rows."""
    parts = solids(kind)
    spans = []
    start = 0
    for sol in parts:
        spans.append((start, start + len(sol.verts)))
        start += len(sol.verts)
    return np.vstack([sol.verts for sol in parts]), tuple(spans)


class PieceRenderer:
    """Draws pieces and their shadows on a canvas for one camera and light."""

    def __init__(self, camera: Camera, canvas: Canvas, light: Light, seed: int = 0) -> None:
        self.camera = camera
        self.canvas = canvas
        self.light = light
        self.seed = seed
        self.nadir = np.array(camera.nadir)
        self.height = camera.height_mm
        self.ldir = light.direction
        self.shadow_step = light.shadow_step

    # --- geometry -------------------------------------------------------------------------------
    def world_vertices(self, pieces: list[PieceDraw], lift: float = 0.0) -> np.ndarray:
        """World vertices (x, y, z up; mm) of pieces all of one kind: array (P, M, 3); each piece is
        turned by its lean (:func:`tilt_vertices`), then raised by ``lift`` plus its own
        :attr:`PieceDraw.lift` (a piece lying on another one)."""
        verts, _ = _kind_vertices(pieces[0].kind)
        yaw = np.radians([p.yaw for p in pieces])
        c, s = np.cos(yaw)[:, None], np.sin(yaw)[:, None]
        centres = np.array([p.center for p in pieces], np.float64)
        x = c * verts[None, :, 0] - s * verts[None, :, 1] + centres[:, 0:1]
        y = s * verts[None, :, 0] + c * verts[None, :, 1] + centres[:, 1:2]
        own = np.array([p.lift for p in pieces], np.float64)[:, None]
        z = np.broadcast_to(verts[None, :, 2] + lift + own, x.shape)
        world = np.stack([x, y, z], axis=-1)
        for i, p in enumerate(pieces):
            if p.lean:
                up = np.column_stack([x[i], y[i], verts[:, 2]])
                world[i] = tilt_vertices(up, p) + np.array([0.0, 0.0, lift + p.lift])
        return world

    def to_canvas(self, world: np.ndarray) -> np.ndarray:
        """Canvas coordinates of world vertices (..., 3) as the camera sees them (leaned onto the plane)."""
        z = np.minimum(world[..., 2], self.height * 0.9)
        xy = world[..., :2] + (world[..., :2] - self.nadir) * (z / (self.height - z))[..., None]
        return self.canvas.to_px(xy)

    def shadow_canvas(self, world: np.ndarray) -> np.ndarray:
        """Canvas coordinates of the vertices' shadows on the table."""
        return self.canvas.to_px(world[..., :2] + world[..., 2:3] * self.shadow_step)

    def groups(self, pieces: list[PieceDraw], lift: float = 0.0) -> list[_Group]:
        """Pieces grouped by kind with all their geometry computed in a few array operations."""
        by_kind: dict[str, list[PieceDraw]] = {}
        for p in pieces:
            by_kind.setdefault(p.kind, []).append(p)
        out = []
        for kind, ps in by_kind.items():
            world = self.world_vertices(ps, lift)
            px = np.round(self.to_canvas(world) * ONE).astype(np.int32)
            sh = np.round(self.shadow_canvas(world) * ONE).astype(np.int32)
            out.append(_Group(kind, ps, world, px, sh))
        return out

    def boxes(self, pieces: list[PieceDraw]) -> list[tuple[float, float, float, float]]:
        """Image boxes (x0, y0, x1, y1) of pieces as the camera sees them (one projection call)."""
        if not pieces:
            return []
        index = []
        chunks = []
        for g in self.groups(pieces):
            m = g.world.shape[1]
            chunks.append(g.world.reshape(-1, 3))
            index.extend((id(piece), m) for piece in g.pieces)
        allw = np.vstack(chunks)
        px = self.camera.project(allw[:, :2], allw[:, 2])
        boxes: dict[int, tuple[float, float, float, float]] = {}
        pos = 0
        for key, m in index:
            q = px[pos : pos + m]
            boxes[key] = (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))
            pos += m
        return [boxes[id(p)] for p in pieces]

    def order(self, items: list[tuple[PieceDraw, _Group, int]]) -> list[tuple[PieceDraw, _Group, int]]:
        """Far-to-near from the camera's foot point (nearer pieces drawn later, on top); a lifted piece
        counts as nearer by its lift (mm), so one lying on another is drawn after it; a leaning one
        stands at the middle of its turned footprint."""
        nx, ny = self.nadir
        if any(t[0].lean for t in items):

            def where(t: tuple[PieceDraw, _Group, int]) -> tuple[float, float]:
                if not t[0].lean:
                    return t[0].center
                w = t[1].world[t[2]]
                return float(w[:, 0].mean()), float(w[:, 1].mean())

            return sorted(items, key=lambda t: t[0].lift - math.hypot(where(t)[0] - nx, where(t)[1] - ny))
        if any(t[0].lift for t in items):
            return sorted(items, key=lambda t: t[0].lift - math.hypot(t[0].center[0] - nx, t[0].center[1] - ny))
        return sorted(items, key=lambda t: -((t[0].center[0] - nx) ** 2 + (t[0].center[1] - ny) ** 2))

    # --- drawing --------------------------------------------------------------------------------
    def shadows(
        self,
        image: np.ndarray,
        pieces: list[PieceDraw],
        groups: list[_Group] | None = None,
        under: list[np.ndarray] = (),
        erase: list[np.ndarray] = (),
    ) -> None:  # type: ignore[assignment]
        """Darken ``image`` (in place) by the soft shadows of ``pieces``; ``under`` adds more shadow
        polygons (fixed-point canvas coordinates) drawn first, ``erase`` clears polygons after them
        (tiles' shadows do not fall on the tiles themselves)."""
        if self.light.shadow <= 0 or (not pieces and not under):
            return
        groups = groups if groups is not None else (self.groups(pieces) if pieces else [])
        h, w = image.shape[:2]
        chunks = [g.shadow.reshape(-1, 2) for g in groups] + [p.reshape(-1, 2) for p in under]
        allpts = np.concatenate(chunks) / ONE
        pad = int(self.light.softness * self.canvas.scale * 3) + 4
        x0 = max(int(allpts[:, 0].min()) - pad, 0)
        y0 = max(int(allpts[:, 1].min()) - pad, 0)
        x1 = min(int(allpts[:, 0].max()) + pad + 1, w)
        y1 = min(int(allpts[:, 1].max()) + pad + 1, h)
        if x1 <= x0 or y1 <= y0:
            return
        # the mask at half resolution: shadows are soft, and this quarters the work
        f = 2
        mw, mh = (x1 - x0 + f - 1) // f, (y1 - y0 + f - 1) // f
        mask = np.zeros((mh, mw), np.uint8)
        off = np.array([x0, y0]) * ONE
        for p in under:
            cv2.fillConvexPoly(mask, (p.reshape(-1, 2) - off) // f, 255, cv2.LINE_AA, SHIFT)
        for p in erase:
            cv2.fillConvexPoly(mask, (p.reshape(-1, 2) - off) // f, 0, cv2.LINE_AA, SHIFT)
        for g in groups:
            # one hull per piece: the blur hides the gaps a hull fills (between a meeple's legs)
            pts = (g.shadow - off) // f
            for i in range(len(g.pieces)):
                cv2.fillConvexPoly(mask, cv2.convexHull(pts[i]), 255, cv2.LINE_AA, SHIFT)
        soft = self.light.softness * self.canvas.scale / f
        if soft > 0.3:
            mask = cv2.GaussianBlur(mask, (0, 0), soft)
        mask = cv2.multiply(mask, self.light.shadow, dtype=cv2.CV_8U)
        mask = cv2.resize(mask, (mw * f, mh * f), interpolation=cv2.INTER_LINEAR)[: y1 - y0, : x1 - x0]
        region = image[y0:y1, x0:x1]
        factor = cv2.merge([mask, mask, mask])
        cv2.subtract(region, cv2.multiply(region, factor, scale=1 / 255), dst=region)

    def brightness(self, normal: np.ndarray) -> float:
        """Ambient + diffuse shading for a unit normal (x, y, up)."""
        lam = max(0.0, float(normal @ self.ldir))
        return self.light.ambient + (1.0 - self.light.ambient) * 1.15 * lam

    def draw(
        self, image: np.ndarray, pieces: list[PieceDraw], lift: float = 0.0, groups: list[_Group] | None = None
    ) -> None:
        """Draw ``pieces`` (in place), far to near; ``lift`` raises them (a piece held in a hand)."""
        if not pieces:
            return
        groups = groups if groups is not None else self.groups(pieces, lift)
        top_b = self.brightness(np.array([0.0, 0.0, 1.0]))
        items = [(p, g, i) for g in groups for i, p in enumerate(g.pieces)]
        for piece, g, i in self.order(items):
            u = uniforms(self.seed, "wood", piece.role, piece.center)
            base = _wood(piece.colour, u[0])
            tx, ty = self.nadir[0] - piece.center[0], self.nadir[1] - piece.center[1]
            dist = math.hypot(tx, ty)
            side_n = np.array([tx / dist, ty / dist, 0.0]) if dist > 1e-6 else np.array([0.0, 1.0, 0.0])
            side_b = 0.5 * (self.brightness(side_n) + top_b) * 0.7
            yaw = math.radians(piece.yaw)
            ax, ay = -math.sin(yaw), math.cos(yaw)  # +y of the piece (a slab's front normal)
            if piece.lean:  # the turned faces: the one whose normal points to the camera is seen
                nf = tilt_vector(np.array([ax, ay, 0.0]), piece)
                mid = g.world[i].mean(axis=0)
                facing = float(nf @ (np.array([self.nadir[0], self.nadir[1], self.height]) - mid)) >= 0
                front_b = self.brightness(nf if facing else -nf)
                top_c = _clip(base * self.brightness(tilt_vector(np.array([0.0, 0.0, 1.0]), piece)))
            else:
                facing = ax * tx + ay * ty >= 0
                front_b = self.brightness(np.array([ax, ay, 0.0]) if facing else np.array([-ax, -ay, 0.0]))
                top_c = _clip(base * top_b)
            px = g.px[i]
            _, spans = _kind_vertices(g.kind)
            parts = list(zip(solids(g.kind), spans, strict=True))
            side_c, front_c = _clip(base * side_b), _clip(base * front_b)
            slabs = parts[0][0].fronts is not None
            # sides of every solid, then their tops (low to high), then (slabs) the faces turned to the camera
            for solid, (a, b) in parts:
                pts = px[a:b]
                cv2.fillConvexPoly(image, cv2.convexHull(pts), side_c, cv2.LINE_AA, SHIFT)
                if not slabs and solid.top:
                    cv2.fillConvexPoly(image, pts[list(solid.top)], top_c, cv2.LINE_AA, SHIFT)
            if slabs:
                for solid, (a, b) in parts:
                    if solid.top:
                        cv2.fillConvexPoly(image, px[a:b][list(solid.top)], top_c, cv2.LINE_AA, SHIFT)
                faces = [px[a:b][list(solid.fronts[0 if facing else 1])] for solid, (a, b) in parts]  # type: ignore[index]
                for f in faces:
                    cv2.fillConvexPoly(image, f, front_c, cv2.LINE_AA, SHIFT)
                cv2.polylines(image, faces, True, _clip(base * front_b * 0.7), 1, cv2.LINE_AA, SHIFT)
            if g.kind == "shell":  # the slit of a cowrie shell
                top = self.to_canvas(np.array([piece.center[0], piece.center[1], 6.2 + lift + piece.lift]))
                d = np.array([math.cos(yaw), math.sin(yaw)]) * 4.5 * self.canvas.scale
                p0, p1 = np.round((top - d) * ONE).astype(int), np.round((top + d) * ONE).astype(int)
                cv2.line(
                    image, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), _clip(base * 0.45), 1, cv2.LINE_AA, SHIFT
                )


def _clip(c: np.ndarray) -> tuple[float, float, float]:
    b, g, r = c.tolist()
    return (min(max(b, 0.0), 255.0), min(max(g, 0.0), 255.0), min(max(r, 0.0), 255.0))
