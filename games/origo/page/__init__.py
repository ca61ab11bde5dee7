"""Origo's page module, Python side: the JSON views (:mod:`games.origo.page.view`) and moves as
structured JSON (:mod:`games.origo.page.movejson`). ``PAGE`` is the :class:`games.api.PageModule`."""

from games.origo.page.view import PAGE, OrigoPage

__all__ = ["PAGE", "OrigoPage"]
