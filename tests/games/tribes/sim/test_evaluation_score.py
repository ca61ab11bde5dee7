"""The evaluation's scoring (games.tribes.sim.evaluation.score): facts in the truth, and what was read
where nothing lies — phantom tiles (all, and confident ones), members on empty places, shells on empty
row slots — counted as errors of kinds of their own."""

from __future__ import annotations

from games.tribes.sim.evaluation import (
    CONFIDENT_PHANTOMS,
    PHANTOM_MEMBERS,
    PHANTOM_SHELLS,
    PHANTOM_TILES,
    score,
)
from games.tribes.vision.observation import HexReading, Observation, SlotReading


def _truth() -> Observation:
    return Observation(
        hexes=(
            HexReading(0, (0, 0), True, "goat", members={"red": 2}),
            HexReading(0, (1, 0), True, "horse"),
            HexReading(0, (0, 1), True, "wheat"),
            HexReading(0, (2, 0), False),
        ),
        row=(SlotReading(1, "off", shells=1), SlotReading(2, "mov"), SlotReading(3, None)),
    )


def test_a_perfect_reading_has_no_phantoms():
    t = _truth()
    sc = score(t, t)
    assert all(ok == tot for ok, tot in sc.values())
    assert sc[PHANTOM_TILES] == (1, 1)  # the one empty hex the truth lists
    assert sc[PHANTOM_SHELLS] == (1, 1)  # the one empty row slot


def test_tiles_read_where_the_truth_has_none_are_phantoms_even_beyond_the_truths_hexes():
    t = _truth()
    read = Observation(
        hexes=(
            *t.hexes[:3],
            HexReading(0, (2, 0), True, "horse", tile_conf=0.97),  # listed empty by the truth
            HexReading(0, (5, 5), True, "horse", members={"red": 1}, tile_conf=0.4),  # not listed at all
            HexReading(0, (6, 5), False),
        ),
        row=(SlotReading(1, "off", shells=1), SlotReading(2, "mov"), SlotReading(3, "?", True, shells=2)),
    )
    sc = score(read, t)
    assert sc["tile type per hex"] == (3, 4)  # only the listed empty hex is in the truth's facts
    assert sc[PHANTOM_TILES] == (1, 3)  # (2,0) and (5,5) wrong; (6,5) seen empty
    assert sc[CONFIDENT_PHANTOMS] == (2, 3)  # (5,5) is reported unsure
    assert sc[PHANTOM_MEMBERS] == (2, 3)
    assert sc[PHANTOM_SHELLS] == (0, 1)


def test_hexes_of_a_land_partly_out_of_view_in_the_truth_are_not_judged_beyond_what_it_lists():
    t = Observation(hexes=_truth().hexes, hidden=("land:0",))
    read = Observation(hexes=(*_truth().hexes, HexReading(0, (7, 7), True, "gold")))
    assert score(read, t)[PHANTOM_TILES] == (1, 1)  # (7,7) may be a tile the truth did not see
