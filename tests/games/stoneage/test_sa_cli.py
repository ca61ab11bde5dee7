"""Stone Age's own commands: ``roll`` (the roll helper) and ``final`` (the final-scoring calculator);
user mistakes are one line on stderr and exit status 2 (S-DICE-2, S-TOOL-3, S-END-2, S-END-3)."""

from __future__ import annotations

import argparse
import json

import pytest

from games.stoneage import cli


def run(argv, capsys):
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    code = args.func(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_roll_prints_the_best_use_of_the_tools(capsys):
    code, out, err = run(["roll", "--place", "wood", "--dice", "3,5,6", "--tools", "1,2,3"], capsys)
    assert code == 0 and not err
    assert "14 pips" in out and "without tools: 4 wood; one more pip would give 5" in out
    assert "spend 3, 1 -> 6 wood" in out and "'tools 3,1'" in out


def test_roll_json_and_one_time_tools(capsys):
    code, out, _ = run(["roll", "-p", "gold", "-d", "6,6,5", "-t", "4", "--once", "3", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["max"] == 4 and data["best"]["once"] == [3]


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["roll", "-p", "forest", "-d", "1"], "--place"),
        (["roll", "-p", "wood", "-d", "7"], "--dice"),
        (["roll", "-p", "wood", "-d", ""], "--dice"),
        (["roll", "-p", "wood", "-d", "1", "-t", "5"], "--tools"),
        (["roll", "-p", "wood", "-d", "1", "-t", "1,1,1,1"], "at most 3 tools"),
        (["final", "--cards", "c99"], "--cards"),
        (["final", "--cards", "c01,c01"], "twice"),
        (["final", "--culture", "dance"], "--culture"),
        (["final", "--people", "11"], "--people"),
        (["roll", "-p", "wood", "-d", "1", "--profile", "/nonexistent/box.json"], "/nonexistent/box.json"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(argv, fragment, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and not out
    assert fragment in err and err.count("\n") == 1


def test_final_from_cards(capsys):
    code, out, _ = run(
        ["final", "--cards", "c01,c02,c08,c03,c18", "--agriculture", "6", "--tools", "3,3,2", "--buildings", "5",
         "--people", "8", "--resources", "4", "--track", "60", "--json"],
        capsys,
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0
    assert data["culture"]["points"] == 2**2 + 1**2
    assert data["multipliers"]["hutbuilder"] == {"figures": 3, "quantity": 5, "points": 15}
    assert data["multipliers"]["farmer"]["points"] == 6
    assert data["total"] == 60 + 5 + 15 + 6 + 4 and data["tiebreak"] == 6 + 8 + 8


def test_final_from_bottoms(capsys):
    code, out, _ = run(["final", "--culture", "pottery,art,art", "--farmer", "3", "--agriculture", "5"], capsys)
    assert code == 0 and "culture sets: 2² + 1² = 5" in out and "farmer: 3 x 5 = 15" in out and "total: 20" in out
