"""The console command: ``table-companion [--game ID] …`` for every game, its generic rules commands,
the page demo of a game without a synthetic table, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import games
from companion.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_listed_game(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    for gid in games.available():
        assert out.count(gid) >= 1
    assert "toy" not in out and "(default)" in out


def test_an_unknown_game_is_one_line_and_exit_2(capsys):
    code, _, err = run(capsys, "--game", "chess", "rules", "simulate")
    assert code == 2 and err.count("\n") == 1 and "unknown game 'chess'" in err


@pytest.mark.parametrize("gid", [g for g in games.available(hidden=True) if g != "tribes"])
def test_generic_rules_commands_round_trip_a_game(capsys, tmp_path, gid):
    """new -> simulate -> replay -> score -> legal, all through the game interface."""
    journal = tmp_path / "g.json"
    code, _, err = run(capsys, "--game", gid, "rules", "simulate", "--seed", "3", "--quiet", "-o", str(journal))
    assert code == 0, err
    doc = json.loads(journal.read_text())
    assert doc["game"] == gid and doc["moves"]
    code, out, _ = run(capsys, "--game", gid, "rules", "replay", str(journal), "--quiet")
    assert code == 0 and f"replayed {len(doc['moves'])} moves" in out
    code, out, _ = run(capsys, "--game", gid, "rules", "score", str(journal), "--json")
    assert code == 0 and json.loads(out)["over"] is True
    half = tmp_path / "half.json"
    code, _, _ = run(
        capsys, "--game", gid, "rules", "replay", str(journal), "--to", "3", "--quiet", "--position-out", str(half)
    )
    assert code == 0
    code, out, _ = run(capsys, "--game", gid, "rules", "legal", str(half), "--json", "--moves", "3")
    assert code == 0 and json.loads(out)["moves"]


def test_generic_apply_refuses_an_illegal_move_naming_the_clause_and_writes_nothing(capsys, tmp_path):
    game = tmp_path / "toy.json"
    assert run(capsys, "--game", "toy", "rules", "new", "--players", "Ann,Bob", "-o", str(game))[0] == 0
    before = game.read_text()
    code, _, err = run(capsys, "--game", "toy", "rules", "apply", str(game), "coin heads", "-o", str(game))
    assert code == 2 and err.count("\n") == 1 and "T-4" in err
    assert game.read_text() == before
    code, _, err = run(capsys, "--game", "toy", "rules", "new", "--players", "Ann", "-o", str(game))
    assert code == 2 and "played by 2 to 4" in err


def test_the_page_demo_of_a_game_without_a_synthetic_table_plays_moves(tmp_path):
    """Run from another folder, as a user does: only what pip installs is on the path."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "--game",
            "toy",
            "demo",
            "--seconds",
            "2",
            "--speed",
            "20",
            "--port",
            "0",
            "--no-browser",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    played = int(out.stdout.rsplit("played ", 1)[1].split()[0])
    assert played >= 5
