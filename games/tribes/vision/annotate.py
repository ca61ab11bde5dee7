"""The annotated view: what an Observation says, drawn on the frame it was read from.

Kept apart from reading (the readers never draw): :func:`draw` takes a frame, the observation and
the registration and returns a new picture with hex outlines (tiles solid, empty hexes thin),
labels (resource or ``exh``, members as ``colour x n``), confidences (a fact below 0.8 is drawn in
orange, below 0.5 in red), the row slots with their tiles and shells, the achievement positions with
their stones, the arrow tokens (an arrow from the lower to the upper position, with the colour's
name), the track markers and the shell counts per seat. Unregistered frames get a banner.
For the web page and for debugging.
"""

from __future__ import annotations

import cv2
import numpy as np

from games.tribes.vision.layout import TRACK_NAMES
from games.tribes.vision.observation import Observation
from games.tribes.vision.regions import Regions
from vision.layout import rect_corners
from vision.registration import Registration

FONT = cv2.FONT_HERSHEY_SIMPLEX
GOOD, DOUBT, BAD, EMPTY_COL = (80, 220, 80), (0, 165, 255), (40, 40, 230), (170, 170, 170)
SHORT = {"goat": "goa", "horse": "hrs", "wheat": "wht", "gold": "gld", "incense": "inc"}


def _conf_colour(conf: float) -> tuple[int, int, int]:
    return GOOD if conf >= 0.8 else DOUBT if conf >= 0.5 else BAD


def _poly(
    img: np.ndarray, reg: Registration, pts_mm: list[tuple[float, float]], colour: tuple[int, int, int], thickness: int
) -> None:
    px = reg.project(np.asarray(pts_mm, np.float64))
    cv2.polylines(img, [np.round(px * 4).astype(np.int32)], True, colour, thickness, cv2.LINE_AA, shift=2)


def _text(
    img: np.ndarray,
    reg: Registration,
    at_mm: tuple[float, float],
    text: str,
    colour: tuple[int, int, int],
    scale: float = 0.38,
    dy: float = 0.0,
) -> None:
    x, y = reg.project(np.asarray([at_mm], np.float64))[0]
    (w, h), _ = cv2.getTextSize(text, FONT, scale, 1)
    org = (int(x - w / 2), int(y + h / 2 + dy))
    cv2.putText(img, text, org, FONT, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(img, text, org, FONT, scale, colour, 1, cv2.LINE_AA)


def draw(frame: np.ndarray, obs: Observation, regions: Regions, reg: Registration | None) -> np.ndarray:
    """A copy of ``frame`` annotated with ``obs`` (see the module docstring)."""
    img = frame.copy()
    if not obs.registered or reg is None:
        cv2.rectangle(img, (0, 0), (img.shape[1], 36), (0, 0, 0), -1)
        seen = ", ".join(map(str, obs.markers)) or "none"
        cv2.putText(img, f"table not found (markers seen: {seen})", (10, 25), FONT, 0.7, BAD, 2, cv2.LINE_AA)
        return img
    lay = regions.layout
    if not obs.settled:
        cv2.rectangle(img, (0, 0), (img.shape[1], 36), (0, 0, 0), -1)
        cv2.putText(img, "moving - not read", (10, 25), FONT, 0.7, DOUBT, 2, cv2.LINE_AA)
    for m in lay.markers:
        col = GOOD if m.id in obs.markers else BAD
        _poly(img, reg, m.corners(), col, 2)
    # land
    for h in obs.hexes:
        corners = lay.hex_corners(h.seat, h.hex)
        c = lay.hex_center(h.seat, h.hex)
        if not h.tile:
            _poly(img, reg, corners, EMPTY_COL if h.tile_conf >= 0.8 else _conf_colour(h.tile_conf), 1)
            continue
        conf = min(h.tile_conf, h.resource_conf)
        _poly(img, reg, corners, _conf_colour(conf), 2)
        label = "exh" if h.exhausted else SHORT.get(h.resource or "", (h.resource or "?")[:3])
        _text(img, reg, c, label, _conf_colour(conf), dy=-6)
        if h.members:
            n = sum(h.members.values())
            _text(img, reg, c, f"x{n}", _conf_colour(h.members_conf), dy=7)
    # row
    for s in obs.row:
        c = lay.row_slot(s.slot)
        corners = rect_corners(c, lay.action_size, lay.row_rotation)
        if s.tile is None:
            _poly(img, reg, corners, EMPTY_COL, 1)
            continue
        _poly(img, reg, corners, _conf_colour(s.tile_conf), 2)
        _text(img, reg, c, s.tile, _conf_colour(s.tile_conf), 0.32, dy=-8)
        if s.shells:
            _text(img, reg, c, f"{s.shells}s", _conf_colour(s.shells_conf), 0.36, dy=8)
    # board
    for b in obs.board:
        c = lay.board_tile(b.era, b.col)
        corners = rect_corners(c, lay.achievement_size, lay.board_rotation)
        _poly(img, reg, corners, _conf_colour(b.tile_conf) if b.tile else EMPTY_COL, 1)
        _text(img, reg, c, (b.tile or "down")[:7], _conf_colour(b.tile_conf), 0.3, dy=-10)
        for k, st in enumerate(b.stones):
            if st is not None:
                p = lay.stone_slot(b.era, b.col, k)
                x, y = reg.project(np.asarray([p], np.float64))[0]
                cv2.circle(img, (int(x), int(y)), 5, _conf_colour(b.stones_conf), 1, cv2.LINE_AA)
    # arrow tokens
    for a in obs.arrows:
        lo, up = lay.board_tile(*a.lower), lay.board_tile(*a.upper)
        ends = [(lo[0] + (up[0] - lo[0]) * f, lo[1] + (up[1] - lo[1]) * f) for f in (0.35, 0.65)]
        (x0, y0), (x1, y1) = reg.project(np.asarray(ends, np.float64))
        cv2.arrowedLine(img, (int(x0), int(y0)), (int(x1), int(y1)), _conf_colour(a.conf), 2, cv2.LINE_AA, 0, 0.3)
        _text(img, reg, lay.arrow_position(a.lower, a.upper)[0], a.colour, _conf_colour(a.conf), 0.3, dy=12)
    # tracks
    counts = regions.track_counts
    colours = list(dict.fromkeys(t.colour for t in obs.tracks))
    for t in obs.tracks:
        if t.track not in TRACK_NAMES or t.space >= counts.get(t.track, 0):
            continue
        p = regions.track_spaces(t.track)[t.space]
        off = lay.marker_offsets[colours.index(t.colour) % len(lay.marker_offsets)]
        x, y = reg.project(np.asarray([(p[0] + off[0], p[1] + off[1])], np.float64))[0]
        cv2.circle(img, (int(x), int(y)), 7, _conf_colour(t.conf), 2, cv2.LINE_AA)
    # shells per seat
    for s in obs.shells:
        seat = lay.seats[s.seat]
        _text(
            img,
            reg,
            seat.shells_center,
            f"{s.count} shells",
            _conf_colour(s.conf),
            0.45,
            dy=-float(seat.shells_radius) - 8,
        )
    return img
