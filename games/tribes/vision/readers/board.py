"""The achievement board reader: which tile lies face up at each position (or that it is still face
down) and the colour of the stone on each slot.

**Tiles** are compared with the enrolled examples (face-up achievement tiles, the backs of eras 2
and 3) and solved as an assignment: each achievement appears at most once on the board and only in
its own era; a face-down tile is the back of its era; a face-up tile never enrolled is reported as
``?``. Confidences come from the assignment margins, as in the row; the confidence in the side
alone (``face_conf``: face up or down, whichever tile) from the best face-down option against the best
face-up one, so a tile just turned over reads as plainly face up even while which one it is is close.

Pixel templates (:class:`vision.templates.TemplateMatcher`, when the enrolled windows are given) are
a second cue beside the features: the share of the window that disagrees with each tile's bare art
(stones lie on a tile as shells on a row tile), ``TEMPLATE_SHARE`` of it costing one unit of
``-log p`` on top of the features' cost; a position is compared with its era's tiles alone, only
where the features leave a second option close (``CASCADE``) or read it face down, and in a stream a
position whose window has not changed keeps its shares. Chosen on the tuning set
(``benchmarks/vision_diag.py --set tune``; bold, dark and pale art): achievement tiles of dark art
99.35 -> 99.87 %, pale 82.3 -> 83.9 %, bold unchanged at 100 %. Templates weighed as in the row (the
features at 0.3) lost on all three: the features are what tell apart a tile under four stones. On a
position showing no stone the structure look counts once more (``STRUCTURE_SHARE``, as in the row and
the land).

**The side.** A window's disagreement with its era's back weighs five times as much as with a face
(``BACK_SHARE``): the backs are enrolled from the table at these very positions, the faces of eras 2
and 3 (face down at setup) from the capture sheet alone, and pale faces read as their pale backs. And
the stones decide it too (R-ACH-5: a marking stone goes on a face-up tile's slot): a position read
face down on which stones are read is solved again with its back barred, its side as sure as its
stones, its stones read again against that face. On the tuning set's pale art the 14 faces read as
backs, all under stones, were all read face up (achievement tiles 93.49 -> 95.31 %), the other art
unchanged.

**Stones** are read per slot from colour, where the camera sees the stone's top: a stone stands
``board.stone_height`` mm tall (the layout), so a tilted camera sees its top off the slot, away from
the table point below the camera (:meth:`vision.registration.Registration.raised`; at 32 degrees of
tilt about half a slot). There: the mean likeness of the disc to each player's
enrolled colour, less what the bare tile itself (or the back of its era, when it lies face down)
shows of that colour in that same disc (from its enrolled windows: tile art in a player's colour is
not a stone), as a share of the headroom the art leaves. The best colour counts as a stone when this
clears ``threshold`` (0.18: between the highest value of free slots and the lowest of occupied
ones on the tuning set, ``benchmarks/vision_diag.py --set tune``) *and* clearly beats what the same
slot shows of the other colours. Where the light has changed since enrollment and left a cast the
light follower does not wholly undo, a stone's colour moves out of that likeness while it still
plainly covers its slot: a slot whose disc lies far from what the bare tile shows there
(``COVERED``, Lab with lightness weighted a half) and far nearer one player's colour than the bare art
and every other colour (``CLOSER``, ``APART``), the likeness however faint agreeing, holds that
player's stone. On the tuning set with the light drifting in every session (``benchmarks/vision_diag.py
--set tune --drift all --sessions 24 --every 1``) stones per position 15 -> 2 wrong of 2,304 (the two
left: a yellow stone made up by the likeness on a tile read face down, as before), the steady families'
readings unchanged (``benchmarks/stones_probe.py`` prints the distances). A black stone on the darkest
art is as near the bare art in colour as a free slot is; there the **relief** tells it
(:mod:`vision.relief`, the ``pieces`` model where the models folder has one): each free slot whose
disc lies clearly nearest one player's colour is cut around where a stone's top would be, with the
bare art's window at that spot, and holds that player's stone where the model gives a piece at
:data:`PIECE_ON` or more; of a colour read on two slots of one tile, the slot the relief plainly
prefers keeps it. Against the enrolled art it only adds and picks (docs/benchmarks.md, "an eighteenth
part", has the figures and what taking stones away did). The enrolled art is a poor likeness of a
slot as this camera sees it (other photos, softer, another exposure): in a **stream** the reader
keeps each free slot's own look at the table (:attr:`BoardReader.table_bare`, :data:`TABLE_WEIGHT`,
learned only where the relief sees no piece, :data:`LEARN_BELOW`) and from then on reads the slot's
relief against that look (:data:`PIECE_ON_TABLE`); a stone put down where the table had shown the
slot free then stands out however near its colour lies to the art, and a stone the colours read
where the slot still shows its free look is none (:data:`DROP_ON_TABLE`; "a nineteenth part"). A
look the frame no longer shows even at its edge (another tile, another light: :data:`STALE`) is
forgotten. A colour read on two slots of one tile is kept on the slot that shows it most (R-ACH-9:
never two stones of one player on a tile); trailing free slots are dropped, as in the Observation
format.
"""

from __future__ import annotations

import math
import time
from typing import Protocol

import cv2
import numpy as np

from games.tribes.rules.profile import BoxProfile
from games.tribes.vision.observation import RIVAL_BACK, BoardReading
from games.tribes.vision.readers.base import (
    ChangeCache,
    FrameContext,
    colour_sigma,
    disc_mask,
    encode_seen,
    enrolled_windows,
    kept_look,
    template_costs,
    template_shares,
    threshold_conf,
)
from vision.assign import BIG, EXACT_BELOW, assign_with_bounds
from vision.classify import ExampleClassifier
from vision.colour import lab, lab_distance, likeness
from vision.layout import rotate
from vision.patches import patch_set
from vision.relief import RELIEF_PX, PieceModel, relief_features
from vision.templates import TemplateMatcher

UNKNOWN = "?"
EPS = 1e-6
STONE_PX = 12
TEMPLATE_SHARE = 0.05
"""Share of a window's pixels disagreeing with a tile's art that costs as much as a factor e in p."""
UNKNOWN_SHARE = 0.1
"""A face never enrolled costs, where the templates are used, as a known tile of the position's era
disagreeing by this share more than the best one."""
CASCADE = 3.0
"""A position is compared with the templates only where the features leave a second option within
this cost of the best (a factor e^3 in p); elsewhere the features alone decide. On the tuning set's
colour variants, dark and pale art, and on the evaluation's sketch pack, every reading stayed the same,
and the board took 17-29 ms a full read instead of 30 (benchmarks/vision_diag.py)."""


BACK_SHARE = 0.01
"""The template cost of a position's back, as :data:`TEMPLATE_SHARE` for its faces: a window that
disagrees with the back by this share more than with the best face costs the back a factor e in p.
Weighed five times the faces: the backs are enrolled from the table at the very positions, under its
light, while the faces of eras 2 and 3 (face down at setup) come from the capture sheet alone — where
the tile model is least sure, and where pale faces read as their pale backs, a revealed tile the
tracker then takes for one still face down. One-sided: a window nearest the back by its templates
costs the faces as before. Chosen on the tuning set's pale art with the stones rule off
(``benchmarks/vision_diag.py --set tune --family pale --re-enroll --try board.SIDE_FROM_STONES=false``,
achievement tiles wrong of 768): 0.05 (a face's weight) 50, 0.02 48, 0.01 46, 0.005 46 — the largest
value that reaches the best; the other tuning families have no face read as a back."""

STRUCTURE_SHARE = 0.03
"""On a position showing no stone (the players' colours on at most :data:`STONES_SHOWN` of its window,
as the encoder hides them: a tile just turned up), the templates' structure look (where the print
lies, :mod:`vision.templates`) counts once more on its own, a look this much further from a tile's art
than from the nearest tile's costing a factor e in p (0: not counted again). As in the row
(``row.STRUCTURE_SHARE``): the joined looks' geometric mean keeps the ratio between two pale faces, not
their difference, and era 2 and 3 faces, enrolled from the capture sheet alone, are told by where
their print lies. Measured: docs/benchmarks.md, "Unseen boxes, a fifteenth part"."""
STONES_SHOWN = 0.03
"""A position's window showing the players' colours on more than this share has stones on it: the
encoder hides those colours on the stone slots alone, where a stone's top covers several times this
share of the window, and art of a player's colour elsewhere on the tile is never hidden."""

COVERED = 40.0
"""A slot whose disc lies at least this far (Lab, lightness weighted a half) from what the bare tile
shows there is covered by something, whatever its likeness to the enrolled colours. On the tuning
set with the light drifting in every session a stone of any colour but black lay 42 or more from its
bare slot, a free slot at most 36 (``benchmarks/stones_probe.py --drift all --sessions 24 --every 1``);
a stone's side spilling into the next slot lies in between, and is kept out by this bound
(``tests/games/tribes/vision/test_camera_pipeline.py``, the cast toward magenta-blue)."""
CLOSER = 0.5
"""... and is a player's stone when its disc lies at most this share of that distance from the
player's enrolled colour (stones there: at most 0.39), and at most :data:`APART` of the distance to
the next player's colour (stones there: at most 0.3)."""
APART = 0.5

PIECE_ON = 0.9
"""A free slot (by the colours) whose relief says a piece stands there with at least this probability
(:mod:`vision.relief`, the ``pieces`` model) holds the stone of the colour its disc is clearly nearest."""
RELIEF_APART = 2.0
"""Of two slots of one tile read as the same colour (R-ACH-9), the one whose relief shows a piece at
odds this much higher (natural log: a factor e^2) keeps the stone (otherwise: the one that shows the
colour most)."""

TABLE_WEIGHT = 0.5
"""In a stream, the weight of the newest look at a free slot in what that slot looks like bare *at this
table* (an exponential mean of its windows while it was read free and its relief showed no piece,
below :data:`LEARN_BELOW`): the enrolled art comes from other photos (a capture sheet, another exposure,
softer), the table's own look from this camera under this light, and the relief reads a slot against
it wherever it is known."""
LEARN_BELOW = 0.05
STALE = 15.0
"""A slot's look at this table is forgotten when the frame's window differs from it by more than this
(Lab distance, the median over the window's edge): not a piece but another tile or another light."""
PIECE_ON_TABLE = 0.3
"""A free slot (by the colours) read against its look at this table holds a piece from this probability
on (:data:`PIECE_ON` against the enrolled art: against the table's own look a free slot changes far
less). A slot is learned only below :data:`LEARN_BELOW`, so a stone read at 0.05 or more never sinks
into the look (learned below 0.5, dark seed 9's black stone, read at about 0.5, did within a few
frames). Measured in docs/benchmarks.md, "a nineteenth part" (``benchmarks/vision_diag.py
--table-looks``)."""

DROP_ON_TABLE = True
"""A stone the colours read on a slot that looks as it did at this table while free (its relief against
that look below :data:`LEARN_BELOW`) is none. Against the enrolled art the relief never takes a stone
away (docs/benchmarks.md, "an eighteenth part"); against the table's own look it does ("a nineteenth
part": dark art's settled frames through the tracker, stone positions misread 448 -> 60)."""

SIDE_FROM_STONES = True
"""A position read face down on which stones are read is face up (R-ACH-5; the module docstring)."""


def _edge(px: int) -> np.ndarray:
    """The edge of a window ``px`` pixels a side (its outer sixth on every side), as a mask."""
    k = max(1, px // 6)
    m = np.ones((px, px), bool)
    m[k:-k, k:-k] = False
    return m


_EDGE = _edge(RELIEF_PX)
"""Where :data:`STALE` compares a relief window with a slot's look at this table."""


class Encoder(Protocol):
    def encode(self, windows01: np.ndarray, group: str, key: str) -> np.ndarray: ...


def _backs(cols: list[str]) -> np.ndarray:
    """Which of the assignment's columns are an era's back (a position read face down)."""
    return np.array([c.startswith("back:") for c in cols])


def _conf(margin: float) -> float:
    if not math.isfinite(margin):
        return 1.0
    return float(1.0 / (1.0 + math.exp(-min(margin, 50.0))))


def _rivals(cost: np.ndarray, cols: list[str], chosen: str | None) -> dict[str, float]:
    """The other tiles a position's costs weighed (:attr:`BoardReading.rivals`): a softmax over the
    columns it may take (its era's achievements, its back, an unknown face), each name once, the
    tile reported left out."""
    best: dict[str, float] = {}
    for name, c in zip(cols, cost, strict=True):
        if c >= BIG / 4:
            continue
        key = RIVAL_BACK if name.startswith("back:") else name.split(":", 1)[-1]
        best[key] = min(float(c), best.get(key, math.inf))
    if not best:
        return {}
    low = min(best.values())
    z = sum(math.exp(-(c - low)) for c in best.values())
    mine = RIVAL_BACK if chosen is None else chosen
    return {k: round(math.exp(-(c - low)) / z, 4) for k, c in sorted(best.items()) if k != mine}


class BoardReader:
    """Reads the achievement board (see the module docstring)."""

    def __init__(
        self,
        encoder: Encoder,
        classifier: ExampleClassifier,
        profile: BoxProfile,
        colours: list[tuple[str, np.ndarray, float]],
        threshold: float = 0.18,
        unknown_prior: float = 0.02,
        examples: tuple[np.ndarray, list[str]] | None = None,
        templates: TemplateMatcher | None = None,
        cache: bool = False,
        pieces: PieceModel | None = None,
        learn: bool = False,
    ) -> None:
        self.encoder = encoder
        self.pieces = pieces  # whether a piece stands on a slot, by its relief against the bare art
        self._relief_bare: dict[tuple[str, float, float, float], np.ndarray] = {}
        self.learn = learn  # a stream: the free slots' look at this table is kept (TABLE_WEIGHT)
        self.table_bare: dict[tuple[str, int, int], np.ndarray] = {}
        self.classifier = classifier
        self.eras = {a.id: a.era for a in profile.achievements}
        self.colours = colours
        self.threshold = threshold
        self.unknown_prior = unknown_prior
        self._mask = disc_mask(STONE_PX, 0.36)
        self.examples = examples  # enrolled achievement windows and labels (the bare tiles' art)
        self.templates = templates if templates is not None and len(templates) else None
        self.template_cache = ChangeCache() if cache else None  # a position unchanged since the last frame
        self._bg: dict[str, np.ndarray | None] = {}
        self._discs: dict[float, tuple[np.ndarray, np.ndarray]] = {}

    def reset(self) -> None:
        """Forget the slots' looks at this table (another table, another camera)."""
        self.table_bare.clear()

    def read(self, ctx: FrameContext) -> tuple[list[BoardReading], set[str]]:
        """One reading per achievement position; ``{"board"}`` hidden when a position is out of view."""
        t0 = time.perf_counter()
        ps = ctx.regions.board_patches()
        if not ctx.inside(ps).all():
            ctx.timings["board"] = (time.perf_counter() - t0) * 1000
            return [], {"board"}
        positions = ctx.regions.board_positions
        costs = self._tile_costs(ctx, ps)
        tiles = self._solve(*costs) if costs is not None else [(None, 0.0, 0.0)] * len(positions)
        final = costs
        t1 = time.perf_counter()
        stones = self._stones(ctx, [t[0] for t in tiles])
        # R-ACH-5: a marking stone goes on a face-up tile's slot. A position read face down under
        # stones is face up: solved again with its back barred, its stones read against that face
        stoned = [i for i, (e, c) in enumerate(positions) if tiles[i][0] is None and stones.get((e, c), ((), 1.0))[0]]
        if stoned and costs is not None and SIDE_FROM_STONES:
            cost, cols = costs
            cost = cost.copy()
            backs = _backs(cols)
            for i in stoned:
                cost[i, backs] = BIG / 4
            before, tiles = tiles, self._solve(cost, cols)
            final = (cost, cols)
            for i in stoned:  # the side is known from the stones, as surely as they were read
                tile, conf, _ = tiles[i]
                tiles[i] = (tile, conf, stones[positions[i]][1])
            # the stones of every position whose tile changed, read again against what it now holds
            moved = {positions[i] for i in range(len(positions)) if i in stoned or tiles[i][0] != before[i][0]}
            stones.update(self._stones(ctx, [t[0] for t in tiles], moved))
        out = []
        for i, (e, c) in enumerate(positions):
            tile, conf, fconf = tiles[i]
            st, sconf = stones.get((e, c), ((), 1.0))
            # a tile under stones names no rivals (the stones hide its art), as a land tile under members
            weighed = _rivals(final[0][i], final[1], tile) if final is not None and not any(st) else {}
            out.append(
                BoardReading(e, c, tile, st, round(conf, 4), round(sconf, 4), round(max(conf, fconf), 4), weighed)
            )
        ctx.timings["board"] = (t1 - t0) * 1000
        ctx.timings["stones"] = (time.perf_counter() - t1) * 1000
        return out, set()

    def _tiles(self, ctx: FrameContext, ps: object) -> list[tuple[str | None, float, float]]:
        """Per position: the tile (None: face down), the confidence in it and in its side alone."""
        costs = self._tile_costs(ctx, ps)
        return self._solve(*costs) if costs is not None else [(None, 0.0, 0.0)] * len(ctx.regions.board_positions)

    def _tile_costs(self, ctx: FrameContext, ps: object) -> tuple[np.ndarray, list[str]] | None:
        """The assignment's costs (positions x columns: the achievements, a back and an unknown face
        per position) from the features and the templates, and the columns' names; None when
        nothing was enrolled."""
        cls = self.classifier
        positions = ctx.regions.board_positions
        n = len(positions)
        if len(cls) == 0:
            return None
        windows = ctx.windows(ps)  # type: ignore[arg-type]
        feats, seen = encode_seen(self.encoder, windows, "board", "players")  # and which pixels show stones
        probs = cls.probabilities(feats).astype(np.float64)
        achs = [c for c in cls.classes if c.startswith("achievement:")]
        cols: list[str] = list(achs)
        # one back column and one unknown column per position (any number of each may be used)
        cols += [f"back:{e}" for e, _ in positions] + [UNKNOWN] * n
        cost = np.full((n, len(cols)), BIG / 4)
        for i, (e, _) in enumerate(positions):
            for j, name in enumerate(achs):
                if self.eras.get(name.split(":", 1)[1]) == e:
                    cost[i, j] = -math.log(max(probs[i, cls.index[name]], EPS))
            back = cls.column(f"back:{e}")
            p_back = probs[i, back] if back is not None else 0.0
            for j in range(len(achs), len(achs) + n):
                if cols[j] == f"back:{e}":
                    cost[i, j] = -math.log(max(p_back, EPS))
            p_face = 1.0 - p_back
            for j in range(len(achs) + n, len(cols)):
                cost[i, j] = -math.log(max(p_face * self.unknown_prior, EPS))
        if self.templates is not None:
            self._use_templates(ctx, windows, cost, cols, seen)
        return cost, cols

    def _solve(self, cost: np.ndarray, cols: list[str]) -> list[tuple[str | None, float, float]]:
        """Per position: the tile (None: face down), the confidence in it and in its side alone."""
        n = len(cost)
        chosen, _, margins = assign_with_bounds(cost, EXACT_BELOW)
        backs = _backs(cols)
        out: list[tuple[str | None, float, float]] = []
        for i in range(n):
            name = cols[int(chosen[i])]
            conf = _conf(margins[i])
            # the side alone: the best face-down option against the best face-up one at this position
            down, up = float(cost[i, backs].min()), float(cost[i, ~backs].min())
            if name.startswith("back:"):
                out.append((None, conf, _conf(up - down)))
            elif name == UNKNOWN:
                out.append((UNKNOWN, min(conf, 0.3), _conf(down - up)))
            else:
                out.append((name.split(":", 1)[1], conf, _conf(down - up)))
        return out

    def _use_templates(
        self, ctx: FrameContext, windows: np.ndarray, cost: np.ndarray, cols: list[str], seen: np.ndarray | None = None
    ) -> None:
        """Adds the template disagreement to the cost rows in place: at each position, over the
        columns it may take (its era's achievements and back, the unknown face). ``seen``: the
        windows' pixels the encoder left visible, where it told them already."""
        tm = self.templates
        assert tm is not None
        allowed = cost < BIG / 8
        # positions of one era are compared with that era's tiles alone, and only where the features
        # leave a second option within CASCADE of the best or read the position face down (elsewhere
        # the features alone decide)
        backs = _backs(cols)
        weight = np.where(backs, 1.0 / BACK_SHARE, 1.0 / TEMPLATE_SHARE)
        names: list[tuple[str, ...]] = []
        for i in range(len(cost)):
            ranked = np.sort(cost[i, allowed[i]])
            close = len(ranked) > 1 and ranked[1] - ranked[0] < CASCADE
            down = bool(backs[allowed[i]].any()) and bool(backs[int(np.argmin(np.where(allowed[i], cost[i], np.inf)))])
            names.append(
                tuple(cols[j] for j in np.flatnonzero(allowed[i]) if cols[j] in tm.index) if close or down else ()
            )
        bare = self._stoneless(windows, [bool(n) for n in names], seen) if STRUCTURE_SHARE else None
        once_more = TEMPLATE_SHARE / STRUCTURE_SHARE if STRUCTURE_SHARE else 0.0
        serial = ctx.reg.serial
        share = template_shares(tm, self.template_cache, serial, windows, names, again=bare, weight=once_more)
        for i in range(len(cost)):
            # names[i] empty: clear to the features, or nothing of this position's era enrolled
            row = template_costs(share[i], cols, tm, allowed[i], UNKNOWN_SHARE) if names[i] else None
            if row is not None:
                cost[i] = np.where(allowed[i], cost[i] + row * weight, cost[i])

    def _stoneless(self, windows: np.ndarray, asked: list[bool], seen: np.ndarray | None = None) -> list[bool] | None:
        """Per position, whether its window shows no stone (:data:`STONES_SHOWN`), for the positions
        ``asked`` (the others: False); None where the encoder does not tell. ``seen``: every window's
        visible pixels, where the encoder told them already."""
        visible = getattr(self.encoder, "visible", None)
        rows = np.flatnonzero(asked)
        out = [False] * len(windows)
        if seen is None and visible is None:
            return None
        if not len(rows):
            return out
        if seen is None:
            assert visible is not None
            shown = np.asarray(visible(windows[rows], "board", "players"))
        else:
            shown = seen[rows]
        for r, hid in zip(rows, (~shown).reshape(len(rows), -1).mean(axis=1), strict=True):
            out[int(r)] = bool(hid <= STONES_SHOWN)
        return out

    def _bare_maps(self, label: str) -> np.ndarray | None:
        """How much the *bare* tile (``achievement:<id>``, or the back of an era, ``back:<era>``) looks
        like each player's colour, pixel by pixel, and its Lab ((colours + 3) x px x px, the means over
        its enrolled windows), or None when it was not enrolled."""
        if self.examples is None or label.endswith(UNKNOWN):
            return None
        if label in self._bg:
            return self._bg[label]
        wins = enrolled_windows(self.examples, label)
        if wins is None:
            self._bg[label] = None
            return None
        labs = lab(wins)
        maps = np.stack(
            [likeness(labs, ref, colour_sigma(spread)).mean(axis=0) for _, ref, spread in self.colours]
            + list(np.moveaxis(labs.mean(axis=0), -1, 0))  # and the bare tile's own Lab, channel by channel
        ).astype(np.float32)
        self._bg[label] = maps
        return maps

    def _backgrounds(self, ctx: FrameContext, labels: list[str], offsets: np.ndarray) -> list[np.ndarray | None]:
        """Per stone window, how much its bare tile (``labels[i]``) looks like each colour in the disc
        of a stone centred ``offsets[i]`` (mm, in the tile's own frame) from the tile's centre (the
        disc's pixels about the nearest pixel centre), and the disc's mean Lab (colours + 3 values)."""
        out: list[np.ndarray | None] = [None] * len(labels)
        side = ctx.regions.board_patches().side_mm
        by_label: dict[str, list[int]] = {}
        for i, lb in enumerate(labels):
            by_label.setdefault(lb, []).append(i)
        for lb, idx in by_label.items():
            maps = self._bare_maps(lb)
            if maps is None:
                continue
            px = maps.shape[1]
            dy, dx = self._disc_offsets(max(ctx.regions.stone_radius * 0.72 / side * px, 1.0))
            c = np.rint((offsets[idx] + side / 2) / side * px - 0.5).astype(np.int64)  # n x 2
            xs = np.clip(c[:, 0, None] + dx[None], 0, px - 1)
            ys = np.clip(c[:, 1, None] + dy[None], 0, px - 1)
            means = maps[:, ys, xs].mean(axis=2)  # colours x n
            for j, i in enumerate(idx):
                out[i] = means[:, j]
        return out

    def _disc_offsets(self, r: float) -> tuple[np.ndarray, np.ndarray]:
        """Pixel offsets (dy, dx) of a disc of radius ``r`` pixels about a pixel centre."""
        key = round(r, 3)
        got = self._discs.get(key)
        if got is None:
            n = math.ceil(r)
            yy, xx = np.mgrid[-n : n + 1, -n : n + 1]
            keep = np.hypot(xx, yy) <= r
            got = (yy[keep], xx[keep])
            self._discs[key] = got
        return got

    def _nearest(self, disc: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per slot (its disc's mean Lab ``disc``): the players' colours from the nearest (indices into
        ``colours``), the distance to the nearest and to the next (Lab, lightness weighted a half)."""
        refs = np.stack([np.asarray(ref, np.float64).reshape(3) for _, ref, _ in self.colours])
        d = lab_distance(disc[:, None, :], refs[None])  # slots x colours
        order = np.argsort(d, axis=1)
        rows = np.arange(len(disc))
        near = d[rows, order[:, 0]]
        nxt = d[rows, order[:, 1]] if len(refs) > 1 else np.full(len(disc), np.inf)
        return order, near, nxt

    def _covered(self, disc: np.ndarray, bare: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per slot (its disc's mean Lab ``disc``, the bare tile's there ``bare``, NaN where unknown):
        whether it is plainly covered by a player's stone, by the distances alone (:data:`COVERED`,
        :data:`CLOSER`, :data:`APART`; Lab with lightness weighted a half, as the likeness), which
        colour (index into ``colours``) and how near it is to that colour against the bare art."""
        n = len(disc)
        none = np.zeros(n, bool), np.zeros(n, np.int64), np.ones(n)
        if not n or not self.colours:
            return none
        order, near, nxt = self._nearest(disc)
        d_bare = lab_distance(disc, bare)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(d_bare > 0, near / d_bare, 1.0)
            covered = (d_bare >= COVERED) & (near <= CLOSER * d_bare) & (near <= APART * nxt)
        covered &= np.isfinite(d_bare)
        return covered, order[:, 0], np.nan_to_num(ratio, nan=1.0)

    def _slot_geometry(
        self, ctx: FrameContext, tiles: list[str | None], pts: list[tuple[int, int, int, tuple[float, float]]]
    ) -> tuple[np.ndarray, list[str], np.ndarray]:
        """Per stone slot ``pts`` (era, column, slot, table point), given the tile read at each position
        (``tiles``, in the order of the board's positions): where the camera sees a stone's top there
        (table mm), the label of the bare art under it (``achievement:<id>``, or ``back:<era>`` face
        down) and where the top lies on that tile (mm from its centre, in the tile's own frame)."""
        lay = ctx.regions.layout
        # a stone stands: the camera sees its top displaced from its slot, away from below the camera
        feet = np.array([p for *_, p in pts], np.float64).reshape(-1, 2)
        tops = ctx.reg.raised(feet, lay.stone_height)
        index = {p: i for i, p in enumerate(ctx.regions.board_positions)}
        labels, offsets = [], []
        for i, (e, c, k, _) in enumerate(pts):
            tile = tiles[index[(e, c)]]
            labels.append(f"back:{e}" if tile is None else f"achievement:{tile}")
            # where the window lies on the tile, in the tile's frame (the slot, moved as the top is)
            dx, dy = rotate((float(tops[i, 0] - feet[i, 0]), float(tops[i, 1] - feet[i, 1])), -lay.board_rotation)
            ox, oy = lay.stone_slots[k]
            offsets.append((ox + dx, oy + dy))
        return tops, labels, np.array(offsets, np.float64).reshape(-1, 2)

    def relief_inputs(
        self,
        ctx: FrameContext,
        tiles: list[str | None],
        pts: list[tuple[int, int, int, tuple[float, float]]],
        geometry: tuple[np.ndarray, list[str], np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, list[tuple[str, int, int] | None]]:
        """What :func:`vision.relief.relief_features` reads of each stone slot ``pts``: the frame's
        window around where a stone's top would be (four stone radii a side, Lab), the bare art's
        window there (the mean of the enrolled windows of the tile read at the position, Lab; zeros
        where never enrolled), whether the bare art is known, the bare windows' own resolution
        (pixels a side of that window), and the key of each slot's look at this table
        (:attr:`table_bare`: the tile's label and where on it the window lies, to the millimetre; None
        on a face-down or unknown tile). ``geometry``: the slots' :meth:`_slot_geometry`, where the
        caller has it already."""
        n = len(pts)
        px = RELIEF_PX
        frame = np.zeros((n, px, px, 3), np.float32)
        bare = np.zeros((n, px, px, 3), np.float32)
        known = np.zeros(n, bool)
        if not n:
            return frame, bare, known, px, []
        lay = ctx.regions.layout
        side = 4 * ctx.regions.stone_radius
        tops, labels, offsets = self._slot_geometry(ctx, tiles, pts) if geometry is None else geometry
        keys: list[tuple[str, int, int] | None] = [
            None if lb.startswith("back:") or lb.endswith(UNKNOWN) else (lb, round(float(x)), round(float(y)))
            for lb, (x, y) in zip(labels, offsets, strict=True)
        ]
        ps = patch_set("relief", [(float(x), float(y)) for x, y in tops], lay.board_rotation, side, px)
        frame[:] = lab(ctx.windows(ps))
        tile_mm = ctx.regions.board_patches().side_mm
        n_col = len(self.colours)
        bare_px = px
        if len(self._relief_bare) > 4096:
            self._relief_bare.clear()
        for i, label in enumerate(labels):
            maps = self._bare_maps(label)
            if maps is None:
                continue
            m = maps.shape[1]
            s = side / tile_mm * m
            bare_px = max(1, round(s))
            # the same spot of the same tile (a steady camera) is cut once
            key = (label, round(float(offsets[i, 0]), 1), round(float(offsets[i, 1]), 1), round(s, 2))
            got = self._relief_bare.get(key)
            if got is None:
                art = np.ascontiguousarray(np.moveaxis(maps[n_col:], 0, -1))  # px x px x Lab
                cx, cy = (key[1] + tile_mm / 2) / tile_mm * m, (key[2] + tile_mm / 2) / tile_mm * m
                warp = np.float32([[s / px, 0, cx - s / 2], [0, s / px, cy - s / 2]])
                got = cv2.warpAffine(
                    art, warp, (px, px), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
                )
                self._relief_bare[key] = got
            bare[i] = got
            known[i] = True
        return frame, bare, known, bare_px, keys

    def _relief(
        self,
        ctx: FrameContext,
        tiles: list[str | None],
        pts: list[tuple[int, int, int, tuple[float, float]]],
        geometry: tuple[np.ndarray, list[str], np.ndarray],
        disc: np.ndarray,
        present: np.ndarray,
        best: np.ndarray,
        top: np.ndarray,
        sure: np.ndarray,
    ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, list[tuple[str, int, int] | None]] | None]:
        """The piece model's say on the slots (in place): a slot the colours left free that plainly
        holds a piece (:data:`PIECE_ON`) and whose disc lies clearly nearest one player's colour
        (:data:`APART`) holds that player's stone. Returns the model's probability per slot (NaN
        where not asked), which also picks the slot of a colour read on two slots of one tile
        (R-ACH-9, :data:`RELIEF_APART`), and, when learning, the slots cut (indices, frame windows,
        keys) for :meth:`_learn`. A slot is read against its look at this table where that is known
        (:data:`TABLE_WEIGHT`; a look the frame no longer shows even at its edge is forgotten first,
        :data:`STALE`), else against the enrolled art. Against the enrolled art the model only adds
        and picks: taking away a stone the colours read where it sees none was tried and taken back
        (docs/benchmarks.md, "an eighteenth part": on the held-out pack it missed a stone the colours
        had seen one slot off, a reading the tracker had used); against the table's own look a stone
        the colours read where the slot shows its free look is none (:data:`DROP_ON_TABLE`)."""
        p = np.full(len(pts), np.nan)
        if self.pieces is None or not len(pts):
            return p, None
        order, near, nxt = self._nearest(disc)
        # only slots the relief could change are asked: a stone read, or a free slot nearest one colour
        wanted = present | (near <= APART * nxt)
        cut = np.arange(len(pts)) if self.learn else np.flatnonzero(wanted)  # learning looks at every slot
        tops, labels, offsets = geometry
        frame, bare, known, bare_px, keys = self.relief_inputs(
            ctx, tiles, [pts[i] for i in cut], (tops[cut], [labels[i] for i in cut], offsets[cut])
        )
        asked = wanted[cut] | self.learn  # learning asks every slot: only what the relief calls bare is kept
        self._forget_stale(frame, keys)
        table = np.array([k is not None and k in self.table_bare for k in keys], bool)
        enrolled = asked & known & ~table
        if enrolled.any():
            p[cut[enrolled]] = self.pieces.probabilities(relief_features(frame[enrolled], bare[enrolled], bare_px))
        here = asked & table
        on_table = np.zeros(len(pts), bool)
        on_table[cut[here]] = True
        if here.any():
            refs = np.stack([self.table_bare[k] for k, h in zip(keys, here, strict=True) if h and k is not None])
            p[cut[here]] = self.pieces.probabilities(relief_features(frame[here], refs, RELIEF_PX))
        with np.errstate(invalid="ignore"):
            on = ~present & (p >= np.where(on_table, PIECE_ON_TABLE, PIECE_ON)) & (near <= APART * nxt)
        present[on] = True
        best[on] = order[on, 0]
        top[on] = p[on]
        sure[on] = p[on]
        if DROP_ON_TABLE:
            # a stone the colours read where the slot looks as it did at this table while free is none
            gone = present & on_table & (p < LEARN_BELOW)
            present[gone] = False
            sure[gone] = 1.0 - p[gone]
        return p, ((cut, frame, keys) if self.learn else None)

    def _forget_stale(self, frame: np.ndarray, keys: list[tuple[str, int, int] | None]) -> None:
        """Forget the looks at this table that the frame's windows (``frame``, Lab, at ``keys``) no longer
        show even at their edge (:data:`STALE`): a piece changes a slot's middle, another tile or
        another light changes all of it (a tile read face up while still face down showed its back)."""
        for j, key in enumerate(keys):
            look = self.table_bare.get(key) if key is not None else None
            if look is None:
                continue
            edge = np.linalg.norm(frame[j][_EDGE] - look[_EDGE], axis=-1)
            if float(np.median(edge)) > STALE:
                del self.table_bare[key]

    def _learn(
        self,
        slots: tuple[np.ndarray, np.ndarray, list[tuple[str, int, int] | None]],
        present: np.ndarray,
        doubt: np.ndarray,
        relief: np.ndarray,
    ) -> None:
        """Keep the look of every slot read free (no stone, none in doubt, its relief below
        :data:`LEARN_BELOW`) as what that spot looks like bare at this table (:data:`TABLE_WEIGHT`)."""
        cut, frame, keys = slots
        if len(self.table_bare) > 4096:
            self.table_bare.clear()
        for j, i in enumerate(cut):
            key = keys[j]
            if key is None or present[i] or doubt[i] or not relief[i] < LEARN_BELOW:  # (NaN: not measured)
                continue
            self.table_bare[key] = kept_look(self.table_bare.get(key), frame[j], TABLE_WEIGHT)

    def _stones(
        self, ctx: FrameContext, tiles: list[str | None], only: set[tuple[int, int]] | None = None
    ) -> dict[tuple[int, int], tuple[tuple[str | None, ...], float]]:
        """The stones of every position (``only``: of these positions alone), given the tile read at
        each (``tiles``, in the order of the board's positions)."""
        pts = ctx.regions.stone_points()
        if only is not None:
            pts = [p for p in pts if (p[0], p[1]) in only]
        if not pts or not self.colours:
            return {}
        side = 2 * ctx.regions.stone_radius
        lay = ctx.regions.layout
        tops, labels, offsets = self._slot_geometry(ctx, tiles, pts)
        ps = patch_set("stones", [(float(x), float(y)) for x, y in tops], lay.board_rotation, side, STONE_PX)
        labs = lab(ctx.windows(ps))
        scores = np.stack(
            [likeness(labs, ref, colour_sigma(spread))[:, self._mask].mean(axis=1) for _, ref, spread in self.colours],
            axis=1,
        )  # slots x colours
        # take away what the bare tile itself shows of each colour at each slot (its art)
        n_col = len(self.colours)
        bare_lab = np.full((len(pts), 3), np.nan)
        for i, bg in enumerate(self._backgrounds(ctx, labels, offsets)):
            if bg is not None:
                # how far the slot moved from the bare art towards "all this colour"
                scores[i] = np.maximum(scores[i] - bg[:n_col], 0.0) / np.maximum(1.0 - bg[:n_col], 0.2)
                bare_lab[i] = bg[n_col:]
        best = scores.argmax(axis=1)
        top = scores[np.arange(len(pts)), best]
        srt = np.sort(scores, axis=1)
        second = srt[:, -2] if scores.shape[1] > 1 else np.zeros(len(pts))
        present = (top >= self.threshold) & (top >= 1.5 * second)
        sure = np.array([threshold_conf(t, self.threshold) for t in top])
        # a slot plainly covered, nearest by far to one player's colour, holds that player's stone even
        # where the light has moved its colour out of the enrolled likeness (COVERED, CLOSER, APART)
        covered, colour, ratio = self._covered(labs[:, self._mask].mean(axis=1), bare_lab)
        add = covered & ~present & (colour == best) & (top > 0)  # the likeness, however faint, agrees
        present[add] = True
        top[add] = 1.0 - ratio[add]  # comparable with the likeness scores where R-ACH-9 weighs two slots
        sure[add] = [threshold_conf(1.0 - r, 1.0 - CLOSER) for r in ratio[add]]
        # the piece model's probability, where it was asked (NaN elsewhere, and everywhere without one)
        geometry = (tops, labels, offsets)
        relief, cut = self._relief(
            ctx, tiles, pts, geometry, labs[:, self._mask].mean(axis=1), present, best, top, sure
        )
        # R-ACH-9: never two stones of one player on one tile. Of the slots of a tile read as the same
        # colour, the one that shows it most keeps it (the one the relief plainly prefers, where it
        # was asked); the others (a stone's side or shadow seen in the next slot) are left undecided:
        # free, at confidence 0.5
        doubt = np.zeros(len(pts), bool)
        clipped = np.clip(relief, 1e-6, 1 - 1e-6)
        odds = np.log(clipped / (1 - clipped))  # the relief's log-odds of a piece (NaN: not asked)
        strongest: dict[tuple[int, int, int], int] = {}
        for i, (e, c, _k, _) in enumerate(pts):
            if not present[i]:
                continue
            key = (e, c, int(best[i]))
            j = strongest.get(key)
            if j is None:
                strongest[key] = i
                continue
            weaker = i if top[i] < top[j] else j
            if abs(odds[i] - odds[j]) > RELIEF_APART:  # (NaN: not asked) the relief plainly tells them
                weaker = i if odds[i] < odds[j] else j
            doubt[weaker] = True
            strongest[key] = j if weaker == i else i
        present &= ~doubt
        if cut is not None:
            self._learn(cut, present, doubt, relief)
        out: dict[tuple[int, int], tuple[list[str | None], float]] = {}
        for i, (e, c, _k, _) in enumerate(pts):
            stones, conf = out.setdefault((e, c), ([], 1.0))
            colour = self.colours[int(best[i])][0] if present[i] else None
            stones.append(colour)
            out[(e, c)] = (stones, min(conf, 0.5 if doubt[i] else float(sure[i])))
        res: dict[tuple[int, int], tuple[tuple[str | None, ...], float]] = {}
        for at, (stones, conf) in out.items():
            while stones and stones[-1] is None:
                stones.pop()
            res[at] = (tuple(stones), conf)
        return res
