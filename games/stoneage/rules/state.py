"""The Stone Age game state: an immutable :class:`State`, and :class:`Work`, its mutable twin.

:class:`State` is a value (frozen, comparable, hashable parts): what the chassis stores between
moves, what the position JSON writes. The engine's transition code runs on a :class:`Work` — the same
fields, held in lists, with each player thawed into a mutable :class:`Tribe` the first time it is
changed — so that one move costs a handful of list updates; :func:`freeze` turns it back into a
State. Real games go State → Work → State once per move; the fast playout of simulations keeps one
Work for a whole game. Both run exactly the same transition code (:mod:`games.stoneage.rules.engine`).

Places are numbered: 0 hunting grounds, 1–4 the resource places (wood, clay, stone, gold), 5 tool
maker, 6 hut, 7 field, then one index per civilization card place (cheapest first) and one per
building stack in play (one per player, S-SET-3). :func:`place_names` gives the names.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from games.api import Seat
from games.stoneage.rules.profile import BoxProfile

HUNT, WOOD, CLAY, STONE, GOLD, TOOLMAKER, HUT, FIELD = range(8)
FIRST_CARD = 8
FIXED_PLACES: tuple[str, ...] = ("hunt", "wood", "clay", "stone", "gold", "toolmaker", "hut", "field")


class Phase(StrEnum):
    """What the game waits for."""

    REVEAL = "reveal"
    """Chance: the next civilization card for an empty card place, or the next building of a stack."""
    PLACE = "place"
    """Decision: the actor places people (section 1)."""
    ACT = "act"
    """Decision: the actor carries out one of their places (section 2)."""
    ROLL = "roll"
    """Chance: the dice the actor rolled (hunting, a resource place, a card, the dice bar)."""
    TOOLS = "tools"
    """Decision: which tools the actor adds to the roll just made."""
    BAR = "bar"
    """Decision: the actor takes one die of the dice-bar roll."""
    DRAW = "draw"
    """Chance: the civilization card drawn for the extra-card card."""
    FEED = "feed"
    """Decision: the actor is short of food: pay with resources or lose 10 points (section 3)."""
    OVER = "over"
    """The game has ended (S-END-1); the final scoring is made."""


CHANCE_PHASES = frozenset({Phase.REVEAL, Phase.ROLL, Phase.DRAW})


@cache
def place_names(card_places: int, stacks: int) -> tuple[str, ...]:
    """The names of all places: the fixed eight, ``card1``…, ``building1``…."""
    return (
        FIXED_PLACES
        + tuple(f"card{i + 1}" for i in range(card_places))
        + tuple(f"building{i + 1}" for i in range(stacks))
    )


@cache
def place_index(card_places: int, stacks: int) -> dict[str, int]:
    """Place name → index."""
    return {n: i for i, n in enumerate(place_names(card_places, stacks))}


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player's part of the state (immutable).

    ``res`` is (wood, clay, stone, gold). ``tools`` the values of the tool tiles, highest first, and
    ``used`` the values of those already added to a roll this round (S-TOOL-2). ``once`` the unused
    one-time tool cards, ``anyc`` the unused "any resources" cards (ids, sorted); ``cards`` every
    civilization card the player owns (sorted, used or not); ``buildings`` (id, points) in the order
    taken. ``points`` is the score track: building points + ``card_points`` − 10 × ``starved``.
    ``placed`` the people on each place (by place index) this round."""

    people: int
    food: int
    agri: int
    res: tuple[int, int, int, int]
    tools: tuple[int, ...]
    used: tuple[int, ...]
    once: tuple[str, ...]
    anyc: tuple[str, ...]
    cards: tuple[str, ...]
    buildings: tuple[tuple[str, int], ...]
    points: int
    card_points: int
    starved: int
    placed: tuple[int, ...]

    def thaw(self) -> Tribe:
        """A mutable copy."""
        return Tribe(
            self.people,
            self.food,
            self.agri,
            list(self.res),
            list(self.tools),
            list(self.used),
            list(self.once),
            list(self.anyc),
            list(self.cards),
            list(self.buildings),
            self.points,
            self.card_points,
            self.starved,
            list(self.placed),
        )

    @property
    def on_board(self) -> int:
        """People standing on places."""
        return sum(self.placed)

    def unused_tools(self) -> list[int]:
        """Values of the tools not yet used this round, highest first."""
        return unused(self.tools, self.used)


class Tribe:
    """A player's part of a :class:`Work` (mutable; same fields as :class:`PlayerState`)."""

    __slots__ = (
        "agri",
        "anyc",
        "buildings",
        "card_points",
        "cards",
        "food",
        "once",
        "people",
        "placed",
        "points",
        "res",
        "starved",
        "tools",
        "used",
    )

    def __init__(
        self,
        people: int,
        food: int,
        agri: int,
        res: list[int],
        tools: list[int],
        used: list[int],
        once: list[str],
        anyc: list[str],
        cards: list[str],
        buildings: list[tuple[str, int]],
        points: int,
        card_points: int,
        starved: int,
        placed: list[int],
    ) -> None:
        self.people = people
        self.food = food
        self.agri = agri
        self.res = res
        self.tools = tools
        self.used = used
        self.once = once
        self.anyc = anyc
        self.cards = cards
        self.buildings = buildings
        self.points = points
        self.card_points = card_points
        self.starved = starved
        self.placed = placed

    def freeze(self) -> PlayerState:
        """The immutable value."""
        r = self.res
        return PlayerState(
            self.people,
            self.food,
            self.agri,
            (r[0], r[1], r[2], r[3]),
            tuple(self.tools),
            tuple(self.used),
            tuple(self.once),
            tuple(self.anyc),
            tuple(self.cards),
            tuple(self.buildings),
            self.points,
            self.card_points,
            self.starved,
            tuple(self.placed),
        )

    def thaw(self) -> Tribe:
        """Itself (already mutable)."""
        return self

    @property
    def on_board(self) -> int:
        """People standing on places."""
        return sum(self.placed)

    def unused_tools(self) -> list[int]:
        """Values of the tools not yet used this round, highest first."""
        return unused(self.tools, self.used)


def unused(tools: tuple[int, ...] | list[int], used: tuple[int, ...] | list[int]) -> list[int]:
    """The multiset difference ``tools`` − ``used`` (both highest first), highest first."""
    if not used:
        return list(tools)
    rest = list(used)
    out = []
    for v in tools:
        if v in rest:
            rest.remove(v)
        else:
            out.append(v)
    return out


@dataclass(frozen=True, slots=True)
class State:
    """A whole position of a game of Stone Age (immutable).

    ``display`` holds the card on each card place (None: empty), cheapest first; ``tops`` the face-up
    building of each stack in play and ``left`` how many face-down buildings lie below it.
    ``unseen_cards``/``unseen_buildings`` are the components nobody has seen (sorted): the card deck,
    and the face-down buildings of all stacks (including those set aside with fewer than 4 players).
    ``card_order``/``building_order`` are set when the settings fixed the order (S-SET-4).

    Pending work: ``what`` is the roll the table reports next (a dice place name or ``bar``) with
    ``ndice`` dice; ``dice`` the dice rolled (for the tools choice or the dice-bar picks); ``taker``
    the player who took the dice-bar card; ``resume`` the phase after the reveals; ``ended`` why the
    game ended."""

    profile: BoxProfile
    seats: tuple[Seat, ...]
    round: int
    start: int
    phase: Phase
    actor: int
    players: tuple[PlayerState, ...]
    display: tuple[str | None, ...]
    tops: tuple[str | None, ...]
    left: tuple[int, ...]
    unseen_cards: tuple[str, ...]
    unseen_buildings: tuple[str, ...]
    card_order: tuple[str, ...] | None = None
    building_order: tuple[tuple[str, ...], ...] | None = None
    what: str = ""
    ndice: int = 0
    dice: tuple[int, ...] = ()
    taker: int = 0
    resume: Phase = Phase.PLACE
    ended: str = ""

    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        """Place names of this game."""
        return place_names(len(self.display), len(self.tops))

    @property
    def is_chance(self) -> bool:
        """The next move is reported from the table."""
        return self.phase in CHANCE_PHASES

    @property
    def is_over(self) -> bool:
        """The game has ended."""
        return self.phase is Phase.OVER


class Work:
    """A :class:`State` being changed by the engine (mutable, same fields)."""

    __slots__ = (
        "actor",
        "building_order",
        "card_order",
        "dice",
        "display",
        "ended",
        "left",
        "n",
        "names",
        "ndice",
        "phase",
        "players",
        "profile",
        "resume",
        "round",
        "seats",
        "start",
        "taker",
        "tops",
        "unseen_buildings",
        "unseen_cards",
        "what",
    )

    def __init__(self, s: State) -> None:
        self.profile = s.profile
        self.seats = s.seats
        self.n = len(s.seats)
        self.round = s.round
        self.start = s.start
        self.phase = s.phase
        self.actor = s.actor
        self.players: list[PlayerState | Tribe] = list(s.players)
        self.display: list[str | None] = list(s.display)
        self.tops: list[str | None] = list(s.tops)
        self.left = list(s.left)
        self.unseen_cards = list(s.unseen_cards)
        self.unseen_buildings = list(s.unseen_buildings)
        self.card_order = None if s.card_order is None else list(s.card_order)
        self.building_order = None if s.building_order is None else [list(o) for o in s.building_order]
        self.what = s.what
        self.ndice = s.ndice
        self.dice = list(s.dice)
        self.taker = s.taker
        self.resume = s.resume
        self.ended = s.ended
        self.names = place_names(len(s.display), len(s.tops))
        """Place names of this game."""

    @property
    def is_chance(self) -> bool:
        """The next move is reported from the table."""
        return self.phase in CHANCE_PHASES

    @property
    def is_over(self) -> bool:
        """The game has ended."""
        return self.phase is Phase.OVER

    def tribe(self, seat: int) -> Tribe:
        """The mutable part of ``seat`` (thawed on first use)."""
        p = self.players[seat]
        if isinstance(p, Tribe):
            return p
        t = p.thaw()
        self.players[seat] = t
        return t

    def freeze(self) -> State:
        """The immutable State."""
        return State(
            profile=self.profile,
            seats=self.seats,
            round=self.round,
            start=self.start,
            phase=self.phase,
            actor=self.actor,
            players=tuple(p.freeze() if isinstance(p, Tribe) else p for p in self.players),
            display=tuple(self.display),
            tops=tuple(self.tops),
            left=tuple(self.left),
            unseen_cards=tuple(self.unseen_cards),
            unseen_buildings=tuple(self.unseen_buildings),
            card_order=None if self.card_order is None else tuple(self.card_order),
            building_order=None if self.building_order is None else tuple(tuple(o) for o in self.building_order),
            what=self.what,
            ndice=self.ndice,
            dice=tuple(self.dice),
            taker=self.taker,
            resume=self.resume,
            ended=self.ended,
        )


View = State | Work
"""Anything the legality checks and the move generator read (both have the same fields)."""


def new_state(
    profile: BoxProfile,
    seats: tuple[Seat, ...],
    card_order: tuple[str, ...] | None = None,
    building_order: tuple[tuple[str, ...], ...] | None = None,
) -> State:
    """The state before the first move: every player with the start people and food (S-SET-1), the
    card places and building stacks still to be revealed (S-SET-2, S-SET-3)."""
    n = len(seats)
    k = len(profile.card_costs)
    places = 8 + k + n
    player = PlayerState(
        people=profile.start_people,
        food=profile.start_food,
        agri=0,
        res=(0, 0, 0, 0),
        tools=(),
        used=(),
        once=(),
        anyc=(),
        cards=(),
        buildings=(),
        points=0,
        card_points=0,
        starved=0,
        placed=(0,) * places,
    )
    return State(
        profile=profile,
        seats=seats,
        round=1,
        start=0,
        phase=Phase.REVEAL,
        actor=0,
        players=(player,) * n,
        display=(None,) * k,
        tops=(None,) * n,
        left=(profile.stack_size,) * n,
        unseen_cards=tuple(sorted(c.id for c in profile.cards)),
        unseen_buildings=tuple(sorted(b.id for b in profile.buildings)),
        card_order=card_order,
        building_order=building_order,
        resume=Phase.PLACE,
    )


__all__ = [
    "CHANCE_PHASES",
    "FIELD",
    "FIRST_CARD",
    "FIXED_PLACES",
    "GOLD",
    "HUNT",
    "HUT",
    "STONE",
    "TOOLMAKER",
    "WOOD",
    "Phase",
    "PlayerState",
    "State",
    "Tribe",
    "View",
    "Work",
    "new_state",
    "place_index",
    "place_names",
    "unused",
]
