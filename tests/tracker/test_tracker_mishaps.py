"""The tracker when play is messy: takebacks (the record follows the table back, the last move even
across a turn; a revealed chance outcome is never undone: a desync), a knocked piece, a region hidden for a while, recognition noise, ambiguity."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from games.tribes.rules.game import Game, simulate
from games.tribes.rules.hexgrid import neighbours
from games.tribes.rules.moves import Achieve, Movement, Offspring, Reveal
from games.tribes.rules.state import State
from games.tribes.sim.noise import PRESETS, Noise
from games.tribes.tracker.facts import View
from games.tribes.vision.observation import Observation
from session.runtime import UndoPolicy
from tests.tracker.footage import Footage, feed, find, runtime_at, view_of, with_members
from tracker.link import AnswerError
from tracker.tracker import TrackerConfig


@pytest.fixture(scope="module")
def game3() -> Game:
    return simulate(3, 2, "greedy")


def _other_movement(game: Game, i: int) -> Movement:
    """Another Movement than the one played at ``i`` that uses all its steps (one with steps left may
    still grow, so the tracker would wait instead of committing it)."""
    from games.tribes.rules.legal import legal_moves
    from games.tribes.tracker.policy import POLICY

    for m in legal_moves(game.states[i]):
        if isinstance(m, Movement) and m.delta and m != game.moves[i] and not POLICY.extendable(game.states[i], m):
            return m
    raise LookupError


def test_takeback_within_the_turn_is_undone(tmp_path: Path) -> None:
    """An achievement claimed (the game then waits for the tile revealed above: same turn, so undo
    is allowed), then taken back on the table: the tracker undoes it through the runtime; the real
    move afterwards is committed."""
    game = simulate(3, 2, "greedy")
    i = find(game, lambda s, m: isinstance(m, Achieve) and isinstance(game.moves[game.states.index(s) + 1], Reveal))
    before, claimed = game.states[i], game.states[i + 1]
    rt = runtime_at(tmp_path, game, i)
    run = feed(rt, Footage().show(before).hand().show(claimed, 1.0).hand().show(before, 1.0).hand().show(claimed, 1.0))
    kinds = [e.kind for e in run.events]
    assert kinds == ["commit", "undo", "commit"]
    assert run.moves == [str(m) for m in game.moves[: i + 1]]
    assert not run.desyncs()


def test_takeback_of_a_finished_turn_is_undone_and_the_real_move_committed(tmp_path: Path, game3: Game) -> None:
    """A Movement ends the turn (R-TURN-1), so the camera does not follow a takeback of it silently
    within the turn, but the players put the table back themselves before the next player moved: the
    record follows the table (the runtime's ``UndoPolicy.TABLE``), and the Movement then made is
    committed."""
    i = find(game3, lambda s, m: isinstance(m, Movement) and m.delta)
    other = _other_movement(game3, i)
    before = game3.states[i]
    from games.tribes.rules.engine import apply

    wrong = apply(before, other)
    rt = runtime_at(tmp_path, game3, i)
    footage = (
        Footage().show(before).hand().show(wrong, 1.0).hand().show(before, 1.0).hand().show(game3.states[i + 1], 1.0)
    )
    run = feed(rt, footage)
    assert [e.kind for e in run.events] == ["commit", "undo", "commit"]
    assert run.committed()[0] == [str(other)]
    assert rt.undo_status(UndoPolicy.TURN)[1] == "turn_over"  # the camera's in-turn policy is unchanged
    assert run.moves == [str(m) for m in game3.moves[: i + 1]]
    assert not run.desyncs()
    assert run.statuses[-1].kind == "watching"


def test_takeback_over_a_revealed_tile_is_a_desync_until_put_back(tmp_path: Path, game3: Game) -> None:
    """An achievement claimed and the tile above turned up (R-ACH-8), then the table put back to
    before the claim: a revealed chance outcome is never undone, so this is a desync naming what
    disagrees (the tile above shows face down again); it clears when the table shows the claim again,
    and nothing is undone."""
    i = find(game3, lambda s, m: isinstance(m, Achieve) and isinstance(game3.moves[game3.states.index(s) + 1], Reveal))
    before, revealed = game3.states[i], game3.states[i + 2]
    rt = runtime_at(tmp_path, game3, i)
    footage = Footage().show(before).hand().show(revealed, 1.0).hand().show(before, 6.0).hand().show(revealed, 1.0)
    run = feed(rt, footage)
    assert [m for ms in run.committed() for m in ms] == [str(game3.moves[i]), str(game3.moves[i + 1])]
    assert "undo" not in [e.kind for e in run.events]
    back = [s for s in run.desyncs() if s.desync is not None]
    assert back
    assert {f.key[0] for f in back[0].desync.facts} & {"board", "face", "stones"}
    assert run.moves == [str(m) for m in game3.moves[: i + 2]]
    assert run.statuses[-1].kind == "watching" and run.statuses[-1].desync is None


def test_knocked_piece_is_a_desync_until_put_back(tmp_path: Path, game3: Game) -> None:
    """A member knocked onto the neighbouring tile while nobody moves: no legal move explains it, so
    after a short while a desync names both hexes; putting it back clears it; nothing committed."""
    i = find(game3, lambda s, m: s.pending.kind == "choose" and s.round > 3)
    state = game3.states[i]
    seat = 1
    p = state.players[seat]
    a = next(h for h, t in sorted(p.land.items()) if t.members)
    b = next(
        h
        for h in sorted(p.land)
        if h != a and abs(h[0] - a[0]) + abs(h[1] - a[1]) + abs(h[0] + h[1] - a[0] - a[1]) == 2
    )
    knocked = with_members(view_of(state), seat, a, p.colour, p.land[a].members - 1)
    knocked = with_members(knocked, seat, b, p.colour, p.land[b].members + 1)
    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, Footage().show(state).show(knocked, 5.0).hand().show(state, 1.0))
    assert run.committed() == []
    d = run.desyncs()
    assert d and {f.key for f in d[-1].desync.facts} == {("members", seat, a), ("members", seat, b)}
    assert run.statuses[-1].kind == "watching" and run.statuses[-1].desync is None


def test_knock_beside_a_move_commits_the_move_and_flags_the_piece(tmp_path: Path, game3: Game) -> None:
    """A move made while another player's member lies knocked over: the move is committed (the knocked
    piece is explained by no move at all) and the piece is then reported as a desync."""
    i = find(game3, lambda s, m: isinstance(m, Offspring) and s.round > 3)
    before, after = game3.states[i], game3.states[i + 1]
    seat = (before.to_move + 1) % before.n
    p = after.players[seat]
    a = next(h for h, t in sorted(p.land.items()) if t.members)
    knocked = with_members(view_of(after), seat, a, p.colour, p.land[a].members - 1)
    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, Footage().show(before).hand().show(knocked, 5.0))
    assert run.committed() == [[str(game3.moves[i])]]
    assert run.desyncs() and run.desyncs()[-1].desync.facts[0].key == ("members", seat, a)


def test_hidden_land_is_not_emptiness_and_a_move_there_waits(tmp_path: Path, game3: Game) -> None:
    """A land hidden for 5 s while nothing happens: no change, no desync (absence is not a change),
    but the status says part of the table is hidden. The player moves while their land is hidden: the
    tracker waits (nothing to check the move with) and commits once the land is seen again."""
    i = find(game3, lambda s, m: isinstance(m, Offspring) and s.round > 2)
    before, after = game3.states[i], game3.states[i + 1]
    seat = before.to_move
    rt = runtime_at(tmp_path, game3, i)
    footage = (
        Footage()
        .show(before)
        .show(before, 5.0, hidden_seats=[seat])
        .hand()
        .show(after, 3.0, hidden_seats=[seat])
        .show(after, 1.0)
    )
    run = feed(rt, footage)
    watching_hidden = run.statuses[10:55]
    assert all(s.kind in ("waiting", "settling") and s.hidden == (f"land:{seat}",) for s in watching_hidden)
    assert run.statuses[5].kind == "watching"
    assert "waiting" in run.kinds()
    assert run.committed() == [[str(game3.moves[i])]]
    assert not run.desyncs()


def test_a_fact_never_flips_on_one_frame(tmp_path: Path, game3: Game) -> None:
    """One frame of a still table misread (a member count off by one, at full confidence): no commit,
    no desync, still watching."""
    i = find(game3, lambda s, m: s.pending.kind == "choose" and s.round > 3)
    state = game3.states[i]
    p = state.players[0]
    h = next(h for h, t in sorted(p.land.items()) if t.members)
    flipped = with_members(view_of(state), 0, h, p.colour, p.land[h].members + 1)
    from games.tribes.tracker.facts import observation_of_view

    bad = observation_of_view(flipped)

    def flip(k: int, obs: Observation) -> Observation:
        return replace(bad, frame=obs.frame, time=obs.time) if k == 4 else obs

    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, Footage().show(state, 1.0).show(state, 1.0, edit=flip))
    assert run.committed() == [] and not run.desyncs()
    assert run.statuses[-1].kind == "watching"


def test_a_slow_camera_never_commits_on_one_odd_frame_of_two(tmp_path: Path, game3: Game) -> None:
    """At 5 frames a second two settled frames may commit (``min_span_s``), but not two that
    disagree: a hand comes and goes over a still table, and one of the two frames after it reads the
    table as the next move would leave it (an Offspring), at full confidence. The tie supports no
    move: no commit, no desync, no prompt."""
    i = find(game3, lambda s, m: isinstance(m, Offspring) and s.round > 2)
    state, after = game3.states[i], game3.states[i + 1]
    from games.tribes.tracker.facts import observation_of_view

    bad = observation_of_view(view_of(after))
    for odd in (0, 1):

        def flip(k: int, obs: Observation, odd: int = odd) -> Observation:
            return replace(bad, frame=obs.frame, time=obs.time) if k == odd else obs

        rt = runtime_at(tmp_path / str(odd), game3, i)
        footage = Footage(fps=5.0).show(state, 0.4)
        for _ in range(3):
            footage.hand(0.6).show(state, 0.4, edit=flip)
        run = feed(rt, footage)
        assert run.committed() == [] and not run.desyncs() and not run.prompts(), odd
        run = feed(
            runtime_at(tmp_path / f"{odd}-two", game3, i), Footage(fps=5.0).show(state, 0.4).hand(0.6).show(after, 0.4)
        )
        assert run.committed() == [[str(game3.moves[i])]], odd  # the same move seen in both frames


def test_noisy_footage_of_a_game_gives_the_exact_record(tmp_path: Path) -> None:
    """A whole 2-player game read with the realistic noise model (confidence drops, flipped facts,
    miscounts, dropped hexes): the record equals the game."""
    game = simulate(2, 3, "greedy")
    rt = runtime_at(tmp_path, game, 1)
    footage = Footage().show(game.states[1], 1.0)
    prev = view_of(game.states[1])
    for s in game.states[2:]:
        v = view_of(s)
        if v != prev:
            footage.hand().show(v, 1.0)
            prev = v
    footage.show(prev, 2.0)
    noise = Noise(PRESETS["realistic"].scaled(2.0), seed=5, colours=[p.colour for p in game.state.players])
    run = feed(rt, footage, noise=noise)
    assert run.moves == [str(m) for m in game.moves]
    assert not run.desyncs()


def test_hidden_too_long_becomes_a_prompt_and_the_answer_is_submitted(tmp_path: Path, game3: Game) -> None:
    """A move made under a land that stays hidden: after ``hidden_prompt_after`` the tracker asks;
    the user's answer is submitted through the runtime; a stale answer is refused."""
    i = find(game3, lambda s, m: isinstance(m, Offspring) and s.round > 2)
    before, after = game3.states[i], game3.states[i + 1]
    seat = before.to_move
    rt = runtime_at(tmp_path, game3, i)
    cfg = TrackerConfig(hidden_prompt_after=1.0)
    answers = []

    def tap(n: int, link) -> None:
        st = link.status
        if st.prompt and not answers:
            options = [o.moves for o in st.prompt.options]
            answers.append(link.answer(st.prompt.id, options.index((game3.moves[i],))))
            with pytest.raises(AnswerError):
                link.answer(st.prompt.id, 0)

    run = feed(rt, Footage().show(before).hand().show(after, 3.0, hidden_seats=[seat]), config=cfg, on_frame=tap)
    assert answers and answers[0].kind == "answer"
    assert run.moves == [str(m) for m in game3.moves[: i + 1]]


def test_land_with_only_empty_hexes_out_of_view_is_checked_in_full(tmp_path: Path, game3: Game) -> None:
    """A land grown to the edge of the picture: some empty hexes around it are out of view (the
    land is listed as partly hidden), every tile is seen. Members stand only on tiles, so a move
    there can be checked in full: committed without a prompt, and at rest the tracker is watching,
    not waiting."""
    i = find(game3, lambda s, m: isinstance(m, Offspring) and s.round > 2)
    before, after = game3.states[i], game3.states[i + 1]
    seat = before.to_move

    def edge(_: int, obs: Observation) -> Observation:
        hexes = tuple(h for h in obs.hexes if h.seat != seat or h.tile)
        assert len(hexes) < len(obs.hexes)
        return replace(obs, hexes=hexes, hidden=(f"land:{seat}",))

    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, Footage().show(before, 1.0, edit=edge).hand().show(after, 2.0, edit=edge))
    assert run.committed() == [[str(game3.moves[i])]]
    assert not run.prompts() and not run.desyncs() and "waiting" not in run.kinds()
    assert run.statuses[-1].kind == "watching"


def test_knocked_piece_is_flagged_while_play_goes_on(tmp_path: Path, game3: Game) -> None:
    """A member knocked onto the neighbouring tile while the other players keep moving, each move
    shown for only 0.8 s: the moves are committed as they happen (the knocked piece is beside them),
    and the piece is not left unflagged: once it has disagreed for 2.5 s of still table, over hands
    and commits, a desync names both hexes, and stays shown while the moves go on being committed."""
    i = find(game3, lambda s, m: s.pending.kind == "choose" and s.round > 3)
    n = 6
    states = game3.states[i : i + n + 1]

    def spot(seat: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
        lands = [s.players[seat].land for s in states]
        for a, t in sorted(lands[0].items()):
            for b in sorted(neighbours(a)):
                if t.members and b in lands[0] and all(ld[a] == lands[0][a] and ld[b] == lands[0][b] for ld in lands):
                    return a, b
        return None

    seat, (a, b) = next((g, ab) for g in range(states[0].n) if (ab := spot(g)) is not None)
    colour = states[0].players[seat].colour

    def knocked(state: State) -> View:
        land = state.players[seat].land
        v = with_members(view_of(state), seat, a, colour, land[a].members - 1)
        return with_members(v, seat, b, colour, land[b].members + 1)

    footage = Footage().show(knocked(states[0]), 0.8)
    for s in states[1:]:
        footage.hand().show(knocked(s), 0.8)
    run = feed(runtime_at(tmp_path, game3, i), footage)
    assert run.moves == [str(m) for m in game3.moves[: i + n]]
    flagged = run.desyncs()
    assert flagged and {f.key for f in flagged[0].desync.facts} == {("members", seat, a), ("members", seat, b)}
    kinds = [st.kind for st in run.statuses]
    assert set(kinds[kinds.index("desync") :]) == {"desync"}  # once flagged, it stays flagged over commits


def test_offspring_with_the_new_member_not_counted_is_still_committed(tmp_path: Path, game3: Game) -> None:
    """An Offspring (R-ACT-OFF-1) whose new member lands on a pile the camera reads one short, unsure
    (confidence 0.5), in every frame: no member is seen added, but the row shows the Offspring tile
    taken (R-TURN-1) and its shells paid out (R-TURN-3). The tracker proposes the legal placements closest to
    the reading and commits the move read from the row, not "the table is changing" until a desync."""
    i = find(game3, lambda s, m: isinstance(m, Offspring) and len(m.place) == 1 and s.round > 2)
    before, after = game3.states[i], game3.states[i + 1]
    move = game3.moves[i]
    assert isinstance(move, Offspring)
    seat, h = before.to_move, move.place[0]
    colour = before.players[seat].colour
    short = with_members(view_of(after), seat, h, colour, before.players[seat].land[h].members)

    def unsure(_: int, obs: Observation) -> Observation:
        hexes = tuple(replace(x, members_conf=0.5) if (x.seat, x.hex) == (seat, h) else x for x in obs.hexes)
        return replace(obs, hexes=hexes)

    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, Footage().show(before).hand().show(short, 3.0, edit=unsure))
    assert run.committed() == [[str(move)]]
    assert not run.prompts() and not run.desyncs()


def test_another_move_in_place_of_a_finished_turn_is_a_desync_with_the_fix(tmp_path: Path, game3: Game) -> None:
    """A Movement ends the turn (R-TURN-1); the table then shows another Movement in its place, with
    no moment showing the position before: a knocked piece after a finished turn can look just like
    that, so the record does not follow silently. It is a desync offering the fix, which the user
    taps; then the record is right."""
    i = find(game3, lambda s, m: isinstance(m, Movement) and m.delta)
    other = _other_movement(game3, i)
    before = game3.states[i]
    from games.tribes.rules.engine import apply

    wrong = apply(before, other)
    rt = runtime_at(tmp_path, game3, i)
    answered = []

    def tap(n: int, link) -> None:
        st = link.status
        if st.desync and st.desync.options and not answered:
            answered.append(link.answer(st.desync.id, 0))

    footage = Footage().show(before).hand().show(wrong, 1.0).hand().show(game3.states[i + 1], 3.0)
    run = feed(rt, footage, on_frame=tap)
    assert run.committed()[0] == [str(other)]
    assert "undo" not in [e.kind for e in run.events if e.kind != "fix"]
    assert run.desyncs() and answered and answered[0].kind == "fix"
    assert run.moves == [str(m) for m in game3.moves[: i + 1]]
    assert run.statuses[-1].kind == "watching"


def _reveal_misread(game: Game, moves: int) -> tuple[int, int, int, list[int], Footage]:
    """The first achievement followed by a reveal in ``game``: its index ``i``, the revealed tile's
    era and column, the moves shown from ``i`` on among the next ``moves`` (not the reveal: the table
    shows none), and footage of the table before it, then after each shown move with that tile
    misread face down (pale art)."""
    i = find(game, lambda s, m: isinstance(m, Achieve) and isinstance(game.moves[game.states.index(s) + 1], Reveal))
    after_reveal, before_reveal = view_of(game.states[i + 2]), view_of(game.states[i])
    (_, era, col), *rest = [k for k in after_reveal if k[0] == "face" and after_reveal[k] != before_reveal[k]]
    assert not rest

    def misread(state: State) -> View:
        v = dict(view_of(state))
        v[("face", era, col)] = False
        v[("board", era, col)] = None
        return v

    shown = [j for j in range(i, i + moves) if not isinstance(game.moves[j], Reveal)]
    footage = Footage().show(before_reveal)
    for j in shown:
        footage = footage.hand().show(misread(game.states[j + 1]), 4.0)
    return i, era, col, shown, footage


def _answer_truly(link, truth: list[str]) -> bool:
    """Answer the open desync with the fix that keeps the record on ``truth``; whether one was taken."""
    st = link.status
    record = [str(m) for m in link.runtime.snapshot().moves]
    for k, o in enumerate(st.desync.options):
        new = record[: len(record) - o.back] + [str(m) for m in o.moves]
        if (o.moves or o.back) and new == truth[: len(new)]:
            try:
                link.answer(st.desync.id, k)
            except AnswerError:
                continue
            return True
    return False


def test_a_fact_the_user_overruled_is_not_asked_about_after_every_move(tmp_path: Path, game3: Game) -> None:
    """The camera keeps reading a revealed tile as face down (pale art): the first desync is answered
    with the true moves, which overrules that fact (the game still disagrees with it after the
    answer). Play goes on with the misreading in view: the next moves are committed with no desync.
    Once the tile reads face up, the overrule is dropped and the fact counts again."""
    i, era, col, shown, footage = _reveal_misread(game3, 8)
    last = shown[-1] + 1
    footage = footage.hand().show(game3.states[last], 2.0)  # read right at last
    truth = [str(m) for m in game3.moves]
    answered: list[int] = []
    overruled: list[dict] = []

    def on_frame(n: int, link) -> None:
        if link.status.desync is not None and _answer_truly(link, truth):
            answered.append(n)
            overruled.append(link.tracker.overruled)

    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, footage, on_frame=on_frame)
    assert len(answered) == 1  # one question, not one after every move
    assert overruled[0] == {("face", era, col): False, ("board", era, col): None}
    assert run.moves == truth[:last]
    assert [e.kind for e in run.events].count("fix") == 1
    assert run.statuses[-1].kind == "watching"
    assert run.link.tracker.overruled == {}  # the tile read face up: the overrule is gone


def test_the_status_lists_overruled_facts_and_a_recheck_brings_the_desync_back(tmp_path: Path, game3: Game) -> None:
    """After a desync is answered, the status JSON lists the overruled facts (where, what the camera
    reads, what the record says); the user asks for them to be looked at again (a wrong answer, say):
    the misreading counts again, so the same desync comes back and is answered a second time."""
    i, era, col, shown, footage = _reveal_misread(game3, 6)
    truth = [str(m) for m in game3.moves]
    answered: list[int] = []
    listed: list[list[dict]] = []
    rechecked: list[int] = []

    def on_frame(n: int, link) -> None:
        st = link.status
        if st.desync is None:
            if answered and not rechecked and st.kind == "watching" and link.tracker.overruled:
                listed.append(link.status_dict()["overruled"])
                key = listed[0][0]["key"]
                with pytest.raises(AnswerError):
                    link.reinstate(["no", "such", "fact"])
                rechecked.append(link.reinstate(key) + link.reinstate())  # one, then the rest
            return
        if _answer_truly(link, truth):
            answered.append(n)

    run = feed(runtime_at(tmp_path, game3, i), footage, on_frame=on_frame)
    facts = {tuple(f["key"]): (f["seen_value"], f["expected_value"]) for f in listed[0]}
    assert facts[("face", era, col)] == (False, True)
    assert facts[("board", era, col)][0] is None and facts[("board", era, col)][1] is not None
    assert all(f["where"] for f in listed[0])
    assert rechecked == [2]
    assert len(answered) == 2  # the recheck brought the same desync back
    assert run.moves == truth[: shown[-1] + 1]
