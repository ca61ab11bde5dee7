"""Procedural tile art: three styles that look clearly different from each other.

Recognition must be testable on art it was not tuned on, so the shipped packs differ in colour,
texture and drawing: ``classic`` (painted, earthy, textured), ``bold`` (flat saturated colours, thick
black outlines, big geometric symbols) and ``sketch`` (ink on paper: hatching patterns, no fills).
Every face is drawn deterministically from the style name and the face key. Hex faces are flat-top
hexagons in a 256 x 222 image (corners touching the left and right edges); rectangular tiles are
256 x 256. Images are BGR uint8, as OpenCV uses them.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable

import cv2
import numpy as np

from games.tribes.rules.profile import BoxProfile
from games.tribes.vision.artpack import DEFAULT_COLOURS, DEFAULT_SHELL, HEX_H, HEX_W, SQ, hex_points

STYLES: tuple[str, ...] = ("classic", "bold", "sketch")

RGB = tuple[int, int, int]

# colours are RGB here; converted to BGR when drawn
PALETTES: dict[str, dict[str, RGB]] = {
    "classic": {
        "goat": (142, 186, 92),
        "horse": (196, 150, 92),
        "wheat": (228, 196, 84),
        "gold": (150, 146, 140),
        "incense": (150, 92, 130),
        "exhausted": (120, 104, 90),
        "era1": (140, 96, 60),
        "era2": (92, 140, 80),
        "era3": (222, 136, 52),
        "action": (226, 214, 186),
        "ink": (50, 36, 24),
    },
    "bold": {
        "goat": (40, 200, 210),
        "horse": (235, 80, 40),
        "wheat": (255, 220, 0),
        "gold": (30, 30, 30),
        "incense": (220, 40, 170),
        "exhausted": (70, 70, 78),
        "era1": (120, 60, 20),
        "era2": (20, 150, 60),
        "era3": (255, 120, 0),
        "action": (250, 250, 250),
        "ink": (0, 0, 0),
    },
    "sketch": {
        "goat": (40, 70, 160),
        "horse": (120, 60, 30),
        "wheat": (30, 120, 40),
        "gold": (20, 20, 20),
        "incense": (170, 30, 40),
        "exhausted": (110, 110, 110),
        "era1": (110, 70, 40),
        "era2": (40, 110, 60),
        "era3": (200, 100, 20),
        "action": (245, 240, 228),
        "ink": (30, 30, 40),
    },
}

PIECE_COLOURS: dict[str, dict[str, RGB]] = {
    "classic": dict(DEFAULT_COLOURS),
    "bold": {
        "red": (230, 20, 20),
        "blue": (20, 60, 230),
        "yellow": (255, 225, 0),
        "black": (15, 15, 15),
        "green": (20, 170, 50),
        "white": (250, 250, 250),
        "purple": (140, 40, 180),
        "orange": (255, 130, 0),
    },
    "sketch": {
        "red": (180, 56, 48),
        "blue": (60, 96, 160),
        "yellow": (220, 190, 70),
        "black": (56, 52, 50),
        "green": (70, 130, 70),
        "white": (225, 220, 210),
        "purple": (120, 80, 140),
        "orange": (210, 120, 50),
    },
}
SHELL_COLOURS: dict[str, RGB] = {"classic": DEFAULT_SHELL, "bold": (255, 240, 210), "sketch": (228, 214, 190)}


def _bgr(c: RGB) -> tuple[int, int, int]:
    return (int(c[2]), int(c[1]), int(c[0]))


def _seed(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("/".join(parts).encode()).digest()[:8], "little")


def smooth_noise(h: int, w: int, rng: np.random.Generator, cells: int = 8) -> np.ndarray:
    """Smooth value noise in [-1, 1] (random cells upsampled bicubically)."""
    small = rng.uniform(-1, 1, (cells + 3, cells + 3)).astype(np.float32)
    big = cv2.resize(small, (w + 2 * w // cells, h + 2 * h // cells), interpolation=cv2.INTER_CUBIC)
    oy, ox = h // cells, w // cells
    return np.clip(big[oy : oy + h, ox : ox + w], -1, 1)


def _poly(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int], thick: int = -1) -> None:
    p = np.round(pts * 16).astype(np.int32).reshape(-1, 1, 2)
    if thick < 0:
        cv2.fillPoly(img, [p], colour, cv2.LINE_AA, 4)
    else:
        cv2.polylines(img, [p], True, colour, thick, cv2.LINE_AA, 4)


# --- symbols ---------------------------------------------------------------------------------------
def _meeple(img: np.ndarray, c: tuple[float, float], s: float, colour: tuple[int, int, int], thick: int = -1) -> None:
    """A meeple silhouette of height ``s`` centred at ``c``."""
    x, y = c
    pts = np.array(
        [
            (-0.12, -0.5),
            (0.12, -0.5),
            (0.18, -0.34),
            (0.12, -0.2),
            (0.5, -0.1),
            (0.45, 0.05),
            (0.2, 0.05),
            (0.36, 0.5),
            (0.08, 0.5),
            (0, 0.32),
            (-0.08, 0.5),
            (-0.36, 0.5),
            (-0.2, 0.05),
            (-0.45, 0.05),
            (-0.5, -0.1),
            (-0.12, -0.2),
            (-0.18, -0.34),
        ]
    ) * s + [x, y]
    _poly(img, pts, colour, thick)


def _arrow(img: np.ndarray, c: tuple[float, float], s: float, colour: tuple[int, int, int], thick: int) -> None:
    x, y = c
    cv2.line(img, (int(x - s * 0.45), int(y)), (int(x + s * 0.2), int(y)), colour, max(2, thick), cv2.LINE_AA)
    _poly(img, np.array([(x + s * 0.05, y - s * 0.25), (x + s * 0.5, y), (x + s * 0.05, y + s * 0.25)]), colour)


def _hand(img: np.ndarray, c: tuple[float, float], s: float, colour: tuple[int, int, int]) -> None:
    x, y = c
    cv2.ellipse(img, (int(x), int(y + s * 0.15)), (int(s * 0.28), int(s * 0.3)), 0, 0, 360, colour, -1, cv2.LINE_AA)
    for k, dx in enumerate((-0.21, -0.07, 0.07, 0.21)):
        top = y - s * (0.42 if k in (1, 2) else 0.34)
        cv2.line(
            img, (int(x + dx * s), int(y)), (int(x + dx * s), int(top)), colour, max(2, int(s * 0.11)), cv2.LINE_AA
        )
    cv2.line(
        img,
        (int(x - s * 0.25), int(y + s * 0.2)),
        (int(x - s * 0.45), int(y - s * 0.02)),
        colour,
        max(2, int(s * 0.11)),
        cv2.LINE_AA,
    )


def _lightning(img: np.ndarray, c: tuple[float, float], s: float, colour: tuple[int, int, int]) -> None:
    x, y = c
    pts = np.array([(0.1, -0.5), (-0.25, 0.05), (0.0, 0.05), (-0.1, 0.5), (0.25, -0.08), (0.0, -0.08)]) * s + [x, y]
    _poly(img, pts, colour)


def resource_symbol(
    img: np.ndarray, res: str, c: tuple[float, float], s: float, colour: tuple[int, int, int], style: str
) -> None:
    """Draw the symbol of resource ``res`` (size ``s`` px) at ``c``."""
    x, y = c
    t = max(2, int(s * (0.12 if style == "bold" else 0.07)))
    fill = -1 if style != "sketch" else t
    if style == "bold":  # big geometric symbols
        if res == "goat":
            _poly(img, np.array([(x, y - s / 2), (x + s / 2, y + s / 2), (x - s / 2, y + s / 2)]), colour, fill)
        elif res == "horse":
            cv2.circle(img, (int(x), int(y)), int(s * 0.42), colour, t * 2, cv2.LINE_AA)
        elif res == "wheat":
            for k in (-1, 0, 1):
                cv2.rectangle(
                    img,
                    (int(x + k * s * 0.3 - s * 0.08), int(y - s / 2)),
                    (int(x + k * s * 0.3 + s * 0.08), int(y + s / 2)),
                    colour,
                    -1,
                    cv2.LINE_AA,
                )
        elif res == "gold":
            _poly(img, np.array([(x, y - s / 2), (x + s / 2, y), (x, y + s / 2), (x - s / 2, y)]), colour, fill)
        else:
            for k in (-1, 0, 1):
                pts = np.array(
                    [(x + k * s * 0.28 + s * 0.1 * math.sin(a * 6), y - s / 2 + a * s) for a in np.linspace(0, 1, 20)]
                )
                cv2.polylines(img, [np.round(pts).astype(np.int32)], False, colour, t, cv2.LINE_AA)
        return
    if res == "goat":
        cv2.ellipse(
            img, (int(x), int(y + s * 0.1)), (int(s * 0.22), int(s * 0.3)), 0, 0, 360, colour, fill, cv2.LINE_AA
        )
        for sx in (-1, 1):
            cv2.ellipse(
                img,
                (int(x + sx * s * 0.2), int(y - s * 0.22)),
                (int(s * 0.22), int(s * 0.16)),
                0,
                180 if sx < 0 else 270,
                270 if sx < 0 else 360,
                colour,
                t + 1,
                cv2.LINE_AA,
            )
            cv2.ellipse(
                img,
                (int(x + sx * s * 0.3), int(y - s * 0.02)),
                (int(s * 0.12), int(s * 0.05)),
                sx * 20,
                0,
                360,
                colour,
                fill,
                cv2.LINE_AA,
            )
    elif res == "horse":
        cv2.ellipse(img, (int(x), int(y)), (int(s * 0.32), int(s * 0.4)), 0, 200, 520, colour, t * 2, cv2.LINE_AA)
        for a in (220, 250, 290, 320):
            pa = (x + s * 0.32 * math.cos(math.radians(a + 90)), y + s * 0.4 * math.sin(math.radians(a + 90)))
            cv2.circle(img, (int(pa[0]), int(pa[1])), max(1, t // 2), (255, 255, 255), -1, cv2.LINE_AA)
    elif res == "wheat":
        cv2.line(img, (int(x), int(y + s / 2)), (int(x), int(y - s / 2)), colour, t, cv2.LINE_AA)
        for k in range(4):
            yy = y - s * 0.35 + k * s * 0.17
            for sx in (-1, 1):
                cv2.ellipse(
                    img,
                    (int(x + sx * s * 0.09), int(yy)),
                    (int(s * 0.1), int(s * 0.05)),
                    sx * -35,
                    0,
                    360,
                    colour,
                    fill,
                    cv2.LINE_AA,
                )
    elif res == "gold":
        for dx, dy in ((-0.22, 0.18), (0.22, 0.18), (0.0, -0.12)):
            cx, cy = x + dx * s, y + dy * s
            bar = [(-0.2, 0.12), (0.2, 0.12), (0.13, -0.12), (-0.13, -0.12)]
            _poly(img, np.array([(cx + a * s, cy + b * s) for a, b in bar]), colour, fill)
    else:  # incense
        cv2.ellipse(
            img, (int(x), int(y + s * 0.2)), (int(s * 0.3), int(s * 0.18)), 0, 0, 180, colour, fill, cv2.LINE_AA
        )
        for k in (-1, 0, 1):
            pts = np.array(
                [
                    (x + k * s * 0.12 + s * 0.06 * math.sin(a * 9), y + s * 0.12 - a * s * 0.6)
                    for a in np.linspace(0, 1, 16)
                ]
            )
            cv2.polylines(img, [np.round(pts).astype(np.int32)], False, colour, max(1, t - 1), cv2.LINE_AA)


def _track_symbol(img: np.ndarray, track: str, c: tuple[float, float], s: float, colour: tuple[int, int, int]) -> None:
    if track == "offspring":
        _meeple(img, c, s, colour)
    elif track == "movement":
        _arrow(img, c, s, colour, max(2, int(s * 0.12)))
    elif track == "exploration":
        pts = hex_points(int(s), int(s * 0.87)) + np.array([c[0] - s / 2, c[1] - s * 0.435])
        _poly(img, pts, colour, max(2, int(s * 0.1)))
    else:  # strength: a club
        cv2.line(
            img,
            (int(c[0] - s * 0.3), int(c[1] + s * 0.4)),
            (int(c[0] + s * 0.15), int(c[1] - s * 0.2)),
            colour,
            max(2, int(s * 0.12)),
            cv2.LINE_AA,
        )
        cv2.circle(img, (int(c[0] + s * 0.2), int(c[1] - s * 0.25)), int(s * 0.18), colour, -1, cv2.LINE_AA)


def _hatch(img: np.ndarray, mask: np.ndarray, colour: tuple[int, int, int], pattern: int, spacing: int = 12) -> None:
    """Fill ``mask`` with a hatch pattern (sketch style): 0 lines, 1 cross, 2 dots, 3 waves, 4 diagonal."""
    h, w = mask.shape
    layer = img.copy()
    if pattern in (0, 1):
        for x in range(-h, w, spacing):
            cv2.line(layer, (x, 0), (x + h, h), colour, 2, cv2.LINE_AA)
        if pattern == 1:
            for x in range(0, w + h, spacing):
                cv2.line(layer, (x, 0), (x - h, h), colour, 2, cv2.LINE_AA)
    elif pattern == 2:
        for yy in range(spacing // 2, h, spacing):
            for xx in range((yy // spacing % 2) * spacing // 2, w, spacing):
                cv2.circle(layer, (xx, yy), 2, colour, -1, cv2.LINE_AA)
    elif pattern == 3:
        for yy in range(0, h + spacing, spacing):
            pts = np.array([(x, yy + 4 * math.sin(x / 8)) for x in range(0, w, 4)])
            cv2.polylines(layer, [np.round(pts).astype(np.int32)], False, colour, 2, cv2.LINE_AA)
    else:
        for yy in range(0, h, spacing):
            cv2.line(layer, (0, yy), (w, yy), colour, 2, cv2.LINE_AA)
    m = mask > 0
    img[m] = layer[m]


RESOURCE_ORDER = ("goat", "horse", "wheat", "gold", "incense")


# --- faces -----------------------------------------------------------------------------------------
class Painter:
    """Draws every face of a profile in one style."""

    def __init__(self, style: str, profile: BoxProfile) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r}: choose from {', '.join(STYLES)}")
        self.style = style
        self.profile = profile
        self.pal = PALETTES[style]

    def colour(self, key: str) -> tuple[int, int, int]:
        """BGR colour of a palette entry; keys not in the palette get a stable colour of their own."""
        if key in self.pal:
            return _bgr(self.pal[key])
        rng = np.random.default_rng(_seed(self.style, key))
        hue = int(rng.integers(0, 180))
        hsv = np.uint8([[[hue, 150 if self.style != "sketch" else 200, 200]]])
        b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
        return (int(b), int(g), int(r))

    def _base(self, w: int, h: int, colour: tuple[int, int, int], key: str, texture: float = 1.0) -> np.ndarray:
        rng = np.random.default_rng(_seed(self.style, key, "base"))
        img = np.empty((h, w, 3), np.float32)
        img[:] = colour
        if self.style == "classic":
            n = smooth_noise(h, w, rng, 6) * 22 + smooth_noise(h, w, rng, 24) * 10
            n += rng.normal(0, 4, (h, w)).astype(np.float32)
            img += (n * texture)[..., None]
        elif self.style == "bold":
            img += rng.normal(0, 1.5, (h, w, 1)).astype(np.float32)
        else:  # paper
            img[:] = _bgr((246, 242, 230))
            img += (smooth_noise(h, w, rng, 20) * 5 + rng.normal(0, 3, (h, w)).astype(np.float32))[..., None]
        return np.clip(img, 0, 255).astype(np.uint8)

    def _hex_frame(self, img: np.ndarray, colour: tuple[int, int, int]) -> None:
        ink = _bgr(self.pal["ink"])
        if self.style == "bold":
            _poly(img, hex_points(inset=5), ink, 10)
        elif self.style == "classic":
            shade = tuple(int(v * 0.7) for v in colour)
            _poly(img, hex_points(inset=4), shade, 7)  # type: ignore[arg-type]
        else:
            _poly(img, hex_points(inset=6), colour, 3)
            _poly(img, hex_points(inset=12), colour, 1)

    def resource(self, res: str) -> np.ndarray:
        col = self.colour(res)
        img = self._base(HEX_W, HEX_H, col, f"resource-{res}")
        c = ((HEX_W - 1) / 2, (HEX_H - 1) / 2)
        ink = _bgr(self.pal["ink"])
        idx = self.profile.resources.index(res) if res in self.profile.resources else 0
        if self.style == "sketch":
            mask = np.zeros((HEX_H, HEX_W), np.uint8)
            _poly(mask, hex_points(inset=14), (255, 255, 255))
            _hatch(img, mask, col, idx % 5, 14)
            cv2.circle(img, (int(c[0]), int(c[1])), 58, _bgr((246, 242, 230)), -1, cv2.LINE_AA)
            resource_symbol(img, res, c, 90, col, self.style)
        elif self.style == "bold":
            resource_symbol(img, res, c, 110, ink if res != "gold" else _bgr((250, 200, 40)), self.style)
        else:
            rng = np.random.default_rng(_seed(self.style, res, "deco"))
            for _ in range(14):  # tufts / speckles of a painted landscape
                p = (int(rng.uniform(30, HEX_W - 30)), int(rng.uniform(30, HEX_H - 30)))
                shade = tuple(int(np.clip(v * rng.uniform(0.75, 1.2), 0, 255)) for v in col)
                cv2.circle(img, p, int(rng.uniform(4, 11)), shade, -1, cv2.LINE_AA)  # type: ignore[arg-type]
            cv2.circle(
                img, (int(c[0]), int(c[1])), 62, tuple(min(255, int(v * 1.15) + 20) for v in col), -1, cv2.LINE_AA
            )  # type: ignore[arg-type]
            resource_symbol(img, res, c, 92, ink, self.style)
        self._hex_frame(img, col)
        return img

    def exhausted(self) -> np.ndarray:
        col = self.colour("exhausted")
        img = self._base(HEX_W, HEX_H, col, "exhausted", 1.4)
        ink = _bgr(self.pal["ink"])
        rng = np.random.default_rng(_seed(self.style, "exhausted"))
        if self.style == "bold":
            cv2.line(img, (70, 50), (186, 172), (230, 230, 230), 16, cv2.LINE_AA)
            cv2.line(img, (186, 50), (70, 172), (230, 230, 230), 16, cv2.LINE_AA)
        elif self.style == "sketch":
            mask = np.zeros((HEX_H, HEX_W), np.uint8)
            _poly(mask, hex_points(inset=14), (255, 255, 255))
            _hatch(img, mask, col, 1, 8)
        else:
            for _ in range(7):  # cracks
                p = np.array([rng.uniform(60, 196), rng.uniform(50, 172)])
                pts = [p.copy()]
                for _ in range(6):
                    p = p + rng.normal(0, 14, 2)
                    pts.append(p.copy())
                cv2.polylines(
                    img,
                    [np.round(np.array(pts)).astype(np.int32)],
                    False,
                    tuple(int(v * 0.55) for v in col),
                    2,
                    cv2.LINE_AA,
                )  # type: ignore[arg-type]
        del ink
        self._hex_frame(img, col)
        return img

    def _square(self, key: str, colour: tuple[int, int, int], border: tuple[int, int, int]) -> np.ndarray:
        img = self._base(SQ, SQ, colour, key)
        if self.style == "bold":
            cv2.rectangle(img, (5, 5), (SQ - 6, SQ - 6), _bgr(self.pal["ink"]), 10, cv2.LINE_AA)
        elif self.style == "classic":
            cv2.rectangle(img, (6, 6), (SQ - 7, SQ - 7), border, 12, cv2.LINE_AA)
            cv2.rectangle(img, (14, 14), (SQ - 15, SQ - 15), tuple(min(255, v + 40) for v in border), 2, cv2.LINE_AA)  # type: ignore[arg-type]
        else:
            cv2.rectangle(img, (8, 8), (SQ - 9, SQ - 9), border, 3, cv2.LINE_AA)
            cv2.rectangle(img, (16, 16), (SQ - 17, SQ - 17), border, 1, cv2.LINE_AA)
        return img

    def _text(self, img: np.ndarray, text: str, y: int, colour: tuple[int, int, int], scale: float = 0.8) -> None:
        safe = text.encode("ascii", errors="replace").decode("ascii")
        font = cv2.FONT_HERSHEY_DUPLEX if self.style != "sketch" else cv2.FONT_HERSHEY_SCRIPT_SIMPLEX
        thick = 2 if self.style == "bold" else 1
        (tw, _), _ = cv2.getTextSize(safe, font, scale, thick)
        while tw > img.shape[1] - 40 and scale > 0.35:
            scale *= 0.9
            (tw, _), _ = cv2.getTextSize(safe, font, scale, thick)
        cv2.putText(img, safe, ((img.shape[1] - tw) // 2, y), font, scale, colour, thick, cv2.LINE_AA)

    def action(self, tile_id: str) -> np.ndarray:
        act = self.profile.action_tile(tile_id)
        col = _bgr(self.pal["action"])
        ink = _bgr(self.pal["ink"])
        accent = {
            "offspring": self.colour("goat"),
            "movement": self.colour("horse"),
            "exploration": self.colour("incense"),
        }[act.action]
        img = self._square(f"action-{tile_id}", col, accent)
        big = 120 if act.hand else 150
        c = (128.0, 118.0 if act.hand else 128.0)
        if self.style == "bold":
            cv2.circle(img, (128, int(c[1])), big // 2 + 14, accent, -1, cv2.LINE_AA)
        if act.action == "offspring":
            _meeple(
                img,
                (c[0] - big * 0.18, c[1]),
                big * 0.7,
                ink if self.style != "sketch" else accent,
                -1 if self.style != "sketch" else 3,
            )
            _meeple(
                img,
                (c[0] + big * 0.28, c[1] + big * 0.12),
                big * 0.45,
                ink if self.style != "sketch" else accent,
                -1 if self.style != "sketch" else 3,
            )
        elif act.action == "movement":
            _arrow(img, c, big, ink if self.style != "sketch" else accent, 14)
        else:
            pts = hex_points(int(big * 0.8), int(big * 0.7)) + np.array([c[0] - big * 0.4, c[1] - big * 0.35])
            _poly(img, pts, ink if self.style != "sketch" else accent, 8)
            cv2.putText(img, "?", (int(c[0] - 16), int(c[1] + 18)), cv2.FONT_HERSHEY_DUPLEX, 1.6, ink, 3, cv2.LINE_AA)
        if act.hand:
            hc = (205.0, 205.0) if self.style != "bold" else (128.0, 212.0)
            _hand(img, hc, 62, ink if self.style != "sketch" else self.colour("era3"))
        name = act.name.get("en") or next(iter(act.name.values()))
        self._text(img, name.split(" ")[0], 40, ink, 0.8)
        return img

    def event(self, event_id: str) -> np.ndarray:
        ev = self.profile.event(event_id)
        era = self.colour(f"era{ev.era}")
        ink = _bgr(self.pal["ink"])
        light = tuple(min(255, int(v * 0.45 + 150)) for v in era)
        img = self._square(f"event-{event_id}", light if self.style != "bold" else era, era)  # type: ignore[arg-type]
        rng = np.random.default_rng(_seed(self.style, event_id, "glyph"))
        # a unique glyph: a random star polygon
        k = int(rng.integers(5, 10))
        radii = rng.uniform(30, 70, 2 * k)
        radii[1::2] *= rng.uniform(0.3, 0.6)
        ang = np.linspace(0, 2 * math.pi, 2 * k, endpoint=False) + rng.uniform(0, 1)
        pts = np.column_stack([128 + radii * np.cos(ang), 138 + radii * np.sin(ang)])
        _poly(
            img,
            pts,
            ink if self.style != "classic" else tuple(int(v * 0.5) for v in era),
            -1 if self.style != "sketch" else 3,
        )  # type: ignore[arg-type]
        _lightning(img, (36, 218), 38, ink)
        for _ in range(int(rng.integers(2, 5))):
            p = (int(rng.uniform(40, 216)), int(rng.uniform(190, 225)))
            cv2.circle(img, p, int(rng.uniform(5, 10)), era if self.style != "bold" else ink, -1, cv2.LINE_AA)
        name = ev.name.get("en") or next(iter(ev.name.values()))
        self._text(img, name, 46, ink, 0.9)
        roman = "I" * ev.era
        cv2.putText(img, roman, (206, 236), cv2.FONT_HERSHEY_DUPLEX, 0.9, ink, 2, cv2.LINE_AA)
        return img

    def achievement(self, ach_id: str) -> np.ndarray:
        ach = self.profile.achievement(ach_id)
        era = self.colour(f"era{ach.era}")
        ink = _bgr(self.pal["ink"])
        res_col = self.colour(ach.resource)
        bg = tuple(min(255, int(v * 0.3 + 175)) for v in era) if self.style != "bold" else _bgr((250, 250, 250))
        img = self._square(f"achievement-{ach_id}", bg, era)  # type: ignore[arg-type]
        if self.style == "bold":
            cv2.rectangle(img, (10, 10), (SQ - 11, 60), era, -1)
        name = ach.name.get("en") or next(iter(ach.name.values()))
        self._text(img, name, 44, ink if self.style != "bold" else (255, 255, 255), 0.85)
        # what it needs: era x resource
        for k in range(ach.era):
            x = 128 + (k - (ach.era - 1) / 2) * 62
            cv2.circle(img, (int(x), 104), 27, res_col, -1 if self.style != "sketch" else 3, cv2.LINE_AA)
            resource_symbol(img, ach.resource, (x, 104), 38, ink if self.style != "sketch" else res_col, self.style)
        _track_symbol(img, ach.track, (210, 160), 40, ink)
        cv2.putText(img, "+1", (150, 172), cv2.FONT_HERSHEY_DUPLEX, 0.9, ink, 2, cv2.LINE_AA)
        # the stone slots along the bottom (where the layout's default stone slots lie)
        n = len(ach.slots)
        for i, slot in enumerate(ach.slots):
            x = 128 + (i - (n - 1) / 2) * (224 / max(n, 4))
            cv2.circle(img, (int(x), 206), 22, ink, 2, cv2.LINE_AA)
            cv2.putText(img, str(slot.vp), (int(x) - 8, 216), cv2.FONT_HERSHEY_DUPLEX, 0.85, ink, 2, cv2.LINE_AA)
            if slot.lightning:
                _lightning(img, (x + 16, 182), 20, self.colour("era3") if self.style != "sketch" else ink)
        return img

    def achievement_back(self, era: int) -> np.ndarray:
        col = self.colour(f"era{era}")
        img = self._square(f"achievement-back-{era}", col, tuple(int(v * 0.6) for v in col))  # type: ignore[arg-type]
        self._text(img, "I" * era, 150, (255, 255, 255) if self.style != "sketch" else col, 3.0)
        return img

    def event_back(self, era: int) -> np.ndarray:
        col = self.colour(f"era{era}")
        img = self._square(f"event-back-{era}", tuple(int(v * 0.8) for v in col), col)  # type: ignore[arg-type]
        _lightning(img, (128, 120), 110, (255, 255, 255) if self.style != "sketch" else col)
        self._text(img, "I" * era, 232, (255, 255, 255) if self.style != "sketch" else col, 1.2)
        return img


def draw_faces(style: str, profile: BoxProfile) -> dict[str, np.ndarray]:
    """Every face (required and optional) of ``profile`` drawn in ``style``."""
    p = Painter(style, profile)
    faces: dict[str, np.ndarray] = {}
    makers: list[tuple[str, Callable[[], np.ndarray]]] = []
    for r in profile.resources:
        makers.append((f"resource-{r}", lambda r=r: p.resource(r)))
    makers.append(("exhausted", p.exhausted))
    for t in profile.action_tiles:
        makers.append((f"action-{t.id}", lambda t=t: p.action(t.id)))
    for e in profile.events:
        makers.append((f"event-{e.id}", lambda e=e: p.event(e.id)))
    for a in profile.achievements:
        makers.append((f"achievement-{a.id}", lambda a=a: p.achievement(a.id)))
    for era in (1, 2, 3):
        makers.append((f"achievement-back-{era}", lambda era=era: p.achievement_back(era)))
        makers.append((f"event-back-{era}", lambda era=era: p.event_back(era)))
    for key, make in makers:
        faces[key] = make()
    return faces
