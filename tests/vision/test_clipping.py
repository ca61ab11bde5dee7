"""``vision.clipping`` and the patch's clipped fields: a brighter light the camera has not caught up
with cuts pale art off at the top of the scale; the enrolled examples are shown cut off alike, and a
patch field read at 255 says nothing of the normalisation."""

from __future__ import annotations

import numpy as np

from vision.classify import ExampleClassifier
from vision.clipping import CLIP_OVER, CLIP_STEP, ClippedExamples, ceilings
from vision.colour import SATURATED, ColourNorm, fit_norm
from vision.light import LightField

PX = 8


def _face(colour: tuple[float, float, float], mark: float) -> np.ndarray:
    """A tile of one colour (BGR, normalised) with a dark square mark in the middle."""
    w = np.ones((PX, PX, 3), np.float32) * np.asarray(colour, np.float32)
    w[3:5, 3:5] = mark
    return w


class _Mean:
    """A feature model that sees the mean colour of the visible pixels (unit vectors), counting its
    calls and the windows it was given."""

    def __init__(self) -> None:
        self.windows = 0

    def __call__(self, batch: np.ndarray, cover: np.ndarray | None) -> np.ndarray:
        self.windows += len(batch)
        seen = np.ones(batch.shape[:3], bool) if cover is None else ~cover
        m = np.stack([batch[i][seen[i]].mean(axis=0) for i in range(len(batch))])
        f = np.concatenate([m - m.mean(axis=1, keepdims=True), 0.2 * m.mean(axis=1, keepdims=True)], axis=1)
        return np.asarray(f / np.linalg.norm(f, axis=1, keepdims=True), np.float32)


def _examples(encode: _Mean) -> tuple[ExampleClassifier, ClippedExamples]:
    """The classifier of three examples as enrolled, and the examples for clipping."""
    # a pale warm face and a grey-white back, both over the ceiling below: a camera that clips at
    # 0.86 shows the face nearly as grey as the back
    windows = np.stack([_face((0.80, 0.95, 1.00), 0.3), _face((0.92, 0.92, 0.92), 0.3), _face((0.2, 0.4, 0.3), 0.1)])
    labels = ["horse", "back", "forest"]
    covers = np.zeros((1, PX, PX), bool)
    covers[0, :, : PX // 2] = True  # the left half hidden, as under members
    sources = np.array([[0, -1], [1, -1], [2, -1], [0, 0], [1, 0], [2, 0]])
    feats = np.concatenate([encode(windows, None), encode(windows, np.repeat(covers, 3, axis=0))])
    rows = [labels[i] for i in sources[:, 0]]
    base = ExampleClassifier(feats, rows, 0.05)
    encode.windows = 0
    return base, ClippedExamples(windows, feats, rows, sources, covers, encode, 0.05, None)


def test_a_ceiling_above_every_example_keeps_the_classifier_as_enrolled() -> None:
    enc = _Mean()
    _, ex = _examples(enc)
    assert ex.classifier(np.array([1.2, 1.2, 1.2])) is None  # the examples as enrolled serve
    assert ex.classifier(np.array([1.0 - CLIP_OVER / 2] * 3)) is None  # within the jitter allowed
    assert enc.windows == 0 and ex.built == 0


def test_examples_over_the_ceiling_are_made_again_clipped_and_the_rest_kept() -> None:
    enc = _Mean()
    base, ex = _examples(enc)
    ceiling = np.array([0.86, 0.86, 0.86])  # a step of its own (43 x 0.02)
    cls = ex.classifier(ceiling)
    assert cls is not None and cls is not base and ex.built == 1
    assert enc.windows == 4  # the face and the back, plain and covered; the dark forest tile kept
    # the clipped face now reads as its label, not the back's: the camera shows it white with its mark
    shown = np.minimum(_face((0.80, 0.95, 1.00), 0.3), 0.86)[None]
    q = _Mean()(shown, None)
    assert base.classes[int(np.argmax(base.scores(q)))] == "back"
    assert cls.classes[int(np.argmax(cls.scores(q)))] == "horse"
    # the forest tile's vectors are the enrolled ones
    assert np.allclose(cls.features[cls.starts[cls.index["forest"]]], ex.features[2])
    # a ceiling within the same step: the classifier kept, nothing encoded again
    again = ex.classifier(ceiling + CLIP_STEP / 4)
    assert again is cls and ex.built == 1 and enc.windows == 4
    assert ex.classifier(ceiling - 2 * CLIP_STEP) not in (None, cls) and ex.built == 2


def test_the_ceiling_is_white_at_255_under_the_patch_and_the_light_field() -> None:
    norm = ColourNorm((1.2, 1.1, 1.0), (0.0, 0.0, 0.0))  # a brighter light: 255 is printed white / 1.2
    flat = ceilings(norm, None, np.zeros((2, 2)))
    assert np.allclose(flat, [[1 / 1.2, 1 / 1.1, 1.0]] * 2, atol=0.01)
    brighter = LightField(colour=(np.log(1.25), 0.0, 0.0))  # and 25 % more blue than at enrollment
    assert np.allclose(ceilings(norm, brighter, np.zeros((1, 2)))[0], [1 / 1.2 / 1.25, 1 / 1.1, 1.0], atol=0.01)


def test_a_patch_field_clipped_by_the_sensor_is_left_out_of_the_normalisation() -> None:
    printed = np.array([245.0, 128.0, 24.0])
    gain, offset = np.array([1.25, 1.2, 1.15]), np.array([3.0, 4.0, 5.0])
    true = printed[:, None] * gain + offset
    observed = np.minimum(true, 255.0)  # the white field reaches the top of the scale
    assert (observed[0] >= SATURATED).all()
    norm = fit_norm(observed, printed)
    assert norm is not None
    assert np.allclose(norm.gain, gain, atol=1e-6) and np.allclose(norm.offset, offset, atol=1e-4)
    # a pale face printed at 200 is mapped to 200, not (as fitted through the clipped white) brighter
    pix = (np.array([[[200.0, 200.0, 200.0]]]) * gain + offset).astype(np.float32)
    assert np.allclose(norm.apply(pix) * 255, 200.0, atol=0.5)
    # with only one field left there is no line to fit: the caller keeps the last normalisation
    both = observed.copy()
    both[1] = 255.0
    assert fit_norm(both, printed) is None
    # a dark room with an offset below zero: the black field cut off at 0 is left out alike
    dark = np.maximum(np.repeat(printed[:, None] * 0.5 - 15.0, 3, axis=1), 0.0)
    assert dark[2, 0] == 0.0
    got = fit_norm(dark, printed)
    assert got is not None and np.allclose(got.gain, 0.5) and np.allclose(got.offset, -15.0)
