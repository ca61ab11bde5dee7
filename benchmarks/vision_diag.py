"""Error breakdown of the camera pipeline: which fact, which place, which condition, which confusion.

A diagnostic tool for working on the readers, not a figure for docs/benchmarks.md. Run from the
repository root::

    PYTHONPATH=. python benchmarks/vision_diag.py --set tune --sessions 6 --frames 8
    PYTHONPATH=. python benchmarks/vision_diag.py --set eval --sessions 6 --frames 8 --of 24

``--set tune`` uses the tuning set of ``models/tune.py`` (pack variants held out from the tile
model's training, the training cameras' field of view, seeds of their own): diagnose and decide
there. ``--set eval`` renders sessions of the held-out evaluation (``--of`` = the evaluation's
session count, so that the conditions match ``benchmarks/vision_eval.py``) — only to check that a
change helps there too, never to choose settings. Rendered frames and enrollments are cached under
``--cache`` so that a rerun after a code change only reads. ``--drift half`` or ``all`` lets the
light of every other session taken (or of every session) change during the game as in the
evaluation (``games.tribes.sim.evaluation.Drift``; the drift of a session is that session's own, but
which sessions drift is counted among those taken, so it need not match the evaluation's odd ones);
the default, ``off``, keeps every session steady, so that the cached sets and their figures stay
comparable with earlier runs (a drifting session is cached under a name of its own). ``--piles
varied`` renders members as rings, heaps or grids per hex, some leaning or lying
(``benchmarks/vision_eval.py``); such sessions are cached under names of their own too. ``--models
DIR`` reads with the models of ``DIR`` (models.json and the onnx files) instead of the shipped ones:
to compare candidates. ``--re-enroll`` makes each cached session's enrollment again with the code as it is (the frames
stay cached): to try a change to the enrollment. ``--family F`` turns the packs' faces into art family ``F``
(``games.tribes.sim.families``; the tuning set then uses ``classic`` and ``bold`` in turn, the
evaluation set the held-out pack), cached under names of their own. Every frame is read on its own
unless ``--table-looks``: then the board reader keeps each free stone slot's look at the table, and
the land reader each tile's while no member stands on it, from one frame of a session to the next,
as a stream does (``BoardReader.table_bare``, ``LandReader.table_bare``).

Besides each fact kind's errors (tile types also split by whether members stand on the tile: their
art is hidden there) it prints the frames read perfectly, the fact kinds that kept the
others from it ("imperfect frames": every kind wrong in a frame, and the kinds wrong alone in theirs),
and members per hex by how many members stand there.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import pickle
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from games.tribes.rules.game import simulate  # noqa: E402
from games.tribes.rules.hexgrid import distance as hex_distance  # noqa: E402
from games.tribes.rules.profile import default_profile  # noqa: E402
from games.tribes.sim.evaluation import (  # noqa: E402
    DRIFT_MODES,
    enroll_session,
    frame_conditions,
    photographed_pack,
    score,
    session_conditions,
    session_drifts,
)
from games.tribes.sim.packs import builtin_pack  # noqa: E402
from games.tribes.sim.render import Renderer  # noqa: E402
from games.tribes.sim.scene import PILES  # noqa: E402
from games.tribes.sim.splits import EVAL_SEED_BASE, HELD_OUT_PACK, TRAIN_FOV  # noqa: E402
from games.tribes.vision.layout import default_layout  # noqa: E402
from games.tribes.vision.observation import Observation, observation_from_truth  # noqa: E402
from games.tribes.vision.recognizer import Recognizer  # noqa: E402

TUNE_SEED_BASE = 5_000_000


def sessions(a: argparse.Namespace) -> Any:
    """Yield (name, seated layout, enrollment, frames [(image, truth dict, kelvin, tilt)]), cached."""
    layout = default_layout()
    cache = Path(a.cache) / a.set
    cache.mkdir(parents=True, exist_ok=True)
    photos: dict[str, Any] = {}
    random_colours = getattr(a, "piece_colours", "pack") == "random"
    if random_colours and a.set == "eval":
        raise SystemExit("vision_diag: --piece-colours random draws training colours: the tune set only")
    for j, s in enumerate(range(a.first, a.first + a.sessions * a.every, a.every)):
        drift = session_drifts(j, a.drift)  # every other session taken (``--every`` is often even)
        tag = f"{'-drift' if drift else ''}{'-' + a.piles if a.piles != 'fixed' else ''}"
        tag += f"-{a.family}" if a.family else ""
        tag += "-rc" if random_colours else ""
        f = cache / f"s{s:03d}-of{a.of}-f{a.frames}{tag}.pkl"
        if f.exists() and not a.re_enroll:
            yield pickle.loads(f.read_bytes())
            continue
        if a.set == "eval":
            pack = builtin_pack(HELD_OUT_PACK)
            if a.family:
                from games.tribes.sim.families import family_pack

                pack = family_pack(HELD_OUT_PACK, a.family, held_out=True)
            seed_base, fovs = EVAL_SEED_BASE, None
        elif a.family:
            from games.tribes.sim.families import family_pack

            pack = family_pack(("classic", "bold")[j % 2], a.family)
            seed_base, fovs = TUNE_SEED_BASE, TRAIN_FOV
        else:
            from tools.training.dataset import variant
            from tools.training.train import HELD_VARIANTS

            packs = [variant(base, how.strip("-")) for base in ("classic", "bold") for how in HELD_VARIANTS]
            pack = packs[s % len(packs)]
            seed_base, fovs = TUNE_SEED_BASE, TRAIN_FOV
        rng = np.random.default_rng([seed_base, s, 1])
        players = int(rng.integers(2, 5))
        game = simulate(players, seed_base + s, "greedy")
        if random_colours:  # the players' pieces in colours drawn for the session, as the training data's
            from tools.training.dataset import distinct_colours

            names = [p.colour for p in game.states[0].players]
            drawn = distinct_colours(np.random.default_rng([seed_base, s, 7]), len(names))
            pack = dataclasses.replace(pack, colours={**pack.colours, **dict(zip(names, drawn, strict=True))})
        seated = layout.with_seats((0, 2)) if players == 2 else layout
        cond = (
            session_conditions(s, a.of, seated, drift=drift, piles=a.piles)
            if fovs is None
            else session_conditions(s, a.of, seated, seed_base, fovs, drift=drift, piles=a.piles)
        )
        renderer = Renderer(seated, pack, cond["texture"], seed=s, piles=cond["piles"])
        if pack.name not in photos:
            photos[pack.name] = photographed_pack(pack, seated)
        enr = enroll_session(renderer, game, cond, photos[pack.name], seated)
        if f.exists():  # --re-enroll: the cached frames with an enrollment made by the code as it is now
            name, cached_layout, _old, cached_frames = pickle.loads(f.read_bytes())
            yield name, cached_layout, enr, cached_frames
            continue
        frames = []
        picks = np.linspace(2, len(game.states) - 1, a.frames).round().astype(int)
        for i, mv in enumerate(picks):
            lt, fx = frame_conditions(cond, i, a.frames, rng)
            fr = renderer.render(game.states[int(mv)], cond["camera"], lt, fx, frame_seed=1000 + i)
            _ok, jpg = cv2.imencode(".png", fr.image)
            frames.append((jpg.tobytes(), fr.truth, cond["light"].kelvin, cond["camera"].tilt))
        item = (f"{a.set}{s}{tag}", seated, enr, frames)
        f.write_bytes(pickle.dumps(item))
        yield item


@contextlib.contextmanager
def board_reads() -> Iterator[dict[str, Any]]:
    """While open, every board read leaves in the dict yielded what the stones of its frame were read
    from: ``ctx`` (the frame's context), ``tiles`` (the tile read at each position) and ``reader``
    (the board reader) — for the probes that cut the stone slots again (``stone_relief_probe.py``,
    ``tools/training/pieces.py``). The reader is as it was once closed."""
    from games.tribes.vision.readers import board as board_reader

    seen: dict[str, Any] = {}
    original = board_reader.BoardReader._stones

    def spy(self: Any, ctx: Any, tiles: list[str | None], only: Any = None) -> Any:
        if only is None:  # the frame's first reading of every stone, not a position read again
            seen.update(ctx=ctx, tiles=list(tiles), reader=self)
        return original(self, ctx, tiles, only)

    board_reader.BoardReader._stones = spy  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        board_reader.BoardReader._stones = original  # type: ignore[method-assign]


def hex_label(x: Any) -> str:
    """What a hex reading (or the truth's) says lies there: ``unread`` (None), ``empty``, ``exhausted``
    or the resource."""
    if x is None:
        return "unread"
    if not x.tile:
        return "empty"
    return "exhausted" if x.exhausted else str(x.resource)


def diff(
    read: Observation, truth: Observation, errs: dict[str, Counter], where: str, by_count: dict[int, list[int]]
) -> None:
    """Record every wrong fact with its confusion, and members per hex (right, read) by how many stand
    there (7 for 7 or more) into ``by_count``."""
    rh = {(h.seat, h.hex): h for h in read.hexes}
    lab = hex_label
    for h in truth.hexes:
        r = rh.get((h.seat, h.hex))
        if lab(r) != lab(h):
            errs["tile"][f"{lab(h)}->{lab(r)}"] += 1
            errs["tile@"][where] += 1
            errs["tile@seat"][f"{where} seat {h.seat} {lab(h)}->{lab(r)}"] += 1
            if h.tile:  # under a pile the art is hidden: told apart from the bare tiles' confusions
                under = "under members" if sum(h.members.values()) else "no member"
                errs["tile, " + under][f"{lab(h)}->{lab(r)}"] += 1
        if h.tile:
            t = sum(h.members.values())
            got = sum(r.members.values()) if r is not None else -1
            right = r is not None and dict(r.members) == dict(h.members)
            by_count[min(t, 7)][0] += right
            by_count[min(t, 7)][1] += 1
            if not right:
                errs["members"][f"{t}->{got}"] += 1
                errs["members@"][where] += 1
                errs["members_tile"][lab(h)] += 1
                errs["members@seat"][f"{where} seat {h.seat} {lab(h)} {t}->{got}"] += 1
    # phantoms: a tile read where none lies, by how confident and how far from the seat's true land
    th = {(h.seat, h.hex): h for h in truth.hexes}
    cut = {int(r.split(":")[1]) for r in truth.hidden if r.startswith("land:") and r[5:].isdigit()}
    for key, r in rh.items():
        t = th.get(key)
        if not r.tile or (t is not None and t.tile) or (t is None and key[0] in cut):
            continue
        land = [h.hex for h in truth.hexes if h.seat == key[0] and h.tile]
        far = min((hex_distance(key[1], x) for x in land), default=-1)
        band = "conf>0.5" if r.tile_conf > 0.5 else "conf<=0.5"
        errs[f"phantom {band}"][f"{lab(r)} {far} from land"] += 1
        errs[f"phantom {band}@"][where] += 1
    rs = {s.seat: s.count for s in read.shells}
    for s in truth.shells:
        if rs.get(s.seat) != s.count:
            errs["seat shells"][f"{s.count}->{rs.get(s.seat)}"] += 1
            errs["seat shells@"][where] += 1
    rr = {s.slot: s for s in read.row}
    for s in truth.row:
        if s.tile is None:
            continue
        r = rr.get(s.slot)
        if r is None or r.shells != s.shells:
            errs["row shells"][f"{s.shells}->{r.shells if r else None}"] += 1
        if r is None or r.tile != s.tile:
            errs["row tile"][f"{s.tile}->{r.tile if r else None}"] += 1
    rb = {(b.era, b.col): b for b in read.board}
    for b in truth.board:
        r = rb.get((b.era, b.col))
        if r is None or r.tile != b.tile:
            errs["achievement"][f"e{b.era} {b.tile}->{r.tile if r else None}"] += 1
            errs["achievement@"][where] += 1
        if r is None or tuple(r.stones) != tuple(b.stones):
            errs["stones"][f"{b.stones}->{r.stones if r else None} on {b.tile}"] += 1
            errs["stones@"][where] += 1
    rt = {(t.colour, t.track): t.space for t in read.tracks}
    for t in truth.tracks:
        if rt.get((t.colour, t.track)) != t.space:
            errs["tracks"][f"{t.colour} {t.track} {t.space}->{rt.get((t.colour, t.track))}"] += 1
            errs["tracks@"][where] += 1


def try_setting(ap: argparse.ArgumentParser, item: str) -> None:
    """Set ``module.NAME`` of ``games.tribes.vision.readers`` to a value (``--try``), or end with a
    usage error that names what is wrong."""
    import importlib

    target, sep, text = item.partition("=")
    module, dot, name = target.rpartition(".")
    if not sep or not dot:
        ap.error(f"--try {item!r}: write READER.NAME=VALUE, e.g. board.BACK_SHARE=0.05")
    try:
        mod = importlib.import_module(f"games.tribes.vision.readers.{module}")
    except ImportError:
        ap.error(f"--try {item!r}: no reader module {module!r}")
    old = getattr(mod, name, None)
    if not isinstance(old, (bool, int, float)):
        ap.error(f"--try {item!r}: {module}.{name} is not a number or a truth value of that module")
    try:
        value: object = {"true": True, "false": False}[text.lower()] if isinstance(old, bool) else type(old)(text)
    except (KeyError, ValueError):
        ap.error(f"--try {item!r}: {text!r} is not a {type(old).__name__} like {module}.{name} ({old!r})")
    setattr(mod, name, value)
    print(f"--try: {module}.{name} = {value!r} (was {old!r})", file=sys.stderr)


def session_options(ap: argparse.ArgumentParser, sessions: int = 6, every: int = 4) -> None:
    """Add the options :func:`sessions` reads that pick the sessions, their art and their cache (the
    other diagnostics on these sessions take them too, with their own defaults)."""
    ap.add_argument("--set", choices=("tune", "eval"), default="tune")
    ap.add_argument("--sessions", type=int, default=sessions)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--every", type=int, default=every, help="take every n-th session (spreads tilt and light)")
    ap.add_argument("--of", type=int, default=24, help="sessions of the full set (conditions are stratified)")
    ap.add_argument("--frames", type=int, default=8)
    ap.add_argument("--cache", default="/tmp/vision-diag")
    ap.add_argument(
        "--family", help="turn the packs into this art family (games.tribes.sim.families; tune: classic, bold)"
    )
    ap.add_argument(
        "--piece-colours",
        choices=("pack", "random"),
        default="pack",
        help="the players' pieces in the pack's colours, or in colours drawn per session (tune set only; "
        "never near the evaluation's, as in the training data)",
    )
    ap.add_argument(
        "--re-enroll",
        action="store_true",
        help="enroll cached sessions again (their frames kept): to try a change to the enrollment",
    )


def probe_args(ap: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The arguments of a probe on these sessions (``stones_probe.py``, ``stone_relief_probe.py``,
    ``row_under_shells.py``): ``ap``'s own, the session options, ``--drift``, and members on the grid
    with the shipped models, as the shipped reader runs."""
    session_options(ap)
    ap.add_argument("--drift", choices=DRIFT_MODES, default="off")
    a = ap.parse_args(argv)
    a.piles, a.models = "fixed", None
    return a


def study_args(description: str, argv: list[str] | None) -> argparse.Namespace:
    """The arguments of a study of the windows one reader cuts on these sessions
    (``template_eval.py``, ``land_template_eval.py``): the session options at 8 sessions, every
    third, and what :func:`sessions` reads besides, as the shipped reader runs (no drift, members on
    the grid, the shipped models)."""
    ap = argparse.ArgumentParser(description=description)
    session_options(ap, sessions=8, every=3)
    a = ap.parse_args(argv)
    a.drift, a.piles, a.models = "off", "fixed", None
    return a


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    session_options(ap)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--json", help="write the totals here")
    ap.add_argument(
        "--drift",
        choices=DRIFT_MODES,
        default="off",
        help="sessions whose light changes during the game (default none)",
    )
    ap.add_argument("--piles", choices=PILES, default="fixed", help="how members stand on a hex (default: the grid)")
    ap.add_argument("--models", help="folder of models.json and *.onnx (default: the shipped models)")
    ap.add_argument(
        "--table-looks",
        action="store_true",
        help="the board reader keeps each free stone slot's look at the table, and the land reader each "
        "tile's while free of members, from one frame of a session to the next, as a stream does (default: "
        "every frame read on its own)",
    )
    ap.add_argument(
        "--member-art",
        type=float,
        help="share of the bare tile's own likeness to a seat's colour taken off the member counter's map "
        "(default: the reader's MEMBER_ART; 0 as before it)",
    )
    ap.add_argument(
        "--try",
        dest="tries",
        action="append",
        default=[],
        metavar="READER.NAME=VALUE",
        help="read with a reader module's constant set to VALUE, e.g. board.BACK_SHARE=0.05 (a module of "
        "games.tribes.vision.readers; repeatable): to compare settings without editing the code. Only "
        "constants the reader looks up while reading take effect, not those bound as defaults at import",
    )
    a = ap.parse_args(argv)
    for item in a.tries:
        try_setting(ap, item)
    cv2.setNumThreads(1)
    profile = default_profile()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    errs: dict[str, Counter] = defaultdict(Counter)
    timings: dict[str, list[float]] = defaultdict(list)
    perfect = [0, 0]  # frames read perfectly, frames read
    by_count: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # members on the tile -> right, read
    t0 = time.time()
    for name, seated, enr, frames in sessions(a):
        rec = Recognizer(seated, profile, enr, a.models, stream=False, member_art=a.member_art)
        rec.board.learn = rec.land.learn = a.table_looks
        for i, (png, truth, kelvin, tilt) in enumerate(frames):
            img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
            obs = rec.read(img, frame_no=i)
            for st, v in rec.timings.items():
                timings[st].append(v)
            t = observation_from_truth(truth)
            scored = score(obs, t)
            for k, (ok, tot) in scored.items():
                totals[k][0] += ok
                totals[k][1] += tot
            wrong = sorted(k for k, (ok, tot) in scored.items() if ok < tot)  # what kept the frame from perfect
            perfect[0] += not wrong
            perfect[1] += 1
            for k in wrong:
                errs["imperfect frames: a fact kind wrong"][k] += 1
            if len(wrong) == 1:
                errs["imperfect frames: the only fact kind wrong"][wrong[0]] += 1
            diff(obs, t, errs, f"{name} {kelvin:.0f}K tilt{tilt:.0f}", by_count)
            truth_tiles = {(h.seat, h.hex) for h in t.hexes if h.tile}
            for c, v in rec.land.last_bare.items():  # every hex window read, against the hex's bare look
                kind = "bare look: on a tile" if c in truth_tiles else "bare look: on no tile"
                errs[kind][f"{min(int(v * 10), 9) / 10:.1f}"] += 1
            for c, n in rec.land.last_like_bare.items():  # windows like their bare look: sides of an outline
                errs["like bare: outline sides, " + ("on a tile" if c in truth_tiles else "on no tile")][str(n)] += 1
            for c in rec.land.glared:  # washed out at setup and now: sides shown, where read as a tile
                if c in rec.land.last_outline:
                    kind = "washed out: outline sides, " + ("on a tile" if c in truth_tiles else "on no tile")
                    errs[kind][str(rec.land.last_outline[c])] += 1
            held = {(h.seat, h.hex): sum(h.members.values()) for h in t.hexes if h.tile}
            for c, v in rec.land.last_table.items():  # every tile against its kept look at this table
                kind = "table look: no member" if held.get(c, 0) == 0 else "table look: members"
                hide = rec.land.last_hide.get(c)
                if hide is not None:
                    kind += f", hide {min(int(hide * 5), 4) / 5:.1f}"
                errs[kind][f"{min(int(v * 50), 9) / 50:.2f}"] += 1
            for c, (v, counted) in rec.land.last_art.items():  # tiles held against their type's art
                kind = f"art look: counted {counted}, {'no member' if held.get(c, 0) == 0 else 'members'}"
                hide = rec.land.last_hide.get(c)
                if hide is not None:
                    kind += f", hide {min(int(hide * 5), 4) / 5:.1f}"
                errs[kind][f"{min(int(v * 100), 10) / 100:.2f}"] += 1
        print(f"{name} done ({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
    for k, (ok, tot) in totals.items():
        print(f"{k:28s} {100 * ok / max(tot, 1):7.2f}%  ({tot - ok} wrong of {tot})")
    ok, read = perfect
    print(f"{'frames read perfectly':28s} {100 * ok / max(read, 1):7.2f}%  ({ok} of {read})")
    print(
        "members per hex by members there (right of read): "
        + ", ".join(f"{n if n < 7 else '7+'}: {ok}/{tot}" for n, (ok, tot) in sorted(by_count.items()))
    )
    print("median ms:", {k: round(float(np.median(v)), 1) for k, v in timings.items()})
    for k in sorted(errs):
        print(f"\n{k}: " + ", ".join(f"{c}x {v}" for v, c in errs[k].most_common(a.top)))
    if a.json:
        Path(a.json).write_text(json.dumps({k: v for k, v in totals.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
