"""Entry point of ``tribes-companion``. Each package registers its own subcommands; heavy packages
(OpenCV, Flask) are imported only when their command runs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from companion import play as play_cli
from devices import cli as devices_cli
from games.tribes import cli as rules_cli
from games.tribes.sim import cli as vision_cli
from webui import cli as webui_cli


def build_parser() -> argparse.ArgumentParser:
    """The full command-line parser."""
    parser = argparse.ArgumentParser(
        prog="tribes-companion",
        description="A table companion for Tribes: Dawn of Humanity — game state, scores and legal moves.",
    )
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    play_cli.register(sub)
    rules_cli.register(sub)
    devices_cli.register(sub)
    webui_cli.register(sub)
    vision_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    return rules_cli.run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
