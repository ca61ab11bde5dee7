"""How members stand on a hex: ``piles="fixed"`` leaves renders as they were (same pixels);
``"varied"`` gives each hex a ring, a heap or the grid, deterministically per seed, on the hex,
with the truth unchanged, and heaps stack pieces that overlap."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from games.tribes.rules.game import Game, simulate
from games.tribes.rules.state import Land, State, land_proxy
from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.render import Renderer
from games.tribes.sim.scene import (
    ARRANGEMENTS,
    MEMBER_REACH,
    arranged_members,
    build_scene,
    hex_arrangement,
    member_offset,
    uniforms,
)
from games.tribes.vision.layout import Layout, default_layout
from games.tribes.vision.table import TableModel
from sim.camera import Camera
from vision.errors import RenderError


@pytest.fixture(scope="module")
def game() -> Game:
    return simulate(4, 5, "greedy")


@pytest.fixture(scope="module")
def layout() -> Layout:
    return default_layout()


def _crowded(state: State, members: int) -> tuple[State, tuple[int, int]]:
    """``state`` with ``members`` members on seat 0's first hex."""
    p = state.players[0]
    land = dict(p.land)
    h = sorted(land)[0]
    land[h] = Land(land[h].resource, False, members)
    players = list(state.players)
    players[0] = type(p)(p.name, p.colour, land_proxy(land), 0, p.shells, p.vp, p.tracks, p.arrow)
    return state.replace(players=tuple(players)), h


def _scene_members(layout: Layout, model: TableModel, seed: int, piles: str) -> list:
    colours = {s.colour: (200, 40, 40) for s in model.seats}
    scene = build_scene(model, layout, colours, (240, 230, 210), seed, piles)
    return [p for p in scene.pieces if p.role == "member"]


def test_fixed_is_the_default_and_the_pixels_are_unchanged(layout: Layout, game: Game) -> None:
    state = game.states[80]
    cam = Camera.framing(layout, width=480, height=270, tilt=15)
    pack = builtin_pack("classic")
    a = Renderer(layout, pack, "oak", seed=5).render(state, cam)
    b = Renderer(layout, pack, "oak", seed=5, piles="fixed").render(state, cam)
    assert np.array_equal(a.image, b.image) and a.truth == b.truth
    assert not any("lift_mm" in x or "lean_deg" in x for x in a.truth["pieces"])
    # the members stand exactly where they stood before piles existed (the placement of fcf6dc9)
    model = TableModel.from_state(state)
    got = _scene_members(layout, model, 5, "fixed")
    want = []
    for seat, st in enumerate(model.seats):
        for h in sorted(st.land):
            c = layout.hex_center(seat, h)
            u = uniforms(5, "land", seat, h)
            c = (c[0] + (u[0] - 0.5) * 1.2, c[1] + (u[1] - 0.5) * 1.2)
            for k in range(st.land[h].members):
                v = uniforms(5, "member", seat, h, k)
                off = member_offset(k, layout.hex.radius)
                want.append(((c[0] + off[0] + (v[0] - 0.5) * 3.0, c[1] + off[1] + (v[1] - 0.5) * 3.0), v[2] * 360.0))
    assert len(got) == len(want) > 10
    assert [(p.center, p.yaw) for p in got] == want and all(p.lift == 0.0 and p.lean == 0.0 for p in got)


def test_unknown_piles_fail_clearly(layout: Layout) -> None:
    with pytest.raises(RenderError, match="piles"):
        Renderer(layout, builtin_pack("classic"), piles="tidy")


def test_varied_is_deterministic_per_seed(layout: Layout, game: Game) -> None:
    model = TableModel.from_state(game.states[120])
    a = _scene_members(layout, model, 4, "varied")
    assert a == _scene_members(layout, model, 4, "varied")
    assert a != _scene_members(layout, model, 5, "varied")
    assert [p.where for p in a] == [p.where for p in _scene_members(layout, model, 4, "fixed")]


def test_every_arrangement_occurs_and_members_stay_on_their_hex(layout: Layout) -> None:
    r = layout.hex.radius
    kinds: Counter[str] = Counter()
    for seed in range(20):
        for q in range(15):
            n = 2 + (seed + q) % 12
            kind, spots = arranged_members(seed, 1, (q, -q), n, r)
            assert kind == hex_arrangement(seed, 1, (q, -q))
            kinds[kind] += 1
            assert len(spots) == n
            assert all(math.hypot(*off) <= MEMBER_REACH * r + 1e-9 for off, _ in spots)
            if kind == "ring":  # one circle: every member at (nearly) the same distance from its centre
                d = [math.hypot(*off) for off, _ in spots]
                assert max(d) - min(d) < 3.0 or max(d) >= MEMBER_REACH * r - 1e-6
            if kind != "heap":
                assert all(lift == 0.0 for _, lift in spots)
    assert set(kinds) == set(ARRANGEMENTS)
    assert min(kinds.values()) > 60


def test_crowded_heaps_stack_pieces_that_overlap(layout: Layout) -> None:
    r = layout.hex.radius
    heaps = [spots for seed in range(40) for kind, spots in [arranged_members(seed, 0, (0, 0), 8, r)] if kind == "heap"]
    assert len(heaps) >= 5
    lifted = [spots for spots in heaps if any(lift > 0 for _, lift in spots)]
    assert len(lifted) >= len(heaps) // 2
    for spots in heaps:  # members touch: each one's nearest neighbour is closer than a footprint (16 mm)
        pts = np.array([off for off, _ in spots])
        d = np.hypot(*(pts[:, None] - pts[None]).transpose(2, 0, 1)) + np.eye(len(pts)) * 1e9
        assert d.min(axis=1).max() < 16.0


def test_varied_truth_counts_are_unchanged(layout: Layout, game: Game) -> None:
    state, _ = _crowded(game.states[10], 9)
    cam = Camera.framing(layout, width=640, height=360)
    pack = builtin_pack("classic")
    fixed = Renderer(layout, pack, seed=2).truth_of(state, cam)
    varied = Renderer(layout, pack, seed=2, piles="varied").truth_of(state, cam)
    assert fixed["hexes"] == varied["hexes"]
    assert sum(x["role"] == "member" for x in varied["pieces"]) == sum(x["role"] == "member" for x in fixed["pieces"])


def test_a_varied_hex_of_six_looks_different(layout: Layout, game: Game) -> None:
    state, h = _crowded(game.states[10], 6)
    model = TableModel.from_state(state)
    seed = next(s for s in range(50) if hex_arrangement(s, 0, h) != "grid")
    cam = Camera.framing(layout, width=640, height=360)
    pack = builtin_pack("classic")
    a = Renderer(layout, pack, seed=seed).render(model, cam)
    b = Renderer(layout, pack, seed=seed, piles="varied").render(model, cam)
    assert not np.array_equal(a.image, b.image)
    assert a.truth["hexes"] == b.truth["hexes"]


def test_session_conditions_store_the_piles_and_keep_the_rest(layout: Layout) -> None:
    from games.tribes.sim.evaluation import session_conditions

    fixed = session_conditions(3, 8, layout)
    varied = session_conditions(3, 8, layout, piles="varied")
    assert fixed["piles"] == "fixed" and varied["piles"] == "varied"
    assert {k: v for k, v in fixed.items() if k != "piles"} == {k: v for k, v in varied.items() if k != "piles"}
    with pytest.raises(ValueError, match="piles"):
        session_conditions(3, 8, layout, piles="tidy")
