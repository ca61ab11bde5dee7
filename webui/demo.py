"""Simulated players for ``serve --demo``: the page comes alive with no table.

:class:`DemoPlayer` runs in a thread and plays through the same runtime as people do: every
``pace`` seconds it answers what the game waits for — a chance outcome from a seeded sampler
(the game's ``Rules.sample_chance``), a decision from one of the game's simulated players —
submitting it with the current state id. If someone enters a move meanwhile, its move is stale and
it simply tries again on the next tick. After a game ends it waits ``restart_after`` seconds and
starts the next one.
"""

from __future__ import annotations

import logging
import random
import threading

from games.api import Player
from games.errors import IllegalMoveError
from session.runtime import GameRuntime, RuntimeRefusal

log = logging.getLogger(__name__)

DEMO_NAMES = ("Ada", "Bo", "Cai", "Dee", "Eli", "Fay")


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
        self.pace = pace
        self.seed = seed
        self.policy = policy
        self.restart_after = restart_after
        self.rng = random.Random(seed)
        self.policies: list[Player] = []
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
        rules = rt.game.rules
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
            if self._stop.wait(self.pace):
                return
