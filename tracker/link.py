"""The link between a :class:`~tracker.tracker.Tracker` and the game runtime.

:class:`TrackerLink` feeds each observation to the tracker together with the runtime's record, and
carries out the tracker's actions through the runtime — ``submit`` for committed moves, ``undo`` for
takebacks (within the turn, :attr:`~session.runtime.UndoPolicy.TURN`; the last move alone put back on
the table even if it ended a turn, :attr:`~session.runtime.UndoPolicy.TABLE`; never a revealed chance
outcome, which only a person's Undo on the page takes back) — so the journal, the page and the LED
strip see camera moves exactly like moves entered by hand. It also applies the user's answers to
prompts and desync fixes (``answer``), and tells subscribers about every status change.

The runtime is :class:`session.runtime.GameRuntime` (or anything shaped like it,
:class:`session.runtime.RuntimeLike`):
``game`` (the plug-in: its rules and camera support give the tracker its policy), ``has_game``,
``snapshot()`` (``state_id``, ``settings``, ``moves``, ``states``), ``undo_status(policy)``,
``submit(move, state_id)``, ``undo(state_id, policy)``, ``correct(index, move, state_id, rest)``.
Nothing here imports Flask or OpenCV. Thread-safe: the camera thread feeds, web threads answer.
"""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import games
from games.errors import IllegalMoveError, InvalidMoveError
from session.runtime import RuntimeLike, UndoPolicy
from tracker.facts import Seating, value_of
from tracker.policy import TrackerPolicy
from tracker.tracker import (
    MESSAGES,
    Action,
    FactDiff,
    GameView,
    Option,
    Status,
    StatusKind,
    Tracker,
    TrackerConfig,
    Update,
)

Move = Any
Observation = Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LinkEvent:
    """Something the link did to the game: ``kind`` commit / undo / amend (by the tracker), answer /
    fix (by the user through a prompt or a desync), dismiss; ``moves`` submitted, ``back`` undone or
    corrected; ``time`` the observation time; ``error`` when the runtime refused."""

    time: float
    kind: str
    moves: tuple[Move, ...] = ()
    back: int = 0
    state_id: int = 0
    error: str | None = None


class AnswerError(ValueError):
    """A prompt answer that does not fit the open prompt (``code``: not_found, stale, refused)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


REFREEZE_MOVES = 50
"""Moves carried out between two full collections of what the link froze (:meth:`TrackerLink._freeze`)."""


@dataclass
class LinkStats:
    """Counters for the page and for benchmarks."""

    frames: int = 0
    settled: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    events: list[LinkEvent] = field(default_factory=list)


class TrackerLink:
    """Feeds observations to a tracker and carries out its actions on a runtime (module docstring)."""

    def __init__(
        self,
        runtime: RuntimeLike,
        layout_seats: Sequence[int] | None = None,
        config: TrackerConfig | None = None,
        freeze_gc: bool = True,
        factory: Callable[..., Any] | None = None,
    ) -> None:
        self.runtime = runtime
        self.freeze_gc = freeze_gc
        self.factory = factory or Tracker
        self.layout_seats = tuple(layout_seats) if layout_seats is not None else None
        self.config = config or TrackerConfig()
        self.tracker: Tracker | None = None
        self.stats = LinkStats()
        self.last: Update | None = None
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[Status], None]] = []
        self._time = 0.0
        self._moves_frozen = 0

    # --- reading ---------------------------------------------------------------------------------
    @property
    def status(self) -> Status:
        """The tracker's current status."""
        with self._lock:
            if self.last is None:
                return Status(StatusKind.IDLE, MESSAGES["no_observation"], 0.0, key="no_observation")
            return self.last.status

    def status_dict(self) -> dict[str, Any]:
        """The status as JSON data, facts described with player names."""
        with self._lock:
            st = self.status
            names: dict[int, str] = {}
            if self.tracker is not None and self.runtime.has_game:
                snap = self.runtime.snapshot()
                seats = self.policy().rules.seats(snap.state)
                names = {self.tracker.seating.layout_seats[g]: p.name for g, p in enumerate(seats)}
            policy = self.policy()
            out = st.to_dict(names, policy)
            out["overruled"] = [f.to_dict(names, policy) for f in self.overruled()]
            out["frames"] = self.stats.frames
            out["settled_frames"] = self.stats.settled
            return out

    def overruled(self) -> list[FactDiff]:
        """The facts the user overruled by answering a desync (``Tracker.overruled``), each with what
        the camera keeps reading there (``seen``) and what the record says (``expected``)."""
        with self._lock:
            tr = self.tracker
            if tr is None or not tr.overruled or not self.runtime.has_game:
                return []
            view = tr.views.view(self.runtime.snapshot().state)
            return [
                FactDiff(key, value_of(view, key, tr.policy.default), seen, 0.0) for key, seen in tr.overruled.items()
            ]

    def reinstate(self, key: list[Any] | None = None) -> int:
        """Count an overruled fact again (``key`` as the status JSON gives it; all without one): the
        camera is looked at again there, and where the table still disagrees the desync comes back.
        Returns how many were dropped; raises :class:`AnswerError` ``not_found`` for a key that is not
        overruled."""
        with self._lock:
            tr = self.tracker
            if key is None:
                n = tr.reinstate() if tr is not None else 0
            else:
                pol = self.policy()
                match = [k for k in (tr.overruled if tr is not None else {}) if pol.key_to_json(k) == key]
                if tr is None or not match:
                    raise AnswerError("not_found", f"the fact {key} is not overruled")
                n = tr.reinstate(match[0])
        if n:
            for cb in list(self._subscribers):
                cb(self.status)
        return n

    def subscribe(self, callback: Callable[[Status], None]) -> Callable[[], None]:
        """Call ``callback(status)`` whenever the status changes; returns an unsubscribe function."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    # --- feeding ---------------------------------------------------------------------------------
    def game_view(self) -> GameView | None:
        """The runtime's record as the tracker reads it (None before the first game)."""
        if not self.runtime.has_game:
            return None
        snap = self.runtime.snapshot()
        can_undo = bool(self.runtime.undo_status(UndoPolicy.TURN)[0])
        can_take_back = bool(self.runtime.undo_status(UndoPolicy.TABLE)[0])
        return GameView(
            snap.state_id,
            snap.states,
            snap.moves,
            can_undo,
            tuple(p.name for p in self.policy().rules.seats(snap.state)),
            can_take_back,
        )

    def policy(self) -> TrackerPolicy:
        """The tracker policy of the game the runtime plays."""
        plugin = getattr(self.runtime, "game", None) or games.get(games.DEFAULT)
        if plugin.camera is None:
            raise ValueError(f"{plugin.info.title} cannot be read by the camera yet")
        policy: TrackerPolicy = plugin.camera().policy()
        return policy

    def _tracker_for(self, game: GameView | None) -> Tracker:
        policy = self.policy()
        if game is None:
            if self.tracker is None or getattr(self.tracker, "policy", policy) is not policy:
                self.tracker = self.factory(Seating((), ()), self.config, policy=policy)
            return self.tracker
        seating = policy.seating(game.state)
        colours = seating.colours
        t = self.tracker
        if (
            t is None
            or getattr(t, "policy", policy) is not policy
            or t.seating.colours != colours
            or len(t.seating.layout_seats) != len(colours)
        ):
            seats = self.layout_seats if self.layout_seats and len(self.layout_seats) == len(colours) else None
            self.tracker = self.factory(policy.seating(game.state, seats), self.config, policy=policy)
        return self.tracker

    def feed(self, obs: Observation) -> Update:
        """Read one observation and carry out what the tracker decides."""
        with self._lock:
            self._time = obs.time
            game = self.game_view()
            tracker = self._tracker_for(game)
            upd = tracker.update(obs, game)
            self.stats.frames += 1
            if obs.settled and obs.registered:
                self.stats.settled += 1
            self.stats.seconds += upd.seconds
            self.stats.slowest = max(self.stats.slowest, upd.seconds)
            if upd.action is not None and game is not None:
                self._carry_out(upd.action, game, obs.time)
            changed = self.last is None or _status_key(self.last.status) != _status_key(upd.status)
            self.last = upd
            subs = list(self._subscribers) if changed else []
        for cb in subs:
            try:
                cb(upd.status)
            except Exception:  # a broken subscriber must not stop the camera
                log.exception("tracker subscriber %r failed", cb)
        return upd

    def _carry_out(self, action: Action, game: GameView, t: float) -> None:
        rt = self.runtime
        sid = game.state_id
        try:
            for _ in range(action.back):
                rt.undo(sid, UndoPolicy.TABLE)
                sid = rt.snapshot().state_id
            for m in action.moves:
                rt.submit(m, sid)
                sid = rt.snapshot().state_id
            self.stats.events.append(LinkEvent(t, action.kind, action.moves, action.back, sid))
            if self.freeze_gc:
                self._freeze()
        except Exception as exc:  # the runtime refused (stale, illegal, storage): next frame re-reads
            log.warning("tracker %s %s not carried out: %s", action.kind, action.moves, exc)
            self.stats.events.append(LinkEvent(t, action.kind, action.moves, action.back, sid, str(exc)))

    def _freeze(self) -> None:
        """Keep the game's states out of the cyclic collector's full scans, which otherwise grow to
        pauses of 100 ms and more: they are immutable and live long, so after each move carried out
        the young garbage is collected (a cheap scan: what was frozen is not scanned again) and what
        lives is frozen. Frozen objects that die in a reference cycle (states taken back, the last
        game's table, a search tree) are never collected while frozen, so every
        :data:`REFREEZE_MOVES` moves everything is unfrozen and collected once (one longer pause)."""
        self._moves_frozen += 1
        if self._moves_frozen >= REFREEZE_MOVES:
            self._moves_frozen = 0
            gc.unfreeze()
        gc.collect()
        gc.freeze()

    # --- answers ---------------------------------------------------------------------------------
    def answer(self, item_id: int, option: int) -> LinkEvent:
        """The user chose option ``option`` (0-based) of the open prompt or desync ``item_id``.
        A "nothing happened" option dismisses the prompt. Raises :class:`AnswerError`."""
        with self._lock:
            st = self.status
            opts: tuple[Option, ...]
            kind: str
            if st.prompt and st.prompt.id == item_id:
                opts, kind, state_id = st.prompt.options, "answer", st.prompt.state_id
            elif st.desync and st.desync.id == item_id:
                opts, kind, state_id = st.desync.options, "fix", st.desync.state_id
            else:
                raise AnswerError("not_found", f"there is no open prompt or desync {item_id}")
            if not 0 <= option < len(opts):
                raise AnswerError("not_found", f"option {option} does not exist: choose 0 to {len(opts) - 1}")
            game = self.game_view()
            if game is None or game.state_id != state_id:
                raise AnswerError("stale", "the game has changed since this question was asked")
            chosen = opts[option]
            if not chosen.moves and not chosen.back:
                assert self.tracker is not None
                if kind == "fix":  # nothing happened: the camera misreads what the desync named
                    self.tracker.overrule(item_id)
                self.tracker.dismiss(item_id)
                ev = LinkEvent(self._time, "dismiss", (), 0, state_id)
                self.stats.events.append(ev)
                self._answered()
                return ev
            ev = self._apply_option(chosen, game, kind)
            self.stats.events.append(ev)
            if ev.error:
                raise AnswerError("refused", ev.error)
            if kind == "fix" and self.tracker is not None:
                # the user settled the disagreement: where the game still disagrees, the camera misreads
                self.tracker.overrule(item_id)
            self._answered()
            return ev

    def _answered(self) -> None:
        """The question is settled: show that at once (the next frame confirms it)."""
        if self.tracker is not None:
            self.tracker.forget_questions()
        if self.last is not None:
            st = replace(
                self.last.status,
                kind=StatusKind.SETTLING,
                message=MESSAGES["answer_entered"],
                key="answer_entered",
                args=(),
                prompt=None,
                desync=None,
            )
            self.last = replace(self.last, status=st)
            subs = list(self._subscribers)
            for cb in subs:
                try:
                    cb(st)
                except Exception:
                    log.exception("tracker subscriber %r failed", cb)

    def _apply_option(self, opt: Option, game: GameView, kind: str) -> LinkEvent:
        rt = self.runtime
        sid = game.state_id
        moves = list(opt.moves)
        try:
            if opt.back:
                if opt.back == 1 and (game.can_undo or game.can_take_back):
                    rt.undo(sid, UndoPolicy.TABLE)
                elif moves:
                    index = len(game.moves) - opt.back
                    rt.correct(index, moves.pop(0), sid, rest="truncate")
                else:
                    raise AnswerError("refused", "taking back without a replacement needs undo, which is not allowed")
                sid = rt.snapshot().state_id
            for m in moves:
                rt.submit(m, sid)
                sid = rt.snapshot().state_id
        except (IllegalMoveError, InvalidMoveError, AnswerError) as exc:
            return LinkEvent(self._time, kind, opt.moves, opt.back, sid, str(exc))
        except Exception as exc:  # runtime refusals (stale, storage)
            return LinkEvent(self._time, kind, opt.moves, opt.back, sid, str(exc))
        return LinkEvent(self._time, kind, opt.moves, opt.back, sid)


def _status_key(st: Status) -> tuple[Any, ...]:
    return (
        st.kind,
        st.message,
        st.hand,
        st.prompt.id if st.prompt else None,
        st.desync.id if st.desync else None,
        st.hidden,
    )
