"""What a Stone Age position waits for, as JSON for the page and the API (``Rules.prompt``).

While placing: every place with whether it is open, how many people it takes, its cost, and for a
closed one the reason with its clause. While carrying out: the actor's places still to do with
their choices (payments, the cheapest first). A roll: how many dice for what; the tools choice: the
roll helper's best use of the tools; the dice bar: the dice and what each gives; feeding: the
feeding check with the options; a reveal: what is revealed and how many candidates there are.
"""

from __future__ import annotations

from typing import Any

from games.stoneage.rules import engine
from games.stoneage.rules.helpers import feeding_check, roll_help_for
from games.stoneage.rules.moves import Place, format_pay
from games.stoneage.rules.profile import RESOURCES, Building, Card
from games.stoneage.rules.state import FIRST_CARD, Phase, State


def card_text(card: Card) -> str:
    """A short English description of a card (top / bottom)."""
    t, b = card.top, card.bottom
    top = {
        "dice_bar": "dice for everyone",
        "food": f"{t.amount} food",
        "resource": f"{t.amount} {t.resource}",
        "roll": f"roll {t.dice} dice for {t.resource}",
        "points": f"{t.amount} points",
        "tool_once": f"one-time tool {t.value}",
        "agriculture": f"agriculture +{t.amount}",
        "tool": f"+{t.amount} tool",
        "extra_card": "an extra card (final scoring only)",
        "any_resources": f"any {t.amount} resources",
    }[t.kind]
    bottom = f"culture: {b.culture}" if b.culture else f"{b.figures} {b.multiplier}"
    return f"{top} / {bottom}"


def building_text(b: Building) -> str:
    """What a building asks for."""
    if b.kind == "fixed":
        return f"{format_pay(b.cost)} for {b.points} points"
    if b.kind == "count":
        return f"exactly {b.count} resources of {b.kinds} kind(s), points = their value"
    return f"{b.lo} to {b.hi} resources of any kinds, points = their value"


def _room(s: State, idx: int, kind: str) -> int | None:
    """How many more people place ``idx`` takes from anyone this round, by its capacity alone (None:
    no limit); the rules that close it to one player (S-PLACE-4, S-FEW-*) are the option's reason."""
    occ = engine.occupancy(s, idx)
    if kind in ("dice", "village"):
        cap = s.profile.capacity[s.names[idx]]
        return None if cap is None else max(0, cap - occ)
    if kind == "card":
        present = s.display[idx - FIRST_CARD] is not None
    else:
        present = engine.building_at(s, idx) is not None
    return 1 - occ if present else 0


def place_options(s: State) -> list[dict[str, Any]]:
    """Every place of the board for the actor's placement: open or why not (S-PLACE-*, S-CAP-*, S-FEW-*)."""
    seat = s.actor
    p = s.players[seat]
    left = engine.available(p)
    out = []
    prof = s.profile
    for idx, name in enumerate(s.names):
        kind = engine.place_kind(s, idx)
        probe = Place(name, 1) if idx <= 4 else Place(name, 0)
        bad = engine.check_place(s, seat, probe)
        entry: dict[str, Any] = {
            "place": name,
            "kind": kind,
            "open": bad is None,
            "clause": bad[0] if bad else "",
            "reason": bad[1] if bad else "",
            "occupied": engine.occupancy(s, idx),
            "room": _room(s, idx, kind),
            "by": {s.seats[i].name: s.players[i].placed[idx] for i in engine.colours_on(s, idx)},
        }
        if idx <= 4:
            cap = prof.capacity[name]
            room = left if cap is None else min(left, cap - engine.occupancy(s, idx))
            entry["people"] = {"min": 1, "max": max(0, room)} if bad is None else None
            entry["divisor"] = prof.divisor[name]
            entry["capacity"] = cap
            entry["move"] = f"place {name} N" if bad is None else None
        else:
            need = (prof.capacity[name] or 1) if kind == "village" else 1
            entry["people"] = {"min": need, "max": need} if bad is None else None
            entry["move"] = str(probe) if bad is None else None
        if kind == "card":
            cid = s.display[idx - FIRST_CARD]
            entry["card"] = cid
            entry["cost"] = prof.card_costs[idx - FIRST_CARD]
            entry["text"] = card_text(prof.card(cid)) if cid else ""
        if kind == "building":
            b = engine.building_at(s, idx)
            entry["building"] = b.id if b else None
            entry["text"] = building_text(b) if b else ""
            entry["left"] = s.left[idx - FIRST_CARD - len(s.display)] + (1 if b else 0)
            entry["affordable"] = b is not None and next(iter(engine.building_payments(b, p.res)), None) is not None
        out.append(entry)
    return out


def act_options(s: State) -> list[dict[str, Any]]:
    """The actor's places still to carry out (S-ACT-1), with their choices."""
    seat = s.actor
    p = s.players[seat]
    prof = s.profile
    out = []
    for idx, n in enumerate(p.placed):
        if not n:
            continue
        name = s.names[idx]
        kind = engine.place_kind(s, idx)
        entry: dict[str, Any] = {"place": name, "kind": kind, "people": n}
        if kind in ("dice", "village"):
            entry["moves"] = [f"take {name}"]
            if kind == "dice":
                entry["roll"] = f"roll {name} " + ",".join(["D"] * n)
        elif kind == "card":
            cost = engine.card_cost(s, idx)
            cid = s.display[idx - FIRST_CARD]
            pays = list(engine.payments(cost, p.res))
            entry.update(
                card=cid,
                text=card_text(prof.card(cid)) if cid else "",
                cost=cost,
                can_pay=bool(pays),
                reason="" if pays else f"S-CARD-1: costs {cost} resources, has {sum(p.res)}",
                moves=[f"skip {name}"] + [f"buy {name} {format_pay(q)}" for q in pays[:12]],
                payments=len(pays),
            )
        else:
            b = engine.building_at(s, idx)
            pays = [] if b is None else list(engine.building_payments(b, p.res))
            ranked = sorted(pays, key=lambda q: -engine.building_points(prof, b, q)) if b else []
            entry.update(
                building=b.id if b else None,
                text=building_text(b) if b else "",
                can_pay=bool(pays),
                reason="" if pays else "S-BLD-1: the player cannot pay this building",
                moves=[f"skip {name}"] + [f"buy {name} {format_pay(q)}" for q in ranked[:12]],
                points=[engine.building_points(prof, b, q) for q in ranked[:12]] if b else [],
                payments=len(pays),
            )
        out.append(entry)
    return out


def prompt(s: State) -> dict[str, Any]:
    """The prompt of ``s``: ``kind`` (the phase), ``seat``, ``chance``, ``text`` and the phase's fields."""
    ph = s.phase
    out: dict[str, Any] = {
        "kind": str(ph),
        "seat": s.actor,
        "name": s.seats[s.actor].name,
        "chance": s.is_chance,
        "round": s.round,
        "start_player": s.start,
        "text": engine.context(s),
    }
    p = s.players[s.actor]
    if p.anyc and ph in (Phase.PLACE, Phase.ACT, Phase.FEED):
        out["any_card"] = {
            "amount": s.profile.card(p.anyc[0]).top.amount,
            "move": "any RESOURCES",
            "clause": "S-CARD-8",
        }
    if ph is Phase.OVER:
        out["ended"] = s.ended
        return out
    if ph is Phase.PLACE:
        out["people_left"] = engine.available(p)
        out["options"] = place_options(s)
    elif ph is Phase.ACT:
        out["options"] = act_options(s)
    elif ph is Phase.ROLL:
        out.update(what=s.what, dice=s.ndice, move=f"roll {s.what} " + ",".join(["D"] * s.ndice), clause="S-DICE-3")
    elif ph is Phase.TOOLS:
        out["roll"] = roll_help_for(s)
    elif ph is Phase.BAR:
        bar = s.profile.dice_bar
        out.update(
            dice=list(s.dice),
            taker=s.taker,
            options=[{"move": f"pick {f}", "face": f, "gives": bar[f - 1]} for f in sorted(set(s.dice))],
        )
    elif ph is Phase.FEED:
        check = feeding_check(s, s.actor)
        out["feeding"] = check
        out["options"] = ["starve"] + ([check["pay_move"]] if check["pay_move"] else [])
    elif ph in (Phase.REVEAL, Phase.DRAW):
        target = engine.reveal_target(s) if ph is Phase.REVEAL else ("card", -1)
        kind = target[0] if target else ""
        pool = s.unseen_cards if kind == "card" else s.unseen_buildings
        fixed = (s.card_order is not None) if kind == "card" else (s.building_order is not None)
        out.update(
            reveal=kind,
            slot=(target[1] + 1) if target and target[1] >= 0 else None,
            candidates=len(pool),
            fixed_order=fixed,
            move=("draw ID" if ph is Phase.DRAW else "reveal ID"),
        )
    out["resources"] = dict(zip(RESOURCES, p.res, strict=True))
    return out


__all__ = ["act_options", "building_text", "card_text", "place_options", "prompt"]
