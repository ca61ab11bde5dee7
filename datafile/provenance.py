"""Provenance of component values in box profiles (any game), and marking values as checked.

A box profile is a JSON document of component values. Every value carries a provenance —
``rulebook``, ``review`` or ``provisional`` (optionally ``kind: note``) — inherited from the nearest
``_source`` above it and overridden per field by ``_sources`` (docs/box-profile.md).
:class:`SourceReader` is a :class:`datafile.Reader` that collects them while a game's loader
validates the document; :func:`source_of` answers for any value path.

The page edits the profile document value by value. A value the owner has
checked against their own box (corrected or confirmed) gets the provenance
:data:`CHECKED_NOTE`, written into the ``_sources`` of the nearest object holding it, which takes
precedence over any provenance above it. The result is validated by the game's own loader before it
is saved.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any, Protocol

from datafile import DataFileError, Reader, join, kind

PROVENANCE_KINDS: tuple[str, ...] = ("rulebook", "review", "provisional")

CHECKED_NOTE = "review: checked against the owner's box in the companion's profile editor"
"""Provenance given to values the owner corrected or confirmed (the engine knows the kinds
rulebook, review and provisional; a value read off one's own box is closest to a review)."""

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class ProfilePathError(ValueError):
    """A value path that does not name a value of the profile; ``field`` is where it was given."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
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


class Sourced(Protocol):
    """A validated profile: its name, digest, document and the provenance of every value."""

    @property
    def name(self) -> str: ...  # pragma: no cover - protocol

    @property
    def digest(self) -> str: ...  # pragma: no cover - protocol

    @property
    def raw(self) -> Mapping[str, Any]: ...  # pragma: no cover - protocol

    def source_of(self, path: str) -> str: ...  # pragma: no cover - protocol


def parent(path: str) -> str:
    """The path of the object or list holding ``path`` (``a.b[2]`` → ``a.b``; top: empty)."""
    if path.endswith("]"):
        return path[: path.rindex("[")]
    if "." in path:
        return path[: path.rindex(".")]
    return ""


def source_of(provenance: Mapping[str, str], path: str) -> str:
    """Provenance of the value at ``path``: the nearest entry at or above it (default provisional)."""
    probe = path
    while probe:
        if probe in provenance:
            return provenance[probe]
        probe = parent(probe)
    return provenance.get("", "provisional")


def provisional_paths(raw: Any, provenance: Mapping[str, str]) -> list[str]:
    """Every value path of ``raw`` whose provenance is provisional."""
    return [p for p in leaf_paths(raw) if source_of(provenance, p).startswith("provisional")]


class SourceReader(Reader):
    """A :class:`datafile.Reader` that collects ``_source`` / ``_sources`` of every object it reads
    (``obj``) into :attr:`provenance` (value path → provenance text)."""

    def __init__(self, source: str, error: type[DataFileError] = DataFileError) -> None:
        super().__init__(source, error)
        self.provenance: dict[str, str] = {}

    def obj(self, node: Any, path: str) -> dict[str, Any]:
        """An object; its provenance entries are recorded."""
        out = super().obj(node, path)
        self.collect(out, path)
        return out

    def collect(self, node: dict[str, Any], path: str) -> None:
        """Record ``node``'s ``_source`` (for ``path``) and ``_sources`` (for the fields it names)."""
        if "_source" in node:
            self.provenance[path] = self.prov(node["_source"], join(path, "_source"))
        if "_sources" in node:
            srcs = node["_sources"]
            if not isinstance(srcs, dict):
                raise self.fail(join(path, "_sources"), f"must be an object, got {kind(srcs)}")
            for key, val in srcs.items():
                if not isinstance(key, str) or not key or key.startswith(("[", ".")):
                    raise self.fail(join(path, "_sources"), f"bad field path {key!r}")
                head = key.split("[", 1)[0].split(".", 1)[0]
                if head not in node:
                    raise self.fail(join(path, "_sources"), f"names {key!r}, which is not a field here")
                sub = f"{path}.{key}" if path else key
                self.provenance[sub] = self.prov(val, f"{join(path, '_sources')}.{key}")

    def prov(self, val: Any, path: str) -> str:
        """A provenance text: ``rulebook``, ``review`` or ``provisional``, optionally ``: note``."""
        if not isinstance(val, str) or val.split(":", 1)[0].strip() not in PROVENANCE_KINDS:
            raise self.fail(
                path,
                f"provenance must be 'rulebook', 'review' or 'provisional' (optionally "
                f"followed by ': note'), got {val!r}",
            )
        return val.strip()


def profile_info(prof: Sourced) -> dict[str, Any]:
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


def mark_checked(raw: Mapping[str, Any], paths: list[Any], field: str = "checked") -> dict[str, Any]:
    """A copy of the profile document in which the values at ``paths`` carry :data:`CHECKED_NOTE`.

    A path may name a single value or a whole part (e.g. ``events[3].effects``). The note goes into
    the ``_sources`` of the deepest object on the path, keyed by the rest of the path.
    """
    doc: dict[str, Any] = copy.deepcopy(dict(raw))
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
        if isinstance(node, dict) and "_source" in node:
            # a whole object with its own provenance: that is read after the holder's _sources, so
            # it must say checked too
            node["_source"] = CHECKED_NOTE
    return doc
