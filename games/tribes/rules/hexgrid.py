"""Hex geometry of a player's land: axial coordinates, adjacency, distance, connectedness.

A hex is a pair ``(q, r)`` of axial coordinates (see redblobgames' "Hexagonal Grids"). The six
neighbours of ``(q, r)`` differ by the vectors in :data:`DIRECTIONS`. Coordinates are abstract: the
same lattice serves flat-top and pointy-top tiles; only drawing code decides which.

Every player's land starts as the triangle :data:`START_TRIANGLE` (three mutually adjacent hexes,
R-SET-3) and grows by edge-adjacent placement (R-ACT-EXP-1), so a land is always connected.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

START_TRIANGLE: tuple[Hex, Hex, Hex] = ((0, 0), (1, 0), (0, 1))
"""The three mutually adjacent hexes every player's land starts with (R-SET-3)."""


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes sharing an edge with ``h``."""
    q, r = h
    return ((q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1))


def adjacent(a: Hex, b: Hex) -> bool:
    """True when ``a`` and ``b`` share an edge."""
    dq = b[0] - a[0]
    dr = b[1] - a[1]
    return (dq, dr) in _DIRSET


_DIRSET = frozenset(DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes on the unbounded lattice."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def is_connected(hexes: Iterable[Hex]) -> bool:
    """True when the hexes form one edge-connected region (an empty set counts as connected)."""
    cells = set(hexes)
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        for n in neighbours(stack.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)


def frontier(hexes: Iterable[Hex]) -> list[Hex]:
    """Empty hexes edge-adjacent to the region, sorted: where a new tile may go (R-ACT-EXP-1)."""
    cells = set(hexes)
    out = {n for h in cells for n in neighbours(h) if n not in cells}
    return sorted(out)


def distances_within(region: Iterable[Hex], source: Hex) -> dict[Hex, int]:
    """Breadth-first step counts from ``source`` to every hex of ``region`` reachable inside it."""
    cells = set(region)
    dist = {source: 0}
    queue = [source]
    i = 0
    while i < len(queue):
        h = queue[i]
        i += 1
        d = dist[h] + 1
        for n in neighbours(h):
            if n in cells and n not in dist:
                dist[n] = d
                queue.append(n)
    return dist


def connected_extensions(region: Iterable[Hex], size: int) -> Iterator[tuple[Hex, ...]]:
    """Every set of ``size`` new hexes that keeps ``region`` connected when added, each set once.

    New hexes may attach to the region or to each other (tiles drawn together are laid together).
    Redelmeier's enumeration, rooted at the region, yields each set exactly once (sorted tuples).
    """
    base = set(region)
    if size <= 0:
        yield ()
        return
    first = frontier(base)
    seen = base | set(first)

    def grow(untried: list[Hex], chosen: tuple[Hex, ...], seen: set[Hex]) -> Iterator[tuple[Hex, ...]]:
        untried = list(untried)
        while untried:
            h = untried.pop()
            now = (*chosen, h)
            if len(now) == size:
                yield tuple(sorted(now))
                continue
            fresh = [n for n in neighbours(h) if n not in seen]
            yield from grow(untried + fresh, now, seen | set(fresh))

    yield from grow(first, (), seen)


def parse_hex(text: str) -> Hex:
    """Parse ``"q,r"`` (integers, optional spaces and parentheses) into a hex; raise ValueError."""
    body = text.strip()
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    parts = body.split(",")
    if len(parts) != 2:
        raise ValueError(f"{text!r} is not a hex: expected 'q,r' such as '1,-1'")
    try:
        return (int(parts[0]), int(parts[1]))
    except ValueError:
        raise ValueError(f"{text!r} is not a hex: expected two integers 'q,r' such as '1,-1'") from None


def format_hex(h: Hex) -> str:
    """The text form ``"q,r"`` of a hex; :func:`parse_hex` reads it back."""
    return f"{h[0]},{h[1]}"
