"""Art packs: built-in packs differ, a pack folder round-trips and fails clearly, and a pack can be
built from (rendered) photos of tiles on the capture sheet."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from games.tribes.rules.profile import default_profile
from games.tribes.sim.packart import HEX_H, HEX_W, STYLES, hex_points
from games.tribes.sim.packs import builtin_pack, resolve_pack
from games.tribes.vision.artpack import export_pack, load_pack, required_faces
from games.tribes.vision.photopack import build_pack, cut_faces
from sim.camera import Camera
from sim.effects import Effects, EffectsApplier
from vision.errors import ArtPackError, PhotoPackError
from vision.markers import capture_page

PAGE_PX_PER_MM = 8.0


def _grey(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return cv2.resize(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), size, interpolation=cv2.INTER_AREA).astype(np.float32)


def _ncc(a: np.ndarray, b: np.ndarray, mask: np.ndarray | None = None) -> float:
    if mask is not None:
        a, b = a[mask], b[mask]
    a = a - a.mean()
    b = b - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


def test_builtin_packs_are_complete_and_clearly_different():
    prof = default_profile()
    packs = [builtin_pack(s, prof) for s in STYLES]
    for p in packs:
        p.check(prof)
    for key in ("resource-goat", "resource-gold", "exhausted", "action-off", "achievement-kaese"):
        imgs = [p.faces[key] for p in packs]
        for i in range(len(imgs)):
            for j in range(i + 1, len(imgs)):
                # mean colour and structure both differ between styles
                diff = np.abs(imgs[i].astype(int) - imgs[j].astype(int)).mean()
                assert diff > 25, (key, STYLES[i], STYLES[j], diff)


def test_pack_folder_round_trip(tmp_path):
    pack = builtin_pack("sketch")
    export_pack(pack, tmp_path / "p")
    back = load_pack(tmp_path / "p")
    for key, _ in required_faces(default_profile()):
        assert np.array_equal(back.faces[key], pack.faces[key])
    assert back.colours["red"] == pack.colours["red"]
    assert resolve_pack(tmp_path / "p").name == "sketch"


def test_pack_errors_name_the_face(tmp_path):
    export_pack(builtin_pack("bold"), tmp_path / "p")
    (tmp_path / "p" / "event-wolves.png").unlink()
    with pytest.raises(
        ArtPackError, match=r"p: event-wolves: missing: no image event-wolves.png \(or .jpg\) for event tile wolves"
    ):
        load_pack(tmp_path / "p")
    (tmp_path / "p" / "event-wolves.png").write_bytes(b"not an image")
    with pytest.raises(ArtPackError, match=r"event-wolves: cannot read image event-wolves.png"):
        load_pack(tmp_path / "p")
    cv2.imwrite(str(tmp_path / "p" / "event-wolves.png"), np.zeros((40, 40, 3), np.uint8))
    meta = json.loads((tmp_path / "p" / "pack.json").read_text())
    meta["colours"]["red"] = [300, 0, 0]
    (tmp_path / "p" / "pack.json").write_text(json.dumps(meta))
    with pytest.raises(ArtPackError, match=r"pack.json: colours.red: must be \[r, g, b\] with integers 0-255"):
        load_pack(tmp_path / "p")
    meta["colours"]["red"] = [200, 0, 0]
    meta["files"] = {"resource-goat": "goat-photo.jpg"}
    (tmp_path / "p" / "pack.json").write_text(json.dumps(meta))
    with pytest.raises(ArtPackError, match=r"files.resource-goat: names goat-photo.jpg, which does not exist"):
        load_pack(tmp_path / "p")
    with pytest.raises(ArtPackError, match="is not a folder"):
        load_pack(tmp_path / "nope")
    with pytest.raises(ArtPackError, match="no such built-in pack"):
        builtin_pack("neon")


def photo_of_tile(
    face: np.ndarray, hexagonal: bool, size_mm: float, angle: float, tilt: float, azimuth: float, seed: int
) -> np.ndarray:
    """A rendered photo: the capture sheet with the tile laid in its window, seen by a tilted
    camera under uneven, tinted light, with noise and JPEG compression."""
    k = PAGE_PX_PER_MM
    page = cv2.cvtColor(capture_page("DICT_4X4_50").raster(k * 25.4), cv2.COLOR_GRAY2BGR)
    h, w = face.shape[:2]
    m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), -angle, size_mm * k / w)
    m[:, 2] += np.array([105 * k - 0.5, 148.5 * k - 0.5]) - np.array([(w - 1) / 2, (h - 1) / 2])
    size = (page.shape[1], page.shape[0])
    mask = np.zeros((h, w), np.uint8)
    if hexagonal:
        cv2.fillConvexPoly(mask, np.round(hex_points()).astype(np.int32), 255)
    else:
        mask[:] = 255
    inside = cv2.warpAffine(mask, m, size) > 127
    page[inside] = cv2.warpAffine(face, m, size)[inside]
    cam = Camera.looking_at((105, 148.5), 330, width=1600, height=1200, tilt=tilt, azimuth=azimuth, roll=8, fov=55)
    to_mm = np.array([[1 / k, 0, 0.5 / k], [0, 1 / k, 0.5 / k], [0, 0, 1]])
    img = cv2.warpPerspective(
        page, cam.table_homography() @ to_mm, (cam.width, cam.height), flags=cv2.INTER_AREA, borderValue=(60, 70, 80)
    )
    gain = np.linspace(0.8, 1.1, img.shape[1])[None, :, None] * np.array([0.92, 1.0, 1.1])
    img = np.clip(img * gain, 0, 255).astype(np.uint8)
    return EffectsApplier(seed).apply(img, Effects(noise=3, jpeg=85), np.random.default_rng(seed))


@pytest.fixture(scope="module")
def photo_folder(tmp_path_factory):
    pack = builtin_pack("classic")
    d = tmp_path_factory.mktemp("photos")
    cv2.imwrite(str(d / "resource-goat.jpg"), photo_of_tile(pack.faces["resource-goat"], True, 46.19, 7, 25, 20, 1))
    cv2.imwrite(str(d / "IMG_0001.jpg"), photo_of_tile(pack.faces["action-off"], False, 46, -6, 30, 200, 2))
    cv2.imwrite(str(d / "exhausted.jpg"), photo_of_tile(pack.faces["exhausted"], True, 46.19, -12, 15, 300, 3))
    (d / "manifest.json").write_text(json.dumps({"photos": {"IMG_0001.jpg": {"face": "action-off"}}}))
    return d


def test_faces_are_cut_from_rendered_photos(photo_folder):
    pack = builtin_pack("classic")
    cut = {c.key: c for c in cut_faces(photo_folder)}
    assert set(cut) == {"resource-goat", "action-off", "exhausted"}
    hexmask = np.zeros((HEX_H // 4, HEX_W // 4), np.uint8)
    cv2.fillConvexPoly(hexmask, np.round(hex_points(HEX_W // 4, HEX_H // 4, inset=3)).astype(np.int32), 1)
    for key, c in cut.items():
        assert c.method == "sheet"
        size = (HEX_W // 4, HEX_H // 4) if key != "action-off" else (64, 64)
        mask = hexmask.astype(bool) if key != "action-off" else None
        got, want = _grey(c.image, size), _grey(pack.faces[key], size)
        assert _ncc(got, want, mask) > 0.9, key
        # and it does not match another face as well
        other = _grey(pack.faces["resource-wheat" if key != "action-off" else "action-mov"], size)
        assert _ncc(got, other, mask) < _ncc(got, want, mask) - 0.2


def test_build_pack_fills_from_a_builtin_and_loads(photo_folder, tmp_path):
    out = tmp_path / "mine"
    pack = build_pack(photo_folder, out, fill_from=builtin_pack("bold"))
    meta = json.loads((out / "pack.json").read_text())
    assert meta["sources"]["resource-goat"].startswith("photo:resource-goat.jpg")
    assert meta["sources"]["event-wolves"] == "builtin:bold"
    back = load_pack(out)
    assert np.array_equal(back.faces["action-off"], pack.faces["action-off"])
    with pytest.raises(PhotoPackError, match=r"photos give 3 face\(s\); missing \d+, e.g. resource-horse"):
        build_pack(photo_folder, tmp_path / "partial")


def test_photo_errors(tmp_path):
    d = tmp_path / "ph"
    d.mkdir()
    cv2.imwrite(str(d / "goat.jpg"), np.full((100, 100, 3), 200, np.uint8))
    with pytest.raises(PhotoPackError, match=r"goat.jpg: 'goat' is not a face name"):
        cut_faces(d)
    (d / "goat.jpg").rename(d / "resource-goat.jpg")
    with pytest.raises(PhotoPackError, match=r"resource-goat.jpg: found 0 of the capture sheet's 4 markers"):
        cut_faces(d)
    # a photo without the sheet can give the corners instead
    img = np.zeros((300, 300, 3), np.uint8)
    img[50:250, 60:260] = (0, 0, 255)
    cv2.imwrite(str(d / "action-off.png"), img)
    (d / "resource-goat.jpg").unlink()
    (d / "manifest.json").write_text(
        json.dumps({"photos": {"action-off.png": {"corners": [[60, 50], [259, 50], [259, 249], [60, 249]]}}})
    )
    (c,) = cut_faces(d)
    assert c.method == "corners" and c.image[128, 128].tolist() == [0, 0, 255]
