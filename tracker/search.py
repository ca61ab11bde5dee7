"""The search for the sequence of legal moves that best explains the table.

Starting from a rules state, :func:`search` grows short chains of moves — a whole turn is often
several engine moves (``3:exp``, ``draw …``, ``place …``; ``4:ach …``, ``reveal …``, ``event …``;
event answers by other players), and two turns can happen between two settled frames — taking at
each step only the moves the game's policy proposes from what the table shows
(:meth:`tracker.policy.TrackerPolicy.propose`), each applied with the game's ``apply`` (illegal ones
are dropped). Every state reached is scored against the
evidence (:meth:`tracker.evidence.Evidence.deficit`) plus a small cost per move, so that of two
chains that explain the table equally the shorter wins. A beam keeps the best few chains per depth;
chains that already explain the table are not extended — except a start waiting for a chance outcome
the table shows, read weakly, and the chain of outcomes from it (tiles drawn, then laid: a new tile
read at 0.8 is short of a clear disagreement, yet "nothing laid" must not pass for an explanation
while the next player goes on); the search stops one depth after the first explanation that waits
for no such outcome (to see rivals of the same or one more move) or when its node budget is spent.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from games.errors import IllegalMoveError
from tracker.evidence import Evidence
from tracker.facts import Key, Seating, View
from tracker.policy import TrackerPolicy

State = Any
Move = Any


@dataclass(frozen=True)
class SearchConfig:
    """Bounds and costs of the search."""

    max_depth: int = 8
    beam: int = 8
    max_nodes: int = 600
    step_cost: float = 0.25
    disagree: float = 2.0
    prune: bool = True
    max_turns: int = 3  # tile choices in one chain (a move read late, then two quick turns)


class Part:
    """A cached piece of a table view (one player's land and markers, the row, the board…) with the
    facts in which it differs from the best readings of the last evidence scored."""

    __slots__ = ("_ev", "_mismatch", "default", "owner", "sig", "view")

    def __init__(self, owner: Hashable, view: View, sig: Hashable, default: Any) -> None:
        self.owner = owner
        self.view = view
        self.sig = sig
        self.default = default
        self._ev: Evidence | None = None
        self._mismatch: list[tuple[Key, Any]] = []

    def mismatch(self, ev: Evidence, facts: list[tuple[Key, Any]]) -> list[tuple[Key, Any]]:
        """Facts (of this part's owner) whose best reading differs from this part's value."""
        if self._ev is not ev:
            out = []
            view = self.view
            default = self.default
            for key, mode in facts:
                v = view[key] if key in view else default(key)
                if v != mode:
                    out.append((key, v))
            self._ev = ev
            self._mismatch = out
        return self._mismatch


VIEW_CACHE_STATES = 1000
"""How many states' views a tracker keeps: the record's last states and the candidates searched
from them (tens per move); what was read for a game long over goes first."""


class ViewCache:
    """Table views of states built from cached parts (the game's :meth:`~tracker.policy.TrackerPolicy.
    view_parts`): a move changes one or two parts (a player's land, the row), the rest are shared
    with the state before, so views and scores are cheap. At most ``size`` states and ``2 * size``
    parts are kept, the least recently used going first (a camera session reads game after game:
    the states of a game long over must not stay)."""

    def __init__(self, seating: Seating, policy: TrackerPolicy, size: int = VIEW_CACHE_STATES) -> None:
        self.seating = seating
        self.policy = policy
        self.default = policy.default
        self.size = size
        self._parts: dict[Hashable, tuple[tuple[object, ...], Part]] = {}
        self._states: dict[int, tuple[State, tuple[Part, ...]]] = {}
        self._owner_facts: tuple[Evidence, dict[Hashable, list[tuple[Key, Any]]]] | None = None

    def parts(self, state: State) -> tuple[Part, ...]:
        """The parts of ``state``'s view."""
        key = id(state)
        hit = self._states.get(key)
        if hit is not None and hit[0] is state:
            self._states[key] = self._states.pop(key)  # the most recently used goes last
            return hit[1]
        out = []
        for spec in self.policy.view_parts(state, self.seating):
            if not spec.cache:
                view = spec.make()
                out.append(Part(spec.owner, view, spec.sig(), self.default))
                continue
            cached = self._parts.get(spec.key)
            if cached is not None and all(a is b for a, b in zip(cached[0], spec.objs, strict=True)):
                self._parts[spec.key] = self._parts.pop(spec.key)
                out.append(cached[1])
                continue
            part = Part(spec.owner, spec.make(), spec.sig(), self.default)
            self._parts[spec.key] = (spec.objs, part)
            out.append(part)
        parts = tuple(out)
        states, parts_cache = self._states, self._parts
        states[key] = (state, parts)
        while len(states) > self.size:
            del states[next(iter(states))]
        while len(parts_cache) > 2 * self.size:
            del parts_cache[next(iter(parts_cache))]
        return parts

    def clear(self) -> None:
        """Forget every cached view (a new game)."""
        self._states.clear()
        self._parts.clear()
        self._owner_facts = None

    def view(self, state: State) -> View:
        """The table view of ``state`` (a fresh dict)."""
        view: View = {}
        for part in self.parts(state):
            view.update(part.view)
        return view

    def owner_facts(self, ev: Evidence) -> dict[Hashable, list[tuple[Key, Any]]]:
        """The evidence's best readings grouped by the part that predicts them."""
        if self._owner_facts is not None and self._owner_facts[0] is ev:
            return self._owner_facts[1]
        owner_of = self.policy.owner_of
        out: dict[Hashable, list[tuple[Key, Any]]] = {}
        for key, fe in ev.facts.items():
            owner = owner_of(key, self.seating)
            out.setdefault(owner, []).append((key, fe.mode))
        self._owner_facts = (ev, out)
        return out

    def mismatch(self, state: State, ev: Evidence) -> list[tuple[Key, Any]]:
        """Facts whose best reading differs from what ``state`` predicts, with the predicted value."""
        facts = self.owner_facts(ev)
        out: list[tuple[Key, Any]] = []
        for part in self.parts(state):
            f = facts.get(part.owner)
            if f:
                out.extend(part.mismatch(ev, f))
        owners = {part.owner for part in self.parts(state)}
        default = self.default
        for owner, owned in facts.items():
            if owner not in owners:
                for key, mode in owned:
                    if default(key) != mode:
                        out.append((key, default(key)))
        return out

    def signature(self, state: State) -> tuple[Hashable, ...]:
        """A hashable summary of ``state``'s view."""
        return tuple(p.sig for p in self.parts(state))


@dataclass
class Node:
    """A chain of moves from the search's start and the state it reaches, scored."""

    state: State
    moves: tuple[Move, ...]
    views: ViewCache
    deficit: float = 0.0
    disagreements: list[tuple[Key, float]] = field(default_factory=list)
    back: int = 0  # moves taken back from the current state before this chain (takebacks)
    mismatch: list[tuple[Key, Any]] = field(default_factory=list)

    @property
    def view(self) -> View:
        """The table this node predicts."""
        return self.views.view(self.state)

    ok: bool = False  # explains the table (see :attr:`explains`)

    @property
    def explains(self) -> bool:
        """True when the node explains the table: no fact clearly disagrees with its table (or, see
        :func:`relax`, only facts that no node explains)."""
        return self.ok

    def cost(self, step_cost: float, back_cost: float = 1.0) -> float:
        """Deficit plus the cost of its moves and takebacks."""
        return self.deficit + step_cost * len(self.moves) + back_cost * self.back

    def rescore(self, evidence: Evidence, disagree: float) -> None:
        """Score against the evidence (and remember the facts whose best reading differs from this
        node's table, for :meth:`rescore_same_modes`)."""
        self.mismatch = self.views.mismatch(self.state, evidence)
        self.rescore_same_modes(evidence, disagree)

    def rescore_same_modes(self, evidence: Evidence, disagree: float) -> None:
        """Score again against evidence with the same best readings (only supports changed)."""
        total = 0.0
        dis = []
        facts = evidence.facts
        for key, v in self.mismatch:
            fe = facts[key]
            d = fe.top - fe.support.get(v, 0.0)
            total += d
            if d >= disagree:
                dis.append((key, d))
        dis.sort(key=lambda kd: (-kd[1], repr(kd[0])))
        self.deficit = total
        self.disagreements = dis
        self.ok = not dis


def relax(nodes: list[Node]) -> None:
    """When no node explains the table strictly, accept nodes whose only disagreements are facts that
    no sound node explains (a knocked piece or a misreading beside the move, reported after the
    commit) and that the node's moves leave as they were, provided they explain more than
    ``nodes[0]`` (the start) does. A node is sound when it adds no disagreement the start does not
    have."""
    if not nodes or any(n.ok for n in nodes):
        return
    root_keys = {k for k, _ in nodes[0].disagreements}
    policy = nodes[0].views.policy
    kinds, most = policy.residual_kinds, policy.residual_max
    sound = [n for n in nodes if all(k in root_keys for k, _ in n.disagreements)]
    stuck = set(root_keys)
    for n in sound:
        stuck &= {k for k, _ in n.mismatch}
    if not stuck:
        return
    limit = len(nodes[0].disagreements)
    root_pred = dict(nodes[0].mismatch)
    for n in sound[1:] if sound and sound[0] is nodes[0] else sound:
        pred = dict(n.mismatch)
        if (
            (n.moves or n.back)
            and len(n.disagreements) < limit
            and len(n.disagreements) <= most
            and all(k in stuck and k[0] in kinds for k, _ in n.disagreements)
            # a fact the node's own moves change is part of the move, not beside it: a move seen
            # only in part (one member of two down) is not a whole move with a piece knocked
            and all(pred.get(k) == root_pred.get(k) for k, _ in n.disagreements)
        ):
            n.ok = True


def _reads_outcome(node: Node, policy: TrackerPolicy) -> bool:
    """The game waits for a chance outcome the table shows (a tile turned up above, an event laid in
    the row, tiles drawn and laid) and the table reads otherwise than predicted, if only weakly: a weak reading below
    ``disagree`` still says which outcome it was, so the outcomes are tried (they compete by
    deficit, and the tracker asks when they are too close)."""
    return policy.reads_outcome(node.state) and bool(node.mismatch)


def state_key(state: State, views: ViewCache) -> Hashable:
    """What tells two reached states apart (the view plus what a camera cannot see)."""
    return (views.signature(state), views.policy.hidden_key(state))


def search(
    start: State,
    evidence: Evidence,
    seating: Seating,
    config: SearchConfig | None = None,
    views: ViewCache | None = None,
    back: int = 0,
) -> list[Node]:
    """Every node reached (the start itself first), scored; see the module docstring."""
    cfg = config or SearchConfig()
    if views is None:
        from tracker.policy import default_policy

        views = ViewCache(seating, default_policy())
    policy = views.policy
    rules = policy.rules
    read = policy.table_read(evidence, seating)

    def make(state: State, moves: tuple[Move, ...]) -> Node:
        node = Node(state, moves, views, back=back)
        node.rescore(evidence, cfg.disagree)
        return node

    root = make(start, ())
    nodes = [root]
    seen: set[Any] = {state_key(start, views)}
    frontier = [root]
    # the start and the chain of chance outcomes from it that the table reads otherwise, if only
    # weakly (tiles drawn, then laid): followed on even where they explain the table
    awaiting = {id(root)} if _reads_outcome(root, policy) else set()

    def found(node: Node) -> bool:
        return node.explains and id(node) not in awaiting

    found_at: int | None = 0 if found(root) else None
    for depth in range(1, cfg.max_depth + 1):
        if found_at is not None and depth > found_at + 1:
            break
        children: list[Node] = []
        for node in frontier:
            if rules.is_over(node.state) or found(node):
                continue
            turns = sum(1 for m in node.moves if policy.starts_turn(m))
            for move in policy.propose(node.state, read, cfg.prune):
                if turns >= cfg.max_turns and policy.starts_turn(move):
                    continue
                if len(nodes) + len(children) >= cfg.max_nodes:
                    break
                try:
                    nxt = rules.apply(node.state, move)
                except IllegalMoveError:
                    continue
                child = make(nxt, (*node.moves, move))
                key = state_key(nxt, views)
                if key in seen:
                    continue
                seen.add(key)
                children.append(child)
                if id(node) in awaiting and _reads_outcome(child, policy):
                    awaiting.add(id(child))
        if not children:
            break
        children.sort(key=lambda n: (n.cost(cfg.step_cost), [str(m) for m in n.moves]))
        nodes.extend(children)
        frontier = children[: cfg.beam]
        if found_at is None and any(found(c) for c in children):
            found_at = depth
    return nodes
