"""One API test over every registered game (OpenSpiel's random-simulation test).

For each game: random playouts replay exactly from their journal; at sampled states every legal move
applies, its text round-trips and ``explain`` finds nothing wrong with it; moves that ``apply``
accepts are all in the legal-move view (candidates from nearby states); the position JSON
round-trips; scores, ranking and prompt are plain JSON."""

from __future__ import annotations

import itertools
import json
import random

import pytest

import games
from games.errors import GameError, IllegalMoveError
from games.record import Record, record_from_data, simulate

GAMES = games.available(hidden=True)
MAX_LEGAL = 150  # legal moves checked per sampled state (the view is lazy; big ones are sampled)


def _plugins():
    return [pytest.param(games.get(g), id=g) for g in GAMES]


def _playouts(plugin, n: int):
    lo, hi = plugin.info.min_players, plugin.info.max_players
    for k in range(n):
        players = lo + k % (hi - lo + 1)
        yield simulate(plugin, players, seed=100 + k, policies="random", max_moves=4000)


@pytest.mark.parametrize("plugin", _plugins())
def test_playouts_replay_exactly_from_their_journal(plugin):
    for record in _playouts(plugin, 3):
        doc = json.loads(json.dumps(record.to_dict()))
        assert doc["game"] == plugin.info.id and doc["format"] == plugin.info.journal_format
        again = record_from_data(doc, "journal")
        assert again.game is plugin
        assert [str(m) for m in again.moves] == [str(m) for m in record.moves]
        assert again.states == record.states
        if plugin.rules.is_over(record.state):
            assert doc["result"] == json.loads(json.dumps(plugin.rules.result(record.state)))


def _sampled_states(plugin, playouts: int = 2, every: int = 9):
    """Every ``every``-th state of a few playouts (every state of short games)."""
    for record in _playouts(plugin, playouts):
        step = every if len(record.states) > 40 * every else 1
        for i in range(0, len(record.states), step):
            yield record, i


@pytest.mark.parametrize("plugin", _plugins())
def test_every_legal_move_applies_and_its_text_round_trips(plugin):
    rules = plugin.rules
    checked = 0
    for record, i in _sampled_states(plugin):
        state = record.states[i]
        view = rules.legal_moves(state)
        moves = list(itertools.islice(view, MAX_LEGAL))
        assert bool(view) == bool(moves)
        if rules.is_over(state):
            assert not moves
            continue
        if not moves:
            # a chance node with too many outcomes to list (Tribes' setup) is checked, not listed
            assert rules.is_chance(state), f"no legal move in a state that is not over (move {i})"
            assert record.moves[i] in view
            continue
        for m in moves:
            assert m in view
            assert rules.explain(state, m) is None
            assert m.chance == rules.is_chance(state)
            again = rules.parse_move(str(m))
            assert again == m and str(again) == str(m)
            rules.apply(state, m)  # raises if the view lied
            checked += 1
        if i < len(record.moves):
            assert record.moves[i] in view  # the move played is legal there
    assert checked > 20


@pytest.mark.parametrize("plugin", _plugins())
def test_nothing_apply_accepts_is_missing_from_the_legal_moves(plugin):
    rules = plugin.rules
    rng = random.Random(5)
    tried = accepted = 0
    for record, i in _sampled_states(plugin, every=7):
        state = record.states[i]
        legal = set(map(str, itertools.islice(rules.legal_moves(state), 5000)))
        near = [record.states[j] for j in (i - 2, i - 1, i + 1, i + 2) if 0 <= j < len(record.states)]
        cands = {str(m) for s in near for m in itertools.islice(rules.legal_moves(s), 60)}
        cands |= {str(m) for m in record.moves[max(0, i - 5) : i + 5]}
        for text in rng.sample(sorted(cands), min(len(cands), 40)):
            move = rules.parse_move(text)
            tried += 1
            try:
                rules.apply(state, move)
            except IllegalMoveError as exc:
                assert exc.clause.startswith(plugin.info.clause_prefix) or exc.clause, exc
                assert rules.explain(state, move) is not None
                continue
            accepted += 1
            assert move in rules.legal_moves(state)
            if legal and len(legal) < 5000:
                assert text in legal, f"apply accepts {text!r} at move {i}, but the legal moves lack it"
    assert tried > 50 and accepted > 0


@pytest.mark.parametrize("plugin", _plugins())
def test_position_json_round_trips_and_views_are_json(plugin):
    rules = plugin.rules
    for record, i in _sampled_states(plugin, playouts=1, every=13):
        state = record.states[i]
        doc = json.loads(json.dumps(rules.state_to_json(state)))
        assert doc["format"] == plugin.info.position_format
        back = rules.state_from_json(doc, "position")
        assert back == state
        assert rules.state_to_json(back) == doc
        json.dumps(rules.scores(state))
        json.dumps(rules.prompt(state))
        ranking = rules.ranking(state)
        assert sorted(s.seat for s in ranking) == list(range(len(rules.seats(state))))
        assert all(a.place <= b.place for a, b in itertools.pairwise(ranking))
        # a game started from this position plays on exactly as the original
        mid = Record.from_position(plugin, back)
        for m in record.moves[i : i + 5]:
            mid.push(str(m))
        assert mid.state == record.states[min(i + 5, len(record.moves))]


@pytest.mark.parametrize("plugin", _plugins())
def test_bad_input_is_a_typed_error(plugin):
    rules = plugin.rules
    with pytest.raises(GameError):
        rules.parse_move("this is no move at all")
    with pytest.raises(ValueError):
        rules.settings([("Solo", "red")] * (plugin.info.max_players + 1))
    with pytest.raises(ValueError):
        rules.state_from_json({"format": "nonsense"}, "position")


def test_the_registry_lists_games_and_names_unknown_ones():
    assert "tribes" in games.available()
    assert "toy" not in games.available() and "toy" in games.available(hidden=True)
    with pytest.raises(games.UnknownGameError, match=r"unknown game 'chess'.*tribes"):
        games.get("chess")


@pytest.mark.parametrize("plugin", [p for p in _plugins() if p.values[0].profile is not None])
def test_a_profile_path_in_a_saved_game_is_read_relative_to_that_file(plugin, tmp_path, monkeypatch):
    """A saved game whose settings name the box profile by a relative path reads it from the
    journal's folder, whatever the working directory."""
    from games.record import open_record

    folder = tmp_path / "box"
    folder.mkdir()
    (folder / "my-box.json").write_text(json.dumps(dict(plugin.profile.default().raw)), encoding="utf-8")
    colours = plugin.info.colours
    players = [(f"P{i}", colours[i]) for i in range(plugin.info.min_players)]
    settings = plugin.rules.settings(players)
    settings["profile"] = "my-box.json"
    doc = {"format": plugin.info.journal_format, "version": 1, "game": plugin.info.id, "settings": settings}
    (folder / "game.json").write_text(json.dumps(doc), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    record = open_record(folder / "game.json")
    assert record.game is plugin and record.to_dict()["settings"]["profile"] == "my-box.json"
    (folder / "my-box.json").unlink()
    with pytest.raises(ValueError, match=r"my-box\.json"):  # gone: one error naming it
        open_record(folder / "game.json")
