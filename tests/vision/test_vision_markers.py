"""Printable markers: true scale in the PNG (at its stored DPI) and in the PDF (rasterised by PDFium)."""

from __future__ import annotations

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest

from games.tribes.vision.layout import default_layout
from vision.markers import capture_sheet, detect, print_markers
from vision.pdf import A4_MM, MM_TO_PT
from vision.pngdpi import add_dpi, read_dpi


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    out = tmp_path_factory.mktemp("markers")
    return print_markers(default_layout(), out, dpi=300)


def _side_px(corners: np.ndarray) -> float:
    return float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]))


def test_png_pages_are_a4_at_their_dpi_and_markers_have_true_size(printed):
    lay = default_layout()
    pngs = [p for p in printed if p.suffix == ".png"]
    found: dict[int, float] = {}
    for path in pngs:
        data = path.read_bytes()
        dpi = read_dpi(data)
        assert dpi is not None and abs(dpi[0] - 300) < 0.01 and abs(dpi[1] - 300) < 0.01
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
        px_per_mm = dpi[0] / 25.4
        assert img.shape == (round(A4_MM[1] * px_per_mm), round(A4_MM[0] * px_per_mm))
        for mid, corners in detect(img, lay.dictionary).items():
            found[mid] = _side_px(corners) / px_per_mm
    # every table marker was printed, each at its size within 0.3 %
    for m in lay.markers:
        assert m.id in found, f"marker {m.id} not found on any page"
        assert abs(found[m.id] - m.size) / m.size < 0.003
    # the capture sheet's markers too
    sheet = capture_sheet(lay.dictionary)
    for mid in sheet.ids:
        assert abs(found[mid] - sheet.marker_size) / sheet.marker_size < 0.003


def test_pdf_prints_at_true_scale(printed):
    lay = default_layout()
    pdf = pdfium.PdfDocument(str(printed[0]))
    try:
        assert len(pdf) == len([p for p in printed if p.suffix == ".png"])
        found = {}
        for i in range(len(pdf)):
            page = pdf[i]
            w_pt, h_pt = page.get_size()
            assert abs(w_pt - A4_MM[0] * MM_TO_PT) < 0.01 and abs(h_pt - A4_MM[1] * MM_TO_PT) < 0.01
            dpi = 150
            img = page.render(scale=dpi / 72).to_numpy()[..., :3].copy()
            for mid, corners in detect(img, lay.dictionary).items():
                found[mid] = _side_px(corners) / (dpi / 25.4)
    finally:
        pdf.close()
    for m in lay.markers:
        assert abs(found[m.id] - m.size) / m.size < 0.005


def test_marker_positions_on_the_capture_page_match_its_geometry(printed):
    lay = default_layout()
    sheet = capture_sheet(lay.dictionary)
    img = cv2.imread(str(printed[-1]), cv2.IMREAD_GRAYSCALE)
    k = 300 / 25.4
    found = detect(img, lay.dictionary)
    for mid, corners in sheet.marker_corners().items():
        # pixel centres are integers: the outer corner of a marker at x mm lies at x*k - 0.5 px
        expect = np.array(corners) * k - 0.5
        assert np.abs(found[mid] - expect).max() < 0.5


def test_add_dpi_replaces_an_existing_phys_chunk():
    _, buf = cv2.imencode(".png", np.zeros((4, 4), np.uint8))
    once = add_dpi(buf.tobytes(), 300)
    twice = add_dpi(once, 150)
    assert twice.count(b"pHYs") == 1
    dpi = read_dpi(twice)
    assert dpi is not None and abs(dpi[0] - 150) < 0.02  # stored as whole pixels per metre
    assert read_dpi(buf.tobytes()) is None
