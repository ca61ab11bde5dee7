"""The page in real headless Chromium (Debian's chromium driven by Playwright): set up a game, enter
moves by tapping, live updates over SSE, undo, language switch, phone viewport, log stepper, box
profile editor."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.webui.webui_helpers import play


def test_setup_wizard_then_moves_by_tapping(page, live, runtime):
    page.goto(live.url + "/")
    page.get_by_role("button", name="Start a new game").click()
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        page.get_by_test_id(f"setup-name-{i}").fill(name)
    page.get_by_test_id("setup-go").click()  # the table layout as preset: row and tiles in profile order
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    assert runtime.snapshot().moves[0].kind == "setup"
    # Ann taps her tile 0,0 on her land map, then confirms
    page.locator('[data-testid=land-0] g[data-hex="0,0"]').click()
    expect(page.get_by_test_id("preview")).to_have_text("start 0,0")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    for seat, after in ((1, "Cid"), (2, "Ann")):  # each tap on the page that shows that player's turn
        page.locator(f'[data-testid=land-{seat}] g[data-hex="1,0"]').click()
        expect(page.get_by_test_id("preview")).to_have_text("start 1,0")
        page.get_by_test_id("confirm").click()
        expect(page.get_by_test_id("to-move")).to_have_text(after)
    # slot 1 is Offspring, free; tap the option, then the hex for the new member
    expect(page.get_by_test_id("tile-1")).to_contain_text("free")
    page.get_by_test_id("opt-1-offspring").click()
    page.locator('[data-testid=land-0] g[data-hex="0,0"]').click()
    expect(page.get_by_test_id("preview")).to_have_text("1:off 0,0")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    assert [str(m) for m in runtime.snapshot().moves[1:]] == ["start 0,0", "start 1,0", "start 1,0", "1:off 0,0"]
    expect(page.get_by_test_id("log")).to_contain_text("1:off 0,0")


def test_scores_and_legal_moves_change_live_over_sse(page, live, runtime, recorded):
    play(runtime, recorded, 34)  # Cid to choose a tile
    page.goto(live.url + "/")
    expect(page.get_by_test_id("to-move")).to_have_text("Cid")
    before = page.get_by_test_id("score-total-2").inner_text()
    expect(page.get_by_test_id("conn")).to_have_class("conn on")
    # someone else (another phone, the camera) enters Cid's move: the page follows without reloading
    for move in recorded.moves[34:35]:
        runtime.submit(move, runtime.state_id)
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    after = runtime.snapshot()
    total = [b for b in __import__("games.tribes.rules.scoring", fromlist=["x"]).scoreboard(after.state)][2].total
    expect(page.get_by_test_id("score-total-2")).to_have_text(str(total))
    assert str(total) != before
    # the legal-move list is Ann's now, with reasons for what she cannot do
    expect(page.locator("#legal")).to_contain_text("R-TURN-2")


def test_typed_notation_and_an_illegal_move_shows_the_rule(page, live, runtime, recorded):
    play(runtime, recorded, 4)
    page.goto(live.url + "/")
    expect(page.get_by_test_id("conn")).to_have_class("conn on")
    page.get_by_test_id("typed").click()  # typing is folded away: moves are tapped
    page.get_by_test_id("notation").fill("6:exp")
    page.get_by_test_id("submit-text").click()
    expect(page.get_by_test_id("error")).to_contain_text("R-TURN-4")
    page.get_by_test_id("notation").fill("3:exp")
    page.get_by_test_id("submit-text").click()
    expect(page.get_by_test_id("context")).to_contain_text("draws")
    assert str(runtime.snapshot().moves[-1]) == "3:exp"


def test_undo_from_the_page_takes_back_a_draw_and_the_page_asks_for_it_again(page, live, runtime, recorded):
    play(runtime, recorded, 6)  # Ann took Exploration and drew wheat
    page.goto(live.url + "/")
    undo = page.get_by_test_id("undo")
    expect(undo).to_contain_text("draw wheat")  # the button says what it takes back
    undo.click()  # one tap, no dialog
    expect(page.get_by_test_id("context")).to_contain_text("draws")
    expect(page.locator("[data-draw=wheat]")).to_be_visible()  # the draw is asked for again
    expect(page.get_by_test_id("msg")).to_contain_text("draw wheat")
    assert len(runtime.snapshot().moves) == 5
    undo.click()  # and the move before it too (a finished turn is reopened the same way)
    expect(page.get_by_test_id("context")).to_contain_text("to choose a tile")
    assert len(runtime.snapshot().moves) == 4


def test_enter_a_draw_and_a_placement_by_tapping(page, live, runtime, recorded):
    play(runtime, recorded, 5)
    page.goto(live.url + "/")
    page.locator("[data-draw=wheat]").click()
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("context")).to_contain_text("places drawn tiles")
    page.locator('[data-testid=land-0] g[data-hex="2,0"]').click()  # a free hex next to her land
    expect(page.get_by_test_id("preview")).to_have_text("place wheat@2,0")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Bob")
    assert [str(m) for m in runtime.snapshot().moves[5:]] == ["draw wheat", "place wheat@2,0"]


def test_switch_language(page, live, runtime, recorded):
    play(runtime, recorded, 4)
    page.goto(live.url + "/")
    expect(page.locator("#row h2")).to_have_text("Action row")
    page.get_by_test_id("lang").click()
    expect(page.locator("#row h2")).to_have_text("Aktionsreihe")
    expect(page.locator("#scores")).to_contain_text("Bärenzähne")
    page.reload()  # the choice is remembered
    expect(page.locator("#row h2")).to_have_text("Aktionsreihe")


def test_phone_viewport(browser, live, runtime, recorded):
    play(runtime, recorded, 30)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(live.url + "/")
    expect(page.get_by_test_id("to-move")).to_be_visible()
    # one column, nothing wider than the screen except the parts that scroll inside their card
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    box = page.locator("#scores").bounding_box()
    assert box["width"] <= 390
    page.get_by_test_id("tile-1").tap()
    context.close()


def test_log_stepper_shows_earlier_positions(page, live, runtime, recorded):
    play(runtime, recorded, 9)  # Bob's claim: the tile above revealed, the event not yet
    page.goto(live.url + "/")
    expect(page.get_by_test_id("log")).to_contain_text("reveal kaese")
    page.locator("[data-step='5']").first.click()
    expect(page.get_by_test_id("live")).to_be_visible()
    expect(page.get_by_test_id("context")).to_contain_text("draws")  # after '3:exp' the draw was pending
    page.get_by_test_id("live").click()
    expect(page.get_by_test_id("context")).to_contain_text("the event revealed")


def test_profile_editor_marks_provisional_values_and_saves(page, live, runtime):
    page.goto(live.url + "/")
    page.get_by_role("button", name="Box profile").click()
    expect(page.locator("#view-profile")).to_contain_text("provisional — check your box")
    count = runtime.profile.provisional_paths()
    page.get_by_test_id("check-tracks.offspring").click()
    page.get_by_test_id("prof-save").click()
    expect(page.get_by_test_id("prof-status")).to_have_text("Saved.")
    assert len(runtime.profile.provisional_paths()) < len(count)
    assert not runtime.profile.is_provisional("tracks.offspring.vp[5]")


def test_a_box_ticked_before_the_game_module_mounts_is_kept(page, live, runtime):
    # the game's page module arrives late (a slow phone): the generic profile editor is drawn and a box
    # ticked before the module mounts; the mount must not throw that profile (and the tick) away
    held = []
    page.route("**/games/*/static/**", lambda route: held.append(route))
    page.goto(live.url + "/")
    page.get_by_role("button", name="Box profile").click()
    expect(page.locator("#view-profile")).to_contain_text("provisional — check your box")
    assert page.locator("#game-root").get_attribute("data-game") is None  # not mounted yet
    count = runtime.profile.provisional_paths()
    page.get_by_test_id("check-tracks.offspring").click()
    for route in held:
        route.continue_()
    page.unroute("**/games/*/static/**")
    expect(page.locator("#game-root")).to_have_attribute("data-game", "tribes")
    page.get_by_test_id("prof-save").click()
    expect(page.get_by_test_id("prof-status")).to_have_text("Saved.")
    assert not runtime.profile.is_provisional("tracks.offspring.vp[5]")
    assert len(runtime.profile.provisional_paths()) < len(count)


def test_correct_a_move_from_the_log(page, live, runtime, recorded):
    play(runtime, recorded, 10)
    page.goto(live.url + "/")
    expect(page.get_by_test_id("log")).to_contain_text("place wheat@2,0")
    page.locator("[data-correct='6']").click()
    # the replacement is picked from the moves possible there, not typed
    expect(page.get_by_test_id("corr-moves")).to_contain_text("place wheat@1,1")
    page.locator("[data-corr-pick='place wheat@1,1']").click()
    expect(page.get_by_test_id("corr-text")).to_have_value("place wheat@1,1")
    page.get_by_test_id("corr-ok").click()
    expect(page.get_by_test_id("log")).to_contain_text("place wheat@1,1")
    snap = runtime.snapshot()
    assert str(snap.moves[6]) == "place wheat@1,1" and len(snap.moves) == 10
