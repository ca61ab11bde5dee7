"""Pixel templates of the enrolled tiles: how much of a window disagrees with each tile's bare art.

The feature classifiers compare whole windows, so a tile half covered by pale pieces (shells piled
on an action tile) can look more like another tile than like itself, and hiding the pieces by
colour fails when they are as pale as the paper. Here the question is turned round: for each
enrolled tile, *which share of the window's pixels would have to be covered* for the window to be
that tile? A tile under shells disagrees with its own bare art where the shells lie and nowhere
else; any other tile disagrees there and wherever its art differs.

Three looks, each right where another is wrong, joined by their geometric mean (each plus
``blend``, so that a look that finds every tile alike leaves the choice to the others):

- **Fine** (:meth:`TemplateMatcher.fine`): both windows white-balanced (each channel divided by its
  90th percentile inside the window) and turned into Lab; each example aligned to the window by the
  least squared difference over shifts of up to ``shift`` pixels (as :func:`cv2.matchTemplate` finds
  it; tiles lie a millimetre or so off their slot); the share of the aligned pixels further apart
  than ``tolerance`` (Lab, lightness weighted half). Thin lines of sketched art count, and pale
  shells on pale paper hide nothing. But the white balance takes the shells' white for the paper's on
  dark art, and the fixed tolerance finds every tile of pale art alike (and grain everywhere).
- **Coarse** (:meth:`TemplateMatcher.coarse`): both blurred (``blur`` pixels) and shrunk to ``px`` a
  side, so that printed grain, paper texture and sensor noise, which do not repeat pixel for pixel
  between two pictures of one tile, fall away and the shapes stay; aligned on plain Lab (the windows
  come as under the enrollment's light: the colour patch and the light follower, :mod:`vision.light`);
  then the gain per channel between window and example is the median ratio over a ``cells`` x
  ``cells`` grid of block means, held within ``gain`` (a tile's own colour and brightness tell a
  dark tile from a darker one); a pixel disagrees where some channel differs from the example, times
  the gain, by more than ``contrast`` times that channel's spread in the example (at least
  ``floor``): pale or dark art is judged at the scale of its own contrast, bold art at its own.

- **Structure** (:meth:`TemplateMatcher.structure_look`): lightness less its blur (``sigma``
  pixels), the band where print, lines and lettering live; the window's middle (``margin`` of the
  side off each edge, so that the table or the capture paper around a tile does not count) is
  correlated with each example's middle at every shift of up to ``shift`` pixels, and the look is
  ``(1 - r) / 2`` for the best correlation ``r``. A correlation does not care how bright, how tinted
  or how contrasted the print is: the faint art of a pale box, whose faces the capture sheet shows
  at another contrast and cast than the camera does on the table (events and era 2/3 achievements
  are enrolled from the sheet alone), is told apart by where its detail lies, where the coarse look
  finds every pale face within its floor and the fine look within its tolerance. Pieces on a tile
  bring detail of their own, so this look is weakest under piles of them: a caller that knows
  where pieces lie leaves it out for those windows (``plain``; the row under three shells or more).

On the row windows of the diagnosis sets (``benchmarks/vision_diag.py``, 8 sessions x 8 frames;
the tile whose templates alone disagree least; ``benchmarks/template_eval.py``): the fine look alone
was right for 63 % of the tuning set's dark-art windows, 52 % of its pale ones and 98 % of the
held-out sketched ones; the coarse alone for 92 %, 87 % and 95 %; the two joined for 92 %, 87 % and
98 %. Later (``template_eval.py --re-enroll``: the capture sheet's faces at the table's exposure;
event windows compared with events and action windows with actions, as the row's assignment keeps
them), the fine and coarse joined against the three as the row joins them, all row windows: tuning
set pale art 91.8 -> 95.9 %, dark 93.2 -> 95.7 %, sketch-pack variants 98.6 -> 98.9 %; events
without shells 61.8 -> 100, 91.2 -> 97.1 and 100 -> 100 %; the held-out pack in pale art 91.0 ->
94.7 % (its events without shells 82.8 -> 100 %, under one shell 27.3 -> 63.6 %).

A class's score is its best example's.

Beside the three looks, :meth:`TemplateMatcher.paper` compares the **colour of the paper**
(:func:`paper_colour`): the median of the brighter half of the window's inner disc, as log luminance
and two log chromaticities, left as bright as it is (not cut at white, nor white-balanced, nor let
through a gain), pixels far more coloured than any enrolled tile's paper (pieces) left out. Pale art
is told apart by little else — its faces differ by a few per cent of tint and brightness, which the
fine look's white balance and the coarse look's gain take away, and its symbols are faint — while a
shadow or a member, which darkens or colours part of a window, leaves the brighter half's median
alone. The caller weighs it (the land reader: :data:`games.tribes.vision.readers.land.PAPER_SCALE`).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.colour import LUMA_BGR, lab

WEIGHTS = np.sqrt(np.array([0.5, 1.0, 1.0], np.float32))
"""Per-channel weights of the Lab difference (square roots: applied before squaring)."""


def _resized(windows01: np.ndarray, px: int) -> np.ndarray:
    """Windows as one float32 array of ``px`` a side (N x px x px x 3): shrunk by area where they
    are of another size, as they are otherwise."""
    x = np.asarray(windows01, np.float32)
    if x.shape[1:3] == (px, px):
        return x
    out = np.empty((len(x), px, px, 3), np.float32)
    for i, w in enumerate(x):
        out[i] = cv2.resize(w, (px, px), interpolation=cv2.INTER_AREA)
    return out


def _balanced(windows01: np.ndarray, px: int) -> np.ndarray:
    """White-balanced, weighted Lab windows (N x px x px x 3, float32): the fine look. All windows
    at once (one quantile, one Lab conversion): the same values as one window at a time, half the
    time."""
    x = _resized(windows01, px)
    m = max(1, px // 10)
    if len(x) == 0:
        return np.zeros((0, px, px, 3), np.float32)
    white = np.quantile(x[:, m:-m, m:-m].reshape(len(x), -1, 3), 0.9, axis=1)  # N x 3
    return lab(np.clip(x / np.maximum(white, 0.05)[:, None, None, :], 0.0, 1.2)) * WEIGHTS


def _small(windows01: np.ndarray, px: int, blur: float) -> np.ndarray:
    """Windows blurred by ``blur`` pixels (of the input) and shrunk to ``px`` a side (N x px x px x 3)."""
    out = np.empty((len(windows01), px, px, 3), np.float32)
    for i, w in enumerate(windows01):
        w = np.asarray(w, np.float32)
        if blur > 0:
            w = cv2.GaussianBlur(w, (0, 0), blur)
        if w.shape[0] != px or w.shape[1] != px:
            w = cv2.resize(w, (px, px), interpolation=cv2.INTER_AREA)
        out[i] = w
    return out


def _structure_maps(windows01: np.ndarray, px: int, sigma: float) -> np.ndarray:
    """Lightness less its blur by ``sigma`` pixels (N x px x px, float32): the structure look's
    band of detail, whatever the art's brightness, tint or contrast. Lightness is the cube root of
    the luminance, as in L*, but not cut off at white: under the colour norm a pale tile's paper and
    print can both lie above 1, where Lab through 8 bits (:func:`vision.colour.lab`) turns them into
    one white (``benchmarks/template_eval.py --set eval --family pale --re-enroll``: the held-out pale
    pack's events without shells 79.3 % named right with Lab's lightness, 100 % so; the tuning
    families the same or better)."""
    x = _resized(windows01, px)
    light = np.cbrt(np.maximum(x @ LUMA_BGR, 0.0))
    out = np.empty(light.shape, np.float32)
    for i, li in enumerate(light):
        out[i] = li - cv2.GaussianBlur(li, (0, 0), sigma)
    return out


PAPER_INNER = 0.62
"""Radius of the disc whose pixels give a window's paper colour, in half window sides (inside a hex
tile's outline in a hex window)."""
PAPER_CHROMA = 0.1
"""How much more coloured than the most coloured enrolled paper a pixel may be (log chromaticity) and
still count as paper: members and other pieces are far more coloured than that."""


def paper_disc(px: int) -> np.ndarray:
    """px x px bool: the disc whose pixels give a window's paper colour (:data:`PAPER_INNER`)."""
    yy, xx = np.mgrid[0:px, 0:px] + 0.5 - px / 2
    return np.asarray(np.hypot(xx, yy) <= PAPER_INNER * px / 2)


def paper_colour(
    windows01: np.ndarray, limit: np.ndarray | None = None, visible: np.ndarray | None = None
) -> np.ndarray:
    """N x 3: the paper colour of each window — log luminance, ``log(b / g)`` and ``log(r / g)`` of the
    median of the brighter half of its inner disc (:data:`PAPER_INNER`), over the pixels ``visible``
    (N x px x px bool: pieces the caller knows of left out) whose log chromaticities lie within
    ``limit`` (two values); where fewer than a fifth of the disc's pixels are left, over all of them."""
    x = np.asarray(windows01, np.float32)
    n, px = len(x), (x.shape[1] if x.ndim == 4 else 0)
    out = np.zeros((n, 3), np.float32)
    if n == 0:
        return out
    disc = paper_disc(px)
    for i, w in enumerate(x):
        p = w[disc]
        logs = np.log(np.maximum(p, 1e-3))
        keep = np.ones(len(p), bool) if visible is None else np.asarray(visible[i], bool)[disc]
        if limit is not None:
            keep &= (np.abs(logs[:, [0, 2]] - logs[:, 1:2]) <= limit).all(axis=1)
        if keep.sum() >= 0.2 * len(p):
            p = p[keep]
        lum = p.mean(axis=1)
        v = np.log(np.maximum(np.median(p[lum >= np.median(lum)], axis=0), 1e-3))
        out[i] = (v.mean(), v[0] - v[1], v[2] - v[1])
    return out


def _unit_rows(x: np.ndarray) -> np.ndarray:
    """Rows (last axis) less their mean, scaled to unit length: their dot products are correlations."""
    x = x - x.mean(axis=-1, keepdims=True)
    x /= np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), np.float32(1e-6))
    return x


def _plain_lab(windows01: np.ndarray) -> np.ndarray:
    """Weighted Lab of windows as they are (N x px x px x 3, float32): the coarse look's alignment."""
    return lab(np.clip(np.asarray(windows01, np.float32), 0.0, 1.2)) * WEIGHTS


def _cell_means(x: np.ndarray, cells: int) -> np.ndarray:
    """Block means of ``... x s x s x 3`` squares on a ``cells`` x ``cells`` grid: ``... x cells² x 3``."""
    s = x.shape[-2]
    k = s // cells
    lead = x.shape[:-3]
    x = x[..., : k * cells, : k * cells, :].reshape(*lead, cells, k, cells, k, 3)
    return x.mean(axis=(-4, -2)).reshape(*lead, cells * cells, 3)


def _best_shifts(queries: np.ndarray, flat: np.ndarray, inner: int) -> tuple[np.ndarray, np.ndarray]:
    """For N query windows (N x px x px x C) and T flattened inner squares of examples (T x D): each
    query's shifted inner squares (N x S x D) and the best shift of each pair (N x T).

    All windows against all examples at once: the squared difference at every shift is
    ``|q|^2 - 2 q.t + |t|^2``, whose cross term for every shift of every window and every example is
    one matrix product (what ``cv2.matchTemplate(TM_SQDIFF)`` computes one pair at a time); ``|t|^2``
    does not change the best shift."""
    n, px = len(queries), queries.shape[1]
    shifts = (px - inner + 1) ** 2
    views = np.lib.stride_tricks.sliding_window_view(queries, (inner, inner, queries.shape[3]), axis=(1, 2, 3))
    qs = np.ascontiguousarray(views.reshape(n, shifts, -1))
    sq = np.einsum("nsd,nsd->ns", qs, qs)
    cost = sq[:, :, None] - 2.0 * (qs.reshape(n * shifts, -1) @ flat.T).reshape(n, shifts, -1)
    return qs, np.asarray(cost.argmin(axis=1))


def _least_by_class(values: np.ndarray, owner: np.ndarray, classes: int, fill: float) -> np.ndarray:
    """N x E values of examples whose classes are ``owner`` (E) -> N x ``classes``: each class's least
    (``fill`` for a class with no example)."""
    out = np.full((len(values), classes), fill, np.float32)
    for k in np.unique(owner):
        out[:, k] = values[:, owner == k].min(axis=1)
    return out


class TemplateMatcher:
    """Disagreement of windows with the enrolled tiles' art (see the module docstring)."""

    def __init__(
        self,
        windows01: np.ndarray,
        labels: Sequence[str],
        per_class: int = 2,
        shift: int = 3,
        tolerance: float = 14.0,
        px: int = 20,
        coarse_shift: int = 2,
        blur: float = 1.0,
        contrast: float = 0.5,
        floor: float = 0.04,
        gain: tuple[float, float] = (0.8, 1.25),
        cells: int = 4,
        blend: float = 0.05,
        skip: Sequence[str] = (),
        structure: bool = True,
        sigma: float = 3.0,
        margin: float = 0.15,
    ) -> None:
        if len(windows01) != len(labels):
            raise ValueError(f"{len(windows01)} template windows for {len(labels)} labels")
        # a class's examples are its enrolled windows, a few jittered copies from each source (the
        # setup's frames, the art pack): copies are alike once aligned, so up to ``per_class`` of them
        # are taken spread over the list, the first and the last (the frames' and the pack's) first
        by_class: dict[str, list[int]] = {}
        for i, lb in enumerate(labels):
            if lb not in skip:
                by_class.setdefault(lb, []).append(i)
        keep = sorted(
            {
                idx[int(j)]
                for idx in by_class.values()
                for j in np.rint(np.linspace(0, len(idx) - 1, min(per_class, len(idx))))
            }
        )
        self.classes: list[str] = sorted(by_class)
        self.index = {c: i for i, c in enumerate(self.classes)}
        self._owner = np.array([self.index[labels[i]] for i in keep], np.int64)
        self.blend = float(blend)
        # the fine look
        self.shift = int(shift)
        self.tolerance = float(tolerance)
        self.fine_px = int(windows01.shape[1]) if len(windows01) else 0
        if keep and self.fine_px <= 2 * self.shift + 2:
            raise ValueError(f"template windows of {self.fine_px} px are too small for shifts of {self.shift} px")
        s = self.shift
        examples = np.asarray(windows01)[keep]
        norm = _balanced(examples, self.fine_px) if keep else np.zeros((0, 1, 1, 3), np.float32)
        self._templates = [np.ascontiguousarray(t[s : self.fine_px - s, s : self.fine_px - s]) for t in norm]
        self._flat = (
            np.stack([t.reshape(-1) for t in self._templates]).astype(np.float32)
            if self._templates
            else np.zeros((0, 1), np.float32)
        )
        # the coarse look
        self.px, self.coarse_shift, self.blur = int(px), int(coarse_shift), float(blur)
        self.contrast, self.floor, self.gain, self.cells = float(contrast), float(floor), gain, int(cells)
        inner = self.px - 2 * self.coarse_shift
        if inner < self.cells:
            raise ValueError(f"coarse templates of {self.px} px are too small for shifts of {self.coarse_shift} px")
        c = self.coarse_shift
        small = _small(examples, self.px, self.blur) if keep else np.zeros((0, self.px, self.px, 3), np.float32)
        art = np.ascontiguousarray(small[:, c : c + inner, c : c + inner])
        self._art = art.reshape(len(keep), inner * inner, 3)  # T x D x 3
        self._cells = _cell_means(art, self.cells)  # T x cells² x 3
        self._spread = self._art.std(axis=1) if keep else np.zeros((0, 3), np.float32)  # T x 3
        plain = _plain_lab(art) if keep else art
        self._coarse_flat = np.ascontiguousarray(plain.reshape(len(keep), inner * inner * 3))
        # the structure look: each example's middle (``margin`` of the side off each edge), as unit rows
        self.structure, self.sigma = bool(structure), float(sigma)
        self._mid = round(self.fine_px * float(margin)) + self.shift
        side = self.fine_px - 2 * self._mid
        if self.structure and keep and side < 4:
            raise ValueError(f"template windows of {self.fine_px} px leave no middle for the structure look")
        if self.structure and keep:  # every shift of each example's middle, as unit rows: E x shifts x D
            maps = _structure_maps(examples, self.fine_px, self.sigma)
            m, s = self._mid, self.shift
            around = maps[:, m - s : m + side + s, m - s : m + side + s]
            views = np.lib.stride_tricks.sliding_window_view(around, (side, side), axis=(1, 2))
            self._struct = _unit_rows(np.ascontiguousarray(views.reshape(len(keep), -1, side * side)))
        else:
            self._struct = np.zeros((0, 1, 1), np.float32)
        # the paper colour is of every enrolled window of a class (not only the kept examples), worked
        # out on the first call of :meth:`paper` (only a caller that weighs it pays for it)
        every = [i for i, lb in enumerate(labels) if lb not in skip]
        self._paper_windows = np.asarray(windows01)[every]
        self._paper_owner = np.array([self.index[labels[i]] for i in every], np.int64)
        self._paper: tuple[np.ndarray, np.ndarray | None] | None = None

    def __len__(self) -> int:
        return len(self.classes)

    def _examples(self, only: Sequence[str] | None) -> np.ndarray:
        """Indices of the examples of the classes ``only`` (None: every example)."""
        if only is None:
            return np.arange(len(self._owner))
        want = np.zeros(len(self.classes), bool)
        want[[self.index[c] for c in only if c in self.index]] = True
        return np.flatnonzero(want[self._owner])

    def _by_class(self, share: np.ndarray, ex: np.ndarray) -> np.ndarray:
        """N x E shares of the examples ``ex`` -> N x C: each class's best example (1 where none)."""
        return _least_by_class(share, self._owner[ex], len(self.classes), 1.0)

    def disagreement(
        self,
        windows01: np.ndarray,
        only: Sequence[str] | None = None,
        plain: np.ndarray | None = None,
        again: np.ndarray | None = None,
        weight: float = 1.0,
    ) -> np.ndarray:
        """N x C: for each window and class, the share (0..1) of pixels that differ from the class's
        art, the three looks joined (the module docstring). ``only``: compare with these classes alone
        (the others read 1: no look taken). ``plain[i]`` true: window ``i`` is judged by the fine and
        coarse looks alone (pieces lie on it: their outlines are detail the structure look would
        follow). ``again[i]`` true (and not ``plain[i]``): no piece lies on window ``i``, and its
        structure look is added once more, on its own, times ``weight`` — the joined looks' geometric
        mean keeps the ratio between two tiles where one look finds every tile alike (the fine look on
        faint print), but not their difference, which a caller weighing the share as a cost goes by."""
        n, c = len(windows01), len(self.classes)
        if n == 0 or c == 0:
            return np.ones((n, c), np.float32)
        b = self.blend
        product = (self.fine(windows01, only) + b) * (self.coarse(windows01, only) + b)
        out = np.sqrt(product) - b
        use = np.ones(n, bool) if plain is None else ~np.asarray(plain, bool)
        if self.structure and use.any():
            rows = np.flatnonzero(use)
            look = self.structure_look(windows01[rows], only)
            out[rows] = np.cbrt(product[rows] * (look + b)) - b
            if again is not None:
                more = np.asarray(again, bool)[rows]
                out[rows[more]] += weight * look[more]
        return np.asarray(out, np.float32)

    def structure_look(self, windows01: np.ndarray, only: Sequence[str] | None = None) -> np.ndarray:
        """N x C: ``(1 - r) / 2`` for the best correlation ``r`` of the window's middle with one of the
        class's examples' middles shifted by up to ``shift`` pixels, both as lightness less its blur
        (0 alike, 0.5 unrelated, 1 the negative); 1 where the look is off."""
        n = len(windows01)
        ex = self._examples(only)
        if n == 0 or not len(ex) or not self.structure:
            return np.ones((n, len(self.classes)), np.float32)
        shifted = self._struct[ex] if len(ex) < len(self._struct) else self._struct  # E x shifts x D
        maps = _structure_maps(np.asarray(windows01), self.fine_px, self.sigma)
        m = self._mid
        side = self.fine_px - 2 * m
        mid = _unit_rows(np.ascontiguousarray(maps[:, m : m + side, m : m + side]).reshape(n, -1))  # N x D
        r = (mid @ shifted.reshape(-1, side * side).T).reshape(n, len(shifted), -1).max(axis=2)
        return self._by_class(np.clip((1.0 - r) / 2.0, 0.0, 1.0).astype(np.float32), ex)

    def _paper_of_examples(self) -> tuple[np.ndarray, np.ndarray | None]:
        """The enrolled windows' paper colours (E x 3) and how coloured paper may be: the most coloured
        class's median plus :data:`PAPER_CHROMA` (pieces on a few examples aside). Worked out once."""
        if self._paper is None:
            raw = paper_colour(self._paper_windows)
            owner = self._paper_owner
            limit = None
            if len(owner):
                limit = np.max([np.median(np.abs(raw[owner == k, 1:]), axis=0) for k in np.unique(owner)], axis=0)
                limit = limit + PAPER_CHROMA
            self._paper = (paper_colour(self._paper_windows, limit), limit)
        return self._paper

    def paper(self, windows01: np.ndarray, visible: np.ndarray | None = None) -> np.ndarray:
        """N x C: how far each window's paper colour (:func:`paper_colour`, over its ``visible``
        pixels) lies from the nearest of each class's enrolled windows' (Euclidean, in log units: 0.05
        is about five per cent of brightness or tint); inf for a class with none."""
        n = len(windows01)
        if n == 0 or not len(self._paper_owner):
            return np.full((n, len(self.classes)), np.inf, np.float32)
        enrolled, limit = self._paper_of_examples()
        mine = paper_colour(np.asarray(windows01), limit, visible)
        d = np.linalg.norm(mine[:, None, :] - enrolled[None], axis=2)  # N x E
        return _least_by_class(d, self._paper_owner, len(self.classes), np.inf)

    def fine(self, windows01: np.ndarray, only: Sequence[str] | None = None) -> np.ndarray:
        """N x C: the least share of white-balanced Lab pixels further than ``tolerance`` from one of
        the class's examples, aligned."""
        n = len(windows01)
        ex = self._examples(only)
        if n == 0 or not len(ex):
            return np.ones((n, len(self.classes)), np.float32)
        flat = self._flat[ex] if len(ex) < len(self._flat) else self._flat
        queries = _balanced(np.asarray(windows01), self.fine_px)
        inner = self.fine_px - 2 * self.shift
        qs, best = _best_shifts(queries, flat, inner)
        diff = qs[np.arange(n)[:, None], best]  # N x E x D: each query at each example's best shift
        diff -= flat[None]
        np.square(diff, out=diff)
        px3 = diff.reshape(n, len(flat), inner * inner, 3)
        d2 = px3[..., 0] + px3[..., 1] + px3[..., 2]  # (three adds: far faster than a sum over a tiny axis)
        return self._by_class((d2 > self.tolerance**2).mean(axis=2), ex)

    def coarse(self, windows01: np.ndarray, only: Sequence[str] | None = None) -> np.ndarray:
        """N x C: the least share of blurred, shrunk pixels that differ from one of the class's
        examples, aligned, under the gain between them, by more than the example's contrast allows."""
        n = len(windows01)
        ex = self._examples(only)
        if n == 0 or not len(ex):
            return np.ones((n, len(self.classes)), np.float32)
        art, cells, spread = self._art[ex], self._cells[ex], self._spread[ex]
        small = _small(np.asarray(windows01), self.px, self.blur)
        inner = self.px - 2 * self.coarse_shift
        _, best = _best_shifts(_plain_lab(small), self._coarse_flat[ex], inner)
        views = np.lib.stride_tricks.sliding_window_view(small, (inner, inner, 3), axis=(1, 2, 3))
        views = views.reshape(n, -1, inner, inner, 3)
        q = views[np.arange(n)[:, None], best]  # N x E x inner x inner x 3: each window at each best shift
        ratio = _cell_means(q, self.cells) / np.maximum(cells[None], 0.02)
        g = np.clip(np.median(ratio, axis=2), self.gain[0], self.gain[1])  # N x E x 3
        diff = np.abs(q.reshape(n, len(ex), -1, 3) - g[:, :, None, :] * art[None])
        bound = np.maximum(self.contrast * spread[None] * g, self.floor)  # N x E x 3
        return self._by_class((diff > bound[:, :, None, :]).any(axis=3).mean(axis=2), ex)
