"""The Flask application factory: ``create_app(runtime=..., config=...)``.

The runtime (:class:`webui.runtime.GameRuntime`) is injected, so tests, the demo and the camera
tracker can all drive the same game. So is the LED strip, optionally: ``leds`` is a strip status +
current frame provider (:class:`webui.leds.LedSource`, e.g. ``devices.live.LiveStrip`` attached to the
same runtime); the page shows it and ``GET /api/leds`` reports it. The web package never drives the
strip itself. Blueprints: ``api`` (JSON), ``events`` (SSE), ``pages`` (the
page), ``enrollment`` (the box learned at setup in camera mode; 404 until :func:`webui.camera.attach`).
Every error is typed JSON (:mod:`webui.errors`). The app never runs in debug mode.

Config keys: ``DATA_DIR`` (where the runtime keeps journals, if no runtime is given),
``PAIRING_TOKEN`` (the pairing code: anything but the host itself needs it to read game data or
write; without one only the host gets in), ``SERVE_NETWORK`` (the server listens beyond loopback:
IP-address Host headers and ``ALLOWED_HOSTS`` are then accepted), ``ALLOWED_HOSTS`` (this computer's
names besides ``localhost``), ``PAIRING_URLS`` (addresses shown on the pairing screen),
``SSE_HEARTBEAT`` (seconds, default 15), ``SSE_RETRY_MS`` (default 2000), ``MAX_STREAMS`` (live
streams held at once, default :data:`webui.sse.MAX_STREAMS`), ``MAX_CONTENT_LENGTH`` (default 2 MiB).
See :mod:`webui.security` and docs/security.md.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from session.runtime import GameRuntime
from webui import api, camera, pages, security, sse
from webui.errors import register_error_handlers
from webui.leds import LedSource


def create_app(
    runtime: GameRuntime | None = None, config: dict[str, Any] | None = None, leds: LedSource | None = None
) -> Flask:
    """Build the companion's web app around ``runtime`` (made from ``config['DATA_DIR']`` if None),
    showing the LED strip ``leds`` reports on (none if None)."""
    app = Flask(__name__, static_folder=None)
    app.config.update(
        SSE_HEARTBEAT=15.0,
        SSE_RETRY_MS=2000,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        PAIRING_TOKEN=None,
        PAIRING_URLS=[],
        SERVE_NETWORK=False,
        ALLOWED_HOSTS=[],
        JSON_SORT_KEYS=False,
    )
    if config:
        app.config.update(config)
    app.debug = False
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    if runtime is None:
        data_dir = app.config.get("DATA_DIR")
        if not data_dir:
            raise ValueError("create_app needs a runtime or config['DATA_DIR']")
        runtime = GameRuntime(data_dir)
    hub = sse.Hub(runtime, leds)
    app.extensions["companion"] = {"runtime": runtime, "hub": hub, "leds": leds}
    app.register_blueprint(api.bp)
    app.register_blueprint(sse.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(camera.enrollment_bp)  # answers 404 until camera.attach()
    security.install(app)  # the Host allow-list, pairing, the security headers
    register_error_handlers(app)
    return app
