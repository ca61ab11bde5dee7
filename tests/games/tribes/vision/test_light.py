"""Light that changes after enrollment (vision.light): the light field fitted from reference points of
bare table, the patch checked against the table beside it, and a rendered table read under another
light than it was enrolled in — tiles and stones read right, no tile read on bare table."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.profile import default_profile
from games.tribes.sim.evaluation import CONFIDENT_PHANTOMS, PHANTOM_TILES, score
from games.tribes.vision.enrollment import Enrollment
from games.tribes.vision.layout import default_layout
from games.tribes.vision.observation import observation_from_truth
from games.tribes.vision.recognizer import Recognizer
from vision.colour import ColourNorm
from vision.light import LightTracker, fit_light_field

CENTRE, SCALE = (600.0, 500.0), (600.0, 500.0)


def _points(n: int = 16, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.uniform([0, 0], [1200, 1000], (n, 2)), rng.uniform(0.3, 0.7, (n, 3))


def test_light_field_follows_a_moved_lamp_and_a_colder_light_and_drops_covered_points():
    mm, then = _points()
    x = (mm[:, 0] - 600) / 600
    y = (mm[:, 1] - 500) / 500
    true = np.exp(np.array([-0.3, -0.1, 0.15])[None, :] + (0.25 * x - 0.1 * y + 0.2 * x * x)[:, None])
    now = then * true
    now[[2, 9]] *= 0.45  # a hand over two points
    field = fit_light_field(mm, now, then, CENTRE, SCALE)
    assert field is not None and field.points == 14
    keep = np.ones(len(mm), bool)
    keep[[2, 9]] = False
    assert np.abs(field.gains(mm[keep]) / true[keep] - 1).max() < 0.01
    windows = np.ones((2, 4, 4, 3), np.float32) * then[:2, None, None, :].astype(np.float32) * true[:2, None, None, :]
    back = field.apply(windows.copy(), mm[:2])
    assert np.allclose(back[0, 0, 0], then[0], atol=0.01)
    # fewer points: a plane, then the colour change alone, then nothing
    assert len(fit_light_field(mm[:6], now[:6], then[:6], CENTRE, SCALE).shape) == 2
    assert fit_light_field(mm[:3], now[:3], then[:3], CENTRE, SCALE).shape == ()
    assert fit_light_field(mm[:1], now[:1], then[:1], CENTRE, SCALE) is None


def test_a_patch_that_disagrees_with_the_table_beside_it_is_not_trusted():
    mm, then = _points(seed=1)
    enrolled = ColourNorm((0.9, 0.9, 0.9), (5.0, 5.0, 5.0))
    tracker = LightTracker(np.hstack([mm, then]), (150.0, 40.0), (1200.0, 1000.0), enrolled)
    # the light got 20 % dimmer everywhere; the patch read right
    raw = (then * 0.8 * 255) * 0.9 + 5.0
    good = ColourNorm((0.72, 0.72, 0.72), (5.0, 5.0, 5.0))
    norm, field = tracker.update(raw, good)
    assert norm == good and tracker.patch_ok and np.allclose(field.gains(mm), 1.0, atol=0.02)
    # a lamp's reflection on the patch: its reading says the light got much brighter, the table not
    glared = ColourNorm((0.5, 0.5, 0.5), (60.0, 60.0, 60.0))
    norm, field = tracker.update(raw, glared)
    assert norm == good and not tracker.patch_ok  # the last patch that agreed is kept
    assert np.allclose(field.gains(mm), 1.0, atol=0.02)
    norm, field = tracker.update(raw, None)  # the patch covered: the same
    assert norm == good and np.allclose(field.gains(mm), 1.0, atol=0.02)


# --- a rendered table under another light -------------------------------------------------------------


@pytest.fixture(scope="module")
def new_light_frame():
    return cs.renderer().render(cs.game().states[40], cs.camera(), cs.NEW_LIGHT, cs.FX, frame_seed=3)


def test_a_table_enrolled_under_one_light_reads_right_under_another(new_light_frame):
    truth = observation_from_truth(new_light_frame.truth)
    lay, prof = default_layout(), default_profile()
    fixed = Recognizer(lay, prof, cs.enrollment(), stream=False, follow_light=False)
    before = score(fixed.read(new_light_frame.image), truth)
    # with the normalisation fixed by the (spoilt) patch alone, bare table reads as tiles (the tiles'
    # outline holds most of them back, not those beside the lands, whose tiles' edges show) and the
    # tiles are misread
    assert before[PHANTOM_TILES][1] - before[PHANTOM_TILES][0] >= 20
    assert before[CONFIDENT_PHANTOMS][1] - before[CONFIDENT_PHANTOMS][0] >= 10
    assert before["tile type per hex"][1] - before["tile type per hex"][0] >= 20
    rec = Recognizer(lay, prof, cs.enrollment(), stream=False)
    obs = rec.read(new_light_frame.image)
    after = score(obs, truth)
    assert not rec.light.patch_ok  # the patch's reading was seen to disagree with the table
    assert after[PHANTOM_TILES][0] == after[PHANTOM_TILES][1]  # no tile on bare table
    assert after["tile type per hex"][0] == after["tile type per hex"][1]
    assert after["stones per position"][0] == after["stones per position"][1]
    assert after["track markers"][0] == after["track markers"][1]
    assert not obs.hidden


def test_an_enrollment_saved_without_reference_points_follows_the_overall_change(tmp_path):
    js, _ = cs.enrollment().save(tmp_path / "box")
    assert len(Enrollment.load(js).table_points) == 16  # kept in the file
    doc = json.loads(js.read_text())
    del doc["table_points"]  # as saved before the points were kept
    js.write_text(json.dumps(doc))
    rec = Recognizer(default_layout(), default_profile(), js, stream=False)
    assert not rec.light.spatial
    # colder, dimmer, and a reflection on the patch: one change over the whole table
    light = dataclasses.replace(cs.LIGHT, kelvin=6200.0, exposure=0.75, glare=0.6, glare_at=(150.0, 40.0))
    fr = cs.renderer().render(cs.game().states[40], cs.camera(), light, cs.FX, frame_seed=4)
    sc = score(rec.read(fr.image), observation_from_truth(fr.truth))
    assert sc[PHANTOM_TILES][0] == sc[PHANTOM_TILES][1]
    assert sc["tile type per hex"][0] == sc["tile type per hex"][1]


def test_pale_faces_a_brighter_light_clips_are_read_against_their_examples_clipped_alike():
    """A pale box on a white table in a room 25 % brighter than at enrollment, the camera's exposure
    not turned down: the pale faces reach the top of the scale (vision.clipping)."""
    lay, prof = default_layout(), default_profile()
    box, enr = cs.pale_renderer(), cs.pale_enrollment()
    state = cs.game().states[40]
    steady = box.render(state, cs.camera(), cs.LIGHT, cs.FX, frame_seed=5)
    bright = box.render(state, cs.camera(), dataclasses.replace(cs.LIGHT, exposure=1.25), cs.FX, frame_seed=5)
    assert (bright.image.max(axis=2) >= 250).mean() > 10 * max((steady.image.max(axis=2) >= 250).mean(), 1e-3)
    right = {}
    for name, fr in (("steady", steady), ("bright", bright), ("unclipped", bright)):
        rec = Recognizer(lay, prof, enr, stream=False)
        if name == "unclipped":
            rec.land.clipped = {}  # the examples as enrolled
        sc = score(rec.read(fr.image), observation_from_truth(fr.truth))
        right[name] = sc["tile type per hex"][0]
        assert sc[CONFIDENT_PHANTOMS][0] == sc[CONFIDENT_PHANTOMS][1]
        if name == "bright":
            assert any(ex.built for ex in rec.hex_examples.values())
        if name == "steady":
            assert not any(ex.built for ex in rec.hex_examples.values())  # nothing made again
    assert right["bright"] >= right["steady"] - 1
    assert right["unclipped"] <= right["bright"] - 4
