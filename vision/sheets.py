"""Printable pages drawn once and output twice: as vector PDF and as a PNG raster at a chosen DPI.

A :class:`Page` records drawing operations in millimetres (origin top-left, y down): filled
rectangles, lines, text and ArUco markers (expanded into their black cells). :meth:`Page.raster`
draws the page with OpenCV at ``dpi`` — every edge lands on the pixel nearest its true position, so a
50 mm marker is 50 mm × dpi / 25.4 pixels wide — and :meth:`Page.pdf` gives the same page for
:func:`vision.pdf.write_pdf`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.pdf import A4_MM, PdfPage

MM_PER_INCH = 25.4


@dataclass
class Page:
    """A page under construction (default A4 portrait)."""

    width_mm: float = A4_MM[0]
    height_mm: float = A4_MM[1]
    ops: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float, grey: int = 0) -> None:
        """A filled rectangle: top-left ``(x, y)``, size ``w`` x ``h`` mm, grey level 0–255."""
        self.ops.append(("rect", (x, y, w, h, grey)))

    def line(
        self, x1: float, y1: float, x2: float, y2: float, width: float = 0.2, grey: int = 0, dash: float = 0.0
    ) -> None:
        """A line ``width`` mm wide; dashed with dashes of ``dash`` mm when ``dash`` > 0."""
        self.ops.append(("line", (x1, y1, x2, y2, width, grey, dash)))

    def frame(
        self, x: float, y: float, w: float, h: float, width: float = 0.2, grey: int = 0, dash: float = 0.0
    ) -> None:
        """The outline of a rectangle."""
        self.line(x, y, x + w, y, width, grey, dash)
        self.line(x + w, y, x + w, y + h, width, grey, dash)
        self.line(x + w, y + h, x, y + h, width, grey, dash)
        self.line(x, y + h, x, y, width, grey, dash)

    def text(self, x: float, y: float, cap_mm: float, text: str, grey: int = 0) -> None:
        """Text with its baseline at ``y`` and capitals ``cap_mm`` tall."""
        self.ops.append(("text", (x, y, cap_mm, text, grey)))

    def cells(self, x: float, y: float, size: float, cells: np.ndarray) -> None:
        """A square grid of black/white cells (``cells`` is 0 for black, nonzero for white) whose
        outer edge is ``size`` mm, top-left at ``(x, y)``: an ArUco marker."""
        n = cells.shape[0]
        m = size / n
        for r in range(n):
            c = 0
            while c < n:
                if cells[r, c] == 0:
                    start = c
                    while c < n and cells[r, c] == 0:
                        c += 1
                    self.rect(x + start * m, y + r * m, (c - start) * m, m, 0)
                else:
                    c += 1

    # --- backends -------------------------------------------------------------------------------
    def raster(self, dpi: float) -> np.ndarray:
        """The page as a greyscale uint8 image at ``dpi`` dots per inch."""
        k = dpi / MM_PER_INCH
        w, h = round(self.width_mm * k), round(self.height_mm * k)
        img = np.full((h, w), 255, np.uint8)
        for kind, a in self.ops:
            if kind == "rect":
                x, y, rw, rh, grey = a
                x0, x1 = round(x * k), round((x + rw) * k)
                y0, y1 = round(y * k), round((y + rh) * k)
                img[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)] = grey
            elif kind == "line":
                x1, y1, x2, y2, lw, grey, dash = a
                t = max(1, round(lw * k))
                p1, p2 = np.array([x1, y1]) * k, np.array([x2, y2]) * k
                length = float(np.linalg.norm(p2 - p1))
                if dash > 0 and length > 0:
                    step = dash * k
                    s = 0.0
                    while s < length:
                        e = min(s + step, length)
                        a1 = p1 + (p2 - p1) * (s / length)
                        a2 = p1 + (p2 - p1) * (e / length)
                        cv2.line(img, _pt(a1), _pt(a2), int(grey), t, cv2.LINE_AA)
                        s += 2 * step
                else:
                    cv2.line(img, _pt(p1), _pt(p2), int(grey), t, cv2.LINE_AA)
            elif kind == "text":
                x, y, cap, text, grey = a
                cap_px = cap * k
                (_, th), _ = cv2.getTextSize("H", cv2.FONT_HERSHEY_SIMPLEX, 1.0, 1)
                scale = cap_px / th
                thick = max(1, round(scale * 1.6))
                safe = text.encode("ascii", errors="replace").decode("ascii")
                cv2.putText(
                    img,
                    safe,
                    (round(x * k), round(y * k)),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    scale,
                    int(grey),
                    thick,
                    cv2.LINE_AA,
                )
        return img

    def pdf(self) -> PdfPage:
        """The same page as a vector PDF page."""
        page = PdfPage(self.width_mm, self.height_mm)
        for kind, a in self.ops:
            getattr(page, kind)(*a)
        return page


def _pt(p: np.ndarray) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))
