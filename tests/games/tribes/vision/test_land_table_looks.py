"""Members held against the bare look of the very tile they would stand on
(games.tribes.vision.readers.land): a tile whose count window still shows its type's enrolled art, or
in a stream its own look at this table while it was free, holds no member, surely, whatever the
counter made of dark art under a black player's colour; a tile that shows a member is left to the
counter; a stream learns only the looks of tiles read free surely and forgets them when the tile
changes."""

from __future__ import annotations

from typing import Any

import numpy as np

from games.tribes.vision.readers import land
from games.tribes.vision.readers.land import LandReader
from games.tribes.vision.regions import COUNT_PATCH_MM, COUNT_PX, EMBED_PX, HEX_PATCH_MM
from tests.games.tribes.vision.one_window import OneWindow

BLACK = np.array([3.5, 0.0, -1.0], np.float32)  # Lab of the black members, as enrolled
SEAT = 0
TILE = (SEAT, (1, 0))
LABEL = "resource:goat"


NEAR_BLACK = (0.10, 0.14, 0.18)  # dark art as black as the members (Lab lightness 4): it hides them
DARK = (0.30, 0.34, 0.38)  # dark art that does not (lightness 35)


def _window(
    side_mm: float,
    px: int,
    member: bool,
    light: tuple[float, float, float] = (1, 1, 1),
    tone: tuple[float, float, float] = NEAR_BLACK,
) -> np.ndarray:
    """A window ``side_mm`` wide of dark, dotted tile art of ``tone`` (normalised BGR), with a black
    member (a disc of 6 mm radius) 5 mm off its centre, all under a light of gains ``light`` (B, G, R)."""
    c = (np.arange(px) + 0.5) / px * side_mm - side_mm / 2
    x, y = np.meshgrid(c, c)
    out = np.empty((px, px, 3), np.float32)
    out[:] = tone
    out[np.hypot((x + 3) % 6 - 3, (y + 3) % 6 - 3) < 1.6] = np.asarray(tone, np.float32) / 2
    if member:
        out[np.hypot(x - 5, y) < 6] = 0.01
    return out * np.asarray(light, np.float32)


class _Counter:
    """Says what it is told: P(count) per window, the same for every window."""

    def __init__(self, count: int, p: float) -> None:
        self.set(count, p)

    def set(self, count: int, p: float) -> None:
        self.row = np.full(16, (1.0 - p) / 15, np.float32)
        self.row[count] = p

    leans = False  # reads no lean ramps

    def probabilities(self, patches01: np.ndarray, like: np.ndarray, lean: np.ndarray | None = None) -> np.ndarray:
        return np.tile(self.row, (len(like), 1))


def _reader(
    counter: _Counter,
    learn: bool,
    enrolled: bool = True,
    cache: bool = False,
    tone: tuple[float, float, float] = NEAR_BLACK,
) -> LandReader:
    art = _window(HEX_PATCH_MM, EMBED_PX, member=False, tone=tone)
    return LandReader(
        encoder=None,  # type: ignore[arg-type]
        classifiers={},
        counter=counter,
        colours={SEAT: ("black", BLACK, 1.5)},
        examples=(np.stack([art, art]), [LABEL, LABEL]) if enrolled else None,
        learn=learn,
        cache=cache,
    )


def _read(reader: LandReader, window: np.ndarray, label: str = LABEL) -> tuple[int, float]:
    return reader._members(OneWindow(window), [TILE], [label])[TILE]  # type: ignore[arg-type]


def test_a_tile_showing_its_enrolled_art_holds_no_member_and_one_showing_a_member_is_left_to_the_counter() -> None:
    bare = _window(COUNT_PATCH_MM, COUNT_PX, member=False)
    fooled = _Counter(1, 0.7)  # dark art under a black player's colour: the counter sees a member
    reader = _reader(fooled, learn=False)
    assert _read(reader, bare) == (0, land.EMPTY_CONF)
    assert reader.last_art[TILE][0] < land.ART_SAME
    unsure = _Counter(0, 0.6)
    assert _read(_reader(unsure, learn=False), bare) == (0, land.EMPTY_CONF)
    # a member standing there: the window is not the art, so the counter's reading stands
    with_member = _window(COUNT_PATCH_MM, COUNT_PX, member=True)
    n, conf = _read(_reader(_Counter(1, 0.7), learn=False), with_member)
    assert (n, round(conf, 3)) == (1, 0.7)
    assert reader.table_bare == {}  # a single photo keeps no looks
    # two members or more are not held against the art at all; nor is a tile nothing was enrolled of
    assert _read(_reader(_Counter(2, 0.7), learn=False), bare)[0] == 2
    assert _read(_reader(_Counter(1, 0.7), learn=False, enrolled=False), bare)[0] == 1
    # nor a counter's sure reading of none on art that does not hide the members (it stays as sure)
    dark_bare = _window(COUNT_PATCH_MM, COUNT_PX, member=False, tone=DARK)
    sure = _reader(_Counter(0, 0.95), learn=False, tone=DARK)
    n, conf = _read(sure, dark_bare)
    assert n == 0 and abs(conf - 0.95) < 1e-6 and TILE not in sure.last_art


def test_a_stream_learns_a_free_tiles_look_at_this_table_reads_it_surely_free_then_and_forgets_it() -> None:
    # this camera shows the art warmer than enrollment did: the enrolled art no longer helps
    warm = (0.7, 1.0, 1.6)
    bare = _window(COUNT_PATCH_MM, COUNT_PX, member=False, light=warm, tone=DARK)
    counter = _Counter(0, 0.6)
    reader = _reader(counter, learn=True, tone=DARK)  # art that does not hide the members (see below)
    n, conf = _read(reader, bare)
    assert n == 0 and conf < land.EMPTY_CONF
    assert reader.last_art[TILE][0] >= land.ART_SAME and reader.table_bare == {}  # unsure: not learned
    counter.set(0, 0.95)
    assert _read(reader, bare)[0] == 0
    assert TILE in reader.table_bare and reader.table_bare[TILE][0] == LABEL
    counter.set(1, 0.7)  # the counter's doubt on the very same look
    assert _read(reader, bare) == (0, land.EMPTY_CONF)
    assert reader.last_table[TILE] < land.EMPTY_SAME
    # a black member put down there: the look is not shown, the counter decides, the look is kept
    counter.set(1, 0.8)
    assert _read(reader, _window(COUNT_PATCH_MM, COUNT_PX, member=True, light=warm, tone=DARK))[0] == 1
    assert reader.last_table[TILE] >= land.EMPTY_SAME and TILE in reader.table_bare
    # the light drifts slowly: the look follows it
    counter.set(0, 0.95)
    kept = reader.table_bare[TILE][1].copy()
    _read(reader, _window(COUNT_PATCH_MM, COUNT_PX, member=False, light=(0.72, 1.02, 1.63), tone=DARK))
    w = land.LOOK_WEIGHT
    assert 0 < w < 1 and not np.allclose(reader.table_bare[TILE][1], kept)
    # the tile turned over (another label there now): its look is forgotten
    counter.set(1, 0.7)
    assert _read(reader, bare, label="exhausted")[0] == 1 and TILE not in reader.table_bare
    counter.set(0, 0.95)
    _read(reader, bare)
    assert TILE in reader.table_bare
    reader.reset()
    assert reader.table_bare == {}


def test_one_member_is_taken_away_only_where_the_art_shows_closely(monkeypatch: Any) -> None:
    """Between FLIP_SAME and ART_SAME a window is near enough its art to make a reading of none sure,
    not near enough to take a member away (a black member on a dark back can differ that little)."""
    with_member = _window(COUNT_PATCH_MM, COUNT_PX, member=True, tone=DARK)
    reader = _reader(_Counter(1, 0.6), learn=False, tone=DARK)
    assert _read(reader, with_member)[0] == 1
    share, counted = reader.last_art[TILE]
    assert counted == 1
    assert share > land.FLIP_SAME
    assert reader.last_hide[TILE] <= land.HIDE_SHARE  # this art does not look like the black members
    monkeypatch.setattr(land, "ART_SAME", share + 0.01)  # as near as a black member on a dark back
    assert _read(_reader(_Counter(1, 0.6), learn=False, tone=DARK), with_member)[0] == 1
    assert _read(_reader(_Counter(0, 0.6), learn=False, tone=DARK), with_member) == (0, land.EMPTY_CONF)
    monkeypatch.setattr(land, "FLIP_SAME", share + 0.01)
    assert _read(_reader(_Counter(1, 0.6), learn=False, tone=DARK), with_member) == (0, land.EMPTY_CONF)
    # a stream never learns a look from a member taken away
    stream = _reader(_Counter(1, 0.6), learn=True, tone=DARK)
    assert _read(stream, with_member) == (0, land.EMPTY_CONF) and stream.table_bare == {}


def test_art_that_looks_like_the_members_vouches_for_none_only_closely(monkeypatch: Any) -> None:
    """On art as black as the black members (HIDE_SHARE) a member barely changes the tile's look: a
    window between FLIP_SAME and ART_SAME of that art leaves an unsure reading of none unsure, and a
    stream learns no look from it (found through the tracker: the black member on a dark exhausted
    starting tile was made a sure none, learned into the tile's look, and read as none from then on)."""
    with_member = _window(COUNT_PATCH_MM, COUNT_PX, member=True)
    probe = _reader(_Counter(0, 0.6), learn=False)
    n, conf = _read(probe, with_member)
    share = probe.last_art[TILE][0]
    assert probe.last_hide[TILE] > land.HIDE_SHARE and share > land.FLIP_SAME
    monkeypatch.setattr(land, "ART_SAME", share + 0.01)  # as near as on the dark back through the tracker
    stream = _reader(_Counter(0, 0.6), learn=True)
    n, conf = _read(stream, with_member)
    assert n == 0 and abs(conf - 0.6) < 1e-6  # the counter's doubt stands
    assert stream.table_bare == {}
    # the bare art itself still makes the doubt sure: it shows within FLIP_SAME
    assert _read(stream, _window(COUNT_PATCH_MM, COUNT_PX, member=False)) == (0, land.EMPTY_CONF)
    assert stream.last_art[TILE][0] < land.FLIP_SAME and TILE in stream.table_bare
    # art that does not look like the members, the same distance off: sure, as before
    monkeypatch.setattr(land, "HIDE_SHARE", 1.0)
    assert _read(_reader(_Counter(0, 0.6), learn=False), with_member) == (0, land.EMPTY_CONF)


def test_on_art_that_hides_the_members_a_counters_sure_none_is_held_against_the_looks_too() -> None:
    """A counter can read a black member on near-black art as none at 0.9 and more (a counter trained
    longer did, through the tracker): there even a sure reading of none is held against the looks, and
    is left at most HIDE_CONF sure, and unlearned, unless a look shows closely (FLIP_SAME)."""
    with_member = _window(COUNT_PATCH_MM, COUNT_PX, member=True)
    stream = _reader(_Counter(0, 0.95), learn=True)
    assert _read(stream, with_member) == (0, land.HIDE_CONF) and land.HIDE_CONF < land.LEARN_CONF
    assert stream.last_hide[TILE] > land.HIDE_SHARE and stream.last_art[TILE][0] > land.FLIP_SAME
    assert stream.table_bare == {}
    # the bare art shows closely: sure, and learned
    assert _read(stream, _window(COUNT_PATCH_MM, COUNT_PX, member=False)) == (0, land.EMPTY_CONF)
    assert TILE in stream.table_bare
    # then the member again: the kept look does not show either, so the counter's none stays unsure
    assert _read(stream, with_member) == (0, land.HIDE_CONF)
    assert stream.last_table[TILE] > land.FLIP_SAME
    # a counter already this unsure keeps its own doubt
    assert _read(_reader(_Counter(0, 0.4), learn=False), with_member)[1] < 0.41
    # the price: under a light the enrolled art no longer matches, such a tile learns no look from the
    # counter alone (the look at this table then comes from the art, after the light is followed)
    warm = _reader(_Counter(0, 0.95), learn=True)
    assert _read(warm, _window(COUNT_PATCH_MM, COUNT_PX, member=False, light=(0.7, 1.0, 1.6))) == (0, land.HIDE_CONF)
    assert warm.table_bare == {}


def test_a_streams_unchanged_window_keeps_its_reading_with_the_looks_held_against_it() -> None:
    """The count cache keeps a window's reading while it does not change: the reading after the art
    and the looks were held against it, so they are not asked again (nor the counter)."""
    bare = _window(COUNT_PATCH_MM, COUNT_PX, member=False)
    counter = _Counter(1, 0.7)
    reader = _reader(counter, learn=True, cache=True)
    assert _read(reader, bare) == (0, land.EMPTY_CONF)
    counter.set(2, 0.99)  # were the counter asked again, it would say two
    assert _read(reader, bare) == (0, land.EMPTY_CONF)
    assert reader.last_art == {} and reader.last_table == {}  # nothing held against anything this time
    n, conf = _read(reader, _window(COUNT_PATCH_MM, COUNT_PX, member=True))  # the window changed
    assert (n, round(conf, 2)) == (2, 0.99)
