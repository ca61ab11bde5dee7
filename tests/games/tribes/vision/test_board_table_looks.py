"""The board's stone slots as this table shows them (games.tribes.vision.readers.board): a stream keeps
the look of each slot read free, where the relief sees no piece, and follows it slowly; a stone, a
slot in doubt, a slot the relief hesitates over, a face-down tile are never taken for the bare art."""

from __future__ import annotations

import numpy as np

from games.tribes.rules.profile import default_profile
from games.tribes.vision.readers import board
from games.tribes.vision.readers.board import BoardReader
from vision.classify import ExampleClassifier
from vision.relief import RELIEF_PX


def _reader() -> BoardReader:
    clf = ExampleClassifier(np.zeros((0, 1), np.float32), [], 0.05)
    return BoardReader(None, clf, default_profile(), [], learn=True)  # type: ignore[arg-type]


def _windows(n: int, light: float) -> np.ndarray:
    w = np.zeros((n, RELIEF_PX, RELIEF_PX, 3), np.float32)
    w[..., 0] = light + np.arange(n, dtype=np.float32)[:, None, None]
    return w


def test_only_slots_read_free_with_no_relief_are_learned_and_then_followed_slowly() -> None:
    reader = _reader()
    keys = [("achievement:jagen", -17, 15), ("achievement:jagen", -5, 15), ("achievement:jagen", 7, 15),
            ("achievement:feuer", -17, 15), None, ("achievement:feuer", -5, 15)]  # fmt: skip
    cut = np.arange(6)
    present = np.array([False, True, False, False, False, False])
    doubt = np.array([False, False, True, False, False, False])
    relief = np.array([0.0, 0.99, 0.01, 0.2, 0.0, 0.01])
    first = _windows(6, 30.0)
    reader._learn((cut, first, keys), present, doubt, relief)
    assert set(reader.table_bare) == {keys[0], keys[5]}  # a stone, a doubt, a hesitation, a back: not
    assert np.array_equal(reader.table_bare[keys[0]], first[0])
    assert board.LEARN_BELOW < 0.2
    later = _windows(6, 40.0)  # the light rose by 10 units
    reader._learn((cut, later, keys), present, doubt, relief)
    w = board.TABLE_WEIGHT
    assert np.allclose(reader.table_bare[keys[0]], (1 - w) * first[0] + w * later[0])
    assert 30.0 < float(reader.table_bare[keys[5]][0, 0, 0]) - 5 < 40.0
    reader.reset()
    assert reader.table_bare == {}

