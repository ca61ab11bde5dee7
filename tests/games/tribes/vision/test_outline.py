"""A tile shows its outline; bare table does not (:mod:`vision.outline`): a tile read where the window
shows too little of a tile's outline is never confident, and the land reader's walk stops there."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.hexgrid import START_TRIANGLE, neighbours
from games.tribes.rules.profile import default_profile
from games.tribes.sim.evaluation import PHANTOM_TILES, score
from games.tribes.vision.layout import default_layout
from games.tribes.vision.observation import observation_from_truth
from games.tribes.vision.readers import land
from games.tribes.vision.recognizer import Recognizer
from games.tribes.vision.regions import EMBED_PX, HEX_PATCH_MM

HEX = land.HEX_OUTLINE


def _mottled(seed: int, px: int = EMBED_PX) -> np.ndarray:
    """A pale, cloudy table: smooth blotches, a little grain (normalised BGR)."""
    rng = np.random.default_rng(seed)
    low = cv2.resize(rng.uniform(0.75, 0.95, (5, 5, 3)).astype(np.float32), (px, px), interpolation=cv2.INTER_CUBIC)
    return np.clip(low + rng.normal(0, 0.01, (px, px, 3)), 0, 1).astype(np.float32)


def _hexagon(win: np.ndarray, sides: list[int], shade: float = 0.55) -> np.ndarray:
    """``win`` with the given sides of the window's hexagon drawn as a thin darker line."""
    out = win.copy()
    c = (EMBED_PX - 1) / 2
    r = 20.0 / HEX_PATCH_MM * EMBED_PX / math.cos(math.pi / 6)  # centre to corner
    corners = [(c + r * math.cos(math.radians(60 * k)), c + r * math.sin(math.radians(60 * k))) for k in range(6)]
    for k in sides:  # side k's normal points at 30 + 60 k degrees: between corners k and k + 1
        a, b = corners[k], corners[(k + 1) % 6]
        line = np.zeros((EMBED_PX, EMBED_PX), np.float32)
        cv2.line(
            line, (round(a[0] * 16), round(a[1] * 16)), (round(b[0] * 16), round(b[1] * 16)), 1.0, 1, cv2.LINE_AA, 4
        )
        out = out * (1 - (1 - shade) * line[..., None])
    return out


def test_the_sides_of_a_drawn_hexagon_are_counted_and_a_cloudy_table_shows_none():
    for seed in range(5):
        table = _mottled(seed)
        assert HEX.shown(table[None], land.OUTLINE_EDGE)[0] == 0
        assert HEX.shown(_hexagon(table, list(range(6)))[None], land.OUTLINE_EDGE)[0] == 6
        assert HEX.shown(_hexagon(table, [0, 1, 2])[None], land.OUTLINE_EDGE)[0] == 3
        # a faint line (a pale tile's seam) still counts; the table's own blotches never do
        assert HEX.shown(_hexagon(table, list(range(6)), shade=0.8)[None], land.OUTLINE_EDGE)[0] == 6


@pytest.fixture(scope="module")
def scene():
    fr = cs.frame(60)
    rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), features="histogram", stream=False)
    rec.read(fr.image)
    return fr, rec


def test_on_a_rendered_table_every_tile_shows_its_outline_and_open_table_does_not(scene):
    fr, rec = scene
    truth = observation_from_truth(fr.truth)
    tiles = {(h.seat, h.hex) for h in truth.hexes if h.tile}
    # open table: hexes of the land areas with no tile next to them
    open_table = [
        (s, h)
        for s in rec.seats
        for h in rec.regions.area_hexes(s)
        if (s, h) not in tiles and not any((s, n) in tiles for n in neighbours(h))
    ][::5]
    cells = sorted(tiles) + open_table
    ps = rec.regions.hex_patches(cells)
    reg = rec.last_result.registration
    assert rec.sampler.inside(reg, ps).all()
    edge = rec.land.outline_edge  # the oak's grain raises it above the floor
    assert edge > land.OUTLINE_EDGE
    shown = HEX.shown(rec.last_norm.apply(rec.sampler.sample(fr.image, reg, ps)), edge)
    assert len(tiles) > 20 and len(open_table) > 20
    assert (shown[: len(tiles)] >= land.OUTLINE_SIDES).all()
    # open table shows no outline, bar a few hexes by a marker, the supply or a passing piece
    assert (shown[len(tiles) :] < land.OUTLINE_SIDES).mean() > 0.9


class _AllGold:
    """A tile model fooled into reading gold everywhere (a table that looks like gold art)."""

    def __init__(self, real):
        self.classes = real.classes
        self.gold = real.classes.index("resource:gold")

    def __len__(self):
        return len(self.classes)

    def column(self, name):
        return self.classes.index(name) if name in self.classes else None

    def probabilities(self, feats):
        p = np.full((len(feats), len(self.classes)), 0.001)
        p[:, self.gold] = 1.0
        return p / p.sum(axis=1, keepdims=True)


def _fooled_reading(monkeypatch, sides: int):
    monkeypatch.setattr(land, "OUTLINE_SIDES", sides)
    fr = cs.frame(60)
    rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), features="histogram", stream=False)
    rec.land.bare = None  # nor does the bare table's look hold it back
    rec.land.classifiers = {s: _AllGold(c) for s, c in rec.land.classifiers.items()}
    obs = rec.read(fr.image)
    truth = {(h.seat, h.hex) for h in observation_from_truth(fr.truth).hexes if h.tile}
    return obs, truth, rec.land.last_outline


def _ring(c, truth) -> int:
    """1: next to a real tile of its land; 2: next to such a hex; 3: farther."""
    near = {(c[0], n) for n in neighbours(c[1])}
    if near & truth:
        return 1
    return 2 if any({(c[0], m) for m in neighbours(n[1])} & truth for n in near) else 3


def test_a_tile_model_fooled_everywhere_reports_no_confident_phantom_off_the_land(monkeypatch):
    def phantoms(sides: int):
        obs, truth, outline = _fooled_reading(monkeypatch, sides)
        read = {(h.seat, h.hex): h for h in obs.hexes if h.tile}
        assert truth <= set(read)  # every real tile is still read (as gold, by this model) …
        assert all(outline[c] >= sides for c in truth)  # … and none is held back by its outline
        return [(c, read[c].tile_conf > land.OUTLINE_CAP, _ring(c, truth)) for c in read if c not in truth]

    sides = land.OUTLINE_SIDES
    without, with_ = phantoms(0), phantoms(sides)
    # without the outline, confident phantoms lie off the land (a ring out) and the walk crosses the table
    assert any(sure and ring > 1 for _, sure, ring in without)
    # with it: a hex next to the land shares sides with its tiles (their edges show) and may pass;
    # none farther out is confident, and the walk stops early
    assert all(ring == 1 for _, sure, ring in with_ if sure)
    assert len(with_) < len(without) / 3


def test_a_window_unchanged_since_the_last_frame_keeps_the_walk_stopped():
    """A stream re-reads only the windows that changed: a tile held back by its outline stays held
    back when its window comes from that cache, and the walk does not go on from it then either."""
    fr = cs.frame(60)
    rec = Recognizer(
        default_layout(), default_profile(), cs.enrollment(), features="histogram", stream=False, cache=True
    )
    rec.land.bare = None
    rec.land.classifiers = {s: _AllGold(c) for s, c in rec.land.classifiers.items()}
    first = {(h.seat, h.hex): h.tile_conf for h in rec.read(fr.image).hexes if h.tile}
    assert rec.land.held_back
    second = {(h.seat, h.hex): h.tile_conf for h in rec.read(fr.image).hexes if h.tile}
    assert not rec.land.last_outline  # nothing was read afresh
    assert second == first


def test_where_a_reflection_washed_out_the_bare_table_a_tile_must_show_its_whole_outline(monkeypatch):
    """Where enrollment saw the bare table washed out by a lamp's reflection and the window is washed
    out now, the bare look says nothing (``BareLook.washed_now``): a tile model that takes everything
    for a tile then reports a tile there only where the window shows all six sides of a tile's
    outline (``OUTLINE_WHOLE``); elsewhere the hex is read empty at ``OUTLINE_CAP``."""
    fr = cs.frame(60)
    rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), features="histogram", stream=False)
    rec.land.classifiers = {s: _AllGold(c) for s, c in rec.land.classifiers.items()}
    bare = rec.land.bare
    assert bare is not None
    monkeypatch.setattr(
        bare, "compare", lambda keys, w: (np.full(len(keys), np.nan, np.float32), np.ones(len(keys), bool))
    )
    obs = rec.read(fr.image)
    truth = {(h.seat, h.hex) for h in observation_from_truth(fr.truth).hexes if h.tile}
    read = {(h.seat, h.hex): h for h in obs.hexes}
    glared = rec.land.glared
    assert glared  # the walk met such places
    whole = {c for c in glared if rec.land.last_outline.get(c, 0) >= land.OUTLINE_WHOLE}
    for c in glared:
        if c in whole:
            assert read[c].tile
        else:
            assert not read[c].tile and read[c].tile_conf == land.OUTLINE_CAP
    # every real tile there shows its whole outline and is read; bare table beside the lands nearly
    # never does (a hex enclosed by tiles shows their edges all round)
    assert not (glared - whole) & truth
    assert len(whole & truth) >= 15
    assert len(glared - whole - truth) >= 10 * max(len(whole - truth), 1)


def test_pale_faces_on_a_white_table_that_look_like_its_bare_look_are_read_by_their_outline(monkeypatch):
    """Pale art on white laminate: within the disc the bare look compares, a pale face is the table's
    colour and its symbol too faint to differ, so the bare look takes the tile for bare table (and the
    walk stops there). A window showing all six sides of a tile's outline (``OUTLINE_WHOLE``) is held
    against the tile types all the same: the tiles are read, and no bare hex is taken for a tile."""

    def read(whole: int) -> tuple[int, int, int]:
        monkeypatch.setattr(land, "OUTLINE_WHOLE", whole)
        rec = Recognizer(default_layout(), default_profile(), cs.pale_enrollment(), stream=False)
        right = total = phantoms = 0
        for move in (60, 90):
            fr = cs.pale_renderer().render(cs.game().states[move], cs.camera(), cs.LIGHT, cs.FX, frame_seed=move)
            sc = score(rec.read(fr.image), observation_from_truth(fr.truth))
            right += sc["tile type per hex"][0]
            total += sc["tile type per hex"][1]
            phantoms += sc[PHANTOM_TILES][1] - sc[PHANTOM_TILES][0]
        assert not rec.land.glared  # no reflection in this scene: the rule for washed-out places is idle
        return right, total, phantoms

    right, total, phantoms = read(land.OUTLINE_WHOLE)
    assert right >= total - 4 and phantoms == 0
    before, _, _ = read(99)  # no window counts as showing its whole outline
    assert before <= right - 30


class _Fooled:
    """The real tile model, its probabilities changed by a subclass's :meth:`probabilities`."""

    def __init__(self, real):
        self.real = real
        self.classes = real.classes
        self.empty = real.classes.index("empty")

    def __len__(self):
        return len(self.classes)

    def column(self, name):
        return self.real.column(name)


class _HorseAsEmpty(_Fooled):
    """The real tile model, fooled into reading horse tiles as bare table (a table texture like the
    horse art): where it reads horse, it reads empty, horse the runner-up."""

    def __init__(self, real):
        super().__init__(real)
        self.horse = real.classes.index("resource:horse")

    def probabilities(self, feats):
        p = self.real.probabilities(feats).copy()
        fooled = p.argmax(axis=1) == self.horse
        p[fooled, self.horse], p[fooled, self.empty] = p[fooled, self.empty], p[fooled, self.horse]
        return p


def test_a_hex_read_empty_that_is_nothing_like_its_bare_look_and_shows_a_tile_outline_holds_a_tile(monkeypatch):
    """The tile model reads a tile as empty (art much like the table): where the window differs from
    the hex's bare look over at least ``UNLIKE_BARE`` and shows all six sides of a tile's outline, the
    hex is read as the model's most likely tile, unsure (``OUTLINE_CAP``), and the walk goes on from
    it; bare table never is. (A starting tile is not: enrollment saw it there, so it has no bare look.)"""

    def read(share: float) -> tuple[dict, dict, set]:
        monkeypatch.setattr(land, "UNLIKE_BARE", share)
        fr = cs.frame(60)
        rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), features="histogram", stream=False)
        rec.land.classifiers = {s: _HorseAsEmpty(c) for s, c in rec.land.classifiers.items()}
        obs = rec.read(fr.image)
        truth = {(h.seat, h.hex): h for h in observation_from_truth(fr.truth).hexes if h.tile}
        return {(h.seat, h.hex): h for h in obs.hexes if h.tile}, truth, set(rec.land.unlike_bare)

    off, truth, none = read(0.0)
    horse = {c for c, h in truth.items() if h.resource == "horse" and not h.exhausted}
    lost = set(truth) - set(off)
    # the fooled model loses the horse tiles, and the walk the tiles beyond them
    assert not none and len(horse & lost) >= 3
    on, _, turned = read(0.5)
    assert turned and turned <= horse & lost  # … this check finds them again, and only them
    assert all(on[c].tile_conf == land.OUTLINE_CAP and on[c].resource == "horse" for c in turned)
    # no phantom; lost only where no bare look was kept: the starting triangles, tiled at setup
    assert set(on) <= set(truth) and all(c[1] in START_TRIANGLE for c in set(truth) - set(on))


class _TilesAsEmpty(_Fooled):
    """The real tile model, fooled into reading every tile as bare table: where it reads a tile, it
    reads empty at 0.7, that tile the runner-up at 0.3."""

    def probabilities(self, feats):
        p = self.real.probabilities(feats).copy()
        best = p.argmax(axis=1)
        for i in np.flatnonzero(best != self.empty):
            p[i] = 0.0
            p[i, best[i]], p[i, self.empty] = 0.3, 0.7
        return p


def test_a_hex_read_empty_whose_disc_shows_the_seats_colour_holds_a_tile(monkeypatch):
    """Members stand only on tiles, and a tile whose art is of the seat's colour loses its art where
    the seat's colour is hidden: a hex the tile model reads empty although ``SEAT_SHOWN`` of its paper
    disc shows the seat's colour is read as the model's most likely tile — surely a tile
    (``SEAT_TILE_CONF``), of an unsure type (``OUTLINE_CAP``) — and the walk goes on from it. With the
    tile model fooled into reading every tile empty, the hexes so found are tiles under piles, of the
    type the model named; bare table never is."""

    def read(share: float) -> tuple[dict, dict, set]:
        monkeypatch.setattr(land, "SEAT_SHOWN", share)
        monkeypatch.setattr(land, "UNLIKE_BARE", 0.0)  # the other way back to a tile, left out here
        monkeypatch.setattr(land.LandReader, "_starting", lambda self, results, cells: None)  # and another
        fr = cs.frame(60)
        rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), stream=False)
        rec.land.classifiers = {s: _TilesAsEmpty(c) for s, c in rec.land.classifiers.items()}
        obs = rec.read(fr.image)
        truth = {(h.seat, h.hex): h for h in observation_from_truth(fr.truth).hexes if h.tile}
        return {(h.seat, h.hex): h for h in obs.hexes if h.tile}, truth, set(rec.land.seat_coloured)

    shipped = land.SEAT_SHOWN
    off, truth, none = read(0.0)
    assert not off and not none  # every tile lost
    on, _, turned = read(shipped)
    assert len(turned) >= 2 and set(on) == turned and turned <= set(truth)
    assert all(truth[c].members for c in turned)  # the seat's members on them (and art much like them)
    for c in turned:
        h, t = on[c], truth[c]
        assert h.tile_conf == land.SEAT_TILE_CONF and h.resource_conf == land.OUTLINE_CAP and not h.rivals
        assert (h.exhausted, h.exhausted or h.resource) == (t.exhausted, t.exhausted or t.resource)
    # the walk went on from them: their neighbours were read (empty, as the fooled model says)
    assert len(on) < len(truth)
