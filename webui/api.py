"""The JSON API (blueprint ``api`` under ``/api``): game state, legal moves, moves, chance outcomes,
undo, corrections, new games, the journal, the box profile, the LED strip. The OpenAPI description is
:mod:`webui.openapi`, served at ``/api/openapi.json``.

Writes (POST/PUT) take a JSON object (``Content-Type: application/json``; anything else gets 415,
which also keeps other web sites from posting to the companion). Who may read and write at all —
the Host allow-list and pairing for anything but the host itself — is :mod:`webui.security`.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from datafile import DataFileError, parse_json
from games.api import GamePlugin, PageModule, ProfileSupport
from games.players import check_players
from session.runtime import REST_MODES, GameRuntime, Snapshot
from webui.demo import control_of, demo_view
from webui.errors import ApiError, bad_request
from webui.leds import leds_view
from webui.openapi import openapi_spec
from webui.views import live_view, log_view, page_of, position_view

bp = Blueprint("api", __name__, url_prefix="/api")

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def runtime() -> GameRuntime:
    """The runtime the app was created with."""
    return current_app.extensions["companion"]["runtime"]  # type: ignore[no-any-return]


def game() -> GamePlugin:
    """The game the runtime plays (or starts new games as)."""
    return runtime().game


def current() -> tuple[Snapshot, GamePlugin]:
    """The current game copied consistently with its plug-in (the game's own, not the runtime's game
    of the moment: another game may be started between two reads)."""
    snap = runtime().snapshot()
    return snap, snap.game or game()


def page() -> PageModule:
    """The page module of that game."""
    return page_of(game())


def profiles() -> ProfileSupport:
    """The box-profile support of that game (404 for a game without a box profile)."""
    support = game().profile
    if support is None:
        raise ApiError(404, "not_found", f"{game().info.title} has no box profile")
    return support


@bp.before_request
def _guard() -> None:
    """Writes take JSON only (pairing and the Host check are app-wide: :mod:`webui.security`)."""
    if request.method not in WRITE_METHODS:
        return
    if not request.is_json:
        raise ApiError(415, "unsupported_media_type", "send a JSON object with Content-Type: application/json")


def body() -> dict[str, Any]:
    """The request's JSON object, or ``bad_request`` naming the body. It is read like every data file
    (:func:`datafile.parse_json`): bytes that are not UTF-8, absurd nesting or numbers are a 400."""
    try:
        data = parse_json(request.get_data(cache=True), "body")
    except DataFileError as exc:
        reason = exc.reason
        if exc.field:  # not JSON at all: where
            reason = f"is not valid JSON ({exc.field}: {reason.removeprefix('not valid JSON: ')})"
        raise bad_request("body", reason) from None
    if not isinstance(data, dict):
        raise bad_request("body", "must be a JSON object")
    return data


def _int(data: dict[str, Any], key: str, required: bool = True, lo: int = 0) -> int | None:
    if key not in data or data[key] is None:
        if required:
            raise bad_request(key, "is missing")
        return None
    val = data[key]
    if isinstance(val, bool) or not isinstance(val, int) or val < lo:
        raise bad_request(key, f"must be an integer >= {lo}")
    return val


def _unknown(data: dict[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise bad_request(extra[0], f"is not a field here; expected {', '.join(sorted(allowed))}")


def _move(data: dict[str, Any], key: str = "move") -> Any:
    if key not in data:
        raise bad_request(key, "is missing: a move in notation or a structured move")
    return page().move_from_json(data[key], key)


def _query_int(name: str, default: int, lo: int, hi: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        val = int(raw)
    except ValueError:
        raise bad_request(name, f"must be an integer from {lo} to {hi}") from None
    if not lo <= val <= hi:
        raise bad_request(name, f"must be an integer from {lo} to {hi}")
    return val


def _accepted(change_index: int | None, move: Any, op: str) -> Response:
    accepted = {"op": op, "index": change_index, "move": str(move) if move else None}
    if move is not None:
        accepted["structured"] = page().move_to_json(move)
    return jsonify({"accepted": accepted, "view": live_view(runtime())})


# --- reading ---------------------------------------------------------------------------------------
@bp.get("/state")
def get_state() -> Response:
    """The live game: position, prompt, scores, era-3 progress, undo status."""
    return jsonify(live_view(runtime()))


@bp.get("/legal")
def get_legal() -> Response:
    """What the game waits for, with the legal-move overview (costs, reasons with clauses); with
    ``?moves=N`` also up to N concrete legal moves in notation."""
    limit = _query_int("moves", 0, 0, 1000)
    snap, plugin = current()
    rules = plugin.rules
    out = {"state_id": snap.state_id, **rules.prompt(snap.state)}
    if limit:
        moves = []
        for i, m in enumerate(rules.legal_moves(snap.state)):
            if i >= limit:
                break
            moves.append(str(m))
        out["moves"] = moves
    return jsonify(out)


@bp.get("/chance")
def get_chance() -> Response:
    """Whether the game waits for a chance outcome (setup, tiles drawn, achievement or event
    revealed) and the possible outcomes with probabilities."""
    snap, plugin = current()
    state = snap.state
    rules, pg = plugin.rules, page_of(plugin)
    needed = rules.is_chance(state)
    prompt = rules.prompt(state)
    out: dict[str, Any] = {"state_id": snap.state_id, "needed": needed, "kind": prompt.get("kind", "")}
    if needed:
        out["prompt"] = prompt
        out["outcomes"] = [
            {"move": str(m), "structured": pg.move_to_json(m), "probability": p}
            for m, p in rules.chance_outcomes(state)
        ]
        out.update(pg.chance_view(state))
    return jsonify(out)


@bp.get("/log")
def get_log() -> Response:
    """The move log, who made each move, VP totals after each move, and the journal entries; with
    ``?since=<state id>`` only what came after that state when only moves came since
    (:func:`webui.views.log_view`). Every page asks the same after a move, so the answer is made once
    (:class:`LogCache`); it has an ``ETag`` (``If-None-Match`` gets 304)."""
    since = _query_int("since", -1, 0, 10**15) if request.args.get("since") is not None else None
    snap = runtime().snapshot()
    tag = f"log-{snap.state_id}-{since if since is not None else 'all'}"
    if request.if_none_match.contains(tag):
        resp = Response(status=304)
        resp.set_etag(tag)
        return resp
    cache: LogCache = current_app.extensions["companion"].setdefault("log_cache", LogCache())
    data = cache.get(snap.state_id, since, lambda: _log_bytes(snap, since))
    resp = Response(data, mimetype="application/json")
    resp.set_etag(tag)
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def _log_bytes(snap: Snapshot, since: int | None) -> bytes:
    return json.dumps(log_view(snap, since), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class LogCache:
    """The last few answers of ``GET /api/log``, by state id and ``since`` (a new state makes them
    stale: they are keyed by the state id they were made at)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[int, int | None], bytes] = OrderedDict()

    def get(self, state_id: int, since: int | None, make: Callable[[], bytes]) -> bytes:
        """The answer at ``state_id`` for ``since``, made by ``make`` when not cached."""
        key = (state_id, since)
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit
        data = make()
        with self._lock:
            self._items[key] = data
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return data


@bp.get("/positions/<int:n>")
def get_position(n: int) -> Response:
    """The position after the first ``n`` moves (0 = the start of the game); with ``?moves=N`` also up
    to N moves possible there (``alternatives``, in notation; ``alternatives_more`` when there are
    more): what a correction of move ``n + 1`` may pick from."""
    limit = _query_int("moves", 0, 0, 1000)
    snap, plugin = current()
    if n > len(snap.moves):
        raise ApiError(404, "not_found", f"there is no position {n}: the game has {len(snap.moves)} moves")
    out = position_view(snap, n)
    if limit:
        moves: list[str] = []
        more = False
        for m in plugin.rules.legal_moves(snap.states[n]):
            if len(moves) >= limit:
                more = True
                break
            moves.append(str(m))
        out["alternatives"] = moves
        out["alternatives_more"] = more
    return jsonify(out)


@bp.get("/journal")
def get_journal() -> Response:
    """The game record: settings, moves, and the final ranking once the game is over (the engine's
    journal format; ``table-companion rules replay`` reads it). ``?download=1`` makes it a file."""
    data = runtime().export()
    resp = jsonify(data)
    if request.args.get("download") in ("1", "true", "yes"):
        name = (runtime().journal_path.stem if runtime().journal_path else "game") + ".json"  # type: ignore[union-attr]
        resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp


@bp.get("/catalog")
def get_catalog() -> Response:
    """The components of the current game's box profile (the saved profile before any game, or with
    ``?saved=1``), with provisional values flagged."""
    rt = runtime()
    saved = request.args.get("saved") in ("1", "true", "yes")
    support = profiles()
    prof = support.of_state(rt.snapshot().state) if rt.has_game and not saved else rt.profile
    return jsonify(page().catalog(prof))


@bp.get("/leds")
def get_leds() -> Response:
    """The LED strip: enabled, status (connected | reconnecting | absent) with the detail, port and
    protocol, the picture it shows (one [r, g, b] per LED) and the look of each slot."""
    return jsonify(leds_view(current_app.extensions["companion"].get("leds")))


# --- writing ---------------------------------------------------------------------------------------
@bp.post("/moves")
def post_move() -> Response:
    """Submit a move (notation or structured) based on the state id the client saw."""
    data = body()
    _unknown(data, {"state_id", "move"})
    state_id = _int(data, "state_id")
    move = _move(data)
    change = runtime().submit(move, state_id)
    return _accepted(change.index, move, "move")


@bp.post("/undo")
def post_undo() -> Response:
    """Take back the last move, whatever it was: a finished turn is reopened, a revealed chance
    outcome is forgotten and asked for again (the journal keeps both)."""
    data = body()
    _unknown(data, {"state_id"})
    change = runtime().undo(_int(data, "state_id"))
    return _accepted(change.index, change.move, "undo")


@bp.post("/corrections")
def post_correction() -> Response:
    """Correct the record: move ``index`` (0-based) becomes ``move``; ``rest`` says what happens to
    the moves after it (replay | prefix | truncate)."""
    data = body()
    _unknown(data, {"state_id", "index", "move", "rest"})
    state_id = _int(data, "state_id")
    index = _int(data, "index")
    assert index is not None
    rest = data.get("rest", "replay")
    if rest not in REST_MODES:
        raise bad_request("rest", f"must be one of {', '.join(REST_MODES)}")
    move = _move(data)
    try:
        change = runtime().correct(index, move, state_id, rest)
    except IndexError as exc:
        raise bad_request("index", str(exc)) from None
    return _accepted(change.index, move, "correct")


@bp.post("/demo")
def post_demo() -> Response:
    """Set the speed of the demo playing (``serve --demo``, ``demo``): ``{"speed": one of
    demo.speeds}``; 404 when no demo plays."""
    data = body()
    _unknown(data, {"speed"})
    control = control_of(runtime())
    if control is None:
        raise ApiError(404, "not_found", "no demo is playing (serve --demo, table-companion demo)")
    speed = data.get("speed")
    if isinstance(speed, bool) or not isinstance(speed, int | float) or speed not in control.speeds:
        raise bad_request("speed", f"must be one of {', '.join(f'{s:g}' for s in control.speeds)}")
    control.speed = float(speed)
    return jsonify({"demo": demo_view(runtime())})


def _players(data: dict[str, Any], plugin: GamePlugin) -> list[tuple[str, str]]:
    info = plugin.info
    lo, hi = info.min_players, info.max_players
    raw = data.get("players")
    if not isinstance(raw, list) or not lo <= len(raw) <= hi:
        raise bad_request("players", f"must list {lo} to {hi} players in seat order, the start player first")
    pairs: list[tuple[object, object]] = []
    for i, p in enumerate(raw):
        f = f"players[{i}]"
        if not isinstance(p, dict):
            raise bad_request(f, 'must be {"name": …, "colour": …}')
        _unknown_nested(p, {"name", "colour"}, f)
        pairs.append((p.get("name"), p.get("colour", info.colours[i % len(info.colours)])))
    return check_players(pairs)  # a FieldError is a 400 naming the field


def _unknown_nested(data: dict[str, Any], allowed: set[str], field: str) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise bad_request(f"{field}.{extra[0]}", "is not a field here")


def _profile_arg(spec: Any, plugin: GamePlugin, field: str = "profile") -> Any:
    if spec is None or spec == "saved":
        return runtime().saved_profile(plugin)
    support = plugin.profile
    if support is None:
        raise bad_request(field, f"{plugin.info.title} has no box profile")
    if spec == "default":
        return support.default()
    if isinstance(spec, dict):
        try:
            return support.parse(spec, field)
        except DataFileError as exc:
            raise bad_request(f"{field}.{exc.field}" if exc.field else field, exc.reason) from None
    raise bad_request(field, '"saved", "default" or a box profile document')


@bp.post("/games")
def post_game() -> Response:
    """Start a new game: players (seat order, start player first) with the setup outcome as laid on
    the table, or a position to start from. ``game`` names another game to play from now on."""
    data = body()
    _unknown(data, {"players", "profile", "position", "setup", "state_id", "game"})
    state_id = _int(data, "state_id", required=False)
    plugin = _game_arg(data.get("game"))
    position = data.get("position")
    if position is not None:
        if not isinstance(position, dict):
            raise bad_request("position", "must be a position document")
        if "players" in data or "setup" in data:
            raise bad_request("position", "give either players (and setup) or a position, not both")
        spec = data.get("profile")
        if spec is None and isinstance(position.get("profile"), dict):
            prof = _profile_arg(position["profile"], plugin, "position.profile")
        else:
            prof = _profile_arg(spec, plugin)
        try:
            runtime().new_game(profile=prof, position=position, state_id=state_id, game=plugin)
        except DataFileError as exc:
            raise bad_request(f"position.{exc.field}" if exc.field else "position", exc.reason) from None
        return _accepted(None, None, "new")
    players = _players(data, plugin)
    prof = _profile_arg(data.get("profile"), plugin)
    setup: Any = None
    if data.get("setup") is not None:
        pg = page_of(plugin)
        setup = pg.move_from_json(data["setup"], "setup")
        is_setup = getattr(pg, "is_setup", None)
        if not (is_setup(setup) if callable(is_setup) else setup.chance):
            raise bad_request("setup", "must be the setup outcome ('setup row=… era1=… lands=…')")
    try:
        runtime().new_game(players, profile=prof, setup=setup, state_id=state_id, game=plugin)
    except ValueError as exc:
        if type(exc) is ValueError:
            raise bad_request("players", str(exc)) from None
        raise
    return _accepted(None, None, "new")


def _game_arg(spec: Any) -> GamePlugin:
    """The game a new game is of: ``spec`` (an id) or the one being played."""
    if spec is None:
        return game()
    import games

    if not isinstance(spec, str) or spec not in games.available(hidden=True):
        raise bad_request("game", f"must be one of {', '.join(games.available())}")
    plugin = games.get(spec)
    if plugin.page is None:
        raise bad_request("game", f"{plugin.info.title} has no page to play it on")
    return plugin


# --- the box profile -------------------------------------------------------------------------------
def _edited_profile(data: dict[str, Any]) -> Any:
    support = profiles()
    _unknown(data, {"profile", "checked"})
    raw = data.get("profile")
    if not isinstance(raw, dict):
        raise bad_request("profile", "must be a box profile document (an object)")
    checked = data.get("checked", [])
    if not isinstance(checked, list) or len(checked) > 5000:
        raise bad_request("checked", "must be a list of value paths")
    doc = support.mark_checked(raw, checked) if checked else raw
    try:
        return support.parse(doc, "profile")
    except DataFileError as exc:
        raise bad_request(f"profile.{exc.field}" if exc.field else "profile", exc.reason) from None


@bp.get("/profile")
def get_profile() -> Response:
    """The saved box profile with the provenance of every value and the provisional ones listed."""
    return jsonify(profiles().info(runtime().profile))


@bp.post("/profile/validate")
def validate_profile() -> Response:
    """Check an edited profile (with the values marked as checked) without saving it."""
    prof = _edited_profile(body())
    info = profiles().info(prof)
    return jsonify({"valid": True, "digest": prof.digest, "provisional": info["provisional"], "profile": prof.raw})


@bp.put("/profile")
def put_profile() -> Response:
    """Validate and save the box profile new games use."""
    prof = _edited_profile(body())
    saved = runtime().save_profile(dict(prof.raw))
    return jsonify(profiles().info(saved))


@bp.get("/openapi.json")
def get_openapi() -> Response:
    """This API's OpenAPI 3 description."""
    return jsonify(openapi_spec())
