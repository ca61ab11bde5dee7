"""JSON views of the live game for the page and the API, for any game (no Flask here): the live state,
the move log with scores over time, and any earlier position. What one position shows comes from
the game's page module (:meth:`games.api.PageModule.state_view`); this module adds the record around
it: players, the last move and who made it, the undo status, warnings, the game's id and script,
when it started, a finished game's result (ranking with tie-breaks, scores) and a demo's speed.
"""

from __future__ import annotations

from typing import Any

from games.api import GamePlugin, PageModule
from session.runtime import GameRuntime, Snapshot
from webui.demo import demo_view


def page_of(game: GamePlugin) -> PageModule:
    """The page module of ``game`` (every game the page serves has one)."""
    if game.page is None:
        raise ValueError(f"{game.info.title} has no page module")
    return game.page()


def game_info(game: GamePlugin) -> dict[str, Any]:
    """Which game the page shows, which browser module draws it, and whether it has a box profile
    (the shell offers its editor only then)."""
    page = page_of(game)
    return {
        "id": game.info.id,
        "title": game.info.title,
        "script": f"/games/{game.info.id}/static/{page.script}",
        "min_players": game.info.min_players,
        "max_players": game.info.max_players,
        "colours": list(game.info.colours),
        "profile": game.profile is not None,
        "bgg_id": game.info.bgg_id,
        "highest_wins": game.info.highest_wins,
    }


def mover(snap: Snapshot, index: int) -> dict[str, Any]:
    """Who made move ``index``: the seat that was to act, or the table for chance outcomes."""
    game = snap.game
    assert game is not None
    rules, page = game.rules, page_of(game)
    before = snap.states[index]
    move = snap.moves[index]
    seat = rules.actor(before)
    log_fields = getattr(page, "log_fields", None)
    return {
        "index": index,
        "move": str(move),
        "structured": page.move_to_json(move),
        "chance": move.chance,
        "seat": None if move.chance else seat,
        "player": None if move.chance else rules.seats(before)[seat].name,
        **(log_fields(before) if callable(log_fields) else {}),
    }


def _players(game: GamePlugin, state: Any) -> list[dict[str, Any]]:
    return [{"seat": i, "name": s.name, "colour": s.colour} for i, s in enumerate(game.rules.seats(state))]


def live_view(runtime: GameRuntime) -> dict[str, Any]:
    """The live game as the page shows it (also the payload of every SSE ``state`` event)."""
    game = runtime.game
    if not runtime.has_game:
        prof = runtime.profile
        out: dict[str, Any] = {
            "state_id": runtime.state_id,
            "has_game": False,
            "game": game_info(game),
            "warnings": list(runtime.warnings),
            **_demo(runtime),
        }
        if prof is not None:
            out["profile"] = {"name": prof.name, "digest": prof.digest}
        return out
    snap = runtime.snapshot()
    game = snap.game or game  # the snapshot's own game: another may have been started since
    rules = game.rules
    allowed, reason, message = runtime.undo_status()
    last = snap.moves[-1] if snap.moves else None
    state = snap.state
    return {
        "state_id": snap.state_id,
        "has_game": True,
        "game": game_info(game),
        "journal": snap.journal,
        "players": _players(game, state),
        "moves": len(snap.moves),
        "last": mover(snap, len(snap.moves) - 1) if snap.moves else None,
        "undo": {
            "allowed": allowed,
            "reason": reason,
            "message": message,
            "move": str(last) if last is not None else None,
            "chance": bool(last is not None and last.chance),
        },
        "over": rules.is_over(state),
        "started": snap.created,
        "warnings": list(runtime.warnings),
        **_demo(runtime),
        **({"result": result_view(game, state)} if rules.is_over(state) else {}),
        **page_of(game).state_view(state),
    }


def _demo(runtime: GameRuntime) -> dict[str, Any]:
    """``demo`` (its speed and the speeds offered) while a demo plays through ``runtime``."""
    d = demo_view(runtime)
    return {"demo": d} if d is not None else {}


def result_view(game: GamePlugin, state: Any) -> dict[str, Any]:
    """A finished game's result for the end-of-game summary: the ranking with the game's tie-breaks
    and the final scores with their breakdown (any game)."""
    return {
        "ranking": [s.to_dict() for s in game.rules.ranking(state)],
        "scores": game.rules.scores(state),
    }


def position_view(snap: Snapshot, n: int) -> dict[str, Any]:
    """The position after the first ``n`` moves (0 = the start) for the log stepper."""
    assert snap.game is not None
    state = snap.states[n]
    out = {"state_id": snap.state_id, "n": n, "moves": len(snap.moves), **page_of(snap.game).state_view(state)}
    out["last"] = mover(snap, n - 1) if n else None
    return out


def log_view(snap: Snapshot, since: int | None = None) -> dict[str, Any]:
    """The move log with who moved, the total score of every player after each move (the score
    chart; ``standing`` too when the game's scores tell what is earned so far apart from what the
    end would add), and the raw journal entries (including undos and corrections).

    With ``since`` (a state id the asking page already has the log of), only what came after it when
    nothing but moves came since: ``since`` and ``from`` (the first move index sent) are set,
    ``moves`` holds the movers from ``from`` on, ``totals`` (and ``standing``) the totals after each of
    those moves and ``entries`` the new journal entries. Otherwise (an undo or a correction since,
    another game, an unknown id) the whole log, with ``since`` null and ``from`` 0."""
    game = snap.game
    assert game is not None
    start = _appended_since(snap, since)
    n = len(snap.moves)
    first = 0 if start is None else start
    scores = [game.rules.scores(s) for s in snap.states[first + (start is not None) :]]
    base = snap.state_id - len(snap.entries)
    entries = snap.entries if start is None else snap.entries[since - base :] if since is not None else ()
    out: dict[str, Any] = {
        "state_id": snap.state_id,
        "since": None if start is None else since,
        "from": first,
        "players": _players(game, snap.state),
        "moves": [mover(snap, i) for i in range(first, n)],
        "totals": [[int(b["total"]) for b in row] for row in scores],
        "entries": list(entries),
    }
    head = game.rules.scores(snap.states[0])
    if head and all("standing" in b for b in head):
        out["standing"] = [[int(b["standing"]) for b in row] for row in scores]
    return out


def _appended_since(snap: Snapshot, since: int | None) -> int | None:
    """How many moves the log had at state ``since`` if only moves were appended since (else None)."""
    if since is None:
        return None
    base = snap.state_id - len(snap.entries)  # the state id the current game started at
    if not base <= since <= snap.state_id:
        return None
    later = snap.entries[since - base :]
    if any(e.get("op") != "move" for e in later):
        return None
    return len(snap.moves) - len(later)
