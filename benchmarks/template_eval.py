"""The row's pixel templates alone: how often each look (:mod:`vision.templates`) names the right tile.

A diagnostic for the templates, on the sessions of ``benchmarks/vision_diag.py`` (the same options and
the same cache, so frames rendered there are read, not rendered again). Every occupied row slot of
every frame is cut as the row reader cuts it, and compared with the session's enrolled row windows:
the tile whose template disagrees least, by the fine look, the coarse look, the structure look, the
fine and coarse joined (as before the structure look), all three joined, and as the row reader joins
them (the structure look left out under ``row.STRUCTURE_SHELLS`` shells or more, counted once more on
slots without shells: ``row.STRUCTURE_SHARE``), is counted right or wrong, by kind (an action tile is
compared with the action tiles, an event with the events, as the row's assignment keeps them apart)
and by the shells lying on the slot; for the three joined and as the row joins them, the right tile's
margin over the next of its kind. Run from the repository root::

    PYTHONPATH=. python benchmarks/template_eval.py --set tune --family dark --re-enroll
    PYTHONPATH=. python benchmarks/template_eval.py --set eval --family pale --re-enroll
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
from games.tribes.vision.readers import row as row_reader
from games.tribes.vision.recognizer import Recognizer
from vision.templates import TemplateMatcher

LOOKS = ("fine", "coarse", "structure", "fine+coarse", "joined", "as the row joins them")
MARGINS = ("joined", "as the row joins them")
"""The looks whose margins are reported (the three joined; the row's: none on piles of
``row.STRUCTURE_SHELLS`` shells, the structure once more on slots without shells)."""
SURE = 3.0
"""A margin of a factor e³ in p: the tracker's clear choice between two options."""


def main(argv: list[str] | None = None) -> int:
    a = vision_diag.study_args(__doc__.splitlines()[0], argv)
    cv2.setNumThreads(1)
    profile = default_profile()
    cut: dict[str, np.ndarray] = {}
    original = row_reader.RowReader._use_templates

    def spy(self: Any, ctx: Any, cost: Any, cols: Any, slots: Any, windows: np.ndarray, *rest: Any) -> None:
        cut["windows"] = np.array(windows)
        original(self, ctx, cost, cols, slots, windows, *rest)

    row_reader.RowReader._use_templates = spy  # type: ignore[method-assign]
    piled = row_reader.STRUCTURE_SHELLS
    again_weight = row_reader.TEMPLATE_SHARE / row_reader.STRUCTURE_SHARE if row_reader.STRUCTURE_SHARE else 0.0
    margins: dict[str, dict[tuple[str, int], list[float]]] = {k: {} for k in MARGINS}
    right: dict[str, Counter[tuple[str, int]]] = {k: Counter() for k in LOOKS}
    total: Counter[tuple[str, int]] = Counter()
    for _name, seated, enr, frames in vision_diag.sessions(a):
        rec = Recognizer(seated, profile, enr, None, stream=False)
        tm = TemplateMatcher(enr.windows["row"], list(enr.labels.get("row", [])), skip=(EMPTY,))
        two = TemplateMatcher(enr.windows["row"], list(enr.labels.get("row", [])), skip=(EMPTY,), structure=False)
        is_event = np.array([c.startswith("event:") for c in tm.classes])
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
            looks = (
                tm.fine(windows),
                tm.coarse(windows),
                tm.structure_look(windows),
                two.disagreement(windows),
                tm.disagreement(windows),
                tm.disagreement(
                    windows,
                    plain=np.array([slots[j].shells >= piled for j in keep]),
                    again=np.array([slots[j].shells == 0 for j in keep]),
                    weight=again_weight,
                ),
            )
            for r, j in enumerate(keep):
                kind = "event" if slots[j].event else "action"
                same = np.flatnonzero(is_event == (kind == "event"))
                key = (kind, min(slots[j].shells, 3))
                total[key] += 1
                own = tm.index[labels[j]]
                for look, share in zip(LOOKS, looks, strict=True):
                    best = int(same[int(share[r, same].argmin())])
                    right[look][key] += int(tm.classes[best] == labels[j])
                    if look in MARGINS:  # the next tile of its kind, in units of the row's cost
                        rest = share[r, same[same != own]]
                        margins[look].setdefault(key, []).append(
                            (float(rest.min()) - float(share[r, own])) / row_reader.TEMPLATE_SHARE
                        )
    n = sum(total.values())
    keys = sorted(total)
    print(f"{n} occupied row slots ({a.set}{' ' + a.family if a.family else ''})")
    print("| look | all | " + " | ".join(f"{kind}s, {k}{'+' if k == 3 else ''} shells" for kind, k in keys) + " |")
    print("|---|---|" + "---|" * len(keys))
    for look in LOOKS:
        cells = [f"{100 * right[look][k] / total[k]:.1f} % ({total[k]})" for k in keys]
        print(f"| {look} | {100 * sum(right[look].values()) / max(n, 1):.2f} % | " + " | ".join(cells) + " |")
    print("\nThe right tile's margin over the next of its kind, templates alone, in units of the row's cost")
    print(f"(share / row.TEMPLATE_SHARE): median, and how many by {SURE:g} or more (below 0: read wrong)")
    print("| look | " + " | ".join(f"{kind}s, {k}{'+' if k == 3 else ''} shells" for kind, k in keys) + " |")
    print("|---|" + "---|" * len(keys))
    for look in MARGINS:
        cells = []
        for k in keys:
            m = np.array(margins[look].get(k, [np.nan]))
            cells.append(f"{np.median(m):.2f}, {int((m >= SURE).sum())} of {len(m)}")
        print(f"| {look} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
