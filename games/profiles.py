"""A game's box-profile support (:class:`games.api.ProfileSupport`) from its loaders.

Every game reads its box profile the same way — a default shipped with the package, a file, a
document, each value with its provenance (:mod:`datafile.provenance`) — so a plug-in only names its
three loaders and where a state keeps its profile::

    profile=Profiles(default_profile, load_profile, parse_profile)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from datafile.provenance import mark_checked, profile_info
from games.api import BoxData


@dataclass(frozen=True)
class Profiles:
    """:class:`games.api.ProfileSupport` over a game's loaders; ``attribute``: the state's field that
    holds the profile (``profile``; Origo's board is ``board``)."""

    default_profile: Callable[[], Any]
    load_profile: Callable[[Any], Any]
    parse_profile: Callable[[Any, str], Any]
    attribute: str = "profile"

    def default(self) -> BoxData:
        """The shipped profile."""
        prof: BoxData = self.default_profile()
        return prof

    def load(self, path: str) -> BoxData:
        """A profile file; a ``DataFileError`` names the file and field."""
        prof: BoxData = self.load_profile(path)
        return prof

    def parse(self, raw: Any, source: str = "box profile") -> BoxData:
        """A profile document."""
        prof: BoxData = self.parse_profile(raw, source)
        return prof

    def of_state(self, state: Any) -> BoxData:
        """The profile a game is played with."""
        prof: BoxData = getattr(state, self.attribute)
        return prof

    def info(self, profile: Any) -> dict[str, Any]:
        """Every value with its provenance, the provisional ones listed (the page's editor)."""
        return profile_info(profile)

    def mark_checked(self, raw: Mapping[str, Any], paths: Sequence[str]) -> dict[str, Any]:
        """The document with the values at ``paths`` marked as checked against the owner's box."""
        return mark_checked(raw, list(paths))


__all__ = ["Profiles"]
