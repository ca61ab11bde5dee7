"""The achievement board's second cue (games.tribes.vision.readers.board): where the features hesitate
between two tiles of an era, the tiles' art decides; positions are compared with their era's tiles
alone; a stream keeps the shares of a position whose window did not change; a position the features
are sure of is not compared at all."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from games.tribes.rules.profile import default_profile
from games.tribes.vision.readers.board import BoardReader
from vision.classify import ExampleClassifier
from vision.templates import TemplateMatcher

PROFILE = default_profile()
POSITIONS = [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0)]


def _art(seed: int, px: int = 40) -> np.ndarray:
    rng = np.random.default_rng(seed)
    cells = rng.uniform(0.1, 0.9, (6, 6, 3)).astype(np.float32)
    return cv2.resize(cells, (px, px), interpolation=cv2.INTER_LINEAR)


class _Encoder:
    """Features chosen by the test, one row per window in order (the windows themselves ignored)."""

    def __init__(self, rows: np.ndarray) -> None:
        self.rows = rows

    def encode(self, windows01: np.ndarray, group: str, key: str) -> np.ndarray:
        return self.rows[: len(windows01)]


class _Ctx:
    """What ``BoardReader._tiles`` reads of a frame: the windows and the board's positions."""

    def __init__(self, windows: np.ndarray) -> None:
        self._windows = windows
        self.regions = SimpleNamespace(board_positions=POSITIONS)
        self.reg = SimpleNamespace(serial=1)
        self.timings: dict[str, float] = {}

    def windows(self, ps: Any) -> np.ndarray:
        return self._windows


def _board() -> tuple[list[str], dict[str, np.ndarray], list[str], np.ndarray, ExampleClassifier]:
    """The board's classes (every achievement, the backs of eras 2 and 3), art for each, and a
    classifier whose features are one axis per class."""
    labels = [f"achievement:{a.id}" for a in PROFILE.achievements] + ["back:2", "back:3"]
    art = {lb: _art(i) for i, lb in enumerate(labels)}
    classes = sorted(labels)
    eye = np.eye(len(classes), dtype=np.float32)
    return labels, art, classes, eye, ExampleClassifier(eye, classes, temperature=0.05)


def _compared(tm: TemplateMatcher | None) -> list[tuple[int, tuple[str, ...]]]:
    """Spies on ``tm``: every call of its disagreement is listed (how many windows, which classes)."""
    assert tm is not None
    calls: list[tuple[int, tuple[str, ...]]] = []
    original = tm.disagreement

    def spy(w: np.ndarray, only: Any = None, *rest: Any) -> np.ndarray:
        calls.append((len(w), tuple(only or ())))
        return original(w, only, *rest)

    tm.disagreement = spy  # type: ignore[method-assign]
    return calls


def _reader(features_for: list[str], templates: bool, cache: bool = False) -> tuple[BoardReader, np.ndarray, list[str]]:
    """A board reader whose features put each position between its true tile and the class
    ``features_for`` names (a little closer to that one), and the windows showing each position's
    true tile (position (era, col): the era's col-th achievement)."""
    labels, art, classes, eye, clf = _board()
    true = [f"achievement:{PROFILE.achievements_of_era(e)[c].id}" for e, c in POSITIONS]
    rows = []  # a position's features lean to the class it is told
    for told, own in zip(features_for, true, strict=True):  # a little closer to the told class
        v = 0.725 * eye[classes.index(told)] + 0.675 * eye[classes.index(own)]
        rows.append(v / np.linalg.norm(v))
    windows = np.stack([art[lb] for lb in true])
    tm = TemplateMatcher(np.stack([art[lb] for lb in labels]), labels) if templates else None
    reader = BoardReader(_Encoder(np.stack(rows)), clf, PROFILE, [], templates=tm, cache=cache)
    return reader, windows, true


def _misleading() -> list[str]:
    """Per position, the features' pick: right for era 1, another tile of the era for eras 2 and 3."""
    return [f"achievement:{PROFILE.achievements_of_era(e)[c if e == 1 else c + 3].id}" for e, c in POSITIONS]


def test_the_art_decides_where_the_features_point_at_another_tile_of_the_era():
    told = _misleading()
    plain, windows, true = _reader(told, templates=False)
    both, _, _ = _reader(told, templates=True)
    ctx = _Ctx(windows)
    got_plain = [t for t, _c, _f in plain._tiles(ctx, None)]  # type: ignore[arg-type]
    got_both = [t for t, _c, _f in both._tiles(ctx, None)]  # type: ignore[arg-type]
    want = [lb.split(":", 1)[1] for lb in true]
    assert got_both == want
    # without the art the features' picks stand, where they are wrong too
    assert got_plain[2:] == [t.split(":", 1)[1] for t in told[2:]] and got_plain[2:] != want[2:]


def test_positions_are_compared_with_their_eras_tiles_alone_and_a_stream_keeps_unchanged_shares():
    reader, windows, _true = _reader(_misleading(), templates=True, cache=True)
    calls = _compared(reader.templates)
    first = reader._tiles(_Ctx(windows), None)  # type: ignore[arg-type]
    for _n, only in calls:
        eras = {PROFILE.achievement(c[12:]).era if c.startswith("achievement:") else int(c[5:]) for c in only}
        assert len(eras) == 1  # one era a call
    # era 1's two positions are told their own tile (the features are sure): left to the features
    assert sum(n for n, _ in calls) == len(POSITIONS) - 2
    calls.clear()
    again = reader._tiles(_Ctx(windows.copy()), None)  # type: ignore[arg-type]
    assert calls == [] and again == first  # nothing changed: nothing compared again
    changed = windows.copy()
    changed[2] = _art(99)
    reader._tiles(_Ctx(changed), None)  # type: ignore[arg-type]
    assert sum(n for n, _ in calls) == 1


def test_a_position_the_features_are_sure_of_is_not_compared_with_the_templates():
    """The cascade (``CASCADE``): the art is asked only where the features leave a second tile close."""
    true = [f"achievement:{PROFILE.achievements_of_era(e)[c].id}" for e, c in POSITIONS]
    told = [*true[:2], *_misleading()[2:]]  # sure of the first two (told their own tile), torn elsewhere
    reader, windows, _ = _reader(told, templates=True)
    calls = _compared(reader.templates)
    got = [t for t, _c, _f in reader._tiles(_Ctx(windows), None)]  # type: ignore[arg-type]
    assert got == [lb.split(":", 1)[1] for lb in true]
    assert sum(n for n, _ in calls) == len(POSITIONS) - 2  # the two sure positions were left to the features


def _sure_of(told: list[str], windows_of: list[str]) -> tuple[BoardReader, np.ndarray]:
    """A board reader whose features are sure of the classes ``told`` (one per position) and the
    windows showing the classes ``windows_of``."""
    labels, art, classes, eye, clf = _board()
    rows = np.stack([eye[classes.index(t)] for t in told])
    tm = TemplateMatcher(np.stack([art[lb] for lb in labels]), labels)
    reader = BoardReader(_Encoder(rows), clf, PROFILE, [], templates=tm)
    return reader, np.stack([art[lb] for lb in windows_of])


class _ReadCtx(_Ctx):
    """What ``BoardReader.read`` needs beside the windows: the board's patches, all in view."""

    def __init__(self, windows: np.ndarray) -> None:
        super().__init__(windows)
        self.regions = SimpleNamespace(board_positions=POSITIONS, board_patches=lambda: None)

    def inside(self, ps: Any) -> np.ndarray:
        return np.ones(len(POSITIONS), bool)


def test_a_revealed_face_the_features_take_for_the_back_is_read_face_up_by_its_art():
    """R-ACH-8 turns a tile over; its face, enrolled from the capture sheet alone, may look to the
    features like the era's back (pale art): a position read face down is always held against the
    art, where the back weighs more (``BACK_SHARE``). A true back stays face down."""
    true = [f"achievement:{PROFILE.achievements_of_era(e)[c].id}" for e, c in POSITIONS]
    told = [*true[:2], "back:2", "back:2", "back:3"]  # sure of the back at every position of eras 2, 3
    shown = [*true[:3], "back:2", "back:3"]  # but the first position of era 2 shows its face
    reader, windows = _sure_of(told, shown)
    calls = _compared(reader.templates)
    got = reader._tiles(_Ctx(windows), None)  # type: ignore[arg-type]
    assert [t for t, _c, _f in got] == [*(lb.split(":", 1)[1] for lb in true[:3]), None, None]
    assert sum(n for n, _ in calls) == 3  # the three positions read face down were looked at, the two sure faces not
    assert got[2][2] > 0.9 and got[3][2] > 0.9  # the side is plain both ways


def test_stones_on_a_position_read_face_down_turn_it_face_up():
    """R-ACH-5: a marking stone lies on a face-up tile. The features and the art both say face down
    (the window shows the back), yet stones are read there: the position is solved again without its
    back, and its stones are read again against what it now holds."""
    told = [f"achievement:{PROFILE.achievements_of_era(e)[c].id}" for e, c in POSITIONS[:2]]
    told += ["back:2", "back:2", "back:3"]
    reader, windows = _sure_of(told, told)
    calls: list[tuple[list[str | None], Any]] = []

    def stones(
        ctx: Any, tiles: list[str | None], only: Any = None
    ) -> dict[tuple[int, int], tuple[tuple[str | None, ...], float]]:
        calls.append((list(tiles), only))
        return {(2, 1): (("red",), 0.8)}

    reader._stones = stones  # type: ignore[method-assign]
    got, hidden = reader.read(_ReadCtx(windows))  # type: ignore[arg-type]
    assert hidden == set()
    by_pos = {(b.era, b.col): b for b in got}
    assert by_pos[(2, 0)].tile is None and by_pos[(3, 0)].tile is None  # no stones: still face down
    face = by_pos[(2, 1)]
    # face up; nothing shows which face (the window is the back's): the unknown face, unsure of it
    assert face.tile == "?" and face.tile_conf <= 0.3
    assert face.stones == ("red",) and face.face_conf >= 0.8
    # read again only where a tile changed: that position
    assert [c[1] for c in calls] == [None, {(2, 1)}]
    assert calls[0][0][3] is None and calls[1][0][3] == face.tile


def test_a_position_names_its_rivals_from_its_own_columns():
    """The rivals of a position (``BoardReading.rivals``) are a softmax over the columns it may take:
    its era's achievements, its back ("back": face down) and the unknown face, each name once, the
    tile reported left out; columns barred to it (another era's tiles) are none of them."""
    from games.tribes.vision.readers.board import BIG, _rivals

    cols = ["achievement:leder", "achievement:kaese", "achievement:jagen", "back:2", "back:2", "?", "?"]
    cost = np.array([0.2, 2.5, BIG / 4, 1.0, 1.0, 4.0, 4.0])
    got = _rivals(cost, cols, "leder")
    z = np.exp(-0.0) + np.exp(-2.3) + np.exp(-0.8) + np.exp(-3.8)
    assert set(got) == {"kaese", "back", "?"}
    assert got["kaese"] == pytest.approx(np.exp(-2.3) / z, abs=1e-4)
    assert got["back"] == pytest.approx(np.exp(-0.8) / z, abs=1e-4)
    down = _rivals(cost, cols, None)  # read face down: the faces are its rivals
    assert set(down) == {"leder", "kaese", "?"}


class _SeesRed(_Encoder):
    """Features as :class:`_Encoder`; a player's red hidden (a stone) where the encoder is asked."""

    def visible(self, windows01: np.ndarray, group: str, key: str) -> np.ndarray:
        assert group == "board" and key == "players"
        w = np.asarray(windows01)
        return ~((w[..., 2] > 0.8) & (w[..., 0] < 0.2) & (w[..., 1] < 0.2))


def test_a_position_showing_no_stone_counts_its_structure_look_once_more(monkeypatch):
    """``STRUCTURE_SHARE``: a position asked of the templates whose window shows no player's colour (a
    tile just turned up) counts its structure look once more; one with a stone on it does not (the
    stone's outline is detail of its own); a position the features are sure of is not asked at all."""
    from games.tribes.vision.readers import board as board_module

    reader, windows, true = _reader(_misleading(), templates=True)
    windows = windows.copy()
    windows[3, 8:16, 8:16] = (0.05, 0.05, 0.95)  # a red stone on the era-2 tile at (2, 1)
    reader.encoder = _SeesRed(reader.encoder.rows)  # type: ignore[attr-defined]
    flagged: list[tuple[bool, ...]] = []
    original = board_module.template_shares

    def spy(*args: Any, **kw: Any) -> np.ndarray:
        flagged.append(tuple(kw.get("again") or ()))
        return original(*args, **kw)

    monkeypatch.setattr(board_module, "template_shares", spy)
    got = [t for t, _c, _f in reader._tiles(_Ctx(windows), None)]  # type: ignore[arg-type]
    assert got[:3] == [lb.split(":", 1)[1] for lb in true[:3]] and got[4] == true[4].split(":", 1)[1]
    # era 1 (sure: not asked) no; (2, 0) and (3, 0) bare: yes; (2, 1) under its stone: no
    assert flagged == [(False, False, True, False, True)]
    monkeypatch.setattr(board_module, "STRUCTURE_SHARE", 0.0)
    flagged.clear()
    reader._tiles(_Ctx(windows), None)  # type: ignore[arg-type]
    assert flagged == [()]
