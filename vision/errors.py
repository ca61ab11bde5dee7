"""Typed errors of the vision package. Every one is a :class:`ValueError` with a one-line message.

Errors about a data file (layout, art pack, photo folder, models, enrollment) name the file, the field
and the reason, in the ``file: field: reason`` form of every data file (:class:`datafile.DataFileError`).
"""

from __future__ import annotations

import datafile


class VisionError(ValueError):
    """Base class of every error the vision package raises for bad input."""


class VisionFileError(VisionError, datafile.DataFileError):
    """A data file or folder that is malformed: names the file, the field and the reason."""

    def __init__(self, source: str, field: str, reason: str) -> None:
        datafile.DataFileError.__init__(self, source, field, reason)


class LayoutError(VisionFileError):
    """A table layout that fails validation."""


class ArtPackError(VisionFileError):
    """An art pack folder that is incomplete or malformed."""


class PhotoPackError(VisionFileError):
    """Photos of tiles that cannot be turned into an art pack."""


class PhotoPackErrors(PhotoPackError):
    """Several photos that cannot be used, reported together: ``problems`` holds one
    :class:`PhotoPackError` per photo; ``str()`` is one line per problem (the CLI prints each with
    its own ``error:`` prefix). ``source``/``field``/``reason`` are the first problem's."""

    def __init__(self, problems: list[PhotoPackError]) -> None:
        if not problems:
            raise ValueError("PhotoPackErrors needs at least one problem")
        self.problems = list(problems)
        first = self.problems[0]
        self.source, self.field, self.reason = first.source, first.field, first.reason
        ValueError.__init__(self, "\n".join(str(p) for p in self.problems))


class CameraError(VisionError):
    """Camera settings outside what the renderer supports (tilt, resolution, …)."""


class RenderError(VisionError):
    """A state, layout and pack that cannot be rendered together (e.g. too few row slots)."""


class ModelError(VisionFileError):
    """A model file that is missing, unreadable or not the model the pipeline expects."""


class EnrollmentError(VisionFileError):
    """An enrollment file that is malformed, or an enrollment that cannot be built from the input."""


class FrameError(VisionError):
    """A frame that is not an image the pipeline can read (empty, wrong type or shape)."""


class SourceError(VisionError):
    """A frame source that cannot be opened (no such camera, file or folder, bad URL)."""


class ImageTooLargeError(FrameError):
    """A picture over the pixel cap (:data:`vision.images.MAX_PIXELS`): refused before it is decoded."""
