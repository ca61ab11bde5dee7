"""Training the camera models: data cut from rendered tables (``dataset``), training and export to ONNX
(``train``, needs the ``train`` extra), tuning the recognizer's settings (``tune``) and the split of
what training may use (``games.tribes.sim.splits``: packaged, since the demo's evaluation helpers
read it). See models/MODEL_CARD.md."""
