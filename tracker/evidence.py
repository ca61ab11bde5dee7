"""Evidence: what the last settled frames say about each fact, fused, with the weight of the reading.

Each settled observation contributes, for every fact it reads, a vote for the value read weighted by
the reading's confidence: ``w = log((1 - e) / e)`` with ``e = clip(1 - conf, floor, 0.5)`` (a
reading at confidence 1 is still taken to be wrong with probability ``floor``; a reading at 0.5 or
below says nothing). The fused *support* of a value is the mean vote over the frames that read the
fact, so frames that repeat the same picture do not pile up certainty, and one odd frame among
several is outvoted: a fact never flips on one frame.

A reading that names its **rivals** (other values the reader weighed, with their probabilities,
:data:`tracker.facts.Reading`) also votes for each of them: the value's vote less how many times
less likely the reader found the rival, ``log(conf / p)`` (``p`` at least ``rival_floor``), never
more than the value's own vote. A value read at 0.6 with the plain back at 0.38 and the other
resources at 0.005 leaves the back close behind (deficit 0.46) and the other resources far (3.4),
where without rivals every other value is 0.41 behind: the question "which resource was drawn" is
then settled by what the reader saw, not by its doubt about the tile's side. A rival at or below
``rival_floor`` is as far as a reading can put a value (``log(1 / rival_floor)`` at most); values
the reading does not name get no vote, as before.

A predicted table (a state's view) is scored against the evidence per fact: how much support the
best-supported value has beyond the value predicted (:meth:`Evidence.deficit_of`; the search sums
these). Zero means every fact reads as predicted; a fact whose deficit reaches ``disagree`` is a
clear disagreement (the prediction cannot be right unless the reading is).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tracker.facts import Key, Reading, parts, value_of


def vote_weight(conf: float, floor: float = 0.02) -> float:
    """The weight of one reading at confidence ``conf`` (see the module docstring)."""
    e = min(max(1.0 - conf, floor), 0.5)
    return math.log((1.0 - e) / e)


def rival_gap(conf: float, p: float, rival_floor: float = 0.02) -> float:
    """How far behind the value read (at ``conf``) a rival at probability ``p`` lies in one frame:
    ``log(conf / p)``, both at least ``rival_floor``, and never below 0."""
    return max(0.0, math.log(max(conf, rival_floor) / max(p, rival_floor)))


@dataclass
class FactEvidence:
    """The fused readings of one fact: support per value (mean vote) and the best-supported value."""

    support: dict[Any, float]
    mode: Any
    top: float
    frames: int


@dataclass
class Evidence:
    """Fused readings of a window of settled frames (see the module docstring)."""

    facts: dict[Key, FactEvidence] = field(default_factory=dict)
    frames: int = 0

    @staticmethod
    def fuse(frames: Iterable[Mapping[Key, Reading]], floor: float = 0.02, rival_floor: float = 0.02) -> Evidence:
        """Fuse the facts of several frames (a reading's rivals as the module docstring says)."""
        sums: dict[Key, dict[Any, float]] = {}
        counts: dict[Key, int] = {}
        n = 0
        for facts in frames:
            n += 1
            for key, reading in facts.items():
                val, conf, rivals = parts(reading)
                per = sums.get(key)
                if per is None:
                    per = sums[key] = {}
                    counts[key] = 0
                counts[key] += 1
                w = vote_weight(conf, floor)
                per[val] = per.get(val, 0.0) + w
                for u, p in rivals.items():
                    if u != val:
                        per[u] = per.get(u, 0.0) + w - rival_gap(conf, p, rival_floor)
        out: dict[Key, FactEvidence] = {}
        for key, per in sums.items():
            k = counts[key]
            support = {v: w / k for v, w in per.items()}
            mode = max(support, key=lambda v: (support[v], _order(v)))
            out[key] = FactEvidence(support, mode, support[mode], k)
        return Evidence(out, n)

    def deficit_of(self, key: Key, value: Any) -> float:
        """How much better the best-supported value of ``key`` is supported than ``value``."""
        fe = self.facts.get(key)
        if fe is None:
            return 0.0
        return fe.top - fe.support.get(value, 0.0)

    def disagreements(
        self, view: Mapping[Key, Any], threshold: float, default: Callable[[Key], Any]
    ) -> list[tuple[Key, float]]:
        """Facts whose deficit under ``view`` (unlisted facts: ``default``) reaches ``threshold``,
        worst first."""
        out = []
        for key, fe in self.facts.items():
            v = value_of(view, key, default)
            if v != fe.mode:
                d = fe.top - fe.support.get(v, 0.0)
                if d >= threshold:
                    out.append((key, d))
        out.sort(key=lambda kd: (-kd[1], repr(kd[0])))
        return out

    def modes(self) -> dict[Key, Any]:
        """The best-supported value of every fact read."""
        return {k: fe.mode for k, fe in self.facts.items()}

    def observed(self, key: Key) -> bool:
        """True when some frame read ``key``."""
        return key in self.facts


def _order(v: Any) -> str:
    """A deterministic tie-break between values."""
    return repr(v)
