"""Video of whole games: every move is carried out step by step and ends exactly in the next state."""

from __future__ import annotations

import json

import cv2
import pytest

from games.tribes.rules.game import simulate
from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.render import Renderer
from games.tribes.sim.video import Pace, plan_video, render_video
from games.tribes.vision.layout import default_layout
from games.tribes.vision.table import TableModel
from sim.camera import Camera
from sim.effects import Effects
from vision.errors import VisionError


@pytest.fixture(scope="module")
def layout():
    return default_layout()


@pytest.fixture(scope="module")
def colours():
    pack = builtin_pack("classic")
    return {c: pack.colour(c) for c in ("red", "blue", "yellow", "black")}


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 4)])
def test_a_whole_game_is_animated_without_jumps(layout, colours, players, seed):
    game = simulate(players, seed, "greedy")
    plan = plan_video(game, layout, colours, Pace(fps=4))
    assert plan.jumps == []
    assert [m[0] for m in plan.moves] == list(range(1, len(game.moves)))
    for index, _, first, end in plan.moves:
        assert end > first
        # the move ends settled, showing exactly the next rules state
        last = plan.frames[end - 1]
        assert last.settled and not last.hands
        assert last.model.signature() == TableModel.from_state(game.states[index + 1]).signature()
    # members are put down one by one: between two frames at most one member changes place
    prev = None
    for fp in plan.frames:
        counts = [s.supply + sum(t.members for t in s.land.values()) for s in fp.model.seats]
        if prev is not None:
            assert sum(abs(a - b) for a, b in zip(counts, prev, strict=True)) <= 1
        prev = counts


def test_plan_range_errors(layout, colours):
    game = simulate(2, 1, "greedy")
    with pytest.raises(VisionError, match="move range"):
        plan_video(game, layout, colours, start=10, end=5)


def test_render_video_to_frames_and_truth(layout, tmp_path):
    game = simulate(2, 11, "greedy")
    r = Renderer(layout, builtin_pack("bold"), "walnut", seed=2)
    cam = Camera.framing(layout, width=320, height=180, tilt=15)
    out = tmp_path / "frames"
    seen = []
    doc = render_video(
        game,
        r,
        cam,
        out,
        effects=Effects(noise=1),
        pace=Pace(fps=4),
        start=3,
        end=6,
        progress=lambda d, t: seen.append((d, t)),
        image_ext=".png",
    )
    n = doc["frame_count"]
    assert seen[-1] == (n, n)
    files = sorted(out.glob("frame_*.png"))
    assert len(files) == n
    assert cv2.imread(str(files[0])).shape == (180, 320, 3)
    on_disk = json.loads((out / "truth.json").read_text())
    assert on_disk["frame_count"] == n and len(on_disk["frames"]) == n
    # hand ranges are exactly the frames whose hands are in view
    flags = [any(h["in_view"] for h in f["hands"]) for f in doc["frames"]]
    covered = [False] * n
    for a, b in doc["hand_ranges"]:
        for i in range(a, b):
            covered[i] = True
    assert covered == flags and any(flags)
    # the last frame of each move shows the next state's truth
    for m in doc["moves"]:
        last = doc["frames"][m["frames"][1] - 1]
        assert last["settled"]
        table = doc["tables"][last["table"]]
        state = game.states[m["index"] + 1]
        for seat, p in enumerate(state.players):
            assert table["seats"][seat]["shells"] == p.shells
            for e in table["hexes"]:
                if e["seat"] == seat and e["tile"]:
                    assert e["members"].get(p.colour, 0) == p.land[tuple(e["hex"])].members


def test_render_video_file(layout, tmp_path):
    game = simulate(2, 11, "greedy")
    r = Renderer(layout, builtin_pack("classic"), "oak", seed=0)
    cam = Camera.framing(layout, width=320, height=180)
    path = tmp_path / "game.mp4"
    doc = render_video(game, r, cam, path, pace=Pace(fps=3), start=2, end=4)
    cap = cv2.VideoCapture(str(path))
    count = 0
    while cap.read()[0]:
        count += 1
    cap.release()
    assert count == doc["frame_count"]
    assert (tmp_path / "game.truth.json").exists()


def test_held_pieces_leave_the_table_while_carried(layout, colours):
    game = simulate(2, 11, "greedy")
    plan = plan_video(game, layout, colours, Pace(fps=4), start=1, end=4)
    holding = [fp for fp in plan.frames if fp.hands and fp.hands[0].holding == "meeple"]
    assert holding, "no member was carried"
    fp = holding[len(holding) // 2]
    before = TableModel.from_state(game.states[fp.move])

    def count(m: TableModel) -> int:
        return sum(s.supply + sum(t.members for t in s.land.values()) for s in m.seats)

    # members are never created or destroyed (supply + land is constant); the carried one is in the hand
    assert count(fp.model) == count(before) - 1
