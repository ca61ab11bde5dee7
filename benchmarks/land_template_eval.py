"""The land reader's tile types with and without the hexes' pixel templates, by weight and cascade.

A diagnostic for ``games.tribes.vision.readers.land.TEMPLATE_SHARE`` and ``CASCADE``, on the sessions
of ``benchmarks/vision_diag.py`` (the same options and cache). Every hex window the land reader
classifies afresh is taken as it cut it; the tile model's probabilities are computed as the reader
computes them, and for each hex holding a tile the type chosen is counted right or wrong: by the
model alone, and with the templates joined at each weight (share of the window costing a factor e)
and cascade (how close the model's second type must be for the templates to be asked), on bare
tiles and under members apart, with the number of windows compared; and the readings right and
wrong by their confidence (at :data:`SURE` or more, as the reader computes it: the tracker asks
about a drawn tile read less surely), also with the paper colour weighed on top at each scale of
:data:`PAPERS` (``land.PAPER_SCALE``, ``PAPER_CAP``); and the reader's own choice (its ``_by_art``) at each scale of
the structure look counted once more on windows showing no member (:data:`STRUCTURES`,
``land.STRUCTURE_SHARE``; 0: not counted again). Run from the repository root::

    PYTHONPATH=. python benchmarks/land_template_eval.py --set tune --family pale --re-enroll
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import cv2
import numpy as np
import vision_diag  # benchmarks/ is on the path when this runs as a script

from games.tribes.rules.profile import default_profile
from games.tribes.vision.enrollment import EMPTY
from games.tribes.vision.observation import observation_from_truth
from games.tribes.vision.readers import land as land_reader
from games.tribes.vision.recognizer import Recognizer

SHARES = (0.2, 0.1, 0.05)
CASCADES = (3.0, 1.0, 0.5)
STRUCTURES = (0.0, 0.03, 0.05, 0.075, 0.1)
"""The scales of the structure look counted once more on windows showing no member
(``land.STRUCTURE_SHARE``; 0: not counted again), each read by the reader's own ``_by_art`` at its
share and cascade."""
PAPERS = ((0.1, np.inf), (0.05, np.inf), (0.1, 3.0), (0.05, 3.0), (0.05, 2.0), (0.03, 2.0))
"""The paper colour's scales and caps tried (``land.PAPER_SCALE``, ``PAPER_CAP``), at the reader's
share and cascade."""
SURE = 0.73
"""Confidence of a reading that, in every frame, fuses to the tracker's support 1.0
(``games.tribes.tracker.propose.WEAK_RESOURCE``): below it a drawn tile's resource is not taken as
read, and the tracker asks."""


def _label(h: Any) -> str:
    if h is None or not h.tile:
        return EMPTY
    return "exhausted" if h.exhausted else f"resource:{h.resource}"


def _tally(
    wrong: Counter[tuple[Any, ...]], sure: Counter[tuple[Any, ...]], key: str, where: str, right: bool, conf: float
) -> None:
    """Counts one reading of setting ``key``: wrong or not (bare or under members), and right or
    wrong at :data:`SURE` or more, overall and by where."""
    wrong[(key, where)] += not right
    sure[(key, right, conf >= SURE)] += 1
    sure[(key, where, right, conf >= SURE)] += 1


def _joined(cost: np.ndarray, tiles: list[int], extra: np.ndarray) -> tuple[int, float]:
    """As the reader: the tile column whose cost plus ``extra`` (one per tile column) is least, and the
    confidence of a softmax over the joined costs (the empty hex at its own cost)."""
    joined = cost.copy()
    joined[tiles] += extra
    pick = tiles[int(np.argmin(joined[tiles]))]
    return pick, float(1.0 / np.exp(-(joined - joined[pick])).sum())


def main(argv: list[str] | None = None) -> int:
    a = vision_diag.study_args(__doc__.splitlines()[0], argv)
    cv2.setNumThreads(1)
    profile = default_profile()
    cut: list[tuple[tuple[int, Any], np.ndarray]] = []
    original = land_reader.LandReader._outline_check

    def spy(self: Any, results: Any, cells: Any, windows: np.ndarray) -> None:
        cut.extend(zip(cells, np.array(windows), strict=True))
        original(self, results, cells, windows)

    land_reader.LandReader._outline_check = spy  # type: ignore[method-assign]
    wrong: Counter[tuple[Any, ...]] = Counter()
    compared: Counter[float] = Counter()
    total: Counter[str] = Counter()
    sure: Counter[tuple[Any, ...]] = Counter()  # (setting[, where], right, at SURE or more)
    for _name, seated, enr, frames in vision_diag.sessions(a):
        rec = Recognizer(seated, profile, enr, None, stream=False)
        tm = rec.land.templates
        for i, (png, truth, _kelvin, _tilt) in enumerate(frames):
            cut.clear()
            rec.read(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), frame_no=i)
            hexes = {(h.seat, h.hex): h for h in observation_from_truth(truth).hexes}
            for seat in sorted({c[0] for c, _ in cut}):
                rows = [(c, w) for c, w in cut if c[0] == seat and _label(hexes.get(c)) != EMPTY]
                if not rows or tm is None:
                    continue
                windows = np.stack([w for _, w in rows])
                cls = rec.land.classifiers[seat]
                probs = cls.probabilities(rec.encoder.encode(windows, "hex", f"seat:{seat}"))
                cost = -np.log(np.maximum(probs, 1e-12))
                tiles = [k for k, c in enumerate(cls.classes) if c != EMPTY and c in tm.index]
                share = tm.disagreement(windows)
                at = [tm.index[cls.classes[k]] for k in tiles]
                paper = rec.land.paper_distances(windows, seat)[:, at]  # as the reader: NaN under members
                by_reader = {}
                for st in STRUCTURES:  # the reader itself, at each scale of the structure look
                    rec.land.structure_share = st
                    by_reader[st] = rec.land._by_art(cls, probs, windows, seat)
                for r, (c, _) in enumerate(rows):
                    truth_label = _label(hexes.get(c))
                    where = "under members" if sum(hexes[c].members.values()) else "bare"
                    total[where] += 1
                    best = int(cost[r].argmin())
                    right = [c == truth_label for c in cls.classes]  # by column
                    _tally(wrong, sure, "model alone", where, right[best], float(probs[r, best]))
                    gap = np.inf
                    if cls.classes[best] != EMPTY and len(tiles) > 1:
                        others = sorted(cost[r, tiles])
                        gap = others[1] - others[0]
                    for cascade in CASCADES:
                        asked = gap < cascade
                        compared[cascade] += int(asked)
                        for s in SHARES:
                            art = (share[r, at] - share[r, at].min()) / s
                            pick, conf = _joined(cost[r], tiles, art) if asked else (best, float(probs[r, best]))
                            _tally(wrong, sure, f"share {s}, cascade {cascade}", where, right[pick], conf)
                    for st, picks in by_reader.items():
                        pick, conf, _ = picks[r]
                        _tally(wrong, sure, f"reader, structure {st}", where, right[pick], conf)
                    asked = gap < land_reader.CASCADE
                    for ps, cap in PAPERS:  # the paper colour on top, at the reader's share and cascade
                        pick, conf = best, float(probs[r, best])
                        if asked:
                            art = (share[r, at] - share[r, at].min()) / land_reader.TEMPLATE_SHARE
                            if not np.isnan(paper[r]).any():
                                art = art + np.minimum(0.5 * ((paper[r] - paper[r].min()) / ps) ** 2, cap)
                            pick, conf = _joined(cost[r], tiles, art)
                        _tally(wrong, sure, f"+ paper {ps}, cap {cap}", where, right[pick], conf)
    n = sum(total.values())
    print(f"{n} hexes holding a tile read afresh ({a.set}{' ' + a.family if a.family else ''}): {dict(total)}")
    keys = ["model alone"] + [f"share {s}, cascade {c}" for c in CASCADES for s in SHARES]
    reader = f"share {land_reader.TEMPLATE_SHARE}, cascade {land_reader.CASCADE}"
    keys += [f"+ paper {ps}, cap {cap}" for ps, cap in PAPERS]
    structures = [f"reader, structure {st}" for st in STRUCTURES]
    keys += structures
    print("| tile types | wrong, bare | wrong, under members | all |")
    print("|---|---|---|---|")
    for key in keys:
        b, m = wrong[(key, "bare")], wrong[(key, "under members")]
        print(f"| {key} | {b} | {m} | {b + m} |")
    print(f"\n| confidence (at {SURE} or more: sure) | right, sure | right, unsure | wrong, sure | wrong, unsure |")
    print("|---|---|---|---|---|")
    for key in keys:
        cells = [sure[(key, r, u)] for r, u in ((True, True), (True, False), (False, True), (False, False))]
        print(f"| {key} | " + " | ".join(map(str, cells)) + " |")
    print(f"\n| bare / under members (+ paper: on top of {reader}) | right, sure | right, unsure ", end="")
    print("| wrong, sure | wrong, unsure |")
    print("|---|---|---|---|---|")
    for key in ["model alone", reader] + [f"+ paper {ps}, cap {cap}" for ps, cap in PAPERS] + structures:
        for where in ("bare", "under members"):
            cells = [sure[(key, where, r, u)] for r, u in ((True, True), (True, False), (False, True), (False, False))]
            print(f"| {key}, {where} | " + " | ".join(map(str, cells)) + " |")
    print("windows compared, by cascade: " + ", ".join(f"{c}: {compared[c]}" for c in CASCADES) + f" of {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
