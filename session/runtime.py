"""The game runtime: the one object the web page, the camera tracker and the LED strip attach to.

:class:`GameRuntime` holds the current game of any registered game (its plug-in, settings, box
profile, move log and states), writes every committed change to the live journal
(:mod:`session.journal`; its header names the game and its settings, so any saved game reopens with
the right plug-in) and fsyncs it *before* anyone is
told, resumes the last game exactly on start (by replaying the journal through the engine), and
tells subscribers about every change. It does not import Flask: any front end can drive it.

Changes:

- ``submit`` — a move (a decision or a chance outcome reported from the table).
- ``undo`` — take back the last move. The page's Undo takes back whatever was entered last, a
  finished turn or a revealed chance outcome too (the game then waits for that outcome again);
  the camera has stricter policies (:class:`UndoPolicy`, :meth:`GameRuntime.undo_status`).
- ``correct`` — fix the record: replace move *k* by another and replay the moves after it. The
  journal keeps both the original and the correction (docs/live-journal.md).
- ``new_game`` — players in seat order (or a position to start from), optionally the setup outcome.

Every change bumps the state id (a monotonic integer, also across games and restarts). A change
that names a state id other than the current one is refused with :class:`StaleStateError`, so a
double-submitted form or a camera reading of an old picture is never applied twice.

Subscribers are plain callables ``callback(change)`` receiving a :class:`Change` (state id, op,
state, move, prompt). They are called in order, from the thread that made the change, after the
journal is on disk; they must return quickly (queue the work) and must not raise (errors are logged).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

import games
from datafile import DataFileError
from games.api import BoxData, GamePlugin, State
from games.errors import IllegalMoveError, InvalidMoveError
from games.players import check_players
from games.record import Record
from session.journal import (
    LIVE_FORMAT,
    LIVE_VERSION,
    JournalFile,
    JournalFileError,
    dumps_line,
    game_files,
    now_iso,
    read_journal,
    write_atomic,
)
from session.lock import FolderBusyError, FolderLock

log = logging.getLogger(__name__)

REST_MODES: tuple[str, ...] = ("replay", "prefix", "truncate")
"""What a correction does with the moves after the corrected one: ``replay`` keeps them all (refused
if one no longer applies), ``prefix`` keeps them up to the first that no longer applies, ``truncate``
drops them all."""


class UndoPolicy(StrEnum):
    """Which last move may be taken back, by whom.

    - ``PAGE`` — a person tapping Undo: the last entry, whatever it was. A finished turn is reopened,
      a revealed chance outcome (tiles drawn, a tile turned up) is forgotten and the game asks for it
      again; the journal keeps both the entry and its undo.
    - ``TURN`` — what the camera may follow without asking: a move within the current turn, never a
      revealed chance outcome (Board Game Arena's undo policy).
    - ``TABLE`` — a takeback the camera saw on the table (the players put the pieces back): also a
      move that ended a turn, as long as the game is not over, never a revealed chance outcome (a
      tile drawn or turned up was seen).
    """

    PAGE = "page"
    TURN = "turn"
    TABLE = "table"


class RuntimeRefusal(Exception):
    """Base of the runtime's refusals; ``code`` is the typed error name the HTTP API uses."""

    code = "refused"

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class GameMismatch(RuntimeRefusal):
    """A request for one game while the runtime plays another."""

    code = "wrong_game"


class StaleStateError(RuntimeRefusal):
    """The change was based on state id ``given``; the game is at ``current``."""

    code = "stale_state"

    def __init__(self, given: int, current: int) -> None:
        self.given = given
        self.current = current
        super().__init__(f"the game has moved on: your view is state {given}, the game is at state {current}")


class NoGameError(RuntimeRefusal):
    """No game has been started yet."""

    code = "no_game"


class UndoRefused(RuntimeRefusal):
    """Undo is not allowed now; ``reason`` is one of nothing, chance, turn_over (the last two only
    under the camera's policies)."""

    code = "undo_refused"

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


class CorrectionConflict(RuntimeRefusal):
    """A correction after which the later move at ``index`` no longer applies (``rest='replay'``)."""

    code = "illegal_move"

    def __init__(self, index: int, move: Any, error: IllegalMoveError) -> None:
        self.index = index
        self.move = move
        self.error = error
        self.clause = error.clause
        super().__init__(
            f"after the correction, move {index + 1} ({move}) no longer applies: {error}; "
            "correct with rest='prefix' or 'truncate' to drop it and the moves after it"
        )


class StorageError(RuntimeRefusal):
    """The journal could not be written: the change was not made."""

    code = "storage_error"


@dataclass(frozen=True)
class Change:
    """One committed change, as subscribers see it."""

    state_id: int
    op: str  # new | resume | move | undo | correct
    state: State
    move: Any | None
    index: int | None  # the move index concerned (the new move, the undone or corrected one)
    prompt: dict[str, Any]


@dataclass(frozen=True)
class Snapshot:
    """A consistent copy of the runtime's current game for readers."""

    state_id: int
    settings: dict[str, Any]
    moves: tuple[Any, ...]
    states: tuple[State, ...]
    journal: str | None
    entries: tuple[dict[str, Any], ...] = field(default=())
    game: GamePlugin | None = None
    created: str | None = None
    """When the game was started (the journal header's ``created``, ISO 8601 UTC)."""

    @property
    def state(self) -> State:
        """The current state."""
        return self.states[-1]


class RuntimeLike(Protocol):
    """What the tracker link and the LED strip need of a runtime: :class:`GameRuntime` is one, and
    tests may give anything shaped like it. ``subscribe`` is all a strip needs; the tracker uses the
    rest too."""

    @property
    def game(self) -> GamePlugin: ...  # pragma: no cover - protocol

    @property
    def has_game(self) -> bool: ...  # pragma: no cover - protocol

    def snapshot(self) -> Snapshot: ...  # pragma: no cover - protocol

    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]: ...  # pragma: no cover

    def undo_status(self, policy: UndoPolicy = UndoPolicy.PAGE) -> tuple[bool, str, str]: ...  # pragma: no cover

    def submit(self, move: Any, state_id: int | None = None) -> Change: ...  # pragma: no cover - protocol

    def undo(self, state_id: int | None = None, policy: UndoPolicy = UndoPolicy.PAGE) -> Change: ...  # pragma: no cover

    def correct(  # pragma: no cover - protocol
        self, index: int, move: Any, state_id: int | None = None, rest: str = "replay"
    ) -> Change: ...


class GameRuntime:
    """The current game with its durable journal; thread-safe."""

    def __init__(
        self,
        data_dir: str | Path,
        *,
        fsync: bool = True,
        resume: bool = True,
        profile: BoxData | None = None,
        game: GamePlugin | str | None = None,
        lock: bool = True,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.games_dir = self.data_dir / "games"
        self.fsync = fsync
        self.warnings: list[str] = []
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[Change], None]] = []
        self._game: Record | None = None
        self._journal: JournalFile | None = None
        self._entries: list[dict[str, Any]] = []
        self._created: str | None = None
        self._base = 0
        self._plugin = games.get(game) if isinstance(game, str) else game or games.get(games.DEFAULT)
        self._profiles: dict[str, BoxData | None] = {}
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock_file = FolderLock(self.data_dir).acquire() if lock else None
        try:
            self._open(profile, resume)
        except BaseException:
            self.close()
            raise

    def _open(self, profile: BoxData | None, resume: bool) -> None:
        if profile is not None:
            self._profiles[self._plugin.info.id] = profile
        else:
            self._load_profile(self._plugin)  # a bad saved profile is a DataFileError naming the file
        if resume:
            self._resume()

    def profile_path_of(self, plugin: GamePlugin) -> Path:
        """Where the box profile new games of ``plugin`` use is saved (Tribes: ``profile.json``)."""
        gid = plugin.info.id
        return self.data_dir / ("profile.json" if gid == "tribes" else f"profile-{gid}.json")

    @property
    def profile_path(self) -> Path:
        """Where the current game's saved box profile lives."""
        return self.profile_path_of(self._plugin)

    def _load_profile(self, plugin: GamePlugin) -> BoxData | None:
        gid = plugin.info.id
        if gid not in self._profiles:
            support = plugin.profile
            path = self.profile_path_of(plugin)
            if support is None:
                self._profiles[gid] = None
            elif path.exists():
                self._profiles[gid] = support.load(str(path))
            else:
                self._profiles[gid] = support.default()
        return self._profiles[gid]

    # --- reading ---------------------------------------------------------------------------------
    @property
    def state_id(self) -> int:
        """The current state id (0 before the first game)."""
        with self._lock:
            return self._base + len(self._entries)

    @property
    def has_game(self) -> bool:
        """True once a game has been started or resumed."""
        return self._game is not None

    @property
    def game(self) -> GamePlugin:
        """The plug-in of the current game (or of the game new games start as)."""
        return self._plugin

    @property
    def profile(self) -> Any:
        """The saved box profile of the current game: what new games use unless told otherwise
        (None for a game without one)."""
        return self._load_profile(self._plugin)

    def saved_profile(self, plugin: GamePlugin) -> Any:
        """The saved box profile of ``plugin`` (its default until one is saved; None without one)."""
        with self._lock:
            return self._load_profile(plugin)

    @property
    def journal_path(self) -> Path | None:
        """The file of the current game's journal."""
        return self._journal.path if self._journal else None

    def snapshot(self) -> Snapshot:
        """The current game, copied consistently; :class:`NoGameError` before the first game."""
        with self._lock:
            game = self._require_game()
            return Snapshot(
                self._base + len(self._entries),
                dict(game.settings),
                tuple(game.moves),
                tuple(game.states),
                self._journal.path.name if self._journal else None,
                tuple(self._entries),
                self._plugin,
                self._created,
            )

    def export(self) -> dict[str, Any]:
        """The game record (settings, moves, final ranking once over): the engine's journal JSON,
        readable by ``table-companion rules replay``."""
        with self._lock:
            return self._require_game().to_dict()

    def undo_status(self, policy: UndoPolicy = UndoPolicy.PAGE) -> tuple[bool, str, str]:
        """``(allowed, reason, message)`` for undoing the last move now under ``policy`` (see
        :class:`UndoPolicy`; the page's by default). ``reason`` is empty when allowed, else
        ``nothing`` (no move yet), ``chance`` or ``turn_over`` (the camera's policies only)."""
        policy = UndoPolicy(policy)
        with self._lock:
            game = self._game
            if game is None or not game.moves:
                return False, "nothing", "there is no move to undo"
            rules = self._plugin.rules
            last = game.moves[-1]
            before, after = game.states[-2], game.states[-1]
            if policy is UndoPolicy.PAGE:
                if last.chance:
                    return True, "", f"undo '{last}': the game then asks for it again"
                return True, "", f"undo '{last}'"
            if last.chance:
                return (
                    False,
                    "chance",
                    f"the last entry ({last}) is a revealed chance outcome: the camera does not take it back "
                    "(tap Undo on the page to enter it again)",
                )
            if rules.is_over(after) or (rules.turn_key(before) != rules.turn_key(after) and policy is UndoPolicy.TURN):
                who = rules.seats(before)[rules.actor(before)].name
                return (
                    False,
                    "turn_over",
                    f"'{last}' ended {who}'s turn: the camera takes back only moves within the turn "
                    "(tap Undo on the page)",
                )
            return True, "", f"undo '{last}'"

    # --- subscribers -----------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``callback(change)`` after every committed change; returns a function that
        unsubscribes."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def _notify(self, change: Change) -> None:
        for cb in list(self._subscribers):
            try:
                cb(change)
            except Exception:  # a broken subscriber must not break the game
                log.exception("subscriber %r failed", cb)

    def _change(self, op: str, move: Any | None, index: int | None) -> Change:
        game = self._require_game()
        change = Change(
            self._base + len(self._entries), op, game.state, move, index, self._plugin.rules.prompt(game.state)
        )
        self._notify(change)
        return change

    # --- writing ---------------------------------------------------------------------------------
    def new_game(
        self,
        players: Sequence[tuple[str, str]] | None = None,
        *,
        profile: Any = None,
        position: dict[str, Any] | None = None,
        setup: Any = None,
        state_id: int | None = None,
        game: GamePlugin | str | None = None,
    ) -> Change:
        """Start a new game (of ``game``, default: the current one): ``players`` as ``(name,
        colour)`` in seat order from the start player, or a ``position`` (the game's position
        document) to start from; ``setup`` is a first move to apply at once (Tribes: the setup
        outcome as laid on the table; else the game waits for it). ``profile`` defaults to the
        saved box profile of that game.

        Raises ValueError (bad players), a ``DataFileError`` (a bad position), ``FieldError`` (a
        position whose player names or colours the API would refuse),
        ``IllegalMoveError`` (a setup that breaks the rules) or :class:`StaleStateError`.
        """
        plugin = games.get(game) if isinstance(game, str) else game or self._plugin
        prof = profile if profile is not None else self._load_profile(plugin)
        rules = plugin.rules
        with self._lock:
            self._check_stale(state_id)
            if position is not None:
                record = Record.from_position(plugin, rules.state_from_json(position, "position", prof))
                # names and colours as the API takes them (a position is not a way round the limits)
                seats = [(s.name, s.colour) for s in rules.seats(record.state)]
                check_players(seats, "position.players", distinct=False)
            else:
                if not players:
                    raise ValueError(f"players: name {plugin.info.min_players} to {plugin.info.max_players} players")
                record = Record.new(plugin, rules.settings(list(players), prof))
            if setup is not None:
                record.push(setup)
            game_ = record
            base = self._base + len(self._entries) + 1
            header = {
                "format": LIVE_FORMAT,
                "version": LIVE_VERSION,
                "game": plugin.info.id,
                "created": now_iso(),
                "base_state_id": base,
                "settings": game_.settings,
            }
            entries = [
                {"op": "move", "n": i, "move": str(m), "id": base + i + 1, "at": header["created"]}
                for i, m in enumerate(game_.moves)
            ]
            try:
                journal = JournalFile.create(self.games_dir, header, self.fsync, entries)
            except OSError as exc:
                raise StorageError(f"cannot write the journal in {self.games_dir}: {exc}") from None
            if self._journal:
                self._journal.close()
            self._journal = journal
            self._game = game_
            self._plugin = plugin
            self._base = base
            self._entries = entries
            self._created = str(header["created"])
            return self._change("new", game_.moves[-1] if game_.moves else None, None)

    def submit(self, move: Any, state_id: int | None = None) -> Change:
        """Apply a move (or its notation) to the current game; raises the game's
        ``IllegalMoveError`` / ``InvalidMoveError``, :class:`StaleStateError` or
        :class:`NoGameError`, changing nothing."""
        with self._lock:
            if isinstance(move, str):
                move = self._plugin.rules.parse_move(move)
            game = self._require_game()
            self._check_stale(state_id)
            nxt = self._plugin.rules.apply(game.state, move)
            n = len(game.moves)
            self._append({"op": "move", "n": n, "move": str(move)})
            game.moves.append(move)
            game.states.append(nxt)
            return self._change("move", move, n)

    def undo(self, state_id: int | None = None, policy: UndoPolicy = UndoPolicy.PAGE) -> Change:
        """Take back the last move if ``policy`` allows it (:class:`UndoPolicy`; the page's by
        default: any last move); raises :class:`UndoRefused` otherwise. The journal records the undo,
        so a resumed game is the same."""
        with self._lock:
            game = self._require_game()
            self._check_stale(state_id)
            ok, reason, message = self.undo_status(policy)
            if not ok:
                raise UndoRefused(reason, message)
            n = len(game.moves) - 1
            last = game.moves[n]
            self._append({"op": "undo", "n": n, "move": str(last)})
            game.moves.pop()
            game.states.pop()
            return self._change("undo", last, n)

    def correct(self, index: int, move: Any, state_id: int | None = None, rest: str = "replay") -> Change:
        """Fix the record: move ``index`` (0-based) becomes ``move`` and the moves after it are
        replayed according to ``rest`` (:data:`REST_MODES`). The journal keeps the original move and
        the correction. Raises IllegalMoveError (the new move itself is illegal there),
        :class:`CorrectionConflict`, IndexError (no such move) or :class:`StaleStateError`."""
        if rest not in REST_MODES:
            raise ValueError(f"rest must be one of {', '.join(REST_MODES)}")
        with self._lock:
            if isinstance(move, str):
                move = self._plugin.rules.parse_move(move)
            game = self._require_game()
            self._check_stale(state_id)
            if not 0 <= index < len(game.moves):
                raise IndexError(f"there is no move {index + 1}: the game has {len(game.moves)} moves")
            new_game, kept, dropped = _corrected(game, index, move, rest)
            self._append(
                {
                    "op": "correct",
                    "n": index,
                    "move": str(move),
                    "was": str(game.moves[index]),
                    "rest": rest,
                    "kept": kept,
                    "dropped": [str(m) for m in dropped],
                }
            )
            self._game = new_game
            return self._change("correct", move, index)

    def save_profile(self, raw: dict[str, Any]) -> Any:
        """Validate and save the box profile new games of the current game use; raises the game's
        ``DataFileError`` naming the field."""
        support = self._plugin.profile
        if support is None:
            raise RuntimeRefusal(f"{self._plugin.info.title} has no box profile")
        prof = support.parse(raw, "box profile")
        data = (json.dumps(prof.raw, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
        try:
            write_atomic(self.profile_path, data, self.fsync)
        except OSError as exc:
            raise StorageError(f"cannot save the box profile to {self.profile_path}: {exc}") from None
        with self._lock:
            self._profiles[self._plugin.info.id] = prof
        return prof

    def close(self) -> None:
        """Close the journal file and let go of the data folder."""
        with self._lock:
            if self._journal:
                self._journal.close()
            if self._lock_file is not None:
                self._lock_file.release()

    # --- internals -------------------------------------------------------------------------------
    def _require_game(self) -> Record:
        if self._game is None:
            raise NoGameError("no game yet: start one (POST /api/games)")
        return self._game

    def _check_stale(self, state_id: int | None) -> None:
        current = self._base + len(self._entries)
        if state_id is not None and state_id != current:
            raise StaleStateError(state_id, current)

    def _append(self, entry: dict[str, Any]) -> None:
        assert self._journal is not None
        entry["id"] = self._base + len(self._entries) + 1
        entry["at"] = now_iso()
        try:
            self._journal.append(entry)
        except OSError as exc:
            raise StorageError(f"cannot write the journal {self._journal.path}: {exc}") from None
        self._entries.append(entry)

    def _resume(self) -> None:
        files = game_files(self.games_dir)
        if not files:
            return
        contents = read_journal(files[-1])
        for w in contents.warnings:
            log.warning("%s", w)
            self.warnings.append(w)
        game = replay_entries(contents.header, contents.entries, str(contents.path))
        self._plugin = game.game
        journal = JournalFile(contents.path, self.fsync)
        journal.open_append(contents.valid_size)
        self._journal = journal
        self._game = game
        self._base = contents.header["base_state_id"]
        self._entries = list(contents.entries)
        created = contents.header.get("created")
        self._created = created if isinstance(created, str) else None
        self._change("resume", game.moves[-1] if game.moves else None, None)


def _corrected(game: Record, index: int, move: Any, rest: str) -> tuple[Record, int, list[Any]]:
    """The game with move ``index`` replaced, plus how many later moves were kept and which dropped."""
    later = list(game.moves[index + 1 :])
    out = game.prefix(index)
    out.push(move)  # IllegalMoveError if the replacement itself is illegal here
    if rest == "truncate":
        return out, 0, later
    for j, m in enumerate(later):
        try:
            out.push(m)
        except IllegalMoveError as exc:
            if rest == "replay":
                raise CorrectionConflict(index + 1 + j, m, exc) from None
            return out, j, later[j:]
    return out, len(later), []


def replay_entries(header: dict[str, Any], entries: Sequence[dict[str, Any]], source: str) -> Record:
    """Rebuild a game from a live journal's header and entries (the header names the game; a header
    without one is a Tribes journal of earlier versions); :class:`JournalFileError` names the line
    of the first entry that does not replay."""
    gid = header.get("game", "tribes")
    if gid not in games.available(hidden=True):
        raise JournalFileError(source, 1, f"game {gid!r} is not one this companion knows")
    plugin = games.get(gid)
    try:
        game = Record.new(plugin, header["settings"], source)
    except DataFileError as exc:
        raise JournalFileError(source, 1, f"settings do not make a game: {exc}") from None
    rules = plugin.rules
    for line, entry in enumerate(entries, start=2):
        op, n = entry["op"], entry["n"]
        try:
            move = rules.parse_move(entry["move"])
            if op == "move":
                if n != len(game.moves):
                    raise ValueError(f"move index {n} does not follow the {len(game.moves)} moves before it")
                game.push(move)
            elif op == "undo":
                if n != len(game.moves) - 1 or game.moves[-1] != move:
                    raise ValueError(f"undo of move {n} ({move}) does not match the last move")
                game.pop()
            else:
                if not 0 <= n < len(game.moves):
                    raise ValueError(f"correction of move {n}, but the game has {len(game.moves)} moves")
                rest = entry.get("rest", "replay")
                if rest not in REST_MODES:
                    raise ValueError(f"rest must be one of {', '.join(REST_MODES)}")
                new, kept, _ = _corrected(game, n, move, rest)
                if kept != entry.get("kept", kept):
                    raise ValueError(f"the correction kept {kept} later moves, the journal says {entry['kept']}")
                game = new
        except (IllegalMoveError, InvalidMoveError, CorrectionConflict, ValueError) as exc:
            raise JournalFileError(source, line, f"{op} does not replay: {exc}") from None
    return game


__all__ = [
    "REST_MODES",
    "Change",
    "CorrectionConflict",
    "FolderBusyError",
    "GameMismatch",
    "GameRuntime",
    "NoGameError",
    "RuntimeLike",
    "RuntimeRefusal",
    "Snapshot",
    "StaleStateError",
    "StorageError",
    "UndoPolicy",
    "UndoRefused",
    "dumps_line",
]
