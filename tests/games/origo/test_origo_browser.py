"""Origo's page module (games/origo/page/static/origo.js) in headless Chromium, at phone (390×844)
and laptop (1366×768) sizes: a game started from the page's new-game form and one from the API;
shields laid by tapping fields ("Ann lays a shield on C5"), a land founded and its founding field
reported by tapping (the leader advancing, the tribe scoring scheduled and carried over), the battle
calculator (points, who wins if nobody plays on, cards needed, the cards each side can still play) and
a battle fought card by card to its outcome, refill and pass, tribe and final points with the number
picker, the scores with their parts, the rule reason of a refused option, de/en, no page errors.

The default board (provisional): Belgica BEL is C5 D5 D6, Helvetia HEL is E7 F7 F8; D4 is North Sea."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.origo.page.view import state_view
from session.runtime import GameRuntime
from webui.app import create_app
from webui.server import LiveServer

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameRuntime]:
    rt = GameRuntime(Path(tmp_path_factory.mktemp("origo-page")), fsync=False, game="origo")
    yield rt
    rt.close()


@pytest.fixture(scope="module")
def live(runtime: GameRuntime) -> Iterator[LiveServer]:
    server = LiveServer(create_app(runtime, {"SSE_HEARTBEAT": 1.0})).start()
    yield server
    server.stop()


def open_page(browser: Any, size: dict[str, int], **kw: Any) -> tuple[Any, Page, list[str]]:
    context = browser.new_context(viewport=size, **kw)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "the server responded with a status of 4" not in m.text
            else None
        ),
    )
    page.set_default_timeout(8000)
    return context, page, errors


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def moves(runtime: GameRuntime) -> list[str]:
    return [str(m) for m in runtime.snapshot().moves]


def no_sideways_scrolling(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def lay(page: Page, field: str, who: str) -> None:
    page.get_by_test_id(f"field-{field}").click()
    expect(page.get_by_test_id("og-fact")).to_have_text(f"{who} lays a shield on {field}")
    page.get_by_test_id("og-confirm").click()
    expect(page.get_by_test_id(f"shield-{field}")).to_be_visible()


def test_phone_a_game_from_the_page_lay_found_battle_and_tribe_scoring(browser, live, runtime):
    context, page, errors = open_page(browser, PHONE, is_mobile=True, has_touch=True)
    page.on("dialog", lambda d: d.accept())  # "Start a new game?" when one is under way
    page.goto(live.url + "/")
    # the shell's new-game form with Origo's colours, two players
    page.get_by_role("button", name="New game", exact=True).click()
    page.get_by_test_id("setup-rm-2").click()
    page.get_by_test_id("setup-name-0").fill("Ann")
    page.get_by_test_id("setup-name-1").fill("Bob")
    page.get_by_test_id("setup-go").click()
    # who is to move and what to do now, on the first screen, nothing sideways
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-game", "origo")
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    expect(page.get_by_test_id("to-move")).to_be_in_viewport()
    expect(page.get_by_test_id("mode-lay")).to_be_in_viewport()
    expect(page.get_by_test_id("board-prov")).to_contain_text("provisional — check your box")
    no_sideways_scrolling(page, 390)
    # refused options with the rule's reason: no refill before acting, nothing to attack yet
    expect(page.get_by_test_id("why-refill")).to_contain_text("O-TURN-3 (refill to 10 at the end of the turn)")
    expect(page.get_by_test_id("why-attack")).to_contain_text("O-ATK-1")
    expect(page.get_by_test_id("mode-attack")).to_be_disabled()
    # Ann lays two shields by tapping fields, then refills
    lay(page, "C5", "Ann")
    page.get_by_test_id("field-C5").click()  # taken now: the reason, no confirm
    expect(page.get_by_test_id("og-why")).to_contain_text("O-LAY-1")
    expect(page.get_by_test_id("og-why")).to_contain_text("C5 already holds Ann's shield")
    expect(page.get_by_test_id("og-confirm")).to_have_count(0)
    lay(page, "C6", "Ann")
    expect(page.get_by_test_id("why-pass")).to_contain_text("O-TURN-2")
    page.get_by_test_id("move-refill").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    lay(page, "D5", "Bob")
    lay(page, "D4", "Bob")
    page.get_by_test_id("move-refill").click()
    # Ann fills Belgica's last free field: the page says it founds the land, then asks for the field
    page.get_by_test_id("field-D6").click()
    expect(page.get_by_test_id("og-founds")).to_contain_text("last free field of Belgica")
    page.get_by_test_id("og-confirm").click()
    expect(page.get_by_test_id("og-waits")).to_have_text(
        "Belgica is founded by Ann: which founding field did the stone uncover?"
    )
    expect(page.get_by_test_id("reveal-expected")).to_contain_text("The board file expects 1")
    expect(page.get_by_test_id("reveal-expected")).to_contain_text("provisional — check your box")
    expect(page.get_by_test_id("reveal-v-1")).to_have_class("chip on")  # the expectation preselected
    page.get_by_test_id("reveal-v-3").click()
    page.get_by_test_id("reveal-red").click()
    expect(page.get_by_test_id("reveal-fact")).to_have_text("The founding field shows 3, red")
    page.get_by_test_id("reveal-ok").click()
    # the leader advances, the tribe scoring is scheduled, the table is reminded
    expect(page.get_by_test_id("og-leader-moved")).to_have_text(
        "Ann's leader advances 3 fields on the path, to field 3."
    )
    expect(page.get_by_test_id("og-scheduled")).to_contain_text("end of this round (round 2)")
    expect(page.get_by_test_id("og-reminder")).to_contain_text(
        "A tribe scoring takes place at the end of this round (round 2)."
    )
    expect(page.get_by_test_id("leader-field-0")).to_have_text("3")
    expect(page.get_by_test_id("leader-advance-0")).to_have_text("+3")
    expect(page.get_by_test_id("stone-on-BEL")).to_have_text("3")
    expect(page.get_by_test_id("stone-0")).to_contain_text("BEL ≠")  # the table reported another field
    # the battle calculator: tap a field that cannot be attacked (the reason), then Bob's D5
    page.get_by_test_id("mode-attack").click()
    page.get_by_test_id("field-D4").click()
    expect(page.get_by_test_id("og-why")).to_contain_text("O-ATK-1")
    expect(page.get_by_test_id("og-why")).to_contain_text("North Sea, a sea with")
    page.get_by_test_id("field-D5").click()
    expect(page.get_by_test_id("calc-att-points")).to_have_text("4")  # 1 card × 2 + C5, D6
    expect(page.get_by_test_id("calc-def-points")).to_have_text("2")  # D4 + the attacked shield
    expect(page.get_by_test_id("calc-att-parts")).to_have_text("1 card × 2 + 2 adjacent shields")
    expect(page.get_by_test_id("calc-leader")).to_contain_text("If nobody plays on: Ann wins 4:2")
    expect(page.get_by_test_id("calc-leader")).to_contain_text("Bob's shield on D5 leaves the game")
    expect(page.get_by_test_id("calc-needs")).to_have_text(
        "Bob is behind and needs 1 card more to draw level (a tie is the defender's)."
    )
    full = next(x for x in state_view(runtime.snapshot().state)["attack_targets"] if x["field"] == "D5")["full_hands"]
    w = "Ann" if full["winner"] == "attacker" else "Bob"
    expect(page.get_by_test_id("calc-playout")).to_contain_text(
        f"{w} wins {full['attacker_points']}:{full['defender_points']}"
    )
    for _ in range(2):
        page.get_by_test_id("wi-d-minus5").click()  # if Bob could play no card at all
    expect(page.get_by_test_id("wi-d-val")).to_have_text("0")
    expect(page.get_by_test_id("calc-playout")).to_contain_text("Ann wins 4:2")
    assert moves(runtime)[-1] == "reveal 3 red"  # nothing recorded by the calculator yet
    page.get_by_test_id("calc-attack").click()
    # the battle, card by card: Ann's opening, Bob draws level, Ann gets ahead, Bob gives up
    expect(page.get_by_test_id("calc-opening")).to_be_visible()
    expect(page.get_by_test_id("calc-stop")).to_have_text("Ann ends the opening — Bob must answer")
    page.get_by_test_id("calc-stop").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    no_sideways_scrolling(page, 390)
    page.get_by_test_id("calc-card").click()
    expect(page.get_by_test_id("calc-def-points")).to_have_text("4")
    expect(page.get_by_test_id("calc-leader")).to_contain_text("Bob wins 4:4 (a tie is the defender's)")
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    page.get_by_test_id("calc-card").click()
    expect(page.get_by_test_id("calc-att-points")).to_have_text("6")
    expect(page.get_by_test_id("calc-stop")).to_have_text("Bob stops: Bob's shield on D5 leaves the game")
    page.get_by_test_id("calc-stop").click()
    expect(page.get_by_test_id("og-outcome")).to_have_text(
        "⚔ Battle for D5: Ann wins (6:4); Bob's shield leaves the game."
    )
    expect(page.get_by_test_id("score-shields-1")).to_contain_text("1 out of the game")
    assert moves(runtime)[-5:] == ["attack Ann D5", "stop Ann", "card Bob", "card Ann", "stop Bob"]
    assert runtime.snapshot().state.owners[runtime.snapshot().state.board.find("D5")] == 0
    # Ann refills, Bob passes: the round ends with the tribe scoring, points by the number picker
    page.get_by_test_id("move-refill").click()
    page.get_by_test_id("move-pass").click()
    expect(page.get_by_test_id("og-waits")).to_have_text(
        "Tribe scoring at the end of round 2: enter every player's tribe points"
    )
    page.get_by_test_id("pts-0-plus5").click()
    page.get_by_test_id("pts-0-plus").click()
    expect(page.get_by_test_id("pts-0-ok")).to_have_text("Ann receives 6 tribe points")
    page.get_by_test_id("pts-0-ok").click()
    expect(page.get_by_test_id("pts-0-done")).to_contain_text("6 points")
    page.get_by_test_id("pts-1-ok").click()
    expect(page.get_by_test_id("og-round")).to_contain_text("round 3")
    expect(page.get_by_test_id("score-total-0")).to_have_text("6")
    expect(page.get_by_test_id("score-parts-0")).to_have_text(
        "tribe 6 + final 0 · leader on field 3 · 1 land(s) founded"
    )
    assert moves(runtime)[-4:] == ["refill Ann", "pass Bob", "points Ann 6", "points Bob 0"]
    no_sideways_scrolling(page, 390)
    context.close()
    assert errors == []


def test_laptop_carry_over_german_history_and_the_game_to_its_end(browser, live, runtime):
    post(
        live.url + "/api/games",
        {"game": "origo", "players": [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]},
    )
    for m in ["lay Ann C5", "lay Ann D5", "lay Ann E7", "lay Ann F7"]:
        runtime.submit(m, runtime.state_id)
    context, page, errors = open_page(browser, LAPTOP)
    page.goto(live.url + "/")
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    # the width is used: the board on the left, who and what beside it, both on the first screen
    # (waited for: under a loaded test run the module's layout can lag the first text by a frame or two)
    page.wait_for_function(
        """() => { const b = document.querySelector('[data-testid=og-board]');
          const s = document.querySelector('[data-testid=og-status]'); if (!b || !s) return false;
          const r = b.getBoundingClientRect(), q = s.getBoundingClientRect();
          return r.right <= q.left + 0.5 && q.top < 200; }""",
        timeout=10000,
    )
    board = page.get_by_test_id("og-board").bounding_box()
    status = page.get_by_test_id("og-status").bounding_box()
    assert board and status and board["x"] + board["width"] <= status["x"] and status["y"] < 200
    expect(page.get_by_test_id("field-J10")).to_be_in_viewport()
    no_sideways_scrolling(page, 1366)
    # two lands founded with red fields in one round: one scoring at this round's end, one carried over
    lay(page, "D6", "Ann")
    page.get_by_test_id("reveal-red").click()
    page.get_by_test_id("reveal-ok").click()
    expect(page.get_by_test_id("og-scheduled")).to_have_text(
        "A tribe scoring is scheduled at the end of this round (round 1)."
    )
    lay(page, "F8", "Ann")
    page.get_by_test_id("reveal-v-2").click()
    page.get_by_test_id("reveal-red").click()
    page.get_by_test_id("reveal-ok").click()
    expect(page.get_by_test_id("og-scheduled")).to_have_text(
        "This round already has its tribe scoring: this one is carried over to the end of round 2 (one per round)."
    )
    expect(page.get_by_test_id("og-reminder")).to_contain_text("end of this round (round 1)")
    expect(page.get_by_test_id("og-reminder")).to_contain_text(
        "Carried over (one tribe scoring per round, O-FOUND-5): the end of round 2."
    )
    expect(page.get_by_test_id("leader-field-0")).to_have_text("3")  # 1 (board file) + 2
    # German: the page's texts and the clause words; the engine's reason stays English
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("og-reminder")).to_contain_text(
        "Am Ende dieser Runde (Runde 1) findet eine Stammeswertung statt."
    )
    expect(page.get_by_test_id("og-reminder")).to_contain_text("Verschoben")
    expect(page.get_by_test_id("why-pass")).to_contain_text("O-TURN-2 (aussetzen nur vor der ersten Aktion)")
    expect(page.get_by_test_id("region-HEL")).to_contain_text("Helvetien")
    expect(page.get_by_test_id("mode-lay")).to_have_text("Schild legen")
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("mode-lay")).to_have_text("Lay a shield")
    # the history stepper: an earlier position without move entry, then back to live
    page.locator("[data-step='1']").first.click()
    expect(page.get_by_test_id("live")).to_be_visible()
    expect(page.get_by_test_id("shield-D5")).to_have_count(0)
    expect(page.get_by_test_id("mode-lay")).to_have_count(0)
    page.get_by_test_id("live").click()
    expect(page.get_by_test_id("mode-lay")).to_be_visible()
    # round 1 ends: its scoring; round 2, everybody passes: the carried scoring, then the final scoring
    page.get_by_test_id("move-refill").click()
    page.get_by_test_id("move-pass").click()
    page.get_by_test_id("pts-0-plus5").click()
    page.get_by_test_id("pts-0-ok").click()
    page.get_by_test_id("pts-1-plus").click()
    page.get_by_test_id("pts-1-ok").click()
    expect(page.get_by_test_id("og-reminder")).to_contain_text("end of this round (round 2)")
    page.get_by_test_id("move-pass").click()
    expect(page.get_by_test_id("og-reminder")).to_contain_text("Bob's turn is the last of the round.")
    page.get_by_test_id("move-pass").click()
    expect(page.get_by_test_id("og-end")).to_contain_text("O-END-1")
    page.get_by_test_id("pts-0-ok").click()
    page.get_by_test_id("pts-1-plus5").click()
    page.get_by_test_id("pts-1-ok").click()
    expect(page.get_by_test_id("og-waits")).to_have_text("Final scoring: enter every player's final points")
    page.get_by_test_id("pts-0-plus").click()
    page.get_by_test_id("pts-0-ok").click()
    page.get_by_test_id("pts-1-ok").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Game over")
    expect(page.get_by_test_id("ranking")).to_contain_text("Ann: 6 points")
    expect(page.get_by_test_id("ranking")).to_contain_text("Bob: 6 points")
    expect(page.get_by_test_id("score-total-1")).to_have_text("6")
    expect(page.get_by_test_id("score-parts-0")).to_have_text(
        "tribe 5 + final 1 · leader on field 3 · 2 land(s) founded"
    )
    assert runtime.snapshot().state.is_over
    context.close()
    assert errors == []
