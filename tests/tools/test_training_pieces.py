"""The piece model's training tool (``tools/training/pieces.py``) on windows drawn here, not rendered."""

from __future__ import annotations

import numpy as np
import pytest

from tools.training import pieces
from vision.relief import RELIEF_PX


def _slots(n: int, seed: int) -> dict[str, np.ndarray]:
    """``n`` slots of textured bare art; every other one holds a disc with a rim (a piece), of a
    lightness drawn above or below the art's."""
    rng = np.random.default_rng(seed)
    px = RELIEF_PX
    yy, xx = np.mgrid[:px, :px]
    r = np.hypot(xx - (px - 1) / 2, yy - (px - 1) / 2)
    bare = np.zeros((n, px, px, 3), np.float32)
    bare[..., 0] = rng.uniform(15, 85, (n, 1, 1)) + rng.normal(0, 3, (n, px, px))
    bare[..., 1:] = rng.normal(0, 4, (n, 1, 1, 2))
    frame = bare + rng.normal(0, 1, bare.shape).astype(np.float32)
    piece = np.arange(n) % 2 == 1
    for i in np.flatnonzero(piece):
        disc = r <= 7
        frame[i][disc, 0] = np.clip(bare[i, ..., 0].mean() + rng.choice((-25, 25)), 0, 100)
        frame[i][(r > 7) & (r <= 8.5), 0] *= 0.6  # its edge and shadow
    return {
        "frame": frame,
        "bare": bare,
        "bare_px": np.full(n, px // 2, np.int32),
        "piece": piece,
        "read": np.zeros(n, bool),
        "session": np.arange(n) // 8,
    }


def test_a_model_fitted_on_some_slots_tells_pieces_on_others() -> None:
    data = _slots(160, 1)
    x, y = pieces.features(pieces.split(data, 0))
    model = pieces.fit(x, y, l2=30.0, meta={"model": "pieces"})
    got = pieces.errors(model, pieces.split(data, 1))
    assert got["pieces"] == 40 and got["free"] == 40
    assert got["model_missed"] + got["model_made_up"] <= 2
    assert got["reader_missed"] == 40 and got["reader_made_up"] == 0  # the "reader" here read nothing
    assert model.meta == {"model": "pieces"}


def test_halves_split_by_session_parity() -> None:
    data = _slots(48, 2)
    train, test = pieces.split(data, 0), pieces.split(data, 1)
    assert set(train["session"] % 2) == {0} and set(test["session"] % 2) == {1}
    assert len(train["piece"]) + len(test["piece"]) == 48
    assert all(len(v) == len(train["piece"]) for v in train.values())


def test_the_diagnostics_refuse_drawn_colours_on_the_evaluation_set() -> None:
    from benchmarks import vision_diag

    a = vision_diag.argparse.Namespace(
        set="eval", piece_colours="random", sessions=1, first=0, every=1, of=24, frames=1, cache="/nonexistent"
    )
    with pytest.raises(SystemExit, match="the tune set only"):
        next(vision_diag.sessions(a))


def test_faint_pieces_move_towards_the_bare_art_and_free_slots_are_not_repeated() -> None:
    data = _slots(32, 3)
    low = 0.25
    got = pieces.faint(data, low, seed=1)
    assert len(got["piece"]) == int(data["piece"].sum()) and got["piece"].all()
    sel = np.flatnonzero(data["piece"])
    change, before = got["frame"] - got["bare"], data["frame"][sel] - data["bare"][sel]
    share = np.array([float((c * b).sum() / (b * b).sum()) for c, b in zip(change, before, strict=True)])
    assert (share >= low - 1e-4).all() and (share <= 1 + 1e-4).all() and share.std() > 0.05
    x, y = pieces.training_rows(data, data, low)
    plain, _ = pieces.training_rows(data, data, 1.0)  # 1: no faint copies
    half = len(pieces.split(data, 0)["piece"])
    pieces_in_half = int(pieces.split(data, 0)["piece"].sum())
    assert len(plain) == 2 * half and len(x) == 2 * half + 2 * pieces_in_half
    assert y[2 * half :].all()
