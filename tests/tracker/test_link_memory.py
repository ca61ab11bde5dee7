"""The tracker link's memory: what it freezes out of the cyclic collector after each move is
collected again when it dies in a reference cycle (a state taken back, the last game's table), and
the long-running commands cap malloc's arenas (companion/memory.py)."""

from __future__ import annotations

import gc
import platform
import sys
import weakref
from collections.abc import Iterator

import pytest

from companion import memory
from session.runtime import GameRuntime
from tracker.link import REFREEZE_MOVES, TrackerLink


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def unfrozen() -> Iterator[None]:
    yield
    gc.unfreeze()


def test_a_frozen_cycle_that_dies_is_collected_within_refreeze_moves(runtime: GameRuntime, unfrozen: None) -> None:
    link = TrackerLink(runtime)
    young = _Cycle()
    ref_young = weakref.ref(young)
    del young
    link._freeze()  # young garbage is collected before anything is frozen
    assert ref_young() is None
    old = _Cycle()
    ref_old = weakref.ref(old)
    link._freeze()  # frozen while alive
    del old
    gc.collect()
    assert ref_old() is not None  # a frozen cycle is out of the collector's reach …
    for _ in range(REFREEZE_MOVES):
        link._freeze()
    assert ref_old() is None  # … until the next full collection
    assert gc.get_freeze_count() > 0  # and what lives is frozen again


def test_malloc_is_tuned_where_the_c_library_is_glibc() -> None:
    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert memory.tune() is glibc
    assert memory.trim() in (True, False)


def test_the_camera_loop_does_its_housekeeping_every_n_frames(runtime: GameRuntime) -> None:
    from tracker.loop import CameraLoop

    calls: list[int] = []
    fed: list[int] = []

    class _Link:
        def feed(self, obs: int) -> None:
            fed.append(obs)

    def read(i: int) -> int:
        if i == 4:
            raise ValueError("a torn frame")  # one bad frame never stops the camera
        return i

    loop = CameraLoop(range(7), read, _Link(), housekeeping=lambda: calls.append(len(fed)), housekeeping_every=3)  # type: ignore[arg-type]
    loop.run()
    assert fed == [0, 1, 2, 3, 5, 6] and calls == [3, 5]
    assert loop.stats.frames == 7 and loop.stats.errors == 1 and "torn" in loop.stats.last_error


def test_the_view_cache_keeps_the_states_used_last_and_no_more_than_its_size() -> None:
    from games.tribes.rules.game import simulate
    from tracker.policy import default_policy
    from tracker.search import ViewCache

    game = simulate([("Ann", "red"), ("Bob", "blue")], seed=4, policies="random")
    policy = default_policy()
    views = ViewCache(policy.seating(game.states[1]), policy, size=20)
    states = list(game.states[1:61])
    first = views.view(states[0])
    for s in states[1:]:
        views.parts(s)
        views.parts(states[0])  # used again and again: it stays
        assert len(views._states) <= 20 and len(views._parts) <= 40
    assert id(states[0]) in views._states and views.view(states[0]) == first
    assert id(states[1]) not in views._states  # used once, long ago: gone
    assert views.view(states[1]) == ViewCache(views.seating, policy).view(states[1])  # rebuilt the same
    views.clear()
    assert not views._states and not views._parts


def test_a_new_game_read_by_the_same_tracker_lets_go_of_the_last_games_views(runtime: GameRuntime) -> None:
    from games.tribes.vision.observation import Observation

    names = [("Ann", "red"), ("Bob", "blue")]
    link = TrackerLink(runtime)
    runtime.new_game(names)
    link.feed(Observation(frame=0, time=0.0))
    tracker = link.tracker
    assert tracker is not None
    old = runtime.snapshot().state
    tracker.views.parts(old)
    assert id(old) in tracker.views._states
    tracker._dismissed.add(("old", "prompt"))
    link.feed(Observation(frame=1, time=0.1))  # the same game: the cache stays
    assert id(old) in tracker.views._states and tracker._dismissed
    runtime.new_game(names)
    link.feed(Observation(frame=2, time=0.2))
    assert link.tracker is tracker  # the same players: the same tracker …
    assert id(old) not in tracker.views._states and not tracker._dismissed  # … with nothing of the last game
