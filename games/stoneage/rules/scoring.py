"""Stone Age scoring: the score track, the final scoring with its full breakdown, the ranking.

The final scoring (S-END-2 … S-END-4) adds to the score track: for each set of different culture
symbols its size squared (duplicates start a second set); each multiplier kind's figures times its
quantity (farmer × agriculture, tool maker × the values of the tools, hut builder × buildings, shaman ×
people); 1 point per resource (food is not a resource); and the resources an unused "any resources"
card still gives (S-CARD-8). :func:`breakdown` is the same arithmetic at any moment — the live
projection the page shows — and exactly the final score once the game is over. The tie-break
(S-END-5) is agriculture + tool values + people; players level on both share a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.stoneage.rules.profile import MULTIPLIERS, RESOURCES, BoxProfile
from games.stoneage.rules.state import PlayerState, State, Tribe


def culture_sets(prof: BoxProfile, cards: Sequence[str]) -> list[list[str]]:
    """The sets of different culture symbols among ``cards``: the first holds every symbol owned,
    the second every symbol owned twice or more, … (S-END-2). Each set lists its symbols in profile
    order."""
    counts: dict[str, int] = {}
    for c in cards:
        sym = prof.card(c).bottom.culture
        if sym:
            counts[sym] = counts.get(sym, 0) + 1
    sets: list[list[str]] = []
    k = 1
    while True:
        row = [s for s in prof.cultures if counts.get(s, 0) >= k]
        if not row:
            return sets
        sets.append(row)
        k += 1


def figures(prof: BoxProfile, cards: Sequence[str]) -> dict[str, int]:
    """Figures of each multiplier kind on ``cards``."""
    out = dict.fromkeys(MULTIPLIERS, 0)
    for c in cards:
        b = prof.card(c).bottom
        if b.multiplier:
            out[b.multiplier] += b.figures
    return out


def tiebreak(p: PlayerState | Tribe) -> int:
    """Agriculture + the values of the tools + people (S-END-5)."""
    return p.agri + sum(p.tools) + p.people


@dataclass(frozen=True, slots=True)
class Breakdown:
    """One player's score: the track now and what the final scoring adds, part by part."""

    seat: int
    name: str
    track: int
    buildings: int
    card_points: int
    starved: int
    sets: tuple[tuple[str, ...], ...]
    culture: int
    multipliers: tuple[tuple[str, int, int, int], ...]
    """(kind, figures, quantity, points) per multiplier kind."""
    resources: int
    any_cards: int
    tiebreak: int
    final: bool

    @property
    def final_part(self) -> int:
        """What the final scoring adds."""
        return self.culture + sum(m[3] for m in self.multipliers) + self.resources + self.any_cards

    @property
    def projected(self) -> int:
        """The score if the game ended now (the final score once it has)."""
        return self.track + self.final_part

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (``Rules.scores``)."""
        return {
            "seat": self.seat,
            "name": self.name,
            "total": self.projected,
            "track": self.track,
            "projected": self.projected,
            "final": self.final,
            "track_parts": {"buildings": self.buildings, "cards": self.card_points, "starved": -10 * self.starved},
            "culture": {
                "sets": [list(s) for s in self.sets],
                "squares": [len(s) ** 2 for s in self.sets],
                "points": self.culture,
            },
            "multipliers": {k: {"figures": f, "quantity": q, "points": pts} for k, f, q, pts in self.multipliers},
            "resources": self.resources,
            "any_cards": self.any_cards,
            "final_part": self.final_part,
            "tiebreak": self.tiebreak,
        }


def quantities(p: PlayerState | Tribe) -> dict[str, int]:
    """What each multiplier kind multiplies (S-END-3)."""
    return {"farmer": p.agri, "toolmaker": sum(p.tools), "hutbuilder": len(p.buildings), "shaman": p.people}


def breakdown(state: State, seat: int) -> Breakdown:
    """The score of ``seat`` with every part of the final scoring."""
    prof = state.profile
    p = state.players[seat]
    sets = culture_sets(prof, p.cards)
    figs = figures(prof, p.cards)
    qty = quantities(p)
    mults = tuple((k, figs[k], qty[k], figs[k] * qty[k]) for k in MULTIPLIERS)
    return Breakdown(
        seat=seat,
        name=state.seats[seat].name,
        track=p.points,
        buildings=sum(pts for _, pts in p.buildings),
        card_points=p.card_points,
        starved=p.starved,
        sets=tuple(tuple(s) for s in sets),
        culture=sum(len(s) ** 2 for s in sets),
        multipliers=mults,
        resources=sum(p.res),
        any_cards=sum(prof.card(c).top.amount for c in p.anyc),
        tiebreak=tiebreak(p),
        final=state.is_over,
    )


def scoreboard(state: State) -> list[Breakdown]:
    """Every player's breakdown, in seat order."""
    return [breakdown(state, i) for i in range(len(state.seats))]


@dataclass(frozen=True, slots=True)
class Place:
    """A place in the ranking; players level on points and tie-break share it."""

    place: int
    seat: int
    name: str
    total: int
    tiebreak: int


def ranking(state: State) -> list[Place]:
    """Players by projected (final, once over) score, then the tie-break (S-END-5)."""
    board = scoreboard(state)
    order = sorted(board, key=lambda b: (-b.projected, -b.tiebreak, b.seat))
    out: list[Place] = []
    for i, b in enumerate(order):
        if i and (b.projected, b.tiebreak) == (order[i - 1].projected, order[i - 1].tiebreak):
            place = out[-1].place
        else:
            place = i + 1
        out.append(Place(place, b.seat, b.name, b.projected, b.tiebreak))
    return out


def final_score(
    prof: BoxProfile,
    cards: Sequence[str],
    agriculture: int,
    tools: Sequence[int],
    buildings: int,
    people: int,
    resources: int,
    track: int = 0,
) -> dict[str, Any]:
    """The final scoring from what a player has, for the calculator (``final`` CLI command): the same
    arithmetic as :func:`breakdown`."""
    sets = culture_sets(prof, cards)
    figs = figures(prof, cards)
    qty = {"farmer": agriculture, "toolmaker": sum(tools), "hutbuilder": buildings, "shaman": people}
    mult = {k: {"figures": figs[k], "quantity": qty[k], "points": figs[k] * qty[k]} for k in MULTIPLIERS}
    culture = sum(len(s) ** 2 for s in sets)
    total = track + culture + sum(m["points"] for m in mult.values()) + resources
    return {
        "track": track,
        "culture": {"sets": sets, "squares": [len(s) ** 2 for s in sets], "points": culture},
        "multipliers": mult,
        "resources": resources,
        "total": total,
        "tiebreak": agriculture + sum(tools) + people,
    }


__all__ = [
    "RESOURCES",
    "Breakdown",
    "Place",
    "breakdown",
    "culture_sets",
    "figures",
    "final_score",
    "quantities",
    "ranking",
    "scoreboard",
    "tiebreak",
]
