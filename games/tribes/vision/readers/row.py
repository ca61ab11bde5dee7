"""The action row reader: which tile lies in each slot, and how many shells lie on it.

The row is not read as independent guesses. The features of every slot are compared with the
enrolled examples (the 6 action tiles, the events and bare table) and then:

1. **How long is the row.** Tiles lie from slot 1 without gaps, and every action tile is always in
   the row, so the row holds ``n >= 6`` tiles: ``n`` is chosen to maximise the likelihood of slots
   ``1..n`` being occupied and the rest empty.
2. **Who lies where.** Slots ``1..n`` are assigned known tiles: each action tile exactly once,
   each enrolled event at most once, and an event never enrolled as "``?``" (any number). This is
   a least-cost assignment (:func:`vision.assign.assign_with_bounds`) over ``-log p``; the
   confidence of a slot is the logistic of a lower bound of how much worse the best solution
   giving that slot another tile is (from the assignment's dual potentials), times the slot's
   likelihood of being occupied; ``filled_conf`` is that likelihood alone (a tile lies there,
   whichever), or of being empty for the slots past the row's end.

Shells on the occupied slots are counted by the shell counting model with a likeness map to the
enrolled shell colour. Every occupied slot is read mainly from pixel templates
(:class:`vision.templates.TemplateMatcher`, when the enrolled windows are given): the share of the
window that disagrees with each tile's bare art, ``TEMPLATE_SHARE`` of it costing one unit of
``-log p``, joined by ``FEATURE_WEIGHT`` of the feature cost. Pale shells piled on a tile hide its
art from the features (they cannot be hidden by colour on white paper); the templates ask which tile
the uncovered rest of the window is. On 301 settled rows of six camera games (seeds 31-36) the rows
read exactly went from 265 to 295 with templates on the slots with shells, and to 299 with them on
every occupied slot — two look-alike events (barter, training) are told apart by their art where the
features hesitate (``benchmarks/row_eval.py``, docs/benchmarks.md; the second choice was made on
those same games). The templates' coarse look (:mod:`vision.templates`) later carried this to dark and
pale art: rows of dark art read exactly on the tuning set went from 61 to 78 % (docs/benchmarks.md).

Which event lies under shells is reported no surer than the tuning set found it right at that many
shells (:data:`EVENT_UNDER_SHELLS`): from two shells on, about a coin toss or worse; which action tile
lies under three or more, at most 0.6 (:data:`ACTION_UNDER_SHELLS`). A slot's tile can also stand only
on another slot's: each action tile lies once in the row, so when a pile hides one slot's action tile
and the assignment gives that slot an event, the tile pushed out lands on another slot and is read
there, sure (the dark art's row prompts through the tracker: ``feud`` under one shell read as
``mov``, because ``mov`` under three shells was read as an event). So each slot is also bounded by
the slots that its best alternative moves (:func:`vision.assign.assign_with_moves`): unless what the
slots not in doubt (their tile's cap 1, and the slot itself) pay in that alternative rejects it on
their own, the slot is no surer than the least sure of the others (:meth:`RowReader._leans`).

Margins: the action tiles' large reward leaves the assignment's dual bound at 0 for an event slot
however clear its event, so margins under :data:`vision.assign.EXACT_BELOW` are solved exactly.
"""

from __future__ import annotations

import math
import time
from typing import Protocol

import numpy as np

from games.tribes.vision.enrollment import EMPTY
from games.tribes.vision.observation import SlotReading
from games.tribes.vision.readers.base import (
    ChangeCache,
    FrameContext,
    colour_sigma,
    likeness_maps,
    template_costs,
    template_shares,
)
from vision.assign import BIG, EXACT_BELOW, Moves, assign_with_bounds, assign_with_moves
from vision.classify import ExampleClassifier
from vision.features import CountModel
from vision.templates import TemplateMatcher

UNKNOWN_EVENT = "?"
"""Tile id reported for an event that was never enrolled."""
EPS = 1e-6
TEMPLATE_SHARE = 0.03
"""Share of a window's pixels disagreeing with a tile's art that costs as much as a factor e in p."""
FEATURE_WEIGHT = 0.3
"""Weight of the feature cost where the templates are used (they carry the rest)."""
STRUCTURE_SHELLS = 3
"""A slot with this many shells read on it or more is judged by the templates without their structure
look (:mod:`vision.templates`: the shells' outlines are detail of their own, and a pile's outweigh the
print). Chosen on the tuning set with the look's first version, on Lab's lightness
(``benchmarks/vision_diag.py --set tune --re-enroll``, rows read exactly, wrong of 64 on the sketch
pack / pale / dark art): the look on every slot 8 / 15 / 14, left out from two shells 6 / 17 / 14,
from three 5 / 16 / 14 (docs/benchmarks.md, the ninth part on unseen boxes)."""
STRUCTURE_SHARE = 0.03
"""On a slot with no shell read on it, the templates' structure look (where the print lies,
:mod:`vision.templates`) counts once more on its own, a look this much further from a tile's art
than from the nearest tile's costing a factor e in p (0: not counted again) — at the joined looks'
own weight (``TEMPLATE_SHARE``). The joined looks' geometric mean keeps the ratio between two faces
where the fine look finds every face alike (pale art), not their difference, which the cost weighs.
``benchmarks/template_eval.py --re-enroll`` (the right tile's margin over the next of its kind, the
templates alone, events without shells: median, and how many by 3 or more): tuning set's pale art
0.90 and 0 of 34 -> 4.71 and 25 of 34, dark art 3.45 and 19 -> 8.35 and 32 of 34; the held-out pack
in pale art (``--set eval``) 1.18 and 0 of 29 -> 6.05 and 25 of 29; which tile the templates name
unchanged on all three. Rows read exactly (``benchmarks/vision_diag.py --set tune --try
row.STRUCTURE_SHARE=0``): pale 49 -> 50 of 64, dark 50 -> 51, the colour variants 59 -> 59."""
EVENT_UNDER_SHELLS = (1.0, 0.8, 0.3, 0.1, 0.1)
"""How sure the reader may be of *which* event lies on a slot under 0, 1, 2, 3 and 4 or more shells
read there (the slot's confidence is at most this: the share found right there, the lower of the two
measurements below, rounded down). Shells hide an event's art, and the templates then favour
whichever event has pale print where the shells lie, at margins as wide as on a bare tile. On the
tuning set's single frames (``benchmarks/row_under_shells.py --sessions 24 --every 1``, and with
``--family pale``, ``--family dark``, ``--drift all``: the colour variants, pale and dark art, the light
drifting; the counts joined) the event was right under one shell 79 of 87 times (91 %), two 40 of 63
(63 %), three 18 of 34 (53 %), four or more 22 of 72 (31 %), the wrong ones read at up to 0.99 on
dark art; in the tracker's conditions (a tuning pack in dark art, the command under
:data:`ACTION_UNDER_SHELLS`, every settled frame) 84, 31, 18 and 11 %. An event enters the row bare
(R-EVT-1: through a lightning slot) and shells come on it later (R-TURN-2), so the tracker, which
weighs a reading by its confidence (0.5 or less: no weight), has seen it without shells; capped, a
misread pile no longer outvotes the game."""
ACTION_UNDER_SHELLS = (1.0, 1.0, 1.0, 0.6)
"""The same for an action tile under 0, 1, 2 and 3 or more shells. On the tuning set's single frames
(the commands above) the action tiles under shells were nearly all right (375 of 376), but in the
tracker's conditions — a whole game's piles on the front tiles, its cameras and light — a tuning pack
in dark art (``benchmarks/row_under_shells.py games -- --source recognizer --games 10 --moves 30
--pack classic --family dark``, every settled frame) had action tiles under three shells right in 284
of 446 frames (64 %) and under four or more in 337 of 355 (95 %), the wrong ones read at up to 1.0:
two tiles under piles of one height swapped, each lying once in the row as the assignment asks.
Under one or two shells all 2,254 were right."""
UNKNOWN_SHARE = 0.1
"""An event never enrolled costs, where the templates are used, as a known tile disagreeing by this
share more than the best one."""


class Encoder(Protocol):
    def encode(self, windows01: np.ndarray, group: str, key: str) -> np.ndarray: ...


def _conf(margin: float) -> float:
    if not math.isfinite(margin):
        return 1.0
    return float(1.0 / (1.0 + math.exp(-min(margin, 50.0))))


class RowReader:
    """Reads the action row (see the module docstring)."""

    def __init__(
        self,
        encoder: Encoder,
        classifier: ExampleClassifier,
        counter: CountModel,
        shell_colour: tuple[np.ndarray, float],
        min_tiles: int = 6,
        unknown_prior: float = 0.02,
        templates: TemplateMatcher | None = None,
        cache: bool = False,
    ) -> None:
        self.encoder = encoder
        self.classifier = classifier
        self.counter = counter
        self.shell = shell_colour
        self.actions = [c for c in classifier.classes if c.startswith("action:")]
        self.events = [c for c in classifier.classes if c.startswith("event:")]
        self.min_tiles = max(min(min_tiles, len(self.actions)), 1)
        self.unknown_prior = unknown_prior
        self.templates = templates if templates is not None and len(templates) else None
        self.template_cache = ChangeCache() if cache else None  # a slot unchanged since the last frame

    def read(self, ctx: FrameContext) -> tuple[list[SlotReading], set[str]]:
        """One reading per layout slot; ``{"row"}`` hidden when a slot is out of view."""
        t0 = time.perf_counter()
        ps = ctx.regions.row_patches()
        if not ctx.inside(ps).all():
            ctx.timings["row"] = (time.perf_counter() - t0) * 1000
            return [], {"row"}
        cls = self.classifier
        windows = ctx.windows(ps)
        probs = cls.probabilities(self.encoder.encode(windows, "row", "shell")).astype(np.float64)
        slots = len(ps)
        ecol = cls.column(EMPTY)
        p_empty = probs[:, ecol] if ecol is not None else np.zeros(slots)
        p_occ = np.clip(1.0 - p_empty, EPS, 1.0)
        p_empty = np.clip(p_empty, EPS, 1.0)
        # 1. the row's length
        lo = min(self.min_tiles, slots)
        best_n, best_ll = lo, -math.inf
        for n in range(lo, slots + 1):
            ll = float(np.log(p_occ[:n]).sum() + np.log(p_empty[n:]).sum())
            if ll > best_ll:
                best_n, best_ll = n, ll
        n = best_n
        # 2. the assignment: action tiles (each once, forced), events (each at most once), unknowns
        cols = self.actions + self.events + [UNKNOWN_EVENT] * max(0, n - len(self.actions))
        cost = np.empty((n, len(cols)))
        for j, name in enumerate(cols):
            if name == UNKNOWN_EVENT:
                cost[:, j] = -np.log(np.clip(p_occ[:n] * self.unknown_prior, EPS, 1.0))
            else:
                cost[:, j] = -np.log(np.clip(probs[:n, cls.index[name]], EPS, 1.0))
        t1 = time.perf_counter()
        shells = self._shells(ctx, n)
        t2 = time.perf_counter()
        if self.templates is not None and n:
            piled = [shells[i][0] >= STRUCTURE_SHELLS for i in range(n)]
            bare = [shells[i][0] == 0 for i in range(n)]
            self._use_templates(ctx, cost, cols, list(range(n)), windows[:n], piled, bare)
        # every action tile must be used: a large reward per action column taken
        action_cols = [j for j, name in enumerate(cols) if name.startswith("action:")]
        cost[:, action_cols] -= 1000.0
        if len(cols) < n:  # fewer known tiles than slots (an incomplete enrollment)
            cost = np.hstack([cost, np.full((n, n - len(cols)), BIG / 4)])
            cols = cols + [UNKNOWN_EVENT] * (n - len(cols))
        moves: list[Moves] = []
        if any(k for k, _ in shells):  # a tile may be in doubt under its shells: who leans on it
            chosen, _, margins, moves = assign_with_moves(cost)
        else:
            chosen, _, margins = assign_with_bounds(cost, EXACT_BELOW)
        caps = [self._cap(cols[int(chosen[i])], shells[i][0]) for i in range(n)]
        leans = [1.0] * n
        if moves and min(caps) < 1.0:
            plain = cost.copy()  # what each slot pays for each tile, without the reward
            plain[:, action_cols] += 1000.0
            leans = [self._leans(i, moves[i], caps, plain, chosen) for i in range(n)]
        out = []
        for i in range(slots):
            if i < n:
                name = cols[int(chosen[i])]
                tile = name.split(":", 1)[1] if name != UNKNOWN_EVENT else UNKNOWN_EVENT
                event = not name.startswith("action:")
                conf = _conf(margins[i]) * float(p_occ[i])
                if name == UNKNOWN_EVENT:
                    conf = min(conf, 0.3)
                k, kconf = shells[i]
                conf = min(conf, caps[i], leans[i])
                filled = round(float(p_occ[i]), 4)  # >= conf, which is this times the margin's
                out.append(SlotReading(i + 1, tile, event, k, round(conf, 4), round(kconf, 4), filled))
            else:
                pe = round(float(p_empty[i]), 4)
                out.append(SlotReading(i + 1, None, False, 0, pe, 1.0, pe))
        ctx.timings["row"] = (t1 - t0 + time.perf_counter() - t2) * 1000
        ctx.timings["row_shells"] = (t2 - t1) * 1000
        return out, set()

    @staticmethod
    def _cap(name: str, shells: int) -> float:
        """How sure a slot read as ``name`` under ``shells`` may be of its tile (the caps above)."""
        cap = ACTION_UNDER_SHELLS if name.startswith("action:") else EVENT_UNDER_SHELLS
        return cap[min(shells, len(cap) - 1)]

    @staticmethod
    def _leans(i: int, moves: Moves, caps: list[float], plain: np.ndarray, chosen: np.ndarray) -> float:
        """How sure slot ``i`` may be, given the slots its best alternative (``moves``) moves: when
        the slots that may be trusted (their tile not in doubt, and ``i`` itself) do not reject that
        alternative on their own, ``i``'s tile holds only as far as the doubtful ones' do (1.0: no
        bound)."""
        doubt = [caps[r] for r, _ in moves if r != i and caps[r] < 1.0]
        if not doubt:
            return 1.0
        trusted = sum(plain[r, k] - plain[r, chosen[r]] for r, k in moves if r == i or caps[r] >= 1.0)
        return max(_conf(float(trusted)), min(doubt))

    def _use_templates(
        self,
        ctx: FrameContext,
        cost: np.ndarray,
        cols: list[str],
        slots: list[int],
        windows: np.ndarray,
        piled: list[bool] | None = None,
        bare: list[bool] | None = None,
    ) -> None:
        """Rewrites the cost rows of the given (occupied) slots in place from the template disagreement
        (``piled[r]``: shells lie on window ``r``, judged without the structure look; ``bare[r]``: none
        does, and its structure look counts once more, at :data:`STRUCTURE_SHARE`)."""
        tm = self.templates
        assert tm is not None
        weight = TEMPLATE_SHARE / STRUCTURE_SHARE if STRUCTURE_SHARE else 0.0
        serial = ctx.reg.serial
        share = template_shares(tm, self.template_cache, serial, windows, plain=piled, again=bare, weight=weight)
        everywhere = np.ones(len(cols), bool)
        for r, i in enumerate(slots):
            row = template_costs(share[r], cols, tm, everywhere, UNKNOWN_SHARE)
            if row is None:  # no column with a template: the same for every tile
                row = np.full(len(cols), UNKNOWN_SHARE)
            cost[i] = FEATURE_WEIGHT * cost[i] + row / TEMPLATE_SHARE

    def _shells(self, ctx: FrameContext, n: int) -> list[tuple[int, float]]:
        if n == 0:
            return []
        # the occupied slots (the first n), cut as the counter reads them
        ps = ctx.regions.row_count_patches(self.counter.px, n)
        win = ctx.windows(ps)
        ref, spread = self.shell
        like = likeness_maps(win, ref, colour_sigma(spread))
        probs = self.counter.probabilities(win, like)
        k = probs.argmax(axis=1)
        return [(int(k[i]), float(probs[i, k[i]])) for i in range(n)]
