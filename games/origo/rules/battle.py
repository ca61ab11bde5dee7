"""The battle calculator: pure functions over the board for one attacked field.

A battle's points (O-ATK-5, O-ATK-6): the attacker scores 2 per card played plus 1 per own shield on
a field adjacent to the attacked one; the defender 1 per own shield on an adjacent field, plus 1 for
the attacked shield itself, plus 2 per card he plays. A tie goes to the defender (O-ATK-7). After the
attacker's opening cards, only the side behind plays, one card at a time, until it cannot or will
not (O-ATK-8, O-ATK-9).

The page and ``origo battle`` (games/origo/cli.py) show, for the attacked field and the cards each
side can still play: both sides' points now, who wins if nobody plays on, how many more cards the
side behind needs, and how it ends if both sides answer while they can (:func:`play_out`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.origo.rules.board import Board
from games.origo.rules.state import Battle, Side, State

CARD_POINTS = 2
"""Each card played in a battle is worth 2 points (O-ATK-5, O-ATK-7)."""


def adjacent_shields(board: Board, owners: tuple[int, ...], field: int, seat: int) -> int:
    """Shields of ``seat`` on the fields that share a side with ``field`` (O-ATK-2: not diagonals)."""
    return sum(1 for nb in board.neighbours[field] if owners[nb] == seat)


def base_points(board: Board, owners: tuple[int, ...], field: int, attacker: int, defender: int) -> tuple[int, int]:
    """Points of both sides before any card: the attacker's adjacent shields (O-ATK-5), the
    defender's adjacent shields plus the attacked one (O-ATK-6)."""
    return adjacent_shields(board, owners, field, attacker), adjacent_shields(board, owners, field, defender) + 1


def points(attacker_base: int, defender_base: int, attacker_cards: int, defender_cards: int) -> tuple[int, int]:
    """Both sides' points with the cards played so far."""
    return attacker_base + CARD_POINTS * attacker_cards, defender_base + CARD_POINTS * defender_cards


def leading(attacker_points: int, defender_points: int) -> Side:
    """Who wins if nobody plays on: the attacker only with more points; a tie goes to the defender
    (O-ATK-7)."""
    return Side.ATTACKER if attacker_points > defender_points else Side.DEFENDER


def behind(attacker_points: int, defender_points: int) -> Side:
    """The side that loses if nobody plays on."""
    return Side.DEFENDER if leading(attacker_points, defender_points) is Side.ATTACKER else Side.ATTACKER


def cards_needed(attacker_points: int, defender_points: int) -> int:
    """How many more cards the side behind needs to turn the battle: the attacker must get ahead,
    the defender level (a tie is his)."""
    gap = attacker_points - defender_points
    if gap > 0:
        return -(-gap // CARD_POINTS)
    return -gap // CARD_POINTS + 1


def to_answer(attacker_points: int, defender_points: int, opening: bool) -> Side:
    """Whose card is due: the attacker while he opens (O-ATK-4), then the side behind (O-ATK-7/8)."""
    return Side.ATTACKER if opening else behind(attacker_points, defender_points)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a battle ends: the winner, the cards each side plays from here, the final points."""

    winner: Side
    attacker_cards: int
    defender_cards: int
    attacker_points: int
    defender_points: int

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "winner": str(self.winner),
            "attacker_cards": self.attacker_cards,
            "defender_cards": self.defender_cards,
            "attacker_points": self.attacker_points,
            "defender_points": self.defender_points,
        }


def play_out(attacker_points: int, defender_points: int, attacker_left: int, defender_left: int) -> Outcome:
    """The end of the battle if, from here, the side behind always answers with one more card while
    it has one (the attacker's opening is taken as over)."""
    if attacker_left < 0 or defender_left < 0:
        raise ValueError("cards left cannot be negative")
    a, d = attacker_points, defender_points
    used_a = used_d = 0
    while True:
        side = behind(a, d)
        if side is Side.ATTACKER:
            if used_a == attacker_left:
                return Outcome(Side.DEFENDER, used_a, used_d, a, d)
            used_a += 1
            a += CARD_POINTS
        else:
            if used_d == defender_left:
                return Outcome(Side.ATTACKER, used_a, used_d, a, d)
            used_d += 1
            d += CARD_POINTS


@dataclass(frozen=True, slots=True)
class Figures:
    """What the calculator shows for one attacked field and the cards played so far."""

    field: str
    attacker: str
    defender: str
    attacker_shields: int
    """Shields of the attacker adjacent to the field (O-ATK-5)."""
    defender_shields: int
    """Shields of the defender adjacent to the field, plus the attacked one (O-ATK-6)."""
    attacker_cards: int
    defender_cards: int
    attacker_points: int
    defender_points: int
    leading: Side
    behind: Side
    cards_needed: int
    to_answer: Side
    opening: bool

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "field": self.field,
            "attacker": self.attacker,
            "defender": self.defender,
            "attacker_shields": self.attacker_shields,
            "defender_shields": self.defender_shields,
            "attacker_cards": self.attacker_cards,
            "defender_cards": self.defender_cards,
            "attacker_points": self.attacker_points,
            "defender_points": self.defender_points,
            "leading": str(self.leading),
            "behind": str(self.behind),
            "cards_needed": self.cards_needed,
            "to_answer": str(self.to_answer),
            "opening": self.opening,
        }


def figures(
    state: State, field: int, attacker: int, attacker_cards: int = 1, defender_cards: int = 0, opening: bool = False
) -> Figures:
    """The calculator's figures for ``attacker`` attacking ``field`` (whose shield is the defender's)
    with the cards played so far."""
    defender = state.owners[field]
    if defender < 0:
        raise ValueError(f"{state.board.name_of(field)} holds no shield to attack")
    ab, db = base_points(state.board, state.owners, field, attacker, defender)
    a, d = points(ab, db, attacker_cards, defender_cards)
    return Figures(
        field=state.board.name_of(field),
        attacker=state.name(attacker),
        defender=state.name(defender),
        attacker_shields=ab,
        defender_shields=db,
        attacker_cards=attacker_cards,
        defender_cards=defender_cards,
        attacker_points=a,
        defender_points=d,
        leading=leading(a, d),
        behind=behind(a, d),
        cards_needed=cards_needed(a, d),
        to_answer=to_answer(a, d, opening),
        opening=opening,
    )


def battle_figures(state: State, battle: Battle) -> Figures:
    """The figures of the battle in progress."""
    return figures(state, battle.field, battle.attacker, battle.attacker_cards, battle.defender_cards, battle.opening)


def battle_points(state: State, battle: Battle) -> tuple[int, int]:
    """Both sides' points in the battle in progress."""
    ab, db = base_points(state.board, state.owners, battle.field, battle.attacker, battle.defender)
    return points(ab, db, battle.attacker_cards, battle.defender_cards)


def side_to_answer(state: State, battle: Battle) -> Side:
    """Whose card (or stop) the battle waits for."""
    a, d = battle_points(state, battle)
    return to_answer(a, d, battle.opening)


def outlook_table(attacker_points: int, defender_points: int, attacker_max: int, defender_max: int) -> list[list[str]]:
    """``table[i][j]``: the winner (``attacker``/``defender``) if the attacker can still play ``i``
    cards and the defender ``j`` (0 … the maximum each), both answering while they can."""
    return [
        [str(play_out(attacker_points, defender_points, i, j).winner) for j in range(defender_max + 1)]
        for i in range(attacker_max + 1)
    ]


__all__ = [
    "CARD_POINTS",
    "Figures",
    "Outcome",
    "adjacent_shields",
    "base_points",
    "battle_figures",
    "battle_points",
    "behind",
    "cards_needed",
    "figures",
    "leading",
    "outlook_table",
    "play_out",
    "points",
    "side_to_answer",
    "to_answer",
]
