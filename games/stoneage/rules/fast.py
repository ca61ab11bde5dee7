"""The C playout core (``_core.c``) behind the engine's interface: random games, bit for bit, ~5x faster.

:func:`playout` has the signature and the results of :func:`games.stoneage.rules.engine.playout` for
choosers that are all :class:`~games.stoneage.rules.players.RandomPlayer`: the same moves, the same
final State, and every ``random.Random`` left in the same state (the core runs CPython's MT19937 on
the states ``getstate()`` gives and they are written back with ``setstate()``). ``engine.playout``
uses it on its own when the library is built (``python setup.py build_ext --inplace`` or
``pip install -e .``) and every chooser is a RandomPlayer.

The core reads flat int lists: :func:`encode_profile` (numbers, cards and buildings numbered by the
rank of their id among the sorted ids, so that sorting numbers sorts ids as Python does),
:func:`encode` (a position; :func:`decode` is the inverse) and the move log (:func:`decode_log`).
Nothing is loaded before the first call that needs the library (:func:`available`).
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import random
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.api import Seat
from games.stoneage.rules.errors import CoreError
from games.stoneage.rules.moves import (
    AnyMove,
    AnyRes,
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
from games.stoneage.rules.profile import BAR_REWARDS, CARD_TOPS, DICE_PLACES, RESOURCES, VILLAGE, BoxProfile
from games.stoneage.rules.state import Phase, PlayerState, State, View, place_names

PHASES: tuple[Phase, ...] = tuple(Phase)
"""Phase ↔ its number in the encoding (the order of :class:`Phase`)."""
WHATS: tuple[str, ...] = (*DICE_PLACES, "bar")
"""``what`` ↔ its number (−1 for ``""``)."""
ENDED: tuple[str, ...] = ("", "buildings", "cards")
BUILDING_KINDS: tuple[str, ...] = ("fixed", "count", "range")

# move types of the log (the M_ codes of _core.c)
M_PLACE, M_TAKE, M_BUY, M_SKIP, M_ROLL, M_TOOLS, M_PICK, M_ANY, M_FEED, M_STARVE, M_REVEAL, M_DRAW = range(12)

_ERRORS = {
    -1: "the profile encoding is invalid",
    -2: "the position encoding is invalid or the position cannot be played",
    -3: "the output buffer is too small",
    -4: "the move log buffer is too small",
    -5: "the game reached a position the rules do not allow (internal error)",
    -6: "out of memory",
    -7: "bad arguments (RNG states, seats)",
}
ABI = 1
"""The version of the flat encodings (``SA_CORE_ABI`` in _core.c): a library built from another
version of the C source (pulled, not rebuilt) is not used."""
_I32 = "i" if array("i").itemsize == 4 else "l"
_U32 = "I" if array("I").itemsize == 4 else "L"
_LIB: list[Any] = []


def _library_path() -> Path | None:
    here = Path(__file__).resolve().parent
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        p = here / f"_core{suffix}"
        if p.is_file():
            return p
    return None


def _load() -> Any:
    """The loaded library (None when it is not built); loaded once, on first use."""
    if not _LIB:
        path = _library_path()
        lib: Any = None
        if path is not None:
            try:
                lib = ctypes.CDLL(str(path))
            except OSError:
                lib = None
        if lib is not None:
            abi = getattr(lib, "sa_core_abi", None)
            if abi is None:
                lib = None
            else:
                abi.restype = ctypes.c_int32
                abi.argtypes = []
                if abi() != ABI:
                    lib = None
        if lib is not None:
            i32p = ctypes.POINTER(ctypes.c_int32)
            u32p = ctypes.POINTER(ctypes.c_uint32)
            i32 = ctypes.c_int32
            lib.sa_recode.argtypes = [i32p, i32, i32p, i32, i32p, i32, i32p]
            lib.sa_recode.restype = i32
            lib.sa_playout.argtypes = [
                *(i32p, i32, i32p, i32, u32p, i32, i32p, i32, i32),
                *(i32p, i32, i32p, ctypes.POINTER(ctypes.c_int64), i32, i32p, i32, i32p, i32p),
            ]
            lib.sa_playout.restype = i32
        _LIB.append(lib)
    return _LIB[0]


def available() -> bool:
    """The C core is built, loads and reads this module's encodings (:data:`ABI`)."""
    return _load() is not None


def _lib() -> Any:
    lib = _load()
    if lib is None:
        raise CoreError(
            "the C playout core games/stoneage/rules/_core is not built, or built from another version of "
            "_core.c (python setup.py build_ext --inplace)"
        )
    return lib


# --- the profile -----------------------------------------------------------------------------------
class _Box:
    """A profile's encoding and its id numbering (cached per profile)."""

    __slots__ = ("bids", "bindex", "cids", "cindex", "codes", "moves")

    def __init__(self, prof: BoxProfile) -> None:
        self.cids = sorted(c.id for c in prof.cards)
        self.bids = sorted(b.id for b in prof.buildings)
        self.cindex = {c: i for i, c in enumerate(self.cids)}
        self.bindex = {b: i for i, b in enumerate(self.bids)}
        self.codes = array(_I32, _profile_ints(prof, self.cids, self.bids))
        self.moves: dict[tuple[int, int], dict[int, AnyMove]] = {}


_BOXES: dict[str, _Box] = {}


def _box(prof: BoxProfile) -> _Box:
    box = _BOXES.get(prof.digest)
    if box is None:
        box = _BOXES[prof.digest] = _Box(prof)
    return box


def _profile_ints(prof: BoxProfile, cids: list[str], bids: list[str]) -> list[int]:
    out = [
        prof.start_people,
        prof.start_food,
        prof.max_people,
        prof.max_agriculture,
        prof.max_tools,
        prof.max_tool_value,
    ]
    out += [prof.divisor[p] for p in DICE_PLACES]
    out += list(prof.value)
    for place in (*DICE_PLACES, *VILLAGE):
        cap = prof.capacity[place]
        out.append(-1 if cap is None else cap)
    out += [len(prof.card_costs), *prof.card_costs]
    out += [BAR_REWARDS.index(r) for r in prof.dice_bar]
    out.append(len(cids))
    for cid in cids:
        top = prof.card(cid).top
        res = RESOURCES.index(top.resource) if top.resource else -1
        out += [CARD_TOPS.index(top.kind), top.amount, res, top.dice, top.value]
    out.append(len(bids))
    for bid in bids:
        b = prof.building(bid)
        out += [BUILDING_KINDS.index(b.kind), *b.cost, b.points, b.count, b.kinds, b.lo, b.hi]
    return out


def encode_profile(prof: BoxProfile) -> list[int]:
    """The profile as the core reads it."""
    return list(_box(prof).codes)


# --- positions -------------------------------------------------------------------------------------
def encode(s: View) -> list[int]:
    """A position (State or Work) as the core reads it; the profile and the seats are not included."""
    box = _box(s.profile)
    ci, bi = box.cindex, box.bindex
    n = len(s.players)
    out = [n, len(s.display), len(s.tops), s.round, s.start, PHASES.index(s.phase), s.actor]
    out += [WHATS.index(s.what) if s.what else -1, s.ndice, s.taker, PHASES.index(s.resume), ENDED.index(s.ended)]
    out += [-1 if c is None else ci[c] for c in s.display]
    out += [-1 if b is None else bi[b] for b in s.tops]
    out += list(s.left)
    out += [len(s.unseen_cards), *(ci[c] for c in s.unseen_cards)]
    out += [len(s.unseen_buildings), *(bi[b] for b in s.unseen_buildings)]
    if s.card_order is None:
        out.append(0)
    else:
        out += [1, len(s.card_order), *(ci[c] for c in s.card_order)]
    if s.building_order is None:
        out.append(0)
    else:
        out += [1, len(s.building_order)]
        for row in s.building_order:
            out += [len(row), *(bi[b] for b in row)]
    out += [len(s.dice), *s.dice]
    for p in s.players:
        out += [p.people, p.food, p.agri, *p.res]
        out += [len(p.tools), *p.tools, len(p.used), *p.used]
        out += [len(p.once), *(ci[c] for c in p.once), len(p.anyc), *(ci[c] for c in p.anyc)]
        out += [len(p.cards), *(ci[c] for c in p.cards), len(p.buildings)]
        for bid, pts in p.buildings:
            out += [bi[bid], pts]
        out += [p.points, p.card_points, p.starved, len(p.placed), *p.placed]
    return out


class _Reader:
    __slots__ = ("a", "i")

    def __init__(self, a: Sequence[int]) -> None:
        self.a = a
        self.i = 0

    def one(self) -> int:
        if self.i >= len(self.a):
            raise CoreError("the position encoding ends too early")
        v = self.a[self.i]
        self.i += 1
        return v

    def many(self, k: int) -> list[int]:
        if k < 0 or self.i + k > len(self.a):
            raise CoreError("the position encoding ends too early")
        out = list(self.a[self.i : self.i + k])
        self.i += k
        return out

    def counted(self) -> list[int]:
        return self.many(self.one())


def decode(codes: Sequence[int], profile: BoxProfile, seats: tuple[Seat, ...]) -> State:
    """The State a position encoding stands for (``profile`` and ``seats`` complete it);
    :class:`CoreError` when the encoding is corrupt."""
    box = _box(profile)
    try:
        return _decode(_Reader(codes), box, profile, seats)
    except (IndexError, ValueError) as e:
        if isinstance(e, CoreError):
            raise
        raise CoreError(f"the position encoding is corrupt: {e}") from None


def _decode(r: _Reader, box: _Box, profile: BoxProfile, seats: tuple[Seat, ...]) -> State:
    cids, bids = box.cids, box.bids

    def card(i: int) -> str:
        if not 0 <= i < len(cids):
            raise CoreError(f"the position encoding names card {i} of {len(cids)}")
        return cids[i]

    def bld(i: int) -> str:
        if not 0 <= i < len(bids):
            raise CoreError(f"the position encoding names building {i} of {len(bids)}")
        return bids[i]

    def of(seq: tuple[Any, ...], i: int, what: str) -> Any:
        if not 0 <= i < len(seq):
            raise CoreError(f"the position encoding has {what} {i} (0 to {len(seq) - 1})")
        return seq[i]

    n, ncp, nst = r.one(), r.one(), r.one()
    if n != len(seats):
        raise CoreError(f"the position encoding has {n} players, the game {len(seats)}")
    rnd, start, phase, actor = r.one(), r.one(), of(PHASES, r.one(), "phase"), r.one()
    w = r.one()
    what = "" if w == -1 else of(WHATS, w, "what")
    ndice, taker = r.one(), r.one()
    resume, ended = of(PHASES, r.one(), "resume phase"), of(ENDED, r.one(), "ended")
    display = tuple(None if c == -1 else card(c) for c in r.many(ncp))
    tops = tuple(None if b == -1 else bld(b) for b in r.many(nst))
    left = tuple(r.many(nst))
    unseen_cards = tuple(card(c) for c in r.counted())
    unseen_buildings = tuple(bld(b) for b in r.counted())
    card_order = tuple(card(c) for c in r.counted()) if r.one() else None
    building_order = tuple(tuple(bld(b) for b in r.counted()) for _ in range(r.one())) if r.one() else None
    dice = tuple(r.counted())
    players = []
    for _ in range(n):
        people, food, agri = r.one(), r.one(), r.one()
        res = r.many(4)
        tools, used = tuple(r.counted()), tuple(r.counted())
        once = tuple(card(c) for c in r.counted())
        anyc = tuple(card(c) for c in r.counted())
        cards = tuple(card(c) for c in r.counted())
        buildings = tuple((bld(r.one()), r.one()) for _ in range(r.one()))
        points, card_points, starved = r.one(), r.one(), r.one()
        placed = tuple(r.counted())
        players.append(
            PlayerState(
                people,
                food,
                agri,
                (res[0], res[1], res[2], res[3]),
                tools,
                used,
                once,
                anyc,
                cards,
                buildings,
                points,
                card_points,
                starved,
                placed,
            )
        )
    if r.i != len(r.a):
        raise CoreError(f"the position encoding has {len(r.a) - r.i} values too many")
    return State(
        profile=profile,
        seats=seats,
        round=rnd,
        start=start,
        phase=phase,
        actor=actor,
        players=tuple(players),
        display=display,
        tops=tops,
        left=left,
        unseen_cards=unseen_cards,
        unseen_buildings=unseen_buildings,
        card_order=card_order,
        building_order=building_order,
        what=what,
        ndice=ndice,
        dice=dice,
        taker=taker,
        resume=resume,
        ended=ended,
    )


def recode(s: View) -> list[int]:
    """``encode(s)`` read and written back by the core (round-trip and validation checks);
    :class:`CoreError` when the core refuses it."""
    return _recode(_box(s.profile).codes, encode(s))


def _recode(prof: array[int], pos: Sequence[int]) -> list[int]:
    lib = _lib()
    pa = array(_I32, pos)
    cap = 2 * len(pa) + 64
    out = (ctypes.c_int32 * cap)()
    out_len = ctypes.c_int32(0)
    rc = lib.sa_recode(_ptr(prof), len(prof), _ptr(pa), len(pa), out, cap, ctypes.byref(out_len))
    if rc < 0:
        raise CoreError(f"the C core refused the position: {_ERRORS.get(rc, rc)}")
    return list(out[: out_len.value])


def _ptr(a: array[int]) -> Any:
    if not len(a):
        return (ctypes.c_int32 * 1)()
    return (ctypes.c_int32 * len(a)).from_buffer(a)


# --- the move log ----------------------------------------------------------------------------------
def decode_log(keys: Sequence[int], records: Sequence[int], s: View) -> list[AnyMove]:
    """The moves of a core move log (one key per move; ``records`` holds the moves whose key is
    negative, at offset −key − 1), for a game laid out like ``s`` (its profile and places)."""
    box = _box(s.profile)
    layout = (len(s.display), len(s.tops))
    cache = box.moves.get(layout)
    if cache is None:
        cache = box.moves[layout] = {}
    names = place_names(*layout)
    try:
        return list(map(cache.__getitem__, keys))
    except KeyError:
        pass
    out: list[AnyMove] = []
    append = out.append
    get = cache.get
    for k in keys:
        m = get(k)
        if m is None:
            if k < 0:
                off = -k - 1
                if not 0 <= off < len(records) - 1:
                    raise CoreError(f"the move log points outside its records ({off})")
                rec = tuple(records[off : off + 2 + records[off + 1]])
                m = _move(rec[0], rec[2:], names, box)
            else:
                m = cache[k] = _move(k & 15, _unpack(k), names, box)
        append(m)
    return out


def _unpack(k: int) -> tuple[int, ...]:
    """The arguments packed in a move key (the inverse of ``pack`` in _core.c)."""
    t = k & 15
    if t == M_PLACE:
        return ((k >> 4) & 31, k >> 9)
    if t in (M_TAKE, M_SKIP, M_PICK, M_DRAW):
        return (k >> 4,)
    if t == M_BUY:
        return ((k >> 4) & 31, (k >> 9) & 1023, (k >> 19) & 1023, (k >> 29) & 1023, k >> 39)
    if t in (M_ANY, M_FEED):
        return ((k >> 4) & 4095, (k >> 16) & 4095, (k >> 28) & 4095, k >> 40)
    if t == M_ROLL:
        dice = [f + 1 for f in range(6) for _ in range((k >> (7 + 7 * f)) & 127)]
        return ((k >> 4) & 7, *dice)
    if t == M_TOOLS:
        vals = [v + 1 for v in range(8, -1, -1) for _ in range((k >> (4 + 4 * v)) & 15)]
        once = [v + 1 for v in range(10, -1, -1) for _ in range((k >> (40 + 2 * v)) & 3)]
        return (len(vals), *vals, *once)
    if t == M_STARVE:
        return ()
    if t == M_REVEAL:
        return ((k >> 4) & 1, k >> 5)
    raise CoreError(f"the move log holds an unknown move type {t}")


def _move(t: int, a: Sequence[int], names: tuple[str, ...], box: _Box) -> AnyMove:
    try:
        if t == M_PLACE:
            return Place(names[a[0]], a[1])
        if t == M_TAKE:
            return Take(names[a[0]])
        if t == M_BUY:
            return Buy(names[a[0]], (a[1], a[2], a[3], a[4]))
        if t == M_SKIP:
            return Skip(names[a[0]])
        if t == M_ROLL:
            return Roll(WHATS[a[0]], tuple(a[1:]))
        if t == M_TOOLS:
            return Tools(tuple(a[1 : 1 + a[0]]), tuple(a[1 + a[0] :]))
        if t == M_PICK:
            return Pick(a[0])
        if t == M_ANY:
            return AnyRes((a[0], a[1], a[2], a[3]))
        if t == M_FEED:
            return Feed((a[0], a[1], a[2], a[3]))
        if t == M_STARVE:
            return Starve()
        if t == M_REVEAL:
            return Reveal(box.cids[a[1]] if a[0] == 0 else box.bids[a[1]])
        if t == M_DRAW:
            return Draw(box.cids[a[0]])
    except IndexError:
        raise CoreError(f"the move log holds a move out of range: type {t}, {tuple(a)}") from None
    raise CoreError(f"the move log holds an unknown move type {t}")


# --- playout ---------------------------------------------------------------------------------------
def _rng_of(chooser: object) -> random.Random | None:
    """The RNG of a chooser the core can play for (exactly a RandomPlayer with a random.Random)."""
    from games.stoneage.rules.players import RandomPlayer  # players imports engine, which imports us lazily

    if type(chooser) is not RandomPlayer:
        return None
    rng = chooser.rng
    return rng if type(rng) is random.Random else None


def usable(state: State, choosers: Sequence[object], rng: object) -> bool:
    """The core can play this game: it is built, every seat's chooser is a RandomPlayer and the RNGs
    are ``random.Random``."""
    if type(rng) is not random.Random or len(choosers) < len(state.seats) or not available():
        return False
    return all(_rng_of(choosers[i]) is not None for i in range(len(state.seats)))


def playout(
    state: State,
    choosers: Sequence[Any],
    rng: random.Random,
    max_moves: int = 20000,
    log: list[AnyMove] | None = None,
) -> State:
    """:func:`games.stoneage.rules.engine.playout` in C, for RandomPlayer choosers: the same final State,
    the same moves in ``log``, every RNG left as the Python playout leaves it. :class:`CoreError` when
    the core is missing, a chooser is not a RandomPlayer, or the core refuses the position."""
    lib = _lib()
    if type(rng) is not random.Random:
        raise CoreError(f"the C core plays chance with a random.Random, not {type(rng).__name__}")
    n = len(state.seats)
    if len(choosers) < n:
        raise CoreError(f"{len(choosers)} choosers for {n} players")
    rngs: list[random.Random] = [rng]
    seat_rng = array(_I32)
    for i in range(n):
        r = _rng_of(choosers[i])
        if r is None:
            raise CoreError(f"the C core plays only for RandomPlayer, not {type(choosers[i]).__name__} (seat {i})")
        for j, q in enumerate(rngs):  # one object may serve several seats (or chance): one state
            if q is r:
                seat_rng.append(j)
                break
        else:
            seat_rng.append(len(rngs))
            rngs.append(r)
    states = [q.getstate() for q in rngs]
    words = array(_U32)
    for st in states:
        words.extend(st[1])
    box = _box(state.profile)
    prof = box.codes
    pos = array(_I32, encode(state))
    out_cap = len(pos) + 4 * (len(box.cids) + len(box.bids)) + 64 * n + 256
    keys_cap = 4096 if log is not None else 0
    log_cap = 1024
    max_moves = max(0, min(max_moves, 2**31 - 1))
    w = words  # the core writes the states back only when it succeeds: a retry starts from the same ones
    while True:
        out = array(_I32, [0]) * out_cap
        kbuf = array("q", [0]) * keys_cap if log is not None else None
        lbuf = array(_I32, [0]) * log_cap
        out_len, log_len, nmoves = ctypes.c_int32(0), ctypes.c_int32(0), ctypes.c_int32(0)
        rc = lib.sa_playout(
            _ptr(prof),
            len(prof),
            _ptr(pos),
            len(pos),
            (ctypes.c_uint32 * len(w)).from_buffer(w),
            len(rngs),
            _ptr(seat_rng),
            0,
            max_moves,
            _ptr(out),
            out_cap,
            ctypes.byref(out_len),
            None if kbuf is None else (ctypes.c_int64 * keys_cap).from_buffer(kbuf),
            keys_cap,
            _ptr(lbuf),
            log_cap,
            ctypes.byref(log_len),
            ctypes.byref(nmoves),
        )
        if rc == -4:
            keys_cap *= 4
            log_cap *= 4
            continue
        if rc == -3:
            out_cap *= 4
            continue
        break
    if rc < 0:
        raise CoreError(f"the C core refused the game: {_ERRORS.get(rc, rc)}")
    final = decode(out[: out_len.value], state.profile, state.seats)
    for j, q in enumerate(rngs):
        q.setstate((states[j][0], tuple(w[625 * j : 625 * j + 625]), states[j][2]))
    if log is not None and kbuf is not None:
        log.extend(decode_log(kbuf[: nmoves.value], lbuf[: log_len.value], state))
    return final


__all__ = [
    "ENDED",
    "PHASES",
    "WHATS",
    "available",
    "decode",
    "decode_log",
    "encode",
    "encode_profile",
    "playout",
    "recode",
    "usable",
]
