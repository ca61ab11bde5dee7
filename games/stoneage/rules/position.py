"""Stone Age positions as JSON (``stoneage-position``, version 1; docs/stoneage-position.md).

:func:`state_to_dict` writes every field of a :class:`~games.stoneage.rules.state.State`;
:func:`state_from_dict` reads it back with full validation — fields, ranges, and the conservation of
the components (every card and building exactly once: on the board, unseen, or with one player;
people on places no more than a player has) and that the position is one the game can wait in — so
``state_from_dict(state_to_dict(s)) == s``. Every problem is one :class:`PositionError`
``SOURCE: FIELD: reason``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from datafile import Reader, show
from games.api import Seat
from games.stoneage.rules import engine
from games.stoneage.rules.errors import PositionError, ProfileError
from games.stoneage.rules.profile import DICE_PLACES, RESOURCES, BoxProfile, default_profile, resolve_profile
from games.stoneage.rules.state import Phase, PlayerState, State, Work, place_names

POSITION_FORMAT = "stoneage-position"
POSITION_VERSION = 1


def profile_ref(prof: BoxProfile) -> str | dict[str, Any]:
    """``"default"`` for the shipped profile, else the whole profile document."""
    return "default" if prof == default_profile() else dict(prof.raw)


def _player_dict(seat: Seat, p: PlayerState, names: tuple[str, ...]) -> dict[str, Any]:
    return {
        "name": seat.name,
        "colour": seat.colour,
        "people": p.people,
        "food": p.food,
        "agriculture": p.agri,
        "resources": dict(zip(RESOURCES, p.res, strict=True)),
        "tools": list(p.tools),
        "tools_used": list(p.used),
        "once_tools": list(p.once),
        "any_cards": list(p.anyc),
        "cards": list(p.cards),
        "buildings": [{"id": b, "points": pts} for b, pts in p.buildings],
        "points": p.points,
        "card_points": p.card_points,
        "starved": p.starved,
        "placed": {names[i]: k for i, k in enumerate(p.placed) if k},
    }


def state_to_dict(s: State) -> dict[str, Any]:
    """The position document of ``s``."""
    names = s.names
    return {
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "profile": profile_ref(s.profile),
        "round": s.round,
        "start": s.start,
        "phase": str(s.phase),
        "actor": s.actor,
        "players": [_player_dict(seat, p, names) for seat, p in zip(s.seats, s.players, strict=True)],
        "display": list(s.display),
        "stacks": [{"top": t, "face_down": k} for t, k in zip(s.tops, s.left, strict=True)],
        "unseen_cards": list(s.unseen_cards),
        "unseen_buildings": list(s.unseen_buildings),
        "card_order": None if s.card_order is None else list(s.card_order),
        "building_order": None if s.building_order is None else [list(o) for o in s.building_order],
        "pending": {
            "what": s.what,
            "dice_to_roll": s.ndice,
            "dice": list(s.dice),
            "taker": s.taker,
            "resume": str(s.resume),
        },
        "ended": s.ended,
    }


_TOP = (
    "format",
    "version",
    "profile",
    "round",
    "start",
    "phase",
    "actor",
    "players",
    "display",
    "stacks",
    "unseen_cards",
    "unseen_buildings",
    "card_order",
    "building_order",
    "pending",
    "ended",
)
_PLAYER = (
    "name",
    "colour",
    "people",
    "food",
    "agriculture",
    "resources",
    "tools",
    "tools_used",
    "once_tools",
    "any_cards",
    "cards",
    "buildings",
    "points",
    "card_points",
    "starved",
    "placed",
)


def state_from_dict(
    data: Any, source: str = "<position>", profile: BoxProfile | None = None, base: str | Path | None = None
) -> State:
    """Read a position document (``profile``: read it with this box profile instead of the one it
    names)."""
    rd = Reader(source, PositionError)
    doc = rd.obj(data, "")
    if doc.get("format") != POSITION_FORMAT:
        raise rd.fail("format", f"must be {POSITION_FORMAT!r}, got {show(doc.get('format'))}")
    rd.integer(rd.get(doc, "version", ""), "version", POSITION_VERSION, POSITION_VERSION)
    rd.only(doc, _TOP, "")
    if profile is None:
        try:
            profile = resolve_profile(doc.get("profile", "default"), source, base)
        except ProfileError as exc:
            raise PositionError(source, f"profile: {exc.field}" if exc.field else "profile", exc.reason) from None
    prof = profile
    players_raw = rd.list(rd.get(doc, "players", ""), "players", 2, 4)
    n = len(players_raw)
    k = len(prof.card_costs)
    names = place_names(k, n)
    seats = []
    players = []
    for i, node in enumerate(players_raw):
        seat, p = _read_player(rd, node, f"players[{i}]", prof, names)
        seats.append(seat)
        players.append(p)
    rnd = rd.integer(rd.get(doc, "round", ""), "round", 1, 999)
    start = rd.integer(rd.get(doc, "start", ""), "start", 0, n - 1)
    phase = Phase(rd.choice(rd.get(doc, "phase", ""), "phase", [p.value for p in Phase]))
    actor = rd.integer(rd.get(doc, "actor", ""), "actor", 0, n - 1)
    display_raw = rd.list(rd.get(doc, "display", ""), "display", k, k)
    display = tuple(None if c is None else _card_id(rd, c, f"display[{j}]", prof) for j, c in enumerate(display_raw))
    stacks_raw = rd.list(rd.get(doc, "stacks", ""), "stacks", n, n)
    tops: list[str | None] = []
    left: list[int] = []
    for j, node in enumerate(stacks_raw):
        path = f"stacks[{j}]"
        st = rd.obj(node, path)
        rd.only(st, ("top", "face_down"), path)
        top = rd.get(st, "top", path)
        tops.append(None if top is None else _building_id(rd, top, f"{path}.top", prof))
        left.append(rd.integer(rd.get(st, "face_down", path), f"{path}.face_down", 0, prof.stack_size))
    unseen_c = tuple(
        _card_id(rd, c, f"unseen_cards[{j}]", prof)
        for j, c in enumerate(rd.list(rd.get(doc, "unseen_cards", ""), "unseen_cards"))
    )
    unseen_b = tuple(
        _building_id(rd, b, f"unseen_buildings[{j}]", prof)
        for j, b in enumerate(rd.list(rd.get(doc, "unseen_buildings", ""), "unseen_buildings"))
    )
    if list(unseen_c) != sorted(unseen_c):
        raise rd.fail("unseen_cards", "must be sorted")
    if list(unseen_b) != sorted(unseen_b):
        raise rd.fail("unseen_buildings", "must be sorted")
    _conserve(
        rd,
        "cards",
        [c.id for c in prof.cards],
        [("display", [c for c in display if c]), ("unseen_cards", list(unseen_c))]
        + [(f"players[{i}].cards", list(p.cards)) for i, p in enumerate(players)],
    )
    _conserve(
        rd,
        "buildings",
        [b.id for b in prof.buildings],
        [("stacks", [t for t in tops if t]), ("unseen_buildings", list(unseen_b))]
        + [(f"players[{i}].buildings", [b for b, _ in p.buildings]) for i, p in enumerate(players)],
    )
    if sum(left) > len(unseen_b):
        raise rd.fail("stacks", f"{sum(left)} face-down buildings but only {len(unseen_b)} are unseen")
    card_order = _order(rd, doc.get("card_order"), "card_order", unseen_c, prof, cards=True)
    building_order = None
    bo = doc.get("building_order")
    if bo is not None:
        rows = rd.list(bo, "building_order", n, n)
        out = []
        seen: set[str] = set()
        for j, row in enumerate(rows):
            ids = [
                _building_id(rd, b, f"building_order[{j}][{m}]", prof)
                for m, b in enumerate(rd.list(row, f"building_order[{j}]"))
            ]
            if len(ids) != left[j]:
                raise rd.fail(f"building_order[{j}]", f"lists {len(ids)} buildings, the stack has {left[j]} face down")
            for b in ids:
                if b in seen or b not in unseen_b:
                    raise rd.fail(f"building_order[{j}]", f"{b} is not an unseen building or is listed twice")
                seen.add(b)
            out.append(tuple(ids))
        building_order = tuple(out)
    pend = rd.obj(rd.get(doc, "pending", ""), "pending")
    rd.only(pend, ("what", "dice_to_roll", "dice", "taker", "resume"), "pending")
    what = pend.get("what", "")
    if what not in ("", *DICE_PLACES, "bar"):
        raise rd.fail("pending.what", f"must be empty, a dice place or 'bar', got {show(what)}")
    ndice = rd.integer(pend.get("dice_to_roll", 0), "pending.dice_to_roll", 0, 30)
    dice = tuple(
        rd.integer(d, f"pending.dice[{j}]", 1, 6)
        for j, d in enumerate(rd.list(pend.get("dice", []), "pending.dice", 0, 30))
    )
    if list(dice) != sorted(dice):
        raise rd.fail("pending.dice", "must be sorted")
    taker = rd.integer(pend.get("taker", 0), "pending.taker", 0, n - 1)
    resume = Phase(rd.choice(pend.get("resume", "place"), "pending.resume", ["place", "act"]))
    ended = rd.choice(doc.get("ended", ""), "ended", ["", "buildings", "cards"])
    state = State(
        profile=prof,
        seats=tuple(seats),
        round=rnd,
        start=start,
        phase=phase,
        actor=actor,
        players=tuple(players),
        display=display,
        tops=tuple(tops),
        left=tuple(left),
        unseen_cards=unseen_c,
        unseen_buildings=unseen_b,
        card_order=card_order,
        building_order=building_order,
        what=what,
        ndice=ndice,
        dice=dice,
        taker=taker,
        resume=resume,
        ended=ended,
    )
    _waitable(rd, state)
    return state


def _read_player(
    rd: Reader, node: Any, path: str, prof: BoxProfile, names: tuple[str, ...]
) -> tuple[Seat, PlayerState]:
    d = rd.obj(node, path)
    rd.only(d, _PLAYER, path)
    seat = Seat(
        rd.text(rd.get(d, "name", path), f"{path}.name", max_len=60),
        rd.text(d.get("colour", "grey"), f"{path}.colour", max_len=30),
    )
    people = rd.integer(rd.get(d, "people", path), f"{path}.people", 1, prof.max_people)
    food = rd.integer(rd.get(d, "food", path), f"{path}.food", 0, 9999)
    agri = rd.integer(rd.get(d, "agriculture", path), f"{path}.agriculture", 0, prof.max_agriculture)
    res_node = rd.obj(rd.get(d, "resources", path), f"{path}.resources")
    rd.only(res_node, RESOURCES, f"{path}.resources")
    res = tuple(rd.integer(res_node.get(r, 0), f"{path}.resources.{r}", 0, 9999) for r in RESOURCES)
    tools = [
        rd.integer(v, f"{path}.tools[{j}]", 1, prof.max_tool_value)
        for j, v in enumerate(rd.list(rd.get(d, "tools", path), f"{path}.tools", 0, prof.max_tools))
    ]
    used = [
        rd.integer(v, f"{path}.tools_used[{j}]", 1, prof.max_tool_value)
        for j, v in enumerate(rd.list(d.get("tools_used", []), f"{path}.tools_used", 0, prof.max_tools))
    ]
    if tools != sorted(tools, reverse=True) or used != sorted(used, reverse=True):
        raise rd.fail(f"{path}.tools", "tools and tools_used are listed highest first")
    if Counter(used) - Counter(tools):
        raise rd.fail(f"{path}.tools_used", f"{used} are not all among the tools {tools}")
    cards = [
        _card_id(rd, c, f"{path}.cards[{j}]", prof)
        for j, c in enumerate(rd.list(rd.get(d, "cards", path), f"{path}.cards"))
    ]
    if cards != sorted(cards):
        raise rd.fail(f"{path}.cards", "must be sorted")
    once = [
        _card_id(rd, c, f"{path}.once_tools[{j}]", prof)
        for j, c in enumerate(rd.list(d.get("once_tools", []), f"{path}.once_tools"))
    ]
    anyc = [
        _card_id(rd, c, f"{path}.any_cards[{j}]", prof)
        for j, c in enumerate(rd.list(d.get("any_cards", []), f"{path}.any_cards"))
    ]
    for field, ids, kind in (("once_tools", once, "tool_once"), ("any_cards", anyc, "any_resources")):
        if ids != sorted(set(ids)):
            raise rd.fail(f"{path}.{field}", "must be sorted, each card once")
        for c in ids:
            if c not in cards or prof.card(c).top.kind != kind:
                raise rd.fail(f"{path}.{field}", f"{c} is not one of the player's {kind} cards")
    blds = []
    for j, b in enumerate(rd.list(rd.get(d, "buildings", path), f"{path}.buildings")):
        bp = f"{path}.buildings[{j}]"
        bo = rd.obj(b, bp)
        rd.only(bo, ("id", "points"), bp)
        blds.append(
            (
                _building_id(rd, rd.get(bo, "id", bp), f"{bp}.id", prof),
                rd.integer(rd.get(bo, "points", bp), f"{bp}.points", 0, 999),
            )
        )
    points = rd.integer(rd.get(d, "points", path), f"{path}.points", -9999, 9999)
    card_points = rd.integer(d.get("card_points", 0), f"{path}.card_points", 0, 9999)
    starved = rd.integer(d.get("starved", 0), f"{path}.starved", 0, 999)
    if points != sum(pts for _, pts in blds) + card_points - 10 * starved:
        raise rd.fail(f"{path}.points", "must be the building points + card_points - 10 x starved")
    placed_node = rd.obj(d.get("placed", {}), f"{path}.placed")
    placed = [0] * len(names)
    for key, val in placed_node.items():
        if key not in names:
            raise rd.fail(f"{path}.placed.{key}", f"is not a place of this game ({', '.join(names)})")
        placed[names.index(key)] = rd.integer(val, f"{path}.placed.{key}", 1, prof.max_people)
    if sum(placed) > people:
        raise rd.fail(f"{path}.placed", f"{sum(placed)} people placed but the player has {people}")
    return seat, PlayerState(
        people=people,
        food=food,
        agri=agri,
        res=(res[0], res[1], res[2], res[3]),
        tools=tuple(tools),
        used=tuple(used),
        once=tuple(once),
        anyc=tuple(anyc),
        cards=tuple(cards),
        buildings=tuple(blds),
        points=points,
        card_points=card_points,
        starved=starved,
        placed=tuple(placed),
    )


def _card_id(rd: Reader, val: Any, path: str, prof: BoxProfile) -> str:
    if not isinstance(val, str) or not prof.is_card(val):
        raise rd.fail(path, f"must be a card id of the box profile, got {show(val)}")
    return val


def _building_id(rd: Reader, val: Any, path: str, prof: BoxProfile) -> str:
    if not isinstance(val, str) or not prof.is_building(val):
        raise rd.fail(path, f"must be a building id of the box profile, got {show(val)}")
    return val


def _conserve(rd: Reader, what: str, everything: list[str], parts: list[tuple[str, list[str]]]) -> None:
    """Every component exactly once over ``parts`` (conservation)."""
    seen: dict[str, str] = {}
    for where, ids in parts:
        for x in ids:
            if x in seen:
                raise rd.fail(where, f"{x} is also in {seen[x]}: each of the {what} is in one place")
            seen[x] = where
    missing = sorted(set(everything) - set(seen))
    if missing:
        raise rd.fail(what, f"{len(missing)} of the {what} are nowhere: {', '.join(missing[:5])}")


def _order(
    rd: Reader, val: Any, path: str, unseen: tuple[str, ...], prof: BoxProfile, cards: bool
) -> tuple[str, ...] | None:
    if val is None:
        return None
    ids = tuple(_card_id(rd, c, f"{path}[{j}]", prof) for j, c in enumerate(rd.list(val, path)))
    if sorted(ids) != list(unseen):
        raise rd.fail(path, "must list the unseen cards (each once) in the order they come")
    return ids


def _waitable(rd: Reader, s: State) -> None:
    """The position is one the game waits in (everything automatic has been carried out)."""
    ph = s.phase
    p = s.players[s.actor]
    if ph is Phase.OVER:
        return
    if ph is not Phase.REVEAL and any(t is None and k for t, k in zip(s.tops, s.left, strict=True)):
        raise rd.fail("stacks", "a stack with face-down buildings shows its top one (S-BLD-1): reveal it first")
    if ph is Phase.REVEAL and engine.reveal_target(s) is None:
        raise rd.fail("phase", "nothing is to be revealed here")
    if ph is Phase.PLACE and not engine.can_place(s, s.actor):
        raise rd.fail("actor", f"{s.seats[s.actor].name} cannot place anyone (S-PLACE-3)")
    if ph is Phase.ACT and not any(p.placed):
        raise rd.fail("actor", f"{s.seats[s.actor].name} has no place to carry out (S-ACT-1)")
    if ph is Phase.ROLL and (not s.what or s.ndice < 1):
        raise rd.fail("pending", "a roll needs pending.what and pending.dice_to_roll")
    if ph is Phase.ROLL and s.what == "bar" and s.ndice != s.n:
        raise rd.fail("pending.dice_to_roll", f"the dice bar rolls one die per player ({s.n})")
    if ph is Phase.TOOLS and (
        s.what not in DICE_PLACES or not s.dice or not engine.tools_can_help(s.profile, p, s.what, s.dice)
    ):
        raise rd.fail("pending", "adding tools needs a rolled dice place, dice and a tool that would add to the yield")
    if ph is Phase.BAR and (s.what != "bar" or len(set(s.dice)) < 2 or len(s.dice) > s.n):
        raise rd.fail("pending", "a dice-bar pick needs the dice left (at least two different faces)")
    if ph is Phase.DRAW and not s.unseen_cards:
        raise rd.fail("phase", "no card is left to draw")
    if ph is Phase.FEED and not (engine.shortfall(p) > 0 and engine.can_pay_food(s.profile, p)):
        raise rd.fail("actor", f"{s.seats[s.actor].name} has nothing to decide about feeding (S-FEED-2)")
    w = Work(s)
    before = w.freeze()
    engine.settle(w)
    if w.freeze() != before:  # pragma: no cover - the checks above cover every automatic step
        raise rd.fail("phase", "the position is not one the game waits in")


__all__ = ["POSITION_FORMAT", "POSITION_VERSION", "profile_ref", "state_from_dict", "state_to_dict"]
