"""The page as players want it (issue 16), in headless Chromium at 390×844 and 1366×768: the first screen
of a phone (turn banner in the player's colour, player panels, the whole action row, the options),
the sticky banner, desktop using the width, the score table inside its card, achievements listed once
with the hand tile to take, identical reasons grouped, a legend for every symbol, forgiving undo and
controls that say why they are disabled, German everywhere (rules' reasons too) and no sentence said
twice, the end-of-game summary with the BG Stats export, the demo's speed, and camera mode asking
only what the camera cannot read. One server for the file; a page or two per test.

``COMPANION_SCREENSHOTS=1 python -m pytest tests/webui/test_webui_players.py`` writes the screenshots
the tests take to docs/screenshots/ (docs/webui.md shows them); otherwise they go to a temporary folder.
"""

from __future__ import annotations

import json
import os
import re
import struct
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from session.runtime import GameRuntime
from tests.webui.webui_helpers import PLAYERS
from webui.app import create_app

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}


@pytest.fixture(scope="module")
def rt(tmp_path_factory) -> Iterator[GameRuntime]:
    runtime = GameRuntime(tmp_path_factory.mktemp("players"), fsync=False)
    yield runtime
    runtime.close()


@pytest.fixture(scope="module")
def server(rt):
    from webui.server import LiveServer

    srv = LiveServer(create_app(rt, {"SSE_HEARTBEAT": 1.0})).start()
    yield srv
    srv.stop()


@pytest.fixture
def open_page(browser, server):
    """``open_page(size, lang="en")``: a fresh page on the server; script errors and any 404 fail the test."""
    contexts = []
    errors: list[str] = []

    def opener(size: dict, lang: str = "en", url: str | None = None):
        ctx = browser.new_context(**size)
        ctx.add_init_script(f"localStorage.setItem('companion-lang', '{lang}')")
        contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(10000)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status == 404 else None)
        pg.goto((url or server.url) + "/")
        expect(pg.get_by_test_id("conn")).to_have_class("conn on")
        return pg

    yield opener
    for ctx in contexts:
        ctx.close()
    assert errors == [], errors


def at(rt: GameRuntime, recorded, n: int) -> None:
    """A new game of the recorded one, its first ``n`` moves entered."""
    rt.new_game(PLAYERS)
    for move in recorded.moves[:n]:
        rt.submit(move, rt.state_id)


def shot(page, name: str, tmp_path: Path) -> None:
    """A screenshot of the first screen: to docs/screenshots/ with COMPANION_SCREENSHOTS=1."""
    folder = SHOTS if os.environ.get("COMPANION_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    page.screenshot(path=str(path), scale="css")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (page.viewport_size["width"], page.viewport_size["height"])


def box(page, testid: str) -> dict:
    b = page.get_by_test_id(testid).bounding_box()
    assert b is not None, testid
    return b


def english_only() -> list[str]:
    """Every English text of the shell and the Tribes module that German says otherwise (long enough
    not to be a word of move notation)."""
    pair = re.compile(r'(?:^\s*|[{,]\s*)(\w+): "((?:[^"\\]|\\.)*)"', re.M)
    out = []
    for rel in ("webui/static/i18n.js", "games/tribes/page/static/tribes-i18n.js"):
        body = (ROOT / rel).read_text(encoding="utf-8").split("export const STRINGS = {")[1].split("\n};")[0]
        en, de = body.split("\n  de: {")
        en_d, de_d = dict(pair.findall(en)), dict(pair.findall(de))
        for k, v in en_d.items():
            plain = re.split(r"\{\w+\}", v)
            out += [p.strip() for p in plain if len(p.strip()) >= 14 and de_d.get(k) != v]
    return sorted(set(out))


SAID_TWICE = """(el) => { const w = el.innerText.toLowerCase().split(/[\\s:·,()]+/).filter(Boolean);
  const seen = new Set(); for (let i = 0; i + 3 <= w.length; i++) { const g = w.slice(i, i + 3).join(" ");
  if (seen.has(g)) return g; seen.add(g); } return ""; }"""


def test_a_phone_shows_the_turn_the_players_the_row_and_the_options_on_the_first_screen(
    open_page, rt, recorded, tmp_path
):
    at(rt, recorded, 4)  # Ann to choose: three hand tiles she can pay for, four achievements open
    page = open_page(PHONE)
    turn = page.get_by_test_id("turn")
    expect(turn).to_contain_text("Ann")
    expect(turn).to_contain_text("to choose a tile")
    assert turn.evaluate("(el) => getComputedStyle(el).borderBottomColor") == "rgb(211, 59, 47)"  # Ann's red
    expect(page.get_by_test_id("undo")).to_contain_text(str(recorded.moves[3]))
    scores = rt.game.rules.scores(rt.snapshot().state)
    for seat, pl in enumerate(rt.snapshot().state.players):
        expect(page.get_by_test_id(f"vp-{seat}")).to_have_text(str(scores[seat]["standing"]))
        expect(page.get_by_test_id(f"pp-{seat}")).to_contain_text(f"→ {scores[seat]['total']}")
        expect(page.get_by_test_id(f"shells-{seat}")).to_have_text(str(pl.shells))
        expect(page.get_by_test_id(f"members-{seat}")).to_have_text(str(pl.supply))
    # the whole row without sideways scrolling, and nothing important below the first screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    row = page.get_by_test_id("row")
    assert row.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    tiles = page.locator("[data-testid^=tile-]")
    assert tiles.count() == len(rt.snapshot().state.row)
    first = rt.game.rules.prompt(rt.snapshot().state)["tiles"][0]["options"][0]["kind"]
    important = ["turn", "players", *[f"tile-{i + 1}" for i in range(tiles.count())], f"opt-1-{first}", "ach-kochen"]
    for testid in important:
        b = box(page, testid)
        assert b["x"] >= 0 and b["x"] + b["width"] <= 390 and b["y"] + b["height"] <= 844, (testid, b)
    assert page.locator("#scores").evaluate("(el) => el.scrollWidth <= el.clientWidth")  # never overflows its card
    shot(page, "tribes-phone.png", tmp_path)
    # the achievements once, each with the hand tiles it may be taken with
    for ach in ("kochen", "schamanismus", "schmuck", "toepfern"):
        expect(page.get_by_test_id(f"ach-{ach}")).to_have_count(1)
    page.get_by_test_id("ach-kochen").click()
    vias = page.locator("[data-testid^=opt-][data-testid$=-achievement-kochen]")
    expect(vias).to_have_count(3)
    page.get_by_test_id("opt-2-achievement-kochen").click()
    expect(page.get_by_test_id("preview")).to_contain_text("2:ach kochen")
    page.get_by_role("button", name="Cancel").click()
    # identical reasons once: the eight face-down tiles are one line
    page.get_by_test_id("why").locator("summary").click()
    expect(page.get_by_test_id("why-face_down")).to_have_count(1)
    expect(page.get_by_test_id("why-face_down")).to_contain_text("8 achievement tiles are still face down")
    # every symbol explained, no stars
    page.get_by_test_id("legend").locator("summary").click()
    legend = page.get_by_test_id("legend")
    for sign in ("⚡", "⬡", "➜", "↔", "↗", "joker", "free", "dotted", "exhausted"):
        expect(legend).to_contain_text(sign)
    for icon in ("hand", "member", "shell"):
        expect(legend.locator(f"svg[aria-label={icon}]")).to_have_count(1)
    assert "*" not in page.evaluate("document.body.innerText")
    # the banner stays at the top while the rest scrolls
    page.mouse.wheel(0, 2500)
    page.wait_for_function("window.scrollY > 1000")
    assert abs(box(page, "turn")["y"]) < 1


def test_a_laptop_uses_the_width(open_page, rt, recorded, tmp_path):
    at(rt, recorded, 34)  # Cid to choose; slot 6 costs more shells than he has
    page = open_page(DESKTOP)
    expect(page.get_by_test_id("to-move")).to_have_text("Cid")
    tops = {round(box(page, f"tile-{i + 1}")["y"]) for i in range(len(rt.snapshot().state.row))}
    assert len(tops) == 1  # the row in one line
    entry, scores = page.locator("#entry").bounding_box(), page.locator("#scores").bounding_box()
    assert entry["x"] + entry["width"] < scores["x"] and abs(entry["y"] - scores["y"]) < 5  # side by side
    assert page.locator("#scores").evaluate("(el) => el.scrollWidth <= el.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    # the score explains itself: earned so far beside the score if the game ended now, with the parts
    s = rt.game.rules.scores(rt.snapshot().state)[2]
    expect(page.get_by_test_id("score-now-2")).to_have_text(str(s["standing"]))
    expect(page.get_by_test_id("score-total-2")).to_have_text(str(s["total"]))
    expect(page.get_by_test_id("score-row-2")).to_contain_text("bear teeth")
    expect(page.get_by_test_id("chart-note")).to_contain_text("if the game ended now")
    expect(page.get_by_test_id("chart-proj-2")).to_be_attached()
    shot(page, "tribes-desktop.png", tmp_path)
    # a control that cannot be used looks disabled and says why when tapped
    tile = page.get_by_test_id("tile-6")
    expect(tile).to_be_disabled()
    tile.dispatch_event("click")
    expect(page.get_by_test_id("why-tip")).to_have_text(re.compile(r"^slot 6 costs 5 shells"))


def test_undo_before_the_first_move_is_disabled_and_says_why(open_page, rt):
    rt.new_game(PLAYERS)
    page = open_page(DESKTOP)
    undo = page.get_by_test_id("undo")
    expect(undo).to_be_disabled()
    undo.dispatch_event("click")
    expect(page.get_by_test_id("why-tip")).to_contain_text("no move to undo")


def test_german_everywhere_and_nothing_said_twice(open_page, rt, recorded, tmp_path):
    at(rt, recorded, 34)
    page = open_page(PHONE, lang="de")
    expect(page.get_by_test_id("context")).to_contain_text("wählt ein Plättchen")
    page.get_by_test_id("why").locator("summary").click()
    expect(page.get_by_test_id("why")).to_contain_text("kostet 5 Muscheln")  # the rules' reason, in German
    page.get_by_test_id("legend").locator("summary").click()
    text = page.evaluate("document.body.innerText")
    left = [s for s in english_only() if s in text]
    assert left == [], left
    for el in [page.get_by_test_id("turn"), *page.locator("[data-testid^=pp-], #entry p, #entry button").all()]:
        assert el.evaluate(SAID_TWICE) == "", el.inner_text()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "tribes-phone-de.png", tmp_path)


def test_the_end_of_the_game_ranks_charts_and_exports_to_bg_stats(open_page, rt, recorded, tmp_path):
    at(rt, recorded, len(recorded.moves))
    page = open_page(DESKTOP)
    expect(page.get_by_test_id("to-move")).to_have_text("Game over")
    ranking = rt.game.rules.ranking(rt.snapshot().state)
    items = page.get_by_test_id("summary-ranking").locator("li")
    expect(items).to_have_count(len(ranking))
    for i, s in enumerate(ranking):
        expect(items.nth(i)).to_contain_text(f"{s.place}. {s.name} {s.score} points")
    expect(page.get_by_test_id("summary-chart").locator("rect")).not_to_have_count(0)
    expect(page.get_by_test_id("summary-record")).to_have_attribute("href", "/api/journal?download=1")
    href = page.get_by_test_id("bgstats").get_attribute("href")
    assert href.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    play = json.loads(urllib.parse.unquote(href.split("data=", 1)[1]))
    assert play["sourceName"] == "Table companion" and play["sourcePlayId"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert play["game"] == {
        "name": "Tribes: Dawn of Humanity",
        "bggId": 245931,
        "sourceGameId": "tribes",
        "highestWins": True,
        "noPoints": False,
    }
    by_name = {p["name"]: p for p in play["players"]}
    for s in ranking:
        p = by_name[s.name]
        assert p["score"] == str(s.score) and p["winner"] == (s.place == 1) and p["startPlayer"] == (s.seat == 0)
        assert p["sourcePlayerId"]
    shot(page, "tribes-summary.png", tmp_path)


def test_the_demo_speed_is_set_on_the_page(open_page, rt, recorded):
    from webui.demo import DemoPlayer, unregister

    at(rt, recorded, 4)
    demo = DemoPlayer(rt, players=3, pace=1.0)  # not started: the page only sets its speed
    try:
        page = open_page(PHONE)
        expect(page.get_by_test_id("demo-speed")).to_be_visible()
        expect(page.get_by_test_id("demo-speed-1")).to_have_attribute("aria-pressed", "true")
        page.get_by_test_id("demo-speed-4").click()
        expect(page.get_by_test_id("demo-speed-4")).to_have_attribute("aria-pressed", "true")
        assert demo.speed == 4 and demo.pace == 0.25
    finally:
        unregister(rt)


@contextmanager
def camera_phone(browser, rt: GameRuntime) -> Iterator[SimpleNamespace]:
    """Camera mode on its own server (a tracker link fed by nothing: the test sets its status) and a
    German phone page not yet opened: ``page``, ``url``, ``app``, ``link``, ``feed``. Script errors
    on the page fail the test."""
    from tracker.link import TrackerLink
    from webui.camera import FrameHub, attach
    from webui.server import LiveServer

    app = create_app(rt, {"SSE_HEARTBEAT": 1.0})
    link = TrackerLink(rt, freeze_gc=False)
    feed = attach(app, link, FrameHub(), source="test camera")
    srv = LiveServer(app).start()
    ctx = browser.new_context(**PHONE)
    ctx.add_init_script("localStorage.setItem('companion-lang', 'de')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield SimpleNamespace(page=page, url=srv.url, app=app, link=link, feed=feed)
    finally:
        ctx.close()
        srv.stop()
    assert errors == [], errors


def test_camera_mode_asks_only_what_the_camera_cannot_read(browser, rt, recorded, tmp_path):
    from tracker.tracker import Option, Prompt, Status, StatusKind, Update, say

    at(rt, recorded, 5)  # Ann took Exploration: the camera reads the tiles drawn when they are laid
    with camera_phone(browser, rt) as cam:
        page, link, feed = cam.page, cam.link, cam.feed
        page.goto(cam.url + "/")
        expect(page.get_by_test_id("camera")).to_be_visible()
        expect(page.get_by_test_id("cam-reads")).to_be_visible()
        expect(page.locator("[data-draw]").first).to_be_hidden()  # no "Which tiles were drawn?" buttons
        expect(page.locator("[data-draw]:visible")).to_have_count(0)
        expect(page.get_by_test_id("byhand")).not_to_have_attribute("open", "")
        expect(page.get_by_test_id("cam-body")).to_be_hidden()  # the picture folded away on a phone
        page.get_by_test_id("cam-toggle").click()
        expect(page.get_by_test_id("cam-body")).to_be_visible()
        page.get_by_test_id("cam-toggle").click()
        # a question the camera cannot settle, said in German with its options
        text, key, args = say("cannot_tell")
        opts = (Option((recorded.moves[5],)), Option(()))
        prompt = Prompt(1, rt.state_id, opts, text, key, args)
        link.last = Update(Status(StatusKind.PROMPT, text, 1.0, prompt=prompt, key=key, args=args))
        feed.changed()
        expect(page.get_by_test_id("cam-prompt")).to_contain_text("die Kamera kann diese Züge nicht unterscheiden")
        expect(page.get_by_test_id("cam-prompt")).to_contain_text("nichts ist passiert")
        assert page.get_by_test_id("camera").evaluate(SAID_TWICE) == ""
        shot(page, "tribes-phone-camera.png", tmp_path)
        page.get_by_test_id("byhand").locator("summary").click()  # entering by hand is still possible
        expect(page.locator("[data-draw=wheat]")).to_be_visible()


def test_camera_mode_lists_the_facts_an_answer_overruled_and_looks_again_on_a_tap(browser, rt, recorded, tmp_path):
    """A desync answered overrules the camera where the record still disagrees: the page says where,
    what the camera reads and what the record says, and "look again" makes that fact count again."""
    at(rt, recorded, 5)
    with camera_phone(browser, rt) as cam:
        page, link, feed, app = cam.page, cam.link, cam.feed, cam.app
        tracker = link._tracker_for(link.game_view())  # the tracker the first frame would build
        tracker._overruled[("face", 1, 0)] = False  # as Tracker.overrule leaves it (tests/tracker: the real path)
        page.goto(cam.url + "/")
        over = page.get_by_test_id("cam-overruled")
        expect(over).to_be_visible()
        expect(over).to_contain_text("Deine Antwort gilt hier statt der Kamera")
        expect(over).to_contain_text("gesehen")
        expect(over).to_contain_text("laut Verlauf")
        assert page.get_by_test_id("camera").evaluate(SAID_TWICE) == ""
        page.get_by_test_id("cam-recheck").click()
        expect(page.locator("#camera-answer")).to_have_text("Die Kamera wird dort wieder beachtet.")
        expect(over).to_have_count(0)
        assert tracker.overruled == {}
        assert feed is app.extensions["companion"]["camera"]["feed"]
