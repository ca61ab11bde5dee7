"""A box profile named by a file path inside a position or journal file is read relative to that
file (an absolute path stays absolute); a document that is not from a file reads it from the working
directory."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from games.record import open_record
from games.tribes.rules.errors import JournalError, PositionError
from games.tribes.rules.game import Game, load_game
from games.tribes.rules.state import State
from tests.games.tribes.rules.helpers import position, profile_variant


@pytest.fixture
def box(tmp_path, monkeypatch):
    """``box/my-box.json`` (a profile other than the default); the working directory is elsewhere."""
    prof = profile_variant(components=lambda raw: raw["components"].update(shells_per_player=3))
    folder = tmp_path / "box"
    folder.mkdir()
    (folder / "my-box.json").write_text(prof.to_json(), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return folder, prof


def journal(profile):
    return {
        "format": "tribes-journal",
        "version": 1,
        "settings": {"players": [{"name": "A"}, {"name": "B"}], "profile": profile},
        "moves": [],
    }


def write(path, doc):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_journal_reads_its_profile_next_to_it(box):
    folder, prof = box
    game = write(folder / "game.json", journal("my-box.json"))
    assert load_game(game).state.profile == prof
    nested = write(folder / "games" / "night.json", journal("../my-box.json"))
    assert load_game(nested).state.profile == prof
    assert open_record(nested).state.profile == prof  # the game-neutral reader too


def test_a_position_reads_its_profile_next_to_it(box):
    folder, prof = box
    doc = position()
    doc["profile"] = "my-box.json"
    pos = write(folder / "pos.json", doc)
    assert load_game(pos).state.profile == prof
    assert open_record(pos).state.profile == prof
    assert State.from_dict(doc, None, "pos.json", folder).profile == prof


def test_an_absolute_path_stays_absolute(box, tmp_path):
    folder, prof = box
    game = write(tmp_path / "other" / "game.json", journal(str(folder / "my-box.json")))
    assert load_game(game).state.profile == prof


def test_a_missing_profile_names_the_file_it_was_looked_for(box):
    folder, _ = box
    game = write(folder / "game.json", journal("nope.json"))
    with pytest.raises(JournalError) as err:
        load_game(game)
    assert err.value.field == "settings.profile" and str(folder / "nope.json") in str(err.value)
    assert "\n" not in str(err.value)


def test_a_document_not_from_a_file_reads_from_the_working_directory(box, monkeypatch):
    folder, prof = box
    with pytest.raises(JournalError, match="cannot read the profile"):
        Game.from_dict(journal("my-box.json"), "request")
    doc = position()
    doc["profile"] = "my-box.json"
    with pytest.raises(PositionError, match="cannot read the profile"):
        State.from_dict(doc, None, "request")
    monkeypatch.chdir(folder)
    assert Game.from_dict(journal("my-box.json"), "request").state.profile == prof
    assert State.from_dict(doc, None, "request").profile == prof


def test_the_cli_reads_the_profile_next_to_the_game_file(box, capsys):
    folder, _ = box
    game = write(folder / "game.json", journal("my-box.json"))
    assert main(["rules", "legal", str(game)]) == 0
    assert main(["rules", "score", str(game)]) == 0, capsys.readouterr().err
    missing = write(folder / "bad.json", journal("nope.json"))
    capsys.readouterr()
    assert main(["rules", "legal", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(folder / "nope.json") in err
