"""The box profile: the default loads with provenance, the provisional values are listed, every
problem is one line naming the file and field, totals are validated, a user's corrections are marked,
and the engine follows whatever a valid profile says (S-PLACE-5, S-CARD-1, S-SET-1)."""

from __future__ import annotations

import json

import pytest
from sa_helpers import PROFILE_FILE, moves_of, play, profile_with, raw_profile, started

from datafile.provenance import CHECKED_NOTE
from games.stoneage.plugin import GAME
from games.stoneage.rules.errors import ProfileError
from games.stoneage.rules.profile import default_profile, load_profile, parse_profile


def test_default_profile_components_and_totals():
    p = default_profile()
    assert len(p.cards) == 36 and len(p.buildings) == 28 and p.stack_size == 7
    assert p.card_costs == (1, 2, 3, 4) and dict(p.divisor) == {"hunt": 2, "wood": 3, "clay": 4, "stone": 5, "gold": 6}
    kinds = [c.top.kind for c in p.cards]
    assert {k: kinds.count(k) for k in set(kinds)} == {
        "dice_bar": 10, "food": 7, "resource": 5, "roll": 3, "points": 3, "tool_once": 3,
        "agriculture": 2, "tool": 1, "extra_card": 1, "any_resources": 1,
    }  # fmt: skip
    cultures = [c.bottom.culture for c in p.cards if c.bottom.culture]
    assert len(cultures) == 16 and all(cultures.count(s) == 2 for s in p.cultures)
    assert sum(1 for b in p.buildings if b.kind == "fixed") == 17
    for b in p.buildings:  # fixed buildings print the value of their resources (S-BLD-3)
        if b.kind == "fixed":
            assert b.points == sum(k * v for k, v in zip(b.cost, p.value, strict=True))


def test_provenance_and_the_provisional_values():
    p = default_profile()
    assert p.source_of("board.capacity.wood").startswith("rulebook")
    assert p.source_of("cards[0].top.amount").startswith("review: yucata")
    info = GAME.profile.info(p)
    assert "components.max_tools" in info["provisional"]
    assert "cards[35].bottom.figures" in info["provisional"]
    assert "cards[0].bottom.culture" not in info["provisional"]


def test_mark_checked_makes_a_value_reviewed():
    doc = GAME.profile.mark_checked(raw_profile(), ["cards[35].bottom"])
    p = GAME.profile.parse(doc)
    assert p.source_of("cards[35].bottom.figures") == CHECKED_NOTE
    assert "cards[35].bottom.figures" not in GAME.profile.info(p)["provisional"]


@pytest.mark.parametrize(
    "path,value,field",
    [
        ("totals.cards", 35, "totals.cards"),
        ("totals.buildings", 27, "totals.buildings"),
        ("cards.1.id", "c01", "cards[1].id"),
        ("cards.0.bottom", {"culture": "dance"}, "cards[0].bottom.culture"),
        ("cards.0.top", {"kind": "magic"}, "cards[0].top.kind"),
        ("cards.0.top", {"kind": "food"}, "cards[0].top.amount"),
        ("buildings.20", {"id": "b21", "count": 2, "kinds": 3}, "buildings[20].kinds"),
        ("board.capacity.toolmaker", None, "board.capacity.toolmaker"),
        ("board.card_costs", [], "board.card_costs"),
        ("components.start_people", 0, "components.start_people"),
        ("dice_bar", ["wood"], "dice_bar"),
        ("resources.wood.divisor", "3", "resources.wood.divisor"),
        ("_source", "maybe", "_source"),
        ("format", "tribes-box-profile", "format"),
    ],
)
def test_a_bad_profile_is_one_line_naming_the_field(path, value, field):
    doc = raw_profile()
    node = doc
    parts = path.split(".")
    for p in parts[:-1]:
        node = node[int(p)] if p.isdigit() else node[p]
    last = parts[-1]
    node[int(last) if last.isdigit() else last] = value
    with pytest.raises(ProfileError) as exc:
        parse_profile(doc, "my-box.json")
    msg = str(exc.value)
    assert msg.startswith(f"my-box.json: {field}") and "\n" not in msg, msg


def test_a_bad_profile_file_is_one_line(tmp_path):
    bad = tmp_path / "box.json"
    bad.write_text('{"format": "stoneage-box-profile",', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"box\.json: line 1"):
        load_profile(bad)
    with pytest.raises(ProfileError, match="folder"):
        load_profile(tmp_path)
    good = tmp_path / "good.json"
    good.write_text(PROFILE_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    assert load_profile(good) == default_profile()


def test_the_engine_follows_the_profile_S_PLACE_5_S_CARD_1_S_SET_1():
    prof = profile_with(**{"components.start_food": 3, "board.card_costs": [1, 1, 2], "board.capacity.hut": 3})
    s = started(cards=["c01", "c03", "c12"], profile=prof)
    assert s.players[0].food == 3 and len(s.display) == 3 and "place card4" not in moves_of(s)
    s = play(s, "place hut")
    assert s.players[0].placed[6] == 3
    s2 = play(s, "place card2")
    assert s2.players[1].placed[8 + 1] == 1
    raw = json.loads(json.dumps(prof.raw))
    assert GAME.profile.parse(raw) == prof
