"""Hex geometry of player areas: axial coordinates, adjacency, connectedness."""

from __future__ import annotations

import itertools

import pytest

from games.tribes.rules.hexgrid import (
    START_TRIANGLE,
    adjacent,
    connected_extensions,
    distance,
    distances_within,
    format_hex,
    frontier,
    is_connected,
    neighbours,
    parse_hex,
)


def test_neighbours_are_adjacent_and_at_distance_one():
    for n in neighbours((2, -1)):
        assert adjacent((2, -1), n) and distance((2, -1), n) == 1
    assert len(set(neighbours((0, 0)))) == 6
    assert distance((0, 0), (2, -1)) == 2 and distance((0, 0), (3, -3)) == 3


def test_start_triangle_mutually_adjacent_R_SET_3():
    """R-SET-3."""
    for a, b in itertools.combinations(START_TRIANGLE, 2):
        assert adjacent(a, b)


def test_connectedness():
    assert is_connected(START_TRIANGLE)
    assert not is_connected([(0, 0), (2, 0)])
    assert is_connected([])


def test_frontier_of_triangle():
    assert len(frontier(START_TRIANGLE)) == 9


def test_distances_within_a_region_walk_around_gaps():
    region = [(0, 0), (1, 0), (2, -1), (2, 0)]
    d = distances_within(region, (0, 0))
    assert d[(2, 0)] == 2 and (5, 5) not in d
    ring = [(0, 0), (0, -1), (1, -2), (2, -2), (2, -1)]  # around a hole at (1, -1)
    assert distances_within(ring, (0, 0))[(2, -1)] == 4


@pytest.mark.parametrize("k", [1, 2, 3])
def test_connected_extensions_match_brute_force(k):
    """Redelmeier's enumeration gives each connected extension exactly once."""
    base = set(START_TRIANGLE)
    near = {n for h in base for n in neighbours(h)}
    for _ in range(k):
        near |= {n for h in near for n in neighbours(h)}
    near -= base
    brute = {tuple(sorted(c)) for c in itertools.combinations(sorted(near), k) if is_connected(base | set(c))}
    got = list(connected_extensions(base, k))
    assert len(got) == len(set(got)) and set(got) == brute


def test_hex_text():
    assert parse_hex("1,-2") == (1, -2) and parse_hex(" (3, 4) ") == (3, 4)
    assert format_hex((1, -2)) == "1,-2"
    for bad in ("1", "a,b", "1,2,3"):
        with pytest.raises(ValueError, match="not a hex"):
            parse_hex(bad)
