"""Nearest-neighbour classification against enrolled examples.

An :class:`ExampleClassifier` holds the feature vectors of the enrolled windows of one group (hexes,
row slots or achievement positions) and their class names. A query's score for a class is its
highest cosine similarity to any example of that class (1-nearest neighbour per class); the scores
become probabilities with a softmax at ``temperature``. With ``condense``, near-duplicate examples
of a class (cosine similarity at least that) are kept once. Whatever extracts the features (the ONNX
model or the colour-histogram baseline) is passed in; nothing here knows about pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class ExampleClassifier:
    """Per-class nearest-neighbour scores and softmax probabilities (see the module docstring)."""

    def __init__(
        self, features: np.ndarray, labels: Sequence[str], temperature: float = 0.05, condense: float | None = None
    ) -> None:
        if len(features) != len(labels):
            raise ValueError(f"{len(features)} feature vectors for {len(labels)} labels")
        if condense is not None and len(labels):
            features, labels = _condense(np.asarray(features, np.float32), list(labels), condense)
        self.classes: list[str] = sorted(set(labels))
        self.index = {c: i for i, c in enumerate(self.classes)}
        order = np.argsort([self.index[lb] for lb in labels], kind="stable")
        self.features = np.ascontiguousarray(np.asarray(features, np.float32)[order])
        ids = np.asarray([self.index[labels[i]] for i in order], np.int64)
        self.starts = np.searchsorted(ids, np.arange(len(self.classes)))
        self.temperature = temperature

    def __len__(self) -> int:
        return len(self.classes)

    def scores(self, queries: np.ndarray) -> np.ndarray:
        """M x C: best cosine similarity of each query to each class."""
        if len(self.classes) == 0:
            return np.zeros((len(queries), 0), np.float32)
        sims = np.asarray(queries, np.float32) @ self.features.T
        return np.maximum.reduceat(sims, self.starts, axis=1)

    def probabilities(self, queries: np.ndarray) -> np.ndarray:
        """M x C softmax of the scores."""
        s = self.scores(queries) / self.temperature
        if s.shape[1] == 0:
            return s
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        return p / p.sum(axis=1, keepdims=True)

    def column(self, name: str) -> int | None:
        """Index of class ``name`` (None when it was not enrolled)."""
        return self.index.get(name)


def _condense(features: np.ndarray, labels: list[str], similar: float) -> tuple[np.ndarray, list[str]]:
    """Per class, drop examples whose cosine similarity to an example kept before is at least
    ``similar`` (near duplicates: the same tile seen from almost the same spot). A query's best
    similarity to the class then changes by little, and comparing costs less."""
    keep: list[int] = []
    by_class: dict[str, list[int]] = {}
    for i, lb in enumerate(labels):
        by_class.setdefault(lb, []).append(i)
    for idx in by_class.values():
        kept: list[int] = []
        for i in idx:
            if not kept or float((features[kept] @ features[i]).max()) < similar:
                kept.append(i)
        keep += kept
    keep.sort()
    return features[keep], [labels[i] for i in keep]
