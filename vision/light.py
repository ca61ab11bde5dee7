"""Following the light after enrollment: white balance and brightness that change during a game.

The reference patch (:mod:`vision.colour`) is read in every frame, but it is one spot of the table:
a lamp moved, a cloud, daylight from the other side change the light over the lands differently
from the light on the patch, and a reflection on the patch (or a hand over it) spoils its reading.
What else the camera knows is there is the **bare table** at reference points the layout keeps
clear (beside the markers). Enrollment records their colours; every frame measures them again,
and :func:`fit_light_field` finds the smooth per-channel gain over the table (a
:class:`LightField`) that takes the enrolled colours to what they show now. Windows divided by it
look as they did under the enrollment's light, so the enrolled examples still match.

:class:`LightTracker` does this per frame: the patch's normalisation is checked against the
table next to it (when they disagree — glare or a shadow on the patch — the last normalisation
that agreed is kept), then the field is fitted with whichever normalisation is used. Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.colour import ColourNorm


@dataclass(frozen=True)
class LightField:
    """How the light on the table differs from the light at enrollment, as a gain per colour channel
    that varies smoothly over the table: ``gain_c(x, y) = exp(colour_c + shape(x, y))``, where
    ``colour`` is the overall change of white balance and brightness and ``shape`` a low-order
    polynomial in the table position (a lamp moved, daylight from the other side). Dividing a
    normalised window by the gain at its place shows it as it looked under the enrollment's light.
    The identity (no change) has every number 0."""

    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)
    shape: tuple[float, ...] = ()
    """Coefficients of :func:`_terms` (x, y, then x², xy, y²) in ``centre``/``scale`` units."""
    centre: tuple[float, float] = (0.0, 0.0)
    scale: tuple[float, float] = (1.0, 1.0)
    points: int = 0
    """How many reference points the fit kept."""

    def gains(self, points_mm: np.ndarray) -> np.ndarray:
        """N x 3 (BGR) gains at table points (N x 2, mm)."""
        p = np.asarray(points_mm, np.float64).reshape(-1, 2)
        log = np.broadcast_to(np.asarray(self.colour, np.float64), (len(p), 3)).copy()
        if self.shape:
            t = _terms(p, self.centre, self.scale, len(self.shape))
            log += (t @ np.asarray(self.shape, np.float64))[:, None]
        return np.exp(np.clip(log, -GAIN_LIMIT, GAIN_LIMIT))

    def apply(self, windows01: np.ndarray, centres_mm: np.ndarray) -> np.ndarray:
        """The windows (N x px x px x 3, normalised) divided by the gain at their centres (in place
        when they are float32)."""
        if len(windows01) == 0:
            return windows01
        inv = (1.0 / self.gains(centres_mm)).astype(np.float32)
        out = windows01 if windows01.dtype == np.float32 else windows01.astype(np.float32)
        out *= inv[:, None, None, :]
        return out

    def at(self, point_mm: tuple[float, float]) -> np.ndarray:
        """The gains (BGR) at one table point."""
        return self.gains(np.asarray([point_mm], np.float64))[0]


GAIN_LIMIT = 1.2
"""The largest change of the light the field follows (log units: a factor of about 3.3 either way)."""


def _terms(p: np.ndarray, centre: tuple[float, float], scale: tuple[float, float], n: int) -> np.ndarray:
    """The polynomial terms of table points: x, y, x², xy, y² (the first ``n`` of them)."""
    x = (p[:, 0] - centre[0]) / scale[0]
    y = (p[:, 1] - centre[1]) / scale[1]
    return np.stack([x, y, x * x, x * y, y * y], axis=1)[:, :n]


def fit_light_field(
    points_mm: np.ndarray,
    now01: np.ndarray,
    then01: np.ndarray,
    centre: tuple[float, float],
    scale: tuple[float, float],
    spatial: bool = True,
    keep: np.ndarray | None = None,
) -> LightField | None:
    """The :class:`LightField` that takes the colours of reference points of known bare table as
    enrolled (``then01``, N x 3 normalised BGR) to what they show now (``now01``, normalised with
    this frame's patch). Robust: a point much off the others' fit (a hand, a piece, a shadow over
    it) is dropped and the fit repeated; with fewer points the shape is simpler (10 or more points:
    quadratic; 5 or more: a plane; 2 or more: the colour change alone; else None). ``spatial``
    False fits the colour change alone; ``keep`` (N bools) leaves points out from the start (e.g.
    saturated ones)."""
    p = np.asarray(points_mm, np.float64).reshape(-1, 2)
    now = np.clip(np.asarray(now01, np.float64).reshape(-1, 3), 0.02, None)
    then = np.clip(np.asarray(then01, np.float64).reshape(-1, 3), 0.02, None)
    if not (len(p) == len(now) == len(then)):
        raise ValueError(f"{len(p)} points, {len(now)} colours now and {len(then)} enrolled")
    y = np.log(now / then)  # N x 3
    use = np.ones(len(p), bool) if keep is None else np.asarray(keep, bool).copy()
    use &= np.isfinite(y).all(axis=1)
    for _ in range(4):
        n = int(use.sum())
        if n < 2:
            return None
        m = 0 if not spatial else (5 if n >= 10 else 2 if n >= 5 else 0)
        colour, shape = _solve(y[use], _terms(p[use], centre, scale, m))
        pred = colour[None, :] + (_terms(p, centre, scale, m) @ shape)[:, None]
        res = np.sqrt(((y - pred) ** 2).mean(axis=1))
        mad = float(np.median(res[use]))
        out = use & (res > max(0.06, 4.0 * mad))
        if not out.any():
            break
        use &= ~out
    return LightField(
        (float(colour[0]), float(colour[1]), float(colour[2])),
        tuple(float(v) for v in shape),
        (float(centre[0]), float(centre[1])),
        (float(scale[0]), float(scale[1])),
        int(use.sum()),
    )


def _solve(y: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least squares of ``y[i, c] = colour[c] + t[i] @ shape`` (a little ridge on the shape)."""
    n, m = t.shape
    # unknowns: 3 colour terms then m shape terms; one row per point and channel
    a = np.zeros((3 * n, 3 + m))
    for c in range(3):
        a[c::3, c] = 1.0
        a[c::3, 3:] = t
    b = y.reshape(-1)
    if m:
        a = np.vstack([a, np.hstack([np.zeros((m, 3)), 0.05 * np.sqrt(n) * np.eye(m)])])
        b = np.concatenate([b, np.zeros(m)])
    sol = np.linalg.lstsq(a, b, rcond=None)[0]
    return sol[:3], sol[3:]


PATCH_AGREES = 0.15
"""How far (log gain, any channel) the table beside the patch may disagree with the patch's reading
before the patch is taken to be spoilt (glare, shadow, a hand) and the last good one is kept."""


class LightTracker:
    """Follows the light of one table from frame to frame (see the module docstring).

    ``points`` are the reference points of bare table (N x 5: x, y mm; enrolled normalised BGR),
    ``patch_at`` the patch's centre (mm), ``table`` the table's size (mm) and ``norm`` the
    enrollment's normalisation (kept until a frame's patch agrees with its table). With
    ``spatial`` False only the overall colour change is followed (old enrollments, whose reference
    colour is one median for the whole table)."""

    def __init__(
        self,
        points: np.ndarray,
        patch_at: tuple[float, float],
        table: tuple[float, float],
        norm: ColourNorm,
        spatial: bool = True,
    ) -> None:
        pts = np.asarray(points, np.float64).reshape(-1, 5)
        self.mm = pts[:, :2]
        self.ref = pts[:, 2:]
        self.patch_at = (float(patch_at[0]), float(patch_at[1]))
        self.centre = (table[0] / 2, table[1] / 2)
        self.scale = (max(table[0] / 2, 1.0), max(table[1] / 2, 1.0))
        self.trusted = norm
        self.spatial = spatial
        self.patch_ok = True

    def fit(self, raw: np.ndarray, norm: ColourNorm, seen: np.ndarray | None = None) -> LightField | None:
        """The field for the reference points' raw BGR now (N x 3, 0..255) under ``norm``; points
        not ``seen`` (out of the frame) or clipped (near black or white) are left out."""
        raw = np.asarray(raw, np.float64).reshape(-1, 3)
        keep = (raw.max(axis=1) < 250.0) & (raw.min(axis=1) > 2.0)
        if seen is not None:
            keep &= np.asarray(seen, bool)
        now = norm.apply(raw.astype(np.float32)).astype(np.float64)
        return fit_light_field(self.mm, now, self.ref, self.centre, self.scale, self.spatial, keep)

    def update(
        self, raw: np.ndarray, patch: ColourNorm | None, seen: np.ndarray | None = None
    ) -> tuple[ColourNorm, LightField | None]:
        """``(norm, field)`` for a frame: the reference points' raw BGR (N x 3) and the patch's
        normalisation (None when the patch could not be read)."""
        if len(self.ref) == 0:
            self.patch_ok = patch is not None
            if patch is not None:
                self.trusted = patch
            return self.trusted, None
        if patch is not None:
            field = self.fit(raw, patch, seen)
            if field is None or float(np.abs(np.log(field.at(self.patch_at))).max()) <= PATCH_AGREES:
                self.trusted = patch
                self.patch_ok = True
                return patch, field
        self.patch_ok = False
        return self.trusted, self.fit(raw, self.trusted, seen)
