"""Drawing the flat things on the top-down canvas: table surface, markers, reference patch, tiles.

Markers and the patch are printed paper: each is drawn at 4x resolution from its exact corners and
area-averaged down, so its edges sit within about 1/8 canvas pixel of the layout's millimetres.
Tiles are card 2 mm thick: each face image is warped into place (rotated, with a hexagonal or
rectangular outline), above a darker band for the card's edge and a thin shadow.
"""

from __future__ import annotations

import math
from collections import OrderedDict

import cv2
import numpy as np

from games.tribes.sim.packs import face
from games.tribes.sim.scene import TileDraw
from games.tribes.vision.artpack import ArtPack
from games.tribes.vision.layout import SQRT3, Layout
from sim.camera import Camera
from sim.lighting import Light
from sim.textures import table_texture
from sim.warp import Canvas
from vision.layout import Point, rect_corners, rotate
from vision.markers import marker_cells

SHIFT = 4
ONE = 1 << SHIFT
TILE_THICKNESS = 2.0
SUPERSAMPLE = 4


def _fill(img: np.ndarray, pts: np.ndarray, colour: float | tuple[float, ...]) -> None:
    cv2.fillConvexPoly(img, np.round(pts * ONE).astype(np.int32), colour, cv2.LINE_AA, SHIFT)


def draw_paper(
    image: np.ndarray,
    canvas: Canvas,
    corners_mm: list[Point],
    cells: np.ndarray | None,
    grey: int = 246,
    tones: list[tuple[list[Point], int]] | None = None,
) -> None:
    """Draw printed paper with exact edges: the sheet (``corners_mm``) and either a marker's
    ``cells`` (filling the sheet's inner square, one quiet cell around) or grey ``tones`` fields."""
    pts = canvas.to_px(np.array(corners_mm))
    pad = 2
    x0 = max(math.floor(pts[:, 0].min()) - pad, 0)
    y0 = max(math.floor(pts[:, 1].min()) - pad, 0)
    x1 = min(math.ceil(pts[:, 0].max()) + pad + 1, image.shape[1])
    y1 = min(math.ceil(pts[:, 1].max()) + pad + 1, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    k = SUPERSAMPLE
    region = image[y0:y1, x0:x1]
    big = cv2.resize(region, ((x1 - x0) * k, (y1 - y0) * k), interpolation=cv2.INTER_NEAREST)

    def to_big(p: np.ndarray) -> np.ndarray:
        return (p - [x0, y0] + 0.5) * k - 0.5

    _fill(big, to_big(pts), (grey, grey, grey))
    if cells is not None:
        n = cells.shape[0]
        c = np.array(corners_mm)
        # the marker occupies the inner n/(n+2) of the sheet
        origin = c[0]
        ex = (c[1] - c[0]) / (n + 2)
        ey = (c[3] - c[0]) / (n + 2)
        for r in range(n):
            for q in range(n):
                if cells[r, q] == 0:
                    tl = origin + ex * (q + 1) + ey * (r + 1)
                    quad = np.array([tl, tl + ex, tl + ex + ey, tl + ey])
                    _fill(big, to_big(canvas.to_px(quad)), (18, 18, 18))
    for quad_mm, g in tones or []:
        _fill(big, to_big(canvas.to_px(np.array(quad_mm))), (g, g, g))
    region[:] = cv2.resize(big, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)


def marker_sheet_corners(layout: Layout, index: int) -> list[Point]:
    """Corners (mm) of the paper a marker is printed on: the marker plus one quiet cell around it."""
    m = layout.markers[index]
    n = marker_cells(layout.dictionary, m.id).shape[0]
    side = m.size * (n + 2) / n
    return rect_corners(m.center, (side, side), m.rotation)


FLOOR_BGR = (38, 42, 46)
"""Colour seen beyond the table's edge (the floor, far below and out of focus)."""


def static_layer(layout: Layout, canvas: Canvas, texture: str, seed: int, margin: float = 150.0) -> np.ndarray:
    """Table surface (the play area plus ``margin`` mm, then the floor) with the markers and the
    reference patch (BGR uint8)."""
    w, h = layout.table
    reach = margin + 120.0
    img = table_texture(texture, canvas, seed, (-reach, -reach, w + reach, h + reach))
    (ex0, ey0), (ex1, ey1) = canvas.to_px(np.array([[-margin, -margin], [w + margin, h + margin]])) + 0.5
    ix0, iy0 = max(round(ex0), 0), max(round(ey0), 0)
    ix1, iy1 = min(round(ex1), canvas.width), min(round(ey1), canvas.height)
    rim = max(1, round(4 * canvas.scale))
    edge = img[iy0:iy1, ix0:ix1]
    # a darker band along the table's edge
    for sl in (np.s_[:rim, :], np.s_[-rim:, :], np.s_[:, :rim], np.s_[:, -rim:]):
        band = edge[sl]
        band[:] = (band.astype(np.uint16) * 160 >> 8).astype(np.uint8)
    floor = np.array(FLOOR_BGR, np.uint8)
    img[:iy0] = floor
    img[iy1:] = floor
    img[:, :ix0] = floor
    img[:, ix1:] = floor
    for i, m in enumerate(layout.markers):
        draw_paper(img, canvas, marker_sheet_corners(layout, i), marker_cells(layout.dictionary, m.id))
    p = layout.patch
    margin = 3.0
    sheet = rect_corners(p.center, (p.size[0] + 2 * margin, p.size[1] + 2 * margin), p.rotation)
    tones = [(p.tone_corners(i), t.grey) for i, t in enumerate(p.tones)]
    draw_paper(img, canvas, sheet, None, 246, tones)
    return img


class TileDrawer:
    """Draws tiles from an art pack; keeps face images resized for the canvas scale (LRU)."""

    def __init__(self, pack: ArtPack, capacity: int = 512) -> None:
        self.pack = pack
        self.capacity = capacity
        self._sized: OrderedDict[tuple[str, int, int], np.ndarray] = OrderedDict()

    def face(self, key: str, w: int, h: int) -> np.ndarray:
        """Face ``key`` resized to about ``w`` x ``h`` pixels (area-averaged)."""
        ck = (key, w, h)
        img = self._sized.get(ck)
        if img is None:
            src = face(self.pack, key)
            img = cv2.resize(src, (max(w, 2), max(h, 2)), interpolation=cv2.INTER_AREA)
            self._sized[ck] = img
            while len(self._sized) > self.capacity:
                self._sized.popitem(last=False)
        else:
            self._sized.move_to_end(ck)
        return img

    def outline(self, tile: TileDraw) -> np.ndarray:
        """The tile's corners in mm (hexagon: 6, rectangle: 4)."""
        if tile.shape == "hex":
            r = tile.size[0] / SQRT3
            pts = [
                rotate((r * math.cos(math.radians(60 * k)), r * math.sin(math.radians(60 * k))), tile.rotation)
                for k in range(6)
            ]
        else:
            w, h = tile.size
            pts = [
                rotate(p, tile.rotation) for p in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
            ]
        return np.array(pts) + tile.center

    def draw(
        self,
        image: np.ndarray,
        canvas: Canvas,
        camera: Camera,
        light: Light,
        tiles: list[TileDraw],
        lift: float = 0.0,
        shadow_colour: tuple[float, float, float] | None = None,
    ) -> None:
        """Each tile: edge band, then face; ``lift`` raises them (a tile in a hand). With ``shadow_colour``
        a hard shadow is drawn first (tiles in a hand); on the table, :meth:`shadow_polygons` feed the
        soft shadow pass instead."""
        nadir = np.array(camera.nadir)
        hc = camera.height_mm
        step = light.shadow_step

        def lean(p: np.ndarray, z: float) -> np.ndarray:
            return p + (p - nadir) * (z / (hc - z))

        outlines = [self.outline(t) for t in tiles]
        if light.shadow > 0 and shadow_colour is not None:
            for t, base in zip(tiles, outlines, strict=True):
                sh = canvas.to_px(base + step * (TILE_THICKNESS * t.layers + lift))
                _fill(image, sh, shadow_colour)
        for t, base in zip(tiles, outlines, strict=True):
            thick = TILE_THICKNESS * t.layers
            bottom_px = canvas.to_px(lean(base, lift))
            top_px = canvas.to_px(lean(base, thick + lift))
            edge = cv2.convexHull(np.round(np.vstack([bottom_px, top_px]) * ONE).astype(np.int32))
            cv2.fillConvexPoly(image, edge, (70, 84, 96), cv2.LINE_AA, SHIFT)
            self._face(image, canvas, t, top_px, lean(np.array([t.center]), thick + lift)[0])

    def shadow_polygons(
        self, canvas: Canvas, light: Light, tiles: list[TileDraw]
    ) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Fixed-point canvas polygons of the tiles' shadows and of the tiles' own outlines (the
        shadow of a 2 mm card falls on the table, not on its neighbours)."""
        step = light.shadow_step
        shadows, tops = [], []
        for t in tiles:
            base = self.outline(t)
            shadows.append(np.round(canvas.to_px(base + step * TILE_THICKNESS * t.layers) * ONE).astype(np.int32))
            tops.append(np.round(canvas.to_px(base) * ONE).astype(np.int32))
        return shadows, tops

    def _face(self, image: np.ndarray, canvas: Canvas, t: TileDraw, top_px: np.ndarray, center_mm: np.ndarray) -> None:
        region = _bbox(top_px, image.shape)
        if region is None:
            return
        x0, y0, x1, y1 = region
        s = canvas.scale
        if t.shape == "hex":
            wmm, hmm = 2 * t.size[0] / SQRT3, t.size[0]
        else:
            wmm, hmm = t.size
        fw, fh = max(round(wmm * s * 1.5), 4), max(round(hmm * s * 1.5), 4)
        face = self.face(t.face, fw, fh)
        # affine: face pixel (u, v) -> local mm -> canvas px (rotation, scale, translation)
        c = canvas.to_px(center_mm[None])[0]
        a = math.radians(t.rotation)
        ca, sa = math.cos(a), math.sin(a)
        kx, ky = wmm / fw * s, hmm / fh * s
        m = np.array([[ca * kx, -sa * ky, 0.0], [sa * kx, ca * ky, 0.0]])
        m[:, 2] = c - m[:, :2] @ np.array([(fw - 1) / 2, (fh - 1) / 2]) - [x0, y0]
        sub = image[y0:y1, x0:x1]
        warped = cv2.warpAffine(face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        local = np.round((top_px - [x0, y0]) * ONE).astype(np.int32)
        cv2.fillConvexPoly(mask, local, 255, cv2.LINE_8, SHIFT)
        cv2.copyTo(warped, mask, sub)
        # anti-aliased rim: the card's cut edge
        cv2.polylines(sub, [local], True, (58, 66, 74), 1, cv2.LINE_AA, SHIFT)


def _bbox(pts: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    x0 = max(math.floor(pts[:, 0].min()) - 1, 0)
    y0 = max(math.floor(pts[:, 1].min()) - 1, 0)
    x1 = min(math.ceil(pts[:, 0].max()) + 2, shape[1])
    y1 = min(math.ceil(pts[:, 1].max()) + 2, shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1
