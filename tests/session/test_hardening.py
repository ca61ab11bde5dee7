"""The runtime against a second writer and damaged data folders (issue 15): one runtime per data
folder (an OS lock naming the holder), a FIFO where the journal should be, failed atomic writes, a
position whose player names the API would refuse."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from games.errors import FieldError
from session.journal import JournalFileError, write_atomic
from session.lock import LOCK_NAME, FolderBusyError, FolderLock
from session.runtime import GameRuntime
from tests.conftest import PLAYERS


def test_a_second_runtime_on_the_same_folder_is_refused_naming_the_folder_and_the_pid(tmp_path):
    first = GameRuntime(tmp_path, fsync=False)
    first.new_game(PLAYERS)
    with pytest.raises(FolderBusyError) as err:
        GameRuntime(tmp_path, fsync=False)
    assert err.value.folder == tmp_path and err.value.pid == os.getpid()
    assert str(tmp_path) in err.value.message and f"pid {os.getpid()}" in err.value.message
    assert first.state_id == 1  # the first one is untouched
    first.close()
    again = GameRuntime(tmp_path, fsync=False)  # free once closed
    assert again.state_id == 1
    again.close()


def test_the_lock_goes_with_a_process_killed_with_sigkill(tmp_path):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"from session.lock import FolderLock; lock = FolderLock({str(tmp_path)!r}).acquire(); "
            "print('held', flush=True); import time; time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(FolderBusyError) as err:
            FolderLock(tmp_path).acquire()
        assert err.value.pid == holder.pid
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        holder.stdout.close()
    lock = FolderLock(tmp_path).acquire()  # the kernel dropped it: no stale lock
    assert lock.held and (tmp_path / LOCK_NAME).read_text().strip() == str(os.getpid())
    lock.release()
    assert not lock.held


def test_a_fifo_as_the_journal_is_an_error_not_a_hang(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    os.mkfifo(games / "game-000001.jsonl")

    def hang(signum, frame):
        raise AssertionError("the runtime opened the FIFO and waits for a writer")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(20)
    try:
        with pytest.raises(JournalFileError, match="not a regular file"):
            GameRuntime(tmp_path, fsync=False)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    lock = FolderLock(tmp_path).acquire()  # the failed runtime let go of the folder (else FolderBusyError)
    assert lock.held
    lock.release()


def test_a_failed_atomic_write_leaves_no_temporary_file_and_keeps_the_mode(tmp_path):
    target = tmp_path / "profile.json"
    target.write_text("{}")
    os.chmod(target, 0o640)
    write_atomic(target, b'{"a": 1}\n', fsync=False)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and target.read_text() == '{"a": 1}\n'
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "x").write_text("in the way")
    with pytest.raises(OSError):
        write_atomic(tmp_path / "dir", b"{}", fsync=False)  # a folder in the way: the rename fails
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "profile.json"]


def test_a_position_with_a_name_the_api_would_refuse_is_refused(runtime, recorded):
    doc = recorded.states[10].to_dict()
    doc["players"][0]["name"] = "A" * 10_000
    with pytest.raises(FieldError) as err:
        runtime.new_game(position=doc)
    assert err.value.field == "position.players[0].name"
    doc["players"][0]["name"] = "Ann"
    doc["players"][0]["colour"] = '#" onmouseover="x'
    with pytest.raises(FieldError, match="colour name"):
        runtime.new_game(position=doc)
    assert not runtime.has_game
