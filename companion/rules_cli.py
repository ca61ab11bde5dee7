"""``table-companion --game ID rules …``: the rules commands for any game, over the game interface.

A game that brings its own ``rules`` commands (Tribes) registers those instead; every other game
gets these, written once against :class:`games.api.Rules`:

* ``new --players A,B [--colours …] [--profile FILE] [--seed N]`` — a new journal (``--seed``
  draws the chance outcomes that come before the first decision, as a table would);
* ``apply GAME MOVE… -o OUT`` — apply moves in notation (a position stays a position);
* ``legal GAME [--json] [--moves N]`` — what the game waits for, with the reasons for the rest;
* ``score GAME [--json]`` — the live breakdown and the ranking;
* ``replay JOURNAL [--to N] [--quiet] [--position-out FILE]`` — move by move, checked;
* ``simulate [--players N] [--seed S] [--policy P] [--games K] [-o FILE]`` — simulated games;
* ``profile [FILE] [--provisional] [--export FILE]`` — check a box profile, list provisional values.

A mistake prints one line naming the rule clause or the file and field, exits with status 2 and
writes nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from datafile import DataFileError, read_json, write_json
from games.api import GamePlugin
from games.errors import FieldError, GameError
from games.players import players_from_options
from games.record import Record, open_record, record_from_data, simulate


class CliError(GameError):
    """A bad command line (one line, exit 2)."""


def register(sub: argparse._SubParsersAction, game: GamePlugin) -> None:  # type: ignore[type-arg]
    """Add ``rules`` and its subcommands for ``game``."""
    info = game.info
    rules = sub.add_parser("rules", help=f"the rules of {info.title}: new, apply, legal, score, replay, simulate")
    rsub = rules.add_subparsers(dest="rules_cmd", required=True, metavar="COMMAND")
    rules.set_defaults(plugin=game)

    p = rsub.add_parser("new", help="start a game journal")
    p.add_argument("--players", required=True, help="names in seat order from the start player, comma-separated")
    p.add_argument("--colours", help="colours in the same order, comma-separated")
    p.add_argument("--profile", help="box profile JSON (default: the shipped profile)")
    p.add_argument("--seed", type=int, help="draw the chance outcomes before the first decision with this seed")
    p.add_argument("-o", "--output", default="-", help="journal file to write (default: stdout)")
    p.set_defaults(func=cmd_new)

    p = rsub.add_parser("apply", help="apply moves in notation and write the game")
    p.add_argument("game", help="journal or position JSON")
    p.add_argument("moves", nargs="+", help="moves in notation")
    p.add_argument("-o", "--output", default="-", help="where to write the result (default: stdout)")
    p.set_defaults(func=cmd_apply)

    p = rsub.add_parser("legal", help="what the game waits for, with the reasons for the rest")
    p.add_argument("game", help="journal or position JSON")
    p.add_argument("--json", action="store_true", help="print the prompt as JSON")
    p.add_argument("--moves", type=int, metavar="N", default=0, help="also list up to N concrete legal moves")
    p.set_defaults(func=cmd_legal)

    p = rsub.add_parser("score", help="live score breakdown and the ranking")
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
    p.add_argument("--players", type=int, default=info.max_players)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--policy", default="greedy", help="a simulated player, or one per seat comma-separated")
    p.add_argument("--games", type=int, default=1, help="play several games and print a summary")
    p.add_argument("--profile", help="box profile JSON")
    p.add_argument("-o", "--output", help="write the (last) game's journal here")
    p.add_argument("--quiet", action="store_true", help="no move-by-move output")
    p.set_defaults(func=cmd_simulate)

    if game.profile is not None:
        p = rsub.add_parser("profile", help="check a box profile and list its provisional values")
        p.add_argument("file", nargs="?", help="profile JSON (default: the shipped profile)")
        p.add_argument("--provisional", action="store_true", help="list every provisional value")
        p.add_argument("--export", metavar="FILE", help="write the profile as JSON (to copy and correct it)")
        p.set_defaults(func=cmd_profile)


# --- helpers --------------------------------------------------------------------------------------
def _out(data: Any, output: str) -> None:
    if output == "-":
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    else:
        write_json(data, output, "the game file")


def _profile(game: GamePlugin, path: str | None) -> Any:
    if path is None:
        return None
    if game.profile is None:
        raise CliError(f"--profile: {game.info.title} has no box profile")
    return game.profile.load(path)


def _players(game: GamePlugin, names_text: str, colours_text: str | None) -> list[tuple[str, str]]:
    try:
        players = players_from_options(names_text, colours_text, game.info.colours)
    except FieldError as exc:
        raise CliError(str(exc)) from None
    lo, hi = game.info.min_players, game.info.max_players
    if not lo <= len(players) <= hi:
        raise CliError(f"--players: {game.info.title} is played by {lo} to {hi} players, got {len(players)}")
    return players


def _open(game: GamePlugin, path: str, upto: int | None = None) -> Record:
    return open_record(path, upto, game)


def _line(game: GamePlugin, state: Any) -> str:
    prompt = game.rules.prompt(state)
    return str(prompt.get("text") or prompt.get("kind") or "")


def _narrate(game: GamePlugin, before: Any, move: Any) -> str:
    if move.chance:
        return f"  (table) {move}"
    seats = game.rules.seats(before)
    return f"{seats[game.rules.actor(before)].name}: {move}"


def _print_scores(game: GamePlugin, state: Any) -> None:
    rules = game.rules
    out = sys.stdout
    for row in rules.scores(state):
        parts = ", ".join(f"{k} {v}" for k, v in row.items() if k not in ("seat", "name", "total"))
        out.write(f"{row['name']:<14}{row['total']:>5}   {parts}\n")
    label = "final ranking" if rules.is_over(state) else "standing now"
    out.write(f"{label}: " + ", ".join(f"{s.place}. {s.name} ({s.score})" for s in rules.ranking(state)) + "\n")


# --- commands -------------------------------------------------------------------------------------
def cmd_new(args: argparse.Namespace) -> int:
    game: GamePlugin = args.plugin
    players = _players(game, args.players, args.colours)
    try:
        record = Record.new(game, game.rules.settings(players, _profile(game, args.profile)))
    except ValueError as exc:
        if isinstance(exc, GameError | DataFileError):
            raise
        raise CliError(f"--players: {exc}") from None
    if args.seed is not None:
        rng = random.Random(args.seed)
        while game.rules.is_chance(record.state) and not game.rules.is_over(record.state):
            record.push(game.rules.sample_chance(record.state, rng))
        record.settings["seed"] = args.seed
    _out(record.to_dict(), args.output)
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    game: GamePlugin = args.plugin
    data = read_json(args.game, "the game file")
    record = record_from_data(data, args.game, game=game, base=Path(args.game).parent)
    for text in args.moves:
        record.push(text)
    is_position = isinstance(data, dict) and data.get("format") == game.info.position_format
    _out(game.rules.state_to_json(record.state) if is_position else record.to_dict(), args.output)
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    game: GamePlugin = args.plugin
    if args.moves < 0:
        raise CliError("--moves must be 0 or more")
    state = _open(game, args.game).state
    info = game.rules.prompt(state)
    if args.moves:
        info["moves"] = [str(m) for _, m in zip(range(args.moves), game.rules.legal_moves(state), strict=False)]
    if args.json:
        sys.stdout.write(json.dumps(info, ensure_ascii=False, indent=1) + "\n")
        return 0
    out = sys.stdout
    out.write(_line(game, state) + "\n")
    for key, val in info.items():
        if key not in ("kind", "chance", "seat", "player", "text", "moves"):
            out.write(f"  {key}: {json.dumps(val, ensure_ascii=False)}\n")
    if args.moves:
        out.write("moves: " + "  |  ".join(info["moves"]) + "\n")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    game: GamePlugin = args.plugin
    state = _open(game, args.game).state
    rules = game.rules
    if args.json:
        data = {
            "over": rules.is_over(state),
            "scores": rules.scores(state),
            "ranking": [s.to_dict() for s in rules.ranking(state)],
        }
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        return 0
    _print_scores(game, state)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    game: GamePlugin = args.plugin
    if args.to is not None and args.to < 0:
        raise CliError("--to must be 0 or more")
    record = _open(game, args.journal, args.to)
    if not args.quiet:
        for i, (before, move) in enumerate(zip(record.states, record.moves, strict=False)):
            sys.stdout.write(f"{i + 1:>4} {_narrate(game, before, move)}\n")
    sys.stdout.write(f"replayed {len(record.moves)} moves: {_line(game, record.state)}\n")
    _print_scores(game, record.state)
    if args.position_out:
        write_json(game.rules.state_to_json(record.state), args.position_out, "the position")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    game: GamePlugin = args.plugin
    info = game.info
    if not info.min_players <= args.players <= info.max_players:
        raise CliError(f"--players: {info.title} is played by {info.min_players} to {info.max_players} players")
    if args.games < 1:
        raise CliError("--games must be at least 1")
    profile = _profile(game, args.profile)
    policies = args.policy.split(",") if "," in args.policy else args.policy
    verbose = not args.quiet and args.games == 1
    count = [0]

    def show(before: Any, move: Any, after: Any) -> None:
        count[0] += 1
        sys.stdout.write(f"{count[0]:>4} {_narrate(game, before, move)}\n")

    wins: dict[str, int] = {}
    unfinished = 0
    t0 = time.perf_counter()
    record: Record | None = None
    for g in range(args.games):
        try:
            record = simulate(game, args.players, args.seed + g, policies, profile, on_move=show if verbose else None)
        except ValueError as exc:
            if isinstance(exc, GameError | DataFileError):
                raise
            raise CliError(f"--policy: {exc}") from None
        unfinished += not game.rules.is_over(record.state)
        for s in game.rules.ranking(record.state):
            if s.place == 1:
                wins[s.name] = wins.get(s.name, 0) + 1
    assert record is not None
    if args.games == 1:
        status = "game over" if game.rules.is_over(record.state) else "stopped unfinished"
        sys.stdout.write(f"{status} after {len(record.moves)} moves (seed {args.seed})\n")
        _print_scores(game, record.state)
    else:
        dt = time.perf_counter() - t0
        sys.stdout.write(f"{args.games} games in {dt:.1f} s ({unfinished} unfinished); first places: {wins}\n")
    if args.output:
        write_json(record.to_dict(), args.output, "the journal")
    return 0


def cmd_profile(args: argparse.Namespace) -> int:
    game: GamePlugin = args.plugin
    support = game.profile
    assert support is not None
    prof = support.load(args.file) if args.file else support.default()
    info = support.info(prof)
    paths = info["provisional"]
    sys.stdout.write(f"{prof.name}: valid; {len(paths)} provisional value(s) — check your box\n")
    if args.provisional:
        for p in paths:
            sys.stdout.write(f"  provisional: {p}\n")
    if args.export:
        write_json(dict(prof.raw), args.export, "the profile")
    return 0
