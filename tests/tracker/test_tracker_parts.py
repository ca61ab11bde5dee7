"""The tracker's parts: facts of a table, evidence fusion, proposals, the naive baseline, the link's
answers, and the predicted table checked against the renderer's ground truth."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from games.tribes.rules.game import simulate
from games.tribes.rules.moves import Movement, Offspring
from games.tribes.sim.noise import PRESETS, Noise
from games.tribes.tracker.facts import (
    Seating,
    describe_key,
    observation_facts,
    observation_of_view,
    table_view,
    value_of,
)
from games.tribes.tracker.naive import NaiveTracker
from games.tribes.tracker.propose import TableRead, first_takes, propose
from tests.tracker.footage import Footage, feed, find, runtime_at, view_of, with_members
from tracker.evidence import Evidence, vote_weight
from tracker.facts import parts
from tracker.link import AnswerError, TrackerLink


def test_predicted_table_equals_the_renderers_ground_truth() -> None:
    """Every fact the perfect reading of a rendered table gives (``observation_from_truth``) equals the
    tracker's prediction from the rules state, and the prediction lists nothing the camera cannot
    read: for states across a whole 4-player game, players seated around the table."""
    pytest.importorskip("cv2")
    from games.tribes.sim.packs import builtin_pack
    from games.tribes.sim.render import Renderer
    from games.tribes.vision.layout import default_layout
    from games.tribes.vision.observation import observation_from_truth
    from sim.camera import Camera

    game = simulate(4, 2, "random")
    layout = default_layout()
    renderer = Renderer(layout, builtin_pack("bold"), seed=1)
    camera = Camera.framing(layout, width=1280, height=720, tilt=15, azimuth=30, margin=0.12)
    seating = Seating.of(game.state.players)
    for state in game.states[1 :: len(game.states) // 12]:
        facts = observation_facts(observation_from_truth(renderer.truth_of(state, camera)), seating.colours)
        view = table_view(state, seating)
        assert {k: parts(r)[0] for k, r in facts.items()} == {k: value_of(view, k) for k in facts}
        assert set(view) <= set(facts)


def test_evidence_outvotes_one_odd_frame_and_weighs_confidence() -> None:
    key = ("members", 0, (0, 0))
    good = {key: ((("red", 2),), 0.95)}
    odd = {key: ((("red", 3),), 0.95)}
    ev = Evidence.fuse([good, odd, good])
    assert ev.facts[key].mode == (("red", 2),)
    assert ev.deficit_of(key, (("red", 2),)) == 0.0
    assert ev.deficit_of(key, (("red", 3),)) > 0
    assert vote_weight(0.5) == 0.0 and vote_weight(1.0) == vote_weight(0.99)


def test_a_reading_s_rivals_lie_as_far_behind_as_the_reader_found_them() -> None:
    """A tile read gold at 0.6, its back weighed at 0.38 and goat at 0.005: goat lies log(0.6 / 0.02)
    behind (at most as far as ``rival_floor`` allows), the back log(0.6 / 0.38), a value not named
    as far as the reading's own vote (no word on it) — where without rivals every other value lies
    that vote behind."""
    key = ("land", 0, (1, 0))
    gold, back, goat, horse = ("gold", False), (None, True), ("goat", False), ("horse", False)
    ev = Evidence.fuse([{key: (gold, 0.6, {back: 0.38, goat: 0.005})}] * 3)
    assert ev.facts[key].mode == gold
    assert ev.deficit_of(key, goat) == pytest.approx(math.log(0.6 / 0.02))
    assert ev.deficit_of(key, back) == pytest.approx(math.log(0.6 / 0.38))
    assert ev.deficit_of(key, horse) == pytest.approx(vote_weight(0.6))
    plain = Evidence.fuse([{key: (gold, 0.6)}] * 3)
    assert plain.deficit_of(key, goat) == plain.deficit_of(key, back) == pytest.approx(vote_weight(0.6))
    # read below 0.5 the value itself gets no vote, yet a rival far behind is still told apart
    unsure = Evidence.fuse([{key: (gold, 0.45, {back: 0.44, goat: 0.01})}])
    assert unsure.deficit_of(key, back) == pytest.approx(math.log(0.45 / 0.44))
    assert unsure.deficit_of(key, goat) == pytest.approx(math.log(0.45 / 0.02))
    assert unsure.deficit_of(key, horse) == 0.0


def test_first_takes_reads_the_taken_slot_from_the_row() -> None:
    """R-TURN-1: the taken tile goes to the end of the row; the row alone names the slot taken (and
    the last slot, whose take leaves the order as it is)."""
    game = simulate(3, 2, "greedy")
    i = find(game, lambda s, m: isinstance(m, Offspring | Movement) and m.slot > 1 and m.slot < len(s.row))
    seating = Seating.of(game.state.players)
    read = TableRead(Evidence.fuse([observation_facts(observation_of_view(view_of(game.states[i + 1])))]), seating)
    assert first_takes(game.states[i], read) == {game.moves[i].slot, len(game.states[i].row)}
    assert game.moves[i] in propose(game.states[i], read)


def test_describe_key_names_places_for_people() -> None:
    assert describe_key(("members", 1, (2, -1)), {1: "Bo"}) == "Bo's land 2,-1 (members)"
    assert describe_key(("slot", 3)) == "row slot 3 (tile)"
    assert describe_key(("stones", 2, 0)) == "board era 2 column 1 (stones)"


def test_noise_is_reproducible_and_changes_only_what_it_says() -> None:
    game = simulate(2, 1, "greedy")
    obs = observation_of_view(view_of(game.states[40]))
    a = Noise(PRESETS["heavy"], seed=3).apply(obs)
    b = Noise(PRESETS["heavy"], seed=3).apply(obs)
    assert a == b
    assert Noise(PRESETS["none"], seed=3).apply(obs).hexes == obs.hexes
    assert all(s.tile == o.tile for s, o in zip(a.row, obs.row, strict=True))  # the row is read exactly


def test_naive_baseline_commits_a_half_done_move(tmp_path: Path) -> None:
    """Without fusion, legality reasoning or stability, the baseline commits what the first quiet
    frame shows: a Movement with one of its two members still to move is recorded as a shorter
    Movement; the tracker on the same footage records the whole move."""
    game = simulate(3, 2, "greedy")
    i = find(game, lambda s, m: isinstance(m, Movement) and sum(n for _, n in m.delta if n > 0) == 2)
    before, after, move = game.states[i], game.states[i + 1], game.moves[i]
    seat = before.to_move
    colour = before.players[seat].colour
    src = [h for h, n in move.delta if n < 0]
    dst = [h for h, n in move.delta if n > 0]
    half = with_members(view_of(after), seat, dst[-1], colour, after.players[seat].land[dst[-1]].members - 1)
    half = with_members(half, seat, src[0], colour, after.players[seat].land[src[0]].members + 1)
    footage = Footage().show(before).hand().show(half, 0.4).hand().show(after, 1.5)
    naive_rt = runtime_at(tmp_path / "naive", game, i)
    naive = feed(naive_rt, footage, link=TrackerLink(naive_rt, factory=NaiveTracker, freeze_gc=False))
    assert naive.moves[i] != str(move)
    tracked = feed(runtime_at(tmp_path / "tracker", game, i), footage)
    assert tracked.moves[i] == str(move)


def test_answers_name_the_open_question(tmp_path: Path) -> None:
    game = simulate(2, 1, "greedy")
    rt = runtime_at(tmp_path, game, 5)
    link = TrackerLink(rt, freeze_gc=False)
    with pytest.raises(AnswerError) as err:
        link.answer(99, 0)
    assert err.value.code == "not_found"
    st = link.status_dict()
    assert st["kind"] == "idle" and st["prompt"] is None
