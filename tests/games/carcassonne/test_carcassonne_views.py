"""The page's views (state_view, move JSON, catalog, chance view) and the game's own console commands."""

from __future__ import annotations

import argparse
import json

import pytest
from carc_boxes import box, counts
from carc_helpers import BLUE, RED, YELLOW, build, play

import games
from games.carcassonne.page.view import tile_on_map
from games.carcassonne.rules.engine import new_game
from games.carcassonne.rules.errors import InvalidMoveError
from games.carcassonne.rules.moves import Discard, Draw, Place
from games.carcassonne.rules.tiles import Role, default_profile, parse_profile

GAME = games.get("carcassonne")
PAGE = GAME.page()  # type: ignore[misc]


def sample_state():
    s = build(
        box(),
        [("lakeE1", 1, 0, 0), ("forestN", -1, 0, 0)],
        [(RED, "fisher", 1, "r0"), (BLUE, "gatherer", 2, "f0"), (YELLOW, "hunter", 0, "m0")],
        drawn="riverEW",
    )
    return s


def test_state_view_is_json_with_map_figures_drawn_tile_spots_scores_and_tiles_left():
    s = sample_state()
    v = json.loads(json.dumps(PAGE.state_view(s)))
    assert "game" not in v  # the shell's view names the game under "game" (docs/page-shell.md)
    assert v["position"]["profile"]["digest"] == s.profile.digest
    assert [t["at"] for t in v["map"]] == [[0, 0], [1, 0], [-1, 0]]
    lake_tile = v["map"][1]
    assert lake_tile["tile"] == "lakeE1" and lake_tile["edges"] == "MRMM"
    lake = next(seg for seg in lake_tile["segments"] if seg["kind"] == "lake")
    assert lake["fish"] == 1 and "system" in lake
    river = next(seg for seg in lake_tile["segments"] if seg["kind"] == "river")
    assert river["sides"] == ["E"] and river["end"] == "lake" and river["complete"] is False
    # segments of one feature share its number: the start meadow and the lake tile's meadow
    assert v["map"][0]["segments"][0]["feature"] == lake_tile["segments"][-1]["feature"]
    figs = {f["role"]: f for f in v["figures"]}
    assert figs["hunter"]["lying"] is True and figs["fisher"]["at"] == [1, 0] and figs["gatherer"]["spot"] == "f0"
    assert v["drawn"]["id"] == "riverEW" and len(v["drawn"]["rotations"]) == 4
    assert v["prompt"]["options"] and all("spots" in o for o in v["prompt"]["options"])
    assert [sc["name"] for sc in v["scores"]] == ["Rot", "Blau", "Gelb", "Grün"]
    assert v["projected"] == [sc["projected"] for sc in v["scores"]]
    left = v["tiles_left"]
    assert left["land_left"] == s.land_left and sum(t["left"] for t in left["land"]) == s.land_left
    assert {t["tile"] for t in left["bonus"]} == {"aurochs", "fire", "mush", "cult", "bgold"}
    assert v["over"] is False and "ranking" not in v


def test_state_view_shows_completed_features_and_the_ranking_at_the_end():
    s = build(box(), [("lakeE1", 1, 0, 0)], [(RED, "fisher", 1, "r0")], drawn="springW", to_move=BLUE)
    s = play(s, "place 2,0 r0")
    v = PAGE.state_view(s)
    done = [f for f in v["features"] if f["status"] == "completed"]
    assert done[0]["feature"] == "river" and done[0]["points"] == 3 and done[0]["winners"] == [RED]
    assert next(seg for seg in v["map"][1]["segments"] if seg["kind"] == "river")["complete"] is True


def gold_position(**kw):
    """Rot to lay forestN: on 1,-1 turned r2 it completes Blau's gold forest (forestNg on 1,0); another
    forest lies open on -1,0 for the bonus tile."""
    return build(
        box(**kw) if kw else box(),
        [("forestN", -1, 0, 0), ("forestNg", 1, 0, 0)],
        [(BLUE, "gatherer", 2, "f0")],
        drawn="forestN",
    )


def test_bonus_chain_follows_a_gold_forest_to_its_bonus_tile_and_no_further():
    s = gold_position()
    assert PAGE.state_view(s)["bonus_chain"] == []
    s = play(s, "place 1,-1 r2")  # H-GOLD-1: Rot completed it (Blau scores), Rot draws the bonus tile
    (e,) = PAGE.state_view(s)["bonus_chain"]
    assert (e["status"], e["clause"], e["by"], e["player"], e["drawn"]) == ("pending", "H-GOLD-1", RED, "Rot", None)
    assert e["completed_by"] == {"no": 3, "tile": "forestN", "at": [1, -1], "group": "land", "by": RED}
    assert e["winners"] == [BLUE] and e["points"] == 4 and e["tiles"] == [2, 3]
    s = play(s, "bonus bgold")
    assert PAGE.state_view(s)["bonus_chain"][0]["drawn"] == "bgold"
    s = play(s, "place -1,-1 r2 gatherer f0")  # the bonus tile completes a gold forest: H-GOLD-3
    v = json.loads(json.dumps(PAGE.state_view(s)))
    first, second = v["bonus_chain"]
    assert first["status"] == "laid" and first["clause"] == "H-GOLD-2"
    assert first["bonus"] == {"no": 4, "tile": "bgold", "at": [-1, -1], "group": "bonus", "by": RED}
    assert first["then"] == [{"feature": "forest", "points": 4, "winners": [RED], "gold": True}]
    assert second["status"] == "no-chain" and second["clause"] == "H-GOLD-3" and second["completed_by"]["no"] == 4
    assert v["prompt"]["kind"] == "draw" and v["prompt"]["seat"] == BLUE


def test_bonus_chain_says_why_no_bonus_tile_came():
    # two gold forests completed by one tile (sep: forests N and S) share the turn's one bonus tile (H-GOLD-4)
    s = build(
        counts(box(), forestNg=2),
        [("fill", 1, 0, 0), ("fill", 1, -1, 0), ("fill", 1, 1, 0), ("forestNg", 2, -1, 2), ("forestNg", 2, 1, 0)],
        drawn="sep",
    )
    s = play(s, "place 2,0 r0")
    first, second = PAGE.state_view(s)["bonus_chain"]
    assert (first["status"], second["status"], second["clause"]) == ("pending", "one-per-turn", "H-GOLD-4")
    assert first["completed_by"]["no"] == second["completed_by"]["no"] == 6
    # an empty bonus stack gives none (H-GOLD-1)
    s = play(gold_position(bonus=[]), "place 1,-1 r2")
    (e,) = PAGE.state_view(s)["bonus_chain"]
    assert (e["status"], e["clause"], e["bonus"]) == ("none", "H-GOLD-1", None)
    assert PAGE.state_view(s)["prompt"]["kind"] == "draw"


def test_tile_on_map_turns_sides_and_halves():
    t = parse_profile(box()).tile("frmr")
    assert t is not None
    view = tile_on_map(t, 1)
    assert view["edges"] == "RFRM"  # N F -> E
    forest = view["segments"][0]
    assert forest["sides"] == ["E"]
    small = view["segments"][2]
    # turned a quarter clockwise, the north half of the east side becomes the east half of the south
    # side, and the north half of the west side the east half of the north side
    assert small["halves"] == ["SE", "NE"]


def test_move_json_round_trips_and_bad_json_names_the_field():
    for m in (Draw("L07"), Draw("B-fire", True), Place(1, -2, 3), Place(0, 1, 0, Role.HUT, "l0"), Discard()):
        data = json.loads(json.dumps(PAGE.move_to_json(m)))
        assert PAGE.move_from_json(data) == m and PAGE.move_from_json(data["text"]) == m
    for bad, field in [
        ({"kind": "jump"}, "m.kind"),
        ({"kind": "place", "at": [1], "rot": 0}, "m.at"),
        ({"kind": "place", "at": [1, 0], "rot": 5}, "m.rot"),
        ({"kind": "place", "at": [1, 0], "rot": 1, "figure": {"role": "wizard", "spot": "m0"}}, "m.figure.role"),
        ({"kind": "place", "at": [1, 0], "rot": 1, "figure": {"role": "hut", "spot": "zz"}}, "m.figure.spot"),
        ({"kind": "draw", "tile": ""}, "m.tile"),
        ("place here", "m"),
        (42, "m"),
    ]:
        with pytest.raises(InvalidMoveError) as exc:
            PAGE.move_from_json(bad, "m")
        assert str(exc.value).startswith(field + ":") or str(exc.value).startswith(field + "."), (bad, str(exc.value))


def test_catalog_flags_provisional_tiles_and_chance_view_lists_the_stack():
    cat = json.loads(json.dumps(PAGE.catalog(default_profile())))
    assert cat["components"] == {"land_tiles": 78, "bonus_tiles": 12, "members_per_player": 5, "huts_per_player": 2}
    assert all(t["provisional"] for t in cat["tiles"]) and cat["provisional"] > 100
    assert sum(t["count"] for t in cat["tiles"] if t["group"] == "land") == 78
    s = new_game([("A", "red"), ("B", "blue")])
    cv = PAGE.chance_view(s)
    assert cv["stack"] == "land" and abs(sum(o["probability"] for o in cv["outcomes"]) - 1) < 1e-9
    assert PAGE.chance_view(sample_state())["stack"] is None
    assert PAGE.script == "carcassonne.js" and PAGE.static.joinpath("README.md").is_file()


# --- console commands -----------------------------------------------------------------------------


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    GAME.cli(sub)  # type: ignore[misc]
    args = parser.parse_args(list(argv))
    return int(args.func(args))


def test_cli_tiles_lists_every_tile_with_its_provenance(capsys):
    assert run_cli("carcassonne", "tiles") == 0
    out = capsys.readouterr().out
    assert "78 land tiles" in out and "volcano" in out and "(provisional)" in out
    assert run_cli("carcassonne", "tiles", "--json") == 0
    assert len(json.loads(capsys.readouterr().out)["tiles"]) == len(default_profile().tiles)


def test_cli_export_check_and_mark_a_profile(tmp_path, capsys):
    path = tmp_path / "box.json"
    assert run_cli("carcassonne", "profile-export", "-o", str(path)) == 0
    assert run_cli("carcassonne", "profile-check", str(path)) == 0
    assert "valid" in capsys.readouterr().out
    out = tmp_path / "checked.json"
    assert run_cli("carcassonne", "profile-mark", str(path), "land[0]", "-o", str(out)) == 0
    from games.carcassonne.rules.tiles import load_profile

    assert not load_profile(out).is_provisional("land[0].count")
    # mistakes: one line, exit 2, nothing written
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["land"][0]["count"] = 99
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert run_cli("carcassonne", "profile-check", str(path)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "land: the counts add up to" in err
    target = tmp_path / "never.json"
    assert run_cli("carcassonne", "profile-mark", str(out), "land[999]", "-o", str(target)) == 2
    assert "paths[0]" in capsys.readouterr().err and not target.exists()
    assert run_cli("carcassonne", "tiles", "--profile", str(tmp_path / "missing.json")) == 2
