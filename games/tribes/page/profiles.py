"""Box-profile editing for the page: every value with its provenance, and marking values as checked.

The page edits the profile document (``BoxProfile.raw``) value by value. A value the owner has
checked against their own box (corrected or confirmed) gets the provenance
:data:`CHECKED_NOTE`, written into the ``_sources`` of the nearest object holding it, which takes
precedence over any provenance above it (see ``rules.profile``). The result is validated by the
engine's own loader before it is saved.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from games.tribes.rules.profile import BoxProfile

CHECKED_NOTE = "review: checked against the owner's box in the companion's profile editor"
"""Provenance given to values the owner corrected or confirmed (the engine knows the kinds
rulebook, review and provisional; a value read off one's own box is closest to a review)."""

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class ProfilePathError(ValueError):
    """A value path that does not name a value of the profile; ``field`` is where it was given."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        super().__init__(f"{field}: {reason}")


def leaf_paths(node: Any, path: str = "") -> list[str]:
    """Paths of the component values of a profile document (ids, provenance and the header are not
    values), in document order, e.g. ``tracks.offspring.vp[3]``."""
    if isinstance(node, dict):
        out: list[str] = []
        for k, v in node.items():
            if k.startswith("_") or k == "id" or (not path and k in ("format", "version", "name")):
                continue
            out.extend(leaf_paths(v, f"{path}.{k}" if path else k))
        return out
    if isinstance(node, list) and node:
        out = []
        for i, v in enumerate(node):
            out.extend(leaf_paths(v, f"{path}[{i}]"))
        return out
    return [path]


def split_path(path: str) -> list[str | int]:
    """``'a.b[2].c'`` -> ``['a', 'b', 2, 'c']``; ValueError if it is not a path."""
    if not isinstance(path, str) or not path or len(path) > 200:
        raise ValueError("must be a value path such as 'tracks.offspring.vp[3]'")
    parts: list[str | int] = []
    pos = 0
    for m in _TOKEN.finditer(path):
        gap = path[pos : m.start()]
        if gap not in ("", "."):
            raise ValueError(f"{path!r} is not a value path")
        parts.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if pos != len(path) or path.startswith(".") or path.endswith("."):
        raise ValueError(f"{path!r} is not a value path")
    return parts


def profile_info(prof: BoxProfile) -> dict[str, Any]:
    """The profile document with the provenance of every value and the provisional ones listed."""
    paths = leaf_paths(prof.raw)
    sources = {p: prof.source_of(p) for p in paths}
    return {
        "name": prof.name,
        "digest": prof.digest,
        "profile": prof.raw,
        "sources": sources,
        "provisional": [p for p in paths if sources[p].startswith("provisional")],
    }


def mark_checked(raw: dict[str, Any], paths: list[Any], field: str = "checked") -> dict[str, Any]:
    """A copy of the profile document in which the values at ``paths`` carry :data:`CHECKED_NOTE`.

    A path may name a single value or a whole part (e.g. ``events[3].effects``). The note goes into
    the ``_sources`` of the deepest object on the path, keyed by the rest of the path.
    """
    doc = copy.deepcopy(raw)
    for i, path in enumerate(paths):
        where = f"{field}[{i}]"
        try:
            parts = split_path(path)
        except ValueError as exc:
            raise ProfilePathError(where, str(exc)) from None
        node: Any = doc
        holder: dict[str, Any] = doc
        rest_at = 0
        for k, part in enumerate(parts):
            if isinstance(part, str) and (part.startswith("_") or part == "id"):
                raise ProfilePathError(where, f"{path!r} names provenance or an id, not a value")
            if isinstance(part, int):
                if not isinstance(node, list) or part >= len(node):
                    raise ProfilePathError(where, f"{path!r} does not name a value of the profile")
            elif not isinstance(node, dict) or part not in node:
                raise ProfilePathError(where, f"{path!r} does not name a value of the profile")
            if isinstance(node, dict):
                holder = node
                rest_at = k
            node = node[part]
        if not parts or (rest_at == 0 and holder is doc and parts[0] in ("format", "version", "name")):
            raise ProfilePathError(where, f"{path!r} names the profile's header, not a value")
        rest = ""
        for part in parts[rest_at:]:
            rest += f"[{part}]" if isinstance(part, int) else (f".{part}" if rest else part)
        sources = holder.setdefault("_sources", {})
        if not isinstance(sources, dict):
            raise ProfilePathError(where, "the object holding it has a malformed _sources")
        sources[rest] = CHECKED_NOTE
    return doc
