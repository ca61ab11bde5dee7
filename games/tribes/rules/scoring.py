"""Scoring: a live breakdown at any moment and the final ranking with tie-breaks (R-END-3..7).

The breakdown is what the scoreboard shows during play: bear teeth collected, the VP the track
markers would score now, and the majority bonuses as they stand. ``standing`` is what a player has
earned so far (bear teeth and track markers: the markers never move back); ``total`` adds the
majorities as they stand — the final score if the game ended now. At the end ``total`` is the final
score, ranked by VP, then more shells, then fewer exhausted tiles; players still level share the
place (R-END-7).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.tribes.rules.state import State

MAJORITY_BONUS = 2
"""R-END-4 / R-END-5: VP for most members placed and for most unexhausted tiles (ties: all)."""


@dataclass(frozen=True, slots=True)
class Breakdown:
    """One player's score, part by part."""

    seat: int
    name: str
    bear_teeth: int  # R-END-6
    offspring: int  # R-END-3 track VP
    movement: int
    exploration: int
    most_members: int  # R-END-4
    most_tiles: int  # R-END-5
    shells: int
    exhausted: int
    members_placed: int
    fresh_tiles: int

    @property
    def tracks(self) -> int:
        """VP from the three scoring tracks."""
        return self.offspring + self.movement + self.exploration

    @property
    def standing(self) -> int:
        """VP earned so far: bear teeth and the track markers (the majorities count at the end)."""
        return self.bear_teeth + self.tracks

    @property
    def total(self) -> int:
        """All VP together: the final score if the game ended now."""
        return self.standing + self.most_members + self.most_tiles

    def to_dict(self) -> dict[str, int | str]:
        """Plain JSON data, with ``tracks``, ``standing`` and ``total`` included."""
        return {
            "seat": self.seat,
            "name": self.name,
            "bear_teeth": self.bear_teeth,
            "offspring": self.offspring,
            "movement": self.movement,
            "exploration": self.exploration,
            "tracks": self.tracks,
            "most_members": self.most_members,
            "most_tiles": self.most_tiles,
            "standing": self.standing,
            "total": self.total,
            "shells": self.shells,
            "exhausted": self.exhausted,
            "members_placed": self.members_placed,
            "fresh_tiles": self.fresh_tiles,
        }


def _all(state: State) -> list[Breakdown]:
    prof = state.profile
    placed = [prof.members_per_player - p.supply for p in state.players]
    fresh = [p.fresh_tiles for p in state.players]
    top_placed, top_fresh = max(placed), max(fresh)
    tracks = {name: prof.track(name) for name in ("offspring", "movement", "exploration")}
    out = []
    for seat, p in enumerate(state.players):
        out.append(
            Breakdown(
                seat=seat,
                name=p.name,
                bear_teeth=p.vp,
                offspring=tracks["offspring"].vp[p.track("offspring")],
                movement=tracks["movement"].vp[p.track("movement")],
                exploration=tracks["exploration"].vp[p.track("exploration")],
                most_members=MAJORITY_BONUS if placed[seat] == top_placed else 0,
                most_tiles=MAJORITY_BONUS if fresh[seat] == top_fresh else 0,
                shells=p.shells,
                exhausted=p.exhausted_tiles,
                members_placed=placed[seat],
                fresh_tiles=fresh[seat],
            )
        )
    return out


def score_breakdown(state: State, seat: int) -> Breakdown:
    """The breakdown of one player (as things stand now)."""
    return _all(state)[seat]


def scoreboard(state: State) -> list[Breakdown]:
    """Every player's breakdown, in seat order."""
    return _all(state)


@dataclass(frozen=True, slots=True)
class Standing:
    """A place in the ranking; ``place`` is shared by players level on every tie-break."""

    place: int
    seat: int
    name: str
    total: int
    shells: int
    exhausted: int


def ranking(state: State) -> list[Standing]:
    """Players by final order (R-END-7): most VP, then more shells, then fewer exhausted tiles."""
    rows = _all(state)
    key = {b.seat: (-b.total, -b.shells, b.exhausted) for b in rows}
    order = sorted(rows, key=lambda b: (key[b.seat], b.seat))
    out: list[Standing] = []
    for i, b in enumerate(order):
        place = out[-1].place if i and key[order[i - 1].seat] == key[b.seat] else i + 1
        out.append(Standing(place, b.seat, b.name, b.total, b.shells, b.exhausted))
    return out
