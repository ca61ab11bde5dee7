"""The Python side of the page module: views are plain JSON with what the page draws (whose turn, open
places with why-not and clause, the roll helper, the feeding check, scores with the breakdown), moves
go to and from structured JSON with errors naming the field, the catalog flags provisional values."""

from __future__ import annotations

import json

import pytest
from sa_helpers import acting, new, play, started

from games.record import simulate
from games.stoneage.page.movejson import MoveFieldError
from games.stoneage.plugin import GAME
from games.stoneage.rules.engine import generate
from games.stoneage.rules.errors import InvalidMoveError

PAGE = GAME.page()


def test_page_module_basics():
    assert PAGE.script == "stoneage.js"
    for name in ("stoneage.js", "stoneage-i18n.js", "stoneage.css"):
        assert PAGE.static.joinpath(name).is_file()


def test_state_views_are_json_for_every_phase():
    seen = set()
    for n in (2, 3, 4):
        rec = simulate(GAME, n, seed=21 + n, policies="random")
        for s in [*rec.states[::7], rec.state]:
            v = json.loads(json.dumps(PAGE.state_view(s)))
            json.dumps(PAGE.chance_view(s))
            seen.add(v["phase"])
            assert len(v["scores"]) == n and len(v["feeding"]) == n
    assert {"place", "act", "roll", "reveal", "over"} <= seen


def test_state_view_while_placing_lists_open_places_with_why_not_S_FEW_1_S_PLACE_4():
    s = play(started(3), "place toolmaker", "place hut", "place hunt 2")
    v = PAGE.state_view(s)
    assert v["turn"] == {"seat": 0, "name": "Ann", "chance": False}
    opts = {o["place"]: o for o in v["prompt"]["options"]}
    assert opts["field"]["open"] is False and opts["field"]["clause"] == "S-FEW-1"
    assert opts["toolmaker"]["clause"] == "S-PLACE-4"  # Ann is there herself
    assert opts["hut"]["clause"] == "S-CAP-2" and "taken by Bob" in opts["hut"]["reason"]
    assert opts["hunt"]["open"] is True and opts["hunt"]["people"] == {"min": 1, "max": 4}
    assert opts["card3"]["cost"] == 3 and opts["card3"]["text"].startswith("one-time tool 4")
    assert opts["building1"]["text"] == "wood,wood,clay for 10 points"


def test_state_view_roll_helper_and_feeding_check_S_TOOL_4_S_FEED_2():
    s = play(acting(placed={0: {"wood": 3}}, fields={0: {"tools": (2, 1), "food": 2}}), "take wood")
    v = PAGE.state_view(s)
    assert v["roll"]["pending"] is True and v["roll"]["tools_available"] == 3
    assert abs(sum(v["roll"]["yield_without_tools"].values()) - 1) < 1e-3
    s = play(s, "roll wood 3,5,6")
    v = PAGE.state_view(s)
    assert v["roll"]["best"]["move"] == "tools 1" and v["roll"]["max"] == 5
    assert v["feeding"][0]["short"] == 3 and v["feeding"][0]["enough"] is False


def test_scores_and_projection_with_the_full_breakdown_S_END_2_S_END_3():
    s = acting(
        fields={0: {"cards": ("c01", "c02", "c21"), "agri": 3, "res": (1, 0, 0, 0), "points": 0}},
        unseen_cards=tuple(sorted(set(new().unseen_cards) - {"c01", "c02", "c21"})),
        display=(None, None, None, None),
    )
    sc = PAGE.state_view(s)["scores"][0]
    assert sc["track"] == 0 and sc["projected"] == 1 + 1 + 2 * 3 + 1
    assert sc["culture"] == {"sets": [["pottery"], ["pottery"]], "squares": [1, 1], "points": 2}
    assert sc["multipliers"]["farmer"] == {"figures": 2, "quantity": 3, "points": 6}


@pytest.mark.parametrize("n", [2, 4])
def test_every_legal_move_goes_to_json_and_back(n):
    rec = simulate(GAME, n, seed=5, policies="random")
    count = 0
    for s in rec.states[::5]:
        for m in list(generate(s))[:40]:
            j = json.loads(json.dumps(PAGE.move_to_json(m)))
            assert PAGE.move_from_json(j) == m and PAGE.move_from_json(j["text"]) == m
            count += 1
    assert count > 200


@pytest.mark.parametrize(
    "data,field",
    [
        ({"kind": "fly"}, "move.kind"),
        ({"kind": "place"}, "move.place"),
        ({"kind": "place", "place": "wood", "people": 0}, "move.people"),
        ({"kind": "place", "place": "hut", "people": 2}, "move.people"),
        ({"kind": "buy", "place": "card1", "pay": {"food": 1}}, "move.pay.food"),
        ({"kind": "buy", "place": "card1", "pay": []}, "move.pay"),
        ({"kind": "roll", "what": "wood", "dice": [7]}, "move.dice[0]"),
        ({"kind": "tools", "tools": "3"}, "move.tools"),
        ({"kind": "pick", "face": True}, "move.face"),
        (42, "move"),
    ],
)
def test_move_json_errors_name_the_field(data, field):
    with pytest.raises(MoveFieldError) as exc:
        PAGE.move_from_json(data)
    assert exc.value.field == field


def test_move_json_text_errors_are_the_engine_s():
    with pytest.raises(InvalidMoveError):
        PAGE.move_from_json("place forest 3")


def test_catalog_flags_provisional_values():
    cat = json.loads(json.dumps(PAGE.catalog(GAME.profile.default())))
    assert len(cat["cards"]) == 36 and len(cat["buildings"]) == 28
    assert cat["cards"][35]["provisional"]["bottom"] is True and cat["cards"][0]["provisional"]["bottom"] is False
    assert cat["components"]["max_tools"]["provisional"] is True
    assert "components.max_tools" in cat["provisional"]


def test_chance_view_lists_what_may_come():
    v = PAGE.chance_view(new())
    assert v["kind"] == "reveal" and v["reveals"] == "card" and v["slot"] == 1 and len(v["choices"]) == 36
    v = PAGE.chance_view(play(acting(placed={0: {"hunt": 2}}), "take hunt"))
    assert v == {"chance": True, "kind": "roll", "what": "hunt", "dice": 2, "faces": [1, 2, 3, 4, 5, 6]}
    assert PAGE.chance_view(started()) == {"chance": False}


def test_state_view_keeps_the_shell_s_keys(tmp_path):
    """The view is merged into the shell's live view: it must not replace the shell's ``game`` (which
    module to load) nor its ``players`` (the seats the shell's history keeps); the tableau is ``tableau``."""
    from session.runtime import GameRuntime
    from webui.views import live_view

    rt = GameRuntime(tmp_path, fsync=False, game="stoneage")
    try:
        rt.new_game([("Ann", "red"), ("Bob", "blue")])
        v = json.loads(json.dumps(live_view(rt)))
    finally:
        rt.close()
    assert v["game"]["script"] == "/games/stoneage/static/stoneage.js" and v["game"]["profile"] is True
    assert v["players"] == [{"seat": 0, "name": "Ann", "colour": "red"}, {"seat": 1, "name": "Bob", "colour": "blue"}]
    assert [p["name"] for p in v["tableau"]] == ["Ann", "Bob"] and v["tableau"][0]["food"] == 12
    assert v["box"]["digest"] == GAME.profile.default().digest
    assert v["chance"]["kind"] == "reveal" and len(v["chance"]["choices"]) == 36


def test_places_say_how_many_people_they_still_take_S_CAP_5_S_CAP_2_S_CAP_6():
    s = play(started(3), "place wood 3", "place hut", "place card1")
    room = {o["place"]: o["room"] for o in PAGE.state_view(s)["prompt"]["options"]}
    assert room["wood"] == 4 and room["hunt"] is None and room["hut"] == 0 and room["toolmaker"] == 1
    assert room["card1"] == 0 and room["card2"] == 1 and room["building1"] == 1


def test_catalog_gives_the_rule_of_every_variable_building_S_BLD_3():
    cat = PAGE.catalog(GAME.profile.default())
    b = {x["id"]: x for x in cat["buildings"]}
    assert (b["b21"]["count"], b["b21"]["kinds"], b["b21"]["min"]) == (4, 1, None)
    assert (b["b18"]["min"], b["b18"]["max"], b["b18"]["count"]) == (1, 7, None)
    assert b["b01"]["cost"] == {"wood": 2, "clay": 1, "stone": 0, "gold": 0} and b["b01"]["count"] is None
