"""SIGTERM stops ``serve`` and ``demo`` like Ctrl+C (companion/stopping.py)."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from companion.stopping import stop_on_sigterm


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
