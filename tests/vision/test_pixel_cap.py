"""The pixel cap on every image input (issue 15: a 400-megapixel PNG in a camera folder took the
process to 2.6 GB): the size is read from the file's header and a picture over
:data:`vision.images.MAX_PIXELS` is refused with one line before anything decodes it — camera
folders, ``recognize``/``enroll`` inputs, photo packs, art packs, video frames."""

from __future__ import annotations

import logging
import struct
import zlib

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.errors import ArtPackError, ImageTooLargeError, PhotoPackError, SourceError
from vision.images import MAX_PIXELS, check_pixels, decode, image_size, read_image, refusal, size_of
from vision.sources import FolderSource

CAP = "20000 x 20000 pixels (400.0 megapixels) is more than the 64 megapixels an image may have"


def huge_png(w: int = 20000, h: int = 20000) -> bytes:
    """A valid PNG header claiming ``w`` x ``h`` (a few hundred bytes on disk)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def huge_jpeg(w: int = 20000, h: int = 20000) -> bytes:
    """A JPEG whose start-of-frame claims ``w`` x ``h``."""
    small = cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    at = small.index(b"\xff\xc0")
    return small[: at + 5] + struct.pack(">HH", h, w) + small[at + 9 :]


@pytest.mark.parametrize("ext", [".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff"])
def test_the_size_is_read_from_the_header_of_every_image_type(tmp_path, ext):
    path = tmp_path / f"a{ext}"
    assert cv2.imwrite(str(path), np.zeros((37, 53, 3), np.uint8))
    assert image_size(path) == (53, 37)


def test_a_picture_over_the_cap_is_refused_with_one_line_before_decoding(tmp_path, monkeypatch):
    png, jpg = tmp_path / "huge.png", tmp_path / "huge.jpg"
    png.write_bytes(huge_png())
    jpg.write_bytes(huge_jpeg())
    assert size_of(jpg.read_bytes()) == (20000, 20000)
    monkeypatch.setattr(cv2, "imread", lambda *a: pytest.fail("decoded a picture over the cap"))
    monkeypatch.setattr(cv2, "imdecode", lambda *a: pytest.fail("decoded a picture over the cap"))
    for path in (png, jpg):
        with pytest.raises(ImageTooLargeError) as err:
            read_image(path)
        assert str(err.value) == f"{path}: {CAP}"
        with pytest.raises(ImageTooLargeError):
            decode(path.read_bytes(), str(path))
    assert refusal(png) == f"{png}: {CAP}"


def test_pictures_at_the_cap_are_read(tmp_path):
    path = tmp_path / "ok.png"
    cv2.imwrite(str(path), np.zeros((10, 12, 3), np.uint8))
    assert read_image(path).shape == (10, 12, 3)
    assert read_image(path, limit=120) is not None
    with pytest.raises(ImageTooLargeError, match=r"more than the 0\.000119 megapixels"):
        read_image(path, limit=119)
    assert check_pixels(np.zeros((8000, 8000, 1), np.uint8), "f") is None  # exactly 64 megapixels
    assert MAX_PIXELS == 64_000_000
    assert "64.0 megapixels" in (check_pixels(np.zeros((8001, 8000, 1), np.uint8), "frame 3") or "")


def test_a_camera_folder_skips_a_huge_picture_with_one_warning(tmp_path, caplog):
    (tmp_path / "a.png").write_bytes(huge_png())
    cv2.imwrite(str(tmp_path / "b.png"), np.full((20, 30, 3), 7, np.uint8))
    src = FolderSource(tmp_path)
    with caplog.at_level(logging.WARNING, logger="vision.sources"):
        src.open()
        src.open()  # said once
    assert [r.getMessage() for r in caplog.records] == [f"skipped {tmp_path / 'a.png'}: {CAP}"]
    assert src.read().shape == (20, 30, 3) and src.read() is None


def test_a_folder_of_nothing_but_huge_pictures_is_one_error(tmp_path):
    (tmp_path / "a.png").write_bytes(huge_png())
    with pytest.raises(SourceError, match=r"holds no image that may be read: .*400\.0 megapixels"):
        FolderSource(tmp_path).open()


def test_serve_camera_on_a_folder_of_huge_pictures_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "a.png").write_bytes(huge_png())
    code = main(["serve", "--port", "0", "--data", str(tmp_path / "data"), "--camera", str(tmp_path / "frames")])
    out, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "400.0 megapixels" in err
    assert "listening" not in out


def test_recognize_and_enroll_refuse_a_huge_input_in_one_line(tmp_path, capsys):
    from games.tribes.vision.cli import _read_image

    path = tmp_path / "table.png"
    path.write_bytes(huge_png())
    with pytest.raises(ImageTooLargeError, match=r"400\.0 megapixels"):
        _read_image(str(path))
    setup = (
        "setup row=exp,off-ach,mov,mov-ach,exp-ach,off era1=schamanismus,toepfern,schmuck,jagen "
        "lands=gold/goat/incense,horse/wheat/incense,wheat/gold/incense,gold/incense/horse"
    )
    code = main(["enroll", str(path), "--players", "4", "--setup", setup, "-o", str(tmp_path / "box")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and f"{path}: {CAP}" in err
    assert not list(tmp_path.glob("box*"))


def test_a_photo_pack_and_an_art_pack_refuse_a_huge_photo(tmp_path, capsys):
    from games.tribes.vision.artpack import load_pack
    from games.tribes.vision.photopack import cut_faces

    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "resource-goat.png").write_bytes(huge_png())
    with pytest.raises(PhotoPackError, match=r"400\.0 megapixels"):
        cut_faces(photos)
    code = main(["render", "photo-pack", str(photos), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "400.0 megapixels" in err
    pack = tmp_path / "pack"
    assert main(["render", "pack", "--style", "classic", "-o", str(pack)]) == 0
    capsys.readouterr()
    victim = sorted(p for p in pack.iterdir() if p.suffix == ".png")[0]
    victim.write_bytes(huge_png())
    with pytest.raises(ArtPackError, match=r"400\.0 megapixels"):
        load_pack(pack)


def test_a_video_whose_frames_are_over_the_cap_is_refused_at_open(tmp_path, monkeypatch):
    from vision.sources import OpenCVSource

    video = tmp_path / "v.avi"
    out = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for _ in range(3):
        out.write(np.zeros((48, 64, 3), np.uint8))
    out.release()
    src = OpenCVSource(str(video))
    src.open()
    assert src.read().shape == (48, 64, 3)
    src.close()
    monkeypatch.setattr("vision.sources.too_large", lambda w, h: f"{w} x {h} pixels is more than the cap")
    with pytest.raises(SourceError, match="its frames are 64 x 48 pixels is more than the cap"):
        OpenCVSource(str(video)).open()


def test_a_frame_over_the_cap_from_a_stream_is_an_error_not_a_picture(monkeypatch):
    from vision.sources import OpenCVSource

    class Cap:
        def read(self):
            return True, np.zeros((9000, 8000, 1), np.uint8)

    src = OpenCVSource("0")
    src.cap = Cap()
    with pytest.raises(SourceError, match="a frame: 8000 x 9000 pixels"):
        src.read()


def test_the_cap_reaches_opencv_too():
    import os

    assert os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] == str(MAX_PIXELS)
