"""Stone Age as a plug-in of the companion (:class:`games.api.GamePlugin`).

The rules engine (:mod:`games.stoneage.rules`) is the single source of truth; this module adapts it to
the game interface: settings (players, box profile, an optional fixed order of the card deck and the
building stacks), the prompt with every place and why it is closed, the score breakdown, the ranking
with its tie-break, the box profile support and the lazily imported page module and CLI.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from datafile import Reader
from games.api import GameInfo, GamePlugin, PlayerFactory, Seat, Standing
from games.profiles import Profiles
from games.stoneage.rules import engine, moves, position, profile, prompt, scoring
from games.stoneage.rules.errors import DataFileError
from games.stoneage.rules.players import POLICIES
from games.stoneage.rules.state import Phase, State, new_state

if TYPE_CHECKING:
    from games.api import PageModule

INFO = GameInfo(
    id="stoneage",
    title="Stone Age",
    min_players=2,
    max_players=4,
    clause_prefix="S-",
    journal_format="stoneage-journal",
    position_format=position.POSITION_FORMAT,
    colours=("red", "blue", "yellow", "green"),
    summary="Place people, roll for food and resources, feed the tribe; the final scoring done for you",
    publisher="Hans im Glück",
)


def _profile_setting(prof: Any) -> Any:
    """The settings value of a profile: ``"default"`` or the whole document."""
    if prof is None or prof == "default":
        return "default"
    resolved = profile.resolve_profile(prof)
    return position.profile_ref(resolved)


def _read_order(settings: Mapping[str, Any], prof: profile.BoxProfile, n: int, source: str) -> tuple[Any, Any]:
    """The fixed card and building order of the settings (S-SET-4), or (None, None)."""
    raw = settings.get("order")
    if raw is None:
        return None, None
    rd = Reader(source, DataFileError)
    node = rd.obj(raw, "settings.order")
    rd.only(node, ("cards", "buildings"), "settings.order")
    cards = None
    if node.get("cards") is not None:
        ids = rd.list(node["cards"], "settings.order.cards")
        if sorted(ids) != sorted(c.id for c in prof.cards):
            raise rd.fail("settings.order.cards", f"must list each of the {len(prof.cards)} cards once, top first")
        cards = tuple(ids)
    builds = None
    if node.get("buildings") is not None:
        rows = rd.list(node["buildings"], "settings.order.buildings", n, n)
        seen: set[str] = set()
        out = []
        for j, row in enumerate(rows):
            ids = rd.list(row, f"settings.order.buildings[{j}]", prof.stack_size, prof.stack_size)
            for b in ids:
                if not isinstance(b, str) or not prof.is_building(b) or b in seen:
                    raise rd.fail(
                        f"settings.order.buildings[{j}]", f"{b!r} is no building of the box or is listed twice"
                    )
                seen.add(b)
            out.append(tuple(ids))
        builds = tuple(out)
    return cards, builds


def state_from_settings(
    settings: Mapping[str, Any], source: str = "settings", base: str | Path | None = None
) -> State:
    """The state a game with these settings starts in."""
    rd = Reader(source, DataFileError)
    if settings.get("start") is not None:
        return position.state_from_dict(settings["start"], f"{source}: settings.start")
    raw = rd.list(rd.get(settings, "players", "settings"), "settings.players", INFO.min_players, INFO.max_players)
    seats = []
    for i, node in enumerate(raw):
        path = f"settings.players[{i}]"
        p = rd.obj(node, path)
        rd.only(p, ("name", "colour"), path)
        seats.append(
            Seat(
                rd.text(rd.get(p, "name", path), f"{path}.name", max_len=60),
                rd.text(p.get("colour", INFO.colours[i]), f"{path}.colour", max_len=30),
            )
        )
    prof = profile.resolve_profile(settings.get("profile", "default"), source, base)
    cards, builds = _read_order(settings, prof, len(seats), source)
    return engine.start(new_state(prof, tuple(seats), cards, builds))


class StoneAgeRules:
    """The game interface over the Stone Age engine."""

    info = INFO

    @property
    def players(self) -> Mapping[str, PlayerFactory]:
        """``random`` and ``greedy``."""
        return POLICIES

    def settings(self, players: Sequence[tuple[str, str]], profile: Any = None) -> dict[str, Any]:
        """``{"players": [...], "profile": "default" | {...}}``."""
        if not INFO.min_players <= len(players) <= INFO.max_players:
            raise ValueError(
                f"Stone Age is played by {INFO.min_players} to {INFO.max_players} players, not {len(players)}"
            )
        return {
            "players": [{"name": n, "colour": c} for n, c in players],
            "profile": _profile_setting(profile),
        }

    def new_state(self, settings: Mapping[str, Any], source: str = "settings", base: str | Path | None = None) -> State:
        """The state before the first move (the reveal of the first card)."""
        return state_from_settings(settings, source, base)

    def parse_move(self, text: str) -> moves.AnyMove:
        """A move in the notation (docs/stoneage-notation.md)."""
        return moves.parse_move(text)

    def apply(self, state: State, move: Any) -> State:
        """The engine's ``apply``."""
        return engine.apply(state, move)

    def legal_moves(self, state: State) -> engine.LegalMoves:
        """The lazy legal-move view."""
        return engine.LegalMoves(state)

    def explain(self, state: State, move: Any) -> str | None:
        """Why the move is illegal (clause and reason), or None."""
        return engine.explain(state, move)

    def is_chance(self, state: State) -> bool:
        """The table reports a card, a building, dice."""
        return state.is_chance

    def is_over(self, state: State) -> bool:
        """After the round in which a stack emptied or the deck ran short (S-END-1)."""
        return state.is_over

    def actor(self, state: State) -> int:
        """The seat the game waits for."""
        return state.actor

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]]:
        """The possible reveals or rolls with their probabilities."""
        return list(engine.chance_outcomes(state))

    def sample_chance(self, state: State, rng: random.Random) -> Any:
        """A chance outcome drawn with ``rng`` (simulations only)."""
        return engine.sample_chance(state, rng)

    def seats(self, state: State) -> list[Seat]:
        """Names and colours in seat order."""
        return list(state.seats)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The position document (docs/stoneage-position.md)."""
        return position.state_to_dict(state)

    def state_from_json(
        self, data: Any, source: str = "<position>", profile: Any = None, base: str | Path | None = None
    ) -> State:
        """A position document read back with full validation."""
        prof = None if profile is None else _as_profile(profile)
        return position.state_from_dict(data, source, prof, base)

    def settings_of(self, state: State) -> dict[str, Any]:
        """Settings of a game that starts at ``state``."""
        return {
            "players": [{"name": s.name, "colour": s.colour} for s in state.seats],
            "profile": position.profile_ref(state.profile),
            "start": position.state_to_dict(state),
        }

    def scores(self, state: State) -> list[dict[str, Any]]:
        """The score track and the projected final score of every seat, with the full breakdown."""
        return [b.to_dict() for b in scoring.scoreboard(state)]

    def ranking(self, state: State) -> list[Standing]:
        """Most points (projected until the end), then agriculture + tools + people (S-END-5)."""
        return [
            Standing(r.place, r.seat, r.name, r.total, (("agriculture+tools+people", r.tiebreak),))
            for r in scoring.ranking(state)
        ]

    def result(self, state: State) -> dict[str, Any]:
        """Ranking and final scores with their breakdown."""
        return {
            "ended": state.ended,
            "rounds": state.round,
            "ranking": [s.to_dict() for s in self.ranking(state)],
            "scores": self.scores(state),
        }

    def prompt(self, state: State) -> dict[str, Any]:
        """What the game waits for, with every option and why the others are closed."""
        return prompt.prompt(state)

    def turn_key(self, state: State) -> Hashable:
        """A placing turn is one seat's placement; carrying out is one seat's whole turn (with its
        rolls, reveals and the dice-bar picks of others); feeding is one seat's decision; the reveals
        before a round belong to that round."""
        ph = state.phase
        if ph is Phase.OVER:
            return ("over",)
        if ph is Phase.REVEAL and state.resume is Phase.PLACE:
            return ("reveal", state.round)
        if ph is Phase.PLACE:
            return ("place", state.round, state.actor, sum(p.on_board for p in state.players))
        if ph is Phase.FEED:
            return ("feed", state.round, state.actor)
        seat = state.taker if ph is Phase.BAR else state.actor
        return ("act", state.round, seat)


def _as_profile(prof: Any) -> profile.BoxProfile:
    if isinstance(prof, profile.BoxProfile):
        return prof
    return profile.resolve_profile(prof)


def _page() -> PageModule:
    from games.stoneage.page import PAGE

    return PAGE


def _cli(sub: Any) -> None:
    from games.stoneage.cli import register

    register(sub)


GAME = GamePlugin(
    info=INFO,
    rules=StoneAgeRules(),
    profile=Profiles(profile.default_profile, profile.load_profile, profile.parse_profile),
    page=_page,
    cli=_cli,
    docs={
        "rules": "docs/stoneage-rules.md",
        "notation": "docs/stoneage-notation.md",
        "position": "docs/stoneage-position.md",
        "profile": "docs/stoneage-profile.md",
    },
)
