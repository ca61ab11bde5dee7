"""``tribes-companion demo`` and ``tribes-companion replay``: the whole pipeline, camera to page.

``demo`` plays a simulated game on a rendered table — hands carrying out every move, the occasional
pause in the middle of a move, recognition noise — and runs it through the same path as a real
camera: frames → observations → tracker → rules runtime → web page (camera picture with the
tracker's state, prompts to tap) and a virtual LED strip shown on the page. It opens the page on
localhost. Until the camera pipeline (issue 6) is merged, the observations are the renderer's ground
truth read perfectly and degraded by the noise model — the page and the console say so.

``replay VIDEO`` turns a recorded game into a game journal: every frame is read, tracked and
committed like live play, with a progress bar. A video rendered by ``tribes-companion render video``
carries its ground truth (``*.truth.json``); until the camera pipeline is merged that is what is read.

The heavy parts (OpenCV, Flask) are imported only when a command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import webbrowser
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TRUTH_SOURCE = "renderer ground truth + noise model (the camera pipeline, issue 6, is not merged yet)"
DEMO_PLAYERS = (("Ada", "red"), ("Bo", "blue"), ("Cai", "yellow"), ("Dee", "black"))


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``demo`` and ``replay``."""
    d = sub.add_parser(
        "demo",
        help="a simulated game on a rendered table, read by the camera pipeline and tracker, shown in the browser",
    )
    d.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--policy", default="greedy", choices=("greedy", "random"))
    d.add_argument("--port", type=int, default=8321, help="port (0 picks a free one)")
    d.add_argument("--host", default="127.0.0.1")
    d.add_argument("--speed", type=float, default=1.0, help="playback speed (2 = twice as fast)")
    d.add_argument("--pack", default="sketch", help="art pack of the rendered table (default sketch, held out)")
    d.add_argument("--noise", default="realistic", choices=("none", "realistic", "heavy"))
    d.add_argument("--width", type=int, default=1280, help="camera picture width (height 9/16 of it)")
    d.add_argument("--no-browser", action="store_true", help="do not open the page")
    d.add_argument("--seconds", type=float, default=0.0, help="stop after this many seconds (0: Ctrl+C)")
    from devices.cli import add_strip_options  # the LED strip as in 'serve --leds' (docs/leds.md)

    add_strip_options(
        d.add_argument_group("LED strip along the action row (docs/leds.md)"),
        prefix="leds",
        port_help="device path, hwgrep://VID:PID, 'virtual' (shown on the page only; the default) or 'off'",
    )
    d.set_defaults(func=cmd_demo)

    r = sub.add_parser("replay", help="turn a recorded game video into a game journal")
    r.add_argument("video", help="a video file or a folder of frames (as written by 'render video')")
    r.add_argument(
        "--setup",
        help="who plays: a journal or position file (players, box profile; a position starts mid-game)",
    )
    r.add_argument("--moves", type=int, default=0, help="with a journal as --setup: its first N moves come first")
    r.add_argument("--players", help="instead of --setup: 'Ada:red,Bo:blue,…' in seat order")
    r.add_argument("--seats", help="layout seat of each player, e.g. 0,2 (default: as in the video's truth)")
    r.add_argument("-o", "--output", required=True, help="the game journal to write")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.set_defaults(func=cmd_replay)


def _fail(cmd: str, message: str) -> int:
    print(f"tribes-companion {cmd}: {message}", file=sys.stderr)
    return 2


# --- the simulated table ---------------------------------------------------------------------------
@dataclass
class SimSession:
    """Everything a simulated camera session needs: the game played, its frames, the observation
    source, and the runtime and tracker link the frames are read into."""

    game: Any
    playback: Any
    table_camera: Any
    frames: Iterator[Any]
    recognize: Callable[[Any], Any]
    annotate: Callable[[Any, Any, dict[str, Any]], bytes]
    runtime: Any
    link: Any
    source: str


def sim_session(
    data_dir: str | Path,
    *,
    players: int = 3,
    seed: int = 1,
    policy: str = "greedy",
    pack: str = "sketch",
    noise: str = "realistic",
    width: int = 1280,
    end: int | None = None,
    pause: float = 0.05,
    render: bool = True,
) -> SimSession:
    """A simulated game (``end``: only its first moves) on a rendered table, ready to be read."""
    from rules.game import simulate
    from tracker.link import TrackerLink
    from tracker.noise import PRESETS, Noise
    from vision.artpack import builtin_pack
    from vision.camera import Camera
    from vision.layout import default_layout
    from vision.overlay import annotator
    from vision.playback import Script, TableCamera, timeline
    from vision.render import Renderer
    from vision.table import TableModel
    from vision.video import Pace
    from webui.runtime import GameRuntime

    names = list(DEMO_PLAYERS[:players])
    game = simulate(names, seed, policy)
    base = default_layout()
    layout = base.with_seats((0, 2)) if players == 2 else base
    renderer = Renderer(layout, builtin_pack(pack), seed=seed)
    camera = Camera.framing(layout, width=width, height=round(width * 9 / 16), tilt=15, azimuth=20, margin=0.12)
    colours = {s.colour: renderer.pack.colour(s.colour) for s in TableModel.from_state(game.state).seats}
    script = Script(pause=pause, merge=0.05, merge_in_turn=0.3, seed=seed)
    playback = timeline(game, layout, colours, script, Pace(rest=1.0), end=end)
    table_camera = TableCamera(renderer, camera)
    degrade = None
    if noise != "none":
        model = Noise(PRESETS[noise], seed, [c for _, c in names])

        def degrade(obs: Any, scene: Hashable) -> Any:
            return model.apply(obs, scene)

    frames = table_camera.frames(playback, degrade, render=render)
    runtime = GameRuntime(data_dir, fsync=False, resume=False)
    runtime.new_game(names)  # the tracker reads the setup off the table
    link = TrackerLink(runtime)

    def recognize(frame: Any) -> Any:
        return frame.observation  # the perfect reading of the ground truth, with noise

    draw = annotator(lambda f: f.image, lambda f: f.truth if f.observation.settled else None, width=960)
    return SimSession(game, playback, table_camera, frames, recognize, draw, runtime, link, TRUTH_SOURCE)


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the demo until Ctrl+C (or ``--seconds``)."""
    if args.speed <= 0:
        return _fail("demo", "--speed must be positive")
    if not 320 <= args.width <= 3840:
        return _fail("demo", "--width must be 320 to 3840")
    from tracker.loop import CameraLoop
    from vision.artpack import builtin_pack
    from vision.errors import VisionError
    from webui.app import create_app
    from webui.camera import FrameHub, attach
    from webui.server import LiveServer

    try:
        builtin_pack(args.pack)
    except (VisionError, KeyError, ValueError) as exc:
        return _fail("demo", f"--pack: {exc}")
    from devices.cli import live_strip_from_args
    from devices.errors import DeviceError

    try:
        live, notes = live_strip_from_args(args, "leds", "virtual")
    except DeviceError as exc:
        return _fail("demo", " ".join(str(exc).split()))
    for note in notes:
        print(f"warning: {note}", file=sys.stderr)
    tmp = tempfile.TemporaryDirectory(prefix="tribes-demo-")
    session = sim_session(
        tmp.name,
        players=args.players,
        seed=args.seed,
        policy=args.policy,
        pack=args.pack,
        noise=args.noise,
        width=args.width,
    )
    if live is not None:
        live.attach(session.runtime)
    app = create_app(session.runtime, {"SSE_HEARTBEAT": 15.0}, leds=live)
    frames = FrameHub()
    loop = CameraLoop(
        session.frames,
        session.recognize,
        session.link,
        annotate=session.annotate,
        publish=frames.publish,
        pace=1.0 / (session.playback.fps * args.speed),
    )
    attach(app, session.link, frames, camera_stats=loop.stats.to_dict, source=session.source)
    try:
        server = LiveServer(app, args.host, args.port)
    except OSError as exc:
        if live is not None:
            live.close()
        return _fail("demo", f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    server.start()
    loop.start()
    print(f"demo: {args.players} simulated players on a rendered table ({args.pack} art, {args.noise} noise)")
    print(f"observations: {session.source}")
    if live is not None:
        print(f"LED strip: {live.config.port}, {live.strip.led_count} LEDs (shown on the page and at /api/leds)")
    print(f"open {server.url}/  (Ctrl+C to stop)", flush=True)
    if not args.no_browser:
        webbrowser.open(f"{server.url}/")
    try:
        t0 = time.monotonic()
        while args.seconds <= 0 or time.monotonic() - t0 < args.seconds:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        loop.stop()
        frames.close()
        app.extensions["tribes"]["camera"]["feed"].close()
        server.stop()
        if live is not None:
            live.close()
        snap = session.runtime.snapshot()
        print(f"recorded {len(snap.moves)} moves; the simulated game has {len(session.game.moves)}")
        session.runtime.close()
        tmp.cleanup()
    return 0


# --- replay ------------------------------------------------------------------------------------
class _Progress:
    def __init__(self, total: int, quiet: bool) -> None:
        self.total = max(total, 1)
        self.quiet = quiet
        self.last = -1.0

    def show(self, n: int, moves: int, force: bool = False) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if not force and now - self.last < 0.2:
            return
        self.last = now
        width = 30
        filled = round(width * n / self.total)
        pct = 100 * n / self.total
        bar = "#" * filled + "." * (width - filled)
        print(f"\r[{bar}] {pct:5.1f}%  frame {n}/{self.total}  moves {moves}", end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        if not self.quiet:
            print(file=sys.stderr)


def _players(spec: str) -> list[tuple[str, str]]:
    out = []
    for part in spec.split(","):
        name, sep, colour = part.partition(":")
        if not name.strip() or not sep or not colour.strip():
            raise ValueError(f"--players: {part!r} is not NAME:COLOUR")
        out.append((name.strip(), colour.strip()))
    return out


def _start_game(runtime: Any, setup: str | None, moves: int, players: str | None) -> None:
    """Start the replay's game: from a journal (its players; its first ``moves`` moves), a position,
    or players named on the command line. Raises JournalError, PositionError or ValueError."""
    from rules.game import Game, load_json

    if setup:
        data = load_json(setup, "the setup")
        if isinstance(data, dict) and data.get("format") == "tribes-position":
            runtime.new_game(position=data)
            return
        game = Game.from_dict(data, setup, upto=moves)
        runtime.new_game([(p["name"], p.get("colour", "grey")) for p in game.settings["players"]])
        for m in game.moves:
            runtime.submit(m)
        return
    runtime.new_game(_players(players or ""))


def cmd_replay(args: argparse.Namespace) -> int:
    """Read a recorded game into a journal."""
    from rules.errors import JournalError, PositionError
    from tracker.link import TrackerLink
    from vision.errors import VisionError
    from vision.playback import load_video_truth, recorded_frames
    from webui.runtime import GameRuntime

    video = Path(args.video)
    if not video.exists():
        return _fail("replay", f"{video}: no such file or folder")
    if bool(args.setup) == bool(args.players):
        return _fail("replay", "name the players: --setup FILE or --players 'Ada:red,Bo:blue'")
    seats = None
    if args.seats:
        try:
            seats = [int(x) for x in args.seats.split(",")]
        except ValueError:
            return _fail("replay", f"--seats: {args.seats!r} is not a list of seat numbers")
    try:
        truth = load_video_truth(video)
    except VisionError as exc:
        return _fail("replay", str(exc))
    if truth is None:
        return _fail(
            "replay",
            f"{video}: reading pictures needs the camera pipeline (issue 6, not merged yet); videos written by "
            "'render video' are replayed from their ground truth (*.truth.json next to them)",
        )
    with tempfile.TemporaryDirectory(prefix="tribes-replay-") as tmp:
        runtime = GameRuntime(tmp, fsync=False, resume=False)
        try:
            _start_game(runtime, args.setup, args.moves, args.players)
        except (JournalError, PositionError, ValueError) as exc:
            return _fail("replay", str(exc))
        link = TrackerLink(runtime, layout_seats=seats)
        total = len(truth.get("frames", []))
        progress = _Progress(total, args.quiet)
        for n, frame in enumerate(recorded_frames(video, truth, images=False)):
            link.feed(frame.observation)
            progress.show(n + 1, len(runtime.snapshot().moves))
        progress.show(total, len(runtime.snapshot().moves), force=True)
        progress.done()
        journal = runtime.export()
        status = link.status
        runtime.close()
    try:
        Path(args.output).write_text(json.dumps(journal, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        return _fail("replay", f"{args.output}: cannot write: {exc.strerror or exc}")
    print(f"{args.output}: {len(journal['moves'])} moves (observations: the video's ground truth)")
    if status.kind in ("prompt", "desync", "waiting", "changing"):
        print(f"note: at the end the tracker was '{status.kind}': {status.message}", file=sys.stderr)
    return 0


# --- camera mode of serve ----------------------------------------------------------------------------
class CameraStartError(Exception):
    """``serve --camera`` cannot start: one line for the user."""


def start_camera(args: argparse.Namespace, runtime: Any, app: Any) -> Callable[[], None]:
    """Wire ``serve --camera SOURCE`` into ``app``: ``sim`` (a simulated table, like the demo) or a video
    written by ``render video`` (read from its ground truth, at its frame rate). A live camera needs the
    camera pipeline (issue 6). Returns a function that stops the camera."""
    from tracker.link import TrackerLink
    from tracker.loop import CameraLoop
    from vision.errors import VisionError
    from vision.overlay import annotator
    from vision.playback import load_video_truth, recorded_frames
    from webui.camera import FrameHub, attach

    seats = [int(x) for x in args.seats.split(",")] if getattr(args, "seats", None) else None
    frames_hub = FrameHub()
    if args.camera == "sim":
        tmp = tempfile.TemporaryDirectory(prefix="tribes-sim-")
        session = sim_session(tmp.name)
        runtime.new_game(list(DEMO_PLAYERS[:3]))
        link = TrackerLink(runtime, layout_seats=seats)
        source, recognize, annotate = session.frames, session.recognize, session.annotate
        pace = 1.0 / session.playback.fps
        label = session.source
    else:
        video = Path(args.camera)
        if not video.exists():
            raise CameraStartError(
                f"--camera {args.camera}: no such video; a live camera needs the camera pipeline (issue 6)"
            )
        try:
            truth = load_video_truth(video)
        except VisionError as exc:
            raise CameraStartError(str(exc)) from None
        if truth is None:
            raise CameraStartError(
                f"--camera {args.camera}: reading pictures needs the camera pipeline (issue 6, not merged yet); "
                "videos written by 'render video' are read from their ground truth"
            )
        link = TrackerLink(runtime, layout_seats=seats)
        source = recorded_frames(video, truth)

        def recognize(frame: Any) -> Any:
            return frame.observation

        annotate = annotator(lambda f: f.image, lambda f: f.truth or None, width=960)
        pace = 1.0 / float(truth.get("fps", 10.0))
        label = "the video's ground truth (the camera pipeline, issue 6, is not merged yet)"
    loop = CameraLoop(source, recognize, link, annotate=annotate, publish=frames_hub.publish, pace=pace)
    feed = attach(app, link, frames_hub, camera_stats=loop.stats.to_dict, source=label)
    loop.start()
    print(f"camera: {args.camera} — observations: {label}", flush=True)

    def stop() -> None:
        loop.stop()
        frames_hub.close()
        feed.close()

    return stop
