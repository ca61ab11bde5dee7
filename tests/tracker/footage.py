"""Scripted camera footage for tracker tests: observations built straight from rules states (the
perfect reading, as ``tracker.facts.observation_of_view``), edited to show moves half done, pieces
knocked, regions hidden; a runner that feeds them through a real ``GameRuntime`` and records what
the tracker did."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from games.tribes.rules.game import Game
from games.tribes.rules.hexgrid import Hex
from games.tribes.rules.moves import Move
from games.tribes.rules.state import State
from games.tribes.sim.noise import Noise
from games.tribes.tracker.facts import Seating, View, observation_of_view, table_view
from games.tribes.vision.observation import Observation
from session.runtime import GameRuntime
from tracker.link import LinkEvent, TrackerLink
from tracker.tracker import Status, TrackerConfig

FPS = 10.0


def view_of(state: State) -> View:
    """The table of ``state`` (players at layout seats 0..n-1)."""
    return table_view(state, Seating.of(state.players))


def with_members(view: View, seat: int, hex_: Hex, colour: str, n: int) -> View:
    """A copy of ``view`` with ``n`` members of ``colour`` on ``seat``'s hex."""
    out = dict(view)
    out[("members", seat, hex_)] = ((colour, n),) if n else ()
    return out


@dataclass
class Footage:
    """Observations at ``fps`` frames per second (10 unless told)."""

    frames: list[Observation] = field(default_factory=list)
    t: float = 0.0
    fps: float = FPS

    def _next(self) -> tuple[int, float]:
        n = len(self.frames)
        self.t = round(self.t + 1 / self.fps, 6)
        return n, self.t

    def hand(self, seconds: float = 0.5) -> Footage:
        """A hand over the table (unsettled frames)."""
        for _ in range(max(1, round(seconds * self.fps))):
            n, t = self._next()
            self.frames.append(Observation(frame=n, time=t, settled=False, hand_in_view=True))
        return self

    def show(
        self,
        view: View | State,
        seconds: float = 0.6,
        hidden_seats: Iterable[int] = (),
        edit: Callable[[int, Observation], Observation] | None = None,
    ) -> Footage:
        """The table at rest showing ``view`` (a rules state or a view); ``hidden_seats``: lands the
        camera cannot see; ``edit(i, obs)`` may change the i-th frame (noise, flips)."""
        v = view_of(view) if isinstance(view, State) else view
        base = observation_of_view(v)
        hidden = tuple(sorted(f"land:{s}" for s in hidden_seats))
        if hidden:
            seats = set(hidden_seats)
            base = replace(base, hexes=tuple(h for h in base.hexes if h.seat not in seats), hidden=hidden)
        for i in range(max(1, round(seconds * self.fps))):
            n, t = self._next()
            obs = replace(base, frame=n, time=t)
            if edit:
                obs = edit(i, obs)
            self.frames.append(obs)
        return self

    def move(self, before: State, after: State, seconds: float = 0.6) -> Footage:
        """A move: the hand, then the table after it."""
        del before
        return self.hand().show(after, seconds)


@dataclass
class Run:
    """What happened when footage was fed to a tracker on a runtime."""

    runtime: GameRuntime
    link: TrackerLink
    statuses: list[Status]

    @property
    def moves(self) -> list[str]:
        """The record, in notation."""
        return [str(m) for m in self.runtime.snapshot().moves]

    @property
    def events(self) -> list[LinkEvent]:
        """What the link did to the game."""
        return self.link.stats.events

    def kinds(self) -> list[str]:
        """Every status kind seen, in order, without repeats in a row."""
        out: list[str] = []
        for s in self.statuses:
            if not out or out[-1] != s.kind:
                out.append(s.kind)
        return out

    def committed(self) -> list[list[str]]:
        """The moves of every action the tracker carried out (commit / amend), in order."""
        return [[str(m) for m in e.moves] for e in self.events if e.kind in ("commit", "amend") and not e.error]

    def desyncs(self) -> list[Status]:
        """The statuses that showed a desync."""
        return [s for s in self.statuses if s.kind == "desync"]

    def prompts(self) -> list[Status]:
        """The statuses that showed a prompt."""
        return [s for s in self.statuses if s.kind == "prompt" and s.prompt]


def runtime_at(tmp: Path, game: Game, upto: int) -> GameRuntime:
    """A runtime whose record is the first ``upto`` moves of ``game``."""
    rt = GameRuntime(tmp, fsync=False)
    rt.new_game([(p.name, p.colour) for p in game.states[0].players])
    for m in game.moves[:upto]:
        rt.submit(m)
    return rt


def feed(
    runtime: GameRuntime,
    footage: Footage,
    config: TrackerConfig | None = None,
    noise: Noise | None = None,
    link: TrackerLink | None = None,
    on_frame: Callable[[int, TrackerLink], None] | None = None,
) -> Run:
    """Feed every frame; ``on_frame(i, link)`` runs after each (answers, checks)."""
    link = link or TrackerLink(runtime, config=config, freeze_gc=False)
    statuses = []
    for i, obs in enumerate(footage.frames):
        if noise is not None:
            obs = noise.apply(obs, scene=None)
        statuses.append(link.feed(obs).status)
        if on_frame:
            on_frame(i, link)
    return Run(runtime, link, statuses)


def find(game: Game, pred: Callable[[State, Move], bool], start: int = 1) -> int:
    """The index of the first move of ``game`` (from ``start``) for which ``pred(state, move)``."""
    for i in range(start, len(game.moves)):
        if pred(game.states[i], game.moves[i]):
            return i
    raise LookupError("no such move in the game")
