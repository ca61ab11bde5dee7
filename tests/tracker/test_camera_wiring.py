"""The camera pipeline as the real source of camera mode: the demo path and a replay through the real
recognizer (rendered pictures read, no ground truth), ``serve --camera`` with a bad source, and the
enrollment flow of camera mode (``tracker.enroll_flow``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from games.tribes.rules.game import Game, simulate
from session.runtime import GameRuntime
from tests.tracker.footage import runtime_at

pytest.importorskip("cv2")


def _expected(game: Game, end: int) -> list[str]:
    moves = [str(m) for m in game.moves[:end]]
    while moves[-1].startswith("draw "):
        moves.pop()  # drawn tiles are seen only once they are laid
    return moves


def test_demo_path_through_the_recognizer_at_top_speed(tmp_path: Path) -> None:
    """Issue 7's end-to-end test on the real pipeline: a short rendered game (held-out art pack, hands)
    read picture by picture by the recognizer, enrolled from the rendered setup; the tracker commits
    the moves into the runtime; the journal equals the simulated game's first moves. At the demo's top
    speed: fewer pictures rendered and read, the same journal (every picture is read at 10 fps by
    the replay test below)."""
    from companion.play import SOURCES, sim_session
    from tracker.loop import CameraLoop
    from webui.app import create_app
    from webui.camera import FrameHub, attach

    session = sim_session(tmp_path / "data", players=2, seed=1, width=640, end=4, pause=0.0)
    assert session.source == SOURCES["recognizer"] and session.recognizer is not None
    assert session.recognizer.keep_examples is False  # every game enrolls anew: nothing kept (demo memory)
    assert [str(m) for m in session.runtime.snapshot().moves] == [str(session.game.moves[0])]  # confirmed setup
    session.frames.speed = 8  # every 8th picture of a moving hand (the first and last always)
    app = create_app(session.runtime)
    hub = FrameHub()
    loop = CameraLoop(session.frames, session.recognize, session.link, annotate=session.annotate, publish=hub.publish)
    attach(app, session.link, hub, camera_stats=loop.stats.to_dict, source=session.source)
    loop.run()
    client = app.test_client()
    assert client.get("/api/journal").get_json()["moves"] == _expected(session.game, 4)
    st = client.get("/api/tracker").get_json()
    assert st["source"] == SOURCES["recognizer"] and "issue 6" not in st["source"]
    assert st["camera"]["frames"] == session.frames.shown < len(session.playback.frames) / 2
    assert st["camera"]["errors"] == 0 and session.table_camera._cache == {}  # nothing read the ground truth
    assert st["kind"] == "watching"
    assert client.get("/camera.jpg").data[:2] == b"\xff\xd8"
    hub.close()
    app.extensions["companion"]["camera"]["feed"].close()


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Game]:
    """The first moves of a 2-player game rendered to a 640 x 360 video WITHOUT its ground truth, and
    the journal of the setup (for --setup)."""
    from games.tribes.sim.packs import builtin_pack
    from games.tribes.sim.render import Renderer
    from games.tribes.sim.video import Pace, render_video
    from games.tribes.vision.layout import default_layout
    from sim.camera import Camera
    from sim.effects import Effects

    tmp = tmp_path_factory.mktemp("replay-real")
    game = simulate(2, 1, "greedy")
    layout = default_layout().with_seats((0, 2))
    renderer = Renderer(layout, builtin_pack("sketch"), seed=1)
    camera = Camera.framing(layout, width=640, height=360, tilt=15, azimuth=20, margin=0.12)
    out = tmp / "game.avi"
    # 5 pictures a second (a slow camera) and 1 s of quiet after each move: the gate's half second after
    # a hand leaves two or three settled pictures, which the tracker takes over 0.15 s (min_span_s)
    render_video(game, renderer, camera, out, effects=Effects(noise=2.0), pace=Pace(fps=5.0, rest=1.0), start=1, end=6)
    out.with_suffix(".truth.json").unlink()  # a video as a camera records it: pictures only
    setup = tmp / "setup.json"
    setup.write_text(json.dumps(game.to_dict()), encoding="utf-8")
    import cv2

    pack = tmp / "pack"  # the user's pictures of the tiles (here: the art itself)
    pack.mkdir()
    for key, face in renderer.pack.faces.items():
        cv2.imwrite(str(pack / f"{key}.png"), face)
    return out, setup, game


def test_replay_reads_the_pictures_without_ground_truth(video: tuple[Path, Path, Game], tmp_path: Path, capsys) -> None:
    """replay enrolls from the video's first still frame with the setup of --setup (and the tiles of
    --pack) and reads every picture with the recognizer; the progress bar runs to the end."""
    out, setup, game = video
    target = tmp_path / "read.json"
    pack = str(out.parent / "pack")
    code = main(["replay", str(out), "--setup", str(setup), "--moves", "1", "--pack", pack, "-o", str(target)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    moves = json.loads(target.read_text())["moves"]
    # the last move is followed by only a second of quiet table: it may still wait for more
    assert moves[:5] == _expected(game, 5) and moves == _expected(game, len(moves))
    assert "the camera pipeline, enrolled from frame" in captured.out
    assert "100.0%" in captured.err
    # without the setup move there is nothing to enroll from; --truth needs the ground truth
    for argv, words in [
        (["--players", "Ada:red,Bo:blue"], "must hold the setup move"),
        (["--setup", str(setup), "--moves", "1", "--truth"], "no ground truth"),
        (["--setup", str(setup), "--enrollment", str(tmp_path / "none.json")], "no such enrollment file"),
    ]:
        code = main(["replay", str(out), *argv, "-o", str(tmp_path / "x.json")])
        err = capsys.readouterr().err
        assert code == 2 and words in err and err.count("\n") == 1, (argv, err)


def test_serve_camera_bad_sources_are_one_line(tmp_path: Path, capsys) -> None:
    (tmp_path / "empty").mkdir()
    bad_enrollment = tmp_path / "box.json"
    bad_enrollment.write_text("{", encoding="utf-8")
    cases = [
        ([str(tmp_path / "no.mp4")], "no such camera, video file, folder or URL"),
        (["ftp://example.org/table"], "unsupported URL scheme"),
        ([str(tmp_path / "empty")], "holds no images"),
        ([str(tmp_path / "empty"), "--enrollment", str(bad_enrollment)], "holds no images"),
        (["0", "--enrollment", str(bad_enrollment)], "not valid JSON"),
        (["0", "--seats", "a,b"], "--seats"),
    ]
    for extra, words in cases:
        code = main(["serve", "--port", "0", "--data", str(tmp_path / "data"), "--camera", *extra])
        out, err = capsys.readouterr()
        assert code == 2 and words in err and err.count("\n") == 1, (extra, err)
        assert "listening" not in out, out  # the mistake comes before the server says it is up


# --- the enrollment flow ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def table() -> dict[str, Any]:
    """A 2-player game and a 640 x 360 picture of its table after the setup, with one with a hand."""
    from games.tribes.sim.packs import builtin_pack
    from games.tribes.sim.render import Renderer
    from games.tribes.vision.layout import default_layout
    from sim.camera import Camera
    from sim.effects import Effects
    from sim.hands import Hand

    game = simulate(2, 1, "greedy")
    layout = default_layout().with_seats((0, 2))
    renderer = Renderer(layout, builtin_pack("sketch"), seed=1)
    camera = Camera.framing(layout, width=640, height=360, tilt=15, azimuth=20, margin=0.12)
    fx = Effects(noise=2.0)
    setup = renderer.render(game.states[1], camera, None, fx, frame_seed=1, truth=False).image
    hand = renderer.render(
        game.states[1], camera, None, fx, [Hand(0, layout.hex_center(0, (0, 0)), 40.0)], frame_seed=2, truth=False
    ).image
    return {"game": game, "setup": setup, "hand": hand}


def test_enrollment_flow_needed_then_enrolled(tmp_path: Path, table: dict[str, Any]) -> None:
    """Camera mode without an enrollment: 'needed'; each user mistake raises EnrollMistake (a
    ValueError, one line) and leaves the state 'failed'; after the setup is entered and the table is
    still, enroll() learns the box from the newest picture, saves it in the data folder and hands a
    recognizer over, which reads the setup as the game says."""
    import numpy as np

    from tracker.enroll_flow import ENROLLMENT_NAME, EnrollFlow, EnrollMistake

    game = table["game"]
    rt = GameRuntime(tmp_path, fsync=False)
    got: list[Any] = []
    flow = EnrollFlow(rt, tmp_path, got.append)
    st = flow.status()
    assert st["state"] == "needed" and st["path"] is None and st["learned"] == [] and st["message"]
    assert set(st) == {"state", "message", "learned", "missing", "path"}

    def mistake(words: str) -> None:
        with pytest.raises(EnrollMistake, match=words) as info:
            flow.enroll()
        assert isinstance(info.value, ValueError) and "\n" not in str(info.value)
        assert flow.status()["state"] == "failed" and flow.status()["message"] == str(info.value)
        assert got == []

    mistake("no game")
    rt.new_game([(p.name, p.colour) for p in game.states[0].players])
    mistake("setup is not entered")
    rt.submit(game.moves[0])
    mistake("no camera picture")
    blank = np.full((360, 640, 3), 128, np.uint8)
    for k in range(12):  # a still picture without the table's markers
        flow.look(blank, k / 10)
    mistake("no table markers")
    for k in range(3):  # a hand over the table: not still
        flow.look(table["hand"] if k % 2 else table["setup"], 2 + k / 10)
    mistake("hands or motion")
    assert not (tmp_path / ENROLLMENT_NAME).exists()
    for k in range(25):
        still = flow.look(table["setup"], 3 + k / 10)
    assert still
    st = flow.enroll()
    assert st["state"] == "enrolled" and st == flow.status()
    assert st["path"] == str(tmp_path / ENROLLMENT_NAME) and Path(st["path"]).exists()
    assert "hex:resource:goat" in st["learned"] and "row:action:off" in st["learned"]
    assert "row:event:wolves" in st["missing"]  # events are not on the table at setup
    (rec,) = got
    for k in range(7):  # the stream's motion gate: still for a while
        obs = rec.read(table["setup"], k, k / 10)
    assert obs.registered and obs.settled
    row = [s.tile for s in obs.row if s.tile]
    assert row == [r.tile for r in game.states[1].row]
    # a later mistake keeps the enrollment in use
    mistake_flow = flow
    mistake_flow.look(table["hand"], 9.0)
    with pytest.raises(EnrollMistake, match="hands or motion"):
        mistake_flow.enroll()
    assert flow.status()["state"] == "enrolled" and "still in use" in flow.status()["message"]


def test_camera_attach_serves_the_enrollment_callables(tmp_path: Path) -> None:
    """webui.camera.attach hands enroll= and enrollment_status= to the page's enrollment endpoints:
    GET /api/camera/enrollment answers the status, POST /api/camera/enroll runs the enrollment."""
    from tracker.link import TrackerLink
    from webui.app import create_app
    from webui.camera import FrameHub, attach

    rt = runtime_at(tmp_path, simulate(2, 1, "greedy"), 1)
    app = create_app(rt)
    calls: list[str] = []
    state = {"state": "needed", "message": "m", "learned": [], "missing": [], "path": None}

    def status() -> dict[str, Any]:
        return dict(state)

    def enroll() -> dict[str, Any]:
        calls.append("enroll")
        state.update(state="enrolled", message="learned", learned=["hex:resource:goat"])
        return dict(state)

    attach(app, TrackerLink(rt, freeze_gc=False), FrameHub(), enroll=enroll, enrollment_status=status)
    client = app.test_client()
    assert client.get("/api/camera/enrollment").get_json()["state"] == "needed"
    answer = client.post("/api/camera/enroll", json={})
    assert answer.status_code == 200 and answer.get_json()["learned"] == ["hex:resource:goat"]
    assert calls == ["enroll"]
    assert client.get("/api/camera/enrollment").get_json()["state"] == "enrolled"
    app.extensions["companion"]["camera"]["feed"].close()


def test_an_exhausted_tile_is_read_by_its_back() -> None:
    """The camera pipeline reads an exhausted tile as its back (resource unknown, vision.evaluation
    scores only 'exhausted'): the tracker's land fact of an exhausted tile is (None, True) both as
    predicted and as read, whatever resource a reader names; a face-up tile keeps its resource."""
    from games.tribes.rules.moves import Achieve
    from games.tribes.tracker.facts import Seating, observation_facts, table_view
    from games.tribes.vision.observation import HexReading, Observation

    game = simulate(2, 1, "greedy")
    i = next(k for k, m in enumerate(game.moves) if isinstance(m, Achieve) and m.jokers)
    state = game.states[i + 1]
    view = table_view(state, Seating.of(state.players))
    g = game.states[i].to_move
    h = game.moves[i].jokers[0]
    tile = state.players[g].land[h]
    assert tile.exhausted and view[("land", g, h)] == (None, True)
    read = [
        HexReading(g, h, True, r, True)  # the back, with or without a resource named
        for r in (None, tile.resource)
    ]
    for reading in read:
        facts = observation_facts(Observation(hexes=(reading,)))
        assert facts[("land", g, h)][0] == (None, True)
    up = next(x for x, t in state.players[g].land.items() if not t.exhausted)
    assert view[("land", g, up)] == (state.players[g].land[up].resource, False)


def test_a_weakly_read_reveal_is_never_passed_over(tmp_path: Path) -> None:
    """R-ACH-8: the tile turned up above an achievement, read with the modest confidence the camera
    pipeline gives photographed tiles (0.77; the face-down neighbours at 0.5, "cannot tell"): the
    tracker does not call the table matched with the reveal missing from the record; it commits the
    read tile or asks with it first."""
    from dataclasses import replace

    from games.tribes.rules.moves import Reveal
    from tests.tracker.footage import Footage, feed, find

    game = simulate(2, 1, "greedy")
    i = find(game, lambda s, m: isinstance(m, Reveal))
    after = game.states[i + 1]
    rt = runtime_at(tmp_path, game, i)  # the achievement is in the record, the reveal pending

    def weak(_k: int, obs: Any) -> Any:
        board = tuple(replace(b, tile_conf=0.77 if b.tile else 0.5) if b.era > 1 else b for b in obs.board)
        return replace(obs, board=board)

    run = feed(rt, Footage().show(game.states[i], 0.3, edit=weak).hand().show(after, 3.0, edit=weak))
    final = run.statuses[-1]
    if run.moves == [str(m) for m in game.moves[: i + 1]]:
        assert not run.prompts()  # committed as read
    else:
        assert final.kind == "prompt" and final.prompt is not None
        assert [str(m) for m in final.prompt.options[0].moves] == [str(game.moves[i])]


def test_no_setup_is_read_off_exhausted_starting_tiles() -> None:
    """A table whose starting tiles show their backs (exhausted: resource unseen) gives no setup
    proposal (the setup's resources cannot be read there) instead of an unprintable Setup move."""
    from games.tribes.tracker.facts import Seating, observation_facts, observation_of_view, table_view
    from games.tribes.tracker.propose import TableRead, propose
    from tracker.evidence import Evidence

    game = simulate(2, 1, "greedy")
    start, setup = game.states[0], game.states[1]
    seating = Seating.of(setup.players)
    view = dict(table_view(setup, seating))
    exhausted = {k: (None, True) for k, v in view.items() if k[0] == "land" and v is not None}
    assert exhausted
    view.update(exhausted)
    read = TableRead(Evidence.fuse([observation_facts(observation_of_view(view))]), seating)
    assert propose(start, read) == []
    plain = TableRead(Evidence.fuse([observation_facts(observation_of_view(table_view(setup, seating)))]), seating)
    assert [str(m) for m in propose(start, plain)] == [str(game.moves[0])]
