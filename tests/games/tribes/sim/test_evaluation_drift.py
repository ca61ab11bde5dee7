"""The evaluation's light over a session (games.tribes.sim.evaluation): a steady session gives each
frame exactly what it always did; a drifting one starts at the light it was enrolled under, moves
smoothly to another within the valid ranges, is the same for the same seed, and the camera's gains
partly undo the change."""

from __future__ import annotations

import math

import numpy as np
import pytest

from games.tribes.rules.game import simulate
from games.tribes.sim.evaluation import (
    Drift,
    cast,
    frame_conditions,
    frame_variation,
    session_conditions,
    session_drift,
    session_drifts,
)
from games.tribes.sim.packs import builtin_pack
from games.tribes.sim.render import Renderer
from games.tribes.vision.layout import default_layout
from sim.camera import Camera
from sim.effects import Effects
from sim.lighting import Light

# frame_variation({"light": Light(kelvin=3300, exposure=1.1), "noise": 3}, default_rng([123, 9])),
# ten frames, as computed before drifting light existed: (kelvin, exposure, noise, motion blur,
# motion angle, defocus, jpeg)
BEFORE = [
    (3220.537429149096, 1.1488005003337707, 3.1670430745466884, 2.773942694611291, 19.776080078652868, 0.0, 64),
    (3362.584662237608, 1.058167067101022, 2.7654111282672407, 0.0, 80.54591089806075, 0.8584551416676687, None),
    (3229.8999902298497, 1.1001293239691776, 3.4912580305754823, 0.0, 152.26875491735024, 0.0, None),
    (3591.5101831520597, 1.1394012801210536, 3.3976338756363393, 0.0, 3.3984319462781443, 0.0, 62),
    (3209.612635510539, 1.081444118715355, 3.5577504872017705, 0.0, 102.45337950262163, 1.1911989186992273, 79),
    (3435.313716239115, 1.1490829901242547, 4.13952495924309, 1.5090365802591525, 115.89295394074433, 0.0, 79),
    (3216.30695819686, 1.0786154143456894, 3.3923706177361685, 2.112335619090141, 167.58437547071705, 0.0, None),
    (3129.5022925231524, 1.0954367797215043, 2.2027710373498857, 0.0, 18.248742935797463, 0.7233401984901695, 65),
    (3305.763572297125, 1.0672160817805312, 2.3583591984946297, 0.0, 24.863473732105717, 0.0, None),
    (3311.4532866475333, 1.1031168789287689, 3.0782192560416592, 0.0, 79.29651670924761, 0.0, None),
]


@pytest.fixture(scope="module")
def layout():
    return default_layout()


def _facts(lt: Light, fx: Effects) -> tuple:
    return (lt.kelvin, lt.exposure, fx.noise, fx.motion_blur, fx.motion_angle, fx.defocus, fx.jpeg)


@pytest.mark.parametrize("how", ["frame_variation", "frame_conditions"])
def test_a_steady_session_gives_what_frame_variation_always_gave(how: str) -> None:
    cond = {"light": Light(kelvin=3300.0, exposure=1.1), "noise": 3.0, "drift": None}
    rng = np.random.default_rng([123, 9])
    for f, want in enumerate(BEFORE):
        lt, fx = frame_variation(cond, rng) if how == "frame_variation" else frame_conditions(cond, f, 10, rng)
        assert _facts(lt, fx) == want
        assert lt == Light(kelvin=want[0], exposure=want[1])  # the rest of the light as it was
        assert fx.neutral


def test_drift_is_a_condition_of_its_own(layout) -> None:
    steady = session_conditions(3, 24, layout)
    drifting = session_conditions(3, 24, layout, drift=True)
    assert steady["drift"] is None and isinstance(drifting["drift"], Drift)
    assert steady["light"].kelvin == 3539.703703572065  # as before drift existed
    for k in ("camera", "light", "texture", "noise"):  # the rest of the session is the steady one
        assert drifting[k] == steady[k]
    again = session_conditions(3, 24, layout, drift=True)
    assert again["drift"] == drifting["drift"]  # the same seed, the same drift
    assert session_conditions(5, 24, layout, drift=True)["drift"] != drifting["drift"]
    assert [session_drifts(s, "half") for s in range(4)] == [False, True, False, True]
    assert not any(session_drifts(s, "off") for s in range(4)) and all(session_drifts(s, "all") for s in range(4))
    with pytest.raises(ValueError, match="drift"):
        session_drifts(0, "sometimes")


def test_a_drifting_session_starts_under_the_enrollment_light(layout) -> None:
    cond = session_conditions(5, 24, layout, drift=True)
    steady = dict(cond, drift=None)
    a = frame_conditions(cond, 0, 25, np.random.default_rng(7))
    b = frame_conditions(steady, 0, 25, np.random.default_rng(7))
    assert a == b  # the first frame: the light enrolled under, the same jitter, no camera gains
    # later frames draw the same jitter and effects as the steady session's
    ra, rb = np.random.default_rng(8), np.random.default_rng(8)
    for f in range(1, 25):
        (la, fa), (lb, fb) = frame_conditions(cond, f, 25, ra), frame_conditions(steady, f, 25, rb)
        assert (fa.noise, fa.motion_blur, fa.defocus, fa.jpeg) == (fb.noise, fb.motion_blur, fb.defocus, fb.jpeg)
    assert la != lb and not fa.neutral  # by the end the light has moved and the camera follows


def _random_light(rng: np.random.Generator, table: tuple[float, float]) -> Light:
    w, h = table
    return Light(
        kelvin=float(rng.uniform(2700, 6500)),
        white_balance=float(rng.uniform(0.3, 1.0)),
        exposure=float(rng.uniform(0.85, 1.15)),
        azimuth=float(rng.uniform(0, 360)),
        elevation=float(rng.uniform(35, 85)),
        unevenness=float(rng.uniform(0.0, 0.4)),
        hotspot=(float(rng.uniform(0, w)), float(rng.uniform(0, h))),
        glare=0.3,
        glare_at=(float(rng.uniform(0.1 * w, 0.9 * w)), float(rng.uniform(0.1 * h, 0.9 * h))),
    )


def test_the_light_moves_smoothly_within_the_ranges(layout) -> None:
    table = layout.table
    w, h = table
    n = 25
    for seed in range(60):
        rng = np.random.default_rng([4, seed])
        start = _random_light(rng, table)
        d = session_drift(start, table, rng)
        end = d.light
        assert 500 - 1e-9 <= abs(end.kelvin - start.kelvin) <= 1500 + 1e-9
        assert 0.6 - 1e-9 <= end.exposure / start.exposure <= 1.5 + 1e-9
        assert abs((end.azimuth - start.azimuth + 180) % 360 - 180) <= 60 + 1e-9
        assert abs(end.elevation - start.elevation) <= 15 + 1e-9
        assert abs(end.hotspot[0] - start.hotspot[0]) <= 0.25 * w + 1e-9
        assert abs(end.hotspot[1] - start.hotspot[1]) <= 0.25 * h + 1e-9
        assert 0 <= d.start < d.end <= 1 and d.end - d.start >= 0.45 - 1e-9
        ts = np.linspace(0, 1, n)
        lights = [d.light_at(start, float(t)) for t in ts]
        gains = [d.camera_gains(start, float(t)) for t in ts]
        assert lights[0] == start and gains[0] == (1.0, (1.0, 1.0, 1.0))
        assert lights[-1].kelvin == pytest.approx(end.kelvin) and lights[-1].exposure == pytest.approx(end.exposure)
        k = np.array([lt.kelvin for lt in lights])
        e = np.log([lt.exposure for lt in lights])
        # monotone from the start to the end, no step bigger than the steepest smooth step allows
        assert (np.diff(k) * np.sign(end.kelvin - start.kelvin) >= -1e-9).all()
        assert (np.diff(e) * np.sign(e[-1] - e[0]) >= -1e-9).all()
        steep = 1.5 / 0.45 / (n - 1) * 1.01  # the largest share of the change between two frames
        assert np.abs(np.diff(k)).max() <= steep * 1500
        assert np.abs(np.diff(e)).max() <= steep * math.log(1 / 0.6)
        az = np.array([lt.azimuth for lt in lights])
        assert (np.abs((np.diff(az) + 180) % 360 - 180) <= steep * 60).all()
        g = np.log([x[0] for x in gains])
        cg = np.log([x[1] for x in gains])
        assert np.abs(np.diff(g)).max() <= 0.08 and np.abs(np.diff(cg, axis=0)).max() <= 0.03
        # the camera undoes part of the change in brightness (exposure and colour cast), never more
        # than all of it; once it has caught up, exactly its share
        luma = np.array([0.114, 0.587, 0.299])
        total = math.log(end.exposure * (luma @ cast(end)) / (start.exposure * (luma @ cast(start))))
        assert abs(total + g[-1]) <= abs(total) + 1e-9
        if d.end <= 1 - d.lag:
            assert g[-1] == pytest.approx(-d.exposure_follow * total)
        for f in range(n):  # with the jitter, every frame is a valid light and valid effects
            lt, fx = frame_conditions({"light": start, "noise": 3.0, "drift": d}, f, n, rng)
            assert 2700 <= lt.kelvin <= 6500 and 0.2 <= lt.exposure <= 3 and 5 <= lt.elevation <= 90
            assert 0 <= lt.hotspot[0] <= w and 0 <= lt.hotspot[1] <= h
            assert 0.5 <= fx.gain <= 2 and all(0.6 <= v <= 1.6 for v in fx.channel_gains)


def test_the_camera_partly_undoes_a_change_of_exposure_on_a_render(layout) -> None:
    start = Light(kelvin=5000, exposure=0.7, unevenness=0.0, vignetting=0.0, hotspot=(500.0, 400.0))
    brighter = Light(kelvin=5000, exposure=1.05, unevenness=0.0, vignetting=0.0, hotspot=(500.0, 400.0))
    d = Drift(brighter, 0.0, 0.5, 0.0, 0.6, 0.6, (0.0, 0.0, 0.0))
    gain, gains = d.camera_gains(start, 1.0)
    assert gain == pytest.approx(1.5**-0.6) and gains == pytest.approx((1.0, 1.0, 1.0))
    cam = Camera.framing(layout, width=320, height=180, tilt=10)
    r = Renderer(layout, builtin_pack("classic"), "oak", seed=2)
    state = simulate(2, 3, "greedy").states[5]
    before = r.render(state, cam, start, Effects(noise=0.0), truth=False).image.astype(float)
    after = r.render(state, cam, d.light_at(start, 1.0), Effects(noise=0.0, gain=gain), truth=False).image
    ok = after.max(axis=2) < 250
    assert after[ok].astype(float).mean() / before[ok].mean() == pytest.approx(1.5**0.4, rel=0.03)
