"""``table-companion demo``, ``replay`` and the camera mode of ``serve``: the whole pipeline, camera to page.

``demo`` plays a simulated game on a rendered table — hands carrying out every move, the occasional
pause in the middle of a move — and runs it through the same path as a real camera: rendered pictures
→ the camera pipeline (:class:`vision.recognizer.Recognizer`, enrolled from the rendered setup as a
user enrolls) → tracker → rules runtime → web page (camera picture with what was read and the
tracker's state, prompts to tap) and a virtual LED strip shown on the page. It opens the page on
localhost. ``--vision truth`` reads the renderer's ground truth degraded by a noise model instead.

``replay VIDEO`` turns a recorded game into a game journal: every frame is read by the camera pipeline,
tracked and committed like live play, with a progress bar (``--truth``: a rendered video's ground
truth instead).

``serve --camera SOURCE`` (:func:`start_camera`): a webcam, video file, folder of images or stream URL
read by the camera pipeline, with an enrollment file or the enrollment flow of
:mod:`tracker.enroll_flow`; ``sim`` is the demo's simulated table.

The heavy parts (OpenCV, Flask) are imported only when a command runs.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import threading
import time
import webbrowser
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

from companion.memory import trim
from companion.stopping import stop_on_sigterm, stops_held

SOURCES = {
    "recognizer": "the camera pipeline (vision.recognizer) reading the rendered pictures, enrolled from the setup",
    "truth": "renderer ground truth + noise model (a perfect reader, degraded; no picture is read)",
}
"""What the observations of a simulated table come from (``demo --vision``)."""
GATE_QUIET = 0.2
"""Seconds of stillness before the camera pipeline's motion gate calls a frame settled in camera mode
(shipped default 0.5). The tracker then fuses ``min_frames`` (3) settled frames before it commits (two
over ``min_span_s`` from a camera slower than 7 pictures a second), so
the time from the hand leaving to the commit is about this plus 0.2 s at 10 frames a second: 0.2 s
brings its median to 0.4 s (0.3 gave 0.5 s) with the same correctness in
``benchmarks/tracker_eval.py --source recognizer`` (docs/benchmarks.md "Tracker")."""
GATE_QUIET_LONG = 0.5
"""The same after a hand was seen (shipped: 2.0, applied after every hand movement, which leaves no
settled frame in a one-second rest between moves; docs/tracker.md). Both are set on every recognizer
camera mode builds (:func:`camera_recognizer`)."""
SENSOR_NOISE = 2.0
"""Sensor noise (grey levels) of the simulated camera's pictures when the recognizer reads them."""
DEMO_PLAYERS = (("Ada", "red"), ("Bo", "blue"), ("Cai", "yellow"), ("Dee", "black"))


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``demo`` and ``replay``."""
    d = sub.add_parser(
        "demo",
        help="the game running on its own in the browser (Tribes: a rendered table read by the camera "
        "pipeline and tracker; other games: simulated players entering their moves)",
    )
    d.add_argument("--players", type=int, default=3)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--policy", default="greedy", choices=("greedy", "random"))
    d.add_argument("--port", type=int, default=8321, help="port (0 picks a free one)")
    d.add_argument("--host", default="127.0.0.1")
    d.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="playback speed (2 = twice as fast; Tribes: 1, 2, 4 or 8 also leave out pictures of moving hands, "
        "and the page can change it)",
    )
    d.add_argument("--pack", default="sketch", help="art pack of the rendered table (default sketch, held out)")
    d.add_argument(
        "--vision",
        default="recognizer",
        choices=tuple(SOURCES),
        help="what reads the table: the camera pipeline on the rendered pictures (default) or the renderer's "
        "ground truth degraded by a noise model",
    )
    d.add_argument("--noise", default="realistic", choices=("none", "realistic", "heavy"), help="--vision truth")
    d.add_argument(
        "--width", type=int, help="camera picture width, height 9/16 of it (default 1920; 1280 with --vision truth)"
    )
    d.add_argument("--no-browser", action="store_true", help="do not open the page")
    d.add_argument("--seconds", type=float, default=0.0, help="stop after this many seconds (0: Ctrl+C)")
    d.add_argument(
        "--games", type=int, default=0, help="Tribes: stop after this many games (0: game after game, a new seed each)"
    )
    from devices.cli import add_strip_options  # the LED strip as in 'serve --leds' (docs/leds.md)

    add_strip_options(
        d.add_argument_group("LED strip along the action row (docs/leds.md)"),
        prefix="leds",
        port_help="device path, hwgrep://VID:PID, 'virtual' (shown on the page only; the default) or 'off'",
    )
    d.set_defaults(func=cmd_demo)

    r = sub.add_parser("replay", help="turn a recorded game video into a game journal")
    r.add_argument("video", help="a video file or a folder of frames")
    r.add_argument(
        "--setup",
        help="who plays and how the game starts: a journal (its first --moves moves; include the setup move to "
        "enroll from the video) or a position file",
    )
    r.add_argument("--moves", type=int, default=0, help="with a journal as --setup: its first N moves come first")
    r.add_argument("--players", help="instead of --setup: 'Ada:red,Bo:blue,…' in seat order (needs --enrollment)")
    r.add_argument(
        "--enrollment",
        metavar="FILE",
        help="your box as learned by 'table-companion enroll' (default: enroll from the video's first still frame "
        "with the position of --setup)",
    )
    r.add_argument(
        "--pack",
        metavar="DIR",
        help="when enrolling from the video: an art pack folder (e.g. from 'render photo-pack') for the event and "
        "achievement tiles that turn up later",
    )
    r.add_argument("--seats", help="layout seat of each player, e.g. 0,2 (default: 0,2 for two players, else 0,1,…)")
    r.add_argument("--fps", type=float, help="frame rate (default: the video's, else 10)")
    r.add_argument(
        "--truth",
        action="store_true",
        help="read the ground truth written next to a rendered video (*.truth.json) instead of the pictures",
    )
    r.add_argument("-o", "--output", required=True, help="the game journal to write")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.set_defaults(func=cmd_replay)


def _fail(cmd: str, message: str) -> int:
    print(f"table-companion {cmd}: {message}", file=sys.stderr)
    return 2


# --- the simulated table ---------------------------------------------------------------------------
DEMO_SPEEDS: tuple[float, ...] = (1.0, 2.0, 4.0, 8.0)
"""The speeds of the camera demo (the page's speed control): at 2 and more only every n-th picture of a
hand moving over the table is rendered and read (the first and the last of each movement always),
the quiet frames between moves all are — the camera pipeline needs them to commit a move."""
TRUTH_CACHE = 16
"""Tables whose ground truth the demo keeps (each holds some 150 KB of pixel positions): the last few
are all it reads again."""


class DemoFrames:
    """The frames of a simulated game for the camera loop, at the speed the page sets
    (:data:`DEMO_SPEEDS`; a :class:`webui.demo.SpeedControl`). ``truth``: also the perfect reading
    of each frame and its ground truth (``--vision truth``); else only the picture, which the camera
    pipeline reads. ``on_speed(speed)`` is told of every change (the loop's pace follows). After the
    last frame the table stays as it is (more frames of it, for up to ``linger_s`` seconds of game
    time) while ``linger()`` says the players have something to settle (:meth:`DemoAnswers.waiting`):
    the last move may still be a question they answer, as at a real table before packing up."""

    speeds = DEMO_SPEEDS

    def __init__(
        self,
        playback: Any,
        table_camera: Any,
        *,
        render: bool = True,
        truth: bool = False,
        degrade: Callable[[Any, Hashable], Any] | None = None,
        speed: float = 1,
        linger: Callable[[], bool] | None = None,
        linger_s: float = 30.0,
    ) -> None:
        self.playback = playback
        self.linger = linger
        self.linger_s = linger_s
        self.lingered = 0  # frames of the finished table shown after the last one
        self.table_camera = table_camera
        self.render = render
        self.truth = truth
        self.degrade = degrade
        self._speed = float(speed) if speed in DEMO_SPEEDS else 1.0
        self.on_speed: Callable[[float], None] | None = None
        self.shown = 0  # frames handed out
        self.skipped = 0  # frames of moving hands left out at a higher speed
        self.position = 0  # the playback frame reached
        self.frame: Any = None  # that playback frame (what the table shows: the ground truth)

    @property
    def speed(self) -> float:
        """The speed now (one of :data:`DEMO_SPEEDS`)."""
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        if value not in DEMO_SPEEDS:
            raise ValueError(f"speed must be one of {', '.join(f'{s:g}' for s in DEMO_SPEEDS)}")
        self._speed = float(value)
        if self.on_speed is not None:
            self.on_speed(self._speed)

    def _keep(self, i: int, run: int) -> bool:
        frames = self.playback.frames
        f = frames[i]
        if f.settled or self._speed <= 1:
            return True
        first = i == 0 or frames[i - 1].settled
        last = i + 1 == len(frames) or frames[i + 1].settled
        return first or last or run % int(self._speed) == 0

    def __iter__(self) -> Iterator[Any]:
        from games.tribes.sim.playback import SimFrame

        tc = self.table_camera
        run = 0
        for i, f in enumerate(self._frames()):
            self.position = min(i, len(self.playback.frames) - 1)
            self.frame = f
            run = 0 if f.settled else run + 1
            if i < len(self.playback.frames) and not self._keep(i, run):
                self.skipped += 1
                continue
            image = tc.image(f) if self.render else None
            if self.truth:
                obs = tc.observe(f)
                if self.degrade is not None:
                    obs = self.degrade(obs, tc.scene(f))
                frame = SimFrame(f, image, obs, tc.truth(f))
            else:
                frame = SimFrame(f, image, cast(Any, None), {})  # nothing reads the truth
            self.shown += 1
            yield frame

    def _frames(self) -> Iterator[Any]:
        frames = self.playback.frames
        yield from frames
        if self.linger is None or not frames:
            return
        last, fps = frames[-1], self.playback.fps
        for j in range(1, int(self.linger_s * fps) + 1):
            if not self.linger():
                return
            self.lingered += 1
            yield replace(last, index=last.index + j, time=last.time + j / fps)


class DemoAnswers:
    """The simulated players answer the camera's questions themselves, as they would on the page: a
    prompt (which move was it?) left open for ``delay`` seconds (shown on the page meanwhile) is
    answered with the option that keeps the record a beginning of the simulated game; a desync that
    stays for ``delay`` seconds, and a prompt none of whose options is what they did, is fixed by
    correcting the record to what the table shows (``shows()``: the moves physically complete, the
    ground truth; Undo and Correct, like a person). A record that went astray without a question (the
    camera took a wrong move for the right one) is noticed on the page after ``delay`` seconds and
    corrected the same way (``noticed``). Call :meth:`tick` before each frame is read."""

    def __init__(
        self,
        game: Any,
        runtime: Any,
        link: Any,
        delay: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
        shows: Callable[[], list[Any]] | None = None,
    ):
        self.game = game
        self.runtime = runtime
        self.link = link
        self.delay = delay
        self.clock = clock
        self.shows = shows
        self.answered = 0
        self.fixed = 0
        self.noticed = 0  # records gone astray without a question, corrected
        self._open: tuple[Any, float] | None = None  # (what is open, since when): see _due
        self._checked = -1  # the state id last found a beginning of the game

    def choice(self, options: Any) -> int | None:
        """The option that leaves the record a beginning of the simulated game (the longest), if any."""
        truth = [str(m) for m in self.game.moves]
        moves = [str(m) for m in self.runtime.snapshot().moves]
        best: tuple[int, int] | None = None
        for i, o in enumerate(options):
            after = moves[: len(moves) - o.back] + [str(m) for m in o.moves]
            if (o.moves or o.back) and after == truth[: len(after)] and (best is None or len(after) > best[1]):
                best = (i, len(after))
        return None if best is None else best[0]

    def tick(self) -> None:
        """Answer the open question once it has been open for ``delay`` seconds."""
        from tracker.link import AnswerError

        st = self.link.status
        q = st.prompt or st.desync
        if q is None:
            self._notice()
            return
        if not self._due(("prompt", q.id) if st.prompt else ("desync", q.state_id)):
            return
        i = self.choice(q.options) if st.prompt else None
        if i is not None:
            try:
                self.link.answer(q.id, i)
                self.answered += 1
                return
            except AnswerError as exc:
                print(f"demo: could not answer the camera's question: {exc}", file=sys.stderr)
        if self.shows is not None:  # a desync, or no option is what they did: correct by hand
            self.fix(self.shows())

    def waiting(self) -> bool:
        """Whether the players still have something to settle: a question open, or a record gone
        astray (the demo's table lingers meanwhile: :class:`DemoFrames`)."""
        st = self.link.status
        return bool(st.prompt or st.desync) or (self.shows is not None and self.astray())

    def astray(self) -> bool:
        """Whether the record is not a beginning of the simulated game (checked once per state)."""
        snap = self.runtime.snapshot()
        if snap.state_id == self._checked:
            return False
        truth = self.game.moves
        moves = snap.moves
        if len(moves) <= len(truth) and all(str(a) == str(b) for a, b in zip(moves, truth, strict=False)):
            self._checked = snap.state_id
            return False
        return True

    def _due(self, key: tuple[str, int] | None) -> bool:
        """Whether what ``key`` names (a question, a record gone astray; None: nothing) has been open
        for ``delay`` seconds: true once per key."""
        now = self.clock()
        if key is None or self._open is None or self._open[0] != key:
            self._open = None if key is None else (key, now)
            return False
        if now - self._open[1] < self.delay:
            return False
        self._open = (key, now + 3600.0)  # one try per key
        return True

    def _notice(self) -> None:
        astray = self.shows is not None and self.astray()
        if not self._due(("astray", self.runtime.snapshot().state_id) if astray else None):
            return
        assert self.shows is not None
        before = self.fixed
        self.fix(self.shows())
        self.noticed += self.fixed - before

    def fix(self, want: list[Any]) -> None:
        """Make the record ``want`` (what the table shows) as a person would: take back or correct
        where it differs, enter what is missing."""
        from session.runtime import RuntimeRefusal

        rt = self.runtime
        moves = list(rt.snapshot().moves)
        k = 0
        while k < min(len(moves), len(want)) and str(moves[k]) == str(want[k]):
            k += 1
        try:
            if k < len(moves):
                if k < len(want):
                    rt.correct(k, want[k], rest="truncate")
                    k += 1
                else:
                    while len(rt.snapshot().moves) > k:
                        rt.undo()
            for m in want[k:]:
                rt.submit(m)
            self.fixed += 1
        except (ValueError, RuntimeRefusal) as exc:  # illegal, or refused: the next desync tries again
            print(f"demo: could not correct the record: {exc}", file=sys.stderr)


class DemoSeries:
    """Game after game on the simulated table for the camera demo: the frames of one session, a pause
    of ``between`` seconds (the page shows the end of the game), then a new game with the next seed,
    read into the same runtime and tracker link (``make(k)``: the k-th session). A speed control like
    :class:`DemoFrames` (the speed carries over to the next game). ``games``: stop after that many
    (0: never)."""

    speeds = DEMO_SPEEDS

    def __init__(self, first: SimSession, make: Callable[[int], SimSession], between: float = 10.0, games: int = 0):
        self.current = first
        self.make = make
        self.between = between
        self.games = games
        self.played = 0  # games whose frames were all shown
        self.on_speed: Callable[[float], None] | None = None
        self._speed = first.frames.speed
        self._stop = threading.Event()

    @property
    def speed(self) -> float:
        """The speed now (one of :data:`DEMO_SPEEDS`)."""
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        self.current.frames.speed = value  # checks the value
        self._speed = float(value)
        if self.on_speed is not None:
            self.on_speed(self._speed)

    def stop(self) -> None:
        """End the pause between games at once (the loop stops after the current frame)."""
        self._stop.set()

    def recognize(self, frame: Any) -> Any:
        """Read a frame with the current game's camera pipeline."""
        return self.current.recognize(frame)

    def annotate(self, frame: Any, obs: Any, status: dict[str, Any]) -> bytes:
        """Draw what the current game's camera pipeline read."""
        return self.current.annotate(frame, obs, status)

    def __iter__(self) -> Iterator[Any]:
        k = 0
        while True:
            self.current.frames.speed = self._speed
            yield from self.current.frames
            self.played += 1
            if (self.games and self.played >= self.games) or self._stop.wait(self.between):
                return
            k += 1
            self.current.drop()  # the last game's table goes before the next is rendered (memory)
            forget_pictures()
            gc.unfreeze()  # what the tracker link froze of that game can go too (TrackerLink._freeze)
            gc.collect()
            trim()
            self.current = self.make(k)


def forget_pictures() -> None:
    """Let go of the synthetic table's cached pictures (textures, noise banks: keyed by the game's
    seed, so the next game has no use for them)."""
    from sim.effects import clear_cache as clear_noise
    from sim.textures import clear_cache as clear_textures

    clear_noise()
    clear_textures()


@dataclass
class SimSession:
    """Everything a simulated camera session needs: the game played, its frames, the observation
    source, and the runtime and tracker link the frames are read into."""

    game: Any
    playback: Any
    table_camera: Any
    frames: DemoFrames
    recognize: Callable[[Any], Any]
    annotate: Callable[[Any, Any, dict[str, Any]], bytes]
    runtime: Any
    link: Any
    source: str
    recognizer: Any = None
    answers: DemoAnswers | None = None

    def drop(self) -> None:
        """Let go of the rendered table, its pictures and the recognizer (the session is over; the
        runtime and the tracker link go on with the next one)."""

        def over(*_: Any) -> Any:
            raise RuntimeError("this demo game is over")

        self.recognize = self.annotate = over
        self.game = self.playback = self.table_camera = self.recognizer = self.answers = None
        self.frames.playback = self.frames.table_camera = self.frames.frame = self.frames.linger = None


def camera_recognizer(recognizer: Any) -> Any:
    """``recognizer`` set up for camera mode: its motion gate with :data:`GATE_QUIET` and
    :data:`GATE_QUIET_LONG`."""
    recognizer.gate.quiet = GATE_QUIET
    recognizer.gate.quiet_long = GATE_QUIET_LONG
    recognizer.gate.reset()
    return recognizer


def picture(
    image: Any, obs: Any, status: dict[str, Any], width: int = 960, recognizer: Any = None, game: Any = None
) -> bytes:
    """The camera picture for the page (the game's ``CameraSupport.picture``): what the recognizer
    read (when the frame was registered), the tracker's status banner on top, JPEG bytes."""
    return _camera(game).picture(image, obs, status, width, recognizer)


def _camera(game: Any = None) -> Any:
    """The camera support of ``game`` (default: the default game's)."""
    import games

    plugin = game or games.get(games.DEFAULT)
    if plugin.camera is None:
        raise CameraStartError(f"{plugin.info.title} cannot be read by the camera yet")
    return plugin.camera()


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
    vision: str = "recognizer",
    runtime: Any = None,
    answer_after: float | None = 3.0,
    link: Any = None,
) -> SimSession:
    """A simulated game (``end``: only its first moves) on a rendered table, ready to be read.

    ``vision``: ``recognizer`` — the camera pipeline reads every rendered picture, enrolled from the
    rendered setup (:func:`vision.evaluation.enroll_rendered`); the setup move is entered into the runtime as the user
    confirms it when enrolling. ``truth`` — the renderer's ground truth read perfectly and degraded by
    the ``noise`` model; the tracker reads the setup off the table. ``runtime``: the game runtime to
    play into (default: a new one in ``data_dir``). ``answer_after``: the simulated players answer a
    question of the camera left open this many seconds (:class:`DemoAnswers`; None: never). ``link``:
    the tracker link to read into (default: a new one on the runtime)."""
    from games.tribes.rules.game import simulate
    from games.tribes.sim.noise import PRESETS, Noise
    from games.tribes.sim.packs import builtin_pack
    from games.tribes.sim.playback import Script, TableCamera, timeline
    from games.tribes.sim.render import Renderer
    from games.tribes.sim.video import Pace
    from games.tribes.vision.layout import default_layout
    from games.tribes.vision.overlay import annotator
    from games.tribes.vision.table import TableModel
    from session.runtime import GameRuntime
    from sim.camera import Camera
    from sim.effects import Effects
    from sim.lighting import Light
    from tracker.link import TrackerLink

    if vision not in SOURCES:
        raise ValueError(f"vision must be one of {', '.join(SOURCES)}, got {vision!r}")
    names = list(DEMO_PLAYERS[:players])
    game = simulate(names, seed, policy)
    base = default_layout()
    layout = base.with_seats((0, 2)) if players == 2 else base
    renderer = Renderer(layout, builtin_pack(pack), seed=seed, table_cache=2)  # a video: this table and the last
    camera = Camera.framing(layout, width=width, height=round(width * 9 / 16), tilt=15, azimuth=20, margin=0.12)
    colours = {s.colour: renderer.pack.colour(s.colour) for s in TableModel.from_state(game.state).seats}
    script = Script(pause=pause, merge=0.05, merge_in_turn=0.3, seed=seed)
    playback = timeline(game, layout, colours, script, Pace(rest=1.0), end=end)
    if runtime is None:
        runtime = GameRuntime(data_dir, fsync=False, resume=False)
    runtime.new_game(names)
    link = link or TrackerLink(runtime)
    if vision == "truth":
        table_camera = TableCamera(renderer, camera, cache=TRUTH_CACHE)
        degrade = None
        if noise != "none":
            model = Noise(PRESETS[noise], seed, [c for _, c in names])

            def degrade(obs: Any, scene: Hashable) -> Any:
                return model.apply(obs, scene)

        frames = DemoFrames(playback, table_camera, render=render, truth=True, degrade=degrade)

        answers = (
            DemoAnswers(
                game, runtime, link, answer_after, shows=lambda: frames.frame.shows(game) if frames.frame else []
            )
            if answer_after is not None
            else None
        )
        frames.linger = answers.waiting if answers is not None else None

        def recognize(frame: Any) -> Any:
            if answers is not None:
                answers.tick()
            return frame.observation  # the perfect reading of the ground truth, with noise

        draw = annotator(lambda f: f.image, lambda f: f.truth if f.observation.settled else None, width=960)
        return SimSession(
            game, playback, table_camera, frames, recognize, draw, runtime, link, SOURCES[vision], None, answers
        )
    from games.tribes.sim.evaluation import enroll_rendered
    from games.tribes.vision.recognizer import Recognizer

    light = Light()
    table_camera = TableCamera(renderer, camera, light, Effects(noise=SENSOR_NOISE), cache=TRUTH_CACHE)
    faces = [k for k in renderer.pack.faces if k.startswith(("event-", "achievement-"))]
    enrollment = enroll_rendered(
        renderer, game, camera, light, SENSOR_NOISE, renderer.pack, faces, pack_source="event and achievement tiles"
    )
    recognizer = camera_recognizer(
        # each game's table is enrolled anew: no vectors kept for a next recognizer (demo memory)
        Recognizer(layout, game.states[0].profile, enrollment, stream=True, fps=playback.fps, keep_examples=False)
    )
    runtime.submit(game.moves[0])  # the setup, as the user confirmed it for the enrollment
    # the pictures alone: the pipeline reads them
    frames = DemoFrames(playback, table_camera, render=True)

    answers = (
        DemoAnswers(game, runtime, link, answer_after, shows=lambda: frames.frame.shows(game) if frames.frame else [])
        if answer_after is not None
        else None
    )
    frames.linger = answers.waiting if answers is not None else None

    def read(frame: Any) -> Any:
        if answers is not None:
            answers.tick()
        return recognizer.read(frame.image, frame_no=frame.frame.index, time_s=frame.frame.time)

    def draw_read(frame: Any, obs: Any, status: dict[str, Any]) -> bytes:
        return picture(frame.image, obs, status, 960, recognizer)

    return SimSession(
        game, playback, table_camera, frames, read, draw_read, runtime, link, SOURCES[vision], recognizer, answers
    )


def _port_busy(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (one line), or None: the demo finds out before it renders
    and enrolls anything (the server binds the same way: SO_REUSEADDR)."""
    import socket

    if not 0 <= port <= 65535:
        return "--port must be 0 to 65535"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(addr)
        except OSError as exc:
            why = exc.strerror or exc
            return f"cannot listen on {host}:{port}: {why} (another program uses it: choose another --port)"
    return None


def _has_display() -> bool:
    """Whether a graphical browser can open here (on a headless machine ``webbrowser`` would start a
    text browser in this terminal, or nothing)."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the demo until Ctrl+C (or ``--seconds``)."""
    from companion.cli import plugin_of

    plugin = plugin_of(args)
    if args.speed <= 0:
        return _fail("demo", "--speed must be positive")
    busy = _port_busy(args.host, args.port)
    if busy:
        return _fail("demo", busy)
    if args.games < 0:
        return _fail("demo", "--games must be 0 (game after game) or more")
    info = plugin.info
    if not info.min_players <= args.players <= info.max_players:
        return _fail("demo", f"--players: {info.title} is played by {info.min_players} to {info.max_players}")
    from companion.memory import tune

    tune()  # big picture buffers beside many server threads: malloc set up for them (companion/memory.py)
    if plugin.info.id != "tribes":
        return _page_demo(args, plugin)
    if args.width is None:
        args.width = 1920 if args.vision == "recognizer" else 1280
    if not 320 <= args.width <= 3840:
        return _fail("demo", "--width must be 320 to 3840")
    from games.tribes.sim.packs import builtin_pack
    from tracker.loop import CameraLoop
    from vision.errors import VisionError
    from webui.app import create_app
    from webui.camera import FrameHub, attach
    from webui.demo import register as register_demo
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
    if args.vision == "recognizer":
        print("demo: rendering the setup and enrolling the camera pipeline from it …", flush=True)

    def make(k: int, runtime: Any = None, link: Any = None) -> SimSession:
        return sim_session(
            tmp.name,
            players=args.players,
            seed=args.seed + k,
            policy=args.policy,
            pack=args.pack,
            noise=args.noise,
            width=args.width,
            vision=args.vision,
            runtime=runtime,
            link=link,
        )

    try:
        session = make(0)
    except VisionError as exc:
        tmp.cleanup()
        if live is not None:
            live.close()
        return _fail("demo", f"the camera pipeline cannot start: {exc}")
    runtime, link = session.runtime, session.link  # shared by every game; the sessions themselves are not kept
    series = DemoSeries(session, lambda k: make(k, runtime, link), games=args.games)
    if live is not None:
        live.attach(runtime)
    app = create_app(runtime, {"SSE_HEARTBEAT": 15.0}, leds=live)
    frames = FrameHub()
    fps = session.playback.fps
    loop = CameraLoop(
        series,
        series.recognize,
        link,
        annotate=series.annotate,
        publish=frames.publish,
        pace=1.0 / (fps * args.speed),
        housekeeping=trim,  # freed picture buffers back to the system every 300 frames (companion/memory.py)
    )

    def on_speed(speed: float) -> None:  # the page's speed control: the loop's pace follows
        loop.pace = 1.0 / (fps * speed)

    series.on_speed = on_speed
    if args.speed in DEMO_SPEEDS:
        series.speed = args.speed
    register_demo(runtime, series)
    source = session.source
    del session  # the first game is dropped when the second starts
    attach(app, link, frames, camera_stats=loop.stats.to_dict, source=source)
    try:
        server = LiveServer(app, args.host, args.port)
    except OSError as exc:
        if live is not None:
            live.close()
        return _fail("demo", f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    server.start()
    loop.start()
    t0 = time.monotonic()
    fx = f"{args.noise} noise" if args.vision == "truth" else f"{args.width} px pictures"
    print(f"demo: {args.players} simulated players on a rendered table ({args.pack} art, {fx})")
    print(f"observations: {source}")
    if live is not None:
        print(f"LED strip: {live.config.port}, {live.strip.led_count} LEDs (shown on the page and at /api/leds)")
    if args.vision == "recognizer":
        print("the game clock slows down when rendering and reading a frame takes longer than a frame lasts")
    print(f"open {server.url}/  (Ctrl+C to stop)", flush=True)
    if not args.no_browser and _has_display():
        webbrowser.open(f"{server.url}/")
    stop_on_sigterm()
    try:
        while args.seconds <= 0 or time.monotonic() - t0 < args.seconds:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        with stops_held():  # a second Ctrl+C does not break off the cleanup
            series.stop()
            loop.stop()
            frames.close()
            app.extensions["companion"]["camera"]["feed"].close()
            server.stop()
            if live is not None:
                live.close()
            snap = runtime.snapshot()
            cur = series.current
            shown = cur.playback.frames[min(cur.frames.position, len(cur.playback.frames) - 1)].time
            print(
                f"{series.played} game(s) played; this one: recorded {len(snap.moves)} moves, the simulated game has "
                f"{len(cur.game.moves)}; {loop.stats.frames} frames in all ({shown:.0f} s of this game's play) in "
                f"{time.monotonic() - t0:.0f} s, reading {loop.stats.to_dict()['recognize_ms']:.0f} ms per frame"
            )
            runtime.close()
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
    from datafile import read_json
    from games.tribes.rules.errors import JournalError
    from games.tribes.rules.game import Game

    if setup:
        data = read_json(setup, "the setup", JournalError)
        if isinstance(data, dict) and data.get("format") == "tribes-position":
            runtime.new_game(position=data)
            return
        game = Game.from_dict(data, setup, upto=moves, base=Path(setup).parent)
        runtime.new_game([(p["name"], p.get("colour", "grey")) for p in game.settings["players"]])
        for m in game.moves:
            runtime.submit(m)
        return
    runtime.new_game(_players(players or ""))


def cmd_replay(args: argparse.Namespace) -> int:
    """Read a recorded game into a journal."""
    from games.tribes.rules.errors import JournalError, PositionError
    from session.runtime import GameRuntime
    from tracker.tracker import StatusKind

    video = Path(args.video)
    if not video.exists():
        return _fail("replay", f"{video}: no such file or folder")
    if bool(args.setup) == bool(args.players):
        return _fail("replay", "name the players: --setup FILE or --players 'Ada:red,Bo:blue'")
    if args.fps is not None and not 0 < args.fps <= 240:
        return _fail("replay", "--fps must be between 0 and 240")
    try:
        seats = _seat_list(args.seats)
    except CameraStartError as exc:
        return _fail("replay", str(exc))
    with tempfile.TemporaryDirectory(prefix="tribes-replay-") as tmp:
        runtime = GameRuntime(tmp, fsync=False, resume=False)
        try:
            _start_game(runtime, args.setup, args.moves, args.players)
            read = _replay_truth(video, runtime, seats, args) if args.truth else _replay(video, runtime, seats, args)
        except ReplayError as exc:
            runtime.close()
            return _fail("replay", str(exc))
        except (JournalError, PositionError, ValueError) as exc:
            runtime.close()
            return _fail("replay", _one_line(exc))
        journal = runtime.export()
        runtime.close()
    status, label = read
    try:
        Path(args.output).write_text(json.dumps(journal, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        return _fail("replay", f"{args.output}: cannot write: {exc.strerror or exc}")
    print(f"{args.output}: {len(journal['moves'])} moves (observations: {label})")
    if status.kind in (StatusKind.PROMPT, StatusKind.DESYNC, StatusKind.WAITING, StatusKind.CHANGING):
        print(f"note: at the end the tracker was '{status.kind}': {status.message}", file=sys.stderr)
    return 0


def _page_demo(args: argparse.Namespace, plugin: Any) -> int:
    """The demo of a game without a synthetic table: simulated players enter their moves on the page
    (``serve --demo``), one input every second divided by ``--speed``."""
    from session.runtime import GameRuntime
    from webui.app import create_app
    from webui.demo import DemoPlayer
    from webui.server import LiveServer

    tmp = tempfile.TemporaryDirectory(prefix=f"{plugin.info.id}-demo-")
    runtime = GameRuntime(tmp.name, fsync=False, game=plugin)
    try:
        demo = DemoPlayer(runtime, players=args.players, pace=1.0 / args.speed, seed=args.seed, policy=args.policy)
    except ValueError as exc:
        tmp.cleanup()
        return _fail("demo", str(exc))
    app = create_app(runtime, {"SSE_HEARTBEAT": 15.0})
    try:
        server = LiveServer(app, args.host, args.port)
    except OSError as exc:
        tmp.cleanup()
        return _fail("demo", f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    server.start()
    demo.start()
    print(f"demo: {args.players} simulated players play {plugin.info.title}, {args.speed:g} input(s) a second")
    print(f"open {server.url}/  (Ctrl+C to stop)", flush=True)
    if not args.no_browser and _has_display():
        webbrowser.open(f"{server.url}/")
    t0 = time.monotonic()
    try:
        while args.seconds <= 0 or time.monotonic() - t0 < args.seconds:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        with stops_held():  # a second Ctrl+C does not break off the cleanup
            demo.stop()
            app.extensions["companion"]["hub"].close()
            server.stop()
            runtime.close()
            print(f"played {demo.moves_played} moves in {demo.games_started} game(s)")
            tmp.cleanup()
    return 0


class ReplayError(Exception):
    """A replay that cannot be made: one line for the user."""


_CAP_PROP_FPS = 5  # cv2.CAP_PROP_FPS (OpenCV stays inside vision)
_CAP_PROP_FRAME_COUNT = 7  # cv2.CAP_PROP_FRAME_COUNT


def _video_frames(video: Path) -> tuple[Iterator[Any], int, float | None]:
    """The frames of a video file or folder of images: (iterator, frame count or 0, frame rate or None)."""
    from vision.errors import VisionError
    from vision.sources import open_source

    try:
        src = open_source(str(video))
        src.open()
    except VisionError as exc:
        raise ReplayError(_one_line(exc)) from None
    cap = getattr(src, "cap", None)
    files = getattr(src, "files", None)
    count = len(files) if files is not None else int(cap.get(_CAP_PROP_FRAME_COUNT) or 0) if cap is not None else 0
    fps = float(cap.get(_CAP_PROP_FPS) or 0.0) if cap is not None else 0.0

    def frames() -> Iterator[Any]:
        try:
            while (img := src.read()) is not None:
                yield img
        finally:
            src.close()

    return frames(), count, (fps if 0 < fps <= 240 else None)


def _replay(video: Path, runtime: Any, seats: list[int] | None, args: argparse.Namespace) -> tuple[Any, str]:
    """Read every picture of the video with the camera pipeline (enrolled from ``--enrollment`` or
    from the first still frame and the starting position) into ``runtime``."""
    from tracker.link import TrackerLink
    from vision.errors import VisionError
    from vision.motion import MotionGate

    camera = _camera(getattr(runtime, "game", None))
    frames, count, video_fps = _video_frames(video)
    fps = args.fps or video_fps or 10.0
    if args.enrollment:
        try:
            rec = camera_recognizer(camera.open_recognizer(args.enrollment, stream=True, fps=fps))
        except (VisionError, OSError) as exc:
            raise ReplayError(f"--enrollment {args.enrollment}: {_one_line(exc)}") from None
        how = f"enrollment {args.enrollment}"
    else:
        state = runtime.snapshot().state
        if camera.setup_missing(state):
            raise ReplayError("to enroll from the video, --setup must hold the setup move (or give --enrollment FILE)")
        n_players = len(runtime.game.rules.seats(state))
        if seats is not None and len(seats) != n_players:
            raise ReplayError(f"--seats: {n_players} players need {n_players} seats, got {len(seats)}")
        gate = MotionGate(fps=fps)
        still = None
        for n, img in enumerate(frames):
            if gate.update(img[:, :, 1], n / fps).settled:
                still = (n, img)
                break
        if still is None:
            raise ReplayError(f"{video}: no still frame to enroll from (the table is never quiet)")
        try:
            pack = None
            if args.pack:
                from games.tribes.vision.artpack import load_pack

                pack = load_pack(args.pack, state.profile)
            enrollment, seated, profile = camera.enroll_from_frame(
                still[1], state, seats=seats, source=f"{video} frame {still[0]}", pack=pack
            )
            rec = camera_recognizer(camera.recognizer(enrollment, layout=seated, profile=profile, stream=True, fps=fps))
        except VisionError as exc:
            raise ReplayError(f"cannot enroll from {video} frame {still[0]}: {_one_line(exc)}") from None
        frames, count, _ = _video_frames(video)
        how = f"enrolled from frame {still[0]}"
    link = TrackerLink(runtime)
    progress = _Progress(count, args.quiet)
    n = 0
    for n, img in enumerate(frames, 1):
        link.feed(rec.read(img, frame_no=n - 1, time_s=(n - 1) / fps))
        progress.show(n, len(runtime.snapshot().moves))
    progress.total = max(progress.total, n, 1)
    progress.show(n, len(runtime.snapshot().moves), force=True)
    progress.done()
    return link.status, f"the camera pipeline, {how}"


def _replay_truth(video: Path, runtime: Any, seats: list[int] | None, args: argparse.Namespace) -> tuple[Any, str]:
    """Read the ground truth written next to a rendered video (``--truth``) into ``runtime``."""
    from games.tribes.sim.playback import load_video_truth, recorded_frames
    from tracker.link import TrackerLink
    from vision.errors import VisionError

    try:
        truth = load_video_truth(video)
    except VisionError as exc:
        raise ReplayError(str(exc)) from None
    if truth is None:
        raise ReplayError(f"{video}: --truth: no ground truth next to it (*.truth.json, written by 'render video')")
    link = TrackerLink(runtime, layout_seats=seats)
    total = len(truth.get("frames", []))
    progress = _Progress(total, args.quiet)
    for n, frame in enumerate(recorded_frames(video, truth, images=False)):
        link.feed(frame.observation)
        progress.show(n + 1, len(runtime.snapshot().moves))
    progress.show(total, len(runtime.snapshot().moves), force=True)
    progress.done()
    return link.status, "the video's ground truth"


# --- camera mode of serve ----------------------------------------------------------------------------
class CameraStartError(Exception):
    """``serve --camera`` cannot start: one line for the user."""


def start_camera(args: argparse.Namespace, runtime: Any, app: Any) -> Callable[[], None]:
    """Wire ``serve --camera SOURCE`` into ``app`` and start reading; returns a function that stops it.

    ``sim``: a simulated game on a rendered table (like the demo), read by the camera pipeline.
    Otherwise SOURCE is a webcam index, a video file, a folder of images or an http(s)/rtsp URL
    (:func:`vision.sources.open_source`), read through a capture thread that always hands out the
    newest frame and reconnects a camera that drops out (its state is reported, never a crash).
    ``--enrollment FILE`` (from ``table-companion enroll``) starts reading at once; without it camera
    mode waits in the "enrollment needed" state until the page asks for an enrollment
    (:class:`tracker.enroll_flow.EnrollFlow`, passed to :func:`webui.camera.attach` as ``enroll`` and
    ``enrollment_status``). Raises :class:`CameraStartError` for a bad source or enrollment file."""
    from tracker.enroll_flow import EnrollFlow
    from tracker.link import TrackerLink
    from tracker.loop import CameraLoop
    from webui.camera import FrameHub, attach

    seats = _seat_list(getattr(args, "seats", None))
    frames_hub = FrameHub()
    stoppers: list[Callable[[], None]] = []
    if args.camera == "sim":
        if getattr(args, "enrollment", None):
            raise CameraStartError("--enrollment: the simulated table ('sim') enrolls from its rendered setup")
        session = sim_session(runtime.data_dir, runtime=runtime)
        link = session.link
        source: Any = session.frames
        recognize, annotate = session.recognize, session.annotate
        pace = 1.0 / session.playback.fps
        label = session.source
        flow = EnrollFlow(runtime, runtime.data_dir, lambda rec: None)
        flow.adopt(session.recognizer.enrollment, None, session.game.states[0].profile)
        stats: Callable[[], dict[str, Any]] | None = None
    else:
        camera = LiveCamera(args.camera, runtime, seats, getattr(args, "enrollment", None))
        stoppers.append(camera.stop)
        link = TrackerLink(runtime)
        source, recognize, annotate = camera.packets(), camera.recognize, camera.annotate
        pace = 0.0
        label = camera.label
        flow = camera.flow
        stats = camera.stats
    loop = CameraLoop(
        source, recognize, link, annotate=annotate, publish=frames_hub.publish, pace=pace, housekeeping=trim
    )
    if args.camera == "sim":  # a demo too: the page sets its speed
        from webui.demo import register as register_demo

        fps = session.playback.fps

        def on_speed(speed: float) -> None:
            loop.pace = 1.0 / (fps * speed)

        session.frames.on_speed = on_speed
        register_demo(runtime, session.frames)

    def camera_stats() -> dict[str, Any]:
        out = loop.stats.to_dict()
        if stats is not None:
            out.update(stats())
        return out

    feed = attach(
        app,
        link,
        frames_hub,
        camera_stats=camera_stats,
        source=label,
        enroll=flow.enroll,
        enrollment_status=flow.status,
    )
    loop.start()
    print(f"camera: {args.camera} — observations: {label}", flush=True)
    st = flow.status()
    if st["state"] != "enrolled":
        print(f"camera: {st['message']}", flush=True)

    def stop() -> None:
        loop.stop()
        for f in stoppers:
            f()
        frames_hub.close()
        feed.close()

    return stop


def _seat_list(text: str | None) -> list[int] | None:
    if not text:
        return None
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise CameraStartError(f"--seats: {text!r} is not a list of seat numbers") from None


class LiveCamera:
    """A real camera (or a video, a folder of images, a stream URL) read by the camera pipeline for
    ``serve --camera``: the capture thread, the recognizer once enrolled, the enrollment flow and the
    annotated picture. Raises :class:`CameraStartError` for a source that cannot be used."""

    def __init__(self, spec: str, runtime: Any, seats: list[int] | None, enrollment: str | None) -> None:
        from tracker.enroll_flow import EnrollFlow
        from vision.errors import VisionError
        from vision.sources import Capture, open_source

        try:
            src = open_source(spec)
        except VisionError as exc:
            raise CameraStartError(f"--camera {spec}: {_one_line(exc)}") from None
        if not src.live:  # a file or folder must open now; a camera may come later (it reconnects)
            try:
                src.open()
            except VisionError as exc:
                raise CameraStartError(f"--camera {spec}: {_one_line(exc)}") from None
            finally:
                src.close()
        self.spec = spec
        self.recognizer: Any = None
        self.game = getattr(runtime, "game", None)
        self.camera = _camera(self.game)
        self.flow = EnrollFlow(runtime, runtime.data_dir, self._use, seats=seats)
        if enrollment:
            try:
                rec = self.camera.open_recognizer(enrollment, stream=True)
            except (VisionError, OSError) as exc:
                raise CameraStartError(f"--enrollment {enrollment}: {_one_line(exc)}") from None
            self.flow.adopt(rec.enrollment, enrollment, rec.profile)
            self._use(rec)
        self.events: list[str] = []
        self._stopped = False
        self.capture = Capture(src, pace=None if src.live else 10.0, on_state=self._state)
        self.capture.start()
        self.label = f"the camera pipeline (vision.recognizer) reading {src.name}"

    def _use(self, recognizer: Any) -> None:
        self.recognizer = camera_recognizer(recognizer)

    def _state(self, state: str, detail: str) -> None:
        line = f"camera {self.spec}: {state}" + (f" ({detail})" if detail else "")
        self.events.append(line)
        del self.events[:-20]
        if state in ("reconnecting", "ended") or detail:
            print(line, file=sys.stderr, flush=True)

    def packets(self) -> Iterator[Any]:
        """The newest frames as they come; ends when a finite source has ended."""
        cap = self.capture
        while True:
            pkt = cap.latest(timeout=0.5)
            if pkt is None:
                if cap.state == "ended" or self._stopped:
                    return
                continue
            yield pkt

    def recognize(self, pkt: Any) -> Any:
        """The observation of one frame: unregistered and unsettled until enrolled."""
        self.flow.look(pkt.image, pkt.time)
        rec = self.recognizer
        if rec is None:
            return self.camera.empty_observation(pkt.seq, pkt.time)
        return rec.read(pkt.image, frame_no=pkt.seq, time_s=pkt.time)

    def annotate(self, pkt: Any, obs: Any, status: dict[str, Any]) -> bytes:
        """The camera picture with what was read and the tracker's state (or the enrollment's)."""
        if self.recognizer is None:
            st = self.flow.status()
            status = {**status, "kind": "no_table", "message": st["message"]}
        return self.camera.picture(pkt.image, obs, status, 960, self.recognizer)

    def stats(self) -> dict[str, Any]:
        """The capture's state for the page."""
        c = self.capture
        return {
            "source": self.spec,
            "source_state": c.state,
            "source_error": c.stats.last_error,
            "reconnects": c.stats.reconnects,
            "enrollment": self.flow.status()["state"],
        }

    def stop(self) -> None:
        """Stop the capture thread."""
        self._stopped = True
        self.capture.stop()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())
