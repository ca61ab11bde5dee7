"""Evaluation of the camera pipeline on a held-out rendered set (figures for docs/benchmarks.md).

Run from the repository root::

    PYTHONPATH=. python benchmarks/vision_eval.py                       # 24 sessions x 25 frames
    PYTHONPATH=. python benchmarks/vision_eval.py --sessions 4 --frames 8 --quick

What is held out (``models/splits.py``): the ``sketch`` art pack and its piece and shell colours
(never rendered for training or tuning), camera fields of view from a band training never uses,
and seeds. Each *session* is one user's table: a simulated game (2–4 players), one camera pose
(tilt spread evenly over 0–35°, any side, roll, lens distortion), one light (colour temperature
spread evenly over 2700–6500 K, direction, shadows, uneven brightness, sometimes glare), one table
texture, at 1920 x 1080. In each session:

1. **Enrollment as a user would do it**: a photo of the table after the setup (the starting tiles'
   types, the row order and the era-1 tiles are what the setup says), a second photo after laying
   one tile of each resource missing from the start and one tile turned over on seat 0's land, and
   photos of the event and achievement tiles on the capture sheet (taken once, with a phone under
   other light; cut with ``vision.photopack``).
2. **Frames**: positions spread over the game, each under the session's camera and light with a
   little drift (±150 K, ±5% exposure), fresh sensor noise, and in some frames motion blur, defocus
   and JPEG. Each frame is read by the model pipeline and by the colour-histogram baseline, with a
   recognizer kept across the session (a fixed camera); registration is also scored from scratch on
   every frame.

Scores (against ``observation_from_truth``): registration; tile type per hex (tile or empty, resource,
exhausted); members per hex and colour exactly right (tiles); shells per row slot and per seat;
the action row read exactly (tiles and order); achievement tiles; stones per position; track markers
per colour and track; and the share of frames read perfectly. Broken down per colour temperature
and tilt. Speed and memory: ``benchmarks/vision_speed.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from models.splits import EVAL_FOV, EVAL_SEED_BASE, HELD_OUT_PACK  # noqa: E402
from rules.game import simulate  # noqa: E402
from rules.profile import default_profile  # noqa: E402
from vision.artpack import ArtPack, builtin_pack  # noqa: E402
from vision.camera import Camera  # noqa: E402
from vision.effects import Effects, EffectsApplier  # noqa: E402
from vision.enrollment import Enroller, labels_from_state, labels_from_table  # noqa: E402
from vision.errors import CameraError  # noqa: E402
from vision.layout import default_layout  # noqa: E402
from vision.lighting import Light  # noqa: E402
from vision.markers import capture_page  # noqa: E402
from vision.observation import Observation, observation_from_truth  # noqa: E402
from vision.photopack import cut_from_sheet  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.registration import Registrar  # noqa: E402
from vision.render import Renderer  # noqa: E402
from vision.table import LandTile, TableModel  # noqa: E402
from vision.textures import TEXTURES  # noqa: E402

KELVIN_BINS = (
    (2700, 3500, "2700-3500"),
    (3500, 4500, "3500-4500"),
    (4500, 5500, "4500-5500"),
    (5500, 6501, "5500-6500"),
)
TILT_BINS = ((0, 10, "0-10"), (10, 20, "10-20"), (20, 30, "20-30"), (30, 35.01, "30-35"))


# --- conditions -------------------------------------------------------------------------------------------
def session_conditions(s: int, n: int, layout: Any) -> dict[str, Any]:
    """Camera, light, effects range and texture of session ``s`` of ``n`` (tilt and colour
    temperature stratified so that every bin is covered)."""
    rng = np.random.default_rng([EVAL_SEED_BASE, s])
    tilt = float(np.clip((s + rng.uniform(0.1, 0.9)) / n * 35.0, 0.0, 35.0))
    perm = np.random.default_rng([EVAL_SEED_BASE, 99]).permutation(n)
    kelvin = float(2700 + (perm[s] + rng.uniform(0.1, 0.9)) / n * 3800)
    fov = float(rng.uniform(*EVAL_FOV))
    dist = (float(rng.uniform(-0.1, 0.02)), float(rng.uniform(-0.02, 0.03)), 0.0, 0.0, 0.0)
    cam = None
    for _ in range(8):
        try:
            cam = Camera.framing(
                layout,
                width=1920,
                height=1080,
                tilt=tilt,
                azimuth=float(rng.uniform(0, 360)),
                roll=float(rng.normal(0, 5)),
                fov=fov,
                dist=dist,
                margin=float(rng.uniform(0.0, 0.06)),
            )
            break
        except CameraError:
            dist = (dist[0] / 2, dist[1] / 2, 0.0, 0.0, 0.0)
    assert cam is not None
    w, h = layout.table
    light = Light(
        kelvin=kelvin,
        white_balance=float(rng.uniform(0.3, 1.0)),
        exposure=float(rng.uniform(0.85, 1.15)),
        azimuth=float(rng.uniform(0, 360)),
        elevation=float(rng.uniform(35, 85)),
        shadow=float(rng.uniform(0.2, 0.65)),
        softness=float(rng.uniform(1.0, 5.0)),
        ambient=float(rng.uniform(0.4, 0.7)),
        unevenness=float(rng.uniform(0.0, 0.4)),
        hotspot=(float(rng.uniform(0, w)), float(rng.uniform(0, h))),
        vignetting=float(rng.uniform(0.0, 0.35)),
        glare=float(rng.uniform(0.15, 0.5)) if rng.random() < 0.3 else 0.0,
        glare_at=(float(rng.uniform(0.1 * w, 0.9 * w)), float(rng.uniform(0.1 * h, 0.9 * h))),
        glare_radius=float(rng.uniform(40, 140)),
    )
    return {"camera": cam, "light": light, "texture": TEXTURES[s % len(TEXTURES)], "noise": float(rng.uniform(1, 6))}


def frame_variation(cond: dict[str, Any], rng: np.random.Generator) -> tuple[Light, Effects]:
    """The session's light with a little drift, and this frame's camera effects."""
    light: Light = cond["light"]
    lt = replace(
        light,
        kelvin=float(np.clip(light.kelvin + rng.normal(0, 150), 2700, 6500)),
        exposure=float(np.clip(light.exposure * rng.uniform(0.95, 1.05), 0.2, 3.0)),
    )
    fx = Effects(
        noise=float(np.clip(cond["noise"] + rng.normal(0, 0.5), 0.3, 8.0)),
        motion_blur=float(rng.uniform(1.5, 3.5)) if rng.random() < 0.15 else 0.0,
        motion_angle=float(rng.uniform(0, 180)),
        defocus=float(rng.uniform(0.4, 1.2)) if rng.random() < 0.25 else 0.0,
        jpeg=int(rng.integers(60, 95)) if rng.random() < 0.5 else None,
    )
    return lt, fx


# --- enrollment as a user does it -------------------------------------------------------------------------
def tile_photo(face: np.ndarray, hexagonal: bool, size_mm: float, seed: int) -> np.ndarray:
    """A phone photo of one tile on the capture sheet (tilted, tinted uneven light, noise, JPEG)."""
    rng = np.random.default_rng([seed, 5])
    k = 8.0
    page = cv2.cvtColor(capture_page("DICT_4X4_50").raster(k * 25.4), cv2.COLOR_GRAY2BGR)
    h, w = face.shape[:2]
    angle = float(rng.uniform(-10, 10))
    m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), -angle, size_mm * k / w)
    m[:, 2] += np.array([105 * k - 0.5, 148.5 * k - 0.5]) - np.array([(w - 1) / 2, (h - 1) / 2])
    size = (page.shape[1], page.shape[0])
    mask = np.full((h, w), 255, np.uint8)
    inside = cv2.warpAffine(mask, m, size) > 127
    page[inside] = cv2.warpAffine(face, m, size)[inside]
    cam = Camera.looking_at(
        (105, 148.5),
        330,
        width=1600,
        height=1200,
        tilt=float(rng.uniform(5, 30)),
        azimuth=float(rng.uniform(0, 360)),
        roll=float(rng.normal(0, 8)),
        fov=55,
    )
    to_mm = np.array([[1 / k, 0, 0.5 / k], [0, 1 / k, 0.5 / k], [0, 0, 1]])
    img = cv2.warpPerspective(
        page, cam.table_homography() @ to_mm, (cam.width, cam.height), flags=cv2.INTER_AREA, borderValue=(60, 70, 80)
    )
    gain = np.linspace(0.85, 1.1, img.shape[1])[None, :, None] * np.array([0.95, 1.0, 1.06])
    img = np.clip(img * gain, 0, 255).astype(np.uint8)
    return EffectsApplier(seed).apply(img, Effects(noise=3, jpeg=85), rng)


def photographed_pack(pack: ArtPack, layout: Any) -> ArtPack:
    """The events and achievements of ``pack`` as a user gets them from capture-sheet photos."""
    faces = {}
    for i, key in enumerate(sorted(k for k in pack.faces if k.startswith(("event-", "achievement-")))):
        if "-back-" in key:
            continue
        size = layout.achievement_size[0] if key.startswith("achievement") else layout.event_size[0]
        faces[key] = cut_from_sheet(tile_photo(pack.faces[key], False, float(size), 1000 + i), key)
    return ArtPack("photographed", faces)


def one_of_each(state: Any) -> TableModel:
    """The setup table with one tile of each resource missing from seat 0's start and one tile turned
    over, laid next to seat 0's starting triangle (the second enrollment photo)."""
    model = TableModel.from_state(state)
    seen = {t.resource for s in model.seats for t in s.land.values()}
    spots = [(-1, 0), (-1, 1), (0, -1), (1, -1), (2, -1), (2, 0), (1, 1), (0, 2), (-1, 2)]
    land = model.seats[0].land
    free = [h for h in spots if h not in land]
    todo = [LandTile(r) for r in state.profile.resources if r not in seen] + [
        LandTile(state.profile.resources[0], True)
    ]
    for h, t in zip(free, todo, strict=False):
        land[h] = t
    return model


def enroll(renderer: Renderer, game: Any, cond: dict[str, Any], photo_pack: ArtPack, layout: Any) -> Any:
    profile = game.states[0].profile
    en = Enroller(layout, profile)
    setup = game.states[1]
    img = renderer.render(setup, cond["camera"], cond["light"], Effects(noise=cond["noise"]), frame_seed=1).image
    obs, seats = labels_from_state(setup)
    en.add_frame(img, obs, seats, "setup")
    extra = one_of_each(setup)
    img2 = renderer.render(extra, cond["camera"], cond["light"], Effects(noise=cond["noise"]), frame_seed=2).image
    obs2, seats2 = labels_from_table(extra)
    en.add_frame(img2, obs2, seats2, "one-of-each")
    en.add_pack(photo_pack, source="capture-sheet photos")
    return en.build()


# --- scoring ----------------------------------------------------------------------------------------------
def score(read: Observation, truth: Observation) -> dict[str, tuple[int, int]]:
    """(correct, total) per fact kind."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])

    def add(kind: str, ok: bool) -> None:
        out[kind][0] += int(ok)
        out[kind][1] += 1

    rh = {(h.seat, h.hex): h for h in read.hexes}
    for h in truth.hexes:
        r = rh.get((h.seat, h.hex))
        ok = (
            r is not None
            and r.tile == h.tile
            and (not h.tile or (r.resource == h.resource and r.exhausted == h.exhausted))
        )
        add("tile type per hex", ok)
        if h.tile:
            add("members per hex", r is not None and dict(r.members) == dict(h.members))
    rr = {s.slot: s for s in read.row}
    occupied = [s for s in truth.row if s.tile is not None]
    for s in occupied:
        r = rr.get(s.slot)
        add("shells per row slot", r is not None and r.shells == s.shells)
    add(
        "action row exact",
        [(s.slot, s.tile, s.event) for s in read.row if s.tile is not None]
        == [(s.slot, s.tile, s.event) for s in occupied],
    )
    rs = {s.seat: s.count for s in read.shells}
    for s in truth.shells:
        add("shells per seat", rs.get(s.seat) == s.count)
    rb = {(b.era, b.col): b for b in read.board}
    for b in truth.board:
        r = rb.get((b.era, b.col))
        add("achievement tiles", r is not None and r.tile == b.tile)
        add("stones per position", r is not None and tuple(r.stones) == tuple(b.stones))
    rt = {(t.colour, t.track): t.space for t in read.tracks}
    for t in truth.tracks:
        add("track markers", rt.get((t.colour, t.track)) == t.space)
    return {k: (v[0], v[1]) for k, v in out.items()}


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
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    layout = default_layout()
    profile = default_profile()
    pack = builtin_pack(HELD_OUT_PACK)
    assert HELD_OUT_PACK == "sketch"
    t0 = time.time()
    photos = photographed_pack(pack, layout)
    kinds = ["model", "histogram"] if not a.baseline_only else ["histogram"]
    totals: dict[str, dict[str, list[int]]] = {k: defaultdict(lambda: [0, 0]) for k in kinds}
    by_light: dict[str, dict[str, dict[str, list[int]]]] = {
        k: defaultdict(lambda: defaultdict(lambda: [0, 0])) for k in kinds
    }
    by_tilt: dict[str, dict[str, dict[str, list[int]]]] = {
        k: defaultdict(lambda: defaultdict(lambda: [0, 0])) for k in kinds
    }
    perfect = {k: [0, 0] for k in kinds}
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
        cond = session_conditions(s, a.sessions, seated)
        renderer = Renderer(seated, pack, cond["texture"], seed=s)
        enr = enroll(renderer, game, cond, photos, seated)
        recs = {k: Recognizer(seated, profile, enr, features=k, stream=False) for k in kinds}
        kb = bin_of(cond["light"].kelvin, KELVIN_BINS)
        tb = bin_of(cond["camera"].tilt, TILT_BINS)
        n_moves = len(game.states) - 1
        picks = np.linspace(2, n_moves, a.frames).round().astype(int)
        for f, mv in enumerate(picks):
            lt, fx = frame_variation(cond, rng)
            fr = renderer.render(game.states[int(mv)], cond["camera"], lt, fx, frame_seed=1000 + f)
            truth = observation_from_truth(fr.truth)
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
                all_ok = True
                for kind, (ok, tot) in sc.items():
                    for table in (totals[k], by_light[k][kb], by_tilt[k][tb]):
                        table[kind][0] += ok
                        table[kind][1] += tot
                    all_ok &= ok == tot
                perfect[k][0] += int(all_ok)
                perfect[k][1] += 1
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
            print(
                f"session {s + 1}/{a.sessions} ({players}p, {cond['light'].kelvin:.0f} K, tilt "
                f"{cond['camera'].tilt:.0f}, {cond['texture']}; {time.time() - t0:.0f} s): {line}",
                file=sys.stderr,
                flush=True,
            )
    result = {
        "command": "PYTHONPATH=. python benchmarks/vision_eval.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "sessions": a.sessions,
        "frames": a.sessions * a.frames,
        "seconds": round(time.time() - t0),
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


def markdown(result: dict[str, Any]) -> str:
    """The tables for docs/benchmarks.md."""
    kinds = list(result["results"])
    lines = [
        f"{result['frames']} frames in {result['sessions']} sessions; registration from scratch: "
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
            cells.append(f"{100 * v['rate']:.2f}% ({v['ok']}/{v['total']})" if v else "-")
        lines.append(f"| {fact} | " + " | ".join(cells) + " |")
    cells = [f"{100 * result['results'][k]['perfect_frames']['rate']:.1f}%" for k in kinds]
    lines.append("| frames read perfectly | " + " | ".join(cells) + " |")
    for part, title in (("by_kelvin", "colour temperature (K)"), ("by_tilt", "tilt (degrees)")):
        for k in kinds:
            d = result["results"][k][part]
            lines += [
                "",
                f"{k}, by {title}:",
                "",
                "| " + title + " | " + " | ".join(facts) + " |",
                "|---|" + "---|" * len(facts),
            ]
            for b, row in d.items():
                lines.append(f"| {b} | " + " | ".join(f"{100 * row.get(f, float('nan')):.2f}" for f in facts) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
