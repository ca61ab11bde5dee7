"""The readers' change cache (games.tribes.vision.readers.base.ChangeCache): a stream reads again only
the windows that changed — a change in one place, or a faint one over the whole window — and keeps
what it concluded about a window that only the camera's noise touched."""

from __future__ import annotations

import cv2
import numpy as np

from games.tribes.vision.readers.base import ChangeCache


def _pale(seed: int, px: int = 60) -> np.ndarray:
    """A pale tile's window: faint print on near-white paper."""
    rng = np.random.default_rng(seed)
    cells = rng.uniform(0.80, 0.92, (5, 5, 3)).astype(np.float32)
    return cv2.resize(cells, (px, px), interpolation=cv2.INTER_LINEAR)


def _noisy(window: np.ndarray, seed: int, sigma: float = 2.0 / 255) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(window + rng.normal(0, sigma, window.shape), 0, 1).astype(np.float32)


def test_a_window_only_the_camera_s_noise_touched_keeps_its_conclusion():
    cache = ChangeCache()
    back = _pale(1)
    _hits, misses, thumbs = cache.split(1, ["p"], _noisy(back, 0)[None])
    assert misses == [0]
    cache.put("p", thumbs[0], "face down")
    for frame in range(1, 6):
        hits, misses, _ = cache.split(1, ["p"], _noisy(back, frame)[None])
        assert hits == {0: "face down"} and misses == []


def test_a_faint_change_over_the_whole_window_is_read_again():
    """A pale face turned up where its pale back lay: every cell moves a little, none by much."""
    cache = ChangeCache()
    back = _pale(1)
    face = back + (_pale(2) - 0.86) * 0.5  # the face's own faint print, on the same paper
    _h, _m, thumbs = cache.split(1, ["p"], _noisy(back, 0)[None])
    cache.put("p", thumbs[0], "face down")
    diff = np.abs(cache.thumbnails(face[None])[0] - thumbs[0])
    assert diff.max() < cache.threshold  # no single cell changed enough to tell
    hits, misses, _ = cache.split(1, ["p"], _noisy(face, 1)[None])
    assert hits == {} and misses == [0]


def test_a_change_in_one_place_is_read_again_and_a_new_registration_forgets_everything():
    cache = ChangeCache()
    back = _pale(1)
    _h, _m, thumbs = cache.split(1, ["p"], back[None])
    cache.put("p", thumbs[0], "bare")
    stone = back.copy()
    stone[24:36, 24:36] = (0.1, 0.1, 0.8)  # a stone put down: a few cells change a lot
    assert cache.split(1, ["p"], stone[None])[1] == [0]
    assert cache.split(2, ["p"], back[None])[1] == [0]  # the camera moved: nothing is kept
