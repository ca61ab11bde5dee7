"""The bare table as enrollment saw it (vision.bare): a window that still looks like its own place's
bare table is read as empty, whatever the tile classifier makes of it; a tile laid there, even a pale
one on a pale table, does not look like it; enrollments keep the thumbnails and old ones load
without them."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.hexgrid import START_TRIANGLE
from games.tribes.rules.profile import default_profile
from games.tribes.sim.evaluation import CONFIDENT_PHANTOMS, PHANTOM_TILES, score
from games.tribes.vision.enrollment import Enrollment, hex_place
from games.tribes.vision.layout import default_layout
from games.tribes.vision.observation import observation_from_truth
from games.tribes.vision.recognizer import Recognizer
from vision.bare import WASHED_SHARE, BareLook, thumbnails
from vision.errors import EnrollmentError


def _wood(n: int, seed: int, px: int = 40) -> np.ndarray:
    """Textured 'table' windows: a grain of stripes plus blotches, normalised BGR."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:px, 0:px] / px
    out = np.empty((n, px, px, 3), np.float32)
    for i in range(n):
        f = rng.uniform(1.5, 4)  # a grain 12-32 mm apart on a 48 mm window
        grain = 0.5 + 0.25 * np.sin(2 * np.pi * (f * xx + rng.uniform(0, 3) * yy ** 2 + rng.uniform()))
        base = rng.uniform(0.35, 0.75, 3)
        out[i] = np.clip(base[None, None, :] * (0.6 + 0.8 * grain[..., None]), 0, 1)
    return out


def test_the_bare_table_matches_itself_under_noise_a_small_shift_and_a_light_change():
    table = _wood(6, 0)
    look = BareLook([f"p{i}" for i in range(6)], thumbnails(table))
    rng = np.random.default_rng(1)
    now = np.roll(table, 1, axis=2) * np.array([1.05, 0.97, 0.93], np.float32)  # 1 px off, a warmer light
    now = np.clip(now + rng.normal(0, 0.01, now.shape).astype(np.float32), 0, 1)
    d = look.disagreement([f"p{i}" for i in range(6)], now)
    assert (d < 0.08).all(), d
    # the table of another place, or the same one turned: not this place's look
    other = look.disagreement([f"p{i}" for i in range(6)], table[::-1].copy())
    turned = look.disagreement([f"p{i}" for i in range(6)], np.rot90(table, axes=(1, 2)).copy())
    assert (other > 0.3).all() and (turned > 0.3).all(), (other, turned)


def test_a_flat_tile_of_nearly_the_tables_colour_is_not_scaled_into_it():
    white = np.full((1, 40, 40, 3), 0.94, np.float32)
    look = BareLook(["p"], thumbnails(white))
    grey = np.full((1, 40, 40, 3), 0.72, np.float32)  # a pale grey tile on a white table
    assert look.disagreement(["p"], grey)[0] == 1.0
    assert look.disagreement(["p"], white * 0.95)[0] == 0.0  # 5 % dimmer: still the table


def test_a_place_enrollment_saw_washed_out_says_nothing():
    # a lamp's reflection on the table at setup: the place's disc at the top of the scale
    glare = np.clip(_wood(1, 3) + 0.9, 0, 1.5)
    look = BareLook(["glare", "wood"], thumbnails(np.concatenate([glare, _wood(1, 4)])), washed=WASHED_SHARE)
    # a tile laid there later, under the same reflection: white paper with a small symbol
    tile = np.full((1, 40, 40, 3), 1.1, np.float32)
    tile[:, 18:22, 18:22] = (0.2, 0.3, 0.8)
    d = look.disagreement(["glare", "wood"], np.concatenate([tile, _wood(1, 4)]))
    assert np.isnan(d[0])  # not "still bare": nothing is known there
    assert d[1] < 0.05  # the other place keeps its look
    assert look.washed_now(["glare", "wood"], np.concatenate([tile, _wood(1, 4)])).tolist() == [True, False]
    both, washed = look.compare(["glare", "wood", "nowhere"], np.concatenate([tile, _wood(1, 4), tile]))
    assert np.isnan(both[0]) and both[1] == d[1] and np.isnan(both[2]) and washed.tolist() == [True, False, False]
    # the reflection gone, the window is not washed out: held against the look whole, as before
    assert not np.isnan(look.disagreement(["glare"], _wood(1, 3))[0])
    # without the rule the tile would pass for the bare table it covers
    plain = BareLook(["glare"], thumbnails(glare))
    assert plain.disagreement(["glare"], tile)[0] < 0.05


def test_a_look_washed_out_in_part_is_judged_by_the_rest():
    table = _wood(1, 5)
    yy = np.mgrid[0:40, 0:40][0]
    glared = table.copy()
    glared[:, yy < 20] = 1.3  # a reflection over the upper half at setup
    look = BareLook(["p"], thumbnails(glared), washed=WASHED_SHARE)
    assert not look.washed[0]
    # the reflection gone: the lower half still shows this place's table, the upper half tells nothing
    assert look.disagreement(["p"], table)[0] < 0.05
    assert BareLook(["p"], thumbnails(glared)).disagreement(["p"], table)[0] > 0.3  # all pixels: not bare
    # a tile laid there differs where the look is known
    assert look.disagreement(["p"], _wood(1, 6))[0] > 0.3


def test_places_without_a_look_say_nothing_and_bad_thumbnails_are_refused():
    w = _wood(1, 3)
    look = BareLook(["p"], thumbnails(w))
    d = look.disagreement(["q", "p"], np.concatenate([w, w]))
    assert np.isnan(d[0]) and d[1] < 0.08
    assert "p" in look and "q" not in look and len(look) == 1
    with pytest.raises(ValueError, match="2 bare-table thumbnails for 1 places"):
        BareLook(["p"], thumbnails(_wood(2, 3)))
    with pytest.raises(ValueError, match="N x px x px x 3"):
        BareLook(["p"], np.zeros((1, 20, 20), np.uint8))


def test_enrollment_keeps_the_bare_table_wherever_the_land_reader_walks_and_no_tile_lay():
    enr = cs.enrollment()
    lay = default_layout()
    places = set(enr.bare_places)
    assert len(places) == len(enr.bare) > 600 and enr.bare.dtype == np.uint8
    for seat in range(4):
        # the starting triangle held tiles at setup: no bare look there
        assert not any(hex_place(seat, h) in places for h in START_TRIANGLE)
        assert sum(p.startswith(f"hex:{seat}:") for p in places) > 100
    # the extra frame's one-of-each tiles (seat 0) lay on hexes the setup frame showed bare: the look
    # there is the setup's, not the tile's
    rec = Recognizer(lay, default_profile(), enr, stream=False)
    obs = rec.read(cs.extra_frame().image)
    laid = [(0, h) for h in ((-1, 0), (-1, 1), (0, -1), (1, -1), (2, -1), (2, 0))]
    assert all(hex_place(*c) in places for c in laid)
    assert min(rec.land.last_bare[c] for c in laid) > 0.3
    assert all(h.tile for h in obs.hexes if (h.seat, h.hex) in laid)
    # far from every land and inside the table: kept
    assert hex_place(0, (0, 3)) in places
    x, y = lay.hex_center(0, (0, 3))
    assert 0 < x < lay.table[0] and 0 < y < lay.table[1]


def test_the_bare_looks_are_saved_and_old_enrollments_load_without_them(tmp_path):
    enr = cs.enrollment()
    js, npz = enr.save(tmp_path / "box")
    back = Enrollment.load(js)
    assert back.bare_places == enr.bare_places and np.array_equal(back.bare, enr.bare)
    doc = json.loads(js.read_text())
    doc["bare_places"] = doc["bare_places"][:-1]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(EnrollmentError, match=r"box.npz: bare: holds \d+ thumbnails for \d+ bare_places"):
        Enrollment.load(bad)
    del doc["bare_places"]  # as saved before the bare table was kept (the npz's thumbnails unused)
    with np.load(npz) as z:
        np.savez_compressed(npz, **{g: z[g] for g in z.files if g != "bare"})
    bad.write_text(json.dumps(doc))
    old = Enrollment.load(bad)
    assert old.bare_places == [] and len(old.bare) == 0
    rec = Recognizer(default_layout(), default_profile(), old, stream=False)
    assert rec.land.bare is None


class _SeesTilesEverywhere:
    """A tile classifier fooled everywhere (as by a table that looks like tile art): every window is
    read as a goat tile, surely."""

    def __init__(self, real):
        self.real = real
        self.classes = real.classes
        self.index = real.index

    def __len__(self) -> int:
        return len(self.real)

    def column(self, label):
        return self.real.column(label)

    def probabilities(self, feats):
        p = np.zeros((len(feats), len(self.classes)), np.float32)
        p[:, self.classes.index("resource:goat")] = 1.0
        return p


def test_a_reader_fooled_everywhere_still_finds_only_the_tiles_that_lie_there():
    fr = cs.frame(40)
    truth = observation_from_truth(fr.truth)
    lay, prof = default_layout(), default_profile()
    counts = {}
    for bare in (True, False):
        rec = Recognizer(lay, prof, cs.enrollment(), stream=False, bare_look=bare)
        rec.land.classifiers = {s: _SeesTilesEverywhere(c) for s, c in rec.land.classifiers.items()}
        obs = rec.read(fr.image)
        counts[bare] = score(obs, truth)
        if bare:
            read = {(h.seat, h.hex) for h in obs.hexes if h.tile}
            true = {(h.seat, h.hex) for h in truth.hexes if h.tile}
            assert true <= read  # nothing laid is lost
            # every phantom left lies where enrollment saw no bare table (the starting triangle is
            # a tile in the truth too); none at a place with a bare look
            assert not any(hex_place(*c) in rec.land.bare for c in read - true)
            for h in obs.hexes:
                if (h.seat, h.hex) not in true and hex_place(h.seat, h.hex) in rec.land.bare:
                    assert not h.tile and h.tile_conf > 0.9
    ok_b, tot_b = counts[True][PHANTOM_TILES]
    ok_n, tot_n = counts[False][PHANTOM_TILES]
    assert tot_n - ok_n > 50  # fooled without the bare look: tiles all over the table
    assert tot_b - ok_b == 0 and counts[True][CONFIDENT_PHANTOMS][0] == counts[True][CONFIDENT_PHANTOMS][1]


def test_tiles_read_on_a_real_table_are_not_turned_into_bare_table():
    fr = cs.frame(60)
    truth = observation_from_truth(fr.truth)
    rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), stream=False)
    obs = rec.read(fr.image)
    true = {(h.seat, h.hex) for h in truth.hexes if h.tile}
    d = rec.land.last_bare
    laid_later = [c for c in true if c in d]  # tiles laid on a hex that was bare at setup
    assert len(laid_later) >= 6
    assert min(d[c] for c in laid_later) > 0.3
    sc = score(obs, truth)
    assert sc["tile type per hex"][0] == sc["tile type per hex"][1]
    # and the bare hexes around them, read as such, are sure of it
    bare = [h for h in obs.hexes if not h.tile and hex_place(h.seat, h.hex) in rec.land.bare]
    assert len(bare) > 20 and all(h.tile_conf > 0.5 for h in bare)


def test_the_light_is_also_followed_from_bare_table_among_the_lands():
    from games.tribes.rules.hexgrid import distance
    from games.tribes.vision.enrollment import parse_place
    from games.tribes.vision.recognizer import LIGHT_FROM_START, LIGHT_PLACES

    enr = cs.enrollment()
    rec = Recognizer(default_layout(), default_profile(), enr, stream=False)
    mm = rec.light.mm
    ring = len(enr.table_points)
    assert ring == 16 and len(mm) == ring + LIGHT_PLACES
    extra = mm[ring:]
    # spread: no two points closer than 20 mm, and some well inside the table, not only at its edge
    gaps = np.hypot(*(mm[:, None, :] - mm[None, :, :]).transpose(2, 0, 1)) + np.eye(len(mm)) * 1e9
    assert gaps.min() >= 20.0
    assert (np.abs(extra - np.array([600.0, 500.0])) < [300.0, 250.0]).all(axis=1).sum() >= 4
    # each is the middle of a kept hex far from every starting triangle
    lay = default_layout()
    far = np.array(
        [
            lay.hex_center(*parse_place(p))
            for p in enr.bare_places
            if min(distance(parse_place(p)[1], s) for s in START_TRIANGLE) >= LIGHT_FROM_START
        ]
    )
    near_start = np.array(
        [lay.hex_center(s, h) for s in range(4) for h in START_TRIANGLE]
    )
    for x in extra:
        assert np.hypot(*(far - x).T).min() < 0.01
        assert np.hypot(*(near_start - x).T).min() > 3 * lay.hex.pitch
    with pytest.raises(ValueError, match="not a hex place"):
        parse_place("corner:1:2,3")



def test_an_enrollment_that_saw_little_of_the_bare_table_says_so():
    from games.tribes.vision.enrollment import Enroller, labels_from_state

    full = cs.enrollment()
    assert not any("bare table was in view" in n for n in full.notes)
    # a setup photo in which only half of the places of bare table were in view
    en = Enroller(default_layout(), default_profile())
    obs, seats = labels_from_state(cs.game().states[1])
    en.add_frame(cs.frame(1).image, obs, seats, "setup")
    wanted = len(en.bare_wanted)
    en.bare_samples = dict(list(en.bare_samples.items())[: wanted // 2])  # as if half were out of view
    enr = en.build()
    note = [n for n in enr.notes if "bare table was in view" in n]
    assert note and f"only {wanted // 2} of the {wanted} hexes" in note[0]
