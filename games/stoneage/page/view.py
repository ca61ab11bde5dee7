"""The JSON views of the Stone Age page: everything it draws for one position, and the box catalog.

:func:`state_view` gives whose turn it is and what the game waits for (the prompt: while placing every
place, open or closed with the reason and clause), the board (card places, building stacks, who
stands where), each player's tableau, the roll helper when a roll waits for its tools (and the yield
distribution while the dice are still to be entered), the feeding check of every player before it
happens, and the live score with the projected final score and its full breakdown. :func:`catalog`
lists the box's cards and buildings with their provisional values flagged; :func:`chance_view` what
a chance node offers (the card and building ids, the dice to enter).

The shell merges the view into its own live view (docs/page-shell.md), so its keys leave the shell's
alone: the tableaux are ``tableau`` (the shell's ``players`` are the seats), the box is ``box`` (name
and digest: the page reloads the catalog when it changes), and what a chance node offers is ``chance``.
"""

from __future__ import annotations

from typing import Any

from games.stoneage.rules import engine, position, scoring
from games.stoneage.rules.helpers import feeding_check, roll_help_for, yield_distribution
from games.stoneage.rules.profile import RESOURCES, BoxProfile
from games.stoneage.rules.prompt import building_text, card_text, prompt
from games.stoneage.rules.state import FIRST_CARD, Phase, State


def board_view(s: State) -> dict[str, Any]:
    """Card places, building stacks and who stands on every place."""
    prof = s.profile
    names = s.names
    cards = []
    for k, cid in enumerate(s.display):
        idx = FIRST_CARD + k
        cards.append(
            {
                "place": names[idx],
                "cost": prof.card_costs[k],
                "card": cid,
                "text": card_text(prof.card(cid)) if cid else "",
                "by": [s.seats[i].name for i in engine.colours_on(s, idx)],
            }
        )
    stacks = []
    for k, top in enumerate(s.tops):
        idx = FIRST_CARD + len(s.display) + k
        stacks.append(
            {
                "place": names[idx],
                "top": top,
                "text": building_text(prof.building(top)) if top else "",
                "left": s.left[k] + (1 if top else 0),
                "by": [s.seats[i].name for i in engine.colours_on(s, idx)],
            }
        )
    places = {
        names[i]: {s.seats[j].name: s.players[j].placed[i] for j in engine.colours_on(s, i)} for i in range(FIRST_CARD)
    }
    return {
        "cards": cards,
        "stacks": stacks,
        "places": places,
        "deck": len(s.unseen_cards),
        "unseen_buildings": len(s.unseen_buildings),
    }


def players_view(s: State) -> list[dict[str, Any]]:
    """Each player's tableau."""
    prof = s.profile
    out = []
    for i, (seat, p) in enumerate(zip(s.seats, s.players, strict=True)):
        out.append(
            {
                "seat": i,
                "name": seat.name,
                "colour": seat.colour,
                "start_player": i == s.start,
                "to_move": i == s.actor and not s.is_over,
                "people": p.people,
                "people_left": engine.available(p),
                "food": p.food,
                "agriculture": p.agri,
                "resources": dict(zip(RESOURCES, p.res, strict=True)),
                "tools": list(p.tools),
                "tools_unused": p.unused_tools(),
                "once_tools": [prof.card(c).top.value for c in p.once],
                "any_cards": len(p.anyc),
                "cards": list(p.cards),
                "buildings": [{"id": b, "points": pts} for b, pts in p.buildings],
                "points": p.points,
            }
        )
    return out


def roll_view(s: State) -> dict[str, Any] | None:
    """The roll helper's data: after the roll (tools to choose) the best use of the tools; before it
    (dice to enter) the distribution of the yield without and with all unused tools."""
    if s.phase is Phase.TOOLS:
        return roll_help_for(s)
    if s.phase is Phase.ROLL and s.what != "bar":
        p = s.players[s.actor]
        div = s.profile.divisor[s.what]
        tools = sum(p.unused_tools()) + sum(engine.once_values(s.profile, p))
        return {
            "what": s.what,
            "dice": s.ndice,
            "divisor": div,
            "pending": True,
            "yield_without_tools": {str(k): round(v, 4) for k, v in yield_distribution(s.ndice, div).items()},
            "yield_with_all_tools": {str(k): round(v, 4) for k, v in yield_distribution(s.ndice, div, tools).items()},
            "tools_available": tools,
        }
    return None


def state_view(s: State) -> dict[str, Any]:
    """Everything the page draws for one position."""
    board = scoring.scoreboard(s)
    ranking = scoring.ranking(s)
    return {
        "round": s.round,
        "phase": str(s.phase),
        "over": s.is_over,
        "ended": s.ended,
        "turn": None if s.is_over else {"seat": s.actor, "name": s.seats[s.actor].name, "chance": s.is_chance},
        "prompt": prompt(s),
        "board": board_view(s),
        "tableau": players_view(s),
        "roll": roll_view(s),
        "feeding": [feeding_check(s, i) for i in range(len(s.seats))],
        "scores": [b.to_dict() for b in board],
        "ranking": [
            {"place": r.place, "seat": r.seat, "name": r.name, "total": r.total, "tiebreak": r.tiebreak}
            for r in ranking
        ],
        "position": position.state_to_dict(s),
        "box": {"name": s.profile.name, "digest": s.profile.digest},
        "chance": chance_view(s) if s.is_chance else None,
    }


def catalog(prof: BoxProfile) -> dict[str, Any]:
    """The box's components as the page draws them, each with its provisional flag."""
    prov = prof.is_provisional
    cards = []
    for i, c in enumerate(prof.cards):
        path = f"cards[{i}]"
        cards.append(
            {
                "id": c.id,
                "text": card_text(c),
                "top": {
                    "kind": c.top.kind,
                    "amount": c.top.amount,
                    "resource": c.top.resource,
                    "dice": c.top.dice,
                    "value": c.top.value,
                },
                "bottom": {"culture": c.bottom.culture, "multiplier": c.bottom.multiplier, "figures": c.bottom.figures},
                "provisional": {"top": prov(f"{path}.top"), "bottom": prov(f"{path}.bottom")},
                "source": prof.source_of(path),
            }
        )
    buildings = []
    for i, b in enumerate(prof.buildings):
        path = f"buildings[{i}]"
        buildings.append(
            {
                "id": b.id,
                "kind": b.kind,
                "text": building_text(b),
                "cost": dict(zip(RESOURCES, b.cost, strict=True)) if b.kind == "fixed" else None,
                "points": b.points if b.kind == "fixed" else None,
                "count": b.count if b.kind == "count" else None,
                "kinds": b.kinds if b.kind == "count" else None,
                "min": b.lo if b.kind == "range" else None,
                "max": b.hi if b.kind == "range" else None,
                "provisional": prov(path),
                "source": prof.source_of(path),
            }
        )
    comps = {
        "start_people": prof.start_people,
        "start_food": prof.start_food,
        "max_people": prof.max_people,
        "max_agriculture": prof.max_agriculture,
        "max_tools": prof.max_tools,
        "max_tool_value": prof.max_tool_value,
    }
    return {
        "name": prof.name,
        "digest": prof.digest,
        "components": {k: {"value": v, "provisional": prov(f"components.{k}")} for k, v in comps.items()},
        "divisors": dict(prof.divisor),
        "values": dict(zip(RESOURCES, prof.value, strict=True)),
        "capacity": dict(prof.capacity),
        "card_costs": list(prof.card_costs),
        "stack_size": prof.stack_size,
        "dice_bar": list(prof.dice_bar),
        "cultures": list(prof.cultures),
        "cards": cards,
        "buildings": buildings,
        "totals": dict(prof.totals),
        "provisional": [p for p in _leaves(prof) if prov(p)],
    }


def _leaves(prof: BoxProfile) -> list[str]:
    from datafile.provenance import leaf_paths

    return leaf_paths(prof.raw)


def chance_view(s: State) -> dict[str, Any]:
    """What the chance node offers: the ids that may be revealed or drawn, or the dice to enter."""
    if not s.is_chance:
        return {"chance": False}
    prof = s.profile
    if s.phase is Phase.ROLL:
        return {"chance": True, "kind": "roll", "what": s.what, "dice": s.ndice, "faces": [1, 2, 3, 4, 5, 6]}
    moves = list(engine.generate(s))
    ids = [str(m).split()[1] for m in moves]
    target = engine.reveal_target(s) if s.phase is Phase.REVEAL else ("card", -1)
    kind = target[0] if target else "card"
    items = [
        {"id": i, "text": card_text(prof.card(i)) if kind == "card" else building_text(prof.building(i))} for i in ids
    ]
    return {
        "chance": True,
        "kind": "draw" if s.phase is Phase.DRAW else "reveal",
        "reveals": kind,
        "slot": (target[1] + 1) if target and target[1] >= 0 else None,
        "choices": items,
    }


__all__ = ["board_view", "catalog", "chance_view", "players_view", "roll_view", "state_view"]
