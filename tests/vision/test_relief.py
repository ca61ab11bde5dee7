"""The piece-against-bare-art model (``vision.relief``): its features, its file and its manifest entry."""

from __future__ import annotations

import json
import shutil

import cv2
import numpy as np
import pytest

from vision.errors import ModelError
from vision.features import Models, default_models_dir, sha256
from vision.relief import GRID, N_FEATURES, RELIEF_PX, PieceModel, area, relief_features


def _texture(seed: int, light: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    px = RELIEF_PX
    art = np.zeros((px, px, 3), np.float32)
    art[..., 0] = light + cv2.GaussianBlur(rng.normal(0, 6, (px, px)).astype(np.float32), (0, 0), 1.5)
    art[..., 1:] = rng.normal(0, 3, 2).astype(np.float32)
    return art


def test_features_are_the_changes_from_the_bare_art_and_its_own_edges() -> None:
    bare = np.stack([_texture(s, 30.0 + 20 * s) for s in range(3)])
    same = relief_features(bare, bare, RELIEF_PX // 2)
    assert same.shape == (3, N_FEATURES) and same.dtype == np.float32 and np.isfinite(same).all()
    k = GRID * GRID
    assert np.allclose(same[:, : 2 * k], 0.0, atol=1e-4)  # nothing changed: no lightness or chroma difference
    assert np.allclose(same[:, 2 * k : 3 * k], same[:, 3 * k : 4 * k])  # the frame's edges are the art's
    darker = bare.copy()
    darker[:, 12:20, 12:20, 0] -= 15.0  # something dark in the middle
    got = relief_features(darker, bare, RELIEF_PX // 2)
    middle = got[:, :k].reshape(3, GRID, GRID)[:, 3:5, 3:5]
    assert (middle < -10).all() and np.allclose(got[:, :k].reshape(3, GRID, GRID)[:, 0, :], 0.0, atol=1e-4)
    # the same change against the art's own contrast: larger on a flat tile than on a busy one
    flat = bare.copy()
    flat[..., 0] = 30.0
    flat_darker = flat.copy()
    flat_darker[:, 12:20, 12:20, 0] -= 15.0
    on_flat = relief_features(flat_darker, flat, RELIEF_PX // 2)
    assert np.allclose(on_flat[:, :k], got[:, :k], atol=1e-3)
    assert (np.abs(on_flat[:, 4 * k : 5 * k]) >= np.abs(got[:, 4 * k : 5 * k]) - 1e-6).all()
    with pytest.raises(ValueError, match="must both be n x px x px x 3"):
        relief_features(bare, bare[:, :16], 16)


def test_a_change_counts_alike_lighter_or_darker_than_the_art() -> None:
    """Another box's black may be lighter than dark art, ours darker than pale: the size of the
    lightness change and the outline of what changed (the last four blocks) do not depend on its sign,
    while the signed difference (the first block) does."""
    bare = np.stack([_texture(s, 40.0) for s in range(2)])
    yy, xx = np.mgrid[:RELIEF_PX, :RELIEF_PX]
    disc = np.hypot(xx - 15.5, yy - 15.5) <= 7
    lighter, darker = bare.copy(), bare.copy()
    lighter[:, disc, 0] += 12.0
    darker[:, disc, 0] -= 12.0
    k = GRID * GRID
    up, down = (relief_features(w, bare, RELIEF_PX) for w in (lighter, darker))
    assert np.allclose(up[:, :k], -down[:, :k], atol=1e-3) and up[:, :k].max() > 5
    assert np.allclose(up[:, 8 * k :], down[:, 8 * k :], atol=1e-3)
    outline = up[:, 10 * k : 11 * k].reshape(2, GRID, GRID)
    assert (outline[:, 0, :] < 1e-3).all() and outline.max() > 10  # the disc's rim, nothing at the border


def test_area_means_whole_blocks_of_every_window_apart() -> None:
    rng = np.random.default_rng(3)
    w = rng.random((5, 32, 32, 3)).astype(np.float32)
    assert np.allclose(area(w, 16), w.reshape(5, 16, 2, 16, 2, 3).mean(axis=(2, 4)), atol=1e-6)
    assert np.allclose(area(w[..., 0], 8), w[..., 0].reshape(5, 8, 4, 8, 4).mean(axis=(2, 4)), atol=1e-6)
    odd = area(w, 12)  # not whole blocks: each window on its own
    assert odd.shape == (5, 12, 12, 3)
    assert np.allclose(odd[2], cv2.resize(w[2], (12, 12), interpolation=cv2.INTER_AREA), atol=1e-6)


def test_the_shipped_model_sees_no_piece_where_the_frame_is_the_bare_art() -> None:
    model = Models().pieces()
    assert model is not None and model.meta.get("model") == "pieces"
    bare = np.stack([_texture(s, light) for s, light in enumerate((12.0, 35.0, 60.0, 88.0))])
    assert (model.probabilities(relief_features(bare, bare, RELIEF_PX // 2)) < 0.1).all()


def test_a_piece_model_file_round_trips_and_bad_ones_name_their_field(tmp_path) -> None:
    rng = np.random.default_rng(1)
    m = PieceModel(rng.random(N_FEATURES), rng.random(N_FEATURES) + 0.5, rng.normal(size=N_FEATURES), 0.25, {"x": 1})
    path = tmp_path / "pieces.json"
    path.write_text(json.dumps(m.to_json()))
    back = PieceModel.load(path)
    x = rng.random((4, N_FEATURES))
    assert np.allclose(back.probabilities(x), m.probabilities(x), atol=1e-5) and back.meta["x"] == 1
    for change, field in (
        ({"features": "relief-v0"}, "features"),
        ({"weights": [1.0] * 3}, "weights"),
        ({"scale": [0.0] * N_FEATURES}, "scale"),
        ({"bias": "high"}, "bias"),
    ):
        path.write_text(json.dumps({**m.to_json(), **change}))
        with pytest.raises(ModelError, match=f"pieces.json: {field}: "):
            PieceModel.load(path)
    path.write_text("{")
    with pytest.raises(ModelError, match="is not JSON"):
        PieceModel.load(path)
    with pytest.raises(ModelError, match="cannot be read"):
        PieceModel.load(tmp_path / "none.json")


def test_the_manifest_checks_the_piece_model_and_a_folder_may_lack_it(tmp_path) -> None:
    folder = tmp_path / "models"
    shutil.copytree(default_models_dir(), folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    doc = json.loads((folder / "models.json").read_text())
    assert doc["extras"]["pieces"]["sha256"] == sha256(folder / "pieces.json")
    with (folder / "pieces.json").open("a") as f:
        f.write(" ")
    with pytest.raises(ModelError, match=r"pieces.json: sha256 .* does not match"):
        Models(folder).check()
    (folder / "pieces.json").unlink()
    with pytest.raises(ModelError, match=r"pieces\.json: missing"):
        Models(folder).pieces()
    del doc["extras"]
    (folder / "models.json").write_text(json.dumps(doc))
    assert Models(folder).pieces() is None  # an older folder: the board reads stones by colour alone
