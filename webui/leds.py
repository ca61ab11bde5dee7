"""The LED strip as the web page sees it: the provider ``create_app(leds=...)`` takes, and its JSON view.

The web package does not drive a strip itself (no serial here): whoever starts the server (``serve
--leds``, the demo, a test) injects an object with ``snapshot() -> dict`` (the strip's status and
current picture as JSON data) and, optionally, ``subscribe(listener) -> unsubscribe`` (called with a
new snapshot whenever it changes; the event stream forwards it as ``event: leds``). The devices
package's :class:`devices.live.LiveStrip` is one. Without a provider ``GET /api/leds`` answers
``{"enabled": false, …}``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

log = logging.getLogger(__name__)

STATUSES = ("connected", "reconnecting", "absent")


@runtime_checkable
class LedSource(Protocol):
    """The strip status + current frame provider injected into the app."""

    def snapshot(self) -> dict[str, Any]:
        """The strip as JSON data: ``status``, ``detail``, ``port``, ``protocol``, ``frame``, ``slots`` …"""
        ...

    def subscribe(self, listener: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        """Call ``listener(snapshot)`` on every change; returns a function that unsubscribes."""
        ...


def disabled_view(detail: str = "no LED strip configured (serve --leds PORT)") -> dict[str, Any]:
    """What ``GET /api/leds`` answers when the server runs without a strip."""
    return {
        "enabled": False,
        "status": "absent",
        "detail": detail,
        "port": None,
        "protocol": None,
        "frame": [],
        "layout": [],
        "slots": [],
        "pulse": None,
        "warnings": [],
        "seq": 0,
    }


def leds_view(source: LedSource | None) -> dict[str, Any]:
    """The strip as ``GET /api/leds`` and ``event: leds`` carry it; a provider that fails to report is
    shown as ``absent`` with the reason (the page never gets an error for a strip problem)."""
    if source is None:
        return disabled_view()
    try:
        data = dict(source.snapshot())
    except Exception as exc:
        log.exception("the LED strip provider failed")
        view = disabled_view(f"the LED strip cannot report its state: {' '.join(str(exc).split())}")
        view["enabled"] = True
        return view
    data["enabled"] = True
    if data.get("status") not in STATUSES:
        data["detail"] = f"unknown strip status {data.get('status')!r}: {data.get('detail', '')}"
        data["status"] = "absent"
    return data
