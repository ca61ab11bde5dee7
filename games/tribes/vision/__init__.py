"""Tribes' camera side: the table layout (``layout``, ``layouts/``), where the readers look (``regions``),
the readers (``readers/``), tile features (``encoder``), enrollment of the user's box (``enrollment``,
``artpack``, ``photopack``), the recognizer (``recognizer``: frame → :class:`observation.Observation`),
what lies on the table (``table``), drawing what was read (``annotate``, ``overlay``) and the camera
commands (``cli``: enroll, recognize, print-markers, layout). See docs/camera.md."""
