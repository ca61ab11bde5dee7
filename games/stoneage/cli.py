"""Stone Age's own console commands: the roll helper and the final-scoring calculator.

``roll --place wood --dice 3,5,6 --tools 1,2,3 [--once 4]`` prints the yield without tools, the best
use of the tools (which to spend for the most, wasting the fewest pips) and what one more pip would
give. ``final --cards c01,c05,… --agriculture 6 --tools 3,3,2 --buildings 5 --people 8 --resources 4
[--track 63]`` prints the final scoring with its breakdown (or give the bottoms directly:
``--culture pottery,art,art --farmer 3 --toolmaker 2 --hutbuilder 1 --shaman 2``).

The generic commands (``table-companion --game stoneage rules new|apply|legal|…``) come from the
chassis. Every user mistake prints one line on stderr and returns 2; ``--json`` prints JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from games.stoneage.rules.errors import StoneAgeError
from games.stoneage.rules.helpers import roll_help
from games.stoneage.rules.profile import DICE_PLACES, MULTIPLIERS, BoxProfile, default_profile, load_profile
from games.stoneage.rules.scoring import final_score


class UsageError(ValueError):
    """A mistake in the command line (one line, exit status 2)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``roll`` and ``final`` to the console command's parser."""
    p = sub.add_parser("roll", help="Stone Age: the yield of a roll with the best use of the tools")
    p.add_argument("--place", "-p", required=True, help="hunt, wood, clay, stone or gold")
    p.add_argument("--dice", "-d", required=True, help="the dice rolled, e.g. 3,5,6")
    p.add_argument("--tools", "-t", default="", help="values of the unused tools, e.g. 1,2,3")
    p.add_argument("--once", default="", help="values of one-time tool cards held, e.g. 4")
    p.add_argument("--profile", help="box profile JSON (default: the shipped profile)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_roll)

    p = sub.add_parser("final", help="Stone Age: the final scoring of one player, with its breakdown")
    p.add_argument("--cards", default="", help="civilization card ids, comma-separated (see the box profile)")
    p.add_argument("--culture", default="", help="culture symbols instead of cards, e.g. pottery,art,art")
    for kind in MULTIPLIERS:
        p.add_argument(f"--{kind}", type=int, default=None, metavar="N", help=f"{kind} figures (instead of cards)")
    p.add_argument("--agriculture", type=int, default=0)
    p.add_argument("--tools", default="", help="tool values, e.g. 3,3,2")
    p.add_argument("--buildings", type=int, default=0)
    p.add_argument("--people", type=int, default=5)
    p.add_argument("--resources", type=int, default=0, help="resources left (1 point each)")
    p.add_argument("--track", type=int, default=0, help="points on the score track before the final scoring")
    p.add_argument("--profile", help="box profile JSON (default: the shipped profile)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_final)


def _ints(text: str, what: str, lo: int, hi: int) -> list[int]:
    if not text.strip():
        return []
    out = []
    for tok in text.split(","):
        tok = tok.strip()
        if not tok.lstrip("-").isdigit() or not lo <= int(tok) <= hi:
            raise UsageError(f"{what}: {tok!r} is not a number from {lo} to {hi}")
        out.append(int(tok))
    return out


def _profile(args: argparse.Namespace) -> BoxProfile:
    return load_profile(args.profile) if args.profile else default_profile()


def _fail(msg: str) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return 2


def cmd_roll(args: argparse.Namespace) -> int:
    """``roll``: the roll helper."""
    try:
        prof = _profile(args)
        if args.place not in DICE_PLACES:
            raise UsageError(f"--place: {args.place!r} is not a dice place ({', '.join(DICE_PLACES)})")
        dice = _ints(args.dice, "--dice", 1, 6)
        if not dice:
            raise UsageError("--dice: give the dice rolled, e.g. 3,5,6")
        if len(dice) > 30:
            raise UsageError(f"--dice: {len(dice)} dice is more than any roll has")
        tools = _ints(args.tools, "--tools", 1, prof.max_tool_value)
        if len(tools) > prof.max_tools:
            raise UsageError(f"--tools: a player has at most {prof.max_tools} tools, not {len(tools)}")
        once = _ints(args.once, "--once", 1, 20)
        if len(once) > 8:
            raise UsageError("--once: at most 8 one-time tools")
        out = roll_help(args.place, dice, prof.divisor[args.place], tools, once)
    except (UsageError, StoneAgeError) as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    gives = "food" if args.place == "hunt" else args.place
    print(f"{args.place}: dice {','.join(map(str, out['dice']))} = {out['pips']} pips, divisor {out['divisor']}")
    nxt = "one more pip would give" if out["base_short"] == 1 else f"{out['base_short']} more pips would give"
    print(f"  without tools: {out['base']} {gives}; {nxt} {out['base'] + 1}")
    best = out["best"]
    if best["added"]:
        spent = ", ".join([str(v) for v in best["tools"]] + [f"one-time {v}" for v in best["once"]])
        print(f"  best: spend {spent} -> {best['yield']} {gives} ({best['total']} pips, {best['waste']} wasted)")
    else:
        print(f"  best: spend no tools -> {best['yield']} {gives}")
    for opt in out["options"]:
        if opt is not best and opt["added"]:
            print(f"  or {opt['move'][6:]} -> {opt['yield']} {gives}")
    print(f"  with the best tools {out['one_more_pip_text']} {gives}; enter '{best['move']}'")
    return 0


def cmd_final(args: argparse.Namespace) -> int:
    """``final``: the final-scoring calculator."""
    try:
        prof = _profile(args)
        cards = [c.strip() for c in args.cards.split(",") if c.strip()]
        for c in cards:
            if not prof.is_card(c):
                raise UsageError(f"--cards: {c!r} is not a card of the box profile (c01 … c{len(prof.cards):02d})")
        if len(set(cards)) != len(cards):
            raise UsageError("--cards: a card is listed twice")
        synthetic = _synthetic_cards(args, prof)
        tools = _ints(args.tools, "--tools", 1, prof.max_tool_value)
        if len(tools) > prof.max_tools:
            raise UsageError(f"--tools: a player has at most {prof.max_tools} tools")
        for name, lo, hi in (
            ("agriculture", 0, prof.max_agriculture),
            ("buildings", 0, len(prof.buildings)),
            ("people", 1, prof.max_people),
            ("resources", 0, 9999),
            ("track", -9999, 9999),
        ):
            val = getattr(args, name)
            if not lo <= val <= hi:
                raise UsageError(f"--{name}: must be from {lo} to {hi}, got {val}")
        out = final_score(prof, cards, args.agriculture, tools, args.buildings, args.people, args.resources, args.track)
        if synthetic:
            out = _add_synthetic(out, synthetic, args, tools)
    except (UsageError, StoneAgeError) as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    cul = out["culture"]
    sets = " + ".join(f"{len(s)}²" for s in cul["sets"]) or "none"
    print(f"culture sets: {sets} = {cul['points']}")
    for kind, m in out["multipliers"].items():
        if m["figures"]:
            print(f"{kind}: {m['figures']} x {m['quantity']} = {m['points']}")
    print(f"resources: {out['resources']}")
    if out["track"]:
        print(f"score track: {out['track']}")
    print(f"total: {out['total']}   (tie-break: agriculture + tools + people = {out['tiebreak']})")
    return 0


def _synthetic_cards(args: argparse.Namespace, prof: BoxProfile) -> dict[str, Any]:
    """Bottoms given directly (``--culture``, ``--farmer`` …) instead of card ids."""
    culture = [c.strip() for c in args.culture.split(",") if c.strip()]
    for c in culture:
        if c not in prof.cultures:
            raise UsageError(f"--culture: {c!r} is not a culture symbol ({', '.join(prof.cultures)})")
    figs = {k: getattr(args, k) for k in MULTIPLIERS if getattr(args, k) is not None}
    for k, v in figs.items():
        if not 0 <= v <= 99:
            raise UsageError(f"--{k}: must be from 0 to 99")
    return {"culture": culture, "figures": figs} if culture or figs else {}


def _add_synthetic(
    out: dict[str, Any], syn: dict[str, Any], args: argparse.Namespace, tools: list[int]
) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for c in syn["culture"]:
        counts[c] = counts.get(c, 0) + 1
    for s in out["culture"]["sets"]:
        for c in s:
            counts[c] = counts.get(c, 0) + 1
    sets = []
    k = 1
    while any(v >= k for v in counts.values()):
        sets.append(sorted(c for c, v in counts.items() if v >= k))
        k += 1
    culture = sum(len(s) ** 2 for s in sets)
    qty = {"farmer": args.agriculture, "toolmaker": sum(tools), "hutbuilder": args.buildings, "shaman": args.people}
    mult = dict(out["multipliers"])
    for kind, f in syn["figures"].items():
        figs = mult[kind]["figures"] + f
        mult[kind] = {"figures": figs, "quantity": qty[kind], "points": figs * qty[kind]}
    total = out["track"] + culture + sum(m["points"] for m in mult.values()) + out["resources"]
    return dict(
        out,
        culture={"sets": sets, "squares": [len(s) ** 2 for s in sets], "points": culture},
        multipliers=mult,
        total=total,
    )


__all__ = ["cmd_final", "cmd_roll", "register"]
