"""The game state: an immutable value holding the board file, the players and everything on the table
the companion keeps (docs/origo.md, "Position").

Shields are counted per player in three places — the supply, the board (one per occupied field, plus
the attacker's shield on the contested field during a battle) and out of the game (in the box); their
sum never changes (O-ATK-10, O-ATK-11). Hands are counted, not listed: the cards are hidden, so the
companion knows only how many a player still holds (at most the hand size, refilled at every turn's
end, O-TURN-4).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.api import Seat
from games.origo.rules.board import Board

FREE = -1
"""The owner of a free field."""


class Phase(StrEnum):
    """What the game waits for."""

    TURN = "turn"
    """The player on turn lays shields, plays cards, attacks, ends the turn or passes."""
    BATTLE = "battle"
    """A battle: the side whose answer is due plays another card or stops (O-ATK-7…9)."""
    REVEAL = "reveal"
    """A land was founded: the table reports the founding field revealed (chance, O-FOUND-2)."""
    SCORING = "scoring"
    """A tribe scoring at the end of a round: every player's points are entered (O-FOUND-4)."""
    FINAL = "final"
    """The final scoring (not in the fragment): every player's points are entered (O-SCORE-3)."""
    OVER = "over"


class Side(StrEnum):
    """The two sides of a battle."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


class EndTrigger(StrEnum):
    """Why the game ends (at the end of the round, O-END-1, O-END-2); NONE while it goes on."""

    NONE = ""
    PASSES = "passes"
    STONES = "stones"
    SHIELDS = "shields"


@dataclass(frozen=True, slots=True)
class Battle:
    """A battle in progress: the attacked field, both seats, the cards each has played, and whether
    the attacker is still playing the cards he opens with (O-ATK-4: he may play more right away)."""

    field: int
    attacker: int
    defender: int
    attacker_cards: int = 1
    defender_cards: int = 0
    opening: bool = True


@dataclass(frozen=True, slots=True)
class Founding:
    """A founded land: the land (region index), the founder's seat, the founding field revealed."""

    land: int
    seat: int
    value: int
    red: bool


@dataclass(frozen=True, slots=True)
class State:
    """One position of a game of Origo.

    Per seat (tuples in seat order): ``supply`` (unused shields), ``out`` (shields out of the game),
    ``hands`` (cards held), ``leader`` (the leader's field on the path), ``tribe`` (tribe points from
    tribe scorings), ``final`` (points of the final scoring). ``owners`` gives per board field the seat
    whose shield lies there (:data:`FREE` for none). ``round`` counts from 1, ``turn`` counts every
    turn of the game; ``to_move`` is the seat on turn; ``acted``: that player has done something this
    turn; ``passes``: how many players passed this round; ``scorings_due``: tribe scorings scheduled
    and not yet held (at most one is held per round end, O-FOUND-5); ``founding_land``: the land
    waiting for its founding field (REVEAL); ``entries``: the points entered so far in a scoring
    (None: not yet entered)."""

    board: Board
    seats: tuple[Seat, ...]
    owners: tuple[int, ...]
    supply: tuple[int, ...]
    out: tuple[int, ...]
    hands: tuple[int, ...]
    leader: tuple[int, ...]
    tribe: tuple[int, ...]
    final: tuple[int, ...]
    founded: tuple[Founding, ...] = ()
    round: int = 1
    turn: int = 1
    to_move: int = 0
    phase: Phase = Phase.TURN
    acted: bool = False
    passes: int = 0
    scorings_due: int = 0
    scorings_held: int = 0
    end: EndTrigger = EndTrigger.NONE
    battle: Battle | None = None
    founding_land: int | None = None
    entries: tuple[int | None, ...] = ()

    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.seats)

    def seat_of(self, name: str) -> int | None:
        """The seat of the player called ``name``, None if nobody is."""
        for i, s in enumerate(self.seats):
            if s.name == name:
                return i
        return None

    def name(self, seat: int) -> str:
        """The name of ``seat``."""
        return self.seats[seat].name

    def is_founded(self, region: int) -> bool:
        """A founding stone stands on this land (O-FOUND-6)."""
        return any(f.land == region for f in self.founded)

    def founding_of(self, region: int) -> Founding | None:
        """The founding of this land, None if it is not founded."""
        for f in self.founded:
            if f.land == region:
                return f
        return None

    @property
    def stones_left(self) -> int:
        """Founding stones still on the founding track."""
        return self.board.stones - len(self.founded)

    def free_fields(self, region: int) -> int:
        """How many fields of ``region`` hold no shield."""
        return sum(1 for f in self.board.regions[region].fields if self.owners[f] == FREE)

    def on_board(self, seat: int) -> int:
        """Shields of ``seat`` on the board (the attacker's shield on a contested field included)."""
        n = sum(1 for o in self.owners if o == seat)
        if self.battle is not None and self.battle.attacker == seat:
            n += 1
        return n

    def shields_total(self, seat: int) -> int:
        """Supply + board + out of the game: constant for the whole game."""
        return self.supply[seat] + self.on_board(seat) + self.out[seat]

    @property
    def is_over(self) -> bool:
        """The game has ended."""
        return self.phase is Phase.OVER

    @property
    def is_chance(self) -> bool:
        """The game waits for the table's report of a founding field."""
        return self.phase is Phase.REVEAL


__all__ = ["FREE", "Battle", "EndTrigger", "Founding", "Phase", "Side", "State"]
