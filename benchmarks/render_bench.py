"""Renderer speed on ONE core: milliseconds per 1920x1080 frame (median and 90th percentile).

Run from the repository root (PYTHONPATH=. makes it use this checkout's packages)::

    PYTHONPATH=. python benchmarks/render_bench.py            # all scenarios, about a minute
    PYTHONPATH=. python benchmarks/render_bench.py --frames 15 --quick

The process is pinned to one CPU and OpenCV to one thread. Scenarios:

* ``new position``: every frame shows another position of a simulated 4-player game (tiles and
  pieces drawn afresh), fixed camera (tilt 15 degrees, mild distortion) and light, sensor noise: a
  camera on a tripod watching a game. This is the figure the target (<= 50 ms) is about.
* ``hand moving``: the same position with a hand at a new place every frame (video between two
  table changes; the table canvas is cached).
* ``new conditions``: every frame another position AND random camera, light, effects (including
  JPEG when drawn), texture: dataset generation; pays for new camera maps and light fields.
* ``ground truth``: building the ground-truth document of a frame (no image).
* ``4K new position``: as the first, at 3840x2160.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision  # noqa: E402
from games.tribes.rules.game import simulate  # noqa: E402
from games.tribes.sim.packs import builtin_pack  # noqa: E402
from games.tribes.sim.randomize import random_conditions  # noqa: E402
from games.tribes.sim.render import Renderer  # noqa: E402
from games.tribes.vision.layout import default_layout  # noqa: E402
from sim.camera import Camera  # noqa: E402
from sim.effects import Effects  # noqa: E402
from sim.hands import Hand  # noqa: E402
from sim.lighting import Light  # noqa: E402

cv2.setNumThreads(1)


def timed(fn: Callable[[int], None], n: int, warmup: int = 2) -> list[float]:
    for i in range(warmup):
        fn(i)
    out = []
    for i in range(n):
        t = time.perf_counter()
        fn(i + warmup)
        out.append((time.perf_counter() - t) * 1000)
    return out


def summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))]
    return f"| {name} | {statistics.median(ms):.1f} | {p90:.1f} | {len(ms)} |"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=40, help="timed frames per scenario (default 40)")
    ap.add_argument("--quick", action="store_true", help="skip the 4K and new-conditions scenarios")
    args = ap.parse_args()
    n = args.frames
    layout = default_layout()
    game = simulate(4, 1, "greedy")
    states = game.states[8::4]
    pack = builtin_pack("classic")
    renderer = Renderer(layout, pack, "oak", seed=1)
    cam = Camera.framing(layout, tilt=15, azimuth=20, dist=(-0.08, 0.01, 0, 0, 0))
    light = Light(kelvin=4200, glare=0.3, glare_at=(700.0, 400.0))
    fx = Effects(noise=2.0)
    rows = []

    def new_position(i: int) -> None:
        renderer.render(states[i % len(states)], cam, light, fx, frame_seed=i, truth=False)

    rows.append(summary("new position (1920x1080)", timed(new_position, n)))

    mid = states[len(states) // 2]

    def hand_moving(i: int) -> None:
        t = i / max(n, 1)
        hand = Hand(0, (300.0 + 600.0 * t, 700.0 - 200.0 * t), 80.0, "meeple", (196, 40, 36))
        renderer.render(mid, cam, light, fx, [hand], frame_seed=i, truth=False)

    rows.append(summary("hand moving (1920x1080)", timed(hand_moving, n)))

    def truth(i: int) -> None:
        renderer.truth_of(states[i % len(states)], cam, light, fx)

    rows.append(summary("ground truth only", timed(truth, n)))

    if not args.quick:
        renderers = {}

        def new_conditions(i: int) -> None:
            cond = random_conditions(1000 + i, layout, 1920, 1080)
            key = (cond.pack, cond.texture)
            if key not in renderers:
                renderers[key] = Renderer(layout, builtin_pack(cond.pack), cond.texture, seed=1)
            renderers[key].render(
                states[i % len(states)], cond.camera, cond.light, cond.effects, frame_seed=i, truth=False
            )

        # build all packs and static layers first so that only per-frame work is timed
        for s in ("classic", "bold", "sketch"):
            builtin_pack(s)
        rows.append(summary("new conditions (1920x1080)", timed(new_conditions, n, warmup=4)))

        cam4k = Camera.framing(layout, width=3840, height=2160, tilt=15, azimuth=20, dist=(-0.08, 0.01, 0, 0, 0))

        def new_position_4k(i: int) -> None:
            renderer.render(states[i % len(states)], cam4k, light, fx, frame_seed=i, truth=False)

        rows.append(summary("new position (3840x2160)", timed(new_position_4k, max(10, n // 3))))

    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(
        f"# renderer benchmark: one core ({platform.processor() or platform.machine()}), OpenCV {cv2.__version__}, "
        f"numpy {np.__version__}, load average {load[0]:.2f} at the end; vision from {vision.__path__[0]}"
    )
    print("| scenario | median ms | p90 ms | frames |")
    print("|---|---|---|---|")
    for r in rows:
        print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
