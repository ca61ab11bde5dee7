"""Entry point of ``tribes-companion``. Each package registers its own subcommands; heavy packages
(OpenCV, Flask) are imported only when their command runs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from devices import cli as devices_cli
from rules import cli as rules_cli
from vision import cli as vision_cli
from webui import cli as webui_cli


def build_parser() -> argparse.ArgumentParser:
    """The full command-line parser."""
    parser = argparse.ArgumentParser(
        prog="tribes-companion",
        description="A table companion for Tribes: Dawn of Humanity — game state, scores and legal moves.",
    )
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    demo = sub.add_parser("demo", help="play a simulated game and print it move by move with the final scores")
    demo.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--policy", default="greedy", help="random or greedy (default)")
    demo.set_defaults(func=_demo)
    rules_cli.register(sub)
    devices_cli.register(sub)
    webui_cli.register(sub)
    vision_cli.register(sub)
    return parser


def _demo(args: argparse.Namespace) -> int:
    args.games = 1
    args.profile = None
    args.output = None
    args.quiet = False
    return rules_cli.cmd_simulate(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    return rules_cli.run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
