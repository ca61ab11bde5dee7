"""What the game waits for next: a decision by one player, or a chance outcome to be reported.

A turn of Tribes can need several inputs: choosing an Exploration tile is followed by the draw
(chance: which tiles came out of the bag) and then the placement (the player's decision); an
achievement can reveal the tile above and an event (chance); an event may ask affected players to
choose. Each step is one :class:`Pending` value in the state; :func:`rules.engine.apply` accepts the
moves that answer it. Chance is always an input (reported by a camera, a user, or a seeded sampler in
simulations); the engine never draws by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

EffectPath = tuple[int, ...]
"""Where an effect sits in its event: entry index, effect index, and for choices option and effect."""


class PendingKind(StrEnum):
    """What a :class:`Pending` step waits for (a closed set; compares equal to its text)."""

    NONE = ""
    SETUP = "setup"
    FIRST_MEMBER = "first_member"
    CHOOSE = "choose"
    DRAW = "draw"
    PLACE = "place"
    RESTORE = "restore"
    REVEAL = "reveal"
    EVENT_REVEAL = "event_reveal"
    EVENT = "event"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Pending:
    """Base class. ``seat`` is who acts (for chance nodes the seat whose turn it is)."""

    kind: ClassVar[PendingKind] = PendingKind.NONE
    chance: ClassVar[bool] = False
    seat: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data; ``pending_from_dict`` reads it back."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out


def _jsonable(val: Any) -> Any:
    if isinstance(val, tuple):
        return [_jsonable(v) for v in val]
    return val


@dataclass(frozen=True, slots=True)
class SetupPending(Pending):
    """The setup outcome (action row order, era-1 layout, starting tiles) must be reported."""

    kind: ClassVar[PendingKind] = PendingKind.SETUP
    chance: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class FirstMemberPending(Pending):
    """``seat`` places their first tribe member on one of their three tiles (R-SET-10)."""

    kind: ClassVar[PendingKind] = PendingKind.FIRST_MEMBER


@dataclass(frozen=True, slots=True)
class ChoosePending(Pending):
    """``seat`` chooses a tile of the action row and what to do with it (R-TURN-1)."""

    kind: ClassVar[PendingKind] = PendingKind.CHOOSE


@dataclass(frozen=True, slots=True)
class DrawPending(Pending):
    """Which ``count`` tiles came out of the bag for an Exploration (R-ACT-EXP-1)."""

    kind: ClassVar[PendingKind] = PendingKind.DRAW
    chance: ClassVar[bool] = True
    count: int = 0


@dataclass(frozen=True, slots=True)
class PlacePending(Pending):
    """``seat`` places the ``drawn`` tiles adjacent to their land (R-ACT-EXP-1)."""

    kind: ClassVar[PendingKind] = PendingKind.PLACE
    drawn: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RestorePending(Pending):
    """Bag empty: ``seat`` may turn up to ``count`` unoccupied exhausted tiles back (R-ACT-EXP-3)."""

    kind: ClassVar[PendingKind] = PendingKind.RESTORE
    count: int = 0


@dataclass(frozen=True, slots=True)
class RevealPending(Pending):
    """Which tile was revealed at board position ``era``/``col`` (R-ACH-8); ``then_event`` is the era
    of an event to reveal afterwards for a lightning slot (0: none)."""

    kind: ClassVar[PendingKind] = PendingKind.REVEAL
    chance: ClassVar[bool] = True
    era: int = 0
    col: int = 0
    then_event: int = 0


@dataclass(frozen=True, slots=True)
class EventRevealPending(Pending):
    """Which event came off the top of the ``era`` stack for a lightning slot (R-ACH-6)."""

    kind: ClassVar[PendingKind] = PendingKind.EVENT_REVEAL
    chance: ClassVar[bool] = True
    era: int = 0


@dataclass(frozen=True, slots=True)
class EventPending(Pending):
    """An event is being carried out (R-EVT). ``seat`` must answer the effect at ``path`` (a choice
    of option, or which members/tiles); ``queue`` holds the (seat, path) effects still to resolve,
    in order: the chooser first, then clockwise (R-EVT-6)."""

    kind: ClassVar[PendingKind] = PendingKind.EVENT
    event: str = ""
    chooser: int = 0
    path: EffectPath = ()
    queue: tuple[tuple[int, EffectPath], ...] = ()


@dataclass(frozen=True, slots=True)
class GameOverPending(Pending):
    """The game has ended (R-END-2); only scoring remains."""

    kind: ClassVar[PendingKind] = PendingKind.GAME_OVER


PENDING_TYPES: dict[PendingKind, type[Pending]] = {
    cls.kind: cls
    for cls in (
        SetupPending,
        FirstMemberPending,
        ChoosePending,
        DrawPending,
        PlacePending,
        RestorePending,
        RevealPending,
        EventRevealPending,
        EventPending,
        GameOverPending,
    )
}


def pending_from_dict(data: Any) -> Pending:
    """Inverse of :meth:`Pending.to_dict`; raises ValueError naming the bad field."""
    if not isinstance(data, dict):
        raise ValueError("must be an object")
    kind = data.get("kind")
    cls = PENDING_TYPES.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"kind {kind!r} is not one of {', '.join(PENDING_TYPES)}")
    kwargs: dict[str, Any] = {}
    names = {f.name: f for f in fields(cls)}
    for name, f in names.items():
        if name not in data:
            continue
        val = data[name]
        if name == "queue":
            if not isinstance(val, list) or not all(
                isinstance(q, list) and len(q) == 2 and isinstance(q[0], int) and isinstance(q[1], list) for q in val
            ):
                raise ValueError("queue must be a list of [seat, [path…]] pairs")
            val = tuple((int(q[0]), tuple(int(x) for x in q[1])) for q in val)
        elif name in ("path", "drawn"):
            if not isinstance(val, list):
                raise ValueError(f"{name} must be a list")
            val = tuple(val)
        elif f.type in ("int",) and (isinstance(val, bool) or not isinstance(val, int)):
            raise ValueError(f"{name} must be an integer, got {val!r}")
        elif f.type == "str" and not isinstance(val, str):
            raise ValueError(f"{name} must be a text, got {val!r}")
        kwargs[name] = val
    unknown = sorted(set(data) - set(names) - {"kind"})
    if unknown:
        raise ValueError(f"field {unknown[0]!r} does not belong to a {kind!r} pending step")
    return cls(**kwargs)
