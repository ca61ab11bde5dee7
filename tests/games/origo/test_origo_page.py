"""The page module's Python side: views are plain JSON with the board, founding stones, the leader
track, the battle calculator's data and the tribe-scoring reminder; moves as structured JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import games
from games.origo.rules.errors import MoveFieldError
from games.origo.rules.moves import Attack, Card, Lay, Pass, Play, Points, Refill, Reveal, Stop
from games.record import simulate
from tests.games.origo.origo_helpers import default_start, play, setup, start

PAGE = games.get("origo").page()


def jsonable(x):
    return json.loads(json.dumps(x)) == x


def test_the_page_module_names_its_script_and_static_folder():
    assert PAGE.script == "origo.js"
    assert PAGE.static.joinpath("origo.js").is_file() and PAGE.static.joinpath("origo-i18n.js").is_file()


def test_state_view_of_a_new_game_draws_the_board_as_plain_data():
    v = PAGE.state_view(default_start())
    assert jsonable(v)
    b = v["board"]
    assert b["columns"] == list("ABCDEFGHIJ") and b["rows"] == list(range(1, 11))
    assert len(b["fields"]) == 100 and b["fields"][0] == {
        "name": "A1",
        "col": 0,
        "row": 0,
        "region": "NOR",
        "kind": "sea",
        "owner": None,
        "owner_name": None,
        "colour": None,
        "contested": False,
    }
    assert {r["id"] for r in b["regions"]} >= {"BRI", "GER", "NOR"}
    assert v["founding_stones"]["left"] == 12 and v["founding_stones"]["next"] == {"value": 1, "red": False}
    assert v["leader_track"]["length"] == 100 and [p["field"] for p in v["leader_track"]["positions"]] == [0, 0]
    assert v["prompt"]["kind"] == "turn" and v["battle"] is None and v["attack_targets"] == []
    assert v["tribe_scoring"]["reminder"] is None
    assert [s["total"] for s in v["scores"]] == [0, 0]
    assert v["position"]["profile"]["digest"] == default_start().board.digest


def test_state_view_shows_shields_founding_stones_and_the_reported_field():
    s = play(setup(start(), {"A1": "Ann", "B1": "Bob"}), "lay Ann A2", "reveal 5 red")
    v = PAGE.state_view(s)
    fields = {f["name"]: f for f in v["board"]["fields"]}
    assert fields["B1"]["owner_name"] == "Bob" and fields["A2"]["colour"] == "red"
    l1 = next(r for r in v["board"]["regions"] if r["id"] == "L1")
    assert l1["founded"] == {"by": "Ann", "seat": 0, "value": 5, "red": True} and l1["attackable"]
    track = v["founding_stones"]["track"]
    assert track[0]["taken"] and track[0]["reported"]["differs"]  # the board file said 2
    assert not track[1]["taken"] and track[1]["provisional"]
    assert v["leader_track"]["positions"][0]["field"] == 5
    assert "end of this round (round 1)" in v["tribe_scoring"]["reminder"]
    assert v["attack_targets"][0]["field"] == "B1" and v["attack_targets"][0]["attacker_points"] == 3


def test_state_view_carries_the_battle_calculator_while_an_attack_is_entered():
    s = setup(start(), {"A1": "Ann", "B1": "Bob", "B2": "Bob"}, founded=("L1",))
    s = play(s, "attack Ann B1", "stop Ann")  # 3 : 2
    v = PAGE.state_view(s)
    bt = v["battle"]
    assert jsonable(v)
    assert (bt["attacker_points"], bt["defender_points"], bt["leading"], bt["cards_needed"]) == (3, 2, "attacker", 1)
    assert bt["to_answer"] == "defender" and bt["due_seat"] == 1
    assert bt["record"] == {"card": "card Bob", "stop": "stop Bob"}
    assert bt["attacker_hand"] == 9 and bt["defender_hand"] == 10
    assert len(bt["outlook"]) == 10 and len(bt["outlook"][0]) == 11
    assert bt["full_hands"]["winner"] == "defender"
    assert {f["name"]: f for f in v["board"]["fields"]}["B1"]["contested"]


def test_chance_view_while_a_founding_field_is_awaited():
    s = play(setup(start(), {"A1": "Ann", "B1": "Bob"}), "lay Ann A2")
    cv = PAGE.chance_view(s)
    assert cv["reveal"]["land"] == "L1" and cv["reveal"]["founder"] == "Ann"
    assert cv["reveal"]["expected"] == {"value": 2, "red": False, "move": "reveal 2"}
    assert cv["reveal"]["values"] == list(range(7))
    assert PAGE.chance_view(start()) == {}
    v = PAGE.state_view(s)
    assert v["prompt"]["chance"] and v["prompt"]["expected"] == "reveal 2" and v["actor"] is None


def test_catalog_flags_provisional_values():
    c = PAGE.catalog(default_start().board)
    assert jsonable(c)
    assert c["map_provisional"] and all(f["provisional"] for f in c["founding_track"])
    assert c["path"]["provisional"]  # the start is provisional
    assert c["components"]["shields_per_player"] == {"2": 44, "3": 30, "4": 25, "5": 22}
    assert not c["components"]["provisional"]
    assert "map.rows[0]" in c["provisional"]


@pytest.mark.parametrize(
    "move",
    [
        Lay("Ann", "C4"),
        Play("Ann", 2),
        Attack("Ann", "B1"),
        Card("Bob"),
        Stop("Bob"),
        Refill("Ann"),
        Pass("Ann"),
        Reveal(3, True),
        Points("Ann", 5),
    ],
    ids=str,
)
def test_moves_round_trip_through_structured_json(move):
    data = PAGE.move_to_json(move)
    assert jsonable(data) and data["kind"] == move.kind
    assert PAGE.move_from_json(data) == move
    assert PAGE.move_from_json(str(move)) == move


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (3, "move"),
        ({"kind": "jump"}, "move.kind"),
        ({"kind": "lay", "player": "Ann", "field": "44"}, "move.field"),
        ({"kind": "lay", "player": "Ann", "field": "A1", "x": 1}, "move.x"),
        ({"kind": "play", "player": "Ann", "cards": 0}, "move.cards"),
        ({"kind": "points", "player": "", "points": 1}, "move.player"),
        ({"kind": "reveal", "value": 3, "red": "yes"}, "move.red"),
        ("lay", "move"),
    ],
)
def test_bad_structured_moves_name_the_field(data, field):
    with pytest.raises(MoveFieldError) as info:
        PAGE.move_from_json(data)
    assert info.value.field == field and isinstance(info.value, ValueError)


def test_views_of_a_whole_simulated_game_are_json():
    rec = simulate(games.get("origo"), 3, seed=7, policies="greedy")
    for st in [*rec.states[::5], rec.state]:
        v = PAGE.state_view(st)
        assert jsonable(v)
        assert jsonable(PAGE.chance_view(st))
    assert "ranking" in PAGE.state_view(rec.state)


SHELL_KEYS = {"state_id", "has_game", "game", "journal", "players", "moves", "last", "undo", "warnings"}


def test_state_view_leaves_the_shells_keys_alone():
    """The live view is the shell's keys plus state_view: a ``game`` here would hide the script."""
    assert not SHELL_KEYS & set(PAGE.state_view(default_start()))


def test_field_checks_give_the_engines_reason_for_every_refused_field():
    s = setup(start(), {"A1": "Ann", "B1": "Bob", "B2": "Bob", "C2": "Bob"}, founded=("L1",))
    v = PAGE.state_view(s)
    checks = v["checks"]
    assert checks["lay"]["A1"] == ["O-LAY-1", "A1 already holds Ann's shield"]
    assert "A2" not in checks["lay"]  # free: Ann may lay there
    assert "B1" not in checks["attack"]  # adjacent to A1, in the founded L1
    assert checks["attack"]["A1"][0] == "O-ATK-1"
    assert checks["attack"]["C2"][0] == "O-ATK-1"  # in the sea S1, which has free fields
    assert set(checks["attack"]) | {t["field"] for t in v["attack_targets"]} == {c.name for c in s.board.cells}
    battle = play(s, "attack Ann B1")
    assert PAGE.state_view(battle)["checks"] == {"lay": {}, "attack": {}}


def test_field_checks_name_a_diagonal_neighbour_o_atk_2():
    s = setup(start(), {"A1": "Ann", "B2": "Bob"}, founded=("L2",))
    assert PAGE.state_view(s)["checks"]["attack"]["B2"][0] == "O-ATK-2"


STATIC = Path(__file__).resolve().parents[3] / "games" / "origo" / "page" / "static"


def js_object_keys(text: str, name: str) -> dict[str, set[str]]:
    """The keys of the ``en`` and ``de`` parts of ``export const NAME = {…}`` in the strings file."""
    body = text.split(f"export const {name} = {{", 1)[1]
    out: dict[str, set[str]] = {}
    for lang in ("en", "de"):
        part = body.split(f"  {lang}: {{", 1)[1].split("\n  },", 1)[0]
        out[lang] = set(re.findall(r"(?:^|[\s,{])([A-Za-z_][A-Za-z0-9_]*): \"", part, re.M))
    return out


def test_the_browser_module_has_every_string_in_english_and_german():
    i18n = (STATIC / "origo-i18n.js").read_text(encoding="utf-8")
    js = (STATIC / "origo.js").read_text(encoding="utf-8")
    keys = js_object_keys(i18n, "STRINGS")
    assert keys["en"] == keys["de"] and len(keys["en"]) > 80
    shell = (Path(__file__).resolve().parents[3] / "webui" / "static" / "i18n.js").read_text(encoding="utf-8")
    shell_keys = set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*): \"", shell))
    used = set(re.findall(r"\bt\(\s*\"([A-Za-z_][A-Za-z0-9_]*)\"\s*[,)]", js))
    for a, b in re.findall(r"\?\s*\"([A-Za-z_0-9]+)\"\s*:\s*\"([A-Za-z_0-9]+)\"", js):
        used |= {a, b} if {a, b} & keys["en"] else set()
    dynamic = {
        "holds",
        "holdsAfter",
        "refillBtn",
        "passBtn",
        "refillName",
        "passName",
        "land",
        "sea",
        "end_passes",
        "end_stones",
        "end_shields",
    }
    missing = sorted(k for k in used | dynamic if k not in keys["en"] and k not in shell_keys)
    assert not missing, missing
    assert PAGE.static.joinpath("origo.js").is_file() and PAGE.static.joinpath("origo.css").is_file()


def test_every_clause_of_the_rules_has_words_in_both_languages():
    rules = (Path(__file__).resolve().parents[3] / "docs" / "origo-rules.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"^\*\*(O-[A-Z]+-\d+)\*\*", rules, re.M))
    i18n = (STATIC / "origo-i18n.js").read_text(encoding="utf-8")
    words = dict(re.findall(r"\"(O-[A-Z]+-\d+)\": \[(\"[^\]]+)\]", i18n))
    assert len(ids) == 36 and set(words) == ids
    for pair in words.values():
        en, de = json.loads(f"[{pair}]")
        assert en and de and en != de
