"""Members counted against the bare art of the tile they stand on (games.tribes.vision.readers.land,
``MEMBER_ART``): art of a seat's colour (dark dots under black members) loses half its likeness on
the member counter's map, a member standing on a tile whose art shows none of that colour keeps
all of it, and a member standing on one enrolled example is not taken for the tile's art."""

from __future__ import annotations

import numpy as np

from games.tribes.vision.readers.land import MEMBER_ART, LandReader
from games.tribes.vision.regions import COUNT_PATCH_MM, COUNT_PX, EMBED_PX, HEX_PATCH_MM
from tests.games.tribes.vision.one_window import OneWindow

BLACK = np.array([3.5, 0.0, -1.0], np.float32)  # Lab of the black members, as enrolled
SEAT = 0
TILE = (SEAT, (1, 0))


def _window(side_mm: float, px: int, dots: bool, member: bool) -> np.ndarray:
    """A window ``side_mm`` wide of a brown tile (normalised BGR), with black dots 6 mm apart and/or
    a black member (a disc of 6 mm radius) at its centre."""
    c = (np.arange(px) + 0.5) / px * side_mm - side_mm / 2
    x, y = np.meshgrid(c, c)
    out = np.empty((px, px, 3), np.float32)
    out[:] = (0.25, 0.45, 0.6)
    if dots:
        near = np.hypot((x + 3) % 6 - 3, (y + 3) % 6 - 3) < 1.6
        out[near & (np.hypot(x, y) < 20)] = 0.04
    if member:
        out[np.hypot(x, y) < 6] = 0.03
    return out


class _Counter:
    """Records the likeness maps it is given; counts nothing."""

    def __init__(self) -> None:
        self.like: list[np.ndarray] = []

    leans = False  # reads no lean ramps

    def probabilities(self, patches01: np.ndarray, like: np.ndarray, lean: np.ndarray | None = None) -> np.ndarray:
        self.like.append(like.copy())
        return np.tile(np.eye(16, dtype=np.float32)[0], (len(like), 1))


def _map(label: str, count_window: np.ndarray, examples: list[np.ndarray], member_art: float) -> np.ndarray:
    counter = _Counter()
    reader = LandReader(
        encoder=None,  # type: ignore[arg-type]
        classifiers={},
        counter=counter,
        colours={SEAT: ("black", BLACK, 1.5)},
        examples=(np.stack(examples), [label] * len(examples)),
        member_art=member_art,
    )
    reader._members(OneWindow(count_window), [TILE], [label])  # type: ignore[arg-type]
    return counter.like[0][0]


def _centre(m: np.ndarray, r_mm: float) -> np.ndarray:
    c = (np.arange(COUNT_PX) + 0.5) / COUNT_PX * COUNT_PATCH_MM - COUNT_PATCH_MM / 2
    x, y = np.meshgrid(c, c)
    return m[np.hypot(x, y) < r_mm]


def test_art_of_the_members_colour_loses_half_its_likeness_and_a_member_keeps_its_own() -> None:
    dotted = _window(HEX_PATCH_MM, EMBED_PX, dots=True, member=False)
    plain = _window(HEX_PATCH_MM, EMBED_PX, dots=False, member=False)
    bare_dots = _window(COUNT_PATCH_MM, COUNT_PX, dots=True, member=False)
    before = _map("exhausted", bare_dots, [dotted, dotted], 0.0)
    after = _map("exhausted", bare_dots, [dotted, dotted], MEMBER_ART)
    dots = before > 0.9  # the dots look like black members to the colour alone
    assert dots.sum() > 40
    assert after[dots].max() <= 1.0 - MEMBER_ART + 0.05 and (after <= before + 1e-6).all()
    # a member on a tile whose art shows no black keeps all its likeness
    on_plain = _window(COUNT_PATCH_MM, COUNT_PX, dots=False, member=True)
    kept = _map("resource:goat", on_plain, [plain, plain], MEMBER_ART)
    assert _centre(kept, 4.0).min() > 0.95


def test_a_member_on_one_enrolled_example_is_not_taken_for_the_tiles_art() -> None:
    plain = _window(HEX_PATCH_MM, EMBED_PX, dots=False, member=False)
    with_member = _window(HEX_PATCH_MM, EMBED_PX, dots=False, member=True)  # enrolled from the setup photo
    on_plain = _window(COUNT_PATCH_MM, COUNT_PX, dots=False, member=True)
    got = _map("resource:goat", on_plain, [with_member, plain], MEMBER_ART)
    assert _centre(got, 4.0).min() > 0.95
    # were every example of it photographed with a member there, that much would be taken off
    only = _map("resource:goat", on_plain, [with_member, with_member], MEMBER_ART)
    assert _centre(only, 4.0).max() < 0.6
