"""Scoring the camera pipeline on rendered tables: sessions as a user would set them up.

Shared by the evaluation (``benchmarks/vision_eval.py``, held-out pack and cameras) and the tuning
of the recognizer's settings on the training packs (``models/tune.py``). A *session* is one user's
table: one camera pose, one light, one table texture, one game. :func:`enroll_session` enrolls it as
a user would (setup photo, a photo with one tile of each missing kind, capture-sheet photos of the
events and achievements); :func:`score` compares an observation with the ground truth, fact by
fact, and counts what was read where nothing lies (phantom tiles, members and row shells).

Conditions of a session (:func:`session_conditions`): the camera pose and lens, the light, the
table texture, the sensor noise, and ``drift``: None for a *steady* session (one light all game,
each frame with a little jitter: ±150 K, ±5 % exposure), or a :class:`Drift` for a *drifting* one,
where the room's light changes during the game (daylight fading, a lamp switched on) and the
camera's auto exposure and auto white balance follow it. :func:`frame_conditions` gives each frame's
light and camera effects. In a drifting session the light moves along a smooth step, within a
window of the game (:func:`session_drift`), from the starting light — the one the session is
enrolled under — to another: colour temperature by 500–1500 K either way (within 2700–6500 K),
exposure by a factor of 0.6–1.5, the light's direction by up to ±60° azimuth and ±15° elevation,
its hot spot (and glare spot) by up to a quarter of the table, and a new unevenness (0–0.4). The
camera undoes 40–90 % of the change in brightness (gain 0.5–2) and 40–90 % of the change in colour
cast (channel gains 0.6–1.6, green kept at 1, plus a wander of its own of up to ±4 %), 3–12 % of
the session late. The same small per-frame jitter is drawn on top, from the same random numbers as
in a steady session. ``piles``: how members stand on a hex in the session's renders
(:data:`games.tribes.sim.scene.PILES`; ``"fixed"`` by default, ``"varied"``: a ring, a heap or a
grid per hex, up to two members leaning or lying on a hex of three or more), for the session's
:class:`~games.tribes.sim.render.Renderer` (``Renderer(..., piles=cond["piles"])``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from games.tribes.sim.render import Renderer
from games.tribes.sim.scene import check_piles
from games.tribes.sim.splits import EVAL_FOV, EVAL_SEED_BASE
from games.tribes.vision.artpack import ArtPack
from games.tribes.vision.enrollment import Enroller, Enrollment, labels_from_state, labels_from_table
from games.tribes.vision.observation import Observation
from games.tribes.vision.photopack import cut_from_sheet
from games.tribes.vision.table import LandTile, TableModel
from sim.camera import Camera
from sim.effects import CHANNEL_GAIN_RANGE, GAIN_RANGE, Effects, EffectsApplier
from sim.lighting import MAX_KELVIN, MIN_KELVIN, Light, kelvin_rgb
from sim.textures import TEXTURES
from vision.errors import CameraError
from vision.markers import capture_page


# --- conditions -------------------------------------------------------------------------------------------
def session_conditions(
    s: int,
    n: int,
    layout: Any,
    seed_base: int = EVAL_SEED_BASE,
    fov_bands: tuple[tuple[float, float], ...] = (EVAL_FOV,),
    drift: bool = False,
    piles: str = "fixed",
) -> dict[str, Any]:
    """Camera, light, effects range and texture of session ``s`` of ``n`` (tilt and colour
    temperature stratified so that every bin is covered), and ``drift``: the session's light
    changing during the game (:func:`session_drift`, drawn from random numbers of its own, so the
    other conditions are those of the steady session), or None for a steady session; ``piles``
    (:data:`~games.tribes.sim.scene.PILES`) is stored as it is (it draws no random numbers)."""
    check_piles(piles)
    rng = np.random.default_rng([seed_base, s])
    tilt = float(np.clip((s + rng.uniform(0.1, 0.9)) / n * 35.0, 0.0, 35.0))
    perm = np.random.default_rng([seed_base, 99]).permutation(n)
    kelvin = float(2700 + (perm[s] + rng.uniform(0.1, 0.9)) / n * 3800)
    fov = float(rng.uniform(*fov_bands[int(rng.integers(0, len(fov_bands)))]))
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
    return {
        "camera": cam,
        "light": light,
        "texture": TEXTURES[s % len(TEXTURES)],
        "noise": float(rng.uniform(1, 6)),
        "drift": session_drift(light, (w, h), np.random.default_rng([seed_base, s, 31])) if drift else None,
        "piles": piles,
    }


DRIFT_MODES = ("off", "half", "all")
"""Which sessions of a set drift: none, every other one (the odd ones), all."""


def session_drifts(s: int, mode: str) -> bool:
    """Whether session ``s`` drifts under ``mode`` (:data:`DRIFT_MODES`)."""
    if mode not in DRIFT_MODES:
        raise ValueError(f"drift must be one of {', '.join(DRIFT_MODES)}, got {mode!r}")
    return mode == "all" or (mode == "half" and s % 2 == 1)


@dataclass(frozen=True)
class Drift:
    """How a session's light changes during the game, and how the camera follows it.

    ``light``: the light at the end of the change (the session's starting light with another colour
    temperature, exposure, direction, hot spot and glare spot, and unevenness). The light moves
    along a smooth step from ``start`` to ``end`` (shares of the session: 0 = its first frame, 1 =
    its last). The camera's auto exposure undoes ``exposure_follow`` of the change in brightness and
    its auto white balance ``white_follow`` of the change in colour cast, both ``lag`` (a share of
    the session) late; ``white_error`` (B, G, R) is the white balance's own wander, reached at the
    end of the session."""

    light: Light
    start: float
    end: float
    lag: float
    exposure_follow: float
    white_follow: float
    white_error: tuple[float, float, float]

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end <= 1:
            raise ValueError(f"drift window must be 0 <= start < end <= 1, got {self.start:g}-{self.end:g}")
        if not 0 <= self.lag <= 1 or not 0 <= self.exposure_follow <= 1 or not 0 <= self.white_follow <= 1:
            raise ValueError("drift lag and follow shares must be 0-1")

    def weight(self, t: float) -> float:
        """How far the light has moved at ``t`` (share of the session): 0 before ``start``, 1 after
        ``end``, a smooth step between."""
        return smoothstep((t - self.start) / (self.end - self.start))

    def light_at(self, light: Light, t: float) -> Light:
        """The room's light at ``t``, moving from ``light`` (the starting one) to :attr:`light`."""
        w = self.weight(t)
        if w == 0.0:
            return light
        end = self.light

        def mix(a: float, b: float) -> float:
            return a + (b - a) * w

        def mix2(a: tuple[float, float] | None, b: tuple[float, float] | None) -> tuple[float, float] | None:
            return None if a is None or b is None else (mix(a[0], b[0]), mix(a[1], b[1]))

        turn = (end.azimuth - light.azimuth + 180.0) % 360.0 - 180.0  # the short way round
        return replace(
            light,
            kelvin=float(np.clip(mix(light.kelvin, end.kelvin), MIN_KELVIN, MAX_KELVIN)),
            exposure=math.exp(mix(math.log(light.exposure), math.log(end.exposure))),
            azimuth=(light.azimuth + turn * w) % 360.0,
            elevation=mix(light.elevation, end.elevation),
            unevenness=mix(light.unevenness, end.unevenness),
            hotspot=mix2(light.hotspot, end.hotspot),
            glare_at=mix2(light.glare_at, end.glare_at),
        )

    def camera_gains(self, light: Light, t: float) -> tuple[float, tuple[float, float, float]]:
        """The camera's auto-exposure gain and white-balance gains (B, G, R) at ``t``: the share
        they follow of the change from ``light`` (the starting one) to the light they saw ``lag``
        earlier, and the white balance's own wander."""
        seen = self.light_at(light, max(t - self.lag, 0.0))
        c0, c1 = cast(light), cast(seen)
        luma = np.array([0.114, 0.587, 0.299])  # B, G, R
        gain = ((light.exposure * float(luma @ c0)) / (seen.exposure * float(luma @ c1))) ** self.exposure_follow
        wb = (c0 / c1) ** self.white_follow
        wb = wb / wb[1]  # the white balance keeps green
        wb = wb * (1.0 + np.array(self.white_error) * smoothstep(t))
        b, g, r = (float(v) for v in np.clip(wb, *CHANNEL_GAIN_RANGE))
        return float(np.clip(gain, *GAIN_RANGE)), (b, g, r)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "light": self.light.to_dict(),
            "start": self.start,
            "end": self.end,
            "lag": self.lag,
            "exposure_follow": self.exposure_follow,
            "white_follow": self.white_follow,
            "white_error": list(self.white_error),
        }


def smoothstep(x: float) -> float:
    """0 below 0, 1 above 1, and a smooth S between (slope 0 at both ends, at most 1.5)."""
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def cast(light: Light) -> np.ndarray:
    """The colour cast (B, G, R) ``light`` leaves on a rendered frame (as :func:`sim.lighting.light_field`
    tints it: the black body's colour, partly white-balanced, brightest channel 1)."""
    tint = kelvin_rgb(light.kelvin) ** (1.0 - light.white_balance)
    tint = tint / tint.max()
    return np.array([tint[2], tint[1], tint[0]])


def session_drift(light: Light, table: tuple[float, float], rng: np.random.Generator) -> Drift:
    """A drift of the session's ``light`` on a ``table`` (w, h mm), drawn from ``rng``: see the
    module docstring for the ranges."""
    w, h = table
    step = float(rng.uniform(500, 1500)) * (1 if rng.random() < 0.5 else -1)
    if not MIN_KELVIN <= light.kelvin + step <= MAX_KELVIN:
        step = -step  # 3800 K of range: the other way always fits
    exposure = float(np.clip(light.exposure * math.exp(rng.uniform(math.log(0.6), math.log(1.5))), 0.2, 3.0))
    turn = float(rng.uniform(-60, 60))
    elevation = float(np.clip(light.elevation + rng.uniform(-15, 15), 10, 90))
    shift = (float(rng.uniform(-0.25, 0.25)) * w, float(rng.uniform(-0.25, 0.25)) * h)
    hotspot = None
    if light.hotspot is not None:
        hotspot = (
            float(np.clip(light.hotspot[0] + shift[0], 0, w)),
            float(np.clip(light.hotspot[1] + shift[1], 0, h)),
        )
    glare_at = None
    if light.glare_at is not None:
        glare_at = (
            float(np.clip(light.glare_at[0] + shift[0], 0.1 * w, 0.9 * w)),
            float(np.clip(light.glare_at[1] + shift[1], 0.1 * h, 0.9 * h)),
        )
    end = replace(
        light,
        kelvin=float(np.clip(light.kelvin + step, MIN_KELVIN, MAX_KELVIN)),
        exposure=exposure,
        azimuth=(light.azimuth + turn) % 360.0,
        elevation=elevation,
        unevenness=float(rng.uniform(0.0, 0.4)),
        hotspot=hotspot,
        glare_at=glare_at,
    )
    start = float(rng.uniform(0.0, 0.4))
    return Drift(
        light=end,
        start=start,
        end=min(1.0, start + float(rng.uniform(0.45, 0.6))),
        lag=float(rng.uniform(0.03, 0.12)),
        exposure_follow=float(rng.uniform(0.4, 0.9)),
        white_follow=float(rng.uniform(0.4, 0.9)),
        white_error=(float(rng.uniform(-0.04, 0.04)), 0.0, float(rng.uniform(-0.04, 0.04))),
    )


def frame_conditions(cond: dict[str, Any], frame: int, frames: int, rng: np.random.Generator) -> tuple[Light, Effects]:
    """The light and camera effects of frame ``frame`` of ``frames`` of a session: in a steady
    session :func:`frame_variation`; in a drifting one the light of that point of the game and the
    camera's gains (:class:`Drift`), with the same jitter (the same random numbers are drawn)."""
    drift: Drift | None = cond.get("drift")
    if drift is None:
        return frame_variation(cond, rng)
    t = frame / (frames - 1) if frames > 1 else 0.0
    light: Light = cond["light"]
    lt, fx = jitter(drift.light_at(light, t), cond["noise"], rng)
    gain, gains = drift.camera_gains(light, t)
    return lt, replace(fx, gain=gain, channel_gains=gains)


def frame_variation(cond: dict[str, Any], rng: np.random.Generator) -> tuple[Light, Effects]:
    """The session's light with a little jitter, and this frame's camera effects (a steady
    session; :func:`frame_conditions` follows a drifting one)."""
    return jitter(cond["light"], cond["noise"], rng)


def jitter(light: Light, noise: float, rng: np.random.Generator) -> tuple[Light, Effects]:
    """``light`` with a little jitter (±150 K, ±5 % exposure), and a frame's camera effects
    around sensor noise ``noise``."""
    lt = replace(
        light,
        kelvin=float(np.clip(light.kelvin + rng.normal(0, 150), 2700, 6500)),
        exposure=float(np.clip(light.exposure * rng.uniform(0.95, 1.05), 0.2, 3.0)),
    )
    fx = Effects(
        noise=float(np.clip(noise + rng.normal(0, 0.5), 0.3, 8.0)),
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
    _tile_body(page, inside, k, np.random.default_rng([seed, 6]))
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


def _tile_body(page: np.ndarray, inside: np.ndarray, px_per_mm: float, rng: np.random.Generator) -> None:
    """What a real tile shows around its face on the paper (in place, before the face is pasted): the
    soft shadow it casts (the lamp a little to one side) and its cut edge, a thin band of the
    cardboard's grey core. A pale tile on white paper is found by these, as a user's photo shows it."""
    edge_px = max(1, round(rng.uniform(0.25, 0.45) * px_per_mm))
    outer = cv2.dilate(inside.astype(np.uint8), np.ones((2 * edge_px + 1, 2 * edge_px + 1), np.uint8)) > 0
    a = rng.uniform(0, 2 * np.pi)
    off = rng.uniform(0.5, 1.2) * px_per_mm
    shift = np.array([[1, 0, off * np.cos(a)], [0, 1, off * np.sin(a)]], np.float32)
    cast = cv2.warpAffine(outer.astype(np.float32), shift, (page.shape[1], page.shape[0]))
    cast = cv2.GaussianBlur(cast, (0, 0), rng.uniform(0.8, 1.6) * px_per_mm)
    depth = rng.uniform(0.2, 0.4)
    page[:] = np.clip(page * (1.0 - depth * cast[..., None]), 0, 255).astype(np.uint8)
    core = np.array([rng.uniform(95, 140), rng.uniform(110, 150), rng.uniform(120, 160)])  # BGR: grey-brown
    page[outer & ~inside] = core.astype(np.uint8)


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
    """The second enrollment photo: the setup table with one tile of each resource missing from the
    starting tiles laid next to seat 0's starting triangle, and every player's starting tiles turned
    over (exhausted: the tiles' backs, at several places and under each player's light)."""
    model = TableModel.from_state(state)
    seen = {t.resource for s in model.seats for t in s.land.values()}
    spots = [(-1, 0), (-1, 1), (0, -1), (1, -1), (2, -1), (2, 0), (1, 1), (0, 2), (-1, 2)]
    land = model.seats[0].land
    free = [h for h in spots if h not in land]
    for h, r in zip(free, [r for r in state.profile.resources if r not in seen], strict=False):
        land[h] = LandTile(r)
    for seat in model.seats:
        for h in list(seat.land):
            if h in ((0, 0), (1, 0), (0, 1)):
                seat.land[h] = LandTile(seat.land[h].resource, True)
    return model


def enroll_rendered(
    renderer: Renderer,
    game: Any,
    camera: Camera,
    light: Light,
    noise: float,
    pack: ArtPack,
    faces: list[str] | None = None,
    layout: Any = None,
    pack_source: str = "capture-sheet photos",
) -> Enrollment:
    """Enrollment as a user makes it at setup (docs/camera.md), on a rendered table: a picture of the
    table after the setup with the setup confirmed (``game.states[1]``), a picture with one tile of each
    resource missing from the starting tiles laid out and the starting tiles turned over, and the
    ``faces`` of ``pack`` (all by default; e.g. the capture-sheet photos of :func:`photographed_pack`).
    ``layout``: the layout enrolled for (default the renderer's)."""
    setup = game.states[1]
    en = Enroller(layout or renderer.layout, setup.profile)
    fx = Effects(noise=noise)
    img = renderer.render(setup, camera, light, fx, frame_seed=1, truth=False).image
    en.add_frame(img, *labels_from_state(setup), "setup")
    extra = one_of_each(setup)
    img = renderer.render(extra, camera, light, fx, frame_seed=2, truth=False).image
    en.add_frame(img, *labels_from_table(extra), "one of each")
    en.add_pack(pack, faces, source=pack_source)
    return en.build()


def enroll_session(renderer: Renderer, game: Any, cond: dict[str, Any], photo_pack: ArtPack, layout: Any) -> Enrollment:
    """Enroll a session as a user would (see the module docstring and :func:`enroll_rendered`)."""
    return enroll_rendered(renderer, game, cond["camera"], cond["light"], cond["noise"], photo_pack, layout=layout)


# --- scoring ----------------------------------------------------------------------------------------------
PHANTOM_TILES = "phantom tiles"
"""Fact kind: places without a tile (listed empty by the truth, or not listed at all) read as a tile."""
CONFIDENT_PHANTOMS = "confident phantom tiles"
"""Fact kind: the phantom tiles reported with ``tile_conf`` above :data:`CONFIDENT` (the ones the
tracker takes as evidence: a reading at 0.5 or below says nothing, :mod:`tracker.evidence`)."""
PHANTOM_MEMBERS = "phantom members"
"""Fact kind: places without a tile where members were read."""
PHANTOM_SHELLS = "phantom row shells"
"""Fact kind: row slots without a tile where shells were read."""
PHANTOM_KINDS = (PHANTOM_TILES, CONFIDENT_PHANTOMS, PHANTOM_MEMBERS, PHANTOM_SHELLS)
CONFIDENT = 0.5


def score(read: Observation, truth: Observation) -> dict[str, tuple[int, int]]:
    """(correct, total) per fact kind. Facts in the truth are scored as read or not; the phantom
    kinds (:data:`PHANTOM_KINDS`) score every place where nothing lies — listed by the truth or
    reported by the reader — as right when the reader saw nothing there (their totals depend on
    what the reader reported: read them as error counts)."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])

    def add(kind: str, ok: bool) -> None:
        out[kind][0] += int(ok)
        out[kind][1] += 1

    rh = {(h.seat, h.hex): h for h in read.hexes}
    for h in truth.hexes:
        r = rh.get((h.seat, h.hex))
        # an exhausted tile shows its back, the same for every resource: only "exhausted" is visible
        ok = (
            r is not None
            and r.tile == h.tile
            and (not h.tile or (r.exhausted == h.exhausted and (h.exhausted or r.resource == h.resource)))
        )
        add("tile type per hex", ok)
        if h.tile:
            add("members per hex", r is not None and dict(r.members) == dict(h.members))
    # phantoms: every place without a tile that the truth lists or the reader reported (a hex the
    # truth does not list holds no tile, unless its land is partly out of view in the truth)
    th = {(h.seat, h.hex): h for h in truth.hexes}
    cut = {int(r.split(":")[1]) for r in truth.hidden if r.startswith("land:") and r[5:].isdigit()}
    for key in sorted(set(th) | set(rh)):
        t = th.get(key)
        if (t is not None and t.tile) or (t is None and key[0] in cut):
            continue
        r = rh.get(key)
        add(PHANTOM_TILES, r is None or not r.tile)
        add(CONFIDENT_PHANTOMS, r is None or not r.tile or r.tile_conf <= CONFIDENT)
        add(PHANTOM_MEMBERS, r is None or not any(n > 0 for n in r.members.values()))
    rr = {s.slot: s for s in read.row}
    occupied = [s for s in truth.row if s.tile is not None]
    for s in occupied:
        r = rr.get(s.slot)
        add("shells per row slot", r is not None and r.shells == s.shells)
    if read.row:  # shells read on a slot where no tile lies (shells lie only on tiles, R-TURN-2)
        filled = {s.slot for s in occupied}
        for r in read.row:
            if r.slot not in filled:
                add(PHANTOM_SHELLS, r.shells == 0)
    add(
        "action tiles in order",
        [(s.slot, "event" if s.event else s.tile) for s in read.row if s.tile is not None]
        == [(s.slot, "event" if s.event else s.tile) for s in occupied],
    )
    add(
        "row exact (with events)",
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
    if truth.board:  # the arrow tokens laid, as a set (none laid is a fact too)
        add(
            "arrow tokens",
            sorted((a.colour, a.lower, a.upper) for a in read.arrows)
            == sorted((a.colour, a.lower, a.upper) for a in truth.arrows),
        )
    rt = {(t.colour, t.track): t.space for t in read.tracks}
    for t in truth.tracks:
        add("track markers", rt.get((t.colour, t.track)) == t.space)
    return {k: (v[0], v[1]) for k, v in out.items()}
