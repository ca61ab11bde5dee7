"""Fixtures of the web companion's tests: a runtime on a temporary folder, the Flask app and test
client (flaskr style), a deterministic recorded game to enter move by move, a live threaded server
and a browser page (the ``browser`` fixture, headless Chromium, is in tests/conftest.py)."""

from __future__ import annotations

import pytest

from session.runtime import GameRuntime
from webui.app import create_app


@pytest.fixture
def app(runtime: GameRuntime):
    return create_app(runtime, {"SSE_HEARTBEAT": 0.2})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def live(runtime: GameRuntime):
    """The app on a real threaded server (port 0) for the browser."""
    from webui.server import LiveServer

    server = LiveServer(create_app(runtime, {"SSE_HEARTBEAT": 1.0})).start()
    yield server
    server.stop()


@pytest.fixture
def page(browser, live):
    """A fresh browser page (laptop size) on the live server; script errors fail the test (the
    browser's own note on an expected 4xx answer does not)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "the server responded with a status of 4" not in m.text
            else None
        ),
    )
    pg.set_default_timeout(10000)
    yield pg
    context.close()
    assert errors == [], errors
