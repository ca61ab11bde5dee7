"""Video of whole games: every move of a game journal carried out on the table by a hand.

For each move the table before and after (:class:`~vision.table.TableModel` of the rules states) is
compared and turned into physical steps, in the order a player would do them: pay shells onto the
skipped row tiles, pick up the shells lying on the chosen tile, move the chosen tile to the end of
the row (the tiles behind it slide forward), draw tiles from the bag and lay them, put members down
one by one (or move them), flip tiles, put stones on achievements, turn up revealed tiles, lay
arrow tokens, slide track markers, take and give shells, reveal events into the row and discard
taken ones. Each step is a hand entering from the player's edge, grasping, carrying and releasing;
the table model changes at the grasp and at the release, so every frame's ground truth is exact.
After the last step of a move the hand leaves and the table rests for a moment.

:func:`plan_video` builds the timeline (cheap); :func:`render_video` renders it to a video file or a
folder of frames and writes the ground truth: a deduplicated list of table truths, and per frame
which table it shows, the move it belongs to, whether it is settled, and the hands; plus the frame
ranges with a hand in view. The plan checks itself: after the steps of each move the table equals
the next rules state (any difference is reported as a ``jump``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from games.tribes.rules.game import Game
from games.tribes.rules.moves import Move, Setup, TakeEvent
from games.tribes.sim.render import Renderer
from games.tribes.sim.scene import drawn_position
from games.tribes.vision.layout import Layout
from games.tribes.vision.table import BoardItem, LandTile, RowItem, TableModel
from sim.camera import Camera
from sim.effects import Effects
from sim.hands import Hand
from sim.lighting import Light
from vision.errors import VisionError
from vision.layout import Point, add, rotate

VIDEO_TRUTH_FORMAT = "tribes-video-truth"
VIDEO_SUFFIXES = {".mp4": "mp4v", ".avi": "MJPG", ".mkv": "mp4v"}

Mutation = Callable[[TableModel], None]


@dataclass
class Step:
    """One physical action: a seat's hand takes something at ``src`` and puts it at ``dst``."""

    seat: int
    src: Point
    dst: Point
    holding: str | None
    colour: tuple[int, int, int] | None
    grasp: Mutation
    release: Mutation
    slide: Callable[[TableModel, float], None] | None = None  # called with progress 0..1 while carrying
    what: str = ""


@dataclass
class Pace:
    """Timing of the animation (seconds) and hand speed (mm/s)."""

    fps: float = 10.0
    speed: float = 650.0
    grasp: float = 0.2
    enter: float = 0.7
    leave: float = 0.6
    rest: float = 0.5
    hover: float = 110.0  # mm above the table while travelling
    low: float = 35.0  # mm above the table when grasping


@dataclass
class FramePlan:
    """What one frame shows."""

    model: TableModel
    hands: list[Hand]
    move: int  # index of the move being carried out (or just finished, when settled)
    settled: bool


@dataclass
class VideoPlan:
    """The whole timeline."""

    frames: list[FramePlan]
    moves: list[tuple[int, str, int, int]]  # (index, notation, first frame, end frame)
    jumps: list[int] = field(default_factory=list)  # moves whose steps did not reach the next state


# --- from two tables to steps -----------------------------------------------------------------------
class _Planner:
    def __init__(self, layout: Layout, colours: dict[str, tuple[int, int, int]]) -> None:
        self.layout = layout
        self.colours = colours

    def rest_point(self, seat: int) -> Point:
        s = self.layout.seats[seat % len(self.layout.seats)]
        return add(s.area_center, rotate((140.0, s.area_size[1] / 2 + 500.0), s.rotation))

    def steps(self, a: TableModel, b: TableModel, move: Move, actor: int) -> list[Step]:
        """Steps turning table ``a`` into ``b`` for ``move`` by seat ``actor`` (works on copies)."""
        lay = self.layout
        w = a.copy()
        out: list[Step] = []

        def colour(seat: int) -> tuple[int, int, int]:
            return self.colours[w.seats[seat].colour]

        # 1. the row: pay, pick up the shells on the chosen tile, move the tile
        slot = getattr(move, "slot", None)
        if move.takes_slot and slot is not None and slot <= len(w.row):
            for j in range(1, slot):
                out.append(
                    Step(
                        actor,
                        lay.seats[actor].shells_center,
                        lay.row_slot(j),
                        "shell",
                        None,
                        _dec_shells(actor),
                        _add_row_shell(j - 1),
                        what=f"pay a shell onto slot {j}",
                    )
                )
            taken = w.row[slot - 1]
            if taken.shells:
                n = taken.shells
                out.append(
                    Step(
                        actor,
                        lay.row_slot(slot),
                        lay.seats[actor].shells_center,
                        "shell",
                        None,
                        _clear_row_shells(slot - 1),
                        _inc_shells(actor, n),
                        what=f"take {n} shell(s) from slot {slot}",
                    )
                )
            is_event = isinstance(move, TakeEvent) or taken.event
            face = f"{'event' if is_event else 'action'}-{taken.tile}"
            n_row = len(w.row)
            dst = lay.discard if is_event else lay.row_slot(n_row)
            out.append(
                Step(
                    actor,
                    lay.row_slot(slot),
                    dst,
                    f"tile:{face}",
                    None,
                    _lift_row_tile(slot - 1),
                    _drop_row_tile(taken.tile, is_event),
                    slide=_slide_row(slot - 1),
                    what=f"move {taken.tile} {'to the discard pile' if is_event else 'to the end of the row'}",
                )
            )
            for s in out:
                s.grasp(w)
                s.release(w)
        # 2. events revealed into the row (from the era's stack)
        for era in range(3):
            for _ in range(w.stacks[era] - b.stacks[era]):
                new = [r for r in b.row if r.event and r.tile not in {x.tile for x in w.row}]
                if not new:
                    break
                tile = new[0].tile
                # R-ACH-6: the event goes in front of the hand tile just taken, which lies at the end
                # of the row (R-TURN-1: it goes to the end only after the achievement)
                st = Step(
                    actor,
                    lay.event_stacks[era],
                    lay.row_slot(min(max(len(w.row), 1), len(lay.row_slots))),
                    f"tile:event-{tile}",
                    None,
                    _take_stack(era),
                    _append_event(tile),
                    what=f"reveal event {tile}",
                )
                st.grasp(w)
                st.release(w)
                out.append(st)
        # 3. land: tiles drawn from the bag, laid; flips; members
        order = [actor] + [s for s in range(len(w.seats)) if s != actor]
        for seat, drawn in b.drawn.items():
            have = list(w.drawn.get(seat, []))
            for res in drawn[len(have) :]:
                k = len(w.drawn.get(seat, []))
                dst = drawn_position(lay, seat, k, len(drawn))
                st = Step(
                    seat,
                    lay.bag,
                    dst,
                    f"tile:resource-{res}",
                    None,
                    _from_bag(),
                    _put_drawn(seat, res),
                    what=f"draw a {res} tile",
                )
                st.grasp(w)
                st.release(w)
                out.append(st)
        for seat in order:
            ws, bs = w.seats[seat], b.seats[seat]
            for h in sorted(set(bs.land) - set(ws.land)):
                res = bs.land[h].resource
                held = w.drawn.get(seat, [])
                if res in held:
                    src = drawn_position(lay, seat, held.index(res), len(held))
                    take = _take_drawn(seat, res)
                else:
                    src, take = lay.bag, _from_bag()
                st = Step(
                    seat,
                    src,
                    lay.hex_center(seat, h),
                    f"tile:resource-{res}",
                    None,
                    take,
                    _lay_tile(seat, h, res),
                    what=f"lay a {res} tile at {h}",
                )
                st.grasp(w)
                st.release(w)
                out.append(st)
            for h in sorted(bs.land):
                if h in ws.land and ws.land[h].exhausted != bs.land[h].exhausted:
                    face = "exhausted" if ws.land[h].exhausted else f"resource-{ws.land[h].resource}"
                    p = lay.hex_center(seat, h)
                    st = Step(
                        seat,
                        p,
                        p,
                        f"tile:{face}",
                        None,
                        _noop,
                        _flip(seat, h, bs.land[h].exhausted),
                        what=f"turn the tile at {h}",
                    )
                    st.grasp(w)
                    st.release(w)
                    out.append(st)
            out.extend(self._members(w, b, seat, colour(seat)))
        # 4. the board: stones, reveals, arrows
        for era in range(3):
            for col in range(4):
                wb, bb = w.board[era][col], b.board[era][col]
                for k in range(len(wb.stones), len(bb.stones)):
                    owner = bb.stones[k]
                    st = Step(
                        owner,
                        lay.seats[owner].supply_center,
                        lay.stone_slot(era + 1, col, k),
                        "stone",
                        colour(owner),
                        _take_stone(owner),
                        _put_stone(era, col, owner),
                        what=f"stone on {bb.tile}",
                    )
                    st.grasp(w)
                    st.release(w)
                    out.append(st)
                if wb.tile is None and bb.tile is not None:
                    p = lay.board_tile(era + 1, col)
                    st = Step(
                        actor,
                        p,
                        p,
                        f"tile:achievement-back-{era + 1}",
                        None,
                        _noop,
                        _reveal(era, col, bb.tile),
                        what=f"turn up {bb.tile}",
                    )
                    st.grasp(w)
                    st.release(w)
                    out.append(st)
        for arrow in b.arrows[len(w.arrows) :]:
            c, _ = lay.arrow_position(arrow.lower, arrow.upper)
            st = Step(
                arrow.owner,
                lay.seats[arrow.owner].supply_center,
                c,
                "arrow",
                colour(arrow.owner),
                _take_arrow(arrow.owner),
                _lay_arrow(arrow),
                what="lay the arrow token",
            )
            st.grasp(w)
            st.release(w)
            out.append(st)
        # 5. track markers
        for seat in order:
            for ti in range(4):
                x, y = w.seats[seat].tracks[ti], b.seats[seat].tracks[ti]
                if x != y:
                    name = ("offspring", "movement", "exploration", "strength")[ti]
                    n = w.track_spaces[ti]
                    st = Step(
                        seat,
                        lay.track_marker(name, x, n, seat),
                        lay.track_marker(name, y, n, seat),
                        "marker",
                        colour(seat),
                        _lift_marker(seat, ti),
                        _put_marker(seat, ti, y),
                        what=f"{name} marker",
                    )
                    st.grasp(w)
                    st.release(w)
                    out.append(st)
        # 6. shells still to move: gains and losses with the common supply
        for seat in order:
            d = b.seats[seat].shells - w.seats[seat].shells
            for _ in range(abs(d)):
                if d > 0:
                    st = Step(
                        seat,
                        lay.shell_supply,
                        lay.seats[seat].shells_center,
                        "shell",
                        None,
                        _supply_shell(-1),
                        _inc_shells(seat, 1),
                        what="take a shell",
                    )
                else:
                    st = Step(
                        seat,
                        lay.seats[seat].shells_center,
                        lay.shell_supply,
                        "shell",
                        None,
                        _dec_shells(seat),
                        _supply_shell(1),
                        what="give back a shell",
                    )
                st.grasp(w)
                st.release(w)
                out.append(st)
        return out

    def _members(self, w: TableModel, b: TableModel, seat: int, colour: tuple[int, int, int]) -> list[Step]:
        lay = self.layout
        ws, bs = w.seats[seat], b.seats[seat]
        sources: list[tuple[Any, Point]] = []
        sinks: list[tuple[Any, Point]] = []
        for h in sorted(set(ws.land) | set(bs.land)):
            before = ws.land[h].members if h in ws.land else 0
            after = bs.land[h].members if h in bs.land else 0
            p = lay.hex_center(seat, h)
            sources += [(h, p)] * max(before - after, 0)
            sinks += [(h, p)] * max(after - before, 0)
        sp = lay.seats[seat].supply_center
        sources += [("supply", sp)] * max(ws.supply - bs.supply, 0)
        sinks += [("supply", sp)] * max(bs.supply - ws.supply, 0)
        steps = []
        while sources and sinks:
            src = sources.pop(0)
            j = min(range(len(sinks)), key=lambda k: math.dist(src[1], sinks[k][1]))
            dst = sinks.pop(j)
            st = Step(
                seat,
                src[1],
                dst[1],
                "meeple",
                colour,
                _take_member(seat, src[0]),
                _put_member(seat, dst[0]),
                what=f"member {src[0]} -> {dst[0]}",
            )
            st.grasp(w)
            st.release(w)
            steps.append(st)
        return steps


def _noop(m: TableModel) -> None:
    return None


def _dec_shells(seat: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.seats[seat].shells -= 1

    return f


def _inc_shells(seat: int, n: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.seats[seat].shells += n

    return f


def _supply_shell(d: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.shell_supply += d

    return f


def _add_row_shell(i: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.row[i].shells += 1

    return f


def _clear_row_shells(i: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.row[i].shells = 0

    return f


def _lift_row_tile(i: int) -> Mutation:
    def f(m: TableModel) -> None:
        item = m.row.pop(i)
        m.extra["held_row"] = item

    return f


def _slide_row(i: int) -> Callable[[TableModel, float], None]:
    def f(m: TableModel, t: float) -> None:
        for k in range(i, len(m.row)):
            m.row[k].place = (k + 2) - t

    return f


def _drop_row_tile(tile: str, is_event: bool) -> Mutation:
    def f(m: TableModel) -> None:
        for k, item in enumerate(m.row):
            item.place = float(k + 1)
        held = m.extra.pop("held_row", None)
        if is_event:
            m.discard += 1
            m.discard_top = tile
        else:
            event = bool(getattr(held, "event", False))
            m.row.append(RowItem(tile, event, 0, float(len(m.row) + 1)))

    return f


def _take_stack(era: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.stacks[era] -= 1

    return f


def _append_event(tile: str) -> Mutation:
    """Lay a revealed event at the end of the row, in front of the hand tile taken this turn (which
    moves one place back): R-ACH-6 with R-TURN-1."""

    def f(m: TableModel) -> None:
        at = max(len(m.row) - 1, 0)
        m.row.insert(at, RowItem(tile, True, 0, float(at + 1)))
        for k, item in enumerate(m.row):
            item.place = float(k + 1)

    return f


def _from_bag() -> Mutation:
    def f(m: TableModel) -> None:
        m.bag -= 1

    return f


def _put_drawn(seat: int, res: str) -> Mutation:
    def f(m: TableModel) -> None:
        m.drawn.setdefault(seat, []).append(res)

    return f


def _take_drawn(seat: int, res: str) -> Mutation:
    def f(m: TableModel) -> None:
        m.drawn[seat].remove(res)
        if not m.drawn[seat]:
            del m.drawn[seat]

    return f


def _lay_tile(seat: int, h: tuple[int, int], res: str) -> Mutation:
    def f(m: TableModel) -> None:
        m.seats[seat].land[h] = LandTile(res, False, 0)

    return f


def _flip(seat: int, h: tuple[int, int], exhausted: bool) -> Mutation:
    def f(m: TableModel) -> None:
        m.seats[seat].land[h].exhausted = exhausted

    return f


def _take_member(seat: int, where: Any) -> Mutation:
    def f(m: TableModel) -> None:
        if where == "supply":
            m.seats[seat].supply -= 1
        else:
            m.seats[seat].land[where].members -= 1

    return f


def _put_member(seat: int, where: Any) -> Mutation:
    def f(m: TableModel) -> None:
        if where == "supply":
            m.seats[seat].supply += 1
        else:
            m.seats[seat].land[where].members += 1

    return f


def _take_stone(seat: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.seats[seat].stones -= 1

    return f


def _put_stone(era: int, col: int, seat: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.board[era][col].stones.append(seat)

    return f


def _reveal(era: int, col: int, tile: str) -> Mutation:
    def f(m: TableModel) -> None:
        m.board[era][col] = BoardItem(tile, m.board[era][col].stones)

    return f


def _take_arrow(seat: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.seats[seat].arrow = False

    return f


def _lay_arrow(arrow: Any) -> Mutation:
    def f(m: TableModel) -> None:
        m.arrows.append(arrow)

    return f


def _lift_marker(seat: int, ti: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.extra[f"marker{seat}.{ti}"] = m.seats[seat].tracks[ti]
        m.seats[seat].tracks[ti] = -1

    return f


def _put_marker(seat: int, ti: int, space: int) -> Mutation:
    def f(m: TableModel) -> None:
        m.extra.pop(f"marker{seat}.{ti}", None)
        m.seats[seat].tracks[ti] = space

    return f


# --- the timeline -------------------------------------------------------------------------------
class _Timeline:
    """Frames under construction; the table is copied only after it changes."""

    def __init__(self, pace: Pace, skin: int) -> None:
        self.pace = pace
        self.skin = skin
        self.frames: list[FramePlan] = []
        self.w: TableModel | None = None
        self._snap: TableModel | None = None

    def set(self, model: TableModel) -> None:
        self.w = model
        self._snap = None

    def mutate(self, fn: Callable[[TableModel], None]) -> None:
        assert self.w is not None
        fn(self.w)
        self._snap = None

    def snap(self) -> TableModel:
        if self._snap is None:
            assert self.w is not None
            self._snap = self.w.copy()
        return self._snap

    def rest(self, move: int) -> None:
        n = max(1, round(self.pace.rest * self.pace.fps))
        self.frames.extend(FramePlan(self.snap(), [], move, True) for _ in range(n))

    def frame(
        self, seat: int, p: Point, z: float, holding: str | None, colour: tuple[int, int, int] | None, move: int
    ) -> None:
        hand = Hand(seat, (float(p[0]), float(p[1])), float(z), holding, colour, skin=self.skin, sleeve=seat)
        self.frames.append(FramePlan(self.snap(), [hand], move, False))

    def travel(
        self,
        seat: int,
        a: Point,
        b: Point,
        holding: str | None,
        colour: tuple[int, int, int] | None,
        move: int,
        descend: bool = False,
        slide: Callable[[TableModel, float], None] | None = None,
    ) -> None:
        pace = self.pace
        dist = math.dist(a, b)
        n = max(1, round(max(dist / pace.speed, 0.25) * pace.fps))
        for j in range(1, n + 1):
            t = _ease(j / n)
            p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            arc = math.sin(math.pi * t) * 40.0 if dist > 60 else 0.0
            z = pace.hover + arc
            if descend:
                z = pace.hover + (pace.low - pace.hover) * t + arc * 0.5
            elif holding is not None:
                z = pace.low + (pace.hover - pace.low) * math.sin(math.pi * t) + arc * 0.5
            if slide is not None:
                self.mutate(lambda m, t=t: slide(m, t))
            self.frame(seat, p, z, holding, colour, move)

    def hold(self, seat: int, p: Point, move: int) -> None:
        for _ in range(max(1, round(self.pace.grasp * self.pace.fps))):
            self.frame(seat, p, self.pace.low, None, None, move)


def plan_video(
    game: Game,
    layout: Layout,
    colours: dict[str, tuple[int, int, int]],
    pace: Pace | None = None,
    start: int | None = None,
    end: int | None = None,
    seed: int = 0,
) -> VideoPlan:
    """The frames of moves ``start``..``end`` of ``game`` (default: all moves after the setup)."""
    pace = pace or Pace()
    if start is None:
        start = 1 if game.moves and isinstance(game.moves[0], Setup) else 0
    end = len(game.moves) if end is None else min(end, len(game.moves))
    if not 0 <= start <= end:
        raise VisionError(f"move range {start}..{end} is empty or outside the game's {len(game.moves)} moves")
    planner = _Planner(layout, colours)
    moves: list[tuple[int, str, int, int]] = []
    jumps: list[int] = []
    skin = int(np.random.default_rng(seed).integers(0, 5))
    tl = _Timeline(pace, skin)
    tl.set(TableModel.from_state(game.states[start]))
    tl.rest(start)
    for i in range(start, end):
        before, after = game.states[i], game.states[i + 1]
        move = game.moves[i]
        a = TableModel.from_state(before)
        b = TableModel.from_state(after)
        f0 = len(tl.frames)
        actor = before.to_move if move.takes_slot else before.actor
        steps = planner.steps(a, b, move, actor)
        tl.set(a.copy())
        hand_pos: Point | None = None
        hand_seat = -1
        for st in steps:
            if hand_pos is None or hand_seat != st.seat:
                if hand_pos is not None:  # the previous hand leaves
                    tl.travel(hand_seat, hand_pos, planner.rest_point(hand_seat), None, None, i)
                hand_pos, hand_seat = planner.rest_point(st.seat), st.seat
            tl.travel(st.seat, hand_pos, st.src, None, None, i, descend=True)
            tl.hold(st.seat, st.src, i)
            tl.mutate(st.grasp)
            tl.travel(st.seat, st.src, st.dst, st.holding, st.colour, i, slide=st.slide)
            tl.mutate(st.release)
            tl.hold(st.seat, st.dst, i)
            hand_pos = st.dst
        if hand_pos is not None:
            tl.travel(hand_seat, hand_pos, planner.rest_point(hand_seat), None, None, i)
        assert tl.w is not None
        if not tl.w.settled_equal(b):
            jumps.append(i)
            tl.set(b.copy())
        tl.rest(i)
        moves.append((i, str(move), f0, len(tl.frames)))
    return VideoPlan(tl.frames, moves, jumps)


def _ease(t: float) -> float:
    return t * t * (3 - 2 * t)


# --- rendering ------------------------------------------------------------------------------------
def render_video(
    game: Game,
    renderer: Renderer,
    camera: Camera,
    out: str | Path,
    light: Light | None = None,
    effects: Effects | None = None,
    pace: Pace | None = None,
    start: int | None = None,
    end: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    image_ext: str = ".jpg",
) -> dict[str, Any]:
    """Render moves ``start``..``end`` of ``game`` to ``out`` (a .mp4/.avi/.mkv file, or a folder of
    frames) and write the ground truth next to it; returns the truth document."""
    pace = pace or Pace()
    light = light or Light()
    effects = effects or Effects()
    colours = {s.colour: renderer.pack.colour(s.colour) for s in TableModel.from_state(game.state).seats}
    plan = plan_video(game, renderer.layout, colours, pace, start, end, renderer.seed)
    target = Path(out)
    writer = None
    if target.suffix.lower() in VIDEO_SUFFIXES:
        target.parent.mkdir(parents=True, exist_ok=True)
        fourcc = cv2.VideoWriter_fourcc(*VIDEO_SUFFIXES[target.suffix.lower()])
        writer = cv2.VideoWriter(str(target), fourcc, pace.fps, (camera.width, camera.height))
        if not writer.isOpened():
            raise VisionError(f"{target}: cannot write a video here (OpenCV has no encoder for {target.suffix})")
        truth_path = target.with_suffix(".truth.json")
    else:
        target.mkdir(parents=True, exist_ok=True)
        truth_path = target / "truth.json"
    tables: list[dict[str, Any]] = []
    table_index: dict[tuple[object, ...], int] = {}
    frame_info = []
    in_view = []
    try:
        for n, fp in enumerate(plan.frames):
            frame = renderer.render(fp.model, camera, light, effects, fp.hands, frame_seed=n, truth=False)
            sig = fp.model.signature()
            k = table_index.get(sig)
            if k is None:
                k = len(tables)
                table_index[sig] = k
                tables.append(_table_truth(renderer, fp.model, camera, light, effects))
            hands = [renderer.hand_truth(h, camera) for h in fp.hands]
            seen = any(h["in_view"] for h in hands)
            in_view.append(seen)
            frame_info.append({"table": k, "move": fp.move, "settled": fp.settled and not seen, "hands": hands})
            if writer is not None:
                writer.write(frame.image)
            else:
                cv2.imwrite(str(target / f"frame_{n:06d}{image_ext}"), frame.image)
            if progress:
                progress(n + 1, len(plan.frames))
    finally:
        if writer is not None:
            writer.release()
    doc = {
        "format": VIDEO_TRUTH_FORMAT,
        "version": 1,
        "fps": pace.fps,
        "frame_count": len(plan.frames),
        "camera": camera.to_dict(),
        "light": light.to_dict(),
        "effects": effects.to_dict(),
        "moves": [{"index": i, "move": text, "frames": [a, b]} for i, text, a, b in plan.moves],
        "hand_ranges": _ranges(in_view),
        "jumps": plan.jumps,
        "tables": tables,
        "frames": frame_info,
    }
    truth_path.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    return doc


def _table_truth(
    renderer: Renderer, model: TableModel, camera: Camera, light: Light, effects: Effects
) -> dict[str, Any]:
    doc = renderer.truth_of(model, camera, light, effects)
    for key in ("camera", "light", "effects", "hands", "hand_in_view", "frame_seed"):
        doc.pop(key, None)
    return doc


def _ranges(flags: list[bool]) -> list[list[int]]:
    """Half-open frame ranges ``[start, end)`` where ``flags`` is True."""
    out: list[list[int]] = []
    for i, f in enumerate(flags):
        if f and (not out or out[-1][1] != i):
            out.append([i, i + 1])
        elif f:
            out[-1][1] = i + 1
    return out
