"""The tracker policy: everything the game-neutral tracker needs to know about one game's table.

The tracker (:mod:`tracker.tracker`) fuses facts read by the camera, searches chains of legal moves
that explain them (:mod:`tracker.search`) and decides when to commit, ask or report a desync. What a
fact is, which moves to try, and the game's own timing rules come from the game through a
:class:`TrackerPolicy` (``games/<id>/tracker/policy.py``; the plug-in's camera support returns it).

Facts are small tuples whose first item names their kind (``("land", seat, hex)``); a *view* maps
the facts a state predicts to their values (a fact it does not list has its kind's default). The
policy splits a state's view into parts that a move changes independently (one player's pieces, a
row of tiles), so the search can share them between states.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from tracker.facts import Key, Reading, Seating, View

if TYPE_CHECKING:
    from games.api import Rules
    from tracker.evidence import Evidence


@dataclass(frozen=True)
class PartSpec:
    """One cacheable part of a state's view: ``key`` (with ``objs``, the state's objects it is built
    from: a part is reused while they are the same objects) names it, ``owner`` groups the facts it
    predicts (see :meth:`TrackerPolicy.owner_of`), ``make`` builds the part's view and ``sig`` a
    hashable summary of it. ``cache=False``: built anew for every state (cheap parts)."""

    key: Hashable
    objs: tuple[object, ...]
    owner: Hashable
    make: Callable[[], View]
    sig: Callable[[], Hashable]
    cache: bool = True


class TrackerPolicy(Protocol):
    """A game's answers to the tracker's questions (see the module docstring)."""

    rules: Rules
    """The game's rules (``apply``, ``legal_moves``, ``is_over``…)."""
    residual_kinds: tuple[str, ...]
    """Kinds of fact a committed move may leave unexplained (a knocked piece, a misread count)."""
    residual_max: int
    """Most facts a move may leave unexplained."""

    def seating(self, state: Any, layout_seats: Sequence[int] | None = None) -> Seating:
        """Where the players of ``state`` sit and the colours of their pieces."""
        ...  # pragma: no cover - protocol

    def facts(self, obs: Any, seating: Seating) -> dict[Key, Reading]:
        """The facts an Observation reads, each with its confidence (hidden regions: none)."""
        ...  # pragma: no cover - protocol

    def default(self, key: Key) -> Any:
        """The value a view implies for a fact it does not list."""
        ...  # pragma: no cover - protocol

    def view_parts(self, state: Any, seating: Seating) -> Iterable[PartSpec]:
        """The parts of ``state``'s predicted table."""
        ...  # pragma: no cover - protocol

    def owner_of(self, key: Key, seating: Seating) -> Hashable:
        """The owner of the part that predicts ``key`` (an owner no part has: predicted default)."""
        ...  # pragma: no cover - protocol

    def table_read(self, evidence: Evidence, seating: Seating) -> Any:
        """What :meth:`propose` reads the table through (made once per search: it may cache)."""
        ...  # pragma: no cover - protocol

    def propose(self, state: Any, read: Any, prune: bool) -> Iterable[Any]:
        """The few moves from ``state`` that could explain the table as ``read`` (made by
        :meth:`table_read`); ``prune`` False: be generous (the row may be misread)."""
        ...  # pragma: no cover - protocol

    def hidden_key(self, state: Any) -> Hashable:
        """What tells two states with the same view apart (what a camera cannot see)."""
        ...  # pragma: no cover - protocol

    def reads_outcome(self, state: Any) -> bool:
        """The state waits for a chance outcome the table shows (a tile turned up): the search tries
        the outcomes even when the start seems to explain a weak reading."""
        ...  # pragma: no cover - protocol

    def not_yet_margin(self, state: Any) -> float | None:
        """For a state waiting for a chance outcome the table shows: by how much an explanation that
        shows the outcome must beat "not yet" (this state) for the tracker to commit it without
        asking; None: the tracker's ``margin``, as between any two explanations."""
        ...  # pragma: no cover - protocol

    def starts_turn(self, move: Any) -> bool:
        """The move begins a player's turn (the search allows a few per chain)."""
        ...  # pragma: no cover - protocol

    def turn_of(self, state: Any) -> Hashable:
        """Which turn ``state`` is in (a move that changes it ended a turn)."""
        ...  # pragma: no cover - protocol

    def extendable(self, before: Any, move: Any) -> bool:
        """The move, seen so far, may still grow on the table (a movement with steps left): commit it
        only after a longer wait."""
        ...  # pragma: no cover - protocol

    def split_unclear(self, start: Any, moves: Sequence[Any]) -> int:
        """Index of the first of two moves the table cannot tell apart from other splits of their
        sum (both change one player's pieces), or -1."""
        ...  # pragma: no cover - protocol

    def invisible_answer(self, state: Any) -> bool:
        """The state waits for an answer whose options may not show on the table (an event's
        either/or choice): after a while the only option is committed, several are asked."""
        ...  # pragma: no cover - protocol

    def unverified(
        self,
        start: Any,
        moves: Sequence[Any],
        end: Any,
        evidence: Evidence,
        seating: Seating,
        hidden: frozenset[str],
        recent: set[Key],
    ) -> list[str]:
        """Regions the moves act on that the window did not read in full (the move cannot be checked
        there, so it is not committed yet)."""
        ...  # pragma: no cover - protocol

    def watched_regions(self, hidden: Iterable[str], state: Any, recent: set[Key], seating: Seating) -> list[str]:
        """Hidden regions where a move could be going on unseen (shown as waiting)."""
        ...  # pragma: no cover - protocol

    def describe_region(self, region: str, names: Mapping[int, str]) -> str:
        """Words for a region, e.g. "Ada's land"."""
        ...  # pragma: no cover - protocol

    def describe_key(self, key: Key, names: Mapping[int, str] | None = None) -> str:
        """Words for a fact's place, e.g. "row slot 3 (tile)"."""
        ...  # pragma: no cover - protocol

    def describe_value(self, key: Key, value: Any) -> str:
        """Words for a fact's value."""
        ...  # pragma: no cover - protocol

    def key_to_json(self, key: Key) -> list[Any]:
        """A fact's key as JSON data."""
        ...  # pragma: no cover - protocol


def default_policy() -> TrackerPolicy:
    """The tracker policy of the default game (through the registry)."""
    import games

    camera = games.get(games.DEFAULT).camera
    if camera is None:  # pragma: no cover - the default game has a camera
        raise ValueError(f"{games.DEFAULT} has no camera support")
    policy: TrackerPolicy = camera().policy()
    return policy


__all__ = ["PartSpec", "TrackerPolicy", "default_policy"]
