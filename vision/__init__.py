"""vision: the camera side of the companion — table layout, printable markers and a renderer of game
tables with ground truth (the camera pipeline that reads real frames builds on these).

Modules, one concern each: ``layout`` (the table in millimetres), ``markers``/``sheets``/``pdf``/
``pngdpi`` (printing), ``camera`` and ``warp`` (the camera model and the one resampling),
``artpack``/``packart``/``photopack`` (tile art), ``table``/``scene`` (what lies where, from the
rules state), ``compose``/``pieces``/``hands``/``textures``/``lighting``/``effects`` (drawing),
``render`` (the facade), ``truth`` (ground truth), ``video`` (whole games), ``randomize``
(random conditions) and ``cli``. Nothing heavy is imported here. See docs/renderer.md and
docs/table-layout.md.
"""
