"""An art pack's faces are brought to the table's exposure and white point before they are enrolled
(:meth:`Enroller._pack_gain`): a capture-sheet photo is balanced on the paper, so a face keeps
whatever the photo's lamp gave it, while the recognizer compares them with what the camera sees."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.rules.profile import default_profile
from games.tribes.sim.packs import builtin_pack
from games.tribes.vision.artpack import ArtPack
from games.tribes.vision.enrollment import Enroller, labels_from_state
from games.tribes.vision.layout import default_layout

TINT = np.array([0.78, 0.84, 0.95])
"""A dim, pinkish photo (BGR): as capture-sheet photos of pale tiles came out."""


def _faces() -> dict[str, np.ndarray]:
    pack = builtin_pack("classic")
    return {k: v for k, v in pack.faces.items() if k.startswith(("event-", "achievement-"))}


def _tinted(faces: dict[str, np.ndarray], tint: np.ndarray) -> ArtPack:
    return ArtPack("photos", {k: np.clip(v * tint, 0, 255).astype(np.uint8) for k, v in faces.items()})


def _enroller() -> Enroller:
    en = Enroller(default_layout(), default_profile())
    obs, seats = labels_from_state(cs.game().states[1])
    en.add_frame(cs.frame(1).image, obs, seats, "setup")
    return en


def _windows(en: Enroller, label: str) -> np.ndarray:
    e = en.build()
    return e.windows["board"][[x == label for x in e.labels["board"]]].astype(np.float32)


@pytest.fixture(scope="module")
def enrolled() -> dict[str, Any]:
    faces = _faces()
    out: dict[str, Any] = {}
    for name, tint in (("plain", np.ones(3)), ("tinted", TINT)):
        en = _enroller()
        en.add_pack(_tinted(faces, tint), source=name)
        out[name] = en
    return out


def test_the_gains_undo_the_photos_tint(enrolled):
    (_, plain, n_plain), (_, tinted, n_tinted) = enrolled["plain"].pack_gains[0], enrolled["tinted"].pack_gains[0]
    # the era-1 achievements lie face up at setup, the later eras' backs face down: seen on both
    shown = [k for k in _faces() if enrolled["plain"].shown_by_frames(k)]
    assert len(shown) >= 4 and any(k.startswith("achievement-back-") for k in shown)
    assert n_plain == n_tinted == len(shown)
    # whatever the plain pack needs to match the table, the tinted one needs that times 1/tint
    assert np.allclose(tinted / plain, 1 / TINT, rtol=0.03), (plain, tinted)
    assert any("gains" in n and "B " in n for n in enrolled["tinted"].notes)


def test_an_era_2_face_from_a_tinted_photo_is_enrolled_as_from_a_plain_one(enrolled):
    label = "achievement:leder"  # era 2: face down at setup, known from the pack alone
    plain, tinted = _windows(enrolled["plain"], label), _windows(enrolled["tinted"], label)
    assert len(plain) == len(tinted) > 0
    c = plain.shape[1] // 2
    mid = (slice(None), slice(c - 8, c + 8), slice(c - 8, c + 8))
    as_photographed = np.abs(plain[mid] * TINT.astype(np.float32) - plain[mid]).mean()
    assert np.abs(tinted[mid] - plain[mid]).mean() < 0.15 * as_photographed


def test_one_face_cut_wrongly_does_not_move_the_gains(enrolled):
    faces = _faces()
    wrong = dict(faces)
    era1 = sorted(k for k in faces if k.startswith("achievement-") and "-back-" not in k)
    first = next(k for k in era1 if enrolled["plain"].shown_by_frames(k))
    wrong[first] = np.full_like(faces[first], 40)  # a face cut from the wrong place: dark paper edge
    en = _enroller()
    en.add_pack(_tinted(wrong, TINT), source="photos")
    _, gain, n = en.pack_gains[0]
    assert n == enrolled["tinted"].pack_gains[0][2]
    assert np.allclose(gain, enrolled["tinted"].pack_gains[0][1], rtol=0.05)


def test_a_pack_sharing_no_face_with_the_table_is_enrolled_as_it_is():
    faces = {k: v for k, v in _faces().items() if k.startswith("event-")}  # no event lies out at setup
    en = _enroller()
    assert en.add_pack(_tinted(faces, TINT), source="events") > 0
    _, gain, n = en.pack_gains[0]
    assert n == 0 and np.array_equal(gain, np.ones(3))
    assert not any("gains" in x for x in en.notes)


def test_faces_that_disagree_among_themselves_leave_the_pack_as_it_is(enrolled):
    faces = _faces()
    shown = sorted(k for k in faces if enrolled["plain"].shown_by_frames(k))
    # every other face the table showed too comes from a photo twice as bright as the rest
    mixed = {k: np.clip(v * (0.45 if k in shown[::2] else 1.0), 0, 255).astype(np.uint8) for k, v in faces.items()}
    en = _enroller()
    en.add_pack(ArtPack("photos", mixed), source="photos")
    _, gain, n = en.pack_gains[0]
    assert n == 0 and np.array_equal(gain, np.ones(3))
    assert any("disagree" in x for x in en.notes)
