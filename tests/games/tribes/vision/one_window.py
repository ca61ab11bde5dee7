"""A frame context for the land reader's member count that cuts one given window (tests only)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from games.tribes.rules.profile import default_profile
from games.tribes.vision.layout import default_layout
from games.tribes.vision.regions import Regions


class OneWindow:
    """Stands in for :class:`~games.tribes.vision.readers.base.FrameContext` in
    ``LandReader._members``: the default layout's regions, one tile in view, ``window`` as its count
    window."""

    def __init__(self, window: np.ndarray) -> None:
        self.regions = Regions(default_layout(), default_profile())
        self.reg = SimpleNamespace(serial=1)
        self.window = window

    def inside(self, ps: Any) -> np.ndarray:
        return np.ones(1, bool)

    def windows(self, ps: Any) -> np.ndarray:
        return self.window[None]
