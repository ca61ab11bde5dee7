"""The land reader: which hexes of each seat's land hold a tile, its resource or exhausted back, and
how many members of the seat's colour stand on it.

Lands are connected and grow from the starting triangle, so the reader walks outwards: it reads the
starting triangle, then the unread neighbours of every hex found to hold a tile, round after round
(all seats in one batch per round), until no new tile turns up. The result is every tile plus the
empty hexes around it — the same hexes the renderer's ground truth lists. Walking stays within the
seat's land area widened by ``reach`` hexes (or ``far`` hexes where no other seat's area is nearer:
lands can grow long). A hex lying on a marker is empty: the layout keeps the markers clear (a
tile there would hide the marker); so is one whose centre lies on the action row or the achievement
board (:meth:`~games.tribes.vision.regions.Regions.reserved_at`), which the walk never reads: reported
empty, surely, when it borders a tile. A hex whose centre lies off them but within their margin
(``RESERVED_MARGIN`` of a hex) is read — a long land may grow up to the row — yet a tile there must
show all six sides of its outline (``OUTLINE_WHOLE``), else it is the row's or the board's own print
at the window's edge, and the hex is reported empty, surely. A hex whose window is not in the frame
marks the seat's land ``hidden`` (the recognizer then reports none of its hexes: the land was not
read in full) — unless a tile there would not lie within the play area (the layout's table, which
the camera must see; the walk looks beyond it only to follow long lands): such a hex is left out
and the land is read without it.

In a stream, a hex whose window did not change since it was last read keeps its reading
(:class:`~vision.readers.base.ChangeCache`), so a quiet table costs little.

Tile types come from the features of each window compared with the enrolled examples
(:class:`~vision.classify.ExampleClassifier`), and where those leave two types close, also from the
window held against each type's enrolled art (:class:`~vision.templates.TemplateMatcher`,
``TEMPLATE_SHARE``): members' shadows darken a pale exhausted back into a resource tile for the tile
model, not for the art. On a window showing none of the seat's members (a tile just placed) the
structure look (where its print lies) counts once more on its own (``STRUCTURE_SHARE``), which reads
pale art's faint symbols surely where the three looks joined leave them close. There too a bare
window's paper colour can be held against each type's
(:data:`PAPER_SCALE`, not adopted: it did not hold on the held-out art). Each bare tile names the
other classes with their probabilities (:attr:`~games.tribes.vision.observation.HexReading.rivals`:
the model's, or the joined softmax where the templates were asked), so the tracker can tell a tile
unsure of its side (pale art's faint symbols against the plain back) from one unsure of its
resource; under members, which hide the art, the odds among the types are not to be trusted (on the
tuning set's pale art, 15 of 149 wrong readings put the true type more than e² behind with rivals
named under members, 2 without), and such a tile names none. Before that, every window is held
against the bare table that enrollment saw at that very hex (:class:`~vision.bare.BareLook`): one
that still looks like it is bare, whatever it might resemble (a table of a tile's colour, a changed
light, a neighbour reaching in), and the walk does not go on from it — nor is it classified at all,
which spares the tile model the ring of bare hexes around every land — unless it shows all six sides
of a tile's outline (``OUTLINE_WHOLE``: pale art's faces on a pale table look like the table within
the disc the bare look compares, not at their edge). Where a lamp's reflection
washed the place out at setup and washes it out now, the look says nothing
(:meth:`~vision.bare.BareLook.washed_now`): a tile read there must show all six sides of its outline
(``OUTLINE_WHOLE``), else the hex is read empty at ``OUTLINE_CAP`` (no evidence either way).
A window the tile model reads as a tile must also show the tile's **outline**
(:mod:`vision.outline`; what counts where enrollment saw no bare table: most of the table, away from
the lands at setup): an edge across at least ``OUTLINE_SIDES`` of its six sides, stronger than
``OUTLINE_EDGE`` and than the table's own texture (wood grain shows "sides" too: measured on the
enrolled windows of bare table). One that does not — a pale, mottled cloth the tile model takes for
pale gold art — is reported at confidence ``OUTLINE_CAP`` (0.5: no evidence for the tracker) and the
walk does not go on from it, so no chain of phantom tiles crosses the table. Measured on the tuning
set (``benchmarks/vision_diag.py --set tune``, pale art; 0.12 between the phantoms' second-strongest
side, at most 0.082, and real tiles', at least 0.155 on dark art on a dark table): confident phantom
tiles 46 -> 0, phantom tiles 345 -> 3, and no real tile held back on any of the tuning or evaluation
families. The other way round, a window the tile model reads empty although it differs from the
hex's bare look over at least ``UNLIKE_BARE`` of its disc and shows all six sides of a tile's outline
(art much like the table) is read as the model's most likely tile at
``OUTLINE_CAP``, and the walk goes on from it (a starting tile has no bare look: it lay there at
setup). So is a window the tile model reads empty although most of its disc shows the seat's colour
(``SEAT_SHOWN``): members stand only on tiles, and art of the seat's colour (a yellow player's wheat)
is hidden with the members, which leaves the model looking at bare table; such a hex is surely a tile
(``SEAT_TILE_CONF``) of an unsure type. And a hex of a starting triangle the model reads empty is a
tile all the same (R-SET-3 lays it at setup, and no rule takes a tile off a land; a pile of members
of a colour the light has moved, or the light itself, hid it): surely a tile, of an unsure type
(``OUTLINE_CAP``), and the walk goes on from it. Members are counted on tiles only, by the counting model
fed with the window and a likeness map to the seat's enrolled colour, less half of what the bare tile
of the type read there shows of that colour (``MEMBER_ART``: dark art is not taken for black members).
Members of other colours on a seat's land are not counted (the rules keep each player's members on
their own land).

A counter's reading of none that it is unsure of, or of one member, is then held against the bare
art of that very tile (:meth:`LandReader._held_against_looks`, :class:`~vision.bare.BareLook`'s rule
on a thumbnail of the count window against each of the type's enrolled windows): dark art under a
black player's colour leaves the counter at even odds on an empty tile. A tile showing its art (less
than :data:`ART_SAME` of the inner disc differs) holds none, surely (:data:`EMPTY_CONF`); a reading of
one member becomes none only where the art shows closely (:data:`FLIP_SAME`: a black member on a dark
back can differ from it by little more; where the art looks like the seat's colour over most of the
disc, :data:`HIDE_SHARE`, only so closely is a reading of none made sure either, and there even the
counter's sure reading of none is held against the art and left at most :data:`HIDE_CONF` sure where
no look shows closely). In a stream
(``learn``) the reader also keeps each tile's own look at this table while no member stands on it
(:attr:`LandReader.table_bare`, keyed by seat and hex
with the tile's label; learned where the reading is none at :data:`LEARN_CONF` or more, never from a
member taken away; a running mean, :data:`LOOK_WEIGHT`; forgotten when the tile's label changes), and
holds each tile against it first, the same way (:data:`EMPTY_SAME`). One-sided, as the bare table's
check: a window that differs is left to the counter.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Protocol

import cv2
import numpy as np

from games.tribes.rules.hexgrid import START_TRIANGLE, neighbours
from games.tribes.vision.enrollment import EMPTY, hex_place
from games.tribes.vision.layout import Hex
from games.tribes.vision.observation import RIVAL_EMPTY, RIVAL_EXHAUSTED, HexReading
from games.tribes.vision.readers.base import (
    ChangeCache,
    FrameContext,
    colour_sigma,
    encode_seen,
    enrolled_windows,
    kept_look,
    template_costs,
    threshold_conf,
)
from games.tribes.vision.regions import (
    COUNT_PATCH_MM,
    COUNT_PX,
    EMBED_PX,
    HEX_PATCH_MM,
    RESERVED_MARGIN,
    WALK_FAR,
    WALK_REACH,
    leans,
)
from vision.bare import DISC_RADIUS, BareLook, disc, thumbnails
from vision.classify import ExampleClassifier
from vision.clipping import ClippedExamples, ceilings
from vision.colour import lab, likeness
from vision.features import CountModel
from vision.outline import Outline
from vision.patches import PatchSet, lean_ramps
from vision.templates import TemplateMatcher, paper_disc

BARE_SAME = 0.1
"""A window read as a tile is bare table when less than this share of its inner disc differs from
the hex's enrolled bare look (:mod:`vision.bare`). Chosen on the tuning set (``vision_diag.py --set
tune``, 6 sessions x 8 frames): of 2,775 windows of bare table, 2,768 below 0.06 and one at 0.10–0.12
(5 more, near 1, were covered by something else); of 958 tiles none below 0.16 (the palest: white art
with one small symbol on a white table).
"""
BARE_SCALE = 0.03
"""Confidence scale of that decision (:func:`~vision.readers.base.threshold_conf`)."""
MEMBER_ART = 0.5
"""Share of a bare tile's own likeness to a seat's colour taken off the likeness map the member
counter sees on that tile (:meth:`LandReader._background`): art that looks like the members' colour
(dark art under black members) is not counted as members, while a member standing on such art still
shows by half. Chosen on the tuning set (``benchmarks/vision_diag.py --set tune --sessions 8 --every 3
--frames 8``, members per hex wrong of 1,886): 0 (before) 60 / 108 / 114 (colour variants / dark /
pale), 1.0 63 / 91 / 113, 0.5 with the enrolled examples' median 61 / 89 / 114, **0.5 with their
minimum 59 / 93 / 114** (taken: a member standing on one enrolled example cannot teach its colour
as the tile's art); every other fact the same."""


TEMPLATE_SHARE = 0.1
"""Share of a hex window's pixels disagreeing with a tile type's enrolled art
(:class:`vision.templates.TemplateMatcher`, the three looks) that costs as much as a factor e in the
tile model's probability. Where the model's best tile type has a rival within :data:`CASCADE`, the
type is chosen by the joined cost. Members standing on an exhausted tile (its plain back) darken it
with their shadows, and the tile model, which sees the members' colour hidden but not their shadows,
takes it for a darker resource tile of pale art; against the art, the shadowed back disagrees where
the members and their shadows lie, a resource tile there and wherever its symbol and paper differ.
Chosen on the hex windows the reader classifies (``benchmarks/land_template_eval.py --set tune
[--family pale|dark] --re-enroll``, 8 sessions x 8 frames; tile types wrong at cascade 1.0, the model
alone / 0.2 / **0.1** / 0.05): pale art 201 / 172 / 163 / 160, dark art 56 / 46 / 49 / 49, the colour
variants 22 / 17 / 16 / 16 — 0.1 and 0.05 within 3 windows of each other over all three; 0.1 kept, the
art's weaker pull where they tie. The whole reader's figures with and without (``benchmarks/vision_diag.py
--try land.CASCADE=-1``): docs/benchmarks.md, "Unseen boxes, an eleventh part"."""
TABLE_PX = 24
"""Pixels per side of a tile's kept look at this table (a 62 mm count window: 2.6 mm a pixel)."""
EMPTY_SAME = 0.03
"""A reading of none is sure where less than this share of a tile's count window's inner disc differs
from its kept look at this table (:attr:`LandReader.table_bare`). On the dark tuning faces with the
looks kept from frame to frame (``benchmarks/vision_diag.py --set tune --family dark --sessions 24
--every 1 --table-looks``, its "table look" lines): of 596 tiles holding members none came below 0.10;
of 2,152 without, 1,194 lay below 0.02 and 243 more below 0.04."""
EMPTY_CONF = 0.98
"""The confidence of "no member" on a tile that shows its kept look or its art."""
ART_SAME = 0.05
"""A reading of none is sure where less than this share of a tile's count window's inner disc differs
from one of its type's enrolled windows (the bare art; any frame, stream or not). On the same dark
faces read one by one (the same command without ``--table-looks``, its "art look" lines): of the 608
tiles the counter read free unsurely, 515 of the 606 without members lay below 0.05 and the 2 with
members at 0.10 or more."""
ART_EXAMPLES = 8
"""At most this many enrolled windows of a tile type are held against a tile (spread over those enrolled)."""
FLIP_SAME = 0.02
"""A reading of one member on a tile becomes none only where less than this share of its window
differs from its kept look or its type's enrolled art: a black member on a dark back can differ from
the back by less than :data:`ART_SAME` (dark art through the tracker, seed 6: with that one bound the
member was taken away, learned into the tile's look, and the tracker had to be corrected), while of the
941 tiles the counter read one member on, holding members, on the dark tuning faces none came below
0.09; of the 34 it gave one member they did not hold, 24 lay below 0.02 (the "art look" lines)."""
HIDE_SHARE = 0.5
"""A tile whose art looks like a seat's colour (:meth:`LandReader._background` above 0.5) over more than
this share of its count window's inner disc *hides* that seat's members: a member standing there
barely changes the tile's look. There the look checks vouch for none only as closely as for a member
taken away (:data:`FLIP_SAME` in place of :data:`EMPTY_SAME` and :data:`ART_SAME`). Dark art through
the tracker, seed 6: the black player's member on its dark exhausted starting tile differed from the
back's enrolled art by 0.043, was made a sure none, learned into the tile's look, and read as none
from then on. On the dark tuning faces with the looks kept (``benchmarks/vision_diag.py --set tune
--family dark --sessions 24 --every 1 --table-looks``, the "hide" of its look lines): the two tiles
holding members that came below the usual bounds both hid more than 0.8 of their disc; of the 48
free tiles hiding more than 0.6, 32 still came below :data:`FLIP_SAME`."""
HIDE_CONF = 0.6
"""On a tile whose art hides the seat's members (:data:`HIDE_SHARE`), the counter's own reading of
none is held against the looks however sure it is, and is at most this sure unless a look shows
closely (:data:`FLIP_SAME`): a counter can read a black member on a dark back as none at 0.9 and more
(measured in docs/benchmarks.md, "Unseen boxes, a twenty-fifth part"), and a tile's look is learned
only from a reading at :data:`LEARN_CONF`."""
LEARN_CONF = 0.9
"""A tile's look at this table is learned only where the reading is none at least this surely (the
counter's own, or made sure by the art or the kept look; never a member taken away), and only a
reading of none less sure than this is held against the art."""
LOOK_WEIGHT = 0.5
"""Weight of the newest free window in a tile's kept look (a running mean: slow light follows)."""

CASCADE = 3.0
"""Templates are consulted only where the tile model leaves a second tile type within this cost of
its best (a factor e³ in p); elsewhere the model alone decides. At share 0.1 (``land_template_eval.py``),
cascade **3.0** / 1.0 / 0.5: pale art 161 / 163 / 164 wrong with 1,247 / 748 / 431 of 1,742 windows
compared, dark art 48 / 49 / 45 with 226 / 71 / 42 of 1,884, the colour variants 14 / 16 / 19 with
46 / 17 / 8. What decided for 3.0 over 1.0 is the confidence, which the tracker fuses (a drawn tile
read below 0.73 in every frame is asked about, ``games.tribes.tracker.propose.WEAK_RESOURCE``): right
types read at 0.73 or more, pale art 807 -> 951 (the model alone 736 of 1,541 right), wrong ones read
so 6 -> 5; dark art 1,798 -> 1,789 right and 28 -> 25 wrong so; the colour variants 1,864 -> 1,866
and 15 -> 13. On pale art about half the right readings of the model alone are that unsure, and the
tracker asked about nearly every drawn tile there; the cost is the windows compared (a fresh read of
pale art compares about seven in ten)."""


PAPER_SCALE = 0.0
"""Where the templates are asked (:data:`CASCADE`), a tile type whose enrolled paper colour
(:meth:`vision.templates.TemplateMatcher.paper`, the seat's members left out) lies ``d`` further from
the window's than the nearest type's costs ``(d / PAPER_SCALE)² / 2`` more, at most :data:`PAPER_CAP`
(0: not weighed). **Not adopted** (0): at 0.05 the tuning set's pale art read bare tiles surely 780 ->
964 of 1,134 with none more wrong, but the held-out pack in pale art read 21 more of its 956 bare
tiles wrong (53 -> 74; 0.1: 53 -> 55), and dark art's 48 -> 49 (``benchmarks/land_template_eval.py
--set tune|eval --family pale|dark --re-enroll``, docs/benchmarks.md, "Unseen boxes, a thirteenth
part"). Kept as a setting that the benchmark measures."""
PAPER_HIDDEN = 0.05
"""The paper colour is judged only on a window showing the seat's colour on at most this share of the
paper's disc (members on a tile: their shadows and their own bright or dark colour move the brighter
half's median). Where it was judged under members too, dark art's tile types on the tracker's settled
frames went 171 -> 506 wrong of 96,838 (``benchmarks/tracker_eval.py --family dark``)."""
STRUCTURE_SHARE = 0.05
"""Where the templates are asked (:data:`CASCADE`) about a window that shows none of the seat's
members (its colour on at most :data:`PAPER_HIDDEN` of the paper's disc: a tile just placed, or left
bare), the templates' **structure look** (:mod:`vision.templates`: where the window's print lies,
whatever its contrast or tint) counts once more on its own, a look this much further from a type's art
than from the nearest type's costing a factor e in p (0: not counted again, as under members). The
joined looks' geometric mean keeps the ratio between two types where one look finds every tile alike
(the fine look's fixed tolerance on pale art), but not their difference, which is what the cost
weighs: a pale tile's faint symbol, plain to the structure look, moved its type by about one unit.
Counted again rather than alone, so that types whose print is alike and whose colour differs are
still told apart by the other looks (the structure look alone, tried first: dark art's tile types
on the tracker's settled frames 171 -> 399 wrong). Members bring detail of their own, so a window
showing them is judged by the three looks joined. Chosen on the tuning set
(``benchmarks/land_template_eval.py --set tune [--family pale|dark] --re-enroll``, the reader's own
choice; bare tiles right and sure / wrong, off -> 0.03 / **0.05** / 0.075 / 0.1): pale art (1,134
bare tiles) 780 / 12 -> 1,057 / 10, **1,040 / 6**, 1,020 / 6, 1,000 / 7; dark art (1,271) 1,252 / 4
-> 1,255 / 4 at each, its tiles under members as they were from 0.05 (19 wrong unsure; 22 at 0.03);
the colour variants unchanged (1,263 / 6). On the held-out pack (``--set eval``): docs/benchmarks.md,
"Unseen boxes, a fifteenth part"."""
PAPER_CAP = 2.0
"""The most the paper colour adds to a tile type's cost: bold art's faces lie far apart in colour,
and a window whose paper is misjudged (pieces of a colour the art shares) must not outweigh the
other looks. Uncapped, the colour variants' wrong types rose 14 -> 23 at scale 0.05."""

OUTLINE_EDGE = 0.12
"""A side of a hex window shows a tile's edge when its strength (:class:`vision.outline.Outline`)
reaches this — or :data:`OUTLINE_TEXTURE` times the table's own texture, where that is more."""
OUTLINE_TEXTURE = 1.2
"""How much stronger than the table's own texture an edge must be: the table's texture is the 90th
percentile, over the enrolled windows of bare table, of a window's median side strength (wood grain
or a mottled cloth shows "sides" of its own)."""
OUTLINE_SIDES = 2
"""A tile read in a window showing fewer sides of its outline than this is capped (:data:`OUTLINE_CAP`)
and the walk does not go on from it."""
OUTLINE_WHOLE = 6
"""All six sides of a tile's outline (:data:`HEX_OUTLINE`): a window showing them is held against the
tile types even where it looks like its place's bare table — pale art's faces on a pale table do,
within the disc the bare look compares. And where the bare table's look says nothing because a
reflection washed the place out at setup and washes it out now
(:meth:`vision.bare.BareLook.washed_now`), a tile read there must show them — the bare check's
stand-in — or the hex is read empty at :data:`OUTLINE_CAP` (no evidence either way): under the
reflection the tile model takes bare table for a tile's back. Tuning set, pale art
(``benchmarks/vision_diag.py --set tune --family pale --sessions 24 --every 1``, its "like bare" and
"washed out" lines): 266 windows of tiles looked like their bare table, every one showing six sides,
against 15 of 9,004 windows of bare table (hexes enclosed by tiles); at washed-out places 169 tiles
showed six sides, the 4 windows of bare table read as tiles 2 or 3."""
OUTLINE_CAP = 0.5
"""The highest confidence of a tile read in a window that shows too little of a tile's outline."""
UNLIKE_BARE = 0.5
"""A hex the tile model reads empty whose window differs from its bare look over at least this share
(:meth:`LandReader._unlike_bare`) and shows a tile's whole outline is read as the model's most likely
tile, unsure; 0: never. On the tuning set (24 sessions x 8 frames) the model read 18 tiles empty, and
the walk then left 38 empty hexes beyond them unread; with 0.5 (or 0.3, the same) 10 and 19, tile
type per hex wrong 91 -> 62 of 15,885, no phantom tile; on the held-out pack (vision_eval) it found
none and made 6 phantom tiles, none confident (docs/benchmarks.md, the twenty-third part).
Bare table nearly never differs so much from its own look (4 of 9,022 such hexes on the tuning set
at 0.8 or more) and shows a tile's whole outline only when enclosed by tiles."""
SEAT_SHOWN = 0.7
"""A hex the tile model reads empty although at least this share of its paper disc
(:func:`vision.templates.paper_disc`) shows the seat's colour holds a tile
(:meth:`LandReader._seat_coloured`; 0: never): members stand only on tiles, and a tile whose art is
of the seat's colour (a yellow player's wheat) loses its art where the encoder hides the seat's
colour, so the model takes it for bare table. On the tuning set (every cached session of
``benchmarks/vision_diag.py --set tune``: plain, drifting, piles, dark and pale art; 5,426 hexes read
empty) all 53 such hexes at 0.7 or more held a tile, read empty at up to 0.999; 2 of 3 between 0.5
and 0.7; 14 of 5,370 below 0.35 (for other reasons). The model's most likely tile type was right
for 48 of 56 at 0.5 or more."""
SEAT_TILE_CONF = 0.8
"""How sure a tile lies on a hex read by :data:`SEAT_SHOWN` (its type is unsure: :data:`OUTLINE_CAP`)."""
HEX_OUTLINE = Outline(EMBED_PX, 6, 20.0 / HEX_PATCH_MM, 30.0, 2.0 / HEX_PATCH_MM)
"""The outline of a tile in a hex window: 20 mm from the centre to each flat side (flat to flat 40 mm,
as the window's 48 mm, at the layout's scale), the first side's normal at 30 degrees, looked for
within 2 mm of it."""


class Encoder(Protocol):
    """Turns normalised windows of a group into unit feature vectors (:mod:`vision.encoder`)."""

    def encode(self, windows01: np.ndarray, group: str, key: str | list[str]) -> np.ndarray: ...


_Result = tuple[str, float, float, Mapping[str, float]]
"""A hex read: the class chosen, the confidence in it, the tile model's probability of no tile, and
the other classes with their probabilities (:attr:`HexReading.rivals`, by class name)."""
NO_RIVALS: Mapping[str, float] = {}
"""The rivals of a hex settled without classifying it (bare table, a marker, the row or board)."""


def _rival(label: str) -> str:
    """A class name as the observation names a rival (:attr:`HexReading.rivals`)."""
    if label == EMPTY:
        return RIVAL_EMPTY
    return RIVAL_EXHAUSTED if label == "exhausted" else label.split(":", 1)[1]


def _parse(label: str) -> tuple[bool, str | None, bool]:
    if label == EMPTY:
        return False, None, False
    if label == "exhausted":
        return True, None, True
    return True, label.split(":", 1)[1], False


class LandReader:
    """Reads the lands of the seats in play (see the module docstring)."""

    def __init__(
        self,
        encoder: Encoder,
        classifiers: Mapping[int, ExampleClassifier],
        counter: CountModel,
        colours: Mapping[int, tuple[str, np.ndarray, float]],
        reach: float = WALK_REACH,
        far: float = WALK_FAR,
        max_rounds: int = 16,
        cache: bool = False,
        clipped: Mapping[int, ClippedExamples] | None = None,
        bare: BareLook | None = None,
        examples: tuple[np.ndarray, list[str]] | None = None,
        member_art: float = MEMBER_ART,
        templates: TemplateMatcher | None = None,
        paper_scale: float = PAPER_SCALE,
        structure_share: float = STRUCTURE_SHARE,
        learn: bool = False,
    ) -> None:
        self.encoder = encoder
        self.learn = learn  # a stream: each tile's look at this table while free of members is kept
        self.table_bare: dict[tuple[int, Hex], tuple[str, np.ndarray]] = {}
        """Per tile (seat, hex): its label and its look at this table while free (a TABLE_PX thumbnail, BGR 0..255)."""
        self.last_table: dict[tuple[int, Hex], float] = {}
        """The disagreement with its kept look of every tile held against it in the last frame."""
        self.last_art: dict[tuple[int, Hex], tuple[float, int]] = {}
        """The least disagreement with its type's enrolled art of every tile held against it in the last
        frame (those the counter read free unsurely, or with one member), with the counter's count."""
        self._art: dict[int, tuple[BareLook, dict[str, list[str]]] | None] = {}
        self.last_hide: dict[tuple[int, Hex], float] = {}
        """The share of its inner disc where the art looks like the seat's colour, of every tile held
        against its looks in the last frame (:data:`HIDE_SHARE`)."""
        self._hide: dict[tuple[str, int], float] = {}
        self.paper_scale = float(paper_scale)
        self.structure_share = float(structure_share)
        self.templates = templates if templates is not None and len(templates) else None
        self.examples = examples  # enrolled hex windows and labels: each tile type's bare art
        self.member_art = float(member_art)
        self._bg: dict[tuple[str, int], np.ndarray | None] = {}
        self.bare = bare if bare is not None and len(bare) else None
        self.last_bare: dict[tuple[int, Hex], float] = {}
        """The disagreement with its bare look of every hex window read afresh in the last frame."""
        self.outline_edge = OUTLINE_EDGE
        bare_examples = enrolled_windows(examples, EMPTY)
        if bare_examples is not None:
            texture = float(np.percentile(np.median(HEX_OUTLINE.strengths(bare_examples), axis=1), 90))
            self.outline_edge = max(OUTLINE_EDGE, OUTLINE_TEXTURE * texture)
        self.last_like_bare: dict[tuple[int, Hex], int] = {}
        """How many sides of a tile's outline showed in every window read afresh in the last frame that
        looked like its place's bare table (below ``BARE_SAME``): at :data:`OUTLINE_WHOLE` it was
        classified all the same."""
        self.glared: set[tuple[int, Hex]] = set()
        """The hexes read afresh in the last frame whose bare look said nothing because the place was
        washed out at setup and is now (:meth:`vision.bare.BareLook.washed_now`): a tile read there
        must show its whole outline (:data:`OUTLINE_WHOLE`)."""
        self.last_outline: dict[tuple[int, Hex], int] = {}
        """How many sides of its outline showed, for every hex window read afresh as a tile in the
        last frame."""
        self.unlike_bare: set[tuple[int, Hex]] = set()
        """The hexes of the last frame read as a tile against the tile model by :meth:`_unlike_bare`."""
        self.seat_coloured: set[tuple[int, Hex]] = set()
        """The hexes of the last frame read as a tile against the tile model by :meth:`_seat_coloured`."""
        self.starting: set[tuple[int, Hex]] = set()
        """The hexes of the last frame read as a tile against the tile model by :meth:`_starting`."""
        self.held_back: set[tuple[int, Hex]] = set()
        """The hexes whose last fresh reading was a tile without its outline (kept across frames: a
        stream's unchanged window keeps its reading, and the walk still stops there)."""
        self.classifiers = dict(classifiers)  # per seat: examples prepared with that seat's colour hidden
        self._frame_classifiers: dict[int, ExampleClassifier | None] = {}
        self.clipped = dict(clipped or {})
        """Per seat, its examples as a frame's clipping shows them (:mod:`vision.clipping`): a brighter
        light the camera has not caught up with cuts pale faces off at the top of the scale; they are
        then compared with their examples cut off alike (at the ceiling at the seat's starting
        triangle)."""
        self.counter = counter
        self.colours = dict(colours)  # seat -> (colour name, Lab, spread)
        self.reach = reach
        self.far = far
        self.max_rounds = max_rounds
        # a stream re-reads only the hexes whose windows changed (see ChangeCache)
        self.cache = ChangeCache() if cache else None
        self.count_cache = ChangeCache(cells=12) if cache else None
        self._near: dict[tuple[int, Hex, float], bool] = {}
        self._on_reserved: dict[tuple[int, Hex], bool] = {}
        self._marker: dict[tuple[int, Hex], int | None] = {}

    def reset(self) -> None:
        """Forget the tiles' looks at this table (another table, another camera)."""
        self.table_bare.clear()

    def _classifier(self, ctx: FrameContext, seat: int) -> ExampleClassifier:
        """The seat's tile classifier for this frame: its examples clipped at the frame's ceiling at
        the seat's starting triangle where that cuts any off (:mod:`vision.clipping`)."""
        ex = self.clipped.get(seat)
        if ex is None:
            return self.classifiers[seat]
        if seat not in self._frame_classifiers:  # once per frame and seat
            at = np.asarray([ctx.regions.layout.hex_center(seat, (0, 0))], np.float64)
            self._frame_classifiers[seat] = ex.classifier(ceilings(ctx.norm, ctx.light, at)[0])
        return self._frame_classifiers[seat] or self.classifiers[seat]

    def _marker_under(self, ctx: FrameContext, seat: int, h: Hex) -> int | None:
        """The marker that hex ``h``'s centre lies on (the marker square grown by a quarter hex), if any."""
        key = (seat, h)
        if key not in self._marker:
            lay = ctx.regions.layout
            at = np.asarray(lay.hex_center(seat, h), np.float64)
            found = None
            for m in lay.markers:
                c = at - np.asarray(m.center)
                a = np.radians(-m.rotation)
                x, y = np.cos(a) * c[0] - np.sin(a) * c[1], np.sin(a) * c[0] + np.cos(a) * c[1]
                if max(abs(x), abs(y)) <= m.size / 2 + lay.hex.pitch / 4:
                    found = m.id
                    break
            self._marker[key] = found
        return self._marker[key]

    def _reserved(self, ctx: FrameContext, seat: int, h: Hex) -> bool:
        """Whether a tile on hex ``h`` of ``seat`` would lie on the row or the board
        (:meth:`Regions.reserved_at`): surely empty."""
        key = (seat, h)
        hit = self._on_reserved.get(key)
        if hit is None:
            hit = self._on_reserved[key] = ctx.regions.reserved_at(ctx.regions.layout.hex_center(seat, h))
        return hit

    def _near_area(self, ctx: FrameContext, seat: int, h: Hex, margin: float = RESERVED_MARGIN) -> bool:
        """Whether the walk may read hex ``h`` of ``seat`` (:meth:`Regions.walkable`, kept ``margin``
        hexes off the row and the board)."""
        key = (seat, h, margin)
        hit = self._near.get(key)
        if hit is None:
            hit = self._near[key] = ctx.regions.walkable(seat, h, self.reach, self.far, margin)
        return hit

    def read(self, ctx: FrameContext, seats: list[int]) -> tuple[list[HexReading], set[str]]:
        """Readings of every tile and the empty hexes around it, and the hidden regions."""
        t0 = time.perf_counter()
        results: dict[tuple[int, Hex], _Result] = {}
        self.last_bare = {}
        self.last_like_bare = {}
        self.last_outline = {}
        self.unlike_bare = set()
        self.seat_coloured = set()
        self.starting = set()
        self.glared = set()
        self._frame_classifiers = {}
        hidden: set[str] = set()
        visited: set[tuple[int, Hex]] = set()
        frontier = [(s, h) for s in seats for h in START_TRIANGLE]
        rounds = 0
        while frontier and rounds < self.max_rounds:
            rounds += 1
            visited.update(frontier)
            # a hex on a marker holds no tile: the layout keeps the markers clear (surely so when
            # registration found the marker this frame; a marker not found may just be hidden by a
            # neighbouring tile or an arm, so the confidence is lower then)
            seen = set(ctx.markers)
            for c in frontier:
                m = self._marker_under(ctx, *c)
                if m is not None:
                    p = 1.0 if m in seen else 0.6
                    results[c] = (EMPTY, p, p, NO_RIVALS)
            frontier = [c for c in frontier if c not in results]
            if not frontier:
                break
            ps = ctx.regions.hex_patches(frontier)
            inside = ctx.inside(ps)
            cells = [c for c, ok in zip(frontier, inside, strict=True) if ok]
            for c, ok in zip(frontier, inside, strict=True):
                if not ok and ctx.regions.on_table(*c):
                    hidden.add(f"land:{c[0]}")
            nxt: list[tuple[int, Hex]] = []
            if cells:
                windows = ctx.windows(ctx.regions.hex_patches(cells))
                if self.cache is not None:
                    hits, misses, thumbs = self.cache.split(ctx.reg.serial, list(cells), windows)
                else:
                    hits, misses, thumbs = {}, list(range(len(cells))), None
                for i, value in hits.items():
                    results[cells[i]] = value  # type: ignore[assignment]
                # a hex that still looks as it did bare at enrollment is empty: not classified at all
                todo = self._bare_screen(results, cells, misses, windows) if self.bare is not None else misses
                if todo:
                    keys = [f"seat:{cells[i][0]}" for i in todo]
                    feats, showing = encode_seen(self.encoder, windows[todo], "hex", keys)  # and where members show
                    for seat in sorted({cells[i][0] for i in todo}):
                        idx = [j for j, i in enumerate(todo) if cells[i][0] == seat]
                        cls = self._classifier(ctx, seat)
                        if len(cls) == 0:  # nothing enrolled for this seat: its land cannot be read
                            hidden.add(f"land:{seat}")
                            for j in idx:
                                results[cells[todo[j]]] = (EMPTY, 0.0, 1.0, NO_RIVALS)
                            continue
                        empty_col = cls.column(EMPTY)
                        probs = cls.probabilities(feats[idx])
                        shows = None if showing is None else showing[idx]
                        chosen = self._by_art(cls, probs, windows[[todo[j] for j in idx]], seat, shows)
                        for j, p, (b, conf, dist) in zip(idx, probs, chosen, strict=True):
                            c = cells[todo[j]]
                            p_empty = float(p[empty_col]) if empty_col is not None else 0.0
                            rivals = {cls.classes[k]: round(float(q), 4) for k, q in enumerate(dist) if k != b}
                            results[c] = (cls.classes[b], conf, p_empty, rivals)
                        if shows is not None and SEAT_SHOWN > 0:
                            self._seat_coloured(results, [cells[todo[j]] for j in idx], self._shown(shows))
                    self._outline_check(results, [cells[i] for i in todo], windows[todo])
                    if UNLIKE_BARE > 0:
                        self._unlike_bare(results, [cells[i] for i in todo], windows[todo])
                    self._starting(results, [cells[i] for i in todo])
                if thumbs is not None and self.cache is not None:
                    for i in misses:
                        self.cache.put(cells[i], thumbs[i], results[cells[i]])
                for c in cells:
                    if results[c][0] != EMPTY and c not in self.held_back:
                        for nb in neighbours(c[1]):
                            cell = (c[0], nb)
                            if cell in visited:
                                continue
                            if self._near_area(ctx, c[0], nb):
                                visited.add(cell)
                                nxt.append(cell)
                            elif self._reserved(ctx, c[0], nb):  # the row or the board lies there
                                visited.add(cell)
                                if self._near_area(ctx, c[0], nb, margin=0.0):
                                    nxt.append(cell)  # read: a tile there must show its whole outline
                                else:
                                    results[cell] = (EMPTY, 1.0, 1.0, NO_RIVALS)
            frontier = nxt
        t1 = time.perf_counter()
        tiles = [c for c, r in results.items() if r[0] != EMPTY]
        counts = self._members(ctx, tiles, [results[c][0] for c in tiles])
        ctx.timings["land"] = (t1 - t0) * 1000
        ctx.timings["members"] = (time.perf_counter() - t1) * 1000
        out = []
        for (seat, h), (label, conf, p_empty, weighed) in sorted(results.items()):
            tile, resource, exhausted = _parse(label)
            members: dict[str, int] = {}
            mconf = 1.0
            if tile and (seat, h) in counts:
                n, mconf = counts[(seat, h)]
                if n:
                    members = {self.colours[seat][0]: n}
            out.append(
                HexReading(
                    seat=seat,
                    hex=h,
                    tile=tile,
                    resource=resource,
                    exhausted=exhausted,
                    members=members,
                    tile_conf=round(1.0 - p_empty if tile else p_empty, 4),
                    resource_conf=round(conf if tile else 1.0, 4),
                    members_conf=round(float(mconf), 4),
                    rivals={} if members else {_rival(k): q for k, q in weighed.items()},
                )
            )
        return out, hidden

    def _by_art(
        self,
        cls: ExampleClassifier,
        probs: np.ndarray,
        windows: np.ndarray,
        seat: int | None = None,
        seen: np.ndarray | None = None,
    ) -> list[tuple[int, float, np.ndarray]]:
        """Per window, the class chosen, the confidence in it and the probability of every class:
        the tile model's, or where its best is a tile type with a rival type within :data:`CASCADE`,
        the type whose cost (the model's ``-log p`` plus the window's disagreement with the type's art:
        the three looks over :data:`TEMPLATE_SHARE`, and where no member of ``seat`` shows, the structure
        look again over :data:`STRUCTURE_SHARE`) is least, at the probabilities of a softmax over those
        costs (the empty hex costs its ``-log p``). ``seen``: the windows' pixels the encoder left
        visible, where it told them already (else it is asked)."""
        best = probs.argmax(axis=1)
        out = [(int(b), float(p[b]), p) for b, p in zip(best, probs, strict=True)]
        tm = self.templates
        if tm is None:
            return out
        cost = -np.log(np.maximum(probs, 1e-12))
        tile_cols = [k for k, c in enumerate(cls.classes) if c != EMPTY and c in tm.index]
        if len(tile_cols) < 2:
            return out
        rows = []
        for i, b in enumerate(best):
            if b not in tile_cols:  # the empty hex (never compared) or a type never enrolled as art
                continue
            others = np.delete(cost[i, tile_cols], tile_cols.index(int(b)))
            if float(others.min()) - float(cost[i, b]) < CASCADE:
                rows.append(i)
        if not rows:
            return out
        asked = windows[rows]
        asked_seen = None if seen is None else seen[rows]
        # the window's disagreement with each type's art, in units of the cost: the three looks joined,
        # and where no member shows the structure look once more (STRUCTURE_SHARE)
        bare = np.zeros(len(rows), bool)
        if self.structure_share:
            shown = self.members_shown(asked, seat, asked_seen)
            bare = shown <= PAPER_HIDDEN if shown is not None else bare
        weight = TEMPLATE_SHARE / self.structure_share if self.structure_share else 0.0
        share = tm.disagreement(asked, again=bare, weight=weight) / TEMPLATE_SHARE
        paper = None
        if self.paper_scale:
            paper = self.paper_distances(asked, seat, asked_seen)[:, [tm.index[cls.classes[k]] for k in tile_cols]]
        is_tile = np.zeros(len(cls.classes), bool)
        is_tile[tile_cols] = True
        for r, i in enumerate(rows):
            joined = cost[i].copy()
            extra = template_costs(share[r], cls.classes, tm, is_tile, 0.0)
            assert extra is not None  # every tile column has its art
            joined[tile_cols] += extra[tile_cols]
            if paper is not None and not np.isnan(paper[r]).any():
                joined[tile_cols] += np.minimum(0.5 * ((paper[r] - paper[r].min()) / self.paper_scale) ** 2, PAPER_CAP)
            k = tile_cols[int(np.argmin(joined[tile_cols]))]
            e = np.exp(-(joined - joined[k]))
            out[i] = (k, float(1.0 / e.sum()), e / e.sum())
        return out

    def paper_distances(self, windows: np.ndarray, seat: int | None, seen: np.ndarray | None = None) -> np.ndarray:
        """N x C (the templates' classes): each window's paper colour against each type's
        (:meth:`TemplateMatcher.paper`), the seat's members left out where the encoder knows them; a
        row of NaN where more than :data:`PAPER_HIDDEN` of the paper's disc shows the seat's colour
        (members on the tile: the paper is not judged there). ``seen``: the windows' visible pixels,
        where the encoder told them already."""
        tm = self.templates
        assert tm is not None
        if seen is None:
            seen = self._visible(windows, seat)
        out = tm.paper(windows, seen)
        if seen is not None and len(windows):
            out[self._shown(seen) > PAPER_HIDDEN] = np.nan
        return out

    def members_shown(self, windows: np.ndarray, seat: int | None, seen: np.ndarray | None = None) -> np.ndarray | None:
        """Per window, the share of the paper's disc (:func:`vision.templates.paper_disc`) showing the
        seat's colour, as the encoder hides it (members on the tile); None where the encoder does not
        tell or the seat is not known. ``seen``: the windows' visible pixels, where the encoder told
        them already."""
        if seen is None:
            seen = self._visible(windows, seat)
        return self._shown(seen) if seen is not None else None

    def _visible(self, windows: np.ndarray, seat: int | None) -> np.ndarray | None:
        shown = getattr(self.encoder, "visible", None)
        return shown(windows, "hex", f"seat:{seat}") if shown is not None and seat is not None else None

    @staticmethod
    def _shown(seen: np.ndarray) -> np.ndarray:
        if not len(seen):
            return np.zeros(0)
        return np.asarray((~seen[:, paper_disc(seen.shape[1])]).mean(axis=1))

    def _outline_check(
        self,
        results: dict[tuple[int, Hex], _Result],
        cells: list[tuple[int, Hex]],
        windows: np.ndarray,
    ) -> None:
        """Caps at :data:`OUTLINE_CAP` the confidence of the tiles among ``cells`` (read afresh, their
        ``windows``) whose window shows fewer than :data:`OUTLINE_SIDES` sides of a tile's outline
        (:mod:`vision.outline`), and marks them :attr:`held_back`."""
        self.held_back.difference_update(cells)
        tiles = [i for i, c in enumerate(cells) if results[c][0] != EMPTY]
        if not tiles:
            return
        shown = HEX_OUTLINE.shown(windows[tiles], self.outline_edge)
        for i, n in zip(tiles, shown, strict=True):
            c = cells[i]
            self.last_outline[c] = int(n)
            if c in self.glared and n < OUTLINE_WHOLE:  # bare table under the reflection, most likely
                results[c] = (EMPTY, OUTLINE_CAP, OUTLINE_CAP, NO_RIVALS)
            elif self._on_reserved.get(c) and n < OUTLINE_WHOLE:  # the row's or the board's own print
                results[c] = (EMPTY, 1.0, 1.0, NO_RIVALS)
            elif n < OUTLINE_SIDES:
                self.held_back.add(c)
                label, conf, p_empty, _ = results[c]
                results[c] = (label, min(conf, OUTLINE_CAP), max(p_empty, 1.0 - OUTLINE_CAP), NO_RIVALS)

    def _unlike_bare(
        self,
        results: dict[tuple[int, Hex], _Result],
        cells: list[tuple[int, Hex]],
        windows: np.ndarray,
    ) -> None:
        """A hex among ``cells`` the tile model reads empty although at least :data:`UNLIKE_BARE` of
        its window differs from the hex's bare look and the window shows all six sides of a tile's
        outline holds a tile: the model's most likely tile, unsure (:data:`OUTLINE_CAP`)."""
        idx = [
            i
            for i, c in enumerate(cells)
            if results[c][0] == EMPTY and self.last_bare.get(c, 0.0) >= UNLIKE_BARE and results[c][3]
        ]
        if not idx:
            return
        shown = HEX_OUTLINE.shown(windows[idx], self.outline_edge)
        for i, n in zip(idx, shown, strict=True):
            c = cells[i]
            if n >= OUTLINE_WHOLE:
                rivals = results[c][3]
                best = max(rivals, key=lambda k: rivals[k])
                results[c] = (best, OUTLINE_CAP, 1.0 - OUTLINE_CAP, NO_RIVALS)
                self.unlike_bare.add(c)

    def _starting(self, results: dict[tuple[int, Hex], _Result], cells: list[tuple[int, Hex]]) -> None:
        """A hex of a starting triangle among ``cells`` that the tile model reads empty holds a tile all
        the same (R-SET-3 lays it at setup, and no rule takes a tile off a land): a pile of members or a
        changed light hid it. It is read as the model's most likely tile type, surely a tile, of an
        unsure type (:data:`OUTLINE_CAP`, no rivals), and the walk goes on from it."""
        for c in cells:
            label, _, _, rivals = results[c]
            if label != EMPTY or c[1] not in START_TRIANGLE or not rivals:
                continue
            best = max(rivals, key=lambda k: rivals[k])
            results[c] = (best, OUTLINE_CAP, 0.0, NO_RIVALS)
            self.starting.add(c)

    def _seat_coloured(
        self, results: dict[tuple[int, Hex], _Result], cells: list[tuple[int, Hex]], shown: np.ndarray
    ) -> None:
        """A hex among ``cells`` the tile model reads empty although at least :data:`SEAT_SHOWN` of its
        paper disc shows the seat's colour (``shown``, per cell) holds a tile: members stand on it, or
        its art is of the seat's colour. It is read as the model's most likely tile type, surely a tile
        (:data:`SEAT_TILE_CONF`) of an unsure type (:data:`OUTLINE_CAP`, no rivals), and the walk goes on
        from it."""
        for c, share in zip(cells, shown, strict=True):
            label, _, _, rivals = results[c]
            if label != EMPTY or share < SEAT_SHOWN or not rivals:
                continue
            best = max(rivals, key=lambda k: rivals[k])
            results[c] = (best, OUTLINE_CAP, 1.0 - SEAT_TILE_CONF, NO_RIVALS)
            self.seat_coloured.add(c)

    def _bare_screen(
        self,
        results: dict[tuple[int, Hex], _Result],
        cells: list[tuple[int, Hex]],
        misses: list[int],
        windows: np.ndarray,
    ) -> list[int]:
        """Settle the hexes among ``cells[misses]`` whose windows still look like the hex's bare
        table as empty (see the module docstring); the indices left to classify."""
        assert self.bare is not None
        if not misses:
            return misses
        keys = [hex_place(*cells[i]) for i in misses]
        d, glared = self.bare.compare(keys, windows[misses])
        # a window showing a tile's whole outline is no bare table, whatever its disc looks like (pale
        # art's faces on a pale table match the table's look there)
        whole = dict.fromkeys(misses, False)
        looks_bare = [i for i, v in zip(misses, d, strict=True) if v < BARE_SAME]
        if looks_bare:
            shown = HEX_OUTLINE.shown(windows[looks_bare], self.outline_edge)
            whole.update((i, bool(n >= OUTLINE_WHOLE)) for i, n in zip(looks_bare, shown, strict=True))
            self.last_like_bare.update((cells[i], int(n)) for i, n in zip(looks_bare, shown, strict=True))
        todo = []
        for i, v, g in zip(misses, d, glared, strict=True):
            if np.isnan(v):
                if g:  # washed out at setup and now: a tile there must show its whole outline
                    self.glared.add(cells[i])
                todo.append(i)
                continue
            c = cells[i]
            self.last_bare[c] = float(v)
            if v < BARE_SAME and not whole[i]:
                p = threshold_conf(float(v), BARE_SAME, BARE_SCALE)
                results[c] = (EMPTY, p, p, NO_RIVALS)
            else:
                todo.append(i)
        return todo

    def _background(self, ctx: FrameContext, label: str, seat: int) -> np.ndarray | None:
        """How much the bare tile ``label`` looks like ``seat``'s colour, pixel by pixel, in the
        geometry of a count window (COUNT_PX a side; 0 beyond the tile's window): the least over its
        enrolled windows (a member on one of them is not taken for art), grown by a pixel (tiles lie a
        little off), or None when never enrolled."""
        key = (label, seat)
        if key in self._bg:
            return self._bg[key]
        got = None
        wins = enrolled_windows(self.examples, label)
        if wins is not None:
            _, ref, spread = self.colours[seat]
            maps = likeness(lab(wins), ref, colour_sigma(spread))
            bg = cv2.dilate(np.min(maps, axis=0).astype(np.float32), np.ones((3, 3), np.uint8))
            got = _to_count_window(bg, ctx, seat)
        self._bg[key] = got
        return got

    def _members(
        self, ctx: FrameContext, tiles: list[tuple[int, Hex]], labels: list[str]
    ) -> dict[tuple[int, Hex], tuple[int, float]]:
        out: dict[tuple[int, Hex], tuple[int, float]] = {}
        self.last_table, self.last_art, self.last_hide = {}, {}, {}
        if not tiles:
            return out
        ps = ctx.regions.count_patches(tiles)
        inside = ctx.inside(ps)
        win = ctx.windows(ps)
        fresh, thumbs = self._count(ctx, tiles, labels, ps, win, inside, out)
        self._held_against_looks(ctx, tiles, labels, win, inside, out, fresh)
        if thumbs is not None and self.count_cache is not None:
            for i in fresh:  # a window that does not change keeps its reading, looks held against included
                self.count_cache.put(tiles[i], thumbs[i], out[tiles[i]])
        return out

    def _held_against_looks(
        self,
        ctx: FrameContext,
        tiles: list[tuple[int, Hex]],
        labels: list[str],
        win: np.ndarray,
        inside: np.ndarray,
        out: dict[tuple[int, Hex], tuple[int, float]],
        fresh: list[int],
    ) -> None:
        """Hold the tiles in view counted afresh (``fresh``, indices into ``tiles``: a stream's unchanged
        windows keep their readings) against their own looks at this table while free (a stream) and,
        where that does not settle it, against their types' enrolled art: a reading of none on a tile
        that shows either (:data:`EMPTY_SAME`, :data:`ART_SAME`; only closely, :data:`FLIP_SAME`, where
        the art hides the seat's members, :data:`HIDE_SHARE`) is sure (:data:`EMPTY_CONF`), a reading
        of one member on a tile that shows either closely (:data:`FLIP_SAME`) becomes none; on art that
        hides the members any reading of none is held against them, and one no look shows closely is
        left at most :data:`HIDE_CONF` sure. A stream
        then learns the looks of the tiles read free (:data:`LEARN_CONF`; never from a reading turned
        to none here) and forgets those whose tile changed."""
        asked = np.asarray(inside, bool) & np.isin(np.arange(len(tiles)), fresh)  # in view, counted afresh
        thumbs = thumbnails(win, TABLE_PX)
        q = thumbs.astype(np.float32) / 255.0
        table = np.full(len(tiles), np.nan, np.float32)
        art = np.full(len(tiles), np.nan, np.float32)
        looks: dict[int, np.ndarray] = {}
        if self.learn:
            for j, c in enumerate(tiles):
                look = self.table_bare.get(c)
                if look is not None and look[0] != labels[j]:
                    del self.table_bare[c]  # another tile or its other side lies there now
                elif look is not None and asked[j]:
                    looks[j] = look[1]
        if looks:
            at = list(looks)
            ref = BareLook([str(j) for j in at], np.clip(np.stack(list(looks.values())) + 0.5, 0, 255).astype(np.uint8))
            table[at] = ref.disagreement([str(j) for j in at], q[at])
            self.last_table.update({tiles[j]: float(table[j]) for j in at})
        # where the art hides the seat's members, a look vouches for none only as closely as for one taken away
        hides = np.zeros(len(tiles), bool)
        for j in np.flatnonzero(asked):
            share = self._hidden(ctx, labels[j], tiles[j][0])
            if share is not None:
                self.last_hide[tiles[j]] = share
                hides[j] = share > HIDE_SHARE
        empty_same = np.where(hides, FLIP_SAME, EMPTY_SAME)
        art_same = np.where(hides, FLIP_SAME, ART_SAME)
        with np.errstate(invalid="ignore"):  # NaN: no look kept, nothing enrolled
            settled = (table < FLIP_SAME) | ((table < empty_same) & np.array([out[c][0] == 0 for c in tiles]))
        # the art is asked where the counter reads one member, or none unsurely (below LEARN_CONF) or on
        # art that hides the seat's members (HIDE_SHARE): a window with more members would not show the art
        ask = [
            j
            for j, (n, conf) in enumerate(out[c] for c in tiles)
            if asked[j] and not settled[j] and (n == 1 or (n == 0 and (conf < LEARN_CONF or hides[j])))
        ]
        for seat in sorted({tiles[j][0] for j in ask}):
            enrolled = self._art_looks(ctx, seat)
            if enrolled is None:
                continue
            pairs = [(j, key) for j in ask if tiles[j][0] == seat for key in enrolled[1].get(labels[j], [])]
            if not pairs:
                continue
            shares = enrolled[0].disagreement([k for _, k in pairs], q[[j for j, _ in pairs]])
            for (j, _), share in zip(pairs, shares, strict=True):
                art[j] = min(float(share), float(np.nan_to_num(art[j], nan=1.0)))
            self.last_art.update({tiles[j]: (float(art[j]), out[tiles[j]][0]) for j, _ in pairs})
        with np.errstate(invalid="ignore"):
            free = (table < empty_same) | (art < art_same)
            clear = (table < FLIP_SAME) | (art < FLIP_SAME)
        for j, c in enumerate(tiles):
            n, conf = out[c]
            flipped = n == 1 and bool(clear[j])
            if flipped or (n == 0 and free[j]):
                n, conf = out[c] = (0, max(EMPTY_CONF, conf if n == 0 else 0.0))
            elif n == 0 and hides[j] and conf > HIDE_CONF:  # hiding art no look vouches for: unsure
                n, conf = out[c] = (0, HIDE_CONF)
            if self.learn and asked[j] and n == 0 and conf >= LEARN_CONF and not flipped:
                old = looks.get(j) if table[j] < empty_same[j] else None  # a look no longer shown: afresh
                self.table_bare[c] = (labels[j], kept_look(old, thumbs[j].astype(np.float32), LOOK_WEIGHT))

    def _hidden(self, ctx: FrameContext, label: str, seat: int) -> float | None:
        """The share of a count window's inner disc (as :class:`~vision.bare.BareLook` compares it)
        where the bare tile ``label`` looks like ``seat``'s colour (:meth:`_background` above 0.5), or
        None when the type was never enrolled."""
        key = (label, seat)
        if key not in self._hide:
            bg = self._background(ctx, label, seat)
            if bg is None:
                return None
            self._hide[key] = float((bg[disc(bg.shape[0], DISC_RADIUS)] > 0.5).mean())
        return self._hide[key]

    def _art_looks(self, ctx: FrameContext, seat: int) -> tuple[BareLook, dict[str, list[str]]] | None:
        """The enrolled windows of every tile type as thumbnails of a count window turned as ``seat``'s
        (TABLE_PX), and each label's keys among them; None when nothing was enrolled."""
        if seat not in self._art:
            got = None
            if self.examples is not None and len(self.examples[1]):
                maps: list[np.ndarray] = []
                by: dict[str, list[str]] = {}
                for label in sorted(set(self.examples[1]) - {EMPTY}):  # at most ART_EXAMPLES of each, spread
                    wins = enrolled_windows(self.examples, label)
                    assert wins is not None  # a label of the examples
                    for w in wins[np.linspace(0, len(wins) - 1, min(len(wins), ART_EXAMPLES)).round().astype(int)]:
                        by.setdefault(label, []).append(f"{label}#{len(maps)}")
                        maps.append(_to_count_window(w, ctx, seat))
                if maps:
                    keys = [k for label in by for k in by[label]]
                    got = (BareLook(keys, thumbnails(np.stack(maps), TABLE_PX)), by)
            self._art[seat] = got
        return self._art[seat]

    def _count(
        self,
        ctx: FrameContext,
        tiles: list[tuple[int, Hex]],
        labels: list[str],
        ps: PatchSet,
        win: np.ndarray,
        inside: np.ndarray,
        out: dict[tuple[int, Hex], tuple[int, float]],
    ) -> tuple[list[int], np.ndarray | None]:
        """The counter's reading of every tile into ``out`` (their count windows ``ps``, cut as ``win``);
        those whose windows did not change since a stream last read them keep that reading (the count
        cache). Returns the tiles counted afresh (indices into ``tiles``) and the cache's thumbnails of
        the windows (None without a cache)."""
        if self.count_cache is not None:
            hits, misses, thumbs = self.count_cache.split(ctx.reg.serial, list(tiles), win)
        else:
            hits, misses, thumbs = {}, list(range(len(tiles))), None
        for i, value in hits.items():
            out[tiles[i]] = value  # type: ignore[assignment]
        if not misses:
            return misses, thumbs
        win = win[misses]
        like = np.empty(win.shape[:3], np.float32)
        labs = lab(win)
        for seat in {tiles[i][0] for i in misses}:
            idx = [j for j, i in enumerate(misses) if tiles[i][0] == seat]
            _, ref, spread = self.colours[seat]
            like[idx] = likeness(labs[idx], ref, colour_sigma(spread))
        if self.member_art > 0 and self.examples is not None:
            # the tile's own art, as far as it looks like the seat's colour, is not a member
            for j, i in enumerate(misses):
                bg = self._background(ctx, labels[i], tiles[i][0])
                if bg is not None:
                    like[j] = np.clip(like[j] - self.member_art * bg, 0.0, 1.0)
        lean = None
        if self.counter.leans:  # the counter is told how pieces lean in each window
            lean = lean_ramps(leans(ctx.reg, ps)[misses], ps.px)
        probs = self.counter.probabilities(win, like, lean)
        for j, i in enumerate(misses):
            k = int(probs[j].argmax())
            conf = float(probs[j, k]) * (1.0 if inside[i] else 0.5)
            out[tiles[i]] = (k, conf)
        return misses, thumbs


def _to_count_window(hex_map: np.ndarray, ctx: FrameContext, seat: int) -> np.ndarray:
    """A map in a hex window's geometry (HEX_PATCH_MM a side, turned as the seat's tiles) resampled
    into a count window's (COUNT_PATCH_MM, turned as the seat), 0 outside the hex window."""
    lay = ctx.regions.layout
    scale = ctx.regions.scale
    hp, cp = hex_map.shape[0], COUNT_PX
    hex_mm, count_mm = HEX_PATCH_MM * scale, COUNT_PATCH_MM * scale
    turn = lay.hex_rotation(seat) - lay.seats[seat].rotation
    # count pixel -> mm about the centre -> turned into the hex window's frame -> hex pixel
    a = np.radians(turn)
    rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    k = (count_mm / cp) * (hp / hex_mm)
    m = k * rot
    c_in, c_out = (cp - 1) / 2.0, (hp - 1) / 2.0
    t = np.array([c_out, c_out]) - m @ np.array([c_in, c_in])
    affine = np.hstack([m, t[:, None]]).astype(np.float64)
    return cv2.warpAffine(
        hex_map, affine, (cp, cp), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT
    )


def members_of(readings: list[HexReading]) -> dict[tuple[int, Hex], dict[str, int]]:
    """Members per hex of a reading (a helper for tests and evaluation)."""
    return {(r.seat, r.hex): dict(r.members) for r in readings}
