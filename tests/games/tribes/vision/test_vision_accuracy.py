"""Pieces of the readers that raise accuracy: tiles compared with examples covered where members
stand, the land walk's territory and marker spots, and cutting many windows at once."""

from __future__ import annotations

import numpy as np

from games.tribes.rules.profile import default_profile
from games.tribes.vision.layout import default_layout
from games.tribes.vision.readers.base import FrameContext
from games.tribes.vision.readers.land import LandReader
from games.tribes.vision.regions import Regions
from vision.occlusion import covers, hidden_mask
from vision.patches import patch_set
from vision.registration import Registration
from vision.sampling import Sampler


def test_covers_hide_the_middle_of_a_tile_as_members_would():
    m = covers(40)
    assert m.shape[1:] == (40, 40) and len(m) >= 3
    assert m[:, 19:21, 19:21].all()  # the middle is always covered
    assert not m[:, 0, 0].any()  # corners never
    rng = np.random.default_rng(0)
    win = rng.random((len(m), 40, 40, 3)).astype(np.float32)
    out, hidden = hidden_mask(win, [], extra=m)
    assert (hidden == m).all()
    for i in range(len(m)):  # covered pixels take the mean of the rest; the rest is unchanged
        assert np.allclose(out[i][m[i]], win[i][~m[i]].mean(axis=0), atol=1e-5)
        assert np.array_equal(out[i][~m[i]], win[i][~m[i]])


def _ctx(markers: tuple[int, ...] = ()) -> FrameContext:
    lay = default_layout()
    reg = Registration(np.diag([1.0, 1.0, 1.0]), 0.0, (1200, 1000), (), 0.0, 0)
    return FrameContext(
        np.zeros((1000, 1200, 3), np.uint8), reg, None, Regions(lay, default_profile()), Sampler(), {}, markers
    )  # type: ignore[arg-type]


def test_land_walk_territory_and_marker_spots():
    ctx = _ctx()
    lay = ctx.regions.layout
    land = LandReader(None, {}, None, {})  # type: ignore[arg-type]
    assert land._near_area(ctx, 0, (0, 0))
    # a hex on a marker is known: the walk reports it empty rather than reading the marker's pattern
    on = []
    for q in range(-12, 13):
        for r in range(-12, 13):
            m = land._marker_under(ctx, 0, (q, r))
            if m is not None:
                c = np.asarray(lay.hex_center(0, (q, r)))
                assert np.abs(c - np.asarray(lay.marker(m).center)).max() <= lay.marker(m).size / 2 + lay.hex.pitch / 4
                on.append((q, r))
    assert on
    # far out, a hex belongs to the walk only when no other seat's area is nearer
    walk = set(ctx.regions.walk_hexes(0))
    for q in range(-12, 13):
        for r in range(-12, 13):
            at = np.asarray(lay.hex_center(0, (q, r)), np.float64)
            out = ctx.regions.outside_area(0, at)
            if land._near_area(ctx, 0, (q, r)):
                assert out <= land.far * lay.hex.pitch
                if out > land.reach * lay.hex.pitch:
                    assert all(out < ctx.regions.outside_area(o, at) for o in (1, 2, 3))
            # the hexes enrollment keeps the bare table of are those the walk may read
            assert ((q, r) in walk) <= land._near_area(ctx, 0, (q, r))
    assert len(walk) > 250
    # nor does it walk onto the row or the board: no tile can lie there
    for seat in range(4):
        for c in list(lay.row_slots) + [p for era in lay.board for p in era] :
            h = lay.hex_at(seat, c)
            assert not ctx.regions.walkable(seat, h) and h not in ctx.regions.walk_hexes(seat)


def test_sampler_cuts_more_windows_than_one_remap_allows():
    reg = Registration(np.diag([1.0, 1.0, 1.0]), 0.0, (1200, 1000), (), 0.0, 0)
    rng = np.random.default_rng(2)
    img = rng.integers(0, 255, (1000, 1200, 3), np.uint8)
    centers = rng.uniform(100, 900, (900, 2))
    s = Sampler()
    many = s.sample(img, reg, patch_set("many", centers, 0.0, 30.0, 48))
    assert many.shape == (900, 48, 48, 3)
    few = Sampler().sample(img, reg, patch_set("few", centers[-5:], 0.0, 30.0, 48))
    assert np.array_equal(many[-5:], few)


def test_condensed_examples_keep_one_of_near_duplicates_per_class():
    from vision.classify import ExampleClassifier

    rng = np.random.default_rng(3)
    base = rng.normal(size=(2, 16)).astype(np.float32)
    feats = np.concatenate([base[[0]] + 1e-3 * rng.normal(size=(5, 16)), base[[1]] + 1e-3 * rng.normal(size=(5, 16))])
    feats /= np.linalg.norm(feats, axis=1, keepdims=True)
    labels = ["a"] * 5 + ["b"] * 5
    full = ExampleClassifier(feats, labels)
    small = ExampleClassifier(feats, labels, condense=0.97)
    assert len(small.features) == 2 and small.classes == ["a", "b"]
    q = base / np.linalg.norm(base, axis=1, keepdims=True)
    assert np.allclose(small.scores(q), full.scores(q), atol=1e-3)
