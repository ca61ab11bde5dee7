"""A small assignment solver (Hungarian method, numpy only) for the action row and the board.

:func:`assign` gives each row of a cost matrix (rows ≤ columns) a distinct column so that the total
cost is least — the e-maxx formulation of the Hungarian algorithm with potentials, O(rows² · cols),
instant for the 12 x 40 matrices of the row. :func:`assign_with_margins` also tells, for each row,
how much more the best solution costs when that row may not take its column: the evidence for
the choice, which the readers turn into a confidence; :func:`assign_with_bounds` bounds it cheaply
from the dual potentials, and :func:`assign_with_moves` also names the rows that best alternative
moves, so a reader can ask whose costs the choice stands on.
"""

from __future__ import annotations

import numpy as np

BIG = 1e9
EXACT_BELOW = 6.0
"""Bound under which the readers ask :func:`assign_with_bounds` for the exact margin (a margin of 6
is a confidence of 0.9975: above it the difference no longer matters)."""


def assign(cost: np.ndarray) -> tuple[np.ndarray, float]:
    """Column chosen for each row (distinct columns) minimising the summed cost, and that sum.
    ``cost`` is rows x cols with rows <= cols; use a large finite value for forbidden pairs."""
    cols, total, _, _ = _hungarian(cost)
    return cols, total


def _hungarian(cost: np.ndarray) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """Assignment plus the dual potentials ``u`` (rows) and ``v`` (columns): ``cost - u - v >= 0``
    everywhere and ``= 0`` on the chosen pairs."""
    c = np.asarray(cost, np.float64)
    n, m = c.shape
    if n == 0:
        return np.zeros(0, np.int64), 0.0, np.zeros(0), np.zeros(m)
    if n > m:
        raise ValueError(f"assignment needs rows <= columns, got {n} x {m}")
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, np.int64)  # p[j]: row (1-based) assigned to column j; column 0 is the root
    way = np.zeros(m + 1, np.int64)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            cur = c[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            upd = free & (cur < minv[1:])
            minv[1:][upd] = cur[upd]
            way[1:][upd] = j0
            cand = np.where(free, minv[1:], np.inf)
            j1 = int(np.argmin(cand)) + 1
            delta = cand[j1 - 1]
            idx = np.nonzero(used)[0]
            u[p[idx]] += delta
            v[idx] -= delta
            minv[1:][free] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    cols = np.zeros(n, np.int64)
    for j in range(1, m + 1):
        if p[j]:
            cols[p[j] - 1] = j - 1
    return cols, float(c[np.arange(n), cols].sum()), u[1:], v[1:]


def assign_with_bounds(cost: np.ndarray, exact_below: float = 0.0) -> tuple[np.ndarray, float, np.ndarray]:
    """:func:`assign` plus, per row, a lower bound of the extra cost of giving that row another
    column: its smallest reduced cost ``cost - u - v`` over the other columns (linear programming
    duality; no re-solving, so it is cheap). ``inf`` when there is no other column.

    The bound can be far below the true extra cost (down to 0 when the optimal potentials are not
    unique, as when some columns carry a large reward: the action tiles of the row). Rows whose bound
    is below ``exact_below`` get the exact extra cost instead (:func:`_path_margin`: one shortest
    alternating path on the reduced costs, not a new solve)."""
    cols, total, bounds, _ = _solve(cost, exact_below)
    return cols, total, bounds


Moves = tuple[tuple[int, int], ...]
"""The rows a solution moves, each with the column it takes instead."""


def assign_with_moves(cost: np.ndarray) -> tuple[np.ndarray, float, np.ndarray, list[Moves]]:
    """:func:`assign` plus, per row, the exact extra cost of giving that row another column (as
    :func:`assign_with_bounds` with every margin exact) and the rows this best alternative moves,
    the row itself first, each with the column it takes there (``()`` when there is no alternative).

    A row's margin is the sum of what each moved row pays for its new column, and only as good as
    their costs: when a row's choice wins because another row keeps a column it may not truly hold,
    the readers bound that row's confidence by the other's."""
    return _solve(cost, np.inf)


def _solve(cost: np.ndarray, exact_below: float) -> tuple[np.ndarray, float, np.ndarray, list[Moves]]:
    c = np.asarray(cost, np.float64)
    cols, total, u, v = _hungarian(c)
    moved: list[Moves] = [() for _ in range(len(cols))]
    reduced = c - u[:, None] - v[None, :]
    red = reduced.copy()
    red[np.arange(len(cols)), cols] = np.inf
    bounds = red.min(axis=1) if c.shape[1] > 1 else np.full(len(cols), np.inf)
    bounds = np.maximum(bounds, 0.0)
    weak = np.nonzero(bounds < exact_below)[0]
    if not len(weak):
        return cols, total, bounds, moved
    if c[np.arange(len(cols)), cols].max() >= BIG / 2:
        # the solution itself needs a forbidden pair: keep the plain re-solve's verdict
        def margin(i: int) -> tuple[float, Moves]:
            return _margin(c, cols, total, i)
    else:
        np.maximum(reduced, 0.0, out=reduced)
        reduced[c >= BIG / 2] = np.inf

        def margin(i: int) -> tuple[float, Moves]:
            return _path_margin(reduced, cols, v, i)

    for i in weak:
        m, rows = margin(int(i))
        if np.isfinite(m):
            bounds[i] = max(bounds[i], m)
            moved[i] = rows
    return cols, total, bounds, moved


def _path_margin(reduced: np.ndarray, cols: np.ndarray, v: np.ndarray, i: int) -> tuple[float, Moves]:
    """The extra cost of the best solution that gives row ``i`` another column than ``cols[i]``,
    and the rows that solution moves (row ``i`` first, each with its new column), from the optimal
    potentials: ``reduced`` holds ``cost - u - v`` (>= 0, 0 on the chosen pairs, ``inf`` on
    forbidden pairs) and ``v`` the column potentials (<= 0; 0 on columns nobody took).

    Think of the matrix made square by rows that cost 0 anywhere (one per column nobody took, with
    potential 0: their reduced costs are ``-v``). Any solution without row ``i`` on its column
    differs from the optimum by an alternating cycle through row ``i``: it takes another column,
    that column's row takes another (an added row: the column was free), and so on until a row takes
    row ``i``'s old column. The cheapest such cycle is the extra cost; Dijkstra over the columns
    finds it in O(rows x cols) instead of a new O(rows^2 x cols) solve. The cycle's real rows are the
    rows moved."""
    n, m = reduced.shape
    own = int(cols[i])
    row_of = np.full(m, -1, np.int64)
    row_of[cols] = np.arange(n)
    free_row = np.maximum(-np.asarray(v, np.float64), 0.0)  # an added row's reduced costs
    dist = reduced[i].copy()
    dist[own] = np.inf  # the pair row i may not keep
    prev = np.full(m, -1, np.int64)  # the column whose row reached this one last (-1: row i)
    done = np.zeros(m, bool)
    while True:
        cand = np.where(done, np.inf, dist)
        j = int(np.argmin(cand))
        d = float(cand[j])
        if not np.isfinite(d):
            return np.inf, ()
        if j == own:  # walk the cycle back: the row of column prev[c] takes column c
            moves = []
            c, p = own, int(prev[own])
            while p >= 0:
                if row_of[p] >= 0:
                    moves.append((int(row_of[p]), c))
                c, p = p, int(prev[p])
            return d, ((i, c), *reversed(moves))
        done[j] = True
        r = int(row_of[j])
        new = d + (reduced[r] if r >= 0 else free_row)
        better = new < dist
        dist[better] = new[better]
        prev[better] = j


def _margin(c: np.ndarray, cols: np.ndarray, total: float, i: int) -> tuple[float, Moves]:
    """The extra cost of the best solution that gives row ``i`` another column than ``cols[i]``
    (``inf`` when there is none), and the rows it moves (``i`` first) with their new columns."""
    alt = c.copy()
    alt[i, cols[i]] = BIG
    a_cols, a_total = assign(alt)
    if alt[np.arange(len(a_cols)), a_cols].max() >= BIG / 2:
        return np.inf, ()
    others = [(int(r), int(a_cols[r])) for r in np.nonzero(a_cols != cols)[0] if r != i]
    return a_total - total, ((i, int(a_cols[i])), *others)


def assign_with_margins(cost: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """:func:`assign` plus, per row, the extra cost of the best solution that gives the row another
    column (``inf`` when there is none)."""
    cols, total = assign(cost)
    c = np.asarray(cost, np.float64)
    return cols, total, np.array([_margin(c, cols, total, i)[0] for i in range(len(cols))], np.float64)
