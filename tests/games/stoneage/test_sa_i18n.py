"""The Stone Age page's texts: every string in English and German, every key the module asks for
(literal or built from the game's words: places, resources, cultures, multipliers, card tops, phases)
present, and every rule clause of docs/stoneage-rules.md in words in both languages."""

from __future__ import annotations

import re
from pathlib import Path

from games.stoneage.plugin import GAME
from games.stoneage.rules.profile import DICE_PLACES, MULTIPLIERS, RESOURCES
from games.stoneage.rules.state import Phase

ROOT = Path(__file__).resolve().parents[3]
STATIC = ROOT / "games" / "stoneage" / "page" / "static"
I18N = (STATIC / "stoneage-i18n.js").read_text(encoding="utf-8")
MODULE = (STATIC / "stoneage.js").read_text(encoding="utf-8")
KEY = re.compile(r"(?:^\s*|[{,]\s*)([A-Za-z_]\w*): \"", re.M)


def strings(lang: str) -> set[str]:
    body = I18N.split("export const CLAUSES")[0]
    en, de = body.split("\n  de: {")
    return set(KEY.findall(en if lang == "en" else de))


def test_every_string_in_english_and_german():
    en, de = strings("en"), strings("de")
    assert len(en) > 150 and en == de, sorted(en ^ de)


def test_every_key_the_module_uses_is_there():
    en = strings("en")
    literal = set(re.findall(r"\bt\(\"(\w+)\"[,)]", MODULE))
    prof = GAME.profile.default()
    built = (
        {f"ph_{p}" for p in Phase}
        | {f"p_{p}" for p in (*DICE_PLACES, "toolmaker", "hut", "field")}
        | {f"v_{p}" for p in ("toolmaker", "hut", "field")}
        | {f"r_{r}" for r in (*RESOURCES, "food")}
        | {f"cu_{c}" for c in prof.cultures}
        | {f"m_{m}" for m in MULTIPLIERS}
        | {f"q_{m}" for m in MULTIPLIERS}
        | {f"top_{c.top.kind}" for c in prof.cards}
        | {f"endedBy_{e}" for e in ("buildings", "cards")}
        | {"g_" + {"agriculture": "agriculture_t", "tool": "tool_t"}.get(c.top.kind, c.top.kind) for c in prof.cards}
        | {f"g_{b.kind}" for b in prof.buildings}
        | {"sec_place", "sec_act", "sec_feed"}
    )
    shell = {"toMove", "table", "gameOver", "confirm", "cancel", "provisional"}  # the shell's own
    assert literal - en - shell == set()
    assert built - en == set()


def test_every_rule_clause_in_words():
    doc = (ROOT / "docs" / "stoneage-rules.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"\*\*(S-[A-Z]+-\d+)\*\*", doc))
    pairs = re.findall(r"\"(S-[A-Z]+-\d+)\": \[\"([^\"]+)\", \"([^\"]+)\"\]", I18N)
    words = {c: (en, de) for c, en, de in pairs}
    assert len(ids) > 50 and set(words) == ids
    assert all(en and de and en != de for en, de in words.values())
