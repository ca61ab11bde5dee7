"""Training data for the camera models, cut from rendered tables (domain randomisation).

Each sample is one rendered frame: a random position of a simulated game whose member, shell,
stone and track numbers are re-drawn (so that high counts are common), with a random art pack
(classic or bold, or a colour-transformed variant of them: new "boxes"), random piece and shell
colours, table texture, camera (``games.tribes.sim.splits``: never the evaluation's field of view, pack or
colours), light and camera effects. The frame then goes through the *same* steps as at run time —
registration from the markers, colour normalisation from the reference patch, the readers' windows —
and the windows are stored with their labels:

* ``tiles``: windows of land hexes (tiles and bare table), row slots and achievement positions,
  labelled by identity (``<pack variant>/<face>`` or ``<texture>/empty``), plus windows made from the
  pack's face images the way enrollment from an art pack makes them;
* ``members``: count windows of tile hexes, the seat colour measured from its supply as
  enrollment does, the number of members, and how a standing member leans in the window
  (``member_leans``: ``games.tribes.vision.regions.leans``, from the frame's registration);
* ``shells``: windows of shell spots and row slots, the shell colour measured from the spots, and
  the number of shells; with ``--fine-px N`` the same windows cut at N pixels a side too
  (``fine_shells``: the shipped shells counter's, N = 96).

Art and piles per frame (``--mix``, :data:`MIXES`): by default an *art family*
(``games.tribes.sim.families``: photo, dark, pale, busy, flat, text) or one of the colour variants,
and members on the grid (``piles="fixed"``) on about a third of the frames, as rings, heaps or grids
(``"varied"``) on the rest; ``--mix variants`` gives the earlier data. Every window records its
frame's family (``*_families``: a family name or ``variant``) and piles (``*_piles``), so that
training can leave one family out.

Run ``python -m tools.training.dataset OUT_DIR --frames N [--shard I --shards K]`` (a shard per
process). Windows are stored as uint8 (normalised value / 1.5 * 255).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from games.tribes.rules.game import simulate
from games.tribes.rules.profile import default_profile
from games.tribes.sim.families import FAMILIES, family_pack
from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.packs import face as pack_face
from games.tribes.sim.randomize import random_conditions
from games.tribes.sim.render import Renderer
from games.tribes.sim.splits import HELD_OUT_PACK, TRAIN_PACKS, colour_allowed, train_fov
from games.tribes.vision.artpack import ArtPack
from games.tribes.vision.enrollment import JITTER, face_window, frame_norm, table_colour
from games.tribes.vision.layout import default_layout
from games.tribes.vision.regions import COUNT_PX, Regions, leans
from games.tribes.vision.table import TableModel
from sim.camera import Camera
from vision.colour import lab, piece_colour
from vision.errors import CameraError
from vision.patches import patch_set
from vision.registration import Registrar
from vision.sampling import Sampler

SCALE = 255.0 / 1.5
TRANSFORMS = ("none", "hue1", "hue2", "hue3", "swap1", "swap2", "desat", "invert", "poster")
MIXES = ("families", "variants")
"""What a frame's art and piles are drawn from: ``families`` (the default: an art family of
``games.tribes.sim.families`` or one of the colour variants, members as a grid on about a third of
the frames and as rings, heaps or grids on the rest, arrangements drawn per frame) or ``variants``
(the earlier data: colour variants only, members always on the grid of scene seed 0)."""
FAMILY_SEEDS = 4
"""Looks drawn per (base pack, family): each is a pack of its own."""
VARIANT_FAMILY = "variant"
"""The family recorded for a frame drawn with one of the colour variants (:data:`TRANSFORMS`)."""


def to_u8(x01: np.ndarray) -> np.ndarray:
    """Normalised windows (0..1.5) as uint8."""
    return np.clip(x01 * SCALE + 0.5, 0, 255).astype(np.uint8)


def from_u8(u8: np.ndarray) -> np.ndarray:
    """Inverse of :func:`to_u8` (float32)."""
    return u8.astype(np.float32) / SCALE


def transform_face(img: np.ndarray, how: str) -> np.ndarray:
    """A face image recoloured: a new box's art with the same layout of symbols."""
    if how == "none":
        return img
    if how.startswith("hue"):
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + 30 * int(how[3:])) % 180
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if how == "swap1":
        return img[..., [1, 2, 0]].copy()
    if how == "swap2":
        return img[..., [2, 0, 1]].copy()
    if how == "desat":
        g = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR).astype(np.float32)
        tint = np.array([0.85, 0.95, 1.1], np.float32)
        return np.clip(0.55 * g * tint + 0.45 * img, 0, 255).astype(np.uint8)
    if how == "invert":
        labi = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
        labi[..., 0] = 255 - labi[..., 0]
        return cv2.cvtColor(labi, cv2.COLOR_Lab2BGR)
    if how == "poster":
        return ((img // 64) * 64 + 32).astype(np.uint8)
    raise ValueError(how)


_PACKS: dict[str, ArtPack] = {}


def variant(base: str, how: str) -> ArtPack:
    """The pack ``base`` with every face transformed by ``how`` (cached)."""
    if base == HELD_OUT_PACK:
        raise ValueError("the evaluation pack is never used for training")
    key = f"{base}-{how}"
    if key not in _PACKS:
        src = builtin_pack(base)
        faces = {k: transform_face(v, how) for k, v in src.faces.items()}
        for era in (1, 2, 3):
            for kind in ("achievement", "event"):
                fk = f"{kind}-back-{era}"
                faces[fk] = transform_face(pack_face(src, fk), how)
        _PACKS[key] = ArtPack(key, faces, dict(src.colours), src.shell, source=f"variant:{key}", style=base)
    return _PACKS[key]


def random_colour(rng: np.random.Generator, light: bool = False) -> tuple[int, int, int]:
    """A random piece colour (or a light shell colour) away from the evaluation's colours."""
    for _ in range(200):
        if light:
            h, s, v = rng.uniform(0, 60), rng.uniform(0.0, 0.35), rng.uniform(0.75, 1.0)
        else:
            h, s, v = rng.uniform(0, 360), rng.uniform(0.0, 1.0), rng.uniform(0.08, 1.0)
            if rng.random() < 0.15:  # near-black and near-white pieces exist too
                s, v = rng.uniform(0, 0.2), (rng.uniform(0.05, 0.25) if rng.random() < 0.6 else rng.uniform(0.8, 1.0))
        hsv = np.uint8([[[int(h / 2) % 180, int(s * 255), int(v * 255)]]])
        b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
        rgb = (int(r), int(g), int(b))
        if colour_allowed(rgb):
            return rgb
    return (120, 60, 200)


def distinct_colours(rng: np.random.Generator, n: int, min_de: float = 30.0) -> list[tuple[int, int, int]]:
    """``n`` random piece colours at least ``min_de`` apart (players' colours differ clearly)."""
    from games.tribes.sim.splits import rgb_to_lab

    out: list[tuple[int, int, int]] = []
    tries = 0
    while len(out) < n:
        c = random_colour(rng)
        tries += 1
        if all(np.linalg.norm(rgb_to_lab(c) - rgb_to_lab(o)) >= min_de for o in out) or tries > 500:
            out.append(c)
    return out


_GAMES: dict[tuple[int, int], Any] = {}


def _game(players: int, seed: int) -> Any:
    key = (players, seed % 24)
    if key not in _GAMES:
        _GAMES[key] = simulate(players, key[1])
    return _GAMES[key]


def random_table(rng: np.random.Generator, seed: int) -> TableModel:
    """A position of a simulated game with re-drawn counts (members, shells, stones, tracks)."""
    players = int(rng.integers(2, 5))
    game = _game(players, int(rng.integers(0, 1 << 30)))
    idx = int(rng.integers(1, len(game.states)))
    model = TableModel.from_state(game.states[idx])
    model.drawn = {}
    for st in model.seats:
        for t in st.land.values():
            r = rng.random()
            t.members = (
                0 if r < 0.3 else int(min(15, 1 + rng.geometric(0.22) - 1)) if r < 0.8 else int(rng.integers(1, 16))
            )
            t.exhausted = bool(rng.random() < 0.25)
        st.supply = max(st.supply, int(rng.integers(5, 14)))
        st.shells = int(rng.integers(0, 21)) if rng.random() < 0.85 else st.shells
        st.tracks = [int(rng.integers(0, n)) for n in model.track_spaces]
    for item in model.row:
        item.shells = 0 if rng.random() < 0.35 else int(rng.integers(1, 13))
    n_seats = len(model.seats)
    for era in model.board:
        for b in era:
            if b.tile is not None and rng.random() < 0.5:
                b.stones = [int(rng.integers(0, n_seats)) for _ in range(int(rng.integers(0, 5)))]
    return model


def conditions(seed: int, layout: Any) -> tuple[Camera, Any, Any, str]:
    """Camera (training field of view, random image size), light, effects and texture for a seed."""
    cond = None
    for k in range(20):  # random_conditions itself may draw a distortion that folds the image
        try:
            cond = random_conditions(seed + 7919 * k, layout)
            break
        except CameraError:
            continue
    assert cond is not None
    rng = np.random.default_rng([seed, 77])
    w, h = [(1280, 720), (1600, 900), (1920, 1080), (1920, 1080), (2560, 1440)][int(rng.integers(0, 5))]
    c = cond.camera
    fov, margin = train_fov(rng), float(rng.uniform(0.0, 0.08))
    dist = c.dist
    for _ in range(6):
        try:
            cam = Camera.framing(
                layout,
                width=w,
                height=h,
                tilt=c.tilt,
                azimuth=c.azimuth,
                roll=c.roll,
                fov=fov,
                dist=dist,
                margin=margin,
            )
            break
        except CameraError:  # strong distortion with a wide view folds the image: soften it
            dist = tuple(0.5 * d for d in dist)
    else:
        cam = Camera.framing(layout, width=w, height=h, tilt=c.tilt, azimuth=c.azimuth, roll=c.roll, fov=fov)
    return cam, cond.light, cond.effects, cond.texture


class Generator:
    """Renders frames and cuts the training windows from them."""

    def __init__(self, mix: str = "families", fine_px: int = 0) -> None:
        if mix not in MIXES:
            raise ValueError(f"mix must be one of {', '.join(MIXES)}, got {mix!r}")
        self.mix = mix
        self.fine_px = fine_px
        self.layout = default_layout()
        self.profile = default_profile()
        self.regions = Regions(self.layout, self.profile)
        self.sampler = Sampler()
        self.renderers: dict[tuple[str, str, str], Renderer] = {}

    def renderer(self, pack: ArtPack, texture: str, piles: str = "fixed") -> Renderer:
        key = (pack.name, texture, piles)
        if key not in self.renderers:
            if len(self.renderers) > 6:
                self.renderers.pop(next(iter(self.renderers)))
            self.renderers[key] = Renderer(self.layout, pack, texture, seed=0, piles=piles)
        return self.renderers[key]

    def art(self, rng: np.random.Generator) -> tuple[ArtPack, str, str]:
        """A frame's pack, its art family and piles (see :data:`MIXES`)."""
        base = TRAIN_PACKS[int(rng.integers(0, 2))]
        if self.mix == "variants":
            return variant(base, TRANSFORMS[int(rng.integers(0, len(TRANSFORMS)))]), VARIANT_FAMILY, "fixed"
        piles = "fixed" if rng.random() < 1 / 3 else "varied"
        k = int(rng.integers(0, len(FAMILIES) + 2))  # the colour variants weigh as two families
        if k >= len(FAMILIES):
            return variant(base, TRANSFORMS[int(rng.integers(0, len(TRANSFORMS)))]), VARIANT_FAMILY, piles
        fam = FAMILIES[k]
        return family_pack(base, fam, int(rng.integers(0, FAMILY_SEEDS))), fam, piles

    def sample(self, seed: int) -> dict[str, list[Any]] | None:
        rng = np.random.default_rng([seed, 31337])
        lay, regions, sampler = self.layout, self.regions, self.sampler
        pack, family, piles = self.art(rng)
        cam, light, effects, texture = conditions(seed, lay)
        model = random_table(rng, seed)
        names = [s.colour for s in model.seats]
        for name, rgb in zip(names, distinct_colours(rng, len(names)), strict=True):
            pack.colours[name] = rgb
        pack.shell = random_colour(rng, light=True)
        r = self.renderer(pack, texture, piles)
        # under "families" the scene seed (where members stand, how they are arranged) is the frame's;
        # the table texture is cached per canvas, so it does not change with it
        r.seed = seed if self.mix == "families" else 0
        frame = r.render(model, cam, light, effects, frame_seed=seed)
        img, truth = frame.image, frame.truth
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        res = Registrar(lay).update(gray)
        if res.registration is None:
            return None
        reg = res.registration
        norm = frame_norm(img, reg, regions, sampler)
        if norm is None:
            return None
        table = table_colour(img, reg, regions, sampler, norm)
        seats = list(range(len(model.seats)))
        sup = sampler.sample(img, reg, regions.supply_patches(seats))
        disc = _disc(sup.shape[1], 0.42)
        refs = {}
        for i, s in enumerate(seats):
            col, spread = piece_colour(lab(norm.apply(sup[i]))[disc], table, share=0.2)
            refs[s] = np.concatenate([col, [spread]]).astype(np.float32)
        shell_ref = None
        with_shells = [st["seat"] for st in truth["seats"] if st["shells"] >= 3]
        if with_shells:
            sp = sampler.sample(img, reg, regions.shell_patches(with_shells))
            sd = _disc(sp.shape[1], 0.45)
            px = np.concatenate([lab(norm.apply(sp[i]))[sd] for i in range(len(with_shells))])
            shell_ref = np.concatenate([piece_colour(px, table, share=0.08)[0], [5.0]]).astype(np.float32)
        nan = np.full(4, np.nan, np.float32)

        def occ(*cols: np.ndarray | None) -> np.ndarray:
            """Occluder colours of a window (Lab + spread per row; unused rows NaN)."""
            rows = [c for c in cols if c is not None][:4]
            return np.stack(rows + [nan] * (4 - len(rows)))

        every_seat = occ(*[refs[s] for s in seats])
        out: dict[str, list[Any]] = {
            k: []
            for k in (
                "tiles",
                "tile_labels",
                "tile_kinds",
                "tile_occluders",
                "members",
                "member_counts",
                "member_refs",
                "member_leans",
                "shells",
                "shell_counts",
                "shell_refs",
                "fine_shells",
                "fine_shell_counts",
                "fine_shell_refs",
            )
        }

        # --- tiles ---------------------------------------------------------------------------------
        cells, labels = [], []
        for h in truth["hexes"]:
            if not h["in_view"]:
                continue
            cells.append((int(h["seat"]), (int(h["hex"][0]), int(h["hex"][1]))))
            if h["tile"]:
                face = "exhausted" if h["exhausted"] else f"resource-{h['resource']}"
                labels.append(f"{pack.name}/{face}")
            else:
                labels.append(f"{texture}/empty")
        for s in range(len(model.seats)):
            area = regions.area_hexes(s)
            known = {c for c in cells}
            for k in rng.choice(len(area), size=min(6, len(area)), replace=False):
                c = (s, area[int(k)])
                if c not in known:
                    cells.append(c)
                    labels.append(f"{texture}/empty")
        ps = regions.hex_patches(cells)
        ok = sampler.inside(reg, ps)
        jitter = rng.normal(0, 0.8, (len(cells), 2))
        ps = patch_set("hex", ps.centers + jitter, ps.rotations + rng.normal(0, 2, len(cells)), ps.side_mm, ps.px)
        win = norm.apply(sampler.sample(img, reg, ps))
        for i in np.nonzero(ok)[0]:
            out["tiles"].append(to_u8(win[i]))
            out["tile_labels"].append(labels[i])
            out["tile_kinds"].append(0)
            out["tile_occluders"].append(occ(refs[cells[i][0]]))
        rp = regions.row_patches()
        rwin = norm.apply(sampler.sample(img, reg, rp))
        rin = sampler.inside(reg, rp)
        for s in truth["row"]:
            i = int(s["slot"]) - 1
            if not rin[i]:
                continue
            if s["tile"] is None:
                lab_ = f"{texture}/rowempty"
            else:
                lab_ = f"{pack.name}/{'event' if s['event'] else 'action'}-{s['tile']}"
            out["tiles"].append(to_u8(rwin[i]))
            out["tile_labels"].append(lab_)
            out["tile_kinds"].append(1)
            out["tile_occluders"].append(occ(shell_ref))
        bp = regions.board_patches()
        bwin = norm.apply(sampler.sample(img, reg, bp))
        bin_ = sampler.inside(reg, bp)
        pos = {p: i for i, p in enumerate(regions.board_positions)}
        for b in truth["board"]:
            i = pos[(int(b["era"]), int(b["col"]))]
            if not bin_[i]:
                continue
            face = f"achievement-{b['tile']}" if b["face_up"] and b["tile"] else f"achievement-back-{b['era']}"
            out["tiles"].append(to_u8(bwin[i]))
            out["tile_labels"].append(f"{pack.name}/{face}")
            out["tile_kinds"].append(2)
            out["tile_occluders"].append(every_seat)
        # faces laid out as enrollment from an art pack does
        keys = sorted(k for k in pack.faces if not k.startswith("event-back"))
        for k in rng.choice(len(keys), size=8, replace=False):
            key = keys[int(k)]
            hexagonal = key.startswith(("resource-", "exhausted"))
            if hexagonal:
                size, side = lay.hex.flat_to_flat, regions.hex_patches([(0, (0, 0))]).side_mm
            elif key.startswith("achievement"):
                size, side = lay.achievement_size[0], regions.board_patches().side_mm
            else:
                size, side = lay.action_size[0], regions.row_side
            w = face_window(
                pack_face(pack, key),
                size,
                side,
                ps.px,
                hexagonal,
                table,
                int(rng.integers(0, len(JITTER))),
            )
            w = w * rng.uniform(0.85, 1.15, 3).astype(np.float32)
            out["tiles"].append(to_u8(w))
            out["tile_labels"].append(f"{pack.name}/{key}")
            out["tile_kinds"].append(0 if hexagonal else 2 if key.startswith("achievement") else 1)
            if hexagonal:
                out["tile_occluders"].append(occ(refs[int(rng.integers(0, len(seats)))]))
            else:
                out["tile_occluders"].append(every_seat if key.startswith("achievement") else occ(shell_ref))
        # --- members -------------------------------------------------------------------------------
        tiles = [
            (int(h["seat"]), (int(h["hex"][0]), int(h["hex"][1])), sum(h["members"].values()))
            for h in truth["hexes"]
            if h["tile"] and h["in_view"]
        ]
        if tiles:
            cp = regions.count_patches([(s, h) for s, h, _ in tiles])
            cin = sampler.inside(reg, cp)
            cp = patch_set("count", cp.centers + rng.normal(0, 0.8, (len(tiles), 2)), cp.rotations, cp.side_mm, cp.px)
            cwin = norm.apply(sampler.sample(img, reg, cp))
            lean = leans(reg, cp)
            for i, (s, _, n) in enumerate(tiles):
                if cin[i]:
                    out["members"].append(to_u8(cwin[i]))
                    out["member_counts"].append(n)
                    out["member_refs"].append(refs[s])
                    out["member_leans"].append(lean[i].astype(np.float32))
        # --- shells --------------------------------------------------------------------------------
        if shell_ref is not None:
            # the shell spots and row slots as the counter cuts them and, with fine_px, cut finer
            for key, px in (("shell", COUNT_PX), ("fine_shell", self.fine_px)):
                if not px:
                    continue
                sp_all = regions.shell_patches(seats, px)
                sin = sampler.inside(reg, sp_all)
                swin = norm.apply(sampler.sample(img, reg, sp_all))
                for st in truth["seats"]:
                    i = int(st["seat"])
                    if sin[i]:
                        out[f"{key}s"].append(to_u8(swin[i]))
                        out[f"{key}_counts"].append(int(st["shells"]))
                        out[f"{key}_refs"].append(shell_ref)
                rcp = regions.row_count_patches(px)
                rcin = sampler.inside(reg, rcp)
                rcwin = norm.apply(sampler.sample(img, reg, rcp))
                for s in truth["row"]:
                    i = int(s["slot"]) - 1
                    if rcin[i] and s["tile"] is not None:
                        out[f"{key}s"].append(to_u8(rcwin[i]))
                        out[f"{key}_counts"].append(int(s["shells"]) + 100)  # +100: a row slot window
                        out[f"{key}_refs"].append(shell_ref)
        for kind in ("tile", "member", "shell", "fine_shell"):  # per window: the frame's art family and piles
            n = len(out[f"{kind}s"])
            out[f"{kind}_families"] = [family] * n
            out[f"{kind}_piles"] = [piles] * n
        return out


def _disc(px: int, radius: float) -> np.ndarray:
    yy, xx = np.mgrid[0:px, 0:px]
    c = (px - 1) / 2
    return np.hypot(xx - c, yy - c) <= radius * px


def generate(
    out_dir: Path, frames: int, shard: int, shards: int, first_seed: int = 0, mix: str = "families", fine_px: int = 0
) -> Path:
    """Render ``frames`` frames (every ``shards``-th seed from ``first_seed + shard``) into one npz;
    ``mix`` (:data:`MIXES`) says what their art and piles are drawn from; ``fine_px`` > 0 also keeps
    the shell spots' and row slots' windows at ``fine_px`` a side (``fine_shells``: for the shells
    counter of finer windows, ``tools.training.train --only fine_shells``)."""
    gen = Generator(mix, fine_px)
    acc: dict[str, list[Any]] = {}
    t0 = time.time()
    done = 0
    seed = first_seed + shard
    while done < frames:
        s = gen.sample(seed)
        seed += shards
        if s is None:
            continue
        for k, v in s.items():
            acc.setdefault(k, []).extend(v)
        done += 1
        if done % 20 == 0:
            print(f"shard {shard}: {done}/{frames} frames, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"shard{shard:02d}.npz"
    fine: dict[str, np.ndarray] = {}  # the finer shell windows (fine_px)
    if acc["fine_shells"]:
        fine["fine_shells"] = np.stack(acc["fine_shells"])
        fine["fine_shell_counts"] = np.array(acc["fine_shell_counts"], np.int16)
        fine["fine_shell_refs"] = np.stack(acc["fine_shell_refs"]).astype(np.float32)
        for w in ("families", "piles"):
            fine[f"fine_shell_{w}"] = np.array(acc[f"fine_shell_{w}"])
    np.savez(
        path,
        tiles=np.stack(acc["tiles"]),
        tile_labels=np.array(acc["tile_labels"]),
        tile_kinds=np.array(acc["tile_kinds"], np.int8),
        tile_occluders=np.stack(acc["tile_occluders"]).astype(np.float32),
        members=np.stack(acc["members"]),
        member_counts=np.array(acc["member_counts"], np.int16),
        member_refs=np.stack(acc["member_refs"]).astype(np.float32),
        member_leans=np.stack(acc["member_leans"]).astype(np.float32),
        shells=np.stack(acc["shells"]),
        shell_counts=np.array(acc["shell_counts"], np.int16),
        shell_refs=np.stack(acc["shell_refs"]).astype(np.float32),
        **{f"{k}_{w}": np.array(acc[f"{k}_{w}"]) for k in ("tile", "member", "shell") for w in ("families", "piles")},
        **fine,
    )
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--frames", type=int, default=400)
    ap.add_argument("--shard", type=int, default=0)
    ap.add_argument("--shards", type=int, default=1)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--mix", choices=MIXES, default="families", help="art and piles per frame (default: families)")
    ap.add_argument("--fine-px", type=int, default=0, help="also keep the shell windows at this size (fine_shells)")
    a = ap.parse_args(argv)
    p = generate(a.out, a.frames, a.shard, a.shards, a.first_seed, a.mix, a.fine_px)
    print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
