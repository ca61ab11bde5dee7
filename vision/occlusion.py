"""Preparing tile windows before features are taken: pieces and neighbours are hidden.

A tile is recognised by its art, but the camera also sees what lies on it and around it: members
on a landscape tile, shells on a row tile, stones on an achievement, the edges of neighbouring
tiles in the window's corners. The colours of the pieces are known from enrollment, so
:func:`hide_colours` replaces every pixel that looks like one of them (likeness above
``threshold``, grown by a pixel to catch shaded sides) with the mean of the rest of the window;
:func:`hex_only` greys out what lies outside a landscape tile's hexagon. The same preparation is
applied to the enrolled examples, to the windows read, and to the training windows, so that
features never depend on the pieces or the neighbours.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np

from vision.colour import lab

HIDE_THRESHOLD = 0.3
GROW = 2
"""Pixels by which the hidden area is grown (to catch the shaded sides and edges of pieces)."""
OUTSIDE = 0.5
"""Value given to pixels outside a landscape tile's hexagon (normalised units)."""


@cache
def hex_window_mask(px: int, side_mm: float, flat_to_flat: float, inset_mm: float = 1.0) -> np.ndarray:
    """Boolean px x px mask of a flat-top hexagon (``flat_to_flat`` mm across, shrunk by
    ``inset_mm``) centred in a window ``side_mm`` wide."""
    r = flat_to_flat / math.sqrt(3) - inset_mm  # circumradius
    yy, xx = np.mgrid[0:px, 0:px]
    x = (xx + 0.5) * side_mm / px - side_mm / 2
    y = (yy + 0.5) * side_mm / px - side_mm / 2
    h = math.sqrt(3) / 2 * r
    m = (np.abs(y) <= h) & (np.abs(x) * math.sqrt(3) / 2 + np.abs(y) / 2 <= h)
    m.setflags(write=False)
    return m


def hex_only(windows01: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The windows with everything outside ``mask`` set to :data:`OUTSIDE` (a copy)."""
    out = np.array(windows01, np.float32, copy=True)
    out[:, ~mask] = OUTSIDE
    return out


def hide_colours(
    windows01: np.ndarray,
    colours: Sequence[tuple[np.ndarray, float]] | Sequence[Sequence[tuple[np.ndarray, float]]],
    threshold: float = HIDE_THRESHOLD,
    each: bool = False,
    grow: int = GROW,
) -> np.ndarray:
    """The windows with pixels like any of ``colours`` ((Lab, likeness sigma) pairs) replaced by the
    mean of the window's other pixels (a copy). With ``each``, ``colours`` holds one such list per
    window. A window that is almost all such colour is left as it is. :func:`hidden_mask` says
    which pixels were hidden."""
    return _hide(windows01, colours, threshold, each, grow)[0]


def hidden_mask(
    windows01: np.ndarray,
    colours: Sequence[tuple[np.ndarray, float]] | Sequence[Sequence[tuple[np.ndarray, float]]],
    threshold: float = HIDE_THRESHOLD,
    each: bool = False,
    grow: int = GROW,
    extra: np.ndarray | None = None,
    within: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`hide_colours` and the boolean mask (N x px x px) of the pixels it hid. ``extra``
    (N x px x px bool) names more pixels to hide as if pieces lay there (see :func:`covers`);
    ``within`` (px x px bool) limits the colour hiding to where pieces can lie (e.g. the stone
    slots of an achievement tile: art of a player's colour elsewhere stays)."""
    return _hide(windows01, colours, threshold, each, grow, extra, within)


@cache
def covers(px: int) -> np.ndarray:
    """Boolean masks (K x px x px) of where members typically stand on a landscape tile: discs
    around the window's centre, small to large and a little off centre. An enrolled tile seen with
    one of these hidden looks like the same tile with members on it (their pixels hidden), so a
    tile whose middle — often its symbol — is covered by members is compared with examples covered
    alike, not with bare ones."""
    yy, xx = np.mgrid[0:px, 0:px]
    c = (px - 1) / 2
    out = []
    u = px / 40.0
    for r, dx, dy in ((7, 0, 0), (9.5, 0, 0), (12, 0, 0), (9.5, 4, 0), (9.5, -4, 0), (9.5, 0, 4), (9.5, 0, -4)):
        out.append(np.hypot(xx - c - dx * u, yy - c - dy * u) <= r * u)
    m = np.stack(out)
    m.setflags(write=False)
    return m


def _hide(
    windows01: np.ndarray,
    colours: Sequence[tuple[np.ndarray, float]] | Sequence[Sequence[tuple[np.ndarray, float]]],
    threshold: float,
    each: bool,
    grow: int,
    extra: np.ndarray | None = None,
    within: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    out = np.array(windows01, np.float32, copy=True)
    n = len(out)
    none = np.zeros(out.shape[:3], bool)
    if n == 0:
        return out, none
    per = list(colours) if each else [colours] * n
    groups: dict[int, list[int]] = {}
    keyed: dict[int, Sequence[tuple[np.ndarray, float]]] = {}
    for i, cols in enumerate(per):
        groups.setdefault(id(cols), []).append(i)
        keyed[id(cols)] = cols  # type: ignore[assignment]
    if all(len(keyed[k]) == 0 for k in groups) and extra is None:
        return out, none
    lb = lab(out)
    # likeness (vision.colour.likeness) above the threshold, without the exponential: a Gaussian
    # exp(-d2 / 2 sigma^2) of the weighted squared distance exceeds t where d2 / 2 sigma^2 < -ln t
    near = np.zeros(out.shape[:3], bool)
    limit = -math.log(threshold)
    for k, idx in groups.items():
        cols = keyed[k]
        if not cols:
            continue
        sub = lb[idx].reshape(1, -1, 3)
        acc = np.full(sub.shape[1], np.inf, np.float32)
        for ref, sigma in cols:
            d = sub - np.asarray(ref, np.float32).reshape(3)
            d *= d
            scale = 1.0 / (2 * sigma * sigma)  # lightness weighted a quarter (as in likeness)
            x = cv2.transform(d, np.array([[0.25 * scale, scale, scale]], np.float32))
            np.minimum(acc, x.reshape(-1), out=acc)
        near[idx] = (acc < limit).reshape(len(idx), *lb.shape[1:3])
    _, h, w = near.shape
    mask = near.astype(np.uint8).reshape(n * h, w)
    if grow > 0:
        mask = cv2.dilate(mask, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    mask = mask.reshape(n, h, w).astype(bool)
    if within is not None:
        mask &= within
    if extra is not None:
        mask |= extra
    keep = ~mask
    counts = keep.sum(axis=(1, 2))
    sums = np.matmul(keep.reshape(n, 1, h * w).astype(np.float32), out.reshape(n, h * w, 3))[:, 0]
    fill = sums / np.maximum(counts, 1)[:, None]
    ok = (counts > 0.15 * h * w) & (counts < h * w)
    sel = mask & ok[:, None, None]
    out[sel] = np.repeat(fill, sel.sum(axis=(1, 2)), axis=0)
    return out, sel
