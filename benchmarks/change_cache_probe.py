"""How much a window's thumbnail moves between frames of a stream, for the readers' change cache.

A diagnostic for docs/benchmarks.md ("a sixteenth part"), choosing ``ChangeCache.mean_threshold``
(``games/tribes/vision/readers/base.py``). It runs the tracker evaluation's games
(``benchmarks/tracker_eval.py``, whatever arguments follow ``--``) with every change cache watched:
each time a cache looks a window up, the window's 10 x 10 block means against the ones stored for
that place. Printed per cache (named by the reader and method that asks it: the land's hexes and
counts, the row's slots, the board's positions): how many look-ups no single cell would call changed (every cell under
``threshold``), and how their average move over the cells is spread — the windows nothing touched
sit at the left, a change too faint for any one cell at the right. Run from the repository root::

    PYTHONPATH=. python benchmarks/change_cache_probe.py -- --source recognizer --games 1 --only 1 \
        --moves 30 --family pale
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

BINS = [0, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.01, 0.012, 0.015, 0.02, 1.0]


def _asker() -> str:
    """The reader module and method that looked a window up (past the shared helpers in ``base``)."""
    f = sys._getframe(2)
    while f is not None:
        name = f.f_code.co_filename
        if "/readers/" in name and not name.endswith("base.py"):
            return f"{name.rsplit('/', 1)[-1][:-3]}.{f.f_code.co_name}"
        f = f.f_back  # type: ignore[assignment]
    return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="thumbnail moves seen by the readers' change caches")
    ap.add_argument("rest", nargs="*", help="arguments for tracker_eval.py (after --)")
    a = ap.parse_args(argv)
    sys.path.insert(0, "benchmarks")
    import tracker_eval

    from games.tribes.vision.readers.base import ChangeCache

    seen: dict[int, list[tuple[float, float]]] = {}
    sizes: dict[int, str] = {}
    original = ChangeCache.split

    def watched(self: ChangeCache, serial: int, keys: list[object], windows01: np.ndarray) -> Any:
        if serial == self.serial:
            thumbs = self.thumbnails(windows01)
            for i, k in enumerate(keys):
                got = self.store.get(k)
                if got is not None:
                    diff = np.abs(got[0] - thumbs[i])
                    seen.setdefault(id(self), []).append((float(diff.max()), float(diff.mean())))
            sizes[id(self)] = f"{_asker()}: {self.cells} cells, windows of {windows01.shape[1]} px"
        return original(self, serial, keys, windows01)

    ChangeCache.split = watched  # type: ignore[method-assign]
    tracker_eval.main([*a.rest, "--jobs", "1"])
    threshold = ChangeCache().threshold
    print(f"\naverage move over the cells of look-ups with every cell under {threshold}:")
    print("| cache | look-ups | " + " | ".join(f"<{b}" for b in BINS[1:-1]) + f" | >={BINS[-2]} | max |")
    print("|---|---|" + "---|" * (len(BINS) + 0))
    for key, rows in seen.items():
        v = np.array(rows)
        quiet = v[v[:, 0] < threshold, 1]
        counts = np.histogram(quiet, bins=BINS)[0]
        top = f"{quiet.max():.4f}" if len(quiet) else "-"
        print(f"| {sizes[key]} | {len(v)} | " + " | ".join(str(int(c)) for c in counts) + f" | {top} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
