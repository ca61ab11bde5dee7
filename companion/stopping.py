"""How the long-running commands (``serve``, ``demo``) are stopped: Ctrl+C, or SIGTERM as a service
manager (systemd, Docker) sends it — both end the command the same way, with its closing summary."""

from __future__ import annotations

import signal
import threading


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the command like Ctrl+C


def stop_on_sigterm() -> None:
    """From now on SIGTERM raises KeyboardInterrupt in the main thread (a no-op in any other thread,
    where Python cannot install signal handlers, e.g. a command run in a test's thread)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)
