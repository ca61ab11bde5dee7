"""Pixel templates (vision.templates): each look, batched, is the one-pair-at-a-time
``cv2.matchTemplate`` alignment (and gain) it stands for; a tile under pieces disagrees with its own
art only where the pieces lie; dark art under pale pieces, a tile's own brightness, printed grain."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.templates import TemplateMatcher, _balanced, _cell_means, _plain_lab, _small


def _art(n: int, seed: int, px: int = 40, cells: int = 6) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = cv2.resize(
        rng.uniform(0, 1, (n * cells, cells, 3)).astype(np.float32).reshape(n * cells, cells, 3), (px, n * px)
    )
    return np.clip(base.reshape(n, px, px, 3) * 0.8 + 0.1, 0, 1).astype(np.float32)


def _fine_reference(tm: TemplateMatcher, windows: np.ndarray) -> np.ndarray:
    """The fine look one window and one example at a time, with cv2.matchTemplate."""
    out = np.ones((len(windows), len(tm.classes)), np.float32)
    queries = _balanced(windows, tm.fine_px)
    inner = tm.fine_px - 2 * tm.shift
    for i, q in enumerate(queries):
        for t, k in zip(tm._templates, tm._owner, strict=True):
            r = cv2.matchTemplate(q, t, cv2.TM_SQDIFF)
            dy, dx = np.unravel_index(int(r.argmin()), r.shape)
            a = q[dy : dy + inner, dx : dx + inner]
            out[i, k] = min(out[i, k], float(((((a - t) ** 2).sum(axis=-1)) > tm.tolerance**2).mean()))
    return out


def _coarse_reference(tm: TemplateMatcher, windows: np.ndarray, examples: np.ndarray, owners: list[int]) -> np.ndarray:
    """The coarse look one window and one example at a time, with cv2.matchTemplate for the shift."""
    out = np.ones((len(windows), len(tm.classes)), np.float32)
    inner = tm.px - 2 * tm.coarse_shift
    s = tm.coarse_shift
    qsmall = _small(windows, tm.px, tm.blur)
    tsmall = _small(examples, tm.px, tm.blur)
    qn, tn = _plain_lab(qsmall), _plain_lab(tsmall)
    for i in range(len(windows)):
        for t, k in enumerate(owners):
            r = cv2.matchTemplate(qn[i], tn[t, s : s + inner, s : s + inner], cv2.TM_SQDIFF)
            dy, dx = np.unravel_index(int(r.argmin()), r.shape)
            q = qsmall[i, dy : dy + inner, dx : dx + inner]
            a = tsmall[t, s : s + inner, s : s + inner]
            ratio = _cell_means(q, tm.cells) / np.maximum(_cell_means(a, tm.cells), 0.02)
            g = np.clip(np.median(ratio, axis=0), *tm.gain)
            bound = np.maximum(tm.contrast * a.reshape(-1, 3).std(axis=0) * g, tm.floor)
            bad = (np.abs(q - g * a) > bound).any(axis=2).mean()
            out[i, k] = min(out[i, k], float(bad))
    return out


def test_each_batched_look_is_the_one_pair_at_a_time_one():
    art = _art(6, 0)
    labels = ["a", "a", "b", "c", "c", "d"]
    tm = TemplateMatcher(art, labels, per_class=2)
    rng = np.random.default_rng(1)
    # the same tiles a few pixels off, dimmer and noisy, plus strangers
    moved = np.roll(art, (2, -1), axis=(1, 2)) * 0.85 + rng.normal(0, 0.02, art.shape).astype(np.float32)
    windows = np.concatenate([np.clip(moved, 0, 1), _art(3, 5)]).astype(np.float32)
    fine = tm.fine(windows)
    assert fine.shape == (9, 4) and np.abs(fine - _fine_reference(tm, windows)).max() < 1e-6
    coarse = tm.coarse(windows)
    ref = _coarse_reference(tm, windows, art, [tm.index[lb] for lb in labels])
    # the cell means and the median are the same numbers summed in another order: a pixel right at
    # its bound may fall either way
    assert coarse.shape == (9, 4) and np.abs(coarse - ref).max() <= 2.0 / (tm.px - 2 * tm.coarse_shift) ** 2
    got = tm.disagreement(windows)
    b = tm.blend
    assert np.allclose(got, np.sqrt((fine + b) * (coarse + b)) - b, atol=1e-6)
    # each moved tile agrees best with its own class
    own = [tm.index[lb] for lb in labels]
    assert (got[np.arange(6), own] < 0.15).all() and (got[:6].argmin(axis=1) == own).all()
    # the strangers agree with no class
    assert got[6:].min() > 0.3


def test_a_tile_under_pieces_disagrees_only_where_they_lie():
    art = _art(2, 3)
    tm = TemplateMatcher(art, ["x", "y"])
    covered = art[:1].copy()
    covered[0, 14:22, 14:22] = (0.2, 0.5, 0.3)  # a piece over an 8 x 8 square of the 40 x 40 window
    got = tm.disagreement(covered)[0]
    share = 64 / (34 * 34)  # of the aligned inner square (the coarse look: a blurred pixel of edge more)
    assert got[tm.index["x"]] <= 2.5 * share and got[tm.index["y"]] > 0.3
    assert tm.fine(covered)[0, tm.index["x"]] <= share + 0.02
    assert tm.disagreement(np.zeros((0, 40, 40, 3), np.float32)).shape == (0, 2)


def _blobs(px: int, centres: list[tuple[float, float]], r: float = 0.13) -> np.ndarray:
    yy, xx = np.mgrid[0:px, 0:px]
    out = np.zeros((px, px), bool)
    for cx, cy in centres:
        out |= ((xx - cx * px) / (r * px)) ** 2 + ((yy - cy * px) / (1.3 * r * px)) ** 2 <= 1
    return out


def test_dark_art_under_pale_shells_is_still_its_own_tile():
    """Pale shells on a dark tile: a white balance per window (the fine look) takes the shells' white
    for the paper's, and every dark tile then disagrees nearly everywhere (rows of dark art read
    exactly 61 % of the time on the tuning set; docs/benchmarks.md). The coarse look's gain from the
    uncovered half keeps the tile's own; the blurred shells' halo costs it, but less than any other."""
    art = _art(4, 11) * 0.3  # dark art
    labels = ["a", "b", "c", "d"]
    tm = TemplateMatcher(art, labels)
    px = art.shape[1]
    shells = _blobs(px, [(0.3, 0.35), (0.55, 0.3), (0.45, 0.6)])  # about a third of the tile
    for k in range(4):
        w = art[k].copy()
        w[shells] = (0.85, 0.83, 0.8)
        coarse = tm.coarse(w[None])[0]
        assert int(coarse.argmin()) == k and np.delete(coarse, k).min() > coarse[k] + 0.05
        share = tm.disagreement(w[None])[0]
        assert int(share.argmin()) == k and np.delete(share, k).min() > share[k] + 0.03
        fine = tm.fine(w[None])[0]
        assert fine.min() > 0.95  # white-balanced by the shells, every tile disagrees nearly everywhere


def test_a_tile_is_told_from_a_darker_one_of_the_same_picture():
    """Two tiles of one picture, one printed a third darker: the gain between window and tile is held
    near 1 (the windows come under the enrollment's light), so brightness tells them apart."""
    a = _art(1, 21)[0]
    art = np.stack([a, a * 0.65])
    tm = TemplateMatcher(art, ["light", "dark"])
    for seen, own, other in ((a * 0.95, "light", "dark"), (a * 0.65 * 1.05, "dark", "light")):  # lamp +-5 %
        coarse = tm.coarse(seen[None])[0]
        assert coarse[tm.index[own]] < 0.05 and coarse[tm.index[other]] > 0.5
        share = tm.disagreement(seen[None])[0]  # the fine look, white-balanced, finds them alike
        assert share[tm.index[own]] < 0.05 and share[tm.index[other]] > 0.15


def test_printed_grain_that_does_not_repeat_is_not_a_difference():
    """Textured art: the grain of a camera picture is not the grain of the enrolled photo, pixel for
    pixel; the shapes are compared, at the scale of the art."""
    rng = np.random.default_rng(5)
    art = _art(3, 31)
    tm = TemplateMatcher(art + rng.normal(0, 0.06, art.shape).astype(np.float32), ["a", "b", "c"])
    seen = np.clip(art + rng.normal(0, 0.06, art.shape).astype(np.float32), 0, 1)
    share = tm.coarse(seen)
    own = share[np.arange(3), [0, 1, 2]]
    assert (share.argmin(axis=1) == [0, 1, 2]).all() and own.max() < 0.1
    assert (np.sort(share, axis=1)[:, 1] > own + 0.3).all()
    joined = tm.disagreement(seen)
    assert (joined.argmin(axis=1) == [0, 1, 2]).all() and (
        np.sort(joined, axis=1)[:, 1] > joined.min(axis=1) + 0.2
    ).all()


def test_bad_arguments():
    art = _art(2, 0)
    with pytest.raises(ValueError, match="2 template windows for 1 labels"):
        TemplateMatcher(art, ["x"])
    with pytest.raises(ValueError, match="too small"):
        TemplateMatcher(art, ["x", "y"], px=8, coarse_shift=2, cells=5)
    with pytest.raises(ValueError, match="too small"):
        TemplateMatcher(art[:, :8, :8], ["x", "y"], shift=3)
    empty = TemplateMatcher(art, ["x", "y"], skip=("x", "y"))
    assert len(empty) == 0 and empty.disagreement(art).shape == (2, 0)
