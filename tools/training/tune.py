"""Choose the recognizer's settings on validation art (never the evaluation's).

    python -m models.tune --sessions 8 --frames 6          # writes tile_mix, count_turns into models.json

Two settings are chosen: the tile-feature mix, and ``count_turns`` — whether the member counter
averages its answer over the four quarter turns of each window (1 or 4).

The tile features can be the ``tiles`` model alone or joined with a colour histogram of the prepared
window (``vision.encoder.TileEncoder``, ``mix`` = the model's weight). Which is best on art the
model was not trained on is measured here on the pack variants held out from the tile model's
training (``models.train.HELD_VARIANTS``: hue-turned and posterised versions of the training packs),
with the training cameras' field of view and seeds of their own — the evaluation pack (sketch) and
its camera band are not touched. Each session is enrolled and read as in the evaluation
(:mod:`vision.evaluation`); the mix with the most correct landscape tiles, row tiles and
achievements wins. Every session is steady (one light all game) unless ``--drift half`` or ``all``
lets the light change during the game as in the evaluation.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from games.tribes.rules.game import simulate
from games.tribes.rules.profile import default_profile
from games.tribes.sim.evaluation import (
    DRIFT_MODES,
    enroll_session,
    frame_conditions,
    photographed_pack,
    score,
    session_conditions,
    session_drifts,
)
from games.tribes.sim.render import Renderer
from games.tribes.sim.splits import TRAIN_FOV
from games.tribes.vision.layout import default_layout
from games.tribes.vision.observation import observation_from_truth
from games.tribes.vision.recognizer import Recognizer
from tools.training.dataset import variant
from tools.training.train import HELD_VARIANTS
from vision.features import Models

TUNE_SEED_BASE = 5_000_000
MIXES = (1.0, 0.85, 0.7, 0.55, 0.4)
FACTS = ("tile type per hex", "achievement tiles", "row exact (with events)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=6)
    ap.add_argument("--frames", type=int, default=6)
    ap.add_argument("--models", type=Path, default=Path("models"))
    ap.add_argument("--dry-run", action="store_true", help="do not write models.json")
    ap.add_argument(
        "--drift",
        choices=DRIFT_MODES,
        default="off",
        help="sessions whose light changes during the game (default none)",
    )
    a = ap.parse_args(argv)
    layout, profile = default_layout(), default_profile()
    models = Models(a.models)
    totals = {m: {f: [0, 0] for f in FACTS} for m in MIXES}
    members = {1: [0, 0], 4: [0, 0]}
    packs = [variant(base, how.strip("-")) for base in ("classic", "bold") for how in HELD_VARIANTS]
    for s in range(a.sessions):
        pack = packs[s % len(packs)]
        rng = np.random.default_rng([TUNE_SEED_BASE, s])
        players = int(rng.integers(2, 5))
        game = simulate(players, TUNE_SEED_BASE + s, "greedy")
        seated = layout.with_seats((0, 2)) if players == 2 else layout
        cond = session_conditions(s, a.sessions, seated, TUNE_SEED_BASE, TRAIN_FOV, drift=session_drifts(s, a.drift))
        renderer = Renderer(seated, pack, cond["texture"], seed=s)
        enr = enroll_session(renderer, game, cond, photographed_pack(pack, seated), seated)
        recs = {m: Recognizer(seated, profile, enr, models, stream=False, tile_mix=m, count_turns=4) for m in MIXES}
        one_turn = Recognizer(seated, profile, enr, models, stream=False, tile_mix=MIXES[3], count_turns=1)
        for i, mv in enumerate(np.linspace(2, len(game.states) - 1, a.frames).round().astype(int)):
            lt, fx = frame_conditions(cond, i, a.frames, rng)
            fr = renderer.render(game.states[int(mv)], cond["camera"], lt, fx, frame_seed=int(mv))
            truth = observation_from_truth(fr.truth)
            for m, rec in recs.items():
                sc = score(rec.read(fr.image), truth)
                for f in FACTS:
                    totals[m][f][0] += sc[f][0]
                    totals[m][f][1] += sc[f][1]
                if m == MIXES[3]:
                    members[4][0] += sc["members per hex"][0]
                    members[4][1] += sc["members per hex"][1]
            sc = score(one_turn.read(fr.image), truth)
            members[1][0] += sc["members per hex"][0]
            members[1][1] += sc["members per hex"][1]
        line = ", ".join(
            f"{m}: {totals[m]['tile type per hex'][0] / max(totals[m]['tile type per hex'][1], 1):.4f}" for m in MIXES
        )
        print(f"session {s + 1}/{a.sessions} ({pack.name}): tile type {line}", file=sys.stderr, flush=True)
    errors = {m: sum(t[1] - t[0] for t in totals[m].values()) for m in MIXES}
    best = min(MIXES, key=lambda m: (errors[m], -m))
    turns = 4 if members[4][0] > members[1][0] else 1
    report = {
        "mixes": {str(m): {f: totals[m][f] for f in FACTS} for m in MIXES},
        "errors": {str(m): e for m, e in errors.items()},
        "chosen": best,
        "members_per_hex_by_turns": members,
        "count_turns": turns,
        "packs": [p.name for p in packs],
        "sessions": a.sessions,
        "frames": a.frames,
        "drift": a.drift,
    }
    print(json.dumps(report, indent=1))
    if not a.dry_run:
        path = a.models / "models.json"
        doc = json.loads(path.read_text())
        doc["tile_mix"] = best
        doc["count_turns"] = turns
        doc["tile_mix_tuning"] = report
        path.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
