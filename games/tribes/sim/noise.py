"""A noise model for observations: what an imperfect camera pipeline does to a perfect reading.

Used by the tests, the evaluation (``benchmarks/tracker_eval.py``) and the demo to turn the perfect
reading of a rendered frame (:func:`vision.observation.observation_from_truth`) into something like
a real recognizer's output:

- **confidences**: right readings get a confidence drawn from ``conf_right``, wrong ones mostly a
  lower one from ``conf_wrong`` (a recognizer that knows when it is unsure), a share
  ``confident_wrong`` of them as high as right ones;
- **flipped facts**, independently per frame with per-kind rates (``rates``): a tile read as another
  resource or as exhausted, a member count off by one or a member read in another player's colour,
  a track marker one space off, a stone read in another colour or missed, shells off by one;
- **persistent misreadings**: with probability ``persistent`` per fact a misreading that lasts as long
  as the table does not change (the same picture gives the same mistake);
- **dropped readings**: a hex not read at all in a frame (``drop``).

The default rates (:data:`PRESETS` ``"realistic"``) are the per-frame accuracies the camera pipeline
targets (issue 6): 99.8% per hex tile, 99.5% per member count, shells, stones and markers, the
action row's order exact. ``"heavy"`` is four times worse.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.tribes.vision.observation import (
    BoardReading,
    HexReading,
    Observation,
    ShellReading,
    SlotReading,
    TrackReading,
)

RESOURCES = ("goat", "horse", "wheat", "gold", "incense")


@dataclass(frozen=True)
class NoiseModel:
    """See the module docstring. ``rates``: per-frame probability that a fact of that kind is misread
    (kinds: tile, members, slot, slotshells, stones, track, shells)."""

    rates: dict[str, float] = field(default_factory=dict)
    persistent: float = 0.0
    drop: float = 0.0
    conf_right: tuple[float, float] = (0.9, 1.0)
    conf_wrong: tuple[float, float] = (0.5, 0.85)
    confident_wrong: float = 0.1
    colours: tuple[str, ...] = ("red", "blue", "yellow", "black")

    def scaled(self, factor: float) -> NoiseModel:
        """The same model with every rate multiplied by ``factor``."""
        return replace(
            self,
            rates={k: min(1.0, v * factor) for k, v in self.rates.items()},
            persistent=min(1.0, self.persistent * factor),
            drop=min(1.0, self.drop * factor),
        )


PRESETS: dict[str, NoiseModel] = {
    "none": NoiseModel(conf_right=(1.0, 1.0)),
    "realistic": NoiseModel(
        rates={
            "tile": 0.002,
            "members": 0.005,
            "slot": 0.0,
            "slotshells": 0.005,
            "stones": 0.005,
            "track": 0.005,
            "shells": 0.005,
        },
        persistent=0.001,
        drop=0.002,
    ),
}
PRESETS["heavy"] = PRESETS["realistic"].scaled(4.0)


class Noise:
    """Applies a :class:`NoiseModel` to observations, reproducibly from ``seed``."""

    def __init__(self, model: NoiseModel, seed: int = 0, colours: Sequence[str] | None = None) -> None:
        self.model = replace(model, colours=tuple(colours)) if colours else model
        self.rng = random.Random(seed)
        self.seed = seed
        self._scene: Hashable = None
        self._persistent: dict[tuple[Any, ...], int] = {}

    def apply(self, obs: Observation, scene: Hashable = None) -> Observation:
        """A noisy copy of ``obs``. ``scene`` identifies what lies on the table (frames of the same
        scene share their persistent misreadings); None: no persistent misreadings."""
        if not obs.settled or not obs.registered:
            return obs
        m = self.model
        if scene != self._scene:
            self._scene = scene
            self._persistent = {}
            if scene is not None and m.persistent > 0:
                prng = random.Random(f"{self.seed}/{scene}")
                for key in _fact_keys(obs):
                    if m.rates.get(key[0], 0.0) > 0 and prng.random() < m.persistent:
                        self._persistent[key] = prng.randrange(1 << 30)
        hexes = []
        for h in obs.hexes:
            if m.drop and self.rng.random() < m.drop:
                continue
            hexes.append(self._hex(h))
        return replace(
            obs,
            hexes=tuple(hexes),
            row=tuple(self._slot(s) for s in obs.row),
            board=tuple(self._board(b) for b in obs.board),
            tracks=tuple(self._track(t) for t in obs.tracks),
            shells=tuple(self._shells(s) for s in obs.shells),
        )

    # --- per fact --------------------------------------------------------------------------------
    def _wrong(self, kind: str, key: tuple[Any, ...]) -> random.Random | None:
        """A generator for the misreading of this fact this frame, or None when it is read right."""
        seed = self._persistent.get(key)
        if seed is not None:
            return random.Random(seed)
        rate = self.model.rates.get(kind, 0.0)
        if rate and self.rng.random() < rate:
            return random.Random(self.rng.randrange(1 << 30))
        return None

    def _conf(self, wrong: random.Random | None) -> float:
        m = self.model
        if wrong is None or wrong.random() < m.confident_wrong:
            lo, hi = m.conf_right
        else:
            lo, hi = m.conf_wrong
        return round(self.rng.uniform(lo, hi), 3)

    def _hex(self, h: HexReading) -> HexReading:
        wt = self._wrong("tile", ("tile", h.seat, h.hex))
        tile, res, exh = h.tile, h.resource, h.exhausted
        if wt is not None:
            if tile and wt.random() < 0.5:
                exh = not exh
            elif tile:
                res = wt.choice([r for r in RESOURCES if r != res])
            else:
                tile, res = True, wt.choice(RESOURCES)
        wm = self._wrong("members", ("members", h.seat, h.hex))
        members = dict(h.members)
        if wm is not None:
            if members and wm.random() < 0.3:
                colour = wm.choice(sorted(members))
                other = wm.choice([c for c in self.model.colours if c != colour])
                members[other] = members.pop(colour)
            elif members:
                colour = wm.choice(sorted(members))
                members[colour] = max(0, members[colour] + wm.choice((-1, 1)))
            elif tile:
                members[wm.choice(self.model.colours)] = 1
            members = {c: n for c, n in members.items() if n}
        tc = self._conf(wt)
        return replace(
            h,
            tile=tile,
            resource=res,
            exhausted=exh,
            members=members,
            tile_conf=tc,
            resource_conf=tc,
            members_conf=self._conf(wm),
        )

    def _slot(self, s: SlotReading) -> SlotReading:
        ws = self._wrong("slotshells", ("slotshells", s.slot))
        shells = s.shells
        if ws is not None and s.tile is not None:
            shells = max(0, shells + ws.choice((-1, 1)))
        wt = self._wrong("slot", ("slot", s.slot))
        tile = s.tile
        if wt is not None and tile is not None:
            tile = tile + "?"  # an unknown tile: the row is read as an assignment, rarely wrong
        return replace(s, tile=tile, shells=shells, tile_conf=self._conf(wt), shells_conf=self._conf(ws))

    def _board(self, b: BoardReading) -> BoardReading:
        w = self._wrong("stones", ("stones", b.era, b.col))
        stones = list(b.stones)
        if w is not None:
            if stones and w.random() < 0.5:
                i = w.randrange(len(stones))
                stones[i] = w.choice([c for c in self.model.colours if c != stones[i]])
            elif stones:
                stones.pop()
            elif b.tile is not None:
                stones.append(w.choice(self.model.colours))
        return replace(b, stones=tuple(stones), stones_conf=self._conf(w))

    def _track(self, t: TrackReading) -> TrackReading:
        w = self._wrong("track", ("track", t.colour, t.track))
        space = t.space
        if w is not None:
            space = max(0, space + w.choice((-1, 1)))
        return replace(t, space=space, conf=self._conf(w))

    def _shells(self, s: ShellReading) -> ShellReading:
        w = self._wrong("shells", ("shells", s.seat))
        count = s.count
        if w is not None:
            count = max(0, count + w.choice((-1, 1)))
        return replace(s, count=count, conf=self._conf(w))


def _fact_keys(obs: Observation) -> list[tuple[Any, ...]]:
    keys: list[tuple[Any, ...]] = []
    for h in obs.hexes:
        keys.append(("tile", h.seat, h.hex))  # the kind first: persistent misreadings follow the rates
        keys.append(("members", h.seat, h.hex))
    keys.extend(("slotshells", s.slot) for s in obs.row)
    keys.extend(("slot", s.slot) for s in obs.row)
    keys.extend(("stones", b.era, b.col) for b in obs.board)
    keys.extend(("track", t.colour, t.track) for t in obs.tracks)
    keys.extend(("shells", s.seat) for s in obs.shells)
    return keys
