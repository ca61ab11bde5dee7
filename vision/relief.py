"""Pieces told from bare art by their relief: whether a piece stands on a spot, whatever its colour.

A reader that knows what a spot looks like bare (the enrolled windows of the tile lying there) can
ask whether something stands on it by what changed, not only by colour likeness: a wooden piece
brings an outline, a lit top and a shadow the printed art does not have there. Colour likeness
fails where the art imitates a piece's colour (a black stone on dark art is as near its bare slot
in colour as a free slot is); relief does not.

:func:`relief_features` turns a spot's window in the frame and the bare art's window there (the
same geometry, both CIE Lab) into a fixed vector: on a :data:`GRID` x :data:`GRID` grid, the
lightness difference and the chroma difference from the bare art (both at the bare windows'
resolution), the lightness gradient of each (new edges are a piece's, edges in both are the
print's), the size of the lightness difference and the outline of what changed (the gradient of the
difference: a piece lighter than the art and one darker than it alike — another box's black is a
grey lighter than dark art), each also against the bare art's own contrast (its lightness spread,
its mean edge: dark and pale art change little in absolute terms). The bare window is either the
enrolled art (photos of the tile, softer than the frame) or, in a stream, the spot's own look at
the table while it was free, at the frame's resolution (``bare_px`` says which).

:class:`PieceModel` is a logistic model on that vector: the probability that a piece stands there.
It is trained on rendered tables over every art family, against both kinds of bare window
(``tools/training/pieces.py``, which also reports each family left out), shipped as JSON with its
metadata in the models folder (``models.json`` lists it with its sha256), and game-neutral: any
game's reader that has enrolled bare art can use it. It has seen only our renderer's pieces;
docs/benchmarks.md ("an eighteenth part", "a nineteenth part") says how far it holds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import ModelError

RELIEF_PX = 32
"""Pixels a side of a spot's window (frame and bare art alike)."""
GRID = 8
"""Cells a side of the grid the features are averaged on."""
FEATURES = "relief-v2"
"""Name of the feature layout (a model file says which it was trained on)."""
N_FEATURES = 12 * GRID * GRID


def area(windows: np.ndarray, side: int) -> np.ndarray:
    """Windows (n x px x px x c) brought down to ``side`` pixels a side by the area mean: the frame's
    windows to the bare art's own resolution (its windows are that coarse), the maps to the grid."""
    n, px = windows.shape[0], windows.shape[1]
    w = windows.astype(np.float32)
    if side >= px:
        return w
    if px % side == 0:  # whole blocks never straddle two windows: all of them stacked, in one call
        tall = w.reshape(n * px, px, *w.shape[3:])
        small = cv2.resize(tall, (side, n * side), interpolation=cv2.INTER_AREA)
        return np.asarray(small, np.float32).reshape(n, side, side, *w.shape[3:])
    out = [cv2.resize(x, (side, side), interpolation=cv2.INTER_AREA) for x in w]
    return np.asarray(out, np.float32).reshape(n, side, side, *w.shape[3:])


def _cells(maps: np.ndarray) -> np.ndarray:
    """Mean of each grid cell (n x px x px -> n x GRID*GRID)."""
    return area(maps, GRID).reshape(len(maps), -1)


def _gradient(light: np.ndarray) -> np.ndarray:
    """Sobel gradient magnitude of each lightness map (n x px x px; the border repeated), all at once."""
    m = np.pad(light.astype(np.float32), ((0, 0), (1, 1), (1, 1)), mode="edge")
    rows = m[:, :-2] + 2.0 * m[:, 1:-1] + m[:, 2:]  # smoothed down the columns
    cols = m[:, :, :-2] + 2.0 * m[:, :, 1:-1] + m[:, :, 2:]  # smoothed along the rows
    gx = rows[:, :, 2:] - rows[:, :, :-2]
    gy = cols[:, 2:, :] - cols[:, :-2, :]
    return np.asarray(np.hypot(gx, gy), np.float32)


def relief_features(frame_lab: np.ndarray, bare_lab: np.ndarray, bare_px: int) -> np.ndarray:
    """The feature vectors (n x :data:`N_FEATURES`, float32) of n spots: their windows in the frame
    and in the bare art (n x px x px x 3, Lab, the same geometry; px a multiple of :data:`GRID`), the
    bare art ``bare_px`` pixels a side at its own resolution."""
    frame = np.asarray(frame_lab, np.float32)
    bare = np.asarray(bare_lab, np.float32)
    if frame.shape != bare.shape or frame.ndim != 4 or frame.shape[-1] != 3:
        raise ValueError(f"relief_features: frame {frame.shape} and bare {bare.shape} must both be n x px x px x 3")
    if not len(frame):
        return np.zeros((0, N_FEATURES), np.float32)
    side = min(bare_px, frame.shape[1])
    soft, coarse = area(frame, side), area(bare, side)  # both at the bare art's own resolution
    diff = soft[..., 0] - coarse[..., 0]
    d_light, d_size = _cells(diff), _cells(np.abs(diff))
    d_chroma = _cells(np.hypot(soft[..., 1] - coarse[..., 1], soft[..., 2] - coarse[..., 2]))
    g_frame, g_bare = _cells(_gradient(frame[..., 0])), _cells(_gradient(bare[..., 0]))
    g_diff = _cells(_gradient(diff))  # the outline of what changed, lighter or darker than the art
    # the same, against the bare art's own contrast: dark and pale art change little in absolute terms
    spread = bare[..., 0].reshape(len(bare), -1).std(axis=1)[:, None] + 2.0
    edges = g_bare.mean(axis=1, keepdims=True) + 1.0
    return np.concatenate(
        [
            d_light,
            d_chroma,
            g_frame,
            g_bare,
            d_light / spread,
            d_chroma / spread,
            np.log((g_frame + 1.0) / edges),
            np.log((g_bare + 1.0) / edges),
            d_size,
            d_size / spread,
            g_diff,
            np.log((g_diff + 1.0) / edges),
        ],
        axis=1,
    ).astype(np.float32)


@dataclass(frozen=True)
class PieceModel:
    """A logistic model on :func:`relief_features`: the probability that a piece stands on a spot."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    meta: dict[str, Any] = field(default_factory=dict)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Per spot (rows of ``features``), the probability that a piece stands there."""
        x = (np.asarray(features, np.float64) - self.mean) / self.scale
        return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x @ self.weights + self.bias, -30.0, 30.0))))

    def to_json(self) -> dict[str, Any]:
        """The model as the JSON document :meth:`load` reads (metadata first)."""
        return {
            **self.meta,
            "kind": "logistic",
            "features": FEATURES,
            "px": RELIEF_PX,
            "grid": GRID,
            "mean": [round(float(v), 6) for v in self.mean],
            "scale": [round(float(v), 6) for v in self.scale],
            "weights": [round(float(v), 6) for v in self.weights],
            "bias": round(float(self.bias), 6),
        }

    @classmethod
    def load(cls, path: str | Path) -> PieceModel:
        """A model from its JSON file; :class:`~vision.errors.ModelError` naming the file and field
        when it is missing, malformed or made for other features."""
        p = Path(path)
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except OSError as e:
            raise ModelError(str(p), "", f"cannot be read ({e.strerror or e})") from None
        except ValueError as e:
            raise ModelError(str(p), "", f"is not JSON ({e})") from None
        if not isinstance(doc, dict):
            raise ModelError(str(p), "", "must be a JSON object")
        for key, want in (("kind", "logistic"), ("features", FEATURES), ("px", RELIEF_PX), ("grid", GRID)):
            if doc.get(key) != want:
                raise ModelError(str(p), key, f"is {doc.get(key)!r}; this code reads {want!r}")
        arrays = {}
        for key in ("mean", "scale", "weights"):
            try:
                arr = np.asarray(doc.get(key), np.float64)
            except (TypeError, ValueError):
                raise ModelError(str(p), key, "must be a list of numbers") from None
            if arr.shape != (N_FEATURES,) or not np.isfinite(arr).all():
                raise ModelError(str(p), key, f"must be {N_FEATURES} finite numbers")
            arrays[key] = arr
        if (arrays["scale"] <= 0).any():
            raise ModelError(str(p), "scale", "must be positive")
        bias = doc.get("bias")
        if not isinstance(bias, (int, float)) or isinstance(bias, bool):
            raise ModelError(str(p), "bias", "must be a number")
        meta = {k: v for k, v in doc.items() if k not in ("mean", "scale", "weights", "bias")}
        return cls(arrays["mean"], arrays["scale"], arrays["weights"], float(bias), meta)
