"""Action row evaluation: the row read on settled camera frames of simulated games, with and without
the pixel templates for slots with shells (``vision.templates``, ``vision.readers.row``).

Games are simulated and played on rendered tables exactly as in ``benchmarks/tracker_eval.py
--source recognizer`` (the same game specs, camera, light, sensor noise, enrollment as a user
enrolls); at the first settled frame after each move (the table complete, no hand) the recognizer
reads the picture twice — once with the row templates, once with them switched off — and each
reading of the row is compared with the true row, slot by slot. Errors are broken down by the
number of shells lying on the slot's tile. The row's parameters were tuned on the frames of games 6,
7, 10 and 13 of the tracker evaluation; the default games here (seeds 31 to 36) were not used for
that.

Usage::

    python benchmarks/row_eval.py                      # the figures in docs/benchmarks.md
    python benchmarks/row_eval.py --first-seed 6 --games 2 --moves 20 -v
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tracker_eval import GATE_QUIET, GATE_QUIET_LONG, _source, specs

from games.tribes.rules.game import simulate
from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.playback import Script, timeline
from games.tribes.sim.render import Renderer
from games.tribes.sim.video import Pace
from games.tribes.vision.layout import default_layout
from games.tribes.vision.table import TableModel
from sim.camera import Camera


def run_game(seed_spec: Any, moves: int, verbose: bool) -> dict[str, Any]:
    """Reads the row at every settled move boundary of one game, both ways."""
    spec = seed_spec
    args = argparse.Namespace(
        source="recognizer",
        sensor_noise=2.0,
        enroll="full",
        gate_quiet=GATE_QUIET,
        gate_quiet_long=GATE_QUIET_LONG,
    )
    game = simulate(spec.players, spec.seed, spec.policy)
    rng = random.Random(spec.seed)
    layout = default_layout()
    renderer = Renderer(layout, builtin_pack("sketch"), seed=spec.seed)
    camera = Camera.framing(
        layout, width=1920, height=1080, tilt=rng.uniform(0, 30), azimuth=rng.choice((0, 30, 90, 180, 270)), margin=0.12
    )
    colours = {s.colour: renderer.pack.colour(s.colour) for s in TableModel.from_state(game.state).seats}
    script = Script(pause=0.1, merge=0.1, merge_in_turn=0.4, seed=spec.seed)
    pb = timeline(game, layout, colours, script, Pace(rest=1.0), end=min(moves + 1, len(game.moves)))
    src = _source(args, renderer, camera, game, pb.fps)
    rec = src.recognizer
    templates = rec.row.templates
    errors = {"templates": Counter(), "features": Counter()}
    slots: Counter = Counter()
    exact = Counter()
    rows = 0
    ms: dict[str, list[float]] = {"templates": [], "features": []}
    last = -1
    for f in pb.frames:
        if not f.settled or f.extra or f.done == last:
            continue
        last = f.done
        image = src.table_camera.image(f)
        truth = [(r.tile, r.shells) for r in game.states[f.done].row]
        got = {}
        for way, tm in (("templates", templates), ("features", None)):
            rec.row.templates = tm
            rec.gate.quiet = 0
            rec.gate.quiet_long = 0
            rec.gate.reset()
            rec.read(image)
            obs = rec.read(image)
            ms[way].append(rec.timings.get("row", float("nan")))
            got[way] = [s.tile for s in obs.row if s.tile]
        rows += 1
        for i, (tile, k) in enumerate(truth):
            slots[min(k, 4)] += 1
            for way in got:
                if i >= len(got[way]) or got[way][i] != tile:
                    errors[way][min(k, 4)] += 1
        for way in got:
            exact[way] += got[way] == [t for t, _ in truth]
        if verbose and got["templates"] != [t for t, _ in truth]:
            print(f"  seed {spec.seed} after move {f.done}: truth {truth}, read {got['templates']}", flush=True)
    rec.row.templates = templates
    return {
        "seed": spec.seed,
        "players": spec.players,
        "rows": rows,
        "slots": dict(slots),
        "errors": {w: dict(c) for w, c in errors.items()},
        "exact": dict(exact),
        "row_ms": ms,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--first-seed", type=int, default=31)
    ap.add_argument("--moves", type=int, default=60, help="moves of each game played (default 60)")
    ap.add_argument("--json", type=Path, help="write the results here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every row read wrongly")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    results = []
    for spec in specs(a.games, a.first_seed):
        r = run_game(spec, a.moves, a.verbose)
        results.append(r)
        print(
            f"seed {r['seed']} ({r['players']} players): {r['rows']} rows, exact with templates "
            f"{r['exact'].get('templates', 0)}, without {r['exact'].get('features', 0)}",
            flush=True,
        )
    rows = sum(r["rows"] for r in results)
    slots: Counter = Counter()
    errors = {"templates": Counter(), "features": Counter()}
    for r in results:
        slots.update({int(k): v for k, v in r["slots"].items()})
        for w in errors:
            errors[w].update({int(k): v for k, v in r["errors"][w].items()})
    summary: dict[str, Any] = {"games": len(results), "rows": rows, "seconds": round(time.perf_counter() - t0, 1)}
    for w in ("templates", "features"):
        ex = sum(r["exact"].get(w, 0) for r in results)
        ms = [m for r in results for m in r["row_ms"][w]]
        by = {("4+" if k == 4 else str(k)): f"{errors[w][k]}/{slots[k]}" for k in sorted(slots)}
        summary[w] = {
            "rows_exact": ex,
            "rows_exact_share": round(ex / rows, 4) if rows else None,
            "slot_errors_by_shells": by,
            "row_ms_median": round(statistics.median(ms), 2) if ms else None,
        }
        print(
            f"{w:9s}: rows exact {ex}/{rows} ({100 * ex / max(rows, 1):.1f} %); slots wrong by shells on the tile "
            f"{by}; row read {summary[w]['row_ms_median']} ms median"
        )
    if a.json:
        a.json.write_text(json.dumps({"summary": summary, "games": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
