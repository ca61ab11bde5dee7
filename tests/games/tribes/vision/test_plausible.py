"""Tiles no one could have laid are not reported as confident (games.tribes.vision.readers.plausible):
more tiles than the box holds, tiles out of reach of a land, more new tiles than one exploration
lays or farther from the known land — synthetic readings, and a rendered table whose light fools
the reader."""

from __future__ import annotations

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.profile import default_profile
from games.tribes.sim.evaluation import CONFIDENT_PHANTOMS, PHANTOM_TILES, score
from games.tribes.vision.layout import default_layout
from games.tribes.vision.observation import HexReading, observation_from_truth
from games.tribes.vision.readers.plausible import CAP, LandSupport
from games.tribes.vision.recognizer import Recognizer

TRIANGLE = [(0, 0), (1, 0), (0, 1)]


def _tiles(seat: int, hexes: list[tuple[int, int]]) -> list[HexReading]:
    return [HexReading(seat, h, True, "goat", tile_conf=0.97, resource_conf=0.95, members_conf=0.9) for h in hexes]


def _confident(readings: list[HexReading]) -> set[tuple[int, tuple[int, int]]]:
    return {(r.seat, r.hex) for r in readings if r.tile and r.tile_conf > CAP}


def test_more_tiles_than_the_box_holds_are_capped_the_farthest_first():
    prof = default_profile()
    box = prof.tiles_per_resource * len(prof.resources)
    support = LandSupport(prof, [0, 1, 2, 3])
    line = TRIANGLE + [(q, 0) for q in range(2, 60)]  # a chain of tiles across bare table
    out = support.check(_tiles(0, line) + _tiles(1, TRIANGLE))
    sure = _confident(out)
    assert (1, (0, 1)) in sure and len([s for s in sure if s[0] == 0]) == box - 3 * 3
    assert (0, (59, 0)) not in sure and (0, (2, 0)) in sure  # the far end goes first
    capped = next(r for r in out if r.hex == (59, 0))
    assert capped.tile and max(capped.tile_conf, capped.resource_conf, capped.members_conf) <= CAP
    # a tile no chain of tiles joins to the starting triangle lies nowhere near the land
    out = support.check(_tiles(0, [*TRIANGLE, (5, 5)]))
    assert (0, (5, 5)) not in _confident(out) and (0, (0, 0)) in _confident(out)


def test_a_stream_knows_each_land_and_bounds_what_one_move_can_add():
    support = LandSupport(default_profile(), [0, 1], stream=True)
    first = support.check(_tiles(0, [*TRIANGLE, (2, 0), (2, -1)]) + _tiles(1, TRIANGLE))
    assert len(_confident(first)) == 8 and support.known[0] >= {(2, 0), (2, -1)}
    step = support.step  # the largest exploration and a little slack
    chain = [(q, 0) for q in range(3, 3 + step + 4)]
    out = support.check(_tiles(0, [*TRIANGLE, (2, 0), (2, -1), *chain]) + _tiles(1, TRIANGLE), settled=True)
    sure = _confident(out)
    assert {(0, h) for h in chain[:step]} <= sure and not {(0, h) for h in chain[step:]} & sure
    # a land hidden in a frame teaches nothing; an unsettled frame neither
    before = set(support.known[1])
    support.check(_tiles(1, [*TRIANGLE, (2, 0)]), hidden={"land:1"})
    support.check(_tiles(1, [*TRIANGLE, (-1, 0)]), settled=False)
    assert support.known[1] == before
    support.reset()
    assert support.known == {}


def test_phantoms_under_a_light_that_fools_the_reader_are_not_confident_beyond_one_move():
    # the reader told not to follow the light (as before it did): bare table reads as tiles
    rec = Recognizer(
        default_layout(),
        default_profile(),
        cs.enrollment(),
        stream=True,
        quiet=0.0,
        read_unsettled=True,
        follow_light=False,
    )
    rec.read(cs.frame(40).image)  # a settled frame under the enrollment's light: the lands are learned
    fr = cs.renderer().render(cs.game().states[40], cs.camera(), cs.NEW_LIGHT, cs.FX, frame_seed=3)
    sc = score(rec.read(fr.image), observation_from_truth(fr.truth))
    phantoms = sc[PHANTOM_TILES][1] - sc[PHANTOM_TILES][0]
    confident = sc[CONFIDENT_PHANTOMS][1] - sc[CONFIDENT_PHANTOMS][0]
    assert phantoms >= 100 and rec.support.capped >= phantoms - 4 * rec.support.step
    assert confident <= 4 * rec.support.step  # at most one exploration's worth per land
