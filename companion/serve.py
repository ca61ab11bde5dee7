"""``table-companion serve``: the web companion on this computer (default 127.0.0.1), on the local
network (``--lan``: phones and tablets pair with the code shown here), or with simulated players
(``--demo``); with an LED strip
along the action row (``--leds PORT`` and the LED settings of the ``leds`` commands as ``--leds-…``;
``--demo`` and ``--camera sim`` show a virtual strip on the page unless told otherwise; camera mode
uses the same strip as the rest of the page).

The server is Waitress (:mod:`webui.server`); one data folder has one server (a second one on the
same folder refuses to start, naming the other's pid: :mod:`session.lock`). Anything but this
computer needs the pairing code to see or play the game, whatever the bind address; ``--host
0.0.0.0`` without ``--lan`` warns about that (docs/security.md).

User mistakes (an unreadable journal or box profile, a data folder in use, a port in use, a bad LED
setting, a camera source that cannot be used) print one line on stderr and exit with status 2 before
"listening on …" is printed. An LED controller that is not plugged in is not a mistake: the
server starts, prints a warning, the page shows the strip as absent and it connects when it appears.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from companion.stopping import stop_on_sigterm, stops_held
from devices.cli import add_strip_options

if TYPE_CHECKING:  # pragma: no cover
    from devices.live import LiveStrip


def default_data_dir() -> Path:
    """Where games and the box profile are kept: ``$XDG_DATA_HOME/table-companion`` (or
    ``~/.local/share/table-companion``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table-companion"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``serve`` command to the top-level parser."""
    p = sub.add_parser("serve", help="the web companion: live scores, legal moves and move entry in a browser")
    p.add_argument("--host", default=None, help="address to bind (default 127.0.0.1; with --lan 0.0.0.0)")
    p.add_argument("--port", type=int, default=8321, help="port (default 8321; 0 picks a free one)")
    p.add_argument(
        "--lan",
        action="store_true",
        help="serve the local network: phones and tablets pair with the code (and QR code) shown here",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        help="a name this computer is reached by besides its addresses and host name (e.g. a DNS name); repeatable",
    )
    p.add_argument("--data", help=f"folder for game journals and the box profile (default {default_data_dir()})")
    p.add_argument(
        "--demo", action="store_true", help="simulated players play on their own (their games go to a temporary folder)"
    )
    p.add_argument("--pace", type=float, default=1.0, help="--demo: seconds between inputs (default 1)")
    p.add_argument("--players", type=int, default=3, help="--demo: number of players (default 3)")
    p.add_argument("--seed", type=int, default=1, help="--demo: seed of the simulated players and draws")
    p.add_argument("--policy", default="greedy", choices=("greedy", "random"), help="--demo: simulated players")
    p.add_argument("--heartbeat", type=float, default=15.0, help="seconds between SSE heartbeats (default 15)")
    p.add_argument(
        "--camera",
        metavar="SOURCE",
        help="camera mode: moves read from the table by the camera pipeline; a webcam index (0), a video file, a "
        "folder of images, an http(s)/rtsp URL, or 'sim' (a simulated game on a rendered table)",
    )
    p.add_argument(
        "--enrollment",
        metavar="FILE",
        help="--camera: your box as learned by 'table-companion enroll' (without it: enroll from the page)",
    )
    p.add_argument("--seats", help="--camera: the layout seat of each player, e.g. 0,2 (enrollment from the page)")
    p.add_argument("--no-fsync", action="store_true", help=argparse.SUPPRESS)
    leds = p.add_argument_group("LED strip along the action row (docs/leds.md)")
    add_strip_options(
        leds,
        prefix="leds",
        port_help="the strip's controller: device path, hwgrep://VID:PID, 'virtual' (shown on the page only) or "
        "'off'; default: none, with --demo or --camera sim virtual",
    )
    p.set_defaults(func=cmd_serve)


def _fail(message: str) -> int:
    print(f"table-companion serve: {message}", file=sys.stderr)
    return 2


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server until Ctrl+C."""
    from devices.cli import live_strip_from_args
    from devices.errors import DeviceError

    if args.camera and args.demo:
        return _fail("--camera and --demo both make moves: choose one")
    if args.pace <= 0 or args.heartbeat <= 0:
        return _fail("--pace and --heartbeat must be positive")
    if not 0 <= args.port <= 65535:
        return _fail("--port must be 0 to 65535")
    from companion.memory import tune

    tune()  # big picture buffers beside many server threads: malloc set up for them (companion/memory.py)
    try:
        # a simulated game (--demo, --camera sim) shows a virtual strip unless --leds says otherwise
        simulated = args.demo or args.camera == "sim"
        leds, notes = live_strip_from_args(args, "leds", "virtual" if simulated else None)
    except DeviceError as exc:
        return _fail(" ".join(str(exc).split()))
    try:
        return _serve(args, leds, notes)
    finally:
        if leds is not None:
            leds.close()  # a serial strip goes dark


def _is_loopback_host(host: str) -> bool:
    from webui.security import is_loopback

    return host.lower() == "localhost" or is_loopback(host)


def _serve(args: argparse.Namespace, leds: LiveStrip | None, notes: list[str]) -> int:
    from datafile import DataFileError
    from session.journal import JournalFileError
    from session.runtime import FolderBusyError, GameRuntime
    from webui.app import create_app
    from webui.demo import DemoPlayer
    from webui.pairing import host_names, lan_addresses, new_token, pairing_url, qr_text
    from webui.server import LiveServer

    tmp = None
    if args.data:
        data = Path(args.data)
    elif args.demo:
        tmp = tempfile.TemporaryDirectory(prefix="tribes-demo-")
        data = Path(tmp.name)
    else:
        data = default_data_dir()
    try:
        runtime = GameRuntime(data, fsync=not args.no_fsync, game=getattr(args, "game_id", None))
    except FolderBusyError as exc:
        return _fail(exc.message)
    except (JournalFileError, DataFileError) as exc:
        return _fail(f"{' '.join(str(exc).split())} (move the file away to start afresh)")
    except OSError as exc:
        return _fail(f"cannot use the data folder {data}: {exc.strerror or exc}")
    server = None
    stop_camera = None
    demo = None
    app = None
    try:
        host = args.host or ("0.0.0.0" if args.lan else "127.0.0.1")
        network = not _is_loopback_host(host)
        if network and not args.lan:
            notes.append(
                f"--host {host} without --lan: the network can reach this server; phones and tablets "
                "need the pairing code printed below (anything but this computer gets 401 without it)"
            )
        for w in [*runtime.warnings, *notes]:
            print(f"warning: {w}", file=sys.stderr)
        if leds is not None:
            leds.attach(runtime)
        token = new_token()
        allowed = [*host_names(), *(args.allow_host or [])] if network else list(args.allow_host or [])
        config = {
            "PAIRING_TOKEN": token,
            "SSE_HEARTBEAT": args.heartbeat,
            "SERVE_NETWORK": network,
            "ALLOWED_HOSTS": allowed,
        }
        app = create_app(runtime, config, leds=leds)
        try:
            server = LiveServer(app, host, args.port)
        except OSError as exc:
            return _fail(f"cannot listen on {host}:{args.port}: {exc.strerror or exc}")
        if host in ("0.0.0.0", "::", ""):
            addresses = lan_addresses()
        else:
            addresses = [] if not network else [host]
        urls = [f"http://{a}:{server.port}/" for a in addresses]
        app.config["PAIRING_URLS"] = urls
        if args.camera:  # a bad source is one line before anything says the server is up
            from companion.play import CameraStartError, start_camera

            try:
                stop_camera = start_camera(args, runtime, app)
            except CameraStartError as exc:
                return _fail(str(exc))
        shown_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        print(f"listening on http://{shown_host}:{server.port}/", flush=True)
        print(f"games are kept in {data}", flush=True)
        if leds is not None:
            where = "shown on the page" if leds.config.port == "virtual" else "its state on the page and at /api/leds"
            print(f"LED strip: {leds.config.port}, {leds.strip.led_count} LEDs ({where})", flush=True)
        if network:
            target = urls[0] if urls else f"http://<this computer>:{server.port}/"
            print(f"on the network: {', '.join(urls) or 'this computer’s address'}")
            print(f"pairing code: {token}   (any device but this computer needs it to see or play the game)")
            print(f"pairing screen on this computer: http://127.0.0.1:{server.port}/pair")
            print(qr_text(pairing_url(target, token)), flush=True)

        stop_on_sigterm()
        if args.demo:
            demo = DemoPlayer(runtime, players=args.players, pace=args.pace, seed=args.seed, policy=args.policy)
            demo.start()
            print(f"demo: {args.players} simulated players, one input every {args.pace:g} s", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
        return 0
    finally:
        with stops_held():  # a second Ctrl+C does not break off the cleanup
            if stop_camera:
                stop_camera()
            if demo:
                demo.stop()
            if server is not None:
                server.stop()
            elif app is not None:
                app.extensions["companion"]["hub"].close()
            runtime.close()
            if tmp:
                tmp.cleanup()
