"""benchmarks/vision_diag.py's ``--try``: a reader's constant changed for one diagnostic run, and a
bad setting refused with a usage error naming it (exit code 2), before anything is read."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from games.tribes.vision.readers import board


@pytest.fixture(scope="module")
def diag(request: pytest.FixtureRequest) -> ModuleType:
    path = request.config.rootpath / "benchmarks" / "vision_diag.py"
    spec = importlib.util.spec_from_file_location("vision_diag_under_test", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_try_sets_a_readers_constant_for_the_run(diag: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(board, "BACK_SHARE", board.BACK_SHARE)  # put back after the test
    monkeypatch.setattr(board, "SIDE_FROM_STONES", board.SIDE_FROM_STONES)
    assert diag.main(["--sessions", "0", "--try", "board.BACK_SHARE=0.05", "--try", "board.SIDE_FROM_STONES=false"]) == 0
    assert board.BACK_SHARE == 0.05 and board.SIDE_FROM_STONES is False
    assert "board.BACK_SHARE = 0.05 (was 0.01)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("item", "said"),
    [
        ("board.BACK_SHARE", "write READER.NAME=VALUE"),
        ("nowhere.X=1", "no reader module 'nowhere'"),
        ("board.NO_SUCH=1", "board.NO_SUCH is not a number or a truth value"),
        ("board.BACK_SHARE=lots", "'lots' is not a float like board.BACK_SHARE"),
        ("board.SIDE_FROM_STONES=maybe", "'maybe' is not a bool"),
    ],
)
def test_a_bad_setting_is_a_usage_error_naming_it(diag: ModuleType, capsys, item: str, said: str) -> None:
    before = (board.BACK_SHARE, board.SIDE_FROM_STONES)
    with pytest.raises(SystemExit) as exc:
        diag.main(["--sessions", "0", "--try", item])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert said in err and item in err
    assert before == (board.BACK_SHARE, board.SIDE_FROM_STONES)


def test_tile_confusions_are_split_by_members_on_the_tile(diag: ModuleType) -> None:
    """A tile type read wrong is also counted by whether members stand on the tile (their art is
    hidden there), so a pile's confusion is told from a bare tile's."""
    from collections import Counter, defaultdict

    from games.tribes.vision.observation import HexReading, Observation

    truth = Observation(
        hexes=(
            HexReading(seat=0, hex=(0, 0), tile=True, exhausted=True, members={"red": 4}),
            HexReading(seat=0, hex=(1, 0), tile=True, resource="gold"),
            HexReading(seat=0, hex=(0, 1), tile=True, resource="goat"),
        )
    )
    read = Observation(
        hexes=(
            HexReading(seat=0, hex=(0, 0), tile=True, resource="gold", members={"red": 4}),
            HexReading(seat=0, hex=(1, 0), tile=True, exhausted=True),
            HexReading(seat=0, hex=(0, 1), tile=True, resource="goat"),
        )
    )
    errs: dict[str, Counter[str]] = defaultdict(Counter)
    diag.diff(read, truth, errs, "here", defaultdict(lambda: [0, 0]))
    assert errs["tile"] == Counter({"exhausted->gold": 1, "gold->exhausted": 1})
    assert errs["tile, under members"] == Counter({"exhausted->gold": 1})
    assert errs["tile, no member"] == Counter({"gold->exhausted": 1})
