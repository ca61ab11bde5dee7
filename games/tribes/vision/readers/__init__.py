"""Readers: one per region of the table, each turning windows of a registered, colour-normalised
frame into facts of the Observation with confidences.

``land`` (tiles and members per seat), ``row`` (action row tiles, solved as an assignment, and the
shells on them), ``board`` (achievement tiles and stones), ``tracks`` (progress markers) and
``shells`` (shells per seat). They share :class:`~games.tribes.vision.readers.base.FrameContext`. Nothing heavy
is imported here.
"""
