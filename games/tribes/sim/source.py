"""A frame source drawn by the renderer: a whole Tribes game carried out by hands (tooling: the demo,
evaluations and tests feed it to the camera pipeline like any camera)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np


class RenderSource:
    """Frames of a game carried out by hands, drawn by the renderer (see :mod:`vision.video`)."""

    def __init__(
        self,
        game: Any,
        renderer: Any,
        camera: Any,
        light: Any = None,
        effects: Any = None,
        start: int | None = None,
        end: int | None = None,
        fps: float = 10.0,
        pace: Any = None,
    ) -> None:
        self.game, self.renderer, self.camera = game, renderer, camera
        self.light, self.effects = light, effects
        self.start, self.end, self.fps, self.pace = start, end, fps, pace
        self.name = "renderer"
        self.live = False
        self._frames: Iterator[tuple[int, Any]] | None = None
        self.truth: dict[str, Any] | None = None
        self.settled: bool = True

    def open(self) -> None:
        """Plan the frames (cheap; each is drawn when read)."""
        from games.tribes.sim.video import Pace, plan_video

        pack = self.renderer.pack
        colours = {s.colour: pack.colour(s.colour) for s in self.game.states[-1].players}
        pace = self.pace or Pace(fps=self.fps)
        plan = plan_video(self.game, self.renderer.layout, colours, pace, self.start, self.end)
        self._frames = iter(enumerate(plan.frames))

    def read(self) -> np.ndarray | None:
        """The next frame (its ground truth in :attr:`truth`), or None after the last."""
        if self._frames is None:
            return None
        item = next(self._frames, None)
        if item is None:
            return None
        i, fp = item
        fr = self.renderer.render(fp.model, self.camera, self.light, self.effects, fp.hands, frame_seed=i)
        self.truth = fr.truth
        self.settled = fp.settled
        return fr.image

    def close(self) -> None:
        """Forget the plan."""
        self._frames = None
