"""An independent, slow model of the map for the tests: features found by a breadth-first search over
the laid tiles (no union-find, no frontier, nothing shared with the engine but the tile definitions).

``Features(state)`` rebuilds every forest, river, lake and meadow and every river system from the
placements alone and answers what the engine keeps incrementally: open edges, tiles, figures, fish,
animals. The property tests compare the two after every move of many random games."""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass, field

from games.carcassonne.rules.state import State
from games.carcassonne.rules.tiles import (
    SEG_FOREST,
    SEG_LAKE,
    SEG_MEADOW,
    SEG_RIVER,
    TileType,
)

STEP = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}


def rotated_side(tile_side: int, rot: int) -> int:
    """Where an unrotated side ends up on the map after ``rot`` clockwise quarter turns."""
    return (tile_side + rot) % 4


def seg_sides(tile: TileType, local: int, rot: int) -> list[int]:
    """Map sides a forest/river segment reaches."""
    return [rotated_side(s, rot) for s in tile.segments[local].sides]


def seg_halves(tile: TileType, local: int, rot: int) -> list[tuple[int, int]]:
    """Map (side, half) pairs a meadow segment reaches."""
    return [(rotated_side(h // 2, rot), h % 2) for h in tile.segments[local].halves]


def lake_local(tile: TileType, index: int) -> int:
    """The local segment number of lake ``index`` of a tile."""
    return next(i for i, s in enumerate(tile.segments) if s.kind == SEG_LAKE and s.index == index)


@dataclass
class Feature:
    kind: int
    nodes: list[tuple[int, int]] = field(default_factory=list)
    open: int = 0
    tiles: set[int] = field(default_factory=set)
    lakes: set[tuple[int, int]] = field(default_factory=set)


class Features:
    """Features of a state's map rebuilt from scratch."""

    def __init__(self, state: State) -> None:
        prof = state.profile
        self.state = state
        self.tiles = {p.no: p for p in state.placements()}
        at = {(p.x, p.y): p for p in self.tiles.values()}
        adj: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
        open_edges: dict[tuple[int, int], int] = defaultdict(int)
        for p in self.tiles.values():
            t = prof.tiles[p.kind]
            for local, seg in enumerate(t.segments):
                adj[(p.no, local)]  # every node exists
                if seg.kind in (SEG_FOREST, SEG_RIVER):
                    for side in seg_sides(t, local, p.rot):
                        dx, dy = STEP[side]
                        q = at.get((p.x + dx, p.y + dy))
                        if q is None:
                            open_edges[(p.no, local)] += 1
                            continue
                        tq = prof.tiles[q.kind]
                        for lq, sq in enumerate(tq.segments):
                            if sq.kind == seg.kind and (side + 2) % 4 in seg_sides(tq, lq, q.rot):
                                adj[(p.no, local)].add((q.no, lq))
                elif seg.kind == SEG_MEADOW:
                    for side, half in seg_halves(t, local, p.rot):
                        dx, dy = STEP[side]
                        q = at.get((p.x + dx, p.y + dy))
                        if q is None:
                            continue
                        tq = prof.tiles[q.kind]
                        for lq, sq in enumerate(tq.segments):
                            if sq.kind == SEG_MEADOW and ((side + 2) % 4, 1 - half) in seg_halves(tq, lq, q.rot):
                                adj[(p.no, local)].add((q.no, lq))
        self.feature_of: dict[tuple[int, int], Feature] = {}
        self.features: list[Feature] = []
        for node in adj:
            if node in self.feature_of:
                continue
            kind = prof.tiles[self.tiles[node[0]].kind].segments[node[1]].kind
            feat = Feature(kind)
            queue = deque([node])
            self.feature_of[node] = feat
            while queue:
                cur = queue.popleft()
                feat.nodes.append(cur)
                feat.open += open_edges[cur]
                feat.tiles.add(cur[0])
                seg = prof.tiles[self.tiles[cur[0]].kind].segments[cur[1]]
                if seg.kind == SEG_RIVER and seg.end == "lake":
                    feat.lakes.add((cur[0], lake_local(prof.tiles[self.tiles[cur[0]].kind], seg.lake)))
                for nxt in adj[cur]:
                    if nxt not in self.feature_of:
                        self.feature_of[nxt] = feat
                        queue.append(nxt)
            self.features.append(feat)
        # river systems: rivers joined across sides and at lakes
        sys_adj: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
        for node, nbrs in adj.items():
            seg = self.segment(node)
            if seg.kind in (SEG_RIVER, SEG_LAKE):
                sys_adj[node]
                if seg.kind == SEG_RIVER:
                    sys_adj[node] |= set(nbrs)
                    if seg.end == "lake":
                        lake = (node[0], lake_local(prof.tiles[self.tiles[node[0]].kind], seg.lake))
                        sys_adj[node].add(lake)
                        sys_adj[lake].add(node)
        self.system_of: dict[tuple[int, int], int] = {}
        self.systems: list[list[tuple[int, int]]] = []
        for node in sys_adj:
            if node in self.system_of:
                continue
            idx = len(self.systems)
            comp = []
            queue = deque([node])
            self.system_of[node] = idx
            while queue:
                cur = queue.popleft()
                comp.append(cur)
                for nxt in sys_adj[cur]:
                    if nxt not in self.system_of:
                        self.system_of[nxt] = idx
                        queue.append(nxt)
            self.systems.append(comp)

    def segment(self, node: tuple[int, int]):
        p = self.tiles[node[0]]
        return self.state.profile.tiles[p.kind].segments[node[1]]

    def system_fish(self, idx: int) -> int:
        return sum(self.segment(n).fish for n in self.systems[idx] if self.segment(n).kind == SEG_LAKE)

    def node_of(self, tile_no: int, spot: str) -> tuple[int, int]:
        t = self.state.profile.tiles[self.tiles[tile_no].kind]
        return (tile_no, next(i for i, s in enumerate(t.segments) if s.spot == spot))

    def lake_fish(self, feat: Feature) -> int:
        return sum(self.segment(n).fish for n in feat.lakes)

    def animals(self, feat: Feature) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for n in feat.nodes:
            s = self.segment(n)
            for a in ("deer", "mammoths", "tigers", "aurochs", "fire", "cult"):
                out[a] += getattr(s, a)
        return out


def assert_consistent(state: State) -> None:
    """The engine's incremental features agree with the ones rebuilt from scratch."""
    from games.carcassonne.rules.state import FIG_BITS, FIG_MASK
    from games.carcassonne.rules.tiles import Role

    ref = Features(state)
    n = len(state.seats)
    base = {p.no: p.base for p in state.placements()}

    def gid(node: tuple[int, int]) -> int:
        return base[node[0]] + node[1]

    roots = set()
    for feat in ref.features:
        r = state.root(gid(feat.nodes[0]))
        assert r not in roots, "two features share a root"
        roots.add(r)
        assert all(state.root(gid(x)) == r for x in feat.nodes), "a feature is split in the engine"
        info = state.feature(gid(feat.nodes[0]))
        assert info[0] == feat.kind and info[1] == len(feat.nodes)
        assert info[4] == sum(1 << t for t in feat.tiles)
        if feat.kind in (SEG_FOREST, SEG_RIVER):
            assert info[3] == feat.open, (info, feat.open)
        if feat.kind == SEG_RIVER:
            assert {g for g, _ in info[5]} == {gid(x) for x in feat.lakes}
        if feat.kind == SEG_MEADOW:
            a = ref.animals(feat)
            packed = info[3]
            for i, name in enumerate(("deer", "mammoths", "tigers", "aurochs", "fire", "cult")):
                assert (packed >> (8 * i)) & 0xFF == a[name], (name, a)
        figs = [0] * n
        for f in state.figures:
            if f.role is not Role.HUT and ref.feature_of[ref.node_of(f.tile, f.spot)] is feat:
                figs[f.seat] += 1
        assert [(info[2] >> (FIG_BITS * i)) & FIG_MASK for i in range(n)] == figs
        if feat.kind in (SEG_FOREST, SEG_RIVER) and feat.open == 0:
            assert not any(figs), "a gatherer or fisher stands on a completed feature"
    sroots = set()
    for idx, members in enumerate(ref.systems):
        r = state.system_root(gid(members[0]))
        assert r not in sroots, "two river systems share a root"
        sroots.add(r)
        assert all(state.system_root(gid(x)) == r for x in members), "a river system is split in the engine"
        rec = state.system(gid(members[0]))
        assert rec[1] == ref.system_fish(idx)
        huts = [0] * n
        for f in state.figures:
            if f.role is Role.HUT and ref.system_of[ref.node_of(f.tile, f.spot)] == idx:
                huts[f.seat] += 1
        assert [(rec[2] >> (FIG_BITS * i)) & FIG_MASK for i in range(n)] == huts
    for f in state.figures:
        assert f.node == gid(ref.node_of(f.tile, f.spot))
