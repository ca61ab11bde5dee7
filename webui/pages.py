"""The page (blueprint ``pages``): the single-page companion at ``/`` (static HTML, CSS and vanilla
JavaScript, no build step), each game's browser module and assets at ``/games/<id>/static/…`` (from
the game's page module, :attr:`games.api.PageModule.static`), and the pairing screen at ``/pair``,
shown only to the host itself."""

from __future__ import annotations

from html import escape
from importlib.resources import as_file

from flask import Blueprint, Response, current_app, request, send_from_directory

import games
from webui.errors import ApiError
from webui.pairing import pairing_url, qr_svg

bp = Blueprint("pages", __name__, static_folder="static", static_url_path="/static")

LOOPBACK = ("127.", "::1", "::ffff:127.")


@bp.get("/")
def index() -> Response:
    """The companion page."""
    resp = send_from_directory(bp.static_folder, "index.html")  # type: ignore[arg-type]
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/games/<game_id>/static/<path:name>")
def game_static(game_id: str, name: str) -> Response:
    """A file of a game's page module (its browser module, styles, pictures)."""
    if game_id not in games.available(hidden=True):
        raise ApiError(404, "not_found", f"no game {game_id!r}")
    plugin = games.get(game_id)
    if plugin.page is None:
        raise ApiError(404, "not_found", f"{plugin.info.title} has no page")
    with as_file(plugin.page().static) as folder:
        resp = send_from_directory(folder, name)
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/pair")
def pair() -> Response:
    """The pairing token as text and QR code; only for a browser on the host itself."""
    addr = request.remote_addr or ""
    if not addr.startswith(LOOPBACK):
        raise ApiError(403, "forbidden", "the pairing screen is shown only on the host itself")
    token = current_app.config.get("PAIRING_TOKEN")
    if not token:
        body = "<p>This companion runs on this computer only (no --lan): no pairing needed.</p>"
    else:
        urls = current_app.config.get("PAIRING_URLS") or [request.host_url]
        url = pairing_url(urls[0], token)
        body = (
            f"<h1>Pair a phone or tablet</h1><p>Scan the code, or open <code>{escape(urls[0])}</code> and "
            f"enter the token:</p><p class=token>{escape(token)}</p>{qr_svg(url)}"
            f"<p><code>{escape(url)}</code></p>"
        )
    html = (
        "<!doctype html><html><head><meta charset=utf-8><meta name=viewport content='width=device-width'>"
        "<title>Table companion — pairing</title><style>body{font-family:sans-serif;text-align:center}"
        ".token{font-size:2.5em;letter-spacing:.1em;font-weight:bold}</style></head><body>"
        f"{body}</body></html>"
    )
    return Response(html, mimetype="text/html")
