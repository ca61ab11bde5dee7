"""The Hunters & Gatherers page in headless Chromium (games/carcassonne/page/static/carcassonne.js): a game
started from the page on a phone (390×844) — the tile drawn picked from the bag, laid by tapping a square,
a turn and a figure, scored at once; a tile that fits nowhere discarded; and on a laptop (1366×768) a
position started through the API — a figure spot refused with its clause and reason (in English and
German), a gold forest's bonus tile drawn and laid, its own gold forest giving no further one, the
scores with their breakdown per feature and the projected final score. No script errors anywhere."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from carc_boxes import box
from carc_helpers import BLUE, RED, YELLOW, build
from playwright.sync_api import expect

import games
from games.carcassonne.rules.position import state_to_dict
from session.runtime import GameRuntime
from webui.app import create_app
from webui.server import LiveServer

RULES = games.get("carcassonne").rules
STATIC = Path(games.get("carcassonne").page().static)  # type: ignore[misc]
ROOT = Path(__file__).resolve().parents[3]


def test_the_module_is_served_and_every_text_is_in_english_and_german():
    page = games.get("carcassonne").page()  # type: ignore[misc]
    assert page.script == "carcassonne.js"
    for name in ("carcassonne.js", "carcassonne-i18n.js", "carcassonne.css"):
        assert (STATIC / name).is_file()
    i18n = (STATIC / "carcassonne-i18n.js").read_text(encoding="utf-8")
    en, de = i18n[i18n.index("en: {") : i18n.index("de: {")], i18n[i18n.index("de: {") : i18n.index("CLAUSES")]
    key = re.compile(r'(?:^|[\s{,])([A-Za-z_]\w*):\s*"')
    assert set(key.findall(en)) == set(key.findall(de)) and len(key.findall(en)) > 100
    shell = (ROOT / "webui/static/i18n.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("([^"]+)"', (STATIC / "carcassonne.js").read_text(encoding="utf-8")))
    assert sorted(k for k in used if k not in set(key.findall(en)) and f"{k}:" not in shell) == []
    # every rule clause has its words in both languages
    rules = (ROOT / "docs/carcassonne-rules.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"^- \*\*(H-[A-Z]+-\d+)\*\*", rules, re.M))
    words = dict(re.findall(r'"(H-[A-Z]+-\d+)": \["[^"]+", "([^"]+)"\]', i18n))
    assert len(ids) == 48 and set(words) == ids


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    runtime = GameRuntime(tmp_path_factory.mktemp("carc-page"), fsync=False, game="carcassonne")
    srv = LiveServer(create_app(runtime, {"SSE_HEARTBEAT": 1.0})).start()
    yield runtime, srv
    srv.stop()
    runtime.close()


def open_page(browser, url: str, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
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
    page.set_default_timeout(10000)
    page.goto(url + "/")
    return context, page, errors


def last_move(runtime: GameRuntime) -> str:
    return str(runtime.snapshot().moves[-1])


def no_sideways_scroll(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate(
        "[...document.querySelectorAll('#game-root .card')].filter(c => c.scrollWidth > c.clientWidth + 1)"
        ".map(c => c.id)"
    )
    assert wide == []


def test_a_game_started_and_played_on_a_phone(browser, server):
    runtime, srv = server
    context, page, errors = open_page(browser, srv.url, 390, 844)
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-game", "carcassonne")
    # started from the page's new-game form
    page.get_by_role("button", name="Start a new game").click()  # the "No game yet" card
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        page.get_by_test_id(f"setup-name-{i}").fill(name)
    page.get_by_test_id("setup-go").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    expect(page.get_by_test_id("doing")).to_contain_text("Ann draws a land tile")
    # who is to move and what to do now are on the first screen: the tiles of the bag to pick from
    for tid in ("to-move", "doing", "draw-L01"):
        box_ = page.get_by_test_id(tid).bounding_box()
        assert box_ and box_["y"] + box_["height"] <= 844, tid
    expect(page.get_by_test_id("draw-L30")).to_contain_text("×3")
    page.get_by_test_id("filter-lake").click()  # the picker narrows to tiles with a lake
    expect(page.get_by_test_id("draw-L30")).to_have_count(0)
    page.get_by_test_id("filter-all").click()
    page.get_by_test_id("draw-L30").click()
    expect(page.get_by_test_id("preview")).to_have_text("draw L30")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("doing")).to_contain_text("Ann lays L30")
    assert last_move(runtime) == "draw L30"
    # the legal squares are highlighted on the map: as many as the engine lists
    prompt = RULES.prompt(runtime.snapshot().state)
    squares = {tuple(o["at"]) for o in prompt["options"]}
    expect(page.locator("[data-testid^='spot-']")).to_have_count(len(squares))
    page.get_by_test_id("spot-0,-1").click()
    # only the turns that fit there: L30 (forest N and S) continues the volcano's forest turned r0 or r2
    rots = sorted(o["rot"] for o in prompt["options"] if o["at"] == [0, -1])
    assert rots == [0, 2]
    expect(page.locator("[data-testid^='rot-']")).to_have_count(2)
    expect(page.get_by_test_id("ghost")).to_be_attached()  # the tile shown on the square
    page.get_by_test_id("rotate").click()
    expect(page.get_by_test_id("rot-2")).to_have_class("chip rotchip on")
    page.get_by_test_id("rot-0").click()
    page.get_by_test_id("fig-gatherer-f1").click()  # the forest facing the volcano's: completed at once
    expect(page.get_by_test_id("preview")).to_have_text("place 0,-1 r0 gatherer f1")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    assert last_move(runtime) == "place 0,-1 r0 gatherer f1"
    # scored at once (H-SCORE-1), the gatherer back in the supply (H-RET-2)
    expect(page.get_by_test_id("score-total-0")).to_have_text("4")
    expect(page.get_by_test_id("score-forests-0")).to_have_text("4")
    expect(page.get_by_test_id("supply-0")).to_contain_text("5")
    done = page.locator("[data-status='completed'][data-kind='forest']")
    expect(done).to_have_count(1)
    expect(done).to_contain_text("2 × (2 tiles) = 4")
    expect(done).to_contain_text("Ann")
    expect(page.get_by_test_id("land-left")).to_contain_text("77 land tiles")
    expect(page.get_by_test_id("left-L30")).to_contain_text("2/3")
    no_sideways_scroll(page, 390)
    page.get_by_test_id("lang").click()  # German fits the phone too
    expect(page.get_by_test_id("doing")).to_contain_text("Bob zieht eine Landschaftskarte")
    no_sideways_scroll(page, 390)
    page.get_by_test_id("lang").click()
    # an earlier position from the history: drawn, nothing to enter, back to live
    page.get_by_test_id("step-back").click()
    expect(page.get_by_test_id("live")).to_be_visible()
    expect(page.get_by_test_id("doing")).to_contain_text("Ann lays L30")
    expect(page.locator("[data-testid^='spot-']")).to_have_count(0)
    expect(page.get_by_test_id("score-total-0")).to_have_text("0")
    page.get_by_test_id("live").click()
    expect(page.get_by_test_id("score-total-0")).to_have_text("4")
    # a tile that fits nowhere: discard it (H-DRAW-2) and the same player draws again
    s = build(box(), [], drawn="f4", players=2)
    post(srv.url + "/api/games", {"game": "carcassonne", "position": state_to_dict(s)})
    expect(page.get_by_test_id("to-move")).to_have_text("Rot")
    expect(page.get_by_test_id("discard-why")).to_contain_text("H-DRAW-2")
    expect(page.get_by_test_id("discard-why")).to_contain_text("fits nowhere leaves the game")
    expect(page.locator("[data-testid^='spot-']")).to_have_count(0)
    page.get_by_test_id("discard").click()
    expect(page.get_by_test_id("doing")).to_contain_text("Rot draws a land tile")
    assert last_move(runtime) == "discard"
    expect(page.get_by_test_id("removed")).to_have_text("f4")
    context.close()
    assert errors == [], errors


def test_refused_spots_bonus_tiles_and_scores_on_a_laptop(browser, server):
    runtime, srv = server
    # Rot lays forestN: on 1,-1 (r2) it completes the gold forest where Blau's gatherer stands; Gelb's
    # hunter lies on the start meadow, joined to a meadow with 2 deer
    s = build(
        box(),
        [("forestN", -1, 0, 0), ("forestNg", 1, 0, 0), ("deer2", 0, 1, 0)],
        [(BLUE, "gatherer", 2, "f0"), (YELLOW, "hunter", 0, "m0")],
        drawn="forestN",
    )
    post(srv.url + "/api/games", {"game": "carcassonne", "position": state_to_dict(s)})
    context, page, errors = open_page(browser, srv.url, 1366, 768)
    expect(page.get_by_test_id("to-move")).to_have_text("Rot")
    # the laptop's width is used: the map beside the move entry, the first screen shows what to do
    status, mapbox = page.locator("#c-status").bounding_box(), page.get_by_test_id("map").bounding_box()
    assert status and mapbox and mapbox["x"] > status["x"] + status["width"] - 1 and mapbox["width"] > 600
    assert status["y"] + status["height"] <= 768
    expect(page.get_by_test_id("maptile-0,1")).to_have_attribute("data-tile", "deer2")
    expect(page.get_by_test_id("mapfig-2-f0")).to_be_attached()
    page.get_by_test_id("spot-1,-1").click()
    expect(page.locator("[data-testid^='rot-']")).to_have_count(1)  # only r2 continues the forest
    expect(page.get_by_test_id("rot-2")).to_be_visible()
    # the gatherer is refused with its clause and reason; the hunter is allowed
    expect(page.get_by_test_id("fig-gatherer-f0")).to_be_disabled()
    why = page.get_by_test_id("why-gatherer-f0")
    expect(why).to_contain_text("H-FIG-5")
    expect(why).to_contain_text("no member where one already stands")
    expect(why).to_contain_text("that forest already holds a gatherer, however far away")
    # in German: the page's words and the clause's, the engine's reason as it is
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("doing")).to_contain_text("Rot legt forestN")
    expect(why).to_contain_text("kein Mitglied, wo schon eines steht")
    expect(page.locator("#c-entry h3")).to_contain_text("Figur")
    page.get_by_test_id("lang").click()
    expect(page.locator("#c-entry h3")).to_contain_text("Figure")
    page.get_by_test_id("fig-hunter-m0").click()
    expect(page.get_by_test_id("preview")).to_have_text("place 1,-1 r2 hunter m0")
    page.get_by_test_id("confirm").click()
    # Blau scores the forest, Rot completed it and draws the bonus tile (H-GOLD-1)
    expect(page.get_by_test_id("doing")).to_contain_text("Gold! Rot draws a bonus tile")
    assert last_move(runtime) == "place 1,-1 r2 hunter m0"
    expect(page.get_by_test_id("score-total-1")).to_have_text("4")
    forest = page.locator("[data-status='completed'][data-kind='forest']")
    expect(forest).to_contain_text("gold")
    expect(forest).to_contain_text("= 4")
    expect(forest).to_contain_text("Blau")
    expect(page.get_by_test_id("chain-0")).to_have_attribute("data-status", "pending")
    expect(page.get_by_test_id("chain-0")).to_contain_text("H-GOLD-1")
    expect(page.locator("[data-testid^='draw-']")).to_have_count(5)  # the bonus stack
    page.get_by_test_id("draw-bgold").click()
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("doing")).to_contain_text("Rot lays the bonus tile bgold")
    assert last_move(runtime) == "bonus bgold"
    # the bonus tile completes another gold forest: scored, with the gatherer Rot places again, no chain
    page.get_by_test_id("spot--1,-1").click()
    page.get_by_test_id("fig-gatherer-f0").click()
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Blau")
    assert last_move(runtime) == "place -1,-1 r2 gatherer f0"
    expect(page.get_by_test_id("score-total-0")).to_have_text("4")
    expect(page.get_by_test_id("chain-0")).to_have_attribute("data-status", "laid")
    expect(page.get_by_test_id("chain-0")).to_contain_text("bonus tile bgold laid on -1,-1")
    expect(page.get_by_test_id("chain-0")).to_contain_text("H-GOLD-3")
    expect(page.get_by_test_id("chain-1")).to_have_attribute("data-status", "no-chain")
    # the projected final score: Gelb's hunter on the meadow with 2 deer (H-FINAL-2)
    expect(page.get_by_test_id("proj-hunters-2")).to_have_text("4")
    expect(page.get_by_test_id("score-proj-2")).to_have_text("4")
    meadow = page.locator("[data-status='projected'][data-kind='hunters']").filter(has_text="2 deer")
    expect(meadow).to_contain_text("2 × (2 deer) = 4")
    # a feature row shows its tiles on the map
    forest.first.click()
    expect(page.locator("#c-svg rect.hl")).to_have_count(2)
    before = page.get_by_test_id("map").get_attribute("viewBox")
    page.get_by_test_id("map-zoom-in").click()
    after = page.get_by_test_id("map").get_attribute("viewBox")
    assert float(after.split()[2]) < float(before.split()[2])
    mb = page.get_by_test_id("map").bounding_box()
    page.mouse.move(mb["x"] + 200, mb["y"] + 200)
    page.mouse.down()
    page.mouse.move(mb["x"] + 320, mb["y"] + 260, steps=4)
    page.mouse.up()  # dragged: the map moved, nothing was tapped
    panned = page.get_by_test_id("map").get_attribute("viewBox").split()
    assert float(panned[0]) < float(after.split()[0]) and panned[2] == after.split()[2]
    page.get_by_test_id("map-fit").click()
    assert page.get_by_test_id("map").get_attribute("viewBox") == before
    no_sideways_scroll(page, 1366)
    assert RULES.scores(runtime.snapshot().state)[RED]["total"] == 4
    context.close()
    assert errors == [], errors
