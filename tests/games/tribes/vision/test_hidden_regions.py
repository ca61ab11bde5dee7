"""Hidden regions report no facts (docs/observation.md): a land the camera could not read in full —
part of it beyond the picture's edge, an arm reaching in over it — is listed hidden and none of its
hexes is reported; a hex beyond the play area that the camera does not see hides nothing."""

from __future__ import annotations

import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.profile import default_profile
from games.tribes.vision.layout import default_layout
from games.tribes.vision.observation import (
    BoardReading,
    HexReading,
    Observation,
    ShellReading,
    SlotReading,
    TrackReading,
    observation_from_truth,
)
from games.tribes.vision.recognizer import Recognizer
from sim.camera import Camera
from sim.hands import Hand


def test_an_observation_without_the_facts_of_its_hidden_regions():
    obs = Observation(
        hidden=("land:0", "row", "shells:1"),
        hexes=(HexReading(0, (0, 0), True, "goat"), HexReading(1, (0, 0), True, "horse")),
        row=(SlotReading(1, "off"),),
        board=(BoardReading(1, 0, "jagen"),),
        tracks=(TrackReading("red", "offspring", 2),),
        shells=(ShellReading(0, 3), ShellReading(1, 2)),
    )
    out = obs.without_hidden_facts()
    assert [h.seat for h in out.hexes] == [1] and out.row == () and [s.seat for s in out.shells] == [0]
    assert out.board == obs.board and out.tracks == obs.tracks and out.hidden == obs.hidden
    assert Observation(hexes=obs.hexes).without_hidden_facts().hexes == obs.hexes


@pytest.fixture(scope="module")
def cut_frame():
    """The camera sees the table only up to seat 0's land (its near part is beyond the picture's
    lower edge), and seat 0's arm reaches in over the land."""
    base = cs.camera()
    cam = Camera.looking_at((600.0, 320.0), base.height_mm, width=1280, height=720, tilt=8, azimuth=180, fov=70)
    seat = default_layout().seats[0]
    hand = Hand(0, (seat.area_center[0] + 40.0, seat.area_center[1] - 30.0), 70.0)
    return cs.renderer().render(cs.game().states[60], cam, cs.LIGHT, cs.FX, hands=[hand], frame_seed=5)


def test_a_land_cut_off_by_the_picture_under_an_arm_is_hidden_and_reports_nothing(cut_frame):
    rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), stream=False)
    obs = rec.read(cut_frame.image)
    truth = observation_from_truth(cut_frame.truth)
    assert obs.registered and "land:0" in obs.hidden
    assert any(h.seat == 0 and h.tile for h in truth.hexes)  # some of its tiles are in the picture
    assert not any(h.seat == 0 for h in obs.hexes)  # ... but the land was not read in full
    # the other lands are read, and read right
    read = {(h.seat, h.hex): h for h in obs.hexes}
    for h in truth.hexes:
        if h.seat != 0 and h.tile:
            r = read[(h.seat, h.hex)]
            assert r.tile and r.exhausted == h.exhausted and (h.exhausted or r.resource == h.resource)
    assert not any(r.startswith("land:") and r != "land:0" for r in obs.hidden)


def test_hexes_beyond_the_play_area_out_of_the_picture_hide_nothing():
    # a camera framing the play area with no margin: seat 2's land has grown to the table's edge,
    # and the walk looks past it (to follow long lands) where the picture ends
    cam = Camera.framing(default_layout(), width=1280, height=720, margin=0.0)
    fr = cs.renderer().render(cs.game().states[120], cam, cs.LIGHT, cs.FX, frame_seed=5)
    rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), stream=False)
    obs = rec.read(fr.image)
    assert not any(r.startswith("land:") for r in obs.hidden)
    truth = observation_from_truth(fr.truth)
    read = {(h.seat, h.hex): h for h in obs.hexes}
    tiles = [h for h in truth.hexes if h.tile]
    assert {h.seat for h in tiles} == {0, 1, 2, 3}
    assert sum(1 for h in tiles if (r := read.get((h.seat, h.hex))) is not None and r.tile) >= len(tiles) - 1
