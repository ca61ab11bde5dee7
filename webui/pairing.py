"""Pairing a phone or tablet: the code the host shows (text and QR code) and ``/api/pair``.

A server that listens beyond loopback has a pairing code (:func:`new_token`: 16 characters of a
32-letter alphabet, 80 bits, shown as ``K7QD-M2XP-4RTA-9WZB``; typed in any case, with or without
the dashes). A device that is not the host itself needs it for every read of game data and every
write (:mod:`webui.security`). The page sends it once to ``POST /api/pair`` (``{"code": "…"}``),
which sets a cookie that pairs that browser until the server stops; scripts may instead send it
with every request (``X-Pairing-Token``). The QR code encodes the page's address with
``?pair=<code>``, so scanning it opens the page and pairs it. ``GET /api/pair`` says whether the
asking browser is paired or needs to be. QR codes are made by ``segno`` (pure Python).
"""

from __future__ import annotations

import contextlib
import io
import secrets
import socket

from flask import Blueprint, Response, jsonify, request

bp = Blueprint("pairing", __name__, url_prefix="/api")

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits that cannot be mistaken for each other when typed from a screen."""


def new_token(groups: int = 4, size: int = 4) -> str:
    """A code like ``K7QD-M2XP-4RTA-9WZB`` (80 bits of randomness by default: 5 bits a character)."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(size)) for _ in range(groups))


def pairing_url(base: str, token: str) -> str:
    """The address that opens the page paired: ``base`` plus ``?pair=token``."""
    return f"{base.rstrip('/')}/?pair={token}"


def qr_svg(text: str, scale: int = 6) -> str:
    """An SVG QR code of ``text``."""
    import segno

    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="svg", scale=scale, border=2, xmldecl=False)
    return buf.getvalue().decode("utf-8")


def qr_text(text: str) -> str:
    """A QR code of ``text`` drawn with block characters, for the host's terminal."""
    import segno

    buf = io.StringIO()
    segno.make(text, error="m").terminal(out=buf, compact=True)
    return buf.getvalue()


def lan_addresses() -> list[str]:
    """This host's IPv4 addresses other than loopback: the one its default route leaves from (a UDP
    socket is connected, which sends nothing) and those the name service knows."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.254.254.254", 9))  # any address off this host: no packet is sent
        found.append(str(s.getsockname()[0]))
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        found.append(str(info[4][0]))
    out: list[str] = []
    for addr in found:
        if not addr.startswith(("127.", "0.")) and addr not in out:
            out.append(addr)
    return out


def host_names() -> list[str]:
    """This computer's own names as phones may type them: its host name and ``<name>.local``."""
    name = socket.gethostname().strip().lower()
    if not name:
        return []
    short = name.split(".")[0]
    return list(dict.fromkeys([name, short, f"{short}.local"]))


def _paired_here() -> dict[str, bool]:
    from webui.security import COOKIE, is_loopback, pairing

    if is_loopback(request.remote_addr):
        return {"paired": True, "needed": False}
    return {"paired": pairing().cookie_ok(request.cookies.get(COOKIE)), "needed": True}


@bp.get("/pair")
def get_pair_status() -> Response:
    """Whether this browser is paired (``needed``: false on the host itself)."""
    return jsonify(_paired_here())


@bp.post("/pair")
def post_pair() -> Response:
    """``{"code": "…"}``: pair this browser (a cookie); 401 for a wrong code, 429 after too many."""
    from webui.api import _guard, body
    from webui.errors import ApiError, bad_request
    from webui.security import COOKIE, COOKIE_MAX_AGE, is_loopback, pairing

    _guard()
    data = body()
    code = data.get("code")
    if set(data) - {"code"}:
        raise bad_request(sorted(set(data) - {"code"})[0], "is not a field here; expected code")
    if not isinstance(code, str) or not 1 <= len(code) <= 64:
        raise bad_request("code", "must be the pairing code shown on the host's screen")
    p = pairing()
    if is_loopback(request.remote_addr) and not p.code:
        return jsonify({"paired": True, "needed": False})
    if not p.check_code(code, request.remote_addr or ""):
        raise ApiError(401, "unauthorized", "that is not the pairing code shown on the host's screen")
    resp = jsonify({"paired": True, "needed": not is_loopback(request.remote_addr)})
    resp.set_cookie(COOKIE, p.cookie_value, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Strict", path="/")
    return resp
