"""The tracker: from settled observations and the game record to committed moves, prompts and desyncs.

:class:`Tracker` is fed every observation the camera makes (``update``) together with the game
record as it stands (:class:`GameView`: the states, the moves, whether the last move may be undone
under the runtime's policy). It answers with an :class:`Update`: its :class:`Status` (what it is
doing, for the page) and at most one :class:`Action` for the caller to carry out on the game (commit
moves, undo, or undo and commit). It never changes the game itself, so the same tracker drives a web
runtime, a replay or a test.

How it decides:

1. Frames with a hand or motion (``settled`` false) are not read; they end the current window.
2. The facts of the settled frames since (at most ``window_s`` seconds) are fused
   (:mod:`tracker.evidence`): one odd frame is outvoted, absent facts (hidden regions) are unknown,
   not empty.
3. If the fused table reads exactly as the record predicts, all is well (*watching*). Otherwise the
   search (:mod:`tracker.search`) looks for chains of legal moves from the current state that explain
   the table; if none does, it also tries the states before the last few moves (a takeback, or a
   move read too early and since completed).
4. One explanation clearly better than every other (by ``margin``), unchanged for ``stable_s``
   seconds over at least ``min_frames`` settled frames, or two spanning ``min_span_s`` seconds from a
   slow camera (``extendable_s`` for a move that could still
   grow, such as a Movement with steps left, counted over hands that change nothing), is committed;
   such a waiting move is also committed as soon as the table shows a later turn under way. Rival
   explanations that differ only in facts nobody can see now wait for the view (*waiting*), then
   become a prompt; rivals that differ in what is seen become a **prompt** with the few best
   candidates, after ``prompt_after`` seconds of the same best explanation (rivals that come and go
   meanwhile do not restart the wait, nor ask again while the question offered them). An event
   answer the table cannot show at all is asked about once the table rests.
5. A table that no legal chain explains is *changing* while it may be a move in progress; after
   ``desync_after`` seconds of settled, unexplained table it is a **desync** naming the facts (hexes,
   slots…) that disagree with the closest legal explanation, with that explanation offered as a fix.
   The desync clears as soon as the table is explained again (put back, or completed) or the record
   is corrected. Facts left over beside committed moves (a knocked piece) count towards the same
   ``desync_after`` over hands and commits, so they are flagged while play goes on. A desync the
   user answers **overrules** the facts it named where the game still disagrees after the answer
   (:meth:`Tracker.overrule`): the camera misreads them (a revealed tile it keeps seeing face down),
   so while each reads what it read then it is left out, and play goes on without the same question
   after every move; a fact whose reading changes counts again.
6. A table that shows an earlier position is a takeback: undone when the runtime allows undoing the
   last move, otherwise a desync that offers the correction.
"""

from __future__ import annotations

import time as _time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import islice
from typing import Any

from games.errors import IllegalMoveError
from tracker.evidence import Evidence
from tracker.facts import Key, Seating, value_of
from tracker.policy import TrackerPolicy, default_policy
from tracker.search import Node, SearchConfig, ViewCache, relax, search

State = Any
Move = Any
Observation = Any

MESSAGES: dict[str, str] = {
    "no_game": "no game yet",
    "no_game_start": "no game yet: start one on the page",
    "no_observation": "no observation yet",
    "no_table": "the table is not in view (markers not found)",
    "hand": "hand in view",
    "moving": "something is moving",
    "matches": "the table matches the game",
    "matches_hidden": "the table matches the game where the camera can see it; hidden: {regions}",
    "seen": "seen: {option}",
    "seen_may_go_on": "seen: {option} (the move may go on)",
    "committed": "committed: {option}",
    "undo": "undo: {option}",
    "amend": "amend: {option}",
    "taking_back": "taking back: {option}",
    "waiting_view_of": "waiting for a view of {regions}: {option}?",
    "waiting_view": "waiting for a view of {places}",
    "n_fit": "{n} moves fit the table",
    "too_quick": "several moves of one player happened too quickly to tell apart: is this right?",
    "invisible_answer": "{player} answers an event in a way the table does not show: which option?",
    "hidden_which": "part of the table stays hidden: which move was it?",
    "cannot_tell": "the camera cannot tell these moves apart: which one was it?",
    "dismissed": "a prompt was dismissed: waiting for the table to change",
    "changed_hidden": "the table changed where the camera cannot see all of it ({regions}): enter the move on the page",
    "changing": "the table is changing: waiting for a complete move",
    "disagree": "the table and the game disagree: {where}",
    "disagree_closest": "the table and the game disagree: {where} (closest legal move: {option})",
    "disagree_knocked": "the table and the game disagree: {where} (a piece knocked over, or misread?)",
    "different_move": "the table shows a different move than the record ({option}): undo is not allowed now",
    "position_before": "the table shows the position before {move}: undo is not allowed now "
    "(put the table back, or correct the record)",
    "answer_entered": "answer entered",
}
"""Everything the tracker says, in English, by key: a status, prompt or desync carries its ``key`` and
``args`` too, and the page says it in the reader's language (``tr_<key>`` in webui/static/i18n.js;
tests/tracker/test_tracker_texts.py checks that every key is there in both languages). An argument is
a number or a name, an :class:`Option` (its moves), or :class:`Words` (places and regions the game's
policy describes)."""


@dataclass(frozen=True)
class Words:
    """An argument of a message that the game's policy puts in words: ``text`` in English, ``data``
    for the page to say it in another language (``{"regions": [...]}``, ``{"places": [key…]}`` or
    ``{"facts": [{"key", "seen"}…]}``)."""

    text: str
    data: Mapping[str, Any]

    def __str__(self) -> str:
        return self.text


def say(key: str, **args: Any) -> tuple[str, str, tuple[tuple[str, Any], ...]]:
    """``(English text, key, args)`` of the message ``key`` (:data:`MESSAGES`)."""
    text = MESSAGES[key].format(**{k: (v.label if isinstance(v, Option) else v) for k, v in args.items()})
    return text, key, tuple(args.items())


def args_json(args: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """A message's arguments as JSON data: an option as ``{"moves", "back", "label"}``, words as their
    data with ``text``, anything else as it is."""
    out: dict[str, Any] = {}
    for k, v in args:
        if isinstance(v, Option):
            out[k] = {"option": v.to_dict()}
        elif isinstance(v, Words):
            out[k] = {"text": v.text, **v.data}
        else:
            out[k] = v
    return out


def plain(value: Any) -> Any:
    """A fact's value as JSON data (tuples as lists)."""
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


class StatusKind(StrEnum):
    """What the tracker is doing (a closed set; compares equal to its text)."""

    IDLE = "idle"
    NO_TABLE = "no_table"
    HAND = "hand"
    SETTLING = "settling"
    WATCHING = "watching"
    CHANGING = "changing"
    WAITING = "waiting"
    PROMPT = "prompt"
    DESYNC = "desync"


STATUS_KINDS: tuple[str, ...] = tuple(k.value for k in StatusKind)


class ActionKind(StrEnum):
    """What the tracker asks the caller to do to the game."""

    COMMIT = "commit"
    UNDO = "undo"
    AMEND = "amend"


@dataclass(frozen=True)
class TrackerConfig:
    """Timings (seconds of observation time) and thresholds of the tracker."""

    min_frames: int = 3
    min_span_s: float = 0.15
    stable_s: float = 0.15
    extendable_s: float = 1.3
    window_s: float = 1.5
    window_frames: int = 15
    margin: float = 3.0
    disagree: float = 2.0
    desync_after: float = 2.5
    prompt_after: float = 0.8
    hidden_prompt_after: float = 6.0
    takeback_depth: int = 3
    back_cost: float = 1.0
    floor: float = 0.02
    rival_floor: float = 0.02
    max_options: int = 4
    search: SearchConfig = field(default_factory=SearchConfig)

    def __post_init__(self) -> None:
        if self.search.disagree != self.disagree:
            object.__setattr__(self, "search", replace(self.search, disagree=self.disagree))


@dataclass(frozen=True)
class GameView:
    """The game record as the tracker needs it: ``states[-1]`` is the current state, ``states[-1-j]``
    the state before the last ``j`` moves (``moves[-j]``…); ``can_undo``: the last move may be
    undone now (the runtime's policy, within the turn); ``can_take_back``: the last move may be taken
    back because the table shows the position before it (the runtime's policy for a takeback seen on
    the table: also a move that ended a turn, never a revealed chance outcome); ``state_id`` changes
    with every change of the record."""

    state_id: int
    states: Sequence[State]
    moves: Sequence[Move]
    can_undo: bool = False
    names: tuple[str, ...] = ()
    can_take_back: bool = False

    def allows(self, back: int, replaced: bool) -> bool:
        """The table showing the position ``back`` moves ago (``replaced``: and other moves since)
        may be followed without asking: within the turn (``can_undo``, step by step), or the last
        move alone put back as it was before (``can_take_back``). A different move in its place
        after a finished turn is asked (a knocked piece can look like one)."""
        return bool(back) and (self.can_undo or (back == 1 and not replaced and self.can_take_back))

    @property
    def state(self) -> State:
        """The current state."""
        return self.states[-1]


@dataclass(frozen=True)
class Option:
    """A candidate explanation: take back ``back`` moves, then play ``moves``."""

    moves: tuple[Move, ...]
    back: int = 0
    deficit: float = 0.0

    @property
    def label(self) -> str:
        """The moves in notation (with the takeback, if any)."""
        if not self.moves and not self.back:
            return "nothing happened"
        text = " · ".join(str(m) for m in self.moves) or "(no move)"
        if self.back:
            return f"take back {self.back} move{'s' if self.back > 1 else ''}, then {text}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """JSON data."""
        return {
            "moves": [str(m) for m in self.moves],
            "back": self.back,
            "label": self.label,
            "deficit": round(self.deficit, 2),
        }


@dataclass(frozen=True)
class FactDiff:
    """A fact where the table and a prediction disagree."""

    key: Key
    expected: Any
    seen: Any
    strength: float

    def to_dict(self, names: Mapping[int, str] | None = None, policy: TrackerPolicy | None = None) -> dict[str, Any]:
        """JSON data with words for people (the game's ``policy`` describes the fact)."""
        pol = policy or default_policy()
        return {
            "key": pol.key_to_json(self.key),
            "where": pol.describe_key(self.key, names),
            "expected": pol.describe_value(self.key, self.expected),
            "seen": pol.describe_value(self.key, self.seen),
            "expected_value": plain(self.expected),
            "seen_value": plain(self.seen),
            "strength": round(self.strength, 2),
        }


@dataclass(frozen=True)
class Prompt:
    """Rival explanations for the user to choose from (one tap submits the option)."""

    id: int
    state_id: int
    options: tuple[Option, ...]
    reason: str
    key: str = ""
    args: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Desync:
    """The table and the record disagree and no legal chain explains it. ``facts``: where, compared
    with the closest legal explanation ``closest``; ``options``: fixes the user may tap."""

    id: int
    state_id: int
    facts: tuple[FactDiff, ...]
    closest: Option
    options: tuple[Option, ...]
    message: str
    since: float
    key: str = ""
    args: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Status:
    """What the tracker is doing (for the page and logs)."""

    kind: StatusKind
    message: str
    time: float
    hand: bool = False
    prompt: Prompt | None = None
    desync: Desync | None = None
    hidden: tuple[str, ...] = ()
    key: str = ""
    args: tuple[tuple[str, Any], ...] = ()

    def to_dict(self, names: Mapping[int, str] | None = None, policy: TrackerPolicy | None = None) -> dict[str, Any]:
        """JSON data (``names``: player names by layout seat, for describing facts; also given as
        ``names`` so the page can say facts and regions in its own words)."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "message": self.message,
            "key": self.key,
            "args": args_json(self.args),
            "names": {str(k): v for k, v in (names or {}).items()},
            "time": round(self.time, 3),
            "hand": self.hand,
            "hidden": list(self.hidden),
            "prompt": None,
            "desync": None,
        }
        if self.prompt:
            out["prompt"] = {
                "id": self.prompt.id,
                "state_id": self.prompt.state_id,
                "reason": self.prompt.reason,
                "key": self.prompt.key,
                "args": args_json(self.prompt.args),
                "options": [o.to_dict() for o in self.prompt.options],
            }
        if self.desync:
            d = self.desync
            out["desync"] = {
                "id": d.id,
                "state_id": d.state_id,
                "message": d.message,
                "key": d.key,
                "args": args_json(d.args),
                "facts": [f.to_dict(names, policy) for f in d.facts],
                "closest": d.closest.to_dict(),
                "options": [o.to_dict() for o in d.options],
                "since": round(d.since, 3),
            }
        return out


@dataclass(frozen=True)
class Action:
    """What the caller should do to the game: undo ``back`` moves (one at a time, each only if the
    runtime allows it), then submit ``moves``. ``kind``: commit, undo or amend."""

    kind: ActionKind
    moves: tuple[Move, ...] = ()
    back: int = 0


@dataclass(frozen=True)
class Update:
    """The tracker's answer to one observation."""

    status: Status
    action: Action | None = None
    seconds: float = 0.0  # processing time


@dataclass
class _Analysis:
    state_id: int
    nodes: list[Node]
    back_nodes: list[Node]
    searched_back: bool
    # moves seen complete -> whether a search from after them explains the table
    beyond_seen: dict[tuple[Move, ...], bool] = field(default_factory=dict)


class Tracker:
    """See the module docstring. One instance per camera; not thread-safe (feed it from one thread)."""

    def __init__(
        self, seating: Seating, config: TrackerConfig | None = None, policy: TrackerPolicy | None = None
    ) -> None:
        self.seating = seating
        self.config = config or TrackerConfig()
        self.policy = policy or default_policy()
        self.rules = self.policy.rules
        self.views = ViewCache(seating, self.policy)
        self._window: list[tuple[float, dict[Key, Any]]] = []
        self._window_hidden: list[tuple[str, ...]] = []
        self._analysis: _Analysis | None = None
        self._analysis_key: Any = None
        self._candidate: tuple[Any, float] | None = None  # (decision key, first seen)
        # (state id, decision key, settled seconds): the last decision seen stable, kept over hands
        self._seen_stable: tuple[int, Any, float] | None = None
        self._quiet_since: tuple[int, float] | None = None  # (state id, time) the table matched the record
        self._left_over: Desync | None = None  # the last desync about facts left over beside moves
        self._unexplained_since: float | None = None
        self._unexplained_settled = 0.0
        self._last_settled_time: float | None = None
        self._ambiguous_since: tuple[Any, float] | None = None
        self._prompt: Prompt | None = None
        self._desync: Desync | None = None
        self._ids = 0
        self._dismissed: set[Any] = set()
        self._overruled: dict[Key, Any] = {}
        self._first: object = None  # the record's first state: another one is another game
        self.status = Status(StatusKind.IDLE, MESSAGES["no_game"], 0.0, key="no_game")

    # --- public ----------------------------------------------------------------------------------
    def update(self, obs: Observation, game: GameView | None) -> Update:
        """Read one observation against the record; see the module docstring."""
        t0 = _time.perf_counter()
        update = self._update(obs, game)
        self.status = update.status
        return Update(update.status, update.action, _time.perf_counter() - t0)

    def reset(self) -> None:
        """Forget the window, prompts and desyncs (e.g. after a new game)."""
        self._window.clear()
        self._window_hidden.clear()
        self._analysis = None
        self._analysis_key = None
        self._candidate = None
        self._seen_stable = None
        self._unexplained_since = None
        self._unexplained_settled = 0.0
        self._ambiguous_since = None
        self._prompt = None
        self._desync = None
        self._overruled.clear()

    def dismiss(self, prompt_id: int) -> bool:
        """The user says none of the prompt's options happened: do not ask again until the record
        or the option that reads best changes, or a rival it did not offer comes up. Returns False if
        no such prompt is open."""
        p = self._prompt
        if p is None or p.id != prompt_id:
            return False
        self._dismissed.add((p.state_id, _first(p), _options(p)))
        self._prompt = None
        return True

    def overrule(self, desync_id: int) -> bool:
        """The user answered the open desync: where the game, once the answer is applied, still
        disagrees with a fact it named, the camera is wrong there. From then on a reading of that fact
        that stays what it was is left out (see :attr:`overruled`) instead of raising the same desync
        after every move. Returns False if no such desync is open."""
        d = self._desync
        if d is None or d.id != desync_id:
            return False
        for f in d.facts:
            self._overruled[f.key] = f.seen
        return True

    @property
    def overruled(self) -> dict[Key, Any]:
        """The facts the user overruled (a desync answered) and the value the camera keeps reading
        there. Each is left out of the evidence while it reads that value and the game disagrees with
        it; once the reading changes, or the game comes to agree, the fact counts again."""
        return dict(self._overruled)

    def reinstate(self, key: Key | None = None) -> int:
        """Count the overruled fact ``key`` again (all of them without one): the user wants the camera
        looked at again there, e.g. after a wrong answer. Where the table still disagrees with the
        record, the desync comes back with its fixes. Returns how many overrules were dropped."""
        if key is None:
            n = len(self._overruled)
            self._overruled.clear()
            return n
        if key not in self._overruled:
            return 0
        del self._overruled[key]
        return 1

    def forget_questions(self) -> None:
        """Close the open prompt and desync (the user answered; the next frame re-reads the table)."""
        self._prompt = None
        self._desync = None
        self._unexplained_since = None
        self._unexplained_settled = 0.0
        self._ambiguous_since = None

    def evidence(self) -> Evidence:
        """The fused evidence of the current window."""
        return Evidence.fuse((f for _, f in self._window), self.config.floor, self.config.rival_floor)

    # --- internals -------------------------------------------------------------------------------
    def _status(
        self, kind: StatusKind, key: str, t: float, hand: bool = False, hidden: tuple[str, ...] = (), **args: Any
    ) -> Status:
        """A status saying :data:`MESSAGES` ``[key]`` with ``args``."""
        text, key, targs = say(key, **args)
        return Status(kind, text, t, hand, self._prompt, self._desync, hidden, key, targs)

    def _asked(self, kind: StatusKind, t: float, hidden: tuple[str, ...] = ()) -> Status:
        """A status that says what the open prompt asks."""
        p = self._prompt
        assert p is not None
        return Status(kind, p.reason, t, False, p, self._desync, hidden, p.key, p.args)

    def _told(self, t: float, hidden: tuple[str, ...] = ()) -> Status:
        """A status that says what the open desync says."""
        d = self._desync
        assert d is not None
        return Status(StatusKind.DESYNC, d.message, t, False, self._prompt, d, hidden, d.key, d.args)

    def _update(self, obs: Observation, game: GameView | None) -> Update:
        cfg = self.config
        t = obs.time
        if game is None:
            self.reset()
            return Update(Status(StatusKind.IDLE, MESSAGES["no_game_start"], t, key="no_game_start"))
        if game.states and game.states[0] is not self._first:
            if self._first is not None:  # another game: what was cached, dismissed, overruled for the last goes
                self.views.clear()
                self._dismissed.clear()
                self._overruled.clear()
            self._first = game.states[0]
        self._drop_stale(game)
        if not obs.registered:
            self._end_window()
            return Update(self._status(StatusKind.NO_TABLE, "no_table", t))
        if not obs.settled:
            self._end_window()
            msg = "hand" if obs.hand_in_view else "moving"
            return Update(self._status(self._kind_during_hand(), msg, t, hand=obs.hand_in_view))
        facts = self.policy.facts(obs, self.seating)
        if self._last_settled_time is not None and self._unexplained_since is not None:
            self._unexplained_settled += max(0.0, t - self._last_settled_time)
        self._last_settled_time = t
        self._window.append((t, facts))
        self._window_hidden.append(tuple(obs.hidden))
        while len(self._window) > cfg.window_frames or (self._window and t - self._window[0][0] > cfg.window_s):
            self._window.pop(0)
            self._window_hidden.pop(0)
        ev = self._without_overruled(self.evidence(), game)
        return self._decide(ev, game, t, tuple(obs.hidden))

    def _without_overruled(self, ev: Evidence, game: GameView) -> Evidence:
        """``ev`` less the facts the user overruled that still read what they read then, where the
        game still disagrees (:meth:`overrule`); an overrule whose reading changed, or that the game
        now agrees with, is dropped."""
        if not self._overruled:
            return ev
        view = self.views.view(game.state)
        drop = []
        for key, seen in list(self._overruled.items()):
            fe = ev.facts.get(key)
            if fe is None:
                continue  # not read now (hidden): the overrule stands
            if fe.mode != seen or value_of(view, key, self.policy.default) == seen:
                del self._overruled[key]
            else:
                drop.append(key)
        if not drop:
            return ev
        return Evidence({k: fe for k, fe in ev.facts.items() if k not in drop}, ev.frames)

    def _kind_during_hand(self) -> StatusKind:
        if self._prompt:
            return StatusKind.PROMPT
        if self._desync:
            return StatusKind.DESYNC
        return StatusKind.HAND

    def _hidden(self) -> frozenset[str]:
        """Regions one of the last few frames could not see (in full)."""
        return frozenset(r for h in self._window_hidden[-self.config.min_frames :] for r in h)

    def _enough(self) -> bool:
        """The window holds enough settled frames to act on: ``min_frames``, or two or more spanning
        ``min_span_s`` seconds. At 10 frames a second and faster that is the ``min_frames`` (one odd
        frame is outvoted); a slow camera (or a reader slower than the camera, at about 6 reads a
        second) gets two agreeing frames in a rest people take between moves, where three would need
        half a second or more of stillness after the gate's own wait. A fact two frames disagree on is a
        tie, which supports no move over the table as recorded (the cheaper explanation)."""
        w = self._window
        return len(w) >= self.config.min_frames or (len(w) >= 2 and w[-1][0] - w[0][0] >= self.config.min_span_s - 1e-9)

    def _end_window(self) -> None:
        self._window.clear()
        self._window_hidden.clear()
        self._candidate = None
        self._last_settled_time = None
        self._ambiguous_since = None
        self._quiet_since = None

    def _drop_stale(self, game: GameView) -> None:
        if self._prompt and self._prompt.state_id != game.state_id:
            self._prompt = None
        if self._desync and self._desync.state_id != game.state_id:
            left_over = self._left_over is not None and self._left_over.id == self._desync.id
            self._desync = None
            if not left_over:  # facts left over beside a commit still disagree after it
                self._unexplained_since = None
                self._unexplained_settled = 0.0

    def _next_id(self) -> int:
        self._ids += 1
        return self._ids

    def _analyse(self, ev: Evidence, game: GameView, need_back: bool) -> _Analysis:
        modes_key = (game.state_id, frozenset(ev.modes().items()))
        a = self._analysis
        if a is not None and self._analysis_key == modes_key:
            for n in a.nodes:
                n.rescore_same_modes(ev, self.config.disagree)
            for n in a.back_nodes:
                n.rescore_same_modes(ev, self.config.disagree)
            relax(a.nodes)
        else:
            cfg = self.config.search
            nodes = search(game.state, ev, self.seating, cfg, self.views)
            if not any(n.explains for n in nodes) and cfg.prune:
                # the row may be misread: try every slot, on a smaller budget
                wide = replace(cfg, prune=False, max_nodes=cfg.max_nodes // 2)
                have = {n.moves for n in nodes}
                nodes += [n for n in search(game.state, ev, self.seating, wide, self.views)[1:] if n.moves not in have]
            relax(nodes)
            a = _Analysis(game.state_id, nodes, [], False)
            self._analysis = a
            self._analysis_key = modes_key
        if need_back and not a.searched_back:
            a.searched_back = True
            depth = min(self.config.takeback_depth, len(game.moves))
            cfg = replace(self.config.search, max_depth=3, max_nodes=self.config.search.max_nodes // 4)
            seen: set[tuple[int, tuple[Move, ...]]] = set()
            for j in range(1, depth + 1):
                before = game.states[-1 - j]
                for n in search(before, ev, self.seating, cfg, self.views, back=j):
                    # "take back 2, then replay the first of them" is "take back 1"
                    while n.back and n.moves and n.moves[0] == game.moves[len(game.moves) - n.back]:
                        n.back -= 1
                        n.moves = n.moves[1:]
                    key = (n.back, n.moves)
                    if key not in seen and (n.back or n.moves):
                        seen.add(key)
                        a.back_nodes.append(n)
        return a

    def _decide(self, ev: Evidence, game: GameView, t: float, hidden: tuple[str, ...]) -> Update:
        cfg = self.config
        view0 = self.views.view(game.state)
        default = self.policy.default
        if all(value_of(view0, k, default) == fe.mode for k, fe in ev.facts.items()):
            return self._invisible_choice(ev, game, t, hidden) or self._explained_root(t, hidden, game.state)
        self._quiet_since = None
        a = self._analyse(ev, game, need_back=False)
        explained = [n for n in a.nodes if n.explains]
        if not explained:
            a = self._analyse(ev, game, need_back=True)
            explained = [n for n in a.back_nodes if n.explains]
        if not explained:
            return self._unexplained(a, ev, game, t, hidden)
        sc, bc = cfg.search.step_cost, cfg.back_cost
        explained.sort(key=lambda n: (n.cost(sc, bc), n.back, len(n.moves), [str(m) for m in n.moves]))
        best = explained[0]
        if best.disagreements:
            # explained but for facts left over: the table still disagrees with the game there
            if self._unexplained_since is None:
                self._unexplained_since = t
                self._unexplained_settled = 0.0
        else:
            self._unexplained_since = None
            self._unexplained_settled = 0.0
        self._desync = None
        update = self._decide_best(best, explained, ev, game, t, hidden)
        return self._flag_residual(update, best, ev, game, t, hidden)

    def _decide_best(
        self, best: Node, explained: list[Node], ev: Evidence, game: GameView, t: float, hidden: tuple[str, ...]
    ) -> Update:
        """What to do when ``best`` is the best of the nodes that explain the table."""
        cfg = self.config
        sc, bc = cfg.search.step_cost, cfg.back_cost
        if not best.moves and not best.back:
            return self._explained_root(t, hidden, game.state)
        if best.back and not game.allows(best.back, bool(best.moves)) and self._enough():
            # the table shows another past than the record and the runtime may not undo: say so now,
            # offering the fixes that explain the table
            fixes = [n for n in explained if n.back and n.moves][: cfg.max_options]
            return self._takeback_refused(best, ev, game, t, hidden, fixes)
        rivals = [
            n
            for n in explained[1:]
            if n.cost(sc, bc) - best.cost(sc, bc) < self._margin(n, best)
            and not _extends(n, best)
            and not _extends(best, n)
        ]
        if rivals:
            return self._ambiguous(best, rivals, ev, game, t, hidden)
        split = self.policy.split_unclear(game.states[-1 - best.back], best.moves)
        if split == 0 or (split > 0 and best.back):
            done = self._seen_complete(game) if not best.back else ()
            if done and not self._enough():
                return Update(
                    self._status(StatusKind.SETTLING, "seen", t, hidden=hidden, option=Option(tuple(best.moves)))
                )
            if done:
                # the table showed this move on its own, and since then more turns: that settles
                # where the first player's move ended
                self._seen_stable = None
                return Update(
                    self._status(StatusKind.SETTLING, "committed", t, hidden=hidden, option=Option(done)),
                    Action(ActionKind.COMMIT, done),
                )
            # more frames of the same table cannot settle this: ask at once
            return self._ambiguous(best, [], ev, game, t, hidden, force=True, reason=say("too_quick"))
        if split > 0:
            best = _prefix(best, split)  # moves by others followed: these are complete
        self._ambiguous_since = None
        decision = (best.back, tuple(best.moves))
        if self._candidate is None or self._candidate[0] != decision:
            # the same decision seen stable before a hand came and went: its time counts on
            before = self._seen_stable
            carried = before[2] if before and before[:2] == (game.state_id, decision) else 0.0
            self._candidate = (decision, t - carried)
        first_seen = self._candidate[1]
        option = Option(tuple(best.moves), best.back, best.deficit)
        hidden_land = self.policy.unverified(
            game.states[-1 - best.back], best.moves, best.state, ev, self.seating, self._hidden(), self._recent_reads()
        )
        if hidden_land:
            names = _names(game, self.seating, self.rules)
            who = self._regions(hidden_land, names)
            if self._prompt and [(o.back, o.moves) for o in self._prompt.options] == [decision]:
                return Update(self._asked(StatusKind.PROMPT, t, hidden))
            if t - first_seen < cfg.hidden_prompt_after:
                return Update(
                    self._status(StatusKind.WAITING, "waiting_view_of", t, hidden=hidden, regions=who, option=option)
                )
            return self._ambiguous(best, [], ev, game, t, hidden, force=True)
        if not self._enough() or t - first_seen < cfg.stable_s:
            return Update(self._status(StatusKind.SETTLING, "seen", t, hidden=hidden, option=option))
        self._seen_stable = (game.state_id, decision, t - first_seen)
        if split < 0 and t - first_seen < cfg.extendable_s and self._extendable(best, game.states[-1 - best.back]):
            if best.back == 0 and len(best.moves) > 1:
                # the moves before the last are finished (someone moved on): commit them now, and
                # keep waiting for the last one, which may still grow
                self._candidate = ((0, (best.moves[-1],)), first_seen)
                self._prompt = None
                finished = Option(tuple(best.moves[:-1]))
                return Update(
                    self._status(StatusKind.SETTLING, "committed", t, hidden=hidden, option=finished),
                    Action(ActionKind.COMMIT, tuple(best.moves[:-1])),
                )
            return Update(self._status(StatusKind.SETTLING, "seen_may_go_on", t, hidden=hidden, option=option))
        # commit
        self._candidate = None
        self._prompt = None
        if best.back:
            if not game.allows(best.back, bool(best.moves)):
                return self._takeback_refused(best, ev, game, t, hidden)
            kind = ActionKind.AMEND if best.moves else ActionKind.UNDO
            # undo one move at a time: the next observation re-checks the rest
            if best.back > 1:
                return Update(
                    self._status(StatusKind.SETTLING, "taking_back", t, option=option), Action(ActionKind.UNDO, (), 1)
                )
            return Update(
                self._status(StatusKind.WATCHING, str(kind), t, option=option), Action(kind, tuple(best.moves), 1)
            )
        return Update(
            self._status(StatusKind.WATCHING, "committed", t, option=option),
            Action(ActionKind.COMMIT, tuple(best.moves)),
        )

    def _flag_residual(
        self, update: Update, best: Node, ev: Evidence, game: GameView, t: float, hidden: tuple[str, ...]
    ) -> Update:
        """Facts the chosen explanation leaves over (a knocked piece, a misreading, a tile laid
        where the record has none: see :func:`tracker.search.relax`) may not stand unflagged while
        play goes on: once the table has disagreed with the game for ``desync_after`` seconds of
        settled table, over hands and commits, the status is a desync naming them (the update's
        action, if any, is still carried out: the moves explain the rest of the table)."""
        if not best.disagreements or self._unexplained_settled < self.config.desync_after:
            return update
        if update.status.kind in (StatusKind.PROMPT, StatusKind.DESYNC):
            return update  # already a question to the user (with its options)
        names = _names(game, self.seating, self.rules)
        facts = tuple(
            FactDiff(k, value_of(best.view, k, self.policy.default), ev.facts[k].mode, d)
            for k, d in best.disagreements[:8]
        )
        msg, key, margs = say("disagree_knocked", where=self._where(facts, names))
        prev = self._desync or self._left_over
        keep = prev is not None and {f.key for f in prev.facts} == {f.key for f in facts}
        did = prev.id if prev is not None and keep else self._next_id()
        since = prev.since if prev is not None and keep else t
        near = Option(tuple(best.moves), best.back)
        self._desync = Desync(did, game.state_id, facts, near, (), msg, since, key, margs)
        self._left_over = self._desync
        return Update(self._told(t, hidden), update.action)

    def _invisible_choice(self, ev: Evidence, game: GameView, t: float, hidden: tuple[str, ...]) -> Update | None:
        """The table matches the record, which waits for a player's answer to an event that no
        option of shows on the table (an either/or pick whose effect is not on the table): after a
        while, the only option is committed and several are asked about. The wait is short when
        every option ends the game (nothing more will come to tell them apart), longer otherwise
        (the next moves may show which it was)."""
        cfg = self.config
        state = game.state
        if self._quiet_since is None or self._quiet_since[0] != game.state_id:
            self._quiet_since = (game.state_id, t)
        if not self.policy.invisible_answer(state) or not self._enough():
            return None
        view0 = self.views.view(state)
        after: list[Node] = []
        for m in islice(self.rules.legal_moves(state), 2 * cfg.max_options):
            try:
                nxt = self.rules.apply(state, m)
            except IllegalMoveError:
                continue
            if self.views.view(nxt) != view0:
                return None  # an option the table would show: wait for it
            after.append(Node(nxt, (m,), self.views))
        if not after:
            return None
        wait = cfg.prompt_after if all(self.rules.is_over(n.state) for n in after) else cfg.hidden_prompt_after
        if t - self._quiet_since[1] < wait:
            return None
        if len(after) == 1:
            self._quiet_since = None
            return Update(
                self._status(StatusKind.WATCHING, "committed", t, option=Option(tuple(after[0].moves))),
                Action(ActionKind.COMMIT, after[0].moves),
            )
        who = _names(game, self.seating, self.rules).get(self.seating.layout_seats[self.rules.actor(state)], "a player")
        why = say("invisible_answer", player=who)
        return self._ambiguous(after[0], after[1:], ev, game, t, hidden, force=True, reason=why)

    def _explained_root(self, t: float, hidden: tuple[str, ...], state: State) -> Update:
        self._unexplained_since = None
        self._unexplained_settled = 0.0
        self._desync = None
        self._candidate = None
        self._ambiguous_since = None
        self._prompt = None
        if not self._enough():
            return Update(self._status(StatusKind.SETTLING, "matches", t, hidden=hidden))
        recent = self._recent_reads()
        lands = self.policy.watched_regions(hidden, state, recent, self.seating)
        if lands:
            # nothing disagrees where the camera can see, but a move may be going on where it cannot
            who = Words(", ".join(r for r in lands), {"regions": list(lands)})
            return Update(self._status(StatusKind.WAITING, "matches_hidden", t, hidden=hidden, regions=who))
        return Update(self._status(StatusKind.WATCHING, "matches", t, hidden=hidden))

    def _where(self, facts: Sequence[FactDiff], names: Mapping[int, str]) -> Words:
        pol = self.policy
        shown = facts[:3]
        text = "; ".join(f"{pol.describe_key(f.key, names)}: {pol.describe_value(f.key, f.seen)}" for f in shown)
        return Words(text, {"facts": [{"key": pol.key_to_json(f.key), "seen": plain(f.seen)} for f in shown]})

    def _regions(self, regions: Sequence[str], names: Mapping[int, str]) -> Words:
        text = ", ".join(self.policy.describe_region(r, names) for r in regions)
        return Words(text, {"regions": list(regions)})

    def _extendable(self, node: Node, start: State) -> bool:
        """True when the node's last move could still be growing on the table (the game's policy
        says which), so committing it should wait a little longer."""
        if not node.moves:
            return False
        before = start
        for m in node.moves[:-1]:
            before = self.rules.apply(before, m)
        return self.policy.extendable(before, node.moves[-1])

    def _recent_reads(self) -> set[Key]:
        """The facts the last few frames read (those :meth:`_hidden` looks at)."""
        return {k for _, f in self._window[-self.config.min_frames :] for k in f}

    def _ambiguous(
        self,
        best: Node,
        rivals: list[Node],
        ev: Evidence,
        game: GameView,
        t: float,
        hidden: tuple[str, ...],
        force: bool = False,
        reason: tuple[str, str, tuple[tuple[str, Any], ...]] | None = None,
    ) -> Update:
        cfg = self.config
        self._candidate = None
        group = [best, *rivals][: cfg.max_options]
        options = tuple(Option(tuple(n.moves), n.back, n.deficit) for n in group)
        # the wait belongs to what reads best: rivals near the margin come and go from frame to frame
        # as their readings wobble, which must not restart it; nor ask again while the question open
        # (or dismissed) offered every rival there is now
        key = (best.back, tuple(best.moves))
        if self._ambiguous_since is None or self._ambiguous_since[0] != key:
            self._ambiguous_since = (key, t)
        since = self._ambiguous_since[1]
        unseen = _unseen_differences(group, ev)
        now = frozenset(_key(o) for o in options)
        if self._prompt and _offered(self._prompt, game.state_id, key) >= now:
            return Update(self._asked(StatusKind.PROMPT, t, hidden))
        if any(st == game.state_id and first == key and now <= offered for st, first, offered in self._dismissed):
            return Update(self._status(StatusKind.WATCHING, "dismissed", t))
        if unseen and t - since < cfg.hidden_prompt_after and not force:
            names = _names(game, self.seating, self.rules)
            pol = self.policy
            places = sorted(((pol.describe_key(k, names), k) for k in unseen), key=lambda x: x[0])
            seen_words: dict[str, Any] = {}
            for words, k in places:
                seen_words.setdefault(words, k)
            shown = list(seen_words.items())[:3]
            where = Words(", ".join(w for w, _ in shown), {"places": [pol.key_to_json(k) for _, k in shown]})
            return Update(self._status(StatusKind.WAITING, "waiting_view", t, hidden=hidden, places=where))
        if (t - since < cfg.prompt_after or not self._enough()) and not force:
            return Update(self._status(StatusKind.SETTLING, "n_fit", t, hidden=hidden, n=len(options)))
        said = reason or say("hidden_which" if unseen or force else "cannot_tell")
        self._prompt = Prompt(self._next_id(), game.state_id, options, said[0], said[1], said[2])
        return Update(self._asked(StatusKind.PROMPT, t, hidden))

    def _unexplained(self, a: _Analysis, ev: Evidence, game: GameView, t: float, hidden: tuple[str, ...]) -> Update:
        cfg = self.config
        self._candidate = None
        self._ambiguous_since = None
        if self._unexplained_since is None:
            self._unexplained_since = t
            self._unexplained_settled = 0.0
        sc, bc = cfg.search.step_cost, cfg.back_cost
        everything = sorted(
            a.nodes + a.back_nodes,
            key=lambda n: (n.cost(sc, bc), n.back, len(n.moves), [str(m) for m in n.moves]),
        )
        closest = everything[0]
        done = self._finished_before(closest, game) or self._explained_beyond_seen(a, ev, game)
        if done:
            # the table shows the next turn under way beyond a move seen complete: that one is done
            self._seen_stable = None
            return Update(
                self._status(StatusKind.SETTLING, "committed", t, hidden=hidden, option=Option(done)),
                Action(ActionKind.COMMIT, done),
            )
        lands = sorted(self.policy.watched_regions(self._hidden(), None, set(), self.seating))
        if lands and self._desync is None:
            names = _names(game, self.seating, self.rules)
            who = self._regions(lands, names)
            return Update(self._status(StatusKind.WAITING, "changed_hidden", t, hidden=hidden, regions=who))
        if self._desync is None and self._unexplained_settled < cfg.desync_after:
            return Update(self._status(StatusKind.CHANGING, "changing", t, hidden=hidden))
        facts = tuple(
            FactDiff(k, value_of(closest.view, k, self.policy.default), ev.facts[k].mode, d)
            for k, d in closest.disagreements[:8]
        )
        fixes = tuple(
            Option(tuple(n.moves), n.back, n.deficit) for n in everything[: cfg.max_options] if n.moves or n.back
        )
        names = _names(game, self.seating, self.rules)
        where = self._where(facts, names)
        near = Option(tuple(closest.moves), closest.back)
        if closest.moves or closest.back:
            msg, key, margs = say("disagree_closest", where=where, option=near)
        else:
            msg, key, margs = say("disagree", where=where)
        prev = self._desync
        same = prev is not None and _same_facts(prev.facts, facts) and _same_options(prev.options, fixes)
        keep_id = prev.id if prev is not None and same else self._next_id()
        since = prev.since if prev else t
        self._desync = Desync(keep_id, game.state_id, facts, near, fixes, msg, since, key, margs)
        return Update(self._told(t, hidden))

    def _margin(self, rival: Node, best: Node) -> float:
        """How much ``best`` must beat ``rival`` for the two not to rival: ``margin``, or the game's
        :meth:`~tracker.policy.TrackerPolicy.not_yet_margin` where ``rival`` is ``best`` before a
        chance outcome that ``best`` goes on to show ("not laid yet" against the tiles read where
        they lie)."""
        if _continues(best, rival):
            m = self.policy.not_yet_margin(rival.state)
            if m is not None:
                return m
        return self.config.margin

    def _seen_complete(self, game: GameView) -> tuple[Move, ...]:
        """The moves last seen as the stable explanation of the table from the current record (only
        waiting in case they grew), if they end a turn; empty otherwise."""
        seen = self._seen_stable
        if seen is None or seen[0] != game.state_id:
            return ()
        back, moves = seen[1]
        if back or not moves:
            return ()
        state = game.state
        for m in moves[:-1]:
            state = self.rules.apply(state, m)
        turn_of = self.policy.turn_of
        return moves if turn_of(self.rules.apply(state, moves[-1])) != turn_of(state) else ()

    def _finished_before(self, closest: Node, game: GameView) -> tuple[Move, ...]:
        """The moves of :meth:`_seen_complete`, when the closest explanation of the table now is those
        moves followed by a move of a later turn: the next player is under way, so they are
        finished. Empty otherwise."""
        if not self._enough():
            return ()
        moves = self._seen_complete(game)
        n = len(moves)
        if not moves or closest.back or len(closest.moves) <= n or tuple(closest.moves[:n]) != moves:
            return ()
        return moves

    def _explained_beyond_seen(self, a: _Analysis, ev: Evidence, game: GameView) -> tuple[Move, ...]:
        """The moves of :meth:`_seen_complete`, when a search from after them explains the table: the
        next players moved on beyond them by more turns than the search from the record reaches, so
        they are finished. Empty otherwise. Searched once per analysis."""
        if not self._enough():
            return ()
        moves = self._seen_complete(game)
        if not moves:
            return ()
        if moves not in a.beyond_seen:
            state = game.state
            for m in moves:
                state = self.rules.apply(state, m)
            nodes = search(state, ev, self.seating, self.config.search, self.views)
            relax(nodes)
            a.beyond_seen[moves] = any(n.explains and n.moves for n in nodes)
        return moves if a.beyond_seen[moves] else ()

    def _takeback_refused(
        self,
        best: Node,
        ev: Evidence,
        game: GameView,
        t: float,
        hidden: tuple[str, ...],
        fixes: list[Node] | None = None,
    ) -> Update:
        last = game.moves[-best.back] if best.back <= len(game.moves) else None
        option = Option(tuple(best.moves), best.back, best.deficit)
        view0 = self.views.view(game.state)
        default = self.policy.default
        facts = tuple(
            FactDiff(k, v, ev.facts[k].mode, d)
            for k, d in ev.disagreements(view0, self.config.disagree, default)[:8]
            for v in [value_of(view0, k, default)]
        )
        if best.moves:
            msg, key, margs = say("different_move", option=option)
        else:
            msg, key, margs = say("position_before", move=str(last))
        options = tuple(Option(tuple(n.moves), n.back, n.deficit) for n in (fixes or ([best] if best.moves else [])))
        prev = self._desync
        same = prev is not None and _same_options([prev.closest], [option]) and _same_options(prev.options, options)
        did = prev.id if prev is not None and same else self._next_id()
        since = prev.since if prev else t
        self._desync = Desync(did, game.state_id, facts, option, options, msg, since, key, margs)
        return Update(self._told(t, hidden))


def _same_facts(a: Sequence[FactDiff], b: Sequence[FactDiff]) -> bool:
    """The same disagreements (where, expected, seen), however strongly each frame supports them: a
    desync keeps its id while the table stays the same, so a fix tapped on the page still finds it."""
    return [(f.key, f.expected, f.seen) for f in a] == [(f.key, f.expected, f.seen) for f in b]


def _same_options(a: Sequence[Option], b: Sequence[Option]) -> bool:
    """The same fixes offered (their moves and takebacks, whatever their deficit)."""
    return [(o.back, o.moves) for o in a] == [(o.back, o.moves) for o in b]


def _names(game: GameView, seating: Seating, rules: Any) -> dict[int, str]:
    names = game.names or tuple(s.name for s in rules.seats(game.state))
    return {seating.layout_seats[g]: n for g, n in enumerate(names)}


def _continues(longer: Node, shorter: Node) -> bool:
    """True when ``longer`` is ``shorter`` plus at least one more move."""
    return (
        longer.back == shorter.back
        and len(longer.moves) > len(shorter.moves)
        and longer.moves[: len(shorter.moves)] == shorter.moves
    )


def _key(option: Option) -> tuple[int, tuple[Any, ...]]:
    """An option as the tracker compares them: its takeback and its moves."""
    return (option.back, tuple(option.moves))


def _first(prompt: Prompt) -> tuple[int, tuple[Any, ...]]:
    """The option a prompt offers first (the one that read best when it was asked)."""
    return _key(prompt.options[0])


def _options(prompt: Prompt) -> frozenset[tuple[int, tuple[Any, ...]]]:
    """The options a prompt offers."""
    return frozenset(_key(o) for o in prompt.options)


def _offered(prompt: Prompt, state_id: Any, best: tuple[int, tuple[Any, ...]]) -> frozenset[Any]:
    """The options ``prompt`` offers, if it was asked in ``state_id`` with ``best`` first; else none."""
    if prompt.state_id != state_id or _first(prompt) != best:
        return frozenset()
    return _options(prompt)


def _extends(longer: Node, shorter: Node) -> bool:
    """True when ``longer`` is ``shorter`` plus moves that change nothing a camera sees."""
    return _continues(longer, shorter) and longer.view == shorter.view


def _prefix(node: Node, n: int) -> Node:
    """The node for the first ``n`` moves of ``node``'s chain (scored as the whole: it is committed
    only because the whole chain explains the table)."""
    return Node(
        node.state, node.moves[:n], node.views, node.deficit, node.disagreements, node.back, node.mismatch, True
    )


def _unseen_differences(nodes: list[Node], ev: Evidence) -> set[Key]:
    """Facts on which the nodes' tables differ and which no frame of the window read."""
    keys: set[Key] = set()
    base = nodes[0].view
    default = nodes[0].views.default
    for n in nodes[1:]:
        for k in set(base) | set(n.view):
            if value_of(base, k, default) != value_of(n.view, k, default) and not ev.observed(k):
                keys.add(k)
    return keys
