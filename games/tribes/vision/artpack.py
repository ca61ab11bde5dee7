"""Art packs: the pictures of every tile face and the colours of the wooden pieces.

A pack is a folder with one image per tile face and a ``pack.json``::

    {"format": "tribes-art-pack", "version": 1, "name": "my box",
     "colours": {"red": [196, 40, 36], "blue": [40, 84, 176], ...},   # player piece colours, RGB
     "shell": [236, 222, 196],                                          # shell colour, RGB
     "files": {"resource-goat": "IMG_2231.jpg"}}                        # optional: other file names

Face images are found by name, ``<face>.png`` (or .jpg/.jpeg/.webp/.bmp), unless ``files`` names
another file. Required faces, for the box profile in use: ``resource-<id>`` for each resource,
``exhausted`` (the back of a landscape tile), ``action-<id>`` for the 6 action tiles,
``event-<id>`` for every event and ``achievement-<id>`` for every achievement. Optional:
``achievement-back-<era>`` and ``event-back-<era>`` (face-down tiles; drawn plainly when missing).
Landscape faces show a flat-top hexagon whose corners touch the image's left and right edges; the
others fill their image. :func:`load_pack` names the first missing or unreadable file.

:func:`export_pack` writes any pack as a folder to copy and edit. (Three procedural packs for the
synthetic table — ``classic``, ``bold``, ``sketch`` — are tooling: ``games.tribes.sim.packs``.)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datafile import read_json
from games.tribes.rules.profile import BoxProfile, default_profile
from vision.errors import ArtPackError, ImageTooLargeError
from vision.images import read_image

PACK_FORMAT = "tribes-art-pack"
PACK_VERSION = 1
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")

RGB = tuple[int, int, int]

HEX_W, HEX_H = 256, 222
"""Size of a landscape face image: a flat-top hexagon whose corners touch the left and right edges."""
SQ = 256
"""Side of a square face image (action, event, achievement tiles)."""
DEFAULT_COLOURS: Mapping[str, RGB] = {
    "red": (196, 40, 36),
    "blue": (40, 84, 176),
    "yellow": (236, 196, 36),
    "black": (40, 38, 36),
    "green": (56, 140, 60),
    "white": (232, 228, 216),
    "purple": (110, 60, 140),
    "orange": (230, 120, 30),
}
"""Piece colours (RGB) for packs that name none: the ``classic`` procedural pack's."""
DEFAULT_SHELL: RGB = (236, 222, 196)


def hex_points(w: int = HEX_W, h: int = HEX_H, inset: float = 0.0) -> np.ndarray:
    """Corners of the flat-top hexagon inscribed in a w x h image."""
    r = w / 2 - inset
    cx, cy = (w - 1) / 2, (h - 1) / 2
    pts = [(cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k))) for k in range(6)]
    return np.array(pts, np.float64)
"""Piece colours used when a pack does not name a player's colour."""


def required_faces(profile: BoxProfile) -> list[tuple[str, str]]:
    """``(face key, what it is)`` for every face a pack must have for ``profile``."""
    out = [(f"resource-{r}", f"the face of the {r} tiles") for r in profile.resources]
    out.append(("exhausted", "the back of a landscape tile (exhausted)"))
    out += [(f"action-{t.id}", f"action tile {t.id}") for t in profile.action_tiles]
    out += [(f"event-{e.id}", f"event tile {e.id}") for e in profile.events]
    out += [(f"achievement-{a.id}", f"achievement tile {a.id}") for a in profile.achievements]
    return out


def optional_faces() -> list[str]:
    """Face keys a pack may add: the backs of face-down achievement and event tiles."""
    return [f"achievement-back-{e}" for e in (1, 2, 3)] + [f"event-back-{e}" for e in (1, 2, 3)]


@dataclass
class ArtPack:
    """Tile faces (BGR uint8 images by face key) and piece colours (RGB by colour name)."""

    name: str
    faces: dict[str, np.ndarray]
    colours: dict[str, RGB] = field(default_factory=lambda: dict(DEFAULT_COLOURS))
    shell: RGB = DEFAULT_SHELL
    source: str = ""
    style: str = ""

    def face(self, key: str) -> np.ndarray:
        """The image of face ``key``; :class:`ArtPackError` when the pack has none."""
        img = self.faces.get(key)
        if img is not None:
            return img
        raise ArtPackError(self.source or self.name, key, "missing: the pack has no image for this face")

    def colour(self, name: str) -> RGB:
        """RGB of a player colour: the pack's, else the default table, else a parsed ``#rrggbb``."""
        if name in self.colours:
            return self.colours[name]
        if name in DEFAULT_COLOURS:
            return DEFAULT_COLOURS[name]
        text = name.strip().lstrip("#")
        if len(text) == 6:
            try:
                return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
            except ValueError:
                pass
        raise ArtPackError(
            self.source or self.name,
            "colours",
            f"no colour for players called {name!r}: add it to pack.json colours or use #rrggbb",
        )

    def check(self, profile: BoxProfile) -> None:
        """Raise :class:`ArtPackError` for the first face ``profile`` needs that the pack lacks."""
        for key, what in required_faces(profile):
            if key not in self.faces:
                raise ArtPackError(self.source or self.name, key, f"missing: no image for {what}")

    def to_json(self) -> dict[str, Any]:
        """The ``pack.json`` document of this pack."""
        return {
            "format": PACK_FORMAT,
            "version": PACK_VERSION,
            "name": self.name,
            "colours": {k: list(v) for k, v in self.colours.items()},
            "shell": list(self.shell),
        }


def _rgb(val: Any, where: str, source: str) -> RGB:
    if (
        not isinstance(val, list)
        or len(val) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in val)
    ):
        raise ArtPackError(source, where, f"must be [r, g, b] with integers 0-255, got {json.dumps(val)[:40]}")
    return (val[0], val[1], val[2])


def load_pack(folder: str | Path, profile: BoxProfile | None = None) -> ArtPack:
    """Read and check a pack folder for ``profile``; errors name the folder, the face and why."""
    root = Path(folder)
    src = str(root)
    prof = profile or default_profile()
    if not root.is_dir():
        raise ArtPackError(src, "", "is not a folder (an art pack is a folder of images with a pack.json)")
    meta_path = root / "pack.json"
    meta: dict[str, Any] = {}
    if meta_path.exists():
        meta = read_json(meta_path, "the pack description", ArtPackError)
        if not isinstance(meta, dict):
            raise ArtPackError(str(meta_path), "(top level)", "must be a JSON object")
        if meta.get("format", PACK_FORMAT) != PACK_FORMAT:
            raise ArtPackError(str(meta_path), "format", f"must be {PACK_FORMAT!r}, got {meta.get('format')!r}")
    colours = dict(DEFAULT_COLOURS)
    raw_colours = meta.get("colours", {})
    if not isinstance(raw_colours, dict):
        raise ArtPackError(str(meta_path), "colours", "must be an object of colour name -> [r, g, b]")
    for k, v in raw_colours.items():
        colours[k] = _rgb(v, f"colours.{k}", str(meta_path))
    shell = _rgb(meta["shell"], "shell", str(meta_path)) if "shell" in meta else (236, 222, 196)
    files = meta.get("files", {})
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise ArtPackError(str(meta_path), "files", "must be an object of face key -> file name")
    faces: dict[str, np.ndarray] = {}
    wanted = required_faces(prof)
    for key in [k for k, _ in wanted] + optional_faces():
        path = _find(root, key, files)
        if path is None:
            continue
        try:
            img = read_image(path)
        except ImageTooLargeError as exc:
            raise ArtPackError(src, key, f"image {path.name}: {str(exc).removeprefix(f'{path}: ')}") from None
        if img is None:
            raise ArtPackError(src, key, f"cannot read image {path.name} (not an image OpenCV can decode)")
        if min(img.shape[:2]) < 16:
            raise ArtPackError(src, key, f"image {path.name} is too small ({img.shape[1]} x {img.shape[0]} px)")
        faces[key] = img
    pack = ArtPack(str(meta.get("name") or root.name), faces, colours, shell, source=src)
    for key, what in wanted:
        if key not in faces:
            names = files.get(key) or f"{key}.png (or .jpg)"
            raise ArtPackError(src, key, f"missing: no image {names} for {what}")
    return pack


def _find(root: Path, key: str, files: Mapping[str, str]) -> Path | None:
    if key in files:
        p = root / files[key]
        if not p.exists():
            raise ArtPackError(str(root / "pack.json"), f"files.{key}", f"names {files[key]}, which does not exist")
        return p
    for suffix in IMAGE_SUFFIXES:
        p = root / f"{key}{suffix}"
        if p.exists():
            return p
    return None


def export_pack(pack: ArtPack, folder: str | Path) -> Path:
    """Write ``pack`` as a folder (PNG per face + pack.json); returns the folder."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    for key, img in sorted(pack.faces.items()):
        if not cv2.imwrite(str(root / f"{key}.png"), img):
            raise ArtPackError(str(root), key, "could not write the image")
    (root / "pack.json").write_text(json.dumps(pack.to_json(), indent=1) + "\n", encoding="utf-8")
    return root
