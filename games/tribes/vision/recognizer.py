"""The recognizer: one camera frame in, one :class:`~vision.observation.Observation` out.

The facade over the pipeline's stages, one module each:

1. :mod:`vision.motion` — the motion gate (settled or not), when reading a stream;
2. :mod:`vision.registration` — the table plane from the ArUco markers (kept while the camera
   stays put, registered again when it is bumped);
3. :mod:`vision.colour` and :mod:`vision.light` — colour normalisation against the reference patch,
   checked against the bare table beside it, and the light field: how white balance and brightness
   changed over the table since enrollment, from reference points of bare table read every frame;
4. the readers in :mod:`vision.readers` — land (tiles, members), row (assignment of the known
   tiles, shells), board (achievements, stones), tracks and shells — with features from
   :mod:`vision.features` compared to the user's enrolled examples (:mod:`vision.enrollment`,
   :mod:`vision.classify`);
5. :mod:`vision.readers.plausible` — the land reading held against what the rules allow: a tile
   no one could have laid there is not reported as confident.

Drawing what was read is separate (:mod:`vision.annotate`). Use::

    rec = Recognizer(layout, profile, "my-box.json")            # models from the models package
    rec = Recognizer.open("my-box.json")                          # layout and seats as enrolled
    obs = rec.read(frame)                                         # BGR numpy array
    picture = rec.annotate(frame, obs)

A frame that is not an image raises :class:`~vision.errors.FrameError`; a frame without enough
markers gives an observation with ``registered`` false; missing or corrupt models and enrollment
files raise :class:`~vision.errors.ModelError` / :class:`~vision.errors.EnrollmentError` when the
recognizer is built.
"""

from __future__ import annotations

import time
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datafile import read_json
from games.tribes.rules.hexgrid import START_TRIANGLE, distance
from games.tribes.rules.profile import BoxProfile, default_profile
from games.tribes.vision.encoder import PlainEncoder, TileEncoder, examples_memo
from games.tribes.vision.enrollment import EMPTY, Enrollment, check_frame, frame_norm, parse_place
from games.tribes.vision.layout import Layout
from games.tribes.vision.observation import Observation
from games.tribes.vision.readers.arrows import ArrowReader
from games.tribes.vision.readers.base import FrameContext, colour_sigma
from games.tribes.vision.readers.board import BoardReader
from games.tribes.vision.readers.land import LandReader
from games.tribes.vision.readers.plausible import LandSupport
from games.tribes.vision.readers.row import RowReader
from games.tribes.vision.readers.shells import ShellReader
from games.tribes.vision.readers.tracks import TrackReader
from games.tribes.vision.regions import Regions
from vision.bare import WASHED_SHARE, BareLook
from vision.classify import ExampleClassifier
from vision.clipping import ClippedExamples, Encode
from vision.colour import ColourNorm
from vision.errors import EnrollmentError, ModelError
from vision.features import MANIFEST, AreaCounter, Models
from vision.light import LightField, LightTracker
from vision.motion import GateState, MotionGate
from vision.occlusion import covers
from vision.patches import patch_set
from vision.registration import Registrar, RegistrationResult
from vision.sampling import Sampler
from vision.templates import TemplateMatcher

TEMPERATURE = {"model": 0.04, "histogram": 0.03}
"""Softmax temperature of the nearest-neighbour scores, per feature kind."""
CONDENSE = 0.97
"""Enrolled landscape examples at least this alike (cosine) are kept once (:class:`ExampleClassifier`)."""


class Recognizer:
    """Reads frames of one table (see the module docstring).

    ``features`` is ``"model"`` (the ONNX models) or ``"histogram"`` (the colour-histogram baseline,
    which needs no model). ``stream`` True keeps state between frames (motion gate, registration);
    False treats every frame as a still photo (settled unless told otherwise). ``quiet`` (seconds)
    and ``fps`` (for frames read without timestamps) set the motion gate. ``read_unsettled``
    reads frames the gate calls unsettled too (their observation still says ``settled: false``).
    ``tile_mix`` overrides the models' weight of the model in the tile features (``models.json``).
    ``cache`` (default: as ``stream``) lets the land reader skip hexes whose windows did not change.
    ``count_turns`` overrides how many quarter turns of each window the member and shell counters average
    (``models.json`` ``count_turns``; only windows less sure than ``count_sure`` after the first turn
    get the others).
    ``follow_light`` False reads with the patch's normalisation alone, as before the light was
    followed (:mod:`vision.light`; for comparisons). ``bare_look`` False reads land tiles without
    holding them against the enrolled bare table (:mod:`vision.bare`; for comparisons).
    ``keep_examples`` False neither keeps the enrolled examples' vectors for the next recognizer on
    this enrollment nor looks for kept ones (:func:`games.tribes.vision.encoder.examples_memo`): for
    an enrollment used once, as the demo's, which enrolls every game's table anew.
    ``member_art`` overrides the share of each bare tile's own likeness to a seat's colour taken off
    the member counter's map (:data:`games.tribes.vision.readers.land.MEMBER_ART`; 0 as before it)."""

    def __init__(
        self,
        layout: Layout,
        profile: BoxProfile | None,
        enrollment: Enrollment | str | Path,
        models: Models | str | Path | None = None,
        features: str = "model",
        stream: bool = True,
        quiet: float = 0.5,
        fps: float = 10.0,
        read_unsettled: bool = False,
        threads: int = 1,
        tile_mix: float | None = None,
        cache: bool | None = None,
        count_turns: int | None = None,
        follow_light: bool = True,
        bare_look: bool = True,
        keep_examples: bool = True,
        member_art: float | None = None,
    ) -> None:
        self.layout = layout
        self.keep_examples = keep_examples
        self.profile = profile or default_profile()
        self.enrollment = enrollment if isinstance(enrollment, Enrollment) else Enrollment.load(enrollment)
        if features not in TEMPERATURE:
            raise ValueError(f"features must be 'model' or 'histogram', got {features!r}")
        self.kind = features
        self.stream = stream
        self.read_unsettled = read_unsettled
        self.regions = Regions(layout, self.profile)
        self.sampler = Sampler()
        self.registrar = Registrar(layout)
        self.gate = MotionGate(quiet=quiet if stream else 0.0, fps=fps)
        self.last_norm: ColourNorm = self.enrollment.norm
        self.last_light: LightField | None = None
        self.follow_light = follow_light
        self.light = _light_tracker(self.enrollment, self.regions)
        ring = self.regions.table_ring()  # the light's reference points, where enrollment measured them
        self.light_points = patch_set("light", self.light.mm, 0.0, ring.side_mm, ring.px)
        self.last_result: RegistrationResult | None = None
        self.last_gate: GateState | None = None
        self.timings: dict[str, float] = {}
        enr = self.enrollment
        bad = [s for s in enr.seats if not 0 <= s < len(layout.seats)]
        if bad:
            raise EnrollmentError(
                enr.layout or "enrollment", "seats", f"seat {bad[0]} is not a seat of layout {layout.name!r}"
            )
        self.seats = sorted(enr.seats)
        self.models = models if isinstance(models, Models) else Models(models, threads)
        colours = {s: (enr.seats[s], enr.colours[enr.seats[s]], enr.spreads.get(enr.seats[s], 6.0)) for s in self.seats}
        colour_list = [colours[s] for s in self.seats]
        shell = (enr.shell, 5.0)
        if features == "model":
            self.models.check()
            hidden = {f"seat:{s}": [(ref, colour_sigma(sp))] for s, (_, ref, sp) in colours.items()}
            hidden["shell"] = [(enr.shell, colour_sigma(5.0))]
            hidden["players"] = [(ref, colour_sigma(sp)) for _, ref, sp in colour_list]
            mix = self.models.mix() if tile_mix is None else tile_mix
            self.encoder: Any = TileEncoder(self.models.tiles(), self.regions, hidden, mix)
            turns = int(self.models.setting("count_turns", 1)) if count_turns is None else count_turns
            sure = self.models.setting("count_sure", 1.0)  # 1.0: every window gets every turn
            sure_or_all = sure if sure < 1.0 else None
            members: Any = self.models.counter("members", turns, sure_or_all)
            shells: Any = self.models.counter("shells", turns, sure_or_all)
            # shells on a row tile lie on its art: counted by their own model where the folder has one
            row_name = "row_shells" if "row_shells" in self.models.specs else "shells"
            row_shells: Any = self.models.counter(row_name, turns, sure_or_all)
            for name, c in (("shells", shells), (row_name, row_shells)):
                if c.leans:  # only the member counter is told how pieces lean (the shells lie flat)
                    raise ModelError(
                        str(self.models.folder / "models.json"),
                        f"models.{name}.channels",
                        "5 (a lean ramp): only the members counter reads one; a shells counter takes 4",
                    )
            pieces = self.models.pieces()  # stones told from the bare art by their relief, where shipped
        else:
            self.encoder = PlainEncoder()
            baseline = _baseline_units(self.models)
            members = AreaCounter(baseline.get("member_unit", 60.0), 15)
            shells = AreaCounter(baseline.get("shell_unit", 25.0), 20)
            row_shells = shells
            pieces = None
        t = TEMPERATURE[features]
        made = {s: self._clipped(f"seat:{s}", t) for s in self.seats}
        self.hex_classifiers = {s: base for s, (base, _) in made.items()}
        self.hex_examples = {s: ex for s, (_, ex) in made.items()}
        """Per seat, the enrolled hex examples as a frame's clipping shows them (:mod:`vision.clipping`)."""
        self.classifiers = {
            "row": self._classifier("row", "shell", t),
            "board": self._classifier("board", "players", t),
        }
        self.support = LandSupport(self.profile, self.seats, stream)
        hex_examples = None
        if enr.windows.get("hex") is not None and len(enr.windows["hex"]):
            hex_examples = (enr.windows["hex"], list(enr.labels.get("hex", [])))
        self.land = LandReader(
            self.encoder,
            self.hex_classifiers,
            members,
            colours,
            cache=stream if cache is None else cache,
            clipped=self.hex_examples,
            bare=BareLook(enr.bare_places, enr.bare, washed=WASHED_SHARE) if bare_look else None,
            examples=hex_examples,
            **({} if member_art is None else {"member_art": member_art}),
            templates=TemplateMatcher(*hex_examples, skip=(EMPTY,)) if features == "model" and hex_examples else None,
            learn=stream,
        )
        row_templates = None
        if features == "model" and enr.windows.get("row") is not None and len(enr.windows["row"]):
            row_templates = TemplateMatcher(enr.windows["row"], list(enr.labels.get("row", [])), skip=(EMPTY,))
        self.row = RowReader(
            self.encoder,
            self.classifiers["row"],
            row_shells,
            shell,
            min_tiles=len(self.profile.action_tiles),
            templates=row_templates,
            cache=stream if cache is None else cache,
        )
        board_examples = None
        board_templates = None
        if enr.windows.get("board") is not None and len(enr.windows["board"]):
            board_examples = (enr.windows["board"], list(enr.labels.get("board", [])))
            if features == "model":
                board_templates = TemplateMatcher(*board_examples)
        self.board = BoardReader(
            self.encoder,
            self.classifiers["board"],
            self.profile,
            colour_list,
            examples=board_examples,
            templates=board_templates,
            cache=stream if cache is None else cache,
            pieces=pieces,
            learn=stream,
        )
        table = np.asarray(enr.table, np.float32)  # Lab of the bare table
        self.arrows = ArrowReader(colour_list, table=table, examples=board_examples)
        self.tracks = TrackReader(colour_list, table=table)
        self.shells = ShellReader(shells, shell)

    @classmethod
    def open(
        cls,
        enrollment: str | Path,
        layout: str | Path | Layout | None = None,
        profile: str | Path | BoxProfile | None = None,
        models: str | Path | None = None,
        **options: Any,
    ) -> Recognizer:
        """A recognizer from files: the enrollment, the layout it was made for (default: the one it
        records, else the shipped one; seated as it records) and a box profile (default: shipped)."""
        from games.tribes.rules.profile import load_profile
        from games.tribes.vision.layout import resolve_layout

        enr = Enrollment.load(enrollment)
        lay = layout if isinstance(layout, Layout) else resolve_layout(layout or (enr.layout_file or None))
        if enr.seat_order:
            if max(enr.seat_order) >= len(lay.seats):
                raise EnrollmentError(
                    str(enrollment), "seat_order", f"seats {enr.seat_order} do not fit layout {lay.name!r}"
                )
            lay = lay.with_seats(enr.seat_order)
        prof = profile if isinstance(profile, BoxProfile) else (load_profile(profile) if profile else default_profile())
        return cls(lay, prof, enr, models, **options)

    def _classifier(self, group: str, key: str, temperature: float) -> ExampleClassifier:
        return self._vectors(group, key, temperature)[0]

    def _vectors(self, group: str, key: str, temperature: float) -> tuple[ExampleClassifier, np.ndarray, list[str]]:
        """The classifier of the enrolled examples of ``group`` with the colours of ``key`` hidden,
        and the vectors and labels it was built from (before near duplicates are dropped)."""
        enr = self.enrollment
        w = enr.windows.get(group)
        labels = enr.labels.get(group, [])
        if w is None or len(w) == 0:
            return ExampleClassifier(np.zeros((0, 1), np.float32), [], temperature), np.zeros((0, 1), np.float32), []
        fingerprint = getattr(self.encoder, "fingerprint", None) if self.keep_examples else None
        tag = f"{group}|{key}|{self.kind}|{chr(31).join(labels)}"
        feats, labels = examples_memo(fingerprint, np.asarray(w), tag, lambda: self._examples(group, key))
        made = ExampleClassifier(feats, labels, temperature, condense=CONDENSE if group == "hex" else None)
        return made, feats, labels

    def _clipped(self, key: str, temperature: float) -> tuple[ExampleClassifier, ClippedExamples]:
        """The classifier of the hex examples of a seat (``key``: its colour hidden), and the same
        examples for :mod:`vision.clipping`: each vector's source is its window, plain (the first rows,
        one per window) or under one of :func:`vision.occlusion.covers` (then the tiles' windows, one
        row per cover, as :meth:`_examples` makes them)."""
        base, feats, labels = self._vectors("hex", key, temperature)
        windows, top = self._hex_windows
        n = len(windows)
        masks = covers(self.encoder.px) if self.kind == "model" else None
        sources = [(i, -1) for i in range(n)]
        if masks is not None and len(feats) > n:
            tiles = [i for i, lb in enumerate(labels[:n]) if lb != EMPTY]
            sources += [(i, m) for i in tiles for m in range(len(masks))]
        encode = self._hex_encode(key)
        if len(sources) != len(feats):  # not made as _examples makes them: never clipped
            return base, ClippedExamples(windows[:0], feats[:0], [], np.zeros((0, 2)), None, encode, 1.0, None)
        return base, ClippedExamples(
            windows, feats, labels, np.asarray(sources), masks, encode, temperature, CONDENSE, top
        )

    @cached_property
    def _hex_windows(self) -> tuple[np.ndarray, np.ndarray]:
        """The enrolled hex windows and each one's brightest value per channel (N x 3): every seat's
        examples are the same windows, so this is worked out once."""
        w = self.enrollment.windows.get("hex")
        windows = np.zeros((0, 1, 1, 3), np.float32) if w is None else np.asarray(w)
        n = len(windows)
        top = windows.reshape(n, -1, 3).max(axis=1).astype(np.float32) if n else np.zeros((0, 3), np.float32)
        return windows, top

    def _hex_encode(self, key: str) -> Encode:
        """The feature model on hex windows with ``key``'s colours hidden (resized to its input)."""
        px = self.encoder.px
        encoder = self.encoder

        def encode(batch: np.ndarray, cover: np.ndarray | None) -> np.ndarray:
            if batch.shape[1] != px:
                batch = np.stack([cv2.resize(b, (px, px), interpolation=cv2.INTER_AREA) for b in batch])
            if cover is None or not isinstance(encoder, TileEncoder):
                return np.asarray(encoder.encode(batch, "hex", key))
            return np.asarray(encoder.encode(batch, "hex", key, cover=cover))

        return encode

    def _examples(self, group: str, key: str) -> tuple[np.ndarray, list[str]]:
        """The vectors and labels of the enrolled examples of ``group`` (hexes also as covered by
        members)."""
        enr = self.enrollment
        w = enr.windows[group]
        labels = list(enr.labels.get(group, []))
        px = self.encoder.px
        feats = []
        for i in range(0, len(w), 64):
            batch = np.asarray(w[i : i + 64], np.float32)
            if batch.shape[1] != px:
                batch = np.stack([cv2.resize(b, (px, px), interpolation=cv2.INTER_AREA) for b in batch])
            feats.append(self.encoder.encode(batch, group, key))
        if group == "hex" and self.kind == "model":
            # landscape tiles also as seen with members on them (their middle hidden): a tile whose
            # symbol is covered is then compared with examples covered alike (vision.occlusion.covers)
            tiles = [i for i, lb in enumerate(labels) if lb != EMPTY]
            masks = covers(px)
            for i in range(0, len(tiles), 8):  # small batches: the onnxruntime arena keeps its peak
                sel = tiles[i : i + 8]
                batch = np.asarray(w[sel], np.float32)
                if batch.shape[1] != px:
                    batch = np.stack([cv2.resize(b, (px, px), interpolation=cv2.INTER_AREA) for b in batch])
                reps = np.repeat(batch, len(masks), axis=0)
                cover = np.tile(masks, (len(batch), 1, 1))
                feats.append(self.encoder.encode(reps, group, key, cover=cover))
                labels += [labels[j] for j in sel for _ in range(len(masks))]
        return np.concatenate(feats), labels

    # --- reading --------------------------------------------------------------------------------
    def read(self, frame: np.ndarray, frame_no: int = 0, time_s: float | None = None) -> Observation:
        """The observation of one BGR frame taken at ``time_s`` seconds (default: counted from the
        frames at ``fps``); FrameError when it is not an image."""
        t0 = time.perf_counter()
        image = check_frame(frame)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        timings: dict[str, float] = {}
        gate = self.gate.update(gray, time_s)
        t1 = time.perf_counter()
        timings["gate"] = (t1 - t0) * 1000
        res = self.registrar.update(gray)
        self.last_result = res
        t2 = time.perf_counter()
        timings["registration"] = (t2 - t1) * 1000
        if res.status == "moved":
            self.gate.disturb()
            gate = GateState(False, True, gate.moved_fraction, 0.0, gate.hand)
        self.last_gate = gate
        settled = gate.settled if self.stream else True
        base = {
            "frame": frame_no,
            "time": float(time_s or 0.0),
            "markers": res.seen,
            "settled": settled,
            "hand_in_view": bool(gate.hand) if self.stream else False,
        }
        if res.registration is None:
            self.timings = timings
            return Observation(registered=False, **base)
        if not settled and not self.read_unsettled:
            self.timings = timings
            return Observation(registered=True, **base)
        reg = res.registration
        patch = frame_norm(image, reg, self.regions, self.sampler)
        if self.follow_light:
            ring = self.light_points
            raw = np.median(self.sampler.sample(image, reg, ring).reshape(len(ring), -1, 3), axis=1)
            self.last_norm, self.last_light = self.light.update(raw, patch, self.sampler.inside(reg, ring))
        elif patch is not None:
            self.last_norm = patch
        ctx = FrameContext(
            image, reg, self.last_norm, self.regions, self.sampler, timings, tuple(res.seen), self.last_light
        )
        t3 = time.perf_counter()
        timings["colour"] = (t3 - t2) * 1000
        hexes, h1 = self.land.read(ctx, self.seats)
        hexes = self.support.check(hexes, h1, settled)
        row, h2 = self.row.read(ctx)
        board, h3 = self.board.read(ctx)
        arrows = self.arrows.read(ctx, board) if not h3 else []  # the corners show the tiles just read
        tracks, h4 = self.tracks.read(ctx)
        shells, h5 = self.shells.read(ctx, self.seats)
        timings["readers"] = (time.perf_counter() - t3) * 1000
        timings["total"] = (time.perf_counter() - t0) * 1000
        self.timings = timings
        # a hidden region reports no facts (docs/observation.md), whatever its reader found there
        return Observation(
            registered=True,
            hidden=tuple(sorted(h1 | h2 | h3 | h4 | h5)),
            hexes=tuple(hexes),
            row=tuple(row),
            board=tuple(board),
            arrows=tuple(arrows),
            tracks=tuple(tracks),
            shells=tuple(shells),
            **base,
        ).without_hidden_facts()

    def annotate(self, frame: np.ndarray, obs: Observation) -> np.ndarray:
        """A copy of ``frame`` with what ``obs`` says drawn on it (:func:`vision.annotate.draw`)."""
        from games.tribes.vision.annotate import draw

        reg = self.last_result.registration if self.last_result is not None else None
        return draw(check_frame(frame), obs, self.regions, reg)

    def reset(self) -> None:
        """Forget the registration, the motion history, the lands learned so far, and the board's
        slots and the land's tiles as this table shows them (e.g. after switching cameras or tables)."""
        self.registrar.reset()
        self.gate.reset()
        self.support.reset()
        self.board.reset()
        self.land.reset()


LIGHT_PLACES = 48
"""Places of bare table (from the enrollment's bare looks) added to the light's reference points."""
LIGHT_FROM_START = 4
"""Only places at least this many hexes from a starting triangle are taken (lands rarely reach them;
a tile that does is dropped by the robust fit like a hand over a point)."""


def _light_tracker(enr: Enrollment, regions: Regions) -> LightTracker:
    """The light tracker of an enrollment: its reference points of bare table beside the markers,
    plus up to :data:`LIGHT_PLACES` places of bare table spread over the whole table, away from the
    lands (the hexes whose bare look it kept: :mod:`vision.bare`), so that the light is followed
    where the tiles lie and not only at the table's edge. An enrollment saved before the points
    were kept has the ring's places with the one enrolled table colour (then only the overall change
    of the light is followed)."""
    lay = regions.layout
    points, spatial = enr.table_points, True
    if len(points) == 0:
        bgr = cv2.cvtColor(np.asarray(enr.table, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2BGR).reshape(3)
        centres = regions.table_ring().centers
        points = np.hstack([centres, np.tile(bgr, (len(centres), 1))])
        spatial = False
    else:
        points = np.vstack([points, _bare_points(enr, regions, points[:, :2])]).astype(np.float32)
    return LightTracker(points, lay.patch.center, lay.table, enr.norm, spatial)


def _bare_points(enr: Enrollment, regions: Regions, have: np.ndarray) -> np.ndarray:
    """Reference points (K x 5: x, y mm, enrolled normalised BGR) from the bare looks: the middle of
    each kept hex far from the starting triangles, spread by farthest-point sampling from ``have``."""
    lay = regions.layout
    cand: list[tuple[float, ...]] = []
    for place, thumb in zip(enr.bare_places, enr.bare, strict=True):
        try:
            seat, h = parse_place(place)
        except ValueError:
            continue
        if seat >= len(lay.seats) or min(distance(h, s) for s in START_TRIANGLE) < LIGHT_FROM_START:
            continue
        if regions.reserved_at(lay.hex_center(seat, h)):  # (an enrollment kept it before places were reserved)
            continue
        c = thumb.shape[0] // 2
        bgr = np.median(thumb[c - 2 : c + 2, c - 2 : c + 2].reshape(-1, 3), axis=0) / 255.0
        cand.append((*lay.hex_center(seat, h), *bgr))
    if not cand:
        return np.zeros((0, 5), np.float32)
    pts = np.asarray(cand, np.float64)
    chosen: list[int] = []
    near = (
        np.min(np.hypot(pts[:, None, 0] - have[None, :, 0], pts[:, None, 1] - have[None, :, 1]), axis=1)
        if len(have)
        else np.full(len(pts), np.inf)
    )
    for _ in range(min(LIGHT_PLACES, len(pts))):
        i = int(np.argmax(near))
        if near[i] < 20.0:  # no place left that is not a point already
            break
        chosen.append(i)
        near = np.minimum(near, np.hypot(pts[:, 0] - pts[i, 0], pts[:, 1] - pts[i, 1]))
    return pts[chosen].astype(np.float32)


def _baseline_units(models: Models) -> dict[str, float]:
    """The baseline counter's piece areas, stored in the models manifest (``baseline``)."""
    path = models.folder / MANIFEST
    if not path.is_file():
        return {}
    try:
        doc = read_json(path, "the models manifest", ModelError)
    except ModelError:  # the baseline runs without the models: a broken manifest only loses its piece areas
        return {}
    b = doc.get("baseline", {}) if isinstance(doc, dict) else {}
    try:
        return {k: float(v) for k, v in b.items()}
    except (TypeError, ValueError):
        raise ModelError(str(path), "baseline", "must map names to numbers") from None
