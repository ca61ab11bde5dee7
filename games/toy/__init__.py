"""Coin race: a toy game, the chassis's test double (and the smallest example of a plug-in).

Two to four players race to space 10. On their turn a player steps 1 or 2 spaces, or flips a coin:
the coin is a chance node, reported like any chance outcome (``coin heads``: 3 spaces, ``coin tails``:
none). Rules (clause ``T-…``):

* T-1: players move in seat order, one decision per turn.
* T-2: ``step 1`` or ``step 2`` moves that many spaces.
* T-3: ``step 2`` is not allowed from space 9 (one short of the goal: only ``step 1`` or ``flip``).
* T-4: ``flip`` makes the table report the coin (``coin heads`` +3, ``coin tails`` +0).
* T-5: the game ends when a player reaches space 10 or beyond; most spaces wins, then the earlier seat
  ranks higher among equals (the tie-break is the seat order).

Not listed to users (``GameInfo.listed`` is False); the API test runs over it like every game. Its page
module (:mod:`games.toy.page`, ``static/toy.js``) is the smallest game module of the page shell
(docs/page-shell.md): the spaces, who is to move, a button per legal move and coin outcome.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.api import GamePlugin
from games.toy.rules import INFO, ToyRules

if TYPE_CHECKING:
    from games.api import PageModule


def _page() -> PageModule:
    """The page module, imported when the page first asks for it."""
    from games.toy.page import PAGE

    return PAGE


GAME = GamePlugin(info=INFO, rules=ToyRules(), page=_page)

__all__ = ["GAME"]
