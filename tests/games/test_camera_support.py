"""Every game's camera support, where it has one, is what the chassis expects (games.api.CameraSupport),
and its tracker policy answers the tracker's questions (tracker.policy.TrackerPolicy)."""

from __future__ import annotations

import inspect

import pytest

import games
from games.api import CameraSupport
from tracker.policy import TrackerPolicy


def _protocol_methods(proto: type) -> set[str]:
    return {n for n, v in vars(proto).items() if not n.startswith("_") and callable(v)}


CAMERA_GAMES = [g for g in games.available(hidden=True) if games.get(g).camera is not None]


def test_tribes_has_camera_support():
    assert "tribes" in CAMERA_GAMES


@pytest.mark.parametrize("gid", CAMERA_GAMES)
def test_camera_support_and_policy_have_every_method_of_the_protocol(gid):
    camera = games.get(gid).camera()
    for name in _protocol_methods(CameraSupport):
        assert callable(getattr(camera, name, None)), f"{gid}: CameraSupport.{name} missing"
    policy = camera.policy()
    for name in _protocol_methods(TrackerPolicy):
        assert callable(getattr(policy, name, None)), f"{gid}: TrackerPolicy.{name} missing"
    for attr in ("rules", "residual_kinds", "residual_max"):
        assert hasattr(policy, attr)
    assert policy.rules is games.get(gid).rules
    # signatures match the protocol's parameter names (keyword use by the chassis)
    for name in ("view_parts", "owner_of", "propose", "unverified"):
        want = list(inspect.signature(getattr(TrackerPolicy, name)).parameters)[1:]
        got = list(inspect.signature(getattr(policy, name)).parameters)
        assert got == want, (name, got, want)
