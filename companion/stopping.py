"""How the long-running commands (``serve``, ``demo``) are stopped: Ctrl+C, or SIGTERM as a service
manager (systemd, Docker) sends it — both end the command the same way, with its closing summary.
While the command then cleans up (:func:`stops_held`), a second Ctrl+C or SIGTERM — an impatient
user, a service manager and a ``timeout`` both signalling — is ignored: it would break off the
cleanup with a traceback and lose the summary."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the command like Ctrl+C


def stop_on_sigterm() -> None:
    """From now on SIGTERM raises KeyboardInterrupt in the main thread (a no-op in any other thread,
    where Python cannot install signal handlers, e.g. a command run in a test's thread)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)


@contextlib.contextmanager
def stops_held() -> Iterator[None]:
    """Ctrl+C and SIGTERM are ignored inside (the command's cleanup after it was stopped); the
    handlers before are restored after. A no-op outside the main thread, as :func:`stop_on_sigterm`."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
