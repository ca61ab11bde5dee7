"""Where drifting light costs bare tiles: per frame of the diagnosis sessions, the bare tiles (no member
on them) read wrong, how much of their middle the sensor clipped, and how far their colour moved.

For each session of ``vision_diag.py``'s sets (the same options and cache) and each frame: the bare
tiles read wrong of those in view, the light's exposure times the camera's gain (from the render's
truth), the share of the tiles' centre pixels at 250 or more in any channel, and the median over the
tiles of the largest per-channel change (log) of their inner disc's mean colour, normalised and
divided by the light field, since the session's first frame that showed them (what the light
follower leaves). Every frame is read on its own, as ``vision_diag.py`` reads it. Example (the
twenty-ninth part of issue 20's benchmarks)::

    PYTHONPATH=. python benchmarks/clipping_probe.py --set tune --sessions 24 --every 1 --drift all --family pale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cv2
import numpy as np
import vision_diag as vd

from games.tribes.rules.profile import default_profile
from games.tribes.vision.readers.base import FrameContext, disc_mask
from games.tribes.vision.recognizer import Recognizer

CLIPPED = 250


def _field(truth: dict[str, Any], key: str) -> dict[str, Any]:
    v = truth[key]
    return v if isinstance(v, dict) else dict(json.loads(v))


def main(argv: list[str] | None = None) -> int:
    a = vd.probe_args(argparse.ArgumentParser(description=__doc__.splitlines()[0]), argv)
    cv2.setNumThreads(1)
    prof = default_profile()
    totals = [0, 0]
    for name, seated, enr, frames in vd.sessions(a):
        rec = Recognizer(seated, prof, enr, None, stream=False)
        first: dict[tuple[Any, ...], np.ndarray] = {}
        row = []
        for i, (png, truth, _kelvin, _tilt) in enumerate(frames):
            img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
            obs = rec.read(img, frame_no=i)
            read = {(h.seat, h.hex): h for h in obs.hexes}
            bare = [h for h in truth["hexes"] if h["tile"] and h["in_view"] and not sum(h["members"].values())]
            wrong, clipped, moved = 0, [], []
            reg = rec.last_result.registration if rec.last_result is not None else None
            ctx = None
            if reg is not None:
                ctx = FrameContext(img, reg, rec.last_norm, rec.regions, rec.sampler, {}, (), rec.last_light)
            for h in bare:
                c = (h["seat"], tuple(h["hex"]))
                if vd.hex_label(read.get(c)) != ("exhausted" if h["exhausted"] else h["resource"]):
                    wrong += 1
                x, y = (int(v) for v in h["center"])
                clipped.append(float((img[y - 6 : y + 7, x - 6 : x + 7].max(axis=2) >= CLIPPED).mean()))
                if ctx is not None:
                    w = ctx.windows(rec.regions.hex_patches([c]))[0]
                    mean = w[disc_mask(w.shape[0], 0.3)].reshape(-1, 3).mean(axis=0).astype(np.float64)
                    key = (c, h["resource"], h["exhausted"])
                    if key in first:
                        moved.append(float(np.abs(np.log(np.maximum(mean, 1e-3) / first[key])).max()))
                    else:
                        first[key] = np.maximum(mean, 1e-3)
            light, fx = _field(truth, "light"), _field(truth, "effects")
            totals[0] += wrong
            totals[1] += len(bare)
            row.append(
                f"{wrong}/{len(bare)} x{light['exposure'] * fx['gain']:.2f} "
                f"clip {np.mean(clipped) if clipped else 0:.2f} moved {np.median(moved) if moved else 0:.3f}"
            )
        print(name, " | ".join(row), flush=True)
    print(f"bare tiles read wrong: {totals[0]} of {totals[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
