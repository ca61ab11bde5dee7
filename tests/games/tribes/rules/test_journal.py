"""Journals: settings + move log; exact replay; errors name the file and the move."""

from __future__ import annotations

import json

import pytest

from games.tribes.rules.errors import JournalError
from games.tribes.rules.game import Game, load_game, simulate


@pytest.mark.parametrize("n", [2, 3, 4])
def test_simulated_game_replays_exactly(n):
    """OpenSpiel style: the journal (settings + moves with chance outcomes) reproduces every state."""
    game = simulate(n, 11, "greedy")
    assert game.state.is_over
    data = json.loads(json.dumps(game.to_dict()))
    assert data["result"]["ranking"][0]["place"] == 1
    again = Game.from_dict(data)
    assert again.states == game.states


def test_replay_to_a_move_number():
    game = simulate(2, 3, "random")
    part = Game.from_dict(game.to_dict(), upto=40)
    assert part.state == game.states[40]


def test_journal_from_a_mid_game_position(tmp_path):
    game = simulate(2, 4, "random")
    start = game.states[100]
    g2 = Game.from_position(start)
    for m in game.moves[100:130]:
        g2.push(m)
    data = g2.to_dict()
    assert data["settings"]["start"]["format"] == "tribes-position"
    assert Game.from_dict(data).state == game.states[130]


def test_bad_move_in_journal_names_its_index(tmp_path):
    game = simulate(2, 3, "random")
    data = game.to_dict()
    data["moves"][7] = "9:exp"
    with pytest.raises(JournalError) as err:
        Game.from_dict(data, "night.json")
    assert err.value.field == "moves[7]"
    assert str(err.value).startswith("night.json: moves[7]: illegal move '9:exp'")
    data["moves"][7] = "teleport"
    with pytest.raises(JournalError, match=r"night.json: moves\[7\]: cannot read move 'teleport'"):
        Game.from_dict(data, "night.json")


@pytest.mark.parametrize(
    ("doc", "fragment"),
    [
        ([], "(top level): must be a JSON object"),
        ({"format": "x"}, "format: must be 'tribes-journal'"),
        ({"format": "tribes-journal", "version": 9}, "version: must be 1"),
        ({"format": "tribes-journal", "version": 1, "settings": {"players": "ann"}}, "settings.players"),
        ({"format": "tribes-journal", "version": 1, "settings": {"players": [{"name": "A"}]}}, "2 to 4 players"),
        (
            {
                "format": "tribes-journal",
                "version": 1,
                "settings": {"players": [{"name": "A"}, {"name": "B"}], "profile": {"format": "x"}},
            },
            "settings.profile",
        ),
    ],
)
def test_corrupt_journals_are_refused(doc, fragment):
    with pytest.raises(JournalError) as err:
        Game.from_dict(doc, "j.json")
    assert fragment in str(err.value)


def test_unreadable_files(tmp_path):
    with pytest.raises(JournalError, match="cannot read the game file"):
        load_game(tmp_path / "missing.json")
    p = tmp_path / "torn.json"
    p.write_text('{"format": "tribes-journal", "moves": [', encoding="utf-8")
    with pytest.raises(JournalError, match=r"torn\.json: line 1 column 40: not valid JSON"):
        load_game(p)
