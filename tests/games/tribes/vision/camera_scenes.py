"""Rendered scenes shared by the camera pipeline's tests (cached for the whole test session).

One simulated 4-player game on the default layout with the ``classic`` pack, seen by a tilted
camera with mild lens distortion under warm, uneven light: the setup frame (for enrollment), a
frame after the placements (with a one-of-each extra table) and a mid-game frame. 1280 x 720 keeps
the renders and reads fast.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from games.tribes.rules.game import simulate
from games.tribes.rules.profile import default_profile
from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.render import Frame, Renderer
from games.tribes.vision.enrollment import Enroller, Enrollment, labels_from_state, labels_from_table
from games.tribes.vision.layout import default_layout
from games.tribes.vision.table import LandTile, TableModel
from sim.camera import Camera
from sim.effects import Effects
from sim.lighting import Light

LIGHT = Light(kelvin=3600, white_balance=0.6, unevenness=0.2, shadow=0.4)
NEW_LIGHT = dataclasses.replace(
    LIGHT,
    kelvin=6000.0,  # colder than the enrollment's 3600 K
    exposure=0.8,  # and dimmer
    hotspot=(1150.0, 950.0),  # the lamp moved to a far corner
    unevenness=0.5,
    glare=0.7,  # and shines on the reference patch
    glare_at=(150.0, 40.0),
    glare_radius=50.0,
)
"""Another light than the enrollment's: colder, dimmer, the lamp moved, a reflection on the patch."""
FX = Effects(noise=2.0)


@cache
def game() -> Any:
    return simulate(4, 21, "greedy")


@cache
def renderer() -> Renderer:
    return Renderer(default_layout(), builtin_pack("classic"), "oak", seed=2)


@cache
def camera(tilt: float = 18.0, azimuth: float = 40.0) -> Camera:
    return Camera.framing(
        default_layout(), width=1280, height=720, tilt=tilt, azimuth=azimuth, roll=3.0, dist=(-0.05, 0.01, 0, 0, 0)
    )


@cache
def frame(move: int, tilt: float = 18.0, azimuth: float = 40.0) -> Frame:
    return renderer().render(game().states[move], camera(tilt, azimuth), LIGHT, FX, frame_seed=move)


def one_of_each() -> TableModel:
    """The setup table plus a tile of every resource and an exhausted tile on seat 0's land."""
    setup = game().states[1]
    model = TableModel.from_state(setup)
    land = model.seats[0].land
    spots = [(-1, 0), (-1, 1), (0, -1), (1, -1), (2, -1), (2, 0)]
    todo = [LandTile(r) for r in setup.profile.resources] + [LandTile("goat", True)]
    for h, t in zip([h for h in spots if h not in land], todo, strict=False):
        land[h] = t
    return model


@cache
def extra_frame() -> Frame:
    return renderer().render(one_of_each(), camera(), LIGHT, FX, frame_seed=99)


@cache
def enrollment() -> Enrollment:
    en = Enroller(default_layout(), default_profile())
    obs, seats = labels_from_state(game().states[1])
    en.add_frame(frame(1).image, obs, seats, "setup")
    obs2, seats2 = labels_from_table(one_of_each())
    en.add_frame(extra_frame().image, obs2, seats2, "extra")
    en.add_pack(
        builtin_pack("classic"), [k for k in builtin_pack("classic").faces if k.startswith(("event-", "achievement-"))]
    )
    return en.build()


@cache
def dark_renderer() -> Renderer:
    """The same table with the ``classic`` pack turned into the ``dark`` art family (low key, low
    contrast: black pieces on it are as dark as the art)."""
    from games.tribes.sim.families import family_pack

    return Renderer(default_layout(), family_pack("classic", "dark"), "oak", seed=2)


@cache
def dark_enrollment() -> Enrollment:
    """An enrollment of the dark-art box, as :func:`enrollment` of the classic one."""
    return enrollment_of(dark_renderer())


@cache
def pale_renderer() -> Renderer:
    """The ``classic`` pack turned into the ``pale`` art family on a white laminate table: the faces
    are nearly the table's colour, their symbols faint."""
    from games.tribes.sim.families import family_pack

    return Renderer(default_layout(), family_pack("classic", "pale"), "laminate", seed=2)


@cache
def pale_enrollment() -> Enrollment:
    """An enrollment of the pale box on laminate, as :func:`enrollment` of the classic one."""
    return enrollment_of(pale_renderer())


def enrollment_of(box: Renderer) -> Enrollment:
    """An enrollment of the box ``box`` renders, as :func:`enrollment` of the classic one: its setup
    photo, the extra photo, and its pack's event and achievement faces."""
    en = Enroller(default_layout(), default_profile())
    obs, seats = labels_from_state(game().states[1])
    en.add_frame(box.render(game().states[1], camera(), LIGHT, FX, frame_seed=1).image, obs, seats, "setup")
    obs2, seats2 = labels_from_table(one_of_each())
    en.add_frame(box.render(one_of_each(), camera(), LIGHT, FX, frame_seed=99).image, obs2, seats2, "extra")
    en.add_pack(box.pack, [k for k in box.pack.faces if k.startswith(("event-", "achievement-"))])
    return en.build()
