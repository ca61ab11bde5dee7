"""How often the row reader names the right tile under shells, by kind and by the shells read there.

A diagnostic for docs/benchmarks.md ("a seventeenth part"), choosing the row reader's caps on its
confidence (``EVENT_UNDER_SHELLS``, ``ACTION_UNDER_SHELLS``, ``games/tribes/vision/readers/row.py``).
Every occupied row slot of every frame read is held against the truth: which tile (right or wrong),
by its kind in the truth (action tile or event) and the number of shells *read* on it (what the
reader knows when it reports), with the confidence of the wrong ones. The caps are lifted while it
reads (``--keep-caps`` leaves them), so that the confidences are the assignment's own. Two sources:

* ``sessions`` (default): the sessions of ``benchmarks/vision_diag.py`` (its options: ``--set``,
  ``--family``, ``--drift``, ...), every frame;
* ``games``: the games of ``benchmarks/tracker_eval.py`` (whatever follows ``--``; two at a time),
  the frames its recognizer calls settled while the script rests — the tracker's own conditions
  (a whole game's piles, the camera further off), each frame counted, so one tile lying still under
  its pile counts many times.

Run from the repository root::

    PYTHONPATH=. python benchmarks/row_under_shells.py --sessions 24 --every 1 --family dark
    PYTHONPATH=. python benchmarks/row_under_shells.py games -- --source recognizer --games 10 \
        --moves 30 --pack classic --family dark
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, "benchmarks")

from games.tribes.vision.readers import row as row_reader  # noqa: E402

Row = tuple[str, int, bool, float]  # kind, shells read, right, confidence
MOST = 4  # shells counted apart up to this many; more are counted with it


def _slots(read: Any, truth: Any) -> list[Row]:
    """The occupied slots of one reading against its truth (both Observations)."""
    got = {s.slot: s for s in read.row}
    out = []
    for s in truth.row:
        r = got.get(s.slot)
        if s.tile and r is not None and r.tile:
            out.append(("event" if s.event else "action", min(r.shells, MOST), r.tile == s.tile, r.tile_conf))
    return out


def _lift_caps() -> None:
    for name in ("EVENT_UNDER_SHELLS", "ACTION_UNDER_SHELLS"):
        if hasattr(row_reader, name):
            setattr(row_reader, name, (1.0,))


def from_sessions(a: argparse.Namespace) -> list[Row]:
    import vision_diag

    from games.tribes.rules.profile import default_profile
    from games.tribes.vision.observation import observation_from_truth
    from games.tribes.vision.recognizer import Recognizer

    profile = default_profile()
    rows: list[Row] = []
    for _name, seated, enr, frames in vision_diag.sessions(a):
        rec = Recognizer(seated, profile, enr, None, stream=False)
        for i, (png, truth, _k, _t) in enumerate(frames):
            obs = rec.read(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), frame_no=i)
            rows.extend(_slots(obs, observation_from_truth(truth)))
    return rows


def _one_game(spec: Any, args: argparse.Namespace, keep: bool) -> list[Row]:
    import tracker_eval

    if not keep:
        _lift_caps()
    rows: list[Row] = []
    original = tracker_eval.RecognizerSource.__call__

    def watched(self: Any, frame: Any) -> Any:
        obs = original(self, frame)
        if obs.settled and obs.registered and frame.settled:
            rows.extend(_slots(obs, self.table_camera.observe(frame)))
        return obs

    tracker_eval.RecognizerSource.__call__ = watched  # type: ignore[method-assign]
    tracker_eval.run_game(spec, args)
    return rows


def from_games(rest: list[str], keep: bool) -> list[Row]:
    import tracker_eval

    args = tracker_eval.parser().parse_args(rest)
    todo = tracker_eval.specs(args.games, args.first_seed)
    if args.only:
        todo = [s for s in todo if s.seed in args.only]
    with ProcessPoolExecutor(2) as pool:
        parts = list(pool.map(_one_game, todo, [args] * len(todo), [keep] * len(todo)))
    return [r for p in parts for r in p]


def main(argv: list[str] | None = None) -> int:
    import vision_diag

    ap = argparse.ArgumentParser(description="row tiles under shells: how often right, by kind and shells read")
    ap.add_argument("source", nargs="?", choices=("sessions", "games"), default="sessions")
    ap.add_argument("rest", nargs="*", help="games: arguments for tracker_eval.py (after --)")
    ap.add_argument("--keep-caps", action="store_true", help="read with the row's caps on its confidence")
    a = vision_diag.probe_args(ap, argv)
    cv2.setNumThreads(1)
    if a.source == "games":
        rows = from_games(a.rest, a.keep_caps)
    else:
        if not a.keep_caps:
            _lift_caps()
        rows = from_sessions(a)
    table: dict[tuple[str, int], list[tuple[bool, float]]] = defaultdict(list)
    for kind, shells, ok, conf in rows:
        table[(kind, shells)].append((ok, conf))
    print(f"caps {'kept' if a.keep_caps else 'lifted'}; shells read on the slot ({MOST}: {MOST} or more)")
    print("| kind | shells | right | share | wrong ones' confidence: median / max |")
    print("|---|---|---|---|---|")
    for (kind, shells), v in sorted(table.items()):
        right = sum(ok for ok, _ in v)
        wrong = [c for ok, c in v if not ok]
        spread = f"{np.median(wrong):.2f} / {max(wrong):.2f}" if wrong else "-"
        print(f"| {kind} | {shells} | {right} of {len(v)} | {100 * right / len(v):.0f} % | {spread} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
