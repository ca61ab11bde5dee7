"""Pairing for ``serve --lan``: a short random token the host shows (text and QR code); phones and
tablets on the network send it with every write. The QR code encodes the page's address with
``?pair=<token>``, so scanning it opens the page already paired. QR codes are made by ``segno``
(pure Python).
"""

from __future__ import annotations

import io
import secrets
import socket

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits that cannot be mistaken for each other when typed from a screen."""


def new_token(groups: int = 2, size: int = 4) -> str:
    """A token like ``K7QD-M2XP`` (40 bits of randomness by default)."""
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
    """This host's IPv4 addresses other than loopback, as the name service knows them (no traffic
    is sent)."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return found
    for info in infos:
        addr = str(info[4][0])
        if not addr.startswith("127.") and addr not in found:
            found.append(addr)
    return found
