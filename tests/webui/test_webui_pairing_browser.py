"""Pairing a phone in real Chromium over this computer's network address (so the server sees a client
that is not loopback), under the page's Content-Security-Policy: the page shows only the pairing box
until the code is entered, then the live game (its event stream, the log fetched incrementally); the
QR code's ``?pair=`` address pairs at once and leaves no code in the address bar. (Chromium will not
send a forged Host header; the Host check is tested over HTTP in test_webui_hardening.py.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.webui.webui_helpers import play
from webui.app import create_app
from webui.pairing import lan_addresses
from webui.server import LiveServer

CODE = "K7QD-M2XP-4RTA-9WZB"


@pytest.fixture
def lan(runtime):
    addrs = lan_addresses()
    assert addrs, "this test needs a network address other than loopback"
    app = create_app(runtime, {"PAIRING_TOKEN": CODE, "SERVE_NETWORK": True, "SSE_HEARTBEAT": 1.0})
    server = LiveServer(app, host=addrs[0]).start()
    yield server
    server.stop()


def open_phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on(
        "console",
        lambda m: (
            problems.append(m.text)
            if m.type == "error" and "the server responded with a status of 4" not in m.text
            else None
        ),
    )
    page.set_default_timeout(10000)
    return context, page, problems


def test_a_phone_pairs_with_the_code_and_then_follows_the_game(browser, lan, runtime, recorded):
    play(runtime, recorded, 34)
    context, page, problems = open_phone(browser)
    page.goto(lan.url + "/")
    expect(page.get_by_test_id("pair-code")).to_be_visible()
    expect(page.get_by_test_id("to-move")).to_have_count(0)  # nothing of the game before pairing
    page.get_by_test_id("pair-code").fill("AAAA-BBBB-CCCC-DDDD")
    page.get_by_test_id("pair-ok").click()
    expect(page.get_by_test_id("pair-error")).to_contain_text("not the pairing code")
    page.get_by_test_id("pair-code").fill(CODE.lower().replace("-", " "))
    page.get_by_test_id("pair-ok").click()
    expect(page.get_by_test_id("to-move")).to_have_text("Cid")
    expect(page.get_by_test_id("conn")).to_have_class("conn on")  # the event stream carries the cookie
    expect(page.get_by_test_id("log")).to_contain_text(str(recorded.moves[33]))
    runtime.submit(recorded.moves[34], runtime.state_id)  # someone else moves: the page follows
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    expect(page.get_by_test_id("log")).to_contain_text(str(recorded.moves[34]))
    assert page.evaluate("localStorage.getItem('companion-token')") is None  # the code is not kept
    page.reload()  # paired until the server stops
    expect(page.get_by_test_id("to-move")).to_have_text("Ann")
    expect(page.get_by_test_id("pair-code")).to_have_count(0)
    context.close()
    assert problems == [], problems


def test_the_qr_codes_address_pairs_at_once_and_drops_the_code(browser, lan, runtime, recorded):
    play(runtime, recorded, 10)
    context, page, problems = open_phone(browser)
    page.goto(lan.url + f"/?pair={CODE}")
    expect(page.get_by_test_id("to-move")).to_be_visible()
    assert "pair=" not in page.url
    context.close()
    assert problems == [], problems
