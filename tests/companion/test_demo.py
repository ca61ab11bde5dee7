"""The demo as players watch it: a busy port found out at once (one line, exit 2), the page's speed
control (``POST /api/demo``) for ``serve --demo`` and for the camera demo, whose frame source leaves out
pictures of moving hands at higher speeds and still commits the game's moves, and the simulated players
answering the camera's questions themselves."""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.play import DEMO_SPEEDS, DemoAnswers, DemoFrames, DemoSeries
from games.tribes.rules.game import simulate
from session.runtime import GameRuntime
from tracker.tracker import Option
from webui.app import create_app
from webui.demo import DemoPlayer, control_of, register


def test_a_busy_port_is_one_line_and_exit_2_before_anything_is_rendered(capsys):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        t0 = time.monotonic()
        code = main(["demo", "--port", str(port), "--no-browser"])
        took = time.monotonic() - t0
    out, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and f"127.0.0.1:{port}" in err and "--port" in err
    assert took < 3.0, took  # before the table is rendered and the camera pipeline enrolled (10–19 s)
    assert "rendering" not in out


@dataclass
class _Frame:
    index: int
    settled: bool
    time: float = 0.0


class _Camera:
    def image(self, f: Any) -> Any:
        return f.index


@dataclass
class _Playback:
    frames: list[_Frame]
    fps: float = 10.0


def test_at_a_higher_speed_only_every_nth_picture_of_a_moving_hand_is_rendered():
    # 3 quiet frames, a hand for 9, 2 quiet, a hand for 3, 1 quiet
    pattern = [True] * 3 + [False] * 9 + [True] * 2 + [False] * 3 + [True]
    frames = [_Frame(i, s) for i, s in enumerate(pattern)]
    source = DemoFrames(_Playback(frames), _Camera())
    assert [f.image for f in source] == list(range(len(frames)))  # speed 1: every frame
    seen: list[float] = []
    source.on_speed = seen.append
    source.speed = 4
    kept = [f.image for f in source]
    quiet = [i for i, s in enumerate(pattern) if s]
    assert set(quiet) <= set(kept)  # the pipeline needs every quiet frame to commit
    assert {3, 11, 14, 16} <= set(kept)  # the first and last picture of each movement
    assert kept == sorted(kept) and len(kept) < len(frames) and source.skipped == len(frames) - len(kept)
    assert seen == [4.0]
    with pytest.raises(ValueError):
        source.speed = 3
    assert DEMO_SPEEDS[-1] == 8


def test_the_finished_table_lingers_while_the_players_have_something_to_settle():
    frames = [_Frame(i, True, i / 10) for i in range(3)]
    todo = [True, True, True]
    source = DemoFrames(_Playback(frames), _Camera(), linger=lambda: bool(todo and todo.pop()), linger_s=1.0)
    out = list(source)
    assert [f.image for f in out] == [0, 1, 2, 3, 4, 5]  # the last picture again, three more times
    assert [round(f.frame.time, 2) for f in out[3:]] == [0.3, 0.4, 0.5] and source.lingered == 3
    assert out[-1].frame.settled
    source = DemoFrames(_Playback(frames), _Camera(), linger=lambda: True, linger_s=1.0)
    assert len(list(source)) == 3 + 10  # at most linger_s seconds of game time
    assert len(list(DemoFrames(_Playback(frames), _Camera()))) == 3  # nothing to settle


class _Link:
    def __init__(self, status: Any) -> None:
        self.status = status
        self.answers: list[tuple[int, int]] = []

    def answer(self, item: int, option: int) -> None:
        self.answers.append((item, option))


@dataclass
class _Status:
    prompt: Any = None
    desync: Any = None


@dataclass
class _Prompt:
    id: int
    options: tuple[Option, ...]


@dataclass
class _Desync:
    id: int
    state_id: int
    options: tuple[Option, ...]


def test_the_simulated_players_answer_the_cameras_question_with_what_they_did(tmp_path):
    game = simulate([("Ann", "red"), ("Bob", "blue")], seed=2, policies="random")
    rt = GameRuntime(tmp_path, fsync=False)
    rt.new_game([("Ann", "red"), ("Bob", "blue")])
    for m in game.moves[:5]:
        rt.submit(m)
    wrong, right = Option((game.moves[6],)), Option((game.moves[5],))
    link = _Link(_Status(prompt=_Prompt(7, (wrong, Option(()), right))))
    now = [0.0]
    answers = DemoAnswers(game, rt, link, delay=3.0, clock=lambda: now[0])
    answers.tick()
    now[0] = 2.0
    answers.tick()
    assert link.answers == []  # the question stays on the page a moment
    now[0] = 3.5
    answers.tick()
    answers.tick()
    assert link.answers == [(7, 2)] and answers.answered == 1  # once, with what the game did
    undo = Option((), back=1)
    assert answers.choice((Option((game.moves[7],)), undo)) == 1  # taking back is right when it leads back to the game
    # a desync that stays: the players correct the record to what the table shows
    rt.submit(game.moves[5])
    rt.correct(5, next(m for m in rt.game.rules.legal_moves(rt.snapshot().states[5]) if m != game.moves[5]))
    table = list(game.moves[:8])
    link.status = _Status(desync=_Desync(9, rt.state_id, ()))
    answers.shows = lambda: table
    answers.tick()
    now[0] = 10.0
    answers.tick()
    assert [str(m) for m in rt.snapshot().moves] == [str(m) for m in table] and answers.fixed == 1
    rt.close()


def test_the_simulated_players_correct_a_record_that_went_astray(tmp_path):
    """A prompt none of whose options is what they did, and a wrong move the camera took without a
    question: both are corrected by hand to what the table shows, once each, after ``delay``."""
    game = simulate([("Ann", "red"), ("Bob", "blue")], seed=2, policies="random")
    rt = GameRuntime(tmp_path, fsync=False)
    rt.new_game([("Ann", "red"), ("Bob", "blue")])
    for m in game.moves[:5]:
        rt.submit(m)
    other = next(m for m in rt.game.rules.legal_moves(rt.snapshot().states[5]) if m != game.moves[5])
    link = _Link(_Status(prompt=_Prompt(3, (Option((other,)), Option(())))))
    now = [0.0]
    table = list(game.moves[:7])
    answers = DemoAnswers(game, rt, link, delay=3.0, clock=lambda: now[0], shows=lambda: table)
    answers.tick()
    now[0] = 4.0
    answers.tick()
    assert link.answers == [] and answers.fixed == 1  # no option was right: entered by hand
    assert [str(m) for m in rt.snapshot().moves] == [str(m) for m in table]
    # the camera took a wrong move silently: no question is open, the page shows the wrong move
    rt.correct(5, other, rest="truncate")
    link.status = _Status()
    now[0] = 5.0
    answers.tick()
    assert answers.noticed == 0  # not at once
    now[0] = 7.0
    answers.tick()
    assert answers.noticed == 0
    now[0] = 8.5
    answers.tick()
    assert answers.noticed == 1 and [str(m) for m in rt.snapshot().moves] == [str(m) for m in table]
    now[0] = 20.0
    answers.tick()
    assert answers.noticed == 1  # a right record is left alone
    rt.close()


def test_the_page_sets_the_speed_of_the_demo(tmp_path):
    rt = GameRuntime(tmp_path, fsync=False)
    client = create_app(rt).test_client()
    assert "demo" not in client.get("/api/state").get_json()
    assert client.post("/api/demo", json={"speed": 2}).status_code == 404  # no demo plays
    demo = DemoPlayer(rt, players=2, pace=1.0)
    assert control_of(rt) is demo
    assert client.get("/api/state").get_json()["demo"] == {"speed": 1.0, "speeds": [0.5, 1.0, 2.0, 4.0]}
    r = client.post("/api/demo", json={"speed": 4})
    assert r.status_code == 200 and r.get_json()["demo"]["speed"] == 4.0
    assert demo.pace == 0.25
    for bad in (3, "fast", True):
        assert client.post("/api/demo", json={"speed": bad}).status_code == 400
    frames = DemoFrames(_Playback([_Frame(0, True)]), _Camera())
    register(rt, frames)  # the camera demo's frame source is a speed control too
    assert client.post("/api/demo", json={"speed": 8}).get_json()["demo"] == {
        "speed": 8.0,
        "speeds": [1.0, 2.0, 4.0, 8.0],
    }
    rt.close()


@dataclass
class _Session:
    frames: DemoFrames
    name: str

    def recognize(self, frame: Any) -> str:
        return f"{self.name}:{frame.image}"

    def annotate(self, frame: Any, obs: Any, status: dict) -> bytes:
        return self.name.encode()

    def drop(self) -> None:
        EVENTS.append(f"drop {self.name}")


EVENTS: list[str] = []


def test_the_camera_demo_plays_game_after_game_at_the_speed_set():
    from sim.effects import _bank
    from sim.textures import _cached_texture

    def session(k: int) -> _Session:
        cached = _cached_texture.cache_info().currsize + _bank.cache_info().currsize
        EVENTS.append(f"make g{k}" + (" (pictures of an earlier game cached)" if k and cached else ""))
        _bank(k, 4, 4)  # a picture cached while this game plays
        frames = [_Frame(i, settled=i in (0, 6)) for i in range(7)]  # a hand over the table for 5 frames
        return _Session(DemoFrames(_Playback(frames), _Camera()), f"g{k}")

    EVENTS.clear()

    series = DemoSeries(session(0), session, between=0.0, games=3)
    series.speed = 2
    read = [series.recognize(f) for f in series]
    assert series.played == 3 and series.current.name == "g2" and series.current.frames.speed == 2.0
    assert read[:6] == ["g0:0", "g0:1", "g0:2", "g0:4", "g0:5", "g0:6"]  # every 2nd hand picture, first and last
    assert read[-6:] == ["g2:0", "g2:1", "g2:2", "g2:4", "g2:5", "g2:6"]  # the speed carried over
    assert series.annotate(None, None, {}) == b"g2"
    # each game's table is let go of before the next is rendered: never two in memory
    assert EVENTS == ["make g0", "drop g0", "make g1", "drop g1", "make g2"]


def test_a_finished_demo_game_lets_go_of_its_table_and_recognizer(tmp_path: Path) -> None:
    import gc
    import weakref

    from companion.play import sim_session

    s = sim_session(tmp_path, players=2, seed=3, end=4, vision="truth", width=320, answer_after=None)
    table = weakref.ref(s.table_camera)
    s.drop()
    gc.collect()
    assert table() is None  # nothing else held the rendered table
    with pytest.raises(RuntimeError, match="over"):
        s.recognize(None)
    s.runtime.close()
