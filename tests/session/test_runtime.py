"""The game runtime: durable journal, exact resume, torn last line, state ids, undo policies (the
page: any last move; the camera: BGA's), corrections, subscribers."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from games.tribes.rules.errors import IllegalMoveError
from session.journal import JournalFileError, game_files, read_journal
from session.runtime import (
    Change,
    CorrectionConflict,
    GameRuntime,
    NoGameError,
    StaleStateError,
    UndoPolicy,
    UndoRefused,
)
from tests.webui.webui_helpers import PLAYERS, play


def test_no_game_before_the_first(runtime):
    assert not runtime.has_game
    assert runtime.state_id == 0
    with pytest.raises(NoGameError):
        runtime.submit("start 0,0")


def test_every_move_is_in_the_journal_before_subscribers_hear_of_it(runtime, recorded):
    seen: list[tuple[int, int]] = []

    def on_change(change: Change) -> None:
        # the journal on disk already holds the change when we are told
        lines = Path(runtime.journal_path).read_text().splitlines()
        seen.append((change.state_id, len(lines)))

    runtime.subscribe(on_change)
    play(runtime, recorded, 10)
    assert [sid for sid, _ in seen] == list(range(1, 12))
    for sid, lines in seen:
        assert lines == sid  # header + one line per change; state ids start at 1
    entries = read_journal(runtime.journal_path).entries
    assert [e["move"] for e in entries] == [str(m) for m in recorded.moves[:10]]


def test_resume_replays_the_last_game_exactly(tmp_path, recorded):
    rt = GameRuntime(tmp_path)
    play(rt, recorded, 40)
    if rt.undo_status()[0]:
        rt.undo(rt.state_id)
    before = rt.snapshot()
    rt.close()
    again = GameRuntime(tmp_path)
    after = again.snapshot()
    assert after.state_id == before.state_id
    assert after.moves == before.moves
    assert after.state == before.state
    assert again.warnings == []


def test_state_ids_grow_across_games_and_restarts(tmp_path, recorded):
    rt = GameRuntime(tmp_path)
    play(rt, recorded, 3)
    first = rt.state_id
    rt.new_game(PLAYERS)
    assert rt.state_id == first + 1
    assert len(game_files(tmp_path / "games")) == 2
    rt.close()
    assert GameRuntime(tmp_path).state_id == first + 1  # the newest game is resumed


def test_stale_state_id_is_refused_and_nothing_is_applied_twice(runtime, recorded):
    play(runtime, recorded, 1)
    sid = runtime.state_id
    runtime.submit(recorded.moves[1], sid)
    with pytest.raises(StaleStateError) as err:
        runtime.submit(recorded.moves[1], sid)  # the same request again
    assert err.value.current == sid + 1
    assert len(runtime.snapshot().moves) == 2


def test_illegal_move_changes_nothing(runtime, recorded):
    play(runtime, recorded, 1)
    size = Path(runtime.journal_path).stat().st_size
    with pytest.raises(IllegalMoveError) as err:
        runtime.submit("start 5,5", runtime.state_id)
    assert err.value.clause == "R-SET-10"
    assert Path(runtime.journal_path).stat().st_size == size
    assert runtime.state_id == 2


def test_torn_last_line_is_dropped_with_a_warning(tmp_path, recorded):
    rt = GameRuntime(tmp_path)
    play(rt, recorded, 6)
    path = rt.journal_path
    rt.close()
    with open(path, "ab") as fh:
        fh.write(b'{"op":"move","n":6,"move":"4:ach scha')  # a write cut short by a crash
    again = GameRuntime(tmp_path)
    assert len(again.snapshot().moves) == 6
    assert len(again.warnings) == 1 and "torn last line" in again.warnings[0]
    # appending after recovery yields a readable file
    again.submit(recorded.moves[6], again.state_id)
    again.close()
    contents = read_journal(path)
    assert contents.warnings == []
    assert len(contents.entries) == 7


def test_unreadable_last_line_is_dropped(tmp_path, recorded):
    rt = GameRuntime(tmp_path)
    play(rt, recorded, 4)
    path = rt.journal_path
    rt.close()
    with open(path, "ab") as fh:
        fh.write(b"\x00\x00garbage\n")
    again = GameRuntime(tmp_path)
    assert len(again.snapshot().moves) == 4
    assert "unreadable last line" in again.warnings[0]


def test_damage_before_the_last_line_is_an_error_naming_the_line(tmp_path, recorded):
    rt = GameRuntime(tmp_path)
    play(rt, recorded, 4)
    path = rt.journal_path
    rt.close()
    lines = Path(path).read_text().splitlines()
    lines[2] = "{not json"
    Path(path).write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalFileError) as err:
        GameRuntime(tmp_path)
    assert err.value.line == 3
    assert str(path) in str(err.value)


def test_an_entry_that_does_not_replay_names_its_line(tmp_path, recorded):
    rt = GameRuntime(tmp_path)
    play(rt, recorded, 4)
    path = rt.journal_path
    rt.close()
    lines = Path(path).read_text().splitlines()
    entry = json.loads(lines[3])
    entry["move"] = "start 9,9"
    lines[3] = json.dumps(entry)
    Path(path).write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalFileError) as err:
        GameRuntime(tmp_path)
    assert err.value.line == 4
    assert "R-SET-10" in str(err.value)


# --- undo: the page takes back any last move; the camera keeps Board Game Arena's policy -------------
def test_undo_within_the_turn_before_the_draw(runtime, recorded):
    play(runtime, recorded, 5)  # ... '3:exp': the game waits for the draw
    assert runtime.undo_status() == (True, "", "undo '3:exp'")
    change = runtime.undo(runtime.state_id)
    assert change.op == "undo" and str(change.move) == "3:exp"
    assert runtime.snapshot().state.pending.kind == "choose"
    assert runtime.state_id == 7  # undo is a change too: the id grows
    entries = read_journal(runtime.journal_path).entries
    assert entries[-1]["op"] == "undo" and entries[-1]["move"] == "3:exp"


def test_the_pages_undo_takes_back_a_revealed_draw_and_the_game_asks_for_it_again(tmp_path, recorded):
    rt = GameRuntime(tmp_path)
    play(rt, recorded, 6)  # ... '3:exp', 'draw wheat'
    ok, reason, message = rt.undo_status()
    assert ok and reason == "" and "draw wheat" in message and "asks for it again" in message
    change = rt.undo(rt.state_id)
    assert str(change.move) == "draw wheat"
    state = rt.snapshot().state
    assert state.pending.kind == "draw" and rt.game.rules.is_chance(state)  # the draw is asked for again
    rt.submit("draw goat", rt.state_id)  # and another outcome may be entered
    rt.close()
    resumed = GameRuntime(tmp_path)  # the journal replays the undo of the chance outcome
    assert [str(m) for m in resumed.snapshot().moves[-2:]] == ["3:exp", "draw goat"]
    resumed.close()


def test_the_pages_undo_reopens_a_finished_turn_and_a_finished_game(runtime, recorded):
    play(runtime, recorded, 7)  # ... 'place wheat@2,0' ended Ann's turn
    assert runtime.undo_status()[0]
    runtime.undo(runtime.state_id)
    assert runtime.snapshot().state.pending.kind == "place"
    runtime.new_game(PLAYERS)
    for move in recorded.moves:
        runtime.submit(move)
    assert runtime.snapshot().state.is_over
    assert runtime.undo_status()[0]  # even the move that ended the game
    runtime.undo()
    assert not runtime.snapshot().state.is_over


def test_the_cameras_policy_never_takes_back_a_revealed_draw(runtime, recorded):
    play(runtime, recorded, 6)  # ... 'draw wheat'
    for policy in (UndoPolicy.TURN, UndoPolicy.TABLE):
        ok, reason, message = runtime.undo_status(policy)
        assert not ok and reason == "chance" and "draw wheat" in message
        with pytest.raises(UndoRefused) as err:
            runtime.undo(runtime.state_id, policy)
        assert err.value.reason == "chance" and "draw wheat" in err.value.message


def test_the_cameras_turn_policy_stops_at_the_end_of_the_turn(runtime, recorded):
    play(runtime, recorded, 7)  # ... 'place wheat@2,0' ended Ann's turn
    ok, reason, _ = runtime.undo_status(UndoPolicy.TURN)
    assert not ok and reason == "turn_over"
    with pytest.raises(UndoRefused):
        runtime.undo(policy=UndoPolicy.TURN)


def test_a_takeback_seen_on_the_table_may_cross_the_end_of_the_turn_but_not_a_draw(runtime, recorded):
    """Camera mode: the players put the table back themselves (``UndoPolicy.TABLE``): the last move
    is undone even though it ended the turn; the journal records the undo; a revealed draw still is not."""
    play(runtime, recorded, 7)  # ... 'place wheat@2,0' ended Ann's turn
    assert runtime.undo_status(UndoPolicy.TABLE)[0]
    change = runtime.undo(runtime.state_id, UndoPolicy.TABLE)
    assert change.op == "undo" and str(change.move) == str(recorded.moves[6])
    assert runtime.snapshot().moves == tuple(recorded.moves[:6])
    entries = read_journal(runtime.journal_path).entries
    assert entries[-1]["op"] == "undo"
    ok, reason, _ = runtime.undo_status(UndoPolicy.TABLE)  # now 'draw wheat' is last
    assert not ok and reason == "chance"
    with pytest.raises(UndoRefused):
        runtime.undo(policy=UndoPolicy.TABLE)


def test_the_cameras_policies_and_a_finished_game_or_the_first_members(runtime, recorded):
    play(runtime, recorded, 8)  # '4:ach schamanismus joker=0,0': the reveal is pending
    assert runtime.undo_status(UndoPolicy.TURN)[0]
    runtime.undo()
    assert runtime.undo_status(UndoPolicy.TURN)[1] == "turn_over"  # the placement before it ended Ann's turn
    runtime.new_game(PLAYERS)
    runtime.submit(recorded.moves[0])
    runtime.submit(recorded.moves[1])  # Ann's first member: Bob's placement is next
    assert runtime.undo_status(UndoPolicy.TURN)[1] == "turn_over"
    assert runtime.undo_status()[0]  # the page may
    runtime.new_game(PLAYERS)
    for policy in UndoPolicy:
        assert runtime.undo_status(policy)[:2] == (False, "nothing")
    with pytest.raises(UndoRefused):
        runtime.undo()
    runtime.new_game(PLAYERS)
    for move in recorded.moves:
        runtime.submit(move)
    assert runtime.undo_status(UndoPolicy.TABLE)[1] in ("turn_over", "chance")  # never after the end


# --- corrections ------------------------------------------------------------------------------------
def test_correction_replays_the_later_moves_and_the_journal_keeps_both(runtime, recorded):
    play(runtime, recorded, 18)
    # move 6 laid the drawn wheat on 2,0; on the table it lies on 1,1
    change = runtime.correct(6, "place wheat@1,1", runtime.state_id)
    snap = runtime.snapshot()
    assert change.op == "correct" and change.index == 6
    assert str(snap.moves[6]) == "place wheat@1,1"
    assert (1, 1) in snap.state.players[0].land and (2, 0) not in snap.state.players[0].land
    assert [str(m) for m in snap.moves[7:]] == [str(m) for m in recorded.moves[7:18]]
    entry = read_journal(runtime.journal_path).entries[-1]
    assert entry["op"] == "correct" and entry["was"] == "place wheat@2,0" and entry["move"] == "place wheat@1,1"
    assert entry["kept"] == 11 and entry["dropped"] == []
    # and a restart reproduces the corrected game
    runtime.close()
    again = GameRuntime(runtime.data_dir)
    assert again.snapshot().state == snap.state


def test_correction_that_breaks_a_later_move(runtime, recorded):
    play(runtime, recorded, 10)
    # the draw was goat, not wheat: 'place wheat@2,0' (move 6) no longer fits
    with pytest.raises(CorrectionConflict) as err:
        runtime.correct(5, "draw goat", runtime.state_id)
    assert err.value.index == 6 and err.value.clause == "R-ACT-EXP-1"
    assert str(runtime.snapshot().moves[5]) == "draw wheat"  # refused: nothing changed
    runtime.correct(5, "draw goat", runtime.state_id, rest="prefix")
    snap = runtime.snapshot()
    assert [str(m) for m in snap.moves] == [*map(str, recorded.moves[:5]), "draw goat"]
    assert snap.state.pending.kind == "place"
    entry = read_journal(runtime.journal_path).entries[-1]
    assert entry["rest"] == "prefix" and entry["kept"] == 0 and len(entry["dropped"]) == 4


def test_correction_truncate_and_bad_index(runtime, recorded):
    play(runtime, recorded, 10)
    with pytest.raises(IndexError):
        runtime.correct(10, "start 0,0")
    with pytest.raises(IllegalMoveError):
        runtime.correct(1, "start 7,7")
    runtime.correct(4, "1:exp", runtime.state_id, rest="truncate")
    assert len(runtime.snapshot().moves) == 5
    with pytest.raises(StaleStateError):
        runtime.correct(4, "3:exp", 3)


def test_subscribers_in_order_from_many_threads(runtime, recorded):
    play(runtime, recorded, 4)
    ids: list[int] = []
    runtime.subscribe(lambda c: ids.append(c.state_id))
    errors: list[Exception] = []
    moves = recorded.moves[4:30]

    def worker() -> None:
        for _ in range(200):
            snap = runtime.snapshot()
            n = len(snap.moves)
            if n - 4 >= len(moves):
                return
            try:
                runtime.submit(moves[n - 4], snap.state_id)
            except StaleStateError:
                continue
            except Exception as exc:  # pragma: no cover - would be a failure
                errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [str(m) for m in runtime.snapshot().moves] == [str(m) for m in recorded.moves[:30]]
    assert ids == sorted(ids) and len(ids) == len(set(ids)) == 26


def test_a_failing_subscriber_does_not_break_the_game(runtime, recorded):
    def broken(change: Change) -> None:
        raise RuntimeError("strip unplugged")

    runtime.subscribe(broken)
    got: list[Change] = []
    unsubscribe = runtime.subscribe(got.append)
    play(runtime, recorded, 2)
    assert len(got) == 3 and got[-1].prompt["kind"] == "first_member"
    unsubscribe()
    runtime.submit(recorded.moves[2])
    assert len(got) == 3


def test_saved_profile_is_used_for_new_games(runtime):
    raw = dict(runtime.profile.raw)
    raw["name"] = "my box"
    runtime.save_profile(raw)
    runtime.close()
    again = GameRuntime(runtime.data_dir)
    assert again.profile.name == "my box"
    again.new_game(PLAYERS)
    assert again.snapshot().state.profile.name == "my box"
    assert again.snapshot().settings["profile"]["name"] == "my box"  # the journal carries it


def test_a_game_started_from_a_position_resumes(tmp_path, recorded):
    rt = GameRuntime(tmp_path)
    rt.new_game(position=recorded.states[30].to_dict())
    for move in recorded.moves[30:40]:
        rt.submit(move, rt.state_id)
    state = rt.snapshot().state
    rt.close()
    assert GameRuntime(tmp_path).snapshot().state == state == recorded.states[40]
