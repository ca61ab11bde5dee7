"""Renderer: ground truth equals the rules state, markers land where OpenCV finds them, tiles land
where the truth says, same seed = same pixels, and bad input fails clearly."""

from __future__ import annotations

import numpy as np
import pytest

from games.tribes.rules.game import simulate
from games.tribes.rules.hexgrid import frontier
from games.tribes.rules.state import Land, land_proxy
from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.render import Renderer
from games.tribes.vision.artpack import ArtPack
from games.tribes.vision.layout import default_layout
from sim.camera import Camera
from sim.effects import Effects
from sim.hands import Hand
from sim.lighting import Light
from vision.errors import CameraError, RenderError, VisionError
from vision.markers import detect

CLEAN_LIGHT = Light(kelvin=6500, white_balance=1.0, unevenness=0.0, vignetting=0.0, shadow=0.0)
NO_FX = Effects(noise=0.0)


@pytest.fixture(scope="module")
def game():
    return simulate(4, 5, "greedy")


@pytest.fixture(scope="module")
def layout():
    return default_layout()


@pytest.fixture(scope="module")
def renderer(layout):
    return Renderer(layout, builtin_pack("classic"), "oak", seed=3)


def _truth_hex(truth, seat, h):
    for e in truth["hexes"]:
        if e["seat"] == seat and tuple(e["hex"]) == h:
            return e
    raise AssertionError(f"hex {h} of seat {seat} missing from the truth")


@pytest.mark.parametrize("at", [0.1, 0.5, 1.0])
def test_truth_equals_the_rules_state(game, renderer, layout, at):
    state = game.states[min(int(len(game.states) * at), len(game.states) - 1)]
    cam = Camera.framing(layout, width=960, height=540, tilt=10)
    truth = renderer.render(state, cam).truth
    for seat, p in enumerate(state.players):
        for h, land in p.land.items():
            e = _truth_hex(truth, seat, h)
            assert e["tile"] and e["resource"] == land.resource and e["exhausted"] == land.exhausted
            assert e["members"] == ({p.colour: land.members} if land.members else {})
            members = [
                x for x in truth["pieces"] if x["role"] == "member" and x["seat"] == seat and tuple(x["hex"]) == h
            ]
            assert len(members) == land.members
        for h in frontier(p.land):
            e = _truth_hex(truth, seat, h)
            assert not e["tile"] and e["members"] == {}
        st = truth["seats"][seat]
        assert st["shells"] == p.shells and st["colour"] == p.colour
        assert st["members_in_supply"] == p.supply
        assert [st["tracks"][t]["space"] for t in ("offspring", "movement", "exploration", "strength")] == list(
            p.tracks
        )
        assert st["arrow_in_supply"] == p.arrow
        assert st["stones_in_supply"] == state.profile.stones_per_player - state.stones_used(seat)
        shells = [x for x in truth["pieces"] if x["role"] == "shell" and x["seat"] == seat]
        assert len(shells) == p.shells
    for i, slot in enumerate(truth["row"]):
        if i < len(state.row):
            rt = state.row[i]
            assert (slot["tile"], slot["event"], slot["shells"]) == (rt.tile, rt.event, rt.shells)
        else:
            assert slot["tile"] is None
    for b in truth["board"]:
        bt = state.board[b["era"] - 1][b["col"]]
        assert b["tile"] == bt.tile and [s["seat"] for s in b["stones"]] == list(bt.stones)
    assert [(a["lower"], a["upper"], a["owner"]) for a in truth["arrows"]] == [
        (list(a.lower), list(a.upper), a.owner) for a in state.arrows
    ]
    assert truth["event_stacks"] == list(state.stacks)
    assert truth["bag"] == state.bag_total() and truth["shell_supply"] == state.shell_supply


def test_marker_corners_match_the_aruco_detector_at_1080p(renderer, layout, game):
    cam = Camera.framing(layout, width=1920, height=1080)
    frame = renderer.render(game.states[30], cam, CLEAN_LIGHT, NO_FX)
    found = detect(frame.image, layout.dictionary)
    assert set(found) == {m.id for m in layout.markers}
    for m in frame.truth["markers"]:
        err = np.abs(np.array(m["corners"]) - found[m["id"]]).max()
        assert err <= 1.5, f"marker {m['id']}: {err:.2f} px"


def test_marker_corners_hold_under_tilt_and_distortion(renderer, layout, game):
    cam = Camera.framing(layout, tilt=35, azimuth=200, roll=-10, dist=(-0.15, 0.04, 0.001, 0.0005, 0))
    frame = renderer.render(game.states[30], cam, CLEAN_LIGHT, NO_FX)
    found = detect(frame.image, layout.dictionary)
    assert len(found) >= 6
    for m in frame.truth["markers"]:
        if m["id"] in found:
            assert np.abs(np.array(m["corners"]) - found[m["id"]]).max() <= 1.5


def _flat_pack(profile) -> ArtPack:
    """A pack whose faces are flat, distinct colours: the colour under a truth point names the face."""
    from games.tribes.vision.artpack import required_faces

    faces = {}
    rng = np.random.default_rng(0)
    for key, _ in required_faces(profile):
        faces[key] = np.full((64, 64, 3), rng.integers(30, 226, 3), np.uint8)
    return ArtPack("flat", faces)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_tiles_lie_where_the_truth_says(layout, game, orientation):
    import copy

    from games.tribes.vision.layout import parse_layout

    raw = copy.deepcopy(dict(layout.raw))
    raw["tiles"]["hex"]["orientation"] = orientation
    layout = parse_layout(raw)
    state = game.states[-1]
    pack = _flat_pack(state.profile)
    r = Renderer(layout, pack, "slate", seed=1)
    for cam in (Camera.framing(layout), Camera.framing(layout, tilt=25, azimuth=100, dist=(-0.1, 0.02, 0, 0, 0))):
        frame = r.render(state, cam, CLEAN_LIGHT, NO_FX)
        img = frame.image.astype(int)
        boxes = [x["bbox"] for x in frame.truth["pieces"]]

        def covered(x: float, y: float, boxes: list = boxes) -> bool:
            return any(b[0] - 2 <= x <= b[2] + 2 and b[1] - 2 <= y <= b[3] + 2 for b in boxes)

        checked = 0
        for e in frame.truth["hexes"]:
            if not e["tile"] or not e["in_view"] or covered(*e["center"]):
                continue
            face = "exhausted" if e["exhausted"] else f"resource-{e['resource']}"
            x, y = (round(v) for v in e["center"])
            assert np.abs(img[y, x] - pack.faces[face][0, 0]).max() <= 6, (e["hex"], face)
            checked += 1
        for s in frame.truth["row"]:
            if s["tile"] and not covered(*s["center"]):
                face = f"{'event' if s['event'] else 'action'}-{s['tile']}"
                x, y = (round(v) for v in s["center"])
                assert np.abs(img[y, x] - pack.faces[face][0, 0]).max() <= 6
                checked += 1
        assert checked > 20


def test_same_seed_same_pixels_and_another_seed_differs(layout, game):
    state = game.states[80]
    cam = Camera.framing(layout, width=960, height=540, tilt=20, dist=(-0.05, 0, 0, 0, 0))
    light = Light(kelvin=3200, glare=0.4, glare_at=(600, 500))
    fx = Effects(noise=3, motion_blur=3, defocus=0.8, jpeg=80)
    hands = [Hand(0, (600, 800), 80, "meeple", (200, 40, 40))]
    a = Renderer(layout, builtin_pack("bold"), "felt", seed=7).render(state, cam, light, fx, hands, frame_seed=3)
    b = Renderer(layout, builtin_pack("bold"), "felt", seed=7).render(state, cam, light, fx, hands, frame_seed=3)
    c = Renderer(layout, builtin_pack("bold"), "felt", seed=8).render(state, cam, light, fx, hands, frame_seed=3)
    assert np.array_equal(a.image, b.image)
    assert a.truth == b.truth
    assert not np.array_equal(a.image, c.image)


def test_fifteen_members_on_one_hex_overlap_on_it(layout, game, renderer):
    state = game.states[10]
    p = state.players[0]
    land = dict(p.land)
    h = (0, 0)
    land[h] = Land(land[h].resource, False, 15)
    players = list(state.players)
    players[0] = type(p)(p.name, p.colour, land_proxy(land), 0, p.shells, p.vp, p.tracks, p.arrow)
    crowded = state.replace(players=tuple(players))
    cam = Camera.framing(layout)
    truth = renderer.render(crowded, cam, CLEAN_LIGHT, NO_FX).truth
    assert _truth_hex(truth, 0, h)["members"] == {p.colour: 15}
    boxes = [x["bbox"] for x in truth["pieces"] if x["role"] == "member" and x["seat"] == 0 and tuple(x["hex"]) == h]
    assert len(boxes) == 15
    centre = np.array(_truth_hex(truth, 0, h)["center"])
    hexr = np.ptp(np.array(_truth_hex(truth, 0, h)["corners"])[:, 0]) / 2
    for x0, y0, x1, y1 in boxes:
        assert np.hypot((x0 + x1) / 2 - centre[0], (y0 + y1) / 2 - centre[1]) < hexr
    # at least some pairs overlap, as members do in real play
    overlaps = sum(
        1
        for i in range(15)
        for j in range(i + 1, 15)
        if boxes[i][0] < boxes[j][2]
        and boxes[j][0] < boxes[i][2]
        and boxes[i][1] < boxes[j][3]
        and boxes[j][1] < boxes[i][3]
    )
    assert overlaps >= 5


def test_hands_are_drawn_and_reported(layout, game, renderer):
    state = game.states[50]
    cam = Camera.framing(layout, width=960, height=540)
    plain = renderer.render(state, cam, CLEAN_LIGHT, NO_FX)
    hand = Hand(0, (600.0, 700.0), 90.0, "stone", (30, 60, 200))
    frame = renderer.render(state, cam, CLEAN_LIGHT, NO_FX, hands=[hand])
    (t,) = frame.truth["hands"]
    assert t["in_view"] and frame.truth["hand_in_view"] and t["holding"] == "stone"
    x0, y0, x1, y1 = (int(v) for v in t["bbox"])
    diff = np.abs(frame.image.astype(int) - plain.image.astype(int)).sum(axis=2) > 30
    assert diff[y0:y1, x0:x1].mean() > 0.2  # the arm covers much of its box
    outside = diff.copy()
    outside[max(y0 - 40, 0) : y1 + 40, max(x0 - 40, 0) : x1 + 40] = False
    assert outside.mean() < 0.01  # and little else changed (shadow margin aside)
    # a hand far outside the view is reported as not in view
    away = renderer.render(state, cam, CLEAN_LIGHT, NO_FX, hands=[Hand(0, (600.0, 2500.0), 90.0)])
    assert not away.truth["hands"][0]["in_view"]


def test_light_colour_temperature_tints_the_reference_patch(layout, game, renderer):
    cam = Camera.framing(layout, width=960, height=540)
    patch = None

    def white(kelvin):
        nonlocal patch
        fr = renderer.render(
            game.states[5], cam, Light(kelvin=kelvin, white_balance=0.0, unevenness=0, vignetting=0), NO_FX
        )
        c = np.array(fr.truth["patch"][0]["corners"]).mean(axis=0)
        x, y = (round(v) for v in c)
        return fr.image[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3).mean(axis=0)  # BGR

    warm, cool = white(2700), white(6500)
    assert warm[2] / warm[0] > 1.5  # red over blue under tungsten light
    assert abs(cool[2] / cool[0] - 1) < 0.1
    del patch


def test_a_brighter_room_the_camera_turned_down_for_saturates_once(layout, game, renderer):
    """The room's light and the camera's auto exposure make one exposure, saturated once, as a sensor
    does: the light 1.5 times brighter and the camera at 1/1.5 gives the picture of the plain light
    (the patch's white keeps its tint, within rounding), where saturating the light first and then
    turning it down would leave it a flat grey; a camera that has not caught up yet (gain 1) clips."""
    cam = Camera.framing(layout, width=960, height=540)
    warm = Light(kelvin=3000, white_balance=0.0, unevenness=0, vignetting=0)
    bright = Light(kelvin=3000, white_balance=0.0, unevenness=0, vignetting=0, exposure=1.5)

    def patch_white(light, fx):
        fr = renderer.render(game.states[5], cam, light, fx)
        c = np.array(fr.truth["patch"][0]["corners"]).mean(axis=0)
        x, y = (round(v) for v in c)
        return fr.image[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3).mean(axis=0)  # BGR

    plain = patch_white(warm, NO_FX)
    followed = patch_white(bright, Effects(noise=0.0, gain=1 / 1.5))
    assert np.abs(followed - plain).max() <= 2.0
    assert plain[2] / plain[0] > 1.3  # the warm tint, kept
    late = patch_white(bright, NO_FX)
    assert late.max() >= 254 and late[2] / late[0] < plain[2] / plain[0]  # clipped: the tint thinned


def test_render_errors_are_clear(layout, game, renderer):
    state = game.states[40]
    cam = Camera.framing(layout, width=640, height=360)
    long_row = state.replace(row=state.row * 3)
    with pytest.raises(RenderError, match=r"the action row holds \d+ tiles but layout .* has 12 row slots"):
        renderer.render(long_row, cam)
    p = state.players[1]
    players = list(state.players)
    players[1] = type(p)(p.name, "ultraviolet", p.land, p.supply, p.shells, p.vp, p.tracks, p.arrow)
    with pytest.raises(VisionError, match=r"colours: no colour for players called 'ultraviolet'"):
        renderer.render(state.replace(players=tuple(players)), cam)
    with pytest.raises(RenderError, match="unknown table texture"):
        Renderer(layout, builtin_pack("classic"), "marble")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tilt": 40}, "tilt must be between 0 and 35 degrees"),
        ({"width": 4000, "height": 3000}, "image size must be at most 3840 x 2160"),
        ({"dist": (0.9, -2.0, 0, 0, 0)}, "folds the image over"),
        ({"fov": 5}, "field of view must be between"),
    ],
)
def test_camera_settings_are_checked(layout, kwargs, message):
    with pytest.raises(CameraError, match=message):
        Camera.framing(layout, **kwargs)


def test_camera_round_trips_through_json(layout):
    cam = Camera.framing(layout, tilt=12, azimuth=33, roll=4, dist=(-0.1, 0.01, 0, 0, 0))
    back = Camera.from_dict(cam.to_dict())
    pts = np.array([[0.0, 0.0], [600.0, 500.0], [1200.0, 1000.0]])
    assert np.allclose(back.project(pts), cam.project(pts))


def test_4k_render(layout, game):
    r = Renderer(layout, builtin_pack("sketch"), "linen", seed=0)
    frame = r.render(game.states[60], Camera.framing(layout, width=3840, height=2160, tilt=15), truth=False)
    assert frame.image.shape == (2160, 3840, 3)


def test_random_conditions_are_reproducible_and_in_range(layout):
    from games.tribes.sim.randomize import random_conditions

    a = random_conditions(5, layout, 640, 360)
    assert a == random_conditions(5, layout, 640, 360)
    assert a != random_conditions(6, layout, 640, 360)
    for seed in range(20):
        c = random_conditions(seed, layout, 640, 360)
        assert 0 <= c.camera.tilt <= 35 and 2700 <= c.light.kelvin <= 6500


def test_heavy_imports_stay_out_of_the_package_init():
    import subprocess
    import sys

    code = (
        "import sys, vision, games.tribes.sim.cli, games.tribes.vision.layout, vision.errors; "
        "print('cv2' in sys.modules, 'numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]


def test_renders_before_setup_and_from_a_position(layout, renderer, tmp_path):
    from games.tribes.rules.game import Game, load_game

    game = simulate(2, 3, "greedy")
    cam = Camera.framing(layout, width=480, height=270)
    empty = renderer.render(Game.new(["A", "B"]).state, cam)  # before setup: no tiles yet
    assert all(not b["face_up"] for b in empty.truth["board"]) and not empty.truth["hexes"]
    pos = tmp_path / "pos.json"
    pos.write_text(__import__("json").dumps(game.states[30].to_dict()))
    frame = renderer.render(load_game(pos).state, cam)
    assert frame.truth["seats"][0]["shells"] == game.states[30].players[0].shells + (
        game.states[30].turn_shells if game.states[30].to_move == 0 else 0
    )
