"""Shared pytest fixtures: headless Chromium (Debian's /usr/bin/chromium driven by Playwright), one
per test session, for every browser test (two Playwright instances in one process do not mix)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.tribes.rules.game import Game, simulate
from session.runtime import GameRuntime

CHROMIUM = os.environ.get("TRIBES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium. Missing Chromium fails the tests in CI (.ci/run installs it) and skips them,
    with the reason, elsewhere."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def wait_until(page, expression: str, timeout: float = 10.0) -> None:
    """Poll ``expression`` in ``page`` until it is truthy (Playwright's ``wait_for_function`` compiles its
    predicate with ``eval``, which the page's Content-Security-Policy forbids)."""
    import time

    end = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > end:
            raise AssertionError(f"not true within {timeout} s: {expression}")
        time.sleep(0.05)


PLAYERS = [("Ann", "red"), ("Bob", "blue"), ("Cid", "yellow")]


@pytest.fixture(scope="session")
def recorded() -> Game:
    """A whole 3-player game by seeded random players (Ann, Bob, Cid); its moves are entered one by
    one in the tests. Move 4 is '3:exp', 5 'draw wheat' (chance), 6 the placement, 7 an achievement."""
    return simulate(PLAYERS, seed=1, policies="random")


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[GameRuntime]:
    """A runtime on a temporary folder, without fsync (1.4 ms a move here; what fsync is for, a
    journal that survives a crash, tests/webui/test_webui_kill9.py checks on a real server with it)."""
    rt = GameRuntime(tmp_path / "data", fsync=False)
    yield rt
    rt.close()
