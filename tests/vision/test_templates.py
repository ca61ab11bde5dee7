"""Pixel templates (vision.templates): the batched disagreement is the one-pair-at-a-time
``cv2.matchTemplate`` alignment it replaced — the same best shift, the same share — and a tile under
pieces disagrees with its own art only where the pieces lie."""

from __future__ import annotations

import cv2
import numpy as np

from vision.templates import TemplateMatcher, _normalised


def _art(n: int, seed: int, px: int = 40) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = cv2.resize(rng.uniform(0, 1, (n * 6, 6, 3)).astype(np.float32).reshape(n * 6, 6, 3), (px, n * px))
    return np.clip(base.reshape(n, px, px, 3) * 0.8 + 0.1, 0, 1).astype(np.float32)


def _reference(tm: TemplateMatcher, windows: np.ndarray) -> np.ndarray:
    """The former implementation: one cv2.matchTemplate per window and example."""
    out = np.ones((len(windows), len(tm.classes)), np.float32)
    queries = _normalised(windows, tm.px)
    inner = tm.px - 2 * tm.shift
    for i, q in enumerate(queries):
        for t, k in zip(tm._templates, tm._owner, strict=True):
            r = cv2.matchTemplate(q, t, cv2.TM_SQDIFF)
            dy, dx = np.unravel_index(int(r.argmin()), r.shape)
            a = q[dy : dy + inner, dx : dx + inner]
            out[i, k] = min(out[i, k], float(((((a - t) ** 2).sum(axis=-1)) > tm.tolerance**2).mean()))
    return out


def test_the_batched_alignment_gives_what_matchtemplate_gave():
    art = _art(6, 0)
    labels = ["a", "a", "b", "c", "c", "d"]
    tm = TemplateMatcher(art, labels, per_class=2)
    rng = np.random.default_rng(1)
    # the same tiles a few pixels off, dimmer and noisy, plus strangers
    moved = np.roll(art, (2, -1), axis=(1, 2)) * 0.8 + rng.normal(0, 0.02, art.shape).astype(np.float32)
    windows = np.concatenate([np.clip(moved, 0, 1), _art(3, 5)]).astype(np.float32)
    got = tm.disagreement(windows)
    ref = _reference(tm, windows)
    assert got.shape == (9, 4)
    assert np.abs(got - ref).max() < 1e-6
    # each moved tile agrees best with its own class
    own = [tm.index[lb] for lb in labels]
    assert (got[np.arange(6), own] < 0.2).all() and (got[:6].argmin(axis=1) == own).all()


def test_a_tile_under_pieces_disagrees_only_where_they_lie():
    art = _art(2, 3)
    tm = TemplateMatcher(art, ["x", "y"])
    covered = art[:1].copy()
    covered[0, 14:22, 14:22] = (0.2, 0.5, 0.3)  # a piece over an 8 x 8 square of the 40 x 40 window
    got = tm.disagreement(covered)[0]
    share = 64 / (34 * 34)  # of the aligned inner square
    assert got[tm.index["x"]] <= share + 0.02 and got[tm.index["y"]] > 3 * share
    assert tm.disagreement(np.zeros((0, 40, 40, 3), np.float32)).shape == (0, 2)
