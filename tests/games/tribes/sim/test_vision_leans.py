"""Leaning members under ``piles="varied"``: a meeple tipped against a neighbour or lying on the table
is drawn turned about its foot's edge (foreshortened, top shifted, its shadow with it); on a hex of
three or more members 0-2 lean, from the seed and the hex; the truth lists them; ``"fixed"`` never
leans; the renderer draws the leans of its scene."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from games.tribes.rules.game import Game, simulate
from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.pieces import PieceRenderer, solids, tilt_vertices
from games.tribes.sim.render import Renderer
from games.tribes.sim.scene import (
    LIE_REACH,
    MAX_LEAN,
    MIN_LEAN,
    PieceDraw,
    Scene,
    arranged_members,
    build_scene,
    lean_yaw,
    member_leans,
)
from games.tribes.vision.layout import Layout, default_layout
from games.tribes.vision.table import TableModel
from sim.camera import Camera
from sim.lighting import Light
from sim.warp import Canvas
from tests.games.tribes.sim.test_vision_piles import _crowded

SCALE = 6.0  # canvas pixels per mm
BG = 170


@pytest.fixture(scope="module")
def layout() -> Layout:
    return default_layout()


@pytest.fixture(scope="module")
def game() -> Game:
    return simulate(4, 5, "greedy")


def _one(layout: Layout, tilt: float, direction: float, shadows: bool) -> tuple[np.ndarray, tuple[float, float]]:
    """A red meeple (turned face-on to ``direction``) drawn alone on a grey canvas 80 x 80 mm around it."""
    cam = Camera.framing(layout, width=640, height=360, tilt=25)
    c = (cam.nadir[0] + 150.0, cam.nadir[1] + 80.0)
    canvas = Canvas(c[0] - 40, c[1] - 40, SCALE, int(80 * SCALE), int(80 * SCALE))
    img = np.full((canvas.height, canvas.width, 3), BG, np.uint8)
    p = PieceDraw("meeple", 0, (200, 40, 40), c, lean_yaw(0.0, direction), "member", lean=tilt, lean_dir=direction)
    pr = PieceRenderer(cam, canvas, Light(), 0)
    groups = pr.groups([p])
    if shadows:
        pr.shadows(img, [p], groups)
    pr.draw(img, [p], groups=groups)
    return img, tuple(canvas.to_px(np.array([c]))[0])


def _painted(img: np.ndarray) -> np.ndarray:
    """Pixels of the (red) piece."""
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return (r - b > 40) & (r - g > 40)


def _front_area_mm2() -> float:
    """Area of a meeple's outline seen face-on (its slabs' x-z polygons, in mm^2)."""
    m = np.zeros((400, 400), np.uint8)
    for s in solids("meeple"):
        front = s.verts[list(s.fronts[0])]  # type: ignore[index]
        cv2.fillConvexPoly(m, np.round((front[:, [0, 2]] + [10, 0]) * 20).astype(np.int32), 1)
    return float(m.sum()) / 400


def test_a_lying_meeple_shows_its_outline_low_on_the_table(layout: Layout) -> None:
    up, foot = _one(layout, 0.0, 0.0, False)
    lying, _ = _one(layout, 90.0, 0.0, False)
    assert not np.array_equal(up, lying)
    a_lying = _painted(lying).sum() / SCALE**2
    # lying on its back the camera sees its whole outline (a little more: its sides, and it is 8 mm up)
    assert 0.9 * _front_area_mm2() < a_lying < 1.5 * _front_area_mm2()
    ys, xs = np.nonzero(_painted(lying))
    # it lies along +x from the edge of its foot (half a thickness out) to a meeple's height (16 mm) on
    assert abs(xs.mean() / SCALE - (foot[0] / SCALE + 4 + 8)) < 3.0
    assert 14.0 < (xs.max() - xs.min()) / SCALE < 20.0 and 14.0 < (ys.max() - ys.min()) / SCALE < 19.0
    # upright, along +x the camera sees its thickness (8 mm) and a little of its side
    _, xs_up = np.nonzero(_painted(up))
    assert (xs_up.max() - xs_up.min()) / SCALE < 11.0


def test_a_leaning_meeple_tips_its_top_over_further_with_its_tilt(layout: Layout) -> None:
    spans = []
    for tilt in (0.0, 35.0, 60.0, 90.0):
        img, _ = _one(layout, tilt, 90.0, False)  # falls towards +y (down the canvas)
        ys, _xs = np.nonzero(_painted(img))
        spans.append((ys.mean(), ys.max() - ys.min()))
    means = [m for m, _ in spans]
    assert means == sorted(means) and means[-1] - means[0] > 4 * SCALE  # the top moves over as it tips
    assert spans[0][1] < 10 * SCALE < min(span for _, span in spans[1:])  # it spans more along the fall than upright


def _shadow(layout: Layout, tilt: float, direction: float) -> np.ndarray:
    """Pixels darkened by the piece's shadow (not covered by the piece itself)."""
    bare, _ = _one(layout, tilt, direction, False)
    lit, _ = _one(layout, tilt, direction, True)
    return (lit.astype(int).sum(axis=2) < 3 * BG - 30) & ~_painted(bare)


def test_a_leaning_meeple_casts_its_shadow_where_it_lies(layout: Layout) -> None:
    d = np.array([math.cos(math.radians(200.0)), math.sin(math.radians(200.0))])
    ys, xs = np.nonzero(_shadow(layout, 0.0, 200.0))
    upright = np.array([xs.mean(), ys.mean()])
    for tilt in (40.0, 90.0):
        sh = _shadow(layout, tilt, 200.0)
        assert sh.sum() > 100 * SCALE**2  # over 100 mm^2 of shadow beside the piece (soft: blurred wide)
        ys, xs = np.nonzero(sh)
        assert (np.array([xs.mean(), ys.mean()]) - upright) @ d > 3.0 * SCALE  # it moved with the piece


def test_tilt_turns_about_the_foot_edge_and_keeps_above_the_table() -> None:
    p = PieceDraw("meeple", 0, (1, 1, 1), (100.0, 50.0), lean_yaw(10.0, 30.0), "member", lean=90.0, lean_dir=30.0)
    verts = np.vstack([s.verts for s in solids("meeple")])
    yaw = math.radians(p.yaw)
    c, s = math.cos(yaw), math.sin(yaw)
    world = np.column_stack(
        [c * verts[:, 0] - s * verts[:, 1] + 100.0, s * verts[:, 0] + c * verts[:, 1] + 50.0, verts[:, 2]]
    )
    w = tilt_vertices(world, p)
    assert w[:, 2].min() > -1e-9 and w[:, 2].max() == pytest.approx(8.0)  # on its back: a meeple's thickness high
    d = np.array([math.cos(math.radians(30)), math.sin(math.radians(30))])
    along = (w[:, :2] - [100.0, 50.0]) @ d
    assert along.min() == pytest.approx(4.0)  # its back on the table from the foot's edge (half a thickness)
    assert along.max() == pytest.approx(4.0 + 16.2)  # head: half a thickness plus a meeple's height away


def test_leans_come_from_the_seed_and_only_on_crowded_hexes(layout: Layout) -> None:
    r = layout.hex.radius
    counts, kinds = set(), set()
    for seed in range(30):
        for q in range(8):
            n = 2 + (seed + q) % 10
            h = (q, 1 - q)
            _, spots = arranged_members(seed, 2, h, n, r)
            leans = member_leans(seed, 2, h, spots, r)
            assert leans == member_leans(seed, 2, h, spots, r) and len(leans) == n
            k = [i for i, x in enumerate(leans) if x is not None]
            if n < 3:
                assert not k
                continue
            counts.add(len(k))
            assert len(k) <= 2
            for i in k:
                lean = leans[i]
                assert lean is not None and spots[i][1] == 0.0
                if lean.against is None:
                    kinds.add("lying")
                    assert lean.tilt == 90.0
                    a = math.radians(lean.direction)
                    off = spots[i][0]
                    assert math.hypot(off[0] + 16 * math.cos(a), off[1] + 16 * math.sin(a)) <= LIE_REACH * r + 1e-6
                else:
                    kinds.add("leaning")
                    assert MIN_LEAN <= lean.tilt <= MAX_LEAN
                    j = lean.against
                    assert leans[j] is None and spots[j][1] == 0.0
                    (x0, y0), (x1, y1) = spots[i][0], spots[j][0]
                    want = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360.0
                    assert abs((lean.direction - want + 180) % 360 - 180) < 1e-6
    assert counts == {0, 1, 2} and kinds == {"leaning", "lying"}


def test_fixed_never_leans_and_varied_truth_lists_the_leans(layout: Layout, game: Game) -> None:
    state, h = _crowded(game.states[10], 7)
    model = TableModel.from_state(state)
    colours = {s.colour: (200, 40, 40) for s in model.seats}
    fixed = build_scene(model, layout, colours, (240, 230, 210), 3, "fixed")
    assert all(p.lean == 0.0 for p in fixed.pieces)
    seed = next(
        s
        for s in range(60)
        if any(p.lean for p in build_scene(model, layout, colours, (240, 230, 210), s, "varied").pieces)
    )
    scene = build_scene(model, layout, colours, (240, 230, 210), seed, "varied")
    assert scene == build_scene(model, layout, colours, (240, 230, 210), seed, "varied")
    leaning = [p for p in scene.pieces if p.lean]
    assert leaning and all(p.role == "member" and p.where[0] == h for p in leaning)
    cam = Camera.framing(layout, width=640, height=360)
    pack = builtin_pack("classic")
    truth = Renderer(layout, pack, seed=seed, piles="varied").truth_of(state, cam)
    listed = [x for x in truth["pieces"] if "lean_deg" in x]
    assert [(x["lean_deg"], x["lean_dir_deg"]) for x in listed] == [
        (round(p.lean, 3), round(p.lean_dir, 3)) for p in leaning
    ]
    assert all(x["hex"] == list(h) for x in listed)
    plain = Renderer(layout, pack, seed=seed).truth_of(state, cam)
    assert not any("lean_deg" in x for x in plain["pieces"])
    assert truth["hexes"] == plain["hexes"]
    assert sum(x["role"] == "member" for x in truth["pieces"]) == sum(x["role"] == "member" for x in plain["pieces"])


def test_the_renderer_draws_the_leans_of_its_scene(layout: Layout, game: Game) -> None:
    state, _h = _crowded(game.states[10], 7)
    model = TableModel.from_state(state)
    pack = builtin_pack("classic")
    seed = next(
        s for s in range(60) if any(p.lean for p in Renderer(layout, pack, seed=s, piles="varied").scene(model).pieces)
    )
    cam = Camera.framing(layout, width=1280, height=720)
    r = Renderer(layout, pack, seed=seed, piles="varied")
    scene = r.scene(model)
    upright = Scene(scene.tiles, [replace(p, lean=0.0, lean_dir=0.0) for p in scene.pieces])
    a = r.table_canvas(model, cam, Light(), scene)
    b = Renderer(layout, pack, seed=seed, piles="varied").table_canvas(model, cam, Light(), upright)
    diff = np.nonzero(np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 8)
    # and only around the leaning members: within 30 mm of their feet (a meeple, its shadow, the blur)
    canvas = r.canvas(cam)
    feet = canvas.to_px(np.array([p.center for p in scene.pieces if p.lean]))
    pts = np.column_stack([diff[1], diff[0]])
    near = np.hypot(*(pts[:, None, :] - feet[None]).transpose(2, 0, 1)).min(axis=1)
    assert len(pts) > 60 * canvas.scale**2  # some 60 mm^2 of table look different at least
    assert near.max() < 30.0 * canvas.scale
