"""Enrollment: learned from rendered setup frames, saved and loaded unchanged, and broken files fail
with a clear error naming the file."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.profile import default_profile
from games.tribes.vision.enrollment import Enroller, Enrollment, labels_from_state
from games.tribes.vision.layout import default_layout
from games.tribes.vision.observation import Observation
from vision.errors import EnrollmentError, FrameError


def test_enrollment_learns_tiles_colours_and_table():
    enr = cs.enrollment()
    assert sorted(enr.seats.values()) == ["black", "blue", "red", "yellow"]
    hex_classes = set(enr.classes("hex"))
    assert {"empty", "exhausted"} | {f"resource:{r}" for r in default_profile().resources} <= hex_classes
    assert {f"action:{t.id}" for t in default_profile().action_tiles} <= set(enr.classes("row"))
    assert "empty" in enr.classes("row") and "back:2" in enr.classes("board") and "back:3" in enr.classes("board")
    assert enr.missing(default_profile()) == []
    # the measured colours are in the right part of colour space (normalised Lab)
    red, blue, yellow, black = (enr.colours[c] for c in ("red", "blue", "yellow", "black"))
    assert red[1] > 25 and blue[2] < -20 and yellow[2] > 40 and black[0] < 30
    assert enr.shell[0] > 65 and abs(enr.shell[1]) < 12  # light, nearly neutral
    windows = enr.windows["hex"]
    assert windows.shape[1:] == (40, 40, 3) and len(windows) == len(enr.labels["hex"])


def test_enrollment_save_load_round_trip(tmp_path):
    enr = cs.enrollment()
    js, npz = enr.save(tmp_path / "box")
    assert js.name == "box.json" and npz.name == "box.npz"
    back = Enrollment.load(js)
    assert back.seats == enr.seats and back.labels == enr.labels and back.norm == enr.norm
    for g in enr.windows:
        assert np.array_equal(back.windows[g], enr.windows[g])
    for c in enr.colours:
        assert np.allclose(back.colours[c], enr.colours[c], atol=1e-3)


def test_broken_enrollment_files_name_the_problem(tmp_path):
    enr = cs.enrollment()
    js, npz = enr.save(tmp_path / "box.json")
    with pytest.raises(EnrollmentError, match="missing: no such enrollment file"):
        Enrollment.load(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(EnrollmentError, match=r"bad.json: line 1: not valid JSON"):
        Enrollment.load(bad)
    doc = json.loads(js.read_text())
    doc["format"] = "something-else"
    bad.write_text(json.dumps(doc))
    with pytest.raises(EnrollmentError, match="format: must be 'tribes-enrollment'"):
        Enrollment.load(bad)
    doc = json.loads(js.read_text())
    doc["colours"]["red"] = [1, 2]
    bad.write_text(json.dumps(doc))
    with pytest.raises(EnrollmentError, match=r"colours\.red: must be a list of 3 numbers"):
        Enrollment.load(bad)
    doc = json.loads(js.read_text())
    doc["labels"]["hex"] = doc["labels"]["hex"][:-1]
    bad.write_text(json.dumps(doc))
    with pytest.raises(EnrollmentError, match=r"holds \d+ windows for \d+ labels"):
        Enrollment.load(bad)
    npz.unlink()
    with pytest.raises(EnrollmentError, match=r"box\.npz: missing"):
        Enrollment.load(js)
    npz.write_bytes(b"garbage")
    with pytest.raises(EnrollmentError, match="cannot read the example windows"):
        Enrollment.load(js)


def test_enrolling_needs_a_registered_frame_and_an_image():
    en = Enroller(default_layout(), default_profile())
    obs, seats = labels_from_state(cs.game().states[1])
    with pytest.raises(EnrollmentError, match="the table was not found"):
        en.add_frame(np.full((720, 1280, 3), 120, np.uint8), obs, seats, "blank.png")
    with pytest.raises(FrameError, match="8-bit"):
        en.add_frame(np.zeros((720, 1280, 3), np.float32), obs, seats)
    with pytest.raises(EnrollmentError, match="no frame was added"):
        en.build()
    with pytest.raises(EnrollmentError, match="seat 7 is not a seat"):
        en.add_frame(cs.frame(1).image, Observation(), {7: "red"}, "setup")
