"""Training data with art families: every window records its frame's family and piles
(``tools.training.dataset``), ``--mix variants`` keeps the earlier draw, and ``train.py
--exclude-family`` leaves a family's windows out (a LOFO fold)."""

from __future__ import annotations

import numpy as np
import pytest

from games.tribes.sim.families import FAMILIES
from tools.training.dataset import VARIANT_FAMILY, Generator
from tools.training.train import exclude_families


@pytest.mark.parametrize("mix", ["families", "variants"])
def test_each_window_records_its_frames_family_and_piles(mix: str) -> None:
    gen = Generator(mix)
    out = None
    for seed in range(5):
        out = gen.sample(seed)
        if out is not None and out["members"]:
            break
    assert out is not None
    for kind in ("tile", "member", "shell"):
        assert len(out[f"{kind}_families"]) == len(out[f"{kind}s"])
        assert len(out[f"{kind}_piles"]) == len(out[f"{kind}s"])
    # each member window records how a standing member leans in it: a short vector in its pixels
    # (a 16 mm piece in a 62 mm window of 48 pixels: seen 60 degrees off the vertical, its top lies
    # 21 pixels from its foot; the renderer's cameras see the table far more steeply)
    lean = np.stack(out["member_leans"])
    assert lean.shape == (len(out["members"]), 2) and np.isfinite(lean).all()
    assert np.abs(lean).max() < 21.0
    fam, piles = out["member_families"][0], out["member_piles"][0]
    if mix == "variants":
        assert (fam, piles) == (VARIANT_FAMILY, "fixed")
    else:
        assert fam in (*FAMILIES, VARIANT_FAMILY) and piles in ("fixed", "varied")


@pytest.mark.slow  # 120 art packs drawn: ~37 s on the 2-core machine (a training tool, not the product)
def test_the_art_draw_mixes_families_variants_and_piles() -> None:
    gen = Generator("families")
    draws = [gen.art(np.random.default_rng([s, 31337]))[1:] for s in range(120)]
    fams = {f for f, _ in draws}
    assert set(FAMILIES) <= fams and VARIANT_FAMILY in fams
    varied = sum(p == "varied" for _, p in draws) / len(draws)
    assert 0.5 < varied < 0.8
    with pytest.raises(ValueError):
        Generator("neon")


def test_exclude_families_drops_every_array_of_those_windows() -> None:
    data = {
        "members": np.arange(5),
        "member_counts": np.arange(5) * 2,
        "member_families": np.array(["dark", "pale", "dark", "variant", "busy"]),
        "member_piles": np.array(["fixed"] * 5),
        "shells": np.arange(2),
        "shell_families": np.array(["dark", "flat"]),
        "tiles": np.arange(3),
        "tile_families": np.array(["pale", "pale", "text"]),
    }
    out = exclude_families(data, ["dark"])
    assert out["members"].tolist() == [1, 3, 4] and out["member_counts"].tolist() == [2, 6, 8]
    assert out["shells"].tolist() == [1] and out["tiles"].tolist() == [0, 1, 2]
    assert exclude_families(data, []) is data
    with pytest.raises(SystemExit):
        exclude_families({"members": np.arange(2)}, ["dark"])


def test_fine_shell_windows_are_the_shell_windows_cut_finer() -> None:
    gen = Generator("families", fine_px=96)
    out = None
    for seed in range(8):
        out = gen.sample(seed)
        if out is not None and out["shells"]:
            break
    assert out is not None and out["shells"]
    assert len(out["fine_shells"]) == len(out["shells"]) == len(out["fine_shell_families"])
    assert out["fine_shell_counts"] == out["shell_counts"]
    fine = np.stack(out["fine_shells"]).astype(np.float32)
    coarse = np.stack(out["shells"]).astype(np.float32)
    assert fine.shape[1:] == (96, 96, 3) and coarse.shape[1:] == (48, 48, 3)
    shrunk = fine.reshape(len(fine), 48, 2, 48, 2, 3).mean(axis=(2, 4))  # the same place, as coarse
    same = np.abs(shrunk - coarse).mean()  # of 255: the sampling differs a little (1.1 here), the place not
    assert same < 3.0
    assert len(coarse) == 1 or np.abs(shrunk - np.roll(coarse, 1, axis=0)).mean() > 5 * same  # not another spot
