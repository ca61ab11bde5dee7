"""Entry point of ``table-companion`` (and its alias ``tribes-companion``): one console command that
wires the project's packages — the app layer.

``table-companion [--game ID] COMMAND …``; the game defaults to ``tribes``. ``games`` lists the
games. Every game gets ``serve`` (the web companion), ``leds`` (the LED strip) and ``rules`` (its
own commands where it brings them, else the generic ones of :mod:`companion.rules_cli`); a game's
plug-in adds its own commands (Tribes: ``enroll``, ``recognize``, ``print-markers``, ``layout``),
and the synthetic table's tooling adds ``render`` (:mod:`sim`). ``demo`` shows the game running on
its own: Tribes through the whole camera pipeline on a rendered table, other games as the page with
simulated players.

Heavy packages (OpenCV, Flask) are imported only when their command runs. A user mistake prints one
line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import games
from datafile import DataFileError
from games.api import GamePlugin
from games.errors import GameError

PROG = "table-companion"


def _prog() -> str:
    return PROG


def build_parser(game_id: str = games.DEFAULT) -> argparse.ArgumentParser:
    """The full command-line parser for ``game_id``."""
    from companion import play as play_cli
    from companion import rules_cli, serve
    from devices import cli as devices_cli

    plugin = games.get(game_id)
    parser = argparse.ArgumentParser(
        prog=_prog(),
        description="A table companion for board games — game state, scores and legal moves "
        f"(now: {plugin.info.title}; --game chooses another).",
    )
    parser.add_argument(
        "--game",
        dest="game_id",
        default=games.DEFAULT,
        metavar="ID",
        help=f"the game: {', '.join(games.available())} (default {games.DEFAULT})",
    )
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    g = sub.add_parser("games", help="list the games this companion knows")
    g.set_defaults(func=cmd_games)
    play_cli.register(sub)
    if plugin.cli is not None:
        plugin.cli(sub)
    if "rules" not in sub.choices:
        rules_cli.register(sub, plugin)
    devices_cli.register(sub)
    serve.register(sub)
    try:
        from sim import register_tools
    except ImportError:  # pragma: no cover - an install without the synthetic table
        pass
    else:
        register_tools(plugin.info.id, sub)
    return parser


def cmd_games(args: argparse.Namespace) -> int:
    """One line per game."""
    for gid in games.available():
        info = games.get(gid).info
        mark = " (default)" if gid == games.DEFAULT else ""
        sys.stdout.write(f"{gid:<12} {info.title} — {info.min_players}-{info.max_players} players{mark}\n")
    return 0


def _game_of(argv: Sequence[str]) -> str:
    """The ``--game`` given before the command (a command's own ``--game`` option is its own)."""
    head: list[str] = []
    for i, arg in enumerate(argv):
        if not arg.startswith("-") and not (i and argv[i - 1] == "--game"):
            break
        head.append(arg)
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game", default=games.DEFAULT)
    known, _ = pre.parse_known_args(head)
    gid: str = known.game
    return gid


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the command; returns the exit status."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    gid = _game_of(args_in)
    if gid not in games.available(hidden=True):
        choices = ", ".join(games.available())
        sys.stderr.write(f"{_prog()}: error: --game: unknown game {gid!r}: choose from {choices}\n")
        return 2
    parser = build_parser(gid)
    args = parser.parse_args(args_in)
    args.game_plugin = games.get(gid)
    return run(args)


def run(args: argparse.Namespace) -> int:
    """Run a parsed command; user errors become one line on stderr and status 2."""
    try:
        return int(args.func(args))
    except (GameError, DataFileError) as exc:
        sys.stderr.write(f"{_prog()}: error: {' '.join(str(exc).split())}\n")
        return 2
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def plugin_of(args: argparse.Namespace) -> GamePlugin:
    """The game a parsed command runs for."""
    plugin: GamePlugin = getattr(args, "game_plugin", None) or games.get(getattr(args, "game_id", games.DEFAULT))
    return plugin


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
