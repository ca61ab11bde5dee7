"""vision: the camera side of the companion — table layout, printable markers, a renderer of game
tables with ground truth, and the camera pipeline that reads frames into Observations.

Modules, one concern each: ``layout`` (the table in millimetres), ``markers``/``sheets``/``pdf``/
``pngdpi`` (printing), ``camera`` and ``warp`` (the camera model and the one resampling),
``artpack``/``packart``/``photopack`` (tile art), ``table``/``scene`` (what lies where, from the
rules state), ``compose``/``pieces``/``hands``/``textures``/``lighting``/``effects`` (drawing),
``render`` (the facade), ``truth`` (ground truth), ``video`` (whole games), ``randomize``
(random conditions) and ``cli``. The camera pipeline, behind the ``recognizer`` facade: ``sources``
(frame sources, capture thread), ``motion`` (gate), ``registration``, ``regions``/``sampling``
(windows on the table), ``colour`` (reference patch), ``occlusion``/``encoder``/``features``/
``classify`` (tile features and enrolled examples), ``enrollment``, ``assign`` (assignment solver),
``readers`` (land, row, board, tracks, shells), ``annotate`` (drawing), ``evaluation`` (scoring on
rendered sessions) and ``cli_camera``. Nothing heavy is imported here. See docs/renderer.md,
docs/table-layout.md and docs/camera.md.
"""
