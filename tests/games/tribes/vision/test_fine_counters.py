"""Counters of finer windows: the shell reader and the row reader cut their windows at their counter's
size, whatever it is (the shipped shells counter reads 96-pixel windows, the earlier ones 48), so a
models folder decides the scale; the shipped folder's shells counter is that finer one."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from games.tribes.rules.profile import default_profile
from games.tribes.vision.layout import default_layout
from games.tribes.vision.readers.row import RowReader
from games.tribes.vision.readers.shells import ShellReader
from games.tribes.vision.regions import COUNT_PX, Regions
from vision.features import Models

SHELL = np.array([85.0, 2.0, 12.0], np.float32)


class _Frame:
    """A frame context whose every window is grey, cut at the size asked for; records the sizes."""

    def __init__(self) -> None:
        self.regions = Regions(default_layout(), default_profile())
        self.reg = SimpleNamespace(serial=1)
        self.timings: dict[str, float] = {}
        self.sizes: list[tuple[int, int]] = []  # (windows, px) of every cut

    def inside(self, ps: Any) -> np.ndarray:
        return np.ones(len(ps.centers), bool)

    def windows(self, ps: Any) -> np.ndarray:
        self.sizes.append((len(ps.centers), ps.px))
        return np.full((len(ps.centers), ps.px, ps.px, 3), 0.5, np.float32)


class _Fixed:
    """A counting model that reads the given counts in turn, surely, from windows of ``px``."""

    def __init__(self, counts: list[int], px: int) -> None:
        self.counts = counts
        self.px = px
        self.seen: list[tuple[int, int]] = []

    def probabilities(self, patches01: np.ndarray, like: np.ndarray) -> np.ndarray:
        assert patches01.shape[1] == self.px and like.shape[1:] == patches01.shape[1:3]
        self.seen.append((len(patches01), patches01.shape[1]))
        return np.eye(21, dtype=np.float32)[self.counts[: len(patches01)]]


def test_the_shell_spots_are_cut_at_their_counters_size() -> None:
    for px in (COUNT_PX, 2 * COUNT_PX):
        counter = _Fixed([3, 7], px)
        frame = _Frame()
        got, hidden = ShellReader(counter, (SHELL, 5.0)).read(frame, [0, 1])  # type: ignore[arg-type]
        assert counter.seen == [(2, px)] and frame.sizes == [(2, px)]
        assert [(r.seat, r.count) for r in got] == [(0, 3), (1, 7)] and not hidden


def test_the_occupied_row_slots_are_counted_at_their_counters_size() -> None:
    for px in (COUNT_PX, 2 * COUNT_PX):
        counter = _Fixed([0, 2, 5], px)
        classes = SimpleNamespace(classes=["action:hunt", "event:war"])  # what the reader asks of it
        reader = RowReader(None, classes, counter, (SHELL, 5.0))  # type: ignore[arg-type]
        frame = _Frame()
        assert reader._shells(frame, 3) == [(0, 1.0), (2, 1.0), (5, 1.0)]  # type: ignore[arg-type]
        assert counter.seen == [(3, px)] and frame.sizes == [(3, px)]  # the three occupied slots only


def test_the_shipped_shells_counter_reads_finer_windows_than_the_member_counter() -> None:
    specs = Models().specs
    assert specs["shells"].px == 2 * specs["members"].px == 2 * COUNT_PX
    assert Models().counter("shells").px == specs["shells"].px
