"""A tiny vector PDF writer for printable sheets: filled rectangles, lines and Helvetica text.

Printing markers needs exact scale and nothing else: black squares, grey patches, thin cut lines
and labels. PDF 1.4 expresses these directly in points (1/72 inch), so a page drawn here prints at
true size with any viewer set to "actual size" — without a PDF library dependency. Coordinates are
given in millimetres from the top-left corner of the page (y down) and converted here.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

MM_TO_PT = 72.0 / 25.4
A4_MM = (210.0, 297.0)
HELVETICA_CAP_HEIGHT = 0.718
"""Cap height of Helvetica as a fraction of the font size (from its AFM metrics)."""


def _num(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _escape(text: str) -> str:
    data = text.encode("latin-1", errors="replace").decode("latin-1")
    return data.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


@dataclass
class PdfPage:
    """One page under construction; all drawing calls take millimetres, origin top-left."""

    width_mm: float = A4_MM[0]
    height_mm: float = A4_MM[1]
    ops: list[str] = field(default_factory=list)

    def _x(self, x: float) -> float:
        return x * MM_TO_PT

    def _y(self, y: float) -> float:
        return (self.height_mm - y) * MM_TO_PT

    def rect(self, x: float, y: float, w: float, h: float, grey: int = 0) -> None:
        """Fill the rectangle with top-left ``(x, y)`` and size ``w`` x ``h`` (mm) in ``grey`` (0–255)."""
        g = _num(grey / 255.0)
        self.ops.append(
            f"{g} g {_num(self._x(x))} {_num(self._y(y + h))} {_num(w * MM_TO_PT)} {_num(h * MM_TO_PT)} re f"
        )

    def line(
        self, x1: float, y1: float, x2: float, y2: float, width: float = 0.2, grey: int = 0, dash: float = 0.0
    ) -> None:
        """Stroke a line (mm); ``dash`` > 0 draws it dashed with that dash length (mm)."""
        d = f"[{_num(dash * MM_TO_PT)}] 0 d" if dash > 0 else "[] 0 d"
        self.ops.append(
            f"{_num(grey / 255.0)} G {_num(width * MM_TO_PT)} w {d} {_num(self._x(x1))} {_num(self._y(y1))} m "
            f"{_num(self._x(x2))} {_num(self._y(y2))} l S"
        )

    def text(self, x: float, y: float, cap_mm: float, text: str, grey: int = 0) -> None:
        """Write ``text`` with its baseline at ``y`` and capitals ``cap_mm`` tall (Helvetica)."""
        size = cap_mm * MM_TO_PT / HELVETICA_CAP_HEIGHT
        at = f"{_num(self._x(x))} {_num(self._y(y))}"
        self.ops.append(f"BT {_num(grey / 255.0)} g /F1 {_num(size)} Tf {at} Td ({_escape(text)}) Tj ET")

    def content(self) -> bytes:
        """The page's content stream."""
        return ("\n".join(self.ops) + "\n").encode("latin-1")


def write_pdf(pages: list[PdfPage], title: str = "") -> bytes:
    """Assemble pages into a complete PDF file (one shared Helvetica font, compressed streams)."""
    objects: list[bytes] = []

    def add(obj: bytes) -> int:
        objects.append(obj)
        return len(objects)

    catalog = add(b"")  # placeholder, filled below
    pages_id = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for page in pages:
        data = zlib.compress(page.content(), 9)
        stream = add(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream")
        media = f"[0 0 {_num(page.width_mm * MM_TO_PT)} {_num(page.height_mm * MM_TO_PT)}]".encode()
        kids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox " % pages_id
                + media
                + b" /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>" % (font, stream)
            )
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    objects[pages_id - 1] = (
        b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + b"] /Count %d >>" % len(kids)
    )
    info = add(b"<< /Title (" + _escape(title).encode("latin-1") + b") /Producer (table-companion) >>")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        catalog,
        info,
        xref,
    )
    return bytes(out)
