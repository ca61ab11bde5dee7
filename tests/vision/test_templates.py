"""Pixel templates (vision.templates): each look, batched, is the one-pair-at-a-time
``cv2.matchTemplate`` alignment (and gain, and correlation) it stands for; a tile under pieces
disagrees with its own art only where the pieces lie; dark art under pale pieces, a tile's own
brightness, printed grain; faint art photographed at another contrast and tint."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.templates import TemplateMatcher, _balanced, _cell_means, _plain_lab, _small, _structure_maps


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


def _structure_reference(
    tm: TemplateMatcher, windows: np.ndarray, examples: np.ndarray, owners: list[int]
) -> np.ndarray:
    """The structure look one window and one example at a time: cv2.matchTemplate's normalised
    correlation of the window's middle over the example's middle and its shifts."""
    out = np.ones((len(windows), len(tm.classes)), np.float32)
    qm = _structure_maps(windows, tm.fine_px, tm.sigma)
    tmaps = _structure_maps(examples, tm.fine_px, tm.sigma)
    m, s = tm._mid, tm.shift
    side = tm.fine_px - 2 * m
    for i in range(len(windows)):
        mid = np.ascontiguousarray(qm[i, m : m + side, m : m + side])
        for t, k in enumerate(owners):
            around = np.ascontiguousarray(tmaps[t, m - s : m + side + s, m - s : m + side + s])
            r = float(cv2.matchTemplate(around, mid, cv2.TM_CCOEFF_NORMED).max())
            out[i, k] = min(out[i, k], (1.0 - r) / 2.0)
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
    structure = tm.structure_look(windows)
    ref = _structure_reference(tm, windows, art, [tm.index[lb] for lb in labels])
    assert structure.shape == (9, 4) and np.abs(structure - ref).max() < 1e-4
    got = tm.disagreement(windows)
    b = tm.blend
    assert np.allclose(got, np.cbrt((fine + b) * (coarse + b) * (structure + b)) - b, atol=1e-6)
    two = TemplateMatcher(art, labels, per_class=2, structure=False)  # the two looks of before
    assert np.allclose(two.disagreement(windows), np.sqrt((fine + b) * (coarse + b)) - b, atol=1e-6)
    assert (two.structure_look(windows) == 1).all()
    # windows with pieces on them (``plain``) are judged by the fine and coarse looks alone
    plain = np.arange(9) % 2 == 0
    mixed = tm.disagreement(windows, plain=plain)
    assert np.allclose(mixed[plain], two.disagreement(windows)[plain], atol=1e-6)
    assert np.allclose(mixed[~plain], got[~plain], atol=1e-6)
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
    uncovered half keeps the tile's own; the blurred shells' halo costs it, but less than any other.
    The structure look would follow the shells' outlines: under three shells the row leaves it out."""
    art = _art(4, 11) * 0.3  # dark art
    labels = ["a", "b", "c", "d"]
    tm = TemplateMatcher(art, labels)
    px = art.shape[1]
    shells = _blobs(px, [(0.3, 0.35), (0.55, 0.3), (0.45, 0.6)])  # about a third of the tile
    named: set[int] = set()
    for k in range(4):
        w = art[k].copy()
        w[shells] = (0.85, 0.83, 0.8)
        coarse = tm.coarse(w[None])[0]
        assert int(coarse.argmin()) == k and np.delete(coarse, k).min() > coarse[k] + 0.05
        # three shells: the row judges such a slot without the structure look (row.STRUCTURE_SHELLS)
        share = tm.disagreement(w[None], plain=np.array([True]))[0]
        assert int(share.argmin()) == k and np.delete(share, k).min() > share[k] + 0.03
        fine = tm.fine(w[None])[0]
        assert fine.min() > 0.95  # white-balanced by the shells, every tile disagrees nearly everywhere
        named.add(int(tm.structure_look(w[None])[0].argmin()))
    assert len(named) < 4  # the structure look alone follows the shells' outlines, not the art


def test_a_tile_is_told_from_a_darker_one_of_the_same_picture():
    """Two tiles of one picture, one printed a third darker: the gain between window and tile is held
    near 1 (the windows come under the enrollment's light), so brightness tells them apart."""
    a = _art(1, 21)[0]
    art = np.stack([a, a * 0.65])
    tm = TemplateMatcher(art, ["light", "dark"])
    for seen, own, other in ((a * 0.95, "light", "dark"), (a * 0.65 * 1.05, "dark", "light")):  # lamp +-5 %
        coarse = tm.coarse(seen[None])[0]
        assert coarse[tm.index[own]] < 0.05 and coarse[tm.index[other]] > 0.5
        # the fine look, white-balanced, and the structure look, whatever the contrast, find them alike
        share = tm.disagreement(seen[None])[0]
        assert share[tm.index[own]] < 0.05 and share[tm.index[other]] > 0.08


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


def _faint_faces(px: int = 40) -> tuple[np.ndarray, list[str]]:
    """Pale tiles told apart only by faint print: a title and a mark in a shade 6 % below the paper
    (the pale art of an unseen box, as the capture sheet shows it)."""
    words = ["Flood", "Famine", "Feud", "Frost", "Fire"]
    faces = []
    for i, word in enumerate(words):
        big = np.full((4 * px, 4 * px, 3), 237, np.uint8)  # 0.93 of white
        cv2.putText(big, word, (30, 70), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (222, 222, 222), 3)
        a = np.pi * i / len(words)  # a bar through the middle at an angle of its own
        d = (int(45 * np.cos(a)), int(45 * np.sin(a)))
        cv2.line(big, (80 - d[0], 100 - d[1]), (80 + d[0], 100 + d[1]), (222, 219, 222), 9)
        faces.append(cv2.resize(big.astype(np.float32) / 255.0, (px, px), interpolation=cv2.INTER_AREA))
    return np.stack(faces), words


def test_faint_art_seen_at_another_contrast_and_tint_is_told_by_its_structure():
    """A pale face enrolled from a photo and seen by the camera on the table: the print comes out at
    half its contrast, the paper pinker and a little darker, a pixel or two off. The coarse look judges
    at the example's own contrast and the fine look at a fixed tolerance: both find the five faces
    alike. The structure look correlates the print's detail, whatever its contrast or tint, and names
    each face by a clear margin."""
    faces, words = _faint_faces()
    tm = TemplateMatcher(faces, words, per_class=1)
    rng = np.random.default_rng(7)
    paper = np.float32(0.93)
    seen = (faces - paper) * 0.5 + paper * 0.96  # half the contrast, a darker paper
    seen = seen * np.array([0.97, 0.98, 1.03], np.float32)  # a pink cast (BGR)
    seen = np.roll(seen, (1, -2), axis=(1, 2)) + rng.normal(0, 0.004, seen.shape).astype(np.float32)
    seen = np.clip(seen, 0, 1).astype(np.float32)
    own = np.array([tm.index[w] for w in words])
    structure = tm.structure_look(seen)
    assert (structure.argmin(axis=1) == own).all()
    assert (np.sort(structure, axis=1)[:, 1] > structure[np.arange(len(words)), own] + 0.1).all()
    rows = np.arange(len(words))

    def margins(share: np.ndarray) -> np.ndarray:
        other = share.copy()
        other[rows, own] = np.inf
        return other.min(axis=1) - share[rows, own]

    # with the structure look every face wins by more than 0.04 (over a unit of -log p in the row
    # reader, TEMPLATE_SHARE); the fine and coarse looks alone find all five faces alike
    assert (margins(tm.disagreement(seen)) > 0.04).all()
    before = TemplateMatcher(faces, words, per_class=1, structure=False).disagreement(seen)
    assert (margins(before) < 0.015).all()


def test_a_window_with_no_piece_on_it_counts_its_structure_look_again():
    """The faint faces above, bare: their structure look counted once more (``again``, times
    ``weight``) adds exactly that look to the joined share, so each face's margin over the next grows
    by at least ``weight`` times the look's own margin — where the geometric mean, with the fine look
    finding every face alike, shrank it. A window flagged ``plain`` (pieces on it) is not judged by the
    structure look at all, flagged ``again`` or not."""
    faces, words = _faint_faces()
    tm = TemplateMatcher(faces, words, per_class=1)
    rng = np.random.default_rng(8)
    paper = np.float32(0.93)
    seen = np.clip((faces - paper) * 0.5 + paper * 0.96 + rng.normal(0, 0.004, faces.shape), 0, 1).astype(np.float32)
    n = len(words)
    joined = tm.disagreement(seen)
    look = tm.structure_look(seen)
    again = np.array([i % 2 == 0 for i in range(n)])
    twice = tm.disagreement(seen, again=again, weight=0.6)
    assert np.allclose(twice[again], joined[again] + 0.6 * look[again], atol=1e-6)
    assert np.array_equal(twice[~again], joined[~again])
    own = np.array([tm.index[w] for w in words])
    rows = np.arange(n)

    def margins(share: np.ndarray) -> np.ndarray:
        other = share.copy()
        other[rows, own] = np.inf
        return other.min(axis=1) - share[rows, own]

    assert (margins(twice)[again] >= margins(joined)[again] + 0.6 * margins(look)[again] - 1e-6).all()
    assert (margins(look) > 0.05).all() and (margins(joined) < 0.6 * margins(look)).all()
    flat = np.ones(n, bool)
    assert np.array_equal(tm.disagreement(seen, plain=flat, again=again, weight=0.6), tm.disagreement(seen, plain=flat))


def test_bad_arguments():
    art = _art(2, 0)
    with pytest.raises(ValueError, match="2 template windows for 1 labels"):
        TemplateMatcher(art, ["x"])
    with pytest.raises(ValueError, match="too small"):
        TemplateMatcher(art, ["x", "y"], px=8, coarse_shift=2, cells=5)
    with pytest.raises(ValueError, match="too small"):
        TemplateMatcher(art[:, :8, :8], ["x", "y"], shift=3)
    with pytest.raises(ValueError, match="no middle"):
        TemplateMatcher(art, ["x", "y"], margin=0.4)
    empty = TemplateMatcher(art, ["x", "y"], skip=("x", "y"))
    assert len(empty) == 0 and empty.disagreement(art).shape == (2, 0)
