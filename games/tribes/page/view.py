"""JSON views of a Tribes position for the page (no Flask here): the position with scores, prompt and
era-3 progress, and the catalog of the box profile (with provisional marks). The shell's views
(:mod:`webui.views`: live state, log, earlier positions) put them together.
"""

from __future__ import annotations

from typing import Any

from games.tribes.rules.engine import END_TRIGGER, describe_context
from games.tribes.rules.legal import describe, free_slot
from games.tribes.rules.profile import BoxProfile
from games.tribes.rules.scoring import ranking, scoreboard
from games.tribes.rules.state import State


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
