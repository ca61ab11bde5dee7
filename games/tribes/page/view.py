"""JSON views of the game for the page and the API (no Flask here): the live state with scores and
prompt, the catalog of the box profile (with provisional marks), the game log with scores over time,
and any earlier position.
"""

from __future__ import annotations

from typing import Any

from games.tribes.page.movejson import move_to_json
from games.tribes.rules.engine import END_TRIGGER, describe_context
from games.tribes.rules.legal import describe, free_slot
from games.tribes.rules.profile import BoxProfile
from games.tribes.rules.scoring import ranking, scoreboard
from games.tribes.rules.state import State
from session.runtime import GameRuntime, Snapshot


def position_json(state: State) -> dict[str, Any]:
    """The position (docs/position.md) without the profile document (the catalog has it)."""
    data = state.to_dict()
    data["profile"] = {"name": state.profile.name, "digest": state.profile.digest}
    return data


def era3_progress(state: State) -> dict[str, Any]:
    """Era-3 events carried out towards the end (R-END-1), and how many lie in the row."""
    prof = state.profile
    in_row = sum(1 for t in state.row if t.event and prof.event(t.tile).era == 3)
    return {
        "done": state.era3_done(),
        "needed": END_TRIGGER.get(state.n, 0),
        "in_row": in_row,
        "triggered": state.end_triggered,
    }


def state_block(state: State) -> dict[str, Any]:
    """Everything the page draws for one position: the position, the prompt (what the game waits
    for, with the legal-move overview), scores, era-3 progress."""
    out: dict[str, Any] = {
        "position": position_json(state),
        "prompt": describe(state),
        "context": describe_context(state),
        "scores": [b.to_dict() for b in scoreboard(state)],
        "era3": era3_progress(state),
        "free_slot": free_slot(state),
        "over": state.is_over,
    }
    if state.is_over:
        out["ranking"] = [
            {"place": s.place, "seat": s.seat, "name": s.name, "vp": s.total, "shells": s.shells}
            for s in ranking(state)
        ]
    return out


def mover(snap: Snapshot, index: int) -> dict[str, Any]:
    """Who made move ``index``: the seat that was to act, or the table for chance outcomes."""
    before = snap.states[index]
    move = snap.moves[index]
    seat = before.pending.seat
    return {
        "index": index,
        "move": str(move),
        "structured": move_to_json(move),
        "chance": move.chance,
        "seat": None if move.chance else seat,
        "player": None if move.chance else before.players[seat].name,
        "round": before.round,
    }


def live_view(runtime: GameRuntime) -> dict[str, Any]:
    """The live game as the page shows it (also the payload of every SSE ``state`` event)."""
    if not runtime.has_game:
        return {
            "state_id": runtime.state_id,
            "has_game": False,
            "warnings": list(runtime.warnings),
            "profile": {"name": runtime.profile.name, "digest": runtime.profile.digest},
        }
    snap = runtime.snapshot()
    allowed, reason, message = runtime.undo_status()
    state = snap.state
    out = {
        "state_id": snap.state_id,
        "has_game": True,
        "journal": snap.journal,
        "players": [{"seat": i, "name": p.name, "colour": p.colour} for i, p in enumerate(state.players)],
        "moves": len(snap.moves),
        "last": mover(snap, len(snap.moves) - 1) if snap.moves else None,
        "undo": {"allowed": allowed, "reason": reason, "message": message},
        "warnings": list(runtime.warnings),
        **state_block(state),
    }
    return out


def position_view(snap: Snapshot, n: int) -> dict[str, Any]:
    """The position after the first ``n`` moves (0 = the start) for the log stepper."""
    state = snap.states[n]
    out = {"state_id": snap.state_id, "n": n, "moves": len(snap.moves), **state_block(state)}
    out["last"] = mover(snap, n - 1) if n else None
    return out


def log_view(snap: Snapshot) -> dict[str, Any]:
    """The move log with who moved, the total VP of every player after each move (the score chart),
    and the raw journal entries (including undos and corrections)."""
    totals = [[b.total for b in scoreboard(s)] for s in snap.states]
    return {
        "state_id": snap.state_id,
        "players": [{"seat": i, "name": p.name, "colour": p.colour} for i, p in enumerate(snap.state.players)],
        "moves": [mover(snap, i) for i in range(len(snap.moves))],
        "totals": totals,
        "entries": list(snap.entries),
    }


def catalog(prof: BoxProfile) -> dict[str, Any]:
    """The components of a box profile as the page draws them, each value with a provisional flag
    (shown as "provisional — check your box")."""
    prov = prof.is_provisional
    tracks = []
    for t in prof.tracks:
        path = f"tracks.{t.name}"
        tracks.append(
            {
                "name": t.name,
                "intensity": list(t.intensity) if t.intensity is not None else None,
                "vp": list(t.vp),
                "provisional": {
                    "intensity": [prov(f"{path}.intensity[{k}]") for k in range(len(t.intensity or ()))],
                    "vp": [prov(f"{path}.vp[{k}]") for k in range(len(t.vp))],
                },
            }
        )
    achievements = []
    for i, a in enumerate(prof.achievements):
        path = f"achievements[{i}]"
        achievements.append(
            {
                "id": a.id,
                "era": a.era,
                "resource": a.resource,
                "track": a.track,
                "name": dict(a.name),
                "slots": [
                    {
                        "vp": s.vp,
                        "lightning": s.lightning,
                        "provisional": prov(f"{path}.slots[{k}].vp") or prov(f"{path}.slots[{k}].lightning"),
                    }
                    for k, s in enumerate(a.slots)
                ],
                "provisional": {
                    "resource": prov(f"{path}.resource"),
                    "track": prov(f"{path}.track"),
                    "name": prov(f"{path}.name"),
                },
            }
        )
    events = []
    for i, e in enumerate(prof.events):
        path = f"events[{i}]"
        events.append(
            {
                "id": e.id,
                "era": e.era,
                "name": dict(e.name),
                "text": dict(e.text),
                "provisional": prov(f"{path}.effects") or prov(f"{path}.text"),
            }
        )
    return {
        "name": prof.name,
        "digest": prof.digest,
        "resources": list(prof.resources),
        "members_per_player": prof.members_per_player,
        "stones_per_player": prof.stones_per_player,
        "tracks": tracks,
        "action_tiles": [
            {"id": t.id, "action": t.action, "hand": t.hand, "name": dict(t.name)} for t in prof.action_tiles
        ],
        "achievements": achievements,
        "events": events,
        "provisional_count": len(prof.provisional_paths()),
    }
