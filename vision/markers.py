"""ArUco markers: their cell patterns, the detector, and the printable sheets.

``table-companion print-markers`` writes, for a layout, A4 pages at true scale as one vector PDF
and one PNG per page (with its DPI stored in the file):

* the table markers, each with its id, size, dictionary and where it lies on the table printed
  beside it, a dashed cut line around it, and a 100 mm scale bar to check the print;
* the reference patch (white / grey / black fields) with its size and place;
* the tile capture sheet: four small markers around a square window, for photographing your own
  tiles to build an art pack (:mod:`vision.photopack`).

Marker images come from OpenCV (``cv2.aruco.generateImageMarker``); the detector is OpenCV's
``cv2.aruco.ArucoDetector`` (the only API in OpenCV 4.7+ and 5).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.layout import ARUCO_DICTIONARIES, CAPTURE_RESERVED, MARKER_BITS, Point
from vision.layout import TableFrame as Layout
from vision.pdf import A4_MM, write_pdf
from vision.pngdpi import add_dpi
from vision.sheets import Page

MARGIN_MM = 12.0


@cache
def dictionary(name: str) -> cv2.aruco.Dictionary:
    """OpenCV's predefined ArUco dictionary called ``name`` (e.g. ``DICT_4X4_50``)."""
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


@cache
def marker_cells(name: str, marker_id: int) -> np.ndarray:
    """The marker's cells including its black border: 0 = black, 255 = white; (bits+2)² array."""
    n = MARKER_BITS[name] + 2
    cells = cv2.aruco.generateImageMarker(dictionary(name), marker_id, n, borderBits=1)
    cells.setflags(write=False)
    return cells


def detector(name: str, subpixel: bool = True) -> cv2.aruco.ArucoDetector:
    """An ArucoDetector for dictionary ``name``; ``subpixel`` refines corners (CORNER_REFINE_SUBPIX)."""
    params = cv2.aruco.DetectorParameters()
    if subpixel:
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary(name), params)


def detect(image: np.ndarray, name: str, subpixel: bool = True) -> dict[int, np.ndarray]:
    """Markers found in ``image``: id -> 4x2 corner array (pixels, OpenCV order)."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = detector(name, subpixel).detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float64) for i, c in zip(ids.ravel(), corners, strict=True)}


# --- the tile capture sheet -----------------------------------------------------------------------
@dataclass(frozen=True)
class CaptureSheet:
    """Geometry of the capture sheet on an A4 page (mm, origin top-left): four markers around a
    square window where one tile lies, its top edge towards the page's top."""

    dictionary: str
    ids: tuple[int, int, int, int]
    marker_size: float
    centers: tuple[Point, Point, Point, Point]
    window: tuple[float, float, float, float]  # x, y, w, h

    def marker_corners(self) -> dict[int, list[Point]]:
        """Page coordinates (mm) of each marker's corners, OpenCV order."""
        h = self.marker_size / 2
        return {
            i: [(c[0] - h, c[1] - h), (c[0] + h, c[1] - h), (c[0] + h, c[1] + h), (c[0] - h, c[1] + h)]
            for i, c in zip(self.ids, self.centers, strict=True)
        }


def capture_sheet(dictionary_name: str = "DICT_4X4_50") -> CaptureSheet:
    """The capture sheet for a dictionary: it uses the dictionary's last four ids."""
    n = ARUCO_DICTIONARIES[dictionary_name]
    ids = tuple(range(n - CAPTURE_RESERVED, n))
    cx, cy = A4_MM[0] / 2, A4_MM[1] / 2
    d = 80.0
    centers = ((cx - d, cy - d), (cx + d, cy - d), (cx + d, cy + d), (cx - d, cy + d))
    size = 30.0
    inner = d - size / 2 - 4
    return CaptureSheet(dictionary_name, ids, size, centers, (cx - inner, cy - inner, 2 * inner, 2 * inner))  # type: ignore[arg-type]


# --- the sheets -----------------------------------------------------------------------------------
def _header(page: Page, title: str, note: str) -> float:
    page.text(MARGIN_MM, MARGIN_MM + 5, 4.0, title)
    page.text(MARGIN_MM, MARGIN_MM + 11, 2.6, note, 60)
    # 100 mm scale bar with 10 mm ticks
    y = MARGIN_MM + 17
    x0 = MARGIN_MM
    page.rect(x0, y, 100, 1.2, 0)
    for k in range(11):
        page.rect(x0 + k * 10 - 0.2 if k else x0, y - 2.5, 0.4, 2.5, 0)
    page.text(x0 + 104, y + 1.4, 2.4, "<- this bar must measure exactly 100 mm", 60)
    return y + 10


def _marker_cell(page: Page, layout: Layout, idx: int, x: float, y: float) -> None:
    m = layout.markers[idx]
    quiet = m.size / (MARKER_BITS[layout.dictionary] + 2)
    page.frame(x - quiet, y - quiet, m.size + 2 * quiet, m.size + 2 * quiet, 0.2, 150, 1.5)
    page.cells(x, y, m.size, marker_cells(layout.dictionary, m.id))
    # a tick above the marker: this edge faces the top of the table (y = 0)
    page.line(x + m.size / 2, y - quiet - 3.0, x + m.size / 2, y - quiet - 0.8, 0.4, 90)
    tx = x + m.size + quiet + 3
    lines = [
        (5.0, f"id {m.id}", 0),
        (2.6, f"{m.size:g} mm", 40),
        (2.0, layout.dictionary, 40),
        (2.6, f"x = {m.center[0]:g} mm", 40),
        (2.6, f"y = {m.center[1]:g} mm", 40),
    ]
    if m.rotation:
        lines.append((2.2, f"turned {m.rotation:g} deg", 40))
    lines.append((2.0, "tick = top edge", 110))
    ty = y + 5
    for cap, text, grey in lines:
        page.text(tx, ty, cap, text, grey)
        ty += cap + 3.2


def marker_pages(layout: Layout) -> list[Page]:
    """A4 pages with every table marker, the reference patch and the tile capture sheet."""
    pages: list[Page] = []
    biggest = max(m.size for m in layout.markers)
    quiet = biggest / (MARKER_BITS[layout.dictionary] + 2)
    cell_w = biggest + 2 * quiet + 25
    cell_h = biggest + 2 * quiet + 12
    usable_w = A4_MM[0] - 2 * MARGIN_MM
    cols = max(1, int(usable_w // cell_w))
    order = list(range(len(layout.markers)))
    page = None
    y = x = 0.0
    col = 0
    title = f"Tribes companion: table markers for '{layout.name}'"
    note = (
        "Print at 100% (actual size, no 'fit to page'). Cut along the dashed lines; "
        "lay each marker where its label says."
    )
    for idx in order:
        if page is None or (col == 0 and y + cell_h > A4_MM[1] - MARGIN_MM):
            page = Page()
            pages.append(page)
            y = _header(page, title + f" (page {len(pages)})", note)
            col = 0
        x = MARGIN_MM + quiet + col * cell_w
        _marker_cell(page, layout, idx, x, y + quiet + 3)
        col += 1
        if col == cols:
            col = 0
            y += cell_h
    # reference patch
    p = layout.patch
    need = p.size[1] + 24
    if col:
        y += cell_h
    if page is None or y + need > A4_MM[1] - MARGIN_MM:
        page = Page()
        pages.append(page)
        y = _header(page, title + f" (page {len(pages)})", note)
    px, py = MARGIN_MM, y + 8
    page.text(
        px,
        py - 2,
        3.2,
        f"Reference patch: {p.size[0]:g} x {p.size[1]:g} mm, centre at x={p.center[0]:g}, y={p.center[1]:g} mm",
    )
    w = p.size[0] / len(p.tones)
    for i, tone in enumerate(p.tones):
        page.rect(px + i * w, py + 2, w, p.size[1], tone.grey)
        page.text(px + i * w + 1, py + p.size[1] + 9, 2.4, f"{tone.name} ({tone.grey})", 60)
    page.frame(px - 1.5, py + 0.5, p.size[0] + 3, p.size[1] + 3, 0.2, 150, 1.5)
    pages.append(capture_page(layout.dictionary))
    return pages


def capture_page(dictionary_name: str) -> Page:
    """The tile capture sheet: lay one tile in the window, top edge up, and photograph the page."""
    sheet = capture_sheet(dictionary_name)
    page = Page()
    page.text(MARGIN_MM, MARGIN_MM + 5, 4.0, "Tribes companion: tile capture sheet")
    page.text(
        MARGIN_MM,
        MARGIN_MM + 11,
        2.6,
        "Lay ONE tile inside the window, its top towards the top of this page, and take a photo",
        60,
    )
    page.text(
        MARGIN_MM,
        MARGIN_MM + 16,
        2.6,
        "showing all four markers. Name the photo after the tile (see docs/renderer.md).",
        60,
    )
    for mid, c in zip(sheet.ids, sheet.centers, strict=True):
        h = sheet.marker_size / 2
        page.cells(c[0] - h, c[1] - h, sheet.marker_size, marker_cells(dictionary_name, mid))
    x, y, w, h = sheet.window
    page.frame(x, y, w, h, 0.3, 170, 2.0)
    page.text(x + w / 2 - 6, y - 2, 3.0, "TOP", 90)
    page.text(MARGIN_MM, A4_MM[1] - MARGIN_MM, 2.4, f"{dictionary_name} ids {sheet.ids[0]}-{sheet.ids[-1]}, 30 mm", 90)
    return page


def print_markers(layout: Layout, out_dir: str | Path, dpi: float = 300.0, stem: str = "markers") -> list[Path]:
    """Write ``<stem>.pdf`` and ``<stem>-pN.png`` (one per page, at ``dpi``) into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pages = marker_pages(layout)
    written = []
    pdf_path = out / f"{stem}.pdf"
    pdf_path.write_bytes(write_pdf([p.pdf() for p in pages], title=f"Tribes companion markers: {layout.name}"))
    written.append(pdf_path)
    for i, page in enumerate(pages, start=1):
        ok, buf = cv2.imencode(".png", page.raster(dpi))
        if not ok:  # pragma: no cover - OpenCV always encodes a uint8 image
            raise OSError("PNG encoding failed")
        path = out / f"{stem}-p{i}.png"
        path.write_bytes(add_dpi(buf.tobytes(), dpi))
        written.append(path)
    return written
