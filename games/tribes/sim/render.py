"""The renderer: (rules state + layout + art pack + camera + light) -> image + ground truth.

:class:`Renderer` draws a table in three stages:

1. **Top-down canvas.** The table surface with markers and reference patch (cached per camera),
   then the tiles, the pieces' soft shadows, the pieces (far to near) and any hands — raised things
   drawn where the camera's rays put them on the plane (see :mod:`vision.pieces`). The canvas of a
   table without hands is cached by the table's content, so video frames that only move a hand
   reuse it.
2. **One warp** through the camera (perspective and lens distortion; :mod:`vision.warp`).
3. **Light and camera effects** on the image: colour temperature, uneven brightness and vignetting
   as one per-pixel gain, a glare spot, then motion blur, defocus, the camera's auto-exposure and
   white-balance gains, sensor noise and JPEG.

The same inputs and ``seed`` always give the same pixels. Ground truth comes from the
:class:`~vision.table.TableModel`, i.e. from the rules state (:mod:`vision.truth`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from games.tribes.rules.state import State
from games.tribes.sim.compose import FLOOR_BGR, TileDrawer, static_layer
from games.tribes.sim.pieces import PieceDraw, PieceRenderer
from games.tribes.sim.scene import PILES, Scene, TileDraw, build_scene
from games.tribes.sim.truth import TRUTH_FORMAT, TRUTH_VERSION, build_truth
from games.tribes.vision.artpack import ArtPack
from games.tribes.vision.layout import Layout
from games.tribes.vision.table import TableModel
from sim.camera import Camera
from sim.effects import Effects, EffectsApplier
from sim.hands import Hand, HandDrawer, arm_capsules, hand_truth
from sim.lighting import Light, light_field
from sim.textures import TEXTURES
from sim.warp import Canvas, Warper
from vision.errors import RenderError


@dataclass
class Frame:
    """A rendered image (BGR uint8) and its ground truth (JSON-able dict)."""

    image: np.ndarray
    truth: dict[str, Any]


class _LRU(OrderedDict[Any, Any]):
    def __init__(self, capacity: int) -> None:
        super().__init__()
        self.capacity = capacity

    def get_or(self, key: Any, make: Any) -> Any:
        if key in self:
            self.move_to_end(key)
            return self[key]
        val = make()
        self[key] = val
        while len(self) > self.capacity:
            self.popitem(last=False)
        return val


class Renderer:
    """Renders tables for one layout and art pack. Reuse one renderer for many frames: it caches
    the camera maps, the table surface, resized tile faces and the last table canvases. ``piles``
    (:data:`~games.tribes.sim.scene.PILES`): how members stand on a hex, ``"fixed"`` (a grid, the
    default) or ``"varied"`` (a ring, a heap or the grid per hex, some members
    leaning on a neighbour or lying on the table)."""

    def __init__(
        self,
        layout: Layout,
        pack: ArtPack,
        texture: str = "oak",
        seed: int = 0,
        surface_margin: float = 150.0,
        table_cache: int = 4,
        piles: str = "fixed",
    ) -> None:
        if texture not in TEXTURES:
            raise RenderError(f"unknown table texture {texture!r}: choose from {', '.join(TEXTURES)}")
        self.layout = layout
        self.pack = pack
        self.texture = texture
        self.seed = seed
        if piles not in PILES:
            raise RenderError(f"unknown piles {piles!r}: choose from {', '.join(PILES)}")
        self.piles = piles
        self.surface_margin = surface_margin
        self.warper = Warper()
        self.tiles = TileDrawer(pack)
        self.effects = EffectsApplier(seed)
        self._canvases: _LRU = _LRU(8)
        self._static: _LRU = _LRU(4)
        self._tables: _LRU = _LRU(table_cache)  # the last tables drawn (~10 MB each at 1080p)
        self._light: _LRU = _LRU(8)

    # --- checks ---------------------------------------------------------------------------------
    def check(self, model: TableModel) -> None:
        """Raise :class:`RenderError` when the table does not fit the layout or the pack."""
        lay = self.layout
        if len(model.seats) > len(lay.seats):
            raise RenderError(
                f"the game has {len(model.seats)} players but layout '{lay.name}' has {len(lay.seats)} seats"
            )
        if len(model.row) > len(lay.row_slots):
            raise RenderError(
                f"the action row holds {len(model.row)} tiles but layout '{lay.name}' has "
                f"{len(lay.row_slots)} row slots"
            )
        most = max((len(b.stones) for era in model.board for b in era), default=0)
        if most > len(lay.stone_slots):
            raise RenderError(
                f"an achievement holds {most} stones but the layout gives {len(lay.stone_slots)} stone slots"
            )
        for s in model.seats:
            self.pack.colour(s.colour)
        for name, n in zip(("offspring", "movement", "exploration", "strength"), model.track_spaces, strict=True):
            lay.track_spaces(name, n)

    # --- stages ---------------------------------------------------------------------------------
    def canvas(self, camera: Camera) -> Canvas:
        """The canvas the renderer uses for ``camera``."""
        reach = self.surface_margin + 60.0
        return self._canvases.get_or(camera.key(), lambda: Canvas.for_camera(camera, self.layout, reach=reach))

    def scene(self, model: TableModel) -> Scene:
        """Where every tile and piece of ``model`` lies."""
        colours = {s.colour: self.pack.colour(s.colour) for s in model.seats}
        return build_scene(model, self.layout, colours, self.pack.shell, self.seed, self.piles)

    def table_canvas(self, model: TableModel, camera: Camera, light: Light, scene: Scene | None = None) -> np.ndarray:
        """The top-down canvas of ``model`` without hands (a cached array: copy before drawing)."""
        canvas = self.canvas(camera)
        key = (model.signature(), camera.key(), light)

        def make() -> np.ndarray:
            base = self._static.get_or(
                (canvas, self.texture),
                lambda: static_layer(self.layout, canvas, self.texture, self.seed, self.surface_margin),
            )
            img = base.copy()
            sc = scene if scene is not None else self.scene(model)
            self.tiles.draw(img, canvas, camera, light, sc.tiles)
            pr = PieceRenderer(camera, canvas, light, self.seed)
            groups = pr.groups(sc.pieces) if sc.pieces else []
            under, erase = self.tiles.shadow_polygons(canvas, light, sc.tiles)
            pr.shadows(img, sc.pieces, groups, under=under, erase=erase)
            pr.draw(img, sc.pieces, groups=groups)
            img.setflags(write=False)
            return img

        return self._tables.get_or(key, make)

    def draw_hands(
        self, image: np.ndarray, camera: Camera, light: Light, hands: Sequence[Hand]
    ) -> list[dict[str, Any]]:
        """Draw hands (and anything they hold) on a canvas image; returns their ground truth."""
        canvas = self.canvas(camera)
        drawer = HandDrawer(camera, canvas, light, self.layout)
        truth = []
        for hand in hands:
            caps = arm_capsules(hand, self.layout)
            drawer.shadow(image, caps)
            drawer.draw(image, caps)
            self._held(image, camera, canvas, light, hand)
            truth.append(hand_truth(hand, drawer.bbox(caps), camera))
        return truth

    def _held(self, image: np.ndarray, camera: Camera, canvas: Canvas, light: Light, hand: Hand) -> None:
        if not hand.holding:
            return
        lift = max(hand.height - 30.0, 4.0)
        if hand.holding.startswith("tile:"):
            face = hand.holding[5:]
            shape = "hex" if face.startswith(("resource-", "exhausted")) else "rect"
            size = (self.layout.hex.flat_to_flat, 0.0) if shape == "hex" else self.layout.action_size
            if face.startswith("achievement"):
                size = self.layout.achievement_size
            tile = TileDraw(face, hand.target, 0.0, shape, size, 1)
            self.tiles.draw(image, canvas, camera, light, [tile], lift=lift, shadow_colour=(40.0, 40.0, 40.0))
            return
        colour = hand.holding_colour or (200, 200, 200)
        piece = PieceDraw(hand.holding, -1, colour, hand.target, 30.0, "held")
        PieceRenderer(camera, canvas, light, self.seed).draw(image, [piece], lift=lift)

    # --- the whole frame ------------------------------------------------------------------------
    def render(
        self,
        table: State | TableModel,
        camera: Camera,
        light: Light | None = None,
        effects: Effects | None = None,
        hands: Sequence[Hand] = (),
        frame_seed: int = 0,
        truth: bool = True,
    ) -> Frame:
        """Render ``table`` (a rules state, or a table model mid-move) as ``camera`` sees it."""
        light = light or Light()
        effects = effects or Effects()
        model = TableModel.from_state(table) if isinstance(table, State) else table
        self.check(model)
        scene = self.scene(model)
        img = self.table_canvas(model, camera, light, scene)
        hand_truth_list: list[dict[str, Any]] = []
        if hands:
            img = img.copy()
            hand_truth_list = self.draw_hands(img, camera, light, hands)
        canvas = self.canvas(camera)
        out = self.warper.warp(img, camera, canvas, FLOOR_BGR)
        gain, glare = self._light.get_or((light, camera.key()), lambda: light_field(light, camera))
        applied = effects
        if effects.neutral:
            cv2.multiply(out, gain, dst=out, scale=1 / 128)
            if glare is not None:
                cv2.add(out, glare, dst=out)
        else:
            # the camera's auto exposure and white balance set what the sensor takes in: the room's
            # light and the camera's gains are one product, saturated once (a room grown brighter
            # does not clip a picture the camera has turned down; one the camera has not caught up
            # with yet does)
            cam = np.array(effects.gains, np.float32)
            lit = out.astype(np.float32) * (gain.astype(np.float32) * (cam / 128.0))
            if glare is not None:
                lit += glare.astype(np.float32) * cam
            out = np.clip(np.rint(lit), 0, 255).astype(np.uint8)
            applied = replace(effects, gain=1.0, channel_gains=(1.0, 1.0, 1.0))
        rng = np.random.default_rng([self.seed, frame_seed])
        out = self.effects.apply(out, applied, rng)
        doc: dict[str, Any] = {}
        if truth:
            doc = self.truth_of(model, camera, light, effects, hand_truth_list, scene)
            doc["frame_seed"] = frame_seed
        return Frame(out, doc)

    def truth_of(
        self,
        table: State | TableModel,
        camera: Camera,
        light: Light | None = None,
        effects: Effects | None = None,
        hands: list[dict[str, Any]] | None = None,
        scene: Scene | None = None,
    ) -> dict[str, Any]:
        """The ground truth of ``table`` as ``camera`` would see it (no image is drawn)."""
        light = light or Light()
        effects = effects or Effects()
        model = TableModel.from_state(table) if isinstance(table, State) else table
        doc: dict[str, Any] = {
            "format": TRUTH_FORMAT,
            "version": TRUTH_VERSION,
            "image": {"width": camera.width, "height": camera.height},
            "seed": self.seed,
            "layout": self.layout.name,
            "pack": self.pack.name,
            "texture": self.texture,
            "camera": camera.to_dict(),
            "light": light.to_dict(),
            "effects": effects.to_dict(),
        }
        pr = PieceRenderer(camera, self.canvas(camera), light, self.seed)
        doc.update(build_truth(model, self.layout, camera, scene or self.scene(model), pr, hands or []))
        return doc

    def hand_truth(self, hand: Hand, camera: Camera) -> dict[str, Any]:
        """Ground truth of one hand (its image box and whether it is in view)."""
        drawer = HandDrawer(camera, self.canvas(camera), Light(), self.layout)
        return hand_truth(hand, drawer.bbox(arm_capsules(hand, self.layout)), camera)
