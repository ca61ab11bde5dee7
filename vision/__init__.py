"""vision: the game-neutral camera side of the companion — frames in, a registered table plane and the
tools a game's readers use.

Modules, one concern each: ``sources`` (webcams, video files, folders, stream URLs; the capture thread
that always hands out the newest frame), ``motion`` (the motion gate: is the table still?),
``layout`` (the table frame every game's layout shares: ArUco markers, the colour patch, geometry),
``markers``/``sheets``/``pdf``/``pngdpi`` (the marker detector and printable sheets),
``registration`` (where the table plane lies in a frame), ``patches``/``sampling`` (square windows
of the table cut out of a frame), ``colour`` (normalisation against the printed patch),
``occlusion``/``features``/``classify``/``templates`` (features, small ONNX models and nearest-
neighbour classification against enrolled examples), ``assign`` (an assignment solver) and
``errors``. A game's own readers, enrollment and recognizer live in ``games/<id>/vision/``; the
synthetic table (renderer) in ``sim/`` and ``games/<id>/sim/``. Nothing heavy is imported here. See
docs/camera.md and docs/architecture.md.
"""

import os as _os

_os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "64000000")  # before OpenCV loads: vision.images.MAX_PIXELS
