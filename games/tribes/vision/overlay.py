"""The annotated camera picture for the web page: what the tracker thinks, drawn onto the frame.

:func:`annotate` draws a status banner (the tracker's state in colour and its message) and, where the
pixel positions are known (ground truth of a rendered table), outlines the hexes and row slots a
desync names; with the camera pipeline, what it read is drawn first by ``Recognizer.annotate``.
:func:`encode_jpeg` makes the bytes for the MJPEG stream; :func:`annotator` combines both into the
callable the camera loop takes (``tracker.loop.CameraLoop(annotate=...)``), scaled down so that one
encode serves every viewer cheaply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import cv2
import numpy as np

from games.tribes.vision.observation import Observation

KIND_COLOURS: dict[str, tuple[int, int, int]] = {  # BGR
    "watching": (60, 170, 60),
    "settling": (60, 170, 170),
    "changing": (40, 160, 220),
    "waiting": (30, 140, 240),
    "hand": (130, 130, 130),
    "prompt": (200, 120, 40),
    "desync": (40, 40, 220),
    "no_table": (90, 90, 90),
    "idle": (90, 90, 90),
}


def annotate(
    image: np.ndarray,
    obs: Observation | None,
    status: Mapping[str, Any],
    truth: Mapping[str, Any] | None = None,
) -> np.ndarray:
    """A copy of ``image`` with the tracker's ``status`` (its JSON data) drawn on it; ``truth`` (a
    renderer ground-truth document) gives the pixel outlines of hexes and slots named by a desync."""
    out = image.copy()
    h, w = out.shape[:2]
    kind = str(status.get("kind", "idle"))
    colour = KIND_COLOURS.get(kind, (90, 90, 90))
    desync = status.get("desync") or {}
    if truth is not None and desync:
        _outline_facts(out, desync.get("facts", []), truth, colour)
    scale = max(0.5, w / 1600)
    band = int(44 * scale)
    cv2.rectangle(out, (0, 0), (w, band), colour, -1)
    text = f"{kind.upper()}  {status.get('message', '')}"
    if len(text) > 110:
        text = text[:107] + "..."
    cv2.putText(
        out, text, (int(10 * scale), int(30 * scale)), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, (255, 255, 255), 2
    )
    if obs is not None:
        foot = f"frame {obs.frame}  t={obs.time:.1f}s  {'settled' if obs.settled else 'moving'}"
        if obs.hidden:
            foot += "  hidden: " + ", ".join(obs.hidden)
        cv2.putText(
            out,
            foot,
            (int(10 * scale), h - int(12 * scale)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.55 * scale,
            (255, 255, 255),
            2,
        )
    return out


def _outline_facts(
    out: np.ndarray, facts: list[Mapping[str, Any]], truth: Mapping[str, Any], colour: tuple[int, int, int]
) -> None:
    for f in facts:
        key = f.get("key") or []
        if not key:
            continue
        kind = key[0]
        corners = None
        if kind in ("land", "members"):
            seat, hx = key[1], str(key[2])
            for hexd in truth.get("hexes", []):
                if hexd["seat"] == seat and f"{hexd['hex'][0]},{hexd['hex'][1]}" == hx:
                    corners = hexd.get("corners")
                    break
        elif kind in ("slot", "slotshells"):
            for s in truth.get("row", []):
                if s["slot"] == key[1]:
                    corners = s.get("corners")
                    break
        elif kind in ("board", "stones"):
            for b in truth.get("board", []):
                if b["era"] == key[1] and b["col"] == key[2]:
                    corners = b.get("corners")
                    break
        if corners:
            pts = np.round(np.asarray(corners, np.float64)).astype(np.int32).reshape(-1, 1, 2)
            cv2.polylines(out, [pts], True, colour, 4, cv2.LINE_AA)


def encode_jpeg(image: np.ndarray, quality: int = 75) -> bytes:
    """JPEG bytes of a BGR image."""
    ok, buf = cv2.imencode(".jpg", image, [int(cv2.IMWRITE_JPEG_QUALITY), int(quality)])
    if not ok:  # pragma: no cover - OpenCV always encodes a valid uint8 image
        raise ValueError("the picture could not be encoded as JPEG")
    return buf.tobytes()


def annotator(
    image_of: Callable[[Any], np.ndarray],
    truth_of: Callable[[Any], Mapping[str, Any] | None] | None = None,
    width: int = 960,
    quality: int = 75,
) -> Callable[[Any, Observation, dict[str, Any]], bytes]:
    """The camera loop's ``annotate``: the frame's picture (``image_of(frame)``), drawn on, scaled to
    ``width`` pixels, JPEG-encoded."""

    def draw(frame: Any, obs: Observation, status: dict[str, Any]) -> bytes:
        image = image_of(frame)
        if image is None:  # no picture for this frame (a short video): the status on grey
            image = np.full((540, 960, 3), 48, np.uint8)
        img = annotate(image, obs, status, truth_of(frame) if truth_of else None)
        h, w = img.shape[:2]
        if w > width:
            img = cv2.resize(img, (width, round(h * width / w)), interpolation=cv2.INTER_AREA)
        return encode_jpeg(img, quality)

    return draw
