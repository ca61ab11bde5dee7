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
millimetres); the page is rectified, the tile is found as the large region that is not white paper,
and its outline is fitted: a rectangle (action, event and achievement tiles) or a regular hexagon
(landscape tiles). The face is then cut out upright: the tile's rotation is taken to the nearest
upright position (within 45 degrees for rectangles, 30 for hexagons). A photo without the sheet can
give the tile's corners in the manifest instead (4 corners clockwise from the top-left, or 6 for a
hexagon clockwise from its right-hand corner, in photo pixels).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
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
from vision.errors import ImageTooLargeError, PhotoPackError
from vision.images import read_image
from vision.markers import capture_sheet, detect

RECTIFY_PX_PER_MM = 6.0


@dataclass
class CutFace:
    """A face cut from a photo, and how it was found."""

    key: str
    image: np.ndarray
    source: str
    method: str  # "sheet" or "corners"


def is_hex_face(key: str) -> bool:
    """True for faces of landscape tiles (hexagonal)."""
    return key.startswith("resource-") or key == "exhausted"


def _canonical_corners(key: str) -> np.ndarray:
    if is_hex_face(key):
        return hex_points()  # flat-top, corner 0 on the right, clockwise (y down)
    return np.array([[0, 0], [SQ - 1, 0], [SQ - 1, SQ - 1], [0, SQ - 1]], np.float64)


def _out_size(key: str) -> tuple[int, int]:
    return (HEX_W, HEX_H) if is_hex_face(key) else (SQ, SQ)


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


def rectify_sheet(photo: np.ndarray, dictionary: str = "DICT_4X4_50") -> tuple[np.ndarray, np.ndarray]:
    """The capture sheet's window seen straight on (at RECTIFY_PX_PER_MM) and the homography from
    photo pixels to rectified pixels. Raises ValueError when fewer than 3 sheet markers are seen."""
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
    k = RECTIFY_PX_PER_MM
    # page mm -> rectified pixels (pixel centres at integers)
    to_px = np.array([[k, 0, -x * k - 0.5], [0, k, -y * k - 0.5], [0, 0, 1]])
    hom = to_px @ h_mm
    size = (round(w * k), round(hgt * k))
    rect = cv2.warpPerspective(photo, hom, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return rect, hom


def tile_mask(rect: np.ndarray) -> np.ndarray:
    """Pixels of the rectified window that are not white paper (the tile), cleaned up."""
    hsv = cv2.cvtColor(rect, cv2.COLOR_BGR2HSV)
    v = hsv[..., 2].astype(np.float32)
    paper = float(np.percentile(v, 95))
    # the paper is bright and grey; the tile is darker or coloured
    m = ((v < paper * 0.82) | (hsv[..., 1] > 55)).astype(np.uint8) * 255
    # ignore a thin band along the window's edge (the dashed frame line)
    b = int(RECTIFY_PX_PER_MM * 3)
    m[:b] = 0
    m[-b:] = 0
    m[:, :b] = 0
    m[:, -b:] = 0
    k = np.ones((5, 5), np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, k, iterations=3)
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, k, iterations=1)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m)
    if n <= 1:
        return np.zeros_like(m)
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    out = (labels == best).astype(np.uint8) * 255
    contours, _ = cv2.findContours(out, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(out)
    cv2.drawContours(filled, contours, -1, 255, -1)
    return filled


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


def cut_from_sheet(photo: np.ndarray, key: str, dictionary: str = "DICT_4X4_50") -> np.ndarray:
    """The face cut from a photo of the capture sheet with one tile in its window."""
    rect, _ = rectify_sheet(photo, dictionary)
    mask = tile_mask(rect)
    if np.count_nonzero(mask) < 0.03 * mask.size:
        raise ValueError("no tile found in the capture sheet's window")
    corners = fit_hex(mask) if is_hex_face(key) else fit_rect(mask)
    # shrink a hair so that no paper shows along the cut edge
    c = corners.mean(axis=0)
    corners = c + (corners - c) * 0.985
    return cut_from_corners(rect, key, corners)


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


def cut_faces(folder: str | Path, profile: BoxProfile | None = None, dictionary: str = "DICT_4X4_50") -> list[CutFace]:
    """Cut every photo in ``folder``; errors name the photo and the reason."""
    root = Path(folder)
    if not root.is_dir():
        raise PhotoPackError(str(root), "", "is not a folder of photos")
    prof = profile or default_profile()
    faces = set(known_faces(prof))
    manifest = _manifest(root)
    out: list[CutFace] = []
    seen: dict[str, str] = {}
    for path in sorted(p for p in root.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
        entry = manifest.get(path.name, {})
        key = entry.get("face", path.stem)
        if key not in faces:
            if path.name in manifest:
                raise PhotoPackError(
                    str(root / "manifest.json"), f"photos.{path.name}.face", f"{key!r} is not a face of this box"
                )
            raise PhotoPackError(
                str(path),
                "",
                f"{path.stem!r} is not a face name (e.g. resource-goat, action-off); "
                "rename it or map it in manifest.json",
            )
        if key in seen:
            raise PhotoPackError(str(path), "", f"shows {key}, which {seen[key]} shows already")
        seen[key] = path.name
        try:
            photo = read_image(path)
        except ImageTooLargeError as exc:
            raise PhotoPackError(str(path), "", str(exc).removeprefix(f"{path}: ")) from None
        if photo is None:
            raise PhotoPackError(str(path), "", "cannot be read as an image")
        try:
            if "corners" in entry:
                img = cut_from_corners(photo, key, np.array(entry["corners"], np.float64))
                method = "corners"
            else:
                img = cut_from_sheet(photo, key, dictionary)
                method = "sheet"
        except (ValueError, cv2.error) as exc:
            raise PhotoPackError(str(path), "", f"{exc}") from None
        out.append(CutFace(key, img, path.name, method))
    if not out:
        raise PhotoPackError(str(root), "", f"holds no photos ({', '.join(IMAGE_SUFFIXES)})")
    return out


def build_pack(
    folder: str | Path,
    out: str | Path,
    profile: BoxProfile | None = None,
    fill_from: ArtPack | None = None,
    name: str | None = None,
    dictionary: str = "DICT_4X4_50",
) -> ArtPack:
    """Cut all photos in ``folder`` and write a complete pack to ``out``. Faces without a photo come
    from the pack ``fill_from`` (a built-in one, say); without it, a missing face is an error."""
    prof = profile or default_profile()
    cut = cut_faces(folder, prof, dictionary)
    faces = {c.key: c.image for c in cut}
    sources = {c.key: f"photo:{c.source} ({c.method})" for c in cut}
    missing = [k for k, _ in required_faces(prof) if k not in faces]
    colours = None
    if fill_from is not None:
        colours = dict(fill_from.colours)
        for k in missing:
            faces[k] = fill_from.faces[k]
            sources[k] = fill_from.source or fill_from.name
    elif missing:
        raise PhotoPackError(
            str(folder),
            "",
            f"photos give {len(cut)} face(s); missing {len(missing)}, e.g. {', '.join(missing[:4])} "
            "(add photos, or fill the rest from a built-in pack with --fill-from classic)",
        )
    pack = ArtPack(name or Path(out).name, faces)
    if colours:
        pack.colours = colours
    export_pack(pack, out)
    meta = pack.to_json()
    meta["sources"] = dict(sorted(sources.items()))
    (Path(out) / "pack.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    pack.source = str(out)
    return pack
