"""Who may talk to the companion: the Host-header allow-list, pairing, and the security headers of
every answer (docs/security.md).

Every request passes :func:`guard` (an app-wide ``before_request``):

1. **Host allow-list.** The ``Host`` header must name this server: a loopback name or address
   (``localhost``, ``127.0.0.1``, ``[::1]``) and, when the server listens beyond loopback, any IP
   address literal and this computer's own names (``ALLOWED_HOSTS``: its host name, ``<name>.local``,
   ``serve --allow-host``). A DNS-rebinding page has its own *name* in the Host header, so it is
   refused with 403 ``forbidden`` before anything is read. A write whose ``Origin`` is not one of
   these addresses is refused too.
2. **Pairing.** A browser on the host itself (the request comes from a loopback address) needs
   nothing more. Anything else must be paired for every read of game data or camera pictures and for
   every write, whatever address the server is bound to: it either sends the pairing code
   (``X-Pairing-Token`` header, or ``Authorization: Bearer``) or carries the cookie that
   ``POST /api/pair`` sets once it was given the code (the page does that, and the QR code on the
   host's ``/pair`` screen opens the page with ``?pair=<code>``). Only the page shell, its scripts and
   styles, the API's description and ``/api/pair`` itself are public; the rest answers 401
   ``unauthorized``. Without a pairing code (``create_app`` without ``PAIRING_TOKEN``) nothing but
   loopback gets in at all (403).
3. **Rate limit.** Wrong codes are counted per client address and overall (:class:`FailureLimiter`);
   past the limit every pairing attempt from there (or, past the overall limit, from anywhere but
   loopback) answers 429 ``too_many_requests`` with ``Retry-After`` until the window has passed.

The pairing code is 16 characters of a 32-letter alphabet (80 bits, :func:`webui.pairing.new_token`),
compared case-insensitively, ignoring blanks and dashes, in constant time (HMAC digests compared
with :func:`hmac.compare_digest`). The cookie is an HMAC of the code under a secret made at start,
``HttpOnly`` and ``SameSite=Strict``, so another web site can neither read it nor send it.

:func:`headers` adds to every answer a Content-Security-Policy (scripts, styles, pictures and
connections from this origin only — no inline script; ``frame-ancestors 'none'``), ``X-Frame-Options:
DENY``, ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer`` (the pairing code in
a ``?pair=`` address never leaks to another site).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import deque
from collections.abc import Iterable
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

from webui.errors import ApiError

COOKIE = "companion_pair"
COOKIE_MAX_AGE = 30 * 24 * 3600
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
PUBLIC_ENDPOINTS = frozenset(
    {
        "pages.index",
        "pages.static",
        "pages.game_static",
        "pages.pair",  # it answers only the host itself (403 for anyone else)
        "api.get_openapi",
        "pairing.post_pair",
        "pairing.get_pair_status",
    }
)
"""What a browser that is not paired may load: the page shell and its files (no game data)."""
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""Scripts only from this origin (no inline script, no eval); inline styles stay allowed (the page
colours players with style attributes)."""


def normalize_code(code: str) -> str:
    """A pairing code as compared: upper case, without blanks or dashes."""
    return "".join(c for c in code.upper() if c.isalnum())


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address (an IPv4 address mapped into IPv6, ``::ffff:127.0.0.1``, as the IPv4 one)."""
    try:
        ip = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def is_loopback(addr: str | None) -> bool:
    """Whether ``addr`` (a client address) is this computer itself."""
    ip = _ip(addr) if addr else None
    return ip is not None and ip.is_loopback


def host_name(host: str) -> str:
    """The name or address part of a Host header (``[::1]:8321`` → ``::1``, ``Box:80`` → ``box``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def host_allowed(host: str, names: Iterable[str], network: bool) -> bool:
    """Whether a Host header (or an Origin's host) names this server: a loopback name or address, or,
    when it serves the ``network``, any IP address and the names in ``names``."""
    name = host_name(host)
    if not name:
        return False
    ip = _ip(name)
    if ip is not None:
        return ip.is_loopback or network
    return name in LOOPBACK_NAMES or (network and name in {n.lower().rstrip(".") for n in names})


class FailureLimiter:
    """Counts wrong pairing codes in a sliding window: at most ``per_client`` per address and
    ``overall`` from all addresses together within ``window`` seconds."""

    def __init__(self, per_client: int = 10, overall: int = 60, window: float = 60.0) -> None:
        self.per_client = per_client
        self.overall = overall
        self.window = window
        self._lock = threading.Lock()
        self._all: deque[float] = deque()
        self._by: dict[str, deque[float]] = {}

    def _trim(self, q: deque[float], now: float) -> None:
        while q and q[0] <= now - self.window:
            q.popleft()

    def blocked(self, addr: str, now: float | None = None) -> float:
        """Seconds until ``addr`` may try again (0: now)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self._trim(self._all, now)
            mine = self._by.get(addr)
            if mine is not None:
                self._trim(mine, now)
                if not mine:
                    del self._by[addr]
            waits = []
            if mine and len(mine) >= self.per_client:
                waits.append(mine[0] + self.window - now)
            if len(self._all) >= self.overall:
                waits.append(self._all[0] + self.window - now)
            return max(waits, default=0.0)

    def failed(self, addr: str, now: float | None = None) -> None:
        """One wrong code from ``addr``."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self._all.append(now)
            self._by.setdefault(addr, deque()).append(now)
            if len(self._by) > 10_000:  # a flood of addresses: forget the oldest
                self._by.pop(next(iter(self._by)))


class Pairing:
    """The pairing code of a running server and what it checks (see the module docstring)."""

    def __init__(self, code: str | None, limiter: FailureLimiter | None = None) -> None:
        self.code = code
        self._secret = secrets.token_bytes(32)
        self._want = self._digest(normalize_code(code)) if code else None
        self.cookie_value = hmac.new(self._secret, b"paired:" + (self._want or b""), hashlib.sha256).hexdigest()
        self.limiter = limiter or FailureLimiter()

    def _digest(self, text: str) -> bytes:
        return hmac.new(self._secret, text.encode(), hashlib.sha256).digest()

    def code_ok(self, given: str) -> bool:
        """Whether ``given`` is the pairing code (constant time)."""
        if self._want is None:
            return False
        return hmac.compare_digest(self._digest(normalize_code(given)), self._want)

    def cookie_ok(self, given: str | None) -> bool:
        """Whether a request's cookie says it was paired."""
        return self._want is not None and bool(given) and hmac.compare_digest(str(given), self.cookie_value)

    def check_code(self, given: str, addr: str) -> bool:
        """``code_ok`` under the rate limit: 429 when ``addr`` tried too many wrong codes lately."""
        wait = self.limiter.blocked(addr)
        if wait > 0:
            raise ApiError(
                429,
                "too_many_requests",
                f"too many wrong pairing codes: try again in {int(wait) + 1} s",
                retry_after=int(wait) + 1,
            )
        if self.code_ok(given):
            return True
        self.limiter.failed(addr)
        return False


def pairing() -> Pairing:
    """The app's :class:`Pairing`."""
    return current_app.extensions["companion"]["pairing"]  # type: ignore[no-any-return]


def given_code() -> str:
    """The pairing code a request carries in a header ('' for none)."""
    given = request.headers.get("X-Pairing-Token", "")
    auth = request.headers.get("Authorization", "")
    if not given and auth[:7].lower() == "bearer ":
        given = auth[7:]
    return given.strip()


def network() -> bool:
    """Whether the server listens beyond loopback (``SERVE_NETWORK``)."""
    return bool(current_app.config.get("SERVE_NETWORK"))


def guard() -> None:
    """The Host check, the Origin check of writes and pairing (the module docstring)."""
    cfg = current_app.config
    names = cfg.get("ALLOWED_HOSTS") or ()
    host = request.host or ""
    if not host_allowed(host, names, network()):
        raise ApiError(
            403,
            "forbidden",
            f"this companion answers only to its own addresses, not to Host {host_name(host)[:60]!r} "
            "(serve --allow-host NAME adds a name)",
        )
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        origin = request.headers.get("Origin")
        if origin is not None and not _origin_ok(origin, names):
            raise ApiError(403, "forbidden", "a write from another web site is refused (Origin)")
    if is_loopback(request.remote_addr):
        return
    if request.endpoint in PUBLIC_ENDPOINTS:
        return
    p = pairing()
    if p.code is None:
        raise ApiError(403, "forbidden", "this companion serves this computer only (serve --lan pairs phones)")
    if p.cookie_ok(request.cookies.get(COOKIE)):
        return
    given = given_code()
    if given and p.check_code(given, request.remote_addr or ""):
        return
    raise ApiError(
        401,
        "unauthorized",
        "pair this device first: enter the pairing code shown on the host's screen (or scan its QR code)",
    )


def _origin_ok(origin: str, names: Iterable[str]) -> bool:
    if origin == "null":
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return host_allowed(parts.netloc, names, network())


def headers(resp: Response) -> Response:
    """The security headers of every answer."""
    h = resp.headers
    h.setdefault("Content-Security-Policy", CSP)
    h.setdefault("X-Frame-Options", "DENY")
    h.setdefault("X-Content-Type-Options", "nosniff")
    h.setdefault("Referrer-Policy", "no-referrer")
    return resp


def install(app: Flask) -> None:
    """Add the guard, the headers and the pairing routes to ``app``."""
    from webui.pairing import bp as pairing_bp

    app.extensions["companion"]["pairing"] = Pairing(app.config.get("PAIRING_TOKEN"))
    app.before_request(guard)
    app.after_request(headers)
    app.register_blueprint(pairing_bp)


__all__ = [
    "COOKIE",
    "CSP",
    "PUBLIC_ENDPOINTS",
    "FailureLimiter",
    "Pairing",
    "guard",
    "headers",
    "host_allowed",
    "install",
    "is_loopback",
    "normalize_code",
]
