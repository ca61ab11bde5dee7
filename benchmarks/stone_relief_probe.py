"""Whether a black stone on dark art can be told from a free slot by more than its colour.

A diagnostic for docs/benchmarks.md ("a seventeenth part"; not adopted). On the sessions of
``benchmarks/vision_diag.py`` it reads every frame and, for every stone slot of the board, cuts the
frame's window around the stone's top (four stone radii a side, 32 px) and the bare tile's at that spot
(the mean of the enrolled windows of the tile the board reader read there). For the slots holding a
black stone and the free ones it prints how well three cues separate them (the area under the ROC
curve, 0.5: no better than chance, 1: perfectly):

* the disc's lightness against the bare art's (a stone's top darker than the art);
* the outline: the radial lightness gradient on a ring at the stone's edge, against the bare art's;
* a logistic model on an 8 x 8 grid of the lightness difference and of the frame's gradient, trained
  and tested by sessions (four folds), with its errors at probability 0.5 beside the reader's own
  (black stone or free, on the same slots; the reader as shipped, which since the eighteenth part
  also weighs the ``pieces`` model: the seventeenth part's 59 were the colours' alone).

Run from the repository root::

    PYTHONPATH=. python benchmarks/stone_relief_probe.py --family dark --sessions 24 --every 1
"""

from __future__ import annotations

import argparse
import os
import sys

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, "benchmarks")
import vision_diag  # noqa: E402

from games.tribes.rules.profile import default_profile  # noqa: E402
from games.tribes.vision.observation import observation_from_truth  # noqa: E402
from games.tribes.vision.readers.base import enrolled_windows  # noqa: E402
from games.tribes.vision.recognizer import Recognizer  # noqa: E402
from vision.layout import rotate  # noqa: E402
from vision.patches import patch_set  # noqa: E402

PX = 32


def _lightness(w: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.clip(w, 0, 1).astype(np.float32), cv2.COLOR_BGR2Lab)[..., 0]


def _as_bare(w: np.ndarray) -> np.ndarray:
    """The frame's window at the bare windows' resolution (they are half as fine), back to PX."""
    half = cv2.resize(w, (PX // 2, PX // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(half, (PX, PX), interpolation=cv2.INTER_LINEAR)


def crops(a: argparse.Namespace) -> tuple[list[np.ndarray], list[np.ndarray], list[tuple[str, str, str]], float]:
    """(frame crop, bare crop, (session, truth, read)) of every stone slot whose bare tile is known, and
    the crops' side (mm)."""
    profile = default_profile()
    cur, bare, info = [], [], []
    side = 24.0
    with vision_diag.board_reads() as seen:
        for name, seated, enr, frames in vision_diag.sessions(a):
            rec = Recognizer(seated, profile, enr, None, stream=False)
            for i, (png, truth, _k, _t) in enumerate(frames):
                seen.clear()
                obs = rec.read(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), frame_no=i)
                if "ctx" not in seen:
                    continue
                ctx, tiles, reader = seen["ctx"], seen["tiles"], seen["reader"]
                want = {(b.era, b.col): list(b.stones) for b in observation_from_truth(truth).board}
                got = {(b.era, b.col): list(b.stones) for b in obs.board}
                pts = ctx.regions.stone_points()
                lay = ctx.regions.layout
                feet = np.array([p for *_, p in pts], np.float64)
                tops = ctx.reg.raised(feet, lay.stone_height)
                side = 4 * ctx.regions.stone_radius
                wins = ctx.windows(
                    patch_set("probe", [(float(x), float(y)) for x, y in tops], lay.board_rotation, side, PX)
                )
                index = {p: j for j, p in enumerate(ctx.regions.board_positions)}
                tile_mm = ctx.regions.board_patches().side_mm
                for j, (e, c, k, _) in enumerate(pts):
                    tile = tiles[index[(e, c)]]
                    examples = enrolled_windows(reader.examples, f"back:{e}" if tile is None else f"achievement:{tile}")
                    if examples is None:
                        continue
                    mean = examples.mean(axis=0)
                    px = mean.shape[0]
                    moved = (float(tops[j, 0] - feet[j, 0]), float(tops[j, 1] - feet[j, 1]))
                    dx, dy = rotate(moved, -lay.board_rotation)
                    ox, oy = lay.stone_slots[k]
                    cx, cy = (ox + dx + tile_mm / 2) / tile_mm * px, (oy + dy + tile_mm / 2) / tile_mm * px
                    s = side / tile_mm * px
                    m = np.float32([[s / PX, 0, cx - s / 2], [0, s / PX, cy - s / 2]])
                    flags = cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR
                    bare.append(cv2.warpAffine(mean, m, (PX, PX), flags=flags, borderMode=cv2.BORDER_REFLECT))
                    cur.append(wins[j])
                    truth_at = (want.get((e, c), []) + [None] * 9)[k]
                    read_at = (got.get((e, c), []) + [None] * 9)[k]
                    info.append((name, str(truth_at), str(read_at)))
    return cur, bare, info, side


def auc(score: np.ndarray, y: np.ndarray) -> float:
    rank = score.argsort().argsort() + 1
    pos, neg = int(y.sum()), int(len(y) - y.sum())
    return float((rank[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def logistic(x: np.ndarray, y: np.ndarray, l2: float = 3.0) -> np.ndarray:
    """Weights (bias last) of an L2-regularised logistic regression, by Newton's method."""
    a = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    reg = np.eye(a.shape[1]) * l2
    reg[-1, -1] = 0.0
    for _ in range(25):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -30, 30)))
        grad = a.T @ (p - y) + reg @ w
        hess = (a * (p * (1 - p))[:, None]).T @ a + reg
        w -= np.linalg.solve(hess, grad)
    return w


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="black stones against free slots beyond colour")
    a = vision_diag.probe_args(ap, argv)
    cv2.setNumThreads(1)
    cur, bare, info, side = crops(a)
    keep = [i for i, (_, t, _) in enumerate(info) if t in ("black", "None")]
    if not keep:
        print("no slots")
        return 0
    c = (PX - 1) / 2
    yy, xx = np.mgrid[:PX, :PX]
    r_mm = np.hypot(xx - c, yy - c) * (side / PX)
    disc, ring = r_mm <= 4.0, (r_mm >= 5.0) & (r_mm <= 7.5)
    radial = np.stack([(xx - c), (yy - c)]) / np.maximum(np.hypot(xx - c, yy - c), 1e-6)
    dark, edge, feats = [], [], []
    for i in keep:
        lc, lb = _lightness(_as_bare(cur[i])), _lightness(bare[i])
        full = _lightness(cur[i])

        def outward(img: np.ndarray) -> np.ndarray:
            gx, gy = cv2.Sobel(img, cv2.CV_32F, 1, 0), cv2.Sobel(img, cv2.CV_32F, 0, 1)
            return np.abs(gx * radial[0] + gy * radial[1])

        dark.append(lb[disc].mean() - lc[disc].mean())
        edge.append(outward(lc)[ring].mean() - outward(lb)[ring].mean())
        grad = np.hypot(cv2.Sobel(full, cv2.CV_32F, 1, 0), cv2.Sobel(full, cv2.CV_32F, 0, 1))
        feats.append(
            np.concatenate(
                [
                    cv2.resize(lc - lb, (8, 8), interpolation=cv2.INTER_AREA).ravel(),
                    cv2.resize(grad, (8, 8), interpolation=cv2.INTER_AREA).ravel(),
                ]
            )
        )
    y = np.array([info[i][1] == "black" for i in keep], float)
    read = np.array([info[i][2] == "black" for i in keep], float)
    sessions = np.array([info[i][0] for i in keep])
    x = np.array(feats, np.float64)
    x = (x - x.mean(axis=0)) / (x.std(axis=0) + 1e-6)
    p = np.zeros(len(y))
    names = np.unique(sessions)
    for fold in range(4):
        test = np.isin(sessions, names[fold::4])
        w = logistic(x[~test], y[~test])
        p[test] = 1.0 / (1.0 + np.exp(-np.clip(x[test] @ w[:-1] + w[-1], -30, 30)))
    print(
        f"{int(y.sum())} black stones, {int(len(y) - y.sum())} free slots "
        f"({a.set} set, family {a.family}, drift {a.drift})"
    )
    print(f"area under the ROC curve: disc darker than the bare art {auc(np.array(dark), y):.3f}, "
          f"outline {auc(np.array(edge), y):.3f}, logistic model (by sessions) {auc(p, y):.3f}")  # fmt: skip
    model_wrong = int(((p > 0.5) != (y == 1)).sum())
    print(f"wrong at 0.5: the logistic model {model_wrong}, the board reader {int((read != y).sum())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
