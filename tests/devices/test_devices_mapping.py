"""From a rules state to LED colours: the default look, built on the engine's own facts."""

from __future__ import annotations

import random

import pytest
from helpers_devices import first_choice, with_events, with_shells

from devices.config import LedConfig
from devices.looks import blank, render, scale, slot_leds
from games.tribes.leds import frame_for_state, overflow, slot_looks
from games.tribes.rules.chance import sample_chance
from games.tribes.rules.engine import apply, new_game
from games.tribes.rules.game import simulate
from games.tribes.rules.legal import legal_moves, overview
from games.tribes.rules.moves import parse_move
from games.tribes.rules.state import RowTile

# brightness 1 and halving levels make the expected values easy to read
PLAIN = LedConfig(brightness=1.0, cost_levels=(1.0, 0.5, 0.25, 0.125), leds_per_slot=2, max_row=10)


def slot_colour(frame, slot, config=PLAIN):
    colours = {frame[i] for i in slot_leds(slot, config)}
    assert len(colours) == 1, "all LEDs of a slot show the same colour"
    return colours.pop()


def test_r_turn_2_front_tile_free_in_movers_colour_others_dimmer_by_cost():
    """R-TURN-2: slot 1 is free (full colour of the player to move); slot k costs k-1 shells and is
    dimmer the more it costs; the costs come from rules.legal.overview."""
    state = first_choice()  # the first player (red) has 5 shells: every slot of 6 is affordable
    assert state.players[state.to_move].colour == "red"
    tiles = overview(state)
    assert [t.cost for t in tiles] == [0, 1, 2, 3, 4, 5] and all(t.affordable for t in tiles)
    frame = frame_for_state(state, PLAIN)
    assert len(frame) == PLAIN.strip_length
    assert [slot_colour(frame, s) for s in range(1, 7)] == [
        (255, 0, 0),
        (128, 0, 0),
        (64, 0, 0),
        (32, 0, 0),
        (32, 0, 0),
        (32, 0, 0),
    ]
    assert all(c == (0, 0, 0) for c in frame[6 * 2 :]), "LEDs past the row stay off"


def test_r_turn_2_tiles_the_player_cannot_pay_are_off():
    """R-TURN-2: a player who cannot pay cannot choose that tile — its LEDs are off."""
    state = with_shells(first_choice(), 2)
    tiles = overview(state)
    blocked = [t.slot for t in tiles if not t.affordable]
    assert blocked == [4, 5, 6]
    assert all(t.reason is not None and t.reason.clause == "R-TURN-2" for t in tiles if t.slot in blocked)
    frame = frame_for_state(state, PLAIN)
    assert [slot_colour(frame, s) for s in blocked] == [(0, 0, 0)] * 3
    assert slot_colour(frame, 3) == (64, 0, 0)
    assert [lk.kind for lk in slot_looks(state, PLAIN)] == ["free", "cost", "cost", "blocked", "blocked", "blocked"]


def test_r_turn_5_event_tiles_in_warning_colour_dimmed_by_cost():
    """R-TURN-5: events lie in the row and are paid for like action tiles; they show the warning colour."""
    state = with_shells(with_events(first_choice(), "wolves"), 8)
    looks = slot_looks(state, PLAIN)
    assert looks[6].kind == "event" and looks[6].cost == 6
    frame = frame_for_state(state, PLAIN)
    assert slot_colour(frame, 7) == scale(PLAIN.event_colour, 0.125)
    poor = with_shells(state, 5)  # slot 7 costs 6 shells: off
    assert slot_colour(frame_for_state(poor, PLAIN), 7) == (0, 0, 0)


def test_free_event_at_the_front_is_full_warning_colour():
    """R-TURN-2 + R-EVT-1: an event at the front is free to take, shown at full level."""
    state = first_choice()
    state = state.replace(row=(RowTile("wolves", True, 0), *state.row))
    frame = frame_for_state(state, PLAIN)
    assert slot_colour(frame, 1) == PLAIN.event_colour
    assert slot_colour(frame, 2) == (128, 0, 0)


@pytest.mark.parametrize(
    ("colour", "config", "expected"),
    [
        ("#12ab34", PLAIN, (0x12, 0xAB, 0x34)),
        ("blue", PLAIN, (0, 40, 255)),
        ("black", PLAIN, (255, 255, 255)),  # light cannot be black
        ("red", PLAIN.replace(player_colours={"red": (200, 10, 10)}), (200, 10, 10)),
        ("chartreuse", PLAIN, PLAIN.unknown_colour),
    ],
)
def test_free_tile_in_the_colour_of_the_player_to_move(colour, config, expected):
    state = first_choice(players=(("Ann", colour), ("Bob", "yellow")))
    assert slot_colour(frame_for_state(state, config), 1, config) == expected


def test_second_player_colour_after_the_first_turn():
    """After a turn the next player is to move (R-TURN-1): the free tile takes their colour."""
    state = first_choice(players=(("Ann", "red"), ("Bob", "blue")))
    state = apply(state, parse_move(f"{[t.tile for t in state.row].index('exp') + 1}:exp"))
    rng = random.Random(1)
    while state.pending.kind != "choose":
        state = apply(state, sample_chance(state, rng) if state.is_chance else next(iter(legal_moves(state))))
    assert state.players[state.to_move].colour == "blue"
    assert slot_colour(frame_for_state(state, PLAIN), 1) == (0, 40, 255)


def test_idle_look_while_the_game_waits_for_something_else():
    """After taking Exploration the game waits for the draw: every tile shows faintly, none highlighted."""
    state = first_choice()
    slot = [t.tile for t in state.row].index("exp") + 1
    after = apply(state, parse_move(f"{slot}:exp"))
    assert after.pending.kind == "draw" and overview(after) == []
    looks = slot_looks(after, PLAIN)
    assert [lk.kind for lk in looks] == ["idle"] * len(after.row)
    frame = frame_for_state(after, PLAIN)
    assert {slot_colour(frame, s) for s in range(1, len(after.row) + 1)} == {scale(PLAIN.idle_colour, 0.05)}


def test_everything_off_before_setup_and_at_game_end():
    """R-END-2: once the game is over the strip is dark; before setup there is no row."""
    assert frame_for_state(new_game(["Ann", "Bob"]), PLAIN) == blank(PLAIN)
    game = simulate(2, seed=4, policies="greedy")
    assert game.state.is_over and game.state.row
    assert frame_for_state(game.state, PLAIN) == blank(PLAIN)


def test_layout_per_slot_gap_offset_and_reverse():
    cfg = LedConfig(led_count=40, leds_per_slot=2, gap=1, offset=3, max_row=6)
    assert slot_leds(1, cfg) == [3, 4]
    assert slot_leds(2, cfg) == [6, 7]
    assert slot_leds(6, cfg) == [18, 19]
    rev = cfg.replace(direction="reverse")
    assert slot_leds(1, rev) == [36, 35]
    assert slot_leds(6, rev) == [21, 20]
    with pytest.raises(ValueError):
        slot_leds(7, cfg)
    frame = frame_for_state(first_choice(), rev)
    assert len(frame) == 40
    lit = [i for i, c in enumerate(frame) if c != (0, 0, 0)]
    assert max(lit) == 36 and frame[36] == scale((255, 0, 0), rev.brightness)


def test_row_longer_than_max_row_is_cut_and_reported():
    state = with_shells(with_events(first_choice(), "wolves", "herds"), 9)
    cfg = LedConfig(max_row=7, leds_per_slot=1)
    assert overflow(state, cfg) == 1
    frame = frame_for_state(state, cfg)
    assert len(frame) == 7 and frame[6] != (0, 0, 0)


def test_brightness_scales_and_dim_tiles_never_vanish():
    cfg = LedConfig(brightness=0.1, cost_levels=(1.0, 0.01), leds_per_slot=1, max_row=6)
    frame = frame_for_state(first_choice(), cfg)
    assert frame[0] == (26, 0, 0)
    assert frame[1] == (1, 0, 0)  # 255 * 0.001 rounds to 0: kept at the lowest visible step
    assert scale((0, 0, 0), 1.0) == (0, 0, 0)


def test_pulse_blends_one_slot_towards_the_pulse_colour():
    looks = slot_looks(first_choice(), PLAIN)
    full = render(looks, PLAIN, (2, 1.0))
    half = render(looks, PLAIN, (2, 0.5))
    assert slot_colour(full, 2) == (255, 255, 255)
    assert slot_colour(half, 2) == (192, 128, 128)
    assert slot_colour(half, 1) == (255, 0, 0)
