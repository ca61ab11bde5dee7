"""Scoring the camera pipeline on rendered tables: sessions as a user would set them up.

Shared by the evaluation (``benchmarks/vision_eval.py``, held-out pack and cameras) and the tuning
of the recognizer's settings on the training packs (``models/tune.py``). A *session* is one user's
table: one camera pose, one light, one table texture, one game. :func:`enroll_session` enrolls it as
a user would (setup photo, a photo with one tile of each missing kind, capture-sheet photos of the
events and achievements); :func:`score` compares an observation with the ground truth, fact by
fact, and counts what was read where nothing lies (phantom tiles, members and row shells).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from games.tribes.sim.render import Renderer
from games.tribes.sim.splits import EVAL_FOV, EVAL_SEED_BASE
from games.tribes.vision.artpack import ArtPack
from games.tribes.vision.enrollment import Enroller, Enrollment, labels_from_state, labels_from_table
from games.tribes.vision.observation import Observation
from games.tribes.vision.photopack import cut_from_sheet
from games.tribes.vision.table import LandTile, TableModel
from sim.camera import Camera
from sim.effects import Effects, EffectsApplier
from sim.lighting import Light
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
) -> dict[str, Any]:
    """Camera, light, effects range and texture of session ``s`` of ``n`` (tilt and colour
    temperature stratified so that every bin is covered)."""
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
    return {"camera": cam, "light": light, "texture": TEXTURES[s % len(TEXTURES)], "noise": float(rng.uniform(1, 6))}


def frame_variation(cond: dict[str, Any], rng: np.random.Generator) -> tuple[Light, Effects]:
    """The session's light with a little drift, and this frame's camera effects."""
    light: Light = cond["light"]
    lt = replace(
        light,
        kelvin=float(np.clip(light.kelvin + rng.normal(0, 150), 2700, 6500)),
        exposure=float(np.clip(light.exposure * rng.uniform(0.95, 1.05), 0.2, 3.0)),
    )
    fx = Effects(
        noise=float(np.clip(cond["noise"] + rng.normal(0, 0.5), 0.3, 8.0)),
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
