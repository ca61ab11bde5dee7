"""Hand-made test boxes: tile types whose geometry the tests rely on (independent of the provisional
default profile)."""

from __future__ import annotations

from carc_helpers import (
    FILLER,
    FOREST_N,
    FOREST_N_GOLD,
    FOREST_NS,
    LAKE_E1,
    LAKE_W2,
    RIVER_EW,
    SPRING_W,
    T,
    profile,
)

SEP = T("sep", "FMFM", count=2, forests=("N", "S"), meadows=("E W",))
"""Two separate forests N and S, one meadow across the middle."""
FFFF = T("f4", "FFFF", count=2, forests=("NESW",))
BEND = T("bend", "MMRR", count=5, rivers=("SW",), meadows=("SW WS", "N E SE WN"))
"""A river bend S-W: inner meadow in the south-west corner, outer meadow round the rest."""
FRMR = T("frmr", "FRMR", count=2, forests=("N",), rivers=("EW",), meadows=("EN WN", "ES S WS"))
"""Forest N, river E-W: a small meadow between forest and river, a big one south of the river."""
LAKE2 = T("lake2", "MRMR", count=2, rivers=("E>lake", "W>lake"), lakes=(1,), meadows=("N EN WN", "ES S WS"))
"""Two rivers (E and W) ending at one lake with 1 fish."""
SPRING_S = T("springS", "MMRM", count=2, rivers=("S>spring",), meadows=("N E S W",))
LAKE_N3 = T("lakeN3", "RMMM", count=2, rivers=("N>lake",), lakes=(3,), meadows=("N E S W",))
DEER2 = T("deer2", "MMMM", count=2, meadows=(("N E S W", {"deer": 2}),))
TIGER2 = T("tiger2", "MMMM", count=2, meadows=(("N E S W", {"tigers": 2}),))

AUROCHS = T("aurochs", "MMMM", count=1, meadows=(("N E S W", {"aurochs": 1, "tigers": 1}),))
FIRE = T("fire", "MMMM", count=1, meadows=(("N E S W", {"fire": 1}),))
MUSH = T("mush", "FMMM", count=1, forests=(("N", {"mushrooms": 1}),), meadows=("E S W",))
CULT = T("cult", "MMMM", count=1, meadows=(("N E S W", {"cult": 1}),))
BONUS_FOREST_GOLD = T("bgold", "FMMM", count=1, forests=(("N", {"gold": 1}),), meadows=("E S W",))

LAND = [
    FILLER,
    FOREST_N,
    FOREST_NS,
    FOREST_N_GOLD,
    LAKE_E1,
    LAKE_W2,
    RIVER_EW,
    SPRING_W,
    SEP,
    FFFF,
    BEND,
    FRMR,
    LAKE2,
    SPRING_S,
    LAKE_N3,
    DEER2,
    TIGER2,
]
BONUS = [AUROCHS, FIRE, MUSH, CULT, BONUS_FOREST_GOLD]


def box(land: list[dict] | None = None, bonus: list[dict] | None = None, **kw: int) -> dict:
    """The test box (all the tiles above), or one with other tiles."""
    return profile(
        land if land is not None else [dict(t) for t in LAND],
        bonus if bonus is not None else [dict(t) for t in BONUS],
        **kw,
    )


def counts(doc: dict, **new: int) -> dict:
    """A copy of profile ``doc`` with some land tile counts changed (totals fixed up)."""
    out = {**doc, "land": [dict(t) for t in doc["land"]], "components": dict(doc["components"])}
    for t in out["land"]:
        if t["id"] in new:
            t["count"] = new[t["id"]]
    out["components"]["land_tiles"] = sum(t["count"] for t in out["land"])
    return out


# A box for the final-scoring example: forest start, clearings and half meadows
SF = T("SF", "FFFF", forests=("NESW",))
C1 = T("c1", "FFFF", forests=("NESW",), meadows=(("", {"deer": 1}),))
C4 = T("c4", "FFFF", forests=("NESW",), meadows=(("", {"deer": 1, "tigers": 2}),))
H2A = T("h2a", "FFFM", forests=("NES",), meadows=(("W", {"deer": 1, "mammoths": 1, "tigers": 1}),))
H0 = T("h0", "FFFM", forests=("NES",), meadows=("W",))
M3 = T("m3", "FFFM", forests=("NES",), meadows=(("W", {"deer": 2, "mammoths": 2, "tigers": 1}),))
HH = T("hh", "FMFM", forests=("N", "S"), meadows=("E W",))
FF = T("ff", "FFFF", forests=("NESW",))
AUR = T("aur", "FFFM", forests=("NES",), meadows=(("W", {"aurochs": 1}),))


def meadow_box() -> dict:
    """The box of the four meadows of the final-scoring example."""
    return profile([dict(t) for t in (C1, C4, H2A, H0, M3, HH, FF)], [dict(AUR)], start=dict(SF))
