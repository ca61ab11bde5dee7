"""``table-companion rules …`` (``rules simulate`` is the terminal demo): happy paths, and one clear line
with exit 2 for mistakes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_simulate_prints_a_whole_game_and_the_scores(capsys):
    code, out, err = run(capsys, "rules", "simulate", "--players", "2", "--seed", "3")
    assert code == 0 and not err
    assert "game over after" in out and "final ranking: 1." in out
    assert "provisional" in out  # track VP come from provisional profile values
    assert out.count("\n") > 60


def test_new_legal_apply_score_flow(tmp_path, capsys):
    game = tmp_path / "g.json"
    code, _, err = run(
        capsys, "rules", "new", "--players", "Ann,Bob", "--colours", "red,blue", "--seed", "5", "-o", str(game)
    )
    assert code == 0 and not err
    data = json.loads(game.read_text())
    assert data["moves"][0].startswith("setup ")
    code, out, _ = run(capsys, "rules", "legal", str(game))
    assert "Ann places their first member" in out
    code, _, _ = run(capsys, "rules", "apply", str(game), "start 0,0", "start 1,0", "-o", str(game))
    assert code == 0
    code, out, _ = run(capsys, "rules", "legal", str(game), "--moves", "5")
    assert "[1]" in out and "FREE" in out and "moves:" in out
    code, out, _ = run(capsys, "rules", "legal", str(game), "--json")
    info = json.loads(out)
    assert info["kind"] == "choose" and info["tiles"][0]["free"] and len(info["tiles"]) == 6
    code, out, _ = run(capsys, "rules", "score", str(game), "--json")
    assert json.loads(out)["scores"][1]["bear_teeth"] == 1  # R-SET-9 seat compensation


def test_setup_reported_by_hand(tmp_path, capsys):
    game = tmp_path / "g.json"
    run(capsys, "rules", "new", "--players", "Ann,Bob", "-o", str(game))
    setup = (
        "setup row=off,mov,exp,off-ach,mov-ach,exp-ach era1=jagen,kochen,toepfern,schmuck "
        "lands=goat/horse/wheat,gold/incense/goat"
    )
    code, out, _err = run(capsys, "rules", "apply", str(game), setup, "start 0,0")
    assert code == 0 and json.loads(out)["moves"][1] == "start 0,0"


def test_illegal_move_is_one_line_exit_2_and_file_unchanged(tmp_path, capsys):
    game = tmp_path / "g.json"
    run(capsys, "rules", "new", "--players", "Ann,Bob", "--seed", "1", "-o", str(game))
    before = game.read_text()
    code, out, err = run(capsys, "rules", "apply", str(game), "start 0,0", "start 0,0", "7:off", "-o", str(game))
    assert code == 2 and not out
    assert err.count("\n") == 1 and "R-TURN-1: there is no slot 7" in err
    assert game.read_text() == before


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["rules", "legal", "/nonexistent/g.json"], "cannot read the game file"),
        (["rules", "new", "--players", "Ann"], "Tribes is played by 2 to 4 players"),
        (["rules", "new", "--players", "Ann,Bob", "--colours", "red"], "--colours: lists 1 colours"),
        (["rules", "simulate", "--policy", "clever"], "unknown policy 'clever'"),
        (["rules", "profile", "/nonexistent/p.json"], "cannot read"),
    ],
)
def test_user_mistakes(capsys, args, fragment):
    code, _out, err = run(capsys, *args)
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_replay_and_position_out(tmp_path, capsys):
    journal = tmp_path / "j.json"
    run(capsys, "rules", "simulate", "--players", "3", "--seed", "2", "--quiet", "-o", str(journal))
    pos = tmp_path / "p.json"
    code, out, _ = run(capsys, "rules", "replay", str(journal), "--to", "30", "--position-out", str(pos))
    assert code == 0 and "replayed 30 moves" in out
    assert json.loads(pos.read_text())["format"] == "tribes-position"
    code, out, _ = run(capsys, "rules", "legal", str(pos))
    assert code == 0


def test_simulate_many_and_profile(tmp_path, capsys):
    code, out, _ = run(capsys, "rules", "simulate", "--players", "2", "--games", "3", "--policy", "random")
    assert code == 0 and "3 games in" in out and "(0 unfinished)" in out
    export = tmp_path / "mine.json"
    code, out, _ = run(capsys, "rules", "profile", "--provisional", "--export", str(export))
    assert "provisional value(s) — check your box" in out and "provisional: tracks.offspring.vp[5]" in out
    code, out, _ = run(capsys, "rules", "profile", str(export))
    assert code == 0 and "valid" in out


def test_console_entry_point_has_no_traceback_on_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "rules", "score", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "bad.json: line 1 column 2: not valid JSON" in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "rules", "bogus"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2 and "invalid choice" in proc.stderr
