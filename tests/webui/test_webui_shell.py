"""The page shell in real headless Chromium: it is game-neutral. The toy game (coin race, its module
games/toy/static/toy.js) played to the end in the page and started again from the shell's generic
new-game form; the shell loading the right module whenever the game changes; a game module's strings
(and rule clauses in words) in both languages; the shell's generic box-profile editor for a game
without its own."""

from __future__ import annotations

import copy
import hashlib
import json
import urllib.request
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import games
from datafile import DataFileError
from games.api import GamePlugin
from tests.webui.webui_helpers import PLAYERS, play

TOY_PLAYERS = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def test_the_toy_game_played_to_the_end_in_the_page(page, live, runtime):
    page.goto(live.url + "/")
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-game", "tribes")
    post(live.url + "/api/games", {"game": "toy", "players": TOY_PLAYERS})  # from elsewhere: the page follows
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-game", "toy")
    expect(page.get_by_test_id("title")).to_have_text("Coin race companion")
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    expect(page.get_by_role("button", name="Box profile")).to_be_hidden()  # coin race has no box profile
    # Ann flips: the table reports the coin, only its two outcomes are offered
    page.get_by_test_id("move-flip").click()
    expect(page.get_by_test_id("move-coin-heads")).to_be_visible()
    expect(page.get_by_test_id("move-step-1")).to_have_count(0)
    page.get_by_test_id("move-coin-heads").click()
    expect(page.get_by_test_id("toy-space-0")).to_have_text("3")
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    for who_next in ["Ann", "Bob", "Ann", "Bob", "Ann"]:  # Bob 2, Ann 5, Bob 4, Ann 7, Bob 6
        page.get_by_test_id("move-step-2").click()
        expect(page.get_by_test_id("to-move")).to_have_text(who_next)
    page.get_by_test_id("move-step-2").click()  # Ann to 9
    expect(page.get_by_test_id("toy-space-0")).to_have_text("9")
    page.get_by_test_id("move-step-1").click()  # Bob to 7
    # one short of the goal: no 'step 2', with the rule's reason
    expect(page.get_by_test_id("move-step-2")).to_have_count(0)
    expect(page.get_by_test_id("why-step-2")).to_contain_text("T-3")
    # the shell's parts work for this game too: score chart, log, undo
    expect(page.get_by_test_id("chart-line-1")).to_be_attached()
    expect(page.get_by_test_id("log")).to_contain_text("coin heads")
    page.get_by_test_id("move-step-1").click()  # Ann reaches 10
    expect(page.get_by_test_id("to-move")).to_have_text("Game over")
    expect(page.get_by_test_id("ranking")).to_contain_text("Ann: 10")
    expect(page.get_by_test_id("ranking")).to_contain_text("Bob: 7")
    expect(page.locator("[data-move]")).to_have_count(0)
    snap = runtime.snapshot()
    assert runtime.game.info.id == "toy" and runtime.game.rules.is_over(snap.state)
    assert [str(m) for m in snap.moves] == [
        "flip", "coin heads", "step 2", "step 2", "step 2", "step 2", "step 2", "step 2", "step 1", "step 1",
    ]
    # the history stepper shows an earlier position of this game
    page.locator("[data-step='1']").first.click()
    expect(page.get_by_test_id("live")).to_be_visible()
    expect(page.get_by_test_id("toy-space-0")).to_have_text("0")
    page.get_by_test_id("live").click()
    # another game from the shell's generic new-game form (min 2, max 4 players; 3 rows to start with)
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_test_id("setup-name-2")).to_be_visible()
    expect(page.get_by_test_id("setup-colour-0")).to_have_value("red")
    page.get_by_test_id("setup-rm-2").click()
    expect(page.get_by_test_id("setup-name-2")).to_have_count(0)
    expect(page.get_by_test_id("setup-rm-0")).to_be_disabled()  # not fewer than 2
    page.get_by_test_id("setup-name-0").fill("Cy")
    page.get_by_test_id("setup-name-1").fill("Di")
    page.get_by_test_id("setup-colour-1").select_option("green")
    page.get_by_test_id("setup-go").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Cy")
    expect(page.get_by_test_id("toy-space-1")).to_have_text("0")
    seats = runtime.game.rules.seats(runtime.snapshot().state)
    assert runtime.game.info.id == "toy" and [(s.name, s.colour) for s in seats] == [("Cy", "red"), ("Di", "green")]


def test_the_shell_loads_the_module_of_the_game_being_played(page, live, runtime, recorded):
    play(runtime, recorded, 4)
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url.split("/", 3)[3]) if "/games/" in r.url else None)
    page.goto(live.url + "/")
    expect(page.locator("#row h2")).to_have_text("Action row")
    expect(page.get_by_test_id("title")).to_have_text("Tribes: Dawn of Humanity companion")
    # someone starts a game of coin race: the page swaps the Tribes module for the toy's
    runtime.new_game([("Ann", "red"), ("Bob", "blue")], game="toy")
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-game", "toy")
    expect(page.get_by_test_id("toy-row-1")).to_contain_text("Bob")
    expect(page.locator("#row")).to_have_count(0)
    expect(page.get_by_test_id("log")).not_to_contain_text("exp")  # the log is the new game's
    page.get_by_test_id("move-step-1").click()
    expect(page.get_by_test_id("toy-space-0")).to_have_text("1")
    expect(page.get_by_test_id("log")).to_contain_text("step 1")
    # and back to Tribes (waiting for the setup): the Tribes module again, the toy's parts gone
    runtime.new_game(PLAYERS, game="tribes")  # (without game=: another game of coin race)
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-game", "tribes")
    expect(page.get_by_test_id("open-setup")).to_be_visible()
    expect(page.get_by_test_id("toy-row-0")).to_have_count(0)
    expect(page.get_by_test_id("title")).to_have_text("Tribes: Dawn of Humanity companion")
    expect(page.get_by_role("button", name="Box profile")).to_be_visible()
    assert scripts[:1] == ["games/tribes/static/tribes.js"] and "games/toy/static/toy.js" in scripts


def test_a_game_modules_strings_in_both_languages(page, live, runtime):
    toy = games.get("toy").rules
    position = toy.state_to_json(toy.new_state({"players": TOY_PLAYERS}))
    position["players"][0]["space"] = 9  # Ann one short of the goal
    runtime.new_game(position=position, game="toy")
    page.goto(live.url + "/")
    expect(page.locator("#toy-track h2")).to_have_text("Race to space 10")
    expect(page.get_by_test_id("move-flip")).to_have_text("Flip the coin")
    expect(page.get_by_test_id("why-step-2")).to_contain_text("T-3 (no 'step 2' one short of the goal)")
    page.get_by_test_id("lang").click()
    # the module's strings, its rule clauses in words, and the shell's around them
    expect(page.locator("#toy-track h2")).to_have_text("Wettlauf bis Feld 10")
    expect(page.get_by_test_id("move-flip")).to_have_text("Münze werfen")
    expect(page.get_by_test_id("move-step-1")).to_have_text("1 Schritt")
    expect(page.get_by_test_id("why-step-2")).to_contain_text("nicht möglich")
    expect(page.get_by_test_id("why-step-2")).to_contain_text("T-3 (kein „step 2“ ein Feld vor dem Ziel)")
    expect(page.get_by_test_id("title")).to_have_text("Coin race – Begleiter")
    expect(page.get_by_role("button", name="Neues Spiel")).to_be_visible()
    expect(page.locator("#toy-status")).to_contain_text("ist am Zug")
    page.reload()  # the choice is remembered
    expect(page.get_by_test_id("move-flip")).to_have_text("Münze werfen")
    page.get_by_test_id("move-flip").click()
    expect(page.get_by_test_id("move-coin-tails")).to_have_text("Zahl: +0")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("move-coin-tails")).to_have_text("Tails: +0")
    expect(page.locator("#toy-status")).to_contain_text("table")


# --- the generic box-profile editor: coin race with a box profile, registered for one test ---------
BOX = {
    "format": "toybox-profile",
    "name": "Coin race in a box",
    "goal": 10,
    "coin": {"heads": 3, "tails": 0},
    "_provisional": ["coin.heads"],
}


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith((prefix + ".", prefix + "["))


@dataclass(frozen=True)
class Box:
    raw: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.raw["name"])

    @property
    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.raw, sort_keys=True).encode()).hexdigest()


class BoxSupport:
    """A tiny ProfileSupport: values are provisional while listed in ``_provisional``."""

    def default(self) -> Box:
        return Box(copy.deepcopy(BOX))

    def load(self, path: str) -> Box:
        return self.parse(json.loads(Path(path).read_text(encoding="utf-8")), path)

    def parse(self, raw: Any, source: str = "box profile") -> Box:
        if not isinstance(raw, dict) or raw.get("format") != "toybox-profile":
            raise DataFileError(source, "format", "must be 'toybox-profile'")
        for field in ("goal", "coin.heads", "coin.tails"):
            val: Any = raw
            for part in field.split("."):
                val = val.get(part) if isinstance(val, dict) else None
            if isinstance(val, bool) or not isinstance(val, int) or not 0 <= val <= 20:
                raise DataFileError(source, field, "must be an integer from 0 to 20")
        return Box(copy.deepcopy(raw))

    def of_state(self, state: Any) -> Box:
        return self.default()

    def info(self, profile: Box) -> dict[str, Any]:
        prov = list(profile.raw.get("_provisional", []))
        sources = {p: "provisional" if p in prov else "rulebook" for p in ("goal", "coin.heads", "coin.tails")}
        return {"name": profile.name, "digest": profile.digest, "profile": profile.raw, "sources": sources,
                "provisional": prov}

    def mark_checked(self, raw: Any, paths: Any) -> dict[str, Any]:
        doc = copy.deepcopy(raw)
        doc["_provisional"] = [p for p in doc.get("_provisional", []) if not any(_under(p, k) for k in paths)]
        return doc


@pytest.fixture
def toybox():
    toy = games.get("toy")
    plugin = GamePlugin(
        info=replace(toy.info, id="toybox", title="Coin race in a box", journal_format="toybox-journal",
                     position_format="toybox-position"),
        rules=toy.rules, profile=BoxSupport(), page=toy.page,
    )
    games.register(plugin)
    yield plugin
    games._loaded.pop("toybox", None)


def test_the_generic_profile_editor(page, live, runtime, toybox):
    runtime.new_game([("Ann", "red"), ("Bob", "blue")], game="toybox")
    page.goto(live.url + "/")
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-game", "toybox")  # the toy's module
    page.get_by_role("button", name="Box profile").click()
    expect(page.locator("#view-profile")).to_contain_text("Coin race in a box")
    expect(page.get_by_test_id("prov-count")).to_have_text("1 provisional values")
    heads = page.locator("[data-path='coin.heads']")
    expect(heads).to_have_class("prov-in")
    expect(page.locator("[data-path='coin.tails']")).not_to_have_class("prov-in")
    page.get_by_test_id("check-coin").click()  # the coin's values checked against the box
    expect(page.get_by_test_id("prov-count")).to_have_text("0 provisional values")
    page.locator("[data-path=goal]").fill("12")
    page.locator("[data-path=goal]").dispatch_event("change")
    page.get_by_test_id("prof-validate").click()
    expect(page.get_by_test_id("prof-status")).to_have_text("Valid. 0 provisional values")
    page.locator("[data-path='coin.tails']").fill("99")
    page.locator("[data-path='coin.tails']").dispatch_event("change")
    page.get_by_test_id("prof-save").click()
    expect(page.get_by_test_id("prof-status")).to_contain_text("coin.tails: must be an integer from 0 to 20")
    page.locator("[data-path='coin.tails']").fill("1")
    page.locator("[data-path='coin.tails']").dispatch_event("change")
    page.get_by_test_id("prof-save").click()
    expect(page.get_by_test_id("prof-status")).to_have_text("Saved.")
    saved = runtime.profile.raw
    assert saved["goal"] == 12 and saved["coin"] == {"heads": 3, "tails": 1} and saved["_provisional"] == []
    assert json.loads(runtime.profile_path.read_text(encoding="utf-8"))["goal"] == 12


def test_names_typed_while_the_games_module_still_loads_are_kept(browser, tmp_path):
    """On a slow phone the new-game form is up before the game's module is: the names typed there
    survive the module's arrival (they once went, and the game started with "Player 1", "Player 2")."""
    from session.runtime import GameRuntime
    from webui.app import create_app
    from webui.server import LiveServer

    rt = GameRuntime(tmp_path / "data", fsync=False, game="toy")
    server = LiveServer(create_app(rt)).start()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(10000)
        held: list[Any] = []
        page.route("**/games/toy/static/toy.js", lambda route: held.append(route))  # the module waits for us
        page.goto(server.url + "/")
        for _ in range(200):
            if held:
                break
            page.wait_for_timeout(25)
        assert held, "the page never asked for the toy module"
        page.get_by_role("button", name="New game", exact=True).click()
        page.get_by_test_id("setup-rm-2").click()
        page.get_by_test_id("setup-name-0").fill("Ann")
        page.get_by_test_id("setup-name-1").fill("Bob")
        held[0].continue_()
        expect(page.get_by_test_id("game-root")).to_have_attribute("data-game", "toy")
        expect(page.get_by_test_id("setup-name-0")).to_have_value("Ann")
        page.get_by_test_id("setup-go").click()
        expect(page.get_by_test_id("toy-row-1")).to_contain_text("Bob")
        assert [p.name for p in rt.game.rules.seats(rt.snapshot().state)] == ["Ann", "Bob"]
    finally:
        context.close()
        server.stop()
        rt.close()
