"""The Stone Age page (games/stoneage/page/static/stoneage.js) in headless Chromium, at phone size
(390×844) and laptop size (1366×768): a game started from the page's new-game form; the table's
reveals, the placements, a roll entered die by die with the best use of the tools, a card paid by
tapping resources, and feeding entered by tapping; the reason with its clause for a closed place (S-FEW-1,
S-PLACE-4); the score with its full breakdown; de/en; no page errors. One server for the module."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from games.record import simulate
from games.stoneage.plugin import GAME
from games.stoneage.rules import scoring
from games.stoneage.rules.engine import shortfall
from session.runtime import GameRuntime
from webui.app import create_app
from webui.server import LiveServer

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def runtime(tmp_path_factory) -> Iterator[GameRuntime]:
    rt = GameRuntime(tmp_path_factory.mktemp("sa-web"), fsync=False, game="stoneage")
    yield rt
    rt.close()


@pytest.fixture(scope="module")
def live(runtime) -> Iterator[LiveServer]:
    server = LiveServer(create_app(runtime, {"SSE_HEARTBEAT": 1.0})).start()
    yield server
    server.stop()


def open_page(browser, live, viewport) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and "status of 4" not in m.text else None,
    )
    page.set_default_timeout(8000)
    page.goto(live.url + "/")
    return page, errors


def submit(runtime: GameRuntime, *moves: str) -> None:
    for m in moves:
        runtime.submit(GAME.rules.parse_move(m), runtime.state_id)


def landed(runtime: GameRuntime, move: str, timeout: float = 8.0) -> None:
    """Wait until ``move`` is the game's last move (a move the page sent has reached the runtime)."""
    end = time.monotonic() + timeout
    while str(runtime.snapshot().moves[-1]) != move:
        assert time.monotonic() < end, f"{move!r} never reached the runtime"
        time.sleep(0.02)


def in_first_screen(page: Page, testid: str, timeout: float = 8.0) -> None:
    """``testid`` lies on the first screen, within ``timeout`` seconds: the page brings whose turn it
    is back to the top once its write has landed, which may come a moment after the view showed the
    new turn (under load the check ran first and found the page still scrolled down)."""
    end = time.monotonic() + timeout
    while True:
        box = page.get_by_test_id(testid).first.bounding_box()
        if box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]:
            return
        assert time.monotonic() < end, (testid, box)
        page.wait_for_timeout(50)


def no_sideways_scroll(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_round_entered_by_tapping_at_phone_size_S_FEW_1_S_PLACE_4_S_TOOL_4_S_CARD_1(browser, live, runtime):
    page, errors = open_page(browser, live, PHONE)
    # a new game from the page's form (the shell's generic one: 3 players to start with)
    page.get_by_role("button", name="Start a new game").click()  # the no-game card
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        page.get_by_test_id(f"setup-name-{i}").fill(name)
    page.get_by_test_id("setup-go").click()
    # the table turns up the cards, cheapest place first: tapped from the list, grouped by what they give
    expect(page.get_by_test_id("to-move")).to_have_text("The table")
    expect(page.locator("#sa-entry h2")).to_have_text("Which card was turned up for card place 1?")
    page.get_by_test_id("reveal-c01").click()
    expect(page.get_by_test_id("preview")).to_have_text("reveal c01")
    page.get_by_test_id("confirm").click()
    expect(page.locator("#sa-entry h2")).to_have_text("Which card was turned up for card place 2?")
    expect(page.get_by_test_id("reveal-c01")).to_have_count(0)
    submit(runtime, "reveal c03", "reveal c12", "reveal c20", "reveal b01", "reveal b21")
    expect(page.locator("#sa-entry h2")).to_have_text("Which building was turned up on stack 3?")
    page.get_by_test_id("reveal-b18").click()
    page.get_by_test_id("confirm").click()
    # placing: Ann to move, every place with what it still takes, on the first screen
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    expect(page.get_by_test_id("people-left")).to_have_text("5 of 5 people left to place")
    for testid in ("to-move", "place-toolmaker", "place-hunt", "place-gold"):
        in_first_screen(page, testid)
    expect(page.get_by_test_id("room-wood")).to_have_text("takes 7 more")
    expect(page.get_by_test_id("room-hunt")).to_have_text("any number")
    expect(page.get_by_test_id("place-card1")).to_contain_text("7 food · pottery")
    expect(page.get_by_test_id("place-building1")).to_contain_text("2 wood, 1 clay → 10 points")
    page.get_by_test_id("place-hunt").click()
    page.get_by_test_id("people-2").click()
    expect(page.get_by_test_id("preview")).to_have_text("place hunt 2")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    page.get_by_test_id("place-toolmaker").click()  # exactly 1: no count to pick
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Cid")
    page.get_by_test_id("place-hut").click()
    expect(page.get_by_test_id("pick-hut")).to_contain_text("takes exactly 2")
    page.get_by_test_id("confirm").click()
    # Ann again: the field is closed with 3 players (2 of the 3 village places), the hunt is hers already
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    expect(page.get_by_test_id("place-field")).to_have_class(re.compile(r"\bclosed\b"))
    page.get_by_test_id("place-field").click()
    expect(page.get_by_test_id("why-field")).to_contain_text("S-FEW-1 (2–3 players: only 2 of the 3 village places)")
    page.get_by_test_id("lang").click()  # the clause in German words, the engine's reason as it is
    expect(page.get_by_test_id("why-field")).to_contain_text("S-FEW-1 (2–3 Spieler: nur 2 der 3 Dorforte)")
    expect(page.get_by_test_id("place-field")).to_contain_text("Acker")
    page.get_by_test_id("lang").click()
    page.get_by_test_id("place-hunt").click()
    expect(page.get_by_test_id("why-hunt")).to_contain_text("S-PLACE-4 (no adding to a place you already hold")
    page.get_by_test_id("place-clay").click()
    page.get_by_test_id("people-3").click()
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    no_sideways_scroll(page, PHONE["width"])
    submit(runtime, "place wood 3", "place hunt 3", "place card1")
    # carrying out: Ann's own places, in any order; the hunt's dice entered by tapping pips
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    expect(page.get_by_test_id("act-hunt")).to_contain_text("Roll 2 dice for food")
    page.get_by_test_id("act-hunt").click()
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    expect(page.locator("#sa-entry h2")).to_have_text("Enter the dice: 2 dice for food")
    in_first_screen(page, "pip-6")
    page.get_by_test_id("pip-2").click()
    page.get_by_test_id("pip-6").click()
    page.get_by_test_id("die-1").click()  # a wrong die taken out again
    page.get_by_test_id("pip-5").click()
    expect(page.get_by_test_id("roll-yield")).to_have_text("pips 7 ÷ 2 → 3 food")
    expect(page.get_by_test_id("preview")).to_have_text("roll hunt 2,5")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("act-hunt")).to_have_count(0)
    landed(runtime, "roll hunt 2,5")  # the page's POST, before the next moves come from elsewhere
    submit(runtime, "take clay", "roll clay 1,2,3")
    # Bob: the tool maker gives him a tool, then the wood roll asks which tools to add
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    page.get_by_test_id("act-toolmaker").click()
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("tableau-1")).to_contain_text("tools: 1")
    page.get_by_test_id("act-wood").click()
    page.get_by_test_id("confirm").click()
    for f in (6, 3, 5):
        page.get_by_test_id(f"pip-{f}").click()
    expect(page.get_by_test_id("roll-yield")).to_contain_text("pips 14 ÷ 3 → 4 wood · with all tools (+1): 5")
    page.get_by_test_id("confirm").click()
    expect(page.locator("#sa-entry h2")).to_have_text("Bob's roll: which tools to add?")
    expect(page.get_by_test_id("tools-best")).to_contain_text("Best use of the tools: 1 → pips 15 → 5 wood")
    expect(page.get_by_test_id("one-more-pip")).to_contain_text("One more pip would still give 5")
    expect(page.get_by_test_id("preview")).to_have_text("tools 1")
    page.get_by_test_id("tool-0").click()  # leaving the tool out shows what that gives
    expect(page.get_by_test_id("tools-result")).to_have_text("pips 14 → 4 wood")
    page.get_by_test_id("topt-5").click()  # back to the best
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("tableau-1")).to_contain_text("5 wood")
    # the card costs 1: paid by tapping the resource
    page.get_by_test_id("act-card1").click()
    expect(page.get_by_test_id("paid-wood")).to_have_text("1")  # the cheapest payment to start with
    page.get_by_test_id("unpay-wood").click()
    expect(page.get_by_test_id("confirm")).to_be_disabled()
    page.get_by_test_id("pay-wood").click()
    expect(page.get_by_test_id("preview")).to_have_text("buy card1 wood")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Cid")
    # Bob's score: 7 food card, a pottery set (1² = 1) and 4 wood, with the breakdown
    expect(page.get_by_test_id("score-total-1")).to_have_text("5")
    expect(page.get_by_test_id("breakdown-1")).to_contain_text("set 1: pottery (1² = 1)")
    expect(page.get_by_test_id("score-res-1")).to_have_text("+4")
    snap = runtime.snapshot()
    assert [str(m) for m in snap.moves[7:]] == [
        "place hunt 2", "place toolmaker", "place hut", "place clay 3", "place wood 3", "place hunt 3",
        "place card1", "take hunt", "roll hunt 2,5", "take clay", "roll clay 1,2,3", "take toolmaker",
        "take wood", "roll wood 3,5,6", "tools 1", "buy card1 wood",
    ]  # fmt: skip
    no_sideways_scroll(page, PHONE["width"])
    page.context.close()
    assert errors == []


def feeding_position() -> dict:
    """A 3-player position where Ann is short of 2 food and holds 2 stone (random players, seed 1)."""
    rec = simulate(GAME, 3, seed=1, policies="random")
    state = next(s for s in rec.states if str(s.phase) == "feed")
    return json.loads(json.dumps(GAME.rules.state_to_json(state)))


def test_feeding_scores_and_languages_at_laptop_size_S_FEED_2_S_END_2_S_END_3(browser, live, runtime):
    runtime.new_game(position=feeding_position(), game="stoneage")
    state = runtime.snapshot().state
    seat = state.actor
    name = state.seats[seat].name
    page, errors = open_page(browser, live, DESKTOP)
    expect(page.get_by_test_id("to-move")).to_have_text(name)
    expect(page.locator("#sa-entry h2")).to_contain_text(f"Feeding: {name} is short of")
    # the two columns are used: the scores beside the entry
    entry, scores = page.locator("#sa-entry").bounding_box(), page.locator("#sa-scores").bounding_box()
    assert entry and scores and scores["x"] > entry["x"] + entry["width"] - 1 and scores["y"] < DESKTOP["height"]
    no_sideways_scroll(page, DESKTOP["width"])
    # every player's score with the full breakdown, as the engine scores it
    for b in scoring.scoreboard(state):
        expect(page.get_by_test_id(f"score-total-{b.seat}")).to_have_text(str(b.projected))
        expect(page.get_by_test_id(f"score-track-{b.seat}")).to_have_text(str(b.track))
        expect(page.get_by_test_id(f"score-culture-{b.seat}")).to_have_text(f"+{b.culture}")
        for kind, _f, _q, pts in b.multipliers:
            expect(page.get_by_test_id(f"score-{kind}-{b.seat}")).to_have_text(f"+{pts}")
    expect(page.get_by_test_id(f"feed-{seat}")).to_contain_text("short")
    # the provisional value of the box is marked where it is shown
    expect(page.locator("#sa-tribes .provtag").first).to_have_text("provisional — check your box")
    # paying: the cheapest resources to start with, changed by tapping
    short = shortfall(state.players[seat])
    expect(page.get_by_test_id("pay-total")).to_have_text(f"{short} chosen")
    expect(page.get_by_test_id("starve")).to_have_text("Take −10 points")
    # German: the module's words, the clause words, the shell's around them
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("starve")).to_have_text("−10 Punkte nehmen")
    expect(page.locator("#sa-entry h2")).to_contain_text(f"Ernähren: {name} fehlen")
    expect(page.get_by_test_id("phase")).to_contain_text("3 · Stamm ernähren")
    expect(page.locator("#sa-scores h2")).to_have_text("Punkte jetzt und erwartete Schlusswertung")
    expect(page.get_by_role("button", name="Neues Spiel", exact=True)).to_be_visible()
    page.get_by_test_id("confirm").click()  # pays with the resources shown
    expect(page.get_by_test_id("to-move")).not_to_have_text(name)
    page.get_by_test_id("lang").click()
    expect(page.get_by_role("button", name="New game", exact=True)).to_be_visible()
    moves = runtime.snapshot().moves
    assert str(moves[0]).startswith("feed ") and sum(moves[0].pay) == short
    # history: an earlier position is drawn without move entry
    page.get_by_test_id("step-back").click()
    expect(page.get_by_test_id("live")).to_be_visible()
    expect(page.get_by_test_id("to-move")).to_have_text(name)
    expect(page.get_by_test_id("starve")).to_have_count(0)
    page.get_by_test_id("live").click()
    page.context.close()
    assert errors == []


def test_the_end_shows_the_ranking_and_final_scores_S_END_5(browser, live, runtime):
    rec = simulate(GAME, 3, seed=1, policies="greedy")
    runtime.new_game(position=json.loads(json.dumps(GAME.rules.state_to_json(rec.state))), game="stoneage")
    page, errors = open_page(browser, live, PHONE)
    expect(page.get_by_test_id("to-move")).to_have_text("Game over")
    ranking = scoring.ranking(rec.state)
    first = page.get_by_test_id("ranking").locator("li").first
    expect(first).to_contain_text(f"{ranking[0].name}: {ranking[0].total} points")
    expect(page.get_by_test_id("breakdown-0")).to_contain_text("Final score")
    expect(page.locator("[data-sa=confirm]")).to_have_count(0)
    no_sideways_scroll(page, PHONE["width"])
    page.context.close()
    assert errors == []


def test_a_variable_building_and_the_any_resources_card_by_tapping_S_BLD_3_S_BLD_1_S_CARD_8(browser, live, runtime):
    rec = simulate(GAME, 3, seed=2, policies="greedy")

    def position(i: int) -> dict:
        return json.loads(json.dumps(GAME.rules.state_to_json(rec.states[i])))

    runtime.new_game(position=position(165), game="stoneage")  # Player 2 carries out; building 3: b26
    page, errors = open_page(browser, live, PHONE)
    expect(page.get_by_test_id("to-move")).to_have_text("Player 2")
    page.get_by_test_id("act-building3").click()
    expect(page.get_by_test_id("pick-building3")).to_contain_text("Pick 5 resources of exactly 2 kind(s)")
    expect(page.get_by_test_id("bld-points")).to_have_text("gives 29 points")  # the best payment first
    page.get_by_test_id("unpay-gold").click()
    expect(page.get_by_test_id("confirm")).to_be_disabled()
    page.get_by_test_id("pay-gold").click()
    expect(page.get_by_test_id("preview")).to_have_text("buy building3 stone,gold,gold,gold,gold")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("act-building3")).to_have_count(0)
    assert str(runtime.snapshot().moves[-1]) == "buy building3 stone,gold,gold,gold,gold"
    # another game is started elsewhere: the page follows; a building the player cannot pay says why
    runtime.new_game(position=position(229), game="stoneage")
    expect(page.get_by_test_id("any-card")).to_have_text("Use the card: any 2 resources")
    page.get_by_test_id("act-building3").click()
    expect(page.get_by_test_id("why-building3")).to_contain_text("S-BLD-1 (pay the building, score it")
    page.get_by_test_id("any-card").click()
    page.get_by_test_id("pay-wood").click()
    page.get_by_test_id("pay-clay").click()
    expect(page.get_by_test_id("pay-stone")).to_be_disabled()  # 2 taken: no more
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("any-card")).to_have_count(0)
    expect(page.get_by_test_id("tableau-0")).to_contain_text("1 wood")
    assert str(runtime.snapshot().moves[-1]) == "any wood,clay"
    page.context.close()
    assert errors == []
