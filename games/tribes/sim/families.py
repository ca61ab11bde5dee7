"""Art families: procedural looks for a pack's faces, to train readers that hold on any tile art.

Training tooling (the renderer side), never imported by ``vision`` or the readers. Each family keeps
a face's layout (where its symbols are) but changes its look:

* ``photo``: photographic-like, multi-scale texture with natural colour statistics, soft gradients
  and grain;
* ``dark``: low key, low contrast, dark background;
* ``pale``: near-white, low saturation, faint symbols;
* ``busy``: many small random shapes, lines and speckles over the face;
* ``flat``: a few big flat regions of colour, no texture;
* ``text``: random printed text and glyphs over parts of the face.

A transform is deterministic from (face key, family, seed). :func:`family_pack` is the pack-level
counterpart of ``tools.training.dataset.variant``; it refuses the held-out ``sketch`` pack unless
asked for an evaluation (``held_out=True``: the evaluation's art turned into one family, to measure
a model trained without that family).
"""

from __future__ import annotations

import hashlib
import string

import cv2
import numpy as np

from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.packs import face as pack_face
from games.tribes.sim.splits import HELD_OUT_PACK
from games.tribes.vision.artpack import ArtPack

FAMILIES = ("photo", "dark", "pale", "busy", "flat", "text")
"""The art families, in a fixed order."""


def family_rng(key: str, family: str, seed: int) -> np.random.Generator:
    """The random generator of one face's transform (from its key, the family and the seed)."""
    h = hashlib.sha256(f"{key}|{family}|{seed}".encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


def _noise(shape: tuple[int, int], rng: np.random.Generator, cells: tuple[int, ...]) -> np.ndarray:
    """Multi-scale smooth noise in about -1..1 (a sum of upsampled random grids)."""
    h, w = shape
    out = np.zeros((h, w), np.float32)
    total = 0.0
    for i, c in enumerate(cells):
        g = rng.normal(0, 1, (max(2, c * h // max(h, w)), max(2, c * w // max(h, w)))).astype(np.float32)
        amp = 0.6**i
        out += amp * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
    return np.clip(out / total, -2.5, 2.5) / 1.5


def _lab(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2Lab).astype(np.float32)


def _bgr(lab_f: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.clip(lab_f + 0.5, 0, 255).astype(np.uint8), cv2.COLOR_Lab2BGR)


def _photo(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    f = _lab(img)
    # natural colour statistics: chroma pulled toward an earthy tint, kept moderate
    tint = np.array([rng.uniform(-6, 14), rng.uniform(4, 22)], np.float32)  # a*, b* of earth, wood, grass
    keep = rng.uniform(0.45, 0.8)
    f[..., 1:] = 128 + keep * (f[..., 1:] - 128) + (1 - keep) * tint
    # multi-scale texture on lightness and colour, a soft gradient, grain
    f[..., 0] += rng.uniform(20, 42) * _noise((h, w), rng, (4, 12, 40, 96))
    f[..., 1] += rng.uniform(4, 12) * _noise((h, w), rng, (6, 24))
    f[..., 2] += rng.uniform(4, 12) * _noise((h, w), rng, (6, 24))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(a) * (xx / w - 0.5) + np.sin(a) * (yy / h - 0.5)) * 2
    f[..., 0] += rng.uniform(8, 25) * ramp
    f[..., 0] += rng.normal(0, rng.uniform(2, 6), (h, w)).astype(np.float32)
    out = _bgr(f)
    return cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.0))


def _dark(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    f = _lab(img)
    lo, gain = rng.uniform(12, 35), rng.uniform(0.15, 0.35)
    f[..., 0] = lo + gain * f[..., 0]
    f[..., 1:] = 128 + rng.uniform(0.4, 0.8) * (f[..., 1:] - 128)
    return _bgr(f)


def _pale(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    f = _lab(img)
    top, gain = rng.uniform(230, 250), rng.uniform(0.08, 0.2)
    f[..., 0] = top - gain * (255 - f[..., 0])
    f[..., 1:] = 128 + rng.uniform(0.1, 0.3) * (f[..., 1:] - 128)
    return _bgr(f)


def _busy(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = img.copy()
    h, w = img.shape[:2]
    pal = img.reshape(-1, 3)[rng.integers(0, h * w, 32)]
    for _ in range(int(rng.integers(150, 400))):
        col = tuple(int(c) for c in (pal[int(rng.integers(0, 32))] if rng.random() < 0.6 else rng.integers(0, 256, 3)))
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        s = int(rng.integers(2, 12))
        kind = rng.random()
        if kind < 0.35:
            cv2.circle(out, (x, y), s // 2 + 1, col, -1 if rng.random() < 0.5 else 1, cv2.LINE_AA)
        elif kind < 0.7:
            a = rng.uniform(0, 2 * np.pi)
            p2 = (int(x + 2 * s * np.cos(a)), int(y + 2 * s * np.sin(a)))
            cv2.line(out, (x, y), p2, col, int(rng.integers(1, 3)), cv2.LINE_AA)
        else:
            cv2.rectangle(out, (x, y), (x + s, y + s), col, -1 if rng.random() < 0.5 else 1)
    speck = rng.random((h, w)) < rng.uniform(0.01, 0.04)
    out[speck] = rng.integers(0, 256, (int(speck.sum()), 3)).astype(np.uint8)
    return out


def _flat(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    sm = cv2.GaussianBlur(img, (0, 0), rng.uniform(2.0, 4.0)).astype(np.float32)
    k = int(rng.integers(3, 6))
    flat = sm.reshape(-1, 3)
    centres = flat[rng.choice(len(flat), 200, replace=False)]
    # farthest-point choice of k colours among random pixels: distinct regions
    chosen = [centres[0]]
    for _ in range(k - 1):
        d = np.min([np.linalg.norm(centres - c, axis=1) for c in chosen], axis=0)
        chosen.append(centres[int(np.argmax(d))])
    pal = np.stack(chosen)
    lab_ = np.argmin(((flat[:, None, :] - pal[None]) ** 2).sum(-1), axis=1).astype(np.uint8).reshape(h, w)
    lab_ = cv2.medianBlur(lab_, 7)
    # each region one flat colour, its own or a new one of similar lightness
    cols = np.clip(pal + rng.normal(0, 25, pal.shape), 0, 255).astype(np.uint8)
    return cols[lab_]


_GLYPHS = string.ascii_letters + string.digits + "#&%@*+=?!<>"
_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)


def _text(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = img.copy()
    h, w = img.shape[:2]
    mean = float(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).mean())
    for _ in range(int(rng.integers(5, 14))):
        n = int(rng.integers(2, 12))
        txt = "".join(_GLYPHS[int(i)] for i in rng.integers(0, len(_GLYPHS), n))
        v = int(rng.uniform(0, 70)) if mean > 110 else int(rng.uniform(190, 255))
        col = tuple(int(np.clip(v + rng.normal(0, 25), 0, 255)) for _ in range(3))
        scale = float(rng.uniform(0.4, 1.6))
        org = (int(rng.integers(-w // 4, w)), int(rng.integers(8, h)))
        font = _FONTS[int(rng.integers(0, len(_FONTS)))]
        cv2.putText(out, txt, org, font, scale, col, int(rng.integers(1, 4)), cv2.LINE_AA)
    return out


_TRANSFORMS = {"photo": _photo, "dark": _dark, "pale": _pale, "busy": _busy, "flat": _flat, "text": _text}


def family_face(img: np.ndarray, key: str, family: str, seed: int = 0) -> np.ndarray:
    """Face ``img`` (BGR uint8, named ``key``) in the look of ``family``, same shape and dtype."""
    if family not in _TRANSFORMS:
        raise ValueError(f"unknown art family {family!r}: choose from {', '.join(FAMILIES)}")
    out = _TRANSFORMS[family](np.ascontiguousarray(img), family_rng(key, family, seed))
    return np.ascontiguousarray(out, dtype=np.uint8)


_PACKS: dict[str, ArtPack] = {}


def family_pack(base: str, family: str, seed: int = 0, held_out: bool = False) -> ArtPack:
    """The pack ``base`` with every face in the look of ``family`` (cached). The held-out pack is
    refused unless ``held_out`` (an evaluation of that family, never training)."""
    if base == HELD_OUT_PACK and not held_out:
        raise ValueError("the evaluation pack is never used for training")
    name = f"{base}-{family}{seed}"
    if name not in _PACKS:
        src = builtin_pack(base)
        faces = {k: family_face(v, k, family, seed) for k, v in src.faces.items()}
        for era in (1, 2, 3):
            for kind in ("achievement", "event"):
                fk = f"{kind}-back-{era}"
                faces[fk] = family_face(pack_face(src, fk), fk, family, seed)
        _PACKS[name] = ArtPack(name, faces, dict(src.colours), src.shell, source=f"family:{name}", style=base)
    return _PACKS[name]
