"""Simulated players for ``serve --demo``: the page comes alive with no table.

:class:`DemoPlayer` runs in a thread and plays through the same runtime as people do: every
``pace`` seconds it answers what the game waits for — a chance outcome from a seeded sampler
(:func:`rules.chance.sample_chance`), a decision from a simulated player (:mod:`rules.policies`) —
submitting it with the current state id. If someone enters a move meanwhile, its move is stale and
it simply tries again on the next tick. After a game ends it waits ``restart_after`` seconds and
starts the next one.
"""

from __future__ import annotations

import logging
import random
import threading

from games.tribes.rules.chance import sample_chance
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.game import POLICIES
from games.tribes.rules.policies import Policy
from session.runtime import GameRuntime, RuntimeRefusal

log = logging.getLogger(__name__)

DEMO_PLAYERS = (("Ada", "red"), ("Bo", "blue"), ("Cai", "yellow"), ("Dee", "black"))


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
        if not 2 <= players <= 4:
            raise ValueError("players must be 2 to 4")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
        self.runtime = runtime
        self.players = players
        self.pace = pace
        self.seed = seed
        self.policy = policy
        self.restart_after = restart_after
        self.rng = random.Random(seed)
        self.policies: list[Policy] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.moves_played = 0
        self.games_started = 0

    def start(self) -> None:
        """Start playing in a daemon thread."""
        self._thread = threading.Thread(target=self._run, name="tribes-demo", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop after the current step."""
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)

    def _new_game(self) -> None:
        n = self.players
        self.policies = [POLICIES[self.policy](self.seed * 101 + self.games_started * 7 + i) for i in range(n)]
        self.runtime.new_game(list(DEMO_PLAYERS[:n]))
        self.games_started += 1

    def step(self) -> bool:
        """Play one input (or start a game); False when the game is over."""
        rt = self.runtime
        if not rt.has_game:
            self._new_game()
            return True
        snap = rt.snapshot()
        state = snap.state
        if state.is_over:
            return False
        if len(self.policies) != state.n:
            self.policies = [POLICIES[self.policy](self.seed * 101 + i) for i in range(state.n)]
        move = sample_chance(state, self.rng) if state.is_chance else self.policies[state.actor].choose(state)
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
            if self._stop.wait(self.pace):
                return
