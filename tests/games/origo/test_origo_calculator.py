"""The battle calculator's pure functions (O-ATK-5…9) and the ``battle`` console command."""

from __future__ import annotations

import argparse
import itertools
import json

import pytest

from games.origo import cli
from games.origo.rules import battle as calc
from games.origo.rules.position import state_to_dict
from games.origo.rules.state import Side
from tests.games.origo.origo_helpers import play, setup, start


def test_O_ATK_5_O_ATK_6_points_from_cards_and_shields():
    assert calc.points(2, 3, 1, 0) == (4, 3)
    assert calc.points(0, 1, 3, 2) == (6, 5)


@pytest.mark.parametrize(
    ("a", "d", "lead", "needed"),
    [
        (5, 3, Side.ATTACKER, 1),
        (6, 3, Side.ATTACKER, 2),
        (4, 3, Side.ATTACKER, 1),
        (3, 3, Side.DEFENDER, 1),
        (3, 5, Side.DEFENDER, 2),
        (3, 6, Side.DEFENDER, 2),
        (2, 7, Side.DEFENDER, 3),
    ],
)
def test_O_ATK_7_a_tie_is_the_defenders_and_the_cards_the_side_behind_needs(a, d, lead, needed):
    assert calc.leading(a, d) is lead
    assert calc.cards_needed(a, d) == needed
    # independent check: the side behind turns the battle with exactly that many cards, not one fewer
    behind = calc.behind(a, d)

    def after(k):
        return calc.leading(a + 2 * k, d) if behind is Side.ATTACKER else calc.leading(a, d + 2 * k)

    assert after(needed) is behind and after(needed - 1) is not behind


def test_O_ATK_8_to_answer_is_the_attacker_while_he_opens_then_the_side_behind():
    assert calc.to_answer(5, 1, opening=True) is Side.ATTACKER
    assert calc.to_answer(5, 1, opening=False) is Side.DEFENDER
    assert calc.to_answer(3, 3, opening=False) is Side.ATTACKER


def _brute(a, d, la, ld):
    """The play-out by the letter: the side behind plays one card while it has one."""
    while True:
        if a > d:
            if ld == 0:
                return Side.ATTACKER, a, d
            ld, d = ld - 1, d + 2
        else:
            if la == 0:
                return Side.DEFENDER, a, d
            la, a = la - 1, a + 2


def test_O_ATK_9_play_out_agrees_with_the_letter_of_the_rule_for_every_small_case():
    for a, d, la, ld in itertools.product(range(0, 9), range(1, 9), range(0, 6), range(0, 6)):
        out = calc.play_out(a, d, la, ld)
        assert (out.winner, out.attacker_points, out.defender_points) == _brute(a, d, la, ld)
        assert 0 <= out.attacker_cards <= la and 0 <= out.defender_cards <= ld
        assert calc.leading(out.attacker_points, out.defender_points) is out.winner
    with pytest.raises(ValueError):
        calc.play_out(1, 1, -1, 0)


def test_outlook_table_rows_are_attacker_cards_columns_defender_cards():
    t = calc.outlook_table(3, 1, 2, 3)
    assert len(t) == 3 and all(len(r) == 4 for r in t)
    assert t[0][0] == "attacker" and t[0][1] == "defender" and t[2][1] == "attacker"


def test_figures_of_a_position():
    s = setup(start(), {"A1": "Ann", "C1": "Ann", "B1": "Bob", "B2": "Bob"}, founded=("L1",))
    f = calc.figures(s, s.board.find("B1"), 0, attacker_cards=1)
    assert (f.attacker_shields, f.defender_shields, f.attacker_points, f.defender_points) == (2, 2, 4, 2)
    assert f.leading is Side.ATTACKER and f.behind is Side.DEFENDER and f.cards_needed == 1
    assert json.loads(json.dumps(f.to_dict()))["leading"] == "attacker"
    with pytest.raises(ValueError, match="holds no shield"):
        calc.figures(s, s.board.find("A2"), 0)


# --- the console command -----------------------------------------------------------------------


def run(argv, capsys):
    parser = argparse.ArgumentParser(prog="table-companion")
    sub = parser.add_subparsers(dest="cmd", required=True)
    cli.register(sub)
    args = parser.parse_args(argv)
    code = args.func(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def position(tmp_path):
    s = setup(start(), {"A1": "Ann", "C1": "Ann", "B1": "Bob", "B2": "Bob"}, founded=("L1",), hands=(4, 10))
    from games.origo.rules.board import board_spec

    doc = state_to_dict(s, board=board_spec(s.board))
    p = tmp_path / "position.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    return p


def test_cli_battle_prints_points_the_winner_and_the_cards_needed(position, capsys):
    code, out, err = run(
        ["battle", "--board", str(position), "--field", "B1", "--attacker", "Ann", "--cards", "1"], capsys
    )
    assert code == 0 and not err
    assert "Ann attacks B1 (One, a founded land) held by Bob" in out
    assert "Ann: 1 card(s) x 2 + 2 adjacent shield(s) = 4 points" in out
    assert "Bob: 0 card(s) x 2 + 1 adjacent shield(s) + 1 attacked shield = 2 points" in out
    assert "if nobody plays on: Ann wins (4:2)" in out
    assert "Bob is behind and needs 1 more card(s) to draw level" in out


def test_cli_battle_play_out_and_the_moves_that_record_it(position, capsys):
    code, out, _ = run(
        [
            "battle",
            "--board",
            str(position),
            "--field",
            "b1",
            "--attacker-left",
            "1",
            "--defender-left",
            "3",
            "--moves",
            "--json",
        ],
        capsys,
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["figures"]["attacker_points"] == 4
    assert doc["play_out"]["winner"] == "defender"  # 4:2, 4:4, 6:4, 6:6 and Ann has no card left
    assert doc["moves"] == ["attack Ann B1", "stop Ann", "card Bob", "card Ann", "card Bob", "stop Ann"]
    # the recorded moves replay through the engine to the predicted end
    s = setup(start(), {"A1": "Ann", "C1": "Ann", "B1": "Bob", "B2": "Bob"}, founded=("L1",), hands=(4, 10))
    end = play(s, *doc["moves"])
    assert end.owners[end.board.find("B1")] == 1 and end.out == (1, 0)


def test_cli_battle_reads_the_battle_in_progress(tmp_path, capsys):
    s = setup(start(), {"A1": "Ann", "B1": "Bob"}, founded=("L1",))
    s = play(s, "attack Ann B1", "card Ann")
    p = tmp_path / "battle.json"
    from games.origo.rules.board import board_spec

    p.write_text(json.dumps(state_to_dict(s, board=board_spec(s.board))), encoding="utf-8")
    code, out, _ = run(["battle", "--board", str(p)], capsys)
    assert code == 0 and "Ann: 2 card(s) x 2 + 1 adjacent shield(s) = 5 points" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--field", "Z9"], "the board has no field 'Z9'"),
        (["--field", "A2"], "O-ATK-1: A2 is free"),
        (["--field", "B1", "--attacker", "Cem"], "nobody called 'Cem' plays"),
        (["--field", "B1", "--cards", "0"], "--cards must be at least 1"),
        ([], "no battle is in progress in this position"),
    ],
)
def test_cli_battle_mistakes_are_one_line_and_exit_2(position, capsys, argv, fragment):
    code, out, err = run(["battle", "--board", str(position), *argv], capsys)
    assert code == 2 and not out
    assert fragment in err and err.count("\n") == 1


def test_cli_battle_a_missing_or_corrupt_file_is_one_line(tmp_path, capsys):
    code, _, err = run(["battle", "--board", str(tmp_path / "nope.json"), "--field", "B1"], capsys)
    assert code == 2 and "cannot read the game file" in err and err.count("\n") == 1
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "origo-position", "version": 1}', encoding="utf-8")
    code, _, err = run(["battle", "--board", str(bad), "--field", "B1"], capsys)
    assert code == 2 and "players: is missing" in err and err.count("\n") == 1
