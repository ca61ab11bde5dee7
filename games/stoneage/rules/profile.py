"""The Stone Age box profile: every component value the engine reads, each with its provenance.

The seed (a German rule summary) gives the rules and a few numbers (capacities, divisors, card costs);
the published rules pages give the rest of what we can reach (the card list, the buildings); what no
text we can reach gives is marked ``provisional``. Nothing of it lives in code: the engine reads a
validated :class:`BoxProfile` and is right for any valid one. Provenance (``_source`` / ``_sources``)
is collected with :class:`datafile.provenance.SourceReader`; docs/stoneage-profile.md documents the
format; the default ships as ``games/stoneage/profiles/default.json``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources as _resources
from pathlib import Path
from typing import Any

from datafile import beside, read_json, show
from datafile.provenance import SourceReader, source_of
from games.stoneage.rules.errors import ProfileError

PROFILE_FORMAT = "stoneage-box-profile"
PROFILE_VERSION = 1

RESOURCES: tuple[str, ...] = ("wood", "clay", "stone", "gold")
"""The four resources, in the fixed order of every resource vector (wood, clay, stone, gold)."""
DICE_PLACES: tuple[str, ...] = ("hunt", "wood", "clay", "stone", "gold")
"""The places where dice are rolled: the hunting grounds (food) and the four resource places, each
named by what it yields (forest = wood, clay pit = clay, quarry = stone, river = gold)."""
VILLAGE: tuple[str, ...] = ("toolmaker", "hut", "field")
CARD_TOPS: tuple[str, ...] = (
    "dice_bar",
    "food",
    "resource",
    "roll",
    "points",
    "tool_once",
    "agriculture",
    "tool",
    "extra_card",
    "any_resources",
)
"""What the top half of a civilization card gives at once (S-CARD-3 … S-CARD-8)."""
MULTIPLIERS: tuple[str, ...] = ("farmer", "toolmaker", "hutbuilder", "shaman")
"""The sand-coloured bottoms: farmer × agriculture, tool maker × tool values, hut builder ×
buildings, shaman × people (S-END-3)."""
BAR_REWARDS: tuple[str, ...] = ("wood", "clay", "stone", "gold", "tool", "agriculture")
"""What a die of the dice-bar card can give (by face, from the profile's ``dice_bar``)."""
BUILDING_KINDS: tuple[str, ...] = ("fixed", "count", "range")
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")


@dataclass(frozen=True, slots=True)
class CardTop:
    """The immediate effect of a card: ``kind`` (:data:`CARD_TOPS`) with its ``amount`` (food,
    points, agriculture, tools, resources to choose), ``resource`` (a fixed resource or the resource
    rolled for) and ``dice`` (dice rolled for ``roll``); ``value`` for a one-time tool."""

    kind: str
    amount: int = 0
    resource: str = ""
    dice: int = 0
    value: int = 0


@dataclass(frozen=True, slots=True)
class CardBottom:
    """The final-scoring half: a culture symbol, or ``figures`` of a multiplier kind."""

    culture: str = ""
    multiplier: str = ""
    figures: int = 0


@dataclass(frozen=True, slots=True)
class Card:
    """One civilization card."""

    id: str
    top: CardTop
    bottom: CardBottom


@dataclass(frozen=True, slots=True)
class Building:
    """One building tile. ``fixed``: pay ``cost`` (wood, clay, stone, gold) for ``points``;
    ``count``: pay exactly ``count`` resources of exactly ``kinds`` different kinds; ``range``: pay
    ``lo`` to ``hi`` resources of any kinds. The last two score the value of what is paid."""

    id: str
    kind: str
    cost: tuple[int, int, int, int] = (0, 0, 0, 0)
    points: int = 0
    count: int = 0
    kinds: int = 0
    lo: int = 0
    hi: int = 0


@dataclass(frozen=True, eq=False)
class BoxProfile:
    """A validated box profile. Equality is by content digest."""

    name: str
    start_people: int
    start_food: int
    max_people: int
    max_agriculture: int
    max_tools: int
    max_tool_value: int
    divisor: Mapping[str, int]
    value: tuple[int, int, int, int]
    capacity: Mapping[str, int | None]
    card_costs: tuple[int, ...]
    stacks: int
    stack_size: int
    dice_bar: tuple[str, ...]
    cultures: tuple[str, ...]
    cards: tuple[Card, ...]
    buildings: tuple[Building, ...]
    totals: Mapping[str, int]
    provenance: Mapping[str, str] = field(repr=False)
    raw: Mapping[str, Any] = field(repr=False)
    digest: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cards", {c.id: c for c in self.cards})
        object.__setattr__(self, "_buildings", {b.id: b for b in self.buildings})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoxProfile) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def __repr__(self) -> str:
        return f"<BoxProfile {self.name!r} sha256:{self.digest[:12]}>"

    def card(self, card_id: str) -> Card:
        """The card with this id; KeyError if none."""
        out: Card = self._cards[card_id]  # type: ignore[attr-defined]
        return out

    def building(self, building_id: str) -> Building:
        """The building with this id; KeyError if none."""
        out: Building = self._buildings[building_id]  # type: ignore[attr-defined]
        return out

    def is_card(self, item: str) -> bool:
        """``item`` is a card id of this profile."""
        return item in self._cards  # type: ignore[attr-defined]

    def is_building(self, item: str) -> bool:
        """``item`` is a building id of this profile."""
        return item in self._buildings  # type: ignore[attr-defined]

    def source_of(self, path: str) -> str:
        """Provenance of the value at ``path`` (e.g. ``cards[3].bottom.figures``)."""
        return source_of(self.provenance, path)

    def is_provisional(self, path: str) -> bool:
        """The value at ``path`` is a provisional placeholder."""
        return self.source_of(path).startswith("provisional")

    def path_of(self, item: str) -> str:
        """The profile path of a card or building (``cards[3]``); KeyError if none."""
        for i, c in enumerate(self.cards):
            if c.id == item:
                return f"cards[{i}]"
        for i, b in enumerate(self.buildings):
            if b.id == item:
                return f"buildings[{i}]"
        raise KeyError(item)

    def to_json(self) -> str:
        """The profile document as JSON text."""
        return json.dumps(self.raw, ensure_ascii=False, indent=1) + "\n"


class _Reader(SourceReader):
    def __init__(self, source: str) -> None:
        super().__init__(source, ProfileError)

    def ident(self, val: Any, path: str) -> str:
        if not isinstance(val, str) or not _ID.match(val):
            raise self.fail(path, f"must be an id (a letter, then letters, digits, - or _), got {show(val)}")
        return val


def _counts(rd: _Reader, node: Any, path: str, allowed: tuple[str, ...], lo: int = 0) -> dict[str, int]:
    obj = rd.obj(node, path)
    out: dict[str, int] = {}
    for k, v in obj.items():
        if k.startswith("_"):
            continue
        if k not in allowed:
            raise rd.fail(f"{path}.{k}", f"is not one of {', '.join(allowed)}")
        out[k] = rd.integer(v, f"{path}.{k}", lo, 99)
    return out


def _top(rd: _Reader, node: Any, path: str) -> CardTop:
    t = rd.obj(node, path)
    kind = rd.choice(rd.get(t, "kind", path), f"{path}.kind", CARD_TOPS)
    fields = {
        "dice_bar": (),
        "food": ("amount",),
        "resource": ("resource", "amount"),
        "roll": ("resource", "dice"),
        "points": ("amount",),
        "tool_once": ("value",),
        "agriculture": ("amount",),
        "tool": ("amount",),
        "extra_card": (),
        "any_resources": ("amount",),
    }[kind]
    rd.only(t, ("kind", "_source", "_sources", *fields), path)
    amount = rd.integer(rd.get(t, "amount", path), f"{path}.amount", 1, 20) if "amount" in fields else 0
    resource = rd.choice(rd.get(t, "resource", path), f"{path}.resource", RESOURCES) if "resource" in fields else ""
    dice = rd.integer(rd.get(t, "dice", path), f"{path}.dice", 1, 10) if "dice" in fields else 0
    value = rd.integer(rd.get(t, "value", path), f"{path}.value", 1, 20) if "value" in fields else 0
    return CardTop(kind, amount, resource, dice, value)


def _bottom(rd: _Reader, node: Any, path: str, cultures: tuple[str, ...]) -> CardBottom:
    b = rd.obj(node, path)
    if "culture" in b:
        rd.only(b, ("culture", "_source", "_sources"), path)
        return CardBottom(culture=rd.choice(b["culture"], f"{path}.culture", cultures))
    if "multiplier" in b:
        rd.only(b, ("multiplier", "figures", "_source", "_sources"), path)
        kind = rd.choice(b["multiplier"], f"{path}.multiplier", MULTIPLIERS)
        return CardBottom(multiplier=kind, figures=rd.integer(rd.get(b, "figures", path), f"{path}.figures", 1, 9))
    raise rd.fail(path, 'must be {"culture": SYMBOL} or {"multiplier": KIND, "figures": N}')


def _building(rd: _Reader, node: Any, path: str) -> Building:
    b = rd.obj(node, path)
    bid = rd.ident(rd.get(b, "id", path), f"{path}.id")
    if "cost" in b:
        rd.only(b, ("id", "cost", "points", "_source", "_sources"), path)
        cost = _counts(rd, b["cost"], f"{path}.cost", RESOURCES)
        vec = (cost.get("wood", 0), cost.get("clay", 0), cost.get("stone", 0), cost.get("gold", 0))
        if sum(vec) < 1:
            raise rd.fail(f"{path}.cost", "must ask for at least one resource")
        points = rd.integer(rd.get(b, "points", path), f"{path}.points", 0, 200)
        return Building(bid, "fixed", cost=vec, points=points)
    if "count" in b:
        rd.only(b, ("id", "count", "kinds", "_source", "_sources"), path)
        count = rd.integer(b["count"], f"{path}.count", 1, 20)
        kinds = rd.integer(rd.get(b, "kinds", path), f"{path}.kinds", 1, len(RESOURCES))
        if kinds > count:
            raise rd.fail(f"{path}.kinds", f"must be at most count ({count}), got {kinds}")
        return Building(bid, "count", count=count, kinds=kinds)
    if "min" in b or "max" in b:
        rd.only(b, ("id", "min", "max", "_source", "_sources"), path)
        lo = rd.integer(rd.get(b, "min", path), f"{path}.min", 1, 20)
        hi = rd.integer(rd.get(b, "max", path), f"{path}.max", lo, 20)
        return Building(bid, "range", lo=lo, hi=hi)
    raise rd.fail(path, 'must have "cost" (fixed), "count" and "kinds", or "min" and "max"')


def parse_profile(data: Any, source: str = "<profile>") -> BoxProfile:
    """Validate a profile document (decoded JSON) and build the :class:`BoxProfile`; every problem is
    one :class:`ProfileError` naming the source and field."""
    rd = _Reader(source)
    root = rd.obj(data, "")
    top_fields = ("format", "version", "name", "_source", "_sources", "components", "board", "resources")
    rd.only(root, (*top_fields, "dice_bar", "cultures", "cards", "buildings", "totals"), "")
    if root.get("format") != PROFILE_FORMAT:
        raise rd.fail("format", f"must be {PROFILE_FORMAT!r}, got {show(root.get('format'))}")
    rd.integer(rd.get(root, "version", ""), "version", PROFILE_VERSION, PROFILE_VERSION)
    if "" not in rd.provenance:
        raise rd.fail("_source", "is missing: every profile gives a default provenance for its values")
    name = rd.text(rd.get(root, "name", ""), "name", max_len=200)

    comp = rd.obj(rd.get(root, "components", ""), "components")
    keys = ("start_people", "start_food", "max_people", "max_agriculture", "max_tools", "max_tool_value")
    rd.only(comp, (*keys, "_source", "_sources"), "components")
    start_people = rd.integer(rd.get(comp, "start_people", "components"), "components.start_people", 1, 30)
    start_food = rd.integer(rd.get(comp, "start_food", "components"), "components.start_food", 0, 200)
    max_people = rd.integer(rd.get(comp, "max_people", "components"), "components.max_people", start_people, 30)
    max_agri = rd.integer(rd.get(comp, "max_agriculture", "components"), "components.max_agriculture", 0, 30)
    max_tools = rd.integer(rd.get(comp, "max_tools", "components"), "components.max_tools", 0, 6)
    max_tool_value = rd.integer(rd.get(comp, "max_tool_value", "components"), "components.max_tool_value", 1, 9)

    res = rd.obj(rd.get(root, "resources", ""), "resources")
    rd.only(res, ("food", *RESOURCES, "_source", "_sources"), "resources")
    divisor: dict[str, int] = {}
    values: list[int] = []
    for place, kind in zip(DICE_PLACES, ("food", *RESOURCES), strict=True):
        node = rd.obj(rd.get(res, kind, "resources"), f"resources.{kind}")
        allowed = ("divisor",) if kind == "food" else ("divisor", "value")
        rd.only(node, (*allowed, "_source", "_sources"), f"resources.{kind}")
        divisor[place] = rd.integer(rd.get(node, "divisor", f"resources.{kind}"), f"resources.{kind}.divisor", 1, 60)
        if kind != "food":
            values.append(rd.integer(rd.get(node, "value", f"resources.{kind}"), f"resources.{kind}.value", 0, 60))

    board = rd.obj(rd.get(root, "board", ""), "board")
    rd.only(board, ("capacity", "card_costs", "stacks", "stack_size", "_source", "_sources"), "board")
    cap_node = rd.obj(rd.get(board, "capacity", "board"), "board.capacity")
    rd.only(cap_node, (*DICE_PLACES, *VILLAGE, "_source", "_sources"), "board.capacity")
    capacity: dict[str, int | None] = {}
    for place in (*DICE_PLACES, *VILLAGE):
        val = rd.get(cap_node, place, "board.capacity")
        capacity[place] = None if val is None else rd.integer(val, f"board.capacity.{place}", 1, 40)
    for place in VILLAGE:
        if capacity[place] is None:
            raise rd.fail(f"board.capacity.{place}", "must be a number: village places take an exact number")
    costs_raw = rd.list(rd.get(board, "card_costs", "board"), "board.card_costs", 1, 8)
    card_costs = tuple(rd.integer(c, f"board.card_costs[{i}]", 1, 20) for i, c in enumerate(costs_raw))
    stacks = rd.integer(rd.get(board, "stacks", "board"), "board.stacks", 4, 8)
    stack_size = rd.integer(rd.get(board, "stack_size", "board"), "board.stack_size", 1, 30)

    bar_raw = rd.list(rd.get(root, "dice_bar", ""), "dice_bar", 6, 6)
    dice_bar = tuple(rd.choice(v, f"dice_bar[{i}]", BAR_REWARDS) for i, v in enumerate(bar_raw))

    cult_raw = rd.list(rd.get(root, "cultures", ""), "cultures", 1, 30)
    cultures = tuple(rd.ident(v, f"cultures[{i}]") for i, v in enumerate(cult_raw))
    if len(set(cultures)) != len(cultures):
        raise rd.fail("cultures", "lists a symbol twice")

    cards_raw = rd.list(rd.get(root, "cards", ""), "cards", 1, 200)
    cards = []
    for i, node in enumerate(cards_raw):
        path = f"cards[{i}]"
        c = rd.obj(node, path)
        rd.only(c, ("id", "top", "bottom", "_source", "_sources"), path)
        cards.append(
            Card(
                rd.ident(rd.get(c, "id", path), f"{path}.id"),
                _top(rd, rd.get(c, "top", path), f"{path}.top"),
                _bottom(rd, rd.get(c, "bottom", path), f"{path}.bottom", cultures),
            )
        )
    builds_raw = rd.list(rd.get(root, "buildings", ""), "buildings", 1, 200)
    buildings = [_building(rd, node, f"buildings[{i}]") for i, node in enumerate(builds_raw)]
    seen: set[str] = set()
    for what, ids in (("cards", [c.id for c in cards]), ("buildings", [b.id for b in buildings])):
        for j, x in enumerate(ids):
            if x in seen:
                raise rd.fail(f"{what}[{j}].id", f"id {x!r} is used twice (ids are unique over cards and buildings)")
            seen.add(x)

    tot = rd.obj(rd.get(root, "totals", ""), "totals")
    tkeys = ("cards", "buildings", "people", "tool_tiles", "food_tokens", "dice", *RESOURCES)
    rd.only(tot, (*tkeys, "_source", "_sources"), "totals")
    totals = {k: rd.integer(rd.get(tot, k, "totals"), f"totals.{k}", 0, 999) for k in tkeys}
    if totals["cards"] != len(cards):
        raise rd.fail("totals.cards", f"says {totals['cards']} cards but the profile lists {len(cards)}")
    if totals["buildings"] != len(buildings):
        raise rd.fail(
            "totals.buildings", f"says {totals['buildings']} buildings but the profile lists {len(buildings)}"
        )
    if len(buildings) < stacks * stack_size:
        raise rd.fail("buildings", f"{len(buildings)} buildings cannot make {stacks} stacks of {stack_size} (S-SET-3)")
    if len(cards) < len(card_costs):
        raise rd.fail("cards", f"{len(cards)} cards cannot fill the {len(card_costs)} card places (S-SET-2)")
    if totals["people"] < 4 * max_people:
        raise rd.fail("totals.people", f"must be at least 4 x max_people = {4 * max_people}, got {totals['people']}")

    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return BoxProfile(
        name=name,
        start_people=start_people,
        start_food=start_food,
        max_people=max_people,
        max_agriculture=max_agri,
        max_tools=max_tools,
        max_tool_value=max_tool_value,
        divisor=divisor,
        value=(values[0], values[1], values[2], values[3]),
        capacity=capacity,
        card_costs=card_costs,
        stacks=stacks,
        stack_size=stack_size,
        dice_bar=dice_bar,
        cultures=cultures,
        cards=tuple(cards),
        buildings=tuple(buildings),
        totals=totals,
        provenance=dict(rd.provenance),
        raw=json.loads(canonical),
        digest=hashlib.sha256(canonical.encode()).hexdigest(),
        source=source,
    )


def load_profile(path: str | Path) -> BoxProfile:
    """Read and validate a profile file; :class:`ProfileError` names the file, field and reason."""
    return parse_profile(read_json(path, "the box profile", ProfileError), str(path))


_DEFAULT: list[BoxProfile] = []


def default_profile() -> BoxProfile:
    """The profile shipped with the package (``games/stoneage/profiles/default.json``), loaded once."""
    if not _DEFAULT:
        ref = _resources.files("games.stoneage").joinpath("profiles/default.json")
        _DEFAULT.append(parse_profile(json.loads(ref.read_text(encoding="utf-8")), "default profile"))
    return _DEFAULT[0]


def resolve_profile(spec: Any, source: str = "settings", base: str | Path | None = None) -> BoxProfile:
    """A profile from a settings value: ``"default"``/None, a file path (relative to ``base``, the
    folder of the file that names it), or an inline document."""
    if spec is None or spec == "default":
        return default_profile()
    if isinstance(spec, BoxProfile):
        return spec
    if isinstance(spec, dict):
        return parse_profile(spec, f"{source}: profile")
    if isinstance(spec, str):
        return load_profile(beside(spec, base))
    raise ProfileError(source, "profile", f'must be "default", a file path or an object, got {show(spec)}')


__all__ = [
    "BAR_REWARDS",
    "CARD_TOPS",
    "DICE_PLACES",
    "MULTIPLIERS",
    "PROFILE_FORMAT",
    "RESOURCES",
    "VILLAGE",
    "BoxProfile",
    "Building",
    "Card",
    "CardBottom",
    "CardTop",
    "default_profile",
    "load_profile",
    "parse_profile",
    "resolve_profile",
]
