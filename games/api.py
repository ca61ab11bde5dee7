"""The game interface: what a game plug-in supplies to the game-neutral chassis.

Modelled on OpenSpiel's Game/State split. A game is a :class:`GamePlugin`: its :class:`GameInfo`
(id, title, player counts, clause prefix, file formats), its :class:`Rules` (the single source of
truth: settings and a new game, ``apply``, a lazy legal-move view, chance outcomes as moves, move
text and position JSON that round-trip, scores and ranking, what the game waits for) and optional
parts the chassis loads only when it needs them: the box profile (:class:`ProfileSupport`), the web
page module (:class:`PageModule`), the LED map (:class:`LedMap`), the camera (:class:`CameraSupport`:
layout, recognizer, facts, proposals and tracker policy), its console commands (:data:`CliHook`) and
simulated players (``Rules.players``).

States and moves are the game's own immutable value types; the chassis never looks inside them. It
needs only that a move's ``str()`` is its notation (``Rules.parse_move`` reads it back) and that a
move says whether it is a chance outcome (``move.chance``: what the table reports — a tile drawn, a
die rolled — and what the engine never samples during a real game). Everything else goes through
the plug-in's functions.

Errors: a game raises :class:`games.errors.IllegalMoveError` (or a subclass; ``clause`` names its
rule) for a well-formed move the rules forbid, :class:`games.errors.InvalidMoveError` for text that
is no move, and :class:`datafile.DataFileError` subclasses for bad files.

Pure Python, no imports from the rest of the project beyond :mod:`games.errors`; ``mypy --strict``
clean. The registry is :mod:`games` (``games.get("tribes")``); ``docs/architecture.md`` says how to
add a game.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

State = Any
"""A game's state: an immutable value of the game's own type (opaque to the chassis)."""


@runtime_checkable
class Move(Protocol):
    """A move of any game: ``str(move)`` is its notation, ``chance`` tells a chance outcome (reported
    from the table) from a player's decision."""

    @property
    def chance(self) -> bool: ...  # pragma: no cover - protocol

    def __str__(self) -> str: ...  # pragma: no cover - protocol


class LegalMoves(Protocol):
    """A lazy view of the legal moves of one state (python-chess style): iterate it, test a move with
    ``in``, count it; nothing is generated before it is asked for."""

    def __iter__(self) -> Iterator[Any]: ...  # pragma: no cover - protocol

    def __contains__(self, move: object) -> bool: ...  # pragma: no cover - protocol

    def __bool__(self) -> bool: ...  # pragma: no cover - protocol

    def count(self) -> int: ...  # pragma: no cover - protocol


class Player(Protocol):
    """A simulated player: picks a legal decision for the seat to move (never a chance outcome)."""

    def choose(self, state: State) -> Any: ...  # pragma: no cover - protocol


PlayerFactory = Callable[[int], Player]
"""Makes a simulated player from a seed."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One player of a game: the name and the colour of their pieces."""

    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Standing:
    """A place in a ranking: ``place`` is shared by players level on every tie-break; ``score`` is
    the points; ``tiebreak`` the values after it, in order, as ``(name, value)`` pairs."""

    place: int
    seat: int
    name: str
    score: int
    tiebreak: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "place": self.place,
            "seat": self.seat,
            "name": self.name,
            "score": self.score,
            "tiebreak": {k: v for k, v in self.tiebreak},
        }


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the chassis shows and checks before anything is loaded."""

    id: str
    """Registry key and folder name (``games/<id>/``)."""
    title: str
    """The game's name as printed on the box."""
    min_players: int
    max_players: int
    clause_prefix: str
    """Prefix of the rule clause ids (``R-`` for Tribes, ``H-``, ``S-``, ``O-``)."""
    journal_format: str
    """The ``format`` value of the game's saved games (``tribes-journal``)."""
    position_format: str
    """The ``format`` value of the game's position documents (``tribes-position``)."""
    colours: tuple[str, ...] = ("red", "blue", "yellow", "black")
    """Default piece colours by seat."""
    summary: str = ""
    """One line for ``table-companion games`` and the page's title."""
    publisher: str = ""
    listed: bool = True
    """False for test doubles (the toy game): usable by id, never offered to a user."""
    bgg_id: int | None = None
    """The game's BoardGameGeek id (the page's export of a finished game to BG Stats names it)."""
    highest_wins: bool = True
    """The highest score wins (BG Stats' ``highestWins``)."""


class Rules(Protocol):
    """The rules of one game — OpenSpiel's ``Game``: everything the chassis asks about a state.

    ``settings`` are plain JSON data (players, box profile, options) that, with the move log, make a
    saved game; ``new_state(settings)`` is the state before the first move. ``apply`` never changes
    its argument and raises ``IllegalMoveError`` naming the clause. Chance outcomes are moves like any
    other: ``is_chance(state)`` says the next move is one, ``chance_outcomes`` lists them with their
    probability and ``sample_chance`` draws one (simulations only — a real game gets them from the
    table).
    """

    info: GameInfo

    @property
    def players(self) -> Mapping[str, PlayerFactory]:
        """Simulated players by name (``random``, ``greedy``, …)."""
        ...  # pragma: no cover - protocol

    def settings(self, players: Sequence[tuple[str, str]], profile: Any = None) -> dict[str, Any]:
        """Settings for a new game with ``players`` as ``(name, colour)`` in seat order and the box
        ``profile`` (None: the game's default); ValueError for a bad player list."""
        ...  # pragma: no cover - protocol

    def new_state(self, settings: Mapping[str, Any], source: str = "settings", base: str | Path | None = None) -> State:
        """The state before the first move; a ``DataFileError`` names ``source`` and the field.
        ``base``: the folder of the file the settings came from — a file the settings name by a
        relative path (a box profile) is read from there; None (not from a file): the working
        directory."""
        ...  # pragma: no cover - protocol

    def parse_move(self, text: str) -> Any:
        """The move written ``text``; ``InvalidMoveError`` quoting the text otherwise."""
        ...  # pragma: no cover - protocol

    def apply(self, state: State, move: Any) -> State:
        """The state after ``move``; ``IllegalMoveError`` (naming the clause) if the rules forbid it."""
        ...  # pragma: no cover - protocol

    def legal_moves(self, state: State) -> LegalMoves:
        """Every legal move (decisions and chance outcomes alike), lazily."""
        ...  # pragma: no cover - protocol

    def explain(self, state: State, move: Any) -> str | None:
        """Why ``move`` is illegal here (``"CLAUSE: reason"``), or None when it is legal."""
        ...  # pragma: no cover - protocol

    def is_chance(self, state: State) -> bool:
        """The next move is a chance outcome (reported from the table)."""
        ...  # pragma: no cover - protocol

    def is_over(self, state: State) -> bool:
        """The game has ended."""
        ...  # pragma: no cover - protocol

    def actor(self, state: State) -> int:
        """The seat whose decision the state waits for (meaningless at a chance node or the end)."""
        ...  # pragma: no cover - protocol

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """The possible chance outcomes here with their probabilities (empty when not a chance node;
        a game whose outcomes are too many to list may return a representative subset)."""
        ...  # pragma: no cover - protocol

    def sample_chance(self, state: State, rng: random.Random) -> Any:
        """One chance outcome drawn with ``rng`` (simulations and tests only)."""
        ...  # pragma: no cover - protocol

    def seats(self, state: State) -> list[Seat]:
        """The players in seat order."""
        ...  # pragma: no cover - protocol

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The position document of ``state`` (``info.position_format``)."""
        ...  # pragma: no cover - protocol

    def state_from_json(
        self, data: Any, source: str = "<position>", profile: Any = None, base: str | Path | None = None
    ) -> State:
        """Read a position document back (``state_from_json(state_to_json(s)) == s``); a
        ``DataFileError`` names the source and field. ``profile``: the box profile to read it with
        (None: the one the document names, else the game's default). ``base``: as for
        :meth:`new_state`."""
        ...  # pragma: no cover - protocol

    def settings_of(self, state: State) -> dict[str, Any]:
        """Settings for a game that starts at ``state`` (a mid-game start)."""
        ...  # pragma: no cover - protocol

    def scores(self, state: State) -> list[dict[str, Any]]:
        """The live score of every seat with its breakdown: ``{"seat", "name", "total", …parts}``."""
        ...  # pragma: no cover - protocol

    def ranking(self, state: State) -> list[Standing]:
        """Players by final order, with the game's tie-breaks (meaningful once over; live before)."""
        ...  # pragma: no cover - protocol

    def result(self, state: State) -> dict[str, Any]:
        """What a finished game's journal records as its result (ranking, final scores)."""
        ...  # pragma: no cover - protocol

    def prompt(self, state: State) -> dict[str, Any]:
        """What the game waits for, as JSON for the page and the API (``kind``, ``seat``, ``text``,
        and the game's own fields: options with cost and the clause that forbids the rest)."""
        ...  # pragma: no cover - protocol

    def turn_key(self, state: State) -> Hashable:
        """Which turn a state belongs to (the undo policy: undo stays within a turn)."""
        ...  # pragma: no cover - protocol


class BoxData(Protocol):
    """A game's box profile (component data with provenance): a name, a digest and the document."""

    @property
    def name(self) -> str: ...  # pragma: no cover - protocol

    @property
    def digest(self) -> str: ...  # pragma: no cover - protocol

    @property
    def raw(self) -> Mapping[str, Any]: ...  # pragma: no cover - protocol


class ProfileSupport(Protocol):
    """The box profile of a game: component values, each marked ``rulebook``, ``review`` or
    ``provisional``, which a user corrects from their own box (CLI and page)."""

    def default(self) -> BoxData:
        """The shipped profile."""
        ...  # pragma: no cover - protocol

    def load(self, path: str) -> BoxData:
        """Read and validate a profile file; ``DataFileError`` names the file and field."""
        ...  # pragma: no cover - protocol

    def parse(self, raw: Any, source: str = "box profile") -> BoxData:
        """Validate a profile document."""
        ...  # pragma: no cover - protocol

    def of_state(self, state: State) -> BoxData:
        """The profile a game is played with."""
        ...  # pragma: no cover - protocol

    def info(self, profile: BoxData) -> dict[str, Any]:
        """Every value with its provenance, the provisional ones listed (the page's editor)."""
        ...  # pragma: no cover - protocol

    def mark_checked(self, raw: Mapping[str, Any], paths: Sequence[str]) -> dict[str, Any]:
        """The document with the values at ``paths`` marked as checked against the box."""
        ...  # pragma: no cover - protocol


class PageModule(Protocol):
    """The game's part of the web page: JSON views the shell serves and the browser module that
    draws them (``static/<script>`` under the game's folder, loaded by the shell)."""

    script: str
    """File name of the browser module (an ES module exporting ``mount(shell)``)."""

    @property
    def static(self) -> Traversable:
        """The folder with the browser module and its assets."""
        ...  # pragma: no cover - protocol

    def state_view(self, state: State) -> dict[str, Any]:
        """Everything the page draws for one position: position, prompt, scores, the game's extras."""
        ...  # pragma: no cover - protocol

    def move_to_json(self, move: Any) -> dict[str, Any]:
        """A move as structured JSON (``{"kind": …, …}``) for the page."""
        ...  # pragma: no cover - protocol

    def move_from_json(self, data: Any, field: str = "move") -> Any:
        """A move from notation text or structured JSON; ``ValueError`` subclasses name ``field``."""
        ...  # pragma: no cover - protocol

    def catalog(self, profile: BoxData) -> dict[str, Any]:
        """The box's components as the page draws them, provisional values flagged."""
        ...  # pragma: no cover - protocol

    def chance_view(self, state: State) -> dict[str, Any]:
        """Extra fields for ``GET /api/chance`` (the choices a setup offers, …)."""
        ...  # pragma: no cover - protocol


class LedMap(Protocol):
    """How a state lights the LED strip: one look per slot of the strip (:class:`devices.looks.SlotLook`;
    Tribes: one slot per tile of the action row)."""

    def looks(self, state: State, config: Any) -> list[Any]:
        """One look per strip slot for ``state`` (the strip's config gives colours and slots); empty
        when the strip should be dark."""
        ...  # pragma: no cover - protocol

    def taken_slot(self, before: State | None, after: State, move: Any) -> int | None:
        """The slot whose tile the last move took (pulsed briefly), or None."""
        ...  # pragma: no cover - protocol

    def warnings(self, state: State, config: Any) -> list[str]:
        """Problems showing ``state`` on this strip (more slots than LEDs, unknown colours)."""
        ...  # pragma: no cover - protocol

    def mover_colour(self, state: State, config: Any) -> tuple[int, int, int]:
        """The colour of the player to move (the strip's test pattern)."""
        ...  # pragma: no cover - protocol

    def context(self, state: State) -> str:
        """One line saying where the game stands (``leds show`` prints it)."""
        ...  # pragma: no cover - protocol

    def dark(self, state: State) -> bool:
        """The strip shows nothing now (the game is over)."""
        ...  # pragma: no cover - protocol

    def slot_label(self, state: State, slot: int) -> str:
        """What lies in ``slot`` (``leds show`` prints it)."""
        ...  # pragma: no cover - protocol


class CameraSupport(Protocol):
    """Everything a game supplies to read its table with a camera (loaded lazily: numpy, OpenCV).

    The chassis drives it: :mod:`vision` captures frames and registers the table, the game's
    recognizer turns a frame into the game's Observation, and :mod:`tracker` fuses the game's facts
    and searches the game's proposals under the game's policy (:class:`tracker.policy.TrackerPolicy`).
    Enrollment (learning the user's box from a still picture of the set-up table) is the game's too.
    """

    def default_layout(self) -> Any:
        """The shipped table layout (markers, colour patch, where everything lies, in mm; it
        satisfies :class:`vision.layout.TableFrame`)."""
        ...  # pragma: no cover - protocol

    def load_layout(self, path: str) -> Any:
        """A user's table layout; a ``DataFileError`` names the file and field."""
        ...  # pragma: no cover - protocol

    def policy(self) -> Any:
        """The tracker policy (:class:`tracker.policy.TrackerPolicy`)."""
        ...  # pragma: no cover - protocol

    def observation_from_dict(self, data: Any) -> Any:
        """An Observation read back from JSON (the error names the field)."""
        ...  # pragma: no cover - protocol

    def empty_observation(self, frame: int, time: float) -> Any:
        """The Observation of a frame that cannot be read yet: not registered, not settled."""
        ...  # pragma: no cover - protocol

    def open_recognizer(self, path: Any, **options: Any) -> Any:
        """The recognizer of a saved enrollment: ``read(image, frame_no, time_s) -> Observation``,
        ``annotate(image, obs)``, ``enrollment``, ``profile``, ``gate`` (its motion gate)."""
        ...  # pragma: no cover - protocol

    def recognizer(self, enrollment: Any, **options: Any) -> Any:
        """A recognizer for an enrollment made now (``layout``, ``profile`` among the options)."""
        ...  # pragma: no cover - protocol

    def setup_missing(self, state: State) -> str | None:
        """Why the box cannot be learned from the table in ``state`` yet (None: it can)."""
        ...  # pragma: no cover - protocol

    def default_seats(self, players: int, seats_in_layout: int) -> list[int]:
        """The layout seats players sit at when none are given."""
        ...  # pragma: no cover - protocol

    def enroll_from_frame(self, frame: Any, state: State, **options: Any) -> tuple[Any, Any, Any]:
        """Learn the box from one still picture of the table in ``state``: ``(enrollment, seated
        layout, profile)``; raises the vision package's typed errors."""
        ...  # pragma: no cover - protocol

    def enrollment_summary(self, enrollment: Any, profile: Any) -> tuple[list[str], list[str]]:
        """What an enrollment learned and which components it still lacks."""
        ...  # pragma: no cover - protocol

    def picture(self, image: Any, obs: Any, status: dict[str, Any], width: int = 960, recognizer: Any = None) -> bytes:
        """The annotated camera picture for the page (JPEG bytes)."""
        ...  # pragma: no cover - protocol


CliHook = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]
"""Adds a game's own subcommands to the console command's parser."""


@dataclass(frozen=True)
class GamePlugin:
    """One game as the chassis sees it. ``rules`` is light (pure Python); the other parts are
    factories so that nothing heavy is imported before it is used."""

    info: GameInfo
    rules: Rules
    profile: ProfileSupport | None = None
    page: Callable[[], PageModule] | None = None
    leds: Callable[[], LedMap] | None = None
    camera: Callable[[], CameraSupport] | None = None
    cli: CliHook | None = None
    docs: Mapping[str, str] = field(default_factory=dict)
    """Where the game's documents are (``rules`` → docs/…-rules.md), for messages and the page."""

    @property
    def id(self) -> str:
        """The registry key."""
        return self.info.id


__all__ = [
    "BoxData",
    "CameraSupport",
    "CliHook",
    "GameInfo",
    "GamePlugin",
    "LedMap",
    "LegalMoves",
    "Move",
    "PageModule",
    "Player",
    "PlayerFactory",
    "ProfileSupport",
    "Rules",
    "Seat",
    "Standing",
    "State",
]
