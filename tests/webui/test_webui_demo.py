"""``serve --demo``: simulated players play whole games through the runtime, yielding to people."""

from __future__ import annotations

import time

from games.tribes.rules.game import Game
from session.runtime import GameRuntime
from tests.webui.webui_helpers import call, start_server
from webui.demo import DemoPlayer


def test_demo_plays_a_whole_game_that_replays(tmp_path):
    rt = GameRuntime(tmp_path, fsync=False)
    demo = DemoPlayer(rt, players=2, policy="random", seed=5)
    for _ in range(5000):
        if not demo.step():
            break
    snap = rt.snapshot()
    assert snap.state.is_over
    assert Game.from_dict(rt.export()).state == snap.state
    rt.close()
    assert GameRuntime(tmp_path).snapshot().state == snap.state  # and the journal resumes it


def test_demo_yields_to_a_move_entered_meanwhile(tmp_path):
    rt = GameRuntime(tmp_path, fsync=False)
    demo = DemoPlayer(rt, players=3, seed=2)
    for _ in range(6):
        demo.step()
    before = rt.state_id
    if rt.undo_status()[0]:  # a person acts first
        rt.undo()
    else:
        rt.submit(_any_legal(rt))
    demo.step()  # based on the new state: still a legal input
    assert rt.state_id == before + 2


def _any_legal(rt):
    from games.tribes.rules.chance import chance_outcomes
    from games.tribes.rules.legal import legal_moves

    state = rt.snapshot().state
    if state.is_chance and state.pending.kind != "setup":
        return chance_outcomes(state)[0][0]
    return next(iter(legal_moves(state)))


def test_serve_demo_is_alive(tmp_path):
    proc, base = start_server(tmp_path / "data", "--demo", "--pace", "0.05")
    try:
        deadline = time.monotonic() + 10
        moves = 0
        while time.monotonic() < deadline and moves < 10:
            status, view = call(base + "/api/state")
            assert status == 200
            moves = view.get("moves", 0)
            time.sleep(0.1)
        assert moves >= 10
        status, leds = call(base + "/api/leds")  # the demo shows a virtual strip by default
        assert status == 200 and (leds["enabled"], leds["status"], leds["port"]) == (True, "connected", "virtual")
        assert any(c != [0, 0, 0] for c in leds["frame"]) or view["prompt"]["kind"] != "choose"
    finally:
        proc.terminate()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
