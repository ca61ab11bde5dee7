"""``table-companion carcassonne …``: the game's own commands — the box profile and its tiles.

The generic commands (``rules new|apply|legal|score|replay|simulate``) come from the chassis. These
let an owner correct the provisional tile list from their own box: list the tiles with provenance,
export the profile to edit, check an edited one (totals, every side covered) and mark values as
checked. A mistake prints one line on stderr and exits with status 2; nothing is written then.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from datafile import DataFileError, read_json
from datafile.provenance import ProfilePathError
from games.carcassonne.page.view import catalog
from games.carcassonne.rules.errors import ProfileError
from games.carcassonne.rules.tiles import BoxProfile, default_profile, load_profile, mark_checked, parse_profile


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``carcassonne`` command and its subcommands."""
    top = sub.add_parser("carcassonne", help="Hunters & Gatherers: the box profile and its tiles")
    csub = top.add_subparsers(dest="carcassonne_cmd", required=True, metavar="COMMAND")

    p = csub.add_parser("tiles", help="list the tile types of a box profile with counts and provenance")
    p.add_argument("--profile", help="box profile JSON (default: the shipped one)")
    p.add_argument("--provisional", action="store_true", help="only the tiles with provisional values")
    p.add_argument("--json", action="store_true", help="print the catalog as JSON")
    p.set_defaults(func=cmd_tiles)

    p = csub.add_parser("profile-export", help="write a box profile to a file, to correct it from your box")
    p.add_argument("-o", "--output", required=True, help="file to write ('-': stdout)")
    p.add_argument("--profile", help="box profile JSON to start from (default: the shipped one)")
    p.set_defaults(func=cmd_export)

    p = csub.add_parser("profile-check", help="validate an edited box profile (totals, every side covered)")
    p.add_argument("profile", help="box profile JSON")
    p.set_defaults(func=cmd_check)

    p = csub.add_parser("profile-mark", help="mark values of a profile as checked against your box")
    p.add_argument("profile", help="box profile JSON")
    p.add_argument("paths", nargs="+", help="value paths, e.g. 'land[3]' or 'land[3].meadows[0].deer'")
    p.add_argument("-o", "--output", required=True, help="file to write ('-': stdout; may be the input)")
    p.set_defaults(func=cmd_mark)


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _profile(path: str | None) -> BoxProfile:
    return load_profile(path) if path else default_profile()


def _write(path: str, doc: Any) -> None:
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if path == "-":
        sys.stdout.write(text)
    else:
        Path(path).write_text(text, encoding="utf-8")


def _tile_line(t: dict[str, Any]) -> str:
    parts = []
    for seg in t["segments"]:
        extra = [
            f"{k}={seg[k]}"
            for k in ("gold", "mushrooms", "fish", "deer", "mammoths", "tigers", "aurochs", "fire", "cult")
            if k in seg
        ]
        where = "".join(seg.get("sides", [])) or " ".join(seg.get("halves", []))
        end = f"->{seg['end']}" if "end" in seg else ""
        parts.append(f"{seg['spot']}[{where}{end}{(' ' + ' '.join(extra)) if extra else ''}]")
    mark = " (provisional)" if t["provisional"] else ""
    return f"{t['id']:<16} {t['group']:<5} x{t['count']:<2} {t['edges']}  {' '.join(parts)}{mark}"


def cmd_tiles(args: argparse.Namespace) -> int:
    """``carcassonne tiles``."""
    try:
        cat = catalog(_profile(args.profile))
    except DataFileError as exc:
        return _fail(str(exc))
    rows = [t for t in cat["tiles"] if t["provisional"] or not args.provisional]
    if args.json:
        _write("-", {**cat, "tiles": rows})
        return 0
    print(
        f"{cat['name']} (sha256 {cat['digest'][:12]}): {cat['components']['land_tiles']} land tiles + start, "
        f"{cat['components']['bonus_tiles']} bonus tiles; {cat['provisional']} provisional values"
    )
    for t in rows:
        print(_tile_line(t))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``carcassonne profile-export``."""
    try:
        prof = _profile(args.profile)
        _write(args.output, dict(prof.raw))
    except DataFileError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{args.output}: cannot write: {exc.strerror or exc}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """``carcassonne profile-check``."""
    try:
        prof = load_profile(args.profile)
    except DataFileError as exc:
        return _fail(str(exc))
    land = sum(prof.tiles[i].count for i in prof.land)
    bonus = sum(prof.tiles[i].count for i in prof.bonus)
    print(
        f"{args.profile}: valid — {land} land tiles in {len(prof.land)} types + start tile "
        f"{prof.tiles[prof.start].id!r}, {bonus} bonus tiles in {len(prof.bonus)} types; "
        f"{prof.members} members and {prof.huts} huts per player; "
        f"{len(prof.provisional_paths())} values still provisional"
    )
    return 0


def cmd_mark(args: argparse.Namespace) -> int:
    """``carcassonne profile-mark``."""
    try:
        raw = read_json(args.profile, "the box profile", ProfileError)
        parse_profile(raw, args.profile)
        doc = mark_checked(raw, list(args.paths), "paths")
        parse_profile(doc, args.profile)
        _write(args.output, doc)
    except (DataFileError, ProfilePathError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{args.output}: cannot write: {exc.strerror or exc}")
    return 0


__all__ = ["cmd_check", "cmd_export", "cmd_mark", "cmd_tiles", "register"]
