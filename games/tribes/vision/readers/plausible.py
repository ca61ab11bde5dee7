"""What could lie on the lands: a tile read where nothing could have put it is never reported as
confident.

The land reader counts what it sees; when something fools it — a light it was not enrolled under,
an arm reaching over the table, a table texture that looks like tile art — it finds tiles where
none lie, and as it walks on from every tile found, such a phantom pulls its neighbours in: a
chain of confident tiles across bare table. This stage holds the land reading against what the
rules allow and caps the confidence of tiles no one could have laid (``tile_conf``,
``resource_conf`` and ``members_conf`` at most :data:`CAP`, and the reading's rivals dropped; a
reading at 0.5 or below without rivals tells the tracker nothing, :mod:`tracker.evidence`); the tile
itself is still reported, so a reading that is merely surprising is not lost.

* **Where a land can reach.** Every land starts as a triangle (R-SET-3) and grows by tiles laid
  next to it (R-ACT-EXP-1), so its tiles are reached from the starting triangle through tiles. A
  tile's *distance* is the number of tiles on the shortest such path from the seat's **known land**
  — the starting triangle, and in a stream also every tile read confidently in an earlier settled
  frame — to it. An exploration lays at most as many tiles as the highest Exploration intensity
  (the box profile's track), so in a stream a tile farther than that (plus :data:`STEP_SLACK`) from
  the known land, or more new tiles than that on one land, could not have been laid since the last
  settled frame (the farthest new tiles are capped); one not reached at all lies nowhere near the
  land.
* **What the box holds.** The box holds ``tiles_per_resource`` tiles of each resource; every other
  land holds at least its three starting tiles. A land read with more tiles than that leaves over,
  or all lands together with more than the box, has phantoms: the farthest tiles beyond the count
  are capped.

A single photo knows only the starting triangles (and the box); a stream learns each land as it is
read. The known land of a seat is only ever added to (lands grow; exhausted tiles stay), from
settled frames in which the land was not hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from games.tribes.rules.hexgrid import START_TRIANGLE, neighbours
from games.tribes.rules.profile import BoxProfile
from games.tribes.vision.layout import Hex
from games.tribes.vision.observation import HexReading

CAP = 0.5
"""The highest confidence of a tile that could not lie where it was read."""
KNOWN = 0.9
"""A tile read at least this confidently (tile and resource) in a settled frame joins the known land."""
STEP_SLACK = 2
"""Tiles more than the largest exploration allowed beyond the known land in one frame (two moves on
one land between settled frames, a tile read late)."""


class LandSupport:
    """Caps the confidence of land tiles no one could have laid (see the module docstring).

    ``seats`` are the seats in play; ``stream`` True learns each seat's known land from settled
    frames (a still recognizer knows only the starting triangles)."""

    def __init__(self, profile: BoxProfile, seats: Sequence[int], stream: bool = False) -> None:
        self.seats = list(seats)
        self.box = profile.tiles_per_resource * len(profile.resources)
        intensity = profile.track("exploration").intensity or (1,)
        self.step = max(intensity) + STEP_SLACK
        self.stream = stream
        self.known: dict[int, set[Hex]] = {}
        self.capped = 0
        """Tiles capped in the last frame."""

    def reset(self) -> None:
        """Forget the known lands (a new game, another table)."""
        self.known.clear()

    def check(
        self, readings: Sequence[HexReading], hidden: Iterable[str] = (), settled: bool = True
    ) -> list[HexReading]:
        """The readings with the confidence of impossible tiles capped; in a stream, a settled
        frame's confident tiles join the known land of every seat not ``hidden``."""
        hid = set(hidden)
        tiles: dict[int, dict[Hex, int]] = {}
        for i, r in enumerate(readings):
            if r.tile:
                tiles.setdefault(r.seat, {})[r.hex] = i
        cap: set[int] = set()
        ranked: list[tuple[float, int, Hex, int]] = []  # (distance, seat, hex, index): the box's count
        for seat, by_hex in tiles.items():
            known = self.known.get(seat, set())
            dist = _distances(set(by_hex), set(START_TRIANGLE) | known)
            limit = self.step if known else float("inf")
            new = 0
            for h, i in sorted(by_hex.items(), key=lambda kv: (dist.get(kv[0], float("inf")), kv[0])):
                d = dist.get(h, float("inf"))
                new += int(h not in known and h not in START_TRIANGLE)
                if d > limit or new > limit:
                    cap.add(i)
                ranked.append((d, seat, h, i))
        # what the box holds: per land, and for all lands together (the farthest tiles go first)
        others = 3 * max(len(self.seats) - 1, 0)
        per_seat: dict[int, int] = {}
        for total, (d, seat, _, i) in enumerate(sorted(ranked), start=1):
            per_seat[seat] = per_seat.get(seat, 0) + 1
            if d == float("inf") or per_seat[seat] > self.box - others or total > self.box:
                cap.add(i)
        out = list(readings)
        for i in cap:
            r = out[i]
            out[i] = replace(
                r,
                tile_conf=min(r.tile_conf, CAP),
                resource_conf=min(r.resource_conf, CAP),
                members_conf=min(r.members_conf, CAP),
                rivals={},
            )
        self.capped = len(cap)
        if self.stream and settled:
            for seat in tiles:
                if f"land:{seat}" not in hid:
                    sure = {
                        r.hex for r in out if r.seat == seat and r.tile and min(r.tile_conf, r.resource_conf) >= KNOWN
                    }
                    self.known.setdefault(seat, set()).update(sure)
        return out


def _distances(tiles: set[Hex], support: set[Hex]) -> dict[Hex, float]:
    """Per tile, the number of tiles on the shortest path through ``tiles`` from a tile of
    ``support`` (0 for those themselves)."""
    dist: dict[Hex, float] = {h: 0.0 for h in tiles & support}
    frontier = list(dist)
    while frontier:
        nxt = []
        for h in frontier:
            for n in neighbours(h):
                if n in tiles and n not in dist:
                    dist[n] = dist[h] + 1
                    nxt.append(n)
        frontier = nxt
    return dist
