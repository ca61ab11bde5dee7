"""Data files the recognisers load (ONNX weights with their model cards).

Files are found with :mod:`importlib.resources`, never by walking up from ``__file__``.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable


def model_file(name: str) -> Traversable:
    """Return the packaged data file ``name`` (it may not exist yet)."""
    return resources.files(__name__).joinpath(name)
