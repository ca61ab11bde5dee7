"""The row's pixel templates alone: how often each look (:mod:`vision.templates`) names the right tile.

A diagnostic for the templates, on the sessions of ``benchmarks/vision_diag.py`` (the same options and
the same cache, so frames rendered there are read, not rendered again). Every occupied row slot of
every frame is cut as the row reader cuts it, and compared with the session's enrolled row windows:
the tile whose template disagrees least, by the fine look, the coarse look and the two joined, is
counted right or wrong, by the shells lying on the slot. Run from the repository root::

    PYTHONPATH=. python benchmarks/template_eval.py --set tune --sessions 8 --every 3 --frames 8 --family dark
    PYTHONPATH=. python benchmarks/template_eval.py --set eval --sessions 8 --every 3 --frames 8
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any

import cv2
import numpy as np
import vision_diag  # benchmarks/ is on the path when this runs as a script

from games.tribes.rules.profile import default_profile
from games.tribes.vision.enrollment import EMPTY
from games.tribes.vision.observation import observation_from_truth
from games.tribes.vision.readers import row as row_reader
from games.tribes.vision.recognizer import Recognizer
from vision.templates import TemplateMatcher

LOOKS = ("fine", "coarse", "joined")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=("tune", "eval"), default="tune")
    ap.add_argument("--sessions", type=int, default=8)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--of", type=int, default=24)
    ap.add_argument("--frames", type=int, default=8)
    ap.add_argument("--cache", default="/tmp/vision-diag")
    ap.add_argument("--family", help="turn the packs into this art family (as vision_diag)")
    a = ap.parse_args(argv)
    # the options vision_diag's sessions read (no drift, members on the grid, shipped models)
    a.drift, a.piles, a.models = "off", "fixed", None
    cv2.setNumThreads(1)
    profile = default_profile()
    cut: dict[str, np.ndarray] = {}
    original = row_reader.RowReader._use_templates

    def spy(self: Any, ctx: Any, cost: Any, cols: Any, slots: Any, windows: np.ndarray) -> None:
        cut["windows"] = np.array(windows)
        original(self, ctx, cost, cols, slots, windows)

    row_reader.RowReader._use_templates = spy  # type: ignore[method-assign]
    right: dict[str, Counter[int]] = {k: Counter() for k in LOOKS}
    total: Counter[int] = Counter()
    for _name, seated, enr, frames in vision_diag.sessions(a):
        rec = Recognizer(seated, profile, enr, None, stream=False)
        tm = TemplateMatcher(enr.windows["row"], list(enr.labels.get("row", [])), skip=(EMPTY,))
        for i, (png, truth, _kelvin, _tilt) in enumerate(frames):
            cut.clear()
            rec.read(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), frame_no=i)
            if "windows" not in cut:
                continue
            slots = [s for s in observation_from_truth(truth).row if s.tile and s.slot <= len(cut["windows"])]
            labels = [("event:" if s.event else "action:") + str(s.tile) for s in slots]
            keep = [j for j, lb in enumerate(labels) if lb in tm.index]
            if not keep:
                continue
            windows = cut["windows"][[slots[j].slot - 1 for j in keep]]
            fine, coarse = tm.fine(windows), tm.coarse(windows)
            joined = tm.disagreement(windows)
            for r, j in enumerate(keep):
                k = min(slots[j].shells, 3)
                total[k] += 1
                for look, share in zip(LOOKS, (fine, coarse, joined), strict=True):
                    right[look][k] += int(tm.classes[int(share[r].argmin())] == labels[j])
    n = sum(total.values())
    print(f"{n} occupied row slots ({a.set}{' ' + a.family if a.family else ''})")
    print("| look | all | " + " | ".join(f"{k}{'+' if k == 3 else ''} shells" for k in sorted(total)) + " |")
    print("|---|---|" + "---|" * len(total))
    for look in LOOKS:
        cells = [f"{100 * right[look][k] / total[k]:.1f} % ({total[k]})" for k in sorted(total)]
        print(f"| {look} | {100 * sum(right[look].values()) / max(n, 1):.2f} % | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
