"""``table-companion rules …``: new games, legal moves, applying moves, scores, replays, simulations.

Games are read from and written to JSON files: a journal (settings + move log, docs/journal.md) or a
position (docs/position.md). Every user mistake — a missing file, corrupt JSON, an illegal move —
prints one line on stderr and exits with status 2; nothing is written then.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import datafile
from datafile import read_json
from games.errors import FieldError
from games.players import players_from_options
from games.tribes.rules.engine import describe_context
from games.tribes.rules.errors import JournalError, RulesError
from games.tribes.rules.game import Game, game_from_data, load_game, simulate
from games.tribes.rules.legal import Option, describe, legal_moves, overview
from games.tribes.rules.moves import Move, TakeEvent, parse_move
from games.tribes.rules.pending import PendingKind
from games.tribes.rules.position import POSITION_FORMAT
from games.tribes.rules.profile import default_profile, load_profile
from games.tribes.rules.scoring import ranking, scoreboard
from games.tribes.rules.state import State


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``rules`` command and its subcommands to the top-level parser."""
    rules = sub.add_parser("rules", help="the rules engine: new, legal, apply, score, replay, simulate, profile")
    rsub = rules.add_subparsers(dest="rules_cmd", required=True, metavar="COMMAND")

    p = rsub.add_parser("new", help="start a game journal")
    p.add_argument("--players", required=True, help="names in seat order from the start player, comma-separated")
    p.add_argument("--colours", help="colours in the same order, comma-separated")
    p.add_argument("--profile", help="box profile JSON (default: the shipped profile)")
    p.add_argument(
        "--seed",
        type=int,
        help="simulate the setup draws with this seed (else report them with 'rules apply … \"setup …\"')",
    )
    p.add_argument("-o", "--output", default="-", help="journal file to write (default: stdout)")
    p.set_defaults(func=cmd_new)

    p = rsub.add_parser("legal", help="what the player to move can do, with costs and the reasons for the rest")
    p.add_argument("game", help="journal or position JSON")
    p.add_argument("--json", action="store_true", help="print the overview as JSON")
    p.add_argument("--moves", type=int, metavar="N", default=0, help="also list up to N concrete legal moves")
    p.set_defaults(func=cmd_legal)

    p = rsub.add_parser("apply", help="apply moves in notation and write the game")
    p.add_argument("game", help="journal or position JSON")
    p.add_argument("moves", nargs="+", help="moves in notation, e.g. '1:off 0,0' 'draw goat'")
    p.add_argument(
        "-o", "--output", default="-", help="where to write the result (default: stdout); may be the input file"
    )
    p.set_defaults(func=cmd_apply)

    p = rsub.add_parser("score", help="live score breakdown, or the final ranking")
    p.add_argument("game", help="journal or position JSON")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_score)

    p = rsub.add_parser("replay", help="replay a journal move by move and check it")
    p.add_argument("journal")
    p.add_argument("--to", type=int, metavar="N", help="stop after N moves")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--position-out", metavar="FILE", help="write the position reached")
    p.set_defaults(func=cmd_replay)

    p = rsub.add_parser("simulate", help="play whole games with simulated players")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--policy", default="greedy", help="random or greedy, or one per seat comma-separated")
    p.add_argument("--games", type=int, default=1, help="play several games and print a summary")
    p.add_argument("--profile", help="box profile JSON")
    p.add_argument("-o", "--output", help="write the (last) game's journal here")
    p.add_argument("--quiet", action="store_true", help="no move-by-move output")
    p.set_defaults(func=cmd_simulate)

    p = rsub.add_parser("profile", help="check a box profile and list its provisional values")
    p.add_argument("file", nargs="?", help="profile JSON (default: the shipped profile)")
    p.add_argument("--provisional", action="store_true", help="list every provisional value")
    p.add_argument("--export", metavar="FILE", help="write the profile as JSON (to copy and correct it)")
    p.set_defaults(func=cmd_profile)


# --- output helpers -------------------------------------------------------------------------------
def write_json(data: Any, output: str, what: str = "the file") -> None:
    """Write JSON to a file atomically, keeping an existing file's permissions (or to stdout for
    ``-``); a folder that is missing or in the way is one :class:`datafile.DataFileError`."""
    if output == "-":
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        return
    datafile.write_json(data, output, what)


def _name(obj: Any) -> str:
    return obj.get("en") or next(iter(obj.values()))


def narrate(before: State, move: Move) -> str:
    """One line of plain words for a move, as a spectator would say it."""
    prof = before.profile
    who = before.players[before.actor].name if before.players else ""
    if move.chance:
        return f"  (table) {move}"
    if move.takes_slot:
        slot = move.slot  # type: ignore[attr-defined]
        tile = before.row[slot - 1]
        name = _name(prof.event(tile.tile).name) if tile.event else _name(prof.action_tile(tile.tile).name)
        cost = f", pays {slot - 1} shell(s)" if slot > 1 else ""
        gain = f", collects {tile.shells} shell(s)" if tile.shells else ""
        what = "event" if isinstance(move, TakeEvent) else move.kind
        return f"{who}: {move}    [{name}, slot {slot}{cost}{gain}; {what}]"
    return f"{who}: {move}"


def print_scores(state: State, out: TextIO) -> None:
    """The score table: breakdown per player, and the ranking."""
    rows = scoreboard(state)
    prov = " (track VP from provisional profile values — check your box)" if _tracks_provisional(state) else ""
    out.write(
        f"{'player':<14}{'teeth':>6}{'tracks':>7}{'members':>8}{'tiles':>6}{'total':>7}{'shells':>7}{'exh.':>5}\n"
    )
    for b in rows:
        out.write(
            f"{b.name:<14}{b.bear_teeth:>6}{b.tracks:>7}{b.most_members:>8}{b.most_tiles:>6}{b.total:>7}"
            f"{b.shells:>7}{b.exhausted:>5}\n"
        )
    label = "final ranking" if state.is_over else "standing now"
    out.write(f"{label}: " + ", ".join(f"{s.place}. {s.name} ({s.total})" for s in ranking(state)) + prov + "\n")


def _tracks_provisional(state: State) -> bool:
    prof = state.profile
    return any(prof.is_provisional(f"tracks.{t}.vp") for t in ("offspring", "movement", "exploration"))


# --- commands -------------------------------------------------------------------------------------
def cmd_new(args: argparse.Namespace) -> int:
    try:
        players = players_from_options(args.players, args.colours, ("red", "blue", "yellow", "black"))
    except FieldError as exc:
        raise RulesError(str(exc)) from None
    profile = load_profile(args.profile) if args.profile else None
    try:
        game = Game.new(list(players), profile)
    except ValueError as exc:
        raise RulesError(f"--players: {exc}") from None
    if args.seed is not None:
        import random

        from games.tribes.rules.chance import sample_setup

        game.push(sample_setup(game.state, random.Random(args.seed)))
        game.settings["seed"] = args.seed
    write_json(game.to_dict(), args.output, "the journal")
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    if args.moves < 0:
        raise RulesError("--moves must be 0 or more")
    game = load_game(args.game)
    state = game.state
    info = describe(state)
    if args.moves:
        info["moves"] = [str(m) for _, m in zip(range(args.moves), legal_moves(state), strict=False)]
    if args.json:
        sys.stdout.write(json.dumps(info, ensure_ascii=False, indent=1) + "\n")
        return 0
    out = sys.stdout
    out.write(f"{describe_context(state)}\n")
    if state.pending.kind == PendingKind.CHOOSE:
        me = state.players[state.to_move]
        out.write(f"{me.name} has {me.shells} shell(s), {me.supply} member(s) in supply\n")
        for t in overview(state):
            flag = "FREE" if t.free else f"costs {t.cost}"
            head = f"[{t.slot}] {_name(t.name)} ({flag}; {t.shells_on} shell(s) on it)"
            if t.reason:
                out.write(f"{head} — not available: {t.reason}\n")
                continue
            out.write(head + "\n")
            face_down = [o for o in t.options if o.kind == "achievement" and o.detail["achievement"] is None]
            for o in t.options:
                if o in face_down:
                    continue
                out.write(f"      {_option_line(o)}\n")
            if face_down:
                out.write(f"      {len(face_down)} achievement tile(s) still face down (R-ACH-8)\n")
        if any(o.detail.get("provisional") for t in overview(state) for o in t.options):
            out.write(PROVISIONAL_NOTE + "\n")
    else:
        for key, val in info.items():
            if key not in ("kind", "chance", "seat", "player"):
                out.write(f"  {key}: {val}\n")
    if args.moves:
        out.write("moves: " + "  |  ".join(info["moves"]) + "\n")
    return 0


PROVISIONAL_NOTE = "(*) provisional value from the box profile — check your box (table-companion rules profile)"


def _option_line(o: Option) -> str:
    """One option of a tile, as words; values from provisional profile data get a star."""
    d = o.detail
    star = "*" if d.get("provisional") else ""
    if o.kind != "achievement":
        if o.kind == "event":
            return f"event {_name(d['name'])}: {_name(d['text'])}{star}" + (f" — {d['note']}" if d.get("note") else "")
        return f"{o.kind}{star}: {d.get('note', '')}"
    nm = _name(d["name"])
    if not o.available:
        return f"achievement {d['achievement']} ({nm}): no — {o.reason}"
    extra = []
    if d["jokers_needed"]:
        extra.append(f"{d['jokers_needed']} joker(s) from {', '.join(d['joker_candidates'])}")
    if d["arrow_from"]:
        extra.append(f"arrow from {' or '.join(d['arrow_from'])}")
    if d["via_arrow"]:
        extra.append("through an arrow on the board")
    lightning = ", lightning" if d["lightning"] else ""
    more = "; " + "; ".join(extra) if extra else ""
    return f"achievement {d['achievement']} ({nm}): slot {d['slot']}, {d['vp']} VP{lightning}{star}{more}"


def cmd_apply(args: argparse.Namespace) -> int:
    data = read_json(args.game, "the game file", JournalError)
    game = game_from_data(data, args.game, base=Path(args.game).parent)
    for text in args.moves:
        game.push(parse_move(text))
    is_position = isinstance(data, dict) and data.get("format") == POSITION_FORMAT
    write_json(game.state.to_dict() if is_position else game.to_dict(), args.output, "the game file")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    state = load_game(args.game).state
    if args.json:
        data = {
            "over": state.is_over,
            "scores": [b.to_dict() for b in scoreboard(state)],
            "ranking": [vars_standing(s) for s in ranking(state)],
        }
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        return 0
    print_scores(state, sys.stdout)
    return 0


def vars_standing(s: Any) -> dict[str, Any]:
    """A ranking row as JSON data."""
    return {
        "place": s.place,
        "seat": s.seat,
        "name": s.name,
        "vp": s.total,
        "shells": s.shells,
        "exhausted": s.exhausted,
    }


def cmd_replay(args: argparse.Namespace) -> int:
    if args.to is not None and args.to < 0:
        raise RulesError("--to must be 0 or more")
    game = load_game(args.journal, upto=args.to)
    if not args.quiet:
        for i, (before, move) in enumerate(zip(game.states, game.moves, strict=False)):
            sys.stdout.write(f"{i + 1:>4} {narrate(before, move)}\n")
    sys.stdout.write(f"replayed {len(game.moves)} moves: {describe_context(game.state)}\n")
    print_scores(game.state, sys.stdout)
    if args.position_out:
        write_json(game.state.to_dict(), args.position_out, "the position")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    profile = load_profile(args.profile) if args.profile else None
    policies = args.policy.split(",") if "," in args.policy else args.policy
    if args.games < 1:
        raise RulesError("--games must be at least 1")
    counter = itertools.count(1)

    def show(before: State, move: Move, after: State) -> None:
        sys.stdout.write(f"{next(counter):>4} {narrate(before, move)}\n")

    verbose = not args.quiet and args.games == 1
    wins: dict[str, int] = {}
    unfinished = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        seed = args.seed + g
        try:
            game = simulate(args.players, seed, policies, profile, on_move=show if verbose else None)
        except ValueError as exc:
            raise RulesError(f"--policy: {exc}") from None
        state = game.state
        unfinished += not state.is_over
        for s in ranking(state):
            if s.place == 1:
                wins[s.name] = wins.get(s.name, 0) + 1
    if args.games == 1:
        status = "game over" if state.is_over else "stopped unfinished"
        sys.stdout.write(f"{status} after {state.turn + 1} turns, {len(game.moves)} moves (seed {args.seed})\n")
        print_scores(state, sys.stdout)
    else:
        dt = time.perf_counter() - t0
        sys.stdout.write(f"{args.games} games in {dt:.1f} s ({unfinished} unfinished); first places: {wins}\n")
    if args.output:
        write_json(game.to_dict(), args.output, "the journal")
    return 0


def cmd_profile(args: argparse.Namespace) -> int:
    prof = load_profile(args.file) if args.file else default_profile()
    paths = prof.provisional_paths()
    sys.stdout.write(
        f"{prof.name}: valid; {len(prof.achievements)} achievements, {len(prof.events)} events, "
        f"{len(prof.action_tiles)} action tiles; {len(paths)} provisional value(s) — check your box\n"
    )
    if args.provisional:
        for p in paths:
            sys.stdout.write(f"  provisional: {p}\n")
    if args.export:
        write_json(dict(prof.raw), args.export, "the profile")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run a parsed command; user errors become one line on stderr and status 2."""
    try:
        return int(args.func(args))
    except RulesError as exc:
        sys.stderr.write(f"table-companion: error: {exc}\n")
        return 2
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - convenience
    """Run ``rules`` subcommands directly (``python -m rules.cli …``)."""
    parser = argparse.ArgumentParser(prog="table-companion")
    sub = parser.add_subparsers(dest="cmd", required=True)
    register(sub)
    return run(parser.parse_args(argv))
