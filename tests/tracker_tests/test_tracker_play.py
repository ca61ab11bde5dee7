"""The tracker on scripted footage: whole moves, moves made in several steps, quick moves, chance
outcomes read off the table (R-ACT-EXP-1 draws, R-ACH-8 reveals, R-ACH-6 events), setup read from
the table (R-SET-3..6, R-SET-10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.game import Game, simulate
from rules.moves import Achieve, Draw, Explore, Movement, Offspring, Reveal, RevealEvent
from tests.tracker_tests.footage import Footage, feed, find, runtime_at, view_of, with_members
from webui.runtime import GameRuntime


@pytest.fixture(scope="module")
def game2() -> Game:
    return simulate(2, 1, "greedy")


@pytest.fixture(scope="module")
def game3() -> Game:
    return simulate(3, 2, "greedy")


def test_whole_game_from_setup_is_recorded_exactly(tmp_path: Path, game2: Game) -> None:
    """R-SET-3..6, R-SET-10: the setup and the first members are read off the table; then every move
    with a hand between, each table shown for 0.6 s: the record equals the game, with no prompt or
    desync."""
    rt = GameRuntime(tmp_path, fsync=False)
    rt.new_game([(p.name, p.colour) for p in game2.states[0].players])
    footage = Footage().show(game2.states[1])
    prev = view_of(game2.states[1])
    for s in game2.states[2:]:
        v = view_of(s)
        if v == prev:
            continue  # a draw: nothing to see until the tiles are laid
        footage.hand().show(v, 0.6 if s is not game2.states[-1] else 2.0)
        prev = v
    run = feed(rt, footage)
    assert run.moves == [str(m) for m in game2.moves]
    assert not run.desyncs() and not run.prompts()
    assert run.committed()[0][0].startswith("setup ")


def test_members_put_down_one_by_one_commit_once_complete(tmp_path: Path, game2: Game) -> None:
    """R-ACT-OFF-1: an Offspring of two members put down one by one, the hand leaving in between:
    nothing is committed while only one member stands (no legal complete move explains it), then
    the whole move once."""
    i = find(game2, lambda s, m: isinstance(m, Offspring) and len(m.place) == 2)
    before, after, move = game2.states[i], game2.states[i + 1], game2.moves[i]
    seat = before.to_move
    colour = before.players[seat].colour
    h = move.place[0]
    half = with_members(
        view_of(after), seat, move.place[1], colour, after.players[seat].land[move.place[1]].members - 1
    )
    if move.place[0] == move.place[1]:
        half = with_members(view_of(after), seat, h, colour, after.players[seat].land[h].members - 1)
    rt = runtime_at(tmp_path, game2, i)
    run = feed(rt, Footage().show(before).hand().show(half, 2.0).hand().show(after, 1.0))
    assert run.committed() == [[str(move)]]
    assert "changing" in run.kinds()
    assert not run.desyncs() and not run.prompts()


def test_movement_with_a_short_pause_is_one_move(tmp_path: Path, game3: Game) -> None:
    """R-ACT-MOV-1: a Movement of two members, the hand leaving for 0.4 s after the first: the first
    member alone would be a legal Movement too, but the tracker waits for a move that may still grow
    and commits only the whole Movement."""
    i = find(game3, lambda s, m: isinstance(m, Movement) and sum(n for _, n in m.delta if n > 0) == 2)
    before, after, move = game3.states[i], game3.states[i + 1], game3.moves[i]
    seat = before.to_move
    colour = before.players[seat].colour
    src = [h for h, n in move.delta if n < 0]
    dst = [h for h, n in move.delta if n > 0]
    half = view_of(after)
    # undo one step of the two: one member still on its source, one fewer on its target
    half = with_members(half, seat, dst[-1], colour, after.players[seat].land[dst[-1]].members - 1)
    half = with_members(half, seat, src[0], colour, after.players[seat].land[src[0]].members + 1)
    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, Footage().show(before).hand().show(half, 0.4).hand().show(after, 1.5))
    assert run.committed() == [[str(move)]]
    assert not run.desyncs()


def test_two_quick_moves_between_settled_frames(tmp_path: Path, game3: Game) -> None:
    """Two players' moves under one hand episode: one chain of two legal moves is committed."""
    i = find(
        game3, lambda s, m: isinstance(m, Offspring) and isinstance(game3.moves[game3.states.index(s) + 1], Movement)
    )
    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, Footage().show(game3.states[i]).hand(2.0).show(game3.states[i + 2], 1.5))
    assert run.committed() == [[str(game3.moves[i]), str(game3.moves[i + 1])]]
    assert not run.desyncs() and not run.prompts()


def test_exploration_draw_and_placement(tmp_path: Path, game2: Game) -> None:
    """R-ACT-EXP-1: the Exploration tile moving to the end is committed at once; the draw is seen only
    as the tiles laid: with one of two tiles laid nothing is committed, with both the draw and the
    placement are (the drawn resources read off the new tiles)."""
    i = find(
        game2,
        lambda s, m: (
            isinstance(m, Explore)
            and isinstance(game2.moves[game2.states.index(s) + 1], Draw)
            and len(game2.moves[game2.states.index(s) + 1].tiles) == 2
        ),
    )
    exp, draw, place = game2.moves[i], game2.moves[i + 1], game2.moves[i + 2]
    after_exp, after = game2.states[i + 1], game2.states[i + 3]
    seat = game2.states[i].to_move
    one = dict(view_of(after))
    h, _ = place.tiles[1]
    one[("land", seat, h)] = None
    one[("members", seat, h)] = ()
    rt = runtime_at(tmp_path, game2, i)
    run = feed(
        rt, Footage().show(game2.states[i]).hand().show(after_exp, 1.0).hand().show(one, 1.5).hand().show(after, 1.0)
    )
    assert run.committed() == [[str(exp)], [str(draw), str(place)]]
    assert not run.desyncs() and not run.prompts()


def test_achievement_reveal_and_event_read_off_the_board(tmp_path: Path) -> None:
    """R-ACH-5..8, R-ACH-6: a claim, the tile turned up above (reveal) and the event revealed into the
    row, shown at once: the chain with both chance outcomes is committed."""
    game = None
    for seed in range(1, 30):
        g = simulate(3, seed, "greedy")
        try:
            i = find(
                g,
                lambda s, m, g=g: (
                    isinstance(m, Achieve)
                    and isinstance(g.moves[g.states.index(s) + 1], Reveal)
                    and isinstance(g.moves[g.states.index(s) + 2], RevealEvent)
                ),
            )
        except LookupError:
            continue
        game = g
        break
    assert game is not None
    rt = runtime_at(tmp_path, game, i)
    run = feed(rt, Footage().show(game.states[i]).hand(2.0).show(game.states[i + 3], 1.0))
    assert run.committed() == [[str(m) for m in game.moves[i : i + 3]]]
