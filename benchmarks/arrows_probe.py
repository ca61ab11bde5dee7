"""Why the arrow reader misses or invents an arrow token in sessions of the held-out evaluation.

A diagnostic for docs/benchmarks.md ("Vision", arrow tokens), not a figure of its own. For each
frame of the chosen sessions (the same sessions, conditions and frames as
``benchmarks/vision_eval.py --frames F``) it prints the arrows laid, the arrows read with the light
followed and without (``Recognizer(follow_light=False)``), and for every arrow missed: the share of
its footprint that counts for its colour with and without the reader's bare-table check, the
footprint's median Lab against the enrolled colour and the enrolled table. Run from the repository
root::

    PYTHONPATH=. python benchmarks/arrows_probe.py --sessions 17 --frames 4
"""

from __future__ import annotations

import argparse
import os
import sys

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import numpy as np  # noqa: E402

from games.tribes.rules.game import simulate  # noqa: E402
from games.tribes.rules.profile import default_profile  # noqa: E402
from games.tribes.sim.evaluation import (  # noqa: E402
    enroll_session,
    frame_variation,
    photographed_pack,
    session_conditions,
)
from games.tribes.sim.packs import builtin_pack  # noqa: E402
from games.tribes.sim.render import Renderer  # noqa: E402
from games.tribes.sim.splits import EVAL_SEED_BASE, HELD_OUT_PACK  # noqa: E402
from games.tribes.vision.layout import default_layout  # noqa: E402
from games.tribes.vision.observation import observation_from_truth  # noqa: E402
from games.tribes.vision.readers import arrows as reader  # noqa: E402
from games.tribes.vision.readers.base import colour_sigma  # noqa: E402
from games.tribes.vision.recognizer import Recognizer  # noqa: E402
from vision.colour import lab, likeness  # noqa: E402


def _sessions(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def _why(rec: Recognizer, image: np.ndarray, missed: list[tuple[str, tuple[int, int], tuple[int, int]]]) -> None:
    """The footprint of each missed arrow as the reader sees it."""
    rd = rec.arrows
    seen: dict[str, object] = {}
    plain = rd.read

    def spy(ctx: object) -> object:
        seen["ctx"] = ctx
        return plain(ctx)  # type: ignore[arg-type]

    rd.read = spy  # type: ignore[method-assign]
    try:
        rec.read(image, frame_no=10**6)
    finally:
        del rd.read
    ctx = seen.get("ctx")
    geo = rd._geometry(ctx.regions.layout) if ctx is not None else None  # type: ignore[attr-defined]
    if geo is None:
        print("      (the board was not read)")
        return
    places, ps, masks = geo[0], geo[1], geo[2]
    labs = lab(ctx.windows(ps))  # type: ignore[attr-defined]
    names = [c[0] for c in rd.colours]
    raw = np.stack([likeness(labs, ref, colour_sigma(sp)) for _, ref, sp in rd.colours])
    top = raw.max(axis=0)
    for colour, lower, upper in missed:
        i, j = places.index((lower, upper)), names.index(colour)
        m = masks[i]
        like = (raw[j] > reader.LIKE) & (raw[j] >= top)
        checked = like
        if rd.table is not None:
            checked = like & (raw[j] > likeness(labs, rd.table, colour_sigma(rd.colours[j][2])))
        print(
            f"      missed {colour} {lower}-{upper}: share {float(checked[i][m].mean()):.2f} "
            f"(without the table check {float(like[i][m].mean()):.2f}, needs {rd.threshold}); footprint Lab "
            f"{np.median(labs[i][m], axis=0).round(1).tolist()}, enrolled {colour} "
            f"{np.round(rd.colours[j][1], 1).tolist()}, table "
            f"{None if rd.table is None else np.round(rd.table, 1).tolist()}"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", default="17", help="evaluation sessions (0-based), e.g. 13,17-18")
    ap.add_argument("--of", type=int, default=24, help="sessions of the evaluation (its conditions)")
    ap.add_argument("--frames", type=int, default=4, help="frames per session (as vision_eval --frames)")
    a = ap.parse_args(argv)
    layout, profile = default_layout(), default_profile()
    pack = builtin_pack(HELD_OUT_PACK)
    photos = photographed_pack(pack, layout)
    for s in _sessions(a.sessions):
        rng = np.random.default_rng([EVAL_SEED_BASE, s, 1])
        players = int(rng.integers(2, 5))
        game = simulate(players, EVAL_SEED_BASE + s, "greedy")
        seated = layout.with_seats((0, 2)) if players == 2 else layout
        cond = session_conditions(s, a.of, seated)
        renderer = Renderer(seated, pack, cond["texture"], seed=s)
        enr = enroll_session(renderer, game, cond, photos, seated)
        recs = {fl: Recognizer(seated, profile, enr, stream=False, follow_light=fl) for fl in (True, False)}
        light, camera = cond["light"], cond["camera"]
        print(f"session {s}: {players}p, {light.kelvin:.0f} K, tilt {camera.tilt:.0f}, {cond['texture']}")
        picks = np.linspace(2, len(game.states) - 1, a.frames).round().astype(int)
        for f, mv in enumerate(picks):
            lt, fx = frame_variation(cond, rng)
            fr = renderer.render(game.states[int(mv)], cond["camera"], lt, fx, frame_seed=1000 + f)
            truth = sorted((x.colour, x.lower, x.upper) for x in observation_from_truth(fr.truth).arrows)
            print(f"  frame {f} (move {mv}): laid {truth}")
            for fl, rec in recs.items():
                got = sorted((x.colour, x.lower, x.upper) for x in rec.read(fr.image, frame_no=f).arrows)
                mark = "ok" if got == truth else "WRONG"
                print(f"    light {'followed' if fl else 'not followed'}: {mark} {got}")
                if fl and got != truth:
                    _why(rec, fr.image, [t for t in truth if t not in got])
    return 0


if __name__ == "__main__":
    sys.exit(main())
