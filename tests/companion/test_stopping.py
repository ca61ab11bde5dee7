"""SIGTERM stops ``serve`` and ``demo`` like Ctrl+C, and a second one during their cleanup is
ignored (companion/stopping.py)."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from companion.stopping import stop_on_sigterm, stops_held


def test_sigterm_raises_keyboard_interrupt_in_the_main_thread() -> None:
    before = signal.getsignal(signal.SIGTERM)
    try:
        stop_on_sigterm()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # interrupted at once
    finally:
        signal.signal(signal.SIGTERM, before)


def test_in_another_thread_it_changes_nothing() -> None:
    before = signal.getsignal(signal.SIGTERM)
    t = threading.Thread(target=stop_on_sigterm)
    t.start()
    t.join()
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_second_stop_during_the_cleanup_is_ignored_and_the_handlers_come_back() -> None:
    """Inside ``stops_held`` SIGTERM and Ctrl+C do nothing (before, the second signal of an impatient
    user raised KeyboardInterrupt in the middle of the cleanup: a traceback, no summary); after it, the
    handlers in place before are back."""
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    try:
        stop_on_sigterm()
        with stops_held():
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)  # an unheld signal would have raised by now
        assert signal.getsignal(signal.SIGINT) is before[1]
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # interrupted at once
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])


def test_holding_stops_in_another_thread_changes_nothing() -> None:
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    seen: list[tuple[object, object]] = []

    def hold() -> None:
        with stops_held():
            seen.append((signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)))

    t = threading.Thread(target=hold)
    t.start()
    t.join()
    assert seen == [before]
