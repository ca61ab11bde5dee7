"""The box profile: every component value of the game, each with its provenance.

The rulebook prints the rules but not most component values (per-tile achievement data, event texts,
track values; see ``tribes-components.md``). They live in a JSON "box profile", never in code. Every
value carries a provenance — ``rulebook``, ``review`` or ``provisional`` (optionally ``kind: note``) —
inherited from the nearest ``_source`` above it and overridden per field by ``_sources``. The loader
validates a profile and reports ``file: field: reason``. The format is documented in
``docs/box-profile.md``; the default profile ships in ``rules/profiles/default.json``.

Events are written in a small effect language (see :class:`Event`), parsed here into values the
engine interprets.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from datafile import parse_json, read_json, show
from datafile.provenance import SourceReader, leaf_paths, source_of
from games.tribes.rules.errors import ProfileError

PROFILE_FORMAT = "tribes-box-profile"
PROFILE_VERSION = 1

TRACKS: tuple[str, ...] = ("offspring", "movement", "exploration", "strength")
"""The four progress tracks (R-SET-1), in a fixed order used by player state."""

ACTIONS: tuple[str, ...] = ("offspring", "movement", "exploration")
"""The three actions an action tile can show (R-TURN-4)."""

ERAS: tuple[int, ...] = (1, 2, 3)
BOARD_COLUMNS = 4
"""The achievement board holds 4 tiles per era (R-SET-6)."""

WHO: tuple[str, ...] = ("chooser", "all", "others")
STRENGTH_CONDITIONS: tuple[str, ...] = ("always", "strongest", "weakest", "not_strongest", "not_weakest")
STATS: tuple[str, ...] = (
    "members_placed",
    "members_in_supply",
    "tiles",
    "exhausted_tiles",
    "shells",
    "vp",
    "offspring",
    "movement",
    "exploration",
    "strength",
)
COMPARISONS: tuple[str, ...] = ("<", "<=", "==", ">=", ">", "!=")
EFFECT_KINDS: tuple[str, ...] = ("vp", "shells", "members", "track", "exhaust", "restore", "choose")


@dataclass(frozen=True, slots=True)
class Track:
    """A progress track: per space its action intensity (None for Strength) and end-game VP."""

    name: str
    intensity: tuple[int, ...] | None
    vp: tuple[int, ...]

    @property
    def top(self) -> int:
        """Index of the highest space."""
        return len(self.vp) - 1


@dataclass(frozen=True, slots=True)
class ActionTile:
    """One of the action tiles of the row: its action and whether it shows a hand (R-TURN-4)."""

    id: str
    action: str
    hand: bool
    name: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Slot:
    """One stone slot of an achievement tile: VP printed on it and whether it shows a lightning."""

    vp: int
    lightning: bool


@dataclass(frozen=True, slots=True)
class Achievement:
    """An achievement tile (R-ACH): era, the resource it needs, the track it advances, its slots."""

    id: str
    era: int
    resource: str
    track: str
    slots: tuple[Slot, ...]
    name: Mapping[str, str]

    @property
    def needs(self) -> int:
        """How many different tiles of the resource it needs: the era number (R-ACH-3)."""
        return self.era


@dataclass(frozen=True, slots=True)
class Condition:
    """When an event entry applies to a player.

    ``kind`` is one of :data:`STRENGTH_CONDITIONS` or ``"stat"``; for ``stat`` the player's statistic
    ``stat`` is compared with ``value`` by ``cmp``.
    """

    kind: str = "always"
    stat: str = ""
    cmp: str = ""
    value: int = 0


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect on an affected player.

    ``vp``/``shells``/``members``: gain (amount > 0) or lose (amount < 0); ``track``: move the marker
    on ``track`` by ``amount`` spaces; ``exhaust``/``restore``: turn ``amount`` tiles to the back or
    back to the resource face; ``choose``: the player picks one of ``options`` (each a list of effects).
    """

    kind: str
    amount: int = 0
    track: str = ""
    options: tuple[tuple[Effect, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class EventEntry:
    """``who`` (chooser / all / others) is affected ``if`` the condition holds: apply ``effects``."""

    who: str
    condition: Condition
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Event:
    """An event tile (R-EVT): its era, printed text and the entries the engine carries out."""

    id: str
    era: int
    name: Mapping[str, str]
    text: Mapping[str, str]
    entries: tuple[EventEntry, ...]


@dataclass(frozen=True, eq=False)
class BoxProfile:
    """A validated box profile. Equality is by content digest."""

    name: str
    resources: tuple[str, ...]
    tiles_per_resource: int
    members_per_player: int
    stones_per_player: int
    shells_total: int
    shells_per_player: int
    tracks: tuple[Track, ...]
    action_tiles: tuple[ActionTile, ...]
    achievements: tuple[Achievement, ...]
    events: tuple[Event, ...]
    provenance: Mapping[str, str] = field(repr=False)
    raw: Mapping[str, Any] = field(repr=False)
    digest: str = ""
    source: str = ""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoxProfile) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def __repr__(self) -> str:
        return f"<BoxProfile {self.name!r} sha256:{self.digest[:12]}>"

    def __post_init__(self) -> None:
        # lookup tables, built once (the dataclass is frozen, so they are set here)
        object.__setattr__(self, "_ach", {a.id: a for a in self.achievements})
        object.__setattr__(self, "_evt", {e.id: e for e in self.events})
        object.__setattr__(self, "_act", {t.id: t for t in self.action_tiles})

    def achievement(self, ach_id: str) -> Achievement:
        """The achievement with this id; KeyError if none."""
        table: dict[str, Achievement] = self._ach  # type: ignore[attr-defined]
        return table[ach_id]

    def event(self, event_id: str) -> Event:
        """The event with this id; KeyError if none."""
        table: dict[str, Event] = self._evt  # type: ignore[attr-defined]
        return table[event_id]

    def action_tile(self, tile_id: str) -> ActionTile:
        """The action tile with this id; KeyError if none."""
        table: dict[str, ActionTile] = self._act  # type: ignore[attr-defined]
        return table[tile_id]

    def track(self, name: str) -> Track:
        """The progress track called ``name``."""
        return self.tracks[TRACKS.index(name)]

    def resource_index(self, resource: str) -> int:
        """Position of ``resource`` in :attr:`resources`; ValueError if unknown."""
        return self.resources.index(resource)

    def achievements_of_era(self, era: int) -> tuple[Achievement, ...]:
        """The achievement tiles of ``era`` in profile order."""
        return tuple(a for a in self.achievements if a.era == era)

    def events_of_era(self, era: int) -> tuple[Event, ...]:
        """The event tiles of ``era`` in profile order: the era's face-down stack (R-SET-7)."""
        return tuple(e for e in self.events if e.era == era)

    def path_of(self, kind: str, item_id: str) -> str:
        """The profile path of an achievement, event or action tile: ``achievements[3]``."""
        items: dict[str, tuple[Achievement | Event | ActionTile, ...]] = {
            "achievements": self.achievements,
            "events": self.events,
            "action_tiles": self.action_tiles,
        }
        for i, item in enumerate(items[kind]):
            if item.id == item_id:
                return f"{kind}[{i}]"
        raise KeyError(item_id)

    def provisional_fields(self, path: str, fields: tuple[str, ...]) -> list[str]:
        """Which of ``fields`` under ``path`` hold provisional values (for marking them where shown)."""
        return [f for f in fields if self.is_provisional(f"{path}.{f}")]

    def source_of(self, path: str) -> str:
        """Provenance of the value at ``path`` (e.g. ``achievements[0].slots[1].vp``)."""
        return source_of(self.provenance, path)

    def is_provisional(self, path: str) -> bool:
        """True when the value at ``path`` is a provisional placeholder, not a sourced fact."""
        return self.source_of(path).startswith("provisional")

    def provisional_paths(self) -> list[str]:
        """Every leaf value whose provenance is provisional, as paths."""
        return [p for p, s in self._leaves().items() if s.startswith("provisional")]

    def _leaves(self) -> dict[str, str]:
        return {path: self.source_of(path) for path in leaf_paths(self.raw)}

    def to_json(self) -> str:
        """The profile as JSON text (the validated source document)."""
        return json.dumps(self.raw, ensure_ascii=False, indent=2) + "\n"


class _ProfileReader(SourceReader):
    """The common reader (collecting every value's provenance) with the profile's own kinds of value:
    ids and display texts. Every failure is a :class:`ProfileError` naming source, field and reason."""

    def __init__(self, source: str) -> None:
        super().__init__(source, ProfileError)

    def ident(self, val: Any, path: str) -> str:
        """An id: a non-empty text without spaces or the notation's separators."""
        if not isinstance(val, str) or not val or any(c.isspace() or c in ",;=@>/:" for c in val):
            raise self.fail(path, f"must be a non-empty id without spaces or ,;=@>/: — got {show(val)}")
        return val

    def display(self, val: Any, path: str) -> Mapping[str, str]:
        """A display text: a string, or an object of language code -> string."""
        if isinstance(val, str) and val:
            return {"en": val}
        if (
            isinstance(val, dict)
            and val
            and all(isinstance(k, str) and isinstance(v, str) and v for k, v in val.items())
        ):
            return dict(val)
        raise self.fail(path, f'must be a text or an object like {{"en": …, "de": …}}, got {show(val)}')


def parse_profile(data: Any, source: str = "<profile>") -> BoxProfile:
    """Validate a profile document (already decoded JSON) and build the :class:`BoxProfile`."""
    rd = _ProfileReader(source)
    root = rd.obj(data, "")
    if root.get("format") != PROFILE_FORMAT:
        raise rd.fail("format", f"must be {PROFILE_FORMAT!r}, got {show(root.get('format'))}")
    rd.integer(rd.get(root, "version", ""), "version", PROFILE_VERSION, PROFILE_VERSION)
    if "" not in rd.provenance:
        raise rd.fail("_source", "is missing: every profile gives a default provenance for its values")
    name = rd.text(rd.get(root, "name", ""), "name")

    comp = rd.obj(rd.get(root, "components", ""), "components")
    res_list = rd.list(rd.get(comp, "resources", "components"), "components.resources", 3)
    resources = tuple(rd.ident(r, f"components.resources[{i}]") for i, r in enumerate(res_list))
    if len(set(resources)) != len(resources):
        raise rd.fail("components.resources", "lists a resource twice")
    tiles = rd.integer(rd.get(comp, "tiles_per_resource", "components"), "components.tiles_per_resource", 4)
    members = rd.integer(rd.get(comp, "members_per_player", "components"), "components.members_per_player", 1)
    stones = rd.integer(rd.get(comp, "stones_per_player", "components"), "components.stones_per_player", 1)
    shells_pp = rd.integer(rd.get(comp, "shells_per_player", "components"), "components.shells_per_player", 0)
    shells_total = rd.integer(rd.get(comp, "shells_total", "components"), "components.shells_total", 0)
    if shells_total < 4 * shells_pp:
        raise rd.fail(
            "components.shells_total",
            f"must be at least 4 x shells_per_player = {4 * shells_pp}, got {shells_total}",
        )

    tracks_node = rd.obj(rd.get(root, "tracks", ""), "tracks")
    extra = sorted(set(tracks_node) - set(TRACKS) - {"_source", "_sources"})
    if extra:
        raise rd.fail(f"tracks.{extra[0]}", f"is not a track; the tracks are {', '.join(TRACKS)}")
    tracks = []
    for tname in TRACKS:
        path = f"tracks.{tname}"
        tn = rd.obj(rd.get(tracks_node, tname, "tracks"), path)
        vps = rd.list(rd.get(tn, "vp", path), f"{path}.vp", 1)
        vp = tuple(rd.integer(v, f"{path}.vp[{i}]", 0) for i, v in enumerate(vps))
        if tname == "strength":
            if tn.get("intensity") is not None:
                raise rd.fail(f"{path}.intensity", "must be null: Strength is compared, not an action")
            intensity = None
        else:
            ints = rd.list(rd.get(tn, "intensity", path), f"{path}.intensity", 1)
            intensity = tuple(rd.integer(v, f"{path}.intensity[{i}]", 0, 12) for i, v in enumerate(ints))
            if len(intensity) != len(vp):
                raise rd.fail(f"{path}.intensity", f"has {len(intensity)} spaces but vp has {len(vp)}: they must match")
        tracks.append(Track(tname, intensity, vp))

    acts = rd.list(rd.get(root, "action_tiles", ""), "action_tiles", 1)
    action_tiles = []
    for i, node in enumerate(acts):
        path = f"action_tiles[{i}]"
        an = rd.obj(node, path)
        action_tiles.append(
            ActionTile(
                id=rd.ident(rd.get(an, "id", path), f"{path}.id"),
                action=rd.choice(rd.get(an, "action", path), f"{path}.action", ACTIONS),
                hand=rd.boolean(rd.get(an, "hand", path), f"{path}.hand"),
                name=rd.display(rd.get(an, "name", path), f"{path}.name"),
            )
        )
    _unique(rd, [t.id for t in action_tiles], "action_tiles")

    achs = rd.list(rd.get(root, "achievements", ""), "achievements", 1)
    achievements = []
    for i, node in enumerate(achs):
        path = f"achievements[{i}]"
        an = rd.obj(node, path)
        slots_raw = rd.list(rd.get(an, "slots", path), f"{path}.slots", 1)
        slots = []
        for j, sn in enumerate(slots_raw):
            spath = f"{path}.slots[{j}]"
            so = rd.obj(sn, spath)
            slots.append(
                Slot(
                    vp=rd.integer(rd.get(so, "vp", spath), f"{spath}.vp", 0),
                    lightning=rd.boolean(rd.get(so, "lightning", spath), f"{spath}.lightning"),
                )
            )
        achievements.append(
            Achievement(
                id=rd.ident(rd.get(an, "id", path), f"{path}.id"),
                era=rd.integer(rd.get(an, "era", path), f"{path}.era", 1, 3),
                resource=rd.choice(rd.get(an, "resource", path), f"{path}.resource", resources),
                track=rd.choice(rd.get(an, "track", path), f"{path}.track", TRACKS),
                slots=tuple(slots),
                name=rd.display(rd.get(an, "name", path), f"{path}.name"),
            )
        )
    _unique(rd, [a.id for a in achievements], "achievements")
    for era in ERAS:
        n = sum(1 for a in achievements if a.era == era)
        if n < BOARD_COLUMNS:
            raise rd.fail(
                "achievements", f"era {era} has {n} tile(s); the board needs {BOARD_COLUMNS} per era (R-SET-6)"
            )

    evs = rd.list(rd.get(root, "events", ""), "events", 0)
    events = []
    for i, node in enumerate(evs):
        path = f"events[{i}]"
        en = rd.obj(node, path)
        entries_raw = rd.list(rd.get(en, "effects", path), f"{path}.effects", 1)
        entries = tuple(_parse_entry(rd, e, f"{path}.effects[{j}]", resources) for j, e in enumerate(entries_raw))
        events.append(
            Event(
                id=rd.ident(rd.get(en, "id", path), f"{path}.id"),
                era=rd.integer(rd.get(en, "era", path), f"{path}.era", 1, 3),
                name=rd.display(rd.get(en, "name", path), f"{path}.name"),
                text=rd.display(rd.get(en, "text", path), f"{path}.text"),
                entries=entries,
            )
        )
    _unique(rd, [e.id for e in events], "events")
    ids = [a.id for a in achievements] + [e.id for e in events] + [t.id for t in action_tiles]
    _unique(rd, ids, "ids (action tiles, achievements and events together)")

    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return BoxProfile(
        name=name,
        resources=resources,
        tiles_per_resource=tiles,
        members_per_player=members,
        stones_per_player=stones,
        shells_total=shells_total,
        shells_per_player=shells_pp,
        tracks=tuple(tracks),
        action_tiles=tuple(action_tiles),
        achievements=tuple(achievements),
        events=tuple(events),
        provenance=dict(rd.provenance),
        raw=json.loads(canonical),
        digest=hashlib.sha256(canonical.encode()).hexdigest(),
        source=source,
    )


def _unique(rd: _ProfileReader, ids: list[str], path: str) -> None:
    seen: set[str] = set()
    for x in ids:
        if x in seen:
            raise rd.fail(path, f"id {x!r} is used twice")
        seen.add(x)


def _parse_entry(rd: _ProfileReader, node: Any, path: str, resources: tuple[str, ...]) -> EventEntry:
    en = rd.obj(node, path)
    who = rd.choice(en.get("who", "chooser"), f"{path}.who", WHO)
    cond = _parse_condition(rd, en.get("if", "always"), f"{path}.if")
    effects = _parse_effects(rd, rd.get(en, "do", path), f"{path}.do", depth=0)
    return EventEntry(who, cond, effects)


def _parse_condition(rd: _ProfileReader, node: Any, path: str) -> Condition:
    if isinstance(node, str):
        return Condition(rd.choice(node, path, STRENGTH_CONDITIONS))
    cn = rd.obj(node, path)
    stat = rd.choice(rd.get(cn, "stat", path), f"{path}.stat", STATS)
    cmp = rd.choice(rd.get(cn, "cmp", path), f"{path}.cmp", COMPARISONS)
    value = rd.integer(rd.get(cn, "value", path), f"{path}.value")
    return Condition("stat", stat, cmp, value)


def _parse_effects(rd: _ProfileReader, node: Any, path: str, depth: int) -> tuple[Effect, ...]:
    items = rd.list(node, path, 1)
    return tuple(_parse_effect(rd, e, f"{path}[{i}]", depth) for i, e in enumerate(items))


def _parse_effect(rd: _ProfileReader, node: Any, path: str, depth: int) -> Effect:
    en = rd.obj(node, path)
    kinds = [k for k in en if k in EFFECT_KINDS]
    if len(kinds) != 1:
        raise rd.fail(path, f"must name exactly one effect of {', '.join(EFFECT_KINDS)}; got {sorted(en)}")
    kind = kinds[0]
    allowed = {kind, "steps"} if kind == "track" else {kind}
    extra = sorted(k for k in en if k not in allowed and not k.startswith("_"))
    if extra:
        raise rd.fail(f"{path}.{extra[0]}", f"is not a field of a {kind!r} effect")
    if kind == "choose":
        if depth > 0:
            raise rd.fail(f"{path}.choose", "choices cannot be nested")
        opts = rd.list(en["choose"], f"{path}.choose", 2)
        options = tuple(_parse_effects(rd, o, f"{path}.choose[{i}]", depth + 1) for i, o in enumerate(opts))
        return Effect("choose", options=options)
    if kind == "track":
        track = rd.choice(en["track"], f"{path}.track", TRACKS)
        steps = rd.integer(rd.get(en, "steps", path), f"{path}.steps", -12, 12)
        if steps == 0:
            raise rd.fail(f"{path}.steps", "must not be 0")
        return Effect("track", amount=steps, track=track)
    lo, hi = (1, 12) if kind in ("exhaust", "restore") else (-50, 50)
    amount = rd.integer(en[kind], f"{path}.{kind}", lo, hi)
    if amount == 0:
        raise rd.fail(f"{path}.{kind}", "must not be 0")
    return Effect(kind, amount=amount)


def load_profile(path: str | Path) -> BoxProfile:
    """Read and validate a profile file; :class:`ProfileError` names file, field and reason."""
    return parse_profile(read_json(path, "the profile", ProfileError), str(path))


_DEFAULT: BoxProfile | None = None


def default_profile() -> BoxProfile:
    """The profile shipped with the package (``rules/profiles/default.json``), loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        ref = resources.files(__package__).joinpath("profiles/default.json")
        _DEFAULT = parse_profile(parse_json(ref.read_bytes(), "default profile", ProfileError), "default profile")
    return _DEFAULT


def resolve_profile(spec: Any, source: str = "<settings>", base: str | Path | None = None) -> BoxProfile:
    """A profile from a settings value: ``"default"``/None, a file path, or an inline object.

    A relative path is read relative to ``base``, the folder of the file whose document names it
    (a document that is not from a file has no ``base``: the working directory)."""
    if spec is None or spec == "default":
        return default_profile()
    if isinstance(spec, dict):
        return parse_profile(spec, f"{source}: profile")
    if isinstance(spec, str):
        path = Path(spec)
        return load_profile(path if base is None or path.is_absolute() else Path(base) / path)
    raise ProfileError(source, "profile", f'must be "default", a file path or an object, got {show(spec)}')
