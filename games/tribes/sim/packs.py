"""The procedural art packs of the synthetic table (``classic``, ``bold``, ``sketch``): every tile face
drawn by :mod:`games.tribes.sim.packart`, for the renderer, training, evaluation and the demo."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from games.tribes.rules.profile import BoxProfile, default_profile
from games.tribes.sim.packart import PIECE_COLOURS, SHELL_COLOURS, STYLES, Painter, draw_faces
from games.tribes.vision.artpack import ArtPack, load_pack
from vision.errors import ArtPackError


@cache
def _builtin(style: str, profile: BoxProfile) -> ArtPack:
    return ArtPack(
        name=style,
        faces=draw_faces(style, profile),
        colours=dict(PIECE_COLOURS[style]),
        shell=SHELL_COLOURS[style],
        source=f"builtin:{style}",
        style=style,
    )


def builtin_pack(style: str, profile: BoxProfile | None = None) -> ArtPack:
    """A procedural pack (``classic``, ``bold`` or ``sketch``) for ``profile`` (cached)."""
    if style not in STYLES:
        raise ArtPackError(f"builtin:{style}", "", f"no such built-in pack: choose from {', '.join(STYLES)}")
    return _builtin(style, profile or default_profile())


def resolve_pack(spec: str | Path | None, profile: BoxProfile | None = None) -> ArtPack:
    """A built-in pack by name (default ``classic``) or a pack folder."""
    if spec is None:
        return builtin_pack("classic", profile)
    if str(spec) in STYLES:
        return builtin_pack(str(spec), profile)
    return load_pack(spec, profile)


def face(pack: ArtPack, key: str) -> np.ndarray:
    """The image of face ``key``; a face-down back the pack lacks is drawn plainly (and kept)."""
    img = pack.faces.get(key)
    if img is not None:
        return img
    if key.startswith(("achievement-back-", "event-back-")):
        era = int(key.rsplit("-", 1)[1])
        painter = Painter("classic", default_profile())
        img = painter.achievement_back(era) if key.startswith("achievement") else painter.event_back(era)
        pack.faces[key] = img
        return img
    return pack.face(key)
