"""``vision.colour.likeness``: a Gaussian of the Lab distance to one colour, lightness weighted half."""

from __future__ import annotations

import math

import numpy as np

from vision.colour import likeness


def test_likeness_is_a_gaussian_of_the_weighted_distance() -> None:
    ref = np.array([50.0, 10.0, -20.0], np.float32)
    sigma = 14.0
    px = np.array(
        [
            ref,  # the colour itself
            ref + np.array([0.0, sigma, 0.0]),  # one sigma away in hue
            ref + np.array([2 * sigma, 0.0, 0.0]),  # two sigma in lightness count as one
            ref + np.array([0.0, 0.0, 3 * sigma]),
        ],
        np.float32,
    ).reshape(2, 2, 3)
    got = likeness(px, ref, sigma)
    assert got.shape == (2, 2) and got.dtype == np.float32
    want = [1.0, math.exp(-0.5), math.exp(-0.5), math.exp(-4.5)]
    np.testing.assert_allclose(got.ravel(), want, rtol=1e-5)
    # the chroma weight scales hue differences only
    np.testing.assert_allclose(likeness(px, ref, sigma, chroma_weight=0.25).ravel()[1], math.exp(-0.125), rtol=1e-5)


def test_likeness_of_no_pixels_and_of_float64_input() -> None:
    assert likeness(np.zeros((0, 5, 3)), np.zeros(3)).shape == (0, 5)
    x = np.random.default_rng(1).normal(40, 20, (7, 9, 3))
    ref = np.array([40.0, 0.0, 0.0])
    d = x - ref
    want = np.exp(-(0.25 * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) / (2 * 14.0**2))
    np.testing.assert_allclose(likeness(x, ref), want, rtol=1e-4, atol=1e-6)


def test_likeness_to_a_colour_per_pixel() -> None:
    """A reference per pixel (as the arrow reader's bare look) is broadcast against the pixels."""
    rng = np.random.default_rng(2)
    x = rng.normal(50, 20, (4, 6, 3)).astype(np.float32)
    refs = rng.normal(50, 20, (4, 6, 3)).astype(np.float32)
    got = likeness(x, refs, 10.0)
    assert got.shape == (4, 6)
    for i, j in [(0, 0), (3, 5), (2, 1)]:
        np.testing.assert_allclose(got[i, j], likeness(x[i, j], refs[i, j], 10.0), rtol=1e-5)
