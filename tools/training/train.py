"""Train the camera models and export them to ONNX (needs the ``train`` extra: torch, onnx).

    python -m tools.training.dataset /tmp/data --frames 700 --shard 0 --shards 2 &   # rendered windows
    python -m tools.training.dataset /tmp/data --frames 700 --shard 1 --shards 2
    python -m tools.training.train /tmp/data -o models/                               # train, export, card
    python -m tools.training.train /tmp/data -o /tmp/fold --only members --exclude-family pale  # a LOFO fold

Three small CNNs (``vision.features``):

* ``tiles`` (3 x 40 x 40 → 64-d unit vector): trained as a cosine classifier with an additive
  margin (CosFace) over the rendered identities (pack variant / face, table texture / empty); at
  run time the classifier head is dropped and the features are compared with enrolled examples;
* ``members`` (4 x 48 x 48 → 16 logits, counts 0..15) and ``shells`` (4 x 48 x 48 → 21 logits,
  counts 0..20): cross-entropy on windows + likeness maps to the measured colour (the reference
  colour and the likeness width are jittered, as enrollment and light drift would). ``--only
  fine_shells`` trains ``shells`` on the finer windows of data made with ``--fine-px`` (the shipped
  one: 4 x 96 x 96; a shell, 16 x 11 mm, is 10 x 6–7 pixels in a 48-pixel window of a shell spot).
  ``--member-lean`` gives ``members`` a fifth channel: each window's lean ramp
  (:func:`vision.patches.lean_ramps` of the data's ``member_leans``: where and how far a standing
  member leans in a window the camera sees obliquely).

Windows are augmented on the fly (channel gains, noise, shifts; flips and quarter turns for the
counting models). One pack-variant family per base pack is held out to measure how features carry
over to art never trained on (nearest neighbour with half the held-out windows enrolled, the other
half queried). Everything is seeded. The script writes ``tiles.onnx``, ``members.onnx``,
``shells.onnx``, ``models.json`` (sizes, sha256, baseline piece areas) and ``training.json``
(the figures for the model card). ``--exclude-family F`` leaves out every window whose frame was
drawn in art family ``F`` (``games.tribes.sim.families``; data from ``tools.training.dataset``
records each window's family): a leave-one-family-out fold, to be evaluated on that family.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from games.tribes.vision.readers.base import colour_sigma
from tools.training.dataset import from_u8
from vision.colour import lab, likeness
from vision.patches import lean_ramps

HELD_VARIANTS = ("-hue3", "-poster")
"""Pack variants (of both base packs) kept out of training to measure transfer to new art."""
MAX_MEMBERS, MAX_SHELLS = 15, 20


def load(folder: Path) -> dict[str, np.ndarray]:
    """Concatenate every shard in ``folder``."""
    parts: dict[str, list[np.ndarray]] = {}
    for p in sorted(folder.glob("shard*.npz")):
        with np.load(p) as z:
            for k in z.files:
                parts.setdefault(k, []).append(z[k])
    if not parts:
        raise SystemExit(f"{folder}: no shard*.npz files (run python -m tools.training.dataset first)")
    return {k: np.concatenate(v) for k, v in parts.items()}


WINDOW_KEYS = {
    "tile": ("tiles", "tile_labels", "tile_kinds", "tile_occluders", "tile_families", "tile_piles"),
    "member": ("members", "member_counts", "member_refs", "member_leans", "member_families", "member_piles"),
    "shell": ("shells", "shell_counts", "shell_refs", "shell_families", "shell_piles"),
    "fine_shell": ("fine_shells", "fine_shell_counts", "fine_shell_refs", "fine_shell_families", "fine_shell_piles"),
}
"""The arrays of each kind of window (one row per window)."""


def exclude_families(data: dict[str, np.ndarray], families: list[str]) -> dict[str, np.ndarray]:
    """``data`` without the windows of frames drawn in any of ``families`` (a LOFO fold)."""
    if not families:
        return data
    out = dict(data)
    for kind, keys in WINDOW_KEYS.items():
        if keys[0] not in data:
            continue  # no windows of that kind (the finer windows are kept only on request)
        col = f"{kind}_families"
        if col not in data:
            raise SystemExit(f"the data records no {col} (made before art families): cannot exclude families")
        keep = ~np.isin(data[col], families)
        for k in keys:
            if k in data:
                out[k] = data[k][keep]
    return out


def likeness_maps(win01: np.ndarray, refs: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
    """Likeness of each window to its reference colour (jittered when ``rng`` is given)."""
    out = np.empty(win01.shape[:3], np.float32)
    labs = lab(win01)
    for i in range(len(win01)):
        ref = refs[i, :3].copy()
        spread = float(refs[i, 3])
        if rng is not None:
            ref += rng.normal(0, [2.5, 3.0, 3.0])
            spread *= rng.uniform(0.7, 1.4)
        out[i] = likeness(labs[i], ref, colour_sigma(spread))
    return out


# --- networks ----------------------------------------------------------------------------------------
def build_nets() -> tuple[Any, Any]:
    import torch
    from torch import nn

    def block(cin: int, cout: int, stride: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class TilesNet(nn.Module):
        def __init__(self, dim: int = 64) -> None:
            super().__init__()
            self.body = nn.Sequential(*block(3, 16, 2), *block(16, 32, 2), *block(32, 48, 1), *block(48, 64, 2))
            self.fc = nn.Linear(64 * 5 * 5, dim)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.fc(self.body(x).flatten(1))

    class CountNet(nn.Module):
        def __init__(self, classes: int, px: int = 48, channels: int = 4) -> None:
            super().__init__()
            layers = [*block(channels, 16, 2), *block(16, 32, 2), *block(32, 48, 1), *block(48, 64, 2)]
            layers += block(64, 64, 2)
            side = px // 16
            while side > 3:  # a larger window (the fine shells counter's): one more halving per doubling
                layers += block(64, 64, 2)
                side = (side + 1) // 2
            if side != 3:
                raise ValueError(f"a count window of {px} px does not shrink to 3 x 3 (use 48 x 2^k)")
            self.body = nn.Sequential(*layers)
            self.head = nn.Sequential(
                nn.Flatten(), nn.Linear(64 * 3 * 3, 128), nn.ReLU(inplace=True), nn.Linear(128, classes)
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.body(x))

    return TilesNet, CountNet


def prepare_tiles(
    x: np.ndarray, kinds: np.ndarray, occluders: np.ndarray, rng: np.random.Generator | None
) -> np.ndarray:
    """Hide the pieces (occluder colours, jittered in training) and, for landscape windows, what lies
    outside the hexagon — exactly as :class:`vision.encoder.TileEncoder` does at run time."""
    from games.tribes.vision.readers.base import colour_sigma
    from vision.occlusion import hex_only, hex_window_mask, hide_colours

    out = np.empty_like(x)
    mask = hex_window_mask(40, 48.0, 40.0)
    for i in range(len(x)):
        cols = []
        for row in occluders[i]:
            if np.isnan(row[0]):
                continue
            ref = row[:3] + (rng.normal(0, [2.0, 2.5, 2.5]) if rng is not None else 0.0)
            cols.append((ref.astype(np.float32), colour_sigma(float(row[3]))))
        w = hide_colours(x[i : i + 1], cols)
        out[i] = hex_only(w, mask)[0] if kinds[i] == 0 else w[0]
    return out


def augment_tiles(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Channel gains, brightness, blur-free noise and small shifts on a batch (N x 40 x 40 x 3)."""
    n = len(x)
    g = rng.uniform(0.8, 1.2, (n, 1, 1, 3)) * rng.uniform(0.8, 1.2, (n, 1, 1, 1))
    y = x * g + rng.normal(0, 0.02, x.shape)
    sh = rng.integers(-2, 3, (n, 2))
    for i in range(n):
        if sh[i, 0] or sh[i, 1]:
            y[i] = np.roll(y[i], (int(sh[i, 0]), int(sh[i, 1])), axis=(0, 1))
    return y.astype(np.float32)


def augment_counts(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Gains, noise, flips and quarter turns (a count does not change with them); N x px x px x C."""
    n = len(x)
    y = x.copy()
    g = rng.uniform(0.85, 1.15, (n, 1, 1, 3)) * rng.uniform(0.85, 1.15, (n, 1, 1, 1))
    y[..., :3] = y[..., :3] * g + rng.normal(0, 0.015, y[..., :3].shape)
    for i in range(n):
        k = int(rng.integers(0, 4))
        y[i] = np.rot90(y[i], k, axes=(0, 1))
        if rng.random() < 0.5:
            y[i] = y[i, :, ::-1]
    return y.astype(np.float32)


def to_nchw(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2)) - 0.5


# --- training -----------------------------------------------------------------------------------------
def train_tiles(data: dict[str, np.ndarray], epochs: int, seed: int, log: dict[str, Any]) -> Any:
    import torch
    import torch.nn.functional as F

    TilesNet, _ = build_nets()
    labels = data["tile_labels"]
    held = np.array([any(h in str(lb.split("/")[0]) for h in HELD_VARIANTS) for lb in labels])
    tr_idx = np.nonzero(~held)[0]
    names = sorted(set(labels[tr_idx]))
    cid = {n: i for i, n in enumerate(names)}
    y = np.array([cid[lb] for lb in labels[tr_idx]])
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = TilesNet()
    w = torch.nn.Parameter(torch.randn(len(names), 64) * 0.1)
    opt = torch.optim.AdamW([*net.parameters(), w], lr=3e-3, weight_decay=1e-4)
    bs = 128
    steps = epochs * (len(tr_idx) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    s_scale, margin = 16.0, 0.25
    step = 0
    t0 = time.time()
    for ep in range(epochs):
        net.train()
        perm = rng.permutation(len(tr_idx))
        tot, correct, count = 0.0, 0, 0
        for b in range(len(perm) // bs):
            sel = perm[b * bs : (b + 1) * bs]
            rows = tr_idx[sel]
            xb = prepare_tiles(
                from_u8(data["tiles"][rows]), data["tile_kinds"][rows], data["tile_occluders"][rows], rng
            )
            xb = augment_tiles(xb, rng)
            yb = torch.from_numpy(y[sel])
            emb = F.normalize(net(torch.from_numpy(to_nchw(xb))), dim=1)
            logits = emb @ F.normalize(w, dim=1).T
            onehot = F.one_hot(yb, len(names)).float()
            loss = F.cross_entropy(s_scale * (logits - margin * onehot), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            tot += float(loss.detach()) * len(sel)
            correct += int((logits.argmax(1) == yb).sum())
            count += len(sel)
        print(
            f"tiles epoch {ep + 1}/{epochs}: loss {tot / count:.3f} train acc {correct / count:.4f} "
            f"({time.time() - t0:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    net.eval()
    log["tiles"] = {
        "train_windows": len(tr_idx),
        "identities": len(names),
        "epochs": epochs,
        "train_accuracy": correct / max(count, 1),
        "seconds": round(time.time() - t0),
    }
    log["tiles"]["held_out"] = nn_transfer(net, data, held, rng)
    return net


def prepared(data: dict[str, np.ndarray], rows: np.ndarray) -> np.ndarray:
    """Windows ``rows`` prepared as at run time (no jitter)."""
    return prepare_tiles(from_u8(data["tiles"][rows]), data["tile_kinds"][rows], data["tile_occluders"][rows], None)


def nn_transfer(net: Any, data: dict[str, np.ndarray], held: np.ndarray, rng: np.random.Generator) -> dict[str, Any]:
    """Nearest-neighbour accuracy on held-out pack variants: per variant and window kind, half the
    windows of each identity enrolled, the other half queried against every identity of that
    variant and kind (plus bare table)."""
    import torch
    import torch.nn.functional as F

    idx = np.nonzero(held)[0]
    labels = data["tile_labels"][idx]
    with torch.no_grad():
        feats = np.concatenate(
            [
                F.normalize(net(torch.from_numpy(to_nchw(prepared(data, idx[i : i + 512])))), dim=1).numpy()
                for i in range(0, len(idx), 512)
            ]
        )
    kinds = {"hex": ("resource-", "exhausted"), "row": ("action-", "event-"), "board": ("achievement-",)}
    out: dict[str, Any] = {}
    for kind, prefixes in kinds.items():
        sel = [
            i
            for i, lb in enumerate(labels)
            if lb.split("/")[1].startswith(prefixes)
            or (kind == "hex" and lb.endswith("/empty"))
            or (kind == "row" and lb.endswith("/rowempty"))
        ]
        if not sel:
            continue
        # split each identity's windows in two halves
        enrol, query = [], []
        by: dict[str, list[int]] = {}
        for i in sel:
            by.setdefault(str(labels[i]), []).append(i)
        for _, ids in by.items():
            ids = list(rng.permutation(ids))
            h = max(1, len(ids) // 2)
            enrol += ids[:h]
            query += ids[h:]
        if not query:
            continue
        sims = feats[query] @ feats[enrol].T
        # only identities of the same pack variant (or bare table) compete, as in one user's box
        ok = 0
        for qi, q in enumerate(query):
            var = str(labels[q]).split("/")[0]
            mask = np.array([str(labels[e]).split("/")[0] in (var,) or str(labels[e]).endswith("empty") for e in enrol])
            j = int(np.argmax(np.where(mask, sims[qi], -9)))
            ok += labels[enrol[j]] == labels[q]
        out[kind] = {"queries": len(query), "accuracy": round(ok / len(query), 4)}
        print(f"held-out nearest neighbour, {kind}: {ok}/{len(query)}", file=sys.stderr, flush=True)
    return out


def train_counter(
    name: str,
    x_u8: np.ndarray,
    counts: np.ndarray,
    refs: np.ndarray,
    classes: int,
    epochs: int,
    seed: int,
    log: dict[str, Any],
    leans: np.ndarray | None = None,
) -> Any:
    """A counter on windows + likeness maps (+ with ``leans``, N x 2 window pixels, a lean ramp:
    :func:`vision.patches.lean_ramps`)."""
    import torch
    import torch.nn.functional as F

    _, CountNet = build_nets()
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    n = len(x_u8)
    perm = rng.permutation(n)
    nval = max(1, n // 10)
    val, tr = perm[:nval], perm[nval:]
    y = np.clip(counts, 0, classes - 1).astype(np.int64)
    px = int(x_u8.shape[1])
    net = CountNet(classes, px, 4 if leans is None else 5)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    bs = 96
    steps = epochs * (len(tr) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    t0 = time.time()

    def inputs(sel: np.ndarray, aug: bool) -> np.ndarray:
        win = from_u8(x_u8[sel])
        like = likeness_maps(win, refs[sel], rng if aug else None)
        parts = [win, like[..., None]]
        if leans is not None:
            parts.append(lean_ramps(leans[sel], px)[..., None])
        x = np.concatenate(parts, axis=3)
        return augment_counts(x, rng) if aug else x

    for ep in range(epochs):
        net.train()
        order = rng.permutation(tr)
        tot, count = 0.0, 0
        for b in range(len(order) // bs):
            sel = order[b * bs : (b + 1) * bs]
            xb = torch.from_numpy(to_nchw(inputs(sel, True)))
            yb = torch.from_numpy(y[sel])
            # soft labels: a little mass on the neighbouring counts (the counts are ordered)
            target = F.one_hot(yb, classes).float() * 0.9
            target += 0.05 * (
                F.one_hot((yb - 1).clamp(0, classes - 1), classes) + F.one_hot((yb + 1).clamp(0, classes - 1), classes)
            )
            target /= target.sum(1, keepdim=True)
            loss = torch.sum(-target * F.log_softmax(net(xb), 1), 1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(sel)
            count += len(sel)
        acc = evaluate_counter(net, inputs, val, y)
        print(
            f"{name} epoch {ep + 1}/{epochs}: loss {tot / count:.3f} val exact {acc:.4f} ({time.time() - t0:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    net.eval()
    log[name] = {
        "train_windows": len(tr),
        "val_windows": len(val),
        "epochs": epochs,
        "val_exact": round(evaluate_counter(net, inputs, val, y), 4),
        "seconds": round(time.time() - t0),
        "count_histogram": np.bincount(y, minlength=classes).tolist(),
    }
    return net


def evaluate_counter(net: Any, inputs: Any, val: np.ndarray, y: np.ndarray) -> float:
    import torch

    net.eval()
    ok = 0
    with torch.no_grad():
        for i in range(0, len(val), 256):
            sel = val[i : i + 256]
            pred = net(torch.from_numpy(to_nchw(inputs(sel, False)))).argmax(1).numpy()
            ok += int((pred == y[sel]).sum())
    net.train()
    return ok / max(len(val), 1)


def export(net: Any, path: Path, channels: int, px: int, normalise: bool = False) -> None:
    import torch
    import torch.nn.functional as F

    class Wrap(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = self.inner(x)
            return F.normalize(y, dim=1) if normalise else y

    model = Wrap(net).eval()
    x = torch.zeros(1, channels, px, px)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model,
            x,
            str(path),
            dynamo=False,
            input_names=["x"],
            output_names=["y"],
            dynamic_axes={"x": {0: "n"}, "y": {0: "n"}},
            opset_version=17,
        )


def baseline_units(x_u8: np.ndarray, counts: np.ndarray, refs: np.ndarray) -> float:
    """The baseline counter's area of one piece: likeness pixels per piece, least squares."""
    sel = np.nonzero((counts > 0) & (counts < 100))[0][:4000]
    like = likeness_maps(from_u8(x_u8[sel]), refs[sel], None)
    mass = (like > 0.5).sum(axis=(1, 2)).astype(np.float64)
    c = counts[sel].astype(np.float64)
    return float((mass * c).sum() / (c * c).sum())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="train the camera models (see models/MODEL_CARD.md)")
    ap.add_argument("data", type=Path, help="folder of shard*.npz from python -m models.dataset")
    ap.add_argument("-o", "--out", type=Path, default=Path("models"))
    ap.add_argument("--tile-epochs", type=int, default=8)
    ap.add_argument("--count-epochs", type=int, default=14)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--only",
        nargs="+",
        choices=("tiles", "members", "shells", "fine_shells"),
        help="train these models only (fine_shells: the shells counter on the finer windows, as shells.onnx)",
    )
    ap.add_argument(
        "--member-lean",
        action="store_true",
        help="the members counter also reads each window's lean ramp (5 channels; data made with member_leans)",
    )
    ap.add_argument(
        "--exclude-family", nargs="+", default=[], metavar="F", help="leave out the windows of these art families"
    )
    a = ap.parse_args(argv)
    import torch

    from vision.features import sha256

    torch.set_num_threads(a.threads)
    data = exclude_families(load(a.data), a.exclude_family)
    kinds = ("tiles", "members", "shells", "fine_shells")
    log: dict[str, Any] = {"data": {k: len(v) for k, v in data.items() if k in kinds}}
    if "member_families" in data:
        fams, counts = np.unique(data["member_families"], return_counts=True)
        log["data"]["member_families"] = {str(f): int(c) for f, c in zip(fams, counts, strict=True)}
        piles, counts = np.unique(data["member_piles"], return_counts=True)
        log["data"]["member_piles"] = {str(f): int(c) for f, c in zip(piles, counts, strict=True)}
    log["data"]["excluded_families"] = list(a.exclude_family)
    t0 = time.time()
    a.out.mkdir(parents=True, exist_ok=True)
    manifest_path = a.out / "models.json"
    manifest: dict[str, Any] = {"models": {}, "baseline": {}}
    only = set(a.only or ("tiles", "members", "shells"))
    if "fine_shells" in only and "fine_shells" not in data:
        raise SystemExit(f"{a.data}: no fine_shells windows (made without --fine-px): cannot train fine_shells")
    if {"shells", "fine_shells"} <= only:
        raise SystemExit("--only shells fine_shells: both would be shells.onnx; train one of them")
    if a.member_lean and "member_leans" not in data:
        raise SystemExit(f"{a.data}: no member_leans (made before lean ramps): cannot train --member-lean")
    if "tiles" in only:
        net = train_tiles(data, a.tile_epochs, a.seed, log)
        export(net, a.out / "tiles.onnx", 3, 40, normalise=True)
        manifest["models"]["tiles"] = {"file": "tiles.onnx", "px": 40, "channels": 3, "outputs": 64}
    sc = data["shell_counts"].astype(np.int64)
    row = sc >= 100
    shell_counts = np.where(row, sc - 100, sc)
    if "members" in only:
        net = train_counter(
            "members",
            data["members"],
            data["member_counts"].astype(np.int64),
            data["member_refs"],
            MAX_MEMBERS + 1,
            a.count_epochs,
            a.seed,
            log,
            data["member_leans"] if a.member_lean else None,
        )
        channels = 5 if a.member_lean else 4
        export(net, a.out / "members.onnx", channels, 48)
        manifest["models"]["members"] = {
            "file": "members.onnx",
            "px": 48,
            "channels": channels,
            "outputs": MAX_MEMBERS + 1,
        }
        manifest["baseline"]["member_unit"] = round(
            baseline_units(data["members"], data["member_counts"].astype(np.int64), data["member_refs"]), 2
        )
    if "shells" in only:
        net = train_counter(
            "shells", data["shells"], shell_counts, data["shell_refs"], MAX_SHELLS + 1, a.count_epochs, a.seed + 1, log
        )
        export(net, a.out / "shells.onnx", 4, 48)
        manifest["models"]["shells"] = {"file": "shells.onnx", "px": 48, "channels": 4, "outputs": MAX_SHELLS + 1}
        manifest["baseline"]["shell_unit"] = round(
            baseline_units(data["shells"][~row], shell_counts[~row], data["shell_refs"][~row]), 2
        )
    if "fine_shells" in only:
        fc = data["fine_shell_counts"].astype(np.int64)
        fine_row = fc >= 100
        px = int(data["fine_shells"].shape[1])
        net = train_counter(
            "shells",
            data["fine_shells"],
            np.where(fine_row, fc - 100, fc),
            data["fine_shell_refs"],
            MAX_SHELLS + 1,
            a.count_epochs,
            a.seed + 1,
            log,
        )
        export(net, a.out / "shells.onnx", 4, px)
        manifest["models"]["shells"] = {"file": "shells.onnx", "px": px, "channels": 4, "outputs": MAX_SHELLS + 1}
    for m in manifest["models"].values():
        p = a.out / m["file"]
        m["sha256"] = sha256(p)
        m["bytes"] = p.stat().st_size
    # merge with what another training process (other models) wrote meanwhile
    old = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    old.setdefault("models", {}).update(manifest["models"])
    old.setdefault("baseline", {}).update(manifest["baseline"])
    manifest_path.write_text(json.dumps(old, indent=1) + "\n")
    log["seconds_total"] = round(time.time() - t0)
    log["seed"] = a.seed
    log["threads"] = a.threads
    prev = json.loads((a.out / "training.json").read_text()) if (a.out / "training.json").exists() else {}
    prev.update(log)
    (a.out / "training.json").write_text(json.dumps(prev, indent=1) + "\n")
    print(json.dumps(log, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
