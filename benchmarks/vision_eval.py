"""Evaluation of the camera pipeline on a held-out rendered set (figures for docs/benchmarks.md).

Run from the repository root::

    PYTHONPATH=. python benchmarks/vision_eval.py                       # 24 sessions x 25 frames
    PYTHONPATH=. python benchmarks/vision_eval.py --sessions 4 --frames 8 --quick
    PYTHONPATH=. python benchmarks/vision_eval.py --drift off                # every session steady
    PYTHONPATH=. python benchmarks/vision_eval.py --piles varied             # members in rings and heaps, some leaning
    PYTHONPATH=. python benchmarks/vision_eval.py --family dark --models /tmp/fold   # a LOFO fold

What is held out (``models/splits.py``): the ``sketch`` art pack and its piece and shell colours
(never rendered for training or tuning), camera fields of view from a band training never uses,
and seeds. Each *session* is one user's table: a simulated game (2–4 players), one camera pose
(tilt spread evenly over 0–35°, any side, roll, lens distortion), one light (colour temperature
spread evenly over 2700–6500 K, direction, shadows, uneven brightness, sometimes glare), one table
texture, at 1920 x 1080. In each session:

1. **Enrollment as a user would do it**: a photo of the table after the setup (the starting tiles'
   types, the row order and the era-1 tiles are what the setup says), a second photo after laying
   one tile of each resource missing from the start laid on seat 0's land and all starting tiles turned
   over (their backs: the exhausted side), and
   photos of the event and achievement tiles on the capture sheet (taken once, with a phone under
   other light; cut with ``vision.photopack``).
2. **Frames**: positions spread over the game, each under the session's camera and light with a
   little jitter (±150 K, ±5% exposure), fresh sensor noise, and in some frames motion blur, defocus
   and JPEG. Each frame is read by the model pipeline and by the colour-histogram baseline, with a
   recognizer kept across the session (a fixed camera); registration is also scored from scratch on
   every frame. With ``--drift half`` (the default) every other session is *drifting*: its light
   changes during the game — colour temperature by 500–1500 K, exposure by a factor of 0.6–1.5,
   the light's direction and hot spot moving — and the camera's auto exposure and auto white
   balance partly follow it, late (``games.tribes.sim.evaluation``: ``Drift``); the session is still
   enrolled under its starting light. ``--drift off``: every session steady (the figures before
   drift existed), ``--drift all``: every session drifts. The filmed sessions stay steady.
   ``--piles varied`` (default ``fixed``): on each hex with two or more members they stand as a ring,
   a heap (touching, overlapping, some lying on others) or the usual grid, chosen per hex from the
   session's seed (``games.tribes.sim.scene.arranged_members``), and on a hex of three or more up
   to two lean on a neighbour or lie on the table (``member_leans``); the filmed sessions too.
   ``--family F``: the sketch pack's faces turned into art family ``F``
   (``games.tribes.sim.families``), enrollment included — to measure a model trained without that
   family (leave-one-family-out); ``--models DIR`` reads with the models of ``DIR`` instead of the
   shipped ones.

Scores (against ``observation_from_truth``): registration; tile type per hex (tile or empty, resource,
exhausted); members per hex and colour exactly right (tiles); shells per row slot and per seat;
the action row read exactly (tiles and order); achievement tiles; stones per position; track markers
per colour and track; what was read where nothing lies (phantom tiles — all, and those
reported with a confidence above 0.5 — members on empty places, shells on empty row slots: counted
as errors, shown as counts); and the share of frames read perfectly. Broken down per colour temperature
(the session's starting light), tilt, and drift (steady or drifting sessions). Speed and memory:
``benchmarks/vision_speed.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from games.tribes.rules.game import simulate  # noqa: E402
from games.tribes.rules.profile import default_profile  # noqa: E402
from games.tribes.sim.evaluation import (  # noqa: E402
    DRIFT_MODES,
    PHANTOM_KINDS,
    enroll_session,
    frame_conditions,
    frame_variation,
    photographed_pack,
    score,
    session_conditions,
    session_drifts,
)
from games.tribes.sim.packs import builtin_pack  # noqa: E402
from games.tribes.sim.render import Renderer  # noqa: E402
from games.tribes.sim.scene import PILES  # noqa: E402
from games.tribes.sim.splits import EVAL_SEED_BASE, HELD_OUT_PACK  # noqa: E402
from games.tribes.vision.layout import default_layout  # noqa: E402
from games.tribes.vision.observation import observation_from_truth  # noqa: E402
from games.tribes.vision.recognizer import Recognizer  # noqa: E402
from vision.features import Models  # noqa: E402
from vision.registration import Registrar  # noqa: E402

KELVIN_BINS = (
    (2700, 3500, "2700-3500"),
    (3500, 4500, "3500-4500"),
    (4500, 5500, "4500-5500"),
    (5500, 6501, "5500-6500"),
)
TILT_BINS = ((0, 10, "0-10"), (10, 20, "10-20"), (20, 30, "20-30"), (30, 35.01, "30-35"))


def bin_of(v: float, bins: tuple[tuple[float, float, str], ...]) -> str:
    for lo, hi, name in bins:
        if lo <= v < hi:
            return name
    return "other"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="evaluate the camera pipeline on held-out rendered tables")
    ap.add_argument("--sessions", type=int, default=24)
    ap.add_argument("--frames", type=int, default=25, help="frames per session")
    ap.add_argument("--baseline-only", action="store_true", help="skip the model pipeline (no models yet)")
    ap.add_argument("-o", "--output", default="benchmarks/results/vision_eval.json")
    ap.add_argument("--quick", action="store_true", help="no per-frame log")
    ap.add_argument("--failures", help="folder to write frames read wrongly (annotated) into")
    ap.add_argument("--video-moves", type=int, default=12, help="moves of rendered video per video session (0: none)")
    ap.add_argument("--video-sessions", type=int, default=2, help="sessions whose game is also filmed")
    ap.add_argument(
        "--drift",
        choices=DRIFT_MODES,
        default="half",
        help="sessions whose light changes during the game: none, every other one (default), all",
    )
    ap.add_argument(
        "--piles",
        choices=PILES,
        default="fixed",
        help="how members stand on a hex: the grid (default) or a ring, heap or grid per hex (varied)",
    )
    ap.add_argument("--family", help="turn the sketch pack into this art family (games.tribes.sim.families)")
    ap.add_argument("--models", help="folder of models.json and *.onnx (default: the shipped models)")
    ap.add_argument(
        "--compare-bare",
        action="store_true",
        help="also read every frame without the check against the enrolled bare table (vision.bare)",
    )
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    layout = default_layout()
    profile = default_profile()
    pack = builtin_pack(HELD_OUT_PACK)
    assert HELD_OUT_PACK == "sketch"
    if a.family:
        from games.tribes.sim.families import family_pack

        pack = family_pack(HELD_OUT_PACK, a.family, held_out=True)
    t0 = time.time()
    photos = photographed_pack(pack, layout)
    kinds = ["model", "histogram"] if not a.baseline_only else ["histogram"]
    if a.compare_bare and not a.baseline_only:
        kinds.insert(1, "model-no-bare")
    options: dict[str, dict[str, Any]] = {
        "model": {"features": "model"},
        "histogram": {"features": "histogram"},
        "model-no-bare": {"features": "model", "bare_look": False},
    }
    totals: dict[str, dict[str, list[int]]] = {k: defaultdict(lambda: [0, 0]) for k in kinds}
    by_light: dict[str, dict[str, dict[str, list[int]]]] = {
        k: defaultdict(lambda: defaultdict(lambda: [0, 0])) for k in kinds
    }
    by_tilt: dict[str, dict[str, dict[str, list[int]]]] = {
        k: defaultdict(lambda: defaultdict(lambda: [0, 0])) for k in kinds
    }
    by_drift: dict[str, dict[str, dict[str, list[int]]]] = {
        k: defaultdict(lambda: defaultdict(lambda: [0, 0])) for k in kinds
    }
    perfect_by_drift: dict[str, dict[str, list[int]]] = {k: defaultdict(lambda: [0, 0]) for k in kinds}
    drifting_sessions = 0
    perfect = {k: [0, 0] for k in kinds}
    hidden = {k: 0 for k in kinds}  # frames in which the reader listed a region hidden
    truth_hidden = 0
    reg_fresh = [0, 0]
    reg_err: list[float] = []
    timings: dict[str, dict[str, list[float]]] = {k: defaultdict(list) for k in kinds}
    notes: list[str] = []
    if a.failures:
        Path(a.failures).mkdir(parents=True, exist_ok=True)
    for s in range(a.sessions):
        rng = np.random.default_rng([EVAL_SEED_BASE, s, 1])
        players = int(rng.integers(2, 5))
        game = simulate(players, EVAL_SEED_BASE + s, "greedy")
        seated = layout.with_seats((0, 2)) if players == 2 else layout
        cond = session_conditions(s, a.sessions, seated, drift=session_drifts(s, a.drift), piles=a.piles)
        drifting_sessions += int(cond["drift"] is not None)
        renderer = Renderer(seated, pack, cond["texture"], seed=s, piles=cond["piles"])
        enr = enroll_session(renderer, game, cond, photos, seated)
        recs = {k: Recognizer(seated, profile, enr, a.models, stream=False, **options[k]) for k in kinds}
        kb = bin_of(cond["light"].kelvin, KELVIN_BINS)
        tb = bin_of(cond["camera"].tilt, TILT_BINS)
        db = "drifting" if cond["drift"] is not None else "steady"
        n_moves = len(game.states) - 1
        picks = np.linspace(2, n_moves, a.frames).round().astype(int)
        for f, mv in enumerate(picks):
            lt, fx = frame_conditions(cond, f, a.frames, rng)
            fr = renderer.render(game.states[int(mv)], cond["camera"], lt, fx, frame_seed=1000 + f)
            truth = observation_from_truth(fr.truth)
            truth_hidden += int(bool(truth.hidden))
            gray = cv2.cvtColor(fr.image, cv2.COLOR_BGR2GRAY)
            res = Registrar(seated).update(gray)
            reg_fresh[1] += 1
            if res.registration is not None:
                reg_fresh[0] += 1
                cen = np.array([h["center"] for h in fr.truth["hexes"] if h["in_view"]])
                mm = np.array(
                    [seated.hex_center(h["seat"], tuple(h["hex"])) for h in fr.truth["hexes"] if h["in_view"]]
                )
                if len(cen):
                    reg_err.append(float(np.linalg.norm(res.registration.project(mm) - cen, axis=1).mean()))
            for k in kinds:
                obs = recs[k].read(fr.image, frame_no=f)
                for st, v in recs[k].timings.items():
                    timings[k][st].append(v)
                sc = score(obs, truth)
                hidden[k] += int(bool(obs.hidden))
                all_ok = True
                for kind, (ok, tot) in sc.items():
                    for table in (totals[k], by_light[k][kb], by_tilt[k][tb], by_drift[k][db]):
                        table[kind][0] += ok
                        table[kind][1] += tot
                    all_ok &= ok == tot
                perfect[k][0] += int(all_ok)
                perfect[k][1] += 1
                perfect_by_drift[k][db][0] += int(all_ok)
                perfect_by_drift[k][db][1] += 1
                if a.failures and k == "model" and not all_ok:
                    bad = [kind for kind, (ok, tot) in sc.items() if ok != tot]
                    name = f"s{s:02d}f{f:02d}-{'_'.join(b.split()[0] for b in bad)}"
                    cv2.imwrite(str(Path(a.failures) / f"{name}.jpg"), recs[k].annotate(fr.image, obs))
                    (Path(a.failures) / f"{name}.json").write_text(json.dumps(fr.truth))
        if not a.quick:
            line = " | ".join(
                f"{k}: " + ", ".join(f"{kind.split()[0]} {v[0] / max(v[1], 1):.4f}" for kind, v in totals[k].items())
                for k in kinds
            )
            moved = ""
            if cond["drift"] is not None:
                d = cond["drift"]
                moved = f" drifting to {d.light.kelvin:.0f} K x{d.light.exposure / cond['light'].exposure:.2f}"
            print(
                f"session {s + 1}/{a.sessions} ({players}p, {cond['light'].kelvin:.0f} K{moved}, tilt "
                f"{cond['camera'].tilt:.0f}, {cond['texture']}; {time.time() - t0:.0f} s): {line}",
                file=sys.stderr,
                flush=True,
            )
    video = video_eval(a, layout, profile, pack, photos) if a.video_moves > 0 and not a.baseline_only else None
    result = {
        "video": video,
        "command": "PYTHONPATH=. python benchmarks/vision_eval.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "sessions": a.sessions,
        "drift": a.drift,
        "drifting_sessions": drifting_sessions,
        "piles": a.piles,
        "family": a.family,
        "models": a.models,
        "model_sha256": Models(a.models).digests(),
        "frames": a.sessions * a.frames,
        "seconds": round(time.time() - t0),
        "truth_frames_with_hidden_regions": truth_hidden,
        "registration_fresh": {
            "ok": reg_fresh[0],
            "total": reg_fresh[1],
            "rate": reg_fresh[0] / max(reg_fresh[1], 1),
            "mean_hex_centre_error_px": float(np.mean(reg_err)) if reg_err else None,
            "p99_hex_centre_error_px": float(np.percentile(reg_err, 99)) if reg_err else None,
        },
        "results": {
            k: {
                "overall": {
                    kind: {"ok": v[0], "total": v[1], "rate": v[0] / max(v[1], 1)} for kind, v in totals[k].items()
                },
                "frames_with_hidden_regions": hidden[k],
                "perfect_frames": {
                    "ok": perfect[k][0],
                    "total": perfect[k][1],
                    "rate": perfect[k][0] / max(perfect[k][1], 1),
                },
                "by_kelvin": {
                    b: {kind: round(v[0] / max(v[1], 1), 5) for kind, v in d.items()}
                    for b, d in sorted(by_light[k].items())
                },
                "by_tilt": {
                    b: {kind: round(v[0] / max(v[1], 1), 5) for kind, v in d.items()}
                    for b, d in sorted(by_tilt[k].items())
                },
                "by_drift": {
                    b: {kind: round(v[0] / max(v[1], 1), 5) for kind, v in d.items()}
                    for b, d in sorted(by_drift[k].items())
                },
                "perfect_frames_by_drift": {
                    b: {"ok": v[0], "total": v[1], "rate": v[0] / max(v[1], 1)}
                    for b, v in sorted(perfect_by_drift[k].items())
                },
                "median_ms": {st: round(float(np.median(v)), 2) for st, v in timings[k].items()},
            }
            for k in kinds
        },
        "notes": notes,
    }
    out = Path(a.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(markdown(result))
    return 0


def video_eval(a: argparse.Namespace, layout: Any, profile: Any, pack: Any, photos: Any) -> dict[str, Any]:
    """The motion gate and the stream path on rendered video: each move carried out by a hand
    (vision.video), read frame by frame by a streaming recognizer (motion gate on). Counted: frames
    with a hand over the table or pieces moving that the gate called settled (must be none), settled frames
    the gate let through, and how the frames it let through were read."""
    from games.tribes.sim.source import RenderSource
    from games.tribes.sim.video import Pace

    out: dict[str, Any] = {
        "frames": 0,
        "truth_settled": 0,
        "gate_settled": 0,
        "false_settled": 0,
        "read_ok": 0,
        "read": 0,
        "hand_frames": 0,
        "hand_flagged": 0,
        "still_read": 0,
        "still_ok": 0,
        "facts": {},
        "members_wrong": {},
    }
    members_wrong: Counter[str] = Counter()
    for v in range(a.video_sessions):
        s = 1000 + v
        rng = np.random.default_rng([EVAL_SEED_BASE, s, 1])
        players = int(rng.integers(2, 5))
        game = simulate(players, EVAL_SEED_BASE + s, "greedy")
        seated = layout.with_seats((0, 2)) if players == 2 else layout
        cond = session_conditions(v, a.video_sessions, seated, EVAL_SEED_BASE + 1000, piles=a.piles)
        renderer = Renderer(seated, pack, cond["texture"], seed=s, piles=cond["piles"])
        enr = enroll_session(renderer, game, cond, photos, seated)
        rec = Recognizer(seated, profile, enr, a.models, stream=True)
        start = int(rng.integers(5, max(6, len(game.moves) - a.video_moves)))
        lt, fx = frame_variation(cond, rng)
        pace = Pace(fps=10.0, rest=1.5)  # players pause a moment between moves
        src = RenderSource(game, renderer, cond["camera"], lt, fx, start, start + a.video_moves, pace=pace)
        src.open()
        table = None
        while (img := src.read()) is not None:
            truth = src.truth or {}
            if table is None:
                pts = np.concatenate([np.array(m["corners"]) for m in truth["markers"]]).astype(np.float32)
                table = cv2.convexHull(pts)
            obs = rec.read(img, frame_no=out["frames"])
            out["frames"] += 1
            over = any(h.get("in_view") and _over(h["bbox"], table) for h in truth.get("hands", []))
            # a hand over the table, or tiles sliding along the row (a hand off the table or out of
            # view does not hide anything: the plan's own "settled" is stricter than reading needs)
            moving = over or bool(truth.get("row_moving"))
            out["truth_settled"] += int(not moving)
            out["gate_settled"] += int(obs.settled)
            out["hand_frames"] += int(over)
            out["hand_flagged"] += int(over and obs.hand_in_view)
            if obs.settled and moving:
                out["false_settled"] += 1
            if obs.settled and obs.registered:
                sc = score(obs, observation_from_truth(truth))
                for kind, (ok, tot) in sc.items():
                    f = out["facts"].setdefault(kind, [0, 0])
                    f[0] += ok
                    f[1] += tot
                out["read"] += 1
                out["read_ok"] += int(all(ok == tot for ok, tot in sc.values()))
                if not moving:  # nothing over the table: every fact could be read
                    out["still_read"] += 1
                    out["still_ok"] += int(all(ok == tot for ok, tot in sc.values()))
                    members_wrong.update(_members_wrong(obs, observation_from_truth(truth), v))
    # one camera per session: a pile misread is misread in frame after frame; which, and in how many
    out["members_wrong"] = dict(members_wrong.most_common(12))
    return out


def _members_wrong(read: Any, truth: Any, session: int) -> list[str]:
    """The tiles whose members ``read`` gets wrong, as 'session V seat S hex (q, r): truth -> read'."""
    rh = {(h.seat, h.hex): h for h in read.hexes}
    out = []
    for h in truth.hexes:
        r = rh.get((h.seat, h.hex))
        if h.tile and (r is None or dict(r.members) != dict(h.members)):
            got = "unread" if r is None else str(dict(r.members))
            out.append(f"session {session} seat {h.seat} hex {tuple(h.hex)}: {dict(h.members)} -> {got}")
    return out


def _over(bbox: list[float], table: np.ndarray) -> bool:
    """True when an image box (x0, y0, x1, y1) reaches over the table's outline (markers' hull)."""
    x0, y0, x1, y1 = bbox
    pts = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), ((x0 + x1) / 2, (y0 + y1) / 2)]
    if any(cv2.pointPolygonTest(table, (float(x), float(y)), False) >= 0 for x, y in pts):
        return True
    hull = table.reshape(-1, 2)
    return bool(((hull[:, 0] >= x0) & (hull[:, 0] <= x1) & (hull[:, 1] >= y0) & (hull[:, 1] <= y1)).any())


def markdown(result: dict[str, Any]) -> str:
    """The tables for docs/benchmarks.md."""
    kinds = list(result["results"])
    drifting = f" ({result['drifting_sessions']} with drifting light)" if "drifting_sessions" in result else ""
    lines = [
        f"{result['frames']} frames in {result['sessions']} sessions{drifting}; registration from scratch: "
        f"{result['registration_fresh']['ok']}/{result['registration_fresh']['total']} "
        f"({100 * result['registration_fresh']['rate']:.2f}%), mean hex-centre error "
        f"{result['registration_fresh']['mean_hex_centre_error_px']:.2f} px",
        "",
        "| fact | " + " | ".join(kinds) + " |",
        "|---|" + "---|" * len(kinds),
    ]
    facts = list(result["results"][kinds[0]]["overall"])
    for fact in facts:
        cells = []
        for k in kinds:
            v = result["results"][k]["overall"].get(fact)
            if v and fact in PHANTOM_KINDS:  # counts of what was read where nothing lies
                cells.append(f"{v['total'] - v['ok']} (of {v['total']} places)")
            else:
                cells.append(f"{100 * v['rate']:.2f}% ({v['ok']}/{v['total']})" if v else "-")
        lines.append(f"| {fact} | " + " | ".join(cells) + " |")
    cells = [f"{100 * result['results'][k]['perfect_frames']['rate']:.1f}%" for k in kinds]
    lines.append("| frames read perfectly | " + " | ".join(cells) + " |")
    cells = [str(result["results"][k].get("frames_with_hidden_regions", "-")) for k in kinds]
    lines.append(
        f"| frames with a region hidden (truth: {result.get('truth_frames_with_hidden_regions', '-')}) | "
        + " | ".join(cells)
        + " |"
    )
    vid = result.get("video")
    if vid:
        lines += [
            "",
            f"video (motion gate): {vid['frames']} frames, {vid['truth_settled']} settled in truth, "
            f"{vid['hand_frames']} with a hand over the table ({vid['hand_flagged']} of them flagged hand_in_view); "
            f"the gate let {vid['gate_settled']} through, {vid['false_settled']} of them with a hand over the "
            f"table or pieces moving; {vid['read_ok']}/{vid['read']} frames let through were read perfectly "
            f"({vid.get('still_ok', '-')}/{vid.get('still_read', '-')} of those with nothing over the table)",
        ]
    parts = (
        ("by_kelvin", "colour temperature (K)"),
        ("by_tilt", "tilt (degrees)"),
        ("by_drift", "light in the session"),
    )
    for part, title in parts:
        for k in kinds:
            d = result["results"][k].get(part)
            if not d:  # results from before drift existed
                continue
            lines += [
                "",
                f"{k}, by {title}:",
                "",
                "| " + title + " | " + " | ".join(facts) + " |",
                "|---|" + "---|" * len(facts),
            ]
            for b, row in d.items():
                lines.append(f"| {b} | " + " | ".join(f"{100 * row.get(f, float('nan')):.2f}" for f in facts) + " |")
            if part == "by_drift":
                pf = result["results"][k].get("perfect_frames_by_drift", {})
                lines += [
                    "",
                    "frames read perfectly: "
                    + ", ".join(f"{b} {100 * v['rate']:.1f}% ({v['ok']}/{v['total']})" for b, v in pf.items()),
                ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
