"""A simulated game played on a rendered table, frame by frame, with the mishaps of real play.

:func:`timeline` turns a game journal into the frames a camera above the table would see while
people play it (the video plan of :mod:`vision.video`: hands carrying out each move step by step),
and can add what real players do (:class:`Script`):

- **pauses**: the hand leaves the table for a moment in the middle of a move (members put down one
  by one) and comes back;
- **merges**: no quiet moment between two moves (the next player is already reaching in);
- **knocks**: a member knocked onto the neighbouring tile, left there a few seconds, put back;
- **takebacks**: a player makes another move, takes it back, then makes the real one;
- **occlusions**: a player's land hidden (a cup, an arm resting) for several seconds.

Each :class:`PlaybackFrame` knows what lies on the table (a :class:`~vision.table.TableModel`), the
hands, whether it is settled, which regions are hidden, and how many of the game's moves are
physically complete (``done``) — the ground truth an evaluation compares a tracker with.
:class:`TableCamera` makes the observation of a frame: the perfect reading of the renderer's ground
truth (:func:`vision.observation.observation_from_truth`, cached per table) or a rendered image for a
real recognizer.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datafile import read_json
from games.tribes.rules.engine import apply
from games.tribes.rules.game import Game
from games.tribes.rules.legal import legal_moves
from games.tribes.rules.moves import Move, Movement, Offspring, Setup
from games.tribes.rules.pending import PendingKind
from games.tribes.sim.render import Renderer
from games.tribes.sim.video import FramePlan, Pace, plan_video
from games.tribes.vision.layout import Layout
from games.tribes.vision.observation import Observation, observation_from_truth
from games.tribes.vision.table import TableModel
from sim.camera import Camera
from sim.effects import Effects
from sim.hands import Hand
from sim.lighting import Light
from vision.errors import VisionError, VisionFileError


@dataclass
class Script:
    """Mishaps to add to a game's video plan (see the module docstring); probabilities per move,
    counts per game, durations in seconds."""

    pause: float = 0.0
    pause_s: tuple[float, float] = (0.3, 1.2)
    merge: float = 0.0
    merge_in_turn: float = 0.0
    knocks: int = 0
    knock_s: tuple[float, float] = (3.5, 6.0)
    takebacks: int = 0
    occlusions: int = 0
    occlusion_s: tuple[float, float] = (4.0, 12.0)
    seed: int = 0


@dataclass
class PlaybackFrame:
    """One frame: ``model`` on the table, ``hands`` over it, ``settled`` (no hand), ``hidden``
    regions, ``move`` (index of the game move under way or just finished), ``done`` (game moves
    physically complete), ``tag`` (the mishap under way: pause, merge, knock, takeback, occlusion)."""

    index: int
    time: float
    model: TableModel
    hands: list[Hand]
    settled: bool
    move: int
    done: int
    hidden: tuple[str, ...] = ()
    tag: str = ""
    extra: tuple[Move, ...] = ()  # a move shown on the table that the game does not keep (takebacks)

    def shows(self, game: Game) -> list[Move]:
        """The moves the table shows as complete: the game's first ``done`` moves (and ``extra``)."""
        return [*game.moves[: self.done], *self.extra]


@dataclass
class Playback:
    """The frames of a game and what was scripted (``events``: (frame, tag, detail))."""

    game: Game
    frames: list[PlaybackFrame]
    fps: float
    events: list[tuple[int, str, str]] = field(default_factory=list)


def _clean(model: TableModel) -> bool:
    """True when nothing is half-moved (a lifted tile or marker, a sliding row): a pause may show it."""
    if model.extra:
        return False
    if any(t < 0 for s in model.seats for t in s.tracks):
        return False
    return all(abs(r.place - (i + 1)) < 1e-6 for i, r in enumerate(model.row))


def timeline(
    game: Game,
    layout: Layout,
    colours: dict[str, tuple[int, int, int]],
    script: Script | None = None,
    pace: Pace | None = None,
    start: int | None = None,
    end: int | None = None,
) -> Playback:
    """The frames of moves ``start``..``end`` of ``game`` (default: all after the setup) with the
    mishaps of ``script``. The frames before the first move show the table at ``start``."""
    script = script or Script()
    pace = pace or Pace()
    rng = random.Random(script.seed)
    if start is None:
        start = 1 if game.moves and isinstance(game.moves[0], Setup) else 0
    end = len(game.moves) if end is None else end
    plan = plan_video(game, layout, colours, pace, start, end, seed=script.seed)
    rest_n = max(1, round(pace.rest * pace.fps))
    out: list[PlaybackFrame] = []
    events: list[tuple[int, str, str]] = []

    def emit(
        fp: FramePlan,
        done: int,
        tag: str = "",
        settled: bool | None = None,
        hands: Any = None,
        extra: tuple[Move, ...] = (),
    ) -> None:
        hs = fp.hands if hands is None else hands
        st = (not hs) if settled is None else settled
        out.append(PlaybackFrame(len(out), len(out) / pace.fps, fp.model, list(hs), st, fp.move, done, (), tag, extra))

    first_f0 = plan.moves[0][2] if plan.moves else len(plan.frames)
    for fp in plan.frames[:first_f0]:
        emit(fp, start)
    knock_at = set(rng.sample(range(len(plan.moves)), min(script.knocks, len(plan.moves))))
    takeback_at = _takeback_moves(game, plan.moves, script.takebacks, rng)
    last_hand: list[Hand] = []
    merged_turns = False
    for k, (i, _text, f0, f1) in enumerate(plan.moves):
        frames = plan.frames[f0:f1]
        steps = [fp for fp in frames if not fp.settled]
        rest = [fp for fp in frames if fp.settled]
        if i in takeback_at:
            _takeback(game, i, takeback_at[i], layout, colours, pace, script.seed, out, events, emit)
        # the move's steps, maybe with a pause in the middle
        pause_at = -1
        if script.pause and rng.random() < script.pause:
            spots = [
                j for j in range(1, len(steps)) if steps[j].model is not steps[j - 1].model and _clean(steps[j].model)
            ]
            spots = [j for j in spots if j < len(steps) - 2]
            if spots:
                pause_at = rng.choice(spots)
        for j, fp in enumerate(steps):
            if j == pause_at:
                n = max(1, round(rng.uniform(*script.pause_s) * pace.fps))
                events.append((len(out), "pause", f"move {i} ({game.moves[i]})"))
                for _ in range(n):
                    emit(fp, i, "pause", settled=True, hands=[])
            emit(fp, i)
        if steps:
            last_hand = steps[-1].hands or last_hand
        # the rest after it, unless the next move follows at once
        nxt = plan.moves[k + 1][0] if k + 1 < len(plan.moves) else None
        same_turn = nxt is not None and game.states[nxt].turn == game.states[i].turn
        p_merge = script.merge_in_turn if same_turn else script.merge
        if not same_turn and merged_turns:
            p_merge = 0.0  # the hands of three players never follow each other without a pause
        if nxt is not None and p_merge and rng.random() < p_merge and last_hand:
            merged_turns = merged_turns or not same_turn
            events.append((len(out), "merge", f"moves {i} and {nxt}"))
            for fp in rest:
                emit(fp, i + 1, "merge", settled=False, hands=last_hand)
        else:
            merged_turns = False
            for fp in rest:
                emit(fp, i + 1)
        if k in knock_at and rest and nxt is not None:
            _knock(rest[-1], i + 1, layout, rng, script, pace, out, events, emit, rest_n)
    if out:  # the table stays in view for a while after the last move
        last = out[-1]
        for _ in range(round(2.0 * pace.fps)):
            emit(FramePlan(last.model, [], last.move, True), last.done)
    for _ in range(script.occlusions):
        _occlude(out, rng, script, pace, events)
    return Playback(game, out, pace.fps, events)


def _takeback_moves(
    game: Game, moves: list[tuple[int, str, int, int]], count: int, rng: random.Random
) -> dict[int, Move]:
    """Moves before which a player first makes another move and takes it back: ``{index: other}``."""
    if not count:
        return {}
    options = []
    for i, _t, _a, _b in moves[:-1]:
        move = game.moves[i]
        state = game.states[i]
        if state.pending.kind != PendingKind.CHOOSE or not isinstance(move, Offspring | Movement):
            continue
        options.append(i)
    rng.shuffle(options)
    out: dict[int, Move] = {}
    for i in options:
        if len(out) >= count:
            break
        state = game.states[i]
        alts = [
            m
            for m in legal_moves(state)
            if isinstance(m, Offspring | Movement)
            and m != game.moves[i]
            and apply(state, m).pending.kind == PendingKind.CHOOSE
        ]
        alts = [m for m in alts if getattr(m, "place", ()) or getattr(m, "delta", ())]
        if alts:
            out[i] = rng.choice(alts)
    return out


def _takeback(
    game: Game,
    i: int,
    other: Move,
    layout: Layout,
    colours: dict[str, tuple[int, int, int]],
    pace: Pace,
    seed: int,
    out: list[PlaybackFrame],
    events: list[tuple[int, str, str]],
    emit: Callable[..., None],
) -> None:
    """Move ``other`` carried out and rested on, then taken back under the hand, before move ``i``."""
    state = game.states[i]
    alt = Game(dict(game.settings), [state, apply(state, other)], [other])
    plan = plan_video(alt, layout, colours, pace, 0, 1, seed=seed)
    _, _, f0, f1 = plan.moves[0]
    events.append((len(out), "takeback", f"{other} instead of move {i} ({game.moves[i]})"))
    hand: list[Hand] = []
    for fp in plan.frames[f0:f1]:
        emit(fp, i, "takeback", extra=(other,) if fp.settled else ())
        hand = fp.hands or hand
    back = TableModel.from_state(state)
    n = max(2, round(1.5 * pace.fps))
    for j in range(n):
        model = plan.frames[f1 - 1].model if j < n // 2 else back
        emit(FramePlan(model, hand, i, False), i, "takeback", settled=False, hands=hand)
    for _ in range(max(1, round(1.0 * pace.fps))):
        emit(FramePlan(back, [], i, True), i, "takeback")


def _knock(
    fp: FramePlan,
    done: int,
    layout: Layout,
    rng: random.Random,
    script: Script,
    pace: Pace,
    out: list[PlaybackFrame],
    events: list[tuple[int, str, str]],
    emit: Callable[..., None],
    rest_n: int,
) -> None:
    """A member knocked onto a neighbouring tile, lying there a while, then put back by a hand."""
    model = fp.model
    spots = []
    for s, seat in enumerate(model.seats):
        for h, t in seat.land.items():
            if t.members:
                for d in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
                    n = (h[0] + d[0], h[1] + d[1])
                    if n in seat.land:
                        spots.append((s, h, n))
    if not spots:
        return
    s, a, b = rng.choice(sorted(spots))
    knocked = model.copy()
    knocked.seats[s].land[a].members -= 1
    knocked.seats[s].land[b].members += 1
    events.append((len(out), "knock", f"seat {s}: a member from {a} to {b}"))
    for _ in range(max(1, round(rng.uniform(*script.knock_s) * pace.fps))):
        emit(FramePlan(knocked, [], fp.move, True), done, "knock")
    hand = [Hand(s, layout.hex_center(s, a), 40.0)]
    hand_frames = max(2, round(0.8 * pace.fps))
    for j in range(hand_frames):
        emit(FramePlan(knocked if j < hand_frames // 2 else model, hand, fp.move, False), done, "knock", False, hand)
    for _ in range(rest_n):
        emit(FramePlan(model, [], fp.move, True), done, "knock")


def _occlude(
    out: list[PlaybackFrame], rng: random.Random, script: Script, pace: Pace, events: list[tuple[int, str, str]]
) -> None:
    """Hide one seat's land for a while, somewhere in the game."""
    if not out:
        return
    n = max(1, round(rng.uniform(*script.occlusion_s) * pace.fps))
    a = rng.randrange(0, max(1, len(out) - n))
    seat = rng.randrange(len(out[0].model.seats))
    region = f"land:{seat}"
    events.append((a, "occlusion", f"{region} for {n / pace.fps:.1f} s"))
    for f in out[a : a + n]:
        f.hidden = tuple(sorted({*f.hidden, region}))
        f.tag = f.tag or "occlusion"


@dataclass
class SimFrame:
    """A frame of a simulated camera: the playback frame, its picture, the observation a reader of
    the ground truth makes of it, and the ground truth (pixel positions of hexes and slots)."""

    frame: PlaybackFrame
    image: np.ndarray | None
    observation: Observation
    truth: dict[str, Any]


class TableCamera:
    """Observations (and images) of playback frames through one camera."""

    def __init__(
        self,
        renderer: Renderer,
        camera: Camera,
        light: Light | None = None,
        effects: Effects | None = None,
        cache: int = 4096,
    ) -> None:
        self.renderer = renderer
        self.camera = camera
        self.light = light or Light()
        self.effects = effects or Effects()
        self._cache: dict[Hashable, tuple[Observation, dict[str, Any]]] = {}
        self._cache_size = cache

    def truth(self, frame: PlaybackFrame) -> dict[str, Any]:
        """The ground truth of the table the frame shows (without the hands), cached per table."""
        return self._read(frame)[1]

    def _read(self, frame: PlaybackFrame) -> tuple[Observation, dict[str, Any]]:
        sig = frame.model.signature()
        hit = self._cache.get(sig)
        if hit is None:
            truth = self.renderer.truth_of(frame.model, self.camera, self.light, self.effects)
            hit = (observation_from_truth(truth), truth)
            if len(self._cache) >= self._cache_size:
                self._cache.clear()
            self._cache[sig] = hit
        return hit

    def observe(self, frame: PlaybackFrame) -> Observation:
        """The perfect reading of the frame (settled frames only carry readings)."""
        if not frame.settled:
            return Observation(frame=frame.index, time=frame.time, settled=False, hand_in_view=bool(frame.hands))
        base = self._read(frame)[0]
        obs = replace(base, frame=frame.index, time=frame.time)
        if frame.hidden:
            seats = {int(r.split(":")[1]) for r in frame.hidden if r.startswith("land:")}
            obs = replace(
                obs,
                hexes=tuple(h for h in obs.hexes if h.seat not in seats),
                hidden=tuple(sorted({*obs.hidden, *frame.hidden})),
            )
        return obs

    def image(self, frame: PlaybackFrame) -> np.ndarray:
        """The rendered picture of the frame (BGR)."""
        return self.renderer.render(
            frame.model, self.camera, self.light, self.effects, frame.hands, frame_seed=frame.index, truth=False
        ).image

    def frames(
        self,
        playback: Playback,
        degrade: Callable[[Observation, Hashable], Observation] | None = None,
        render: bool = True,
    ) -> Iterator[SimFrame]:
        """The playback as camera frames: each with its picture (``render``), the perfect reading
        (degraded by ``degrade(observation, scene)``, e.g. a noise model) and the ground truth."""
        for f in playback.frames:
            obs = self.observe(f)
            if degrade is not None:
                obs = degrade(obs, self.scene(f))
            yield SimFrame(f, self.image(f) if render else None, obs, self.truth(f))

    @staticmethod
    def scene(frame: PlaybackFrame) -> Hashable:
        """What identifies the table a frame shows (for persistent misreadings), the same in every
        process (unlike ``hash`` of text)."""
        return zlib.crc32(repr(frame.model.signature()).encode("utf-8"))


def recorded_frames(video: str | Path, truth: Mapping[str, Any], images: bool = True) -> Iterator[SimFrame]:
    """The frames of a video written by ``render video`` (a file or a folder of frames) with the
    perfect reading of its ground truth (``truth``: the ``tribes-video-truth`` document): for
    replaying a recorded game and for camera mode before a recognizer reads the pictures."""
    path = Path(video)
    fps = float(truth.get("fps", 10.0))
    tables = truth.get("tables", [])
    frames = truth.get("frames", [])
    cache: dict[int, Observation] = {}
    capture = None
    files: list[Path] = []
    if images:
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.name.startswith("frame_"))
        else:
            capture = cv2.VideoCapture(str(path))
            if not capture.isOpened():
                raise VisionError(f"{path}: cannot open the video")
    try:
        for n, fr in enumerate(frames):
            image = None
            if capture is not None:
                ok, image = capture.read()
                if not ok:
                    image = None
            elif files and n < len(files):
                image = cv2.imread(str(files[n]))
            t = n / fps
            pf = PlaybackFrame(n, t, None, [], bool(fr.get("settled")), int(fr.get("move", 0)), 0)  # type: ignore[arg-type]
            if not fr.get("settled"):
                obs = Observation(frame=n, time=t, settled=False, hand_in_view=bool(fr.get("hands")))
                yield SimFrame(pf, image, obs, {})
                continue
            k = int(fr["table"])
            if k not in cache:
                cache[k] = observation_from_truth(tables[k])
            yield SimFrame(pf, image, replace(cache[k], frame=n, time=t), tables[k])
    finally:
        if capture is not None:
            capture.release()


def load_video_truth(video: str | Path) -> dict[str, Any] | None:
    """The ground truth written next to a rendered video (``*.truth.json``, or ``truth.json`` in a
    folder of frames); None when there is none. Raises VisionError for an unreadable one."""
    path = Path(video)
    truth_path = path / "truth.json" if path.is_dir() else path.with_suffix(".truth.json")
    if not truth_path.exists():
        return None
    doc = read_json(truth_path, "the ground truth", VisionFileError)
    if not isinstance(doc, dict) or doc.get("format") != "tribes-video-truth":
        raise VisionError(f"{truth_path}: format: must be 'tribes-video-truth'")
    return doc
