"""Serving the companion: a threaded Werkzeug server (each SSE stream holds a thread), never in
debug mode. :func:`serve` is what ``table-companion serve`` runs; :class:`LiveServer` runs the app
in a background thread (tests, embedding)."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server


class QuietHandler(WSGIRequestHandler):
    """A request handler that does not log every request (SSE pages make many)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Requests are not logged; errors still are."""


class LiveServer:
    """The app on a threaded server in a daemon thread; ``port=0`` picks a free port."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, quiet: bool = True) -> None:
        self.app = app
        handler = QuietHandler if quiet else None
        self.server: BaseWSGIServer = make_server(host, port, app, threaded=True, request_handler=handler)
        self.server.daemon_threads = True  # type: ignore[attr-defined]
        self.host = host
        self.port = self.server.server_port
        self._thread = threading.Thread(target=self.server.serve_forever, name="tribes-http", daemon=True)

    @property
    def url(self) -> str:
        """The base address, e.g. ``http://127.0.0.1:8321``."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> LiveServer:
        """Start serving in the background."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """End the SSE streams and stop serving."""
        hub: Any = self.app.extensions["companion"]["hub"]
        hub.close()
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=5)
