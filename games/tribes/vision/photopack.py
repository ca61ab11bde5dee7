"""Build an art pack from photos of your own tiles (crop + perspective correction).

Print the tile capture sheet (the last page of ``table-companion print-markers``), lay one tile in
its window with the tile's top towards the top of the page, and photograph it from any angle with
all four markers in view. Name each photo after the face it shows (``resource-goat.jpg``,
``exhausted.jpg``, ``action-off.jpg``, ``event-wolves.jpg``, ``achievement-jagen.jpg``, …; the
names are listed by ``table-companion render pack --faces``), or map photo names to faces in a
``manifest.json``::

    {"photos": {"IMG_2231.jpg": {"face": "resource-goat"},
                "IMG_2232.jpg": {"face": "action-off", "corners": [[812, 400], [1230, 410], [1225, 830], [805, 822]]}}}

For each photo the markers give the page plane (a homography from photo pixels to page
millimetres); the page is rectified and white-balanced on the bare paper around the window (per
channel gains that make the paper neutral white, so a warm or cold paper is not taken for tile and
the face keeps no colour cast), the tile is found as the large region that is not white paper
(a tile printed as pale as the paper by its outline instead: its cut edge and the shadow it casts),
and its outline is fitted: a rectangle (action, event and achievement tiles) or a regular hexagon
(landscape tiles). The face is then cut out upright: the tile's rotation is taken to the nearest
upright position (within 45 degrees for rectangles, 30 for hexagons). A photo without the sheet can
give the tile's corners in the manifest instead (4 corners clockwise from the top-left, or 6 for a
hexagon clockwise from its right-hand corner, in photo pixels; no white balance then).

Every cut gets a :class:`FitReport` (coverage, spill onto paper, contrast, size against the
layout's, the gains; verdict ``ok`` or ``doubtful`` with reasons); :func:`build_photo_pack` writes
them to ``report.json`` with a ``contact-sheet.png`` of every cut face. Every photo is tried and
every one that cannot be used is reported together (:class:`vision.errors.PhotoPackErrors`), with
nothing written.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datafile import read_json
from games.tribes.rules.profile import BoxProfile, default_profile
from games.tribes.vision.artpack import (
    HEX_H,
    HEX_W,
    IMAGE_SUFFIXES,
    SQ,
    ArtPack,
    export_pack,
    hex_points,
    optional_faces,
    required_faces,
)
from games.tribes.vision.layout import resolve_layout
from vision.colour import lab
from vision.errors import ImageTooLargeError, PhotoPackError, PhotoPackErrors
from vision.images import read_image
from vision.markers import capture_sheet, detect

RECTIFY_PX_PER_MM = 6.0
REPORT_FORMAT = "tribes-photo-pack-report"
PAPER_WHITE = 255.0
"""Level every channel of the capture paper is brought to by the white balance: unprinted paper is
the white of :mod:`vision.colour`'s normalisation (printed white 255 = 1.0; the reference patch's
white field is printed at 245), so a cut face has the values the table's normalised frames give the
same tile and its enrolled examples match what the camera sees."""
PAGE_MARGIN_MM = 26.0
"""Paper rectified around the window (mm on each side); the white balance samples it."""
EDGE_BAND_MM = 3.0
"""Band along the window's edge ignored when finding the tile (the dashed frame line)."""

# a fit is doubtful outside these bounds (measured on rendered photos, tests/games/tribes/vision/
# test_photopack_fit.py and the evaluation's tile photos: a good cut has coverage >= 0.99, spill up
# to 0.075 for light-edged tiles, size within 3 %, contrast >= 20)
MIN_COVERAGE = 0.96
MAX_SPILL = 0.12
SIZE_TOLERANCE = 0.12
MAX_ASPECT_ERROR = 0.10
MIN_CONTRAST = 12.0
MIN_PAPER_LEVEL = 40.0
CLIPPED_LEVEL = 250.0


@dataclass
class FitReport:
    """How one photo was cut and how sure the cut is.

    ``coverage``: share of the tile mask inside the fitted outline; ``spill``: share of the fitted
    outline that is paper; ``contrast``: mean colour distance (CIE76 ΔE) between the tile and the
    paper; ``size_ratio``: the fitted tile's size over the expected size of that face kind;
    ``paper``: the paper's colour as photographed (BGR, 0-255); ``gains``: the per-channel white
    balance gains applied (BGR); ``outline_mm``: the fitted outline's corners on the rectified window
    (mm from its top-left). Values a cut from manifest corners cannot measure are ``None``."""

    source: str
    face: str
    method: str  # "sheet" or "corners"
    verdict: str = "ok"  # "ok" or "doubtful"
    reasons: list[str] = field(default_factory=list)
    coverage: float | None = None
    spill: float | None = None
    contrast: float | None = None
    size_ratio: float | None = None
    paper: list[float] | None = None
    gains: list[float] | None = None
    outline_mm: list[list[float]] | None = None
    notes: list[str] = field(default_factory=list)

    def doubt(self, reason: str) -> None:
        """Mark the fit doubtful for ``reason``."""
        self.verdict = "doubtful"
        self.reasons.append(reason)

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-ready dict (floats rounded)."""

        def r(x: float | None, nd: int = 3) -> float | None:
            return None if x is None else round(float(x), nd)

        return {
            "photo": self.source,
            "face": self.face,
            "method": self.method,
            "verdict": self.verdict,
            "reasons": list(self.reasons),
            "coverage": r(self.coverage),
            "spill": r(self.spill),
            "contrast": r(self.contrast, 1),
            "size_ratio": r(self.size_ratio),
            "paper_bgr": None if self.paper is None else [round(v, 1) for v in self.paper],
            "gains_bgr": None if self.gains is None else [round(v, 3) for v in self.gains],
            "outline_mm": self.outline_mm,
            "notes": list(self.notes),
        }


@dataclass
class CutFace:
    """A face cut from a photo, and how it was found."""

    key: str
    image: np.ndarray
    source: str
    method: str  # "sheet" or "corners"
    report: FitReport | None = None


def is_hex_face(key: str) -> bool:
    """True for faces of landscape tiles (hexagonal)."""
    return key.startswith("resource-") or key == "exhausted"


def _canonical_corners(key: str) -> np.ndarray:
    if is_hex_face(key):
        return hex_points()  # flat-top, corner 0 on the right, clockwise (y down)
    return np.array([[0, 0], [SQ - 1, 0], [SQ - 1, SQ - 1], [0, SQ - 1]], np.float64)


def _out_size(key: str) -> tuple[int, int]:
    return (HEX_W, HEX_H) if is_hex_face(key) else (SQ, SQ)


def expected_size_mm(key: str, layout: Any = None) -> float:
    """The expected size of face ``key``'s tile (mm): a hexagon's corner-to-corner width, a square
    tile's side; from ``layout`` (default: the shipped layout)."""
    lay = layout if layout is not None else resolve_layout(None)
    if is_hex_face(key):
        return float(lay.hex.flat_to_flat) * 2 / math.sqrt(3)
    if key.startswith("action-"):
        return float(lay.action_size[0])
    if key.startswith("event-"):
        return float(lay.event_size[0])
    return float(lay.achievement_size[0])


def cut_from_corners(photo: np.ndarray, key: str, corners: np.ndarray) -> np.ndarray:
    """The face cut from ``photo`` whose outline corners (photo pixels) are given."""
    dst = _canonical_corners(key)
    src = np.asarray(corners, np.float64).reshape(-1, 2)
    if len(src) != len(dst):
        raise ValueError(f"needs {len(dst)} corners, got {len(src)}")
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise ValueError("the corners do not define a plane")
    return cv2.warpPerspective(photo, h, _out_size(key), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def rectify_page(
    photo: np.ndarray, dictionary: str = "DICT_4X4_50", margin_mm: float = PAGE_MARGIN_MM
) -> tuple[np.ndarray, np.ndarray]:
    """The capture sheet's window and ``margin_mm`` of paper around it seen straight on (at
    RECTIFY_PX_PER_MM), and the homography from photo pixels to those pixels. Raises ValueError
    when fewer than 3 sheet markers are seen."""
    sheet = capture_sheet(dictionary)
    found = detect(photo, dictionary)
    expect = sheet.marker_corners()
    src, dst = [], []
    for mid, corners in expect.items():
        if mid in found:
            src.extend(found[mid])
            dst.extend(corners)
    if len(src) < 12:
        n = len(src) // 4
        raise ValueError(f"found {n} of the capture sheet's 4 markers (ids {sheet.ids[0]}-{sheet.ids[-1]}); need 3")
    h_mm, _ = cv2.findHomography(np.array(src), np.array(dst), 0)
    x, y, w, hgt = sheet.window
    x, y, w, hgt = x - margin_mm, y - margin_mm, w + 2 * margin_mm, hgt + 2 * margin_mm
    k = RECTIFY_PX_PER_MM
    # page mm -> rectified pixels (pixel centres at integers)
    to_px = np.array([[k, 0, -x * k - 0.5], [0, k, -y * k - 0.5], [0, 0, 1]])
    hom = to_px @ h_mm
    size = (round(w * k), round(hgt * k))
    rect = cv2.warpPerspective(photo, hom, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return rect, hom


def paper_mask(
    shape: tuple[int, ...], margin_mm: float = PAGE_MARGIN_MM, dictionary: str = "DICT_4X4_50"
) -> np.ndarray:
    """Pixels of a :func:`rectify_page` image that are bare paper for sure: bands beside the
    window's four sides, clear of the window's frame line, the markers and the "TOP" label."""
    win = capture_sheet(dictionary).window[2]
    hgt, wid = shape[:2]
    out = np.zeros((hgt, wid), bool)
    near, far = 3.0, margin_mm - 2.0  # mm outside the window's edge
    half = 50.0  # mm either side of the side's middle (the markers start 4 mm beyond the window's corners)
    mid = margin_mm + win / 2

    def px(v: float) -> int:
        return _px(v)

    lo_in, hi_in = px(mid - half), px(mid + half)
    bands = [
        (px(margin_mm - far), px(margin_mm - near)),  # before the window
        (px(margin_mm + win + near), px(margin_mm + win + far)),  # after it
    ]
    if far <= near:
        return out
    for a, b in bands:
        out[a:b, lo_in:hi_in] = True  # above / below
        out[lo_in:hi_in, a:b] = True  # left / right
    # the "TOP" label above the window's middle
    a, b = bands[0]
    out[a:b, px(mid - 14) : px(mid + 14)] = False
    return out


def white_balance(page: np.ndarray, paper: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(balanced page, paper colour BGR, gains BGR)``: per-channel gains that bring the paper
    (the ``paper`` pixels, robustly: the median of their brighter 70 %) to PAPER_WHITE, so that a
    tinted or dim paper is neutral white and the tile keeps its own colours."""
    px = page[paper].astype(np.float32)
    if len(px) == 0:
        raise ValueError("no paper around the capture sheet's window is in view")
    lum = px.mean(axis=1)
    bright = px[lum >= np.percentile(lum, 30)]
    colour = np.median(bright, axis=0)
    gains = PAPER_WHITE / np.maximum(colour, 1.0)
    out = np.clip(page.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    return out, colour, gains


def tile_mask(rect: np.ndarray, paper_level: float | None = None) -> np.ndarray:
    """Pixels of the rectified window that are not white paper (the tile), cleaned up.
    ``paper_level``: the paper's brightness (default: the window's 95th percentile)."""
    hsv = cv2.cvtColor(rect, cv2.COLOR_BGR2HSV)
    v = hsv[..., 2].astype(np.float32)
    paper = float(np.percentile(v, 95)) if paper_level is None else paper_level
    # the paper is bright and grey; the tile is darker or coloured
    m = ((v < paper * 0.82) | (hsv[..., 1] > 55)).astype(np.uint8) * 255
    # ignore a thin band along the window's edge (the dashed frame line)
    b = int(RECTIFY_PX_PER_MM * EDGE_BAND_MM)
    m[:b] = 0
    m[-b:] = 0
    m[:, :b] = 0
    m[:, -b:] = 0
    k = np.ones((5, 5), np.uint8)
    closed = cv2.morphologyEx(m, cv2.MORPH_CLOSE, k, iterations=3)
    m = cv2.morphologyEx(closed, cv2.MORPH_OPEN, k, iterations=1)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m)
    if n <= 1 or stats[1:, cv2.CC_STAT_AREA].max() < 0.03 * m.size:
        # nothing big is darker or more coloured than the paper: a pale tile on pale paper, seen only
        # by its outline (the cut edge and the shadow it casts), too thin to survive the opening
        return _outline_fill(closed)
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    out = (labels == best).astype(np.uint8) * 255
    contours, _ = cv2.findContours(out, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(out)
    x, y, w, h = stats[best, :4]
    hull = cv2.convexHull(np.vstack(contours))
    open_edge = min(x, y) <= b + 2 or x + w >= m.shape[1] - b - 2 or y + h >= m.shape[0] - b - 2
    if not open_edge:
        cv2.drawContours(filled, contours, -1, 255, -1)
    # the tile's convex hull (tiles are convex) rather than a fill that would keep only the tile's
    # frame: where the tile runs out of the window (its outline is open there), or where a frame
    # printed round a pale face is broken somewhere
    if open_edge or np.count_nonzero(filled) < 0.85 * cv2.contourArea(hull):
        filled[:] = 0
        cv2.fillConvexPoly(filled, hull, 255)
    return filled


def _outline_fill(closed: np.ndarray) -> np.ndarray:
    """The inside of the largest closed outline among the not-paper pixels ``closed`` (its convex
    hull filled; tiles are convex), or nothing when no outline encloses a tile-sized area."""
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = np.zeros_like(closed)
    if not contours:
        return out
    hulls = [cv2.convexHull(c) for c in contours]
    areas = [cv2.contourArea(h) for h in hulls]
    best = int(np.argmax(areas))
    if areas[best] < 0.03 * closed.size:
        return out
    cv2.fillConvexPoly(out, hulls[best], 255)
    return out


def fit_rect(mask: np.ndarray) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of the tile's rectangle, upright within 45 degrees."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    c = max(contours, key=cv2.contourArea)
    (cx, cy), (w, h), ang = cv2.minAreaRect(c)
    # bring the angle to (-45, 45]
    while ang > 45:
        ang -= 90
        w, h = h, w
    while ang <= -45:
        ang += 90
        w, h = h, w
    a = math.radians(ang)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -math.sin(a), math.cos(a)
    hw, hh = w / 2, h / 2
    return np.array(
        [
            [cx - ux * hw - vx * hh, cy - uy * hw - vy * hh],
            [cx + ux * hw - vx * hh, cy + uy * hw - vy * hh],
            [cx + ux * hw + vx * hh, cy + uy * hw + vy * hh],
            [cx - ux * hw + vx * hh, cy - uy * hw + vy * hh],
        ]
    )


def fit_hex(mask: np.ndarray) -> np.ndarray:
    """Corners of the regular hexagon best covering the mask: corner 0 nearest the right, clockwise."""
    m = cv2.moments(mask, binaryImage=True)
    if m["m00"] <= 0:
        raise ValueError("no tile found")
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    area = m["m00"]
    r = math.sqrt(2 * area / (3 * math.sqrt(3)))
    # find the rotation (0..60 deg) whose hexagon overlaps the mask best, at reduced size
    f = max(1.0, r / 40.0)
    small = cv2.resize(mask, None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA) > 127
    best, best_a = -1.0, 0.0
    for deg in np.arange(-30.0, 30.0, 1.0):
        poly = _hex(cx / f, cy / f, r / f, deg)
        canvas = np.zeros(small.shape, np.uint8)
        cv2.fillConvexPoly(canvas, np.round(poly * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        inter = np.count_nonzero(canvas.astype(bool) & small)
        union = np.count_nonzero(canvas.astype(bool) | small)
        iou = inter / max(union, 1)
        if iou > best:
            best, best_a = iou, float(deg)
    # refine to 0.1 degree
    for deg in np.arange(best_a - 1, best_a + 1, 0.1):
        poly = _hex(cx / f, cy / f, r / f, deg)
        canvas = np.zeros(small.shape, np.uint8)
        cv2.fillConvexPoly(canvas, np.round(poly * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        iou = np.count_nonzero(canvas.astype(bool) & small) / max(np.count_nonzero(canvas.astype(bool) | small), 1)
        if iou > best:
            best, best_a = iou, float(deg)
    if best < 0.8:
        raise ValueError(f"the tile does not look hexagonal (best fit covers {best:.0%})")
    return _hex(cx, cy, r, best_a)


def _hex(cx: float, cy: float, r: float, deg: float) -> np.ndarray:
    return np.array(
        [
            (cx + r * math.cos(math.radians(deg + 60 * k)), cy + r * math.sin(math.radians(deg + 60 * k)))
            for k in range(6)
        ]
    )


def _poly_mask(shape: tuple[int, ...], corners: np.ndarray) -> np.ndarray:
    canvas = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(canvas, np.round(corners * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return canvas.astype(bool)


def _px(mm: float) -> int:
    return round(mm * RECTIFY_PX_PER_MM)


def cut_sheet_photo(
    photo: np.ndarray,
    key: str,
    dictionary: str = "DICT_4X4_50",
    layout: Any = None,
    balance: bool = True,
    source: str = "",
) -> tuple[np.ndarray, FitReport]:
    """The face cut from a photo of the capture sheet with one tile in its window, and the fit's
    report. The page is white-balanced on the paper around the window first (``balance``), so a
    tinted paper is not taken for tile and the face does not keep the photo's colour cast. Raises
    ValueError when the sheet or the tile cannot be found, or a hexagon does not fit."""
    page, _ = rectify_page(photo, dictionary)
    paper = paper_mask(page.shape, PAGE_MARGIN_MM, dictionary)
    rep = FitReport(source, key, "sheet")
    balanced, colour, gains = white_balance(page, paper)
    rep.paper = [float(v) for v in colour]
    if balance:
        page = balanced
        rep.gains = [float(v) for v in gains]
    else:
        rep.gains = [1.0, 1.0, 1.0]
        rep.notes.append("not white-balanced")
    if float(colour.mean()) < MIN_PAPER_LEVEL:
        rep.doubt(f"the paper is very dark ({colour.mean():.0f} of 255): photograph it in more light")
    clipped = [name for name, v in zip("BGR", colour, strict=True) if v >= CLIPPED_LEVEL]
    if clipped and float(colour.min()) < 0.9 * float(colour.max()):
        # a saturated channel cannot be balanced: the face keeps part of the cast
        rep.doubt(
            f"the paper is over-exposed in {'/'.join(clipped)} under tinted light, so the face may keep a colour "
            "cast: photograph with less exposure"
        )
    level = float(np.median(page[paper].max(axis=1)))
    _, _, ww, wh = capture_sheet(dictionary).window
    m = _px(PAGE_MARGIN_MM)
    win = page[m : m + _px(wh), m : m + _px(ww)]
    mask = tile_mask(win, level)
    tile = mask > 0
    if np.count_nonzero(tile) < 0.03 * tile.size:
        raise ValueError("no tile found in the capture sheet's window")
    hexagonal = is_hex_face(key)
    corners = fit_hex(mask) if hexagonal else fit_rect(mask)
    shape = "hexagon" if hexagonal else "rectangle"
    poly = _poly_mask(mask.shape, corners)
    rep.coverage = np.count_nonzero(tile & poly) / max(np.count_nonzero(tile), 1)
    rep.spill = np.count_nonzero(poly & ~tile) / max(np.count_nonzero(poly), 1)
    # colour contrast: the tile (its edge left out) against the paper, CIE76 ΔE
    win_lab = lab(win / 255.0)
    paper_lab = lab(page[paper] / 255.0)
    inner = cv2.erode(mask, np.ones((7, 7), np.uint8)) > 0
    inner = inner if inner.any() else tile
    rep.contrast = float(np.linalg.norm(win_lab[inner] - np.median(paper_lab, axis=0), axis=1).mean())
    band = _px(EDGE_BAND_MM)
    ring = np.zeros_like(tile)
    ring[band - 1 : -band + 1, band - 1 : -band + 1] = True
    ring[band + 2 : -band - 2, band + 2 : -band - 2] = False
    if np.count_nonzero(ring & tile) > 10:
        rep.doubt("the tile reaches the window's edge: lay it in the middle of the window")
    k = RECTIFY_PX_PER_MM
    expect = expected_size_mm(key, layout)
    if hexagonal:
        size = 2 * float(np.linalg.norm(corners - corners.mean(axis=0), axis=1).mean()) / k
    else:
        a = float(np.linalg.norm(corners[1] - corners[0])) / k
        b = float(np.linalg.norm(corners[3] - corners[0])) / k
        size = (a + b) / 2
        if abs(a - b) / max(a, b) > MAX_ASPECT_ERROR:
            rep.doubt(f"the tile measures {a:.0f} x {b:.0f} mm, not square")
    rep.size_ratio = size / expect
    rep.outline_mm = [[round(float(x + 0.5) / k, 2), round(float(y + 0.5) / k, 2)] for x, y in corners]
    if rep.coverage < MIN_COVERAGE:
        rep.doubt(f"the fitted {shape} leaves {1 - rep.coverage:.0%} of what looks like tile outside it")
    if rep.spill > MAX_SPILL:
        rep.doubt(f"{rep.spill:.0%} of the fitted {shape} is paper")
    if abs(rep.size_ratio - 1) > SIZE_TOLERANCE:
        rep.doubt(f"the tile measures {size:.1f} mm, expected {expect:.1f} mm (paper taken for tile, or tile missed?)")
    if rep.contrast < MIN_CONTRAST:
        rep.doubt(f"the tile hardly stands out from the paper (colour difference {rep.contrast:.0f})")
    # cut at the layout's size about the fitted centre (the outline found takes in the tile's cut edge
    # and the dark side of its shadow: a cut some 2 % too large would shrink the art), then shrink a
    # hair so that no paper shows along the cut edge
    c = corners.mean(axis=0)
    fit = 1.0 / rep.size_ratio if abs(rep.size_ratio - 1) <= SIZE_TOLERANCE else 1.0
    corners = c + (corners - c) * fit * 0.985
    return cut_from_corners(win, key, corners), rep


def cut_from_sheet(photo: np.ndarray, key: str, dictionary: str = "DICT_4X4_50") -> np.ndarray:
    """The face cut from a photo of the capture sheet with one tile in its window (white-balanced
    on the sheet's paper; :func:`cut_sheet_photo` also gives the fit's report)."""
    return cut_sheet_photo(photo, key, dictionary)[0]


def known_faces(profile: BoxProfile) -> list[str]:
    """Every face key a pack can hold for ``profile``."""
    return [k for k, _ in required_faces(profile)] + optional_faces()


def _manifest(folder: Path) -> dict[str, dict[str, Any]]:
    path = folder / "manifest.json"
    if not path.exists():
        return {}
    data = read_json(path, "the manifest", PhotoPackError)
    photos = data.get("photos") if isinstance(data, dict) else None
    if not isinstance(photos, dict) or not all(isinstance(v, dict) for v in photos.values()):
        raise PhotoPackError(str(path), "photos", 'must be an object: photo file -> {"face": …, "corners": …}')
    return photos


def _cut_all(
    folder: str | Path, profile: BoxProfile, dictionary: str, layout: Any
) -> tuple[list[CutFace], list[PhotoPackError], set[str]]:
    """``(cut faces, one error per photo that failed, faces the photos were meant to show)``."""
    root = Path(folder)
    if not root.is_dir():
        raise PhotoPackError(str(root), "", "is not a folder of photos")
    faces = set(known_faces(profile))
    manifest = _manifest(root)
    out: list[CutFace] = []
    errors: list[PhotoPackError] = []
    seen: dict[str, str] = {}
    photos = sorted(p for p in root.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    for path in photos:
        entry = manifest.get(path.name, {})
        key = entry.get("face", path.stem)
        if key not in faces:
            if path.name in manifest:
                errors.append(
                    PhotoPackError(
                        str(root / "manifest.json"), f"photos.{path.name}.face", f"{key!r} is not a face of this box"
                    )
                )
            else:
                errors.append(
                    PhotoPackError(
                        str(path),
                        "",
                        f"{path.stem!r} is not a face name (e.g. resource-goat, action-off); "
                        "rename it or map it in manifest.json",
                    )
                )
            continue
        if key in seen:
            errors.append(PhotoPackError(str(path), "", f"shows {key}, which {seen[key]} shows already"))
            continue
        seen[key] = path.name
        try:
            photo = read_image(path)
        except ImageTooLargeError as exc:
            errors.append(PhotoPackError(str(path), "", str(exc).removeprefix(f"{path}: ")))
            continue
        if photo is None:
            errors.append(PhotoPackError(str(path), "", "cannot be read as an image"))
            continue
        try:
            if "corners" in entry:
                img = cut_from_corners(photo, key, np.array(entry["corners"], np.float64))
                rep = FitReport(path.name, key, "corners")
                rep.notes.append("cut at the corners given in manifest.json: no white balance, fit not measured")
            else:
                img, rep = cut_sheet_photo(photo, key, dictionary, layout, source=path.name)
        except (ValueError, TypeError, cv2.error) as exc:
            errors.append(PhotoPackError(str(path), "", f"{exc}"))
            continue
        out.append(CutFace(key, img, path.name, rep.method, rep))
    if not photos:
        errors.append(PhotoPackError(str(root), "", f"holds no photos ({', '.join(IMAGE_SUFFIXES)})"))
    return out, errors, set(seen)


def _raise_all(errors: list[PhotoPackError]) -> None:
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise PhotoPackErrors(errors)


def cut_faces(
    folder: str | Path, profile: BoxProfile | None = None, dictionary: str = "DICT_4X4_50", layout: Any = None
) -> list[CutFace]:
    """Cut every photo in ``folder`` (each with its :class:`FitReport`). Every photo is tried; when
    any fails, one :class:`PhotoPackError` is raised naming them all (:class:`PhotoPackErrors`
    when more than one: one line per photo, each naming the file and the reason)."""
    out, errors, _ = _cut_all(folder, profile or default_profile(), dictionary, layout)
    _raise_all(errors)
    return out


def contact_sheet(cut: list[CutFace], cols: int = 6) -> np.ndarray:
    """Every cut face in a grid, labelled with its face name, photo and verdict; doubtful ones
    framed in red and marked DOUBTFUL."""
    cell_w, img_h, text_h, pad = SQ, SQ, 46, 8
    cols = max(1, min(cols, len(cut)))
    rows = max(1, math.ceil(len(cut) / cols))
    cw, ch = cell_w + 2 * pad, img_h + text_h + 2 * pad
    sheet = np.full((rows * ch, cols * cw, 3), 215, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for i, c in enumerate(cut):
        x0, y0 = (i % cols) * cw + pad, (i // cols) * ch + pad
        img = c.image
        h, w = img.shape[:2]
        oy = (img_h - h) // 2
        sheet[y0 + oy : y0 + oy + h, x0 : x0 + w] = img
        doubtful = c.report is not None and c.report.verdict != "ok"
        colour = (0, 0, 200) if doubtful else (40, 120, 40)
        verdict = "DOUBTFUL" if doubtful else "ok"
        cv2.putText(sheet, c.key[:30], (x0, y0 + img_h + 17), font, 0.5, (20, 20, 20), 1, cv2.LINE_AA)
        cv2.putText(sheet, f"{verdict}  {c.source}"[:34], (x0, y0 + img_h + 37), font, 0.45, colour, 1, cv2.LINE_AA)
        if doubtful:
            cv2.rectangle(
                sheet, (x0 - pad + 2, y0 - pad + 2), (x0 + cell_w + pad - 3, y0 + img_h + text_h + pad - 3), colour, 4
            )
    return sheet


def build_pack(
    folder: str | Path,
    out: str | Path,
    profile: BoxProfile | None = None,
    fill_from: ArtPack | None = None,
    name: str | None = None,
    dictionary: str = "DICT_4X4_50",
    layout: Any = None,
) -> ArtPack:
    """Cut all photos in ``folder`` and write a complete pack to ``out`` (see :func:`build_photo_pack`)."""
    return build_photo_pack(folder, out, profile, fill_from, name, dictionary, layout)[0]


def build_photo_pack(
    folder: str | Path,
    out: str | Path,
    profile: BoxProfile | None = None,
    fill_from: ArtPack | None = None,
    name: str | None = None,
    dictionary: str = "DICT_4X4_50",
    layout: Any = None,
) -> tuple[ArtPack, dict[str, Any]]:
    """``(pack, report)``: cut all photos in ``folder`` and write a complete pack to ``out``, with ``report.json`` (the
    fit report of every photo) and ``contact-sheet.png`` (every cut face, doubtful ones marked).
    Faces without a photo come from the pack ``fill_from`` (a built-in one, say); without it, a
    missing face is an error. Every problem of the run is reported at once
    (:class:`PhotoPackErrors`), and nothing is written when there is any."""
    prof = profile or default_profile()
    cut, errors, meant = _cut_all(folder, prof, dictionary, layout)
    faces = {c.key: c.image for c in cut}
    sources = {c.key: f"photo:{c.source} ({c.method})" for c in cut}
    missing = [k for k, _ in required_faces(prof) if k not in meant]
    colours = None
    if fill_from is not None:
        colours = dict(fill_from.colours)
        for k in missing:
            faces[k] = fill_from.faces[k]
            sources[k] = fill_from.source or fill_from.name
    elif missing and not errors:  # (bad photos first: the faces they were meant to show count as given)
        errors.append(
            PhotoPackError(
                str(folder),
                "",
                f"photos give {len(meant)} face(s); missing {len(missing)}, e.g. {', '.join(missing[:4])} "
                "(add photos, or fill the rest from a built-in pack with --fill-from classic)",
            )
        )
    _raise_all(errors)
    pack = ArtPack(name or Path(out).name, faces)
    if colours:
        pack.colours = colours
    export_pack(pack, out)
    meta = pack.to_json()
    meta["sources"] = dict(sorted(sources.items()))
    root = Path(out)
    (root / "pack.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    reports = [c.report.to_json() for c in cut if c.report is not None]
    doubtful = sum(1 for r in reports if r["verdict"] != "ok")
    doc = {
        "format": REPORT_FORMAT,
        "version": 1,
        "summary": {
            "photos": len(cut),
            "ok": len(cut) - doubtful,
            "doubtful": doubtful,
            "filled": len(missing) if fill_from is not None else 0,
            "filled_from": (fill_from.source or fill_from.name) if fill_from is not None else None,
        },
        "photos": reports,
    }
    (root / "report.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    if not cv2.imwrite(str(root / "contact-sheet.png"), contact_sheet(cut)):
        raise PhotoPackError(str(root), "contact-sheet.png", "could not write the image")
    pack.source = str(out)
    return pack, doc
