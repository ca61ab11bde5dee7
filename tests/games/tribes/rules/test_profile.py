"""Box profiles: validation with file/field/reason errors, provenance of every value."""

from __future__ import annotations

import copy
import json

import pytest

from games.tribes.rules.errors import ProfileError
from games.tribes.rules.profile import default_profile, load_profile, parse_profile


def raw():
    return copy.deepcopy(json.loads(json.dumps(default_profile().raw)))


def test_default_profile_loads_and_every_value_has_a_provenance():
    prof = default_profile()
    leaves = prof._leaves()
    assert len(leaves) > 300
    kinds = {v.split(":")[0] for v in leaves.values()}
    assert kinds == {"rulebook", "review", "provisional"}


def test_known_facts_are_sourced_and_guesses_are_provisional():
    """tribes-components.md: rulebook facts carry 'rulebook', our placeholders 'provisional'."""
    prof = default_profile()
    assert prof.source_of("components.members_per_player").startswith("rulebook")
    jagen = [a.id for a in prof.achievements].index("jagen")
    assert prof.source_of(f"achievements[{jagen}].slots[0].vp").startswith("rulebook")
    assert prof.is_provisional(f"achievements[{jagen}].slots[1].vp")
    assert prof.is_provisional("events[0].effects")
    assert prof.source_of("tracks.exploration.intensity[1]").startswith("review")
    assert prof.is_provisional("tracks.offspring.vp[5]")
    assert prof.source_of("tracks.strength.vp[2]").startswith("rulebook")


@pytest.mark.parametrize(
    ("mutate", "field", "reason"),
    [
        (lambda r: r.pop("_source"), "_source", "is missing"),
        (lambda r: r.update(format="x"), "format", "must be 'tribes-box-profile'"),
        (
            lambda r: r["components"].update(tiles_per_resource="ten"),
            "components.tiles_per_resource",
            "must be an integer",
        ),
        (lambda r: r["components"].update(shells_total=3), "components.shells_total", "must be at least 4 x"),
        (
            lambda r: r["tracks"]["offspring"].update(intensity=[1, 2]),
            "tracks.offspring.intensity",
            "has 2 spaces but vp has 6",
        ),
        (lambda r: r["achievements"][0].update(resource="fish"), "achievements[0].resource", "must be one of goat"),
        (lambda r: r["achievements"][0].update(era=4), "achievements[0].era", "must be <= 3"),
        (lambda r: r["achievements"][1].update(id="jagen"), "achievements", "id 'jagen' is used twice"),
        (
            lambda r: r["achievements"][0]["slots"][1].update(lightning="yes"),
            "achievements[0].slots[1].lightning",
            "must be true or false",
        ),
        (
            lambda r: r["events"][0]["effects"][0].update({"if": "tallest"}),
            "events[0].effects[0].if",
            "must be one of always",
        ),
        (
            lambda r: r["events"][0]["effects"][0].update(do=[{"vp": 1, "shells": 1}]),
            "events[0].effects[0].do[0]",
            "exactly one effect",
        ),
        (
            lambda r: r["events"][0]["effects"][0].update(do=[{"exhaust": 0}]),
            "events[0].effects[0].do[0].exhaust",
            "must be >= 1",
        ),
        (
            lambda r: r["events"][8]["effects"][0]["do"][0]["choose"][0].append({"choose": [[{"vp": 1}], [{"vp": 2}]]}),
            "events[8].effects[0].do[0].choose[0][1].choose",
            "cannot be nested",
        ),
        (lambda r: r.update(achievements=r["achievements"][2:]), "achievements", "era 1 has 3 tile(s)"),
        (lambda r: r.update(_sources={"nothing": "rulebook"}), "_sources", "not a field here"),
        (lambda r: r["components"].update(_source="guess"), "components._source", "provenance must be"),
    ],
)
def test_invalid_profiles_name_file_field_and_reason(mutate, field, reason):
    r = raw()
    mutate(r)
    with pytest.raises(ProfileError) as err:
        parse_profile(r, "my-box.json")
    assert err.value.source == "my-box.json"
    assert err.value.field == field
    assert reason in str(err.value)
    assert str(err.value).startswith(f"my-box.json: {field}: ")


def test_load_profile_file_errors(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(ProfileError, match=r"nope\.json: cannot read"):
        load_profile(missing)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad.json: line 1 column \d+: not valid JSON"):
        load_profile(bad)
    good = tmp_path / "good.json"
    good.write_text(default_profile().to_json(), encoding="utf-8")
    assert load_profile(good) == default_profile()


def test_profiles_compare_by_content():
    r = raw()
    r["achievements"][0]["slots"][1]["vp"] = 3
    other = parse_profile(r, "x")
    assert other != default_profile() and other.achievement("jagen").slots[1].vp == 3
