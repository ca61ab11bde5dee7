"""The C playout core (games/stoneage/rules/_core.c via fast.py) plays the Python engine's games bit for bit.

The Python engine is the single source of truth: for random players the core must give the same
moves, the same final State and leave every random.Random in the same state — from new games, from
mid-game positions of every phase, and for other box profiles. These tests fail (never skip) when the
library is not built: ``python setup.py build_ext --inplace``.
"""

from __future__ import annotations

import contextlib
import random
from array import array
from dataclasses import replace

import pytest
from sa_helpers import NAMES, new, raw_profile

from games.stoneage.rules import engine, fast
from games.stoneage.rules.errors import CoreError
from games.stoneage.rules.moves import (
    Buy,
    Draw,
    Feed,
    Pick,
    Place,
    Reveal,
    Roll,
    Skip,
    Starve,
    Take,
    Tools,
)
from games.stoneage.rules.players import RandomPlayer
from games.stoneage.rules.profile import parse_profile
from games.stoneage.rules.state import Phase, State, Work

PHASE_OF = {
    Reveal: Phase.REVEAL,
    Place: Phase.PLACE,
    Take: Phase.ACT,
    Buy: Phase.ACT,
    Skip: Phase.ACT,
    Roll: Phase.ROLL,
    Tools: Phase.TOOLS,
    Pick: Phase.BAR,
    Draw: Phase.DRAW,
    Feed: Phase.FEED,
    Starve: Phase.FEED,
}


def run(s0: State, seed: int, fast_: bool, max_moves: int = 20000):
    """One playout from ``s0`` with seeded random players: (final state, move texts, RNG states)."""
    players = [RandomPlayer(seed * 101 + i) for i in range(s0.n)]
    rng = random.Random(seed)
    log: list = []
    end = engine.playout(s0, players, rng, max_moves=max_moves, log=log, fast=fast_)
    return end, [str(m) for m in log], (rng.getstate(), [p.rng.getstate() for p in players])


def same_game(s0: State, seed: int, max_moves: int = 20000) -> int:
    """Asserts the C and Python playouts agree (moves, final State, RNGs); returns the moves played."""
    py_end, py_log, py_rngs = run(s0, seed, False, max_moves)
    c_end, c_log, c_rngs = run(s0, seed, True, max_moves)
    assert c_log == py_log
    assert c_end == py_end
    assert c_rngs == py_rngs
    return len(py_log)


def mid_game(s0: State, seed: int, per_phase: int = 1) -> list[State]:
    """States at random points of a Python-simulated game, ``per_phase`` in every phase it passes
    through (each the position just before a logged move), and the final one."""
    players = [RandomPlayer(seed * 7 + i) for i in range(s0.n)]
    log: list = []
    end = engine.playout(s0, players, random.Random(seed + 1000), log=log, fast=False)
    pick = random.Random(seed)
    at: dict[Phase, list[int]] = {}
    for i, m in enumerate(log):
        ph = PHASE_OF.get(type(m))
        if ph is not None:
            at.setdefault(ph, []).append(i)
    wanted = {i for idx in at.values() for i in pick.sample(idx, min(per_phase, len(idx)))}
    w = Work(s0)
    engine.settle(w)
    out = []
    for i, m in enumerate(log):
        if i in wanted:
            out.append(w.freeze())
        engine.step(w, m)
        engine.settle(w)
    return [*out, end]


def profile_values():
    """A valid profile with other numbers: fewer people and food, other divisors and values, capped
    hunting, an unlimited forest, a 3-person hut, 3 card places, other dice-bar rewards, stacks of 5."""
    doc = raw_profile()
    comp = doc["components"]
    comp.update(start_people=3, start_food=4, max_people=8, max_tools=4, max_tool_value=6, max_agriculture=6)
    doc["resources"]["wood"].update(divisor=2, value=1)
    doc["resources"]["gold"].update(divisor=5, value=9)
    doc["resources"]["food"]["divisor"] = 3
    cap = doc["board"]["capacity"]
    cap.update(hunt=8, wood=None, hut=3, stone=4)
    doc["board"]["card_costs"] = [2, 1, 3]
    doc["board"]["stack_size"] = 5
    doc["dice_bar"] = ["agriculture", "tool", "gold", "stone", "clay", "wood"]
    return parse_profile(doc, "test profile: values")


def profile_counts():
    """A valid profile with other counts and cards: 5 card places, 26 cards (several 'any resources'
    cards of different amounts, extra cards, a one-time tool of 15, a renamed card that sorts first),
    24 buildings (count and range buildings changed), a 2-person tool maker and field, much food."""
    doc = raw_profile()
    doc["components"]["start_food"] = 20
    doc["board"]["card_costs"] = [1, 2, 3, 4, 5]
    doc["board"]["stack_size"] = 6
    doc["board"]["capacity"].update(toolmaker=2, field=2)
    cards = doc["cards"][:26]
    cards[0]["top"] = {"kind": "any_resources", "amount": 3}
    cards[2]["top"] = {"kind": "any_resources", "amount": 1}
    cards[4]["top"] = {"kind": "extra_card"}
    cards[6]["top"] = {"kind": "tool_once", "value": 15}
    cards[7]["top"] = {"kind": "roll", "resource": "stone", "dice": 3}
    cards[15]["top"] = {"kind": "tool", "amount": 2}
    cards[16]["top"] = {"kind": "extra_card"}
    cards[21]["top"] = {"kind": "any_resources", "amount": 2}
    cards[5]["id"] = "Aardvark"
    doc["cards"] = cards
    doc["totals"]["cards"] = 26
    builds = doc["buildings"][:24]
    builds[0] = {"id": "b01", "count": 5, "kinds": 2}
    builds[1] = {"id": "b02", "min": 2, "max": 9}
    builds[23] = {"id": "Zed", "cost": {"gold": 2, "stone": 1}, "points": 21}
    doc["buildings"] = builds
    doc["totals"]["buildings"] = 24
    return parse_profile(doc, "test profile: counts")


def test_the_core_is_built():
    """The C library is built and loads (CI builds it; a missing library fails here, it never skips),
    and it reads the encodings of this fast.py: the C source says the same version."""
    assert fast.available()
    import re
    from pathlib import Path

    source = (Path(fast.__file__).parent / "_core.c").read_text()
    assert int(re.search(r"#define SA_CORE_ABI (\d+)", source).group(1)) == fast.ABI


@pytest.mark.parametrize("n", [2, 3, 4])
def test_new_games_are_the_same_in_c_and_python(n):
    """From a new game, 24 seeds for each of 2, 3 and 4 players: identical move texts, identical final
    States (==) and identical RNG states (chance and every player) after the C and the Python playout."""
    s0 = new(n)
    total = 0
    for seed in range(24):
        total += same_game(s0, seed)
    assert total > 24 * 300


def test_mid_game_positions_in_every_phase_are_the_same():
    """From positions taken at random points of Python-simulated games — covering every phase
    (reveal, place, act, roll, tools, bar, draw, feed) and the end — both playouts agree."""
    seen: set[Phase] = set()
    for seed in range(6):
        for s in mid_game(new(2 + seed % 3), seed):
            seen.add(s.phase)
            same_game(s, seed + 50)
    assert seen == set(Phase)


def test_a_game_cut_short_by_max_moves_is_the_same():
    """``max_moves`` stops both playouts after the same move, with the same unfinished position."""
    s0 = new(3)
    for cut in (0, 1, 37, 400):
        assert same_game(s0, 9, max_moves=cut) == cut


def test_shared_rngs_are_one_state():
    """One RandomPlayer for every seat, and its RNG also used for chance: the core keeps one state for
    the one object, as Python does."""
    s0 = new(4)
    results = []
    for f in (False, True):
        p = RandomPlayer(5)
        log: list = []
        end = engine.playout(s0, [p] * 4, p.rng, log=log, fast=f)
        results.append((end, [str(m) for m in log], p.rng.getstate()))
    assert results[0] == results[1]


@pytest.mark.parametrize("make", [profile_values, profile_counts])
def test_other_profiles_are_the_same(make):
    """Two other valid profiles (other numbers; other counts and cards): new games and mid-game
    positions give the same moves, States and RNG states in C and Python."""
    prof = make()
    kinds: set[str] = set()
    for seed in range(12):
        s0 = new(2 + seed % 3, profile=prof)
        _, py_log, _ = run(s0, seed, False)
        kinds.update(m.split()[0] for m in py_log)
        same_game(s0, seed)
    for s in mid_game(new(4, profile=prof), 3):
        same_game(s, 77)
    assert {"any", "draw", "pick", "feed", "tools"} <= kinds


def test_fixed_orders_are_the_same():
    """Settings that fix the card and building order (S-SET-4): both playouts follow it alike."""
    prof = new(2).profile
    cards = [c.id for c in prof.cards]
    random.Random(1).shuffle(cards)
    builds = [b.id for b in prof.buildings]
    random.Random(2).shuffle(builds)
    k = prof.stack_size
    for n in (2, 4):
        s0 = new(n, order={"cards": cards, "buildings": [builds[i * k : (i + 1) * k] for i in range(n)]})
        assert s0.card_order is not None and s0.building_order is not None
        for seed in range(3):
            same_game(s0, seed)
    s0 = new(3, order={"cards": cards})
    same_game(s0, 4)


def test_other_choosers_take_the_python_path():
    """A chooser that is not exactly a RandomPlayer makes engine.playout run the Python code; the core
    itself refuses it with CoreError."""

    class Mine(RandomPlayer):
        pass

    s0 = new(2)
    players = [RandomPlayer(1), Mine(2)]
    assert not fast.usable(s0, players, random.Random(0))
    end = engine.playout(s0, players, random.Random(0))
    assert end.is_over
    with pytest.raises(CoreError, match="RandomPlayer"):
        fast.playout(s0, [RandomPlayer(1), Mine(2)], random.Random(0))


def test_positions_round_trip_through_the_encoding():
    """decode(encode(s)) == s for positions of every phase (State and Work alike), and the C core reads
    and writes back exactly the same encoding."""
    prof = profile_counts()
    states = mid_game(new(4), 2) + mid_game(new(3, profile=prof), 4)
    order = [c.id for c in states[0].profile.cards]
    states.append(new(2, order={"cards": order}))
    for s in states:
        codes = fast.encode(s)
        assert fast.encode(Work(s)) == codes
        assert fast.decode(codes, s.profile, s.seats) == s
        assert fast.recode(s) == codes


def test_the_move_log_decodes_to_the_engine_moves():
    """Every move of the core's log decodes to the move object the engine makes (equal, same text),
    both the moves packed into one key and those that need a record (a one-time tool of 15)."""
    s0 = new(4, profile=profile_counts())
    once15 = 0
    for seed in range(8):
        py: list = []
        c: list = []
        engine.playout(s0, [RandomPlayer(seed * 101 + i) for i in range(4)], random.Random(seed), log=py, fast=False)
        engine.playout(s0, [RandomPlayer(seed * 101 + i) for i in range(4)], random.Random(seed), log=c, fast=True)
        assert c == py
        once15 += sum(1 for m in c if isinstance(m, Tools) and 15 in m.once)
    assert once15 > 0


def test_corrupt_encodings_give_core_errors():
    """A corrupt position or profile encoding is a CoreError (a typed StoneAgeError), never a crash:
    truncated or padded codes, out-of-range values, a corrupted State, and 300 random one-value
    mutations read by the C core and by decode."""
    s = mid_game(new(4), 1)[3]
    codes = fast.encode(s)
    prof = fast.encode_profile(s.profile)
    with pytest.raises(CoreError):
        fast.decode(codes[:-3], s.profile, s.seats)
    with pytest.raises(CoreError):
        fast.decode([*codes, 0], s.profile, s.seats)
    with pytest.raises(CoreError):
        fast.decode(codes, s.profile, s.seats[:2])
    bad = list(codes)
    bad[5] = 99  # the phase
    with pytest.raises(CoreError):
        fast._recode(fast._box(s.profile).codes, bad)
    with pytest.raises(CoreError):
        fast._recode(fast._box(s.profile).codes, codes[:-1])
    with pytest.raises(CoreError):
        fast._recode(array("i", prof[:-2]), codes)
    with pytest.raises(CoreError, match="refused"):
        fast.playout(replace(s, actor=7), [RandomPlayer(i) for i in range(4)], random.Random(0))
    players = [RandomPlayer(i) for i in range(4)]
    before = [p.rng.getstate() for p in players]
    with pytest.raises(CoreError):
        fast.playout(replace(s, phase=Phase.TOOLS, what=""), players, random.Random(0))
    assert [p.rng.getstate() for p in players] == before  # nothing changed on a refusal
    rnd = random.Random(3)
    boxcodes = fast._box(s.profile).codes
    for _ in range(300):
        bad = list(codes)
        bad[rnd.randrange(len(bad))] = rnd.choice([-(2**31), -5, -1, 0, 1, 2, 7, 300, 2**31 - 1])
        with contextlib.suppress(CoreError):
            fast._recode(boxcodes, bad)
        with contextlib.suppress(CoreError):
            fast.decode(bad, s.profile, s.seats)
    for i in (5, 7, 10, 11):  # phase, what, resume, ended: out of range (negative too)
        bad = list(codes)
        bad[i] = -2
        with pytest.raises(CoreError):
            fast.decode(bad, s.profile, s.seats)


def test_seat_names_do_not_matter():
    """The core does not read seat names: a game with other names plays the same moves."""
    s0 = new(3)
    renamed = replace(s0, seats=tuple(replace(x, name=x.name + "!") for x in s0.seats))
    assert [x.name for x in s0.seats] == NAMES[:3]
    a = run(s0, 3, True)
    b = run(renamed, 3, True)
    assert a[1] == b[1] and a[2] == b[2]


def test_a_library_of_another_encoding_version_is_not_used(monkeypatch):
    """A library built from another version of _core.c (the code pulled, not rebuilt) is refused:
    the games run in Python, and asking for the core says why."""
    monkeypatch.setattr(fast, "ABI", fast.ABI + 1)
    monkeypatch.setattr(fast, "_LIB", [])
    assert not fast.available()
    with pytest.raises(CoreError, match="another version"):
        fast._lib()


def test_a_game_the_core_refuses_is_played_in_python_unless_the_core_is_asked_for(monkeypatch):
    """By default a game the core cannot play (past its fixed limits) runs in Python with the same
    result; ``fast=True`` says why it cannot."""
    from games.stoneage.rules.players import RandomPlayer

    s0 = new(4)
    want = engine.playout(s0, [RandomPlayer(i) for i in range(4)], random.Random(5), fast=False)

    def refuse(*args: object, **kwargs: object) -> None:
        raise CoreError("the C core refused the game: past its limits")

    monkeypatch.setattr(fast, "playout", refuse)
    got = engine.playout(s0, [RandomPlayer(i) for i in range(4)], random.Random(5))
    assert got == want
    with pytest.raises(CoreError, match="past its limits"):
        engine.playout(s0, [RandomPlayer(i) for i in range(4)], random.Random(5), fast=True)
