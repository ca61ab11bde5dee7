"""What every reader gets for one frame: the image, its registration, the colour normalisation and
the light field (how the light changed since enrollment, :mod:`vision.light`), the window geometry
and the sampler — and helpers to cut normalised windows and likeness maps."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from games.tribes.vision.regions import Regions
from vision.colour import ColourNorm, lab, likeness
from vision.light import LightField
from vision.patches import PatchSet
from vision.registration import Registration
from vision.sampling import Sampler
from vision.templates import TemplateMatcher


@dataclass
class FrameContext:
    """One registered frame as the readers see it."""

    image: np.ndarray
    reg: Registration
    norm: ColourNorm
    regions: Regions
    sampler: Sampler
    timings: dict[str, float] = field(default_factory=dict)
    markers: tuple[int, ...] = ()
    """Ids of the markers registration found in this frame (visible, so nothing lies on them)."""
    light: LightField | None = None
    """How the light differs from the enrollment's over the table (None: not known)."""

    def windows(self, ps: PatchSet) -> np.ndarray:
        """Normalised BGR windows (N x px x px x 3, float32 0..1), as under the enrollment's light."""
        out = self.norm.apply(self.sampler.sample(self.image, self.reg, ps))
        if self.light is not None:
            out = self.light.apply(out, ps.centers)
        return out

    def inside(self, ps: PatchSet) -> np.ndarray:
        """Per window: wholly inside the frame."""
        return self.sampler.inside(self.reg, ps)


def disc_mask(px: int, radius: float) -> np.ndarray:
    """Boolean px x px mask of the pixels within ``radius`` (fraction of the side) of the centre."""
    yy, xx = np.mgrid[0:px, 0:px]
    c = (px - 1) / 2
    return np.hypot(xx - c, yy - c) <= radius * px


def likeness_maps(windows01: np.ndarray, ref_lab: np.ndarray, sigma: float) -> np.ndarray:
    """Likeness (N x px x px) of every pixel of the windows to one Lab colour."""
    return likeness(lab(windows01), ref_lab, sigma)


def threshold_conf(value: float, threshold: float, scale: float = 0.15) -> float:
    """Confidence of a yes/no decision taken by comparing ``value`` with ``threshold``: the
    logistic of the distance from it (in units of ``scale``), 0.5 right at the threshold."""
    d = (value - threshold) / scale
    return 1.0 / (1.0 + math.exp(-abs(d) * 3))


def enrolled_windows(examples: tuple[np.ndarray, Sequence[str]] | None, label: str) -> np.ndarray | None:
    """The enrolled windows (float32, N x px x px x 3) of ``label`` among ``examples`` (windows and
    their labels), or None when it was never enrolled: a tile's bare art, as the readers that judge
    pieces against it (arrows, stones, members) take it."""
    if examples is None:
        return None
    wins, labels = examples
    sel = [i for i, lb in enumerate(labels) if lb == label]
    return np.asarray(wins[sel], np.float32) if sel else None


def kept_look(old: np.ndarray | None, window: np.ndarray, weight: float) -> np.ndarray:
    """A place's look at this table after one more free ``window``: a running mean giving the newest
    window ``weight`` (the window itself where none was kept). The board's stone slots
    (``board.TABLE_WEIGHT``) and the land's tiles (``land.LOOK_WEIGHT``) keep their looks by it."""
    return window if old is None else (1.0 - weight) * old + weight * window


def colour_sigma(spread: float) -> float:
    """The likeness width for a colour measured with ``spread`` (Lab units) at enrollment."""
    return float(np.clip(1.6 * spread + 8.0, 10.0, 22.0))


def encode_seen(
    encoder: object, windows01: np.ndarray, group: str, key: str | Sequence[str]
) -> tuple[np.ndarray, np.ndarray | None]:
    """A reader's encoder's features of ``windows01`` and, where it tells them from the same work
    (``TileEncoder.encode_visible``), the pixels it left visible (no piece hidden there); else None."""
    both = getattr(encoder, "encode_visible", None)
    if both is not None:
        feats, seen = both(windows01, group, key)
        return feats, seen
    return encoder.encode(windows01, group, key), None  # type: ignore[attr-defined]


class ChangeCache:
    """Remembers what a reader concluded about a window, keyed by place, with a thumbnail of the
    window it was concluded from. A later window at the same place whose thumbnail differs by less
    than ``threshold`` in every cell of a ``cells`` x ``cells`` grid, *and* by less than
    ``mean_threshold`` on average over the cells (normalised units), gets the same conclusion without
    being read again; anything that changed is read afresh. The first catches a change in one place
    (a member put down, a tile laid); the second a change over the whole window too faint for any one
    cell: a pale achievement tile turned over onto its pale back's twin, whose cells each moved by
    0.01-0.05 and which was kept face down for a whole move (``benchmarks/tracker_eval.py --family
    pale``, seed 1). On those runs a window nothing touched moved by 0.0025 on average (median; at most
    0.006), a changed one by 0.008 or more. Cleared whenever the registration changes."""

    def __init__(self, cells: int = 10, threshold: float = 0.06, mean_threshold: float = 0.007) -> None:
        self.cells = cells
        self.threshold = threshold
        self.mean_threshold = mean_threshold
        self.serial = -1
        self.store: dict[object, tuple[np.ndarray, object]] = {}
        self.hits = 0
        self.misses = 0

    def thumbnails(self, windows01: np.ndarray) -> np.ndarray:
        """N x cells x cells x C block means of the windows."""
        n, h, w = windows01.shape[:3]
        c = self.cells
        if h % c or w % c:
            return np.stack([cv2.resize(x, (c, c), interpolation=cv2.INTER_AREA) for x in windows01])
        return windows01.reshape(n, c, h // c, c, w // c, -1).mean(axis=(2, 4))

    def split(
        self, serial: int, keys: list[object], windows01: np.ndarray
    ) -> tuple[dict[int, object], list[int], np.ndarray]:
        """``(hits, misses, thumbnails)``: the remembered conclusions by index, the indices to read."""
        if serial != self.serial:
            self.store.clear()
            self.serial = serial
        thumbs = self.thumbnails(windows01)
        hits: dict[int, object] = {}
        misses: list[int] = []
        for i, k in enumerate(keys):
            got = self.store.get(k)
            if got is not None and self.unchanged(got[0], thumbs[i]):
                hits[i] = got[1]
            else:
                misses.append(i)
        self.hits += len(hits)
        self.misses += len(misses)
        return hits, misses, thumbs

    def unchanged(self, before: np.ndarray, now: np.ndarray) -> bool:
        """Whether two thumbnails of a place show the same thing (the class docstring)."""
        diff = np.abs(before - now)
        return float(diff.max()) < self.threshold and float(diff.mean()) < self.mean_threshold

    def put(self, key: object, thumb: np.ndarray, value: object) -> None:
        """Remember a conclusion."""
        self.store[key] = (thumb, value)


def template_shares(
    tm: TemplateMatcher,
    cache: ChangeCache | None,
    serial: int,
    windows01: np.ndarray,
    names: Sequence[tuple[str, ...] | None] | None = None,
    plain: Sequence[bool] | None = None,
    again: Sequence[bool] | None = None,
    weight: float = 1.0,
) -> np.ndarray:
    """N x len(tm): the share of each window disagreeing with each template
    (:meth:`vision.templates.TemplateMatcher.disagreement`; 1 where not compared). ``names[i]``: the
    only templates window ``i`` is compared with (None: all; empty: none), so that windows asking
    the same names are compared together. ``plain[i]``: window ``i`` has pieces on it and is judged
    without the structure look; ``again[i]``: it has none, and its structure look counts once more,
    times ``weight``. ``cache``: a window unchanged since the last frame (by position ``i``) keeps its
    shares."""
    n = len(windows01)
    share = np.ones((n, len(tm)), np.float32)
    todo = list(range(n))
    thumbs = None
    if cache is not None:
        hits, todo, thumbs = cache.split(serial, list(range(n)), windows01)
        for i, value in hits.items():
            share[i] = value  # type: ignore[assignment]
    groups: dict[tuple[str, ...] | None, list[int]] = {}
    for i in todo:
        groups.setdefault(None if names is None else names[i], []).append(i)
    flags = np.zeros(n, bool) if plain is None else np.asarray(plain, bool)
    more = np.zeros(n, bool) if again is None else np.asarray(again, bool)
    for only, rows in groups.items():
        if only is None or only:
            share[rows] = tm.disagreement(windows01[rows], only, flags[rows], more[rows], weight)
    if cache is not None and thumbs is not None:
        for i in todo:
            if names is None or names[i]:  # a window compared with nothing is not remembered as compared
                cache.put(i, thumbs[i], share[i].copy())
    return share


def template_costs(
    share: np.ndarray, cols: Sequence[str], tm: TemplateMatcher, use: np.ndarray, unknown: float
) -> np.ndarray | None:
    """The template cost of one window over the assignment's columns ``cols``: its disagreement
    (``share``, one per template) less the best among the columns it may take with a template
    (``use``); a usable column without a template (an event never enrolled, the unknown face) costs
    ``unknown`` more than the best. None when no usable column has a template."""
    known = np.array([name in tm.index for name in cols], bool)
    ok = np.asarray(use, bool) & known
    if not ok.any():
        return None
    index = np.array([tm.index.get(name, 0) for name in cols])
    row = np.where(ok, share[index], np.nan)
    best = float(np.nanmin(row))
    return np.where(np.isnan(row), best + unknown, row) - best
