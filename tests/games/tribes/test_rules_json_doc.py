"""Every field that ``rules legal --json`` and ``rules score --json`` print is documented in
docs/rules-json.md (collected over the states of whole simulated games)."""

from __future__ import annotations

import re
from pathlib import Path

from games.tribes.cli import vars_standing
from games.tribes.rules.game import simulate
from games.tribes.rules.legal import describe
from games.tribes.rules.scoring import ranking, scoreboard

DOC = (Path(__file__).resolve().parents[3] / "docs" / "rules-json.md").read_text(encoding="utf-8")
DOCUMENTED = set(re.findall(r"`([a-z_]+)`", DOC))


def _fields():
    top, tile, option, score, standing = set(), set(), set(), set(), set()
    for seed in (1, 2):
        game = simulate(3, seed=seed, policies="random")
        for state in game.states[::3]:
            d = describe(state)
            top |= set(d)
            for t in d.get("tiles", ()):
                tile |= set(t)
                for o in t["options"]:
                    option |= set(o)
            for b in scoreboard(state):
                score |= set(b.to_dict())
            for s in ranking(state):
                standing |= set(vars_standing(s))
    return top, tile, option, score, standing


def test_every_printed_field_is_in_the_doc():
    groups = _fields()
    missing = sorted(f for g in groups for f in g if f not in DOCUMENTED)
    assert not missing, f"fields printed but not documented in docs/rules-json.md: {missing}"
    assert len(groups[2]) > 20  # the options were really looked at
