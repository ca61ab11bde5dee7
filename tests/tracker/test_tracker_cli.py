"""``table-companion replay --truth`` (a rendered game video read from its ground truth into a journal
with a progress bar), ``serve --camera`` and ``demo``: mistakes are one line and exit status 2. The
replay of the pictures themselves is in test_camera_wiring.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from games.tribes.rules.game import simulate


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    """Moves 0..9 of a 2-player game rendered to a small video; the journal of its first move (the
    setup) as --setup."""
    pytest.importorskip("cv2")
    from games.tribes.sim.packs import builtin_pack
    from games.tribes.sim.render import Renderer
    from games.tribes.sim.video import Pace, render_video
    from games.tribes.vision.layout import default_layout
    from sim.camera import Camera

    tmp = tmp_path_factory.mktemp("replay")
    game = simulate(2, 5, "greedy")
    layout = default_layout().with_seats((0, 2))
    renderer = Renderer(layout, builtin_pack("bold"), seed=2)
    camera = Camera.framing(layout, width=320, height=180, tilt=10, margin=0.12)
    out = tmp / "game.avi"
    # 5 pictures a second with the renderer's half second of rest after each move: two settled
    # pictures a rest, which the tracker takes (min_span_s); half the pictures of 10 a second to render
    render_video(game, renderer, camera, out, start=1, end=9, pace=Pace(fps=5.0))
    setup = tmp / "setup.json"
    setup.write_text(json.dumps(game.to_dict()), encoding="utf-8")
    return out, setup, [str(m) for m in game.moves[:9]]


def test_replay_writes_the_games_journal(video: tuple[Path, Path, list[str]], tmp_path: Path, capsys) -> None:
    out, setup, moves = video
    target = tmp_path / "read.json"
    code = main(["replay", str(out), "--setup", str(setup), "--moves", "1", "--truth", "-o", str(target)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    expected = moves[:-1] if moves[-1].startswith("draw ") else moves
    assert json.loads(target.read_text())["moves"] == expected
    assert "100.0%" in captured.err and "frame" in captured.err  # the progress bar
    assert f"{target}: {len(expected)} moves" in captured.out


def test_replay_mistakes_are_one_line(video: tuple[Path, Path, list[str]], tmp_path: Path, capsys) -> None:
    out, _setup, _ = video
    cases = [
        (["replay", str(tmp_path / "none.mp4"), "--players", "A:red,B:blue", "-o", "x.json"], "no such file"),
        (["replay", str(out), "-o", "x.json"], "name the players"),
        (["replay", str(out), "--players", "A-red", "-o", "x.json"], "is not NAME:COLOUR"),
        (["replay", str(out), "--setup", str(tmp_path / "missing.json"), "-o", "x.json"], "missing.json"),
    ]
    plain = tmp_path / "plain.avi"
    plain.write_bytes(b"")
    cases.append((["replay", str(plain), "--players", "A:red,B:blue", "-o", "x.json"], "cannot be opened"))
    cases.append((["replay", str(out), "--players", "A:red,B:blue", "--fps", "0", "-o", "x.json"], "--fps"))
    for argv, words in cases:
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and words in err and err.count("\n") == 1, (argv, err)


def test_serve_camera_and_demo_mistakes_are_one_line(tmp_path: Path, capsys) -> None:
    cases = [
        (["serve", "--port", "0", "--data", str(tmp_path), "--camera", str(tmp_path / "no.mp4")], "no such camera"),
        (["serve", "--port", "0", "--data", str(tmp_path), "--camera", "sim", "--demo"], "choose one"),
        (["demo", "--speed", "0", "--no-browser"], "--speed"),
        (["demo", "--width", "10", "--no-browser"], "--width"),
    ]
    for argv, words in cases:
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and words in err and err.count("\n") == 1, (argv, err)
