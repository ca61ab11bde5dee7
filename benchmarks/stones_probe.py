"""How far the board's stone slots lie from their bare look and from the players' colours.

A diagnostic for the board reader's distance rule (``games/tribes/vision/readers/board.py``:
``COVERED``, ``CLOSER``, ``APART``; docs/benchmarks.md, "a sixteenth part"). On the sessions of
``benchmarks/vision_diag.py`` it reads every frame and, for every stone slot of the first pass of the
stones (before a face-down position under stones is read again), takes what the reader's distance rule
takes: the disc's mean Lab against the bare tile's there and against each player's enrolled colour
(lightness weighted a half). Printed, for the slots holding a stone (black apart: black on dark art
is as near its bare slot as a free slot) and for the free ones: how far from the bare look (``d_bare``),
the nearest colour's distance as a share of it (``ratio``, at most 99.9) and of the next colour's (``apart``); then
what the rule and the likeness decided there. Run from the repository root::

    PYTHONPATH=. python benchmarks/stones_probe.py --drift all --sessions 24 --every 1
    PYTHONPATH=. python benchmarks/stones_probe.py --family dark
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, "benchmarks")
import vision_diag  # noqa: E402

from games.tribes.rules.profile import default_profile  # noqa: E402
from games.tribes.vision.observation import observation_from_truth  # noqa: E402
from games.tribes.vision.readers import board as board_reader  # noqa: E402
from games.tribes.vision.recognizer import Recognizer  # noqa: E402
from vision.colour import lab_distance  # noqa: E402


def _pct(v: list[float], q: float) -> str:
    return f"{np.percentile(v, q):.2f}" if v else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="stone slots against their bare look and the players' colours")
    a = vision_diag.probe_args(ap, argv)
    cv2.setNumThreads(1)
    profile = default_profile()
    seen: dict[str, Any] = {}
    original = board_reader.BoardReader._covered

    def spy(self: Any, disc: np.ndarray, bare: np.ndarray) -> Any:
        out = original(self, disc, bare)
        if "disc" not in seen:  # the first pass of the frame: every slot
            seen.update(
                disc=disc.copy(), bare=bare.copy(), refs=[(n, np.asarray(r, float)) for n, r, _ in self.colours]
            )
        return out

    board_reader.BoardReader._covered = spy  # type: ignore[method-assign]
    rows: list[dict[str, Any]] = []
    for _name, seated, enr, frames in vision_diag.sessions(a):
        rec = Recognizer(seated, profile, enr, None, stream=False)
        pts = rec.regions.stone_points()
        for i, (png, truth, _k, _t) in enumerate(frames):
            seen.clear()
            obs = rec.read(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), frame_no=i)
            if "disc" not in seen or len(seen["disc"]) != len(pts):
                continue
            want = {(b.era, b.col): list(b.stones) for b in observation_from_truth(truth).board}
            got = {(b.era, b.col): list(b.stones) for b in obs.board}
            for j, (e, c, k, _) in enumerate(pts):
                if not np.isfinite(seen["bare"][j]).all():
                    continue  # no bare look there (a face never enrolled)
                d = sorted((float(lab_distance(seen["disc"][j], r)), n) for n, r in seen["refs"])
                d_bare = float(lab_distance(seen["disc"][j], seen["bare"][j]))
                truth_at = (want.get((e, c), []) + [None] * 9)[k]
                read_at = (got.get((e, c), []) + [None] * 9)[k]
                nxt = d[1][0] if len(d) > 1 else float("inf")
                rows.append(
                    dict(truth=truth_at, read=read_at, d_bare=d_bare, ratio=min(d[0][0] / max(d_bare, 1e-9), 99.9),
                         apart=d[0][0] / nxt, nearest=d[0][1])
                )  # fmt: skip
    print(f"{len(rows)} slots with a bare look ({a.set} set, family {a.family or 'as packed'}, drift {a.drift})")
    print("| slots | n | d_bare min / p5 / median / max | ratio median / p95 / max | apart median / max |")
    print("|---|---|---|---|---|")
    groups = (
        ("a stone, not black", lambda r: r["truth"] not in (None, "black")),
        ("a black stone", lambda r: r["truth"] == "black"),
        ("free", lambda r: r["truth"] is None),
    )
    for label, keep in groups:
        g = [r for r in rows if keep(r)]
        db, ra, apt = [r["d_bare"] for r in g], [r["ratio"] for r in g], [r["apart"] for r in g]
        if not g:
            print(f"| {label} | 0 | - | - | - |")
            continue
        print(
            f"| {label} | {len(g)} | {min(db):.1f} / {_pct(db, 5)} / {_pct(db, 50)} / {max(db):.1f} "
            f"| {_pct(ra, 50)} / {_pct(ra, 95)} / {max(ra):.2f} | {_pct(apt, 50)} / {max(apt):.2f} |"
        )
    far = [r for r in rows if r["truth"] is None and r["d_bare"] >= board_reader.COVERED]
    print(
        f"free slots at least COVERED ({board_reader.COVERED}) from their bare look: {len(far)}"
        + (f", the smallest ratio {min(r['ratio'] for r in far):.2f}" if far else "")
    )
    wrong = [r for r in rows if r["truth"] != r["read"]]
    print(f"slots read wrong: {len(wrong)}")
    for r in wrong[:20]:
        print(
            f"  {r['truth']} read {r['read']}: d_bare {r['d_bare']:.1f}, nearest {r['nearest']} "
            f"ratio {r['ratio']:.2f} apart {r['apart']:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
