"""Registration: the table plane from the markers of rendered frames with known corners; markers
hidden by arms; a bumped camera; frames without markers; the distortion model and the sampler."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.vision.layout import default_layout
from sim.camera import Camera
from vision.patches import patch_set
from vision.registration import Registrar, Registration, fit_registration
from vision.sampling import Sampler, window_pixels


def _hex_error(reg: Registration, truth: dict) -> np.ndarray:
    lay = default_layout()
    hexes = [h for h in truth["hexes"] if h["in_view"]]
    mm = np.array([lay.hex_center(h["seat"], tuple(h["hex"])) for h in hexes])
    px = np.array([h["center"] for h in hexes])
    return np.linalg.norm(reg.project(mm) - px, axis=1)


@pytest.mark.parametrize("tilt,azimuth", [(0.0, 0.0), (18.0, 40.0), (34.0, 200.0)])
def test_registers_rendered_frames_within_a_pixel(tilt, azimuth):
    fr = cs.frame(40, tilt, azimuth)
    res = Registrar(default_layout()).update(cv2.cvtColor(fr.image, cv2.COLOR_BGR2GRAY))
    assert res.ok and res.status == "registered"
    seen = {m["id"] for m in fr.truth["markers"] if m["visible"]}
    assert set(res.seen) == seen
    # detected corners agree with the truth's corners, and the lattice lands where the truth says
    for m in fr.truth["markers"]:
        if m["id"] in res.corners:
            assert np.abs(res.corners[m["id"]] - np.array(m["corners"])).max() < 1.0
    err = _hex_error(res.registration, fr.truth)
    assert err.max() < 1.5, err.max()
    assert res.registration.rms < 1.0


def test_keeps_working_with_markers_hidden_and_notices_a_bump():
    lay = default_layout()
    fr = cs.frame(40)
    gray = cv2.cvtColor(fr.image, cv2.COLOR_BGR2GRAY)
    reg = Registrar(lay)
    first = reg.update(gray)
    assert first.ok
    # an arm over three markers: the registration is kept (the visible ones agree)
    hidden = gray.copy()
    for m in fr.truth["markers"][:3]:
        c = np.array(m["corners"])
        x0, y0 = np.floor(c.min(0)).astype(int) - 4
        x1, y1 = np.ceil(c.max(0)).astype(int) + 4
        hidden[max(y0, 0) : y1, max(x0, 0) : x1] = 90
    res = reg.update(hidden)
    assert res.ok and res.status == "kept" and len(res.seen) == len(first.seen) - 3
    # from scratch, the remaining markers still register the table
    fresh = Registrar(lay).update(hidden)
    assert fresh.ok and _hex_error(fresh.registration, fr.truth).max() < 3.0
    # the camera is bumped: the markers disagree, the table is registered again
    bumped = cs.renderer().render(cs.game().states[40], cs.camera(20.0, 44.0), cs.LIGHT, cs.FX)
    res2 = reg.update(cv2.cvtColor(bumped.image, cv2.COLOR_BGR2GRAY))
    assert res2.status == "moved"
    assert _hex_error(res2.registration, bumped.truth).max() < 1.5


def test_a_camera_that_stays_put_is_searched_only_where_its_markers_are():
    """Once registered, the markers are looked for in boxes around where they were: same markers,
    same corners, never the whole frame; a hidden marker or a bumped camera makes it search the
    whole frame again, and the result is what a whole-frame search gives."""
    lay = default_layout()
    fr = cs.frame(40)
    gray = cv2.cvtColor(fr.image, cv2.COLOR_BGR2GRAY)
    reg = Registrar(lay)
    sizes: list[tuple[int, int]] = []
    detector = reg._detector

    class Counting:
        def detectMarkers(self, img):  # OpenCV's name
            sizes.append(img.shape[:2])
            return detector.detectMarkers(img)

    reg._detector = Counting()  # type: ignore[assignment]
    first = reg.update(gray)
    assert first.ok and max(sizes) >= (gray.shape[0] // 2, gray.shape[1] // 2)
    sizes.clear()
    again = reg.update(gray)
    assert again.status == "kept" and again.seen == first.seen
    assert len(sizes) >= len(first.seen) and all(h * w < 0.05 * gray.size for h, w in sizes)
    for mid, c in first.corners.items():
        assert np.abs(again.corners[mid] - c).max() < 0.05
    # one marker covered: the boxes miss it, the whole frame is searched and the rest agree
    m = next(m for m in fr.truth["markers"] if m["id"] in first.seen)
    c = np.array(m["corners"])
    (x0, y0), (x1, y1) = np.floor(c.min(0)).astype(int) - 4, np.ceil(c.max(0)).astype(int) + 4
    hidden = gray.copy()
    hidden[max(y0, 0) : y1, max(x0, 0) : x1] = 90
    sizes.clear()
    res = reg.update(hidden)
    assert res.status == "kept" and set(res.seen) == set(first.seen) - {m["id"]}
    assert any(h * w >= 0.2 * gray.size for h, w in sizes)  # the whole frame (at half size)
    # the marker is back: the boxes find it again (every marker in view is looked for)
    assert set(reg.update(gray).seen) == set(first.seen)
    # a bumped camera: not where they were, so the whole frame is searched and the table found again
    bumped = cs.renderer().render(cs.game().states[40], cs.camera(20.0, 44.0), cs.LIGHT, cs.FX)
    res2 = reg.update(cv2.cvtColor(bumped.image, cv2.COLOR_BGR2GRAY))
    assert res2.status == "moved" and _hex_error(res2.registration, bumped.truth).max() < 1.5


def test_a_frame_without_markers_is_unregistered():
    reg = Registrar(default_layout())
    blank = np.full((720, 1280), 128, np.uint8)
    res = reg.update(blank)
    assert not res.ok and res.status == "unregistered" and res.seen == ()
    noise = np.random.default_rng(0).integers(0, 255, (720, 1280), dtype=np.uint8)
    assert not reg.update(noise).ok


def test_fit_recovers_homography_and_distortion():
    rng = np.random.default_rng(3)
    H = np.array([[1.2, 0.05, 310.0], [-0.03, 1.15, 60.0], [2e-5, -1e-5, 1.0]])
    truth = Registration(H, -0.06, (1920, 1080))
    mm = rng.uniform(0, 1000, (40, 2))
    px = truth.project(mm)
    fit = fit_registration(mm, px, (1920, 1080))
    assert fit is not None and abs(fit.k - truth.k) < 0.005
    assert np.abs(fit.project(mm) - px).max() < 0.05
    # undistort and distort are inverse; to_table inverts project
    assert np.abs(truth.distort(truth.undistort(px)) - px).max() < 1e-6
    assert np.abs(truth.to_table(px) - mm).max() < 1e-6
    assert fit_registration(mm[:3], px[:3], (1920, 1080)) is None


def test_window_sampling_matches_exact_projection():
    H = np.array([[1.2, 0.05, 310.0], [-0.03, 1.15, 60.0], [2e-5, -1e-5, 1.0]])
    reg = Registration(H, -0.08, (1920, 1080))
    ps = patch_set("t", [(100.0, 200.0), (600.0, 500.0), (900.0, 600.0)], [0.0, 30.0, 200.0], 48.0, 40)
    approx = window_pixels(reg, ps)
    exact = reg.project(ps.grid.reshape(-1, 2)).reshape(approx.shape)
    assert np.abs(approx - exact).max() < 0.3
    img = np.zeros((1080, 1920, 3), np.uint8)
    img[:, :, 1] = 200
    out = Sampler().sample(img, reg, ps)
    assert Sampler().inside(reg, ps).all()
    assert out.shape == (3, 40, 40, 3) and (out[..., 1] == 200).all()


@pytest.mark.parametrize(
    "tilt,azimuth,fov", [(0.5, 0.0, 70.0), (12.0, 30.0, 60.0), (22.0, 130.0, 75.0), (32.0, 200.0, 55.0)]
)
def test_the_camera_is_found_above_the_table_from_the_homography(tilt, azimuth, fov):
    """Where the camera stands (the table point below it and its height), from the homography alone,
    for cameras of other fields of view than the assumed one; straight down included."""
    cam = Camera.framing(default_layout(), width=1920, height=1080, tilt=tilt, azimuth=azimuth, fov=fov)
    reg = Registration(cam.table_homography(), 0.0, (1920, 1080))
    foot, height = reg.viewpoint()
    assert np.linalg.norm(foot - np.asarray(cam.nadir)) < 0.01 * cam.height_mm
    assert abs(height - cam.height_mm) < 0.01 * cam.height_mm
    # a piece's top is seen where the ray through it meets the table: farther out from below the camera
    feet = np.array([[300.0, 200.0], [900.0, 700.0], [600.0, 500.0]])
    tops = reg.raised(feet, 10.0)
    seen = reg.to_table(cam.project(feet, 10.0))
    assert np.abs(tops - seen).max() < 0.1
    assert np.array_equal(reg.raised(feet, 0.0), feet)
