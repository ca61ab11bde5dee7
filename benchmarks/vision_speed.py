"""Speed and memory of the camera pipeline on 1920 x 1080 frames (figures for docs/benchmarks.md).

Run from the repository root::

    PYTHONPATH=. python benchmarks/vision_speed.py              # ~1 minute
    PYTHONPATH=. python benchmarks/vision_speed.py --frames 20

First the frames are rendered (held-out ``sketch`` pack, tilted camera with lens distortion, warm
light, 4 players, positions spread over a game) and an enrollment is made from the setup frame;
both are written to a temporary folder. Then a **fresh process** that imports only the pipeline
(no renderer) reads them, so its peak resident memory is the pipeline's own:

* ``full read``: one recognizer reads positions from all over the game, as with a camera on a tripod
  (the registration is kept and the window maps are reused; every reader reads everything);
* ``stream, a move per frame``: a streaming recognizer reads consecutive positions, one move apart
  (the land reader re-reads only the hexes whose windows changed);
* ``single photo``: a new registration for every frame (``recognize IMAGE``), maps computed afresh.

Reported: median and 90th percentile milliseconds per stage and in total, the time to build each
scenario's recognizer from the enrollment file (the first encodes the enrolled examples; the later
ones find their vectors kept, ``games.tribes.vision.encoder.examples_memo``), and the peak RSS. The
machine is shared; figures move with its load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")


def render(folder: Path, frames: int) -> None:
    import cv2
    import numpy as np

    from games.tribes.rules.game import simulate
    from games.tribes.rules.profile import default_profile
    from games.tribes.sim.packs import builtin_pack
    from games.tribes.sim.render import Renderer
    from games.tribes.vision.enrollment import Enroller, labels_from_state
    from games.tribes.vision.layout import default_layout
    from sim.camera import Camera
    from sim.effects import Effects
    from sim.lighting import Light

    lay = default_layout()
    game = simulate(4, 424242, "greedy")
    r = Renderer(lay, builtin_pack("sketch"), "walnut", seed=1)
    cam = Camera.framing(
        lay, width=1920, height=1080, tilt=22, azimuth=130, roll=4, fov=70, dist=(-0.06, 0.01, 0, 0, 0)
    )
    light = Light(kelvin=3200, white_balance=0.5, unevenness=0.3)
    fx = Effects(noise=3.0)
    setup = r.render(game.states[1], cam, light, fx).image
    en = Enroller(lay, default_profile())
    obs, seats = labels_from_state(game.states[1])
    en.add_frame(setup, obs, seats)
    en.build().save(folder / "box.json")
    for i, mv in enumerate(np.linspace(20, len(game.states) - 1, frames).round().astype(int)):
        cv2.imwrite(str(folder / f"f{i:03d}.png"), r.render(game.states[int(mv)], cam, light, fx, frame_seed=i).image)
    first = len(game.states) // 2
    for i in range(frames):  # consecutive positions: one move apart
        img = r.render(game.states[first + i], cam, light, fx, frame_seed=500 + i).image
        cv2.imwrite(str(folder / f"m{i:03d}.png"), img)


def measure(folder: Path, threads: int) -> dict[str, object]:
    import cv2
    import numpy as np

    cv2.setNumThreads(threads)
    from games.tribes.rules.profile import default_profile
    from games.tribes.vision.layout import default_layout
    from games.tribes.vision.recognizer import Recognizer

    lay, prof = default_layout(), default_profile()
    spread = [cv2.imread(str(p)) for p in sorted(folder.glob("f*.png"))]
    moves = [cv2.imread(str(p)) for p in sorted(folder.glob("m*.png"))]
    out: dict[str, object] = {}
    builds: list[float] = []
    scenarios = (
        ("full read", spread, False),
        ("stream, a move per frame", moves, True),
        ("single photo", spread, False),
    )
    for scenario, images, stream in scenarios:
        # a move per frame looks like a hand to the motion gate (it waits longer then): read anyway
        t0 = time.perf_counter()
        rec = Recognizer(lay, prof, folder / "box.json", stream=stream, quiet=0, threads=threads, read_unsettled=stream)
        builds.append(round((time.perf_counter() - t0) * 1000, 1))
        rec.read(images[0])  # warm-up (first onnxruntime run, maps)
        per: dict[str, list[float]] = {}
        for img in images[1:] + images[:1] if stream else images * 2:
            if scenario == "single photo":
                rec.reset()
                rec.sampler._maps.clear()
            t0 = time.perf_counter()
            obs = rec.read(img)
            wall = (time.perf_counter() - t0) * 1000
            assert obs.registered and (obs.settled or stream)
            for k, v in rec.timings.items():
                per.setdefault(k, []).append(v)
            per.setdefault("wall", []).append(wall)
        out[scenario] = {
            k: (round(float(np.median(v)), 2), round(float(np.percentile(v, 90)), 2)) for k, v in per.items()
        }
    out["build_ms"] = builds  # the first encodes the enrolled examples, the others find them kept
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out["frames"] = len(spread)
    out["threads"] = threads
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="camera pipeline speed and memory")
    ap.add_argument("--frames", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1, help="OpenCV and onnxruntime threads (default 1)")
    ap.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # internal: the measuring process
    a = ap.parse_args(argv)
    if a.measure:
        print(json.dumps(measure(a.measure, a.threads)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        render(folder, a.frames)
        env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", "."))
        res = subprocess.run(
            [sys.executable, __file__, "--measure", str(folder), "--threads", str(a.threads)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if res.returncode != 0:
            sys.stderr.write(res.stderr)
            return res.returncode
        data = json.loads(res.stdout.strip().splitlines()[-1])
    print(json.dumps(data, indent=1))
    for scenario in ("full read", "stream, a move per frame", "single photo"):
        d = data[scenario]
        print(f"\n{scenario} ({data['threads']} thread(s)); median / p90 ms")
        print("| stage | median | p90 |\n|---|---|---|")
        for k, (med, p90) in d.items():
            print(f"| {k} | {med} | {p90} |")
    first, *later = data["build_ms"]
    print(f"\nbuilding a recognizer from the enrollment file: {first} ms, then {', '.join(map(str, later))} ms")
    print(f"peak resident memory of the pipeline process: {data['peak_rss_mb']} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
