"""The tracker on scripted footage: whole moves, moves made in several steps, quick moves, chance
outcomes read off the table (R-ACT-EXP-1 draws, R-ACH-8 reveals, R-ACH-6 events), setup read from
the table (R-SET-3..6, R-SET-10)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.tribes.rules.checks import intensity, movement_cost
from games.tribes.rules.game import Game, simulate
from games.tribes.rules.moves import Achieve, Draw, Explore, Movement, Offspring, Pick, Reveal, RevealEvent
from games.tribes.rules.pending import RevealPending
from games.tribes.rules.state import State
from games.tribes.vision.observation import Observation
from session.runtime import GameRuntime
from tests.tracker.footage import Footage, Run, feed, find, runtime_at, view_of, with_members
from tracker.link import TrackerLink
from tracker.search import SearchConfig
from tracker.tracker import TrackerConfig


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


@pytest.mark.parametrize("span", [0.15, math.inf], ids=["two-frames-over-time", "three-frames-only"])
def test_a_slow_camera_with_two_frames_between_moves_records_the_game(tmp_path: Path, game2: Game, span: float) -> None:
    """A camera (or a reader) at 5 frames a second with players resting 0.4 s between moves: two
    settled frames a rest, 0.2 s apart. They are enough (``min_span_s``): the record equals the game.
    Asking for three frames whatever the frame rate (as before) records nothing past the setup."""
    rt = GameRuntime(tmp_path, fsync=False)
    rt.new_game([(p.name, p.colour) for p in game2.states[0].players])
    footage = Footage(fps=5.0).show(game2.states[1], 0.4)
    prev = view_of(game2.states[1])
    for s in game2.states[2:]:
        v = view_of(s)
        if v != prev:
            footage.hand(0.6).show(v, 0.4)
            prev = v
    assert all(len(run) == 2 for run in _settled_runs(footage))
    run = feed(rt, footage, config=TrackerConfig(min_span_s=span))
    if span == math.inf:
        assert len(run.moves) <= 1
    else:
        assert run.moves == [str(m) for m in game2.moves]
        assert not run.desyncs() and not run.prompts()


def _settled_runs(footage: Footage) -> list[list[Observation]]:
    runs: list[list[Observation]] = [[]]
    for obs in footage.frames:
        if obs.settled:
            runs[-1].append(obs)
        elif runs[-1]:
            runs.append([])
    return [r for r in runs if r]


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

    def pair(s: State, m: object) -> bool:
        j = game3.states.index(s)
        nxt = game3.moves[j + 1]
        # a Movement with steps left may still grow: the tracker commits the Offspring first and waits
        return (
            isinstance(m, Offspring)
            and isinstance(nxt, Movement)
            and not _movement_with_steps_left(game3.states[j + 1], nxt)
        )

    i = find(game3, pair)
    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, Footage().show(game3.states[i]).hand(2.0).show(game3.states[i + 2], 1.5))
    assert run.committed() == [[str(game3.moves[i]), str(game3.moves[i + 1])]]
    assert not run.desyncs() and not run.prompts()


def test_exploration_draw_and_placement(tmp_path: Path, game2: Game) -> None:
    """R-ACT-EXP-1: the Exploration tile moving to the end is committed at once; the draw is seen only
    as the tiles laid: with one of two tiles laid nothing is committed, with both the draw and the
    placement are (the drawn resources read off the new tiles)."""
    i = _exploration_of_two(game2)
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


def _movement_with_steps_left(state: State, move: Movement) -> bool:
    """R-ACT-MOV-1: the Movement used fewer steps than the marker allows (it could still grow)."""
    seat = state.pending.seat
    used = movement_cost(state.players[seat], move.delta) if move.delta else 0
    return used < intensity(state, seat, "movement")


def _waiting_movement(game: Game, then: Callable[[int], bool], start: int = 1) -> int:
    """The first Movement with steps left (from move ``start``) at an index ``j`` with ``then(j)``."""
    return find(
        game,
        lambda s, m: (
            isinstance(m, Movement) and bool(m.delta) and _movement_with_steps_left(s, m) and then(game.states.index(s))
        ),
        start,
    )


def test_move_seen_again_after_a_hand_keeps_its_time(tmp_path: Path, game3: Game) -> None:
    """R-ACT-MOV-1: a Movement with steps left could still grow, so it is committed only after it
    has stood 1.3 s; a hand coming and going without changing the table does not start that wait
    anew: 0.9 s, a hand, 0.6 s more, and it is committed (before the table is seen a second time
    for 1.3 s on its own)."""
    i = find(game3, lambda s, m: isinstance(m, Movement) and bool(m.delta) and _movement_with_steps_left(s, m))
    before, after, move = game3.states[i], game3.states[i + 1], game3.moves[i]
    rt = runtime_at(tmp_path, game3, i)
    run = feed(rt, Footage().show(before).hand().show(after, 0.9).hand().show(after, 0.6))
    assert run.committed() == [[str(move)]]
    assert not run.desyncs() and not run.prompts()
    # the same footage without the second look commits nothing: the move may still grow
    rt2 = runtime_at(tmp_path / "b", game3, i)
    assert feed(rt2, Footage().show(before).hand().show(after, 0.9)).committed() == []


def test_move_left_waiting_is_committed_once_the_next_player_is_under_way(tmp_path: Path) -> None:
    """A Movement with steps left seen for 0.8 s (not yet committed: it may grow), then the next
    player's Offspring half done (R-ACT-OFF-1: one member of two down, a table no legal chain
    explains): the next player being under way, the Movement is finished and committed at once;
    the Offspring follows when complete. No desync, no prompt."""
    game = simulate(3, 1, "greedy")
    i = _waiting_movement(game, lambda j: isinstance(o := game.moves[j + 1], Offspring) and len(set(o.place)) == 2)
    mov, off = game.moves[i], game.moves[i + 1]
    after_mov, after = game.states[i + 1], game.states[i + 2]
    seat = after_mov.to_move
    h = off.place[1]
    half = with_members(view_of(after), seat, h, after.players[seat].colour, after.players[seat].land[h].members - 1)
    rt = runtime_at(tmp_path, game, i)
    footage = Footage().show(game.states[i]).hand().show(after_mov, 0.8).hand().show(half, 1.5)
    run = feed(rt, footage)
    assert run.committed() == [[str(mov)]]
    assert run.moves[-1] == str(mov)
    run = feed(rt, Footage().hand().show(after, 1.0), link=run.link)
    assert run.committed() == [[str(mov)], [str(off)]]
    assert not run.desyncs() and not run.prompts()


def _answering(truth: tuple[str, ...], answered: list[Any]) -> Callable[[int, TrackerLink], None]:
    """A frame hook that answers the first prompt with ``truth``, which must be among its options;
    what the answer did goes into ``answered``."""

    def tap(n: int, link: TrackerLink) -> None:
        st = link.status
        if st.prompt and not answered:
            options = [tuple(str(m) for m in o.moves) for o in st.prompt.options]
            assert truth in options, options
            answered.append(link.answer(st.prompt.id, options.index(truth)))

    return tap


def _exploration_of_two(game: Game) -> int:
    return find(
        game,
        lambda s, m: (
            isinstance(m, Explore)
            and isinstance(game.moves[game.states.index(s) + 1], Draw)
            and len(game.moves[game.states.index(s) + 1].tiles) == 2
        ),
    )


def _second_tile_read_as(
    tmp_path: Path, game: Game, value: Any, **conf: float
) -> tuple[Run, list[Any], tuple[str, str]]:
    """An exploration of two tiles laid, the second read as ``value`` at the confidences ``conf``,
    fed after the exploration was recorded; the first prompt is answered with the true draw and
    placement. Nothing is written by guess. Returns the run, what the answer did and the truth."""
    i = _exploration_of_two(game)
    draw, place = game.moves[i + 1], game.moves[i + 2]
    after_exp, after = game.states[i + 1], game.states[i + 3]
    seat = game.states[i].to_move
    shown = dict(view_of(after))
    h, _ = place.tiles[1]
    shown[("land", seat, h)] = value

    def edit(_: int, obs: Observation) -> Observation:
        return replace(obs, hexes=tuple(replace(x, **conf) if (x.seat, x.hex) == (seat, h) else x for x in obs.hexes))

    answered: list[Any] = []
    truth = (str(draw), str(place))
    rt = runtime_at(tmp_path, game, i + 1)
    run = feed(rt, Footage().show(after_exp).hand().show(shown, 3.0, edit=edit), on_frame=_answering(truth, answered))
    assert run.committed() == []  # nothing written by guess
    return run, answered, truth


@pytest.mark.parametrize("conf", [0.7, 1.0])
def test_drawn_tile_read_by_its_back_is_asked_not_waited_for(tmp_path: Path, game2: Game, conf: float) -> None:
    """R-ACT-EXP-1: drawn tiles are laid face up; one of two laid tiles read as a tile back (a
    misreading that lasts) says nothing of its resource. The tracker does not wait in silence and
    does not guess: read weakly (0.7), it asks which tiles were drawn with the true draw among the
    options and records the answer; read confidently (1.0), no legal move explains the back, so it is
    a desync naming that hex. Nothing is written before the user answers."""
    i = _exploration_of_two(game2)
    seat, h = game2.states[i].to_move, game2.moves[i + 2].tiles[1][0]
    run, answered, truth = _second_tile_read_as(tmp_path, game2, (None, True), tile_conf=conf, resource_conf=conf)
    if conf < 1.0:
        assert answered and answered[0].kind == "answer"
        assert run.moves[-2:] == list(truth)
    else:
        assert not answered and run.desyncs()
        assert ("land", seat, h) in {f.key for f in run.desyncs()[-1].desync.facts}
        assert run.moves[-1] == str(game2.moves[i])


@pytest.mark.parametrize("conf", [0.5, 0.9])
def test_drawn_tile_the_reader_cannot_make_out_is_asked_not_waited_for(
    tmp_path: Path, game2: Game, conf: float
) -> None:
    """R-ACT-EXP-1: two tiles drawn and laid; one of them the reader cannot make out (its face like
    the table's: read empty at even odds, 0.5). Fewer new tiles are seen than were drawn, but that
    hex is undecided, so the tracker does not wait in silence for a tile already laid: it asks which
    tiles were drawn, the true draw among the options, and records the answer. Read empty surely
    (0.9: a hex still bare), the second tile is not laid yet: nothing is asked or written, and once
    the table has disagreed long enough the tile seen is a desync (as before)."""
    i = _exploration_of_two(game2)
    seat, first = game2.states[i].to_move, game2.moves[i + 2].tiles[0][0]
    run, answered, truth = _second_tile_read_as(tmp_path, game2, None, tile_conf=conf)
    if conf < 0.7:
        assert answered and answered[0].kind == "answer"
        assert run.moves[-2:] == list(truth)
    else:
        assert not answered and not run.prompts()
        assert run.moves[-1] == str(game2.moves[i])
        assert run.desyncs() and ("land", seat, first) in {f.key for f in run.desyncs()[-1].desync.facts}


def test_draw_read_past_an_empty_hex_misread_as_a_tile(tmp_path: Path, game2: Game) -> None:
    """R-ACT-EXP-1: two tiles laid while an empty hex of the same land is weakly misread as a third
    new tile (0.6): the two best-read new tiles are the ones laid, and the draw and placement are
    committed as they happened, without a prompt."""
    i = _exploration_of_two(game2)
    draw, place = game2.moves[i + 1], game2.moves[i + 2]
    after_exp, after = game2.states[i + 1], game2.states[i + 3]
    seat = game2.states[i].to_move
    shown = dict(view_of(after))
    empty = sorted(k[2] for k, v in shown.items() if k[:2] == ("land", seat) and v is None)
    assert empty
    ghost = empty[0]
    shown[("land", seat, ghost)] = ("goat", False)

    def weak(_: int, obs: Observation) -> Observation:
        hexes = tuple(
            replace(x, tile_conf=0.6, resource_conf=0.6) if (x.seat, x.hex) == (seat, ghost) else x for x in obs.hexes
        )
        return replace(obs, hexes=hexes)

    rt = runtime_at(tmp_path, game2, i + 1)
    run = feed(rt, Footage().show(after_exp).hand().show(shown, 2.0, edit=weak))
    assert run.committed() == [[str(draw), str(place)]]
    assert not run.prompts()


def test_move_seen_on_its_own_settles_a_merged_chain(tmp_path: Path) -> None:
    """A Movement with steps left seen for 0.8 s (waiting in case it grows), then under one hand the
    other player's Relocation and the first player's next Movement (2 players): the table shows only
    the sum of the first player's two member moves, which other splits explain as well, so on its
    own the chain is asked about. The Movement seen on its own settles the split: the moves are
    committed as they happened, without a prompt."""
    game = simulate(2, 54, "greedy")

    def then(j: int) -> bool:
        m = game.moves[j + 2]  # the first player's next Movement, using all its steps (not still growing)
        return (
            isinstance(m, Movement)
            and bool(m.delta)
            and not _movement_with_steps_left(game.states[j + 2], m)
            and game.states[j + 2].to_move == game.states[j].to_move
            and isinstance(game.moves[j + 1], Offspring)
            and bool(game.moves[j + 1].relocate)
        )

    i = _waiting_movement(game, then, start=100)
    moves = [str(m) for m in game.moves[i : i + 3]]
    rt = runtime_at(tmp_path, game, i)
    run = feed(rt, Footage().show(game.states[i]).hand(2.0).show(game.states[i + 3], 1.5))
    assert run.prompts() and run.committed() == []  # without the look at the first move: asked
    rt = runtime_at(tmp_path / "seen", game, i)
    footage = Footage().show(game.states[i]).hand().show(game.states[i + 1], 0.8).hand(2.0)
    run = feed(rt, footage.show(game.states[i + 3], 1.5))
    assert run.committed() == [moves[:1], moves[1:]]
    assert not run.prompts() and not run.desyncs()


def test_last_answer_the_table_cannot_show_is_asked(tmp_path: Path) -> None:
    """R-EVT: the game's last move is an either/or answer to an event whose options look the same on
    the table. Nothing later will tell them apart, so once the table has stood still the tracker
    asks which option it was (instead of leaving the game unfinished and unscored); the answer ends
    the game."""
    game = simulate(2, 10, "greedy")  # a game that ends with such an answer (seed 19 before the R-ACH-6 fix)
    assert isinstance(game.moves[-1], Pick) and game.state.is_over
    i = len(game.moves) - 2
    rt = runtime_at(tmp_path, game, i)
    answered = []

    def tap(n: int, link: TrackerLink) -> None:
        st = link.status
        if st.prompt and not answered:
            options = [tuple(str(m) for m in o.moves) for o in st.prompt.options]
            assert (str(game.moves[-1]),) in options and len(options) > 1, options
            answered.append(link.answer(st.prompt.id, options.index((str(game.moves[-1]),))))

    run = feed(rt, Footage().show(game.states[i]).hand().show(game.state, 3.0), on_frame=tap)
    assert run.committed() == [[str(game.moves[i])]]
    assert answered and "does not show" in run.prompts()[0].prompt.reason
    assert run.moves == [str(m) for m in game.moves]
    assert rt.snapshot().state.is_over


def test_drawn_tile_read_weakly_as_another_resource_is_asked(tmp_path: Path, game2: Game) -> None:
    """R-ACT-EXP-1: a laid tile read, in every frame, as another resource but only weakly (0.6): too
    weak to name the drawn tile, so the draw is not written by guess; the tracker asks, the true
    draw among the options."""
    i = _exploration_of_two(game2)
    draw, place = game2.moves[i + 1], game2.moves[i + 2]
    after_exp, after = game2.states[i + 1], game2.states[i + 3]
    seat = game2.states[i].to_move
    h, res = place.tiles[1]
    other = next(r for r in after.profile.resources if r != res)
    shown = dict(view_of(after))
    shown[("land", seat, h)] = (other, False)

    def weak(_: int, obs: Observation) -> Observation:
        hexes = tuple(
            replace(x, tile_conf=0.6, resource_conf=0.6) if (x.seat, x.hex) == (seat, h) else x for x in obs.hexes
        )
        return replace(obs, hexes=hexes)

    rt = runtime_at(tmp_path, game2, i + 1)
    asked = []

    def look(n: int, link: TrackerLink) -> None:
        st = link.status
        if st.prompt and not asked:
            asked.append([tuple(str(m) for m in o.moves) for o in st.prompt.options])

    run = feed(rt, Footage().show(after_exp).hand().show(shown, 3.0, edit=weak), on_frame=look)
    assert run.committed() == []
    assert asked and (str(draw), str(place)) in asked[0]


def _claim_with_reveal(game: Game) -> int:
    """The first era-1 claim whose first stone turns up the tile above (R-ACH-8) and whose lightning
    slot then lays an event (R-ACH-6): moves ``i``, ``i + 1``, ``i + 2`` are the claim, the reveal and
    the event."""
    return find(
        game,
        lambda s, m: (
            isinstance(m, Achieve)
            and m.achievement in [bt.tile for bt in s.board[0]]
            and isinstance(game.moves[game.states.index(s) + 1], Reveal)
            and isinstance(game.moves[game.states.index(s) + 2], RevealEvent)
        ),
    )


def _board_read(era: int, col: int, tile_conf: float, face_conf: float) -> Callable[[int, Observation], Observation]:
    """An edit reading the board tile at ``(era, col)`` with these confidences (which tile; its side)."""

    def edit(_: int, obs: Observation) -> Observation:
        board = tuple(
            replace(b, tile_conf=tile_conf, face_conf=face_conf) if (b.era, b.col) == (era, col) else b
            for b in obs.board
        )
        return replace(obs, board=board)

    return edit


def _slot_read(slot: int, tile_conf: float, filled_conf: float) -> Callable[[int, Observation], Observation]:
    """An edit reading row slot ``slot`` with these confidences (which tile; that a tile lies there)."""

    def edit(_: int, obs: Observation) -> Observation:
        row = tuple(replace(s, tile_conf=tile_conf, filled_conf=filled_conf) if s.slot == slot else s for s in obs.row)
        return replace(obs, row=row)

    return edit


def _options(run: Run) -> list[list[str]]:
    """The options of the last prompt shown, in notation."""
    prompt = run.prompts()[-1].prompt
    assert prompt is not None
    return [[str(m) for m in o.moves] for o in prompt.options]


@pytest.mark.parametrize("face_conf", [0.99, 0.77])
def test_tile_turned_up_plainly_but_unsure_which_r_ach_8(tmp_path: Path, game2: Game, face_conf: float) -> None:
    """R-ACH-8: an era-1 claim and the era-2 tile above turned face up (the event not laid yet), the
    turned tile read as which achievement only at 0.77 (as photographed tiles are). Read plainly face
    up (face_conf 0.99), "nothing turned up yet" is ruled out by the side alone: the claim and the
    reveal are committed together, without a prompt. Read as unsure of its side as of which tile it is
    (0.77 both), "not turned yet" fits the table nearly as well: the reveal is not written silently;
    the tracker asks, the reveal against nothing. (The claim, plainly seen by its stone, goes in
    first.)"""
    i = _claim_with_reveal(game2)
    claim, reveal = game2.moves[i], game2.moves[i + 1]
    pend = game2.states[i + 1].pending
    col = [bt.tile for bt in game2.states[i].board[0]].index(claim.achievement)
    assert isinstance(pend, RevealPending) and (pend.era, pend.col) == (2, col)  # the tile directly above
    turned = game2.states[i + 2]  # the tile turned up, the event still in the stack
    weak = _board_read(pend.era, pend.col, 0.77, face_conf)
    rt = runtime_at(tmp_path, game2, i)
    run = feed(rt, Footage().show(game2.states[i]).hand().show(turned, 3.0, edit=weak))
    assert not run.desyncs()
    if face_conf > 0.9:
        assert run.committed() == [[str(claim), str(reveal)]]
        assert not run.prompts()
        assert run.moves == [str(m) for m in game2.moves[: i + 2]]
        assert run.statuses[-1].kind == "watching"
    else:
        assert run.committed() == [[str(claim)]]
        assert str(reveal) not in run.moves
        assert run.statuses[-1].kind == "prompt"
        assert _options(run) == [[str(reveal)], []]


def test_tile_turned_up_read_as_a_guess_is_asked_not_committed_r_ach_8(tmp_path: Path, game2: Game) -> None:
    """R-ACH-8: the era-2 tile turned plainly face up (0.99) but which one it is read at 0.67 in every
    frame (support 0.7, under ``WEAK_REVEAL``), as a dark tile from a photographed pack reads when it
    looks like another of its era. Committed, a wrong guess is a silent desync (dark art through the
    tracker, docs/benchmarks.md); the tracker asks, every tile still face down in that era offered
    after the one read, each after the claim (plainly seen by its stone): one tap writes both."""
    from games.tribes.rules.chance import unrevealed_achievements

    i = _claim_with_reveal(game2)
    claim, reveal = game2.moves[i], game2.moves[i + 1]
    pend = game2.states[i + 1].pending
    turned = game2.states[i + 2]
    rt = runtime_at(tmp_path, game2, i)
    weak = _board_read(pend.era, pend.col, 0.67, 0.99)
    run = feed(rt, Footage().show(game2.states[i]).hand().show(turned, 3.0, edit=weak))
    assert not run.desyncs()
    assert str(reveal) not in run.moves and run.committed() == []
    assert run.statuses[-1].kind == "prompt"
    options = _options(run)
    assert options[0] == [str(claim), str(reveal)]
    assert all(o[0] == str(claim) and o[1].startswith("reveal ") for o in options)
    assert len(options) == min(4, len(unrevealed_achievements(game2.states[i + 1], pend.era)))


@pytest.mark.parametrize("filled_conf", [0.99, 0.77])
def test_event_laid_plainly_but_unsure_which_r_ach_6(tmp_path: Path, game2: Game, filled_conf: float) -> None:
    """R-ACH-6: after the claim and the reveal, the event of the lightning slot laid at the end of the
    row (in front of the hand tile, which goes behind it after the achievement, R-TURN-1), read as
    which event only at 0.77. Plainly a tile there (filled_conf 0.99): the event is
    committed without a prompt. As unsure that a tile lies there as of which, and of the hand tile
    behind it (0.7): "no event laid yet" fits nearly as well, so nothing is written silently and the
    tracker asks, the event read first (read at 0.7, under ``WEAK_REVEAL``, every event still in the
    stack is offered after it)."""
    i = _claim_with_reveal(game2)
    event = game2.moves[i + 2]
    after = game2.states[i + 3]
    slot = len(after.row) - 1
    assert after.row[-2].event and after.row[-2].tile == event.event and len(game2.states[i + 2].row) == slot
    assert not after.row[-1].event  # the hand tile, moved to the end after the achievement
    rt = runtime_at(tmp_path, game2, i + 2)  # the claim and the reveal in the record
    weak = _slot_read(slot, 0.77, filled_conf)
    if filled_conf < 0.9:
        # the hand tile one slot further back shows too that something was laid in front of it: three
        # readings then speak for the event, so all three are read unsure (0.7) for "not yet" to fit
        # nearly as well
        weak = _slot_read(slot, 0.7, 0.7)
        last = _slot_read(slot + 1, 0.7, 0.7)
        weak = (lambda a, b: lambda k, o: a(k, b(k, o)))(weak, last)
    run = feed(rt, Footage().show(game2.states[i + 2]).hand().show(after, 3.0, edit=weak))
    assert not run.desyncs()
    if filled_conf > 0.9:
        assert run.committed() == [[str(event)]]
        assert not run.prompts()
        assert run.moves == [str(m) for m in game2.moves[: i + 3]]
    else:
        assert run.committed() == []
        assert run.moves == [str(m) for m in game2.moves[: i + 2]]
        assert run.statuses[-1].kind == "prompt"
        options = _options(run)
        assert options[0] == [str(event)] and all(len(o) <= 1 for o in options) and len(options) > 1


def test_claim_reveal_and_event_under_one_hand_read_by_side_r_ach_8_r_ach_6(tmp_path: Path, game2: Game) -> None:
    """R-ACH-8, R-ACH-6: the claim, the tile turned up above and the event laid, all under one hand;
    both new tiles read as which one only at 0.77 but plainly there and face up (0.99): the whole
    chain is committed at once, without a prompt."""
    i = _claim_with_reveal(game2)
    pend = game2.states[i + 1].pending
    after = game2.states[i + 3]
    board = _board_read(pend.era, pend.col, 0.77, 0.99)
    row = _slot_read(len(after.row) - 1, 0.77, 0.99)  # the event, in front of the hand tile
    rt = runtime_at(tmp_path, game2, i)
    run = feed(rt, Footage().show(game2.states[i]).hand().show(after, 3.0, edit=lambda k, o: row(k, board(k, o))))
    assert run.committed() == [[str(m) for m in game2.moves[i : i + 3]]]
    assert not run.prompts() and not run.desyncs()


def test_event_read_as_a_coin_flip_is_asked_not_committed_r_ach_6(tmp_path: Path, game2: Game) -> None:
    """R-ACH-6: the event laid is plainly there (0.99) but which event it is reads as a coin flip
    (0.55 in every frame: support 0.2, under ``WEAK_REVEAL``). Committing the read event would be a
    silent desync half the time when two events look alike; the tracker asks instead, offering every
    event still in this era's stack with the one read first."""
    from games.tribes.rules.chance import unseen_events

    i = _claim_with_reveal(game2)
    event = game2.moves[i + 2]
    before, after = game2.states[i + 2], game2.states[i + 3]
    rt = runtime_at(tmp_path, game2, i + 2)
    run = feed(rt, Footage().show(before).hand().show(after, 3.0, edit=_slot_read(len(after.row) - 1, 0.55, 0.99)))
    assert run.committed() == [] and not run.desyncs()
    assert run.statuses[-1].kind == "prompt"
    options = _options(run)
    assert options[0] == [str(event)]
    era = before.pending.era
    assert len(options) == min(4, len(unseen_events(before, era)))  # the tracker shows at most 4


def test_a_rival_wobbling_at_the_margin_does_not_put_off_the_question_r_ach_8(tmp_path: Path, game2: Game) -> None:
    """R-ACH-8: the achievement turned up read right at 0.67 (plainly face up), one tile still face
    down in its era close behind in every frame (0.3), another one frame close (0.5 behind) and the
    next far (3.5; ``BoardReading.rivals``): fused over the window it lies now just short of a clear
    disagreement (``disagree``, 2.0), now just past it, so it is an option in one frame and not in the
    next. What reads best does not change: the tracker asks once ``prompt_after`` has passed, the
    tile read first, and asks once — the wobbling rival neither restarts the wait (before, it did,
    and the question never came while the table stood still) nor replaces the question."""
    from games.tribes.rules.chance import unrevealed_achievements

    i = _claim_with_reveal(game2)
    reveal = game2.moves[i + 1]
    pend = game2.states[i + 1].pending
    others = [a for a in unrevealed_achievements(game2.states[i + 1], pend.era) if a != reveal.achievement]
    assert len(others) >= 2
    close, wobbly, *far = others
    weak = _board_read(pend.era, pend.col, 0.67, 0.99)

    def edit(k: int, obs: Observation) -> Observation:
        weighed = {close: 0.3, "back": 0.005, "?": 0.0001} | {a: 0.0001 for a in far}
        weighed[wobbly] = 0.0001 if k % 2 else round(0.67 * math.exp(-0.5), 4)
        obs = weak(k, obs)
        board = tuple(replace(b, rivals=weighed) if (b.era, b.col) == (pend.era, pend.col) else b for b in obs.board)
        return replace(obs, board=board)

    rt = runtime_at(tmp_path, game2, i + 1)  # the claim in the record
    run = feed(rt, Footage().show(game2.states[i + 1]).hand().show(game2.states[i + 2], 3.0, edit=edit))
    assert run.committed() == [] and not run.desyncs()
    assert run.statuses[-1].kind == "prompt"
    assert _options(run)[0] == [str(reveal)]
    assert len({p.prompt.id for p in run.prompts() if p.prompt}) == 1  # asked once, not again and again


def test_a_rival_the_question_did_not_offer_asks_again_r_ach_8(tmp_path: Path, game2: Game) -> None:
    """R-ACH-8: the achievement turned up is asked about with the one rival read close; a second of
    frames later another tile of its era reads close too. The question open did not offer it: the
    tracker asks again, offering both (a question kept for what reads best must not hide a rival that
    came up after it was asked)."""
    from games.tribes.rules.chance import unrevealed_achievements

    i = _claim_with_reveal(game2)
    reveal = game2.moves[i + 1]
    pend = game2.states[i + 1].pending
    others = [a for a in unrevealed_achievements(game2.states[i + 1], pend.era) if a != reveal.achievement]
    close, later, *far = others
    weak = _board_read(pend.era, pend.col, 0.67, 0.99)

    def edit(k: int, obs: Observation) -> Observation:
        weighed = {close: 0.3, later: 0.3 if k >= 20 else 0.0001, "back": 0.005, "?": 0.0001}
        obs = weak(k, obs)
        board = tuple(
            replace(b, rivals=weighed | {a: 0.0001 for a in far}) if (b.era, b.col) == (pend.era, pend.col) else b
            for b in obs.board
        )
        return replace(obs, board=board)

    rt = runtime_at(tmp_path, game2, i + 1)
    run = feed(rt, Footage().show(game2.states[i + 1]).hand().show(game2.states[i + 2], 4.0, edit=edit))
    asked = [p.prompt for p in run.prompts() if p.prompt]
    first, last = asked[0], asked[-1]
    assert first.id != last.id and len({q.id for q in asked}) == 2
    assert [[str(m) for m in o.moves] for o in first.options] == [[str(reveal)], [f"reveal {close}"]]
    assert str(last.options[0].moves[0]) == str(reveal)
    assert {str(o.moves[0]) for o in last.options} >= {f"reveal {close}", f"reveal {later}"}


def test_drawn_tiles_read_weakly_are_not_passed_over(tmp_path: Path, game2: Game) -> None:
    """R-ACT-EXP-1: the two tiles just drawn and laid, each read right but weakly in every frame
    (0.8: a pale tile under a steep camera; each fact alone short of a clear disagreement). The game
    waits for a draw, which the table shows, so the tracker tries the draws there too instead of
    reading "the table matches the game" while the next player goes on: too weak to tell which tile
    lies where (the two swapped fit nearly as well), it asks, the true draw and placement first
    (found on pale art: ``benchmarks/tracker_eval.py --family pale``, seed 10, move 18, silent
    before)."""
    i = _exploration_of_two(game2)
    draw, place = game2.moves[i + 1], game2.moves[i + 2]
    after_exp, after = game2.states[i + 1], game2.states[i + 3]
    seat = game2.states[i].to_move
    laid = {h for h, _ in place.tiles}

    def weak(_: int, obs: Observation) -> Observation:
        hexes = tuple(
            replace(x, tile_conf=0.8, resource_conf=0.8) if x.seat == seat and x.hex in laid else x for x in obs.hexes
        )
        return replace(obs, hexes=hexes)

    rt = runtime_at(tmp_path, game2, i + 1)
    truth = (str(draw), str(place))
    asked = []

    def tap(n: int, link: TrackerLink) -> None:
        st = link.status
        if st.prompt and not asked:
            options = [tuple(str(m) for m in o.moves) for o in st.prompt.options]
            assert options[0] == truth, options  # what was read ranks first
            asked.append(link.answer(st.prompt.id, 0))

    run = feed(rt, Footage().show(after_exp).hand().show(after, 4.0, edit=weak), on_frame=tap)
    assert asked and asked[0].kind == "answer"
    assert run.committed() == []  # nothing written by guess
    assert run.moves[-2:] == list(truth)


def _one_tile_draw(game: Game) -> tuple[int, Draw, Any]:
    """The first exploration of ``game`` that draws one tile: its index, the draw and the placement."""
    i = find(
        game,
        lambda s, m: (
            isinstance(m, Explore)
            and isinstance(game.moves[game.states.index(s) + 1], Draw)
            and len(game.moves[game.states.index(s) + 1].tiles) == 1
        ),
    )
    draw = game.moves[i + 1]
    assert isinstance(draw, Draw)
    return i, draw, game.moves[i + 2]


def _edit_hex(seat: int, h: tuple[int, int], **changes: Any) -> Callable[[int, Observation], Observation]:
    """A footage edit reading the hex ``h`` of ``seat`` with ``changes`` (its other hexes as they are)."""

    def edit(_: int, obs: Observation) -> Observation:
        hexes = tuple(replace(x, **changes) if (x.seat, x.hex) == (seat, h) else x for x in obs.hexes)
        return replace(obs, hexes=hexes)

    return edit


@pytest.mark.parametrize(("conf", "asks"), [(0.87, False), (0.75, True)])
def test_one_drawn_tile_read_fairly_is_written(tmp_path: Path, game2: Game, conf: float, asks: bool) -> None:
    """R-ACT-EXP-1: one tile drawn and laid, read right in every frame at 0.87 — short of a clear
    disagreement, well above "not laid yet": the draw and placement are written without a prompt
    (``NOT_YET_MARGIN``). Read at 0.75, "not laid yet" fits nearly as well: the tracker asks, and
    writes nothing by guess."""
    i, draw, place = _one_tile_draw(game2)
    ((h, _),) = place.tiles
    weak = _edit_hex(game2.states[i].to_move, h, tile_conf=conf, resource_conf=conf)
    rt = runtime_at(tmp_path, game2, i + 1)
    run = feed(rt, Footage().show(game2.states[i + 1]).hand().show(game2.states[i + 3], 3.0, edit=weak))
    if asks:
        assert run.prompts() and run.committed() == []
    else:
        assert run.committed() == [[str(draw), str(place)]]
        assert not run.prompts() and not run.desyncs()


@pytest.mark.parametrize("rivals", [True, False])
def test_a_drawn_tile_unsure_only_of_its_side_is_written(tmp_path: Path, game2: Game, rivals: bool) -> None:
    """R-ACT-EXP-1: a drawn tile laid face up, read right at only 0.6 in every frame because the
    reader weighs its plain back at 0.38 (pale art: a face with a faint symbol), every other
    resource far behind (``HexReading.rivals``). Drawn tiles are laid face up, so the back is no
    rival for the draw: which resource it is, the reading says plainly, and the draw is written
    without a prompt. The same 0.6 with no word on the rivals says nothing of which resource, while
    the tile is plainly there (``tile_conf``): the tracker asks, and writes nothing by guess."""
    i, draw, place = _one_tile_draw(game2)
    ((h, resource),) = place.tiles
    others = [r for r in game2.states[0].profile.resources if r != resource]
    weighed = {"exhausted": 0.38, "empty": 0.005} | {r: 0.015 / len(others) for r in others}
    unsure = _edit_hex(game2.states[i].to_move, h, tile_conf=0.99, resource_conf=0.6, rivals=weighed if rivals else {})
    rt = runtime_at(tmp_path, game2, i + 1)
    run = feed(rt, Footage().show(game2.states[i + 1]).hand().show(game2.states[i + 3], 3.0, edit=unsure))
    if rivals:
        assert run.committed() == [[str(draw), str(place)]]
        assert not run.prompts() and not run.desyncs()
    else:
        assert run.prompts() and run.committed() == []


def test_move_left_waiting_is_committed_when_more_turns_than_the_search_reaches_follow(tmp_path: Path) -> None:
    """A Movement with steps left seen for 0.8 s (not yet committed: it may grow), then the next two
    turns played at once, before the camera settles again: the table is more moves from the record
    than the search reaches (here it reaches two), but the search from after the Movement explains
    it, so the Movement is finished and committed, then the two turns. No desync, no prompt."""
    game = simulate(3, 1, "greedy")
    whole = (Offspring, Movement)
    i = _waiting_movement(game, lambda j: all(isinstance(game.moves[j + k], whole) for k in (1, 2)))
    after_mov, after = game.states[i + 1], game.states[i + 3]
    config = TrackerConfig(search=SearchConfig(max_depth=2))
    rt = runtime_at(tmp_path, game, i)
    footage = Footage().show(game.states[i]).hand().show(after_mov, 0.8).hand().show(after, 2.0)
    run = feed(rt, footage, config=config)
    assert run.committed()[0] == [str(game.moves[i])]
    assert run.moves[-3:] == [str(m) for m in game.moves[i : i + 3]]
    assert not run.desyncs() and not run.prompts()

    # the same table without the Movement seen first is too far from the record: nothing is written
    rt2 = runtime_at(tmp_path / "b", game, i)
    run2 = feed(rt2, Footage().show(game.states[i]).hand().show(after, 2.0), config=config)
    assert run2.committed() == []
