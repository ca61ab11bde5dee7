"""Tile types held against the enrolled art where the tile model hesitates
(games.tribes.vision.readers.land, ``TEMPLATE_SHARE``): an exhausted back darkened by a member and
its shadow, which the model takes for a grey resource tile, is read as the back by its art; a tile
the model is sure of is not compared at all; without templates the model's reading stands."""

from __future__ import annotations

import numpy as np
import pytest

from games.tribes.vision.enrollment import EMPTY
from games.tribes.vision.readers.land import CASCADE, STRUCTURE_SHARE, LandReader
from vision.classify import ExampleClassifier
from vision.templates import TemplateMatcher

PX = 40
CLASSES = [EMPTY, "exhausted", "resource:gold"]


def _hex(paper: float, diamond: bool = False, member: bool = False) -> np.ndarray:
    """A window of a hex tile of grey ``paper`` on a wooden table (normalised BGR), with a tan
    diamond in the middle and/or a dark member with its shadow a little off the middle."""
    yy, xx = np.mgrid[0:PX, 0:PX].astype(np.float32) - (PX - 1) / 2
    out = np.empty((PX, PX, 3), np.float32)
    out[:] = (0.35, 0.55, 0.7)  # wood
    r = 17.0
    inside = (np.abs(yy) <= np.sqrt(3) / 2 * r) & (np.abs(xx) * np.sqrt(3) / 2 + np.abs(yy) / 2 <= np.sqrt(3) / 2 * r)
    out[inside] = paper
    out[inside & (np.abs(xx) + np.abs(yy) < 7)] = (0.55, 0.75, 0.85) if diamond else paper
    if member:
        shadow = inside & (np.hypot(xx - 5, yy - 3) < 9)
        out[shadow] *= 0.65
        out[np.hypot(xx - 3, yy - 1) < 5] = (0.1, 0.1, 0.1)
    rng = np.random.default_rng(int(paper * 100))
    return np.clip(out + rng.normal(0, 0.01, out.shape).astype(np.float32), 0, 1)


def _reader(templates: bool) -> tuple[LandReader, ExampleClassifier]:
    art = np.stack([_hex(0.95), _hex(0.95), _hex(0.72, diamond=True), _hex(0.72, diamond=True)])
    labels = ["exhausted", "exhausted", "resource:gold", "resource:gold"]
    tm = TemplateMatcher(art, labels) if templates else None
    reader = LandReader(encoder=None, classifiers={}, counter=None, colours={}, templates=tm)  # type: ignore[arg-type]
    cls = ExampleClassifier(np.eye(3, dtype=np.float32), CLASSES)
    return reader, cls


def test_an_exhausted_back_under_a_member_is_read_by_its_art_not_as_the_darker_tile():
    windows = np.stack([_hex(0.95, member=True), _hex(0.72, diamond=True, member=True)])
    probs = np.array([[0.01, 0.30, 0.69], [0.01, 0.30, 0.69]], np.float32)  # the model: gold, unsure
    reader, cls = _reader(templates=True)
    (back, back_conf, back_p), (gold, _, _) = reader._by_art(cls, probs, windows)
    assert cls.classes[back] == "exhausted" and back_conf > 0.5
    # the probabilities of every class come with it: the chosen one's is its confidence
    assert back_p.sum() == pytest.approx(1.0) and back_p[back] == pytest.approx(back_conf)
    assert cls.classes[gold] == "resource:gold"  # a gold tile under a member stays gold
    plain, cls = _reader(templates=False)
    (b, conf, p), _ = plain._by_art(cls, probs, windows)
    assert cls.classes[b] == "resource:gold" and conf == pytest.approx(0.69)
    assert list(p) == pytest.approx([0.01, 0.30, 0.69])


def test_a_tile_type_the_model_is_sure_of_and_an_empty_hex_are_not_compared(monkeypatch):
    reader, cls = _reader(templates=True)
    asked: list[int] = []
    original = TemplateMatcher.disagreement

    def spy(self, windows01, only=None, plain=None):
        asked.append(len(windows01))
        return original(self, windows01, only, plain)

    monkeypatch.setattr(TemplateMatcher, "disagreement", spy)
    sure = np.exp(-CASCADE - 0.5)  # the rival a little beyond the cascade
    probs = np.array([[0.0, sure, 1.0 - sure], [0.9, 0.05, 0.05]], np.float32)
    windows = np.stack([_hex(0.95, member=True), _hex(0.95)])
    out = reader._by_art(cls, probs, windows)
    assert asked == []
    assert [cls.classes[b] for b, _, _ in out] == ["resource:gold", EMPTY]


def _pale(paper: tuple[float, float, float], member: bool = False) -> np.ndarray:
    """A hex tile of pale art: plain paper of a faint tint (BGR), no symbol to speak of; with a yellow
    member and its shadow on it."""
    yy, xx = np.mgrid[0:PX, 0:PX].astype(np.float32) - (PX - 1) / 2
    out = np.empty((PX, PX, 3), np.float32)
    out[:] = (0.35, 0.55, 0.7)
    r = 17.0
    inside = (np.abs(yy) <= np.sqrt(3) / 2 * r) & (np.abs(xx) * np.sqrt(3) / 2 + np.abs(yy) / 2 <= np.sqrt(3) / 2 * r)
    out[inside] = paper
    if member:
        out[inside & (np.hypot(xx - 5, yy - 3) < 9)] *= 0.65
        out[np.hypot(xx - 3, yy - 1) < 5] = (0.1, 0.8, 0.9)
    rng = np.random.default_rng(7)
    return out + rng.normal(0, 0.01, out.shape).astype(np.float32)


BACK, GOAT = (1.02, 1.02, 1.02), (0.93, 1.03, 0.95)  # pale art can lie above the printed white


def test_pale_faces_are_told_apart_by_the_colour_of_their_paper():
    """Pale art: the back and a goat tile differ only by a few per cent of tint (above the printed
    white: a camera exposed for the colour patch). The paper colour (the brighter half's median, the
    yellow member left out as far more coloured than any paper) names the goat tile under a member
    and its shadow; where the model hesitates between the two, the reader then reads goat — where the
    three looks alone leave the bare goat tile to the model's slight preference for the back (the fine
    look's white balance and the coarse look's gain take the tint away). (A reader whose encoder knows
    the seat's colour does not judge the paper under members: the next test.)"""
    art = np.stack([_pale(BACK), _pale(BACK), _pale(GOAT), _pale(GOAT)])
    labels = ["exhausted", "exhausted", "resource:goat", "resource:goat"]
    tm = TemplateMatcher(art, labels)
    windows = np.stack([_pale(GOAT, member=True), _pale(GOAT)])
    d = tm.paper(windows)
    goat, back = tm.index["resource:goat"], tm.index["exhausted"]
    assert (d[:, goat] < d[:, back]).all() and (d[:, back] - d[:, goat] > 0.05).all()
    cls = ExampleClassifier(np.eye(3, dtype=np.float32), [EMPTY, "exhausted", "resource:goat"])
    probs = np.array([[0.01, 0.52, 0.47], [0.01, 0.52, 0.47]], np.float32)  # the model: the back, barely
    picks = {}
    for scale in (0.05, 0.0):
        reader = LandReader(encoder=None, classifiers={}, counter=None, colours={}, templates=tm, paper_scale=scale)  # type: ignore[arg-type]
        picks[scale] = [cls.classes[b] for b, _, _ in reader._by_art(cls, probs, windows)]
    assert picks[0.05] == ["resource:goat", "resource:goat"]
    assert picks[0.0][1] == "exhausted"


def test_the_paper_is_not_judged_where_the_seat_s_members_stand():
    """Where the encoder hides more than ``PAPER_HIDDEN`` of the paper's disc as the seat's colour
    (members on the tile), the paper colour is not judged (a row of NaN): their shadows and colour move
    it. A bare window is judged."""

    class Hides:
        def visible(self, windows, group, key):
            assert group == "hex" and key == "seat:2"
            return ~((windows[..., 2] > 0.8) & (windows[..., 0] < 0.3))  # the yellow member

    art = np.stack([_pale(BACK), _pale(GOAT)])
    tm = TemplateMatcher(art, ["exhausted", "resource:goat"])
    reader = LandReader(encoder=Hides(), classifiers={}, counter=None, colours={}, templates=tm)  # type: ignore[arg-type]
    d = reader.paper_distances(np.stack([_pale(GOAT, member=True), _pale(GOAT)]), seat=2)
    assert np.isnan(d[0]).all() and not np.isnan(d[1]).any()
    assert d[1, tm.index["resource:goat"]] < d[1, tm.index["exhausted"]]


def _faint(symbol: str, member: bool = False) -> np.ndarray:
    """A hex tile of pale art: near-white paper with a faint symbol (a bar or a ring, a few per cent
    darker than the paper); with a yellow member and its shadow on it."""
    yy, xx = np.mgrid[0:PX, 0:PX].astype(np.float32) - (PX - 1) / 2
    out = np.empty((PX, PX, 3), np.float32)
    out[:] = (0.35, 0.55, 0.7)
    r = 17.0
    inside = (np.abs(yy) <= np.sqrt(3) / 2 * r) & (np.abs(xx) * np.sqrt(3) / 2 + np.abs(yy) / 2 <= np.sqrt(3) / 2 * r)
    out[inside] = (0.93, 0.94, 0.95)
    mark = (np.abs(yy) < 2.5) & (np.abs(xx) < 8) if symbol == "bar" else np.abs(np.hypot(xx, yy) - 6) < 1.5
    out[inside & mark] -= 0.06
    if member:
        out[inside & (np.hypot(xx + 6, yy + 7) < 6)] *= 0.65
        out[np.hypot(xx + 5, yy + 7) < 4] = (0.1, 0.8, 0.9)
    rng = np.random.default_rng(11 if symbol == "bar" else 12)
    return np.clip(out + rng.normal(0, 0.008, out.shape).astype(np.float32), 0, 1)


class _SeesYellow:
    """An encoder that hides the seat's yellow members (all it is asked for here)."""

    def visible(self, windows, group, key):
        assert group == "hex" and key == "seat:2"
        return ~((windows[..., 2] > 0.8) & (windows[..., 0] < 0.3))


def test_a_bare_pale_tile_is_read_surely_by_where_its_faint_symbol_lies(monkeypatch):
    """Pale art: two types whose paper is alike and whose symbols are faint. Where no member shows,
    the structure look counts once more on its own (``STRUCTURE_SHARE``) and the type is read surely
    (0.73: the tracker's weak resource); the three looks joined alone, whose fine look finds the two
    alike, leave it unsure. A window showing the seat's member is judged by the three looks joined."""
    art = np.stack([_faint("bar"), _faint("bar"), _faint("ring"), _faint("ring")])
    labels = ["resource:gold", "resource:gold", "resource:goat", "resource:goat"]
    tm = TemplateMatcher(art, labels)
    cls = ExampleClassifier(np.eye(3, dtype=np.float32), [EMPTY, "resource:gold", "resource:goat"])
    probs = np.array([[0.01, 0.45, 0.54]] * 2, np.float32)  # the model: goat, barely
    windows = np.stack([_faint("bar"), _faint("bar", member=True)])
    flagged: list[list[bool]] = []
    original = TemplateMatcher.disagreement

    def spy(self, windows01, only=None, plain=None, again=None, weight=1.0):
        flagged.append([] if again is None else [bool(a) for a in again])
        return original(self, windows01, only, plain, again, weight)

    monkeypatch.setattr(TemplateMatcher, "disagreement", spy)
    conf, asked = {}, {}
    for share in (STRUCTURE_SHARE, 0.0):
        reader = LandReader(
            encoder=_SeesYellow(), classifiers={}, counter=None, colours={}, templates=tm, structure_share=share
        )  # type: ignore[arg-type]
        flagged.clear()
        (bare, conf[share], _), (under, _, _) = reader._by_art(cls, probs, windows, seat=2)
        assert cls.classes[bare] == "resource:gold" and cls.classes[under] == "resource:gold"
        asked[share] = list(flagged)
    # the structure look counts again for the bare window only
    assert asked == {STRUCTURE_SHARE: [[True, False]], 0.0: [[False, False]]}
    assert conf[STRUCTURE_SHARE] >= 0.73 > conf[0.0]
