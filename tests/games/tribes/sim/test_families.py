"""Art families (``games.tribes.sim.families``): each family changes the faces, deterministically
from (face key, family, seed), keeps shape and dtype, and gives the look it is named for; the
held-out pack is refused for training."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from games.tribes.sim.families import FAMILIES, family_face, family_pack
from games.tribes.sim.packs import builtin_pack

KEYS = ("resource-goat", "exhausted", "action-mov")


@pytest.fixture(scope="module")
def faces() -> dict[str, np.ndarray]:
    src = builtin_pack("classic")
    return {k: src.faces[k] for k in KEYS}


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_changes_the_faces_keeps_shape_and_is_deterministic(
    faces: dict[str, np.ndarray], family: str
) -> None:
    for key, img in faces.items():
        a = family_face(img, key, family, 0)
        assert a.shape == img.shape and a.dtype == np.uint8
        assert np.abs(a.astype(np.int16) - img.astype(np.int16)).mean() > 3.0, (family, key)
        assert np.array_equal(a, family_face(img, key, family, 0))
        assert not np.array_equal(a, family_face(img, key, family, 1)), "another seed, another look"
    assert np.array_equal(faces["resource-goat"], builtin_pack("classic").faces["resource-goat"]), "input untouched"


def _hls(img: np.ndarray) -> tuple[float, float]:
    """Mean lightness and mean saturation (0..1)."""
    hls = cv2.cvtColor(img, cv2.COLOR_BGR2HLS).astype(np.float32) / 255.0
    return float(hls[..., 1].mean()), float(hls[..., 2].mean())


def _texture(img: np.ndarray) -> float:
    """Mean absolute Laplacian of the grey image: how much fine detail there is."""
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return float(np.abs(cv2.Laplacian(g, cv2.CV_32F)).mean())


def test_the_named_looks_hold(faces: dict[str, np.ndarray]) -> None:
    for key, img in faces.items():
        light, _ = _hls(img)
        pale_l, pale_s = _hls(family_face(img, key, "pale"))
        assert pale_l > 0.8 and pale_s < 0.25, key
        dark_l, _ = _hls(family_face(img, key, "dark"))
        assert dark_l < 0.25 and dark_l < light, key
        assert _texture(family_face(img, key, "busy")) > 1.5 * _texture(img), key
        assert _texture(family_face(img, key, "flat")) < _texture(img), key
        flat = family_face(img, key, "flat")
        assert len(np.unique(flat.reshape(-1, 3), axis=0)) <= 8, "a few flat colours"
        photo = cv2.cvtColor(family_face(img, key, "photo"), cv2.COLOR_BGR2GRAY).astype(np.float32)
        assert (photo - cv2.GaussianBlur(photo, (0, 0), 3.0)).std() > 2.0, "texture and grain everywhere"
        assert np.abs(family_face(img, key, "text").astype(np.int16) - img).max() > 100, "printed glyphs"


def test_family_pack_transforms_every_face_and_refuses_the_held_out_pack() -> None:
    src = builtin_pack("bold")
    p = family_pack("bold", "dark", 2)
    assert p.name == "bold-dark2" and set(src.faces) <= set(p.faces)
    assert family_pack("bold", "dark", 2) is p, "cached"
    assert _hls(p.faces["resource-wheat"])[0] < _hls(src.faces["resource-wheat"])[0]
    with pytest.raises(ValueError):
        family_pack("sketch", "pale")
    assert family_pack("sketch", "pale", held_out=True).name == "sketch-pale0"
    with pytest.raises(ValueError):
        family_face(src.faces["exhausted"], "exhausted", "neon")
