"""Simulated players for ``serve --demo``: the page comes alive with no table.

:class:`DemoPlayer` runs in a thread and plays through the same runtime as people do: every
``pace`` seconds it answers what the game waits for — a chance outcome from a seeded sampler
(the game's ``Rules.sample_chance``), a decision from one of the game's simulated players —
submitting it with the current state id. If someone enters a move meanwhile, its move is stale and
it simply tries again on the next tick. After a game ends it waits ``restart_after`` seconds and
starts the next one.

The page shows a speed control for a demo: anything that plays a demo through a runtime (a
:class:`DemoPlayer`, the camera demo's frame source) registers a :class:`SpeedControl` for it with
:func:`register`; the live view then carries ``demo`` (:func:`demo_view`) and ``POST /api/demo``
sets the speed.
"""

from __future__ import annotations

import logging
import random
import threading
import weakref
from typing import Any, Protocol

from games.api import Player
from games.errors import IllegalMoveError
from session.runtime import GameRuntime, RuntimeRefusal

log = logging.getLogger(__name__)

DEMO_NAMES = ("Ada", "Bo", "Cai", "Dee", "Eli", "Fay")
SPEEDS = (0.5, 1.0, 2.0, 4.0)
"""The speeds a :class:`DemoPlayer` offers (times its ``pace``)."""


class SpeedControl(Protocol):
    """A demo's speed as the page sets it: ``speed`` is one of ``speeds`` (1 = the normal pace)."""

    speeds: tuple[float, ...]

    @property
    def speed(self) -> float: ...  # pragma: no cover - protocol

    @speed.setter
    def speed(self, value: float) -> None: ...  # pragma: no cover - protocol


_CONTROLS: weakref.WeakKeyDictionary[Any, SpeedControl] = weakref.WeakKeyDictionary()


def register(runtime: Any, control: SpeedControl) -> None:
    """``control`` sets the speed of the demo that plays through ``runtime`` (one per runtime)."""
    _CONTROLS[runtime] = control


def unregister(runtime: Any) -> None:
    """No demo plays through ``runtime`` any more (the page hides the speed control)."""
    _CONTROLS.pop(runtime, None)


def control_of(runtime: Any) -> SpeedControl | None:
    """The speed control of the demo playing through ``runtime``, if any."""
    return _CONTROLS.get(runtime)


def demo_view(runtime: Any) -> dict[str, Any] | None:
    """``{"speed", "speeds"}`` of the demo playing through ``runtime`` (the page's speed control), or
    None when no demo plays."""
    c = control_of(runtime)
    if c is None:
        return None
    return {"speed": c.speed, "speeds": list(c.speeds)}


class DemoPlayer:
    """Plays whole games through ``runtime``, one input per ``pace`` seconds."""

    def __init__(
        self,
        runtime: GameRuntime,
        *,
        players: int = 3,
        pace: float = 1.0,
        seed: int = 1,
        policy: str = "greedy",
        restart_after: float = 10.0,
    ) -> None:
        info = runtime.game.info
        if not info.min_players <= players <= min(info.max_players, len(DEMO_NAMES)):
            raise ValueError(f"players must be {info.min_players} to {info.max_players}")
        if policy not in runtime.game.rules.players:
            raise ValueError(f"policy must be one of {', '.join(runtime.game.rules.players)}")
        self.runtime = runtime
        self.players = players
        self.base_pace = pace
        self.pace = pace
        self.speeds = SPEEDS
        self._speed = 1.0
        self.seed = seed
        self.policy = policy
        self.restart_after = restart_after
        self.rng = random.Random(seed)
        self.policies: list[Player] = []
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.moves_played = 0
        self.games_started = 0
        register(runtime, self)

    @property
    def speed(self) -> float:
        """How many times faster than ``pace`` it plays (one of :data:`SPEEDS`; the page sets it)."""
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        if value not in self.speeds:
            raise ValueError(f"speed must be one of {', '.join(f'{s:g}' for s in self.speeds)}")
        self._speed = float(value)
        self.pace = self.base_pace / self._speed
        self._wake.set()  # a long wait at a slow speed ends now

    def start(self) -> None:
        """Start playing in a daemon thread."""
        self._thread = threading.Thread(target=self._run, name="tribes-demo", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop after the current step."""
        self._stop.set()
        self._wake.set()
        unregister(self.runtime)
        if self._thread:
            self._thread.join(timeout=5)

    def _new_game(self) -> None:
        n = self.players
        game = self.runtime.game
        factory = game.rules.players[self.policy]
        self.policies = [factory(self.seed * 101 + self.games_started * 7 + i) for i in range(n)]
        colours = game.info.colours
        self.runtime.new_game([(DEMO_NAMES[i], colours[i % len(colours)]) for i in range(n)])
        self.games_started += 1

    def step(self) -> bool:
        """Play one input (or start a game); False when the game is over."""
        rt = self.runtime
        if not rt.has_game:
            self._new_game()
            return True
        snap = rt.snapshot()
        state = snap.state
        rules = (snap.game or rt.game).rules
        if rules.is_over(state):
            return False
        n = len(rules.seats(state))
        if len(self.policies) != n:
            self.policies = [rules.players[self.policy](self.seed * 101 + i) for i in range(n)]
        if rules.is_chance(state):
            move = rules.sample_chance(state, self.rng)
        else:
            move = self.policies[rules.actor(state)].choose(state)
        try:
            rt.submit(move, snap.state_id)
            self.moves_played += 1
        except (RuntimeRefusal, IllegalMoveError) as exc:  # someone entered a move meanwhile
            log.info("demo move %s not applied: %s", move, exc)
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if not self.step():
                    if self._stop.wait(self.restart_after):
                        return
                    self._new_game()
            except Exception:  # keep the demo alive whatever happens; the log has it
                log.exception("demo step failed")
            self._wake.wait(self.pace)
            self._wake.clear()
            if self._stop.is_set():
                return
