"""``table-companion enroll …`` and ``table-companion recognize …``: the camera pipeline's commands
(registered by :mod:`vision.cli`).

* ``enroll SETUP.png --game setup.json -o my-box.json`` learns the user's box from a photo of the
  table after the setup whose content is known: the position after the setup move (``--game FILE
  [--move N]`` or ``--setup "setup row=… era1=… lands=…" --players N``), a renderer ground truth
  (``--truth``) or an observation file with the seats' colours (``--labels FILE --colours
  red,blue``). ``--extra IMAGE=LABELS`` adds more frames (LABELS: a position/journal, a truth or an
  observation file), ``--pack DIR`` an art pack (e.g. from ``render photo-pack``) for tiles that
  appear later: only the faces the frames did not show are added (``--pack-all``: every face).
* ``recognize IMAGE… --enrollment my-box.json [--json] [--annotate OUT.png]`` reads images (or a
  folder, a video file, a camera index or stream URL with ``--stream``) and prints the
  Observation(s); ``--baseline`` uses the colour-histogram baseline instead of the models;
  ``--annotate`` draws what was read, one picture per image or frame.

User mistakes print one line and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


Handler = Callable[[argparse.Namespace], int]


def guard(fn: Handler) -> Handler:
    """Turn the vision package's user errors into one line on stderr and status 2 (one line per
    problem for an error that carries several, e.g. :class:`vision.errors.PhotoPackErrors`)."""

    def run(args: argparse.Namespace) -> int:
        from games.tribes.vision.observation import ObservationError
        from vision.errors import VisionError

        try:
            return fn(args)
        except (VisionError, ObservationError) as exc:
            for problem in getattr(exc, "problems", None) or [exc]:
                sys.stderr.write(f"table-companion: error: {problem}\n")
            return 2
        except OSError as exc:
            sys.stderr.write(f"table-companion: error: {exc.filename or ''}: {exc.strerror or exc}\n")
            return 2

    return run


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``print-markers``, ``layout``, ``enroll`` and ``recognize`` (user errors exit with 2)."""
    p = sub.add_parser("print-markers", help="write printable markers, reference patch and capture sheet (PDF + PNG)")
    p.add_argument("-o", "--output", default="markers", help="folder to write into (default: ./markers)")
    p.add_argument("--layout", help="layout JSON (default: the shipped 4-player table)")
    p.add_argument("--dpi", type=float, default=300.0, help="PNG resolution (default 300)")
    p.set_defaults(func=guard(cmd_print_markers))

    p = sub.add_parser("layout", help="check a table layout or export the default one")
    lsub = p.add_subparsers(dest="layout_cmd", required=True, metavar="COMMAND")
    q = lsub.add_parser("check", help="validate a layout file and summarise it")
    q.add_argument("file", nargs="?", help="layout JSON (default: the shipped one)")
    q.set_defaults(func=guard(cmd_layout_check))
    q = lsub.add_parser("export", help="write the default layout as JSON (to measure and edit)")
    q.add_argument("-o", "--output", default="-", help="file (default: stdout)")
    q.set_defaults(func=guard(cmd_layout_export))

    p = sub.add_parser("enroll", help="learn your box (tiles, piece colours, table, light) from a photo of the setup")
    p.add_argument("image", help="photo of the table after the setup (all markers and the reference patch in view)")
    g = p.add_argument_group("what the photo shows (one of)")
    g.add_argument("--game", help="journal or position file; the position after --move N (default: after the setup)")
    g.add_argument("--move", type=int, help="with --game: the position after N moves")
    g.add_argument("--setup", metavar="NOTATION", help='the setup move, e.g. "setup row=… era1=… lands=…"')
    g.add_argument("--players", type=int, choices=(2, 3, 4), help="with --setup: number of players")
    g.add_argument("--truth", help="renderer ground truth of the photo (tribes-render-truth JSON)")
    g.add_argument("--labels", help="an observation file (tribes-observation JSON) describing the photo")
    g.add_argument("--colours", metavar="C1,C2,…", help="with --labels: each seat's colour in seat order")
    p.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="IMAGE=LABELS",
        help="another photo and what it shows (position/journal, truth or observation file)",
    )
    p.add_argument(
        "--pack", help="an art pack folder (e.g. from render photo-pack): its faces the frames did not show are added"
    )
    p.add_argument("--pack-all", action="store_true", help="with --pack: add every face of the pack, shown or not")
    p.add_argument("--layout", help="table layout JSON (default: the shipped 4-player table)")
    p.add_argument("--seats", metavar="I,J,…", help="layout seats of the players (default: 0,2 for two players)")
    p.add_argument("--profile", help="box profile JSON (default: the shipped profile)")
    p.add_argument("-o", "--output", required=True, help="enrollment file to write (NAME.json + NAME.npz)")
    p.set_defaults(func=guard(cmd_enroll))

    p = sub.add_parser("recognize", help="read the table from images, a video or a camera: print the observation")
    p.add_argument("source", nargs="+", help="image file(s), or with --stream a folder, video, camera index or URL")
    p.add_argument("--enrollment", "-e", required=True, help="enrollment file from table-companion enroll")
    p.add_argument("--stream", action="store_true", help="read the source as a stream (motion gate on)")
    p.add_argument("--frames", type=int, help="with --stream: stop after N frames")
    p.add_argument("--json", action="store_true", help="print the observation as JSON (one line per frame)")
    p.add_argument(
        "--annotate",
        metavar="OUT.png",
        help="write the frame with what was read drawn on it (several images or a stream: OUT-<n>-<image>.png, "
        "OUT-<frame>.png, one per frame)",
    )
    p.add_argument("--baseline", action="store_true", help="use the colour-histogram baseline, not the models")
    p.add_argument("--models", help="models folder (default: the shipped models)")
    p.add_argument("--layout", help="table layout JSON (default: as recorded in the enrollment)")
    p.add_argument("--profile", help="box profile JSON (default: the shipped profile)")
    p.add_argument("--timings", action="store_true", help="print the time each stage took (stderr)")
    p.set_defaults(func=guard(cmd_recognize))


# --- helpers --------------------------------------------------------------------------------------------
def _read_image(path: str) -> Any:
    from vision.errors import FrameError
    from vision.images import decode

    p = Path(path)
    if not p.is_file():
        raise FrameError(f"{path}: no such image file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise FrameError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    img = decode(data, str(path))  # a picture over the pixel cap: ImageTooLargeError, one line
    if img is None:
        raise FrameError(f"{path}: not an image OpenCV can decode (corrupt or not a picture)")
    return img


def _profile(path: str | None) -> Any:
    from games.tribes.rules.profile import default_profile, load_profile

    return load_profile(path) if path else default_profile()


def _seat_order(text: str | None, players: int, seats_in_layout: int) -> list[int]:
    from vision.errors import VisionError

    if text:
        try:
            order = [int(v) for v in text.split(",")]
        except ValueError:
            raise VisionError(f"--seats: expected seat numbers separated by commas, got {text!r}") from None
        if len(order) != players:
            raise VisionError(f"--seats: {players} players need {players} seats, got {len(order)}")
        return order
    if players == 2 and seats_in_layout == 4:
        return [0, 2]
    return list(range(players))


def labels_from_file(
    path: str, colours: str | None, profile: Any, move: int | None = None
) -> tuple[Any, dict[int, str], int]:
    """(observation, seat colours, players) from a truth, observation, or game file."""
    from datafile import read_json
    from games.tribes.rules.game import game_from_data
    from games.tribes.vision.enrollment import labels_from_state
    from games.tribes.vision.observation import Observation, observation_from_truth
    from vision.errors import VisionError, VisionFileError

    data = read_json(path, "the labels", VisionFileError)
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == "tribes-render-truth":
        obs = observation_from_truth(data)
        seats = {int(s["seat"]): str(s["colour"]) for s in data.get("seats", [])}
        return obs, seats, len(seats)
    if fmt == "tribes-observation":
        obs = Observation.from_dict(data, path)
        if not colours:
            raise VisionError(f"{path}: an observation file needs --colours (each seat's colour, in seat order)")
        names = [c.strip() for c in colours.split(",") if c.strip()]
        return obs, dict(enumerate(names)), len(names)
    game = game_from_data(data, path, None, Path(path).parent)
    n = move if move is not None else (1 if len(game.moves) >= 1 else 0)
    if not 0 <= n <= len(game.moves):
        raise VisionError(f"--move {n}: {path} has {len(game.moves)} moves")
    state = game.states[n]
    obs, seats = labels_from_state(state)
    return obs, seats, state.n


# --- commands -------------------------------------------------------------------------------------------
def cmd_enroll(args: argparse.Namespace) -> int:
    from games.tribes.rules.engine import apply, new_game
    from games.tribes.rules.moves import parse_move
    from games.tribes.vision.artpack import load_pack
    from games.tribes.vision.enrollment import Enroller, labels_from_state
    from games.tribes.vision.layout import resolve_layout
    from vision.errors import VisionError

    profile = _profile(args.profile)
    given = [x for x in (args.game, args.setup, args.truth, args.labels) if x]
    if len(given) != 1:
        raise VisionError("say what the photo shows: exactly one of --game, --setup, --truth or --labels")
    if args.setup:
        if not args.players:
            raise VisionError("--setup needs --players N")
        players_list = [f"Player {i + 1}" for i in range(args.players)]
        state = apply(new_game(players_list, profile), parse_move(args.setup))
        labels, seats = labels_from_state(state)
        players = args.players
    else:
        labels, seats, players = labels_from_file(
            args.game or args.truth or args.labels, args.colours, profile, args.move
        )
    layout = resolve_layout(args.layout)
    order = _seat_order(args.seats, players, len(layout.seats))  # as table-companion render seats them
    seated = layout.with_seats(order)
    enroller = Enroller(seated, profile)
    enroller.add_frame(_read_image(args.image), labels, seats, source=args.image)
    for item in args.extra:
        if "=" not in item:
            raise VisionError(f"--extra {item!r}: expected IMAGE=LABELS")
        img, lab_path = item.split("=", 1)
        obs, ex_seats, _ = labels_from_file(lab_path, None, profile)
        enroller.add_frame(_read_image(img), obs, ex_seats, source=img)
    pack_line = ""
    if args.pack:
        pack = load_pack(args.pack, profile)
        shown = [k for k in sorted(pack.faces) if enroller.shown_by_frames(k)]
        taken = enroller.add_pack(pack, source=args.pack, only_missing=not args.pack_all)
        if args.pack_all:
            pack_line = f"pack {args.pack}: took all {taken} faces (--pack-all; {len(shown)} the frames showed too)\n"
        else:
            pack_line = (
                f"pack {args.pack}: took {taken} face(s) the frames did not show; "
                f"skipped {len(shown)} the frames showed already (--pack-all takes them too)\n"
            )
    enr = enroller.build()
    enr.seat_order = order
    enr.layout_file = str(Path(args.layout).resolve()) if args.layout else ""
    js, npz = enr.save(args.output)
    missing = enr.missing(profile)
    sys.stdout.write(
        f"enrolled {len(enr.labels['hex'])} land, {len(enr.labels['row'])} row and {len(enr.labels['board'])} board "
        f"windows; colours {', '.join(sorted(enr.colours))}; bare table at {len(enr.bare_places)} hexes: {js}, {npz}\n"
    )
    sys.stdout.write(pack_line)
    if missing:
        shown = ", ".join(missing[:8]) + (" …" if len(missing) > 8 else "")
        sys.stdout.write(f"not enrolled ({len(missing)}; cannot be recognised until added): {shown}\n")
    for note in enr.notes:
        sys.stdout.write(f"note: {note}\n")
    return 0


def cmd_recognize(args: argparse.Namespace) -> int:
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from games.tribes.vision.annotate import draw
    from games.tribes.vision.recognizer import Recognizer
    from vision.errors import VisionError

    rec = Recognizer.open(
        args.enrollment,
        args.layout,
        args.profile,
        args.models,
        features="histogram" if args.baseline else "model",
        stream=args.stream,
    )
    if args.annotate and Path(args.annotate).suffix.lower() not in IMAGE_TYPES:
        raise VisionError(f"{args.annotate}: unknown image type: use .png or .jpg")

    def annotated(key: str) -> Path:
        """Where the drawing of one frame goes: ``--annotate`` itself for a single image, else one
        file per frame beside it (``OUT-<n>-<image name>.png``, ``OUT-<frame>.png`` for a stream)."""
        out = Path(args.annotate)
        if not args.stream and len(args.source) == 1:
            return out
        return out.with_name(f"{out.stem}-{key}{out.suffix}")

    def emit(obs: Any, image: Any, name: str, key: str = "") -> None:
        if args.json:
            sys.stdout.write(json.dumps(obs.to_dict(), separators=(",", ":")) + "\n")
        else:
            sys.stdout.write(summary(obs, name) + "\n")
        if args.timings:
            sys.stderr.write(" ".join(f"{k} {v:.1f} ms" for k, v in rec.timings.items()) + "\n")
        if args.annotate:
            import cv2

            out = annotated(key)
            out.parent.mkdir(parents=True, exist_ok=True)
            if not cv2.imwrite(
                str(out), draw(image, obs, rec.regions, rec.last_result.registration if rec.last_result else None)
            ):
                raise VisionError(f"{out}: could not write the image")

    if not args.stream:
        for i, path in enumerate(args.source):
            img = _read_image(path)
            emit(rec.read(img, frame_no=i), img, path, f"{i + 1:03d}-{Path(path).stem}")
        return 0
    from vision.sources import Capture, open_source

    if len(args.source) != 1:
        raise VisionError("--stream reads one source (a folder, video file, camera index or URL)")
    src = open_source(args.source[0])
    n = 0
    if src.live:  # a camera or stream: a capture thread hands out the newest frame, reconnecting
        with Capture(
            src, on_state=lambda state, why: sys.stderr.write(f"source: {state} {why}".rstrip() + "\n")
        ) as cap:
            while args.frames is None or n < args.frames:
                pkt = cap.latest(timeout=10.0)
                if pkt is None:
                    if cap.state == "ended":
                        break
                    continue
                obs = rec.read(pkt.image, frame_no=pkt.seq, time_s=pkt.time)
                emit(obs, pkt.image, f"frame {pkt.seq}", f"{pkt.seq:05d}")
                n += 1
        return 0
    src.open()
    try:
        while args.frames is None or n < args.frames:
            img = src.read()
            if img is None:
                break
            emit(rec.read(img, frame_no=n), img, f"frame {n}", f"{n:05d}")
            n += 1
    finally:
        src.close()
    return 0


def summary(obs: Any, name: str) -> str:
    """A few lines saying what was read (the default output of ``recognize``)."""
    if not obs.registered:
        return f"{name}: table not found (markers seen: {list(obs.markers) or 'none'})"
    if not obs.settled:
        return f"{name}: moving (hand or pieces in motion): not read"
    lines = [
        f"{name}: registered with markers {list(obs.markers)}"
        + (f"; hidden: {', '.join(obs.hidden)}" if obs.hidden else "")
    ]
    seats = sorted({h.seat for h in obs.hexes})
    for s in seats:
        tiles = [h for h in obs.hexes if h.seat == s and h.tile]
        members = sum(sum(h.members.values()) for h in tiles)
        kinds: dict[str, int] = {}
        for h in tiles:
            k = "exhausted" if h.exhausted else str(h.resource)
            kinds[k] = kinds.get(k, 0) + 1
        low = sum(1 for h in tiles if min(h.tile_conf, h.resource_conf, h.members_conf) < 0.8)
        lines.append(
            f"  seat {s}: {len(tiles)} tiles ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}), "
            f"{members} members" + (f", {low} uncertain" if low else "")
        )
    row = [f"{s.tile}{'*' if s.event else ''}" + (f"({s.shells})" if s.shells else "") for s in obs.row if s.tile]
    lines.append(f"  row: {' '.join(row)}")
    up = [
        f"{b.era}.{b.col}={b.tile}" + (f"[{','.join(c or '-' for c in b.stones)}]" if b.stones else "")
        for b in obs.board
        if b.tile
    ]
    lines.append(f"  board: {' '.join(up) or 'all face down'}")
    tracks: dict[str, list[str]] = {}
    for t in obs.tracks:
        tracks.setdefault(t.colour, []).append(f"{t.track[:3]} {t.space}")
    lines.append("  tracks: " + "; ".join(f"{c}: {', '.join(v)}" for c, v in tracks.items()))
    lines.append("  shells: " + ", ".join(f"seat {s.seat} {s.count}" for s in obs.shells))
    return "\n".join(lines)


def cmd_print_markers(args: argparse.Namespace) -> int:
    from games.tribes.vision.layout import resolve_layout
    from vision.errors import VisionError
    from vision.markers import print_markers

    if not 72 <= args.dpi <= 1200:
        raise VisionError(f"--dpi must be 72-1200, got {args.dpi:g}")
    layout = resolve_layout(args.layout)
    files = print_markers(layout, args.output, args.dpi)
    sys.stdout.write("wrote " + ", ".join(str(f) for f in files) + "\n")
    sys.stdout.write("print at 100% (actual size); check the 100 mm bar with a ruler\n")
    return 0


def cmd_layout_check(args: argparse.Namespace) -> int:
    from games.tribes.vision.layout import resolve_layout

    lay = resolve_layout(args.file)
    w, h = lay.table
    sys.stdout.write(
        f"{lay.name}: valid; table {w:g} x {h:g} mm, {len(lay.markers)} markers ({lay.dictionary}), "
        f"{len(lay.seats)} seats, {len(lay.row_slots)} row slots, hex tiles {lay.hex.flat_to_flat:g} mm "
        f"{lay.hex.orientation}-top\n"
    )
    for p in lay.provisional:
        sys.stdout.write(f"  provisional: {p} (a guess — measure your box)\n")
    for wmsg in lay.warnings:
        sys.stdout.write(f"  warning: {wmsg}\n")
    return 0


def cmd_layout_export(args: argparse.Namespace) -> int:
    from games.tribes.vision.layout import default_layout

    text = default_layout().to_json()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0
