"""``table-companion render …``: the synthetic table's commands (tooling; the app layer adds them).

* ``render image GAME -o out.png`` renders one position of a journal or position file (or of a
  simulated game, ``--simulate SEED``) with the ground truth beside it (``out.json``);
* ``render video GAME -o out.mp4`` (or a folder) renders the whole game move by move, with a
  progress bar and the ground truth per frame (``out.truth.json``);
* ``render pack`` lists face names, checks a pack folder or exports a built-in pack;
* ``render photo-pack PHOTOS -o PACK`` builds a pack from photos of your tiles (white-balanced on the
  capture paper; ``report.json`` and ``contact-sheet.png`` say how sure each cut is);

``print-markers``, ``layout``, ``enroll`` and ``recognize`` are the product's camera commands
(:mod:`games.tribes.vision.cli`).

User mistakes print one line on stderr and exit with status 2. OpenCV is imported only when a
command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from games.tribes.vision.cli import guard as _guard

IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``render`` commands (the synthetic table: tooling) to the top-level parser."""
    render = sub.add_parser("render", help="render game tables as a camera sees them, with ground truth")
    rsub = render.add_subparsers(dest="render_cmd", required=True, metavar="COMMAND")

    p = rsub.add_parser("image", help="render one position to an image and its ground truth (JSON)")
    _game_args(p)
    p.add_argument("--move", type=int, metavar="N", help="the position after N moves (default: the last)")
    p.add_argument("-o", "--output", required=True, help="image file (.png, .jpg)")
    p.add_argument("--truth", metavar="FILE", help="ground truth JSON (default: the image name with .json)")
    p.add_argument("--no-truth", action="store_true", help="do not write the ground truth")
    p.add_argument("--hand", action="append", default=[], metavar="SEAT:X,Y[:HEIGHT]", help="add a hand over X,Y mm")
    _scene_args(p)
    p.set_defaults(func=_guard(cmd_image))

    p = rsub.add_parser("video", help="render a whole game, each move carried out by a hand")
    _game_args(p)
    p.add_argument("-o", "--output", required=True, help="video file (.mp4, .avi, .mkv) or a folder for frames")
    p.add_argument("--from", dest="start", type=int, metavar="N", help="first move (default: after the setup)")
    p.add_argument("--to", dest="end", type=int, metavar="M", help="stop before move M")
    p.add_argument("--fps", type=float, default=10.0, help="frames per second (default 10)")
    p.add_argument("--frame-format", default=".jpg", choices=(".jpg", ".png"), help="image type in a frame folder")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    _scene_args(p)
    p.set_defaults(func=_guard(cmd_video))

    p = rsub.add_parser("pack", help="list face names, check a pack folder, or export a built-in pack")
    p.add_argument("--faces", action="store_true", help="list the face names a pack needs (and optional ones)")
    p.add_argument("--check", metavar="DIR", help="check that a pack folder is complete")
    p.add_argument("--style", help="export this built-in pack (classic, bold, sketch)")
    p.add_argument("-o", "--output", help="folder to export to")
    p.add_argument("--profile", help="box profile JSON (default: the shipped profile)")
    p.set_defaults(func=_guard(cmd_pack))

    p = rsub.add_parser("photo-pack", help="build an art pack from photos of your tiles on the capture sheet")
    p.add_argument("photos", help="folder of photos named after their faces (or with a manifest.json)")
    p.add_argument(
        "-o", "--output", required=True, help="pack folder to write (with report.json and contact-sheet.png)"
    )
    p.add_argument("--fill-from", metavar="STYLE", help="take faces without a photo from this built-in pack")
    p.add_argument("--name", help="pack name")
    p.add_argument("--layout", help="layout JSON whose marker dictionary the sheet uses (default: shipped)")
    p.add_argument("--profile", help="box profile JSON (default: the shipped profile)")
    p.set_defaults(func=_guard(cmd_photo_pack))


def _game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", help="journal or position JSON (or use --simulate)")
    p.add_argument("--simulate", type=int, metavar="SEED", help="render a simulated game instead of a file")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="players of a simulated game")


def _scene_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("scene")
    g.add_argument("--layout", help="table layout JSON (default: the shipped 4-player table)")
    g.add_argument("--pack", help="art pack: classic, bold, sketch, or a pack folder (default classic)")
    g.add_argument("--texture", help="table: oak, walnut, felt, linen, laminate, slate (default oak)")
    g.add_argument("--seed", type=int, default=0, help="seed for placement jitter and noise (default 0)")
    g.add_argument("--random", type=int, metavar="SEED", help="draw camera, light, effects, texture and pack from SEED")
    g.add_argument(
        "--seats",
        metavar="I,J,…",
        help="layout seats of the players in order (default: 0,2 for two players — opposite — else 0,1,…)",
    )
    c = p.add_argument_group("camera")
    c.add_argument("--width", type=int, default=1920)
    c.add_argument("--height", type=int, default=1080)
    c.add_argument("--tilt", type=float, default=0.0, help="degrees from vertical, 0-35")
    c.add_argument("--azimuth", type=float, default=0.0, help="side the camera leans from, degrees (0 = seat 0)")
    c.add_argument("--roll", type=float, default=0.0, help="rotation about the optical axis, degrees")
    c.add_argument("--fov", type=float, default=70.0, help="horizontal field of view, degrees")
    c.add_argument("--camera-height", type=float, help="mm above the table (default: just fit the table)")
    c.add_argument("--distortion", metavar="K1,K2,P1,P2,K3", help="lens distortion coefficients")
    c.add_argument("--camera", metavar="JSON", help="camera from a ground-truth file or camera JSON")
    li = p.add_argument_group("light and effects")
    li.add_argument("--kelvin", type=float, default=5000.0, help="colour temperature, 2700-6500")
    li.add_argument("--white-balance", type=float, default=0.7, help="share of the colour cast corrected, 0-1")
    li.add_argument("--light-azimuth", type=float, default=30.0)
    li.add_argument("--light-elevation", type=float, default=60.0)
    li.add_argument("--shadow", type=float, default=0.45, help="shadow darkness 0-1")
    li.add_argument("--softness", type=float, default=2.5, help="shadow blur, mm")
    li.add_argument("--unevenness", type=float, default=0.25, help="brightness fall-off across the table, 0-1")
    li.add_argument("--glare", type=float, default=0.0, help="glare spot strength 0-1")
    li.add_argument("--glare-at", metavar="X,Y", help="glare spot centre on the table, mm")
    li.add_argument("--noise", type=float, default=2.0, help="sensor noise sigma, grey levels")
    li.add_argument("--motion-blur", type=float, default=0.0, help="streak length, pixels")
    li.add_argument("--motion-angle", type=float, default=0.0)
    li.add_argument("--defocus", type=float, default=0.0, help="blur sigma, pixels")
    li.add_argument("--jpeg", type=int, help="JPEG quality 5-100 (artefacts)")


# --- building blocks ----------------------------------------------------------------------------------
def _floats(text: str, n: int | None, what: str) -> list[float]:
    from vision.errors import VisionError

    try:
        vals = [float(v) for v in text.split(",")]
    except ValueError:
        raise VisionError(f"{what}: expected numbers separated by commas, got {text!r}") from None
    if n is not None and len(vals) != n:
        raise VisionError(f"{what}: expected {n} numbers, got {len(vals)}")
    return vals


def _load_game(args: argparse.Namespace) -> Any:
    from games.tribes.rules.game import load_game, simulate
    from vision.errors import VisionError

    if args.simulate is not None:
        return simulate(args.players, args.simulate, "greedy")
    if not args.game:
        raise VisionError("give a journal or position file, or --simulate SEED")
    return load_game(args.game)


def _scene(args: argparse.Namespace, profile: Any, players: int) -> tuple[Any, Any, Any, Any, Any]:
    """(renderer, camera, light, effects, layout) from the command line, for ``players`` players."""
    from datafile import read_json
    from games.tribes.sim.packs import resolve_pack
    from games.tribes.sim.randomize import random_conditions
    from games.tribes.sim.render import Renderer
    from games.tribes.vision.layout import resolve_layout
    from sim.camera import Camera
    from sim.effects import Effects
    from sim.lighting import Light
    from vision.errors import VisionFileError

    layout = resolve_layout(args.layout)
    for w in layout.warnings:
        sys.stderr.write(f"table-companion: warning: {w}\n")
    if args.seats:
        order = [int(v) for v in _floats(args.seats, players, "--seats")]
        layout = layout.with_seats(order)
    elif players == 2 and len(layout.seats) == 4:
        layout = layout.with_seats((0, 2))
    if args.random is not None:
        cond = random_conditions(args.random, layout, args.width, args.height)
        pack = resolve_pack(args.pack or cond.pack, profile)
        renderer = Renderer(layout, pack, args.texture or cond.texture, args.seed)
        return renderer, cond.camera, cond.light, cond.effects, layout
    pack = resolve_pack(args.pack, profile)
    renderer = Renderer(layout, pack, args.texture or "oak", args.seed)
    if args.camera:
        data = read_json(args.camera, "the camera JSON", VisionFileError)
        camera = Camera.from_dict(data.get("camera", data) if isinstance(data, dict) else {})
    else:
        dist = _floats(args.distortion, 5, "--distortion") if args.distortion else (0.0, 0.0, 0.0, 0.0, 0.0)
        camera = Camera.framing(
            layout,
            width=args.width,
            height=args.height,
            tilt=args.tilt,
            azimuth=args.azimuth,
            roll=args.roll,
            fov=args.fov,
            dist=dist,
            height_mm=args.camera_height,
        )
    glare_at = tuple(_floats(args.glare_at, 2, "--glare-at")) if args.glare_at else None
    light = Light(
        kelvin=args.kelvin,
        white_balance=args.white_balance,
        azimuth=args.light_azimuth,
        elevation=args.light_elevation,
        shadow=args.shadow,
        softness=args.softness,
        unevenness=args.unevenness,
        glare=args.glare,
        glare_at=glare_at,  # type: ignore[arg-type]
    )
    effects = Effects(
        noise=args.noise,
        motion_blur=args.motion_blur,
        motion_angle=args.motion_angle,
        defocus=args.defocus,
        jpeg=args.jpeg,
    )
    return renderer, camera, light, effects, layout


def _write_image(path: Path, image: Any) -> None:
    import cv2

    from vision.errors import VisionError

    if path.suffix.lower() not in IMAGE_TYPES:
        raise VisionError(f"{path}: unknown image type {path.suffix!r}: use .png or .jpg")
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), image):
        raise VisionError(f"{path}: could not write the image")


class Progress:
    """A one-line progress bar on stderr (at most ~5 updates a second; one line per 10% when
    stderr is not a terminal)."""

    def __init__(self, label: str, enabled: bool = True) -> None:
        self.label = label
        self.enabled = enabled
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.tty = sys.stderr.isatty()
        self.decile = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        finished = done >= total
        if self.tty:
            if not finished and now - self.last < 0.2:
                return
        else:
            d = done * 10 // max(total, 1)
            if d == self.decile and not finished:
                return
            self.decile = d
        self.last = now
        el = now - self.t0
        rate = done / el if el > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        width = 30
        fill = done * width // max(total, 1)
        text = (
            f"{self.label} [{'#' * fill}{'.' * (width - fill)}] {done}/{total} "
            f"{rate:.1f}/s eta {int(eta) // 60}:{int(eta) % 60:02d}"
        )
        sys.stderr.write(("\r" + text) if self.tty else text + "\n")
        if finished and self.tty:
            sys.stderr.write("\n")
        sys.stderr.flush()


# --- commands -----------------------------------------------------------------------------------------
def cmd_image(args: argparse.Namespace) -> int:
    from sim.hands import Hand
    from vision.errors import VisionError

    out = Path(args.output)
    if out.suffix.lower() not in IMAGE_TYPES:
        raise VisionError(f"{out}: unknown image type {out.suffix!r}: use .png or .jpg")
    game = _load_game(args)
    n = len(game.moves) if args.move is None else args.move
    if not 0 <= n <= len(game.moves):
        raise VisionError(f"--move {n}: the game has {len(game.moves)} moves")
    state = game.states[n]
    renderer, camera, light, effects, _ = _scene(args, state.profile, state.n)
    hands = []
    for text in args.hand:
        try:
            seat_s, rest = text.split(":", 1)
            parts = rest.split(":")
            x, y = _floats(parts[0], 2, "--hand")
            height = float(parts[1]) if len(parts) > 1 else 80.0
            hands.append(Hand(int(seat_s), (x, y), height))
        except ValueError:
            raise VisionError(f"--hand {text!r}: expected SEAT:X,Y or SEAT:X,Y:HEIGHT, e.g. 0:600,700:80") from None
    frame = renderer.render(state, camera, light, effects, hands, truth=not args.no_truth)
    _write_image(out, frame.image)
    written = [str(out)]
    if not args.no_truth:
        tpath = Path(args.truth) if args.truth else out.with_suffix(".json")
        frame.truth["move"] = n
        tpath.write_text(json.dumps(frame.truth, indent=1) + "\n", encoding="utf-8")
        written.append(str(tpath))
    sys.stdout.write(f"rendered move {n} of {len(game.moves)}: {', '.join(written)}\n")
    return 0


def cmd_video(args: argparse.Namespace) -> int:
    from games.tribes.sim.video import Pace, render_video

    game = _load_game(args)
    renderer, camera, light, effects, _ = _scene(args, game.state.profile, game.state.n)
    t0 = time.perf_counter()
    doc = render_video(
        game,
        renderer,
        camera,
        args.output,
        light,
        effects,
        Pace(fps=args.fps),
        args.start,
        args.end,
        progress=Progress("render", not args.quiet),
        image_ext=args.frame_format,
    )
    dt = time.perf_counter() - t0
    hand = sum(b - a for a, b in doc["hand_ranges"])
    sys.stdout.write(
        f"{doc['frame_count']} frames ({len(doc['moves'])} moves, {hand} with a hand in view) in {dt:.1f} s: "
        f"{args.output}\n"
    )
    if doc["jumps"]:
        sys.stdout.write(f"note: {len(doc['jumps'])} move(s) could not be animated step by step: {doc['jumps'][:10]}\n")
    return 0


def _profile(path: str | None) -> Any:
    from games.tribes.rules.profile import default_profile, load_profile

    return load_profile(path) if path else default_profile()


def cmd_pack(args: argparse.Namespace) -> int:
    from games.tribes.sim.packs import builtin_pack
    from games.tribes.vision.artpack import export_pack, load_pack, optional_faces, required_faces
    from vision.errors import VisionError

    prof = _profile(args.profile)
    if args.faces:
        for key, what in required_faces(prof):
            sys.stdout.write(f"{key:<28} {what}\n")
        for key in optional_faces():
            sys.stdout.write(f"{key:<28} (optional) a face-down tile\n")
        return 0
    if args.check:
        pack = load_pack(args.check, prof)
        sys.stdout.write(
            f"{args.check}: complete ({len(pack.faces)} faces, colours {', '.join(sorted(pack.colours))})\n"
        )
        return 0
    if args.style:
        if not args.output:
            raise VisionError("--style needs -o FOLDER to export to")
        export_pack(builtin_pack(args.style, prof), args.output)
        sys.stdout.write(f"wrote built-in pack {args.style} to {args.output}\n")
        return 0
    raise VisionError("say what to do: --faces, --check DIR, or --style NAME -o DIR")


def cmd_photo_pack(args: argparse.Namespace) -> int:
    """Build a pack from photos: one line per doubtful photo and a summary; every bad photo of the
    run is reported at once (exit 2) and nothing is written then."""
    from games.tribes.sim.packs import builtin_pack
    from games.tribes.vision.layout import resolve_layout
    from games.tribes.vision.photopack import build_photo_pack

    layout = resolve_layout(args.layout)
    prof = _profile(args.profile)
    fill = builtin_pack(args.fill_from, prof) if args.fill_from else None
    pack, report = build_photo_pack(args.photos, args.output, prof, fill, args.name, layout.dictionary, layout)
    for rep in report["photos"]:
        if rep["verdict"] != "ok":
            sys.stdout.write(
                f"doubtful: {Path(args.photos) / rep['photo']} ({rep['face']}): {'; '.join(rep['reasons'])}\n"
            )
    s = report["summary"]
    filled = f"; {s['filled']} filled from {s['filled_from']}" if s["filled"] else ""
    out = Path(args.output)
    sys.stdout.write(
        f"wrote {args.output}: {len(pack.faces)} faces ({s['photos']} from photos: {s['ok']} ok, "
        f"{s['doubtful']} doubtful{filled}); look at {out / 'contact-sheet.png'}, details in {out / 'report.json'}\n"
    )
    return 0
