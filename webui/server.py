"""Serving the companion: Waitress, a production WSGI server, never Flask's development server.

Waitress reads every request (headers and body) in its one I/O thread and hands only complete
requests to a pool of worker threads, so a client that stalls mid-request holds a connection, not a
thread, and is dropped after :data:`CHANNEL_TIMEOUT` seconds without a byte. Each live stream (the
page's Server-Sent Events, the tracker's events, the MJPEG camera picture) holds one worker thread
for as long as it is open, so the pool is sized for them: :data:`THREADS` workers, of which at most
:data:`webui.sse.MAX_STREAMS` serve streams (the next stream gets 503 ``busy``); the rest always
answer ordinary requests. At most :data:`CONNECTION_LIMIT` connections are accepted at once (later
ones wait in the listen backlog). Bodies over :data:`MAX_BODY` are cut off by Waitress with 413;
the app itself refuses anything over ``MAX_CONTENT_LENGTH`` (2 MiB) with a typed 413 first.

:class:`LiveServer` runs the app in a background thread (tests, the demo) or in the calling thread
(:meth:`LiveServer.serve_forever`, what ``table-companion serve`` runs).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from flask import Flask

THREADS = 96
"""Worker threads: room for :data:`webui.sse.MAX_STREAMS` (80) streams plus 16 for ordinary requests
(an idle thread costs no CPU and little memory: its stack is reserved, not used)."""
CONNECTION_LIMIT = 200
"""Connections served at once (streams, pages keeping their connection alive, requests)."""
CHANNEL_TIMEOUT = 10
"""Seconds a connection may stay silent (a stalled request, an idle keep-alive) before it is closed."""
CLEANUP_INTERVAL = 2
"""How often (seconds) silent connections are looked for."""
MAX_BODY = 16 * 1024 * 1024
"""Largest request body Waitress reads at all (the app refuses more than 2 MiB itself, as typed JSON)."""
MAX_HEADER = 64 * 1024
"""Largest request head (request line and headers)."""


class LiveServer:
    """The app on Waitress; ``port=0`` picks a free port. ``start`` serves in a daemon thread,
    ``serve_forever`` in the calling one; ``stop`` ends the streams and the server."""

    def __init__(
        self, app: Flask, host: str = "127.0.0.1", port: int = 0, quiet: bool = True, threads: int = THREADS
    ) -> None:
        from waitress.server import create_server

        self.app = app
        self.host = host
        if quiet:
            logging.getLogger("waitress.queue").setLevel(logging.ERROR)
        self.server: Any = create_server(
            app,
            host=host,
            port=port,
            threads=threads,
            connection_limit=CONNECTION_LIMIT,
            channel_timeout=CHANNEL_TIMEOUT,
            cleanup_interval=CLEANUP_INTERVAL,
            max_request_body_size=MAX_BODY,
            max_request_header_size=MAX_HEADER,
            ident="table-companion",
            expose_tracebacks=False,
            clear_untrusted_proxy_headers=True,
            asyncore_use_poll=True,
        )
        listen = getattr(self.server, "effective_listen", None)
        self.port: int = int(listen[0][1]) if listen else int(self.server.effective_port)
        self._thread: threading.Thread | None = None
        self._stopped = False

    @property
    def url(self) -> str:
        """The base address, e.g. ``http://127.0.0.1:8321``."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def start(self) -> LiveServer:
        """Start serving in the background."""
        self._thread = threading.Thread(target=self.serve_forever, name="companion-http", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve until :meth:`stop` (or Ctrl+C in the calling thread)."""
        try:
            self.server.run()
        finally:
            self._stopped = True

    def stop(self) -> None:
        """End the live streams, close every connection and the listening socket, stop the workers."""
        hub: Any = self.app.extensions["companion"]["hub"]
        hub.close()
        from waitress import wasyncore

        servers = getattr(self.server, "map", None)  # several listening sockets (localhost: v4 and v6)
        socket_map: dict[Any, Any] = servers if servers is not None else self.server._map
        logging.getLogger("waitress").setLevel(logging.CRITICAL)  # no noise about the closed sockets
        wasyncore.close_all(socket_map, ignore_all=True)  # the loop ends once its map is empty
        self.server.task_dispatcher.shutdown(timeout=5)
        if self._thread is not None:
            self._thread.join(timeout=5)


__all__ = ["CHANNEL_TIMEOUT", "CONNECTION_LIMIT", "MAX_BODY", "THREADS", "LiveServer"]
