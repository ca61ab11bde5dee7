"""Why the arrow reader misses or invents an arrow token in sessions of the held-out evaluation.

A diagnostic for docs/benchmarks.md ("Vision", arrow tokens), not a figure of its own. For each
frame of the chosen sessions (the same sessions, conditions and frames as
``benchmarks/vision_eval.py --frames F``) it prints the arrows laid, the arrows read with the light
followed and without (``Recognizer(follow_light=False)``), and what the reader makes of the same
frame with every footprint held against the bare table alone (``read(ctx, board=None)``: the
reader as it was before the corners' bare looks were composed from the board reading, issue 20).
For every arrow missed or invented (light followed): the share of its footprint that counts for
its colour against the composed bare look (the reader), against the bare table alone and with no
bare check at all; for an arrow with another one crossing it, the same for its two tips beyond the
crossing token and the under-arrow check's share (its tips' pixels unmixed into the composed bare
look, the top token's colour and its own); and the footprint's median Lab against the enrolled
colour, the composed bare look there and the enrolled table. At the end: the under-arrow check's
shares at corners with an arrow read, with an arrow laid under it and without. Run from the
repository root::

    PYTHONPATH=. python benchmarks/arrows_probe.py --sessions 13,17,18 --frames 4
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

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
from games.tribes.vision.readers.arrows import ArrowReader, Evidence, share  # noqa: E402
from games.tribes.vision.recognizer import Recognizer  # noqa: E402
from vision.colour import lab  # noqa: E402

Arrow = tuple[str, tuple[int, int], tuple[int, int]]


def _sessions(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def _spy(rec: Recognizer) -> dict[str, Any]:
    """Keep the context and board reading of the recognizer's last arrow read."""
    rd = rec.arrows
    seen: dict[str, Any] = {}
    plain = rd.read

    def spy(ctx: Any, board: Any = None) -> Any:
        seen["ctx"], seen["board"] = ctx, board
        return plain(ctx, board)

    rd.read = spy  # type: ignore[method-assign]
    seen["plain"] = plain
    return seen


def _why(rec: Recognizer, seen: dict[str, Any], wrong: list[tuple[str, Arrow]], truth: list[Arrow]) -> None:
    """The footprint of each arrow missed or invented as the reader sees it."""
    rd = rec.arrows
    ctx, board = seen.get("ctx"), seen.get("board")
    geo = rd._geometry(ctx.regions) if ctx is not None else None
    if ctx is None or geo is None:
        print("      (the board was not read)")
        return
    names = [c[0] for c in rd.colours]
    plain = ArrowReader(rd.colours, rd.threshold)  # no bare check at all
    evs: dict[str, Evidence | None] = {
        "composed": rd.evidence(ctx, board),
        "table": rd.evidence(ctx, None),
        "none": plain.evidence(ctx, None),
    }
    labs = lab(ctx.windows(geo.windows))
    tiles = rd._tiles(board)
    laid = {(lo, up) for _, lo, up in truth}
    for what, (colour, lower, upper) in wrong:
        i, j = geo.places.index((lower, upper)), names.index(colour)
        m = geo.masks[i]
        sh = {k: share(ev, j, i, m) if ev is not None else float("nan") for k, ev in evs.items()}
        bare, _, composed = rd._composed(geo, i, tiles)
        line = (
            f"      {what} {colour} {lower}-{upper}: share {sh['composed']:.2f} against the composed bare look "
            f"(bare table alone {sh['table']:.2f}, no check {sh['none']:.2f}; needs {rd.threshold}); "
            f"composed {composed[m].mean():.0%} of the footprint"
        )
        k = geo.partner.get(i)
        if k is not None and geo.places[k] in laid:
            region = m & ~geo.tokens[k]
            tips = (region & geo.forward[i], region & ~geo.forward[i])
            ts = {
                key: "/".join(f"{share(ev, j, i, x):.2f}" for x in tips) if ev is not None else "-"
                for key, ev in evs.items()
            }
            top = next(c for c, lo, up in truth if (lo, up) == geo.places[k])
            now = evs["composed"]
            un = rd.under(now, geo, k, names.index(top), j) if now is not None else float("nan")
            line += (
                f"; under {top}: tips by colour alone {ts['composed']} (table {ts['table']}, none {ts['none']}), "
                f"unmixed into the composed look {un:.2f} (needs {reader.UNDER} at each tip)"
            )
        print(line)
        print(
            f"        footprint Lab {np.median(labs[i][m], axis=0).round(1).tolist()}, enrolled {colour} "
            f"{np.round(rd.colours[j][1], 1).tolist()}, bare look {np.median(bare[m], axis=0).round(1).tolist()}, "
            f"table {None if rd.table is None else np.round(rd.table, 1).tolist()}"
        )


def _crossings(rec: Recognizer, seen: dict[str, Any], truth: list[Arrow], got: list[Arrow], out: dict) -> None:
    """The under-arrow check at every corner where an arrow was read: its share for the colour laid
    under it, or — nothing laid under it — the largest over the colours not read."""
    rd = rec.arrows
    ctx, board = seen.get("ctx"), seen.get("board")
    if ctx is None:
        return
    geo = rd._geometry(ctx.regions)
    ev = rd.evidence(ctx, board) if geo is not None else None
    if geo is None or ev is None:
        return
    names = [c[0] for c in rd.colours]
    laid = {(lo, up): c for c, lo, up in truth}
    read = {c for c, _, _ in got}
    for c, lo, up in got:
        i = geo.places.index((lo, up))
        k = geo.partner.get(i)
        if k is None or (c, lo, up) not in truth:
            continue
        under = laid.get(geo.places[k])
        if under is not None:
            rivals = [rd.under(ev, geo, i, names.index(c), j) for j, n in enumerate(names) if n not in read | {under}]
            mine = rd.under(ev, geo, i, names.index(c), names.index(under))
            out["laid"].append((round(mine, 2), round(max(rivals, default=0.0), 2)))
        else:
            free = [rd.under(ev, geo, i, names.index(c), j) for j, n in enumerate(names) if n not in read]
            out["free"].append(round(max(free, default=0.0), 2))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", default="17", help="evaluation sessions (0-based), e.g. 13,17-18")
    ap.add_argument("--of", type=int, default=24, help="sessions of the evaluation (its conditions)")
    ap.add_argument("--frames", type=int, default=4, help="frames per session (as vision_eval --frames)")
    a = ap.parse_args(argv)
    layout, profile = default_layout(), default_profile()
    pack = builtin_pack(HELD_OUT_PACK)
    photos = photographed_pack(pack, layout)
    tally = {"reader": [0, 0], "bare table alone": [0, 0]}
    crossing: dict[str, list[Any]] = {"laid": [], "free": []}
    for s in _sessions(a.sessions):
        rng = np.random.default_rng([EVAL_SEED_BASE, s, 1])
        players = int(rng.integers(2, 5))
        game = simulate(players, EVAL_SEED_BASE + s, "greedy")
        seated = layout.with_seats((0, 2)) if players == 2 else layout
        cond = session_conditions(s, a.of, seated)
        renderer = Renderer(seated, pack, cond["texture"], seed=s)
        enr = enroll_session(renderer, game, cond, photos, seated)
        recs = {fl: Recognizer(seated, profile, enr, stream=False, follow_light=fl) for fl in (True, False)}
        spies = {fl: _spy(rec) for fl, rec in recs.items()}
        light, camera = cond["light"], cond["camera"]
        print(f"session {s}: {players}p, {light.kelvin:.0f} K, tilt {camera.tilt:.0f}, {cond['texture']}")
        picks = np.linspace(2, len(game.states) - 1, a.frames).round().astype(int)
        for f, mv in enumerate(picks):
            lt, fx = frame_variation(cond, rng)
            fr = renderer.render(game.states[int(mv)], cond["camera"], lt, fx, frame_seed=1000 + f)
            truth = sorted((x.colour, x.lower, x.upper) for x in observation_from_truth(fr.truth).arrows)
            print(f"  frame {f} (move {mv}): laid {truth}")
            for fl, rec in recs.items():
                obs = rec.read(fr.image, frame_no=f)
                got = sorted((x.colour, x.lower, x.upper) for x in obs.arrows)
                mark = "ok" if got == truth else "WRONG"
                print(f"    light {'followed' if fl else 'not followed'}: {mark} {got}")
                if not fl:
                    continue
                tally["reader"][0] += got == truth
                tally["reader"][1] += 1
                sp = spies[fl]
                if "ctx" in sp and obs.arrows is not None and "board" not in obs.hidden:
                    old = sorted((x.colour, x.lower, x.upper) for x in sp["plain"](sp["ctx"], None))
                    tally["bare table alone"][0] += old == truth
                    tally["bare table alone"][1] += 1
                    print(f"      bare table alone: {'ok' if old == truth else 'WRONG'} {old}")
                _crossings(rec, sp, truth, got, crossing)
                if got != truth:
                    wrong = [("missed", t) for t in truth if t not in got] + [
                        ("invented", g) for g in got if g not in truth
                    ]
                    _why(rec, sp, wrong, truth)
    for k, (ok, n) in tally.items():
        print(f"frames right, light followed, {k}: {ok}/{n}")
    print(
        "under-arrow check (light followed) at corners with an arrow read, an arrow laid under it "
        "(its share, the largest of the other colours not read): "
        f"{sorted(crossing['laid'])}"
    )
    print(
        f"  and none laid under it (the largest over the colours not read): {sorted(crossing['free'])[-12:]} (top 12)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
