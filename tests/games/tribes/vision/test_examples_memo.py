"""The enrolled examples' vectors are kept for the next recognizer on the same enrollment
(games/tribes/vision/encoder.py, ``examples_memo``): the same classifiers, and nothing kept that a
change of model, colours or windows should have changed."""

from __future__ import annotations

import dataclasses
from collections import OrderedDict

import numpy as np
import pytest

import games.tribes.vision.encoder as encoder
import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.profile import default_profile
from games.tribes.vision.layout import default_layout
from games.tribes.vision.recognizer import Recognizer


def _vectors(rec: Recognizer) -> dict[str, np.ndarray]:
    out = {f"hex{s}": c.features for s, c in rec.hex_classifiers.items()}
    out.update({k: c.features for k, c in rec.classifiers.items()})
    return out


def _own_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """This test's own copy of the memo (what earlier tests kept is reused; nothing leaks out), unbounded."""
    monkeypatch.setattr(encoder, "_memo", OrderedDict(encoder._memo))
    monkeypatch.setattr(encoder, "EXAMPLES_MEMO_BYTES", 2**40)


def test_a_second_recognizer_on_the_same_enrollment_gets_the_same_classifiers(monkeypatch) -> None:
    _own_memo(monkeypatch)
    lay, prof, enr = default_layout(), default_profile(), cs.enrollment()
    first = Recognizer(lay, prof, enr, stream=False)
    kept = len(encoder._memo)
    assert kept >= 3  # at least the seats' hexes, the row, the board
    calls: list[str] = []

    def encode_again(self: Recognizer, group: str, key: str) -> tuple[np.ndarray, list[str]]:
        calls.append(group)
        raise AssertionError(f"{group} encoded again")

    monkeypatch.setattr(Recognizer, "_examples", encode_again)
    again = Recognizer(lay, prof, enr, stream=False)
    assert calls == [] and len(encoder._memo) == kept
    a, b = _vectors(first), _vectors(again)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    assert all(c.classes == again.hex_classifiers[s].classes for s, c in first.hex_classifiers.items())
    assert all(np.array_equal(c.starts, again.classifiers[k].starts) for k, c in first.classifiers.items())


def test_other_windows_are_encoded_anew(monkeypatch) -> None:
    _own_memo(monkeypatch)
    lay, prof, enr = default_layout(), default_profile(), cs.enrollment()
    Recognizer(lay, prof, enr, stream=False)
    kept = len(encoder._memo)
    windows = dict(enr.windows)
    windows["row"] = np.ascontiguousarray(windows["row"][::-1])  # the same pictures, another order
    labels = dict(enr.labels)
    labels["row"] = list(labels["row"])[::-1]
    Recognizer(lay, prof, dataclasses.replace(enr, windows=windows, labels=labels), stream=False)
    assert len(encoder._memo) == kept + 1  # the row's examples only


def test_the_memo_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(encoder, "_memo", OrderedDict())
    monkeypatch.setattr(encoder, "EXAMPLES_MEMO_BYTES", 1000)
    made = []

    def make(i: int):
        def run() -> tuple[np.ndarray, list[str]]:
            made.append(i)
            return np.full((10, 10), i, np.float32), [str(i)] * 10

        return run

    w = [np.full((2, 4, 4, 3), i, np.float32) for i in range(3)]
    for i in range(3):
        feats, labels = encoder.examples_memo("fp", w[i], "t", make(i))
        assert feats[0, 0] == i and labels[0] == str(i)
    assert len(encoder._memo) == 2  # 400 bytes each: the oldest dropped
    encoder.examples_memo("fp", w[0], "t", make(0))
    assert made == [0, 1, 2, 0]
    assert encoder.examples_memo(None, w[1], "t", make(1))[0][0, 0] == 1 and made[-1] == 1  # no fingerprint: made


@pytest.mark.parametrize("mix", [1.0, 0.5])
def test_the_fingerprint_follows_the_mix_and_the_hidden_colours(mix: float) -> None:
    rec = Recognizer(default_layout(), default_profile(), cs.enrollment(), stream=False)
    enc = rec.encoder
    base = encoder.TileEncoder(enc.extractor, rec.regions, enc.occluders, mix)
    same = encoder.TileEncoder(enc.extractor, rec.regions, dict(enc.occluders), mix)
    assert base.fingerprint == same.fingerprint is not None
    assert encoder.TileEncoder(enc.extractor, rec.regions, enc.occluders, mix * 0.9).fingerprint != base.fingerprint
    shifted = {k: [(np.asarray(r) + 1.0, s) for r, s in v] for k, v in enc.occluders.items()}
    assert encoder.TileEncoder(enc.extractor, rec.regions, shifted, mix).fingerprint != base.fingerprint

    class Unnamed:
        px = enc.px

        def embed(self, patches01: np.ndarray) -> np.ndarray:
            return np.zeros((len(patches01), 4), np.float32)

    assert encoder.TileEncoder(Unnamed(), rec.regions, enc.occluders, mix).fingerprint is None
