"""Train the piece-against-bare-art model (``vision.relief``) for the board's stone slots.

    python -m tools.training.pieces -o models/                  # writes pieces.json, lists it in models.json
    python -m tools.training.pieces --report-only               # the figures alone

Every stone slot of the tuning sessions (``benchmarks/vision_diag.py``'s, cached there) is cut as the
board reader cuts it (:meth:`BoardReader.relief_inputs`): the frame's window around where a stone's
top would be and the bare art's window there. A slot holding a stone of any colour is a piece, a
free one is not. The art groups are the seven the tuning set has: the colour variants of the
training packs and the six art families of ``games.tribes.sim.families`` (photo, dark, pale, busy,
flat, text) — each with the players' pieces in the packs' own colours (``--sessions``) and in colours
drawn per session as the other models' training data draws them (``--random-colour-sessions``,
``vision_diag.py --piece-colours random``): a model that saw only the packs' four colours learns
"black is darker than the art", and another box's black is a grey. Sessions of even index train,
odd ones test. Every slot is taken twice where it can be: against the enrolled art, and against its
own look in the session's earlier frames while it was free (as a stream's board reader keeps it,
``BoardReader.table_bare``); and every piece once more, fainter (``--faint``: its window moved towards
the bare one by a share from 0.25 to 1), for the pieces whose colour lies near the art's. (Taking
every window in its eight turns and mirror images as well was tried in a first version: dark and pale
art left out did worse; the rendered cameras stand on every side already.)

It prints, per group, the errors at probability 0.5 of a model trained **without that group**
(leave one family out) beside the model trained on all, and writes the model trained on all groups'
training sessions. Nothing here touches the evaluation's held-out pack or cameras
(``games/tribes/sim/splits.py``): those are for ``benchmarks/vision_eval.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from games.tribes.rules.profile import default_profile
from games.tribes.vision.observation import observation_from_truth
from games.tribes.vision.readers.base import kept_look
from games.tribes.vision.readers.board import TABLE_WEIGHT
from games.tribes.vision.recognizer import Recognizer
from vision.relief import RELIEF_PX, PieceModel, relief_features

GROUPS = ("variant", "dark", "pale", "photo", "busy", "flat", "text")
"""The tuning set's art: the colour variants (no family) and the six families."""


def _sessions(group: str, count: int, cache: str, colours: str) -> Any:
    from benchmarks import vision_diag

    ap = argparse.ArgumentParser()
    vision_diag.session_options(ap)
    args = ["--set", "tune", "--sessions", str(count), "--every", "1", "--cache", cache, "--piece-colours", colours]
    a = ap.parse_args(args + ([] if group == "variant" else ["--family", group]))
    a.drift, a.piles, a.models = "off", "fixed", None
    return vision_diag.sessions(a)


def collect(
    group: str, count: int, cache: str, colours: str = "pack"
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Every stone slot of ``count`` sessions of one art group (the players' pieces in ``colours``:
    the pack's or drawn per session) whose bare art is known: the frame's and the bare art's windows
    (Lab), the bare windows' resolution, whether a stone lies there, its session's index and whether
    the board reader without a pieces model read a stone there. And the same slots against their
    look *at the table* where a frame before had shown them free, as a stream's board reader keeps it
    (:func:`~games.tribes.vision.readers.base.kept_look` at ``board.TABLE_WEIGHT``, free by the truth
    here; ``read`` is the truth there)."""
    from benchmarks import vision_diag

    profile = default_profile()
    frames_l, bares_l, px_l, y_l, sess_l, read_l = [], [], [], [], [], []
    t_frames, t_refs, t_y, t_sess = [], [], [], []
    with vision_diag.board_reads() as seen:
        for s, (_name, seated, enr, frames) in enumerate(_sessions(group, count, cache, colours)):
            rec = Recognizer(seated, profile, enr, None, stream=False)
            rec.board.pieces = None  # the board reader's own reading, without this model, is the baseline
            table: dict[tuple[str, int, int], np.ndarray] = {}  # each slot's look while free, frame by frame
            for i, (png, truth, _k, _t) in enumerate(frames):
                seen.clear()
                image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
                assert image is not None, "a cached frame that does not decode"
                obs = rec.read(image, frame_no=i)
                if "ctx" not in seen:
                    continue
                ctx, reader = seen["ctx"], seen["reader"]
                pts = ctx.regions.stone_points()
                frame, bare, known, bare_px, keys = reader.relief_inputs(ctx, seen["tiles"], pts)
                want = {(b.era, b.col): list(b.stones) for b in observation_from_truth(truth).board}
                got = {(b.era, b.col): list(b.stones) for b in obs.board}
                for j, (e, c, k, _) in enumerate(pts):
                    key = keys[j]
                    if key is not None:
                        piece = (want.get((e, c), []) + [None] * 9)[k] is not None
                        if key in table:
                            t_frames.append(frame[j])
                            t_refs.append(table[key])
                            t_y.append(piece)
                            t_sess.append(s)
                        if not piece:
                            table[key] = kept_look(table.get(key), frame[j], TABLE_WEIGHT)
                    if not known[j]:
                        continue
                    frames_l.append(frame[j])
                    bares_l.append(bare[j])
                    px_l.append(bare_px)
                    y_l.append((want.get((e, c), []) + [None] * 9)[k] is not None)
                    read_l.append((got.get((e, c), []) + [None] * 9)[k] is not None)
                    sess_l.append(s)
    enrolled = {
        "frame": np.array(frames_l, np.float32),
        "bare": np.array(bares_l, np.float32),
        "bare_px": np.array(px_l, np.int32),
        "piece": np.array(y_l, bool),
        "read": np.array(read_l, bool),
        "session": np.array(sess_l, np.int32),
    }
    at_table = {
        "frame": np.array(t_frames, np.float32).reshape(-1, RELIEF_PX, RELIEF_PX, 3),
        "bare": np.array(t_refs, np.float32).reshape(-1, RELIEF_PX, RELIEF_PX, 3),
        "bare_px": np.full(len(t_y), RELIEF_PX, np.int32),
        "piece": np.array(t_y, bool),
        "read": np.array(t_y, bool),
        "session": np.array(t_sess, np.int32),
    }
    return enrolled, at_table


def features(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels of a group's slots, grouped by the bare windows' resolution."""
    xs, ys = [], []
    for px in np.unique(data["bare_px"]):
        sel = data["bare_px"] == px
        xs.append(relief_features(data["frame"][sel], data["bare"][sel], int(px)))
        ys.append(data["piece"][sel])
    return np.concatenate(xs), np.concatenate(ys).astype(np.float64)


def faint(data: dict[str, np.ndarray], low: float, seed: int) -> dict[str, np.ndarray]:
    """The pieces of ``data`` again, each made fainter: its frame window moved towards the bare window
    by a share drawn from [``low``, 1] (1: as it was). A piece whose colour lies near the art's (another
    box's grey black on dark art) changes its slot less than our renderer's pieces do; without such
    examples the model puts the line just short of our pieces and misses the faint ones."""
    rng = np.random.default_rng(seed)
    sel = np.flatnonzero(data["piece"])
    out = {k: v[sel] for k, v in data.items()}
    share = rng.uniform(low, 1.0, len(sel)).astype(np.float32)[:, None, None, None]
    out["frame"] = out["bare"] + share * (out["frame"] - out["bare"])
    return out


def training_rows(
    enrolled: dict[str, np.ndarray], at_table: dict[str, np.ndarray], low: float
) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels of a group's training sessions: its slots against the enrolled art and
    against the table, and (``low`` < 1) their pieces once more, fainter (:func:`faint`)."""
    parts = [features(split(enrolled, 0)), features(split(at_table, 0))]
    if low < 1.0:
        parts += [features(split(faint(at_table, low, 1), 0)), features(split(faint(enrolled, low, 2), 0))]
    return _joined(*parts)


def _joined(*parts: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and labels of several sets, one after the other."""
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])


def fit(x: np.ndarray, y: np.ndarray, l2: float, meta: dict[str, Any] | None = None) -> PieceModel:
    """An L2-regularised logistic regression on standardised features, by Newton's method."""
    mean = x.mean(axis=0, dtype=np.float64)
    scale = x.std(axis=0, dtype=np.float64) + 1e-3
    a = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    reg = np.eye(a.shape[1]) * l2
    reg[-1, -1] = 0.0
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -30, 30)))
        step = np.linalg.solve((a * (p * (1 - p))[:, None]).T @ a + reg, a.T @ (p - y) + reg @ w)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return PieceModel(mean, scale, w[:-1], float(w[-1]), dict(meta or {}))


def split(data: dict[str, np.ndarray], part: int) -> dict[str, np.ndarray]:
    """The slots of even (``part`` 0: training) or odd (1: testing) sessions."""
    sel = data["session"] % 2 == part
    return {k: v[sel] for k, v in data.items()}


def errors(model: PieceModel, data: dict[str, np.ndarray]) -> dict[str, int]:
    """Errors at probability 0.5 on a group's test slots, the board reader's own beside them."""
    x, y = features(data)
    p = model.probabilities(x)
    order = np.concatenate([np.flatnonzero(data["bare_px"] == px) for px in np.unique(data["bare_px"])])
    piece = data["piece"][order]
    read = data["read"][order]
    return {
        "pieces": int(piece.sum()),
        "free": int((~piece).sum()),
        "model_missed": int(((p <= 0.5) & (y == 1)).sum()),
        "model_made_up": int(((p > 0.5) & (y == 0)).sum()),
        "reader_missed": int((piece & ~read).sum()),
        "reader_made_up": int((~piece & read).sum()),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--out", default="models", help="models folder to write pieces.json into (default: models)")
    ap.add_argument("--sessions", type=int, default=24, help="sessions per art group (even ones train, odd ones test)")
    ap.add_argument(
        "--random-colour-sessions",
        type=int,
        default=12,
        help="sessions per art group with the players' pieces in colours drawn per session (0: none)",
    )
    ap.add_argument("--cache", default="/tmp/vision-diag", help="vision_diag's session cache")
    ap.add_argument("--slots", default="/tmp/pieces-slots", help="cache of the cut slots per group")
    ap.add_argument("--l2", type=float, default=30.0)
    ap.add_argument(
        "--faint",
        type=float,
        default=0.25,
        help="train on every piece once more, moved towards the bare art by a share from this to 1 (1: not)",
    )
    ap.add_argument("--report-only", action="store_true", help="print the figures, write no model")
    ap.add_argument(
        "--exclude",
        choices=GROUPS,
        help="write the model trained without this art group instead (to measure the reader with it)",
    )
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    t0 = time.time()
    data: dict[str, dict[str, np.ndarray]] = {}  # the slots against the enrolled art, per group
    tables: dict[str, dict[str, np.ndarray]] = {}  # against their look at the table
    Path(a.slots).mkdir(parents=True, exist_ok=True)
    for g in GROUPS:
        parts, t_parts = [], []
        for colours, count in (("pack", a.sessions), ("random", a.random_colour_sessions)):
            if not count:
                continue
            f = Path(a.slots) / f"{g}-{'rc-' if colours == 'random' else ''}{count}.npz"
            tf = f.with_name(f.stem + "-table.npz")
            if f.exists() and tf.exists():
                got, at_table = dict(np.load(f)), dict(np.load(tf))
            else:
                got, at_table = collect(g, count, a.cache, colours)
                np.savez_compressed(f, **got)  # type: ignore[arg-type]
                np.savez_compressed(tf, **at_table)  # type: ignore[arg-type]
            if colours == "random":  # sessions of their own (an even offset: same halves)
                got["session"] = got["session"] + 1000
                at_table["session"] = at_table["session"] + 1000
            parts.append(got)
            t_parts.append(at_table)
        data[g] = {k: np.concatenate([d[k] for d in parts]) for k in parts[0]}
        tables[g] = {k: np.concatenate([d[k] for d in t_parts]) for k in t_parts[0]}
        took = time.time() - t0
        print(f"{g}: {len(data[g]['piece'])} slots, {int(data[g]['piece'].sum())} stones, "
              f"{len(tables[g]['piece'])} against the table ({took:.0f} s)", file=sys.stderr, flush=True)  # fmt: skip
    train = {g: training_rows(data[g], tables[g], a.faint) for g in GROUPS}
    rows: dict[str, dict[str, Any]] = {}
    for g in GROUPS:
        others = [train[o] for o in GROUPS if o != g]
        left_out = fit(np.concatenate([x for x, _ in others]), np.concatenate([y for _, y in others]), a.l2)
        rows[g] = {
            "left_out": errors(left_out, split(data[g], 1)),
            "left_out_table": errors(left_out, split(tables[g], 1)),
        }
    full = fit(np.concatenate([x for x, _ in train.values()]), np.concatenate([y for _, y in train.values()]), a.l2)
    for g in GROUPS:
        rows[g]["all"] = errors(full, split(data[g], 1))
        rows[g]["all_table"] = errors(full, split(tables[g], 1))
    print("| art group (test sessions) | against | stones / free slots | model without this group: missed / made up "
          "| model on all groups | board reader |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for g, r in rows.items():
        both = (("enrolled art", r["left_out"], r["all"]), ("the table", r["left_out_table"], r["all_table"]))
        for against, lo, al in both:
            cells = [
                f"{lo['pieces']} / {lo['free']}",
                f"{lo['model_missed']} / {lo['model_made_up']}",
                f"{al['model_missed']} / {al['model_made_up']}",
                f"{lo['reader_missed']} / {lo['reader_made_up']}" if against == "enrolled art" else "-",
            ]
            print(f"| {g} | {against} | " + " | ".join(cells) + " |")
    if a.report_only:
        return 0
    meta = {
        "model": "pieces",
        "what": "probability that a piece stands on a stone slot, from the frame against the bare art",
        "trained": str(date.today()),
        "command": "python -m tools.training.pieces " + " ".join(argv if argv is not None else sys.argv[1:]),
        "data": {
            g: {
                "train_slots": int((d["session"] % 2 == 0).sum()),
                "train_slots_at_table": int((tables[g]["session"] % 2 == 0).sum()),
            }
            for g, d in data.items()
        },
        "l2": a.l2,
        "faint": a.faint,
        "test_errors": rows,
    }
    if a.exclude:
        kept = [g for g in GROUPS if g != a.exclude]
        full = fit(np.concatenate([train[g][0] for g in kept]), np.concatenate([train[g][1] for g in kept]), a.l2)
        meta["excluded"] = a.exclude
    model = PieceModel(full.mean, full.scale, full.weights, full.bias, meta)
    out = Path(a.out)
    path = out / "pieces.json"
    path.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    manifest = out / "models.json"
    doc = json.loads(manifest.read_text(encoding="utf-8"))
    raw = path.read_bytes()
    doc.setdefault("extras", {})["pieces"] = {
        "file": path.name,
        "sha256": hashlib.sha256(raw).hexdigest(),
        "bytes": len(raw),
    }
    manifest.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path} and its entry in {manifest} ({time.time() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
