"""The Observation contract between camera and tracker: JSON round trip, validation, perfect reading
of rendered ground truth."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from games.tribes.rules.game import simulate
from games.tribes.vision.observation import (
    BoardReading,
    HexReading,
    Observation,
    ObservationError,
    SlotReading,
    observation_from_truth,
)


def test_round_trip():
    obs = Observation(
        frame=3,
        time=0.1,
        markers=(0, 1, 5),
        hidden=("land:2",),
        hexes=(HexReading(0, (0, 0), True, "goat", False, {"red": 2}, 0.9, 0.8, 0.7),),
        row=(SlotReading(1, "off", False, 1, 0.99, 0.5),),
    )
    back = Observation.from_dict(json.loads(json.dumps(obs.to_dict())))
    assert back == obs
    assert back.land(0)[(0, 0)].members == {"red": 2}


def test_a_hex_s_rivals_round_trip_and_default_to_none():
    """A hex names the other readings its reader weighed (``rivals``: no tile, the back, a resource,
    each with its probability); they survive the JSON round trip, a document without them has none,
    and a hex without rivals writes none (documents of older readers are unchanged)."""
    weighed = {"exhausted": 0.38, "empty": 0.005, "goat": 0.01}
    obs = Observation(
        hexes=(
            HexReading(0, (1, 0), True, "gold", False, {}, 0.99, 0.6, 1.0, weighed),
            HexReading(0, (0, 0), True, "goat", False, {"red": 1}, 0.9, 0.8, 0.7),
        )
    )
    doc = json.loads(json.dumps(obs.to_dict()))
    assert doc["hexes"][0]["rivals"] == weighed and "rivals" not in doc["hexes"][1]
    back = Observation.from_dict(doc)
    assert back == obs and back.hexes[0].rivals == weighed and back.hexes[1].rivals == {}
    # an achievement position names its rivals the same way ("back": face down)
    board = Observation(board=(BoardReading(2, 1, "leder", (), 0.7, 1.0, 0.99, {"kaese": 0.01, "back": 0.2}),))
    doc = json.loads(json.dumps(board.to_dict()))
    assert doc["board"][0]["rivals"] == {"kaese": 0.01, "back": 0.2}
    assert Observation.from_dict(doc) == board


def test_side_and_filled_confidences_round_trip_and_default_to_one():
    """R-ACH-8 / R-ACH-6: the confidence in a board tile's side (face_conf) and in a row slot holding
    a tile at all (filled_conf) are read apart from which tile it is; they survive the JSON round
    trip, and a document without them (an older reader) means 1.0."""
    obs = Observation(
        row=(SlotReading(7, "barter", True, 0, 0.77, 1.0, 0.99), SlotReading(8, None, False, 0, 0.9, 1.0, 0.6)),
        board=(BoardReading(2, 1, "leder", (), 0.77, 1.0, 0.99), BoardReading(3, 1, None, (), 0.5, 0.8, 0.95)),
    )
    doc = json.loads(json.dumps(obs.to_dict()))
    assert [s["filled_conf"] for s in doc["row"]] == [0.99, 0.6]
    assert [b["face_conf"] for b in doc["board"]] == [0.99, 0.95]
    back = Observation.from_dict(doc)
    assert back == obs
    assert back.row[0].tile_conf == 0.77 and back.row[0].filled_conf == 0.99
    assert back.board[0].tile_conf == 0.77 and back.board[0].face_conf == 0.99
    for s in doc["row"]:
        del s["filled_conf"]
    for b in doc["board"]:
        del b["face_conf"]
    old = Observation.from_dict(doc)
    assert [s.filled_conf for s in old.row] == [1.0, 1.0]
    assert [b.face_conf for b in old.board] == [1.0, 1.0]
    assert [s.tile_conf for s in old.row] == [0.77, 0.9]  # the other confidences are kept
    assert [(b.tile_conf, b.stones_conf) for b in old.board] == [(0.77, 1.0), (0.5, 0.8)]


@pytest.mark.parametrize(
    ("patch", "field", "reason"),
    [
        ({"format": "x"}, "format", "must be 'tribes-observation'"),
        ({"hexes": [{"seat": 0, "hex": [0, 0]}]}, "hexes[0].tile", "is missing"),
        ({"hexes": [{"seat": 0, "hex": [0], "tile": True}]}, "hexes[0].hex", "pair of integers"),
        ({"row": [{"slot": 1, "tile": "off", "tile_conf": 1.5}]}, "row[0].tile_conf", "confidence between 0 and 1"),
        ({"row": [{"slot": 1, "tile": "off", "filled_conf": 1.5}]}, "row[0].filled_conf", "confidence between 0 and 1"),
        ({"row": [{"slot": 1, "tile": None, "filled_conf": -0.1}]}, "row[0].filled_conf", "confidence between 0 and 1"),
        ({"board": [{"era": 2, "col": 1, "tile": "leder", "face_conf": 1.5}]}, "board[0].face_conf", "between 0 and 1"),
        ({"board": [{"era": 2, "col": 1, "tile": None, "face_conf": -0.1}]}, "board[0].face_conf", "between 0 and 1"),
        ({"board": [{"era": 2, "col": 1, "tile": None, "face_conf": "high"}]}, "board[0].face_conf", "between 0 and 1"),
        ({"tracks": [{"colour": "red", "track": "speed", "space": 1}]}, "tracks[0].track", "must be one of"),
        (
            {"hexes": [{"seat": 0, "hex": [0, 0], "tile": True, "rivals": {"goat": 1.2}}]},
            "hexes[0].rivals.goat",
            "confidence between 0 and 1",
        ),
        ({"hexes": [{"seat": 0, "hex": [0, 0], "tile": True, "rivals": ["goat"]}]}, "hexes[0].rivals", "object"),
        (
            {"hexes": [{"seat": 0, "hex": [0, 0], "tile": True}, {"seat": 0, "hex": [0, 0], "tile": False}]},
            "hexes[1].hex",
            "read twice",
        ),
    ],
)
def test_validation_names_the_field(patch, field, reason):
    doc = {"format": "tribes-observation", "version": 1, **patch}
    with pytest.raises(ObservationError) as err:
        Observation.from_dict(doc)
    assert err.value.field == field and reason in str(err.value)


def test_module_imports_no_heavy_packages():
    code = "import sys, games.tribes.vision.observation; print('cv2' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_perfect_reading_of_a_rendered_state_matches_the_state():
    """observation_from_truth on a rendered position gives back the rules state's facts."""
    game = simulate(3, 4, "random")
    state = game.states[150]
    truth = _render_truth(state)
    obs = observation_from_truth(truth)
    for seat, p in enumerate(state.players):
        land = obs.land(seat)
        for hx, t in p.land.items():
            if hx not in land:  # outside the picture: reported as a hidden region
                assert f"land:{seat}" in obs.hidden
                continue
            r = land[hx]
            assert r.tile and r.resource == t.resource and r.exhausted == t.exhausted
            assert sum(r.members.values()) == t.members
    assert [s.tile for s in obs.row if s.tile] == [t.tile for t in state.row]


def _render_truth(state):
    from games.tribes.sim.packs import builtin_pack  # heavy imports only in this test
    from games.tribes.sim.render import Renderer
    from games.tribes.vision.layout import default_layout
    from sim.camera import Camera

    layout = default_layout()
    renderer = Renderer(layout, builtin_pack("classic", state.profile))
    return renderer.truth_of(state, Camera.framing(layout))
