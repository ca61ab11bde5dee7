"""The synthetic table's surfaces: computed strip by strip (a small peak of memory), the same
picture as computed in one go, and the same for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from sim import textures
from sim.warp import Canvas

CANVAS = Canvas(-310.0, -180.0, 2.17, 420, 301)  # 301 rows: strips of 128, 128 and 45


@pytest.mark.parametrize("kind", textures.TEXTURES)
def test_a_texture_computed_in_strips_is_the_texture_computed_in_one_go(kind: str, monkeypatch) -> None:
    strips = textures._texture(kind, CANVAS, 7)
    monkeypatch.setattr(textures, "STRIP_ROWS", CANVAS.height)  # one strip: the whole surface at once
    whole = textures._texture(kind, CANVAS, 7)
    assert strips.shape == (CANVAS.height, CANVAS.width, 3) and strips.dtype == np.uint8
    assert np.array_equal(strips, whole)
    assert strips.std() > 0.5  # a surface, not a flat colour
    assert not np.array_equal(strips, textures._texture(kind, CANVAS, 8))  # another seed, another surface
