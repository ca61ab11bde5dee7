"""Facts: the table as a flat map of small keys to values, for any game.

A key is a tuple whose first item names its kind (``("slot", 3)``, ``("land", seat, hex)``); its value
is what the camera reads there. A *view* (:data:`View`) maps the facts a state predicts to their
values; a fact it does not list has its kind's default (the game's :meth:`TrackerPolicy.default
<tracker.policy.TrackerPolicy.default>`), so a view lists only what lies on the table. A *reading*
is a value with its confidence and, where the reader weighed other values too, their probabilities
(its *rivals*: a tile read 0.6 gold, 0.38 the plain back and 0.02 anything else says more about
"goat or gold" than its confidence alone). Each game defines its kinds (Tribes:
``games/tribes/tracker/facts.py``).

:class:`Seating` says where the game's players sit at the table (the layout seat of each game seat)
and the colours of their pieces: facts name players by where they sit, or by colour.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Key = tuple[Any, ...]
View = dict[Key, Any]
Reading = tuple[Any, float] | tuple[Any, float, Mapping[Any, float]]
"""A fact as read: ``(value, confidence)`` or ``(value, confidence, rivals)``, ``rivals`` mapping
other values the reader weighed to their probabilities (values it does not list: no word on them)."""

_MISSING = object()


def parts(reading: Reading) -> tuple[Any, float, Mapping[Any, float]]:
    """``(value, confidence, rivals)`` of a reading (no rivals: an empty mapping)."""
    if len(reading) == 3:
        return reading[0], reading[1], reading[2]
    return reading[0], reading[1], {}


def value_of(view: Mapping[Key, Any], key: Key, default: Callable[[Key], Any]) -> Any:
    """The value of ``key`` in ``view`` (``default(key)`` when not listed)."""
    v = view.get(key, _MISSING)
    return default(key) if v is _MISSING else v


class _Coloured(Protocol):
    @property
    def colour(self) -> str: ...  # pragma: no cover - protocol


@dataclass(frozen=True)
class Seating:
    """Where the game's players sit: ``layout_seats[g]`` is the layout seat of game seat ``g`` and
    ``colours[g]`` its piece colour (from the game settings)."""

    layout_seats: tuple[int, ...]
    colours: tuple[str, ...]

    @staticmethod
    def of(players: Sequence[_Coloured], layout_seats: Sequence[int] | None = None) -> Seating:
        """``players`` (anything with a ``colour``, in seat order) at layout seats ``layout_seats``
        (default: player *i* at seat *i*)."""
        n = len(players)
        seats = tuple(layout_seats) if layout_seats is not None else tuple(range(n))
        if len(seats) != n or len(set(seats)) != n or any(s < 0 for s in seats):
            raise ValueError(f"seats: {n} players need {n} different layout seats, got {list(seats)}")
        return Seating(seats, tuple(p.colour for p in players))

    def game_seat(self, layout_seat: int) -> int | None:
        """The game seat sitting at ``layout_seat`` (None: nobody)."""
        try:
            return self.layout_seats.index(layout_seat)
        except ValueError:
            return None


__all__ = ["Key", "Reading", "Seating", "View", "parts", "value_of"]
